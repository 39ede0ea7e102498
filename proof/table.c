/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the CLI's BSL table reader (tools/table_in.c,
 * cli_table_bsls()) as the CLI calls it on an input, with any `now`. Two
 * input shapes: 0 to PROOF_N unknown bytes (where a header line of
 * `velero backup-location get` or `kubectl get` does not fit, so the
 * rejection of the first line is what is analysed), and one of the table
 * headers, single-spaced so that the columns start early, followed by 0 to
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
    int k = Frama_C_interval_split(-1, (int)(sizeof(headers) / sizeof(headers[0])) - 1);
    if (k >= 0)
        hlen = strlen(headers[k]);
    tail = (size_t)Frama_C_interval_split(0, PROOF_N);
    len = hlen + tail;
    s = buf + sizeof(buf) - len;
    if (k >= 0)
        memcpy(s, headers[k], hlen);
    Frama_C_make_unknown(s + hlen, tail);
    rc = cli_table_bsls(s, len, Frama_C_long_long_interval(INT64_MIN, INT64_MAX), &c);
    if (rc == 0)
        cli_conv_free(&c);
    return rc & 1;
}
