/* SPDX-License-Identifier: Apache-2.0 */
/* Which status patches Velero retries, per kind and preset (doc/velero-behaviour.md
 * §4.3; the hardened preset adds the writes of §6.15). Declared in
 * include/velstatus/retry.h. */
#include "retry/private.h"

#define P(x) VELSTATUS_PHASE_##x

/* The patches Velero sends through PatchResourceWithRetriesOnErrors /
 * RetryOnErrorMaxBackOff(resourceTimeout) (doc/velero-behaviour.md §4.3). */
static int velero_retries(velstatus_kind kind, velstatus_phase from, velstatus_phase to)
{
    (void)kind; /* the rows are the same for both kinds */
    switch (from) {
    case P(IN_PROGRESS):
        /* BC:Reconcile line 370 / RC:Reconcile line 290: InProgress ->
         * WaitingForPluginOperations[PartiallyFailed] / Finalizing[PartiallyFailed] / Failed. */
        return to == P(WAITING_FOR_PLUGIN_OPERATIONS) || to == P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED) ||
               to == P(FINALIZING) || to == P(FINALIZING_PARTIALLY_FAILED) || to == P(FAILED);
    case P(FINALIZING):
        /* BFC:Reconcile (deferred) Finalizing -> Completed; RFC:finishProcessing
         * Finalizing -> Completed, or PartiallyFailed when the finalizer tasks
         * report errors or the backup is gone (doc/velero-behaviour.md §5.3). A backup's
         * Finalizing never goes to PartiallyFailed directly (doc/velero-behaviour.md §5.2). */
        return to == P(COMPLETED) || (kind == VELSTATUS_KIND_RESTORE && to == P(PARTIALLY_FAILED));
    case P(FINALIZING_PARTIALLY_FAILED):
        /* BFC / RFC: FinalizingPartiallyFailed -> PartiallyFailed. */
        return to == P(PARTIALLY_FAILED);
    default: return 0;
    }
}

/* The writes Velero sends once and the hardened preset retries (doc/velero-behaviour.md §6.15). */
static int forgotten(velstatus_kind kind, velstatus_phase from, velstatus_phase to, const velstatus_policy *p)
{
    /* BC:Reconcile line 304 (ReadyToStart; New before the backup queue of
     * Velero 1.18) and RC:Reconcile line 255 (New): -> InProgress /
     * FailedValidation, which the design (doc/velero-behaviour.md §4.1) lists. */
    velstatus_phase start = kind == VELSTATUS_KIND_BACKUP && p->backup_queue ? P(READY_TO_START) : P(NEW);
    if (from == start && (to == P(IN_PROGRESS) || to == P(FAILED_VALIDATION)))
        return 1;
    /* backup_deletion_controller.go:patchBackup: any phase not being run
     * (doc/velero-behaviour.md §5.2 "any phase not in the in-memory tracker") -> Deleting. */
    if (kind == VELSTATUS_KIND_BACKUP && to == P(DELETING) && from != P(DELETING) && from != P(IN_PROGRESS))
        return 1;
    return 0;
}

velstatus_status velstatus_retry_transition(int *retried, velstatus_kind kind, velstatus_phase from, velstatus_phase to,
                                            int at_startup, const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_policy p;
    if (!retried)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "retried is NULL");
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown kind %d", (int)kind);
    VS_TRY(velstatus__policy_load(&p, policy, err));
    VS_TRY(velstatus__transition_check(kind, from, to, &p, err));
    if (at_startup) {
        /* SRV:markInProgressBackupsFailed / ...RestoresFailed: client.Patch,
         * no retry; the only write the startup pass makes. */
        *retried = from == P(IN_PROGRESS) && to == P(FAILED) && p.retry_forgotten_patches;
        return VELSTATUS_OK;
    }
    /* Before Velero 1.15 (status_patch_retries 0) every patch was sent once. */
    *retried = (p.status_patch_retries && velero_retries(kind, from, to)) ||
               (p.retry_forgotten_patches && forgotten(kind, from, to, &p));
    return VELSTATUS_OK;
}
