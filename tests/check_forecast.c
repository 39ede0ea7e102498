/* SPDX-License-Identifier: Apache-2.0 */
/* The forecast (lib/forecast/forecast.c): worked cases of both presets, the getters
 * given NULL, the token tables, every allocation failure, and the property:
 * for random lists and random `now`, stepping the real reconcile
 * (velstatus_oplist_reconcile with the shared fake plugin client answering
 * the recorded progress) at each forecast instant gives exactly the forecast
 * outcome, and just before it, and at a random instant between two of them,
 * nothing changes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "fake_host.h"
#include "harness.h"
#include <velstatus.h>

#define SEC INT64_C(1000000000)
#define T0 (INT64_C(1714557600) * SEC) /* 2024-05-01T10:00:00Z */
#define HOUR (3600 * SEC)

static velstatus_policy preset(int velero)
{
    return velero ? vs_policy(VELSTATUS_PRESET_VELERO) : vs_policy(VELSTATUS_PRESET_HARDENED);
}

/* ---- a random list, as JSON (times read from a file, as the CLI reads them) ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *g)
{
    uint64_t z = (g->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int64_t range(rng *g, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(next(g) % (uint64_t)(hi - lo + 1));
}

/* What a generated record's plugin answers: the recorded progress, or (a
 * record in a Progress error's grace period) the error again. */
typedef struct gen_op {
    int err_since;
    int64_t n_completed, n_total;
    int has_started, has_updated;
    int64_t started, updated;
} gen_op;

typedef struct gen {
    velstatus_kind kind;
    size_t n;
    gen_op ops[6];
    char json[8192];
} gen;

static void put_time(char *buf, size_t *off, const char *key, int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    ck_assert_int_eq(velstatus_time_format(t, sizeof(t), ns, 0, NULL), VELSTATUS_OK);
    *off += (size_t)sprintf(buf + *off, ",\"%s\":\"%s\"", key, t);
}

static void gen_record(gen *g, rng *r, size_t i, int64_t now, size_t *off)
{
    static const char *const phases[] = {"New",       "InProgress", "InProgress", "InProgress",
                                         "Completed", "Failed",     "Paused",     ""};
    const char *ph = phases[next(r) % 8];
    gen_op *o = &g->ops[i];
    int running = strcmp(ph, "New") == 0 || strcmp(ph, "InProgress") == 0;
    memset(o, 0, sizeof(*o));
    o->n_total = next(r) % 4 == 0 ? 0 : range(r, 1, 1000);
    o->n_completed = range(r, 0, o->n_total + 1);
    *off += (size_t)sprintf(g->json + *off,
                            "%s{\"spec\":{\"%s\":\"b\",\"%s\":\"velero.io/p%zu\",\"operationID\":\"op-%zu\"},"
                            "\"status\":{\"phase\":\"%s\",\"nCompleted\":%lld,\"nTotal\":%lld,\"operationUnits\":"
                            "\"Bytes\"",
                            i ? "," : "", g->kind == VELSTATUS_KIND_BACKUP ? "backupName" : "restoreName",
                            g->kind == VELSTATUS_KIND_BACKUP ? "backupItemAction" : "restoreItemAction", i, i, ph,
                            (long long)o->n_completed, (long long)o->n_total);
    if (next(r) % 10 != 0)
        put_time(g->json, off, "created", now + range(r, -2 * 3600, 600) * SEC);
    if ((o->has_started = next(r) % 3 != 0))
        put_time(g->json, off, "started", o->started = now + range(r, -2 * 3600, 600) * SEC);
    if ((o->has_updated = next(r) % 2 != 0))
        put_time(g->json, off, "updated", o->updated = now + range(r, -2 * 3600, 600) * SEC);
    if (running && next(r) % 5 == 0) {
        o->err_since = 1;
        put_time(g->json, off, "velstatusProgressErrorSince", now + range(r, -90, 30) * SEC);
    }
    *off += (size_t)sprintf(g->json + *off, "}}");
}

static void gen_list(gen *g, rng *r, int64_t now)
{
    size_t off = 0;
    g->kind = next(r) % 2 ? VELSTATUS_KIND_BACKUP : VELSTATUS_KIND_RESTORE;
    g->n = (size_t)range(r, 0, 6);
    off += (size_t)sprintf(g->json, "[");
    for (size_t i = 0; i < g->n; i++)
        gen_record(g, r, i, now, &off);
    sprintf(g->json + off, "]");
}

static velstatus_oplist *decode(velstatus_ctx *ctx, const gen *g)
{
    velstatus_oplist *l = NULL;
    velstatus_error err;
    ck_assert_msg(velstatus_oplist_from_json(&l, ctx, g->kind, g->json, strlen(g->json), &err) == VELSTATUS_OK,
                  "%s: %s", err.message, g->json);
    return l;
}

/* The shared fake client answering each record's recorded progress. */
static void fake_answers(vs_fake_plugin *fp, const gen *g)
{
    vs_fake_plugin_init(fp);
    for (size_t i = 0; i < g->n; i++) {
        velstatus_op_progress *p = &fp->ans[i];
        const gen_op *o = &g->ops[i];
        if (o->err_since) {
            p->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
            continue;
        }
        p->n_completed = o->n_completed;
        p->n_total = o->n_total;
        p->operation_units = "Bytes";
        p->operation_units_len = 5;
        p->has_started = o->has_started;
        p->started_ns = o->started;
        p->has_updated = o->has_updated;
        p->updated_ns = o->updated;
    }
}

/* ---- outcomes ---- */

static int quiet(const velstatus_reconcile_result *r, velstatus_phase before)
{
    return velstatus_reconcile_result_phase(r) == before && velstatus_reconcile_result_canceled_count(r) == 0 &&
           velstatus_reconcile_result_error_count(r) == 0 &&
           velstatus_reconcile_result_persist(r) == VELSTATUS_PERSIST_NONE;
}

static void assert_same(const velstatus_reconcile_result *a, const velstatus_reconcile_result *b, const char *what)
{
    size_t n = velstatus_reconcile_result_error_count(a);
    ck_assert_msg(velstatus_reconcile_result_phase(a) == velstatus_reconcile_result_phase(b), "%s: phase %s vs %s",
                  what, velstatus_phase_to_string(velstatus_reconcile_result_phase(a)),
                  velstatus_phase_to_string(velstatus_reconcile_result_phase(b)));
    ck_assert_int_eq(velstatus_reconcile_result_persist(a), velstatus_reconcile_result_persist(b));
    ck_assert_int_eq(velstatus_reconcile_result_errors_added(a), velstatus_reconcile_result_errors_added(b));
    ck_assert_uint_eq(velstatus_reconcile_result_completed(a), velstatus_reconcile_result_completed(b));
    ck_assert_uint_eq(velstatus_reconcile_result_failed(a), velstatus_reconcile_result_failed(b));
    ck_assert_uint_eq(velstatus_reconcile_result_in_progress(a), velstatus_reconcile_result_in_progress(b));
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(a), velstatus_reconcile_result_canceled_count(b));
    for (size_t k = 0; k < velstatus_reconcile_result_canceled_count(a); k++)
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(a, k),
                          velstatus_reconcile_result_canceled_index(b, k));
    ck_assert_uint_eq(n, velstatus_reconcile_result_error_count(b));
    for (size_t k = 0; k < n; k++)
        ck_assert_str_eq(velstatus_reconcile_result_error(a, k, NULL), velstatus_reconcile_result_error(b, k, NULL));
}

/* One real pass at `at`; the options carry its phase and counts on, with no
 * pending errors, as the forecast assumes of Velero. */
static velstatus_reconcile_result *step(velstatus_oplist *l, vs_fake_plugin *fp, velstatus_reconcile_options *o,
                                        const velstatus_policy *pol, int64_t at)
{
    velstatus_plugin_client c = vs_fake_plugin_client(fp);
    velstatus_reconcile_result *r = NULL;
    velstatus_error err;
    fp->ncalls = fp->ncancels = 0;
    o->now_ns = at;
    ck_assert_msg(velstatus_oplist_reconcile(&r, l, &c, o, pol, &err) == VELSTATUS_OK, "%s", err.message);
    o->phase = velstatus_reconcile_result_phase(r);
    o->errors = 0;
    o->completed_before = (int64_t)velstatus_reconcile_result_completed(r);
    o->failed_before = (int64_t)velstatus_reconcile_result_failed(r);
    return r;
}

static int waiting(velstatus_phase ph)
{
    return ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ||
           ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
}

/* A pass at `at` that must decide nothing (when the phase still has passes). */
static void assert_quiet_at(velstatus_oplist *l, vs_fake_plugin *fp, velstatus_reconcile_options *o,
                            const velstatus_policy *pol, int64_t at, const char *json)
{
    velstatus_phase before = o->phase;
    velstatus_reconcile_result *r;
    if (!waiting(before))
        return;
    r = step(l, fp, o, pol, at);
    ck_assert_msg(quiet(r, before), "a pass at %lld decided something between events: %s", (long long)at, json);
    velstatus_reconcile_result_free(r);
}

/* Every TIMES_OUT operation's event is its deadline + 1 (or the next pass
 * when that is already past); no event is earlier than now. */
static void assert_instants(const velstatus_forecast *f, int64_t now)
{
    for (size_t i = 0; i < velstatus_forecast_op_count(f); i++) {
        int64_t at, deadline;
        size_t e = velstatus_forecast_op_event(f, i);
        if (velstatus_forecast_op_fate(f, i) != VELSTATUS_FORECAST_FATE_TIMES_OUT)
            continue;
        ck_assert(velstatus_forecast_event_time(f, e, &at));
        ck_assert(velstatus_forecast_op_deadline(f, i, &deadline));
        ck_assert(deadline < at);
        ck_assert(at == now || at == deadline + 1);
    }
}

static void check_case(velstatus_ctx *ctx, rng *r, int velero)
{
    gen g;
    velstatus_policy pol = preset(velero);
    velstatus_reconcile_options o;
    velstatus_forecast *f = NULL;
    velstatus_oplist *l, *sim;
    vs_fake_plugin fp;
    velstatus_error err;
    int64_t prev, at, now;
    size_t k = 0, n;
    static const int64_t timeouts[] = {4 * HOUR, HOUR, 0, -SEC, 10 * SEC, 90 * 60 * SEC};
    /* whole seconds, as Velero stores its times; now has a fraction */
    now = T0 + range(r, -3600, 6 * 3600) * SEC;
    gen_list(&g, r, now);
    l = decode(ctx, &g);
    sim = decode(ctx, &g);
    fake_answers(&fp, &g);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.phase = next(r) % 2 ? VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS
                          : VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
    o.bsl = next(r) % 8 == 0 ? (velstatus_bsl_state)range(r, 1, 2) : VELSTATUS_BSL_AVAILABLE;
    o.timeout_ns = timeouts[next(r) % 6];
    o.errors = next(r) % 4 == 0;
    o.now_ns = now + range(r, 0, SEC - 1);
    ck_assert_msg(velstatus_forecast_new(&f, l, &o, &pol, &err) == VELSTATUS_OK, "%s", err.message);
    assert_instants(f, o.now_ns);
    n = velstatus_forecast_event_count(f);
    prev = o.now_ns;
    if (n == 0 || (velstatus_forecast_event_time(f, 0, &at), at) != o.now_ns) {
        assert_quiet_at(sim, &fp, &o, &pol, o.now_ns, g.json); /* the next pass decides nothing */
    }
    for (k = 0; k < n; k++) {
        velstatus_reconcile_result *got;
        ck_assert(velstatus_forecast_event_time(f, k, &at));
        ck_assert(k == 0 ? at >= prev : at > prev);
        if (at - 1 > prev + 1)
            assert_quiet_at(sim, &fp, &o, &pol, range(r, prev + 1, at - 2), g.json);
        if (at - 1 > prev)
            assert_quiet_at(sim, &fp, &o, &pol, at - 1, g.json);
        got = step(sim, &fp, &o, &pol, at);
        assert_same(got, velstatus_forecast_event_result(f, k), g.json);
        velstatus_reconcile_result_free(got);
        prev = at;
    }
    ck_assert_int_eq(o.phase, velstatus_forecast_final_phase(f));
    if (velstatus_forecast_end_kind(f) == VELSTATUS_FORECAST_END_STALLED) {
        ck_assert(waiting(o.phase));
        assert_quiet_at(sim, &fp, &o, &pol, prev + range(r, 1, INT64_C(1) << 62), g.json);
    } else {
        ck_assert(!waiting(o.phase));
    }
    velstatus_forecast_free(f);
    velstatus_oplist_free(l);
    velstatus_oplist_free(sim);
}


/* ---- worked cases ---- */

/* The shape: a DataUpload at 20% whose rate ends after its 4h
 * timeout, one completed, one failed because its plugin was gone. */
static const char done_when[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-1\"},"
    "\"status\":{\"phase\":\"InProgress\",\"nCompleted\":3600000,\"nTotal\":18000000,\"operationUnits\":\"Bytes\","
    "\"created\":\"2024-05-01T10:00:00Z\",\"started\":\"2024-05-01T10:00:00Z\",\"updated\":\"2024-05-01T11:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-2\"},"
    "\"status\":{\"phase\":\"Completed\",\"nCompleted\":10,\"nTotal\":10,\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"example.io/exporter\",\"operationID\":\"ex-1\"},"
    "\"status\":{\"phase\":\"Failed\",\"error\":\"unable to get valid BackupItemActionV2 for "
    "\\\"example.io/exporter\\\"\","
    "\"created\":\"2024-05-01T10:00:00Z\"}}]";

static velstatus_oplist *list_of(velstatus_ctx *ctx, const char *json)
{
    velstatus_oplist *l = NULL;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, json, strlen(json), NULL),
                     VELSTATUS_OK);
    return l;
}

static velstatus_reconcile_options waiting_opts(int64_t now)
{
    velstatus_reconcile_options o;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = now;
    o.completed_before = 1;
    o.failed_before = 1;
    return o;
}

START_TEST(done_when_velero_and_hardened)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = list_of(ctx, done_when);
    velstatus_reconcile_options o = waiting_opts(T0 + HOUR + 30 * SEC);
    velstatus_policy v = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_forecast *f = NULL;
    const velstatus_reconcile_result *r;
    int64_t at, deadline, finish;
    /* Velero: the failure counted in the pass that made it; nothing until the timeout */
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, &v, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 1);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, T0 + 4 * HOUR + 1);
    r = velstatus_forecast_event_result(f, 0);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(r, 0), 0);
    ck_assert_str_eq(velstatus_reconcile_result_error(r, 0, NULL),
                     "Asynchronous action timed out, plugin: velero.io/csi-pvc-backupper");
    ck_assert_int_eq(velstatus_reconcile_result_persist(r), VELSTATUS_PERSIST_UPLOAD_AND_PATCH);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_FINAL);
    ck_assert_int_eq(velstatus_forecast_phase(f), VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS);
    ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_forecast_op_count(f), 3);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_TIMES_OUT);
    ck_assert_uint_eq(velstatus_forecast_op_event(f, 0), 0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 1), VELSTATUS_FORECAST_FATE_SETTLED);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 2), VELSTATUS_FORECAST_FATE_SETTLED);
    ck_assert_uint_eq(velstatus_forecast_op_event(f, 2), SIZE_MAX);
    ck_assert(velstatus_forecast_op_deadline(f, 0, &deadline));
    ck_assert_int_eq(deadline, T0 + 4 * HOUR);
    ck_assert(!velstatus_forecast_op_deadline(f, 1, &deadline));
    ck_assert_int_eq(deadline, 0);
    /* 1000 bytes/s for 1h: the 80% left take 4h from the update at 11:00, 15:00 > 14:00 */
    ck_assert(velstatus_forecast_op_finish(f, 0, &finish));
    ck_assert_int_eq(finish, T0 + 5 * HOUR);
    ck_assert_int_eq(velstatus_forecast_op_eta(f, 0), VELSTATUS_FORECAST_ETA_AFTER);
    ck_assert(!velstatus_forecast_op_finish(f, 1, &finish));
    ck_assert_int_eq(velstatus_forecast_op_eta(f, 1), VELSTATUS_FORECAST_ETA_UNKNOWN);
    velstatus_forecast_free(f);
    /* hardened: level-triggered, the next pass already records PartiallyFailed */
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 2);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, o.now_ns);
    ck_assert_int_eq(velstatus_reconcile_result_phase(velstatus_forecast_event_result(f, 0)),
                     VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(velstatus_forecast_event_result(f, 0)), 0);
    ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_forecast_op_event(f, 0), 1);
    velstatus_forecast_free(f);
    /* a larger timeout: the rate now ends before it */
    o.timeout_ns = 6 * HOUR;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, &v, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_forecast_op_eta(f, 0), VELSTATUS_FORECAST_ETA_BEFORE);
    velstatus_forecast_free(f);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* One running record under each rule where the presets differ. */
static velstatus_forecast *one(velstatus_ctx *ctx, const char *status, int64_t timeout, int velero, int64_t now)
{
    char json[1024];
    velstatus_oplist *l;
    velstatus_reconcile_options o = waiting_opts(now);
    velstatus_policy pol = preset(velero);
    velstatus_forecast *f = NULL;
    snprintf(json, sizeof(json),
             "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"p\",\"operationID\":\"op\"},\"status\":%s}]",
             status);
    l = list_of(ctx, json);
    o.completed_before = o.failed_before = 0;
    o.timeout_ns = timeout;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, &pol, NULL), VELSTATUS_OK);
    velstatus_oplist_free(l);
    return f;
}

START_TEST(presets_differ)
{
    velstatus_ctx *ctx = vs_test_ctx();
    const char *run = "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}";
    velstatus_forecast *f;
    int64_t at;
    /* a zero timeout: Velero expires it at the first pass after created */
    f = one(ctx, run, 0, 1, T0 - HOUR);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, T0 + 1);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_TIMES_OUT);
    velstatus_forecast_free(f);
    f = one(ctx, run, 0, 0, T0 - HOUR);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NO_TIMEOUT);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_STALLED);
    velstatus_forecast_free(f);
    /* no created: never times out, in both */
    for (int v = 0; v < 2; v++) {
        f = one(ctx,
                "{\"phase\":\"InProgress\",\"nCompleted\":3600,\"nTotal\":7200,\"started\":\"2024-05-01T10:00:00Z\"}",
                HOUR, v, T0 + HOUR);
        ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NO_CREATED);
        ck_assert_int_eq(velstatus_forecast_op_eta(f, 0), VELSTATUS_FORECAST_ETA_NO_DEADLINE);
        ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_STALLED);
        velstatus_forecast_free(f);
    }
    /* an unknown phase: skipped, or failed at the next pass */
    f = one(ctx, "{\"phase\":\"Paused\"}", HOUR, 1, T0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_UNKNOWN_SKIPPED);
    velstatus_forecast_free(f);
    f = one(ctx, "{\"phase\":\"Paused\"}", HOUR, 0, T0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_UNKNOWN_FAILS);
    ck_assert_uint_eq(velstatus_forecast_op_event(f, 0), 0);
    velstatus_forecast_free(f);
    /* a Progress error in the grace period: fails at its end (hardened), at once (Velero) */
    run = "{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\","
          "\"velstatusProgressErrorSince\":\"2024-05-01T10:30:00Z\"}";
    f = one(ctx, run, 4 * HOUR, 0, T0 + HOUR / 2 + 10 * SEC);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, T0 + HOUR / 2 + 60 * SEC);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_ERROR_FAILS);
    velstatus_forecast_free(f);
    f = one(ctx, run, 4 * HOUR, 1, T0 + HOUR / 2 + 10 * SEC);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, T0 + HOUR / 2 + 10 * SEC);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_ERROR_FAILS);
    velstatus_forecast_free(f);
    /* a grace period ending beyond the int64 range never ends */
    f = one(ctx, "{\"phase\":\"InProgress\",\"velstatusProgressErrorSince\":\"2262-04-11T23:47:00Z\"}", HOUR, 0, T0);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NO_CREATED);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_STALLED);
    /* indexes past the end */
    ck_assert(!velstatus_forecast_event_time(f, 0, &at));
    ck_assert_ptr_null(velstatus_forecast_event_result(f, 0));
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 1), VELSTATUS_FORECAST_FATE_INVALID);
    ck_assert_uint_eq(velstatus_forecast_op_event(f, 1), SIZE_MAX);
    ck_assert(!velstatus_forecast_op_deadline(f, 1, &at));
    ck_assert(!velstatus_forecast_op_finish(f, 1, &at));
    ck_assert_int_eq(velstatus_forecast_op_eta(f, 1), VELSTATUS_FORECAST_ETA_INVALID);
    velstatus_forecast_free(f);
    /* created outside the int64 nanosecond range, as Velero's files may hold
     * it: Go's zero time times out at the next pass, year 9999 never */
    f = one(ctx, "{\"phase\":\"InProgress\",\"created\":\"0001-01-01T00:00:00Z\"}", 4 * HOUR, 1, T0);
    ck_assert(velstatus_forecast_event_time(f, 0, &at));
    ck_assert_int_eq(at, T0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_TIMES_OUT);
    velstatus_forecast_free(f);
    f = one(ctx, "{\"phase\":\"InProgress\",\"created\":\"9999-12-31T23:59:59Z\"}", 4 * HOUR, 1, T0);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 0);
    ck_assert(velstatus_forecast_op_deadline(f, 0, &at));
    ck_assert_int_eq(at, INT64_MAX);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NOT_REACHED);
    velstatus_forecast_free(f);
    /* a deadline beyond the int64 range never comes */
    f = one(ctx, "{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}", INT64_MAX, 1, T0);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NOT_REACHED);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_STALLED);
    velstatus_forecast_free(f);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(bsl_problem_ends_the_timeline)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = list_of(ctx, done_when);
    velstatus_reconcile_options o = waiting_opts(T0 + HOUR);
    velstatus_forecast *f = NULL;
    o.bsl = VELSTATUS_BSL_MISSING;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_forecast_event_count(f), 1);
    ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_PARTIALLY_FAILED);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_NOT_REACHED);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_FINAL);
    velstatus_forecast_free(f);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(bad_arguments)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = list_of(ctx, done_when);
    velstatus_reconcile_options o = waiting_opts(T0);
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_forecast *f = (velstatus_forecast *)&o; /* untouched on failure */
    velstatus_error err;
    ck_assert_int_eq(velstatus_forecast_new(NULL, l, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_forecast_new(&f, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_forecast_new(&f, l, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "opts is NULL");
    o.phase = VELSTATUS_PHASE_IN_PROGRESS;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, &err), VELSTATUS_E_STATE);
    o.phase = VELSTATUS_PHASE_COMPLETED;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, &err), VELSTATUS_E_STATE);
    o.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    o.errors = -1;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, &err), VELSTATUS_E_INVALID);
    o.errors = 0;
    o.struct_size = 4;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, NULL, &err), VELSTATUS_E_ABI);
    o.struct_size = sizeof(o);
    pol.struct_size = 4;
    ck_assert_int_eq(velstatus_forecast_new(&f, l, &o, &pol, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_eq(f, (velstatus_forecast *)&o);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(getters_given_null_and_tokens)
{
    int64_t ns = 7;
    velstatus_forecast_fate fate;
    velstatus_forecast_eta eta;
    velstatus_forecast_end end;
    ck_assert_uint_eq(velstatus_forecast_event_count(NULL), 0);
    ck_assert(!velstatus_forecast_event_time(NULL, 0, &ns));
    ck_assert_int_eq(ns, 0);
    ck_assert(!velstatus_forecast_event_time(NULL, 0, NULL));
    ck_assert_ptr_null(velstatus_forecast_event_result(NULL, 0));
    ck_assert_int_eq(velstatus_forecast_phase(NULL), VELSTATUS_PHASE_INVALID);
    ck_assert_int_eq(velstatus_forecast_final_phase(NULL), VELSTATUS_PHASE_INVALID);
    ck_assert_int_eq(velstatus_forecast_end_kind(NULL), VELSTATUS_FORECAST_END_INVALID);
    ck_assert_uint_eq(velstatus_forecast_op_count(NULL), 0);
    ck_assert_int_eq(velstatus_forecast_op_fate(NULL, 0), VELSTATUS_FORECAST_FATE_INVALID);
    ck_assert_uint_eq(velstatus_forecast_op_event(NULL, 0), SIZE_MAX);
    ns = 7;
    ck_assert(!velstatus_forecast_op_deadline(NULL, 0, &ns));
    ck_assert_int_eq(ns, 0);
    ck_assert(!velstatus_forecast_op_deadline(NULL, 0, NULL));
    ns = 7;
    ck_assert(!velstatus_forecast_op_finish(NULL, 0, &ns));
    ck_assert_int_eq(ns, 0);
    ck_assert(!velstatus_forecast_op_finish(NULL, 0, NULL));
    ck_assert_int_eq(velstatus_forecast_op_eta(NULL, 0), VELSTATUS_FORECAST_ETA_INVALID);
    velstatus_forecast_free(NULL);
    ck_assert_ptr_null(velstatus_forecast_fate_to_string(VELSTATUS_FORECAST_FATE_INVALID));
    ck_assert_ptr_null(velstatus_forecast_eta_to_string(VELSTATUS_FORECAST_ETA_INVALID));
    ck_assert_ptr_null(velstatus_forecast_end_to_string(VELSTATUS_FORECAST_END_INVALID));
    for (int i = 0; i <= VELSTATUS_FORECAST_FATE_NOT_REACHED; i++) {
        ck_assert_int_eq(velstatus_forecast_fate_from_string(&fate, velstatus_forecast_fate_to_string(i),
                                                             VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(fate, i);
    }
    for (int i = 0; i <= VELSTATUS_FORECAST_ETA_NO_DEADLINE; i++) {
        ck_assert_int_eq(velstatus_forecast_eta_from_string(&eta, velstatus_forecast_eta_to_string(i),
                                                            VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(eta, i);
    }
    ck_assert_int_eq(velstatus_forecast_end_from_string(&end, "stalled", VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(end, VELSTATUS_FORECAST_END_STALLED);
    ck_assert_int_eq(velstatus_forecast_end_from_string(&end, "Stalled", 7, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_forecast_fate_from_string(&fate, "x", 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_forecast_eta_from_string(&eta, "x", 1, NULL), VELSTATUS_E_INVALID);
}
END_TEST

/* Every allocation of a forecast fails in turn: E_NOMEM, nothing leaked. */
START_TEST(every_allocation_failure)
{
    for (int v = 0; v < 2; v++) {
        velstatus_policy pol = preset(v);
        velstatus_status st = VELSTATUS_OK;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_oplist *l = NULL;
            velstatus_forecast *f = NULL;
            velstatus_reconcile_options o = waiting_opts(T0 + HOUR);
            VS_FAILALLOC_PAUSE(fa);
            ck_assert_int_eq(
                velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, done_when, strlen(done_when), NULL),
                VELSTATUS_OK);
            VS_FAILALLOC_RESUME(fa);
            st = velstatus_forecast_new(&f, l, &o, &pol, NULL);
            VS_FAILALLOC_PAUSE_AGAIN(fa);
            if (st == VELSTATUS_OK)
                ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
            velstatus_forecast_free(f);
            velstatus_oplist_free(l);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}
END_TEST

/* At least 10,000 random lists in each preset (100 under valgrind). */
START_TEST(property_forecast_matches_the_reconcile)
{
    velstatus_ctx *ctx = vs_test_ctx();
    rng r = {UINT64_C(0x5eed14)};
    long n = vs_test_iterations(10000);
    for (long i = 0; i < n; i++) {
        check_case(ctx, &r, 1);
        check_case(ctx, &r, 0);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("forecast");
    TCase *tc = tcase_create("forecast");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, done_when_velero_and_hardened);
    tcase_add_test(tc, presets_differ);
    tcase_add_test(tc, bsl_problem_ends_the_timeline);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, getters_given_null_and_tokens);
    tcase_add_test(tc, every_allocation_failure);
    tcase_add_test(tc, property_forecast_matches_the_reconcile);
    suite_add_tcase(s, tc);
    return s;
}
