/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the CLI's reader of the operations section of `velero
 * backup|restore describe --details` (tools/describe_in.c,
 * cli_describe_ops(), with the header helpers of tools/describe_hdr.c) as
 * the CLI calls it on an input. Two input shapes: 0 to PROOF_N unknown
 * bytes, and a fixed start (the section's title line, or the title, an
 * operation's first line and its plugin label) followed by 0 to PROOF_N
 * unknown bytes, so that the operation reader (labels, item lists,
 * continued values, the realloc of a continued value) is reached at a
 * small bound. Allocation may fail (Frama-C's malloc and realloc may return
 * NULL, and proof/memstream.c's open_memstream() may too). doc/proof.md. */
#include <string.h>

#include "proof_input.h"
#include "text_in.h"

static const char *const starts[] = {
    "Backup Item Operations:\n",
    "Restore Item Operations:\n  Operation for a:\n    Restore Item Action Plugin:",
};

int main(void)
{
    /* The input ends at the end of buf (a read past it is an alarm) and
     * the bytes before it are never written (a read before it is an
     * \initialized alarm), so the array is exact without a malloc()
     * (these modules allocate by call stack, prove.sh). */
    char buf[PROOF_N + 96];
    char *s;
    size_t len, hlen = 0, tail;
    cli_conv c;
    int rc;
    int k = Frama_C_interval_split(-1, (int)(sizeof(starts) / sizeof(starts[0])) - 1);
    if (k >= 0)
        hlen = strlen(starts[k]);
    tail = (size_t)Frama_C_interval_split(0, PROOF_N);
    len = hlen + tail;
    s = buf + sizeof(buf) - len;
    if (k >= 0)
        memcpy(s, starts[k], hlen);
    Frama_C_make_unknown(s + hlen, tail);
    rc = cli_describe_ops(s, len, &c);
    if (rc == 0)
        cli_conv_free(&c);
    return rc & 1;
}
