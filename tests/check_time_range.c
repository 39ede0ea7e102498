/* SPDX-License-Identifier: Apache-2.0 */
/* Go's whole time range: every case of tests/data/time/go-rfc3339.json
 * (what Go itself does, made by scripts/time-vectors.go) through the exact
 * parser and formatter, the itemoperations codec and the timeout decision;
 * then the exact getters, describe, and the edges the vectors cannot
 * reach. */
#include <check.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include "common/private.h"
#include "velstatus/experimental.h"

#define SEC INT64_C(1000000000)
#define GO_ZERO_SEC INT64_C(-62135596800) /* 0001-01-01T00:00:00Z */

static json_t *vectors_file(void)
{
    size_t len = 0;
    char *text = vs_test_read_data("time/go-rfc3339.json", &len);
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    ck_assert_msg(root != NULL, "go-rfc3339.json: %s", jerr.text);
    ck_assert(json_array_size(json_object_get(root, "vectors")) > 80);
    return root;
}

/* The text between the quotes of Go's "out" (or "null" for the zero time). */
static const char *go_out(json_t *v, char *buf, size_t cap)
{
    const char *out = json_string_value(json_object_get(v, "out"));
    size_t n = strlen(out);
    if (out[0] != '"')
        return out;
    ck_assert(n >= 2 && n - 1 < cap);
    memcpy(buf, out + 1, n - 2);
    buf[n - 2] = '\0';
    return buf;
}

START_TEST(go_vectors_parse_and_format)
{
    json_t *root = vectors_file(), *vecs = json_object_get(root, "vectors"), *v;
    size_t i;
    json_array_foreach(vecs, i, v)
    {
        const char *in = json_string_value(json_object_get(v, "in"));
        int ok = json_is_true(json_object_get(v, "ok"));
        int64_t sec = 7, ns = 7;
        int32_t nsec = 7;
        velstatus_error err;
        velstatus_status st = velstatus_time_parse_sec(&sec, &nsec, in, strlen(in), &err);
        char buf[VELSTATUS_TIME_BUFSIZE], want[VELSTATUS_TIME_BUFSIZE];
        ck_assert_msg((st == VELSTATUS_OK) == ok, "[%zu] \"%s\": %s (%s)", i, in, velstatus_status_name(st),
                      st == VELSTATUS_OK ? "" : err.message);
        if (!ok) {
            ck_assert_int_eq(st, VELSTATUS_E_PARSE);
            ck_assert_msg(sec == 7 && nsec == 7, "[%zu]: output written on failure", i);
            ck_assert_int_eq(velstatus_time_parse(&ns, in, strlen(in), NULL), VELSTATUS_E_PARSE);
            continue;
        }
        ck_assert_msg(sec == json_integer_value(json_object_get(v, "sec")) &&
                          nsec == json_integer_value(json_object_get(v, "nsec")),
                      "[%zu] \"%s\": %" PRId64 ".%09d", i, in, sec, (int)nsec);
        /* whole seconds: metav1.Time's text (the library writes the zero
         * time as text where Go writes null) */
        ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), sec, nsec, 0, NULL), VELSTATUS_OK);
        if (json_is_true(json_object_get(v, "zero")))
            ck_assert_str_eq(buf, "0001-01-01T00:00:00Z");
        else
            ck_assert_str_eq(buf, go_out(v, want, sizeof(want)));
        ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), sec, nsec, 1, NULL), VELSTATUS_OK);
        ck_assert_str_eq(buf, json_string_value(json_object_get(v, "rfc3339nano")));
        /* the nanosecond parser: the same instant, or E_RANGE outside */
        {
            int64_t want_ns;
            int fits = velstatus__time_to_ns(sec, nsec, &want_ns);
            st = velstatus_time_parse(&ns, in, strlen(in), &err);
            if (fits || (sec == INT64_C(-9223372037) && nsec == 0)) {
                ck_assert_int_eq(st, VELSTATUS_OK);
                ck_assert_int_eq(ns, fits ? want_ns : INT64_MIN);
            } else {
                ck_assert_int_eq(st, VELSTATUS_E_RANGE);
            }
        }
    }
    json_decref(root);
}
END_TEST

/* The text of `"key":` in a list's JSON, up to the next ',' or '}'. */
static void member(const char *json, const char *key, char *out, size_t cap)
{
    char pat[32];
    const char *p, *e;
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    p = strstr(json, pat);
    ck_assert_msg(p != NULL, "%s not in %s", key, json);
    p += strlen(pat);
    e = p + strcspn(p, ",}");
    ck_assert((size_t)(e - p) < cap);
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = '\0';
}

static velstatus_oplist *one_record(velstatus_ctx *ctx, const char *status, velstatus_error *err, velstatus_status *st)
{
    char text[512];
    velstatus_oplist *l = NULL;
    snprintf(text, sizeof(text), "[{\"spec\":{\"backupItemAction\":\"velero.io/x\"},\"status\":{%s}}]", status);
    *st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, strlen(text), err);
    return l;
}

START_TEST(go_vectors_through_the_codec)
{
    json_t *root = vectors_file(), *vecs = json_object_get(root, "vectors"), *v;
    velstatus_ctx *ctx = vs_test_ctx();
    size_t i, unreadable = 0;
    json_array_foreach(vecs, i, v)
    {
        const char *in = json_string_value(json_object_get(v, "in"));
        char status[256], got[64], want[64];
        velstatus_error err;
        velstatus_status st;
        velstatus_oplist *l, *back = NULL;
        char *json = NULL, *again = NULL;
        size_t n, n2;
        snprintf(status, sizeof(status), "\"phase\":\"InProgress\",\"created\":\"%s\",\"updated\":\"%s\"", in, in);
        l = one_record(ctx, status, &err, &st);
        if (!json_is_true(json_object_get(v, "ok"))) {
            ck_assert_msg(st == VELSTATUS_E_SCHEMA, "[%zu] \"%s\": %s", i, in, velstatus_status_name(st));
            ck_assert_msg(strstr(err.message, "[0].status.created") != NULL, "%s", err.message);
            continue;
        }
        ck_assert_msg(st == VELSTATUS_OK, "[%zu] \"%s\": %s", i, in, err.message);
        ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
        member(json, "created", got, sizeof(got));
        if (json_is_true(json_object_get(v, "zero"))) /* present: kept as text */
            ck_assert_str_eq(got, "\"0001-01-01T00:00:00Z\"");
        else
            ck_assert_str_eq(got, json_string_value(json_object_get(v, "out")));
        member(json, "updated", want, sizeof(want));
        ck_assert_str_eq(got, want);
        /* what the library writes it reads back to the same text, unless
         * the offset left years 0000-9999 in UTC: metav1.Time writes
         * "-0001-..." or "10000-..." then, which Go cannot read back
         * either */
        st = velstatus_oplist_from_json(&back, ctx, VELSTATUS_KIND_BACKUP, json, n, &err);
        if (got[1] == '-' || strncmp(got, "\"10000-", 7) == 0) {
            ck_assert_int_eq(st, VELSTATUS_E_SCHEMA);
            ck_assert_ptr_null(back);
            unreadable++;
        } else {
            ck_assert_msg(st == VELSTATUS_OK, "[%zu] %s: %s", i, json, err.message);
            ck_assert_int_eq(velstatus_oplist_to_json(&again, &n2, back, NULL), VELSTATUS_OK);
            ck_assert_str_eq(again, json);
            velstatus_free(ctx, again);
        }
        velstatus_free(ctx, json);
        velstatus_oplist_free(back);
        velstatus_oplist_free(l);
    }
    ck_assert_uint_eq(unreadable, 7);
    json_decref(root);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Created + timeout before now, for every accepted time and every (now,
 * timeout) pair Go decided, under both presets. */
START_TEST(go_vectors_timeout_decisions)
{
    json_t *root = vectors_file(), *vecs = json_object_get(root, "vectors"), *v;
    json_t *dec = json_object_get(root, "decisions");
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy pols[2];
    size_t i, k, checked = 0, wide_fraction = 0;
    pols[0] = vs_policy(VELSTATUS_PRESET_VELERO);
    pols[1] = vs_policy(VELSTATUS_PRESET_HARDENED);
    json_array_foreach(vecs, i, v)
    {
        const char *in = json_string_value(json_object_get(v, "in"));
        json_t *outs = json_object_get(v, "timed_out"), *whole = json_object_get(v, "whole_second_timed_out");
        char status[256];
        if (!json_is_true(json_object_get(v, "ok")))
            continue;
        ck_assert_uint_eq(json_array_size(outs), json_array_size(dec));
        /* outside the int64 range a time keeps its whole second: decided
         * on that, which differs from Go's only within a second of now */
        if (whole) {
            outs = whole;
            wide_fraction++;
        }
        snprintf(status, sizeof(status), "\"phase\":\"InProgress\",\"created\":\"%s\"", in);
        for (k = 0; k < json_array_size(dec); k++) {
            int64_t now = json_integer_value(json_array_get(json_array_get(dec, k), 0));
            int64_t timeout = json_integer_value(json_array_get(json_array_get(dec, k), 1));
            int go = json_is_true(json_array_get(outs, k));
            for (int p = 0; p < 2; p++) {
                velstatus_status st;
                velstatus_oplist *l = one_record(ctx, status, NULL, &st);
                velstatus_op_progress r;
                uint32_t flags = 0;
                int want = go && (timeout > 0 || pols[p].zero_timeout_expires);
                ck_assert_int_eq(st, VELSTATUS_OK);
                velstatus_op_progress_init(&r, sizeof(r));
                ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, now, timeout, &pols[p], NULL),
                                 VELSTATUS_OK);
                ck_assert_msg(!!(flags & VELSTATUS_OP_STEP_CANCEL) == want,
                              "\"%s\" now %" PRId64 " timeout %" PRId64 " preset %d: flags %#x, Go %d", in, now,
                              timeout, p, (unsigned)flags, go);
                ck_assert(!(flags & VELSTATUS_OP_STEP_MISSING_CREATED));
                velstatus_oplist_free(l);
                checked++;
            }
        }
    }
    ck_assert_uint_gt(checked, 600);
    ck_assert_uint_eq(wide_fraction, 5);
    json_decref(root);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The done-when of Go's range: the two edges round-trip byte-identically,
 * are present, and read exactly and saturated through the two getters. */
START_TEST(zero_time_and_year_9999_are_present_and_exact)
{
    static const char text[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/x\","
        "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"ns\",\"Name\":\"p\"},"
        "\"operationID\":\"op\",\"postOperationItems\":null},\"status\":{\"phase\":\"InProgress\","
        "\"created\":\"0001-01-01T00:00:00Z\",\"started\":\"9999-12-31T23:59:59Z\","
        "\"updated\":\"1970-01-01T00:00:00.5Z\"}}]\n";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    const velstatus_op *op;
    int64_t sec = 1, ns = 1;
    int32_t nsec = 1;
    char *json = NULL;
    size_t n;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, strlen(text), NULL),
                     VELSTATUS_OK);
    op = velstatus_oplist_at(l, 0);
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_CREATED, &sec, &nsec), 1);
    ck_assert_int_eq(sec, GO_ZERO_SEC);
    ck_assert_int_eq(nsec, 0);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &ns), 1);
    ck_assert_int_eq(ns, INT64_MIN);
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_STARTED, &sec, &nsec), 1);
    ck_assert_int_eq(sec, INT64_C(253402300799));
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &ns), 1);
    ck_assert_int_eq(ns, INT64_MAX);
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_UPDATED, &sec, &nsec), 1);
    ck_assert_int_eq(sec, 0);
    ck_assert_int_eq(nsec, 500000000);
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_UPDATED, NULL, NULL), 1);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    {
        /* byte-identical but for the fraction, which metav1.Time drops */
        const char *frac = strstr(text, ".5Z");
        size_t head = (size_t)(frac - text);
        ck_assert_uint_eq(n, strlen(text) - 2);
        ck_assert(memcmp(json, text, head) == 0);
        ck_assert_str_eq(json + head, frac + 2);
    }
    velstatus_free(ctx, json);

    /* absent, null, NULL record, unknown which: 0 and zeroed outputs */
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, VELSTATUS_OP_TIME_STARTED, 0, 0, NULL), VELSTATUS_OK);
    sec = nsec = 9;
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_STARTED, &sec, &nsec), 0);
    ck_assert(sec == 0 && nsec == 0);
    sec = nsec = 9;
    ck_assert_int_eq(velstatus_op_time_sec(NULL, VELSTATUS_OP_TIME_CREATED, &sec, &nsec), 0);
    ck_assert(sec == 0 && nsec == 0);
    ck_assert_int_eq(velstatus_op_time_sec(op, (velstatus_op_time)3, &sec, &nsec), 0);
    ck_assert_int_eq(velstatus_op_time_sec(op, (velstatus_op_time)-1, NULL, NULL), 0);
    /* a setter replaces a wide time with nanoseconds */
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, VELSTATUS_OP_TIME_CREATED, 1, -SEC / 2, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_CREATED, &sec, &nsec), 1);
    ck_assert(sec == -1 && nsec == 500000000);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &ns), 1);
    ck_assert_int_eq(ns, -SEC / 2);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A null after a wide time (duplicate keys: the last wins) leaves nothing
 * of it behind, and a zero created times out at once while a null one is
 * flagged missing. */
START_TEST(null_after_a_wide_time_and_missing_created)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_op_progress r;
    velstatus_status st;
    uint32_t flags = 0;
    char *json = NULL;
    size_t n;
    velstatus_oplist *l =
        one_record(ctx, "\"phase\":\"InProgress\",\"created\":\"0001-01-01T00:00:00Z\",\"created\":null", NULL, &st);
    ck_assert_int_eq(st, VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_CREATED, NULL), 0);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    ck_assert_ptr_null(strstr(json, "\"created\"")); /* nil: omitted, as Go writes it */
    velstatus_free(ctx, json);
    velstatus_op_progress_init(&r, sizeof(r));
    ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, 0, SEC, &vel, NULL), VELSTATUS_OK);
    ck_assert(flags & VELSTATUS_OP_STEP_MISSING_CREATED);
    ck_assert(!(flags & VELSTATUS_OP_STEP_CANCEL));
    velstatus_oplist_free(l);

    /* the library's own error-since time: null reads as none, written as none */
    l = one_record(ctx, "\"phase\":\"InProgress\",\"velstatusProgressErrorSince\":null", NULL, &st);
    ck_assert_int_eq(st, VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    ck_assert_ptr_null(strstr(json, "velstatusProgressErrorSince"));
    velstatus_free(ctx, json);
    velstatus_oplist_free(l);

    /* Go's zero created with Velero's default timeout, at today's now */
    l = one_record(ctx, "\"phase\":\"New\",\"created\":\"0001-01-01T00:00:00Z\"", NULL, &st);
    ck_assert_int_eq(
        velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, INT64_C(1714557600) * SEC, 4 * 3600 * SEC, &vel, NULL),
        VELSTATUS_OK);
    ck_assert(flags & VELSTATUS_OP_STEP_CANCEL);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_FAILED);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"created\":\"0001-01-01T00:00:00Z\""));
    velstatus_free(ctx, json);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* started/updated read from a file outside the int64 range, then reported
 * by the plugin: step 4 under both presets. */
START_TEST(reported_times_replace_wide_ones)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy pols[2];
    pols[0] = vs_policy(VELSTATUS_PRESET_VELERO);
    pols[1] = vs_policy(VELSTATUS_PRESET_HARDENED);
    for (int p = 0; p < 2; p++) {
        velstatus_status st;
        velstatus_oplist *l = one_record(
            ctx,
            "\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":\"1677-09-21T00:12:43Z\","
            "\"updated\":\"0001-01-01T00:00:00Z\"",
            NULL, &st);
        const velstatus_op *op = velstatus_oplist_at(l, 0);
        velstatus_op_progress r;
        uint32_t flags = 0;
        int64_t sec, ns;
        int32_t nsec;
        ck_assert_int_eq(st, VELSTATUS_OK);
        velstatus_op_progress_init(&r, sizeof(r));
        /* started: the same second, reported as INT64_MIN (in range) */
        r.has_started = 1;
        r.started_ns = INT64_MIN;
        r.has_updated = 1;
        r.updated_ns = INT64_C(1714557600) * SEC;
        ck_assert_int_eq(
            velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, INT64_C(1714557601) * SEC, 3600 * SEC, &pols[p], NULL),
            VELSTATUS_OK);
        ck_assert(flags & VELSTATUS_OP_STEP_CHANGED); /* updated changed in both */
        ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_UPDATED, &sec, &nsec), 1);
        ck_assert_int_eq(sec, INT64_C(1714557600));
        ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &ns), 1);
        ck_assert_int_eq(ns, INT64_MIN);
        ck_assert_int_eq(velstatus_op_time_sec(op, VELSTATUS_OP_TIME_STARTED, &sec, &nsec), 1);
        /* by instant (hardened), the same second is no change and the wide
         * time stays; by Go equality (Velero) a Local time always differs */
        ck_assert_int_eq(sec, INT64_C(-9223372037));
        ck_assert_int_eq(nsec, p == 0 ? 145224192 : 0);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* The record written back after one step with report r, as a string
 * (the status object only); the list is freed. */
static void step_and_write(velstatus_ctx *ctx, velstatus_oplist *l, const velstatus_op_progress *r,
                           const velstatus_policy *pol, uint32_t *flags, char *out, size_t cap)
{
    char *json = NULL;
    const char *st;
    size_t n;
    ck_assert_int_eq(
        velstatus_oplist_step(flags, NULL, NULL, l, 0, r, INT64_C(1714557601) * SEC, 3600 * SEC, pol, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    st = strstr(json, "\"status\":");
    ck_assert_ptr_nonnull(st);
    snprintf(out, cap, "%s", st);
    velstatus_free(ctx, json);
    velstatus_oplist_free(l);
}

/* A plugin reporting a time outside the int64 nanosecond range
 * (has_started_sec and its twins). What Velero writes back was checked with
 * Go 1.19: time.Unix(sec, nsec).UTC() (timestamppb's AsTime, how the plugin's
 * answer reaches Velero) marshalled as metav1.Time does: Go's zero time is
 * IsZero() and written null, 9999-12-31T23:59:59.5Z is written
 * "9999-12-31T23:59:59Z", 0001-01-01T00:00:00.5Z is not zero and written
 * "0001-01-01T00:00:00Z". */
START_TEST(reported_exact_times_outside_the_ns_range)
{
    static const struct {
        int64_t sec;
        int32_t nsec;
        const char *written; /* the started member Velero writes back */
    } v[] = {
        {GO_ZERO_SEC, 0, "\"started\":null"},
        {INT64_C(253402300799), 0, "\"started\":\"9999-12-31T23:59:59Z\""},
        {INT64_C(253402300799), 500000000, "\"started\":\"9999-12-31T23:59:59Z\""},
        {GO_ZERO_SEC, 500000000, "\"started\":\"0001-01-01T00:00:00Z\""},
        {INT64_C(-62154043200), 0, "\"started\":\"0000-06-01T12:00:00Z\""},
        {INT64_C(1714557600), 250000000, "\"started\":\"2024-05-01T10:00:00Z\""}, /* in range: nanoseconds */
    };
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    char out[512];
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        velstatus_status st;
        velstatus_oplist *l = one_record(ctx,
                                         "\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\","
                                         "\"started\":\"2024-05-01T10:00:00Z\"",
                                         NULL, &st);
        velstatus_op_progress r;
        uint32_t flags = 0;
        int64_t sec = 7;
        int32_t nsec = 7;
        int has;
        ck_assert_int_eq(st, VELSTATUS_OK);
        velstatus_op_progress_init(&r, sizeof(r));
        r.has_started = 1; /* ignored: the exact fields win */
        r.started_ns = 5;
        r.has_started_sec = 1;
        r.started_sec = v[i].sec;
        r.started_nsec = v[i].nsec;
        ck_assert_int_eq(
            velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, INT64_C(1714557601) * SEC, 3600 * SEC, &pol, NULL),
            VELSTATUS_OK);
        ck_assert_msg(flags & VELSTATUS_OP_STEP_CHANGED, "case %zu", i); /* a Local time always differs */
        has = velstatus_op_time_sec(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_STARTED, &sec, &nsec);
        if (i == 0) {
            ck_assert_int_eq(has, 0); /* the zero time: non-nil, so New moves on */
            ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_IN_PROGRESS);
        } else {
            ck_assert_int_eq(has, 1);
            ck_assert_int_eq(sec, v[i].sec);
            ck_assert_int_eq(nsec, i == 5 ? v[i].nsec : 0); /* outside the ns range: the whole second */
        }
        /* the same report again: a UTC time equal to the held one is no change,
         * except the zero time, which the record holds as such */
        flags = 0;
        step_and_write(ctx, l, &r, &pol, &flags, out, sizeof(out));
        ck_assert_msg(!(flags & VELSTATUS_OP_STEP_CHANGED), "case %zu: changed again", i);
        ck_assert_msg(strstr(out, v[i].written) != NULL, "case %zu: %s", i, out);
    }

    /* updated, by instant (hardened): the same second is no change; Go's
     * zero time reported after a real one is ignored */
    {
        velstatus_policy hard = vs_policy(VELSTATUS_PRESET_HARDENED);
        velstatus_status st;
        velstatus_oplist *l = one_record(ctx,
                                         "\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                                         "\"updated\":\"9999-12-31T23:59:59Z\"",
                                         NULL, &st);
        velstatus_op_progress r;
        uint32_t flags = 0;
        ck_assert_int_eq(st, VELSTATUS_OK);
        velstatus_op_progress_init(&r, sizeof(r));
        r.has_updated_sec = 1;
        r.updated_sec = INT64_C(253402300799);
        r.updated_nsec = 999999999;
        ck_assert_int_eq(
            velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, INT64_C(1714557601) * SEC, 3600 * SEC, &hard, NULL),
            VELSTATUS_OK);
        ck_assert(!(flags & VELSTATUS_OP_STEP_CHANGED));
        r.updated_sec = GO_ZERO_SEC;
        r.updated_nsec = 0;
        flags = 0;
        step_and_write(ctx, l, &r, &hard, &flags, out, sizeof(out));
        ck_assert(!(flags & VELSTATUS_OP_STEP_CHANGED));
        ck_assert_msg(strstr(out, "\"updated\":\"9999-12-31T23:59:59Z\"") != NULL, "%s", out);
    }

    /* out of range: E_RANGE naming the field, the record unchanged */
    {
        static const struct {
            int64_t sec;
            int32_t nsec;
        } bad[] = {{0, -1}, {0, 1000000000}, {INT64_C(-62167309201), 0}, {INT64_C(253402390800), 0}, {INT64_MAX, 0}};
        velstatus_status st;
        velstatus_oplist *l = one_record(ctx, "\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"", NULL, &st);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            velstatus_op_progress r;
            velstatus_error err;
            uint32_t flags = 0;
            velstatus_op_progress_init(&r, sizeof(r));
            r.has_updated_sec = 1;
            r.updated_sec = bad[i].sec;
            r.updated_nsec = bad[i].nsec;
            ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, l, 0, &r, 0, 3600 * SEC, &pol, &err),
                             VELSTATUS_E_RANGE);
            ck_assert_msg(strstr(err.message, "progress.updated_sec") != NULL, "%s", err.message);
            ck_assert_int_eq(velstatus_op_time_sec(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_UPDATED, NULL, NULL),
                             0);
        }
        velstatus_oplist_free(l);
    }
    /* the two limits are what velstatus_time_parse_sec() reads at the ends */
    {
        int64_t sec;
        int32_t nsec;
        ck_assert_int_eq(
            velstatus_time_parse_sec(&sec, &nsec, "0000-01-01T00:00:00+24:60", VELSTATUS_NUL_TERMINATED, NULL),
            VELSTATUS_OK);
        ck_assert_int_eq(sec, INT64_C(-62167309200));
        ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, "9999-12-31T23:59:59.999999999-24:60",
                                                  VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(sec, INT64_C(253402390799));
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* The --progress file reads every RFC 3339 time, outside the nanosecond
 * range into the exact fields; the step then writes them as Velero does. */
START_TEST(reports_file_takes_go_s_whole_range)
{
    static const char file[] = "{\"op\":{\"started\":\"0001-01-01T00:00:00Z\",\"updated\":\"9999-12-31T23:59:59.5Z\"},"
                               "\"op2\":{\"started\":\"0000-01-01T00:00:00+24:60\"}}";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *reps = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    static const char rec[] = "[{\"spec\":{\"backupItemAction\":\"velero.io/x\",\"operationID\":\"op\"},"
                              "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                              "\"started\":\"2024-05-01T10:00:00Z\"}}]";
    velstatus_oplist *l = NULL;
    char *json = NULL;
    size_t n;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, rec, strlen(rec), NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_from_json(&reps, ctx, file, strlen(file), NULL), VELSTATUS_OK);
    velstatus_op_reports_client(&client, reps, NULL);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = INT64_C(1714557601) * SEC;
    o.timeout_ns = 3600 * SEC;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, l, &client, &o, &pol, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(&json, &n, l, NULL), VELSTATUS_OK);
    ck_assert_msg(strstr(json, "\"started\":null,\"updated\":\"9999-12-31T23:59:59Z\"") != NULL, "%s", json);
    velstatus_free(ctx, json);
    velstatus_reconcile_result_free(res);
    velstatus_op_reports_free(reps);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Go's t.Add(d).Before(now), exact, at every carry and sign. */
START_TEST(add_before_is_exact)
{
    static const struct {
        int64_t sec;
        int32_t nsec;
        int64_t add, now;
        int want;
    } v[] = {
        {0, 0, 0, 1, 1},
        {0, 0, 0, 0, 0},
        {0, 999999999, 1, SEC, 0}, /* carry: exactly now */
        {0, 999999999, 2, SEC, 0}, /* carry: past now */
        {0, 999999999, 0, SEC, 1},
        {0, 0, -1, 0, 1},  /* borrow */
        {0, 0, -1, -1, 0}, /* negative now */
        {0, 0, -2, -1, 1},
        {GO_ZERO_SEC, 0, INT64_MAX, INT64_MIN, 1}, /* year 293 < 1677 */
        {INT64_C(-9223372037), 0, INT64_MAX, 0, 1},
        {INT64_C(-9223372037), 145224192, INT64_MAX, -1, 0}, /* INT64_MIN + INT64_MAX == -1 */
        {INT64_C(-9223372037), 145224192, INT64_MAX, 0, 1},
        {INT64_C(253402300799), 0, INT64_MIN, INT64_MAX, 0},
        {INT64_C(9223372036), 854775807, INT64_MIN, -1, 0}, /* INT64_MAX + INT64_MIN == -1 */
        {INT64_C(9223372036), 854775807, INT64_MIN, 0, 1},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        ck_assert_msg(velstatus__time_add_before(v[i].sec, v[i].nsec, v[i].add, v[i].now) == v[i].want, "[%zu]", i);
}
END_TEST

/* t.Add(d).Before(now) with the seconds and the nanoseconds apart (no
 * product that could overflow): the oracle of the test below. */
static int add_before_ref(int64_t sec, int32_t nsec, int64_t add, int64_t now)
{
    int64_t s = sec + add / SEC, n = nsec + add % SEC, ns = now / SEC, nn = now % SEC;
    if (n >= SEC) {
        n -= SEC;
        s++;
    } else if (n < 0) {
        n += SEC;
        s--;
    }
    if (nn < 0) {
        nn += SEC;
        ns--;
    }
    return s < ns || (s == ns && n < nn);
}

static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The one-sum path (years 1843-2096, timeouts up to 126 years) and the
 * split path agree at and around the edges of the one-sum range, where a
 * product or a sum would first overflow, and at random. */
START_TEST(add_before_one_sum_agrees)
{
    static const int64_t secs[] = {0,
                                   1,
                                   -1,
                                   INT64_C(1714561200),
                                   INT64_C(3999999999),
                                   INT64_C(4000000000),
                                   INT64_C(4000000001),
                                   INT64_C(-4000000000),
                                   INT64_C(-4000000001),
                                   INT64_C(253402300799),
                                   INT64_C(-62135596800)};
    static const int64_t adds[] = {0,
                                   1,
                                   -1,
                                   INT64_C(14400000000000),
                                   INT64_C(4000000000000000000),
                                   INT64_C(4000000000000000001),
                                   -INT64_C(4000000000000000000),
                                   -INT64_C(4000000000000000001),
                                   INT64_MAX,
                                   INT64_MIN};
    static const int64_t nows[] = {0,
                                   -1,
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_C(1714563600000000000),
                                   INT64_C(8000000000999999999),
                                   -INT64_C(8000000000999999999)};
    static const int32_t nsecs[] = {0, 1, 999999999};
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t a = 0; a < sizeof(secs) / sizeof(secs[0]); a++)
        for (size_t b = 0; b < sizeof(adds) / sizeof(adds[0]); b++)
            for (size_t c = 0; c < sizeof(nows) / sizeof(nows[0]); c++)
                for (size_t d = 0; d < 3; d++)
                    ck_assert_msg(velstatus__time_add_before(secs[a], nsecs[d], adds[b], nows[c]) ==
                                      add_before_ref(secs[a], nsecs[d], adds[b], nows[c]),
                                  "sec %" PRId64 " nsec %" PRId32 " add %" PRId64 " now %" PRId64, secs[a], nsecs[d],
                                  adds[b], nows[c]);
    for (int i = 0; i < 200000; i++) {
        int64_t sec = (int64_t)(next_rand(&x) % UINT64_C(8000000004)) - INT64_C(4000000002);
        int32_t nsec = (int32_t)(next_rand(&x) % 1000000000u);
        int64_t add = (int64_t)(next_rand(&x) >> (next_rand(&x) % 64)) * ((i & 1) ? 1 : -1);
        int64_t now = (int64_t)next_rand(&x), near = (int64_t)(next_rand(&x) % 2001) - 1000;
        int in = sec >= -INT64_C(4000000000) && sec <= INT64_C(4000000000) && add >= -INT64_C(4000000000000000000) &&
                 add <= INT64_C(4000000000000000000);
        if (in && (i & 2)) /* a nanosecond or so from the sum, where the answer turns */
            now = sec * SEC + nsec + add + near;
        ck_assert_msg(velstatus__time_add_before(sec, nsec, add, now) == add_before_ref(sec, nsec, add, now),
                      "sec %" PRId64 " nsec %" PRId32 " add %" PRId64 " now %" PRId64, sec, nsec, add, now);
    }
}
END_TEST

/* Go's Time.String(), as velero describe prints times in the client's zone
 * (issue 22): the numeric offset decides, the abbreviation is ignored. */
START_TEST(go_string_form)
{
    static const struct {
        const char *in;
        int64_t sec;
        int32_t nsec;
    } ok[] = {
        {"2023-11-10 16:40:35 +0100 CET", 1699630835, 0},
        {"2023-11-10 21:10:35 +0530 IST", 1699630835, 0},
        {"2023-11-10 12:10:35 -0330 NST", 1699630835, 0},
        {"2023-11-10 16:40:35 +0100 ABC", 1699630835, 0}, /* the abbreviation is not checked */
        {"2023-11-10 13:40:35 -0200 -02", 1699630835, 0},
        {"2023-11-10 15:40:35 +0000", 1699630835, 0},
        {"2023-11-10 15:40:35.5 +0000 UTC", 1699630835, 500000000},
        {"2023-11-10 15:40:35.0123456789 +0000 UTC", 1699630835, 12345678},
        {"2023-11-10 15:40:35 +0000 UTC m=+0.000000001", 1699630835, 0},
        {"2023-11-10 15:40:35 +0000 UTC m=-12.5", 1699630835, 0},
        {"0001-01-01 00:00:00 +0000 UTC", GO_ZERO_SEC, 0},
        {"2024-02-29 00:00:00 +0000 UTC", 1709164800, 0},
    };
    static const struct {
        const char *in;
        uint64_t offset;
    } bad[] = {
        {"2023-11-10T16:40:35+01:00", 10},   {"2023-11-10 16:40:35 +01:00", 23},
        {"2023-11-10 16:40:35 CET", 20},     {"2023-11-10 16:40:35", 19},
        {"2023-11-10 6:40:35 +0100", 11},    {"2023-02-29 16:40:35 +0100", 8},
        {"2023-11-10 16:40:35 +0100 ", 25},  {"2023-11-10 16:40:35 +0100 CET x", 29},
        {"2023-11-10 16:40:35,5 +0100", 19}, {"2023-11-10 16:40:35 +0100 m=", 28},
    };
    int64_t sec = 7;
    int32_t nsec = 7;
    velstatus_error err;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        velstatus_status st = velstatus_time_parse_go_string(&sec, &nsec, ok[i].in, strlen(ok[i].in), &err);
        ck_assert_msg(st == VELSTATUS_OK, "%s: %s", ok[i].in, err.message);
        ck_assert_msg(sec == ok[i].sec && nsec == ok[i].nsec, "%s: %lld.%09d", ok[i].in, (long long)sec, (int)nsec);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        sec = 7;
        ck_assert_int_eq(velstatus_time_parse_go_string(&sec, &nsec, bad[i].in, VELSTATUS_NUL_TERMINATED, &err),
                         VELSTATUS_E_PARSE);
        ck_assert_msg(err.offset == bad[i].offset, "%s: offset %llu (%s)", bad[i].in, (unsigned long long)err.offset,
                      err.message);
        ck_assert_uint_eq(err.column, bad[i].offset + 1);
        ck_assert(sec == 7);
        ck_assert_ptr_nonnull(strstr(err.message, bad[i].in));
    }
    ck_assert_int_eq(velstatus_time_parse_go_string(NULL, &nsec, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_go_string(&sec, NULL, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_go_string(&sec, &nsec, NULL, 3, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_go_string(&sec, &nsec, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_time_parse_go_string(&sec, &nsec, "2023-11-10 16:40:35 +0100 CET", 19, NULL),
                     VELSTATUS_E_PARSE); /* nothing past len is read */
}
END_TEST

START_TEST(exact_parse_and_format_arguments)
{
    char buf[VELSTATUS_TIME_BUFSIZE], small[20];
    int64_t sec = 5;
    int32_t nsec = 5;
    velstatus_error err;
    ck_assert_int_eq(velstatus_time_parse_sec(NULL, &nsec, "2024-05-01T10:00:00Z", 20, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_sec(&sec, NULL, "2024-05-01T10:00:00Z", 20, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, NULL, 3, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, "2024-05-01T1", 12, &err), VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.offset, 12);
    ck_assert(sec == 5 && nsec == 5);
    ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, "0001-01-01T00:00:00Z", VELSTATUS_NUL_TERMINATED, &err),
                     VELSTATUS_OK);
    ck_assert(sec == GO_ZERO_SEC && nsec == 0);
    ck_assert_int_eq(velstatus_time_format_sec(NULL, 40, 0, 0, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), 0, -1, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), 0, 1000000000, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_time_format_sec(small, sizeof(small), 0, 0, 0, &err), VELSTATUS_E_RANGE);
    ck_assert_str_eq(small, "");
    /* every int64 second fits the documented buffer */
    ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), INT64_MIN, 999999999, 1, &err), VELSTATUS_OK);
    ck_assert_uint_eq(strlen(buf), VELSTATUS_TIME_BUFSIZE - 1);
    ck_assert_str_eq(buf, "-292277022657-01-27T08:29:52.999999999Z");
    ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), INT64_MAX, 999999999, 1, &err), VELSTATUS_OK);
    ck_assert_str_eq(buf, "292277026596-12-04T15:30:07.999999999Z");
    ck_assert_int_eq(velstatus_time_format_sec(buf, sizeof(buf), GO_ZERO_SEC - 1, 0, 1, &err), VELSTATUS_OK);
    ck_assert_str_eq(buf, "0000-12-31T23:59:59Z");
}
END_TEST

/* describe prints a wide time as Go's Time.String() does. */
START_TEST(describe_prints_the_zero_time)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_status st;
    velstatus_oplist *l = one_record(
        ctx, "\"phase\":\"InProgress\",\"created\":\"0001-01-01T00:00:00Z\",\"updated\":\"0000-01-01T00:00:00+00:01\"",
        NULL, &st);
    char *out = NULL;
    size_t n;
    ck_assert_int_eq(st, VELSTATUS_OK);
    ck_assert_int_eq(velstatus_describe_operations(&out, &n, ctx, l, 1, NULL), VELSTATUS_OK);
    {
        const char *c = strstr(out, "Created:"), *u = strstr(out, "Updated:");
        ck_assert_msg(c && u != NULL, "%s", out);
        c += strspn(c + 8, " ") + 8;
        u += strspn(u + 8, " ") + 8;
        ck_assert_msg(strncmp(c, "0001-01-01 00:00:00 +0000 UTC\n", 30) == 0, "%s", out);
        ck_assert_msg(strncmp(u, "-0001-12-31 23:59:00 +0000 UTC\n", 31) == 0, "%s", out);
    }
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Decoding, stepping, encoding and describing Go's edges under every
 * allocation failure: E_NOMEM, nothing leaked, the record as it was. */
START_TEST(go_time_range_fails_cleanly_without_memory)
{
    size_t len = 0;
    char *text = vs_test_read_data("operations/go-time-range.json", &len);
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        char *json = NULL, *out = NULL;
        size_t n;
        uint32_t flags = 0;
        velstatus_op_progress r;
        velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, len, NULL);
        velstatus_op_progress_init(&r, sizeof(r));
        if (st == VELSTATUS_OK)
            st = velstatus_oplist_step(&flags, &out, &n, l, 0, &r, INT64_C(1714557600) * SEC, 3600 * SEC, &vel, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert(flags & VELSTATUS_OP_STEP_CANCEL);
            velstatus_free(ctx, out);
            out = NULL;
            st = velstatus_oplist_to_json(&json, &n, l, NULL);
        } else if (l) {
            /* the step failed: the record is as it was */
            ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_IN_PROGRESS);
        }
        if (st == VELSTATUS_OK) {
            ck_assert_ptr_nonnull(strstr(json, "\"created\":\"0001-01-01T00:00:00Z\""));
            velstatus_free(ctx, json);
            st = velstatus_describe_operations(&out, &n, ctx, l, 1, NULL);
            if (st == VELSTATUS_OK)
                velstatus_free(ctx, out);
        }
        velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st)
    free(text);

    /* escaped time strings are decoded into a buffer first */
    static const char esc[] = "[{\"status\":{\"created\":\"0001-01-01T00:00:00\\u005a\","
                              "\"velstatusProgressErrorSince\":\"2024-05-01T10:00:00\\u005a\"}}]";
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        int64_t sec = 0;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, esc, strlen(esc), NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_int_eq(velstatus_op_time_sec(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_CREATED, &sec, NULL),
                             1);
            ck_assert_int_eq(sec, GO_ZERO_SEC);
        }
        velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st)
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("time_range");
    TCase *tc = tcase_create("time_range");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, go_vectors_parse_and_format);
    tcase_add_test(tc, go_vectors_through_the_codec);
    tcase_add_test(tc, go_vectors_timeout_decisions);
    tcase_add_test(tc, zero_time_and_year_9999_are_present_and_exact);
    tcase_add_test(tc, null_after_a_wide_time_and_missing_created);
    tcase_add_test(tc, reported_times_replace_wide_ones);
    tcase_add_test(tc, reported_exact_times_outside_the_ns_range);
    tcase_add_test(tc, reports_file_takes_go_s_whole_range);
    tcase_add_test(tc, add_before_is_exact);
    tcase_add_test(tc, add_before_one_sum_agrees);
    tcase_add_test(tc, exact_parse_and_format_arguments);
    tcase_add_test(tc, go_string_form);
    tcase_add_test(tc, describe_prints_the_zero_time);
    tcase_add_test(tc, go_time_range_fails_cleanly_without_memory);
    suite_add_tcase(s, tc);
    return s;
}
