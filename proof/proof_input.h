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

#endif /* VS_PROOF_INPUT_H */
