/* SPDX-License-Identifier: Apache-2.0 */
/* Threads: 8 workers run every decision area at once, each with its own ctx
 * and objects, while 2 readers read results built before the threads
 * started (a verdict, a list, a report and their ctx). Every result must
 * equal the one computed on the main thread. Built with -pthread; CI also
 * runs it under -fsanitize=thread (scripts/ci-tsan.sh), which reports any
 * data race the library has. doc/threadsafety.md states the rules this
 * exercises. */
#include "fake_host.h"
#include "harness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <velstatus.h>
#include <velstatus/experimental.h>

enum { N_WORKERS = 8, N_READERS = 2 };

#define NOW_NS INT64_C(1714559400000000000) /* 2024-05-01T10:30:00Z */

/* What the main thread computed; read-only once the threads start. */
typedef struct expected {
    char *bsls_json, *ops_json, *reports_json; /* inputs, malloc'ed */
    size_t bsls_len, ops_len, reports_len;
    char *verdict_json; /* classify + encode */
    uint32_t tracker_reasons;
    velstatus_server_status tracker_status;
    char *ops_roundtrip; /* decode + encode */
    char *reconciled;    /* the list after one reconcile pass, encoded */
    velstatus_phase phase;
    size_t completed, failed;
    char *summary;      /* progress summary of the decoded list */
    int64_t sleeps[12]; /* CapBackoff(1 s) with r = 0.5 */
    uint64_t attempts;  /* hardened retry: 3 failures, then success */
    /* Shared immutable objects the readers use. */
    velstatus_ctx *shared_ctx;
    velstatus_server_verdict *verdict;
    velstatus_oplist *list;
    velstatus_progress *report;
} expected;

static expected ex;

typedef struct worker {
    pthread_t tid;
    int id;
    long iterations;
    char failure[256]; /* first mismatch, "" when none */
} worker;

static volatile int workers_done;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;

#define FAIL(w, ...)                                                 \
    do {                                                             \
        if (!(w)->failure[0])                                        \
            snprintf((w)->failure, sizeof(w)->failure, __VA_ARGS__); \
        return -1;                                                   \
    } while (0)

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    memcpy(p, s, n);
    return p;
}

/* ---- one unit of each area; returns 0, or -1 with w->failure set ---- */

static int do_classify(worker *w, velstatus_ctx *ctx, char **json)
{
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    velstatus_status st = velstatus_bsl_set_from_json(&set, ctx, ex.bsls_json, ex.bsls_len, NULL);
    if (st != VELSTATUS_OK)
        FAIL(w, "decode_bsls: %s", velstatus_status_name(st));
    st = velstatus_server_status_classify(&v, set, NULL, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_server_verdict_to_json(json, NULL, v, NULL);
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    if (st != VELSTATUS_OK)
        FAIL(w, "classify/encode: %s", velstatus_status_name(st));
    return 0;
}

static int do_tracker(worker *w, velstatus_ctx *ctx, velstatus_server_status *status, uint32_t *reasons)
{
    velstatus_server_tracker *t = NULL;
    velstatus_status st = velstatus_server_tracker_new(&t, ctx, NULL, NULL);
    if (st != VELSTATUS_OK)
        FAIL(w, "tracker_new: %s", velstatus_status_name(st));
    char name[32];
    velstatus_bsl_record bsl;
    velstatus_bsl_record_init(&bsl, sizeof(bsl));
    for (int i = 0; i < 16 && st == VELSTATUS_OK; i++) {
        bsl.name = name;
        bsl.name_len = (size_t)snprintf(name, sizeof(name), "bsl-%02d", i);
        bsl.phase = i % 5 == 4 ? "Unavailable" : "Available";
        bsl.phase_len = strlen(bsl.phase);
        bsl.is_default = i == 3;
        bsl.has_created = bsl.has_validated = 1;
        bsl.created_ns = NOW_NS - i;
        bsl.validated_ns = NOW_NS;
        st = velstatus_server_tracker_upsert(t, NULL, &bsl, NULL);
    }
    if (st == VELSTATUS_OK)
        st = velstatus_server_tracker_delete(t, NULL, "bsl-04", 6, NULL);
    *status = velstatus_server_tracker_status(t);
    *reasons = velstatus_server_tracker_reasons(t);
    velstatus_server_tracker_free(t);
    if (st != VELSTATUS_OK)
        FAIL(w, "tracker: %s", velstatus_status_name(st));
    return 0;
}

static int do_operations(worker *w, velstatus_ctx *ctx, char **roundtrip, char **reconciled, char **summary,
                         velstatus_phase *phase, size_t *completed, size_t *failed)
{
    velstatus_oplist *list = NULL;
    velstatus_op_reports *reports = NULL;
    velstatus_reconcile_result *res = NULL;
    velstatus_progress *report = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options opts;
    velstatus_status st = velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, ex.ops_json, ex.ops_len, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_oplist_to_json(roundtrip, NULL, list, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_progress_new(&report, ctx, list, NOW_NS, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_progress_summary(summary, NULL, report, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_op_reports_from_json(&reports, ctx, ex.reports_json, ex.reports_len, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_op_reports_client(&client, reports, NULL);
    if (st == VELSTATUS_OK) {
        velstatus_reconcile_options_init(&opts, sizeof(opts));
        opts.now_ns = NOW_NS;
        st = velstatus_oplist_reconcile(&res, list, &client, &opts, NULL, NULL);
    }
    if (st == VELSTATUS_OK) {
        *phase = velstatus_reconcile_result_phase(res);
        *completed = velstatus_reconcile_result_completed(res);
        *failed = velstatus_reconcile_result_failed(res);
        st = velstatus_oplist_to_json(reconciled, NULL, list, NULL);
    }
    velstatus_reconcile_result_free(res);
    velstatus_op_reports_free(reports);
    velstatus_progress_free(report);
    velstatus_oplist_free(list);
    if (st != VELSTATUS_OK)
        FAIL(w, "operations: %s", velstatus_status_name(st));
    return 0;
}

static int do_backoff(worker *w, int64_t sleeps[12])
{
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, INT64_C(1000000000));
    for (int i = 0; i < 12; i++) {
        velstatus_status st = velstatus_backoff_step(&sleeps[i], &b, 0.5, NULL);
        if (st != VELSTATUS_OK)
            FAIL(w, "backoff_step: %s", velstatus_status_name(st));
    }
    return 0;
}

static int do_retry(worker *w, velstatus_ctx *ctx, uint64_t *attempts)
{
    vs_fake_retry f;
    velstatus_retry_host host;
    velstatus_retry_result *res = NULL;
    vs_fake_retry_init(&f); /* each worker its own: 3 failures, then success */
    f.fail_until = 3;
    f.error = "the server is currently unable to handle the request";
    host = vs_fake_retry_host(&f);
    velstatus_status st = velstatus_retry_run(&res, ctx, 0, &host, NULL, NULL);
    if (st != VELSTATUS_OK)
        FAIL(w, "retry_run: %s", velstatus_status_name(st));
    *attempts = velstatus_retry_result_attempts(res);
    int ok = velstatus_retry_result_outcome(res) == VELSTATUS_RETRY_OUTCOME_SUCCEEDED;
    velstatus_retry_result_free(res);
    if (!ok)
        FAIL(w, "retry_run: not succeeded");
    return 0;
}

/* Every area once; compares with ex (the main thread passes compare = 0 to fill ex). */
typedef struct vs_round {
    char *verdict_json, *roundtrip, *reconciled, *summary;
    velstatus_server_status tstatus;
    uint32_t treasons;
    velstatus_phase phase;
    size_t completed, failed;
    int64_t sleeps[12];
    uint64_t attempts;
} vs_round;

static int run_round(worker *w, velstatus_ctx *ctx, vs_round *r)
{
    memset(r, 0, sizeof(*r));
    if (do_classify(w, ctx, &r->verdict_json) || do_tracker(w, ctx, &r->tstatus, &r->treasons) ||
        do_operations(w, ctx, &r->roundtrip, &r->reconciled, &r->summary, &r->phase, &r->completed, &r->failed) ||
        do_backoff(w, r->sleeps) || do_retry(w, ctx, &r->attempts))
        return -1;
    return 0;
}

static void round_free(velstatus_ctx *ctx, vs_round *r)
{
    velstatus_free(ctx, r->verdict_json);
    velstatus_free(ctx, r->roundtrip);
    velstatus_free(ctx, r->reconciled);
    velstatus_free(ctx, r->summary);
}

static int compare_round(worker *w, const vs_round *r)
{
    if (strcmp(r->verdict_json, ex.verdict_json) != 0)
        FAIL(w, "verdict differs: %s", r->verdict_json);
    if (r->tstatus != ex.tracker_status || r->treasons != ex.tracker_reasons)
        FAIL(w, "tracker differs");
    if (strcmp(r->roundtrip, ex.ops_roundtrip) != 0)
        FAIL(w, "vs_round trip differs");
    if (strcmp(r->reconciled, ex.reconciled) != 0)
        FAIL(w, "reconciled list differs");
    if (strcmp(r->summary, ex.summary) != 0)
        FAIL(w, "summary differs: %s", r->summary);
    if (r->phase != ex.phase || r->completed != ex.completed || r->failed != ex.failed)
        FAIL(w, "reconcile result differs");
    if (memcmp(r->sleeps, ex.sleeps, sizeof(ex.sleeps)) != 0)
        FAIL(w, "backoff sleeps differ");
    if (r->attempts != ex.attempts)
        FAIL(w, "retry attempts %llu", (unsigned long long)r->attempts);
    return 0;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    velstatus_ctx *ctx = NULL;
    if (velstatus_ctx_new(&ctx, NULL, NULL) != VELSTATUS_OK) {
        snprintf(w->failure, sizeof(w->failure), "ctx_new failed");
        return NULL;
    }
    long n = vs_test_iterations(40);
    for (long i = 0; i < n && !w->failure[0]; i++) {
        vs_round r;
        int bad = run_round(w, ctx, &r) || compare_round(w, &r);
        round_free(ctx, &r);
        if (!bad)
            w->iterations++;
    }
    velstatus_ctx_free(ctx);
    pthread_mutex_lock(&done_lock);
    workers_done++;
    pthread_mutex_unlock(&done_lock);
    return NULL;
}

static int all_done(void)
{
    pthread_mutex_lock(&done_lock);
    int d = workers_done == N_WORKERS;
    pthread_mutex_unlock(&done_lock);
    return d;
}

/* One read of every shared object; encodes allocate from the shared ctx. */
static int read_shared(worker *w)
{
    char *json = NULL, *summary = NULL;
    if (velstatus_server_verdict_status(ex.verdict) != VELSTATUS_SERVER_PARTIALLY_READY)
        FAIL(w, "shared verdict status");
    if (velstatus_server_verdict_to_json(&json, NULL, ex.verdict, NULL) != VELSTATUS_OK)
        FAIL(w, "encode");
    int same = strcmp(json, ex.verdict_json) == 0;
    velstatus_free(ex.shared_ctx, json);
    if (!same)
        FAIL(w, "shared verdict encodes differently");
    size_t len = 0;
    const char *id = velstatus_op_string(velstatus_oplist_at(ex.list, 0), VELSTATUS_OP_FIELD_OPERATION_ID, &len);
    if (len != 25 || memcmp(id, "du-nightly-20240501-abcde", len) != 0)
        FAIL(w, "shared list op 0 id");
    if (velstatus_oplist_to_json(&json, NULL, ex.list, NULL) != VELSTATUS_OK)
        FAIL(w, "to_json");
    same = strcmp(json, ex.ops_roundtrip) == 0;
    velstatus_free(ex.shared_ctx, json);
    if (!same)
        FAIL(w, "shared list encodes differently");
    if (velstatus_progress_summary(&summary, NULL, ex.report, NULL) != VELSTATUS_OK)
        FAIL(w, "summary");
    same = strcmp(summary, ex.summary) == 0;
    velstatus_free(ex.shared_ctx, summary);
    if (!same)
        FAIL(w, "shared report summary differs");
    return 0;
}

static void *reader_main(void *arg)
{
    worker *w = arg;
    /* At least a few reads, and keep reading while any worker runs. */
    for (long i = 0; !w->failure[0] && (i < 20 || !all_done()); i++)
        if (read_shared(w) == 0)
            w->iterations++;
    return NULL;
}

static void setup_expected(void)
{
    char path[4096];
    const char *src = getenv("VS_SRCDIR");
    ck_assert_ptr_nonnull(src);
    snprintf(path, sizeof(path), "%s/examples/bsl/one-unavailable.json", src);
    ex.bsls_json = vs_test_read_file(path, &ex.bsls_len);
    snprintf(path, sizeof(path), "%s/examples/operations/backup-itemoperations.json", src);
    ex.ops_json = vs_test_read_file(path, &ex.ops_len);
    snprintf(path, sizeof(path), "%s/examples/operations/backup-progress.json", src);
    ex.reports_json = vs_test_read_file(path, &ex.reports_len);

    /* The same rounds the workers run, on the main thread, before any thread. */
    worker me = {0};
    vs_round r;
    ck_assert_int_eq(velstatus_ctx_new(&ex.shared_ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_msg(run_round(&me, ex.shared_ctx, &r) == 0, "%s", me.failure);
    ex.verdict_json = dup_text(r.verdict_json);
    ex.ops_roundtrip = dup_text(r.roundtrip);
    ex.reconciled = dup_text(r.reconciled);
    ex.summary = dup_text(r.summary);
    ex.tracker_status = r.tstatus;
    ex.tracker_reasons = r.treasons;
    ex.phase = r.phase;
    ex.completed = r.completed;
    ex.failed = r.failed;
    memcpy(ex.sleeps, r.sleeps, sizeof(ex.sleeps));
    ex.attempts = r.attempts;
    round_free(ex.shared_ctx, &r);

    /* Sanity: the expected values are the documented behaviour, not just
     * whatever one run produced. */
    ck_assert_ptr_nonnull(strstr(ex.verdict_json, "\"status\":\"PartiallyReady\""));
    ck_assert_int_eq(ex.tracker_status, VELSTATUS_SERVER_PARTIALLY_READY);
    ck_assert(ex.tracker_reasons & VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE);
    ck_assert_str_eq(ex.ops_roundtrip, ex.ops_json); /* a file Velero wrote vs_round-trips */
    ck_assert_str_ne(ex.reconciled, ex.ops_roundtrip);
    ck_assert_uint_gt(ex.completed, 0);
    ck_assert_int_eq(ex.sleeps[0], INT64_C(10000000) + INT64_C(500000)); /* 10 ms + 0.5 * 0.1 * 10 ms */
    ck_assert_uint_eq(ex.attempts, 4);

    /* The shared immutable objects. */
    velstatus_bsl_set *set = NULL;
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ex.shared_ctx, ex.bsls_json, ex.bsls_len, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_status_classify(&ex.verdict, set, NULL, NULL), VELSTATUS_OK);
    velstatus_bsl_set_free(set);
    ck_assert_int_eq(
        velstatus_oplist_from_json(&ex.list, ex.shared_ctx, VELSTATUS_KIND_BACKUP, ex.ops_json, ex.ops_len, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_progress_new(&ex.report, ex.shared_ctx, ex.list, NOW_NS, NULL), VELSTATUS_OK);
}

static void teardown_expected(void)
{
    velstatus_progress_free(ex.report);
    velstatus_oplist_free(ex.list);
    velstatus_server_verdict_free(ex.verdict);
    velstatus_ctx_free(ex.shared_ctx);
    free(ex.verdict_json);
    free(ex.ops_roundtrip);
    free(ex.reconciled);
    free(ex.summary);
    free(ex.bsls_json);
    free(ex.ops_json);
    free(ex.reports_json);
    memset(&ex, 0, sizeof(ex));
}

START_TEST(threads_distinct_contexts_and_shared_results)
{
    worker ws[N_WORKERS + N_READERS];
    memset(ws, 0, sizeof(ws));
    workers_done = 0;
    setup_expected();
    for (int i = 0; i < N_WORKERS + N_READERS; i++) {
        ws[i].id = i;
        int rc = pthread_create(&ws[i].tid, NULL, i < N_WORKERS ? worker_main : reader_main, &ws[i]);
        ck_assert_int_eq(rc, 0);
    }
    for (int i = 0; i < N_WORKERS + N_READERS; i++)
        ck_assert_int_eq(pthread_join(ws[i].tid, NULL), 0);
    for (int i = 0; i < N_WORKERS + N_READERS; i++) {
        ck_assert_msg(!ws[i].failure[0], "thread %d: %s", i, ws[i].failure);
        ck_assert_msg(ws[i].iterations >= (i < N_WORKERS ? vs_test_iterations(40) : 20), "thread %d ran %ld rounds", i,
                      ws[i].iterations);
    }
    teardown_expected();
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, threads_distinct_contexts_and_shared_results);
    suite_add_tcase(s, tc);
    return s;
}
