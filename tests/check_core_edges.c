/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the shared modules: argument checks, overflow guards and
 * out-of-memory paths of core.c (contexts, allocation, buffers, the Go JSON
 * string writer), the token tables of phase.c and policy.c, the RFC 3339
 * parser's error positions (time.c) and the tabwriter's rune counting and
 * failure paths (tabwriter.c). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "failalloc.h"
#include "harness.h"
#include "common/tabwriter.h"
#include "common/private.h"

static void *a_alloc(void *ud, size_t n)
{
    (void)ud;
    return malloc(n);
}
static void *a_realloc(void *ud, void *p, size_t n)
{
    (void)ud;
    return realloc(p, n);
}
static void a_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

START_TEST(ctx_new_rejects_an_allocator_missing_a_hook)
{
    velstatus_allocator a;
    velstatus_ctx *ctx = (velstatus_ctx *)&a; /* must be reset to NULL */
    velstatus_error err;
    velstatus_allocator_init(&a, sizeof(a));
    a.alloc_fn = a_alloc;
    a.free_fn = a_free; /* realloc_fn missing */
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(ctx);
    ck_assert_ptr_nonnull(strstr(err.message, "realloc_fn"));
    a.realloc_fn = a_realloc;
    a.free_fn = NULL; /* free_fn missing */
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "free_fn"));
    a.free_fn = a_free;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_OK);
    velstatus_ctx_free(ctx);
    /* Errors need no error struct. */
    ck_assert_int_eq(velstatus_ctx_new(NULL, NULL, NULL), VELSTATUS_E_INVALID);
    velstatus_allocator_init(NULL, sizeof(a)); /* ignored, no crash */
    velstatus_free(NULL, NULL);
}
END_TEST

START_TEST(alloc_guards_overflow_and_zero_sizes)
{
    velstatus_ctx *ctx = NULL;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    /* count * size overflows: NULL, nothing allocated. */
    ck_assert_ptr_null(velstatus__calloc(ctx, SIZE_MAX / 2 + 1, 2));
    /* Zero sizes still give a distinct, freeable block. */
    char *z = velstatus__calloc(ctx, 0, 8);
    ck_assert_ptr_nonnull(z);
    char *a = velstatus__alloc(ctx, 0);
    ck_assert_ptr_nonnull(a);
    a = velstatus__realloc(ctx, a, 0);
    ck_assert_ptr_nonnull(a);
    velstatus__free(ctx, a);
    velstatus__free(ctx, z);
    /* strndup of SIZE_MAX bytes cannot add its NUL. */
    ck_assert_ptr_null(velstatus__strndup(ctx, "x", SIZE_MAX));
    char *s = velstatus__strndup(ctx, NULL, 0);
    ck_assert_str_eq(s, "");
    velstatus__free(ctx, s);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(buf_refuses_an_append_past_size_max)
{
    velstatus_ctx *ctx = NULL;
    velstatus__buf b;
    char *out = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    velstatus__buf_init(&b, ctx);
    velstatus__buf_puts(&b, "ab");
    velstatus__buf_append(&b, "never read", SIZE_MAX - 1); /* len + extra + NUL overflows */
    ck_assert_int_eq(b.failed, 1);
    velstatus__buf_puts(&b, "cd"); /* a no-op once failed */
    ck_assert_uint_eq(b.len, 2);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, NULL, &err), VELSTATUS_E_NOMEM);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(err.code, VELSTATUS_E_NOMEM);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(buf_printf_long_output_and_encoding_error)
{
    velstatus_ctx *ctx = NULL;
    velstatus__buf b;
    char *out = NULL;
    size_t len = 0;
    char big[301];
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    memset(big, 'x', 300);
    big[300] = '\0';
    /* Longer than the 128-byte scratch: formatted straight into the buffer. */
    velstatus__buf_init(&b, ctx);
    velstatus__buf_puts(&b, "<");
    velstatus__buf_printf(&b, "%s|%d", big, 42);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, &len, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(len, 1 + 300 + 3);
    ck_assert_int_eq(out[0], '<');
    ck_assert_int_eq(memcmp(out + 1, big, 300), 0);
    ck_assert_str_eq(out + 301, "|42");
    velstatus_free(ctx, out);
    /* A conversion the C library cannot do (a wide character with no
     * multibyte form in the C locale) marks the buffer failed. */
    static const wchar_t bad[] = {(wchar_t)0xD800, 0};
    velstatus__buf_init(&b, ctx);
    velstatus__buf_printf(&b, "%ls", bad);
    ck_assert_int_eq(b.failed, 1);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, &len, NULL), VELSTATUS_E_NOMEM);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(buf_printf_long_output_out_of_memory)
{
    char big[200];
    memset(big, 'y', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus__buf b;
        char *out = NULL;
        velstatus__buf_init(&b, ctx);
        velstatus__buf_printf(&b, "%s", big);
        st = velstatus__buf_finish(&b, &out, NULL, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(out, big);
            velstatus_free(ctx, out);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

static char *json_string(velstatus_ctx *ctx, const char *s, size_t len)
{
    velstatus__buf b;
    char *out = NULL;
    velstatus__buf_init(&b, ctx);
    velstatus__json_write_string(&b, s, len, 1);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, NULL, NULL), VELSTATUS_OK);
    return out;
}

START_TEST(json_string_replaces_each_invalid_utf8_sequence)
{
    /* Go's encoding/json writes \ufffd for each byte that does not start a
     * valid sequence: a bad continuation byte, an overlong form, a UTF-16
     * surrogate, a code point above U+10FFFF; valid 2/3/4-byte forms pass. */
    static const struct {
        const char *in, *want;
    } v[] = {
        {"\xC3\x28", "\"\\ufffd(\""},                             /* bad continuation */
        {"\xC0\x80", "\"\\ufffd\\ufffd\""},                       /* overlong NUL */
        {"\xED\xA0\x80", "\"\\ufffd\\ufffd\\ufffd\""},            /* surrogate U+D800 */
        {"\xF4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* U+110000 */
        {"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\""},
    };
    velstatus_ctx *ctx = NULL;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        char *out = json_string(ctx, v[i].in, strlen(v[i].in));
        ck_assert_msg(strcmp(out, v[i].want) == 0, "case %zu: got %s", i, out);
        velstatus_free(ctx, out);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(token_parsers_reject_null_text_with_a_length)
{
    velstatus_kind k = VELSTATUS_KIND_RESTORE;
    velstatus_phase ph;
    velstatus_preset pr = VELSTATUS_PRESET_HARDENED;
    velstatus_error err;
    ck_assert_int_eq(velstatus_kind_from_string(&k, NULL, 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(k, VELSTATUS_KIND_RESTORE); /* untouched */
    ck_assert_int_eq(velstatus_kind_from_string(NULL, "backup", 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_from_string(&ph, NULL, 3, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "NULL"));
    ck_assert_int_eq(velstatus_preset_from_string(&pr, NULL, 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_preset_from_string(NULL, "velero", 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(pr, VELSTATUS_PRESET_HARDENED);
    ck_assert_int_eq(velstatus_preset_from_string(&pr, "velero", 6, NULL), VELSTATUS_OK);
    ck_assert_int_eq(pr, VELSTATUS_PRESET_VELERO);
}
END_TEST

START_TEST(phase_from_string_quotes_at_most_64_bytes)
{
    char longname[100];
    velstatus_phase ph;
    velstatus_error err;
    memset(longname, 'Q', sizeof(longname));
    ck_assert_int_eq(velstatus_phase_from_string(&ph, longname, sizeof(longname), &err), VELSTATUS_E_INVALID);
    const char *q = strchr(err.message, '"');
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(strspn(q + 1, "Q"), 64);
    ck_assert_int_eq(q[65], '"');
}
END_TEST

START_TEST(policy_preset_hardened_equals_the_constructor)
{
    velstatus_policy p, h = vs_policy(VELSTATUS_PRESET_HARDENED);
    memset(&p, 0xAB, sizeof(p));
    ck_assert_int_eq(velstatus_policy_init(&p, sizeof(p), VELSTATUS_PRESET_HARDENED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(memcmp(&p, &h, sizeof(p)), 0);
    ck_assert_int_eq(p.preset, VELSTATUS_PRESET_HARDENED);
}
END_TEST

START_TEST(phase_on_restart_rejects_an_unknown_kind)
{
    velstatus_restart_action a = VELSTATUS_RESTART_NONE;
    velstatus_phase next = VELSTATUS_PHASE_NEW;
    velstatus_error err;
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, (velstatus_kind)7, VELSTATUS_PHASE_IN_PROGRESS, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "kind: unknown value 7");
}
END_TEST

START_TEST(time_parse_names_the_missing_separator)
{
    static const struct {
        const char *s;
        uint64_t pos;
        const char *what;
    } v[] = {
        {"2024-05+01T10:00:00Z", 8, "expected '-'"},
        {"2024-05-01T10:00+00Z", 17, "expected ':'"},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        int64_t ns = 123;
        velstatus_error err;
        ck_assert_int_eq(velstatus_time_parse(&ns, v[i].s, strlen(v[i].s), &err), VELSTATUS_E_PARSE);
        ck_assert_int_eq(ns, 123);
        ck_assert_msg(strstr(err.message, v[i].what) != NULL, "%s: %s", v[i].s, err.message);
        ck_assert_uint_eq(err.column, v[i].pos);
    }
}
END_TEST

START_TEST(tw_runecount_counts_as_go_does)
{
    /* utf8.RuneCount: a valid 4-byte form led by F1..F3 is one rune; a
     * 4-byte form with a bad last byte is one rune per byte. */
    ck_assert_uint_eq(velstatus__tw_runecount("\xF1\x80\x80\x80", 4), 1);
    ck_assert_uint_eq(velstatus__tw_runecount("\xF3\xBF\xBF\xBF"
                                              "a",
                                              5),
                      2);
    ck_assert_uint_eq(velstatus__tw_runecount("\xF1\x80\x80(", 4), 4);
    ck_assert_uint_eq(velstatus__tw_runecount("\xF4\x90\x80\x80", 4), 4); /* above U+10FFFF */
}
END_TEST

START_TEST(tw_format_last_cell_without_newline_and_failures)
{
    velstatus__tw_opts o;
    velstatus__tw_opts_velero(&o);
    velstatus_status st;
    /* Every allocation of a text ending without a newline fails in turn. */
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus__buf b;
        char *out = NULL;
        velstatus__buf_init(&b, ctx);
        st = velstatus__tw_format(&b, "a\tbb\nccc\td", 10, &o, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus__buf_finish(&b, &out, NULL, NULL);
        else
            velstatus__buf_reset(&b);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(out, "a    bb\nccc  d");
            velstatus_free(ctx, out);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
    /* A buffer that already failed is not written to. */
    velstatus_ctx *ctx = NULL;
    velstatus__buf b;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    velstatus__buf_init(&b, ctx);
    b.failed = 1;
    ck_assert_int_eq(velstatus__tw_format(&b, "x\ty\n", 4, &o, NULL), VELSTATUS_E_NOMEM);
    ck_assert_uint_eq(b.len, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(token_find_null_text_only_with_length_0)
{
    /* The token tables' contract: NULL text only with length 0. */
    static const char *const t[] = {"a", ""};
    ck_assert_int_eq(velstatus__token_find(t, 2, NULL, 1), -1);
    ck_assert_int_eq(velstatus__token_find(t, 2, NULL, 0), 1);
}
END_TEST

START_TEST(time_parse_one_digit_hour_and_small_buffers)
{
    /* Go's time.Parse reads "15" with one or two digits. */
    int64_t a = 0, b = 1;
    ck_assert_int_eq(velstatus_time_parse(&a, "2024-05-01T1:02:03Z", 19, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_time_parse(&b, "2024-05-01T01:02:03Z", 20, NULL), VELSTATUS_OK);
    ck_assert_int_eq(a, b);
    char buf[8];
    velstatus_error err;
    memset(buf, 'x', sizeof(buf));
    ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), a, 0, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(buf[0], '\0');
    ck_assert_ptr_nonnull(strstr(err.message, "need 21"));
    ck_assert_int_eq(velstatus_time_format(buf, 0, a, 0, NULL), VELSTATUS_E_RANGE);
}
END_TEST

START_TEST(tw_format_grows_cells_at_the_last_cell)
{
    /* 16 column cells then a last cell without a newline: the 17th cell is
     * pushed after the loop, growing the cell array there. */
    char text[64];
    size_t n = 0;
    for (int i = 0; i < 16; i++) {
        text[n++] = (char)('a' + i);
        text[n++] = '\t';
    }
    text[n++] = 'Z';
    velstatus__tw_opts o;
    velstatus__tw_opts_velero(&o);
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus__buf b;
        char *out = NULL;
        velstatus__buf_init(&b, ctx);
        st = velstatus__tw_format(&b, text, n, &o, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus__buf_finish(&b, &out, NULL, NULL);
        else
            velstatus__buf_reset(&b);
        if (st == VELSTATUS_OK) {
            /* each one-rune cell padded to 1 + 2 */
            ck_assert_str_eq(out, "a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  Z");
            velstatus_free(ctx, out);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(transition_forgotten_patch_is_retried_only_when_the_policy_says)
{
    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO), h = vs_policy(VELSTATUS_PRESET_HARDENED);
    int retried = -1;
    ck_assert_int_eq(velstatus_retry_transition(&retried, VELSTATUS_KIND_BACKUP, VELSTATUS_PHASE_IN_PROGRESS,
                                                VELSTATUS_PHASE_FAILED, 1, &h, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(retried, 1);
    ck_assert_int_eq(velstatus_retry_transition(&retried, VELSTATUS_KIND_BACKUP, VELSTATUS_PHASE_IN_PROGRESS,
                                                VELSTATUS_PHASE_FAILED, 1, &vel, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(retried, 0);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("core_edges");
    TCase *tc = tcase_create("core_edges");
    tcase_add_test(tc, ctx_new_rejects_an_allocator_missing_a_hook);
    tcase_add_test(tc, alloc_guards_overflow_and_zero_sizes);
    tcase_add_test(tc, buf_refuses_an_append_past_size_max);
    tcase_add_test(tc, buf_printf_long_output_and_encoding_error);
    tcase_add_test(tc, buf_printf_long_output_out_of_memory);
    tcase_add_test(tc, json_string_replaces_each_invalid_utf8_sequence);
    tcase_add_test(tc, token_parsers_reject_null_text_with_a_length);
    tcase_add_test(tc, phase_from_string_quotes_at_most_64_bytes);
    tcase_add_test(tc, policy_preset_hardened_equals_the_constructor);
    tcase_add_test(tc, phase_on_restart_rejects_an_unknown_kind);
    tcase_add_test(tc, time_parse_names_the_missing_separator);
    tcase_add_test(tc, tw_runecount_counts_as_go_does);
    tcase_add_test(tc, tw_format_last_cell_without_newline_and_failures);
    tcase_add_test(tc, token_find_null_text_only_with_length_0);
    tcase_add_test(tc, time_parse_one_digit_hour_and_small_buffers);
    tcase_add_test(tc, tw_format_grows_cells_at_the_last_cell);
    tcase_add_test(tc, transition_forgotten_patch_is_retried_only_when_the_policy_says);
    suite_add_tcase(s, tc);
    return s;
}
