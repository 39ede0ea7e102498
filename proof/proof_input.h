/* SPDX-License-Identifier: Apache-2.0 */
/* The input model of the proof drivers (doc/proof.md). PROOF_INPUT(s, len,
 * lo) makes s a byte array of exactly len bytes, every byte unknown, for
 * every len in [lo, PROOF_N]. Frama_C_interval_split() keeps one analysis
 * state per length (to the end of the calling function, main), so
 * the array's size is exact in each state: a read one byte past the input
 * is an alarm, not hidden by slack in a larger buffer. Every state gets its
 * own allocated base (-eva-alloc-builtin fresh). A failed malloc of the
 * model ends the driver (that path is not the library's). */
#ifndef VS_PROOF_INPUT_H
#define VS_PROOF_INPUT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "__fc_builtin.h"

#ifndef PROOF_N
#define PROOF_N 64
#endif

#define PROOF_INPUT(s, len, lo)                              \
    do {                                                     \
        (len) = (size_t)Frama_C_interval_split(lo, PROOF_N); \
        (s) = malloc((len) ? (len) : 1);                     \
        if (!(s))                                            \
            return 0;                                        \
        Frama_C_make_unknown((s), (len));                    \
    } while (0)

/* The input of the text readers' drivers (proof/table.c, proof/describe.c):
 * nothing, or one of the n fixed starts, followed by 0 to PROOF_N unknown
 * bytes, placed so that it ends at the end of buf[0..cap) (a read past it is
 * an alarm) and the bytes before it are never written (a read before it is
 * an \initialized alarm). cap must be PROOF_N plus the longest
 * start. Returns the input's first byte; *len its length. prove.sh inlines
 * it into main (-inline-calls): called, the states its interval splits make
 * would be joined again at its return, and every length analysed at once. */
static inline char *proof_started_input(char *buf, size_t cap, const char *const *starts, int n, size_t *len)
{
    size_t hlen = 0, tail;
    char *s;
    int k = Frama_C_interval_split(-1, n - 1);
    if (k >= 0)
        hlen = strlen(starts[k]);
    tail = (size_t)Frama_C_interval_split(0, PROOF_N);
    *len = hlen + tail;
    s = buf + cap - *len;
    if (k >= 0)
        memcpy(s, starts[k], hlen);
    Frama_C_make_unknown(s + hlen, tail);
    return s;
}

#endif /* VS_PROOF_INPUT_H */
