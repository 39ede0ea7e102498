/* SPDX-License-Identifier: Apache-2.0 */
/* The one string hash of the library: 64-bit FNV-1a (offset basis
 * 14695981039346656037, prime 1099511628211) over the bytes, for the
 * open-addressing tables of progress units and tracked BSL names. Not for
 * anything an attacker must not collide: callers compare the keys too. Not
 * installed. */
#ifndef VELSTATUS_UTIL_HASH_H
#define VELSTATUS_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t velstatus__hash_fnv1a(const char *s, size_t len)
{
    uint64_t h = UINT64_C(14695981039346656037);
    size_t i;
    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

#endif /* VELSTATUS_UTIL_HASH_H */
