/* SPDX-License-Identifier: Apache-2.0 */
/* Phases: wire spelling, kinds, terminal set, transitions (doc/velero-behaviour.md §5),
 * the phase after the main run (§2.7) and restart handling (§5.2, §6.17). */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "phase/private.h"

#define P(x) VELSTATUS_PHASE_##x
#define B VELSTATUS_KIND_BACKUP
#define R VELSTATUS_KIND_RESTORE

/* doc/velero-behaviour.md §5.1: the CRD enums, in order. */
static const char *const backup_enum[] = {"New",
                                          "Queued",
                                          "ReadyToStart",
                                          "FailedValidation",
                                          "InProgress",
                                          "WaitingForPluginOperations",
                                          "WaitingForPluginOperationsPartiallyFailed",
                                          "Finalizing",
                                          "FinalizingPartiallyFailed",
                                          "Completed",
                                          "PartiallyFailed",
                                          "Failed",
                                          "Deleting"};
static const char *const restore_enum[] = {"New",
                                           "FailedValidation",
                                           "InProgress",
                                           "WaitingForPluginOperations",
                                           "WaitingForPluginOperationsPartiallyFailed",
                                           "Completed",
                                           "PartiallyFailed",
                                           "Failed",
                                           "Finalizing",
                                           "FinalizingPartiallyFailed"};

START_TEST(wire_spelling_round_trips)
{
    velstatus_error err;
    velstatus_phase p;
    for (size_t i = 0; i < 13; i++) {
        ck_assert_int_eq(velstatus_phase_from_string(&p, backup_enum[i], strlen(backup_enum[i]), &err), VELSTATUS_OK);
        ck_assert_str_eq(velstatus_phase_to_string(p), backup_enum[i]);
        ck_assert_int_eq((int)p, (int)i); /* enum order follows the CRD enum */
    }
    for (size_t i = 0; i < 10; i++) {
        ck_assert_int_eq(velstatus_phase_from_string(&p, restore_enum[i], strlen(restore_enum[i]), &err), VELSTATUS_OK);
        ck_assert_str_eq(velstatus_phase_to_string(p), restore_enum[i]);
    }
}
END_TEST

START_TEST(counts_per_kind)
{
    int nb = 0, nr = 0;
    for (int i = -3; i < 40; i++) {
        nb += velstatus_phase_valid(B, (velstatus_phase)i);
        nr += velstatus_phase_valid(R, (velstatus_phase)i);
    }
    ck_assert_int_eq(nb, 13);
    ck_assert_int_eq(nr, 10);
    ck_assert_int_eq(velstatus_phase_valid((velstatus_kind)5, P(NEW)), 0);
    ck_assert_ptr_null(velstatus_phase_to_string((velstatus_phase)13));
    ck_assert_ptr_null(velstatus_phase_to_string((velstatus_phase)-1));
}
END_TEST

START_TEST(empty_reads_as_new_and_unknown_is_error)
{
    velstatus_error err;
    velstatus_phase p = P(FAILED);
    ck_assert_int_eq(velstatus_phase_from_string(&p, "", 0, &err), VELSTATUS_OK);
    ck_assert_int_eq(p, P(NEW));
    ck_assert_int_eq(velstatus_phase_from_string(&p, NULL, 0, &err), VELSTATUS_OK);
    ck_assert_int_eq(p, P(NEW));
    ck_assert_int_eq(velstatus_phase_from_string(&p, "completed", 9, &err), VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "\"completed\"") != NULL, "%s", err.message);
    ck_assert_int_eq(velstatus_phase_from_string(&p, "Completed ", 10, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_from_string(&p, "Complete", 8, &err), VELSTATUS_E_INVALID);
    /* The parser is kind-free; a restore has no Queued, ReadyToStart or
     * Deleting (doc/velero-behaviour.md §5.1), which velstatus_phase_valid() says. */
    ck_assert_int_eq(velstatus_phase_from_string(&p, "Queued", 6, &err), VELSTATUS_OK);
    ck_assert_int_eq(p, P(QUEUED));
    ck_assert_int_eq(velstatus_phase_valid(R, p), 0);
    ck_assert_int_eq(velstatus_phase_from_string(&p, "Deleting", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
    ck_assert_int_eq(p, P(DELETING));
    ck_assert_int_eq(velstatus_phase_valid(R, p), 0);
    ck_assert_int_eq(velstatus_phase_from_string(NULL, "New", 3, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_from_string(&p, NULL, 3, &err), VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(kind_tokens)
{
    velstatus_kind k;
    ck_assert_str_eq(velstatus_kind_to_string(B), "backup");
    ck_assert_str_eq(velstatus_kind_to_string(R), "restore");
    ck_assert_ptr_null(velstatus_kind_to_string((velstatus_kind)2));
    ck_assert_int_eq(velstatus_kind_from_string(&k, "restore", 7, NULL), VELSTATUS_OK);
    ck_assert_int_eq(k, R);
    ck_assert_int_eq(velstatus_kind_from_string(&k, "Backup", 6, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_kind_from_string(&k, NULL, 0, NULL), VELSTATUS_E_INVALID);
}
END_TEST

/* doc/velero-behaviour.md §5.1: the `--wait` terminal set is {FailedValidation, Completed, PartiallyFailed, Failed}. */
START_TEST(terminal_set)
{
    for (int i = 0; i <= 12; i++) {
        int want = i == P(FAILED_VALIDATION) || i == P(COMPLETED) || i == P(PARTIALLY_FAILED) || i == P(FAILED);
        ck_assert_int_eq(velstatus_phase_is_terminal(B, (velstatus_phase)i), want);
        if (velstatus_phase_valid(R, (velstatus_phase)i))
            ck_assert_int_eq(velstatus_phase_is_terminal(R, (velstatus_phase)i), want);
        else
            ck_assert_int_eq(velstatus_phase_is_terminal(R, (velstatus_phase)i), 0);
    }
}
END_TEST

typedef struct {
    velstatus_kind kind;
    velstatus_phase from, to;
    const char *controller; /* NULL: illegal */
} tcase_row;

/* Every row of doc/velero-behaviour.md §5.2 and §5.3, plus illegal ones worth pinning. */
static const tcase_row rows[] = {
    {B, P(NEW), P(QUEUED), "backup-queue"},
    {B, P(QUEUED), P(READY_TO_START), "backup-queue"},
    {B, P(READY_TO_START), P(FAILED_VALIDATION), "backup"},
    {B, P(READY_TO_START), P(IN_PROGRESS), "backup"},
    {B, P(IN_PROGRESS), P(FAILED), "backup, server-startup"},
    {B, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), "backup"},
    {B, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "backup"},
    {B, P(IN_PROGRESS), P(FINALIZING), "backup"},
    {B, P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), "backup"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "backup-operations"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), "backup-operations"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), "backup-operations"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), "backup-operations"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), "backup-operations"},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "backup-operations"},
    {B, P(FINALIZING), P(COMPLETED), "backup-finalizer"},
    {B, P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "backup-finalizer"},
    {B, P(COMPLETED), P(DELETING), "backup-deletion"},
    {B, P(NEW), P(DELETING), "backup-deletion"},
    {B, P(FINALIZING), P(DELETING), "backup-deletion"},
    /* illegal: no way back from PartiallyFailed to the clean phase (§2.5) */
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING), NULL},
    {B, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(WAITING_FOR_PLUGIN_OPERATIONS), NULL},
    {B, P(IN_PROGRESS), P(COMPLETED), NULL},
    {B, P(IN_PROGRESS), P(DELETING), NULL}, /* tracked while running */
    {B, P(COMPLETED), P(IN_PROGRESS), NULL},
    {B, P(FINALIZING), P(PARTIALLY_FAILED), NULL}, /* only restores do this (§5.3) */
    {B, P(DELETING), P(NEW), NULL},
    {B, P(NEW), P(IN_PROGRESS), NULL}, /* backups go through the queue now */
    {R, P(NEW), P(FAILED_VALIDATION), "restore"},
    {R, P(NEW), P(IN_PROGRESS), "restore"},
    {R, P(IN_PROGRESS), P(FAILED), "restore, server-startup"},
    {R, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), "restore"},
    {R, P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "restore"},
    {R, P(IN_PROGRESS), P(FINALIZING), "restore"},
    {R, P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), "restore"},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "restore-operations"},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), "restore-operations"},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), "restore-operations"},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), "restore-operations"},
    {R, P(FINALIZING), P(COMPLETED), "restore-finalizer"},
    {R, P(FINALIZING), P(PARTIALLY_FAILED), "restore-finalizer"},
    {R, P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "restore-finalizer"},
    {R, P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), NULL}, /* restores finalize first (§2.6) */
    {R, P(COMPLETED), P(FAILED), NULL},
};

START_TEST(transition_table)
{
    velstatus_error err;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int legal = -1;
        const char *ctl = NULL;
        ck_assert_int_eq(velstatus_phase_transition(&legal, &ctl, rows[i].kind, rows[i].from, rows[i].to, NULL, &err),
                         VELSTATUS_OK);
        ck_assert_msg(legal == (rows[i].controller != NULL), "row %zu: %s -> %s legal=%d", i,
                      velstatus_phase_to_string(rows[i].from), velstatus_phase_to_string(rows[i].to), legal);
        ck_assert_str_eq(ctl, rows[i].controller ? rows[i].controller : "");
    }
}
END_TEST

START_TEST(transition_identity_and_errors)
{
    velstatus_error err;
    int legal;
    const char *ctl;
    ck_assert_int_eq(velstatus_phase_transition(&legal, &ctl, B, P(COMPLETED), P(COMPLETED), NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(legal, 1);
    ck_assert_str_eq(ctl, "none");
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, B, P(NEW), P(QUEUED), NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(legal, 1);
    ck_assert_int_eq(velstatus_phase_transition(NULL, NULL, B, P(NEW), P(QUEUED), NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, R, P(QUEUED), P(NEW), NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "from") != NULL, "%s", err.message);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, R, P(NEW), P(DELETING), NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, (velstatus_kind)9, P(NEW), P(NEW), NULL, &err),
                     VELSTATUS_E_INVALID);
}
END_TEST

/* Every legal transition's target is reachable, and no transition leaves a
 * terminal phase except to Deleting (the table is consistent with §5.1). */
START_TEST(terminal_phases_only_go_to_deleting)
{
    for (int k = 0; k <= 1; k++)
        for (int f = 0; f <= 12; f++)
            for (int t = 0; t <= 12; t++) {
                int legal;
                const char *ctl;
                if (f == t || !velstatus_phase_valid((velstatus_kind)k, (velstatus_phase)f) ||
                    !velstatus_phase_valid((velstatus_kind)k, (velstatus_phase)t))
                    continue;
                ck_assert_int_eq(velstatus_phase_transition(&legal, &ctl, (velstatus_kind)k, (velstatus_phase)f,
                                                            (velstatus_phase)t, NULL, NULL),
                                 VELSTATUS_OK);
                if (legal && velstatus_phase_is_terminal((velstatus_kind)k, (velstatus_phase)f))
                    ck_assert_int_eq(t, P(DELETING));
            }
}
END_TEST

/* doc/velero-behaviour.md §2.7 table, row by row, for both kinds. */
START_TEST(phase_after_run)
{
    for (int k = 0; k <= 1; k++) {
        velstatus_kind kind = (velstatus_kind)k;
        ck_assert_int_eq(velstatus_phase_after_run(kind, 1, 0, 0), P(FAILED));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 1, 5, 1), P(FAILED));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 0, 1, 1), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 0, 3, 0), P(FINALIZING_PARTIALLY_FAILED));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 0, 0, 1), P(WAITING_FOR_PLUGIN_OPERATIONS));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 0, 0, 0), P(FINALIZING));
        ck_assert_int_eq(velstatus_phase_after_run(kind, 0, -4, 0), P(FINALIZING));
    }
}
END_TEST

START_TEST(restart_handling)
{
    velstatus_policy v = vs_policy(VELSTATUS_PRESET_VELERO), h = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_restart_action a;
    velstatus_phase next;
    velstatus_error err;
    /* SRV:markInProgress{Backups,Restores}Failed */
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, B, P(IN_PROGRESS), &v, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_MARK_FAILED);
    ck_assert_int_eq(next, P(FAILED));
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, R, P(IN_PROGRESS), &h, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_MARK_FAILED);
    /* Waiting*, Finalizing*: requeued by the periodic controllers */
    for (int p = P(WAITING_FOR_PLUGIN_OPERATIONS); p <= P(FINALIZING_PARTIALLY_FAILED); p++) {
        ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, B, (velstatus_phase)p, &v, &err), VELSTATUS_OK);
        ck_assert_int_eq(a, VELSTATUS_RESTART_REQUEUE);
        ck_assert_int_eq(next, p);
    }
    /* doc/velero-behaviour.md §6.17: ReadyToStart is stranded by Velero, requeued by the hardened preset */
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, B, P(READY_TO_START), &v, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_NONE);
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, B, P(READY_TO_START), &h, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_REQUEUE);
    ck_assert_int_eq(velstatus_phase_on_restart(&a, &next, B, P(READY_TO_START), NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_REQUEUE);
    /* terminal: nothing */
    ck_assert_int_eq(velstatus_phase_on_restart(&a, NULL, B, P(COMPLETED), &h, &err), VELSTATUS_OK);
    ck_assert_int_eq(a, VELSTATUS_RESTART_NONE);
    /* errors */
    ck_assert_int_eq(velstatus_phase_on_restart(NULL, NULL, B, P(NEW), &h, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_on_restart(&a, NULL, R, P(QUEUED), &h, &err), VELSTATUS_E_INVALID);
    h.struct_size = 3;
    ck_assert_int_eq(velstatus_phase_on_restart(&a, NULL, B, P(NEW), &h, &err), VELSTATUS_E_ABI);
    ck_assert_str_eq(velstatus_restart_action_to_string(VELSTATUS_RESTART_MARK_FAILED), "mark_failed");
    ck_assert_ptr_null(velstatus_restart_action_to_string((velstatus_restart_action)3));
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("phase");
    TCase *tc = tcase_create("phase");
    tcase_add_test(tc, wire_spelling_round_trips);
    tcase_add_test(tc, counts_per_kind);
    tcase_add_test(tc, empty_reads_as_new_and_unknown_is_error);
    tcase_add_test(tc, kind_tokens);
    tcase_add_test(tc, terminal_set);
    tcase_add_test(tc, transition_table);
    tcase_add_test(tc, transition_identity_and_errors);
    tcase_add_test(tc, terminal_phases_only_go_to_deleting);
    tcase_add_test(tc, phase_after_run);
    tcase_add_test(tc, restart_handling);
    suite_add_tcase(s, tc);
    return s;
}
