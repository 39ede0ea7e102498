/* SPDX-License-Identifier: Apache-2.0 */
/* Checked, saturating and wrapping integer arithmetic, in one place (as
 * libgit2's git__add_sizet_overflow / git__multiply_sizet_overflow and
 * zstd's lib/common). Everything is static inline: the step's hot path uses
 * the saturating forms. None of these ever has C's signed-overflow UB. Not
 * installed. */
#ifndef VELSTATUS_UTIL_ARITH_H
#define VELSTATUS_UTIL_ARITH_H

#include <stddef.h>
#include <stdint.h>

/* *out = a + b; returns 1 (and leaves *out alone) when that overflows int64. */
static inline int velstatus__add_overflow_i64(int64_t *out, int64_t a, int64_t b)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 1;
    *out = a + b;
    return 0;
}

/* a + b clamped to [INT64_MIN, INT64_MAX]. */
static inline int64_t velstatus__sat_add_i64(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

/* a - b clamped to [INT64_MIN, INT64_MAX]. */
static inline int64_t velstatus__sat_sub_i64(int64_t a, int64_t b)
{
    if (b < 0 && a > INT64_MAX + b)
        return INT64_MAX;
    if (b > 0 && a < INT64_MIN + b)
        return INT64_MIN;
    return a - b;
}

/* Go's int64 a + b: wraps modulo 2^64. */
static inline int64_t velstatus__wrap_add_i64(int64_t a, int64_t b)
{
    uint64_t u = (uint64_t)a + (uint64_t)b;
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return (int64_t)(u - (uint64_t)INT64_MAX - 1u) + INT64_MIN;
}

/* A count as an int64, INT64_MAX when it does not fit. */
static inline int64_t velstatus__size_to_i64(size_t n)
{
    return (uint64_t)n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* *out = a * b; returns 1 (and leaves *out alone) when that overflows size_t. */
static inline int velstatus__mul_overflow_size(size_t *out, size_t a, size_t b)
{
    if (b != 0 && a > SIZE_MAX / b)
        return 1;
    *out = a * b;
    return 0;
}

#endif /* VELSTATUS_UTIL_ARITH_H */
