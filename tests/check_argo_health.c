/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus_argo_health_of: Argo CD's velero.io/Backup and velero.io/Restore
 * health checks (health.lua) for every phase of both kinds, a deletion, no
 * phase, failureReason set / empty / absent; the tokens; bad arguments. */
#include <string.h>

#include <velstatus.h>

#include "harness.h"

static void expect(velstatus_kind kind, const char *phase, const char *failure, int deleting,
                   velstatus_argo_health want, const char *want_msg)
{
    velstatus_argo_health h = VELSTATUS_ARGO_HEALTH_INVALID;
    const char *msg = NULL;
    size_t len = 0;
    ck_assert_int_eq(velstatus_argo_health_of(&h, &msg, &len, kind, phase, VELSTATUS_NUL_TERMINATED, failure,
                                              VELSTATUS_NUL_TERMINATED, deleting, NULL),
                     VELSTATUS_OK);
    ck_assert_msg(h == want, "%s %s: health %d, want %d", velstatus_kind_to_string(kind), phase ? phase : "(none)",
                  (int)h, (int)want);
    ck_assert_uint_eq(len, strlen(want_msg));
    ck_assert_int_eq(memcmp(msg, want_msg, len), 0);
}

START_TEST(every_phase_both_kinds)
{
    static const char *const progressing[] = {
        "New",      "Queued", "ReadyToStart", "InProgress", "WaitingForPluginOperations", "Finalizing",
        "Deleting", "",       "Exploded"};
    static const char *const degraded[] = {"FailedValidation", "Failed", "PartiallyFailed",
                                           "WaitingForPluginOperationsPartiallyFailed", "FinalizingPartiallyFailed"};
    for (int k = 0; k < 2; k++) {
        velstatus_kind kind = k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
        expect(kind, "Completed", NULL, 0, VELSTATUS_ARGO_HEALTHY, k ? "Restore completed" : "Backup completed");
        expect(kind, NULL, NULL, 0, VELSTATUS_ARGO_PROGRESSING,
               k ? "Waiting for restore to be processed" : "Waiting for backup to be processed");
        for (size_t i = 0; i < sizeof(progressing) / sizeof(progressing[0]); i++)
            expect(kind, progressing[i], "ignored", 0, VELSTATUS_ARGO_PROGRESSING, progressing[i]);
        for (size_t i = 0; i < sizeof(degraded) / sizeof(degraded[0]); i++) {
            expect(kind, degraded[i], NULL, 0, VELSTATUS_ARGO_DEGRADED, degraded[i]);
            expect(kind, degraded[i], "bucket gone", 0, VELSTATUS_ARGO_DEGRADED, "bucket gone");
            expect(kind, degraded[i], "", 0, VELSTATUS_ARGO_DEGRADED, ""); /* Lua's `or` keeps "" */
        }
        expect(kind, "completed", NULL, 0, VELSTATUS_ARGO_PROGRESSING, "completed"); /* exact match */
    }
    /* deletionTimestamp: the Backup check only, before the phase */
    expect(VELSTATUS_KIND_BACKUP, "Completed", NULL, 1, VELSTATUS_ARGO_PROGRESSING, "Pending deletion");
    expect(VELSTATUS_KIND_BACKUP, "Failed", "x", 1, VELSTATUS_ARGO_PROGRESSING, "Pending deletion");
    expect(VELSTATUS_KIND_RESTORE, "Completed", NULL, 1, VELSTATUS_ARGO_HEALTHY, "Restore completed");
}
END_TEST

START_TEST(lengths_tokens_and_bad_arguments)
{
    velstatus_argo_health h;
    const char *msg;
    size_t len;
    velstatus_error err;
    /* an explicit length: "Completedxyz" cut to its first 9 bytes */
    ck_assert_int_eq(
        velstatus_argo_health_of(&h, &msg, &len, VELSTATUS_KIND_BACKUP, "Completedxyz", 9, NULL, 0, 0, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(h, VELSTATUS_ARGO_HEALTHY);
    ck_assert_int_eq(
        velstatus_argo_health_of(&h, &msg, &len, VELSTATUS_KIND_BACKUP, "Failedxyz", 6, "abcdef", 3, 0, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(h, VELSTATUS_ARGO_DEGRADED);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(memcmp(msg, "abc", 3), 0);
    ck_assert_int_eq(velstatus_argo_health_of(NULL, &msg, &len, VELSTATUS_KIND_BACKUP, NULL, 0, NULL, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_argo_health_of(&h, NULL, &len, VELSTATUS_KIND_BACKUP, NULL, 0, NULL, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_argo_health_of(&h, &msg, &len, VELSTATUS_KIND_INVALID, NULL, 0, NULL, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(velstatus_argo_health_to_string(VELSTATUS_ARGO_HEALTHY), "healthy");
    ck_assert_str_eq(velstatus_argo_health_to_string(VELSTATUS_ARGO_PROGRESSING), "progressing");
    ck_assert_str_eq(velstatus_argo_health_to_string(VELSTATUS_ARGO_DEGRADED), "degraded");
    ck_assert_ptr_null(velstatus_argo_health_to_string(VELSTATUS_ARGO_HEALTH_INVALID));
    ck_assert_int_eq(velstatus_argo_health_from_string(&h, "degraded", VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(h, VELSTATUS_ARGO_DEGRADED);
    ck_assert_int_eq(velstatus_argo_health_from_string(&h, "Healthy", VELSTATUS_NUL_TERMINATED, &err),
                     VELSTATUS_E_INVALID);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("argo_health");
    TCase *tc = tcase_create("argo_health");
    tcase_add_test(tc, every_phase_both_kinds);
    tcase_add_test(tc, lengths_tokens_and_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}
