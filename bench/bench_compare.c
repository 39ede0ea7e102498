/* SPDX-License-Identifier: Apache-2.0 */
/* The table of `make bench`: libvelstatus against Velero's own Go path.
 *
 *   bench_compare LIB PEER FILE RUNS [lin=F1,F2,...] [cli=VELSTATUS stream=S[,S2]]
 *                 [simd=BENCH_SIMDJSON|- floor=BENCH_FLOOR]
 *
 * LIB is bench/bench_operations, PEER bench/go-peer/go-peer (or "-" when
 * there is no Go toolchain: the peer's column is left out). Every
 * measurement is a fresh process; the two sides alternate (the peer first in
 * even runs, the library first in odd ones) and each figure is the median of
 * RUNS. A process's CPU time (user + system) and peak RSS come from
 * wait4()'s rusage, the figures inside a process from its own "key value"
 * lines (CPU time of that path alone).
 *
 * lin=: the files of 1k, 10k, 100k and 1M records, each decoded, reconciled
 * and encoded enough times for a million records, after one untimed pass:
 * records per CPU second, the sizes in turn in each of RUNS rounds (at
 * least 3).
 * cli= and stream=: `velstatus server-status --watch` over watch streams
 * (comma-separated: the compact form, one event a line, and the indented
 * form kubectl writes) against the same events upserted in process, and the tracker's cost per
 * event at 1,000 and 100,000 BSLs. simd= and floor=: the codec table, the
 * library's decode and encode beside simdjson's DOM parse and minify
 * (bench/bench_simdjson, or "-" when configure found no simdjson) and the
 * floors of one pass over the bytes (bench/bench_floor). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXRUNS 64

typedef struct proc {
    char out[4096]; /* its stdout ("key value" lines), unless discarded */
    double cpu_s;   /* user + system */
    double rss_mb;  /* peak RSS */
} proc;

/* Runs argv with stdin from `in` (or inherited) and stdout captured into
 * p->out, or to /dev/null when `discard`. */
static void run(proc *p, char *const argv[], const char *in, int discard)
{
    int fds[2];
    pid_t pid;
    int status;
    struct rusage ru;
    size_t n = 0;
    ssize_t got;
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
    pid = fork();
    if (pid == 0) {
        int fd = discard ? open("/dev/null", O_WRONLY) : fds[1];
        if (in) { /* the CLI: its stdin is the stream, its messages go */
            int ifd = open(in, O_RDONLY);
            if (ifd < 0 || dup2(ifd, 0) < 0 || dup2(fd, 2) < 0)
                _exit(127);
        }
        dup2(fd, 1);
        close(fds[0]);
        execv(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    close(fds[1]);
    while ((got = read(fds[0], p->out + n, sizeof(p->out) - 1 - n)) > 0)
        n += (size_t)got;
    p->out[n] = '\0';
    close(fds[0]);
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 127 ||
        (WEXITSTATUS(status) != 0 && !in)) {
        fprintf(stderr, "bench_compare: %s %s failed\n", argv[0], argv[1]);
        exit(2);
    }
    p->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               (double)ru.ru_stime.tv_usec / 1e6;
    p->rss_mb = (double)ru.ru_maxrss / 1024.0;
}

/* The value of "key" in a process's output; -1 when absent. */
static double val(const proc *p, const char *key)
{
    size_t kl = strlen(key);
    const char *s = p->out;
    while (s && *s) {
        if (strncmp(s, key, kl) == 0 && s[kl] == ' ')
            return atof(s + kl + 1);
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    return -1;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The figures of the main table, per side. */
enum { F_DECODE, F_LOOP1, F_LOOP2, F_ENCODE, F_JOB_CPU, F_JOB_RSS, F_STEP, F_ALLOCS, F_SAME, NF };

static void one_side(double f[NF][MAXRUNS], int k, const char *exe, const char *file)
{
    static const char *const modes[] = {"decode", "loop", "encode", "job"};
    for (int m = 0; m < 4; m++) {
        proc p;
        char *argv[] = {(char *)exe, (char *)modes[m], (char *)file, NULL};
        run(&p, argv, NULL, m == 3);
        if (m == 0)
            f[F_DECODE][k] = val(&p, "decode_s");
        if (m == 1) {
            f[F_LOOP1][k] = val(&p, "loop_first_ns");
            f[F_LOOP2][k] = val(&p, "loop_steady_ns");
            f[F_STEP][k] = val(&p, "step_steady_ns");
            f[F_ALLOCS][k] = val(&p, "step_steady_allocs");
        }
        if (m == 2) {
            f[F_ENCODE][k] = val(&p, "encode_s");
            f[F_SAME][k] = val(&p, "identical");
        }
        if (m == 3) {
            f[F_JOB_CPU][k] = p.cpu_s;
            f[F_JOB_RSS][k] = p.rss_mb;
        }
    }
}

static const char *verdict(double ratio, double goal)
{
    return ratio <= goal ? "met" : "NOT met";
}

/* One row: the peer's figure, ours, ours/peer, and the goal on that ratio. */
static void row(const char *name, const char *unit, double peer, double ours, int have_peer, double goal,
                const char *goal_text)
{
    if (!have_peer) {
        printf("%-34s %12s %12.3f %-5s %8s   %s\n", name, "-", ours, unit, "-", goal_text);
        return;
    }
    printf("%-34s %12.3f %12.3f %-5s %7.2fx   %s: %s\n", name, peer, ours, unit, ours / peer, goal_text,
           verdict(ours / peer, goal));
}

static void main_table(const char *lib, const char *peer, const char *file, int runs)
{
    static double f[2][NF][MAXRUNS];
    double m[2][NF];
    int have_peer = strcmp(peer, "-") != 0;
    for (int k = 0; k < runs; k++) {
        if (have_peer && k % 2 == 0)
            one_side(f[0], k, peer, file);
        one_side(f[1], k, lib, file);
        if (have_peer && k % 2 == 1)
            one_side(f[0], k, peer, file);
    }
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < NF; j++)
            m[s][j] = median(f[s][j], runs);
    printf("%-34s %12s %12s %-5s %8s   %s\n", "figure (CPU time, peak RSS)", "Go peer", "libvelstatus", "", "ratio",
           "goal on the ratio");
    row("decode", "s", m[0][F_DECODE], m[1][F_DECODE], have_peer, 1.0, "<= 1.00x (>= 1.0x Go's speed)");
    row("loop, first pass", "ns/op", m[0][F_LOOP1], m[1][F_LOOP1], have_peer, 0.4, "<= 0.40x");
    row("loop, steady pass", "ns/op", m[0][F_LOOP2], m[1][F_LOOP2], have_peer, 0.15, "<= 0.15x");
    row("encode", "s", m[0][F_ENCODE], m[1][F_ENCODE], have_peer, 1e300, "(none)");
    row("whole job (decode+loop+encode)", "s", m[0][F_JOB_CPU], m[1][F_JOB_CPU], have_peer, 0.2, "<= 0.20x");
    row("whole job, peak RSS", "MB", m[0][F_JOB_RSS], m[1][F_JOB_RSS], have_peer, 0.25, "<= 0.25x");
    printf("%-34s %12s %12.3f %-5s %8s   allocations in the steady step: %.0f (goal 0)\n",
           "velstatus_oplist_step, steady", "-", m[1][F_STEP], "ns/op", "-", m[1][F_ALLOCS]);
    printf("%-34s %12s %12s\n", "encoding byte-identical to input",
           have_peer ? (m[0][F_SAME] == 1 ? "yes" : "NO") : "-", m[1][F_SAME] == 1 ? "yes" : "NO");
}

/* Linearity: `bench_operations rate` at each size (about a million records
 * of passes each, after one untimed pass), the sizes in turn in every round
 * so that the machine's load drifts over all of them alike; the median of
 * the rounds per size. Beside each rate the page faults per record and the
 * system's share of the timed CPU time. */
static void linearity(const char *lib, char *files, int runs)
{
    static double v[8][MAXRUNS], faults[8][MAXRUNS], sys[8][MAXRUNS];
    char *f[8], reps[8][32];
    double rps[8], lo = 0, hi = 0;
    long recs[8];
    int nf = 0;
    printf("\nlinearity: decode + reconcile + encode in process, records per CPU second (median of %d rounds,\n"
           "the sizes in turn; each run times its passes after one untimed pass)\n",
           runs);
    for (char *t = strtok(files, ","); t && nf < 8; t = strtok(NULL, ",")) {
        proc p;
        char *argv[] = {(char *)lib, "decode", t, NULL};
        run(&p, argv, NULL, 0);
        f[nf] = t;
        recs[nf] = (long)val(&p, "records");
        snprintf(reps[nf], sizeof(reps[nf]), "%ld", recs[nf] >= 1000000 ? 1 : 1000000 / (recs[nf] > 0 ? recs[nf] : 1));
        nf++;
    }
    for (int k = 0; k < runs; k++)
        for (int i = 0; i < nf; i++) {
            proc p;
            char *rargv[] = {(char *)lib, "rate", f[i], reps[i], NULL};
            run(&p, rargv, NULL, 0);
            v[i][k] = val(&p, "rate_rps");
            faults[i][k] = val(&p, "rate_faults_per_record");
            sys[i][k] = val(&p, "rate_sys_share");
        }
    for (int i = 0; i < nf; i++) {
        rps[i] = median(v[i], runs);
        lo = i == 0 || rps[i] < lo ? rps[i] : lo;
        hi = i == 0 || rps[i] > hi ? rps[i] : hi;
        printf("  %8ld records: %10.0f records/s  (%.3f page faults per record, system %2.0f%% of the CPU time)\n",
               recs[i], rps[i], median(faults[i], runs), 100 * median(sys[i], runs));
    }
    printf("  slowest/fastest %.2f (goal >= 0.80: within 20%%): %s\n", lo / hi, lo / hi >= 0.8 ? "met" : "NOT met");
}

/* ns per event of the tracker (an upsert, t[0]) and of the floor (one line
 * touched, t[1]) at 1,000 and 100,000 BSLs: in every round the four runs in
 * turn (the floor first in odd rounds), so that the machine's load drifts
 * over both alike; the median of the rounds of each. */
static void per_event(double t[2][2], const char *lib, const char *order, int runs)
{
    static const char *const modes[2] = {"tracker", "floor"};
    double v[2][2][MAXRUNS];
    for (int k = 0; k < runs; k++)
        for (int i = 0; i < 2; i++) {
            int m = k % 2 ? 1 - i : i;
            for (int j = 0; j < 2; j++) {
                proc p;
                char key[32];
                char *a[] = {(char *)lib, (char *)modes[m], j ? "100000" : "1000", "1000000", (char *)order, NULL};
                snprintf(key, sizeof(key), "%s_ns", modes[m]);
                run(&p, a, NULL, 0);
                v[m][j][k] = val(&p, key);
            }
        }
    for (int m = 0; m < 2; m++)
        for (int j = 0; j < 2; j++)
            t[m][j] = median(v[m][j], runs);
}

/* The tracker's ns per upsert at 1,000 and 100,000 BSLs, and beside it the
 * memory floor: one cache line per BSL touched in the same order. The goal
 * (issue 25): the cost at 100,000 within 1.2x of the floor's, the cost at
 * 1,000 plus what one line costs more at 100,000 than at 1,000. */
static void tracker_row(const char *lib, const char *order, int runs)
{
    double m[2][2], *t = m[0], *f = m[1], fl;
    per_event(m, lib, order, runs);
    fl = t[0] + f[1] - f[0];
    printf("  %-9s %8.1f ns at 1,000 BSLs, %8.1f ns at 100,000: %.2fx\n", order[0] ? order : "random", t[0], t[1],
           t[1] / t[0]);
    printf("  %-9s floor: one 64-byte line per event costs %.1f ns at 1,000 BSLs, %.1f at 100,000; an upsert\n"
           "  %-9s touching a single line at 100,000 would cost at least %.2fx of its cost at 1,000 (%.1f ns)\n",
           "", f[0], f[1], "", fl / t[0], fl);
    printf("  %-9s at 100,000 / floor: %.2fx (goal <= 1.2x): %s\n", "", t[1] / fl,
           t[1] / fl <= 1.2 ? "met" : "NOT met");
}

/* Bytes per BSL at 100,000 BSLs: in a set, and in the tracker. */
static void memory_row(const char *lib)
{
    proc p;
    char *a[] = {(char *)lib, "memory", "100000", NULL};
    run(&p, a, NULL, 0);
    printf("  memory at 100,000 BSLs: a set %.0f bytes per BSL (%.0f of them its texts), the tracker %.0f\n",
           val(&p, "set_bytes_per_bsl"), val(&p, "set_text_bytes_per_bsl"), val(&p, "tracker_bytes_per_bsl"));
}

/* The watch path over one stream: the CLI's whole process per event
 * against the same objects upserted in process. */
static void watch_row(const char *lib, const char *cli, const char *stream, int runs)
{
    double w[2][MAXRUNS], up, watch, events = 0;
    for (int k = 0; k < runs; k++) {
        proc p;
        char *a3[] = {(char *)lib, "upsert", (char *)stream, NULL};
        char *a4[] = {(char *)cli, "server-status", "--watch", "--now", "2026-11-30T13:00:00Z", NULL};
        run(&p, a3, NULL, 0);
        w[0][k] = val(&p, "upsert_ns");
        events = val(&p, "events");
        run(&p, a4, stream, 1);
        w[1][k] = p.cpu_s * 1e9 / events;
    }
    up = median(w[0], runs);
    watch = median(w[1], runs);
    printf("  %s, %.0f events\n", stream, events);
    printf("    bare upsert: %8.1f ns/event  %10.0f events/s\n", up, 1e9 / up);
    printf("    CLI watch:   %8.1f ns/event  %10.0f events/s   %.2fx (goal <= 1.5x): %s\n", watch, 1e9 / watch,
           watch / up, watch / up <= 1.5 ? "met" : "NOT met");
}

/* `streams`: the watch streams, comma-separated (compact, then indented). */
static void tracker_and_watch(const char *lib, const char *cli, const char *streams, int runs)
{
    char buf[4096], *s, *save = NULL;
    printf("\nserver-status tracker, velstatus_server_tracker_upsert per event (median of %d)\n", runs);
    tracker_row(lib, "", runs);
    tracker_row(lib, "in-order", runs);
    memory_row(lib);
    printf("\nwatch path: `velstatus server-status --watch` (whole process) vs the same events'\n"
           "objects upserted in process (velstatus_server_tracker_upsert_json)\n");
    snprintf(buf, sizeof buf, "%s", streams);
    for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save))
        watch_row(lib, cli, s, runs);
}

/* ---- the codec table: decode and encode against simdjson and the floors ---- */

/* The codec figures, each the median of RUNS fresh processes. */
enum { C_PARSE, C_MINIFY, C_MEMCHR, C_MEMCPY, C_DECODE, C_ENCODE, C_SAME, NC };

/* `simd` is bench/bench_simdjson or "-"; its kernel's name goes to kernel. */
static void codec_run(double c[NC][MAXRUNS], int k, const char *lib, const char *simd, const char *flo,
                      const char *file, char kernel[32])
{
    proc p;
    char *sp[] = {(char *)simd, "parse", (char *)file, NULL};
    char *sm[] = {(char *)simd, "minify", (char *)file, NULL};
    char *fc[] = {(char *)flo, "memchr", (char *)file, NULL};
    char *fm[] = {(char *)flo, "memcpy", (char *)file, NULL};
    char *ld[] = {(char *)lib, "decode", (char *)file, NULL};
    char *le[] = {(char *)lib, "encode", (char *)file, NULL};
    for (int j = 0; j < 2; j++) {
        if (j == k % 2) { /* simdjson and the floors first in even runs, the library first in odd ones */
            if (strcmp(simd, "-") != 0) {
                const char *kn;
                run(&p, sp, NULL, 0);
                c[C_PARSE][k] = val(&p, "parse_s");
                if ((kn = strstr(p.out, "kernel ")) != NULL)
                    sscanf(kn + 7, "%31s", kernel);
                run(&p, sm, NULL, 0);
                c[C_MINIFY][k] = val(&p, "minify_s");
            }
            run(&p, fc, NULL, 0);
            c[C_MEMCHR][k] = val(&p, "memchr_s");
            run(&p, fm, NULL, 0);
            c[C_MEMCPY][k] = val(&p, "memcpy_s");
        } else {
            run(&p, ld, NULL, 0);
            c[C_DECODE][k] = val(&p, "decode_s");
            run(&p, le, NULL, 0);
            c[C_ENCODE][k] = val(&p, "encode_s");
            c[C_SAME][k] = val(&p, "identical");
        }
    }
}

static void codec_row(const char *name, double t, const char *note)
{
    printf("  %-50s %9.4f s   %s\n", name, t, note);
}

static void codec_ratio(const char *name, double ours, double ref, const char *ref_name)
{
    printf("  %-50s %9.2fx  of %s (goal <= 3x): %s\n", name, ours / ref, ref_name, verdict(ours / ref, 3.0));
}

static void codec_table(const char *lib, const char *simd, const char *flo, const char *file, int runs)
{
    static double c[NC][MAXRUNS];
    double m[NC], fl;
    char kernel[32] = "?", note[64];
    int have = strcmp(simd, "-") != 0;
    for (int k = 0; k < runs; k++)
        codec_run(c, k, lib, simd, flo, file, kernel);
    for (int j = 0; j < NC; j++)
        m[j] = median(c[j], runs);
    printf("\ncodec: the library's decode and encode beside simdjson and one pass over the bytes\n"
           "(CPU time of the call alone, median of %d fresh processes, alternating)\n",
           runs);
    if (have) {
        snprintf(note, sizeof(note), "simdjson %s kernel, fresh parser", kernel);
        codec_row("simdjson DOM parse", m[C_PARSE], note);
        codec_row("simdjson minify (a floor of the encode)", m[C_MINIFY], "into a fresh buffer");
    } else {
        printf("  %-50s %9s     simdjson not available (configure found no libsimdjson-dev)\n",
               "simdjson DOM parse, minify", "-");
    }
    codec_row("floor: memchr for every '\"'", m[C_MEMCHR], "one pass over the bytes, reading");
    codec_row("floor: memcpy of the input", m[C_MEMCPY], "into a fresh buffer");
    codec_row("libvelstatus decode (velstatus_oplist_from_json)", m[C_DECODE], "records, keys, positions");
    codec_row("libvelstatus encode (velstatus_oplist_to_json)", m[C_ENCODE],
              m[C_SAME] == 1 ? "byte-identical to the input: yes" : "byte-identical to the input: NO");
    if (have)
        codec_ratio("decode / simdjson DOM parse", m[C_DECODE], m[C_PARSE], "simdjson's parse");
    else
        printf("  %-50s %9s     simdjson not available: goal decode <= 3x its parse not measured\n",
               "decode / simdjson DOM parse", "-");
    fl = have && m[C_MINIFY] < m[C_MEMCPY] ? m[C_MINIFY] : m[C_MEMCPY];
    codec_ratio("encode / the faster floor", m[C_ENCODE], fl,
                have && m[C_MINIFY] < m[C_MEMCPY] ? "simdjson's minify" : "memcpy");
}

int main(int argc, char **argv)
{
    const char *cli = NULL, *stream = NULL, *simd = NULL, *flo = NULL;
    char *lin = NULL;
    int runs;
    char load[64] = "?";
    FILE *la = fopen("/proc/loadavg", "r");
    if (argc < 5) {
        fprintf(stderr, "usage: bench_compare LIB PEER|- FILE RUNS [lin=F,...] [cli=VELSTATUS stream=S[,S2]]"
                        " [simd=BENCH_SIMDJSON|- floor=BENCH_FLOOR]\n");
        return 2;
    }
    runs = atoi(argv[4]);
    if (runs < 1 || runs > MAXRUNS)
        runs = 5;
    for (int i = 5; i < argc; i++) {
        if (strncmp(argv[i], "lin=", 4) == 0)
            lin = argv[i] + 4;
        else if (strncmp(argv[i], "cli=", 4) == 0)
            cli = argv[i] + 4;
        else if (strncmp(argv[i], "stream=", 7) == 0)
            stream = argv[i] + 7;
        else if (strncmp(argv[i], "simd=", 5) == 0)
            simd = argv[i] + 5;
        else if (strncmp(argv[i], "floor=", 6) == 0)
            flo = argv[i] + 6;
    }
    if (la) {
        if (!fgets(load, sizeof(load), la))
            strcpy(load, "?");
        load[strcspn(load, "\n")] = '\0';
        fclose(la);
    }
    printf("make bench: %s, medians of %d fresh processes, alternating; load average %s\n", argv[3], runs, load);
    if (strcmp(argv[2], "-") == 0)
        printf("(no Go toolchain: `go` was not found, so the Go peer's column is left out)\n");
    printf("\n");
    main_table(argv[1], argv[2], argv[3], runs);
    if (simd && flo)
        codec_table(argv[1], simd, flo, argv[3], runs);
    if (lin)
        linearity(argv[1], lin, runs < 3 ? 3 : runs);
    if (cli && stream)
        tracker_and_watch(argv[1], cli, stream, runs);
    return 0;
}
