/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus backoff: the sleeps of a retry loop (client-go retry.OnError over
 * a wait.Backoff) when every attempt fails retriably. The tool owns the
 * randomness for jitter (a seeded splitmix64); the library never draws. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "backoff";

static const cli_usage usage = {
    "backoff", NULL,
    "Prints the sleeps that client-go's retry.OnError takes over a wait.Backoff when every\n"
    "attempt fails retriably (doc/velero-behaviour.md §4.4, §4.5), the attempts it makes, the\n"
    "total sleep, and whether the last sleep buys no attempt (the cap ended the loop right\n"
    "after it). Give either --velero-cap C [--velero-version X.Y], Velero's CapBackoff(C)\n"
    "(10ms, x5, MaxInt steps, cap C; a negative C is 0; Velero's jitter 0.1 unless --jitter\n"
    "is given; Velero's default C is 10m; before 1.15 Velero sent every status patch once, so\n"
    "the schedule is one attempt and no sleep, doc/velero-releases.md), or a wait.Backoff\n"
    "spelled out: --duration D --factor F --jitter J --steps N [--cap C] (durations as Go\n"
    "writes them: 10ms, 1h30m). Without --seed the schedule is printed without jitter,\n"
    "labelled so, with each sleep's jittered bounds [sleep, sleep x (1 + jitter)).\n"
    "-o json keys: jitter, jitterDrawn, sleepsNs, sleepsMaxNs (each sleep's exclusive\n"
    "jittered bound; = sleepsNs when drawn), attempts, totalSleepNs (null when the sum does\n"
    "not fit in int64), trailingSleep, truncated. sleepsNs holds the raw Step() values,\n"
    "int64 overflows (negative on amd64) included.\n"
    "\n"
    "Exit status: 0 success, 2 bad input.\n"};

/* splitmix64: a small, well-mixed generator; r = top 53 bits / 2^53 in [0, 1). */
typedef struct rng {
    uint64_t state;
} rng;

static int rng_random(void *ud, double *r)
{
    rng *g = ud;
    uint64_t z = (g->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    *r = (double)(z >> 11) * (1.0 / 9007199254740992.0);
    return 0;
}

static int parse_duration(const char *opt, const char *v, int64_t *out)
{
    velstatus_error err;
    if (velstatus_duration_parse(out, v, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
        return cli_fail(CMD, "%s: %s", opt, err.message);
    return 0;
}

static int parse_double(const char *opt, const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(*out))
        return cli_fail(CMD, "%s must be a finite number, not \"%s\"", opt, v);
    return 0;
}

static int parse_i64(const char *opt, const char *v, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long x;
    errno = 0;
    x = strtoll(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        return cli_fail(CMD, "%s must be an integer in [%lld, %lld], not \"%s\"", opt, (long long)lo, (long long)hi, v);
    *out = (int64_t)x;
    return 0;
}

static int parse_u64(const char *opt, const char *v, uint64_t *out)
{
    char *end;
    unsigned long long x;
    errno = 0;
    if (*v == '-' || *v == '+' || *v == ' ')
        return cli_fail(CMD, "%s must be a non-negative integer, not \"%s\"", opt, v);
    x = strtoull(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE)
        return cli_fail(CMD, "%s must be a non-negative integer, not \"%s\"", opt, v);
    *out = (uint64_t)x;
    return 0;
}

static void print_duration(int64_t ns)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    if (velstatus_duration_format(buf, sizeof(buf), ns, NULL) == VELSTATUS_OK)
        fputs(buf, stdout);
    else
        printf("%lldns", (long long)ns);
}

/* A double in its shortest form of 15 or 17 digits that reads back the same. */
static void print_double(double x)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%.15g", x);
    if (strtod(buf, NULL) != x)
        snprintf(buf, sizeof(buf), "%.17g", x);
    fputs(buf, stdout);
}

/* The exclusive upper bound of a jittered sleep: wait.Jitter(d, j) is
 * d + rand.Float64()*j*d, so each sleep lies in [d, d + j*d). */
static int64_t jitter_bound(int64_t d, double j)
{
    double hi = (double)d + j * (double)d;
    if (d <= 0 || j <= 0)
        return d;
    return hi >= 9223372036854775807.0 ? INT64_MAX : (int64_t)hi;
}

static void print_json(const velstatus_retry_result *r, const velstatus_backoff *b, int drawn)
{
    size_t n = velstatus_retry_result_sleep_count(r);
    int64_t total;
    printf("{\"sleepsNs\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s%lld", i ? "," : "", (long long)velstatus_retry_result_sleep(r, i));
    printf("],\"attempts\":%llu,\"totalSleepNs\":", (unsigned long long)velstatus_retry_result_attempts(r));
    if (velstatus_retry_result_total_sleep(&total, r))
        printf("%lld", (long long)total);
    else
        printf("null");
    printf(",\"trailingSleep\":%s,\"truncated\":%s", velstatus_retry_result_trailing_sleep(r) ? "true" : "false",
           velstatus_retry_result_outcome(r) == VELSTATUS_RETRY_OUTCOME_TRUNCATED ? "true" : "false");
    printf(",\"jitter\":");
    print_double(b->jitter);
    printf(",\"jitterDrawn\":%s,\"sleepsMaxNs\":[", drawn && b->jitter > 0 ? "true" : "false");
    for (size_t i = 0; i < n; i++) {
        int64_t d = velstatus_retry_result_sleep(r, i);
        printf("%s%lld", i ? "," : "", (long long)(drawn ? d : jitter_bound(d, b->jitter)));
    }
    printf("]}\n");
}

static void print_text(const velstatus_retry_result *r, const velstatus_backoff *b, int drawn)
{
    int bounds = !drawn && b->jitter > 0;
    size_t n = velstatus_retry_result_sleep_count(r);
    uint64_t attempts = velstatus_retry_result_attempts(r);
    int truncated = velstatus_retry_result_outcome(r) == VELSTATUS_RETRY_OUTCOME_TRUNCATED;
    int trailing = velstatus_retry_result_trailing_sleep(r);
    int64_t total;
    printf("backoff: duration ");
    print_duration(b->duration_ns);
    printf(", factor ");
    print_double(b->factor);
    printf(", jitter ");
    print_double(b->jitter);
    printf(", steps %lld, cap ", (long long)b->steps);
    print_duration(b->cap_ns);
    printf("\n");
    if (bounds) {
        printf("schedule without jitter; each sleep is drawn from [sleep, sleep x ");
        print_double(1 + b->jitter);
        printf(") (use --seed to draw)\n");
    } else if (drawn && b->jitter > 0) {
        printf("schedule with jitter drawn from --seed\n");
    }
    if (attempts == 0)
        printf("no attempt: steps <= 0, so retry.OnError returns nil at once\n");
    for (size_t i = 0; i < n; i++) {
        printf("attempt %zu fails, sleep ", i + 1);
        print_duration(velstatus_retry_result_sleep(r, i));
        if (bounds) {
            printf(" (jittered: ");
            print_duration(velstatus_retry_result_sleep(r, i));
            printf(" to ");
            print_duration(jitter_bound(velstatus_retry_result_sleep(r, i), b->jitter));
            printf(")");
        }
        if (trailing && i + 1 == n)
            printf(" (wasted: the cap ended the retries, no attempt follows)");
        printf("\n");
    }
    if (!trailing && !truncated && attempts > n)
        printf("attempt %llu fails: no steps left, the last error is returned\n", (unsigned long long)attempts);
    if (truncated)
        printf("... cut after %zu sleeps (--max-steps); the schedule goes on\n", n);
    printf("attempts: %llu%s\n", (unsigned long long)attempts, truncated ? " (before the cut)" : "");
    printf("total sleep%s: ", bounds ? " without jitter" : "");
    if (velstatus_retry_result_total_sleep(&total, r)) {
        print_duration(total);
        printf(" (%lld ns)\n", (long long)total);
    } else {
        printf("does not fit in int64\n");
    }
    printf("trailing sleep: %s\n", trailing ? "yes" : "no");
}

int cmd_backoff(int argc, char **argv)
{
    const char *velero_cap = NULL, *duration = NULL, *factor = NULL, *jitter = NULL, *steps = NULL, *cap = NULL;
    const char *seed_s = NULL, *max_s = NULL, *fmt_s = "text", *version_s = NULL;
    velstatus_policy pol;
    int major, minor;
    velstatus_backoff b;
    velstatus_retry_host host;
    velstatus_retry_result *res = NULL;
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    cli_format fmt;
    uint64_t max_steps = 60;
    rng g;
    {
        const cli_opt opts[] = {
            CLI_VAL("--velero-cap", 0, &velero_cap, "DURATION", "Velero's CapBackoff(DURATION)"),
            CLI_OPT_VELERO_VERSION(&version_s),
            CLI_VAL("--duration", 0, &duration, "D", "a wait.Backoff's first sleep"),
            CLI_VAL("--factor", 0, &factor, "F", "its factor"),
            CLI_VAL("--jitter", 0, &jitter, "J", "its jitter"),
            CLI_VAL("--steps", 0, &steps, "N", "its steps"),
            CLI_VAL("--cap", 0, &cap, "C", "its cap (optional)"),
            CLI_VAL("--seed", 0, &seed_s, "N", "draw the jitter from a generator seeded with N (reproducible)"),
            CLI_VAL("--max-steps", 0, &max_s, "N", "print at most N sleeps (default 60; more: \"truncated\": true)"),
            CLI_OPT_OUTPUT(&fmt_s)};
        const char *pos[1];
        int npos, r = cli_parse(&usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 0, &npos);
        if (r != 0)
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (cli_parse_format(CMD, fmt_s, &fmt) != 0 ||
        cli_policy(CMD, NULL, "velero", version_s, &pol, &major, &minor) != 0)
        return CLI_BAD_INPUT;
    if (version_s && !velero_cap)
        return cli_fail(CMD, "--velero-version goes with --velero-cap (a spelled-out backoff is no Velero release's)");

    if (velero_cap) {
        int64_t c;
        if (duration || factor || steps || cap)
            return cli_fail(CMD, "--velero-cap cannot be combined with --duration, --factor, --steps or --cap");
        if (parse_duration("--velero-cap", velero_cap, &c))
            return CLI_BAD_INPUT;
        /* jitter 0.1, as Velero's CapBackoff */
        velstatus_backoff_init_preset(&b, sizeof(b), VELSTATUS_BACKOFF_VELERO_CAP, c, NULL);
        if (jitter && parse_double("--jitter", jitter, &b.jitter))
            return CLI_BAD_INPUT;
        if (!pol.status_patch_retries) /* one attempt: ExponentialBackoff with Steps 1 never sleeps */
            b.steps = 1;
    } else {
        if (!duration || !factor || !jitter || !steps)
            return cli_fail(CMD,
                            "give --velero-cap DURATION, or all of --duration, --factor, --jitter and --steps "
                            "(missing %s)",
                            !duration ? "--duration"
                            : !factor ? "--factor"
                            : !jitter ? "--jitter"
                                      : "--steps");
        velstatus_backoff_init(&b, sizeof(b));
        if (parse_duration("--duration", duration, &b.duration_ns) || parse_double("--factor", factor, &b.factor) ||
            parse_double("--jitter", jitter, &b.jitter) ||
            parse_i64("--steps", steps, INT64_MIN, INT64_MAX, &b.steps) ||
            (cap && parse_duration("--cap", cap, &b.cap_ns)))
            return CLI_BAD_INPUT;
    }
    if (max_s) {
        int64_t m;
        if (parse_i64("--max-steps", max_s, 0, 1000000, &m))
            return CLI_BAD_INPUT;
        max_steps = (uint64_t)m;
    }
    /* Jitter is drawn only with --seed; without it the schedule is the
     * unjittered one (random NULL: r = 0), printed with its jittered bounds. */
    if (seed_s && parse_u64("--seed", seed_s, &g.state))
        return CLI_BAD_INPUT;
    velstatus_retry_host_init(&host, sizeof(host));
    host.userdata = &g;
    host.random = seed_s ? rng_random : NULL;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(CMD, "context", &err);
    if (velstatus_backoff_simulate(&res, ctx, &b, max_steps, &host, &err) != VELSTATUS_OK) {
        velstatus_ctx_free(ctx);
        return cli_fail_err(CMD, "backoff", &err);
    }
    if (fmt == CLI_JSON) {
        print_json(res, &b, seed_s != NULL);
    } else {
        if (!pol.status_patch_retries)
            printf("Velero %d.%d sends each status patch once (status patches are retried from Velero 1.15)\n", major,
                   minor);
        print_text(res, &b, seed_s != NULL);
    }
    velstatus_retry_result_free(res);
    velstatus_ctx_free(ctx);
    return CLI_OK;
}
