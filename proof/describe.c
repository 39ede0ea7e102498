/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the CLI's reader of the operations section of `velero
 * backup|restore describe --details` (tools/describe_in.c,
 * cli_describe_ops(), with the header helpers of tools/describe_hdr.c) as
 * the CLI calls it on an input. Two input shapes: 0 to PROOF_N unknown
 * bytes, and a fixed start (the section's title line, or the title, an
 * operation's first line and its plugin label) followed by 0 to PROOF_N
 * unknown bytes, so that the operation reader (labels, item lists,
 * continued values) is reached at a small bound. Allocation may fail
 * (Frama-C's malloc may return NULL, and proof/memstream.c's
 * open_memstream() may too); memcmp() is proof/memcmp.c's model.
 * doc/proof.md. */
#include <string.h>

#include "proof_input.h"
#include "text_in.h"

static const char *const starts[] = {
    "Backup Item Operations:\n",
    "Restore Item Operations:\n  Operation for a:\n    Restore Item Action Plugin:",
};

int main(void)
{
    char buf[PROOF_N + 96];
    size_t len;
    cli_conv c;
    char *s = proof_started_input(buf, sizeof(buf), starts, (int)(sizeof(starts) / sizeof(starts[0])), &len);
    int rc = cli_describe_ops(s, len, &c);
    if (rc == 0)
        cli_conv_free(&c);
    return rc & 1;
}
