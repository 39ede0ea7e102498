/* SPDX-License-Identifier: Apache-2.0 */
/* The item-operation state machine: the per-operation step (doc/velero-behaviour.md
 * §2.4, every row), the whole-list driver (§2.5, §2.6, §2.7 tables), both
 * policy presets where they differ, and every case of Velero's
 * pkg/controller/backup_operations_controller_test.go and
 * restore_operations_controller_test.go (Velero d30d389b). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "fake_host.h"
#include "harness.h"
#include <velstatus.h>
#include <velstatus/experimental.h>

#define SEC INT64_C(1000000000)
#define T0 (INT64_C(1714557600) * SEC) /* 2024-05-01T10:00:00Z */
#define HOUR (3600 * SEC)

/* The ctx of the running test, for helpers that free what the library returned. */
static velstatus_ctx *cur_ctx;

static velstatus_ctx *new_ctx(void)
{
    cur_ctx = vs_test_ctx();
    return cur_ctx;
}

static velstatus_policy preset(velstatus_preset p)
{
    return p == VELSTATUS_PRESET_VELERO ? vs_policy(VELSTATUS_PRESET_VELERO) : vs_policy(VELSTATUS_PRESET_HARDENED);
}

/* A list of records, each given as its status JSON; spec fields are derived
 * from the index: operationID "op-<i>", item action "act-<i>" (or `action`). */
static velstatus_oplist *make_list(velstatus_ctx *ctx, velstatus_kind kind, const char *action,
                                   const char *const *statuses, size_t n)
{
    char *buf = malloc(4096 * (n + 1));
    size_t off = 0;
    velstatus_oplist *l = NULL;
    velstatus_error err;
    velstatus_status st;
    ck_assert_ptr_nonnull(buf);
    off += (size_t)sprintf(buf + off, "[");
    for (size_t i = 0; i < n; i++) {
        char act[64];
        if (action)
            snprintf(act, sizeof(act), "%s", action);
        else
            snprintf(act, sizeof(act), "act-%zu", i);
        if (kind == VELSTATUS_KIND_BACKUP)
            off +=
                (size_t)sprintf(buf + off,
                                "%s{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"%s\","
                                "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"ns-1\","
                                "\"Name\":\"pod-1\"},\"operationID\":\"op-%zu\",\"postOperationItems\":null},"
                                "\"status\":%s}",
                                i ? "," : "", act, i, statuses[i]);
        else
            off +=
                (size_t)sprintf(buf + off,
                                "%s{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":\"%s\","
                                "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"ns-1\","
                                "\"Name\":\"pod-1\"},\"operationID\":\"op-%zu\"},\"status\":%s}",
                                i ? "," : "", act, i, statuses[i]);
    }
    off += (size_t)sprintf(buf + off, "]");
    st = velstatus_oplist_from_json(&l, ctx, kind, buf, off, &err);
    ck_assert_msg(st == VELSTATUS_OK, "%s: %s", buf, err.message);
    free(buf);
    return l;
}

static velstatus_oplist *one(velstatus_ctx *ctx, velstatus_kind kind, const char *status)
{
    return make_list(ctx, kind, "velero.io/x", &status, 1);
}

/* The status object of record i, as encoded (malloc'ed). */
static char *status_of(velstatus_ctx *ctx, const velstatus_oplist *l, size_t i)
{
    char *out, *p, *res;
    size_t n;
    ck_assert_int_eq(velstatus_oplist_to_json(&out, &n, l, NULL), VELSTATUS_OK);
    p = out;
    for (size_t k = 0; k <= i; k++) {
        p = strstr(p, "\"status\":");
        ck_assert_ptr_nonnull(p);
        p += 9;
    }
    n = strcspn(p, "}") + 1;
    res = malloc(n + 1);
    memcpy(res, p, n);
    res[n] = '\0';
    velstatus_free(ctx, out);
    return res;
}

#define ASSERT_STATUS(ctx, l, i, want)                                                                             \
    do {                                                                                                           \
        char *s_ = status_of(ctx, l, i);                                                                           \
        ck_assert_msg(strcmp(s_, want) == 0, "status of [%d]:\n%s\nwant\n%s", (int)(i), s_, (const char *)(want)); \
        free(s_);                                                                                                  \
    } while (0)

static velstatus_op_progress progress(int completed, const char *err, int64_t nc, int64_t nt)
{
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    p.completed = completed;
    p.err = err;
    p.err_len = err ? strlen(err) : 0;
    p.n_completed = nc;
    p.n_total = nt;
    return p;
}

static velstatus_op_progress failure(velstatus_op_report_kind kind, const char *text)
{
    velstatus_op_progress p = progress(0, text, 0, 0);
    p.report = kind;
    return p;
}

typedef struct stepped {
    uint32_t flags;
    char msg[512]; /* "" when none */
    int has_msg;
} stepped;

static stepped step(velstatus_oplist *l, size_t i, const velstatus_op_progress *r, int64_t now, int64_t timeout,
                    const velstatus_policy *pol)
{
    stepped s;
    char *m = NULL;
    size_t n = 0;
    velstatus_error err;
    velstatus_status st = velstatus_oplist_step(&s.flags, &m, &n, l, i, r, now, timeout, pol, &err);
    ck_assert_msg(st == VELSTATUS_OK, "step: %s", err.message);
    s.has_msg = m != NULL;
    s.msg[0] = '\0';
    if (m) {
        ck_assert_uint_lt(n, sizeof(s.msg));
        ck_assert_uint_eq(strlen(m), n);
        memcpy(s.msg, m, n + 1);
        velstatus_free(cur_ctx, m);
    }
    return s;
}

#define F(name) VELSTATUS_OP_STEP_##name

/* ------------------------------------------------------------------------ */
/* Velero's TestWrapErrMsg (backup_operations_controller_test.go)             */
/* ------------------------------------------------------------------------ */

START_TEST(velero_test_wrap_err_msg)
{
    static const struct {
        const char *name, *in, *plugin, *want;
    } cases[] = {
        {"empty error message", "", "test-bia", "plugin: test-bia"},
        {"nil bia", "some error happened", NULL, "some error happened, plugin: unknown"},
        {"regular error and bia", "some error happened", "test-bia", "some error happened, plugin: test-bia"},
    };
    velstatus_ctx *ctx = new_ctx();
    velstatus_status st;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *out = NULL;
        size_t n = 0;
        ck_assert_int_eq(velstatus_op_wrap_error(&out, &n, ctx, cases[i].in, strlen(cases[i].in), cases[i].plugin,
                                                 cases[i].plugin ? strlen(cases[i].plugin) : 0, NULL),
                         VELSTATUS_OK);
        ck_assert_msg(strcmp(out, cases[i].want) == 0, "%s: %s", cases[i].name, out);
        ck_assert_uint_eq(n, strlen(cases[i].want));
        velstatus_free(ctx, out);
    }
    {
        char *out;
        ck_assert_int_eq(velstatus_op_wrap_error(NULL, NULL, ctx, "", 0, NULL, 0, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_op_wrap_error(&out, NULL, NULL, "", 0, NULL, 0, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_op_wrap_error(&out, NULL, ctx, NULL, 3, NULL, 0, NULL), VELSTATUS_E_INVALID);
    }
    velstatus_ctx_free(ctx);
    VS_FAILALLOC_LOOP(fa, fctx)
    {
        char *out = NULL;
        st = velstatus_op_wrap_error(&out, NULL, fctx, "x", 1, "p", 1, NULL);
        velstatus_free(fctx, out);
    }
    VS_FAILALLOC_END(fa, fctx, st);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The step, doc/velero-behaviour.md §2.4 row by row                                             */
/* ------------------------------------------------------------------------ */

/* Step 0: Completed and Failed are counted; nothing is asked or changed. */
START_TEST(step0_finished_operations_are_counted)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l =
            one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"Completed\",\"created\":\"2024-05-01T10:00:00Z\"}");
        stepped s = step(l, 0, NULL, T0 + 100 * HOUR, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(COUNT_COMPLETED));
        ck_assert_int_eq(s.has_msg, 0);
        velstatus_oplist_free(l);
        l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"Failed\",\"error\":\"e\"}");
        s = step(l, 0, NULL, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(COUNT_FAILED));
        ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"Failed\",\"error\":\"e\"}");
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 0, any other phase (doc/velero-behaviour.md §6.5): Velero skips it; hardened fails it. */
START_TEST(step0_unknown_phase_skipped_or_failed)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy velero = vs_policy(VELSTATUS_PRESET_VELERO), hardened = vs_policy(VELSTATUS_PRESET_HARDENED);
    static const char *const st[] = {"{\"phase\":\"Paused\",\"created\":\"2024-05-01T10:00:00Z\"}", "{}"};
    for (int i = 0; i < 2; i++) {
        velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP, st[i]);
        stepped s = step(l, 0, NULL, T0, HOUR, &velero);
        ck_assert_uint_eq(s.flags, F(UNKNOWN_PHASE));
        ck_assert_int_eq(s.has_msg, 0);
        ASSERT_STATUS(ctx, l, 0, st[i]);
        s = step(l, 0, NULL, T0, HOUR, &hardened);
        ck_assert_uint_eq(s.flags, F(UNKNOWN_PHASE) | F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
        ck_assert_str_eq(s.msg, i == 0 ? "unknown operation phase \"Paused\", plugin: velero.io/x"
                                       : "unknown operation phase \"\", plugin: velero.io/x");
        ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_FAILED);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 1: the plugin cannot be obtained. Velero fails the operation with the
 * lookup error and wraps it with "plugin: unknown"; hardened waits a grace
 * period first (doc/velero-behaviour.md §6.4). */
START_TEST(step1_lookup_error)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy velero = vs_policy(VELSTATUS_PRESET_VELERO), hardened = vs_policy(VELSTATUS_PRESET_HARDENED);
    const char *text = "unable to get valid BackupItemActionV2 for \"velero.io/x\"";
    velstatus_op_progress r = failure(VELSTATUS_OP_REPORT_LOOKUP_ERROR, text);
    velstatus_oplist *l =
        one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
    stepped s = step(l, 0, &r, T0 + SEC, HOUR, &velero);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
    ck_assert_str_eq(s.msg, "unable to get valid BackupItemActionV2 for \"velero.io/x\", plugin: unknown");
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"Failed\",\"error\":\"unable to get valid BackupItemActionV2 for "
                  "\\\"velero.io/x\\\"\",\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_oplist_free(l);

    /* restore: raw message in the Velero preset (doc/velero-behaviour.md §6.9) */
    l = one(ctx, VELSTATUS_KIND_RESTORE, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
    s = step(l, 0, &r, T0 + SEC, HOUR, &velero);
    ck_assert_str_eq(s.msg, text);
    velstatus_oplist_free(l);

    /* hardened: deferred for 60 s, then failed */
    l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
    s = step(l, 0, &r, T0 + SEC, HOUR, &hardened);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(ERROR_DEFERRED) | F(IN_PROGRESS));
    ck_assert_int_eq(s.has_msg, 0);
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                  "\"velstatusProgressErrorSince\":\"2024-05-01T10:00:01Z\"}");
    s = step(l, 0, &r, T0 + 60 * SEC, HOUR, &hardened);
    ck_assert_uint_eq(s.flags, F(ERROR_DEFERRED) | F(IN_PROGRESS));
    s = step(l, 0, &r, T0 + 61 * SEC, HOUR, &hardened);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
    ck_assert_str_eq(s.msg, "unable to get valid BackupItemActionV2 for \"velero.io/x\", plugin: unknown");
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"Failed\",\"error\":\"unable to get valid BackupItemActionV2 for "
                  "\\\"velero.io/x\\\"\",\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_oplist_free(l);

    /* hardened: a good report inside the grace period clears it */
    l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
    s = step(l, 0, &r, T0 + SEC, HOUR, &hardened);
    {
        velstatus_op_progress ok = progress(0, NULL, 0, 0);
        s = step(l, 0, &ok, T0 + 2 * SEC, HOUR, &hardened);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
        s = step(l, 0, &r, T0 + HOUR - 10 * SEC, HOUR, &hardened); /* a new episode starts */
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(ERROR_DEFERRED) | F(IN_PROGRESS));
    }
    /* the grace period does not stop the timeout */
    s = step(l, 0, &r, T0 + HOUR + SEC, HOUR, &hardened);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(CANCEL) | F(FAILED_NOW) | F(COUNT_FAILED));
    ck_assert_str_eq(s.msg, "Asynchronous action timed out, plugin: velero.io/x");
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"Failed\",\"error\":\"Asynchronous action timed out\","
                  "\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 2: Progress() returned an error: fatal at once in Velero (doc/velero-behaviour.md §6.4). */
START_TEST(step2_progress_error)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy velero = vs_policy(VELSTATUS_PRESET_VELERO), nograce = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_op_progress r = failure(VELSTATUS_OP_REPORT_PROGRESS_ERROR, "rpc error: unavailable");
    velstatus_op_progress empty = failure(VELSTATUS_OP_REPORT_PROGRESS_ERROR, "");
    velstatus_oplist *l;
    stepped s;
    nograce.progress_error_grace_ns = 0;
    /* the progress fields of an error report are not copied */
    r.n_completed = 99;
    l = one(ctx, VELSTATUS_KIND_BACKUP,
            "{\"phase\":\"InProgress\",\"nCompleted\":5,\"created\":\"2024-05-01T10:00:00Z\"}");
    s = step(l, 0, &r, T0, HOUR, &velero);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
    ck_assert_str_eq(s.msg, "rpc error: unavailable, plugin: velero.io/x");
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"Failed\",\"error\":\"rpc error: unavailable\",\"nCompleted\":5,"
                  "\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_oplist_free(l);
    /* an empty error is still an error: "plugin: X" */
    l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
    s = step(l, 0, &empty, T0, HOUR, &velero);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
    ck_assert_str_eq(s.msg, "plugin: velero.io/x");
    ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"Failed\",\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_oplist_free(l);
    /* restore: raw (Velero), suffixed (hardened, doc/velero-behaviour.md §6.9) */
    for (int p = 0; p < 2; p++) {
        l = one(ctx, VELSTATUS_KIND_RESTORE, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
        s = step(l, 0, &r, T0, HOUR, p ? &nograce : &velero);
        ck_assert_str_eq(s.msg, p ? "rpc error: unavailable, plugin: velero.io/x" : "rpc error: unavailable");
        velstatus_oplist_free(l);
        l = one(ctx, VELSTATUS_KIND_RESTORE, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
        s = step(l, 0, &empty, T0, HOUR, p ? &nograce : &velero);
        ck_assert_int_eq(s.has_msg, 1);
        ck_assert_str_eq(s.msg, p ? "plugin: velero.io/x" : "");
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 3: NCompleted, NTotal, OperationUnits, Description copied when different. */
START_TEST(step3_progress_fields)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l =
            one(ctx, VELSTATUS_KIND_BACKUP,
                "{\"phase\":\"InProgress\",\"nCompleted\":1,\"nTotal\":10,\"operationUnits\":\"Bytes\","
                "\"description\":\"a long description\",\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_op_progress r = progress(0, NULL, 1, 10);
        stepped s;
        r.operation_units = "Bytes";
        r.operation_units_len = 5;
        r.description = "a long description";
        r.description_len = 18;
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(IN_PROGRESS)); /* identical: no change */
        r.n_completed = 5;
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        r.n_total = 20;
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        r.operation_units = "Items";
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        r.description = "short";
        r.description_len = 5;
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        ASSERT_STATUS(ctx, l, 0,
                      "{\"phase\":\"InProgress\",\"nCompleted\":5,\"nTotal\":20,\"operationUnits\":\"Items\","
                      "\"description\":\"short\",\"created\":\"2024-05-01T10:00:00Z\"}");
        r.description = "a longer description than before";
        r.description_len = strlen(r.description);
        r.operation_units = NULL;
        r.operation_units_len = 0;
        r.n_completed = 0;
        r.n_total = 0;
        s = step(l, 0, &r, T0, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        ASSERT_STATUS(ctx, l, 0,
                      "{\"phase\":\"InProgress\",\"description\":\"a longer description than before\","
                      "\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 4, Velero preset: Go struct equality (doc/velero-behaviour.md §6.10). A time read from
 * JSON never equals a reported one; a zero time replaces a stored one and is
 * written as null. */
START_TEST(step4_times_velero)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP,
                              "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                              "\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:01:00Z\"}");
    velstatus_op_progress r = progress(0, NULL, 0, 0);
    stepped s;
    int64_t ns;
    r.has_started = 1;
    r.started_ns = T0 + 5 * SEC;
    r.has_updated = 1;
    r.updated_ns = T0 + 60 * SEC;
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS)); /* same instants, still "changed" */
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(IN_PROGRESS)); /* now both are plugin times: equal */
    r.updated_ns = T0 + 60 * SEC + 1;           /* a nanosecond later */
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_UPDATED, &ns), 1);
    ck_assert_int_eq(ns, T0 + 60 * SEC + 1);
    r.has_updated = 0; /* zero after non-zero: stored as a zero time */
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_UPDATED, NULL), 0);
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                  "\"started\":\"2024-05-01T10:00:05Z\",\"updated\":null}");
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(IN_PROGRESS)); /* zero == zero */
    velstatus_oplist_free(l);

    /* a zero time after a non-zero one is still non-nil: New becomes InProgress (step 7) */
    l = one(ctx, VELSTATUS_KIND_BACKUP,
            "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\","
            "\"started\":\"2024-05-01T10:00:05Z\"}");
    r = progress(0, NULL, 0, 0);
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":null}");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 4, hardened: instants at the file's second precision, zero ignored. */
START_TEST(step4_times_hardened)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP,
                              "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                              "\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:01:00Z\"}");
    velstatus_op_progress r = progress(0, NULL, 0, 0);
    stepped s;
    r.has_started = 1;
    r.started_ns = T0 + 5 * SEC + 250000000; /* same second as stored */
    r.has_updated = 1;
    r.updated_ns = T0 + 60 * SEC;
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
    r.updated_ns = T0 + 61 * SEC;
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    r.has_started = 0;
    r.has_updated = 0;
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                  "\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:01:01Z\"}");
    /* A reported time held as whole seconds (year 1, outside the nanosecond
     * range), then a report whose nanoseconds are the same number: another
     * instant (1969), a change. */
    r.has_started_sec = 1;
    r.started_sec = INT64_C(-62135596799);
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    r.has_started_sec = 0;
    r.has_started = 1;
    r.started_ns = INT64_C(-62135596799);
    s = step(l, 0, &r, T0 + 90 * SEC, HOUR, &pol);
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
    ASSERT_STATUS(ctx, l, 0,
                  "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                  "\"started\":\"1969-12-31T23:58:57Z\",\"updated\":\"2024-05-01T10:01:01Z\"}");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.2 / §6.11: time.Unix(0,0) counts as "started" in Velero. */
START_TEST(step4_unix_epoch)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l =
            one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_op_progress r = progress(0, NULL, 0, 0);
        stepped s;
        r.has_started = 1;
        r.started_ns = 0;
        s = step(l, 0, &r, T0 + SEC, HOUR, &pol);
        if (p == VELSTATUS_PRESET_VELERO) {
            ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
            ASSERT_STATUS(ctx, l, 0,
                          "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                          "\"started\":\"1970-01-01T00:00:00Z\"}");
            s = step(l, 0, &r, T0 + 2 * SEC, HOUR, &pol); /* the same epoch again: nothing changes */
            ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
            /* With the epoch read as no time (and Go's struct comparison), the
             * epoch the record holds differs from the zero time reported. */
            pol.unix_epoch_is_unknown = 1;
            s = step(l, 0, &r, T0 + 3 * SEC, HOUR, &pol);
            ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
            ASSERT_STATUS(ctx, l, 0,
                          "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":null}");
        } else {
            ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
            ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
        }
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 5: completion, checked before the timeout. */
START_TEST(step5_completion)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l =
            one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_op_progress done = progress(1, NULL, 10, 10), bad = progress(1, "DataUpload is canceled", 3, 10);
        stepped s = step(l, 0, &done, T0 + 5 * HOUR, HOUR, &pol); /* late, yet Completed */
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(COMPLETED_NOW) | F(COUNT_COMPLETED));
        ck_assert_int_eq(s.has_msg, 0);
        ASSERT_STATUS(ctx, l, 0,
                      "{\"phase\":\"Completed\",\"nCompleted\":10,\"nTotal\":10,"
                      "\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_oplist_free(l);
        l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
        s = step(l, 0, &bad, T0 + SEC, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(FAILED_NOW) | F(COUNT_FAILED));
        ck_assert_str_eq(s.msg, "DataUpload is canceled, plugin: velero.io/x");
        ASSERT_STATUS(ctx, l, 0,
                      "{\"phase\":\"Failed\",\"error\":\"DataUpload is canceled\",\"nCompleted\":3,"
                      "\"nTotal\":10,\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 6: created + timeout < now, strictly; Cancel; the fixed message. */
START_TEST(step6_timeout)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        for (int k = 0; k < 2; k++) {
            velstatus_kind kind = k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
            velstatus_oplist *l = one(ctx, kind, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
            velstatus_op_progress r = progress(0, NULL, 1, 2);
            stepped s = step(l, 0, &r, T0 + HOUR, HOUR, &pol); /* equal: not yet */
            ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
            s = step(l, 0, &r, T0 + HOUR + 1, HOUR, &pol);
            ck_assert_uint_eq(s.flags, F(CHANGED) | F(CANCEL) | F(FAILED_NOW) | F(COUNT_FAILED));
            if (kind == VELSTATUS_KIND_BACKUP || pol.restore_error_plugin_suffix)
                ck_assert_str_eq(s.msg, "Asynchronous action timed out, plugin: velero.io/x");
            else
                ck_assert_str_eq(s.msg, "Asynchronous action timed out");
            ASSERT_STATUS(ctx, l, 0,
                          "{\"phase\":\"Failed\",\"error\":\"Asynchronous action timed out\",\"nCompleted\":1,"
                          "\"nTotal\":2,\"created\":\"2024-05-01T10:00:00Z\"}");
            velstatus_oplist_free(l);
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 6 with a zero or negative timeout (doc/velero-behaviour.md §2.8, §6.3). */
START_TEST(step6_zero_and_negative_timeout)
{
    velstatus_ctx *ctx = new_ctx();
    static const int64_t timeouts[] = {0, -HOUR};
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        for (int t = 0; t < 2; t++) {
            velstatus_oplist *l =
                one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
            velstatus_op_progress r = progress(0, NULL, 0, 0);
            stepped s = step(l, 0, &r, T0 + SEC, timeouts[t], &pol);
            if (p == VELSTATUS_PRESET_VELERO)
                ck_assert_uint_eq(s.flags, F(CHANGED) | F(CANCEL) | F(FAILED_NOW) | F(COUNT_FAILED));
            else
                ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
            velstatus_oplist_free(l);
        }
    }
    {
        /* Velero: a zero timeout at the very instant of creation has not expired (strict <) */
        velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
        velstatus_oplist *l =
            one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}");
        velstatus_op_progress r = progress(0, NULL, 0, 0);
        stepped s = step(l, 0, &r, T0, 0, &pol);
        ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 6 without `created` (doc/velero-behaviour.md §6.2): Velero panics; both presets flag it
 * and never time it out. */
START_TEST(step6_missing_created)
{
    velstatus_ctx *ctx = new_ctx();
    /* absent or null: a nil pointer, omitted when written (Go's omitempty) */
    static const char *const st[] = {"{\"phase\":\"InProgress\"}", "{\"phase\":\"New\",\"created\":null}"};
    static const char *const written[] = {"{\"phase\":\"InProgress\"}", "{\"phase\":\"New\"}"};
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        for (int i = 0; i < 2; i++) {
            velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP, st[i]);
            velstatus_op_progress r = progress(0, NULL, 0, 0);
            stepped s = step(l, 0, &r, INT64_MAX, 0, &pol);
            ck_assert_uint_eq(s.flags, F(MISSING_CREATED) | F(IN_PROGRESS));
            ASSERT_STATUS(ctx, l, 0, written[i]);
            /* completion still works */
            r.completed = 1;
            s = step(l, 0, &r, INT64_MAX, 0, &pol);
            ck_assert_uint_eq(s.flags, F(CHANGED) | F(COMPLETED_NOW) | F(COUNT_COMPLETED));
            velstatus_oplist_free(l);
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* created + timeout saturates rather than wrapping. */
START_TEST(step6_no_overflow)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_oplist *l =
        one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"InProgress\",\"created\":\"2262-04-11T23:00:00Z\"}");
    velstatus_op_progress r = progress(0, NULL, 0, 0);
    stepped s = step(l, 0, &r, INT64_MAX, INT64_MAX, &pol);
    ck_assert_uint_eq(s.flags, F(IN_PROGRESS));
    s = step(l, 0, &r, T0, INT64_MIN, &pol); /* created + INT64_MIN is in 1969: expired */
    ck_assert_uint_eq(s.flags, F(CHANGED) | F(CANCEL) | F(FAILED_NOW) | F(COUNT_FAILED));
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Step 7: New with a started time becomes InProgress; step 8: still running. */
START_TEST(step7_new_becomes_in_progress)
{
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP,
                                  "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\","
                                  "\"started\":null}");
        velstatus_op_progress r = progress(0, NULL, 0, 0);
        stepped s = step(l, 0, &r, T0 + SEC, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(IN_PROGRESS)); /* null started is nil: stays New */
        ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_NEW);
        r.has_started = 1;
        r.started_ns = T0 + SEC;
        s = step(l, 0, &r, T0 + 2 * SEC, HOUR, &pol);
        ck_assert_uint_eq(s.flags, F(CHANGED) | F(IN_PROGRESS));
        ASSERT_STATUS(ctx, l, 0,
                      "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
                      "\"started\":\"2024-05-01T10:00:01Z\"}");
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(step_argument_errors)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_oplist *l = one(ctx, VELSTATUS_KIND_BACKUP, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
    velstatus_op_progress r = progress(0, NULL, 0, 0);
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_error err;
    uint32_t f;
    char *m;
    ck_assert_int_eq(velstatus_oplist_step(NULL, &m, NULL, l, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, NULL, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 1, &r, T0, HOUR, NULL, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, NULL, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "needs one") != NULL, "%s", err.message);
    r.report = 3;
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    r.report = 0;
    r.flags = 1;
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    r.flags = 0;
    r.struct_size = 8;
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_ABI);
    r.struct_size = sizeof(r);
    r.description_len = 3;
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, NULL, &err), VELSTATUS_E_INVALID);
    r.description_len = 0;
    pol.struct_size = 4;
    ck_assert_int_eq(velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, &pol, &err), VELSTATUS_E_ABI);
    ASSERT_STATUS(ctx, l, 0, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}");
    /* a NULL policy is the hardened preset; message pointers may be NULL */
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, l, 0, &r, T0 + 2 * HOUR, 0, NULL, &err), VELSTATUS_OK);
    ck_assert_uint_eq(f, F(IN_PROGRESS));
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* On allocation failure the record is exactly as before. */
START_TEST(step_fails_cleanly_without_memory)
{
    velstatus_status st;
    velstatus_policy pols[2] = {vs_policy(VELSTATUS_PRESET_VELERO), vs_policy(VELSTATUS_PRESET_HARDENED)};
    for (int p = 0; p < 2; p++) {
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_oplist *l = NULL;
            static const char in[] =
                "[{\"spec\":{\"backupItemAction\":\"a\"},\"status\":{\"phase\":\"InProgress\",\"description\":\"d\","
                "\"created\":\"2024-05-01T10:00:00Z\"}},{\"status\":{\"phase\":\"Weird\"}}]";
            st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, in, strlen(in), NULL);
            if (st == VELSTATUS_OK) {
                char *before = NULL, *after = NULL, *m = NULL;
                velstatus_op_progress r = progress(1, "a long plugin error text", 1, 2);
                uint32_t f;
                r.description = "a much longer description";
                r.description_len = strlen(r.description);
                r.operation_units = "Bytes";
                r.operation_units_len = 5;
                st = velstatus_oplist_to_json(&before, NULL, l, NULL);
                if (st == VELSTATUS_OK) {
                    st = velstatus_oplist_step(&f, &m, NULL, l, 0, &r, T0, HOUR, &pols[p], NULL);
                    if (st == VELSTATUS_OK) {
                        ck_assert_ptr_nonnull(m);
                        velstatus_free(ctx, m);
                        m = NULL;
                        velstatus_free(ctx, before);
                        before = NULL;
                        st = velstatus_oplist_to_json(&before, NULL, l, NULL);
                        if (st == VELSTATUS_OK)
                            st = velstatus_oplist_step(&f, &m, NULL, l, 1, NULL, T0, HOUR, &pols[p], NULL);
                    }
                    if (st == VELSTATUS_E_NOMEM) {
                        /* whichever step failed left its record untouched */
                        velstatus_status st2 = velstatus_oplist_to_json(&after, NULL, l, NULL);
                        if (st2 == VELSTATUS_OK && !m && before)
                            ck_assert_str_eq(before, after);
                        velstatus_free(ctx, after);
                    }
                    velstatus_free(ctx, m);
                }
                velstatus_free(ctx, before);
                velstatus_oplist_free(l);
            }
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The driver                                                                 */
/* ------------------------------------------------------------------------ */

static velstatus_reconcile_options opts(velstatus_phase phase, int64_t now)
{
    velstatus_reconcile_options o;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.phase = phase;
    o.now_ns = now;
    o.timeout_ns = HOUR;
    return o;
}

static velstatus_reconcile_result *reconcile_ok(velstatus_oplist *l, vs_fake_plugin *f,
                                                const velstatus_reconcile_options *o, const velstatus_policy *pol)
{
    velstatus_reconcile_result *r = NULL;
    velstatus_plugin_client c = vs_fake_plugin_client(f);
    velstatus_error err;
    velstatus_status st = velstatus_oplist_reconcile(&r, l, &c, o, pol, &err);
    ck_assert_msg(st == VELSTATUS_OK, "reconcile: %s", err.message);
    return r;
}

static void assert_errors(const velstatus_reconcile_result *r, const char *const *want, size_t n)
{
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *e = velstatus_reconcile_result_error(r, i, &len);
        ck_assert_str_eq(e, want[i]);
        ck_assert_uint_eq(len, strlen(want[i]));
    }
}

#define W VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS
#define WPF VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED
#define FIN VELSTATUS_PHASE_FINALIZING
#define FPF VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED

/* Every case of Velero's TestBackupOperationsReconcile and
 * TestRestoreOperationsReconcile: one operation created "now" with a 60m
 * timeout (New for backups, InProgress for restores), Progress returning
 * {Completed, Err}; the expected phase after the pass. Velero's mock plugin
 * answers Name() "test" for the record's item action "foo-1N", so the
 * wrapped message names "test" (velstatus_op_progress::plugin_name); a
 * plugin that answers no name of its own is named as the manager registers
 * "foo-1N": sanitizeName (pkg/plugin/clientmgmt/manager.go) makes it
 * "velero.io/foo-1N". Both are run. */
START_TEST(velero_operations_controller_tests)
{
    static const struct {
        const char *name;
        velstatus_phase phase;
        int complete;
        const char *err;
        velstatus_phase want;
    } cases[] = {
        {"WaitingForPluginOperations with completed operations is Finalizing", W, 1, "", FIN},
        {"WaitingForPluginOperations with incomplete operations is still incomplete", W, 0, "", W},
        {"WaitingForPluginOperations with completed failed operations is FinalizingPartiallyFailed", W, 1, "failed",
         FPF},
        {"WaitingForPluginOperationsPartiallyFailed with completed operations is FinalizingPartiallyFailed", WPF, 1, "",
         FPF},
        {"WaitingForPluginOperationsPartiallyFailed with incomplete operations is still incomplete", WPF, 0, "", WPF},
        {"WaitingForPluginOperationsPartiallyFailed with completed failed operations is FinalizingPartiallyFailed", WPF,
         1, "failed", FPF},
    };
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 4; p++) {
        velstatus_policy pol = preset((velstatus_preset)(p & 1));
        int mock = p >> 1; /* the plugin answers Name() "test" */
        for (int k = 0; k < 2; k++) {
            velstatus_kind kind = k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
            for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
                char action[16], status[128];
                const char *st = status;
                velstatus_oplist *l;
                velstatus_reconcile_options o = opts(cases[c].phase, T0);
                velstatus_reconcile_result *r;
                vs_fake_plugin f;
                snprintf(action, sizeof(action), "foo-1%zu", c + 1);
                snprintf(status, sizeof(status), "{\"phase\":\"%s\",\"created\":\"2024-05-01T10:00:00Z\"}",
                         k ? "InProgress" : "New");
                l = make_list(ctx, kind, action, &st, 1);
                vs_fake_plugin_init(&f);
                f.ans[0] = progress(cases[c].complete, cases[c].err, 0, 0);
                if (mock) {
                    f.ans[0].plugin_name = "test";
                    f.ans[0].plugin_name_len = 4;
                }
                o.timeout_ns = 60 * 60 * SEC;
                r = reconcile_ok(l, &f, &o, &pol);
                ck_assert_msg(velstatus_reconcile_result_phase(r) == cases[c].want, "%s %s (%s): got %s",
                              kind ? "restore" : "backup", cases[c].name, (p & 1) ? "hardened" : "velero",
                              velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
                ck_assert_uint_eq(f.ncalls, 1);
                ck_assert_uint_eq(velstatus_reconcile_result_still_in_progress(r), !cases[c].complete);
                if (cases[c].err[0] != '\0') {
                    char want[64];
                    const char *w = want;
                    if ((kind == VELSTATUS_KIND_BACKUP || pol.restore_error_plugin_suffix) && mock)
                        snprintf(want, sizeof(want), "failed, plugin: test");
                    else if (kind == VELSTATUS_KIND_BACKUP || pol.restore_error_plugin_suffix)
                        snprintf(want, sizeof(want), "failed, plugin: velero.io/%s", action);
                    else
                        snprintf(want, sizeof(want), "failed");
                    assert_errors(r, &w, 1);
                    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1);
                } else {
                    assert_errors(r, NULL, 0);
                    ck_assert_uint_eq(velstatus_reconcile_result_completed(r), (size_t)cases[c].complete);
                }
                velstatus_reconcile_result_free(r);
                velstatus_oplist_free(l);
            }
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.5 phase table, every row, both kinds (§2.6 has the same shape). */
START_TEST(phase_table_2_5)
{
    static const struct {
        velstatus_phase from;
        int new_error; /* an operation fails in this pass */
        int running;   /* an operation is still running after it */
        velstatus_phase want;
    } rows[] = {
        {W, 0, 1, W},     {W, 1, 1, WPF},   {W, 0, 0, FIN},   {W, 1, 0, FPF},
        {WPF, 0, 1, WPF}, {WPF, 1, 1, WPF}, {WPF, 0, 0, FPF}, {WPF, 1, 0, FPF},
    };
    static const char *const st[2] = {"{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                      "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        pol.progress_error_grace_ns = 0;
        for (int k = 0; k < 2; k++) {
            for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
                velstatus_oplist *l = make_list(ctx, k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, NULL, st, 2);
                velstatus_reconcile_options o = opts(rows[i].from, T0 + SEC);
                velstatus_reconcile_result *r;
                vs_fake_plugin f;
                vs_fake_plugin_init(&f);
                f.ans[0] =
                    rows[i].new_error ? failure(VELSTATUS_OP_REPORT_PROGRESS_ERROR, "boom") : progress(1, NULL, 1, 1);
                f.ans[1] = progress(!rows[i].running, NULL, 0, 0);
                r = reconcile_ok(l, &f, &o, &pol);
                ck_assert_msg(velstatus_reconcile_result_phase(r) == rows[i].want, "row %zu kind %d preset %d: %s", i,
                              k, p, velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
                ck_assert_int_eq(velstatus_reconcile_result_still_in_progress(r), rows[i].running);
                ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), (size_t)rows[i].running);
                ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), (size_t)rows[i].new_error);
                ck_assert_uint_eq(velstatus_reconcile_result_failed(r), (size_t)rows[i].new_error);
                ck_assert_uint_eq(velstatus_reconcile_result_completed(r),
                                  (size_t)(!rows[i].new_error) + (size_t)(!rows[i].running));
                ck_assert_int_eq(velstatus_reconcile_result_changes(r), 1);
                velstatus_reconcile_result_free(r);
                velstatus_oplist_free(l);
            }
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.5 "Operations that were already Failed do not set E" and §6.6:
 * Velero finalizes cleanly past an earlier failure (edge-triggered);
 * hardened derives PartiallyFailed from failed > 0 (level-triggered). */
START_TEST(partially_failed_edge_or_level)
{
    static const char *const st[] = {"{\"phase\":\"Failed\",\"error\":\"old\"}",
                                     "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        for (int running = 0; running < 2; running++) {
            velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 2);
            velstatus_reconcile_options o = opts(W, T0 + SEC);
            velstatus_reconcile_result *r;
            vs_fake_plugin f;
            vs_fake_plugin_init(&f);
            f.ans[1] = progress(!running, NULL, 0, 0);
            r = reconcile_ok(l, &f, &o, &pol);
            ck_assert_uint_eq(f.ncalls, 1);
            ck_assert_uint_eq(f.calls[0], 1);
            ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1);
            ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 0);
            if (p == VELSTATUS_PRESET_VELERO)
                ck_assert_int_eq(velstatus_reconcile_result_phase(r), running ? W : FIN);
            else
                ck_assert_int_eq(velstatus_reconcile_result_phase(r), running ? WPF : FPF);
            velstatus_reconcile_result_free(r);
            velstatus_oplist_free(l);
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.5 step 6: errors pending from earlier passes (ErrsSinceUpdate) set E too. */
START_TEST(pending_errors_set_partially_failed)
{
    static const char *const st[] = {"{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 1);
        velstatus_reconcile_options o = opts(W, T0 + SEC);
        velstatus_reconcile_result *r;
        vs_fake_plugin f;
        vs_fake_plugin_init(&f);
        o.errors = 1;
        r = reconcile_ok(l, &f, &o, &pol);
        ck_assert_int_eq(velstatus_reconcile_result_phase(r), WPF);
        ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 0);
        velstatus_reconcile_result_free(r);
        f.ans[0] = progress(1, NULL, 0, 0);
        r = reconcile_ok(l, &f, &o, &pol);
        ck_assert_int_eq(velstatus_reconcile_result_phase(r), FPF);
        velstatus_reconcile_result_free(r);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.5 step 2 and §2.6: BSL missing or read-only. */
START_TEST(bsl_missing_or_readonly)
{
    static const char *const st[] = {"{\"phase\":\"Completed\"}", "{\"phase\":\"Failed\",\"error\":\"x\"}",
                                     "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}", "{\"phase\":\"Odd\"}"};
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        for (int k = 0; k < 2; k++) {
            velstatus_kind kind = k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
            for (int b = 1; b <= 2; b++) {
                velstatus_oplist *l = make_list(ctx, kind, NULL, st, 5);
                velstatus_reconcile_options o = opts(b == 1 ? W : WPF, T0 + 10 * HOUR);
                velstatus_reconcile_result *r;
                char *before, *after;
                vs_fake_plugin f;
                vs_fake_plugin_init(&f);
                o.bsl = (velstatus_bsl_state)b;
                if (b == 1) {
                    o.bsl_name = "primary";
                    o.bsl_name_len = 7;
                }
                ck_assert_int_eq(velstatus_oplist_to_json(&before, NULL, l, NULL), VELSTATUS_OK);
                r = reconcile_ok(l, &f, &o, &pol);
                ck_assert_int_eq(velstatus_oplist_to_json(&after, NULL, l, NULL), VELSTATUS_OK);
                if (kind == VELSTATUS_KIND_RESTORE && b == VELSTATUS_BSL_READONLY) {
                    /* not checked for restores (PR #6757): a normal pass, which times both out */
                    ck_assert_uint_eq(f.ncalls, 2);
                    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 2);
                    ck_assert_int_eq(velstatus_reconcile_result_phase(r), FPF);
                } else {
                    const char *want = b == VELSTATUS_BSL_MISSING
                                           ? "backupstoragelocations.velero.io \"primary\" not found"
                                           : "BSL is read-only";
                    ck_assert_uint_eq(f.ncalls, 0);
                    ck_assert_uint_eq(f.ncancels, 0);
                    ck_assert_str_eq(before, after);
                    assert_errors(r, &want, 1);
                    ck_assert_int_eq(velstatus_reconcile_result_phase(r),
                                     kind == VELSTATUS_KIND_BACKUP ? VELSTATUS_PHASE_PARTIALLY_FAILED : FPF);
                    ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 1);
                    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1 + (size_t)pol.unknown_phase_fails);
                    ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), 2);
                    ck_assert_int_eq(velstatus_reconcile_result_still_in_progress(r), 1);
                    ck_assert_int_eq(velstatus_reconcile_result_changes(r), 0);
                    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(UNKNOWN_PHASE)), 1);
                }
                velstatus_free(ctx, before);
                velstatus_free(ctx, after);
                velstatus_reconcile_result_free(r);
                velstatus_oplist_free(l);
            }
        }
    }
    {
        /* the default name, and Go's %q quoting */
        velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
        velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 1);
        velstatus_reconcile_options o = opts(W, T0);
        velstatus_reconcile_result *r;
        const char *want = "backupstoragelocations.velero.io \"default\" not found";
        const char *want2 = "backupstoragelocations.velero.io \"a\\\"b\\n\" not found";
        vs_fake_plugin f;
        vs_fake_plugin_init(&f);
        o.bsl = VELSTATUS_BSL_MISSING;
        r = reconcile_ok(l, &f, &o, &pol);
        assert_errors(r, &want, 1);
        velstatus_reconcile_result_free(r);
        o.bsl_name = "a\"b\n";
        o.bsl_name_len = 4;
        r = reconcile_ok(l, &f, &o, &pol);
        assert_errors(r, &want2, 1);
        velstatus_reconcile_result_free(r);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.5 step 6 (status.errors) and step 11 (what is written), §2.6, §6.7. */
START_TEST(persist_and_errors_added)
{
    static const char *const st[] = {"{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    static const struct {
        int kind; /* 0 backup, 1 restore */
        velstatus_phase phase;
        int done0, done1; /* operation completes in this pass */
        int err0;         /* operation 0 fails in this pass */
        int64_t pending, completed_before;
        int bsl;
        velstatus_persist_action want;
        int64_t added;
    } rows[] = {
        {0, W, 0, 0, 0, 0, 0, 0, VELSTATUS_PERSIST_NONE, 0},               /* progress only: memory */
        {0, W, 1, 0, 0, 0, 0, 0, VELSTATUS_PERSIST_PATCH, 0},              /* completion counts changed */
        {0, W, 1, 0, 0, 0, 1, 0, VELSTATUS_PERSIST_NONE, 0},               /* ... but already known */
        {0, W, 0, 0, 1, 0, 0, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 1},   /* a new error */
        {0, WPF, 0, 0, 0, 2, 0, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 2}, /* pending errors */
        {0, W, 1, 1, 0, 0, 2, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 0},   /* Finalizing */
        {0, W, 0, 0, 0, 0, 0, 1, VELSTATUS_PERSIST_PATCH, 0},              /* BSL missing: no store, no count */
        {0, W, 0, 0, 0, 0, 0, 2, VELSTATUS_PERSIST_PATCH, 0},              /* BSL read-only */
        {1, W, 1, 0, 0, 0, 0, 0, VELSTATUS_PERSIST_PATCH, 0},
        {1, W, 1, 1, 0, 0, 2, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 0},
        {1, W, 0, 0, 0, 0, 0, 1, VELSTATUS_PERSIST_PATCH, 0},
        {0, VELSTATUS_PHASE_IN_PROGRESS, 0, 0, 1, 3, 0, 0, VELSTATUS_PERSIST_UPLOAD_AND_PATCH, 1},
    };
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        pol.progress_error_grace_ns = 0;
        for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
            velstatus_oplist *l =
                make_list(ctx, rows[i].kind ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, NULL, st, 2);
            velstatus_reconcile_options o = opts(rows[i].phase, T0 + SEC);
            velstatus_reconcile_result *r;
            vs_fake_plugin f;
            vs_fake_plugin_init(&f);
            f.ans[0] =
                rows[i].err0 ? failure(VELSTATUS_OP_REPORT_PROGRESS_ERROR, "e") : progress(rows[i].done0, NULL, 0, 0);
            f.ans[1] = progress(rows[i].done1, NULL, 0, 0);
            o.errors = rows[i].pending;
            o.completed_before = rows[i].completed_before;
            o.bsl = (velstatus_bsl_state)rows[i].bsl;
            r = reconcile_ok(l, &f, &o, &pol);
            ck_assert_msg(velstatus_reconcile_result_persist(r) == rows[i].want, "row %zu preset %d: persist %d", i, p,
                          (int)velstatus_reconcile_result_persist(r));
            ck_assert_int_eq(velstatus_reconcile_result_errors_added(r), rows[i].added);
            velstatus_reconcile_result_free(r);
            velstatus_oplist_free(l);
        }
    }
    {
        velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 1);
        velstatus_reconcile_options o = opts(W, T0);
        velstatus_reconcile_result *r = NULL;
        o.failed_before = -1;
        ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, NULL), VELSTATUS_E_INVALID);
        o.failed_before = 0;
        o.completed_before = -1;
        ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, NULL), VELSTATUS_E_INVALID);
        velstatus_oplist_free(l);
    }
    ck_assert_int_eq(velstatus_reconcile_result_persist(NULL), VELSTATUS_PERSIST_INVALID);
    ck_assert_int_eq(velstatus_reconcile_result_errors_added(NULL), 0);
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.7: the first evaluation at the end of the main run. */
START_TEST(after_run_2_7)
{
    static const struct {
        int64_t logged;
        int op_error, running;
        velstatus_phase want;
    } rows[] = {
        {2, 0, 1, WPF}, {2, 0, 0, FPF}, {0, 0, 1, W},
        {0, 0, 0, FIN}, {0, 1, 1, WPF}, {0, 1, 0, FPF}, /* the operation's own error is logged too */
    };
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        pol.progress_error_grace_ns = 0;
        for (int k = 0; k < 2; k++) {
            for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
                velstatus_oplist *l = make_list(ctx, k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, NULL, st, 2);
                velstatus_reconcile_options o = opts(VELSTATUS_PHASE_IN_PROGRESS, T0 + SEC);
                velstatus_reconcile_result *r;
                vs_fake_plugin f;
                vs_fake_plugin_init(&f);
                o.errors = rows[i].logged;
                f.ans[0] = rows[i].op_error ? progress(1, "failed", 0, 0) : progress(1, NULL, 0, 0);
                f.ans[1] = progress(!rows[i].running, NULL, 0, 0);
                r = reconcile_ok(l, &f, &o, &pol);
                ck_assert_msg(velstatus_reconcile_result_phase(r) == rows[i].want, "row %zu: %s", i,
                              velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
                if (rows[i].op_error) {
                    const char *want = k == 0   ? "failed, plugin: velero.io/act-0"
                                       : p == 0 ? "error from restore item operation: failed"
                                                : "error from restore item operation: failed, plugin: velero.io/act-0";
                    assert_errors(r, &want, 1);
                }
                velstatus_reconcile_result_free(r);
                velstatus_oplist_free(l);
            }
        }
    }
    {
        /* level-triggered also at the end of the run: an operation already Failed */
        static const char *const st2[] = {"{\"phase\":\"Failed\",\"error\":\"x\"}"};
        for (int p = 0; p < 2; p++) {
            velstatus_policy pol = preset((velstatus_preset)p);
            velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st2, 1);
            velstatus_reconcile_options o = opts(VELSTATUS_PHASE_IN_PROGRESS, T0);
            velstatus_reconcile_result *r;
            vs_fake_plugin f;
            vs_fake_plugin_init(&f);
            r = reconcile_ok(l, &f, &o, &pol);
            ck_assert_int_eq(velstatus_reconcile_result_phase(r), p ? FPF : FIN);
            velstatus_reconcile_result_free(r);
            velstatus_oplist_free(l);
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §2.4 step 6 and §2.9: Cancel only on timeout, in list order; its
 * result is discarded by Velero and reported by hardened (§6.13). */
START_TEST(cancel_on_timeout_only)
{
    static const char *const st[] = {
        "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T08:00:00Z\"}", /* times out */
        "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T08:00:00Z\"}", /* late completion */
        "{\"phase\":\"Failed\",\"created\":\"2024-05-01T08:00:00Z\"}",     /* already failed */
        "{\"phase\":\"New\",\"created\":\"2024-05-01T08:30:00Z\"}",        /* times out */
        "{\"phase\":\"New\",\"created\":\"2024-05-01T09:59:00Z\"}",        /* in time */
    };
    velstatus_ctx *ctx = new_ctx();
    for (int p = 0; p < 2; p++) {
        velstatus_policy pol = preset((velstatus_preset)p);
        velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 5);
        velstatus_reconcile_options o = opts(W, T0 + 30 * SEC);
        velstatus_reconcile_result *r;
        const char *want[] = {"Asynchronous action timed out, plugin: velero.io/act-0",
                              "Asynchronous action timed out, plugin: velero.io/act-3"};
        size_t n;
        vs_fake_plugin f;
        vs_fake_plugin_init(&f);
        f.ans[1] = progress(1, NULL, 0, 0);
        f.cancel_err[3] = "cannot cancel";
        r = reconcile_ok(l, &f, &o, &pol);
        ck_assert_uint_eq(f.ncalls, 4);
        ck_assert_uint_eq(f.calls[2], 3);
        ck_assert_uint_eq(f.ncancels, 2);
        ck_assert_uint_eq(f.cancels[0], 0);
        ck_assert_uint_eq(f.cancels[1], 3);
        assert_errors(r, want, 2);
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 2);
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(r, 1), 3);
        ck_assert_str_eq(velstatus_reconcile_result_canceled_id(r, 1, &n), "op-3");
        ck_assert_uint_eq(n, 4);
        ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(r, 0, &n));
        if (p == VELSTATUS_PRESET_VELERO) {
            ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(r, 1, &n));
        } else {
            ck_assert_str_eq(velstatus_reconcile_result_cancel_error(r, 1, &n), "cannot cancel");
            ck_assert_uint_eq(n, 13);
        }
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(r, 2), SIZE_MAX);
        ck_assert_ptr_null(velstatus_reconcile_result_canceled_id(r, 2, &n));
        ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 1);
        ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 3);
        ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), 1);
        ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(CANCEL)), 2);
        ck_assert_int_eq(velstatus_reconcile_result_phase(r), WPF);
        velstatus_reconcile_result_free(r);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* A NULL client (or PASSTHROUGH callbacks): Velero's lookup error text. */
START_TEST(no_plugin_client)
{
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    for (int k = 0; k < 2; k++) {
        for (int mode = 0; mode < 2; mode++) {
            velstatus_oplist *l = make_list(ctx, k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, "x/y", st, 1);
            velstatus_reconcile_options o = opts(W, T0);
            velstatus_reconcile_result *r = NULL;
            vs_fake_plugin f;
            velstatus_plugin_client c;
            const char *want = k ? "unable to get valid RestoreItemActionV2 for \"x/y\""
                                 : "unable to get valid BackupItemActionV2 for \"x/y\", plugin: unknown";
            size_t n;
            vs_fake_plugin_init(&f);
            f.rc[0] = VELSTATUS_PASSTHROUGH;
            c = vs_fake_plugin_client(&f);
            ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, mode ? &c : NULL, &o, &pol, NULL), VELSTATUS_OK);
            assert_errors(r, &want, 1);
            ck_assert_str_eq(velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_ERROR, &n),
                             k ? "unable to get valid RestoreItemActionV2 for \"x/y\""
                               : "unable to get valid BackupItemActionV2 for \"x/y\"");
            ck_assert_int_eq(velstatus_reconcile_result_phase(r), FPF);
            velstatus_reconcile_result_free(r);
            velstatus_oplist_free(l);
        }
    }
    {
        /* a PASSTHROUGH or NULL cancel is a no-op Cancel */
        static const char *const old[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T00:00:00Z\"}"};
        velstatus_policy hp = vs_policy(VELSTATUS_PRESET_HARDENED);
        velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, old, 1);
        velstatus_reconcile_options o = opts(W, T0);
        velstatus_reconcile_result *r = NULL;
        vs_fake_plugin f;
        velstatus_plugin_client c;
        vs_fake_plugin_init(&f);
        f.cancel_rc = VELSTATUS_PASSTHROUGH;
        f.cancel_err[0] = "ignored";
        c = vs_fake_plugin_client(&f);
        ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &hp, NULL), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 1);
        ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(r, 0, NULL));
        velstatus_reconcile_result_free(r);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* A failing callback aborts the pass: E_HOST, host_code, earlier records keep
 * their updates, later ones are untouched. */
START_TEST(host_failures)
{
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 3);
    velstatus_reconcile_options o = opts(W, T0);
    velstatus_reconcile_result *r = (velstatus_reconcile_result *)&r, *sentinel = r;
    velstatus_plugin_client c;
    velstatus_error err;
    vs_fake_plugin f;
    vs_fake_plugin_init(&f);
    f.ans[0] = progress(1, NULL, 0, 0);
    f.rc[1] = -7;
    c = vs_fake_plugin_client(&f);
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &pol, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -7);
    ck_assert_ptr_eq(r, sentinel);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_COMPLETED);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 2)), VELSTATUS_OP_PHASE_NEW);
    ck_assert_uint_eq(f.ncalls, 2);
    velstatus_oplist_free(l);

    l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 3);
    vs_fake_plugin_init(&f);
    f.silent[0] = 1;
    c = vs_fake_plugin_client(&f);
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &pol, &err), VELSTATUS_E_HOST);
    ck_assert_msg(strstr(err.message, "without answering") != NULL, "%s", err.message);
    velstatus_oplist_free(l);

    l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 3);
    vs_fake_plugin_init(&f);
    f.cancel_rc = -3;
    c = vs_fake_plugin_client(&f);
    o.now_ns = T0 + 2 * HOUR;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &pol, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -3);
    ck_assert_uint_eq(f.ncancels, 1);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

static int bad_setters(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    velstatus_op_progress p = progress(0, NULL, 0, 0);
    (void)ud;
    (void)list;
    (void)i;
    ck_assert_int_eq(velstatus_op_reply_set_cancel_error(reply, "x", 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reply_set_cancel_error(NULL, "x", 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reply_set_progress(reply, NULL, NULL), VELSTATUS_E_INVALID);
    p.report = 9;
    ck_assert_int_eq(velstatus_op_reply_set_progress(reply, &p, NULL), VELSTATUS_E_INVALID);
    p.report = 0;
    p.err_len = 2;
    ck_assert_int_eq(velstatus_op_reply_set_progress(reply, &p, NULL), VELSTATUS_E_INVALID);
    p.err_len = 0;
    ck_assert_int_eq(velstatus_op_reply_set_progress(reply, &p, NULL), VELSTATUS_OK);
    return 0;
}

static int bad_cancel_setters(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    velstatus_op_progress p = progress(0, NULL, 0, 0);
    (void)ud;
    (void)list;
    (void)i;
    ck_assert_int_eq(velstatus_op_reply_set_progress(reply, &p, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reply_set_cancel_error(reply, NULL, 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reply_set_cancel_error(reply, "", 0, NULL), VELSTATUS_OK);
    return 0;
}

START_TEST(reply_setters_check_their_arguments)
{
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T00:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 1);
    velstatus_reconcile_options o = opts(W, T0);
    velstatus_reconcile_result *r = NULL;
    velstatus_plugin_client c;
    size_t n = 9;
    velstatus_plugin_client_init(&c, sizeof(c));
    c.progress = bad_setters;
    c.cancel = bad_cancel_setters;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL), VELSTATUS_OK);
    /* an empty Cancel error is an error: reported as "" */
    ck_assert_str_eq(velstatus_reconcile_result_cancel_error(r, 0, &n), "");
    ck_assert_uint_eq(n, 0);
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reconcile_argument_errors)
{
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    velstatus_ctx *ctx = new_ctx();
    velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_RESTORE, NULL, st, 1);
    velstatus_reconcile_options o = opts(W, T0);
    velstatus_reconcile_result *r = NULL;
    velstatus_plugin_client c;
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_error err;
    ck_assert_int_eq(velstatus_oplist_reconcile(NULL, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, NULL, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, NULL, NULL, &err), VELSTATUS_E_INVALID);
    o.phase = VELSTATUS_PHASE_COMPLETED;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_STATE);
    o.phase = VELSTATUS_PHASE_FINALIZING;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_STATE);
    o.phase = VELSTATUS_PHASE_QUEUED; /* restores have none */
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.phase = VELSTATUS_PHASE_IN_PROGRESS;
    o.bsl = VELSTATUS_BSL_MISSING;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.phase = W;
    o.bsl = (velstatus_bsl_state)3;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.bsl = VELSTATUS_BSL_AVAILABLE;
    o.errors = -1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.errors = 0;
    o.flags = 2;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.flags = 0;
    o.bsl_name_len = 3;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.bsl_name_len = 0;
    o.struct_size = 8;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, NULL, &err), VELSTATUS_E_ABI);
    o.struct_size = sizeof(o);
    pol.struct_size = 3;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, &pol, &err), VELSTATUS_E_ABI);
    velstatus_plugin_client_init(&c, sizeof(c));
    c.flags = 1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, NULL, &err), VELSTATUS_E_INVALID);
    c.flags = 0;
    c.struct_size = 4;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, NULL, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_NEW);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(init_functions_and_null_getters)
{
    velstatus_reconcile_options o;
    velstatus_op_progress p;
    velstatus_plugin_client c;
    memset(&o, 0x55, sizeof(o));
    velstatus_reconcile_options_init(&o, sizeof(o));
    ck_assert_uint_eq(o.struct_size, sizeof(o));
    ck_assert_int_eq(o.phase, W);
    ck_assert_int_eq(o.bsl, VELSTATUS_BSL_AVAILABLE);
    ck_assert_int_eq(o.timeout_ns, 4 * HOUR);
    ck_assert_int_eq(o.errors, 0);
    ck_assert_ptr_null(o.bsl_name);
    ck_assert_int_eq(o.completed_before, 0);
    ck_assert_int_eq(o.failed_before, 0);
    memset(&p, 0x55, sizeof(p));
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_uint_eq(p.struct_size, sizeof(p));
    ck_assert_uint_eq(p.report, 0);
    ck_assert_ptr_null(p.err);
    memset(&c, 0x55, sizeof(c));
    velstatus_plugin_client_init(&c, sizeof(c));
    ck_assert_ptr_null(c.progress);
    velstatus_reconcile_options_init(NULL, 0);
    velstatus_op_progress_init(NULL, 0);
    velstatus_plugin_client_init(NULL, 0);
    velstatus_reconcile_result_free(NULL);
    ck_assert_int_eq(velstatus_reconcile_result_still_in_progress(NULL), 0);
    ck_assert_int_eq(velstatus_reconcile_result_changes(NULL), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_completed(NULL), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_failed(NULL), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_in_progress(NULL), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(NULL), 0);
    ck_assert_ptr_null(velstatus_reconcile_result_error(NULL, 0, NULL));
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(NULL), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_count(NULL, F(CHANGED)), 0);
}
END_TEST

START_TEST(result_count_by_flag)
{
    static const char *const st[] = {"{\"phase\":\"InProgress\"}", "{\"phase\":\"Completed\"}", "{\"phase\":\"Odd\"}"};
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 3);
    velstatus_reconcile_options o = opts(W, T0);
    velstatus_reconcile_result *r;
    vs_fake_plugin f;
    vs_fake_plugin_init(&f);
    r = reconcile_ok(l, &f, &o, &pol);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(MISSING_CREATED)), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(IN_PROGRESS)), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(COUNT_COMPLETED)), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(UNKNOWN_PHASE)), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, F(CHANGED)), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, (velstatus_op_step_flag)3), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, (velstatus_op_step_flag)0), 0);
    ck_assert_uint_eq(velstatus_reconcile_result_count(r, (velstatus_op_step_flag)1024), 0);
    ck_assert_int_eq(velstatus_reconcile_result_changes(r), 0);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), W);
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The reports client: absent IDs get Velero's InvalidOperationIDError. */
START_TEST(reports_client_answers)
{
    static const char *const st[] = {"{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}",
                                     "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T08:00:00Z\"}",
                                     "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}"};
    static const char rep[] = "{\"op-0\":{\"completed\":true,\"nCompleted\":3,\"nTotal\":3},"
                              "\"op-1\":{\"cancelError\":\"busy\"}}";
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_oplist *l = make_list(ctx, VELSTATUS_KIND_BACKUP, NULL, st, 3);
    velstatus_op_reports *reports = NULL;
    velstatus_plugin_client c;
    velstatus_reconcile_options o = opts(W, T0 + SEC);
    velstatus_reconcile_result *r = NULL;
    const char *want[] = {"Asynchronous action timed out, plugin: velero.io/act-1",
                          "operation ID op-2 is invalid, plugin: velero.io/act-2"};
    pol.progress_error_grace_ns = 0;
    ck_assert_int_eq(velstatus_op_reports_from_json(&reports, ctx, rep, strlen(rep), NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_client(&c, reports, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL), VELSTATUS_OK);
    assert_errors(r, want, 2);
    ck_assert_str_eq(velstatus_reconcile_result_cancel_error(r, 0, NULL), "busy");
    ck_assert_int_eq(velstatus_op_n_total(velstatus_oplist_at(l, 0)), 3);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), FPF);
    velstatus_reconcile_result_free(r);
    velstatus_op_reports_free(reports);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reconcile_fails_cleanly_without_memory)
{
    static const char in[] =
        "[{\"spec\":{\"operationID\":\"a\",\"backupItemAction\":\"x\"},\"status\":{\"phase\":\"New\",\"created\":"
        "\"2024-05-01T10:00:00Z\"}},"
        "{\"spec\":{\"operationID\":\"b\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T00:00:00Z\"}},"
        "{\"spec\":{\"operationID\":\"c\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
        "{\"spec\":{\"operationID\":\"d\"},\"status\":{\"phase\":\"Odd\"}},"
        "{\"spec\":{\"operationID\":\"e\"},\"status\":{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}}]";
    static const char rep[] = "{\"a\":{\"completed\":true,\"err\":\"bad\",\"description\":\"d\",\"operationUnits\":"
                              "\"B\",\"name\":\"mock-a\"},"
                              "\"b\":{\"cancelError\":\"busy\",\"description\":\"running\"},"
                              "\"c\":{\"lookupError\":\"gone\"}}";
    velstatus_status st;
    for (int p = 0; p < 2; p++) {
        for (int b = 0; b < 2; b++) {
            VS_FAILALLOC_LOOP(fa, ctx)
            {
                velstatus_policy pol = preset((velstatus_preset)p);
                velstatus_oplist *l = NULL;
                velstatus_op_reports *reports = NULL;
                pol.progress_error_grace_ns = 0;
                st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, in, strlen(in), NULL);
                if (st == VELSTATUS_OK)
                    st = velstatus_op_reports_from_json(&reports, ctx, rep, strlen(rep), NULL);
                if (st == VELSTATUS_OK) {
                    velstatus_plugin_client c;
                    velstatus_reconcile_options o = opts(W, T0 + SEC);
                    velstatus_reconcile_result *r = NULL;
                    o.bsl = b ? VELSTATUS_BSL_MISSING : VELSTATUS_BSL_AVAILABLE;
                    velstatus_op_reports_client(&c, reports, NULL);
                    st = velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL);
                    if (st == VELSTATUS_OK)
                        ck_assert_uint_eq(velstatus_reconcile_result_error_count(r),
                                          b ? 1 : (size_t)(3 + pol.unknown_phase_fails + 1));
                    if (st == VELSTATUS_OK && !b) /* the plugin's own Name() */
                        ck_assert_str_eq(velstatus_reconcile_result_error(r, 0, NULL),
                                         pol.backup_error_plugin_suffix ? "bad, plugin: mock-a" : "bad");
                    velstatus_reconcile_result_free(r);
                }
                velstatus_op_reports_free(reports);
                velstatus_oplist_free(l);
            }
            VS_FAILALLOC_END(fa, ctx, st);
        }
    }
    /* a restore's first evaluation: the prefixed messages */
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        velstatus_op_reports *reports = NULL;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_RESTORE, in, strlen(in), NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_op_reports_from_json(&reports, ctx, rep, strlen(rep), NULL);
        if (st == VELSTATUS_OK) {
            velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
            velstatus_plugin_client c;
            velstatus_reconcile_options o = opts(VELSTATUS_PHASE_IN_PROGRESS, T0 + SEC);
            velstatus_reconcile_result *r = NULL;
            velstatus_op_reports_client(&c, reports, NULL);
            st = velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_str_eq(velstatus_reconcile_result_error(r, 0, NULL),
                                 "error from restore item operation: bad");
            velstatus_reconcile_result_free(r);
        }
        velstatus_op_reports_free(reports);
        velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("operations_machine");
    TCase *tc = tcase_create("operations_machine");
    tcase_add_test(tc, velero_test_wrap_err_msg);
    tcase_add_test(tc, step0_finished_operations_are_counted);
    tcase_add_test(tc, step0_unknown_phase_skipped_or_failed);
    tcase_add_test(tc, step1_lookup_error);
    tcase_add_test(tc, step2_progress_error);
    tcase_add_test(tc, step3_progress_fields);
    tcase_add_test(tc, step4_times_velero);
    tcase_add_test(tc, step4_times_hardened);
    tcase_add_test(tc, step4_unix_epoch);
    tcase_add_test(tc, step5_completion);
    tcase_add_test(tc, step6_timeout);
    tcase_add_test(tc, step6_zero_and_negative_timeout);
    tcase_add_test(tc, step6_missing_created);
    tcase_add_test(tc, step6_no_overflow);
    tcase_add_test(tc, step7_new_becomes_in_progress);
    tcase_add_test(tc, step_argument_errors);
    tcase_add_test(tc, step_fails_cleanly_without_memory);
    tcase_add_test(tc, velero_operations_controller_tests);
    tcase_add_test(tc, phase_table_2_5);
    tcase_add_test(tc, partially_failed_edge_or_level);
    tcase_add_test(tc, pending_errors_set_partially_failed);
    tcase_add_test(tc, bsl_missing_or_readonly);
    tcase_add_test(tc, persist_and_errors_added);
    tcase_add_test(tc, after_run_2_7);
    tcase_add_test(tc, cancel_on_timeout_only);
    tcase_add_test(tc, no_plugin_client);
    tcase_add_test(tc, host_failures);
    tcase_add_test(tc, reply_setters_check_their_arguments);
    tcase_add_test(tc, reconcile_argument_errors);
    tcase_add_test(tc, init_functions_and_null_getters);
    tcase_add_test(tc, result_count_by_flag);
    tcase_add_test(tc, reports_client_answers);
    tcase_add_test(tc, reconcile_fails_cleanly_without_memory);
    suite_add_tcase(s, tc);
    return s;
}
