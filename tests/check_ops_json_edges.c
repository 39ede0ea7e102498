/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the itemoperations and plugin-reports decoders and of the
 * encoder: the grace period's velstatusProgressErrorSince survives a round
 * trip through the file, Go's escaping of U+2028/U+2029 in unknown values,
 * every optional status field written alone, nil and empty lists, and the
 * schema errors of the reports map (which name the operation ID, cut to 120
 * bytes, and the field). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "velstatus.h"
#include "velstatus/experimental.h"

#define NOW_NS INT64_C(1714559400000000000) /* 2024-05-01T10:30:00Z */
#define SEC INT64_C(1000000000)

static char *encode(const velstatus_oplist *list)
{
    char *out = NULL;
    ck_assert_int_eq(velstatus_oplist_to_json(&out, NULL, list, NULL), VELSTATUS_OK);
    return out;
}

static velstatus_oplist *decode(velstatus_ctx *ctx, const char *json)
{
    velstatus_oplist *list = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, json, strlen(json), &err);
    ck_assert_msg(st == VELSTATUS_OK, "%s: %s", velstatus_status_name(st), err.message);
    return list;
}

static const char REC[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pvc\",\"Namespace\":\"ns\",\"Name\":\"n\"},"
    "\"operationID\":\"op-1\",\"postOperationItems\":null},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]\n";

static uint32_t step_progress_error(velstatus_oplist *list, int64_t now)
{
    velstatus_policy h = vs_policy(VELSTATUS_PRESET_HARDENED); /* 60 s grace period */
    velstatus_op_progress p;
    uint32_t flags = 0;
    velstatus_op_progress_init(&p, sizeof(p));
    p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
    p.err = "rpc error: code = Unavailable";
    p.err_len = strlen(p.err);
    ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, list, 0, &p, now, 4 * 3600 * SEC, &h, NULL),
                     VELSTATUS_OK);
    return flags;
}

/* Every member of Velero's itemoperations types (pkg/itemoperation, the same
 * in 1.11 to 1.18) given as JSON null, as Go decodes and re-encodes it: a
 * null *metav1.Time (created, started, updated: omitempty) is a nil pointer
 * and is omitted; a null string or int64 is its zero value (omitted in the
 * omitempty status, "" in the spec); a null resourceIdentifier or post-item
 * is the zero ResourceIdentifier; a null postOperationItems stays null (no
 * omitempty). Issue 20's minimal case is the first record: Velero 1.18, a
 * Completed record with "started":null, no plugin asked, written without
 * started. */
START_TEST(null_members_are_written_as_go_writes_them)
{
    static const char in[] =
        "[{\"spec\":{\"backupName\":\"b\",\"operationID\":\"op-1\"},\"status\":{\"phase\":\"Completed\","
        "\"created\":\"2024-05-01T10:00:00Z\",\"started\":null}},"
        "{\"spec\":{\"backupName\":null,\"backupUID\":null,\"backupItemAction\":null,\"resourceIdentifier\":null,"
        "\"operationID\":null,\"postOperationItems\":[null,{\"Group\":null,\"Resource\":null,\"Namespace\":null,"
        "\"Name\":null}]},\"status\":{\"phase\":null,\"error\":null,\"nCompleted\":null,\"nTotal\":null,"
        "\"operationUnits\":null,\"description\":null,\"created\":null,\"started\":null,\"updated\":null}}]";
    static const char rid0[] = "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"}";
    char want[1024];
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = decode(ctx, in);
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_policy pol;
    char *out;
    snprintf(want, sizeof(want),
             "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":%s,"
             "\"operationID\":\"op-1\",\"postOperationItems\":null},\"status\":{\"phase\":\"Completed\","
             "\"created\":\"2024-05-01T10:00:00Z\"}},"
             "{\"spec\":{\"backupName\":\"\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":%s,"
             "\"operationID\":\"\",\"postOperationItems\":[%s,%s]},\"status\":{}}]\n",
             rid0, rid0, rid0, rid0);
    out = encode(list);
    ck_assert_str_eq(out, want);
    velstatus_free(ctx, out);
    /* the same after a Velero 1.18 pass that asks no plugin */
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, 18, NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    velstatus_oplist_free(list);
    list = decode(ctx, "[{\"spec\":{\"backupName\":\"b\",\"operationID\":\"op-1\"},\"status\":{\"phase\":"
                       "\"Completed\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":null}}]");
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, list, NULL, &o, &pol, NULL), VELSTATUS_OK);
    out = encode(list);
    ck_assert_ptr_null(strstr(out, "started"));
    ck_assert_ptr_nonnull(strstr(out, "\"phase\":\"Completed\",\"created\":\"2024-05-01T10:00:00Z\"}}]\n"));
    velstatus_free(ctx, out);
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

/* An operation ID absent from the map: the plugin's InvalidOperationIDError
 * of the policy's release (pkg/plugin/velero/backupitemaction/v2 at v1.11.0:
 * "Operation ID %v is invalid."; from v1.12.0, e106bbf06: "operation ID %v is
 * invalid"), wrapped with the plugin's registered name from 1.13. */
START_TEST(reports_invalid_id_text_by_release)
{
    static const struct {
        int minor;
        const char *want;
    } cases[] = {{11, "Operation ID op-1 is invalid."},
                 {12, "operation ID op-1 is invalid"},
                 {13, "operation ID op-1 is invalid, plugin: velero.io/csi"},
                 {18, "operation ID op-1 is invalid, plugin: velero.io/csi"}};
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_oplist *list =
            decode(ctx, "[{\"spec\":{\"backupItemAction\":\"csi\",\"operationID\":\"op-1\"},"
                        "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]");
        velstatus_op_reports *rep = NULL;
        velstatus_plugin_client c;
        velstatus_reconcile_options o;
        velstatus_reconcile_result *r = NULL;
        velstatus_policy pol;
        size_t n;
        ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, cases[i].minor, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_op_reports_from_json(&rep, ctx, "{}", 2, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_op_reports_set_policy(rep, &pol, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_op_reports_client(&c, rep, NULL), VELSTATUS_OK);
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = NOW_NS;
        ck_assert_int_eq(velstatus_oplist_reconcile(&r, list, &c, &o, &pol, NULL), VELSTATUS_OK);
        ck_assert_str_eq(velstatus_reconcile_result_error(r, 0, &n), cases[i].want);
        velstatus_reconcile_result_free(r);
        velstatus_op_reports_free(rep);
        velstatus_oplist_free(list);
    }
    ck_assert_int_eq(velstatus_op_reports_set_policy(NULL, NULL, NULL), VELSTATUS_E_INVALID);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(grace_period_survives_a_round_trip_through_the_file)
{
    /* The first Progress error at 10:30:00 is deferred and recorded; the
     * file written then read back still knows when the errors began, so an
     * error at 10:31:00 (60 s later) fails the operation, and one at
     * 10:30:59 would not. */
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = decode(ctx, REC);
    ck_assert(step_progress_error(list, NOW_NS) & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    char *file = encode(list);
    ck_assert_ptr_nonnull(strstr(file, "\"velstatusProgressErrorSince\":\"2024-05-01T10:30:00Z\""));
    velstatus_oplist_free(list);

    velstatus_oplist *again = decode(ctx, file);
    char *file2 = encode(again);
    ck_assert_str_eq(file2, file); /* what the library writes, it reads back */
    ck_assert(step_progress_error(again, NOW_NS + 59 * SEC) & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(again, 0)), VELSTATUS_OP_PHASE_IN_PROGRESS);
    velstatus_oplist_free(again);

    again = decode(ctx, file);
    uint32_t f = step_progress_error(again, NOW_NS + 60 * SEC);
    ck_assert(f & VELSTATUS_OP_STEP_FAILED_NOW);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(again, 0)), VELSTATUS_OP_PHASE_FAILED);
    velstatus_oplist_free(again);
    velstatus_free(ctx, file);
    velstatus_free(ctx, file2);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(unknown_values_get_go_escaping_of_line_separators)
{
    /* An unknown key's value is re-serialised compactly with Go's string
     * escaping: raw U+2028 and U+2029 become \u2028 and \u2029 (U+202A,
     * the next code point, stays raw), whitespace between tokens goes. */
    static const char in[] = "[{\"spec\":{\"backupName\":\"b\",\"x\":{\"s\": \"a\xE2\x80\xA8"
                             "b\xE2\x80\xA9"
                             "c\xE2\x80\xAA\",\r\n\t\"t\" : [1, 2]}},"
                             "\"status\":{\"phase\":\"New\"}}]";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = decode(ctx, in);
    char *out = encode(list);
    ck_assert_ptr_nonnull(strstr(out, "\"x\":{\"s\":\"a\\u2028b\\u2029c\xE2\x80\xAA\",\"t\":[1,2]}"));
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(each_optional_status_field_is_written_alone)
{
    /* Go's omitempty: a status with one field set is written with just that
     * field (no stray comma), and reads back to the same bytes. */
    static const char *const statuses[] = {
        "{\"error\":\"boom\"}",
        "{\"nCompleted\":3}",
        "{\"nTotal\":9}",
        "{\"operationUnits\":\"Bytes\"}",
        "{\"description\":\"copying\"}",
        "{\"created\":\"2024-05-01T10:00:00Z\"}",
        "{\"started\":\"2024-05-01T10:00:00Z\"}",
        "{\"updated\":\"2024-05-01T10:00:00Z\"}",
        "{\"velstatusProgressErrorSince\":\"2024-05-01T10:00:00Z\"}",
        "{}",
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
        char in[1024];
        snprintf(in, sizeof(in),
                 "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\","
                 "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},"
                 "\"operationID\":\"\",\"postOperationItems\":null},\"status\":%s}]\n",
                 statuses[i]);
        velstatus_oplist *list = decode(ctx, in);
        char *out = encode(list);
        ck_assert_msg(strcmp(out, in) == 0, "case %zu: %s", i, out);
        velstatus_free(ctx, out);
        velstatus_oplist_free(list);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(times_are_written_as_formatted_record_after_record)
{
    /* The encoder reuses the text of the time it wrote last in each slot
     * when only the seconds differ: every time of a list crossing minutes,
     * hours, years and the epoch both ways, from year 1 to 9999, still
     * comes out as velstatus_time_format_sec writes it alone. */
    static const int64_t secs[] = {
        -62135596799, -62135596741, -61,          -60,          -59,          -1,         0,          1,
        59,           60,           61,           119,          120,          1714557600, 1714557659, 1714557660,
        1714557601,   1714557599,   253402300799, 253402300740, 253402300739, 0,          -1};
    /* the error-since time is int64 nanoseconds: years 1678 to 2262 */
    static const int64_t near[] = {-61, -60, -59, -1, 0, 1, 59, 60, 61, 1714557600, 1714557659, 1714557660, 1714557599};
    enum { N = sizeof(secs) / sizeof(secs[0]), M = sizeof(near) / sizeof(near[0]) };
    static char in[N * 1024];
    size_t used = 0;
    velstatus_ctx *ctx = vs_test_ctx();
    used += (size_t)snprintf(in + used, sizeof(in) - used, "[");
    for (size_t i = 0; i < N; i++) {
        char t[4][VELSTATUS_TIME_BUFSIZE];
        for (size_t k = 0; k < 4; k++)
            ck_assert_int_eq(
                velstatus_time_format_sec(t[k], sizeof(t[k]), k < 3 ? secs[(i + k * 5) % N] : near[i % M], 0, 0, NULL),
                VELSTATUS_OK);
        used += (size_t)snprintf(
            in + used, sizeof(in) - used,
            "%s{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\","
            "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},"
            "\"operationID\":\"\",\"postOperationItems\":null},\"status\":{\"created\":\"%s\",\"started\":\"%s\","
            "\"updated\":\"%s\",\"velstatusProgressErrorSince\":\"%s\"}}",
            i ? "," : "", t[0], t[1], t[2], t[3]);
    }
    snprintf(in + used, sizeof(in) - used, "]\n");
    velstatus_oplist *list = decode(ctx, in);
    char *out = encode(list);
    ck_assert_str_eq(out, in);
    ck_assert_ptr_nonnull(strstr(in, "\"0001-01-01T00:00:01Z\"")); /* the cases are there */
    ck_assert_ptr_nonnull(strstr(in, "\"1969-12-31T23:58:59Z\""));
    ck_assert_ptr_nonnull(strstr(in, "\"9999-12-31T23:59:59Z\""));
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(nil_empty_and_grown_lists)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = decode(ctx, "null");
    ck_assert(velstatus_oplist_is_null(list));
    char *out = encode(list);
    ck_assert_str_eq(out, "null\n");
    velstatus_free(ctx, out);
    /* A record appended to a nil list makes it a list. */
    size_t i;
    ck_assert_int_eq(velstatus_oplist_append(&i, list, NULL), VELSTATUS_OK);
    out = encode(list);
    ck_assert_int_eq(out[0], '[');
    ck_assert_ptr_nonnull(strstr(out, "\"postOperationItems\":null"));
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    list = decode(ctx, " [ ] ");
    out = encode(list);
    ck_assert_str_eq(out, "[]\n");
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    /* postOperationItems: [] is an empty, non-nil list. */
    list = decode(ctx, "[{\"spec\":{\"postOperationItems\":[]}}]");
    ck_assert_int_eq(velstatus_op_post_items_null(velstatus_oplist_at(list, 0)), 0);
    out = encode(list);
    ck_assert_ptr_nonnull(strstr(out, "\"postOperationItems\":[]"));
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(integer_fields_refuse_fractions_and_accept_null)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = NULL;
    velstatus_error err;
    static const char frac[] = "[{\"status\":{\"nTotal\":1.5}}]";
    ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, frac, sizeof(frac) - 1, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, ".status.nTotal"));
    ck_assert_ptr_nonnull(strstr(err.message, "must be an integer, not a fraction or exponent"));
    ck_assert_ptr_null(list);
    static const char expo[] = "[{\"status\":{\"nCompleted\":1e3}}]";
    ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, expo, sizeof(expo) - 1, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, ".status.nCompleted"));
    static const char str[] = "[{\"status\":{\"nCompleted\":\"3\"}}]";
    ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, str, sizeof(str) - 1, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "must be an integer"));
    list = decode(ctx, "[{\"status\":{\"nCompleted\":null,\"nTotal\":7}}]");
    ck_assert_int_eq(velstatus_op_n_completed(velstatus_oplist_at(list, 0)), 0);
    ck_assert_int_eq(velstatus_op_n_total(velstatus_oplist_at(list, 0)), 7);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

typedef struct bad_reports {
    const char *json;
    velstatus_status st;
    const char *want; /* a substring of the message */
} bad_reports;

START_TEST(reports_schema_errors_name_the_id_and_field)
{
    static const bad_reports v[] = {
        {"{\"op-1\":{\"completed\":\"yes\"}}", VELSTATUS_E_SCHEMA, "[\"op-1\"].completed: must be true or false"},
        {"{\"op-1\":{\"nTotal\":2.5}}", VELSTATUS_E_SCHEMA, "[\"op-1\"].nTotal: must be an integer"},
        {"{\"op-1\":{\"nCompleted\":1E2}}", VELSTATUS_E_SCHEMA, "[\"op-1\"].nCompleted: must be an integer"},
        {"{\"op-1\":{\"nCompleted\":true}}", VELSTATUS_E_SCHEMA, "[\"op-1\"].nCompleted: must be an integer"},
        {"{\"op-1\":{\"started\":5}}", VELSTATUS_E_SCHEMA,
         "[\"op-1\"].started: must be an RFC 3339 time string or null"},
        {"{\"op-1\":{\"updated\":\"yesterday\"}}", VELSTATUS_E_SCHEMA, "[\"op-1\"].updated: not a valid time"},
        {"{\"op-1\":{\"started\":\"10000-01-01T00:00:00Z\"}}", VELSTATUS_E_SCHEMA,
         "[\"op-1\"].started: not a valid time"},
        {"{\"op-1\":5}", VELSTATUS_E_SCHEMA, "[\"op-1\"]: must be an object"},
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        velstatus_op_reports *r = NULL;
        velstatus_error err;
        memset(&err, 0, sizeof(err));
        velstatus_status st = velstatus_op_reports_from_json(&r, ctx, v[i].json, strlen(v[i].json), &err);
        ck_assert_msg(st == v[i].st, "case %zu: %s (%s)", i, velstatus_status_name(st), err.message);
        ck_assert_ptr_null(r);
        ck_assert_msg(strstr(err.message, v[i].want) != NULL, "case %zu: %s", i, err.message);
        ck_assert_uint_gt(err.offset, 0);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reports_message_cuts_a_long_id_to_120_bytes)
{
    char id[200], json[400], want[160];
    memset(id, 'i', 150);
    id[150] = '\0';
    snprintf(json, sizeof(json), "{\"%s\":{\"completed\":1}}", id);
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, json, strlen(json), &err), VELSTATUS_E_SCHEMA);
    snprintf(want, sizeof(want), "[\"%.120s\"].completed", id);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reports_empty_maps_entries_and_bad_arguments)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_op_progress p;
    velstatus_error err;
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, " { } ", 5, NULL), VELSTATUS_OK);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "x", 1), 0);
    velstatus_op_reports_free(r);
    r = NULL;
    /* An empty entry is a progress answer with every field zero. */
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, "{\"a\":{ },\"b\":{}}", 16, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "b", 1), 1);
    ck_assert_int_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS);
    ck_assert_int_eq(p.completed, 0);
    ck_assert_int_eq(p.has_started, 0);
    velstatus_op_reports_free(r);
    r = NULL;
    /* The top level must be an object: anything else is not this format. */
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, "[]", 2, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, NULL, 5, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_ptr_null(r);
    velstatus_ctx_free(ctx);
}
END_TEST

/* JSON text rules, as jansson applies them (both decoders share them): a
 * value placed in an unknown key of a record must be accepted, or the file
 * rejected with the given status. */
typedef struct json_case {
    const char *value;
    velstatus_status st;
} json_case;

static const json_case json_cases[] = {
    {"\"\\u00e9\\uD83D\\uDE00\\u20AC\"", VELSTATUS_OK}, /* BMP, a surrogate pair, upper-case hex */
    {"\"\\uDC00\"", VELSTATUS_E_PARSE},                 /* a lone low surrogate */
    {"\"\\uD800x\"", VELSTATUS_E_PARSE},                /* a high surrogate, no low half */
    {"\"\\uD800\\u0041\"", VELSTATUS_E_PARSE},          /* a high surrogate, then not a low one */
    {"\"\\uD800\\uZZZZ\"", VELSTATUS_E_PARSE},          /* a bad second escape */
    {"\"\\u12\"", VELSTATUS_E_PARSE},                   /* a short escape */
    {"\"\\q\"", VELSTATUS_E_PARSE},                     /* an unknown escape */
    {"\"\xE2\x82\"", VELSTATUS_E_PARSE},                /* a truncated 3-byte sequence */
    {"\"\xE2\x28\xA1\"", VELSTATUS_E_PARSE},            /* a bad continuation byte */
    {"\"\xE0\x80\x80\"", VELSTATUS_E_PARSE},            /* an overlong form */
    {"\"\xED\xA0\x80\"", VELSTATUS_E_PARSE},            /* a UTF-8 surrogate */
    {"\"\xF4\x90\x80\x80\"", VELSTATUS_E_PARSE},        /* above U+10FFFF */
    {"\"\xF0\x9F\x98\x80\xDF\xBF\"", VELSTATUS_OK},     /* 4- and 2-byte forms */
    {"-", VELSTATUS_E_PARSE},
    {"01", VELSTATUS_E_PARSE},
    {"1.", VELSTATUS_E_PARSE},
    {"1e", VELSTATUS_E_PARSE},
    {"1e+", VELSTATUS_E_PARSE},
    {"-0.0e-0", VELSTATUS_OK},
    {"0.000000000000000000001e-400", VELSTATUS_OK}, /* underflow is not an error */
    {"1.7976931348623157e308", VELSTATUS_OK},       /* DBL_MAX */
    {"17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797758720709633028641669"
     "28879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228"
     "42914819860834936475292719074168444365510704342711559699508093042880177904174497791.0",
     VELSTATUS_OK}, /* just under 2^1024 - 2^970 */
    {"17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797758720709633028641669"
     "28879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228"
     "42914819860834936475292719074168444365510704342711559699508093042880177904174497792.0",
     VELSTATUS_E_RANGE}, /* exactly the limit: infinity */
    {"0."
     "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797758720709633028641669"
     "28879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228"
     "42914819860834936475292719074168444365510704342711559699508093042880177904174497792000e309",
     VELSTATUS_E_RANGE}, /* the limit, trailing zeros */
    {"1.7976931348623159e308", VELSTATUS_E_RANGE},
    {"2e308", VELSTATUS_E_RANGE},
    {"1e9999999999", VELSTATUS_E_RANGE},
    {"9223372036854775807", VELSTATUS_OK},
    {"-9223372036854775808", VELSTATUS_OK},
    {"9223372036854775808", VELSTATUS_E_RANGE},
    {"nul", VELSTATUS_E_PARSE},
    {"nullx", VELSTATUS_E_PARSE},
    {"True", VELSTATUS_E_PARSE},
    {"[true, false, null, {}, [], \"\", 0]", VELSTATUS_OK},
};

START_TEST(json_text_rules_for_strings_numbers_and_literals)
{
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(json_cases) / sizeof(json_cases[0]); i++) {
        char in[1024];
        velstatus_oplist *list = NULL;
        velstatus_error err;
        int n = snprintf(in, sizeof(in), "[{\"spec\":{},\"x\":%s}]", json_cases[i].value);
        ck_assert_int_lt(n, (int)sizeof(in));
        memset(&err, 0, sizeof(err));
        velstatus_status st = velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, in, (size_t)n, &err);
        ck_assert_msg(st == json_cases[i].st, "case %zu (%s): %s %s", i, json_cases[i].value, velstatus_status_name(st),
                      err.message);
        if (st == VELSTATUS_OK) {
            /* Accepted text reads back: encode, decode, encode is stable. */
            char *a = encode(list), *b;
            velstatus_oplist *again = decode(ctx, a);
            b = encode(again);
            ck_assert_str_eq(a, b);
            velstatus_free(ctx, a);
            velstatus_free(ctx, b);
            velstatus_oplist_free(again);
        } else {
            ck_assert_ptr_null(list);
            ck_assert_uint_ge(err.offset, 16); /* at or after the value, never before it */
        }
        velstatus_oplist_free(list);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(long_unknown_keys_and_lone_unknown_members_round_trip)
{
    /* A key longer than any known one is unknown and kept; an object whose
     * only member is unknown is written with that member alone. */
    char key[300], in[1024];
    memset(key, 'q', 200);
    key[200] = '\0';
    snprintf(in, sizeof(in),
             "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\","
             "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},"
             "\"operationID\":\"\",\"postOperationItems\":null,\"%s\":true},\"status\":{\"x\":1}}]\n",
             key);
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = decode(ctx, in);
    char *out = encode(list);
    ck_assert_str_eq(out, in);
    velstatus_free(ctx, out);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reports_unknown_key_is_named_cut_to_120_bytes)
{
    char key[200], json[400], want[200];
    memset(key, 'z', 150);
    key[150] = '\0';
    snprintf(json, sizeof(json), "{\"op-1\":{\"%s\":1}}", key);
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, json, strlen(json), &err), VELSTATUS_E_SCHEMA);
    snprintf(want, sizeof(want), "[\"op-1\"].%.120s: unknown key", key);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    ck_assert_ptr_null(r);
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("ops_json_edges");
    TCase *tc = tcase_create("ops_json_edges");
    tcase_add_test(tc, grace_period_survives_a_round_trip_through_the_file);
    tcase_add_test(tc, null_members_are_written_as_go_writes_them);
    tcase_add_test(tc, reports_invalid_id_text_by_release);
    tcase_add_test(tc, unknown_values_get_go_escaping_of_line_separators);
    tcase_add_test(tc, each_optional_status_field_is_written_alone);
    tcase_add_test(tc, nil_empty_and_grown_lists);
    tcase_add_test(tc, integer_fields_refuse_fractions_and_accept_null);
    tcase_add_test(tc, reports_schema_errors_name_the_id_and_field);
    tcase_add_test(tc, reports_message_cuts_a_long_id_to_120_bytes);
    tcase_add_test(tc, reports_empty_maps_entries_and_bad_arguments);
    tcase_add_test(tc, json_text_rules_for_strings_numbers_and_literals);
    tcase_add_test(tc, long_unknown_keys_and_lone_unknown_members_round_trip);
    tcase_add_test(tc, reports_unknown_key_is_named_cut_to_120_bytes);
    tcase_add_test(tc, times_are_written_as_formatted_record_after_record);
    suite_add_tcase(s, tc);
    return s;
}
