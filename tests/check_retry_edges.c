/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the retry drivers: the hardened deadline when the host's clock
 * passes through or fails, jitter and sleep callbacks that fail, argument
 * checks of every driver, sums of sleeps that do not fit in int64, and the
 * token parsers given no output. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "fake_host.h"
#include "harness.h"
#include "velstatus.h"

#define MS INT64_C(1000000)

/* The shared fake, every attempt failing with an etcd timeout. */
static void edge_fake(vs_fake_retry *f)
{
    vs_fake_retry_init(f);
    f->fail_until = UINT64_MAX;
    f->error = "etcdserver: request timed out";
}

/* base 100 ms, x2, no jitter, deadline 250 ms. */
static velstatus_retry_schedule short_schedule(void)
{
    velstatus_retry_schedule s = vs_schedule();
    s.jitter = 0;
    s.deadline_ns = 250 * MS;
    return s;
}

START_TEST(hardened_deadline_counts_sleeps_when_now_passes_through)
{
    /* now answers at the start, then says PASSTHROUGH ("as if NULL"): the
     * elapsed time is the sum of the sleeps. 100 ms fits the 250 ms budget;
     * 100 + 200 does not, so the run stops after two attempts. */
    velstatus_ctx *ctx = NULL;
    vs_fake_retry ch;
    velstatus_retry_result *res = NULL;
    velstatus_retry_schedule s = short_schedule();
    ctx = vs_test_ctx();
    for (int start_answers = 0; start_answers <= 1; start_answers++) {
        edge_fake(&ch);
        ch.now_answers = start_answers; /* 0: PASSTHROUGH from the first call */
        ch.now_rc = VELSTATUS_PASSTHROUGH;
        velstatus_retry_host h = vs_fake_retry_host(&ch);
        ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_retry_result_outcome(res), VELSTATUS_RETRY_OUTCOME_DEADLINE);
        ck_assert_uint_eq(velstatus_retry_result_attempts(res), 2);
        ck_assert_uint_eq(velstatus_retry_result_sleep_count(res), 1);
        ck_assert_int_eq(velstatus_retry_result_sleep(res, 0), 100 * MS);
        velstatus_retry_result_free(res);
        res = NULL;
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(hardened_host_failures_stop_the_run)
{
    velstatus_ctx *ctx = NULL;
    vs_fake_retry ch;
    velstatus_retry_result *res = NULL;
    velstatus_error err;
    velstatus_retry_schedule s = short_schedule();
    ctx = vs_test_ctx();

    /* now fails at the start, and later. */
    for (int ok_calls = 0; ok_calls <= 1; ok_calls++) {
        edge_fake(&ch);
        ch.now_answers = ok_calls;
        ch.now_rc = -3;
        velstatus_retry_host h = vs_fake_retry_host(&ch);
        ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, &err), VELSTATUS_E_HOST);
        ck_assert_int_eq(err.host_code, -3);
        ck_assert_ptr_nonnull(strstr(err.message, "host.now"));
        ck_assert_ptr_null(res);
    }

    /* The jitter's random number: a host failure, and a number outside [0, 1). */
    s.jitter = 0.1;
    edge_fake(&ch);
    ch.now_answers = 100;
    ch.random_rc = -4;
    velstatus_retry_host h = vs_fake_retry_host(&ch);
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -4);
    ch.random_rc = 0;
    ch.r = 1.0;
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, &err), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err.message, "host.random"));
    /* random PASSTHROUGH is r = 0: the full sleep. */
    ch.random_rc = VELSTATUS_PASSTHROUGH;
    ch.clock = 0;
    ch.nows = 0;
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_sleep(res, 0), 100 * MS);
    velstatus_retry_result_free(res);
    res = NULL;

    /* sleep fails. */
    edge_fake(&ch);
    ch.now_answers = 100;
    ch.sleep_rc = -6;
    h = vs_fake_retry_host(&ch);
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -6);
    ck_assert_ptr_null(res);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(drivers_check_their_arguments)
{
    velstatus_ctx *ctx = NULL;
    velstatus_retry_result *res = NULL;
    velstatus_error err;
    vs_fake_retry ch;
    edge_fake(&ch);
    velstatus_retry_host h = vs_fake_retry_host(&ch);
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_retry_hardened(&res, NULL, NULL, &h, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "ctx is NULL");
    ck_assert_int_eq(velstatus_retry_run(&res, NULL, 0, &h, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "ctx is NULL");
    ck_assert_int_eq(velstatus_retry_run(&res, ctx, 0, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "host is NULL");
    ck_assert_int_eq(velstatus_backoff_simulate(NULL, ctx, &b, 3, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "out is NULL");
    ck_assert_int_eq(velstatus_backoff_simulate(&res, NULL, &b, 3, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "ctx is NULL");
    b.flags = 1;
    ck_assert_int_eq(velstatus_backoff_simulate(&res, ctx, &b, 3, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(res);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(total_sleep_reports_a_sum_out_of_int64)
{
    /* Three raw sleeps of 2^62 ns (factor 1) sum past INT64_MAX; three of
     * -2^62 below INT64_MIN. The total is then unknown (0 returned), while
     * each sleep is still reported. */
    static const int64_t d[] = {INT64_C(1) << 62, -(INT64_C(1) << 62)};
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    for (size_t i = 0; i < 2; i++) {
        velstatus_backoff b;
        velstatus_retry_result *res = NULL;
        int64_t total = 99;
        velstatus_backoff_init(&b, sizeof(b));
        b.duration_ns = d[i];
        b.factor = 1;
        b.steps = 4;
        ck_assert_int_eq(velstatus_backoff_simulate(&res, ctx, &b, 10, NULL, NULL), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_retry_result_sleep_count(res), 3);
        ck_assert_int_eq(velstatus_retry_result_sleep(res, 2), d[i]);
        ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, res), 0);
        ck_assert_int_eq(velstatus_retry_result_total_sleep(NULL, res), 0);
        velstatus_retry_result_free(res);
    }
    /* A representable sum, asked for without an output. */
    velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    velstatus_retry_result *res = NULL;
    int64_t total = 0;
    ck_assert_int_eq(velstatus_backoff_simulate(&res, ctx, &b, 10, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(NULL, res), 1);
    ck_assert_int_eq(velstatus_retry_result_total_sleep(&total, res), 1);
    ck_assert_int_eq(total, 4 * 10 * MS);
    velstatus_retry_result_free(res);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(token_parsers_need_an_output_and_text)
{
    velstatus_retry_outcome o = VELSTATUS_RETRY_OUTCOME_DEADLINE;
    velstatus_retry_class c = VELSTATUS_RETRY_CLASS_CONFLICT;
    velstatus_backoff_kind k = VELSTATUS_BACKOFF_DEFAULT_RETRY;
    const char *name = velstatus_retry_outcome_to_string(VELSTATUS_RETRY_OUTCOME_SUCCEEDED);
    ck_assert_int_eq(velstatus_retry_outcome_from_string(NULL, name, strlen(name), NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_outcome_from_string(&o, NULL, 3, NULL), VELSTATUS_E_INVALID);
    name = velstatus_retry_class_to_string(VELSTATUS_RETRY_CLASS_TERMINAL);
    ck_assert_int_eq(velstatus_retry_class_from_string(NULL, name, strlen(name), NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_retry_class_from_string(&c, name, strlen(name), NULL), VELSTATUS_OK);
    ck_assert_int_eq(c, VELSTATUS_RETRY_CLASS_TERMINAL);
    name = velstatus_backoff_kind_to_string(VELSTATUS_BACKOFF_VELERO_CAP);
    ck_assert_int_eq(velstatus_backoff_kind_from_string(NULL, name, strlen(name), NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_backoff_kind_from_string(&k, name, strlen(name), NULL), VELSTATUS_OK);
    ck_assert_int_eq(k, VELSTATUS_BACKOFF_VELERO_CAP);
    ck_assert_int_eq(o, VELSTATUS_RETRY_OUTCOME_DEADLINE);
}
END_TEST

START_TEST(hardened_stops_when_the_clock_is_already_past_the_deadline)
{
    /* The host's clock jumped beyond the deadline during the first attempt:
     * DEADLINE at once, no sleep taken. A sleep slot answering PASSTHROUGH
     * is a dry run (as if NULL). */
    velstatus_ctx *ctx = NULL;
    vs_fake_retry ch;
    velstatus_retry_result *res = NULL;
    velstatus_retry_schedule s = short_schedule();
    ctx = vs_test_ctx();
    edge_fake(&ch);
    ch.latency = 300 * MS; /* the first attempt takes the clock past the 250 ms deadline */
    velstatus_retry_host h = vs_fake_retry_host(&ch);
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_result_outcome(res), VELSTATUS_RETRY_OUTCOME_DEADLINE);
    ck_assert_uint_eq(velstatus_retry_result_attempts(res), 1);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(res), 0);
    velstatus_retry_result_free(res);
    res = NULL;
    edge_fake(&ch);
    ch.now_answers = 100;
    ch.sleep_rc = VELSTATUS_PASSTHROUGH;
    h = vs_fake_retry_host(&ch);
    ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, &s, &h, NULL), VELSTATUS_OK);
    /* The clock never moved (no real sleep), yet the run ends: 100 and
     * 200 ms fit the 250 ms budget one at a time, 400 ms does not. */
    ck_assert_int_eq(velstatus_retry_result_outcome(res), VELSTATUS_RETRY_OUTCOME_DEADLINE);
    ck_assert_uint_eq(velstatus_retry_result_sleep_count(res), 2);
    ck_assert_uint_eq(velstatus_retry_result_attempts(res), 3);
    velstatus_retry_result_free(res);
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("retry_edges");
    TCase *tc = tcase_create("retry_edges");
    tcase_add_test(tc, hardened_deadline_counts_sleeps_when_now_passes_through);
    tcase_add_test(tc, hardened_host_failures_stop_the_run);
    tcase_add_test(tc, drivers_check_their_arguments);
    tcase_add_test(tc, total_sleep_reports_a_sum_out_of_int64);
    tcase_add_test(tc, token_parsers_need_an_output_and_text);
    tcase_add_test(tc, hardened_stops_when_the_clock_is_already_past_the_deadline);
    suite_add_tcase(s, tc);
    return s;
}
