/* SPDX-License-Identifier: Apache-2.0 */
/* Server status by namespace: BSL sets keyed by namespace and name, the
 * distinct namespaces, classify_namespace, the fields of the locations
 * table (provider, bucket, prefix) and their JSON, the never_validated
 * reason; a failalloc loop over each allocating addition. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"

#define SEC INT64_C(1000000000)
#define T0 (INT64_C(1764507600) * SEC) /* 2025-11-30T13:00:00Z */

static velstatus_bsl_record rec(const char *ns, const char *name, const char *phase)
{
    velstatus_bsl_record r;
    velstatus_bsl_record_init(&r, sizeof(r));
    r.ns = ns;
    r.ns_len = VELSTATUS_NUL_TERMINATED;
    r.name = name;
    r.name_len = VELSTATUS_NUL_TERMINATED;
    r.phase = phase;
    r.phase_len = VELSTATUS_NUL_TERMINATED;
    return r;
}

/* kubectl get bsl -A -o json with the same name in two namespaces. */
START_TEST(decode_two_namespaces)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    velstatus_bsl_record r;
    velstatus_error err;
    size_t len;
    char *text = vs_test_read_data("server-status/two-namespaces.json", &len), *out = NULL;
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, text, len, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 3);
    ck_assert_uint_eq(velstatus_bsl_set_namespace_count(set), 2);
    ck_assert_str_eq(velstatus_bsl_set_namespace_at(set, 0), "openshift-adp");
    ck_assert_str_eq(velstatus_bsl_set_namespace_at(set, 1), "velero");
    ck_assert_ptr_null(velstatus_bsl_set_namespace_at(set, 2));
    ck_assert_str_eq(velstatus_bsl_set_namespace(set, 2), "velero");
    ck_assert_ptr_null(velstatus_bsl_set_namespace(set, 3));
    velstatus_bsl_record_init(&r, sizeof(r));
    ck_assert_int_eq(velstatus_bsl_set_get(set, 0, &r, &err), VELSTATUS_OK);
    ck_assert_str_eq(r.provider, "aws");
    ck_assert_str_eq(r.bucket, "adp-backups");
    ck_assert_str_eq(r.prefix, "velero");
    ck_assert_uint_eq(r.prefix_len, 6);
    ck_assert_str_eq(r.ns, "openshift-adp");
    /* each namespace its own verdict */
    ck_assert_int_eq(
        velstatus_server_status_classify_namespace(&v, set, "openshift-adp", VELSTATUS_NUL_TERMINATED, NULL, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_READY);
    ck_assert_uint_eq(velstatus_server_verdict_total(v), 1);
    ck_assert_str_eq(velstatus_server_verdict_namespace(v), "openshift-adp");
    ck_assert_int_eq(velstatus_server_verdict_to_json(&out, NULL, v, &err), VELSTATUS_OK);
    ck_assert_ptr_nonnull(strstr(out, ",\"namespace\":\"openshift-adp\"}"));
    velstatus_free(ctx, out);
    velstatus_server_verdict_free(v);
    ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, "velero", 6, NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_WAITING);
    ck_assert_uint_eq(velstatus_server_verdict_total(v), 2);
    ck_assert_str_eq(velstatus_server_verdict_default(v), "default");
    velstatus_server_verdict_free(v);
    /* the default-location setting names a BSL of that namespace */
    {
        velstatus_server_status_options o;
        velstatus_server_status_options_init(&o, sizeof(o));
        o.default_location = "secondary";
        o.default_location_len = 9;
        ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, "openshift-adp", 13, &o, &err),
                         VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_server_verdict_reasons(v) & VELSTATUS_SERVER_REASON_NO_DEFAULT,
                          VELSTATUS_SERVER_REASON_NO_DEFAULT);
        velstatus_server_verdict_free(v);
        ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, "velero", 6, &o, &err), VELSTATUS_OK);
        ck_assert_str_eq(velstatus_server_verdict_default(v), "secondary");
        velstatus_server_verdict_free(v);
    }
    /* a namespace without BSLs: the empty set's verdict */
    ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, "nowhere", 7, NULL, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_verdict_reasons(v), VELSTATUS_SERVER_REASON_NO_BSL);
    velstatus_server_verdict_free(v);
    /* the whole set, as before: no namespace recorded */
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, &err), VELSTATUS_OK);
    ck_assert_ptr_null(velstatus_server_verdict_namespace(v));
    ck_assert_int_eq(velstatus_server_verdict_to_json(&out, NULL, v, &err), VELSTATUS_OK);
    ck_assert_ptr_null(strstr(out, "\"namespace\""));
    velstatus_free(ctx, out);
    velstatus_server_verdict_free(v);
    ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, NULL, 3, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, NULL, "", 0, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_server_verdict_namespace(NULL));
    ck_assert_uint_eq(velstatus_bsl_set_namespace_count(NULL), 0);
    velstatus_bsl_set_free(set);
    free(text);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(decode_errors_of_the_new_fields)
{
    static const struct {
        const char *json, *msg;
    } cases[] = {
        {"[{\"metadata\":{\"name\":\"a\",\"namespace\":7}}]", "[0].metadata.namespace: expected a string"},
        {"[{\"metadata\":{\"name\":\"a\",\"namespace\":\"v\\u0000\"}}]", "[0].metadata.namespace: contains a NUL"},
        {"[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"objectStorage\":[]}}]",
         "[0].spec.objectStorage: expected an object, got an array"},
        {"[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"objectStorage\":{\"bucket\":1}}}]",
         "[0].spec.objectStorage.bucket: expected a string, got a number"},
        {"[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"provider\":true}}]", "[0].spec.provider: expected a string"},
        {"[{\"metadata\":{\"name\":\"a\",\"namespace\":\"x\"}},{\"metadata\":{\"name\":\"a\",\"namespace\":\"x\"}}]",
         "[1].metadata.name: duplicate name \"a\" in namespace \"x\""},
        {"[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"a\"}}]",
         "[1].metadata.name: duplicate name \"a\""},
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_bsl_set *set = NULL;
        velstatus_error err;
        ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err),
                         VELSTATUS_E_SCHEMA);
        ck_assert_msg(strstr(err.message, cases[i].msg), "case %zu: %s", i, err.message);
        ck_assert_ptr_null(set);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Sets past the size searched in order (a few BSLs) index their names and
 * namespaces in tables: a set grown one BSL at a time to 40, in 12
 * namespaces, finds each name as a duplicate in its own namespace only, at
 * every size on the way; the namespaces stay in order of appearance; the
 * default location is found by name, in the namespace asked for. */
START_TEST(large_sets_find_names_and_namespaces)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    char ns[40][8], name[40][8];
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, &err), VELSTATUS_OK);
    for (int i = 0; i < 40; i++) {
        velstatus_bsl_record r;
        snprintf(ns[i], sizeof(ns[i]), "ns%d", (i * 7) % 12);
        snprintf(name[i], sizeof(name[i]), "b%d", i / 3);
        r = rec(ns[i], name[i], "Available");
        ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_OK);
        for (int j = 0; j <= i; j++) {
            r = rec(ns[j], name[j], "Available");
            ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
            ck_assert_ptr_nonnull(strstr(err.message, "duplicate BSL name"));
        }
        ck_assert_uint_eq(velstatus_bsl_set_count(set), (size_t)i + 1);
        ck_assert_uint_eq(velstatus_bsl_set_namespace_count(set), (size_t)(i < 12 ? i + 1 : 12));
    }
    for (int k = 0; k < 12; k++) /* ns0, ns7, ns2, ns9, ...: the order of their first BSLs */
        ck_assert_str_eq(velstatus_bsl_set_namespace_at(set, (size_t)k), ns[k]);
    {
        velstatus_server_status_options o;
        velstatus_server_verdict *v = NULL;
        velstatus_server_status_options_init(&o, sizeof(o));
        o.default_location = name[30]; /* b10, in ns6 (i = 30) and ns1 (i = 31) and ns8 (i = 32) */
        o.default_location_len = VELSTATUS_NUL_TERMINATED;
        ck_assert_int_eq(
            velstatus_server_status_classify_namespace(&v, set, ns[31], VELSTATUS_NUL_TERMINATED, &o, &err),
            VELSTATUS_OK);
        ck_assert_str_eq(velstatus_server_verdict_default(v), name[31]);
        velstatus_server_verdict_free(v);
        ck_assert_int_eq(velstatus_server_status_classify_namespace(&v, set, "ns5", 3, &o, &err), VELSTATUS_OK);
        ck_assert_ptr_null(velstatus_server_verdict_default(v)); /* no b10 in ns5 */
        velstatus_server_verdict_free(v);
    }
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(add_record_checks)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    velstatus_bsl_record r = rec("velero", "default", "Available");
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_OK);
    r.ns = "oadp";
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_OK); /* another namespace */
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "duplicate BSL name \"default\" in namespace \"oadp\""));
    /* the positional add: the namespace "" */
    ck_assert_int_eq(velstatus_bsl_set_add(set, "default", 7, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_namespace_count(set), 3);
    ck_assert_str_eq(velstatus_bsl_set_namespace_at(set, 2), "");
    r = rec("x", "b", "");
    r.ns = NULL;
    r.ns_len = 2;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "namespace is NULL"));
    r = rec("a\0b", "b", "");
    r.ns_len = 3;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
    r = rec("x", "b", "");
    r.bucket_len = 1;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "bucket is NULL"));
    r = rec("x", "b", "");
    r.flags = 1;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_INVALID);
    r.flags = 0;
    r.struct_size = 95;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_E_ABI);
    /* a 1.0 caller's record (96 bytes): no namespace, no provider */
    r = rec("ignored", "old", "Available");
    r.struct_size = 96;
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, &err), VELSTATUS_OK);
    ck_assert_str_eq(velstatus_bsl_set_namespace(set, 3), "");
    ck_assert_int_eq(velstatus_bsl_set_add_record(NULL, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 4);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(locations_json)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_bsl_record r = rec("velero", "b<1>", "Unavailable");
    char *out = NULL;
    size_t len = 0;
    r.provider = "aws";
    r.provider_len = 3;
    r.bucket = "bk";
    r.bucket_len = 2;
    r.prefix = "p";
    r.prefix_len = 1;
    r.is_default = 1;
    r.access = VELSTATUS_BSL_READ_ONLY;
    r.has_validated = 1;
    r.validated_ns = T0;
    r.message = "no \"creds\"\n";
    r.message_len = VELSTATUS_NUL_TERMINATED;
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, NULL), VELSTATUS_OK);
    r = rec("oadp", "c", "");
    ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_locations_to_json(&out, &len, set, "velero", 6, NULL), VELSTATUS_OK);
    ck_assert_str_eq(out, "[{\"name\":\"b<1>\",\"namespace\":\"velero\",\"provider\":\"aws\",\"bucket\":\"bk\","
                          "\"prefix\":\"p\",\"default\":true,\"accessMode\":\"ReadOnly\",\"creationTimestamp\":null,"
                          "\"phase\":\"Unavailable\",\"lastValidationTime\":\"2025-11-30T13:00:00Z\","
                          "\"message\":\"no \\\"creds\\\"\\n\"}]");
    ck_assert_uint_eq(len, strlen(out));
    velstatus_free(ctx, out);
    ck_assert_int_eq(velstatus_bsl_set_locations_to_json(&out, NULL, set, NULL, 0, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(strstr(out, "},{\"name\":\"c\",\"namespace\":\"oadp\",\"provider\":\"\""));
    velstatus_free(ctx, out);
    ck_assert_int_eq(velstatus_bsl_set_locations_to_json(&out, NULL, set, "none", 4, NULL), VELSTATUS_OK);
    ck_assert_str_eq(out, "[]");
    velstatus_free(ctx, out);
    ck_assert_int_eq(velstatus_bsl_set_locations_to_json(NULL, NULL, set, NULL, 0, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_locations_to_json(&out, NULL, NULL, NULL, 0, NULL), VELSTATUS_E_INVALID);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* never_validated: an empty phase, no validation, created longer ago than the bound. */
START_TEST(never_validated_rule)
{
    static const struct {
        const char *phase;
        int has_created, has_validated;
        int64_t age_s;
        int check, want;
    } cases[] = {
        {"", 1, 0, 10, 1, 1}, /* the case */
        {"", 1, 0, 5, 1, 0},  /* exactly the bound: not older */
        {"", 1, 0, 3, 1, 0},  /* young */
        {"", 0, 0, 10, 1, 0}, /* age unknown */
        {"", 1, 1, 10, 1, 0}, /* validated once */
        {"", 1, 0, 10, 0, 0}, /* staleness not checked */
        {"Unavailable", 1, 0, 10, 1, 0},
        {"Bogus", 1, 0, 10, 1, 0},
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        velstatus_server_status_options o;
        velstatus_bsl_record r = rec("velero", "n", cases[i].phase);
        velstatus_server_status_options_init(&o, sizeof(o));
        o.check_stale = cases[i].check;
        o.now_ns = T0;
        o.stale_after_ns = 5 * SEC;
        r.has_created = cases[i].has_created;
        r.created_ns = T0 - cases[i].age_s * SEC;
        r.has_validated = cases[i].has_validated;
        r.validated_ns = T0 - 100 * SEC;
        ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_bsl_set_add_record(set, &r, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, NULL), VELSTATUS_OK);
        ck_assert_msg(!!(velstatus_server_verdict_reasons(v) & VELSTATUS_SERVER_REASON_NEVER_VALIDATED) ==
                          cases[i].want,
                      "case %zu: reasons %u", i, velstatus_server_verdict_reasons(v));
        ck_assert_uint_eq(velstatus_server_verdict_name_count(v, VELSTATUS_SERVER_REASON_NEVER_VALIDATED),
                          (size_t)cases[i].want);
        if (cases[i].want) {
            ck_assert_str_eq(velstatus_server_verdict_name(v, VELSTATUS_SERVER_REASON_NEVER_VALIDATED, 0), "n");
            ck_assert_ptr_nonnull(
                strstr(velstatus_server_verdict_message(v), "never validated in the 5s since creation (n)"));
            ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_WAITING); /* still pending */
        }
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* The tracker's clock moves a never-validated BSL past the bound. */
START_TEST(never_validated_tracker_clock)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_server_status_options o;
    velstatus_bsl_record r = rec("velero", "n", "");
    int ch = -1;
    velstatus_server_status_options_init(&o, sizeof(o));
    o.check_stale = 1;
    o.now_ns = T0;
    o.stale_after_ns = 60 * SEC;
    r.has_created = 1;
    r.created_ns = T0 - 30 * SEC;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t) & VELSTATUS_SERVER_REASON_NEVER_VALIDATED, 0);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 31 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t) & VELSTATUS_SERVER_REASON_NEVER_VALIDATED,
                      VELSTATUS_SERVER_REASON_NEVER_VALIDATED);
    /* validated now: the flag goes */
    r.phase = "Available";
    r.has_validated = 1;
    r.validated_ns = T0 + 31 * SEC;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_status(t), VELSTATUS_SERVER_PARTIALLY_READY); /* no default */
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t) & VELSTATUS_SERVER_REASON_NEVER_VALIDATED, 0);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(failalloc_namespaces)
{
    velstatus_status st;
    size_t len;
    char *text = vs_test_read_data("server-status/two-namespaces.json", &len);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        char *out = NULL, *locs = NULL;
        velstatus_bsl_record r = rec("other", "default", "Available");
        st = velstatus_bsl_set_from_json(&set, ctx, text, len, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_bsl_set_add_record(set, &r, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_uint_eq(velstatus_bsl_set_namespace_count(set), 3);
        if (st == VELSTATUS_OK)
            st = velstatus_server_status_classify_namespace(&v, set, "velero", 6, NULL, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_server_verdict_to_json(&out, NULL, v, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_bsl_set_locations_to_json(&locs, NULL, set, "velero", 6, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_ptr_nonnull(strstr(out, "\"namespace\":\"velero\""));
            ck_assert_ptr_nonnull(strstr(locs, "NoCredentialProviders"));
        } else {
            ck_assert_ptr_null(locs);
        }
        velstatus_free(ctx, out);
        velstatus_free(ctx, locs);
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(text);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("server_status_ns");
    TCase *tc = tcase_create("namespaces");
    tcase_add_test(tc, decode_two_namespaces);
    tcase_add_test(tc, decode_errors_of_the_new_fields);
    tcase_add_test(tc, add_record_checks);
    tcase_add_test(tc, large_sets_find_names_and_namespaces);
    tcase_add_test(tc, locations_json);
    tcase_add_test(tc, never_validated_rule);
    tcase_add_test(tc, never_validated_tracker_clock);
    tcase_add_test(tc, failalloc_namespaces);
    suite_add_tcase(s, tc);
    return s;
}
