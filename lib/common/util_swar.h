/* SPDX-License-Identifier: Apache-2.0 */
/* Eight bytes at a time in portable C ("SIMD within a register"): the
 * tests the JSON scanner (json_scan.c) and the JSON string writer (core.c)
 * use to pass over runs of bytes that need nothing done. No
 * instruction-set-specific code: the same C runs everywhere, so there is no
 * second path to select or to test apart. Each test says whether SOME byte
 * of the word matches (exactly; which one is then found a byte at a time),
 * whatever the byte order. Not installed. */
#ifndef VELSTATUS_UTIL_SWAR_H
#define VELSTATUS_UTIL_SWAR_H

#include <stdint.h>
#include <string.h>

#define VS__SWAR_ONES UINT64_C(0x0101010101010101)
#define VS__SWAR_HIGHS UINT64_C(0x8080808080808080)

/* The eight bytes at s, in any alignment. */
static inline uint64_t velstatus__swar_load(const unsigned char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

/* Non-zero when some byte of w is 0 (Mycroft's test). */
static inline uint64_t velstatus__swar_zero(uint64_t w)
{
    return (w - VS__SWAR_ONES) & ~w & VS__SWAR_HIGHS;
}

/* Non-zero when some byte of w is c. */
static inline uint64_t velstatus__swar_has(uint64_t w, unsigned char c)
{
    return velstatus__swar_zero(w ^ (VS__SWAR_ONES * c));
}

/* Non-zero when some byte of w is not printable ASCII or is '"' or '\\':
 * below 0x20, at or above 0x80 (a byte of a multi-byte sequence). */
static inline uint64_t velstatus__swar_json_special(uint64_t w)
{
    return ((w - VS__SWAR_ONES * 0x20) & ~w & VS__SWAR_HIGHS) | (w & VS__SWAR_HIGHS) | velstatus__swar_has(w, '"') |
           velstatus__swar_has(w, '\\');
}

#endif /* VELSTATUS_UTIL_SWAR_H */
