/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: every case of tests/data/conformance/backoff-vectors.json
 * (golden vectors computed by the Kubernetes Go code, vendored) against
 * velstatus_backoff_step() and velstatus_retry_on_error(), for client-go
 * v0.36.0 and the amd64 values (the top-level fields; the per-case `arm64`
 * objects are ignored by design, see doc/retry.md). The file's format is
 * described in README-backoff.md beside it. A disagreement is a bug in the
 * library, never in the vectors. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include "retry/private.h"

/* 128-bit integers for the exact sums (GCC and Clang). */
__extension__ typedef __int128 vs_i128;
__extension__ typedef unsigned __int128 vs_u128;

/* 1 - 2^-53: the largest r Go's rand.Float64 returns. */
#define R_MAX (1.0 - 1.0 / 9007199254740992.0)

static json_t *vectors;

static json_t *load_vectors(void)
{
    const char *dir = getenv("VS_TEST_DATA");
    char path[4096];
    json_error_t jerr;
    json_t *root;
    ck_assert_msg(dir && *dir != '\0', "VS_TEST_DATA is not set: run the test through make check");
    snprintf(path, sizeof(path), "%s/conformance/backoff-vectors.json", dir);
    root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    ck_assert_msg(root != NULL, "cannot load the conformance vectors %s: %s (line %d): the test fails without them",
                  path, jerr.text, jerr.line);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "format_version")), 1);
    return root;
}

static json_t *cases(const char *key)
{
    json_t *a;
    if (!vectors)
        vectors = load_vectors();
    a = json_object_get(vectors, key);
    ck_assert_msg(json_is_array(a) && json_array_size(a) > 0, "%s missing or empty", key);
    return a;
}

static int64_t get_i64(json_t *obj, const char *key, const char *name)
{
    json_t *v = json_object_get(obj, key);
    ck_assert_msg(json_is_integer(v), "%s: %s is not an integer", name, key);
    return (int64_t)json_integer_value(v);
}

static double get_num(json_t *obj, const char *key, const char *name)
{
    json_t *v = json_object_get(obj, key);
    ck_assert_msg(json_is_number(v), "%s: %s is not a number", name, key);
    return json_number_value(v);
}

static json_t *get_arr(json_t *obj, const char *key, const char *name)
{
    json_t *v = json_object_get(obj, key);
    ck_assert_msg(json_is_array(v), "%s: %s is not an array", name, key);
    return v;
}

static int64_t arr_i64(json_t *a, size_t i, const char *key, const char *name)
{
    json_t *v = json_array_get(a, i);
    ck_assert_msg(json_is_integer(v), "%s: %s[%zu] is not an integer", name, key, i);
    return (int64_t)json_integer_value(v);
}

static velstatus_backoff backoff_of(json_t *c, const char *name)
{
    velstatus_backoff b;
    velstatus_backoff_init(&b, sizeof(b));
    b.duration_ns = get_i64(c, "duration_ns", name);
    b.factor = get_num(c, "factor", name);
    b.jitter = get_num(c, "jitter", name);
    b.steps = get_i64(c, "steps", name);
    b.cap_ns = get_i64(c, "cap_ns", name);
    return b;
}

/* Decimal text of a 128-bit sum, for total_ns_exact. */
static void i128_text(char *buf, size_t cap, vs_i128 v)
{
    char tmp[64];
    size_t n = 0, k = 0;
    vs_u128 u = v < 0 ? (vs_u128)0 - (vs_u128)v : (vs_u128)v;
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (v < 0)
        buf[k++] = '-';
    while (n && k + 1 < cap)
        buf[k++] = tmp[--n];
    buf[k] = '\0';
}

/* backoff_cases: repeated Step() while Steps > 0, up to 60 calls. */
START_TEST(backoff_cases)
{
    json_t *all = cases("backoff_cases");
    size_t ci;
    for (ci = 0; ci < json_array_size(all); ci++) {
        json_t *c = json_array_get(all, ci);
        const char *name = json_string_value(json_object_get(c, "name"));
        velstatus_backoff b = backoff_of(c, name);
        json_t *sleeps = get_arr(c, "sleeps_ns", name), *durs = get_arr(c, "durations_after_ns", name);
        json_t *stepsa = get_arr(c, "steps_after", name), *after = get_arr(c, "after_exhaustion_ns", name);
        json_t *total = json_object_get(c, "total_ns");
        size_t calls = 0, i;
        vs_i128 exact = 0;
        int64_t sum = 0;
        int sum_ok = 1;
        char text[64];
        velstatus_error e;
        ck_assert_ptr_nonnull(name);
        ck_assert_msg(b.jitter == 0, "%s: backoff cases have no jitter", name);
        while (b.steps > 0 && calls < 60) {
            int64_t s;
            ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.0, &e), VELSTATUS_OK);
            ck_assert_msg(calls < json_array_size(sleeps), "%s: more calls than the vector's %zu", name,
                          json_array_size(sleeps));
            ck_assert_msg(s == arr_i64(sleeps, calls, "sleeps_ns", name), "%s: sleep %zu is %lld, vector %lld", name,
                          calls, (long long)s, (long long)arr_i64(sleeps, calls, "sleeps_ns", name));
            ck_assert_msg(b.duration_ns == arr_i64(durs, calls, "durations_after_ns", name),
                          "%s: duration after call %zu is %lld, vector %lld", name, calls, (long long)b.duration_ns,
                          (long long)arr_i64(durs, calls, "durations_after_ns", name));
            ck_assert_msg(b.steps == arr_i64(stepsa, calls, "steps_after", name),
                          "%s: steps after call %zu is %lld, vector %lld", name, calls, (long long)b.steps,
                          (long long)arr_i64(stepsa, calls, "steps_after", name));
            exact += s;
            if ((s > 0 && sum > INT64_MAX - s) || (s < 0 && sum < INT64_MIN - s))
                sum_ok = 0;
            else
                sum += s;
            calls++;
        }
        ck_assert_int_eq((int64_t)calls, get_i64(c, "call_count", name));
        ck_assert_uint_eq(calls, json_array_size(sleeps));
        ck_assert_msg((b.steps > 0) == json_is_true(json_object_get(c, "truncated_at_60")), "%s: truncated_at_60",
                      name);
        if (sum_ok) {
            ck_assert_msg(json_is_integer(total) && json_integer_value(total) == sum, "%s: total_ns", name);
        } else {
            ck_assert_msg(json_is_null(total), "%s: total_ns should be null (the sum overflows int64)", name);
        }
        i128_text(text, sizeof(text), exact);
        ck_assert_str_eq(text, json_string_value(json_object_get(c, "total_ns_exact")));
        ck_assert_int_eq(b.duration_ns, get_i64(c, "final_duration_ns", name));
        ck_assert_int_eq(b.steps, get_i64(c, "final_steps", name));
        /* Two further calls after exhaustion (none recorded when truncated). */
        if (b.steps <= 0) {
            ck_assert_uint_eq(json_array_size(after), 2);
            for (i = 0; i < 2; i++) {
                int64_t s;
                ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.0, &e), VELSTATUS_OK);
                ck_assert_msg(s == arr_i64(after, i, "after_exhaustion_ns", name),
                              "%s: after_exhaustion_ns[%zu] is %lld", name, i, (long long)s);
                ck_assert_int_eq(b.steps, 0);
            }
        } else {
            ck_assert_uint_eq(json_array_size(after), 0);
        }
    }
}
END_TEST

/* The scripted host of an on_error case: outcomes per attempt, the last
 * repeating; the error texts are those the vectors' messages record. */
typedef struct script {
    json_t *outcomes;
    const char *name;
    char text[128];
    int64_t slept[64];
    size_t nslept;
} script;

static const char *outcome_at(script *s, uint64_t attempt)
{
    size_t n = json_array_size(s->outcomes);
    size_t i = attempt - 1 < n ? (size_t)(attempt - 1) : n - 1;
    return json_string_value(json_array_get(s->outcomes, i));
}

static int sc_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    script *s = ud;
    const char *o = outcome_at(s, attempt);
    if (strcmp(o, "ok") == 0)
        return 0;
    if (strcmp(o, "retriable") == 0)
        snprintf(s->text, sizeof(s->text), "retriable error at attempt %llu", (unsigned long long)attempt);
    else if (strcmp(o, "fatal") == 0)
        snprintf(s->text, sizeof(s->text), "fatal error at attempt %llu", (unsigned long long)attempt);
    else if (strcmp(o, "fatal_deadline") == 0)
        snprintf(s->text, sizeof(s->text), "fatal error at attempt %llu: context deadline exceeded",
                 (unsigned long long)attempt);
    else if (strcmp(o, "fatal_waittimeout") == 0)
        snprintf(s->text, sizeof(s->text), "timed out waiting for the condition");
    else
        ck_abort_msg("%s: unknown script outcome %s", s->name, o);
    if (velstatus_retry_reply_set_error(reply, s->text, strlen(s->text), NULL) != VELSTATUS_OK)
        return -1;
    return 0;
}

static int sc_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                       int *interrupted)
{
    script *s = ud;
    const char *o = outcome_at(s, attempt);
    (void)text;
    (void)len;
    /* The predicate: only "retriable" is accepted. fatal_deadline wraps
     * context.DeadlineExceeded and fatal_waittimeout is wait.ErrWaitTimeout:
     * both count as wait.Interrupted. */
    *cls = strcmp(o, "retriable") == 0 ? VELSTATUS_RETRY_CLASS_TRANSIENT : VELSTATUS_RETRY_CLASS_TERMINAL;
    *interrupted = strcmp(o, "fatal_deadline") == 0 || strcmp(o, "fatal_waittimeout") == 0;
    return 0;
}

static int sc_sleep(void *ud, int64_t ns)
{
    script *s = ud;
    ck_assert_uint_lt(s->nslept, 64);
    s->slept[s->nslept++] = ns;
    return 0;
}

static int sc_random(void *ud, double *r)
{
    (void)ud;
    (void)r;
    ck_abort_msg("random must not be called when jitter is 0");
    return -1;
}

START_TEST(on_error_cases)
{
    json_t *all = cases("on_error_cases");
    velstatus_ctx *ctx;
    size_t ci;
    ctx = vs_test_ctx();
    for (ci = 0; ci < json_array_size(all); ci++) {
        json_t *c = json_array_get(all, ci);
        const char *name = json_string_value(json_object_get(c, "name"));
        json_t *want = json_object_get(json_object_get(c, "result_by_client_go"), "v0.36.0");
        json_t *sleeps = get_arr(c, "sleeps_ns", name);
        const char *kind = json_string_value(json_object_get(want, "kind"));
        velstatus_backoff b = backoff_of(json_object_get(c, "backoff"), name);
        velstatus_backoff before = b;
        velstatus_retry_host h;
        velstatus_retry_result *res = NULL;
        velstatus_error e;
        script s;
        const char *text;
        size_t len, i;
        int64_t total;
        ck_assert_ptr_nonnull(name);
        ck_assert_msg(kind != NULL, "%s: no v0.36.0 result", name);
        memset(&s, 0, sizeof(s));
        s.outcomes = get_arr(c, "script", name);
        s.name = name;
        velstatus_retry_host_init(&h, sizeof(h));
        h.userdata = &s;
        h.attempt = sc_attempt;
        h.classify = sc_classify;
        h.sleep = sc_sleep;
        h.random = sc_random;
        ck_assert_msg(velstatus_retry_on_error(&res, ctx, &b, &h, &e) == VELSTATUS_OK, "%s: %s", name, e.message);
        ck_assert_msg(memcmp(&b, &before, sizeof(b)) == 0, "%s: the caller's backoff was modified", name);
        ck_assert_msg((int64_t)velstatus_retry_result_attempts(res) == get_i64(c, "attempts", name),
                      "%s: %llu attempts", name, (unsigned long long)velstatus_retry_result_attempts(res));
        ck_assert_uint_eq(velstatus_retry_result_sleep_count(res), json_array_size(sleeps));
        ck_assert_uint_eq(s.nslept, json_array_size(sleeps));
        for (i = 0; i < json_array_size(sleeps); i++) {
            ck_assert_int_eq(velstatus_retry_result_sleep(res, i), arr_i64(sleeps, i, "sleeps_ns", name));
            ck_assert_int_eq(s.slept[i], arr_i64(sleeps, i, "sleeps_ns", name));
        }
        ck_assert_msg(velstatus_retry_result_trailing_sleep(res) == json_is_true(json_object_get(c, "trailing_sleep")),
                      "%s: trailing_sleep", name);
        ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, res), 1);
        ck_assert_int_eq(total, get_i64(c, "total_sleep_ns", name));
        if (strcmp(kind, "nil") == 0) {
            ck_assert_msg(velstatus_retry_result_error(&text, &len, res) == 0, "%s: expected nil, got \"%s\"", name,
                          text);
            ck_assert_ptr_null(text);
            ck_assert_uint_eq(velstatus_retry_result_error_attempt(res), 0);
        } else {
            const char *msg = json_string_value(json_object_get(want, "message"));
            ck_assert_msg(strstr(kind, "_from_attempt") || strcmp(kind, "wait.ErrWaitTimeout(returned by fn)") == 0,
                          "%s: result kind %s cannot come from the function", name, kind);
            ck_assert_msg(velstatus_retry_result_error(&text, &len, res) == 1, "%s: expected an error", name);
            ck_assert_int_eq((int64_t)velstatus_retry_result_error_attempt(res), get_i64(want, "from_attempt", name));
            ck_assert_str_eq(text, msg);
            ck_assert_uint_eq(len, strlen(msg));
            /* The kind names the script outcome of that attempt. */
            if (strcmp(kind, "retriable_error_from_attempt") == 0)
                ck_assert_str_eq(outcome_at(&s, velstatus_retry_result_error_attempt(res)), "retriable");
            else if (strcmp(kind, "fatal_error_from_attempt") == 0)
                ck_assert_str_eq(outcome_at(&s, velstatus_retry_result_error_attempt(res)), "fatal");
            else if (strcmp(kind, "fatal_deadline_error_from_attempt") == 0)
                ck_assert_str_eq(outcome_at(&s, velstatus_retry_result_error_attempt(res)), "fatal_deadline");
        }
        velstatus_retry_result_free(res);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* jitter_cases: with r = 0 each call returns base_ns (= lo_ns); with the
 * largest r, hi_ns; the state never depends on r. */
START_TEST(jitter_cases)
{
    json_t *all = cases("jitter_cases");
    size_t ci;
    for (ci = 0; ci < json_array_size(all); ci++) {
        json_t *c = json_array_get(all, ci);
        const char *name = json_string_value(json_object_get(c, "name"));
        velstatus_backoff lo = backoff_of(c, name), hi = lo;
        json_t *base = get_arr(c, "base_ns", name), *los = get_arr(c, "lo_ns", name), *his = get_arr(c, "hi_ns", name);
        json_t *mins = get_arr(c, "sampled_min_ns", name), *maxs = get_arr(c, "sampled_max_ns", name);
        int64_t calls = get_i64(c, "calls", name), i;
        velstatus_error e;
        ck_assert_msg(lo.jitter > 0, "%s: jitter cases have jitter", name);
        for (i = 0; i < calls; i++) {
            int64_t a, z;
            velstatus_backoff zero = lo;
            zero.jitter = 0;
            ck_assert_int_eq(velstatus_backoff_step(&a, &lo, 0.0, &e), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_backoff_step(&z, &hi, R_MAX, &e), VELSTATUS_OK);
            ck_assert_int_eq(a, arr_i64(base, (size_t)i, "base_ns", name));
            ck_assert_int_eq(a, arr_i64(los, (size_t)i, "lo_ns", name));
            ck_assert_msg(z == arr_i64(his, (size_t)i, "hi_ns", name), "%s: hi[%lld] is %lld, vector %lld", name,
                          (long long)i, (long long)z, (long long)arr_i64(his, (size_t)i, "hi_ns", name));
            /* Samples of the real Step() lie within our bounds. */
            ck_assert_int_ge(arr_i64(mins, (size_t)i, "sampled_min_ns", name), a);
            ck_assert_int_le(arr_i64(maxs, (size_t)i, "sampled_max_ns", name), z);
            /* state_independent_of_jitter */
            ck_assert_int_eq(lo.duration_ns, hi.duration_ns);
            ck_assert_int_eq(lo.steps, hi.steps);
            {
                int64_t s0;
                ck_assert_int_eq(velstatus_backoff_step(&s0, &zero, 0.0, &e), VELSTATUS_OK);
                ck_assert_int_eq(zero.duration_ns, lo.duration_ns);
                ck_assert_int_eq(zero.steps, lo.steps);
            }
        }
        ck_assert(json_is_true(json_object_get(c, "state_independent_of_jitter")));
    }
}
END_TEST

/* The host must be able to reuse its buffer after attempt() returns: the
 * library copies the text at once (host.h: "data flows by value"). */
static int scribble_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    char *buf = ud;
    snprintf(buf, 64, "error %llu", (unsigned long long)attempt);
    /* a second answer replaces the first */
    if (velstatus_retry_reply_set_error(reply, "first", VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return -1;
    return velstatus_retry_reply_set_error(reply, buf, strlen(buf), NULL) == VELSTATUS_OK ? 0 : -1;
}

static int scribble_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                             int *interrupted)
{
    char *buf = ud;
    (void)attempt;
    (void)interrupted;
    ck_assert_str_eq(text, buf);
    ck_assert_uint_eq(len, strlen(buf));
    memset(buf, 'X', 63); /* the host reuses its buffer */
    buf[63] = '\0';
    *cls = VELSTATUS_RETRY_CLASS_TRANSIENT;
    return 0;
}

START_TEST(error_text_is_copied)
{
    char buf[64];
    velstatus_ctx *ctx;
    velstatus_retry_host h;
    velstatus_retry_result *res;
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0);
    const char *text;
    b.jitter = 0;
    ctx = vs_test_ctx();
    velstatus_retry_host_init(&h, sizeof(h));
    h.userdata = buf;
    h.attempt = scribble_attempt;
    h.classify = scribble_classify;
    ck_assert_int_eq(velstatus_retry_on_error(&res, ctx, &b, &h, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(res), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
    ck_assert_int_eq(velstatus_retry_result_error(&text, NULL, res), 1);
    ck_assert_str_eq(text, "error 4");
    velstatus_retry_result_free(res);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The vectors' on_error cases under the failing allocator: no leak, E_NOMEM. */
START_TEST(on_error_failalloc)
{
    json_t *all = cases("on_error_cases");
    size_t ci;
    for (ci = 0; ci < json_array_size(all); ci++) {
        json_t *c = json_array_get(all, ci);
        const char *name = json_string_value(json_object_get(c, "name"));
        velstatus_backoff b = backoff_of(json_object_get(c, "backoff"), name);
        velstatus_status st;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_retry_host h;
            velstatus_retry_result *res = NULL;
            script s;
            memset(&s, 0, sizeof(s));
            s.outcomes = get_arr(c, "script", name);
            s.name = name;
            velstatus_retry_host_init(&h, sizeof(h));
            h.userdata = &s;
            h.attempt = sc_attempt;
            h.classify = sc_classify;
            h.sleep = sc_sleep;
            st = velstatus_retry_on_error(&res, ctx, &b, &h, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_int_eq((int64_t)velstatus_retry_result_attempts(res), get_i64(c, "attempts", name));
            else
                ck_assert_ptr_null(res);
            velstatus_retry_result_free(res);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}
END_TEST

static void teardown(void)
{
    json_decref(vectors);
    vectors = NULL;
}

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("retry_vectors");
    TCase *tc = tcase_create("conformance");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, backoff_cases);
    tcase_add_test(tc, on_error_cases);
    tcase_add_test(tc, jitter_cases);
    tcase_add_test(tc, error_text_is_copied);
    tcase_add_test(tc, on_error_failalloc);
    suite_add_tcase(s, tc);
    return s;
}
