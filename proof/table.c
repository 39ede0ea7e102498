/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the CLI's BSL table reader (tools/table_in.c,
 * cli_table_bsls()) as the CLI calls it on an input, with any `now`. Two
 * input shapes: 0 to PROOF_N unknown bytes (where a header line of
 * `velero backup-location get` or `kubectl get` does not fit, so the
 * rejection of the first line is what is analysed), and one of four table
 * headers (the three the printers write, single-spaced so that the columns
 * start early, and one with the time columns first) followed by 0 to
 * PROOF_N unknown bytes (the rows: the cells, ages, Go times, the JSON
 * writer). Allocation may fail (Frama-C's malloc may return NULL, and
 * proof/memstream.c's open_memstream() may too). doc/proof.md. */
#include <stdint.h>
#include <string.h>

#include "proof_input.h"
#include "text_in.h"

static const char *const headers[] = {
    "NAME PROVIDER BUCKET/PREFIX PHASE LAST VALIDATED ACCESS MODE DEFAULT\n",
    "NAME PHASE LAST VALIDATED AGE DEFAULT\n",
    "NAMESPACE NAME PHASE LAST VALIDATED AGE DEFAULT\n",
    /* the reader takes the columns in any order: this one puts the two time
     * columns first, so that a row of a few bytes fills them (an age, the
     * start of a Go time) instead of leaving them empty */
    "AGE LAST VALIDATED NAME PHASE DEFAULT\n",
};

int main(void)
{
    char buf[PROOF_N + 96];
    size_t len;
    cli_conv c;
    char *s = proof_started_input(buf, sizeof(buf), headers, (int)(sizeof(headers) / sizeof(headers[0])), &len);
    int rc = cli_table_bsls(s, len, Frama_C_long_long_interval(INT64_MIN, INT64_MAX), &c);
    if (rc == 0)
        cli_conv_free(&c);
    return rc & 1;
}
