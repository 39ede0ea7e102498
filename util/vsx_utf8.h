/* SPDX-License-Identifier: Apache-2.0 */
/* The internal layer the library and the command-line tool share (util/,
 * prefix vsx_, as curl's curlx_): code both need that is no public API. Not
 * installed; never part of libvelstatus's interface.
 *
 * The one UTF-8 decoder of the tree, strict as RFC 3629 and Go's
 * unicode/utf8 (DecodeRune, RuneCount) are: no overlong forms, no encoded
 * surrogates, nothing above U+10FFFF, no truncated sequence. The JSON
 * scanner rejects what it refuses, the JSON writer turns it into \ufffd and
 * the tab writer counts it as one rune per byte; the CLI's SVG writer
 * replaces it. Inline: the scanner calls it for every non-ASCII character. */
#ifndef VSX_UTF8_H
#define VSX_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence that starts s[0 ..
 * len), len >= 1, with its code point in *cp; 0 (and *cp untouched) where
 * none starts there. */
static inline size_t vsx_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t n, k;
    uint32_t v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        v = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        v = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        v = c & 0x07u;
    } else {
        return 0; /* a continuation byte, C0, C1 (always overlong) or F5..FF */
    }
    if (len < n)
        return 0;
    for (k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[k] & 0x3Fu);
    }
    if ((n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

#endif /* VSX_UTF8_H */
