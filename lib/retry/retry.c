/* SPDX-License-Identifier: Apache-2.0 */
/* The status-patch retry policy (include/velstatus/retry.h; doc/design.md §6,
 * doc/velero-behaviour.md §4). Behaviour is that of k8s.io/apimachinery
 * wait.Backoff and client-go v0.36.0 retry.OnError, as stated in
 * doc/velero-behaviour.md §4.4 and tests/data/conformance/README-backoff.md;
 * doc/retry.md has the decisions. */
#include "retry/private.h"
#include "common/util_arith.h"
#include "common/util_array.h"

#include <string.h>

/* ---- numeric helpers ---- */

/* 2^63 as a double, exactly. */
#define VS_TWO63 9223372036854775808.0

int64_t velstatus__retry_f2i(double x)
{
    /* Go: time.Duration(float64) is implementation-defined out of range; on
     * amd64 CVTTSD2SI returns the "integer indefinite" 0x8000000000000000 for
     * NaN and for anything outside [-2^63, 2^63). In C the cast would be
     * undefined there, so range-check first (a NaN fails both compares). */
    if (!(x >= -VS_TWO63 && x < VS_TWO63))
        return INT64_MIN;
    return (int64_t)x; /* truncation toward zero, representable */
}

/* wait.Jitter(d, j) with r supplied: d + int64((r * j) * float64(d)). The two
 * multiplications are kept apart in Go's left-to-right order. */
static int64_t jitter_up(int64_t d, double j, double r)
{
    double rj = r * j;
    return velstatus__wrap_add_i64(d, velstatus__retry_f2i(rj * (double)d));
}

/* wait.Backoff.Step() on a validated copy (delay() in backoff.go). */
static int64_t backoff_step(velstatus_backoff *b, double r)
{
    int64_t d = b->duration_ns, next;
    if (b->steps < 1) {
        b->steps = 0;
        return b->jitter > 0 ? jitter_up(d, b->jitter, r) : d;
    }
    b->steps--;
    if (b->factor != 0) {
        next = velstatus__retry_f2i((double)d * b->factor);
        if (b->cap_ns > 0 && next > b->cap_ns) {
            next = b->cap_ns;
            b->steps = 0;
        }
    } else {
        next = d;
    }
    b->duration_ns = next;
    return b->jitter > 0 ? jitter_up(d, b->jitter, r) : d;
}

/* ---- backoff value type ---- */

void velstatus_backoff_init(velstatus_backoff *b, size_t struct_size)
{
    velstatus__sized_init(b, struct_size, NULL, sizeof(*b));
}

/* Fills a preset at this library's size. */
static velstatus_status fill_backoff(velstatus_backoff *b, velstatus_backoff_kind preset, int64_t cap_ns,
                                     velstatus_error *err)
{
    memset(b, 0, sizeof(*b));
    b->struct_size = sizeof(*b);
    b->duration_ns = INT64_C(10000000); /* 10 ms, every preset */
    b->jitter = 0.1;
    switch (preset) {
    case VELSTATUS_BACKOFF_VELERO_CAP:
        /* pkg/client/retry.go CapBackoff: Factor and Jitter come from
         * retry.DefaultBackoff (5.0, 0.1); Steps math.MaxInt; cap < 0 -> 0. */
        b->factor = 5.0;
        b->steps = INT64_MAX;
        b->cap_ns = cap_ns < 0 ? 0 : cap_ns;
        return VELSTATUS_OK;
    case VELSTATUS_BACKOFF_DEFAULT_BACKOFF:
        b->factor = 5.0;
        b->steps = 4;
        return VELSTATUS_OK;
    case VELSTATUS_BACKOFF_DEFAULT_RETRY:
        b->factor = 1.0;
        b->steps = 5;
        return VELSTATUS_OK;
    }
    return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown backoff preset %d", (int)preset);
}

velstatus_status velstatus_backoff_init_preset(velstatus_backoff *b, size_t struct_size, velstatus_backoff_kind preset,
                                               int64_t cap_ns, velstatus_error *err)
{
    velstatus_backoff d;
    if (!b)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "backoff is NULL");
    VS_TRY(fill_backoff(&d, preset, cap_ns, err));
    if (struct_size < VS_BACKOFF_SIZE_V1)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "backoff struct_size is %zu, smaller than %zu", struct_size,
                                    (size_t)VS_BACKOFF_SIZE_V1);
    velstatus__sized_init(b, struct_size, &d, sizeof(d));
    return VELSTATUS_OK;
}

/* ---- the deprecated forms (retry.h says why) ---- */

static velstatus_backoff backoff_value(velstatus_backoff_kind preset, int64_t cap_ns)
{
    velstatus_backoff b;
    (void)fill_backoff(&b, preset, cap_ns, NULL); /* a known preset: cannot fail */
    return b;
}

velstatus_backoff velstatus_backoff_velero_cap(int64_t cap_ns)
{
    return backoff_value(VELSTATUS_BACKOFF_VELERO_CAP, cap_ns);
}

velstatus_backoff velstatus_backoff_default_backoff(void)
{
    return backoff_value(VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0);
}

velstatus_backoff velstatus_backoff_default_retry(void)
{
    return backoff_value(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
}

velstatus_status velstatus_backoff_preset(velstatus_backoff *out, velstatus_backoff_kind preset, int64_t cap_ns,
                                          velstatus_error *err)
{
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    return velstatus_backoff_init_preset(out, sizeof(*out), preset, cap_ns, err);
}

static velstatus_status load_backoff(velstatus_backoff *dst, const velstatus_backoff *src, velstatus_error *err)
{
    if (!src)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "backoff is NULL");
    VS_TRY(velstatus__sized_copy(dst, sizeof(*dst), VS_BACKOFF_SIZE_V1, src, "backoff", err));
    if (dst->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "backoff.flags must be 0");
    return VELSTATUS_OK;
}

static velstatus_status check_r(double r, const char *what, velstatus_error *err)
{
    if (!(r >= 0.0 && r < 1.0))
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "%s must be in [0, 1), got %.17g", what, r);
    return VELSTATUS_OK;
}

velstatus_status velstatus_backoff_step(int64_t *sleep_ns, velstatus_backoff *b, double r, velstatus_error *err)
{
    velstatus_backoff local;
    if (!sleep_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "sleep_ns is NULL");
    VS_TRY(load_backoff(&local, b, err));
    VS_TRY(check_r(r, "r", err));
    *sleep_ns = backoff_step(&local, r);
    /* Write back only the two fields Step() changes: the caller's struct may
     * be larger (a newer header) and is at least v1. */
    b->duration_ns = local.duration_ns;
    b->steps = local.steps;
    return VELSTATUS_OK;
}

/* ---- hardened schedule ---- */

/* The hardened schedule at this library's size; doc/retry.md, "The hardened
 * schedule", gives the reasons. */
static void fill_schedule(velstatus_retry_schedule *s)
{
    memset(s, 0, sizeof(*s));
    s->struct_size = sizeof(*s);
    s->base_ns = INT64_C(100000000); /* 100 ms */
    s->factor = 2.0;
    s->jitter = 0.1;
    s->max_sleep_ns = INT64_C(30000000000); /* 30 s */
    s->max_attempts = 30;
    s->deadline_ns = INT64_C(600000000000); /* 10 min */
}

void velstatus_retry_schedule_init(velstatus_retry_schedule *s, size_t struct_size)
{
    velstatus_retry_schedule h;
    fill_schedule(&h);
    velstatus__sized_init(s, struct_size, &h, sizeof(h));
}

/* Deprecated (retry.h says why). */
velstatus_retry_schedule velstatus_retry_schedule_hardened(void)
{
    velstatus_retry_schedule h;
    fill_schedule(&h);
    return h;
}

static velstatus_status load_schedule(velstatus_retry_schedule *s, const velstatus_retry_schedule *in,
                                      velstatus_error *err)
{
    if (!in) {
        fill_schedule(s);
        return VELSTATUS_OK;
    }
    VS_TRY(velstatus__sized_copy(s, sizeof(*s), VS_RETRY_SCHEDULE_SIZE_V1, in, "schedule", err));
    if (s->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.flags must be 0");
    if (s->base_ns <= 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.base_ns must be > 0, got %lld",
                                    (long long)s->base_ns);
    if (!(s->factor >= 1.0 && s->factor <= 1e300))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.factor must be finite and >= 1, got %g",
                                    s->factor);
    if (!(s->jitter >= 0.0 && s->jitter <= 1.0))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.jitter must be in [0, 1], got %g", s->jitter);
    if (s->max_sleep_ns < s->base_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "schedule.max_sleep_ns must be >= base_ns (%lld), got %lld", (long long)s->base_ns,
                                    (long long)s->max_sleep_ns);
    if (s->max_attempts < 1)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.max_attempts must be >= 1, got %lld",
                                    (long long)s->max_attempts);
    if (s->deadline_ns < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "schedule.deadline_ns must be >= 0, got %lld",
                                    (long long)s->deadline_ns);
    return VELSTATUS_OK;
}

/* ---- host vtable ---- */

void velstatus_retry_host_init(velstatus_retry_host *host, size_t struct_size)
{
    velstatus__sized_init(host, struct_size, NULL, sizeof(*host));
}

static velstatus_status load_host(velstatus_retry_host *h, const velstatus_retry_host *in, int need_attempt,
                                  velstatus_error *err)
{
    if (!in) {
        if (need_attempt)
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "host is NULL");
        velstatus_retry_host_init(h, sizeof(*h));
        return VELSTATUS_OK;
    }
    VS_TRY(velstatus__sized_copy(h, sizeof(*h), VS_RETRY_HOST_SIZE_V1, in, "host", err));
    if (h->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "host.flags must be 0");
    if (need_attempt && !h->attempt)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "host.attempt is NULL");
    return VELSTATUS_OK;
}

/* ---- the result ---- */

struct velstatus_retry_result {
    velstatus_ctx *ctx;
    velstatus_retry_outcome outcome;
    uint64_t attempts;
    int64_t *sleeps;
    size_t nsleeps, cap;
    int64_t total;
    int total_ok;
    int trailing;
    char *err_text; /* NULL: the run returns nil */
    size_t err_len;
    uint64_t err_attempt;
};

void velstatus_retry_result_free(velstatus_retry_result *result)
{
    if (!result)
        return;
    velstatus__free(result->ctx, result->sleeps);
    velstatus__free(result->ctx, result->err_text);
    velstatus__free(result->ctx, result);
}

/* A remembered error: owned text and the attempt it came from. */
typedef struct vs_err {
    char *text;
    size_t len;
    uint64_t attempt;
} vs_err;

/* The state of one run. */
typedef struct vs_run {
    velstatus_ctx *ctx;
    velstatus_retry_host h;
    velstatus_retry_result *res;
    vs_err cur;     /* the error of the latest failed attempt */
    vs_err last_ok; /* the latest retriable one (OnError's lastErr) */
    int classify;   /* consult h.classify */
    int simulate;   /* every attempt fails retriably; no callbacks but random */
    int64_t slept;  /* saturating sum of the sleeps actually waited */
} vs_run;

static void err_free(velstatus_ctx *ctx, vs_err *e)
{
    velstatus__free(ctx, e->text);
    e->text = NULL;
    e->len = 0;
    e->attempt = 0;
}

/* Loads the host (whose attempt callback is required unless this is a dry
 * run) and allocates the result every entry point returns. */
static velstatus_status run_init(vs_run *run, velstatus_ctx *ctx, const velstatus_retry_host *host, int need_attempt,
                                 velstatus_error *err)
{
    memset(run, 0, sizeof(*run));
    VS_TRY(load_host(&run->h, host, need_attempt, err));
    run->ctx = ctx;
    run->res = velstatus__calloc(ctx, 1, sizeof(*run->res));
    if (!run->res)
        return velstatus__error_nomem(err);
    run->res->ctx = ctx;
    run->res->total_ok = 1;
    return VELSTATUS_OK;
}

static void run_cleanup(vs_run *run)
{
    err_free(run->ctx, &run->cur);
    err_free(run->ctx, &run->last_ok);
    velstatus_retry_result_free(run->res);
    run->res = NULL;
}

/* Hands `e` (or nil) to the result as the returned error. */
static void run_set_error(vs_run *run, vs_err *e)
{
    velstatus_retry_result *r = run->res;
    if (e && e->text) {
        r->err_text = e->text;
        r->err_len = e->len;
        r->err_attempt = e->attempt;
        e->text = NULL;
    }
}

static velstatus_status record_sleep(vs_run *run, int64_t ns, velstatus_error *err)
{
    velstatus_retry_result *r = run->res;
    int64_t *p = velstatus__array_reserve(run->ctx, r->sleeps, &r->cap, r->nsleeps + 1, sizeof(*p), 16);
    if (!p)
        return velstatus__error_nomem(err);
    r->sleeps = p;
    r->sleeps[r->nsleeps++] = ns;
    if (r->total_ok && velstatus__add_overflow_i64(&r->total, r->total, ns)) {
        r->total_ok = 0;
        r->total = 0;
    }
    return VELSTATUS_OK;
}

static velstatus_status do_sleep(vs_run *run, int64_t ns, velstatus_error *err)
{
    int64_t wait = ns > 0 ? ns : 0; /* Go's time.Sleep(d <= 0) returns at once */
    int rc;
    run->slept = velstatus__sat_add_i64(run->slept, wait);
    if (run->simulate || !run->h.sleep)
        return VELSTATUS_OK;
    rc = run->h.sleep(run->h.userdata, wait);
    if (rc < 0 && rc != VELSTATUS_PASSTHROUGH)
        return velstatus__error_host(err, rc, "host.sleep");
    return VELSTATUS_OK;
}

static velstatus_status draw(vs_run *run, double *r, velstatus_error *err)
{
    int rc;
    *r = 0.0;
    if (!run->h.random)
        return VELSTATUS_OK;
    rc = run->h.random(run->h.userdata, r);
    if (rc == VELSTATUS_PASSTHROUGH) {
        *r = 0.0;
        return VELSTATUS_OK;
    }
    if (rc < 0)
        return velstatus__error_host(err, rc, "host.random");
    return check_r(*r, "host.random's number", err);
}

/* What an attempt callback answered: the copied error text of a failure. */
struct velstatus_retry_reply {
    velstatus_ctx *ctx;
    char *text; /* NULL: the attempt succeeded */
    size_t len;
    int nomem; /* set_error ran out of memory */
};

velstatus_status velstatus_retry_reply_set_error(velstatus_retry_reply *reply, const char *text, size_t len,
                                                 velstatus_error *err)
{
    char *copy;
    VS_TRY(velstatus__obj_text_args(reply, "reply", text, &len, "text", err));
    copy = velstatus__strndup(reply->ctx, text ? text : "", len);
    if (!copy) {
        reply->nomem = 1;
        return velstatus__error_nomem(err);
    }
    velstatus__free(reply->ctx, reply->text);
    reply->text = copy;
    reply->len = len;
    return VELSTATUS_OK;
}

/* Calls the host's attempt: run->cur takes the failure's text (owned). */
static velstatus_status call_attempt(vs_run *run, uint64_t n, int *failed, velstatus_error *err)
{
    velstatus_retry_reply reply = {run->ctx, NULL, 0, 0};
    int rc = run->h.attempt(run->h.userdata, n, &reply);
    if (rc < 0 || reply.nomem) {
        velstatus__free(run->ctx, reply.text);
        if (reply.nomem)
            return velstatus__error_nomem(err);
        if (rc == VELSTATUS_PASSTHROUGH)
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "host.attempt passed through, but it is required");
        return velstatus__error_host(err, rc, "host.attempt");
    }
    *failed = reply.text != NULL;
    run->cur.text = reply.text;
    run->cur.len = reply.len;
    run->cur.attempt = n;
    return VELSTATUS_OK;
}

/* One attempt: sets *failed and, on failure, run->cur (owned text) and *cls,
 * *interrupted. */
static velstatus_status do_attempt(vs_run *run, int *failed, velstatus_retry_class *cls, int *interrupted,
                                   velstatus_error *err)
{
    uint64_t n = ++run->res->attempts;
    int rc;
    velstatus_status st;
    *failed = 0;
    *cls = VELSTATUS_RETRY_CLASS_TRANSIENT;
    *interrupted = 0;
    err_free(run->ctx, &run->cur);
    if (run->simulate) {
        *failed = 1;
        return VELSTATUS_OK;
    }
    st = call_attempt(run, n, failed, err);
    if (st != VELSTATUS_OK || !*failed)
        return st;
    if (run->classify && run->h.classify) {
        velstatus_retry_class c = VELSTATUS_RETRY_CLASS_TRANSIENT;
        int intr = 0;
        rc = run->h.classify(run->h.userdata, n, run->cur.text, run->cur.len, &c, &intr);
        if (rc == VELSTATUS_PASSTHROUGH)
            return VELSTATUS_OK;
        if (rc < 0)
            return velstatus__error_host(err, rc, "host.classify");
        if (c != VELSTATUS_RETRY_CLASS_TRANSIENT && c != VELSTATUS_RETRY_CLASS_CONFLICT &&
            c != VELSTATUS_RETRY_CLASS_TERMINAL)
            return velstatus__error_set(err, VELSTATUS_E_HOST, "host.classify gave unknown class %d", (int)c);
        *cls = c;
        *interrupted = intr != 0;
    }
    return VELSTATUS_OK;
}

/* Moves run->cur into run->last_ok (OnError's `lastErr = err`). */
static void remember_retriable(vs_run *run)
{
    err_free(run->ctx, &run->last_ok);
    run->last_ok = run->cur;
    memset(&run->cur, 0, sizeof(run->cur));
}

/* wait.ExponentialBackoff + retry.OnError of client-go v0.36.0 (doc/velero-behaviour.md §4.4).
 * With max_sleeps != UINT64_MAX this is the simulation (cut before sleep
 * max_sleeps + 1). */
static velstatus_status loop_on_error(vs_run *run, velstatus_backoff *b, uint64_t max_sleeps, velstatus_error *err)
{
    velstatus_retry_result *res = run->res;
    while (b->steps > 0) {
        int failed, interrupted;
        velstatus_retry_class cls;
        double r = 0.0;
        int64_t s;
        VS_TRY(do_attempt(run, &failed, &cls, &interrupted, err));
        if (!failed) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_SUCCEEDED;
            return VELSTATUS_OK; /* OnError returns nil */
        }
        if (cls == VELSTATUS_RETRY_CLASS_TERMINAL) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_TERMINAL;
            /* v0.36.0: `if wait.Interrupted(err) { err = lastErr }` also
             * catches a terminal error that is or wraps a timeout/cancel. */
            run_set_error(run, interrupted ? &run->last_ok : &run->cur);
            return VELSTATUS_OK;
        }
        remember_retriable(run);
        if (b->steps == 1)
            break; /* no sleep before the loop would end anyway */
        if (res->nsleeps >= max_sleeps) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_TRUNCATED;
            run_set_error(run, &run->last_ok);
            return VELSTATUS_OK;
        }
        if (b->jitter > 0) {
            VS_TRY(draw(run, &r, err));
        }
        s = backoff_step(b, r);
        VS_TRY(record_sleep(run, s, err));
        VS_TRY(do_sleep(run, s, err));
        if (b->steps == 0)
            res->trailing = 1; /* the cap fired: this sleep buys no attempt */
    }
    /* ErrWaitTimeout, which OnError replaces by lastErr (nil if none). */
    res->outcome = res->attempts == 0 ? VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED : VELSTATUS_RETRY_OUTCOME_EXHAUSTED;
    run_set_error(run, &run->last_ok);
    return VELSTATUS_OK;
}

/* Elapsed time since `start` for the deadline test, as an unsigned count. */
static velstatus_status elapsed_since(vs_run *run, int have_start, int64_t start, uint64_t *out, velstatus_error *err)
{
    int64_t t;
    int rc;
    if (!have_start || !run->h.now) {
        *out = (uint64_t)run->slept;
        return VELSTATUS_OK;
    }
    rc = run->h.now(run->h.userdata, &t);
    if (rc == VELSTATUS_PASSTHROUGH) {
        *out = (uint64_t)run->slept;
        return VELSTATUS_OK;
    }
    if (rc < 0)
        return velstatus__error_host(err, rc, "host.now");
    if (t < start)
        return velstatus__error_set(err, VELSTATUS_E_HOST, "host.now went backwards (%lld < %lld)", (long long)t,
                                    (long long)start);
    *out = (uint64_t)t - (uint64_t)start;
    return VELSTATUS_OK;
}

static velstatus_status loop_hardened(vs_run *run, const velstatus_retry_schedule *s, velstatus_error *err)
{
    velstatus_retry_result *res = run->res;
    int64_t cur = s->base_ns, start = 0;
    int have_start = 0;
    if (run->h.now) {
        int rc = run->h.now(run->h.userdata, &start);
        if (rc < 0 && rc != VELSTATUS_PASSTHROUGH)
            return velstatus__error_host(err, rc, "host.now");
        have_start = rc != VELSTATUS_PASSTHROUGH;
    }
    for (;;) {
        int failed, interrupted;
        velstatus_retry_class cls;
        int64_t d;
        uint64_t elapsed = 0;
        VS_TRY(do_attempt(run, &failed, &cls, &interrupted, err));
        if (!failed) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_SUCCEEDED;
            return VELSTATUS_OK;
        }
        if (cls == VELSTATUS_RETRY_CLASS_TERMINAL) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_TERMINAL;
            break;
        }
        if (res->attempts >= (uint64_t)s->max_attempts) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_EXHAUSTED;
            break;
        }
        d = cls == VELSTATUS_RETRY_CLASS_CONFLICT ? s->base_ns : cur;
        if (s->jitter > 0) {
            double r;
            VS_TRY(draw(run, &r, err));
            d -= velstatus__retry_f2i((r * s->jitter) * (double)d); /* in [0, d] */
        }
        VS_TRY(elapsed_since(run, have_start, start, &elapsed, err));
        if (s->deadline_ns > 0 &&
            (elapsed > (uint64_t)s->deadline_ns || (uint64_t)d > (uint64_t)s->deadline_ns - elapsed)) {
            res->outcome = VELSTATUS_RETRY_OUTCOME_DEADLINE;
            break;
        }
        VS_TRY(record_sleep(run, d, err));
        VS_TRY(do_sleep(run, d, err));
        if (cls == VELSTATUS_RETRY_CLASS_TRANSIENT) {
            double p = (double)cur * s->factor; /* finite: cur <= max_sleep, factor <= 1e300 */
            cur = p >= (double)s->max_sleep_ns ? s->max_sleep_ns : (int64_t)p;
        }
    }
    run_set_error(run, &run->cur); /* the last attempt's error */
    return VELSTATUS_OK;
}

static velstatus_status check_out_ctx(velstatus_retry_result **out, velstatus_ctx *ctx, velstatus_error *err)
{
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    return VELSTATUS_OK;
}

static velstatus_status finish(vs_run *run, velstatus_retry_result **out, velstatus_status st)
{
    if (st == VELSTATUS_OK) {
        *out = run->res;
        run->res = NULL;
    }
    run_cleanup(run);
    return st;
}

/* The two public retry loops: OnError with `backoff`, or (hardened != 0)
 * the hardened loop with `schedule`. */
static velstatus_status retry_loop(velstatus_retry_result **out, velstatus_ctx *ctx, int hardened,
                                   const velstatus_backoff *backoff, const velstatus_retry_schedule *schedule,
                                   const velstatus_retry_host *host, velstatus_error *err)
{
    velstatus_backoff b;
    velstatus_retry_schedule s;
    vs_run run;
    velstatus_status st = check_out_ctx(out, ctx, err);
    if (st == VELSTATUS_OK)
        st = hardened ? load_schedule(&s, schedule, err) : load_backoff(&b, backoff, err);
    if (st == VELSTATUS_OK)
        st = run_init(&run, ctx, host, 1, err);
    if (st != VELSTATUS_OK)
        return st;
    run.classify = 1;
    st = hardened ? loop_hardened(&run, &s, err) : loop_on_error(&run, &b, UINT64_MAX, err);
    return finish(&run, out, st);
}

velstatus_status velstatus_retry_on_error(velstatus_retry_result **out, velstatus_ctx *ctx,
                                          const velstatus_backoff *backoff, const velstatus_retry_host *host,
                                          velstatus_error *err)
{
    return retry_loop(out, ctx, 0, backoff, NULL, host, err);
}

velstatus_status velstatus_retry_hardened(velstatus_retry_result **out, velstatus_ctx *ctx,
                                          const velstatus_retry_schedule *schedule, const velstatus_retry_host *host,
                                          velstatus_error *err)
{
    return retry_loop(out, ctx, 1, NULL, schedule, host, err);
}

velstatus_status velstatus__retry_run(velstatus_retry_result **out, int *succeeded, velstatus_ctx *ctx,
                                      const velstatus_policy *policy, int64_t resource_timeout_ns,
                                      const velstatus_retry_host *host, velstatus_error *err)
{
    velstatus_retry_result *res = NULL;
    vs_run run;
    velstatus_status st;
    if (!ctx || !policy)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !ctx ? "ctx" : "policy");
    VS_TRY(run_init(&run, ctx, host, 1, err));
    run.classify = policy->retry_classify_errors != 0;
    if (policy->preset == VELSTATUS_PRESET_VELERO) {
        velstatus_backoff b;
        (void)fill_backoff(&b, VELSTATUS_BACKOFF_VELERO_CAP, resource_timeout_ns, NULL); /* cannot fail */
        st = loop_on_error(&run, &b, UINT64_MAX, err);
    } else {
        velstatus_retry_schedule s;
        fill_schedule(&s);
        if (resource_timeout_ns > 0)
            s.deadline_ns = resource_timeout_ns;
        st = loop_hardened(&run, &s, err);
    }
    VS_TRY(finish(&run, &res, st));
    if (succeeded)
        *succeeded =
            res->outcome == VELSTATUS_RETRY_OUTCOME_SUCCEEDED || res->outcome == VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED;
    if (out)
        *out = res;
    else
        velstatus_retry_result_free(res);
    return VELSTATUS_OK;
}

velstatus_status velstatus_retry_run(velstatus_retry_result **out, velstatus_ctx *ctx, int64_t resource_timeout_ns,
                                     const velstatus_retry_host *host, const velstatus_policy *policy,
                                     velstatus_error *err)
{
    velstatus_policy p;
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    VS_TRY(velstatus__policy_load(&p, policy, err));
    return velstatus__retry_run(out, NULL, ctx, &p, resource_timeout_ns, host, err);
}

velstatus_status velstatus_backoff_simulate(velstatus_retry_result **out, velstatus_ctx *ctx,
                                            const velstatus_backoff *backoff, uint64_t max_sleeps,
                                            const velstatus_retry_host *host, velstatus_error *err)
{
    velstatus_backoff b;
    vs_run run;
    velstatus_status st = check_out_ctx(out, ctx, err);
    if (st == VELSTATUS_OK)
        st = load_backoff(&b, backoff, err);
    if (st == VELSTATUS_OK)
        st = run_init(&run, ctx, host, 0, err);
    if (st != VELSTATUS_OK)
        return st;
    run.simulate = 1;
    st = loop_on_error(&run, &b, max_sleeps, err);
    if (st == VELSTATUS_OK) {
        /* A dry run has no error text to return. */
        velstatus__free(ctx, run.res->err_text);
        run.res->err_text = NULL;
        run.res->err_len = 0;
        run.res->err_attempt = 0;
    }
    return finish(&run, out, st);
}

/* ---- result getters ---- */

VS_GETTER(velstatus_retry_result, velstatus_retry_result_outcome, velstatus_retry_outcome, outcome,
          VELSTATUS_RETRY_OUTCOME_INVALID)

VS_GETTER(velstatus_retry_result, velstatus_retry_result_attempts, uint64_t, attempts, 0)

VS_GETTER(velstatus_retry_result, velstatus_retry_result_sleep_count, size_t, nsleeps, 0)

int64_t velstatus_retry_result_sleep(const velstatus_retry_result *result, size_t i)
{
    return result && i < result->nsleeps ? result->sleeps[i] : 0;
}

int velstatus_retry_result_total_sleep(int64_t *total_ns, const velstatus_retry_result *result)
{
    return velstatus__i64_out(total_ns, result && result->total_ok, result ? result->total : 0);
}

VS_GETTER(velstatus_retry_result, velstatus_retry_result_trailing_sleep, int, trailing, 0)

int velstatus_retry_result_error(const char **text, size_t *len, const velstatus_retry_result *result)
{
    int has = result && result->err_text;
    if (text)
        *text = has ? result->err_text : NULL;
    if (len)
        *len = has ? result->err_len : 0;
    return has;
}

uint64_t velstatus_retry_result_error_attempt(const velstatus_retry_result *result)
{
    return result && result->err_text ? result->err_attempt : 0;
}

/* ---- enum <-> token (doc/conventions.md §1): one table per enum, indexed by value ---- */

static const char *const outcome_names[] = {"succeeded", "not_attempted", "terminal",
                                            "exhausted", "deadline",      "truncated"};
static const char *const class_names[] = {"transient", "conflict", "terminal"};
static const char *const backoff_kind_names[] = {"velero_cap", "default_backoff", "default_retry"};

_Static_assert(sizeof(outcome_names) / sizeof(outcome_names[0]) == VELSTATUS_RETRY_OUTCOME_TRUNCATED + 1,
               "outcome table");
_Static_assert(sizeof(class_names) / sizeof(class_names[0]) == VELSTATUS_RETRY_CLASS_TERMINAL + 1, "class table");
_Static_assert(sizeof(backoff_kind_names) / sizeof(backoff_kind_names[0]) == VELSTATUS_BACKOFF_DEFAULT_RETRY + 1,
               "backoff kind table");


VS_ENUM_TOKENS(retry_outcome, velstatus_retry_outcome, outcome_names, "retry outcome")

VS_ENUM_TOKENS(retry_class, velstatus_retry_class, class_names, "retry class")

VS_ENUM_TOKENS(backoff_kind, velstatus_backoff_kind, backoff_kind_names, "backoff kind")
