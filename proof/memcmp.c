/* SPDX-License-Identifier: Apache-2.0 */
/* The model of memcmp() for the proof of the CLI's describe reader (module
 * describe, doc/proof.md). Frama-C's libc declares memcmp() with a contract
 * whose result is a logic function EVA does not evaluate, so every
 * comparison with a label, even of known bytes, would be "equal or not"
 * for it and the reader's line types all unknown. This body returns -1, 0
 * or 1 by the first byte that differs (C only specifies the sign); EVA
 * analyses it, so a comparison of known bytes has its one answer, and in
 * the state where it returned 0 each compared byte is known. With a body,
 * EVA does not check the contract's preconditions at the calls, so the
 * assertions below check them here, at every call: both ranges of n bytes
 * readable and initialised (a real memcmp() may read them all), each an
 * alarm of this file when EVA cannot prove it. */
#include <string.h>

int memcmp(const void *s1, const void *s2, size_t n)
{
    const unsigned char *a = s1, *b = s2;
    /*@ assert valid_s1: n == 0 || \valid_read(a + (0 .. n - 1)); */
    /*@ assert valid_s2: n == 0 || \valid_read(b + (0 .. n - 1)); */
    /*@ assert initialization_s1: n == 0 || \initialized(a + (0 .. n - 1)); */
    /*@ assert initialization_s2: n == 0 || \initialized(b + (0 .. n - 1)); */
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}
