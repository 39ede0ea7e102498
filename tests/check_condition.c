/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus_server_verdict_to_condition_json / velstatus_server_condition_reason:
 * the status mapping, the reason precedence, the API's reason pattern, the
 * message limit, observedGeneration, bad arguments, failed allocations. */
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <velstatus.h>

#include "failalloc.h"
#include "harness.h"

static const int64_t T = INT64_C(1764507600) * 1000000000; /* 2025-11-30T13:00:00Z */

/* A verdict over n BSLs named "<prefix>-<i>" with the phase, the first the default. */
static velstatus_server_verdict *verdict_of(velstatus_ctx *ctx, size_t n, const char *prefix, const char *phase,
                                            int with_default)
{
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < n; i++) {
        char name[16384];
        snprintf(name, sizeof(name), "%s-%zu", prefix, i);
        ck_assert_int_eq(velstatus_bsl_set_add(set, name, strlen(name), phase, strlen(phase), with_default && i == 0,
                                               VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                         VELSTATUS_OK);
    }
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
    velstatus_bsl_set_free(set);
    return v;
}

static json_t *condition(velstatus_ctx *ctx, const velstatus_server_verdict *v, int64_t gen)
{
    char *out = NULL;
    size_t len = 0;
    json_error_t jerr;
    json_t *j;
    ck_assert_int_eq(velstatus_server_verdict_to_condition_json(&out, &len, v, T, gen, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(len, strlen(out));
    j = json_loadb(out, len, 0, &jerr);
    ck_assert_msg(j != NULL, "not JSON: %s", out);
    velstatus_free(ctx, out);
    return j;
}

static void expect(velstatus_ctx *ctx, size_t n, const char *phase, int with_default, const char *status,
                   const char *reason)
{
    velstatus_server_verdict *v = verdict_of(ctx, n, "bsl", phase, with_default);
    json_t *j = condition(ctx, v, -1);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "Ready");
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), status);
    ck_assert_str_eq(json_string_value(json_object_get(j, "reason")), reason);
    ck_assert_str_eq(json_string_value(json_object_get(j, "lastTransitionTime")), "2025-11-30T13:00:00Z");
    ck_assert_str_eq(json_string_value(json_object_get(j, "message")), velstatus_server_verdict_message(v));
    ck_assert_ptr_null(json_object_get(j, "observedGeneration"));
    json_decref(j);
    velstatus_server_verdict_free(v);
}

START_TEST(status_mapping)
{
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    expect(ctx, 2, "Available", 1, "True", "AllLocationsAvailable");      /* Ready */
    expect(ctx, 2, "Available", 0, "True", "NoDefaultLocation");          /* PartiallyReady */
    expect(ctx, 0, "", 0, "Unknown", "NoLocations");                      /* Waiting */
    expect(ctx, 2, "", 1, "Unknown", "LocationsPending");                 /* Waiting */
    expect(ctx, 2, "Unavailable", 1, "False", "AllLocationsUnavailable"); /* NotReady */
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reason_precedence_and_pattern)
{
    static const struct {
        uint32_t flags;
        const char *reason;
    } cases[] = {
        {0, "AllLocationsAvailable"},
        {VELSTATUS_SERVER_REASON_NO_BSL, "NoLocations"},
        {VELSTATUS_SERVER_REASON_PENDING, "LocationsPending"},
        {VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE, "AllLocationsUnavailable"},
        {VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE, "SomeLocationsUnavailable"},
        {VELSTATUS_SERVER_REASON_SOME_PENDING, "SomeLocationsPending"},
        {VELSTATUS_SERVER_REASON_NO_DEFAULT, "NoDefaultLocation"},
        {VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS, "MultipleDefaultLocations"},
        {VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE, "DefaultLocationUnavailable"},
        {VELSTATUS_SERVER_REASON_DEFAULT_READONLY, "DefaultLocationReadOnly"},
        {VELSTATUS_SERVER_REASON_STALE, "LocationsNotRevalidated"},
        {VELSTATUS_SERVER_REASON_UNKNOWN_PHASE, "UnknownLocationPhase"},
        {VELSTATUS_SERVER_REASON_NEVER_VALIDATED, "LocationsNeverValidated"},
        {VELSTATUS_SERVER_REASON_NEVER_VALIDATED | VELSTATUS_SERVER_REASON_PENDING, "LocationsNeverValidated"},
        /* precedence: the most severe flag names the condition */
        {VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE | VELSTATUS_SERVER_REASON_NO_DEFAULT, "AllLocationsUnavailable"},
        {VELSTATUS_SERVER_REASON_PENDING | VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE, "LocationsPending"},
        {VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE | VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE,
         "DefaultLocationUnavailable"},
        {VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE | VELSTATUS_SERVER_REASON_STALE, "SomeLocationsUnavailable"},
        {VELSTATUS_SERVER_REASON_SOME_PENDING | VELSTATUS_SERVER_REASON_UNKNOWN_PHASE, "SomeLocationsPending"},
        {UINT32_C(0xFFFFFFFF), "NoLocations"},
        {UINT32_C(1) << 20, "AllLocationsAvailable"}, /* no known flag */
    };
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$", REG_EXTENDED | REG_NOSUB), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *r = velstatus_server_condition_reason(cases[i].flags);
        ck_assert_str_eq(r, cases[i].reason);
        ck_assert_msg(regexec(&re, r, 0, NULL, 0) == 0, "%s does not match the API's pattern", r);
    }
    regfree(&re);
}
END_TEST

/* A message over 32768 bytes (the verdict names three BSLs; the library
 * takes names of any length) is cut at a character boundary, marked, 32768
 * bytes in all. */
START_TEST(message_limit)
{
    velstatus_ctx *ctx = NULL;
    velstatus_server_verdict *v;
    json_t *j;
    const char *m;
    static char name[12001];
    ctx = vs_test_ctx();
    for (int prefix = 0; prefix < 3; prefix++) {
        /* "é" is two bytes: the cut point moves over both byte positions */
        memset(name, 'x', (size_t)prefix);
        for (size_t i = (size_t)prefix; i + 2 <= 12000; i += 2)
            memcpy(name + i, "\xc3\xa9", 2);
        name[prefix + (12000 - prefix) / 2 * 2] = '\0';
        v = verdict_of(ctx, 3, name, "Unavailable", 1);
        ck_assert_uint_gt(strlen(velstatus_server_verdict_message(v)), 32768);
        j = condition(ctx, v, -1);
        m = json_string_value(json_object_get(j, "message"));
        ck_assert_uint_le(strlen(m), 32768);
        ck_assert_uint_ge(strlen(m), 32768 - 1);
        ck_assert_str_eq(m + strlen(m) - 16, " ... (truncated)");
        ck_assert_int_eq(strncmp(m, velstatus_server_verdict_message(v), strlen(m) - 16), 0);
        json_decref(j); /* jansson accepted the text: the cut kept UTF-8 valid */
        velstatus_server_verdict_free(v);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(generation_and_bad_arguments)
{
    velstatus_ctx *ctx = NULL;
    velstatus_server_verdict *v;
    velstatus_error err;
    json_t *j;
    char *out = (char *)&err;
    ctx = vs_test_ctx();
    v = verdict_of(ctx, 1, "a", "Available", 1);
    j = condition(ctx, v, 7);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "observedGeneration")), 7);
    json_decref(j);
    j = condition(ctx, v, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "observedGeneration")), 0);
    json_decref(j);
    ck_assert_int_eq(velstatus_server_verdict_to_condition_json(&out, NULL, v, T, -2, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "observed_generation"));
    ck_assert_int_eq(velstatus_server_verdict_to_condition_json(NULL, NULL, v, T, -1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_verdict_to_condition_json(&out, NULL, NULL, T, -1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_verdict_to_condition_json(&out, NULL, v, INT64_MIN, -1, &err), VELSTATUS_OK);
    velstatus_free(ctx, out);
    velstatus_server_verdict_free(v);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(failed_allocations)
{
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_server_verdict *v;
        char *out = NULL;
        VS_FAILALLOC_PAUSE(fa);
        v = verdict_of(ctx, 3, "location", "Unavailable", 1);
        VS_FAILALLOC_RESUME(fa);
        st = velstatus_server_verdict_to_condition_json(&out, NULL, v, T, 3, NULL);
        if (st != VELSTATUS_OK)
            ck_assert_ptr_null(out);
        velstatus_free(ctx, out);
        velstatus_server_verdict_free(v);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("condition");
    TCase *tc = tcase_create("condition");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, status_mapping);
    tcase_add_test(tc, reason_precedence_and_pattern);
    tcase_add_test(tc, message_limit);
    tcase_add_test(tc, generation_and_bad_arguments);
    tcase_add_test(tc, failed_allocations);
    suite_add_tcase(s, tc);
    return s;
}
