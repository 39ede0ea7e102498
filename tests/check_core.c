/* SPDX-License-Identifier: Apache-2.0 */
/* Status names, the error struct, contexts and allocators, sized copies,
 * byte buffers and the Go-exact JSON string writer. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include "phase/private.h"

static const velstatus_status all_status[] = {
    VELSTATUS_OK,       VELSTATUS_E_NOMEM,     VELSTATUS_E_INVALID,  VELSTATUS_E_PARSE,
    VELSTATUS_E_SCHEMA, VELSTATUS_E_HOST,      VELSTATUS_E_ABI,      VELSTATUS_E_RANGE,
    VELSTATUS_E_STATE,  VELSTATUS_PASSTHROUGH, VELSTATUS_E_INTERNAL,
};

START_TEST(status_values_are_pinned)
{
    /* doc/conventions.md §1: values never change; bindings map codes by value. */
    ck_assert_int_eq(VELSTATUS_OK, 0);
    ck_assert_int_eq(VELSTATUS_E_NOMEM, -1);
    ck_assert_int_eq(VELSTATUS_E_INVALID, -2);
    ck_assert_int_eq(VELSTATUS_E_PARSE, -3);
    ck_assert_int_eq(VELSTATUS_E_SCHEMA, -4);
    ck_assert_int_eq(VELSTATUS_E_HOST, -5);
    ck_assert_int_eq(VELSTATUS_E_ABI, -6);
    ck_assert_int_eq(VELSTATUS_E_RANGE, -7);
    ck_assert_int_eq(VELSTATUS_E_STATE, -8);
    ck_assert_int_eq(VELSTATUS_PASSTHROUGH, -30);
    ck_assert_int_eq(VELSTATUS_E_INTERNAL, -99);
}
END_TEST

START_TEST(status_names_unique_and_never_null)
{
    size_t n = sizeof(all_status) / sizeof(all_status[0]);
    for (size_t i = 0; i < n; i++) {
        const char *name = velstatus_status_name(all_status[i]);
        const char *msg = velstatus_status_str(all_status[i]);
        ck_assert_ptr_nonnull(name);
        ck_assert_ptr_nonnull(msg);
        ck_assert_msg(strncmp(name, "VELSTATUS_", 10) == 0, "%s", name);
        ck_assert_str_ne(name, "VELSTATUS_E_UNKNOWN");
        for (size_t j = 0; j < i; j++) {
            ck_assert_str_ne(name, velstatus_status_name(all_status[j]));
            ck_assert_str_ne(msg, velstatus_status_str(all_status[j]));
        }
    }
    ck_assert_str_eq(velstatus_status_name(VELSTATUS_E_NOMEM), "VELSTATUS_E_NOMEM");
    ck_assert_str_eq(velstatus_status_name((velstatus_status)-1234), "VELSTATUS_E_UNKNOWN");
    ck_assert_str_eq(velstatus_status_str((velstatus_status)42), "unknown status");
}
END_TEST

START_TEST(error_set_overwrites_whole_struct)
{
    velstatus_error err;
    memset(&err, 0x5a, sizeof(err));
    ck_assert_int_eq(velstatus__error_set(&err, VELSTATUS_E_PARSE, "items[%d].status.phase: bad", 3),
                     VELSTATUS_E_PARSE);
    ck_assert_int_eq(err.code, VELSTATUS_E_PARSE);
    ck_assert_int_eq(err.host_code, 0);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_uint_eq(err.reserved[0], 0);
    ck_assert_str_eq(err.message, "items[3].status.phase: bad");
    velstatus__error_set_pos(&err, VELSTATUS_E_PARSE, 2, 7, 19, "x");
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 7);
    ck_assert_uint_eq(err.offset, 19);
    velstatus__error_host(&err, -42, "progress");
    ck_assert_int_eq(err.code, VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -42);
    /* A NULL error pointer is allowed everywhere. */
    ck_assert_int_eq(velstatus__error_set(NULL, VELSTATUS_E_RANGE, "x"), VELSTATUS_E_RANGE);
    velstatus_error_clear(&err);
    ck_assert_int_eq(err.code, VELSTATUS_OK);
    ck_assert_str_eq(err.message, "");
    velstatus_error_clear(NULL);
}
END_TEST

START_TEST(error_message_truncated_not_overflowed)
{
    velstatus_error err;
    char big[1000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    velstatus__error_set(&err, VELSTATUS_E_INVALID, "%s", big);
    ck_assert_uint_eq(strlen(err.message), sizeof(err.message) - 1);
}
END_TEST

START_TEST(ctx_default_allocator)
{
    velstatus_ctx *ctx = NULL;
    char *p;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(ctx);
    p = velstatus__strndup(ctx, "abc", 3);
    ck_assert_str_eq(p, "abc");
    velstatus_free(ctx, p);
    velstatus_free(ctx, NULL);
    velstatus_ctx_free(ctx);
    velstatus_ctx_free(NULL);
}
END_TEST

START_TEST(ctx_rejects_bad_allocators)
{
    velstatus_ctx *ctx = (velstatus_ctx *)1;
    velstatus_allocator a;
    velstatus_error err;
    vs_failalloc fa;
    ck_assert_int_eq(velstatus_ctx_new(NULL, NULL, &err), VELSTATUS_E_INVALID);
    velstatus_allocator_init(&a, sizeof(a));
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(ctx);
    ck_assert_msg(strstr(err.message, "alloc_fn") != NULL, "%s", err.message);
    vs_failalloc_setup(&a, &fa, -1);
    a.struct_size = 8; /* smaller than any published version */
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_ABI);
    ck_assert_msg(strstr(err.message, "allocator.struct_size") != NULL, "%s", err.message);
    vs_failalloc_setup(&a, &fa, -1);
    a.flags = 1;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_INVALID);
    /* allocating the ctx itself fails cleanly */
    vs_failalloc_setup(&a, &fa, 0);
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, &err), VELSTATUS_E_NOMEM);
    ck_assert_int_eq(err.code, VELSTATUS_E_NOMEM);
    ck_assert_int_eq(fa.live, 0);
}
END_TEST

/* A host compiled against a newer header: larger struct, zero tail accepted,
 * non-zero tail rejected (doc/conventions.md §2, the copy_struct_from_user rule). */
START_TEST(sized_copy_rules)
{
    struct newer {
        velstatus_allocator a;
        uint64_t future;
    } n;
    velstatus_allocator dst;
    velstatus_error err;
    vs_failalloc fa;
    memset(&n, 0, sizeof(n));
    vs_failalloc_setup(&n.a, &fa, -1);
    n.a.struct_size = sizeof(n);
    ck_assert_int_eq(velstatus__sized_copy(&dst, sizeof(dst), sizeof(dst), &n, "allocator", &err), VELSTATUS_OK);
    ck_assert_uint_eq(dst.struct_size, sizeof(dst));
    ck_assert_ptr_eq(dst.userdata, &fa);
    n.future = 1;
    ck_assert_int_eq(velstatus__sized_copy(&dst, sizeof(dst), sizeof(dst), &n, "allocator", &err), VELSTATUS_E_ABI);
    ck_assert_msg(strstr(err.message, "not zero") != NULL, "%s", err.message);
}
END_TEST

START_TEST(buffer_grows_and_reports_nomem)
{
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus__buf b;
        char *out = NULL;
        size_t len = 0;
        velstatus__buf_init(&b, ctx);
        for (int i = 0; i < 200; i++)
            velstatus__buf_printf(&b, "%03d,", i);
        velstatus__buf_puts(&b, "end");
        st = velstatus__buf_finish(&b, &out, &len, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(len, 200 * 4 + 3);
            ck_assert(strncmp(out, "000,001,", 8) == 0);
            ck_assert_str_eq(out + len - 7, "199,end");
            velstatus_free(ctx, out);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(buffer_empty_is_empty_string)
{
    velstatus_ctx *ctx;
    velstatus__buf b;
    char *out = NULL;
    size_t len = 99;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    velstatus__buf_init(&b, ctx);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, &len, NULL), VELSTATUS_OK);
    ck_assert_str_eq(out, "");
    ck_assert_uint_eq(len, 0);
    velstatus_free(ctx, out);
    velstatus_ctx_free(ctx);
}
END_TEST

static char *json_str(velstatus_ctx *ctx, const char *s, size_t len, int html)
{
    velstatus__buf b;
    char *out = NULL;
    velstatus__buf_init(&b, ctx);
    velstatus__json_write_string(&b, s, len, html);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, NULL, NULL), VELSTATUS_OK);
    return out;
}

/* Expected values are what Go's encoding/json writes (doc/velero-behaviour.md §2.1: HTML escaping). */
START_TEST(json_string_go_escaping)
{
    static const struct {
        const char *in;
        size_t len;
        int html;
        const char *out;
    } cases[] = {
        {"plain", 5, 1, "\"plain\""},
        {"p<1>", 4, 1, "\"p\\u003c1\\u003e\""},
        {"op&2", 4, 1, "\"op\\u00262\""},
        {"p<1>", 4, 0, "\"p<1>\""},
        {"q\"b\\s", 5, 1, "\"q\\\"b\\\\s\""},
        {"a\nb\rc\td", 7, 1, "\"a\\nb\\rc\\td\""},
        {"\x01\x1f", 2, 1, "\"\\u0001\\u001f\""},
        {"nul\0x", 5, 1, "\"nul\\u0000x\""},
        {"\xc3\xa9t\xc3\xa9", 5, 1, "\"\xc3\xa9t\xc3\xa9\""},
        {"\xe2\x80\xa8|\xe2\x80\xa9", 7, 1, "\"\\u2028|\\u2029\""},
        {"bad\xff", 4, 1, "\"bad\\ufffd\""},
        {"\xc3", 1, 1, "\"\\ufffd\""},
        {"\xed\xa0\x80", 3, 1, "\"\\ufffd\\ufffd\\ufffd\""}, /* surrogate: each byte invalid */
        {"\xf0\x9f\x98\x80", 4, 1, "\"\xf0\x9f\x98\x80\""},
        {"/", 1, 1, "\"/\""},
        {"\x7f", 1, 1, "\"\x7f\""},
    };
    velstatus_ctx *ctx;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *o = json_str(ctx, cases[i].in, cases[i].len, cases[i].html);
        ck_assert_msg(strcmp(o, cases[i].out) == 0, "case %zu: got %s want %s", i, o, cases[i].out);
        velstatus_free(ctx, o);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(version_matches_header)
{
    ck_assert_str_eq(velstatus_version_string(), VELSTATUS_VERSION_STRING);
    ck_assert_uint_eq(velstatus_version_number(), (uint32_t)VELSTATUS_VERSION_NUMBER);
    ck_assert_uint_eq(velstatus_version_number() >> 16, (uint32_t)VELSTATUS_VERSION_MAJOR);
}
END_TEST

START_TEST(policy_presets)
{
    velstatus_policy v = vs_policy(VELSTATUS_PRESET_VELERO), h = vs_policy(VELSTATUS_PRESET_HARDENED), p;
    velstatus_preset ps;
    velstatus_error err;
    ck_assert_uint_eq(v.struct_size, sizeof(velstatus_policy));
    ck_assert_uint_eq(v.preset, VELSTATUS_PRESET_VELERO);
    ck_assert_uint_eq(h.preset, VELSTATUS_PRESET_HARDENED);
    /* doc/velero-behaviour.md §2.8: Velero's zero timeout expires at once; hardened: no timeout. */
    ck_assert_int_eq(v.zero_timeout_expires, 1);
    ck_assert_int_eq(h.zero_timeout_expires, 0);
    /* doc/velero-behaviour.md §6.6: edge-triggered in Velero. */
    ck_assert_int_eq(v.level_triggered_partial_failure, 0);
    ck_assert_int_eq(h.level_triggered_partial_failure, 1);
    ck_assert_int_eq(v.progress_error_grace_ns, 0);
    ck_assert(h.progress_error_grace_ns > 0);
    ck_assert_int_eq(velstatus_policy_init(&p, sizeof(p), VELSTATUS_PRESET_VELERO, &err), VELSTATUS_OK);
    ck_assert_int_eq(memcmp(&p, &v, sizeof(p)), 0);
    ck_assert_int_eq(velstatus_policy_init(&p, sizeof(p), (velstatus_preset)7, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_init(NULL, sizeof(velstatus_policy), VELSTATUS_PRESET_VELERO, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(velstatus_preset_to_string(VELSTATUS_PRESET_HARDENED), "hardened");
    ck_assert_ptr_null(velstatus_preset_to_string((velstatus_preset)9));
    ck_assert_int_eq(velstatus_preset_from_string(&ps, "velero", 6, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ps, VELSTATUS_PRESET_VELERO);
    ck_assert_int_eq(velstatus_preset_from_string(&ps, "Velero", 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_preset_from_string(&ps, "velero", 5, NULL), VELSTATUS_E_INVALID);
}
END_TEST

/* Every public enum: each value has a token that parses back to it, with an
 * explicit length and with VELSTATUS_NUL_TERMINATED; the value after the
 * last has none; an unknown token is E_INVALID naming the tokens wanted; a
 * NULL out is E_INVALID (doc/conventions.md). */
#define CHECK_TOKENS(name, type, first, last, flag)                                                                 \
    do {                                                                                                            \
        type o_;                                                                                                    \
        velstatus_error e_;                                                                                         \
        for (long v_ = (first); v_ <= (long)(last); v_ = (flag) ? v_ * 2 : v_ + 1) {                                \
            const char *s_ = velstatus_##name##_to_string((type)v_);                                                \
            ck_assert_msg(s_ != NULL, #name " %ld has no token", v_);                                               \
            ck_assert_int_eq(velstatus_##name##_from_string(&o_, s_, VELSTATUS_NUL_TERMINATED, &e_), VELSTATUS_OK); \
            ck_assert_int_eq((long)o_, v_);                                                                         \
            ck_assert_int_eq(velstatus_##name##_from_string(&o_, s_, strlen(s_), &e_), VELSTATUS_OK);               \
            ck_assert_int_eq((long)o_, v_);                                                                         \
            ck_assert_int_eq(velstatus_##name##_from_string(NULL, s_, strlen(s_), &e_), VELSTATUS_E_INVALID);       \
        }                                                                                                           \
        ck_assert_ptr_null(velstatus_##name##_to_string((type)((flag) ? (long)(last)*2 : (long)(last) + 1)));       \
        ck_assert_int_eq(velstatus_##name##_from_string(&o_, "no such token", VELSTATUS_NUL_TERMINATED, &e_),       \
                         VELSTATUS_E_INVALID);                                                                      \
        ck_assert_msg(strstr(e_.message, "\"no such token\"") != NULL, "%s", e_.message);                           \
        ck_assert_int_eq(velstatus_##name##_from_string(&o_, NULL, 1, &e_), VELSTATUS_E_INVALID);                   \
    } while (0)

START_TEST(every_enum_has_tokens)
{
    CHECK_TOKENS(kind, velstatus_kind, 0, VELSTATUS_KIND_RESTORE, 0);
    CHECK_TOKENS(phase, velstatus_phase, 0, VELSTATUS_PHASE_DELETING, 0);
    CHECK_TOKENS(restart_action, velstatus_restart_action, 0, VELSTATUS_RESTART_REQUEUE, 0);
    CHECK_TOKENS(preset, velstatus_preset, 0, VELSTATUS_PRESET_HARDENED, 0);
    CHECK_TOKENS(retry_outcome, velstatus_retry_outcome, 0, VELSTATUS_RETRY_OUTCOME_TRUNCATED, 0);
    CHECK_TOKENS(retry_class, velstatus_retry_class, 0, VELSTATUS_RETRY_CLASS_TERMINAL, 0);
    CHECK_TOKENS(backoff_kind, velstatus_backoff_kind, 0, VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    CHECK_TOKENS(op_phase, velstatus_op_phase, VELSTATUS_OP_PHASE_NEW, VELSTATUS_OP_PHASE_FAILED, 0);
    CHECK_TOKENS(op_field, velstatus_op_field, 0, VELSTATUS_OP_FIELD_DESCRIPTION, 0);
    CHECK_TOKENS(op_time, velstatus_op_time, 0, VELSTATUS_OP_TIME_UPDATED, 0);
    CHECK_TOKENS(op_report_kind, velstatus_op_report_kind, 0, VELSTATUS_OP_REPORT_LOOKUP_ERROR, 0);
    CHECK_TOKENS(op_step_flag, velstatus_op_step_flag, 1, VELSTATUS_OP_STEP_ERROR_DEFERRED, 1);
    CHECK_TOKENS(bsl_state, velstatus_bsl_state, 0, VELSTATUS_BSL_READONLY, 0);
    CHECK_TOKENS(persist_action, velstatus_persist_action, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 0);
    CHECK_TOKENS(server_status, velstatus_server_status, 0, VELSTATUS_SERVER_NOT_READY, 0);
    CHECK_TOKENS(server_reason, velstatus_server_reason, 1, VELSTATUS_SERVER_REASON_NEVER_VALIDATED, 1);
    CHECK_TOKENS(bsl_access, velstatus_bsl_access, 0, VELSTATUS_BSL_READ_ONLY, 0);
    CHECK_TOKENS(progress_counter, velstatus_progress_counter, 0, VELSTATUS_PROGRESS_UNQUANTIFIED, 0);
    CHECK_TOKENS(progress_flag, velstatus_progress_flag, 1, VELSTATUS_PROGRESS_F_UNTIMED, 1);
    CHECK_TOKENS(dm_kind, velstatus_dm_kind, 0, VELSTATUS_DM_DOWNLOAD, 0);
    CHECK_TOKENS(dm_phase, velstatus_dm_phase, 0, VELSTATUS_DM_PHASE_UNKNOWN, 0);
    /* a flag token names one flag */
    ck_assert_ptr_null(velstatus_op_step_flag_to_string((velstatus_op_step_flag)3));
    ck_assert_ptr_null(velstatus_progress_flag_to_string((velstatus_progress_flag)0));
}
END_TEST

START_TEST(nul_terminated_text_arguments)
{
    int64_t ns = 0;
    velstatus_error err;
    ck_assert_uint_eq(VELSTATUS_NUL_TERMINATED, (size_t)-1);
    ck_assert_uint_eq(velstatus__text_len("abc", VELSTATUS_NUL_TERMINATED), 3);
    ck_assert_uint_eq(velstatus__text_len(NULL, VELSTATUS_NUL_TERMINATED), 0);
    ck_assert_uint_eq(velstatus__text_len("abc", 2), 2);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "1m30s", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
    ck_assert_int_eq(ns, INT64_C(90000000000));
    ck_assert_int_eq(velstatus_time_parse(&ns, "1970-01-01T00:00:01Z", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
    ck_assert_int_eq(ns, INT64_C(1000000000));
    /* NULL with VELSTATUS_NUL_TERMINATED is the empty text */
    ck_assert_int_eq(velstatus_duration_parse(&ns, NULL, VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_E_PARSE);
    /* Texts of builders, decoders and option fields too. */
    {
        velstatus_ctx *ctx = NULL;
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        velstatus_server_status_options o;
        ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, "[]", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_bsl_set_add(set, "a", VELSTATUS_NUL_TERMINATED, "Available",
                                               VELSTATUS_NUL_TERMINATED, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                         VELSTATUS_OK);
        ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "a");
        ck_assert_str_eq(velstatus_bsl_set_phase(set, 0), "Available");
        velstatus_server_status_options_init(&o, sizeof(o));
        o.default_location = "a";
        o.default_location_len = VELSTATUS_NUL_TERMINATED;
        ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, &err), VELSTATUS_OK);
        ck_assert_str_eq(velstatus_server_verdict_default(v), "a");
        ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_READY);
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
        velstatus_ctx_free(ctx);
    }
}
END_TEST

START_TEST(policy_load_checks_size)
{
    velstatus_policy in = vs_policy(VELSTATUS_PRESET_VELERO), out;
    velstatus_error err;
    ck_assert_int_eq(velstatus__policy_load(&out, NULL, &err), VELSTATUS_OK);
    ck_assert_uint_eq(out.preset, VELSTATUS_PRESET_HARDENED);
    ck_assert_int_eq(velstatus__policy_load(&out, &in, &err), VELSTATUS_OK);
    ck_assert_uint_eq(out.preset, VELSTATUS_PRESET_VELERO);
    in.struct_size = 4;
    ck_assert_int_eq(velstatus__policy_load(&out, &in, &err), VELSTATUS_E_ABI);
    ck_assert_msg(strstr(err.message, "policy.struct_size") != NULL, "%s", err.message);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, status_values_are_pinned);
    tcase_add_test(tc, every_enum_has_tokens);
    tcase_add_test(tc, nul_terminated_text_arguments);
    tcase_add_test(tc, status_names_unique_and_never_null);
    tcase_add_test(tc, error_set_overwrites_whole_struct);
    tcase_add_test(tc, error_message_truncated_not_overflowed);
    tcase_add_test(tc, ctx_default_allocator);
    tcase_add_test(tc, ctx_rejects_bad_allocators);
    tcase_add_test(tc, sized_copy_rules);
    tcase_add_test(tc, buffer_grows_and_reports_nomem);
    tcase_add_test(tc, buffer_empty_is_empty_string);
    tcase_add_test(tc, json_string_go_escaping);
    tcase_add_test(tc, version_matches_header);
    tcase_add_test(tc, policy_presets);
    tcase_add_test(tc, policy_load_checks_size);
    suite_add_tcase(s, tc);
    return s;
}
