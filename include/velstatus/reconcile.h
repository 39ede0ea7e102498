/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/reconcile.h
 * @brief The whole-list driver: a reconcile pass over an operation list through a plugin-client vtable (layer 3 of the operations area).
 *
 * velstatus_oplist_reconcile() runs the step of op_step.h over every record,
 * asking the host's ::velstatus_plugin_client for progress and Cancel, and
 * decides the backup or restore phase that follows (phase.h).
 */
#ifndef VELSTATUS_RECONCILE_H
#define VELSTATUS_RECONCILE_H

#include "op_step.h"
#include "phase.h"

VELSTATUS_BEGIN_DECLS

/** @addtogroup operations
 * @{
 */

/* ------------------------------------------------------------------------ */
/* The whole-list driver                                                     */
/* ------------------------------------------------------------------------ */

/** @brief An opaque out-object through which a callback answers (copies its data in). */
typedef struct velstatus_op_reply velstatus_op_reply;

/**
 * @brief Answers a progress callback: copies the report (texts included)
 * into the reply. A later call replaces an earlier one; a call that fails
 * leaves the reply unanswered (return its failure from the callback: after
 * ::VELSTATUS_E_NOMEM here the pass ends with ::VELSTATUS_E_NOMEM).
 * @param[in,out] reply The reply the callback was given.
 * @param[in] progress What the plugin said.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL argument, unknown
 *         report kind, non-zero flags, NULL text with a non-zero length, or a
 *         cancel reply), ::VELSTATUS_E_ABI (struct_size) or
 *         ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_op_reply_set_progress(velstatus_op_reply *reply,
                                                               const velstatus_op_progress *progress,
                                                               velstatus_error *err);

/**
 * @brief Answers a cancel callback whose plugin `Cancel()` returned an
 * error: copies the text. Not calling it means Cancel returned nil.
 * @param[in,out] reply The reply the callback was given.
 * @param[in] msg The error text (may be NULL when len is 0).
 * @param[in] len Its length.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL reply, NULL msg with
 *         len > 0, or a progress reply) or ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_op_reply_set_cancel_error(velstatus_op_reply *reply, const char *msg,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief The host's plugin client (doc/velero-behaviour.md §2.2): how the driver asks
 * the plugin behind an operation for progress, and cancels it.
 *
 * Follows the callback contract of host.h. Both callbacks get the list and
 * the record's index; they may read the record (velstatus_oplist_at() and
 * the `velstatus_op_*` getters) and must answer through the reply setters,
 * but must not modify the list.
 *
 * A NULL (or ::VELSTATUS_PASSTHROUGH) `progress` means the plugin cannot be
 * obtained: every running operation gets a lookup error with Velero's text
 * `unable to get valid BackupItemActionV2 for "<action>"` (or
 * `RestoreItemActionV2`). A NULL (or PASSTHROUGH) `cancel` is a plugin
 * whose Cancel does nothing and returns nil, as the plugin contract allows.
 */
typedef struct velstatus_plugin_client {
    uint32_t struct_size; /**< sizeof(velstatus_plugin_client) as compiled by the host. */
    uint32_t flags;       /**< Reserved, must be 0. */
    void *userdata;       /**< First argument of each callback. */
    /**
     * Calls the plugin's Progress() for record `index`: answer with
     * velstatus_op_reply_set_progress() (a Progress error and a lookup
     * failure are answers too). Returns 0, or a negative value to abort the
     * pass (::VELSTATUS_E_HOST); returning 0 without answering is
     * ::VELSTATUS_E_HOST too.
     */
    int (*progress)(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply);
    /**
     * Calls the plugin's Cancel() for record `index` (it timed out). If
     * Cancel returned an error, pass its text to
     * velstatus_op_reply_set_cancel_error(). Returns 0, or a negative value
     * to abort the pass (::VELSTATUS_E_HOST).
     */
    int (*cancel)(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply);
} velstatus_plugin_client;

/**
 * @brief Zero-fills a plugin client and sets its struct_size.
 * @param[out] client The struct; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_plugin_client) as the caller sees it.
 */
VELSTATUS_API void velstatus_plugin_client_init(velstatus_plugin_client *client, size_t struct_size);

/** @brief The state of the BackupStorageLocation the backup or restore uses. */
typedef enum velstatus_bsl_state {
    VELSTATUS_BSL_AVAILABLE = 0, /**< It can be read (the normal case). */
    VELSTATUS_BSL_MISSING = 1,   /**< Getting it failed (NotFound). */
    VELSTATUS_BSL_READONLY = 2   /**< Its accessMode is ReadOnly. */
} velstatus_bsl_state;

/**
 * @brief The BSL state's token: "available", "missing" or "readonly".
 * @param[in] state The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_bsl_state_to_string(velstatus_bsl_state state);

/**
 * @brief Parses "available", "missing" or "readonly".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_bsl_state_from_string(velstatus_bsl_state *out, const char *s, size_t len,
                                                               velstatus_error *err);

/**
 * @brief The inputs of one reconcile pass besides the list. Size-tagged:
 * initialise with velstatus_reconcile_options_init() (which sets the
 * documented defaults) and change the fields you need.
 */
typedef struct velstatus_reconcile_options {
    uint32_t struct_size; /**< sizeof(velstatus_reconcile_options) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    velstatus_phase
        phase; /**< The backup's or restore's current phase: WaitingForPluginOperations[PartiallyFailed] (an operations-controller pass, doc/velero-behaviour.md §2.5/§2.6) or InProgress (the first evaluation at the end of the main run, doc/velero-behaviour.md §2.7). Default WaitingForPluginOperations. */
    velstatus_bsl_state bsl; /**< The BSL's state (doc/velero-behaviour.md §2.5 step 2, §2.6). Default available. */
    int64_t now_ns;          /**< The current time. Default 0 (set it). */
    int64_t timeout_ns;      /**< `spec.itemOperationTimeout`. Default 4h (doc/velero-behaviour.md §2.8). */
    int64_t
        errors; /**< InProgress: the errors the main run logged before the operations were evaluated. Waiting phases: errors still pending from earlier passes (Velero's `ErrsSinceUpdate` carried over). Default 0; negative is E_INVALID. */
    const char *bsl_name; /**< The BSL's name, for the not-found error; NULL means "default". */
    size_t bsl_name_len;  /**< Length of bsl_name. */
    int64_t
        completed_before; /**< `status.backupItemOperationsCompleted` (or the restore's) before the pass, for velstatus_reconcile_result_persist(). Default 0; negative is E_INVALID. */
    int64_t
        failed_before; /**< `status.backupItemOperationsFailed` (or the restore's) before the pass. Default 0; negative is E_INVALID. */
    /** Getting the BSL failed with this error other than NotFound (a
     *  timeout, a forbidden, a connection refused: Velero's `err.Error()`),
     *  written as it is as the pass's error. NULL (the default): the Get
     *  succeeded, or `bsl` says NotFound. Requires `bsl` available (a failed
     *  Get has no access mode). Waiting phases only. Appended in 1.1. */
    const char *bsl_error;
    size_t bsl_error_len; /**< Length of bsl_error. */
    /** Restores only: getting the restore's Backup failed with this error
     *  (`err.Error()`, NotFound's `backups.velero.io "NAME" not found`
     *  included). Velero's fetchBackupInfoInternal wraps it as
     *  `can't find backup <velero_namespace>/<backup_name>: <error>` and
     *  never looks the BSL up, so `bsl` and `bsl_error` are then ignored.
     *  NULL (the default): the Backup was found. Waiting phases only.
     *  Appended in 1.1. */
    const char *backup_error;
    size_t backup_error_len; /**< Length of backup_error. */
    const char
        *backup_name; /**< The restore's `spec.backupName`, for backup_error's text; NULL is "". Appended in 1.1. */
    size_t backup_name_len; /**< Length of backup_name. */
    const char
        *velero_namespace; /**< Velero's namespace, for backup_error's text; NULL means "velero". Appended in 1.1. */
    size_t velero_namespace_len; /**< Length of velero_namespace. */
} velstatus_reconcile_options;

/**
 * @brief Fills an options struct with its defaults and struct_size.
 * @param[out] opts The struct; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_reconcile_options) as the caller sees it.
 */
VELSTATUS_API void velstatus_reconcile_options_init(velstatus_reconcile_options *opts, size_t struct_size);

/** @brief What the host must write after a pass (doc/velero-behaviour.md §2.5 step 11, `updateBackupAndOperationsJSON`). */
typedef enum velstatus_persist_action {
    /** Not an action: what velstatus_reconcile_result_persist() returns for NULL. */
    VELSTATUS_PERSIST_INVALID = -1,
    /** Nothing: incremental progress stays in memory (the host keeps the list). */
    VELSTATUS_PERSIST_NONE = 0,
    /** Patch the Backup/Restore CR only (new completion counts; or a BSL
     *  problem, where Velero has no backup store to upload to). */
    VELSTATUS_PERSIST_PATCH = 1,
    /** Upload, then patch: for a backup `velero-backup.json` and, if the list
     *  is not empty, the itemoperations file; for a restore the
     *  itemoperations file if not empty. Then the pending errors are cleared. */
    VELSTATUS_PERSIST_UPLOAD_AND_PATCH = 2
} velstatus_persist_action;

/** @brief Which write of velstatus_reconcile_result_persist()'s action failed. */
typedef enum velstatus_persist_failure {
    /** The upload to the object store (`PutBackupMetadata`, or the
     *  itemoperations file in `uploadProgress`): Velero returns before the
     *  patch. */
    VELSTATUS_PERSIST_FAILED_UPLOAD = 1,
    /** The status patch of the Backup/Restore (after a successful upload, if
     *  there was one). */
    VELSTATUS_PERSIST_FAILED_PATCH = 2
} velstatus_persist_failure;

/**
 * @brief The action's token: "none", "patch" or "upload_and_patch".
 * @param[in] action The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_persist_action_to_string(velstatus_persist_action action);

/**
 * @brief Parses "none", "patch" or "upload_and_patch".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_persist_action_from_string(velstatus_persist_action *out, const char *s,
                                                                    size_t len, velstatus_error *err);

/** @brief The outcome of a reconcile pass; opaque, read with the getters below. */
typedef struct velstatus_reconcile_result velstatus_reconcile_result;

/**
 * @brief Runs one pass over a whole list: the operations controller's
 * Reconcile (doc/velero-behaviour.md §2.5, §2.6), or the first evaluation at the end of
 * the main run (§2.7) when the phase is InProgress.
 *
 * With the BSL available, every record is stepped in list order
 * (velstatus_oplist_step()); for each New or InProgress one the client's
 * `progress` is called first, and `cancel` when the step says so. Then:
 * - Waiting phases: E = pending errors + new errors > 0 (or, with
 *   velstatus_policy::level_triggered_partial_failure, `failed > 0` as
 *   well); the next phase is WaitingForPluginOperationsPartiallyFailed when
 *   E or already partially failed, and becomes Finalizing /
 *   FinalizingPartiallyFailed when nothing is in progress (§2.5 table).
 * - InProgress: velstatus_phase_after_run() with the run's errors plus the
 *   new ones (and `failed > 0` when level-triggered). A restore's new errors
 *   then read `error from restore item operation: <msg>`, as the restore
 *   controller records them.
 *
 * With the BSL missing or read-only (Waiting phases only) no callback is
 * called and the list is not modified. A backup goes to PartiallyFailed
 * with the error `BSL is read-only` or
 * `backupstoragelocations.velero.io "<name>" not found`; a restore goes to
 * FinalizingPartiallyFailed with the not-found error, and a read-only BSL
 * is not checked for restores (§2.6), so the pass runs normally. A BSL
 * Get failing otherwise (velstatus_reconcile_options::bsl_error) takes the
 * same path with its own text, and so does a restore whose Backup cannot be
 * got (velstatus_reconcile_options::backup_error, wrapped `can't find
 * backup NS/NAME: `). The counts then describe the list as it stands; a
 * failed Get (NotFound included) also sets velstatus_reconcile_result_requeue().
 *
 * If a callback fails (::VELSTATUS_E_HOST), the records already stepped
 * keep their updates (they record what the plugins said), the others are
 * untouched, and no result is returned.
 *
 * @param[out] out Receives the result.
 * @param[in,out] list The list; its records are updated in place.
 * @param[in] client The plugin client (copied), or NULL (every running
 *            operation gets a lookup error, Cancel does nothing).
 * @param[in] opts The options (copied); required.
 * @param[in] policy The policy, or NULL for the hardened preset (not kept
 *            after the call).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL out, list or opts;
 *         a phase of the wrong kind, an unknown BSL state, negative errors
 *         or `*_before` counts,
 *         a BSL state other than available with phase InProgress);
 *         ::VELSTATUS_E_STATE (a phase other than InProgress and the two
 *         Waiting phases: Velero's controllers skip those); ::VELSTATUS_E_ABI
 *         (a struct_size); ::VELSTATUS_E_HOST (a callback failed, host_code
 *         holds its value); ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_reconcile_result_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_reconcile(velstatus_reconcile_result **out, velstatus_oplist *list,
                                                          const velstatus_plugin_client *client,
                                                          const velstatus_reconcile_options *opts,
                                                          const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief Releases a result.
 * @param[in] result The result, or NULL.
 */
VELSTATUS_API void velstatus_reconcile_result_free(velstatus_reconcile_result *result);

/**
 * @brief The next phase of the backup or restore.
 * @param[in] result The result, or NULL.
 * @return The phase (unchanged when nothing moves it); ::VELSTATUS_PHASE_INVALID for NULL.
 */
VELSTATUS_API velstatus_phase velstatus_reconcile_result_phase(const velstatus_reconcile_result *result);

/**
 * @brief Velero's `stillInProgress`: whether an operation is still New or InProgress.
 * @param[in] result The result, or NULL (0).
 * @return 1 or 0.
 */
VELSTATUS_API int velstatus_reconcile_result_still_in_progress(const velstatus_reconcile_result *result);

/**
 * @brief Velero's `changes`: whether any record was modified.
 * @param[in] result The result, or NULL (0).
 * @return 1 or 0.
 */
VELSTATUS_API int velstatus_reconcile_result_changes(const velstatus_reconcile_result *result);

/**
 * @brief The number of Completed operations in the whole list.
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_reconcile_result_completed(const velstatus_reconcile_result *result);

/**
 * @brief The number of Failed operations in the whole list.
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_reconcile_result_failed(const velstatus_reconcile_result *result);

/**
 * @brief The number of operations still New or InProgress after the pass.
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_reconcile_result_in_progress(const velstatus_reconcile_result *result);

/**
 * @brief The number of operations whose step outcome had `flag`
 * (e.g. ::VELSTATUS_OP_STEP_MISSING_CREATED).
 * @param[in] result The result, or NULL (0).
 * @param[in] flag One ::velstatus_op_step_flag bit.
 * @return The count (0 for a value that is not a single known bit).
 */
VELSTATUS_API size_t velstatus_reconcile_result_count(const velstatus_reconcile_result *result,
                                                      velstatus_op_step_flag flag);

/**
 * @brief The number of new errors (Velero's `errs`, plus the BSL error).
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_reconcile_result_error_count(const velstatus_reconcile_result *result);

/**
 * @brief A new error, in list order, formatted as Velero formats it.
 * @param[in] result The result.
 * @param[in] i 0-based index.
 * @param[out] len Receives the length; may be NULL.
 * @return The text, or NULL when out of range.
 * @borrowed Owned by the result.
 */
VELSTATUS_API const char *velstatus_reconcile_result_error(const velstatus_reconcile_result *result, size_t i,
                                                           size_t *len);

/**
 * @brief What to write after the pass, as Velero decides it (doc/velero-behaviour.md §2.5 step
 * 11; the same rule for restores, §2.6): UPLOAD_AND_PATCH when errors are
 * pending (velstatus_reconcile_options::errors plus the new ones) or the next
 * phase is Completed, PartiallyFailed, Finalizing or FinalizingPartiallyFailed
 * (for restores: Finalizing or FinalizingPartiallyFailed); otherwise PATCH when
 * the completed or failed count differs from the options' `*_before` counts;
 * otherwise NONE. With a BSL problem, PATCH (Velero has no store then). After
 * the first evaluation (phase InProgress) the backup or restore controller
 * always persists: UPLOAD_AND_PATCH.
 * @param[in] result The result, or NULL.
 * @return The action; ::VELSTATUS_PERSIST_INVALID for NULL.
 */
VELSTATUS_API velstatus_persist_action velstatus_reconcile_result_persist(const velstatus_reconcile_result *result);

/**
 * @brief Velero's Reconcile returns an error (controller-runtime requeues the
 * object with backoff) rather than waiting for the next periodic pass: the
 * BSL (or, for a restore, its Backup) could not be got, NotFound included.
 * 0 for a read-only BSL and a pass that ran (unless its persist step fails:
 * velstatus_reconcile_result_after_persist_failure()).
 * @param[in] result The result, or NULL (0).
 * @return 1 or 0.
 */
VELSTATUS_API int velstatus_reconcile_result_requeue(const velstatus_reconcile_result *result);

/**
 * @brief What stays after the pass when a write of its persist action fails
 * (`updateBackupAndOperationsJSON` / `updateRestoreAndOperationsJSON`
 * returns the error and Reconcile returns it: Velero requeues). The CR is
 * not patched, so its phase stays what it was before the pass, whatever
 * velstatus_reconcile_result_phase() says; the records keep this pass's
 * updates in Velero's memory, and the next pass decides again from them.
 * - UPLOAD failed: the deferred `PutOperationsForBackup` keeps the pending
 *   and new errors in memory: `*pending_errors` is the options' `errors`
 *   plus the new ones (the next pass's `errors`), none lost.
 * - PATCH failed after an upload (UPLOAD_AND_PATCH; a restore's empty list
 *   uploads no file, but `uploadProgress` runs all the same): it had
 *   already cleared the pending errors, so `status.errors` never counts them: `*lost_errors` is
 *   what velstatus_reconcile_result_errors_added() would have added,
 *   `*pending_errors` 0. With edge-triggered partial failure the next pass
 *   can then end in Finalizing instead of FinalizingPartiallyFailed.
 * - PATCH failed with no upload (new counts only, or the BSL paths, where
 *   Velero has no store): the patch is simply repeated; the pending errors
 *   stay pending.
 * @param[in] result The result.
 * @param[in] failure Which write failed.
 * @param[out] phase_kept The CR's phase after the pass (the phase before it); may be NULL.
 * @param[out] pending_errors Errors still pending for the next pass; may be NULL.
 * @param[out] lost_errors Errors that never reach `status.errors`; may be NULL.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL result, an unknown
 *         failure); ::VELSTATUS_E_STATE when the action has no such write:
 *         nothing is written (NONE), nothing is uploaded (PATCH, or a
 *         restore with an empty list, whose upload is skipped), or the pass
 *         was the first evaluation (phase InProgress), whose writes belong to
 *         the main run.
 */
VELSTATUS_API velstatus_status velstatus_reconcile_result_after_persist_failure(
    const velstatus_reconcile_result *result, velstatus_persist_failure failure, velstatus_phase *phase_kept,
    int64_t *pending_errors, int64_t *lost_errors, velstatus_error *err);

/**
 * @brief How much Velero adds to the CR's `status.errors` for this pass:
 * the pending plus the new errors (doc/velero-behaviour.md §2.5 step 6); 0 on the BSL paths,
 * where Velero does not count its own error (doc/velero-behaviour.md §6.7); the new errors after
 * the main run (each is logged).
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API int64_t velstatus_reconcile_result_errors_added(const velstatus_reconcile_result *result);

/**
 * @brief The number of operations Cancel was called for (in list order).
 * @param[in] result The result, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_reconcile_result_canceled_count(const velstatus_reconcile_result *result);

/**
 * @brief The list index of the i-th canceled operation.
 * @param[in] result The result.
 * @param[in] i 0-based index.
 * @return The record index, or SIZE_MAX when out of range.
 */
VELSTATUS_API size_t velstatus_reconcile_result_canceled_index(const velstatus_reconcile_result *result, size_t i);

/**
 * @brief The operation ID of the i-th canceled operation (a copy kept by the result).
 * @param[in] result The result.
 * @param[in] i 0-based index.
 * @param[out] len Receives the length; may be NULL.
 * @return The text, or NULL when out of range.
 * @borrowed Owned by the result.
 */
VELSTATUS_API const char *velstatus_reconcile_result_canceled_id(const velstatus_reconcile_result *result, size_t i,
                                                                 size_t *len);

/**
 * @brief The error the i-th Cancel call returned, when
 * velstatus_policy::report_cancel_results is set (doc/velero-behaviour.md §6.13; Velero
 * discards it).
 * @param[in] result The result.
 * @param[in] i 0-based index.
 * @param[out] len Receives the length; may be NULL.
 * @return The text; NULL when Cancel returned nil, results are not
 *         reported, or i is out of range.
 * @borrowed Owned by the result.
 */
VELSTATUS_API const char *velstatus_reconcile_result_cancel_error(const velstatus_reconcile_result *result, size_t i,
                                                                  size_t *len);

/** @} */

VELSTATUS_END_DECLS

#endif /* VELSTATUS_RECONCILE_H */
