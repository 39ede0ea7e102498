/* SPDX-License-Identifier: Apache-2.0 */
/* Backup and restore phases: wire spelling, terminal set, legal transitions
 * (doc/velero-behaviour.md §5), the phase after the main run (§2.7), restart handling. */
#include "velstatus_private.h"

#include <string.h>

#define PHASE_LAST VELSTATUS_PHASE_DELETING

static const char *const phase_names[] = {
    "New",
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
    "Deleting",
};
_Static_assert(sizeof(phase_names) / sizeof(phase_names[0]) == PHASE_LAST + 1, "phase table size");

static const char *const kind_names[] = {"backup", "restore"};

VS_ENUM_TOKENS(kind, velstatus_kind, kind_names, "kind")

const char *velstatus_phase_to_string(velstatus_phase phase)
{
    return velstatus__token_of(phase_names, PHASE_LAST + 1, (int)phase);
}

int velstatus_phase_valid(velstatus_kind kind, velstatus_phase phase)
{
    if ((unsigned)phase > (unsigned)PHASE_LAST)
        return 0;
    switch (kind) {
    case VELSTATUS_KIND_BACKUP: return 1;
    case VELSTATUS_KIND_RESTORE:
        return phase != VELSTATUS_PHASE_QUEUED && phase != VELSTATUS_PHASE_READY_TO_START &&
               phase != VELSTATUS_PHASE_DELETING;
    case VELSTATUS_KIND_INVALID: break;
    }
    return 0;
}

velstatus_status velstatus_phase_from_string(velstatus_phase *out, const char *s, size_t len, velstatus_error *err)
{
    len = velstatus__text_len(s, len);
    if (!out || (!s && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase: NULL argument");
    if (len == 0) {
        *out = VELSTATUS_PHASE_NEW; /* Velero shows "" as New (doc/velero-behaviour.md §3.2) */
        return VELSTATUS_OK;
    }
    int i = velstatus__token_find(phase_names, PHASE_LAST + 1, s, len);
    if (i < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase: unknown phase \"%.*s\"",
                                    len > 64 ? 64 : (int)len, s);
    *out = (velstatus_phase)i;
    return VELSTATUS_OK;
}

int velstatus_phase_is_terminal(velstatus_kind kind, velstatus_phase phase)
{
    if (!velstatus_phase_valid(kind, phase))
        return 0;
    switch (phase) {
    case VELSTATUS_PHASE_FAILED_VALIDATION:
    case VELSTATUS_PHASE_COMPLETED:
    case VELSTATUS_PHASE_PARTIALLY_FAILED:
    case VELSTATUS_PHASE_FAILED:
        return 1;
    default:
        return 0;
    }
}

/* ---- transitions (doc/velero-behaviour.md §5.2 backup, §5.3 restore) ---- */

#define P(x) VELSTATUS_PHASE_##x
typedef struct transition {
    velstatus_phase from, to;
    const char *controller;
} transition;

static const transition backup_transitions[] = {
    {P(NEW), P(QUEUED), "backup-queue"},
    {P(QUEUED), P(READY_TO_START), "backup-queue"},
    {P(READY_TO_START), P(FAILED_VALIDATION), "backup"},
    {P(READY_TO_START), P(IN_PROGRESS), "backup"},
    {P(IN_PROGRESS), P(FAILED), "backup, server-startup"},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), "backup"},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "backup"},
    {P(IN_PROGRESS), P(FINALIZING), "backup"},
    {P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), "backup"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "backup-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), "backup-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), "backup-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), "backup-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), "backup-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "backup-operations"},
    {P(FINALIZING), P(COMPLETED), "backup-finalizer"},
    {P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "backup-finalizer"},
    /* Deletion: any phase the in-memory tracker does not hold (doc/velero-behaviour.md §5.2, last rows).
     * InProgress is always tracked; Waiting* and Finalizing* only until a restart. */
    {P(NEW), P(DELETING), "backup-deletion"},
    {P(QUEUED), P(DELETING), "backup-deletion"},
    {P(READY_TO_START), P(DELETING), "backup-deletion"},
    {P(FAILED_VALIDATION), P(DELETING), "backup-deletion"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(DELETING), "backup-deletion"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(DELETING), "backup-deletion"},
    {P(FINALIZING), P(DELETING), "backup-deletion"},
    {P(FINALIZING_PARTIALLY_FAILED), P(DELETING), "backup-deletion"},
    {P(COMPLETED), P(DELETING), "backup-deletion"},
    {P(PARTIALLY_FAILED), P(DELETING), "backup-deletion"},
    {P(FAILED), P(DELETING), "backup-deletion"},
};

static const transition restore_transitions[] = {
    {P(NEW), P(FAILED_VALIDATION), "restore"},
    {P(NEW), P(IN_PROGRESS), "restore"},
    {P(IN_PROGRESS), P(FAILED), "restore, server-startup"},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), "restore"},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "restore"},
    {P(IN_PROGRESS), P(FINALIZING), "restore"},
    {P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), "restore"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), "restore-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), "restore-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), "restore-operations"},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), "restore-operations"},
    {P(FINALIZING), P(COMPLETED), "restore-finalizer"},
    {P(FINALIZING), P(PARTIALLY_FAILED), "restore-finalizer"},
    {P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), "restore-finalizer"},
};

/* E_INVALID unless kind is a kind and phase one of its phases; `what` names
 * the phase argument in the message. */
static velstatus_status check_phase_arg(velstatus_kind kind, velstatus_phase phase, const char *what,
                                        velstatus_error *err)
{
    if (!velstatus_kind_to_string(kind))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind: unknown value %d", (int)kind);
    if (!velstatus_phase_valid(kind, phase))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: not a %s phase (%d)", what,
                                    velstatus_kind_to_string(kind), (int)phase);
    return VELSTATUS_OK;
}

velstatus_status velstatus_phase_transition(int *legal, const char **controller, velstatus_kind kind,
                                            velstatus_phase from, velstatus_phase to, velstatus_error *err)
{
    const transition *t;
    size_t n;
    if (!legal)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "legal is NULL");
    VS_TRY(check_phase_arg(kind, from, "from", err));
    VS_TRY(check_phase_arg(kind, to, "to", err));
    *legal = 0;
    if (controller)
        *controller = "";
    if (from == to) {
        *legal = 1;
        if (controller)
            *controller = "none";
        return VELSTATUS_OK;
    }
    if (kind == VELSTATUS_KIND_BACKUP) {
        t = backup_transitions;
        n = sizeof(backup_transitions) / sizeof(backup_transitions[0]);
    } else {
        t = restore_transitions;
        n = sizeof(restore_transitions) / sizeof(restore_transitions[0]);
    }
    for (size_t i = 0; i < n; i++) {
        if (t[i].from == from && t[i].to == to) {
            *legal = 1;
            if (controller)
                *controller = t[i].controller;
            break;
        }
    }
    return VELSTATUS_OK;
}

velstatus_phase velstatus_phase_after_run(velstatus_kind kind, int fatal, int64_t errors_logged, int in_progress)
{
    (void)kind; /* doc/velero-behaviour.md §2.7: the backup and restore controllers use the same table */
    if (fatal)
        return VELSTATUS_PHASE_FAILED;
    if (errors_logged > 0)
        return in_progress ? VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED
                           : VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    return in_progress ? VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS : VELSTATUS_PHASE_FINALIZING;
}

velstatus_status velstatus_phase_on_restart(velstatus_restart_action *action, velstatus_phase *next,
                                            velstatus_kind kind, velstatus_phase phase,
                                            const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_policy pol;
    velstatus_restart_action a;
    if (!action)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "action is NULL");
    VS_TRY(check_phase_arg(kind, phase, "phase", err));
    VS_TRY(velstatus__policy_load(&pol, policy, err));
    switch (phase) {
    case P(IN_PROGRESS):
        /* SRV:markInProgressBackupsFailed / markInProgressRestoresFailed */
        a = VELSTATUS_RESTART_MARK_FAILED;
        break;
    case P(READY_TO_START):
        /* doc/velero-behaviour.md §6.17: BC's Create predicate is false and the tracker is lost */
        a = pol.requeue_ready_to_start_on_restart ? VELSTATUS_RESTART_REQUEUE : VELSTATUS_RESTART_NONE;
        break;
    case P(NEW):
    case P(QUEUED):
    case P(WAITING_FOR_PLUGIN_OPERATIONS):
    case P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED):
    case P(FINALIZING):
    case P(FINALIZING_PARTIALLY_FAILED):
    case P(DELETING):
        a = VELSTATUS_RESTART_REQUEUE;
        break;
    default:
        a = VELSTATUS_RESTART_NONE; /* terminal */
        break;
    }
    *action = a;
    if (next)
        *next = a == VELSTATUS_RESTART_MARK_FAILED ? P(FAILED) : phase;
    return VELSTATUS_OK;
}

static const char *const restart_names[] = {"none", "mark_failed", "requeue"};

VS_ENUM_TOKENS(restart_action, velstatus_restart_action, restart_names, "restart action")

