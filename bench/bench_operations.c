/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmark of the operations codec and state machine (doc/design.md §9).
 *
 *   bench_operations ITEMOPERATIONS.json [RUNS]
 *
 * Each measurement runs RUNS times (default 5) in a fresh child process, so
 * that the child's peak RSS (ru_maxrss) belongs to that path alone; the
 * median CPU time (CLOCK_PROCESS_CPUTIME_ID, so that other load on the
 * machine does not count) is printed. Paths, side by side in one run:
 *   read      reading the file only (the baseline RSS: the input itself)
 *   dom       jansson, the whole file as one DOM (json_loadb)
 *   decode    libvelstatus, one record at a time (velstatus_oplist_from_json)
 *   encode    decode + velstatus_oplist_to_json (Velero's bytes)
 *   reconcile one pass of velstatus_oplist_reconcile over the list, with a
 *             host plugin client answering from memory; first pass and a
 *             steady-state pass (nothing changes), in ns per operation
 *   step      velstatus_oplist_step alone on every record, ns per operation,
 *             over the whole list (memory-bound) and over 1,000 records
 *             repeated (cache-resident: the cost of the decision itself)
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <velstatus.h>

static char *input;
static size_t input_len;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: robust on a loaded machine */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void read_input(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    input = malloc((size_t)n + 1);
    if (input == NULL || fread(input, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    input[n] = '\0';
    input_len = (size_t)n;
    fclose(f);
}

/* A host client answering every operation with the same progress. */
static int answer(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    const velstatus_op_progress *p = ud;
    (void)list;
    (void)i;
    return velstatus_op_reply_set_progress(reply, p, NULL) == VELSTATUS_OK ? 0 : -1;
}

static velstatus_op_progress running(void)
{
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof p);
    p.n_completed = 1;
    p.n_total = 2;
    p.operation_units = "Bytes";
    p.operation_units_len = 5;
    p.description = "InProgress";
    p.description_len = 10;
    p.has_started = 1;
    p.started_ns = INT64_C(1714561200) * 1000000000;
    p.has_updated = 1;
    p.updated_ns = INT64_C(1714563000) * 1000000000;
    return p;
}

enum { M_READ, M_DOM, M_DECODE, M_ENCODE, M_RECONCILE, M_STEP };

/* Runs one measurement in this (child) process; writes up to 3 numbers. */
static void measure(int mode, double out[3])
{
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *l = NULL;
    double t0, t1;
    out[0] = out[1] = out[2] = 0;
    if (mode == M_READ)
        return;
    if (mode == M_DOM) {
        json_error_t jerr;
        json_t *root;
        t0 = now_s();
        root = json_loadb(input, input_len, 0, &jerr);
        t1 = now_s();
        if (root == NULL) {
            fprintf(stderr, "json_loadb: %s\n", jerr.text);
            exit(2);
        }
        out[0] = t1 - t0;
        json_decref(root);
        return;
    }
    velstatus_ctx_new(&ctx, NULL, NULL);
    t0 = now_s();
    if (velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, input, input_len, NULL) != VELSTATUS_OK) {
        fprintf(stderr, "decode failed\n");
        exit(2);
    }
    t1 = now_s();
    out[0] = t1 - t0;
    if (mode == M_ENCODE) {
        char *js;
        size_t n;
        t0 = now_s();
        velstatus_oplist_to_json(&js, &n, l, NULL);
        t1 = now_s();
        out[1] = t1 - t0;
        out[2] = n == input_len && memcmp(js, input, n) == 0;
        velstatus_free(ctx, js);
    } else if (mode == M_RECONCILE) {
        velstatus_op_progress p = running();
        velstatus_plugin_client c;
        velstatus_reconcile_options o;
        velstatus_policy pol = velstatus_policy_velero();
        velstatus_reconcile_result *r;
        size_t n = velstatus_oplist_count(l);
        velstatus_plugin_client_init(&c, sizeof c);
        c.userdata = &p;
        c.progress = answer;
        velstatus_reconcile_options_init(&o, sizeof o);
        o.now_ns = INT64_C(1714563600) * 1000000000;
        o.timeout_ns = INT64_C(4) * 3600 * 1000000000;
        t0 = now_s();
        velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL);
        t1 = now_s();
        out[0] = (t1 - t0) * 1e9 / (double)n;
        velstatus_reconcile_result_free(r);
        t0 = now_s();
        velstatus_oplist_reconcile(&r, l, &c, &o, &pol, NULL);
        t1 = now_s();
        out[1] = (t1 - t0) * 1e9 / (double)n;
        velstatus_reconcile_result_free(r);
    } else if (mode == M_STEP) {
        velstatus_op_progress p = running();
        velstatus_policy pol = velstatus_policy_velero();
        size_t n = velstatus_oplist_count(l);
        uint32_t f;
        int64_t now = INT64_C(1714563600) * 1000000000;
        for (size_t i = 0; i < n; i++) /* first pass: the changes */
            velstatus_oplist_step(&f, NULL, NULL, l, i, &p, now, INT64_C(14400000000000), &pol, NULL);
        t0 = now_s();
        for (size_t i = 0; i < n; i++)
            velstatus_oplist_step(&f, NULL, NULL, l, i, &p, now, INT64_C(14400000000000), &pol, NULL);
        t1 = now_s();
        out[0] = (t1 - t0) * 1e9 / (double)n;
        /* the same on the first 1,000 records, 100 times: cache-resident */
        {
            size_t m = n < 1000 ? n : 1000;
            t0 = now_s();
            for (int rep = 0; rep < 100; rep++)
                for (size_t i = 0; i < m; i++)
                    velstatus_oplist_step(&f, NULL, NULL, l, i, &p, now, INT64_C(14400000000000), &pol, NULL);
            t1 = now_s();
            out[1] = (t1 - t0) * 1e9 / (double)(m * 100);
        }
    }
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of RUNS child runs: times[3] and the median peak RSS in MB. */
static void run(int mode, int runs, double med[3], double *rss_mb)
{
    double v[3][64], rss[64];
    for (int k = 0; k < runs; k++) {
        int fds[2];
        pid_t pid;
        struct rusage ru;
        int status;
        double out[3];
        if (pipe(fds) != 0) {
            perror("pipe");
            exit(2);
        }
        pid = fork();
        if (pid == 0) {
            close(fds[0]);
            measure(mode, out);
            if (write(fds[1], out, sizeof out) != (ssize_t)sizeof out)
                _exit(3);
            _exit(0);
        }
        close(fds[1]);
        if (read(fds[0], out, sizeof out) != (ssize_t)sizeof out) {
            fprintf(stderr, "child failed\n");
            exit(2);
        }
        close(fds[0]);
        wait4(pid, &status, 0, &ru);
        for (int j = 0; j < 3; j++)
            v[j][k] = out[j];
        rss[k] = (double)ru.ru_maxrss / 1024.0;
    }
    for (int j = 0; j < 3; j++) {
        qsort(v[j], (size_t)runs, sizeof(double), cmp_double);
        med[j] = v[j][runs / 2];
    }
    qsort(rss, (size_t)runs, sizeof(double), cmp_double);
    *rss_mb = rss[runs / 2];
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    double m[6][3], rss[6];
    size_t records = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_operations ITEMOPERATIONS.json [RUNS]\n");
        return 2;
    }
    if (runs < 1 || runs > 64)
        runs = 5;
    read_input(argv[1]);
    {
        velstatus_ctx *ctx;
        velstatus_oplist *l;
        velstatus_ctx_new(&ctx, NULL, NULL);
        if (velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, input, input_len, NULL) != VELSTATUS_OK) {
            fprintf(stderr, "%s: not an itemoperations file\n", argv[1]);
            return 2;
        }
        records = velstatus_oplist_count(l);
        velstatus_oplist_free(l);
        velstatus_ctx_free(ctx);
    }
    for (int mode = M_READ; mode <= M_STEP; mode++)
        run(mode, runs, m[mode], &rss[mode]);
    printf("libvelstatus %s, %s: %zu records, %.1f MB; medians of %d runs, each in a fresh process\n\n",
           velstatus_version_string(), argv[1], records, (double)input_len / 1e6, runs);
    printf("%-52s %10s %9s %12s\n", "path", "time", "vs DOM", "peak RSS");
    printf("%-52s %10s %9s %9.0f MB\n", "read the file only (baseline)", "-", "-", rss[M_READ]);
    printf("%-52s %8.3f s %8.2fx %9.0f MB\n", "jansson whole-file DOM (json_loadb)", m[M_DOM][0], 1.0, rss[M_DOM]);
    printf("%-52s %8.3f s %8.2fx %9.0f MB\n", "velstatus_oplist_from_json (record at a time)", m[M_DECODE][0],
           m[M_DECODE][0] / m[M_DOM][0], rss[M_DECODE]);
    printf("%-52s %8.3f s %8.2fx %9.0f MB  (byte-identical: %s)\n", "velstatus_oplist_to_json (after decode)",
           m[M_ENCODE][1], m[M_ENCODE][1] / m[M_DOM][0], rss[M_ENCODE], m[M_ENCODE][2] != 0 ? "yes" : "NO");
    printf("%-52s %7.1f ns/op\n", "reconcile, first pass (host client, Velero preset)", m[M_RECONCILE][0]);
    printf("%-52s %7.1f ns/op\n", "reconcile, steady pass (nothing changes)", m[M_RECONCILE][1]);
    printf("%-52s %7.1f ns/op   (%.2f%% of decode per op)\n", "velstatus_oplist_step alone, steady, whole list",
           m[M_STEP][0], 100.0 * m[M_STEP][0] / (m[M_DECODE][0] * 1e9 / (double)records));
    printf("%-52s %7.1f ns/op\n", "velstatus_oplist_step alone, 1,000 records (in cache)", m[M_STEP][1]);
    free(input);
    return 0;
}
