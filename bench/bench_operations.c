/* SPDX-License-Identifier: Apache-2.0 */
/* libvelstatus's side of `make bench` (bench/bench_compare.c runs it, one
 * fresh process per measurement, alternating with the Go peer).
 *
 *   bench_operations decode|loop|encode FILE   "key value" lines, CPU time of
 *                                              the path alone
 *   bench_operations job FILE                  the whole job, output on stdout
 *   bench_operations rate FILE REPS            records per CPU second of
 *                                              decode + reconcile + encode
 *   bench_operations tracker NBSL EVENTS [in-order]  ns per upsert at NBSL
 *   bench_operations floor NBSL EVENTS [in-order]    ns per random touch of one line of NBSL
 *                                              BSLs (random BSLs, or in order)
 *   bench_operations memory NBSL               bytes per BSL in a set and in a
 *                                              tracker
 *   bench_operations upsert STREAM             ns per upsert of each event of
 *                                              a watch stream, in process
 *
 * Times are CPU times (CLOCK_PROCESS_CPUTIME_ID: other load on the machine
 * does not count); the file is read before the clock starts, except in
 * `job`, which is the whole process (the caller measures it with
 * getrusage). The decision loop is velstatus_oplist_reconcile() with the
 * fake plugin of bench/fake_plugin.h, the Go peer's twin. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <time.h>
#include <sys/resource.h>
#include <velstatus.h>

#include "fake_plugin.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_operations: %s\n", what);
    exit(2);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    size_t n = 0, cap = 0, got;
    if (!f)
        die("cannot open the input");
    do {
        if (cap - n < 65536) {
            cap = cap ? cap * 2 : 1 << 20;
            p = realloc(p, cap);
            if (!p)
                die("out of memory");
        }
        got = fread(p + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return p;
}

/* The context's allocator counts its calls (the steady step must make
 * none) and the bytes its live blocks hold, as malloc rounds them. */
static unsigned long allocs;
static size_t live_bytes;
static void *count_alloc(void *ud, size_t n)
{
    void *p = malloc(n);
    (void)ud;
    allocs++;
    live_bytes += p ? malloc_usable_size(p) : 0;
    return p;
}
static void *count_realloc(void *ud, void *p, size_t n)
{
    size_t was = p ? malloc_usable_size(p) : 0;
    void *q = realloc(p, n);
    (void)ud;
    allocs++;
    if (q)
        live_bytes += malloc_usable_size(q) - was;
    return q;
}
static void count_free(void *ud, void *p)
{
    (void)ud;
    live_bytes -= p ? malloc_usable_size(p) : 0;
    free(p);
}

static velstatus_ctx *new_ctx(void)
{
    velstatus_allocator a;
    velstatus_ctx *ctx;
    velstatus_allocator_init(&a, sizeof(a));
    a.alloc_fn = count_alloc;
    a.realloc_fn = count_realloc;
    a.free_fn = count_free;
    if (velstatus_ctx_new(&ctx, &a, NULL) != VELSTATUS_OK)
        die("no context");
    return ctx;
}

static velstatus_oplist *decode(velstatus_ctx *ctx, const char *p, size_t n)
{
    velstatus_oplist *l;
    velstatus_error err;
    if (velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, p, n, &err) != VELSTATUS_OK)
        die(err.message);
    return l;
}

/* The steady figure is the mean of this many passes after the first (as
 * go-peer's): one pass of 100,000 operations is a few milliseconds of CPU,
 * too short a window on a shared machine. */
#define VS_BENCH_STEADY_PASSES 10

/* One reconcile pass; its CPU ns per operation. */
static double reconcile_ns(velstatus_oplist *l, const velstatus_policy *pol)
{
    velstatus_op_progress p = vs_bench_answer();
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r;
    double t0, t1;
    vs_bench_client(&c, &o, &p);
    t0 = cpu_s();
    if (velstatus_oplist_reconcile(&r, l, &c, &o, pol, NULL) != VELSTATUS_OK)
        die("reconcile failed");
    t1 = cpu_s();
    velstatus_reconcile_result_free(r);
    return (t1 - t0) * 1e9 / (double)velstatus_oplist_count(l);
}

/* A steady pass of velstatus_oplist_step alone: ns per operation, and the
 * allocations it made. */
static void steady_step(velstatus_oplist *l, const velstatus_policy *pol)
{
    velstatus_op_progress p = vs_bench_answer();
    size_t i, n = velstatus_oplist_count(l);
    unsigned long before = allocs;
    uint32_t f;
    double t0 = cpu_s(), t1;
    for (i = 0; i < n; i++)
        velstatus_oplist_step(&f, NULL, NULL, l, i, &p, vs_bench_now, vs_bench_timeout, pol, NULL);
    t1 = cpu_s();
    printf("step_steady_ns %.3f\nstep_steady_allocs %lu\n", (t1 - t0) * 1e9 / (double)n, allocs - before);
}

static int put_stdout(void *ud, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ud) == len ? 0 : -1;
}

#if defined(VELSTATUS_DECODER_H)
/* The file fed to the streaming decoder 64 KiB at a time: the input is
 * never held whole. */
static velstatus_oplist *job_decode(velstatus_ctx *ctx, const char *path)
{
    static char chunk[65536];
    velstatus_oplist_decoder *d;
    velstatus_oplist *l;
    velstatus_error err;
    size_t got;
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open the input");
    if (velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err) != VELSTATUS_OK)
        die(err.message);
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
        if (velstatus_oplist_decoder_feed(d, chunk, got, &err) != VELSTATUS_OK)
            die(err.message);
    fclose(f);
    if (velstatus_oplist_decoder_finish(&l, d, &err) != VELSTATUS_OK)
        die(err.message);
    velstatus_oplist_decoder_free(d);
    return l;
}
#else
/* Before the streaming decoder: the whole file, then one decode. */
static velstatus_oplist *job_decode(velstatus_ctx *ctx, const char *path)
{
    size_t n;
    char *p = read_file(path, &n);
    velstatus_oplist *l = decode(ctx, p, n);
    free(p);
    return l;
}
#endif

/* decode → one reconcile pass → encode to stdout, as a host's job does. */
static void job(const char *path)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol;
    velstatus_policy_init(&pol, sizeof(pol), VELSTATUS_PRESET_VELERO, NULL);
    velstatus_oplist *l = job_decode(ctx, path);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
    (void)reconcile_ns(l, &pol);
    if (velstatus_oplist_write_json(l, put_stdout, stdout, NULL) != VELSTATUS_OK || fflush(stdout) != 0)
        die("cannot write the list");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}

static void codec(const char *mode, const char *path)
{
    size_t n;
    char *p = read_file(path, &n);
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol;
    velstatus_policy_init(&pol, sizeof(pol), VELSTATUS_PRESET_VELERO, NULL);
    double t0 = cpu_s(), t1;
    velstatus_oplist *l = decode(ctx, p, n);
    t1 = cpu_s();
    printf("decode_s %.6f\nrecords %zu\n", t1 - t0, velstatus_oplist_count(l));
    if (strcmp(mode, "loop") == 0) {
        double steady = 0;
        printf("loop_first_ns %.3f\n", reconcile_ns(l, &pol));
        for (int k = 0; k < VS_BENCH_STEADY_PASSES; k++)
            steady += reconcile_ns(l, &pol);
        printf("loop_steady_ns %.3f\n", steady / VS_BENCH_STEADY_PASSES);
        steady_step(l, &pol);
    } else if (strcmp(mode, "encode") == 0) {
        char *js;
        size_t jn;
        t0 = cpu_s();
        if (velstatus_oplist_to_json(&js, &jn, l, NULL) != VELSTATUS_OK)
            die("encode failed");
        t1 = cpu_s();
        printf("encode_s %.6f\nidentical %d\n", t1 - t0, jn == n && memcmp(js, p, n) == 0);
        velstatus_free(ctx, js);
    }
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
    free(p);
}

/* REPS times decode + reconcile + encode (in memory): records per CPU second. */
static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* One decode + reconcile + encode of the file in memory; its record count. */
static size_t rate_pass(velstatus_ctx *ctx, const char *p, size_t n, const velstatus_policy *pol)
{
    velstatus_oplist *l = decode(ctx, p, n);
    char *js;
    size_t jn, records;
    (void)reconcile_ns(l, pol);
    if (velstatus_oplist_to_json(&js, &jn, l, NULL) != VELSTATUS_OK)
        die("encode failed");
    records = velstatus_oplist_count(l);
    velstatus_free(ctx, js);
    velstatus_oplist_free(l);
    return records;
}

/* REPS passes, timed, after one untimed pass: every size's timed passes
 * then get their memory as a pass after another does (pages the process
 * just gave back), where the first pass of a process takes pages the
 * system has not handed out for a while, which on the VM costs up to three
 * times as much per page (bench/README.md, "Linearity"). Prints the rate
 * and the page faults of the timed passes per record. */
static void rate(const char *path, long reps)
{
    size_t n, records = 0;
    char *p = read_file(path, &n);
    velstatus_ctx *ctx = new_ctx();
    velstatus_policy pol;
    struct rusage r0, r1;
    velstatus_policy_init(&pol, sizeof(pol), VELSTATUS_PRESET_VELERO, NULL);
    (void)rate_pass(ctx, p, n, &pol);
    getrusage(RUSAGE_SELF, &r0);
    double t0 = cpu_s();
    for (long k = 0; k < reps; k++)
        records += rate_pass(ctx, p, n, &pol);
    double t = cpu_s() - t0;
    getrusage(RUSAGE_SELF, &r1);
    printf("rate_rps %.0f\nrate_faults_per_record %.3f\nrate_sys_share %.3f\n", (double)records / t,
           (double)(r1.ru_minflt - r0.ru_minflt + r1.ru_majflt - r0.ru_majflt) / (double)(records ? records : 1),
           tv_s(&r1.ru_stime) - tv_s(&r0.ru_stime) > 0 ? (tv_s(&r1.ru_stime) - tv_s(&r0.ru_stime)) / t : 0.0);
    velstatus_ctx_free(ctx);
    free(p);
}

static velstatus_server_tracker *new_tracker(velstatus_ctx *ctx)
{
    velstatus_server_tracker *t;
    if (velstatus_server_tracker_new(&t, ctx, NULL, NULL) != VELSTATUS_OK)
        die("no tracker");
    return t;
}

/* The memory floor under the tracker figure: EVENTS read-modify-writes of
 * one 64-byte line out of NBSL, picked at random (or in order) with the
 * next pick depending on the line just read, so that, as for an upsert,
 * which is too long for the processor to run two of at once, each touch
 * waits for its line. No table can touch less per event than one line of
 * its entry, so the difference between this at 100,000 and at 1,000 lines
 * is the least an event can cost more at 100,000 BSLs on this machine. */
static void floor_lines(long nbsl, long events, int in_order)
{
    typedef struct {
        unsigned long long v[8];
    } line;
    line *a = aligned_alloc(64, (size_t)nbsl * sizeof(line));
    unsigned long long rng = 0x9E3779B97F4A7C15ull, sum = 0;
    double t0, t1;
    if (!a)
        die("out of memory");
    memset(a, 0, (size_t)nbsl * sizeof(line));
    t0 = cpu_s();
    for (long k = 0; k < events; k++) {
        long i;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        i = in_order ? (long)((k + sum % 2) % nbsl) : (long)((rng ^ (sum & 1)) % (unsigned long long)nbsl);
        sum += a[i].v[0]++;
    }
    t1 = cpu_s();
    printf("floor_ns %.3f\nchecksum %llu\n", (t1 - t0) * 1e9 / (double)events, sum);
    free(a);
}

/* Writes "bsl-NNNNNN" (10 bytes and a NUL) for i into name: the name of
 * BSL i, made afresh for each event. */
static void bsl_name(char *name, long i)
{
    memcpy(name, "bsl-", 4);
    for (int d = 9; d >= 4; d--, i /= 10)
        name[d] = (char)('0' + i % 10);
    name[10] = '\0';
}

/* NBSL BSLs, then EVENTS upserts (velstatus_server_tracker_upsert), the
 * phase flipping every 1,000 events: of BSLs picked at random, or in the
 * order of the list (a relist replays it so) when `in_order`. Each event's
 * record is written into the same small buffer, as a decoder hands over a
 * freshly decoded record: the caller's bytes are in cache, and a miss is
 * the tracker's own (reading each name from an array of 100,000 would add
 * a miss of the harness's, which the floor does not have). */
static void tracker(long nbsl, long events, int in_order)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_server_tracker *t = new_tracker(ctx);
    char name[16];
    velstatus_bsl_record r;
    unsigned long long rng = 0x9E3779B97F4A7C15ull;
    double t0, t1;
    velstatus_bsl_record_init(&r, sizeof(r));
    r.name = name;
    r.name_len = 10;
    r.has_validated = 1;
    r.validated_ns = vs_bench_now;
    for (long i = 0; i < nbsl; i++) {
        bsl_name(name, i % 1000000);
        r.phase = "Available";
        r.phase_len = 9;
        r.is_default = i == 0;
        if (velstatus_server_tracker_upsert(t, NULL, &r, NULL) != VELSTATUS_OK)
            die("upsert failed");
    }
    t0 = cpu_s();
    for (long k = 0; k < events; k++) {
        long i;
        int up = (k / 1000) % 2 == 0;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        i = in_order ? k % nbsl : (long)(rng % (unsigned long long)nbsl);
        bsl_name(name, i % 1000000);
        r.is_default = i == 0;
        r.phase = up ? "Available" : "Unavailable";
        r.phase_len = up ? 9 : 11;
        if (velstatus_server_tracker_upsert(t, NULL, &r, NULL) != VELSTATUS_OK)
            die("upsert failed");
    }
    t1 = cpu_s();
    printf("tracker_ns %.3f\n", (t1 - t0) * 1e9 / (double)events);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}

/* The memory of NBSL BSLs (as tests/watch-stream.py writes them: name,
 * namespace, provider, bucket, phase, two times), in bytes per BSL as the
 * allocator holds them: in a set (velstatus_bsl_set_from_json of a List)
 * and in a tracker (each object upserted). The texts a set keeps are
 * printed apart: a set copies every text, a tracker only a long name. */
static void memory(long nbsl)
{
    velstatus_ctx *ctx = new_ctx();
    velstatus_server_tracker *t = new_tracker(ctx);
    velstatus_bsl_set *set;
    velstatus_error err;
    size_t cap = (size_t)nbsl * 400 + 64, n = 0, texts = 0, base;
    char *js = malloc(cap), name[16];
    if (!js)
        die("out of memory");
    n += (size_t)snprintf(js, cap, "{\"kind\":\"List\",\"items\":[");
    for (long i = 0; i < nbsl; i++) {
        size_t at = n;
        bsl_name(name, i % 1000000);
        n += (size_t)snprintf(js + n, cap - n,
                              "%s{\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":\"%s\",\"namespace\":"
                              "\"velero\",\"creationTimestamp\":\"2026-11-30T12:00:00Z\"},\"spec\":{\"default\":%s,"
                              "\"provider\":\"aws\",\"objectStorage\":{\"bucket\":\"b-%s\"}},\"status\":{\"phase\":"
                              "\"Available\",\"lastValidationTime\":\"2026-11-30T12:59:00Z\"}}",
                              i ? "," : "", name, i ? "false" : "true", name);
        texts += 10 + 6 + 3 + 12 + 9 + 7; /* name, namespace, provider, bucket, phase + the NULs of all 7 */
        base = n;
        if (velstatus_server_tracker_upsert_json(t, NULL, js + at + (i ? 1 : 0), base - at - (i ? 1 : 0), &err) !=
            VELSTATUS_OK)
            die(err.message);
    }
    n += (size_t)snprintf(js + n, cap - n, "]}");
    base = live_bytes;
    if (velstatus_bsl_set_from_json(&set, ctx, js, n, &err) != VELSTATUS_OK)
        die(err.message);
    printf("set_bytes_per_bsl %.1f\nset_text_bytes_per_bsl %.1f\n", (double)(live_bytes - base) / (double)nbsl,
           (double)texts / (double)nbsl);
    velstatus_bsl_set_free(set);
    base = live_bytes;
    velstatus_server_tracker_free(t);
    printf("tracker_bytes_per_bsl %.1f\n", (double)(base - live_bytes) / (double)nbsl);
    velstatus_ctx_free(ctx);
    free(js);
}

/* Where the event at p ends (after its closing brace): the end of its line
 * when the line is the whole event (compact: tests/watch-stream.py bulk),
 * else the first "\n}" (kubectl's indented form closes a top-level object
 * in column 0 and indents every nested one). */
static char *event_end(char *p, char *end)
{
    char *nl = memchr(p, '\n', (size_t)(end - p)), *close;
    if (!nl)
        return end;
    if (nl > p && nl[-1] == '}')
        return nl;
    close = memmem(nl, (size_t)(end - nl), "\n}", 2);
    return close ? close + 2 : end;
}

/* The objects of a watch stream (compact, one {"type":..,"object":{..}} a
 * line, or indented as kubectl writes it), upserted in process: the bare
 * tracker cost of the events `velstatus server-status --watch` reads. The
 * objects are found before the clock starts, so only the upserts are timed. */
static void upsert(const char *path)
{
    size_t n, events = 0, cap = 1024;
    char *p = read_file(path, &n), *ev = p, *end = p + n;
    velstatus_ctx *ctx = new_ctx();
    velstatus_server_tracker *t = new_tracker(ctx);
    struct obj {
        const char *at;
        size_t len;
    } *objs = malloc(cap * sizeof *objs);
    double t0, t1;
    while (objs && ev < end) {
        char *e = event_end(ev, end), *obj = memmem(ev, (size_t)(e - ev), "\"object\":", 9);
        if (obj && !memmem(ev, (size_t)(e - ev), "\"ERROR\"", 7)) {
            if (events == cap && !(objs = realloc(objs, (cap *= 2) * sizeof *objs)))
                break;
            objs[events].at = obj + 9; /* the object runs to the event's closing brace */
            objs[events++].len = (size_t)(e - 1 - (obj + 9));
        }
        ev = e + 1;
    }
    if (!objs)
        die("out of memory");
    t0 = cpu_s();
    for (size_t i = 0; i < events; i++)
        if (velstatus_server_tracker_upsert_json(t, NULL, objs[i].at, objs[i].len, NULL) != VELSTATUS_OK)
            die("upsert failed");
    t1 = cpu_s();
    printf("upsert_ns %.3f\nevents %zu\n", (t1 - t0) * 1e9 / (double)events, events);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
    free(objs);
    free(p);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (argc == 3 && (strcmp(mode, "decode") == 0 || strcmp(mode, "loop") == 0 || strcmp(mode, "encode") == 0))
        codec(mode, argv[2]);
    else if (argc == 3 && strcmp(mode, "job") == 0)
        job(argv[2]);
    else if (argc == 4 && strcmp(mode, "rate") == 0)
        rate(argv[2], atol(argv[3]));
    else if ((argc == 4 || argc == 5) && strcmp(mode, "tracker") == 0 && atol(argv[2]) > 0)
        tracker(atol(argv[2]), atol(argv[3]), argc == 5 && strcmp(argv[4], "in-order") == 0);
    else if ((argc == 4 || argc == 5) && strcmp(mode, "floor") == 0 && atol(argv[2]) > 0)
        floor_lines(atol(argv[2]), atol(argv[3]), argc == 5 && strcmp(argv[4], "in-order") == 0);
    else if (argc == 3 && strcmp(mode, "memory") == 0 && atol(argv[2]) > 0)
        memory(atol(argv[2]));
    else if (argc == 3 && strcmp(mode, "upsert") == 0)
        upsert(argv[2]);
    else {
        fprintf(stderr, "usage: bench_operations decode|loop|encode|job FILE | rate FILE REPS | tracker NBSL EVENTS"
                        " [in-order] | floor NBSL EVENTS [in-order] | memory NBSL | upsert STREAM\n");
        return 2;
    }
    return 0;
}
