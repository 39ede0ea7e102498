/* SPDX-License-Identifier: Apache-2.0 */
/* The retry area (include/velstatus/retry.h): Step() edge cases and the
 * overflow choice, presets, the CapBackoff tables of doc/velero-behaviour.md §4.5, the OnError
 * and hardened drivers over a fake host, the policy entry point, the dry run,
 * the transition table of doc/velero-behaviour.md §4.3 / §6.15 row by row, argument checking and
 * allocation failure. The golden vectors are in check_retry_vectors.c. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "failalloc.h"
#include "fake_host.h"
#include "harness.h"
#include "retry/private.h"

#define MS INT64_C(1000000)
#define SEC INT64_C(1000000000)
#define P(x) VELSTATUS_PHASE_##x
#define B VELSTATUS_KIND_BACKUP
#define R VELSTATUS_KIND_RESTORE

/* The layout of the transparent retry structs (v1), pinned as check_abi.c
 * pins the core ones: appending a field means updating a size deliberately. */
_Static_assert(offsetof(velstatus_backoff, struct_size) == 0, "backoff.struct_size");
_Static_assert(offsetof(velstatus_backoff, flags) == 4, "backoff.flags");
_Static_assert(offsetof(velstatus_backoff, duration_ns) == 8, "backoff.duration_ns");
_Static_assert(offsetof(velstatus_backoff, factor) == 16, "backoff.factor");
_Static_assert(offsetof(velstatus_backoff, jitter) == 24, "backoff.jitter");
_Static_assert(offsetof(velstatus_backoff, steps) == 32, "backoff.steps");
_Static_assert(offsetof(velstatus_backoff, cap_ns) == 40, "backoff.cap_ns");
_Static_assert(sizeof(velstatus_backoff) == 48, "backoff size");
_Static_assert(offsetof(velstatus_retry_schedule, base_ns) == 8, "schedule.base_ns");
_Static_assert(offsetof(velstatus_retry_schedule, factor) == 16, "schedule.factor");
_Static_assert(offsetof(velstatus_retry_schedule, jitter) == 24, "schedule.jitter");
_Static_assert(offsetof(velstatus_retry_schedule, max_sleep_ns) == 32, "schedule.max_sleep_ns");
_Static_assert(offsetof(velstatus_retry_schedule, max_attempts) == 40, "schedule.max_attempts");
_Static_assert(offsetof(velstatus_retry_schedule, deadline_ns) == 48, "schedule.deadline_ns");
_Static_assert(sizeof(velstatus_retry_schedule) == 56, "schedule size");
_Static_assert(offsetof(velstatus_retry_host, flags) == 4, "host.flags");
_Static_assert(offsetof(velstatus_retry_host, userdata) == 8, "host.userdata");
_Static_assert(offsetof(velstatus_retry_host, attempt) == 8 + sizeof(void *), "host.attempt");
_Static_assert(offsetof(velstatus_retry_host, classify) == 8 + 2 * sizeof(void *), "host.classify");
_Static_assert(offsetof(velstatus_retry_host, sleep) == 8 + 3 * sizeof(void *), "host.sleep");
_Static_assert(offsetof(velstatus_retry_host, random) == 8 + 4 * sizeof(void *), "host.random");
_Static_assert(offsetof(velstatus_retry_host, now) == 8 + 5 * sizeof(void *), "host.now");
_Static_assert(sizeof(velstatus_retry_host) == 8 + 6 * sizeof(void *), "host size");

/* ---- the amd64 conversion ---- */

START_TEST(f2i_is_amd64_cvttsd2si)
{
    /* In range: truncation toward zero. */
    ck_assert_int_eq(velstatus__retry_f2i(1.9), 1);
    ck_assert_int_eq(velstatus__retry_f2i(-1.9), -1);
    ck_assert_int_eq(velstatus__retry_f2i(-0.5), 0);
    ck_assert_int_eq(velstatus__retry_f2i(-9223372036854775808.0), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(nextafter(9223372036854775808.0, 0.0)), INT64_C(9223372036854774784));
    /* Out of range and NaN: the "integer indefinite" INT64_MIN, on both sides. */
    ck_assert_int_eq(velstatus__retry_f2i(9223372036854775808.0), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(1e300), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(-1e300), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(INFINITY), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(-INFINITY), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(NAN), INT64_MIN);
    ck_assert_int_eq(velstatus__retry_f2i(nextafter(-9223372036854775808.0, -INFINITY)), INT64_MIN);
}
END_TEST

/* ---- Step() ---- */

START_TEST(step_semantics)
{
    velstatus_backoff b;
    velstatus_error e;
    int64_t s;
    /* doc/velero-behaviour.md §4.4 table, row by row. steps < 1: duration returned, unchanged, steps 0. */
    velstatus_backoff_init(&b, sizeof(b));
    b.duration_ns = 7;
    b.factor = 3;
    b.steps = -4;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 7);
    ck_assert_int_eq(b.duration_ns, 7);
    ck_assert_int_eq(b.steps, 0);
    /* factor 0: no growth, steps-1, cap never looked at. */
    b.steps = 2;
    b.factor = 0;
    b.cap_ns = 1;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 7);
    ck_assert_int_eq(b.duration_ns, 7);
    ck_assert_int_eq(b.steps, 1);
    /* cap strictly exceeded: next = cap, steps 0, the old duration returned. */
    b.factor = 3;
    b.cap_ns = 20;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 7);
    ck_assert_int_eq(b.duration_ns, 20);
    ck_assert_int_eq(b.steps, 0);
    /* cap equal: kept. */
    b.duration_ns = 7;
    b.steps = 5;
    b.cap_ns = 21;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(b.duration_ns, 21);
    ck_assert_int_eq(b.steps, 4);
    /* jitter: d + trunc((r*j)*d), the state untouched by it. */
    b.duration_ns = 50 * MS;
    b.factor = 1;
    b.jitter = 0.1;
    b.cap_ns = 0;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.5, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 52500000);
    ck_assert_int_eq(b.duration_ns, 50 * MS);
    /* jitter <= 0 or NaN: none. */
    b.jitter = NAN;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.5, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 50 * MS);
    b.jitter = -1;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.5, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 50 * MS);
    /* A NaN factor overflows like any out-of-range product (amd64). */
    b.factor = NAN;
    b.steps = 3;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(b.duration_ns, INT64_MIN);
    /* The jitter addition wraps as Go's int64 does (no UB): INT64_MAX + jitter. */
    b.duration_ns = INT64_MAX;
    b.factor = 0;
    b.jitter = 0.5;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0.5, &e), VELSTATUS_OK);
    /* (0.25 * 2^63) = 2^61 exactly; INT64_MAX + 2^61 wraps. */
    ck_assert_int_eq(s, INT64_MIN + INT64_C(2305843009213693951));
}
END_TEST

START_TEST(step_arguments)
{
    velstatus_backoff b, before;
    velstatus_error e;
    int64_t s = 42;
    unsigned char big[sizeof(velstatus_backoff) + 8];
    velstatus_backoff_init(&b, sizeof(b));
    b.duration_ns = 10;
    b.steps = 3;
    b.factor = 2;
    before = b;
    ck_assert_int_eq(velstatus_backoff_step(NULL, &b, 0, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_backoff_step(&s, NULL, 0, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "backoff"));
    /* r outside [0, 1), NaN included: E_RANGE, nothing changed. */
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 1.0, &e), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, -0.0001, &e), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, NAN, &e), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(e.message, "[0, 1)"));
    ck_assert_int_eq(s, 42);
    ck_assert(memcmp(&b, &before, sizeof(b)) == 0);
    b.flags = 1;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "backoff.flags"));
    b.flags = 0;
    b.struct_size = 8;
    ck_assert_int_eq(velstatus_backoff_step(&s, &b, 0, &e), VELSTATUS_E_ABI);
    ck_assert_int_eq(e.code, VELSTATUS_E_ABI);
    /* A larger struct from a newer header: accepted with a zero tail, which is left alone. */
    memset(big, 0, sizeof(big));
    before.struct_size = sizeof(big);
    memcpy(big, &before, sizeof(before));
    ck_assert_int_eq(velstatus_backoff_step(&s, (velstatus_backoff *)(void *)big, 0, &e), VELSTATUS_OK);
    ck_assert_int_eq(s, 10);
    ck_assert_int_eq(((velstatus_backoff *)(void *)big)->duration_ns, 20);
    ck_assert_int_eq(big[sizeof(velstatus_backoff)], 0);
    big[sizeof(velstatus_backoff) + 3] = 1;
    ck_assert_int_eq(velstatus_backoff_step(&s, (velstatus_backoff *)(void *)big, 0, &e), VELSTATUS_E_ABI);
    /* init with NULL is a no-op. */
    velstatus_backoff_init(NULL, sizeof(b));
}
END_TEST

START_TEST(presets)
{
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 10 * 60 * SEC), f;
    velstatus_error e;
    /* doc/velero-behaviour.md §4.2 CapBackoff. */
    ck_assert_uint_eq(b.struct_size, sizeof(b));
    ck_assert_int_eq(b.duration_ns, 10 * MS);
    ck_assert(b.factor == 5.0 && b.jitter == 0.1);
    ck_assert_int_eq(b.steps, INT64_MAX);
    ck_assert_int_eq(b.cap_ns, 600 * SEC);
    ck_assert_int_eq(vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, -SEC).cap_ns, 0);
    /* doc/velero-behaviour.md §4.4 constants. */
    b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0);
    ck_assert(b.duration_ns == 10 * MS && b.factor == 5.0 && b.jitter == 0.1 && b.steps == 4 && b.cap_ns == 0);
    b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    ck_assert(b.duration_ns == 10 * MS && b.factor == 1.0 && b.jitter == 0.1 && b.steps == 5 && b.cap_ns == 0);
    ck_assert_int_eq(velstatus_backoff_init_preset(&f, sizeof(f), VELSTATUS_BACKOFF_DEFAULT_RETRY, 0, &e),
                     VELSTATUS_OK);
    ck_assert(memcmp(&f, &b, sizeof(b)) == 0);
    ck_assert_int_eq(velstatus_backoff_init_preset(&f, sizeof(f), VELSTATUS_BACKOFF_VELERO_CAP, -1, &e), VELSTATUS_OK);
    ck_assert_int_eq(f.cap_ns, 0);
    ck_assert_int_eq(f.steps, INT64_MAX);
    ck_assert_int_eq(velstatus_backoff_init_preset(&f, sizeof(f), VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0, &e),
                     VELSTATUS_OK);
    ck_assert_int_eq(f.steps, 4);
    ck_assert_int_eq(velstatus_backoff_init_preset(&f, sizeof(f), (velstatus_backoff_kind)3, 0, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(
        velstatus_backoff_init_preset(NULL, sizeof(velstatus_backoff), VELSTATUS_BACKOFF_VELERO_CAP, 0, &e),
        VELSTATUS_E_INVALID);
}
END_TEST

/* ---- the dry run: doc/velero-behaviour.md §4.5 ---- */

static velstatus_retry_result *simulate(velstatus_ctx *ctx, velstatus_backoff b, uint64_t max)
{
    velstatus_retry_result *r = NULL;
    velstatus_error e;
    ck_assert_msg(velstatus_backoff_simulate(&r, ctx, &b, max, NULL, &e) == VELSTATUS_OK, "%s", e.message);
    return r;
}

START_TEST(cap_backoff_10m)
{
    /* doc/velero-behaviour.md §4.5: 7 attempts, 10 ms ... 156.25 s, 195.31 s, the last sleep wasted. */
    static const int64_t want[] = {10 * MS, 50 * MS, 250 * MS, 1250 * MS, 6250 * MS, 31250 * MS, 156250 * MS};
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 600 * SEC);
    velstatus_retry_result *r;
    int64_t total;
    b.jitter = 0;
    r = simulate(ctx, b, 60);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 7);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 7);
    for (size_t i = 0; i < 7; i++)
        ck_assert_int_eq(velstatus_retry_result_sleep(r, i), want[i]);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 7), 0);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
    ck_assert_int_eq(total, INT64_C(195310000000));
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 1);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
    ck_assert_int_eq(velstatus_retry_result_error(NULL, NULL, r), 0);
    velstatus_retry_result_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(cap_backoff_table)
{
    /* doc/velero-behaviour.md §4.5 second table and README "Velero CapBackoff(cap)": cap ->
     * attempts, total sleep = 10 ms (5^K - 1) / 4. */
    static const struct {
        int64_t cap;
        uint64_t attempts;
        int64_t total;
    } rows[] = {
        {30 * SEC, 5, 7810 * MS},
        {60 * SEC, 6, 39060 * MS},
        {300 * SEC, 7, 195310 * MS},
        {600 * SEC, 7, 195310 * MS},
        {3600 * SEC, 8, 976560 * MS},
        {50 * MS, 2, 60 * MS},
        {49 * MS, 1, 10 * MS},
        {1 * MS, 1, 10 * MS},
        {10 * MS, 1, 10 * MS},
        {11 * MS, 1, 10 * MS},
        {1 * SEC, 3, 310 * MS},
        {156250 * MS, 7, 195310 * MS},
        {781250 * MS - 1, 7, 195310 * MS},
        {781250 * MS, 8, 976560 * MS},
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, rows[i].cap);
        velstatus_retry_result *r;
        int64_t total;
        b.jitter = 0;
        r = simulate(ctx, b, 60);
        ck_assert_msg(velstatus_retry_result_attempts(r) == rows[i].attempts, "cap %lld: %llu attempts",
                      (long long)rows[i].cap, (unsigned long long)velstatus_retry_result_attempts(r));
        ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
        ck_assert_int_eq(total, rows[i].total);
        ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 1);
        ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), rows[i].attempts);
        velstatus_retry_result_free(r);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(simulate_cut_and_overflow)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 0);
    velstatus_retry_result *r;
    int64_t total = 1;
    b.jitter = 0;
    /* Cap 0 never stops: cut before sleep 61; sleeps 19.. overflow to INT64_MIN (amd64). */
    r = simulate(ctx, b, 60);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TRUNCATED);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 60);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 61);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 17), INT64_C(7629394531249999872));
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 18), INT64_MIN);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 59), INT64_MIN);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 0);
    ck_assert_int_eq(total, 0);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 0);
    velstatus_retry_result_free(r);
    /* max_sleeps 0. */
    r = simulate(ctx, b, 0);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TRUNCATED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 1);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 0);
    velstatus_retry_result_free(r);
    /* Steps = 61, no cap: 61 attempts, 60 sleeps, not cut. */
    b.steps = 61;
    b.factor = 1;
    r = simulate(ctx, b, 60);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 61);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 60);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 0);
    velstatus_retry_result_free(r);
    /* Steps <= 0: nothing. */
    b.steps = 0;
    r = simulate(ctx, b, 60);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 0);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
    ck_assert_int_eq(total, 0);
    velstatus_retry_result_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(simulate_jitter_uses_host_random)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 600 * SEC);
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    vs_fake_retry f;
    int64_t total;
    vs_fake_retry_init(&f);
    h = vs_fake_retry_host(&f);
    h.attempt = NULL; /* not needed for a dry run */
    f.r = 0.5;
    ck_assert_int_eq(velstatus_backoff_simulate(&r, ctx, &b, 60, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(f.randoms, 7);
    ck_assert_int_eq(f.nows, 0);
    ck_assert_int_eq(f.classifies, 0);
    ck_assert_uint_eq(f.nsleeps, 0); /* a dry run never sleeps */
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 0), 10500000);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
    ck_assert_int_eq(total, INT64_C(195310000000) + INT64_C(9765500000));
    velstatus_retry_result_free(r);
    /* A bad random number fails the run. */
    f.r = 1.0;
    r = NULL;
    ck_assert_int_eq(velstatus_backoff_simulate(&r, ctx, &b, 60, &h, &e), VELSTATUS_E_RANGE);
    ck_assert_ptr_null(r);
    f.random_rc = -7;
    ck_assert_int_eq(velstatus_backoff_simulate(&r, ctx, &b, 60, &h, &e), VELSTATUS_E_HOST);
    ck_assert_int_eq(e.host_code, -7);
    f.random_rc = VELSTATUS_PASSTHROUGH; /* = NULL slot: r = 0 */
    ck_assert_int_eq(velstatus_backoff_simulate(&r, ctx, &b, 60, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
    ck_assert_int_eq(total, INT64_C(195310000000));
    velstatus_retry_result_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- the OnError driver ---- */

START_TEST(on_error_velero_behaviour)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 600 * SEC);
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    const char *text;
    size_t len;
    vs_fake_retry f;
    vs_fake_retry_init(&f);
    f.fail_until = 100;
    h = vs_fake_retry_host(&f);
    h.classify = NULL; /* RetryOnErrorMaxBackOff: every error retried */
    b.jitter = 0;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 7);
    ck_assert_uint_eq(f.nsleeps, 7);
    ck_assert_int_eq(f.sleeps[6], 156250 * MS);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 1);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
    ck_assert_int_eq(velstatus_retry_result_error(&text, &len, r), 1);
    ck_assert_str_eq(text, "boom 7");
    ck_assert_uint_eq(len, 6);
    ck_assert_uint_eq(velstatus_retry_result_error_attempt(r), 7);
    ck_assert_int_eq(f.nows, 0);
    ck_assert_int_eq(f.randoms, 0);
    velstatus_retry_result_free(r);
    /* Success on attempt 3. */
    vs_fake_retry_init(&f);
    f.fail_until = 2;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_SUCCEEDED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 3);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 2);
    ck_assert_int_eq(velstatus_retry_result_error(&text, &len, r), 0);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 0);
    velstatus_retry_result_free(r);
    /* Steps <= 0 succeeds without an attempt. */
    b.steps = -1;
    vs_fake_retry_init(&f);
    f.fail_until = 100;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 0);
    ck_assert_int_eq(velstatus_retry_result_error(NULL, NULL, r), 0);
    velstatus_retry_result_free(r);
    /* A NULL (or empty) error text is an empty message, still an error. */
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(on_error_classify_and_interrupted)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0);
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    const char *text;
    vs_fake_retry f;
    b.jitter = 0;
    vs_fake_retry_init(&f);
    f.fail_until = 100;
    f.cls[2] = VELSTATUS_RETRY_CLASS_CONFLICT; /* retriable too */
    f.cls[3] = VELSTATUS_RETRY_CLASS_TERMINAL;
    h = vs_fake_retry_host(&f);
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TERMINAL);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 3);
    ck_assert_int_eq(velstatus_retry_result_error(&text, NULL, r), 1);
    ck_assert_str_eq(text, "boom 3");
    velstatus_retry_result_free(r);
    /* The same terminal error marked interrupted: v0.36.0 returns the last retriable one. */
    f.interrupted[3] = 1;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TERMINAL);
    ck_assert_int_eq(velstatus_retry_result_error(&text, NULL, r), 1);
    ck_assert_str_eq(text, "boom 2");
    ck_assert_uint_eq(velstatus_retry_result_error_attempt(r), 2);
    velstatus_retry_result_free(r);
    /* An unknown class from the host is its bug: E_HOST, no result. */
    f.cls[1] = (velstatus_retry_class)9;
    r = NULL;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_HOST);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(e.message, "classify"));
    /* classify passing through: transient. */
    f.classify_rc = VELSTATUS_PASSTHROUGH;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 4);
    velstatus_retry_result_free(r);
    f.classify_rc = -3;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_HOST);
    ck_assert_int_eq(e.host_code, -3);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(on_error_host_failures)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    velstatus_retry_result *r = NULL;
    velstatus_retry_host h;
    velstatus_error e;
    unsigned char big[sizeof(velstatus_retry_host) + 16];
    vs_fake_retry f;
    vs_fake_retry_init(&f);
    f.fail_until = 100;
    h = vs_fake_retry_host(&f);
    f.sleep_rc = -2;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_HOST);
    ck_assert_int_eq(e.host_code, -2);
    ck_assert_ptr_nonnull(strstr(e.message, "sleep"));
    ck_assert_ptr_null(r);
    f.sleep_rc = 0;
    f.attempt_rc = -9;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_HOST);
    ck_assert_int_eq(e.host_code, -9);
    f.attempt_rc = VELSTATUS_PASSTHROUGH;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_INVALID);
    f.attempt_rc = 0;
    /* Random is drawn only with jitter > 0; a bad number is E_RANGE. */
    f.r = 1.5;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_RANGE);
    f.r = 0.999;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 0), 10999000);
    velstatus_retry_result_free(r);
    /* The vtable's own checks. */
    r = NULL;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_on_error(NULL, ctx, &b, &h, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_on_error(&r, NULL, &b, &h, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, NULL, &h, &e), VELSTATUS_E_INVALID);
    h.flags = 2;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "host.flags"));
    h.flags = 0;
    h.attempt = NULL;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "host.attempt"));
    h = vs_fake_retry_host(&f);
    h.struct_size = 16;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, &e), VELSTATUS_E_ABI);
    h = vs_fake_retry_host(&f);
    memset(big, 0, sizeof(big));
    h.struct_size = sizeof(big);
    memcpy(big, &h, sizeof(h));
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, (velstatus_retry_host *)(void *)big, &e), VELSTATUS_OK);
    velstatus_retry_result_free(r);
    r = NULL;
    big[sizeof(h) + 5] = 1;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, (velstatus_retry_host *)(void *)big, &e), VELSTATUS_E_ABI);
    ck_assert_ptr_null(r);
    velstatus_ctx_free(ctx);
}
END_TEST

static int null_text_attempt(void *ud, uint64_t n, velstatus_retry_reply *reply)
{
    (void)ud;
    (void)n;
    /* NULL with a length is refused; NULL with 0 is an empty message. */
    if (velstatus_retry_reply_set_error(reply, NULL, 99, NULL) != VELSTATUS_E_INVALID ||
        velstatus_retry_reply_set_error(NULL, "x", 1, NULL) != VELSTATUS_E_INVALID)
        return -7;
    return velstatus_retry_reply_set_error(reply, NULL, 0, NULL) == VELSTATUS_OK ? 0 : -1;
}

START_TEST(on_error_null_text)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    velstatus_retry_result *r;
    velstatus_retry_host h;
    const char *text;
    size_t len = 5;
    b.jitter = 0;
    velstatus_retry_host_init(&h, sizeof(h));
    h.attempt = null_text_attempt;
    ck_assert_int_eq(velstatus_retry_on_error(&r, ctx, &b, &h, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_error(&text, &len, r), 1);
    ck_assert_str_eq(text, "");
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 5);
    velstatus_retry_result_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- the hardened driver ---- */

START_TEST(hardened_defaults_and_validation)
{
    velstatus_retry_schedule s = vs_schedule(), t;
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_retry_result *r = NULL;
    velstatus_retry_host h;
    velstatus_error e;
    vs_fake_retry f;
    ck_assert_uint_eq(s.struct_size, sizeof(s));
    ck_assert_int_eq(s.base_ns, 100 * MS);
    ck_assert(s.factor == 2.0 && s.jitter == 0.1);
    ck_assert_int_eq(s.max_sleep_ns, 30 * SEC);
    ck_assert_int_eq(s.max_attempts, 30);
    ck_assert_int_eq(s.deadline_ns, 600 * SEC);
    velstatus_retry_schedule_init(&t, sizeof(t));
    ck_assert(memcmp(&s, &t, sizeof(s)) == 0);
    velstatus_retry_schedule_init(NULL, sizeof(t));
    vs_fake_retry_init(&f);
    h = vs_fake_retry_host(&f);
#define BAD(field, value, name)                                                                     \
    do {                                                                                            \
        t = s;                                                                                      \
        t.field = value;                                                                            \
        ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &t, &h, &e), VELSTATUS_E_INVALID);       \
        ck_assert_msg(strstr(e.message, name) != NULL, "message \"%s\" lacks %s", e.message, name); \
        ck_assert_ptr_null(r);                                                                      \
    } while (0)
    BAD(base_ns, 0, "schedule.base_ns");
    BAD(factor, 0.5, "schedule.factor");
    BAD(factor, NAN, "schedule.factor");
    BAD(factor, INFINITY, "schedule.factor");
    BAD(jitter, -0.1, "schedule.jitter");
    BAD(jitter, 1.5, "schedule.jitter");
    BAD(max_sleep_ns, 50 * MS, "schedule.max_sleep_ns");
    BAD(max_attempts, 0, "schedule.max_attempts");
    BAD(deadline_ns, -1, "schedule.deadline_ns");
    BAD(flags, 1, "schedule.flags");
#undef BAD
    t = s;
    t.struct_size = 8;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &t, &h, &e), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_retry_hardened(NULL, ctx, &s, &h, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, NULL, &e), VELSTATUS_E_INVALID);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(hardened_schedule_and_deadline)
{
    /* r = 0, no latency: 0.1 0.2 ... 25.6 s, then 30 s each; after 9 sleeps
     * 51.1 s; 18 more of 30 s reach 591.1 s and a 19th would cross 600 s. */
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    const char *text;
    int64_t total;
    vs_fake_retry f;
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    h = vs_fake_retry_host(&f);
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, NULL, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_DEADLINE);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 27);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 28);
    for (size_t i = 0; i < 9; i++)
        ck_assert_int_eq(velstatus_retry_result_sleep(r, i), (100 * MS) << i);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 9), 30 * SEC);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
    ck_assert_int_eq(total, 591100 * MS);
    ck_assert_int_le(f.clock, 600 * SEC); /* no sleep crossed the deadline */
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 0);
    ck_assert_int_eq(velstatus_retry_result_error(&text, NULL, r), 1);
    ck_assert_str_eq(text, "boom 28");
    velstatus_retry_result_free(r);
    /* With 5 s per attempt the clock, not the sleep sum, is what counts. */
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    f.latency = 5 * SEC;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, NULL, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_DEADLINE);
    ck_assert_int_le(f.clock, 600 * SEC);
    ck_assert_uint_lt(velstatus_retry_result_attempts(r), 28);
    /* the next 30 s sleep would have crossed: clock + 30 s > 600 s */
    ck_assert_int_gt(f.clock + 30 * SEC, 600 * SEC);
    velstatus_retry_result_free(r);
    /* Without now(): the sleep sum (latency ignored). */
    h.now = NULL;
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    f.latency = 5 * SEC;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, NULL, &h, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 28);
    velstatus_retry_result_free(r);
    /* now() failing, or going backwards. */
    h = vs_fake_retry_host(&f);
    f.now_rc = -4;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, NULL, &h, &e), VELSTATUS_E_HOST);
    ck_assert_int_eq(e.host_code, -4);
    f.now_rc = 0;
    f.clock = 10;
    f.clock_backwards = 1;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, NULL, &h, &e), VELSTATUS_E_HOST);
    ck_assert_ptr_nonnull(strstr(e.message, "backwards"));
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(hardened_attempts_conflict_terminal_jitter)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_retry_schedule s = vs_schedule();
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    const char *text;
    vs_fake_retry f;
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    h = vs_fake_retry_host(&f);
    /* max_attempts: stop after attempt 4, no trailing sleep. */
    s.max_attempts = 4;
    s.jitter = 0;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 4);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 3);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 0);
    velstatus_retry_result_free(r);
    /* A conflict waits the base and does not grow the delay. */
    s.max_attempts = 5;
    f.cls[2] = VELSTATUS_RETRY_CLASS_CONFLICT;
    f.cls[3] = VELSTATUS_RETRY_CLASS_CONFLICT;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 0), 100 * MS);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 1), 100 * MS);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 2), 100 * MS);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 3), 200 * MS);
    velstatus_retry_result_free(r);
    /* A terminal error stops at once (no sleep), and is returned. */
    f.cls[3] = VELSTATUS_RETRY_CLASS_TERMINAL;
    f.interrupted[3] = 1; /* no OnError quirk in the hardened driver */
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TERMINAL);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 3);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 2);
    ck_assert_int_eq(velstatus_retry_result_error(&text, NULL, r), 1);
    ck_assert_str_eq(text, "boom 3");
    velstatus_retry_result_free(r);
    /* Jitter takes off up to j*d: the ceiling holds. */
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    f.r = 0.5;
    s = vs_schedule();
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 0), 95 * MS);
    for (size_t i = 0; i < velstatus_retry_result_sleep_count(r); i++)
        ck_assert_int_le(velstatus_retry_result_sleep(r, i), 30 * SEC);
    ck_assert_int_eq(velstatus_retry_result_sleep(r, 20), 28500 * MS);
    velstatus_retry_result_free(r);
    /* Success. */
    vs_fake_retry_init(&f);
    f.fail_until = 1;
    ck_assert_int_eq(velstatus_retry_hardened(&r, ctx, &s, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_SUCCEEDED);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 2);
    ck_assert_int_eq(velstatus_retry_result_error(NULL, NULL, r), 0);
    velstatus_retry_result_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- the policy entry point ---- */

START_TEST(run_by_policy)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy vp = vs_policy(VELSTATUS_PRESET_VELERO), hp = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_retry_result *r;
    velstatus_retry_host h;
    velstatus_error e;
    vs_fake_retry f;
    int ok = -1;
    vs_fake_retry_init(&f);
    f.fail_until = 1000;
    f.cls[1] = VELSTATUS_RETRY_CLASS_TERMINAL; /* a 422 */
    h = vs_fake_retry_host(&f);
    /* Velero: every error retried, classify never called; CapBackoff(10m) with jitter. */
    f.r = 0;
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 600 * SEC, &h, &vp, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 7);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(r), 1);
    ck_assert_int_eq(f.classifies, 0);
    ck_assert_int_eq(f.randoms, 7); /* CapBackoff's jitter is 0.1 */
    velstatus_retry_result_free(r);
    /* Velero with retry_classify_errors: RetryOnRetriableMaxBackOff. */
    vp.retry_classify_errors = 1;
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 600 * SEC, &h, &vp, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 1);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TERMINAL);
    velstatus_retry_result_free(r);
    /* Hardened (NULL policy too): classified, the 422 is not retried. */
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 600 * SEC, &h, NULL, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_retry_result_attempts(r), 1);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_TERMINAL);
    velstatus_retry_result_free(r);
    /* Hardened: the resource timeout is the deadline. */
    f.cls[1] = VELSTATUS_RETRY_CLASS_TRANSIENT;
    f.clock = 0;
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 60 * SEC, &h, &hp, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_DEADLINE);
    ck_assert_int_le(f.clock, 60 * SEC);
    velstatus_retry_result_free(r);
    /* A longer timeout: the 30-attempt limit ends it first (0.1 .. 25.6 s, then 20 x 30 s). */
    {
        int64_t total;
        vs_fake_retry_init(&f);
        f.fail_until = 1000;
        ck_assert_int_eq(velstatus_retry_run(&r, ctx, 3600 * SEC, &h, &hp, &e), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_EXHAUSTED);
        ck_assert_uint_eq(velstatus_retry_result_attempts(r), 30);
        ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, r), 1);
        ck_assert_int_eq(total, 651100 * MS);
        velstatus_retry_result_free(r);
    }
    /* Hardened without classification: everything transient. */
    hp.retry_classify_errors = 0;
    f.cls[1] = VELSTATUS_RETRY_CLASS_TERMINAL;
    f.classifies = 0;
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 0, &h, &hp, &e), VELSTATUS_OK);
    ck_assert_int_eq(f.classifies, 0);
    ck_assert_uint_gt(velstatus_retry_result_attempts(r), 1);
    velstatus_retry_result_free(r);
    /* The internal entry point the server-status step uses. */
    vs_fake_retry_init(&f);
    f.fail_until = 2;
    hp = vs_policy(VELSTATUS_PRESET_HARDENED);
    ck_assert_int_eq(velstatus__retry_run(NULL, &ok, ctx, &hp, 0, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(ok, 1);
    f.fail_until = 1000;
    f.cls[1] = VELSTATUS_RETRY_CLASS_TERMINAL;
    f.nsleeps = 0;
    ck_assert_int_eq(velstatus__retry_run(NULL, &ok, ctx, &hp, 0, &h, &e), VELSTATUS_OK);
    ck_assert_int_eq(ok, 0);
    /* Argument checks. */
    ck_assert_int_eq(velstatus_retry_run(NULL, ctx, 0, &h, NULL, &e), VELSTATUS_E_INVALID);
    vp.struct_size = 4;
    ck_assert_int_eq(velstatus_retry_run(&r, ctx, 0, &h, &vp, &e), VELSTATUS_E_ABI);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- results and names ---- */

START_TEST(result_getters_on_null)
{
    const char *t = "x";
    size_t len = 3;
    int64_t total = 5;
    ck_assert_int_eq(velstatus_retry_result_outcome(NULL), VELSTATUS_RETRY_OUTCOME_INVALID);
    ck_assert_uint_eq(velstatus_retry_result_attempts(NULL), 0);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(NULL), 0);
    ck_assert_int_eq(velstatus_retry_result_sleep(NULL, 0), 0);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, NULL), 0);
    ck_assert_int_eq(total, 0);
    ck_assert_int_eq(velstatus_retry_result_trailing_sleep(NULL), 0);
    ck_assert_int_eq(velstatus_retry_result_error(&t, &len, NULL), 0);
    ck_assert_ptr_null(t);
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(velstatus_retry_result_error_attempt(NULL), 0);
    velstatus_retry_result_free(NULL);
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_SUCCEEDED), "succeeded");
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED), "not_attempted");
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_TERMINAL), "terminal");
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_EXHAUSTED), "exhausted");
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_DEADLINE), "deadline");
    ck_assert_str_eq(velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_TRUNCATED), "truncated");
    ck_assert_ptr_null(velstatus_retry_outcome_to_string((velstatus_retry_outcome)6));
    velstatus_retry_host_init(NULL, 0);
}
END_TEST

static int is_token(const char *t)
{
    if (!t || !(*t >= 'a' && *t <= 'z'))
        return 0;
    for (; *t; t++)
        if (!((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_'))
            return 0;
    return 1;
}

START_TEST(enum_tokens_round_trip)
{
    /* doc/conventions.md §1: every value has a unique lowercase token that parses back. */
    const char *seen[16];
    size_t nseen = 0;
    int n;
    for (n = 0; velstatus_retry_outcome_to_string((velstatus_retry_outcome)n); n++) {
        const char *t = velstatus_retry_outcome_to_string((velstatus_retry_outcome)n);
        velstatus_retry_outcome o = (velstatus_retry_outcome)99;
        ck_assert(is_token(t));
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, t, strlen(t), NULL), VELSTATUS_OK);
        ck_assert_int_eq(o, n);
        for (size_t j = 0; j < nseen; j++)
            ck_assert_str_ne(seen[j], t);
        seen[nseen++] = t;
    }
    ck_assert_int_eq(n, 6);
    nseen = 0;
    for (n = 0; velstatus_retry_class_to_string((velstatus_retry_class)n); n++) {
        const char *t = velstatus_retry_class_to_string((velstatus_retry_class)n);
        velstatus_retry_class c = (velstatus_retry_class)99;
        ck_assert(is_token(t));
        ck_assert_int_eq(velstatus_retry_class_from_string(&c, t, strlen(t), NULL), VELSTATUS_OK);
        ck_assert_int_eq(c, n);
        for (size_t j = 0; j < nseen; j++)
            ck_assert_str_ne(seen[j], t);
        seen[nseen++] = t;
    }
    ck_assert_int_eq(n, 3);
    nseen = 0;
    for (n = 0; velstatus_backoff_kind_to_string((velstatus_backoff_kind)n); n++) {
        const char *t = velstatus_backoff_kind_to_string((velstatus_backoff_kind)n);
        velstatus_backoff_kind k = (velstatus_backoff_kind)99;
        velstatus_backoff b;
        ck_assert(is_token(t));
        ck_assert_int_eq(velstatus_backoff_kind_from_string(&k, t, strlen(t), NULL), VELSTATUS_OK);
        ck_assert_int_eq(k, n);
        ck_assert_int_eq(velstatus_backoff_init_preset(&b, sizeof(b), k, 0, NULL), VELSTATUS_OK);
        for (size_t j = 0; j < nseen; j++)
            ck_assert_str_ne(seen[j], t);
        seen[nseen++] = t;
    }
    ck_assert_int_eq(n, 3);
    ck_assert_ptr_null(velstatus_retry_outcome_to_string((velstatus_retry_outcome)-1));
    ck_assert_ptr_null(velstatus_retry_class_to_string((velstatus_retry_class)3));
    ck_assert_ptr_null(velstatus_backoff_kind_to_string((velstatus_backoff_kind)-1));
    {
        velstatus_retry_outcome o = VELSTATUS_RETRY_OUTCOME_DEADLINE;
        velstatus_retry_class c = VELSTATUS_RETRY_CLASS_CONFLICT;
        velstatus_backoff_kind k = VELSTATUS_BACKOFF_DEFAULT_RETRY;
        /* Exact and case-sensitive: prefixes, case and extra bytes fail, and leave *out alone. */
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, "exhaust", 7, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, "Exhausted", 9, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, "exhaustedx", 10, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(o, VELSTATUS_RETRY_OUTCOME_DEADLINE);
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, "terminal!", 8, NULL), VELSTATUS_OK);
        ck_assert_int_eq(o, VELSTATUS_RETRY_OUTCOME_TERMINAL);
        ck_assert_int_eq(velstatus_retry_class_from_string(&c, "TERMINAL", 8, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_retry_class_from_string(&c, "", 0, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(c, VELSTATUS_RETRY_CLASS_CONFLICT);
        ck_assert_int_eq(velstatus_backoff_kind_from_string(&k, "velero", 6, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(k, VELSTATUS_BACKOFF_DEFAULT_RETRY);
        ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, NULL, 0, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_retry_class_from_string(NULL, "conflict", 8, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_backoff_kind_from_string(&k, NULL, 3, NULL), VELSTATUS_E_INVALID);
    }
}
END_TEST

/* ---- the transition table ---- */

typedef struct row {
    velstatus_kind kind;
    velstatus_phase from, to;
    int startup;
    int velero, hardened;
} row;

/* doc/velero-behaviour.md §4.3, row by row (each row's transitions from §5.2 / §5.3). */
static const row spec_rows[] = {
    /* BQC:Reconcile: New -> Queued, Queued -> ReadyToStart: no retry (requeued). */
    {B, P(NEW), P(QUEUED), 0, 0, 0},
    {B, P(QUEUED), P(READY_TO_START), 0, 0, 0},
    /* BC:Reconcile line 304: ReadyToStart -> InProgress / FailedValidation: no retry; §6.15 adds it. */
    {B, P(READY_TO_START), P(IN_PROGRESS), 0, 0, 1},
    {B, P(READY_TO_START), P(FAILED_VALIDATION), 0, 0, 1},
    /* BC:Reconcile line 370: InProgress -> Waiting*[PF] / Finalizing[PF] / Failed: retried. */
    {B, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), 0, 1, 1},
    {B, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), 0, 1, 1},
    {B, P(IN_PROGRESS), P(FINALIZING), 0, 1, 1},
    {B, P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), 0, 1, 1},
    {B, P(IN_PROGRESS), P(FAILED), 0, 1, 1},
    /* BOC:updateBackupAndOperationsJSON: Waiting* -> Waiting*PF / Finalizing* / PartiallyFailed: no retry (10 s poll). */
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), 0, 0, 0},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), 0, 0, 0},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), 0, 0, 0},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), 0, 0, 0},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), 0, 0, 0},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(PARTIALLY_FAILED), 0, 0, 0},
    /* BFC:Reconcile: Finalizing -> Completed; FinalizingPartiallyFailed -> PartiallyFailed: retried. */
    {B, P(FINALIZING), P(COMPLETED), 0, 1, 1},
    {B, P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), 0, 1, 1},
    /* backup_deletion_controller.go:patchBackup: any -> Deleting: no retry; §6.15 adds it. */
    {B, P(NEW), P(DELETING), 0, 0, 1},
    {B, P(COMPLETED), P(DELETING), 0, 0, 1},
    {B, P(FAILED), P(DELETING), 0, 0, 1},
    {B, P(FINALIZING), P(DELETING), 0, 0, 1},
    /* RC:Reconcile line 255: New -> InProgress / FailedValidation: no retry; §6.15 adds it. */
    {R, P(NEW), P(IN_PROGRESS), 0, 0, 1},
    {R, P(NEW), P(FAILED_VALIDATION), 0, 0, 1},
    /* RC:Reconcile line 290: InProgress -> Waiting*[PF] / Finalizing*[PF] / Failed: retried. */
    {R, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), 0, 1, 1},
    {R, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), 0, 1, 1},
    {R, P(IN_PROGRESS), P(FINALIZING), 0, 1, 1},
    {R, P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), 0, 1, 1},
    {R, P(IN_PROGRESS), P(FAILED), 0, 1, 1},
    /* ROC:updateRestoreAndOperationsJSON: Waiting* -> ...: no retry. */
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), 0, 0, 0},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), 0, 0, 0},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), 0, 0, 0},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), 0, 0, 0},
    /* RFC:finishProcessing: Finalizing* -> Completed / PartiallyFailed: retried. */
    {R, P(FINALIZING), P(COMPLETED), 0, 1, 1},
    {R, P(FINALIZING), P(PARTIALLY_FAILED), 0, 1, 1},
    {R, P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), 0, 1, 1},
    /* SRV:markInProgressBackupsFailed / ...RestoresFailed: no retry; §6.15 adds it. */
    {B, P(IN_PROGRESS), P(FAILED), 1, 0, 1},
    {R, P(IN_PROGRESS), P(FAILED), 1, 0, 1},
    /* The startup pass makes no other write. */
    {B, P(READY_TO_START), P(IN_PROGRESS), 1, 0, 0},
};

START_TEST(transition_table_rows)
{
    velstatus_policy vp = vs_policy(VELSTATUS_PRESET_VELERO), hp = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_error e;
    for (size_t i = 0; i < sizeof(spec_rows) / sizeof(spec_rows[0]); i++) {
        const row *w = &spec_rows[i];
        int rv = -1, rh = -1, rn = -1, legal = 0;
        ck_assert_int_eq(velstatus_retry_transition(&rv, w->kind, w->from, w->to, w->startup, &vp, &e), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_retry_transition(&rh, w->kind, w->from, w->to, w->startup, &hp, &e), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_retry_transition(&rn, w->kind, w->from, w->to, w->startup, NULL, &e), VELSTATUS_OK);
        ck_assert_msg(rv == w->velero && rh == w->hardened && rn == w->hardened, "row %zu: %s %s -> %s: %d/%d", i,
                      velstatus_kind_to_string(w->kind), velstatus_phase_to_string(w->from),
                      velstatus_phase_to_string(w->to), rv, rh);
        /* Every row is a transition Velero makes (doc/velero-behaviour.md §5.2, §5.3). */
        ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, w->kind, w->from, w->to, NULL, &e), VELSTATUS_OK);
        ck_assert_msg(legal, "row %zu is not a legal transition", i);
    }
}
END_TEST

START_TEST(transition_table_exhaustive)
{
    /* Over every pair: retried implies legal; the Velero set is exactly the
     * 9 + 8 pairs of the rows above; hardened is a superset; the knob alone
     * makes the difference. */
    velstatus_policy vp = vs_policy(VELSTATUS_PRESET_VELERO), hp = vs_policy(VELSTATUS_PRESET_HARDENED), mix = vp;
    velstatus_error e;
    int nv[2] = {0, 0}, nh[2] = {0, 0};
    mix.retry_forgotten_patches = 1;
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < 13; a++)
            for (int z = 0; z < 13; z++) {
                velstatus_kind kind = (velstatus_kind)k;
                int rv, rh, rm, legal = 0;
                if (!velstatus_phase_valid(kind, (velstatus_phase)a) ||
                    !velstatus_phase_valid(kind, (velstatus_phase)z)) {
                    ck_assert_int_eq(
                        velstatus_retry_transition(&rv, kind, (velstatus_phase)a, (velstatus_phase)z, 0, &vp, &e),
                        VELSTATUS_E_INVALID);
                    continue;
                }
                ck_assert_int_eq(
                    velstatus_retry_transition(&rv, kind, (velstatus_phase)a, (velstatus_phase)z, 0, &vp, &e),
                    VELSTATUS_OK);
                ck_assert_int_eq(
                    velstatus_retry_transition(&rh, kind, (velstatus_phase)a, (velstatus_phase)z, 0, &hp, &e),
                    VELSTATUS_OK);
                ck_assert_int_eq(
                    velstatus_retry_transition(&rm, kind, (velstatus_phase)a, (velstatus_phase)z, 0, &mix, &e),
                    VELSTATUS_OK);
                ck_assert_int_eq(
                    velstatus_phase_transition(&legal, NULL, kind, (velstatus_phase)a, (velstatus_phase)z, NULL, &e),
                    VELSTATUS_OK);
                ck_assert(!rh || legal);
                ck_assert(!rv || rh);
                ck_assert_int_eq(rm, rh);
                nv[k] += rv;
                nh[k] += rh;
            }
    /* Backup: 5 from InProgress + Finalizing->Completed + FinalizingPF->PF = 7. */
    ck_assert_int_eq(nv[0], 7);
    /* Restore: 5 from InProgress + Finalizing->Completed/PF + FinalizingPF->PF = 8. */
    ck_assert_int_eq(nv[1], 8);
    /* Hardened adds ReadyToStart->InProgress/FV (2) and ->Deleting from the 11 phases
     * other than Deleting and InProgress, for backups; New->InProgress/FV for restores. */
    ck_assert_int_eq(nh[0], 7 + 2 + 11);
    ck_assert_int_eq(nh[1], 8 + 2);
}
END_TEST

START_TEST(transition_arguments)
{
    velstatus_error e;
    velstatus_policy p = vs_policy(VELSTATUS_PRESET_VELERO);
    int r;
    ck_assert_int_eq(velstatus_retry_transition(NULL, B, P(IN_PROGRESS), P(FAILED), 0, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_transition(&r, (velstatus_kind)2, P(IN_PROGRESS), P(FAILED), 0, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_transition(&r, R, P(QUEUED), P(FAILED), 0, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "from: a restore has no phase \"Queued\""));
    ck_assert_int_eq(velstatus_retry_transition(&r, R, P(NEW), (velstatus_phase)40, 0, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "to: unknown phase 40"));
    p.struct_size = 4;
    ck_assert_int_eq(velstatus_retry_transition(&r, B, P(IN_PROGRESS), P(FAILED), 0, &p, &e), VELSTATUS_E_ABI);
}
END_TEST

/* ---- allocation failure ---- */

START_TEST(failalloc_drivers)
{
    velstatus_status st;
    /* OnError with many sleeps (the sleeps array grows) and error texts. */
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 0);
        velstatus_retry_result *r = NULL;
        velstatus_retry_host h;
        vs_fake_retry f;
        vs_fake_retry_init(&f);
        f.fail_until = 40;
        h = vs_fake_retry_host(&f);
        h.sleep = NULL;
        b.jitter = 0;
        st = velstatus_retry_on_error(&r, ctx, &b, &h, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_uint_eq(velstatus_retry_result_attempts(r), 41);
        else
            ck_assert_ptr_null(r);
        velstatus_retry_result_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_retry_result *r = NULL;
        velstatus_retry_host h;
        vs_fake_retry f;
        vs_fake_retry_init(&f);
        f.fail_until = 1000;
        h = vs_fake_retry_host(&f);
        st = velstatus_retry_hardened(&r, ctx, NULL, &h, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_int_eq(velstatus_retry_result_outcome(r), VELSTATUS_RETRY_OUTCOME_DEADLINE);
        velstatus_retry_result_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 0);
        velstatus_retry_result *r = NULL;
        st = velstatus_backoff_simulate(&r, ctx, &b, 60, NULL, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_uint_eq(velstatus_retry_result_sleep_count(r), 60);
        velstatus_retry_result_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_policy vp = vs_policy(VELSTATUS_PRESET_VELERO);
        velstatus_retry_result *r = NULL;
        velstatus_retry_host h;
        vs_fake_retry f;
        vs_fake_retry_init(&f);
        f.fail_until = 3;
        h = vs_fake_retry_host(&f);
        st = velstatus_retry_run(&r, ctx, 600 * SEC, &h, &vp, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_uint_eq(velstatus_retry_result_attempts(r), 4);
        velstatus_retry_result_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_policy hp = vs_policy(VELSTATUS_PRESET_HARDENED);
        velstatus_retry_host h;
        int ok = -1;
        vs_fake_retry f;
        vs_fake_retry_init(&f);
        f.fail_until = 3;
        h = vs_fake_retry_host(&f);
        st = velstatus__retry_run(NULL, &ok, ctx, &hp, 0, &h, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_int_eq(ok, 1);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("retry");
    TCase *tc = tcase_create("backoff");
    tcase_add_test(tc, f2i_is_amd64_cvttsd2si);
    tcase_add_test(tc, step_semantics);
    tcase_add_test(tc, step_arguments);
    tcase_add_test(tc, presets);
    tcase_add_test(tc, cap_backoff_10m);
    tcase_add_test(tc, cap_backoff_table);
    tcase_add_test(tc, simulate_cut_and_overflow);
    tcase_add_test(tc, simulate_jitter_uses_host_random);
    suite_add_tcase(s, tc);
    tc = tcase_create("drivers");
    tcase_add_test(tc, on_error_velero_behaviour);
    tcase_add_test(tc, on_error_classify_and_interrupted);
    tcase_add_test(tc, on_error_host_failures);
    tcase_add_test(tc, on_error_null_text);
    tcase_add_test(tc, hardened_defaults_and_validation);
    tcase_add_test(tc, hardened_schedule_and_deadline);
    tcase_add_test(tc, hardened_attempts_conflict_terminal_jitter);
    tcase_add_test(tc, run_by_policy);
    tcase_add_test(tc, result_getters_on_null);
    tcase_add_test(tc, enum_tokens_round_trip);
    tcase_add_test(tc, failalloc_drivers);
    suite_add_tcase(s, tc);
    tc = tcase_create("transitions");
    tcase_add_test(tc, transition_table_rows);
    tcase_add_test(tc, transition_table_exhaustive);
    tcase_add_test(tc, transition_arguments);
    suite_add_tcase(s, tc);
    return s;
}
