/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the checked, saturating and wrapping arithmetic of
 * lib/common/util_arith.h, for every pair of operands of its types (no input
 * length: the operands range over all of int64_t and size_t). */
#include <stdint.h>

#include "__fc_builtin.h"
#include "common/util_arith.h"

int main(void)
{
    int64_t a = Frama_C_long_long_interval(INT64_MIN, INT64_MAX);
    int64_t b = Frama_C_long_long_interval(INT64_MIN, INT64_MAX);
    size_t n = Frama_C_size_t_interval(0, SIZE_MAX);
    size_t m = Frama_C_size_t_interval(0, SIZE_MAX);
    int64_t r = 0;
    size_t z = 0;
    (void)velstatus__add_overflow_i64(&r, a, b);
    r = velstatus__sat_add_i64(a, b);
    r = velstatus__sat_sub_i64(a, b);
    r = velstatus__wrap_add_i64(a, b);
    r = velstatus__size_to_i64(n);
    (void)velstatus__mul_overflow_size(&z, n, m);
    return (int)(r & 1) + (int)(z & 1);
}
