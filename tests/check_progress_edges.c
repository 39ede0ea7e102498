/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the progress report: every per-unit getter past the last group
 * answers "nothing" (0, NULL, no rate or ETA) instead of reading out of
 * bounds, and the encoders check their arguments. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "velstatus.h"

#define NOW_NS INT64_C(1714559400000000000) /* 2024-05-01T10:30:00Z */

START_TEST(unit_getters_past_the_last_group)
{
    char path[4096];
    size_t len = 0;
    const char *src = getenv("VS_SRCDIR");
    ck_assert_ptr_nonnull(src);
    snprintf(path, sizeof(path), "%s/examples/operations/backup-itemoperations.json", src);
    char *json = vs_test_read_file(path, &len);
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *list = NULL;
    velstatus_progress *r = NULL;
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, json, len, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_progress_new(&r, ctx, list, NOW_NS, NULL), VELSTATUS_OK);
    size_t n = velstatus_progress_unit_count(r);
    ck_assert_uint_ge(n, 1);
    /* The last group answers; the one past it does not. */
    ck_assert_ptr_nonnull(velstatus_progress_unit_name(r, n - 1, &len));
    ck_assert_uint_gt(velstatus_progress_unit_operations(r, n - 1), 0);
    len = 99;
    ck_assert_ptr_null(velstatus_progress_unit_name(r, n, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(velstatus_progress_unit_operations(r, n), 0);
    ck_assert_int_eq(velstatus_progress_unit_completed(r, n), 0);
    ck_assert_int_eq(velstatus_progress_unit_total(r, n), 0);
    ck_assert(velstatus_progress_unit_percent(r, n) == 0.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, n), 0);
    double rate = 5;
    int64_t eta = 5;
    ck_assert_int_eq(velstatus_progress_unit_rate(r, n, &rate), 0);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, n, &eta), 0);
    char *out = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_progress_to_json(NULL, NULL, r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "out is NULL"));
    ck_assert_int_eq(velstatus_progress_to_json(&out, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "report is NULL"));
    ck_assert_ptr_null(out);
    velstatus_progress_free(r);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
    free(json);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("progress_edges");
    TCase *tc = tcase_create("progress_edges");
    tcase_add_test(tc, unit_getters_past_the_last_group);
    suite_add_tcase(s, tc);
    return s;
}
