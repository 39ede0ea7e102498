/* SPDX-License-Identifier: Apache-2.0 */
/* The internal layer the areas share (lib/util_*.h): checked and saturating
 * arithmetic at its edges, the FNV-1a hash against published values, the
 * growable array (doubling, overflow, allocation failure leaves the array
 * as it was, also through VS_ARRAY_RESERVE), the string pool (alignment,
 * big requests, out of memory), the UTF-8 decoder at every edge of what
 * it accepts, and the escapes Go writes by name. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include "common/util_arith.h"
#include "common/util_array.h"
#include "common/util_hash.h"
#include "common/util_pool.h"
#include "vsx_utf8.h"

START_TEST(add_overflow_edges)
{
    int64_t v = 7;
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MAX, 0), 0);
    ck_assert(v == INT64_MAX);
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MAX - 1, 1), 0);
    ck_assert(v == INT64_MAX);
    v = 7;
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MAX, 1), 1);
    ck_assert(v == 7); /* untouched on overflow */
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MIN, -1), 1);
    ck_assert(v == 7);
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MIN + 1, -1), 0);
    ck_assert(v == INT64_MIN);
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MAX, INT64_MIN), 0);
    ck_assert(v == -1);
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MIN, INT64_MIN), 1);
    ck_assert_int_eq(velstatus__add_overflow_i64(&v, INT64_MAX, INT64_MAX), 1);
}
END_TEST

START_TEST(saturating_edges)
{
    ck_assert(velstatus__sat_add_i64(INT64_MAX, 1) == INT64_MAX);
    ck_assert(velstatus__sat_add_i64(INT64_MAX, INT64_MAX) == INT64_MAX);
    ck_assert(velstatus__sat_add_i64(INT64_MIN, -1) == INT64_MIN);
    ck_assert(velstatus__sat_add_i64(INT64_MIN, INT64_MIN) == INT64_MIN);
    ck_assert(velstatus__sat_add_i64(INT64_MAX, INT64_MIN) == -1);
    ck_assert(velstatus__sat_add_i64(INT64_MAX - 1, 1) == INT64_MAX);
    ck_assert(velstatus__sat_add_i64(-5, 3) == -2);
    ck_assert(velstatus__sat_sub_i64(INT64_MIN, 1) == INT64_MIN);
    ck_assert(velstatus__sat_sub_i64(INT64_MAX, -1) == INT64_MAX);
    ck_assert(velstatus__sat_sub_i64(0, INT64_MIN) == INT64_MAX);
    ck_assert(velstatus__sat_sub_i64(-1, INT64_MIN) == INT64_MAX);
    ck_assert(velstatus__sat_sub_i64(-2, INT64_MAX) == INT64_MIN);
    ck_assert(velstatus__sat_sub_i64(-1, INT64_MAX) == INT64_MIN);
    ck_assert(velstatus__sat_sub_i64(INT64_MIN + 1, 1) == INT64_MIN);
    ck_assert(velstatus__sat_sub_i64(10, 3) == 7);
}
END_TEST

START_TEST(wrapping_is_go_int64)
{
    ck_assert(velstatus__wrap_add_i64(INT64_MAX, 1) == INT64_MIN);
    ck_assert(velstatus__wrap_add_i64(INT64_MIN, -1) == INT64_MAX);
    ck_assert(velstatus__wrap_add_i64(INT64_MAX, INT64_MAX) == -2);
    ck_assert(velstatus__wrap_add_i64(INT64_MIN, INT64_MIN) == 0);
    ck_assert(velstatus__wrap_add_i64(-3, 5) == 2);
}
END_TEST

START_TEST(size_conversions)
{
    size_t out = 3;
    ck_assert(velstatus__size_to_i64(0) == 0);
    ck_assert(velstatus__size_to_i64(12345) == 12345);
    ck_assert(velstatus__size_to_i64(SIZE_MAX) == (SIZE_MAX > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)SIZE_MAX));
    ck_assert_int_eq(velstatus__mul_overflow_size(&out, SIZE_MAX, 1), 0);
    ck_assert(out == SIZE_MAX);
    ck_assert_int_eq(velstatus__mul_overflow_size(&out, SIZE_MAX / 2 + 1, 2), 1);
    ck_assert(out == SIZE_MAX); /* untouched on overflow */
    ck_assert_int_eq(velstatus__mul_overflow_size(&out, SIZE_MAX / 3, 3), 0);
    ck_assert(out == SIZE_MAX / 3 * 3);
    ck_assert_int_eq(velstatus__mul_overflow_size(&out, 0, SIZE_MAX), 0);
    ck_assert(out == 0);
    ck_assert_int_eq(velstatus__mul_overflow_size(&out, SIZE_MAX, 0), 0);
    ck_assert(out == 0);
}
END_TEST

START_TEST(fnv1a_published_values)
{
    /* The FNV reference test vectors (64-bit FNV-1a). */
    ck_assert(velstatus__hash_fnv1a("", 0) == UINT64_C(0xcbf29ce484222325));
    ck_assert(velstatus__hash_fnv1a("a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
    ck_assert(velstatus__hash_fnv1a("foobar", 6) == UINT64_C(0x85944171f73967e8));
    /* bytes, not chars: a high byte is not sign-extended */
    ck_assert(velstatus__hash_fnv1a("\xff", 1) == ((UINT64_C(0xcbf29ce484222325) ^ 0xffu) * UINT64_C(1099511628211)));
    /* the length counts, NULs included */
    ck_assert(velstatus__hash_fnv1a("a\0b", 3) != velstatus__hash_fnv1a("a", 1));
}
END_TEST

START_TEST(array_doubles_from_initial)
{
    velstatus_ctx *ctx = vs_test_ctx();
    int *v = NULL, *p;
    size_t cap = 0, i;
    p = velstatus__array_reserve(ctx, v, &cap, 1, sizeof(*v), 4);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(cap, 4);
    v = p;
    for (i = 0; i < 4; i++)
        v[i] = (int)i;
    ck_assert_ptr_eq(velstatus__array_reserve(ctx, v, &cap, 4, sizeof(*v), 4), v); /* room already */
    ck_assert_uint_eq(cap, 4);
    v = velstatus__array_reserve(ctx, v, &cap, 5, sizeof(*v), 4);
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(cap, 8);
    v = velstatus__array_reserve(ctx, v, &cap, 33, sizeof(*v), 4); /* several doublings at once */
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(cap, 64);
    for (i = 0; i < 4; i++)
        ck_assert_int_eq(v[i], (int)i); /* contents kept */
    velstatus_free(ctx, v);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(array_overflow_leaves_it_alone)
{
    velstatus_ctx *ctx = vs_test_ctx();
    uint64_t *v;
    size_t cap = 0;
    v = velstatus__array_reserve(ctx, NULL, &cap, 2, sizeof(*v), 2);
    ck_assert_ptr_nonnull(v);
    v[0] = 42;
    /* need * elem overflows size_t: NULL, capacity as it was */
    ck_assert_ptr_null(velstatus__array_reserve(ctx, v, &cap, SIZE_MAX / sizeof(*v) + 1, sizeof(*v), 2));
    ck_assert_uint_eq(cap, 2);
    ck_assert_ptr_null(velstatus__array_reserve(ctx, v, &cap, SIZE_MAX, sizeof(*v), 2));
    ck_assert_uint_eq(cap, 2);
    ck_assert(v[0] == 42);
    velstatus_free(ctx, v);
    velstatus_ctx_free(ctx);
}
END_TEST

/* An allocator that, while ctx_refuses, records the size asked for and
 * refuses (the ctx's own block is allocated before). */
static size_t asked;
static int ctx_refuses;
static void *malloc_for_ctx(void *ud, size_t n)
{
    (void)ud;
    asked = n;
    return ctx_refuses ? NULL : malloc(n);
}
static void *realloc_for_ctx(void *ud, void *p, size_t n)
{
    (void)ud;
    asked = n;
    return ctx_refuses ? NULL : realloc(p, n);
}
static void free_for_ctx(void *ud, void *p)
{
    (void)ud;
    free(p);
}

START_TEST(array_doubling_overflow_falls_back_to_need)
{
    /* A capacity past SIZE_MAX / 2 cannot double: exactly `need` is asked
     * for; an element size that would overflow the doubled byte size also
     * falls back to `need`. */
    velstatus_allocator a;
    velstatus_ctx *ctx = NULL;
    char one = 'x';
    size_t cap = SIZE_MAX / 2 + 1;
    velstatus_allocator_init(&a, sizeof(a));
    a.alloc_fn = malloc_for_ctx;
    a.realloc_fn = realloc_for_ctx;
    a.free_fn = free_for_ctx;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, NULL), VELSTATUS_OK);
    ctx_refuses = 1;
    asked = 0;
    ck_assert_ptr_null(velstatus__array_reserve(ctx, &one, &cap, SIZE_MAX - 1, 1, 64));
    ck_assert_uint_eq(asked, SIZE_MAX - 1);
    ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1); /* refused: unchanged */
    cap = 4;
    asked = 0;
    ck_assert_ptr_null(velstatus__array_reserve(ctx, &one, &cap, 5, SIZE_MAX / 6, 64));
    ck_assert_uint_eq(asked, 5 * (SIZE_MAX / 6)); /* 8 elements would overflow: 5 */
    ck_assert_uint_eq(cap, 4);
    ctx_refuses = 0;
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(array_allocation_failure_keeps_the_array)
{
    vs_failalloc fa;
    velstatus_ctx *ctx = vs_failalloc_ctx(&fa, 1); /* the first growth works, the second fails */
    int *v, *p;
    size_t cap = 0;
    v = velstatus__array_reserve(ctx, NULL, &cap, 1, sizeof(*v), 8);
    ck_assert_ptr_nonnull(v);
    v[7] = 7;
    p = velstatus__array_reserve(ctx, v, &cap, 9, sizeof(*v), 8);
    ck_assert_ptr_null(p);
    ck_assert_uint_eq(cap, 8);
    ck_assert_int_eq(v[7], 7); /* still ours, still whole */
    ck_assert_int_eq(fa.failed, 1);
    velstatus_free(ctx, v);
    ck_assert_int_eq(fa.live, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(array_zero_initial_and_elem)
{
    velstatus_ctx *ctx = vs_test_ctx();
    char *v;
    size_t cap = 0;
    ck_assert_ptr_null(velstatus__array_reserve(ctx, NULL, &cap, 1, 0, 8)); /* no such element size */
    ck_assert_uint_eq(cap, 0);
    v = velstatus__array_reserve(ctx, NULL, &cap, 3, 1, 0); /* initial 0 counts as 1 */
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(cap, 4);
    velstatus_free(ctx, v);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(pool_strings_and_alignment)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__pool p;
    const char *a, *b;
    char *big;
    void *x;
    velstatus__pool_init(&p, ctx);
    ck_assert_ptr_eq(velstatus__pool_str(&p, NULL, 0), velstatus__empty); /* no allocation for "" */
    ck_assert_ptr_null(p.head);
    a = velstatus__pool_str(&p, "abc", 3);
    b = velstatus__pool_str(&p, "a\0b", 3);
    ck_assert_str_eq(a, "abc");
    ck_assert_int_eq(memcmp(b, "a\0b", 4), 0); /* NUL-terminated, inner NUL kept */
    ck_assert_uint_eq((uintptr_t)a % 8, 0);
    ck_assert_uint_eq((uintptr_t)b % 8, 0);
    ck_assert_uint_eq((size_t)(b - a), 8); /* 4 bytes rounded up to 8 */
    x = velstatus__pool_alloc(&p, 1);
    ck_assert_uint_eq((uintptr_t)x % 8, 0);
    /* a request larger than a block gets its own block, behind the current one */
    big = velstatus__pool_alloc(&p, 100000);
    ck_assert_ptr_nonnull(big);
    memset(big, 'z', 100000);
    ck_assert_ptr_eq((const char *)velstatus__pool_alloc(&p, 8), (const char *)x + 8); /* current block still used */
    ck_assert_str_eq(a, "abc");                                                        /* nothing moved */
    ck_assert_ptr_null(velstatus__pool_alloc(&p, SIZE_MAX));                           /* rounding up overflows */
    ck_assert_ptr_null(velstatus__pool_alloc(&p, SIZE_MAX - 20));                      /* header + size overflows */
    ck_assert_ptr_null(velstatus__pool_str(&p, "x", SIZE_MAX));
    velstatus__pool_release(&p);
    ck_assert_ptr_null(p.head);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(pool_out_of_memory)
{
    vs_failalloc fa;
    velstatus_ctx *ctx = vs_failalloc_ctx(&fa, 1); /* the first block works, the second fails */
    velstatus__pool p;
    const char *a;
    velstatus__pool_init(&p, ctx);
    a = velstatus__pool_str(&p, "kept", 4);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_null(velstatus__pool_alloc(&p, 70000));
    ck_assert_int_eq(fa.failed, 1);
    ck_assert_str_eq(a, "kept");
    ck_assert_ptr_nonnull(velstatus__pool_str(&p, "more", 4)); /* the current block still serves */
    velstatus__pool_release(&p);
    ck_assert_int_eq(fa.live, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(array_reserve_macro_stores_back)
{
    vs_failalloc fa;
    velstatus_ctx *ctx = vs_failalloc_ctx(&fa, 1); /* the first growth works, the second fails */
    struct {
        int *v;
        size_t n, cap;
    } a = {NULL, 0, 0};
    ck_assert_int_eq(VS_ARRAY_RESERVE(ctx, a.v, a.cap, a.n + 1, 8), 0);
    ck_assert_ptr_nonnull(a.v);
    ck_assert_uint_eq(a.cap, 8);
    for (a.n = 0; a.n < 8; a.n++)
        a.v[a.n] = (int)a.n;
    ck_assert_int_eq(VS_ARRAY_RESERVE(ctx, a.v, a.cap, a.n, 8), 0); /* room already: no allocation */
    ck_assert_int_eq(VS_ARRAY_RESERVE(ctx, a.v, a.cap, a.n + 1, 8), -1);
    ck_assert_int_eq(fa.failed, 1);
    ck_assert_ptr_nonnull(a.v); /* the array is kept, not lost */
    ck_assert_uint_eq(a.cap, 8);
    ck_assert_int_eq(a.v[7], 7);
    velstatus_free(ctx, a.v);
    ck_assert_int_eq(fa.live, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(array_reserve_macro_first_failure)
{
    vs_failalloc fa;
    velstatus_ctx *ctx = vs_failalloc_ctx(&fa, 0);
    char *v = NULL;
    size_t cap = 0;
    ck_assert_int_eq(VS_ARRAY_RESERVE(ctx, v, cap, 1, 64), -1);
    ck_assert_ptr_null(v);
    ck_assert_uint_eq(cap, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

/* One UTF-8 input and what the decoder says of it. */
typedef struct utf8_case {
    const char *s;
    size_t len;
    size_t want; /* 0: not a sequence */
    uint32_t cp;
} utf8_case;

START_TEST(utf8_decode_edges)
{
    static const utf8_case cases[] = {
        {"A", 1, 1, 0x41},
        {"\x7f", 1, 1, 0x7F},
        {"\x80", 1, 0, 0},     /* a continuation byte */
        {"\xc1\xbf", 2, 0, 0}, /* C1: always overlong */
        {"\xc2\x80", 2, 2, 0x80},
        {"\xdf\xbf", 2, 2, 0x7FF},
        {"\xc2", 1, 0, 0},     /* truncated */
        {"\xc2\x41", 2, 0, 0}, /* not a continuation */
        {"\xc2\xc0", 2, 0, 0},
        {"\xe0\x9f\xbf", 3, 0, 0}, /* overlong U+07FF */
        {"\xe0\xa0\x80", 3, 3, 0x800},
        {"\xed\x9f\xbf", 3, 3, 0xD7FF},
        {"\xed\xa0\x80", 3, 0, 0}, /* a surrogate */
        {"\xed\xbf\xbf", 3, 0, 0},
        {"\xee\x80\x80", 3, 3, 0xE000},
        {"\xe2\x80\xa8", 3, 3, 0x2028},
        {"\xef\xbf\xbf", 3, 3, 0xFFFF},
        {"\xe2\x80", 2, 0, 0}, /* truncated */
        {"\xe2\x80\x41", 3, 0, 0},
        {"\xf0\x8f\xbf\xbf", 4, 0, 0}, /* overlong U+FFFF */
        {"\xf0\x90\x80\x80", 4, 4, 0x10000},
        {"\xf4\x8f\xbf\xbf", 4, 4, 0x10FFFF},
        {"\xf4\x90\x80\x80", 4, 0, 0}, /* above U+10FFFF */
        {"\xf5\x80\x80\x80", 4, 0, 0},
        {"\xff", 1, 0, 0},
        {"\xf0\x90\x80", 3, 0, 0}, /* truncated */
        {"\xf0\x90\x80\xc0", 4, 0, 0},
        {"\xc3\xa9x", 3, 2, 0xE9}, /* only the first sequence */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t cp = 0xDEAD;
        size_t n = vsx_utf8_decode((const unsigned char *)cases[i].s, cases[i].len, &cp);
        ck_assert_msg(n == cases[i].want, "case %zu: length %zu, want %zu", i, n, cases[i].want);
        ck_assert_msg(cp == (n ? cases[i].cp : 0xDEAD), "case %zu: code point %x", i, (unsigned)cp);
    }
}
END_TEST

START_TEST(short_escapes_of_json_and_quote)
{
    static const struct {
        unsigned char c;
        const char *json, *quote;
    } cases[] = {
        {'"', "\\\"", "\\\""}, {'\\', "\\\\", "\\\\"}, {'\n', "\\n", "\\n"}, {'\r', "\\r", "\\r"}, {'\t', "\\t", "\\t"},
        {'\a', NULL, "\\a"},   {'\b', NULL, "\\b"},    {'\f', NULL, "\\f"},  {'\v', NULL, "\\v"},  {0x01, NULL, NULL},
        {0x7f, NULL, NULL},    {'a', NULL, NULL},      {'<', NULL, NULL},    {0xe9, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *j = velstatus__short_escape(cases[i].c, 0), *q = velstatus__short_escape(cases[i].c, 1);
        if (cases[i].json)
            ck_assert_str_eq(j, cases[i].json);
        else
            ck_assert_ptr_null(j);
        if (cases[i].quote)
            ck_assert_str_eq(q, cases[i].quote);
        else
            ck_assert_ptr_null(q);
    }
}
END_TEST

START_TEST(text_out_stores_the_length)
{
    size_t len = 99;
    ck_assert_str_eq(velstatus__text_out("abc", 3, &len), "abc");
    ck_assert_uint_eq(len, 3);
    ck_assert_ptr_null(velstatus__text_out(NULL, 5, &len)); /* no text: length 0 */
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(velstatus__text_out("abc", 3, NULL), "abc");
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, add_overflow_edges);
    tcase_add_test(tc, saturating_edges);
    tcase_add_test(tc, wrapping_is_go_int64);
    tcase_add_test(tc, size_conversions);
    tcase_add_test(tc, fnv1a_published_values);
    tcase_add_test(tc, array_doubles_from_initial);
    tcase_add_test(tc, array_overflow_leaves_it_alone);
    tcase_add_test(tc, array_doubling_overflow_falls_back_to_need);
    tcase_add_test(tc, array_allocation_failure_keeps_the_array);
    tcase_add_test(tc, array_zero_initial_and_elem);
    tcase_add_test(tc, array_reserve_macro_stores_back);
    tcase_add_test(tc, array_reserve_macro_first_failure);
    tcase_add_test(tc, utf8_decode_edges);
    tcase_add_test(tc, short_escapes_of_json_and_quote);
    tcase_add_test(tc, text_out_stores_the_length);
    tcase_add_test(tc, pool_strings_and_alignment);
    tcase_add_test(tc, pool_out_of_memory);
    suite_add_tcase(s, tc);
    return s;
}
