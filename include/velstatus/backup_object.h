/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/backup_object.h
 * @brief Backup and Restore objects: the decoder of `kubectl get backup -o
 * json` (one object, a List, or an array), and the kstatus-style conditions
 * of a Backup or Restore (Velero sets none: velero #3664, #4069).
 *
 * The decoder reads keys as Kubernetes' own decoder does (apimachinery's
 * `sigs.k8s.io/json`, which Velero, kubectl and controller-runtime use):
 * keys are unescaped before they are matched (`"\u0070hase"` is `phase`),
 * matched case-sensitively, and a repeated key is assigned in order, so the
 * last non-null value wins (`{"phase":"Failed","phase":"Completed"}` is
 * Completed) and a repeated `metadata` or `status` object merges into the
 * earlier one. doc/json-decoding.md gives the rules.
 *
 * @defgroup backup_object Backup and Restore objects
 * @{
 */
#ifndef VELSTATUS_BACKUP_OBJECT_H
#define VELSTATUS_BACKUP_OBJECT_H

#include "common.h"
#include "host.h"
#include "phase.h"
#include "policy.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief The decoded Backups and Restores of one JSON text (opaque). */
typedef struct velstatus_backup_list velstatus_backup_list;

/**
 * @brief Decodes Backup and Restore objects: one object, a List
 * (`kind` `List`, `BackupList` or `RestoreList`, or none, with `items`), or
 * a JSON array of objects.
 *
 * An object whose `kind` is neither `Backup` nor `Restore` (or that has
 * none, or is not an object) is skipped and counted
 * (velstatus_backup_list_skipped()): `kubectl get backups,schedules -o json`
 * decodes to its Backups. Read of each object: `kind`, `metadata.name`,
 * `metadata.namespace`, `metadata.deletionTimestamp` (RFC 3339),
 * `metadata.finalizers` (strings; a null element is ""),
 * `metadata.generation`, `spec.storageLocation`,
 * `spec.itemOperationTimeout`, a Restore's `spec.backupName`,
 * `status.phase`, `status.failureReason`, and the integers `status.errors`,
 * `status.warnings` and `status.backupItemOperationsCompleted` and
 * `...Failed` (a Restore's `restoreItemOperations...`); a null leaves a
 * field absent, other keys are ignored.
 * @param[out] out Receives the list (NULL on failure).
 * @param[in] ctx The context whose allocator the list uses.
 * @param[in] json The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL: the position of the
 *             offending value, the path in the message (`items[2].status.phase:
 *             expected a string, got a number`).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, NULL json
 *         with a non-zero length), ::VELSTATUS_E_PARSE (not one JSON value),
 *         ::VELSTATUS_E_RANGE (a number no int64 or double holds),
 *         ::VELSTATUS_E_SCHEMA (a field of the wrong type or form, a List
 *         whose items is not an array) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_backup_list_free().
 */
VELSTATUS_API velstatus_status velstatus_backup_list_from_json(velstatus_backup_list **out, velstatus_ctx *ctx,
                                                               const char *json, size_t len, velstatus_error *err);

/**
 * @brief Releases a list.
 * @param[in] list The list, or NULL.
 */
VELSTATUS_API void velstatus_backup_list_free(velstatus_backup_list *list);

/**
 * @brief The number of Backups and Restores decoded, in text order.
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_backup_list_count(const velstatus_backup_list *list);

/**
 * @brief The number of objects skipped because they are not a Backup or Restore.
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_backup_list_skipped(const velstatus_backup_list *list);

/**
 * @brief The kind of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index, below velstatus_backup_list_count().
 * @return ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE;
 *         ::VELSTATUS_KIND_INVALID for NULL or an index out of range.
 */
VELSTATUS_API velstatus_kind velstatus_backup_list_kind(const velstatus_backup_list *list, size_t i);

/**
 * @brief The `metadata.name` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (the text may hold a NUL byte; 0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_name(const velstatus_backup_list *list, size_t i, size_t *len);

/**
 * @brief The `metadata.namespace` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_namespace(const velstatus_backup_list *list, size_t i, size_t *len);

/**
 * @brief The `status.phase` of the i-th object, verbatim (`""` is New).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when there is no status or no phase (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_phase(const velstatus_backup_list *list, size_t i, size_t *len);

/**
 * @brief The `status.failureReason` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text (possibly empty: `""` is a value), or
 *         NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_failure_reason(const velstatus_backup_list *list, size_t i,
                                                               size_t *len);

/**
 * @brief The `spec.storageLocation` of the i-th object (the BSL's name).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_storage_location(const velstatus_backup_list *list, size_t i,
                                                                 size_t *len);

/**
 * @brief The `spec.itemOperationTimeout` of the i-th object, verbatim (a Go
 * duration such as `4h0m0s`: velstatus_duration_parse() reads it).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_item_operation_timeout(const velstatus_backup_list *list, size_t i,
                                                                       size_t *len);

/**
 * @brief A Restore's `spec.backupName` (NULL for a Backup).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or null (or out of range).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_backup_name(const velstatus_backup_list *list, size_t i, size_t *len);

/**
 * @brief The `metadata.deletionTimestamp` of the i-th object: set while it is being deleted.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] ns Receives it in ns since the epoch (0 when unset). May be NULL.
 * @return 1 when it is set, 0 when not (or out of range).
 */
VELSTATUS_API int velstatus_backup_list_deletion_time(const velstatus_backup_list *list, size_t i, int64_t *ns);

/**
 * @brief The `metadata.generation` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0.
 */
VELSTATUS_API int velstatus_backup_list_generation(const velstatus_backup_list *list, size_t i, int64_t *out);

/**
 * @brief The `status.errors` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0.
 */
VELSTATUS_API int velstatus_backup_list_errors(const velstatus_backup_list *list, size_t i, int64_t *out);

/**
 * @brief The `status.warnings` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0.
 */
VELSTATUS_API int velstatus_backup_list_warnings(const velstatus_backup_list *list, size_t i, int64_t *out);

/**
 * @brief The `status.backupItemOperationsCompleted` of the i-th object
 * (a Restore's `status.restoreItemOperationsCompleted`).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0.
 */
VELSTATUS_API int velstatus_backup_list_item_operations_completed(const velstatus_backup_list *list, size_t i,
                                                                  int64_t *out);

/**
 * @brief The `status.backupItemOperationsFailed` of the i-th object
 * (a Restore's `status.restoreItemOperationsFailed`).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0.
 */
VELSTATUS_API int velstatus_backup_list_item_operations_failed(const velstatus_backup_list *list, size_t i,
                                                               int64_t *out);

/**
 * @brief The number of `metadata.finalizers` of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @return The count (0 when absent or out of range).
 */
VELSTATUS_API size_t velstatus_backup_list_finalizer_count(const velstatus_backup_list *list, size_t i);

/**
 * @brief The j-th finalizer of the i-th object.
 * @param[in] list The list.
 * @param[in] i The object's index.
 * @param[in] j The finalizer's index, below velstatus_backup_list_finalizer_count().
 * @param[out] len Receives its length. May be NULL.
 * @return The NUL-terminated text, or NULL when out of range.
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_backup_list_finalizer(const velstatus_backup_list *list, size_t i, size_t j,
                                                          size_t *len);

/**
 * @brief A Kubernetes condition status (metav1.ConditionStatus).
 * Tokens: `False`, `True`, `Unknown`.
 */
typedef enum velstatus_condition_status {
    VELSTATUS_CONDITION_INVALID = -1, /**< Not a status (velstatus_condition_status_to_string() gives NULL). */
    VELSTATUS_CONDITION_FALSE = 0,    /**< `False`. */
    VELSTATUS_CONDITION_TRUE = 1,     /**< `True`. */
    VELSTATUS_CONDITION_UNKNOWN = 2   /**< `Unknown`. */
} velstatus_condition_status;

/**
 * @brief The token of a condition status.
 * @param[in] status The status.
 * @return `False`, `True` or `Unknown`, or NULL for a value outside the enum.
 */
VELSTATUS_API const char *velstatus_condition_status_to_string(velstatus_condition_status status);

/**
 * @brief Parses a condition status token (exact, case-sensitive).
 * @param[out] out Receives the status (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_condition_status_from_string(velstatus_condition_status *out, const char *s,
                                                                      size_t len, velstatus_error *err);

/**
 * @brief The kstatus-style conditions of a Backup or Restore
 * (velstatus_backup_conditions_of()). Size-tagged: fill it with
 * velstatus_backup_conditions_init() first.
 */
typedef struct velstatus_backup_conditions {
    uint32_t struct_size; /**< sizeof(velstatus_backup_conditions) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    /** Non-zero when the phase is absent or a phase of the kind known to
     *  this version (velstatus_phase_from_string(), velstatus_phase_valid()). */
    int phase_valid;
    /** Non-zero when the phase is absent, not valid, or one the policy's
     *  Velero release has (velstatus_phase_exists(): Queued and
     *  ReadyToStart came in 1.18, a restore's Finalizing phases in 1.14). */
    int phase_in_release;
    velstatus_condition_status ready;       /**< `Ready`: True once Completed. */
    velstatus_condition_status reconciling; /**< `Reconciling`: True while Velero still works on it. */
    velstatus_condition_status stalled;     /**< `Stalled`: True in a failed terminal phase. */
    /** The reason of all three: `NoStatus` (no phase), `New` (`""`),
     *  `Deleting`, `UnknownPhase`, or the phase itself. */
    const char *reason;
    size_t reason_len; /**< Length of reason in bytes. */
    /* v1 ends here. Append only. */
} velstatus_backup_conditions;

/**
 * @brief Fills a conditions struct with zeros and its struct_size.
 * @param[out] c The struct (NULL is ignored).
 * @param[in] struct_size sizeof(velstatus_backup_conditions) as the caller sees it.
 */
VELSTATUS_API void velstatus_backup_conditions_init(velstatus_backup_conditions *c, size_t struct_size);

/**
 * @brief The kstatus-style Ready, Reconciling and Stalled conditions a
 * Backup or Restore should carry (Velero sets none; doc/cli.md,
 * "backup-status", has the table).
 *
 * Being deleted: Ready False, Reconciling True, Stalled False, reason
 * `Deleting`. A phase that is not valid or not in the policy's release:
 * all three Unknown, reason `UnknownPhase` (never guessed). Completed: Ready
 * True, Reconciling False, Stalled False. FailedValidation, Failed,
 * PartiallyFailed: Ready False, Reconciling False, Stalled True. Any other
 * phase, or none: Ready False, Reconciling True, Stalled False. The reason
 * is the phase, `New` for `""`, `NoStatus` with no phase.
 * @param[in,out] out A struct filled with velstatus_backup_conditions_init().
 * @param[in] kind ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[in] phase `status.phase`, or NULL when absent or null.
 * @param[in] phase_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] deleting Non-zero when `metadata.deletionTimestamp` is set.
 * @param[in] policy The policy whose Velero release says which phases exist,
 *            or NULL for the current release.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, another kind) or
 *         ::VELSTATUS_E_ABI (struct_size, or the policy's).
 * @borrowed reason is static text or `phase` itself: valid as long as phase is.
 */
VELSTATUS_API velstatus_status velstatus_backup_conditions_of(velstatus_backup_conditions *out, velstatus_kind kind,
                                                              const char *phase, size_t phase_len, int deleting,
                                                              const velstatus_policy *policy, velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_BACKUP_OBJECT_H */
