/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the JSON scanner (lib/common/json_scan.c) on every byte string of
 * 0 to PROOF_N bytes. The decoders of untrusted JSON (the oplist, BSL and
 * plugin-answer decoders, the streaming decoder) reach the text only
 * through velstatus__json_ws() and velstatus__json_scan(), the latter at
 * an offset i of the text with length len - i: that suffix is itself a
 * string of at most PROOF_N bytes, so this driver, which scans every such
 * string from its start, covers those calls (doc/proof.md). */
#include "common/json_scan.h"
#include "proof_input.h"

int main(void)
{
    char *s;
    size_t len, end = 0, ws;
    velstatus__json_scan_err e;
    PROOF_INPUT(s, len, 0);
    ws = velstatus__json_ws(s, 0, len);
    (void)velstatus__json_scan(s, len, &end, &e);
    free(s);
    return (int)((ws + end) & 1);
}
