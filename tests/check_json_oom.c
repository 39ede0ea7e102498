/* SPDX-License-Identifier: Apache-2.0 */
/* Issue 10, defect 3: running out of memory while decoding is
 * VELSTATUS_E_NOMEM, never a parse error, a wrong result or a crash. This
 * binary (only a test may) sets jansson's global allocator hooks: they
 * show the decoders never call jansson (whose parser is not safe when an
 * allocation fails), and the context's allocator fails in turn under each
 * decoder (failalloc). */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include <velstatus.h>
#include <velstatus/experimental.h>

static long j_fail_at = -1, j_count, j_live, j_failed;

static void *j_malloc(size_t n)
{
    void *p;
    if (j_count++ == j_fail_at) {
        j_failed++;
        return NULL;
    }
    p = malloc(n);
    if (p)
        j_live++;
    return p;
}

static void j_free(void *p)
{
    if (p)
        j_live--;
    free(p);
}

static void j_arm(long n)
{
    j_fail_at = n;
    j_count = j_failed = 0;
}

/* Every BSL field the decoder reads, long strings with escapes (jansson's
 * token buffer grows), a repeated key, an unknown field. */
static const char bsls[] =
    "{\"kind\":\"List\",\"items\":[{\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":\"default\","
    "\"creationTimestamp\":\"2026-11-30T12:00:00Z\",\"labels\":{\"a\":[1,2.5,true,null]}},"
    "\"spec\":{\"default\":true,\"accessMode\":\"ReadWrite\"},\"status\":{\"phase\":\"Available\","
    "\"lastValidationTime\":\"2026-11-30T12:59:00Z\",\"message\":\"rpc error: code = Unknown desc = "
    "\\u00e9\\u00e9\\ud83d\\ude00 \\\"quoted\\\" and a long tail to grow the buffer past 64 bytes\"}},"
    "{\"metadata\":{\"name\":\"archive-with-a-rather-long-name\",\"name\":\"archive\"},"
    "\"status\":{\"phase\":\"Unavailable\",\"message\":\"a\\u0000b\"}}]}";

static void bsl_snapshot(const velstatus_bsl_set *set, char *out, size_t cap)
{
    size_t i, len = 0;
    out[0] = '\0';
    for (i = 0; i < velstatus_bsl_set_count(set); i++)
        len += (size_t)snprintf(out + len, cap - len, "%s|%s|%s;", velstatus_bsl_set_name(set, i),
                                velstatus_bsl_set_phase(set, i), velstatus_bsl_set_message(set, i));
}

static const char answers[] =
    "{\"op-1\":{\"completed\":true,\"nCompleted\":3,\"nTotal\":10,\"operationUnits\":\"Bytes\","
    "\"description\":\"copying \\u00e9 and a description long enough to grow jansson's buffer\","
    "\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:30:00Z\"},"
    "\"op-\\u00e9\":{\"error\":\"rpc error\",\"cancelError\":\"x\"},\"op-3\":{\"lookupError\":\"no plugin\"}}";

static const char ops[] =
    "[{\"spec\":{\"backupName\":\"b\\u00e9\",\"OperationID\":\"op-\\ud83d\\ude00-with-a-long-tail\","
    "\"x\":{\"y\":[1,\"<&>\"]}},\"status\":{\"phase\":\"InProgress\",\"nTotal\":-9223372036854775808,"
    "\"description\":\"a \\\"quoted\\\" text\",\"created\":\"2024-05-01T10:00:00Z\"}}]";

/* jansson's parser fails unsafely when an allocation fails: given a valid
 * 200-byte object and its N-th allocation failed, jansson 2.14 returned
 * "BackupStorageLcation" for "BackupStorageLocation" (a dropped byte) or
 * crashed (SIGSEGV). So the decoders do not call it: with every jansson
 * allocation failing, each still decodes, and jansson is never asked. */
START_TEST(decoders_never_call_jansson)
{
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_op_reports *r = NULL;
    velstatus_oplist *l = NULL;
    velstatus_op_progress p;
    char got[1024];
    ctx = vs_test_ctx();
    j_arm(0);
    ck_assert_ptr_null(json_loadb("[]", 2, 0, NULL)); /* the hooks are in place */
    j_arm(0);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, bsls, sizeof(bsls) - 1, NULL), VELSTATUS_OK);
    bsl_snapshot(set, got, sizeof(got));
    ck_assert_str_eq(got, "default|Available|rpc error: code = Unknown desc = \xc3\xa9\xc3\xa9\xf0\x9f\x98\x80 "
                          "\"quoted\" and a long tail to grow the buffer past 64 bytes;archive|Unavailable|a;");
    velstatus_bsl_set_free(set);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, answers, sizeof(answers) - 1, NULL), VELSTATUS_OK);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert(velstatus_op_reports_get(&p, r, "op-1", 4));
    ck_assert_int_eq(p.n_total, 10);
    ck_assert(velstatus_op_reports_get(&p, r, "op-\xc3\xa9", 5));
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    velstatus_op_reports_free(r);
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, ops, sizeof(ops) - 1, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_n_total(velstatus_oplist_at(l, 0)), INT64_MIN);
    velstatus_oplist_free(l);
    ck_assert_int_eq(j_count, 0);
    ck_assert_int_eq(j_live, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The context's allocator failing in turn: E_NOMEM or OK, nothing leaked. */
START_TEST(ctx_oom_in_every_decoder_is_nomem)
{
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_bsl_set *set = NULL;
        st = velstatus_bsl_set_from_json(&set, ctx, bsls, sizeof(bsls) - 1, NULL);
        velstatus_bsl_set_free(set);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_op_reports *r = NULL;
        st = velstatus_op_reports_from_json(&r, ctx, answers, sizeof(answers) - 1, NULL);
        velstatus_op_reports_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, ops, sizeof(ops) - 1, NULL);
        velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("json_oom");
    TCase *tc = tcase_create("json_oom");
    json_set_alloc_funcs(j_malloc, j_free);
    tcase_add_test(tc, decoders_never_call_jansson);
    tcase_add_test(tc, ctx_oom_in_every_decoder_is_nomem);
    suite_add_tcase(s, tc);
    return s;
}
