/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/phase.h
 * @brief Backup and restore phases: wire spelling, terminal phases, legal
 * transitions, the phase after the main run, and restart handling.
 *
 * One enum covers both kinds: a backup has all 13 phases, a restore the 10
 * that doc/velero-behaviour.md §5.1 lists (no Queued, ReadyToStart or Deleting).
 * Phase tokens are Velero's own wire spelling (`WaitingForPluginOperations`),
 * not lower-case tokens, because they cross the API exactly as Velero writes
 * them into the CRs; the empty string reads as New.
 *
 * @defgroup phase Phases
 * @{
 */
#ifndef VELSTATUS_PHASE_H
#define VELSTATUS_PHASE_H

#include "common.h"
#include "host.h"
#include "policy.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief Which CR a phase belongs to. */
typedef enum velstatus_kind {
    VELSTATUS_KIND_INVALID = -1, /**< Not a kind: what velstatus_oplist_kind() returns for NULL. */
    VELSTATUS_KIND_BACKUP = 0,   /**< A Velero Backup. */
    VELSTATUS_KIND_RESTORE = 1   /**< A Velero Restore. */
} velstatus_kind;

/** @brief Backup and restore phases (doc/velero-behaviour.md §5.1). */
typedef enum velstatus_phase {
    VELSTATUS_PHASE_INVALID = -1,                      /**< Not a phase: what a getter returns for a NULL object. */
    VELSTATUS_PHASE_NEW = 0,                           /**< "New" (also ""). */
    VELSTATUS_PHASE_QUEUED = 1,                        /**< "Queued" (backup only). */
    VELSTATUS_PHASE_READY_TO_START = 2,                /**< "ReadyToStart" (backup only). */
    VELSTATUS_PHASE_FAILED_VALIDATION = 3,             /**< "FailedValidation". */
    VELSTATUS_PHASE_IN_PROGRESS = 4,                   /**< "InProgress". */
    VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS = 5, /**< "WaitingForPluginOperations". */
    VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED =
        6,                                           /**< "WaitingForPluginOperationsPartiallyFailed". */
    VELSTATUS_PHASE_FINALIZING = 7,                  /**< "Finalizing". */
    VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED = 8, /**< "FinalizingPartiallyFailed". */
    VELSTATUS_PHASE_COMPLETED = 9,                   /**< "Completed". */
    VELSTATUS_PHASE_PARTIALLY_FAILED = 10,           /**< "PartiallyFailed". */
    VELSTATUS_PHASE_FAILED = 11,                     /**< "Failed". */
    VELSTATUS_PHASE_DELETING = 12                    /**< "Deleting" (backup only). */
} velstatus_phase;

/** @brief What the server does with a CR in a given phase when it restarts. */
typedef enum velstatus_restart_action {
    VELSTATUS_RESTART_NONE = 0,        /**< Nothing: the phase is terminal, or (Velero) nobody picks it up. */
    VELSTATUS_RESTART_MARK_FAILED = 1, /**< Patch it to Failed (InProgress: its in-memory run is lost). */
    VELSTATUS_RESTART_REQUEUE = 2      /**< A controller picks it up again in the same phase. */
} velstatus_restart_action;

/**
 * @brief The kind's name: "backup" or "restore".
 * @param[in] kind The kind.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_kind_to_string(velstatus_kind kind);

/**
 * @brief Parses "backup" or "restore" (exact, case-sensitive).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_kind_from_string(velstatus_kind *out, const char *s, size_t len,
                                                          velstatus_error *err);

/**
 * @brief The phase in Velero's wire spelling, e.g. "WaitingForPluginOperations".
 * @param[in] phase The phase.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_phase_to_string(velstatus_phase phase);

/**
 * @brief Parses a phase in Velero's wire spelling; "" reads as New.
 *
 * Any of the 13 phases is accepted; whether a kind has it is
 * velstatus_phase_valid() (a restore has no Queued, ReadyToStart or Deleting).
 * @param[out] out The phase.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown phase).
 */
VELSTATUS_API velstatus_status velstatus_phase_from_string(velstatus_phase *out, const char *s, size_t len,
                                                           velstatus_error *err);

/**
 * @brief Whether the kind has this phase.
 * @param[in] kind The kind.
 * @param[in] phase The phase.
 * @return 1 if it does, 0 if not (or either value is unknown).
 */
VELSTATUS_API int velstatus_phase_valid(velstatus_kind kind, velstatus_phase phase);

/**
 * @brief A BackupStorageLocation problem that fails a Backup's or Restore's
 * validation (FailedValidation). Tokens: `server_default_missing`,
 * `default_missing`, `read_only`, `unavailable`.
 */
typedef enum velstatus_bsl_validation {
    /** No BSL was given and the server's default (`--default-backup-storage-location`) does not exist. */
    VELSTATUS_BSL_VALIDATION_SERVER_DEFAULT_MISSING = 0,
    /** The BSL the backup names (or the `spec.default` one) was not found. */
    VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING = 1,
    /** The BSL is read-only: no backup can be written to it. */
    VELSTATUS_BSL_VALIDATION_READ_ONLY = 2,
    /** The BSL is not Available (checked from Velero 1.17, for backups and restores). */
    VELSTATUS_BSL_VALIDATION_UNAVAILABLE = 3
} velstatus_bsl_validation;

/**
 * @brief The validation error Velero writes into `status.validationErrors`
 * for a BSL problem, in the wording of the policy's release
 * (velstatus_policy::validation_texts_quoted,
 * velstatus_policy::validation_bsl_available; doc/velero-releases.md): for a
 * backup, `backup_controller.go` prepareBackupRequest; for a restore
 * (unavailable only), `restore_controller.go` validateAndComplete.
 *
 * A release without the check (an unavailable BSL before Velero 1.17) gives
 * `*out` NULL and `*out_len` 0: the object passes this check.
 * @param[out] out Receives the text (free with velstatus_free()), or NULL.
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] ctx The context that allocates the text.
 * @param[in] kind ::VELSTATUS_KIND_BACKUP, or ::VELSTATUS_KIND_RESTORE with
 *            ::VELSTATUS_BSL_VALIDATION_UNAVAILABLE.
 * @param[in] problem The problem.
 * @param[in] bsl The BSL's name (need not be NUL-terminated).
 * @param[in] bsl_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] cause The Get error's text (`Error: %v`) for the two missing
 *            problems, else ignored; may be NULL with length 0.
 * @param[in] cause_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] policy The policy, or NULL for the hardened preset (the current release's texts).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (a NULL argument, an
 *         unknown kind or problem, a restore problem other than
 *         unavailable), ::VELSTATUS_E_ABI (policy size) or ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_bsl_validation_error(char **out, size_t *out_len, velstatus_ctx *ctx,
                                                              velstatus_kind kind, velstatus_bsl_validation problem,
                                                              const char *bsl, size_t bsl_len, const char *cause,
                                                              size_t cause_len, const velstatus_policy *policy,
                                                              velstatus_error *err);

/**
 * @brief The problem's token, such as "read_only".
 * @param[in] v The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_bsl_validation_to_string(velstatus_bsl_validation v);

/**
 * @brief Parses a ::velstatus_bsl_validation token.
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_bsl_validation_from_string(velstatus_bsl_validation *out, const char *s,
                                                                    size_t len, velstatus_error *err);

/**
 * @brief Whether `velero ... create --wait` stops at this phase:
 * FailedValidation, Completed, PartiallyFailed and Failed (doc/velero-behaviour.md §5.1).
 * @param[in] kind The kind.
 * @param[in] phase The phase.
 * @return 1 for a terminal phase, 0 otherwise (and for invalid values).
 */
VELSTATUS_API int velstatus_phase_is_terminal(velstatus_kind kind, velstatus_phase phase);

/**
 * @brief Whether the kind has this phase in the Velero release a policy
 * models: Queued and ReadyToStart exist from Velero 1.18
 * (velstatus_policy::backup_queue), a restore's Finalizing and
 * FinalizingPartiallyFailed from 1.14 (velstatus_policy::restore_finalizing);
 * doc/velero-releases.md.
 * @param[out] exists 1 if the phase exists, else 0 (also for a phase the
 *             kind never has, or a value outside the enum).
 * @param[in] kind The kind.
 * @param[in] phase The phase.
 * @param[in] policy The policy, or NULL for the hardened preset (the current release's phases).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL exists, unknown kind)
 *         or ::VELSTATUS_E_ABI (policy size).
 */
VELSTATUS_API velstatus_status velstatus_phase_exists(int *exists, velstatus_kind kind, velstatus_phase phase,
                                                      const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief Whether Velero ever moves a CR of this kind from `from` to `to`,
 * and which controller does (doc/velero-behaviour.md §5.2, §5.3), in the
 * Velero release the policy models (doc/velero-releases.md: before 1.18 the
 * backup controller takes New to InProgress itself; before 1.14 a restore
 * ends Completed or PartiallyFailed without Finalizing).
 *
 * A phase "moved" to itself is reported legal with the controller "none"
 * (no transition, nothing to patch).
 * @param[out] legal 1 if the transition exists, else 0.
 * @param[out] controller Receives the controller(s) that make it, such as
 *             "backup-operations" or "backup, server-startup"; "" when
 *             illegal. May be NULL.
 * @param[in] kind The kind.
 * @param[in] from The current phase.
 * @param[in] to The next phase.
 * @param[in] policy The policy, or NULL for the hardened preset (the current release).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL legal, or a phase the
 *         kind does not have, or not in that release: the message says
 *         "in this Velero release" and from which release it exists) or
 *         ::VELSTATUS_E_ABI (policy size).
 * @borrowed The controller string is static.
 */
VELSTATUS_API velstatus_status velstatus_phase_transition(int *legal, const char **controller, velstatus_kind kind,
                                                          velstatus_phase from, velstatus_phase to,
                                                          const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief The phase after the main backup or restore run (doc/velero-behaviour.md §2.7).
 *
 * Failed if `fatal`; otherwise, by whether errors were logged and whether an
 * item operation is still in progress: WaitingForPluginOperations[PartiallyFailed]
 * or Finalizing[PartiallyFailed].
 * @param[in] kind The kind (the table is the same for both).
 * @param[in] fatal Non-zero if the run had fatal errors.
 * @param[in] errors_logged The number of errors logged by the run (negative is treated as 0).
 * @param[in] in_progress Non-zero if an item operation is still New or InProgress.
 * @return The next phase.
 */
VELSTATUS_API velstatus_phase velstatus_phase_after_run(velstatus_kind kind, int fatal, int64_t errors_logged,
                                                        int in_progress);

/**
 * @brief What the server does at restart with a CR in `phase`.
 *
 * InProgress is marked Failed (its run was in memory). Waiting* and
 * Finalizing* are requeued by their periodic controllers; New and Queued by
 * the queue/backup controllers; Deleting by the deletion controller. A
 * ReadyToStart backup is not picked up by Velero (doc/velero-behaviour.md §6.17); with
 * `requeue_ready_to_start_on_restart` it is requeued. Terminal phases: none.
 * @param[out] action What to do.
 * @param[out] next The phase after the action (Failed for MARK_FAILED, else unchanged). May be NULL.
 * @param[in] kind The kind.
 * @param[in] phase The phase found at restart.
 * @param[in] policy The policy, or NULL for the hardened preset.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (also for a phase not in
 *         the policy's Velero release) or ::VELSTATUS_E_ABI (policy size).
 */
VELSTATUS_API velstatus_status velstatus_phase_on_restart(velstatus_restart_action *action, velstatus_phase *next,
                                                          velstatus_kind kind, velstatus_phase phase,
                                                          const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief The restart action's name: "none", "mark_failed" or "requeue".
 * @param[in] action The action.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_restart_action_to_string(velstatus_restart_action action);

/**
 * @brief Parses "none", "mark_failed" or "requeue".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_restart_action_from_string(velstatus_restart_action *out, const char *s,
                                                                    size_t len, velstatus_error *err);

/**
 * @brief Argo CD's health of a Backup or Restore, as Argo CD's own
 * `velero.io/Backup` and `velero.io/Restore` health checks compute it.
 * Tokens: `healthy`, `progressing`, `degraded`.
 */
typedef enum velstatus_argo_health {
    VELSTATUS_ARGO_HEALTH_INVALID = -1, /**< Not a health (velstatus_argo_health_to_string() gives NULL). */
    VELSTATUS_ARGO_HEALTHY = 0,         /**< `Healthy`: Completed. */
    VELSTATUS_ARGO_PROGRESSING = 1,     /**< `Progressing`: any other phase, no status, a Backup being deleted. */
    VELSTATUS_ARGO_DEGRADED = 2         /**< `Degraded`: one of the five failed phases. */
} velstatus_argo_health;

/**
 * @brief The token of a health.
 * @param[in] health The health.
 * @return `healthy`, `progressing` or `degraded`, or NULL for a value outside the enum.
 */
VELSTATUS_API const char *velstatus_argo_health_to_string(velstatus_argo_health health);
/**
 * @brief Parses a health token (exact, case-sensitive).
 * @param[out] out Receives the health (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_argo_health_from_string(velstatus_argo_health *out, const char *s, size_t len,
                                                                 velstatus_error *err);

/**
 * @brief The Argo CD health of a Backup or Restore, exactly as Argo CD's
 * resource_customizations `velero.io/Backup/health.lua` and
 * `velero.io/Restore/health.lua` compute it: a Backup with
 * `metadata.deletionTimestamp` is Progressing, "Pending deletion" (Argo
 * appends the finalizers; the host has them); no `status.phase` (phase
 * NULL) is Progressing, "Waiting for backup to be processed" (or restore);
 * Completed is Healthy, "Backup completed" (or "Restore completed");
 * FailedValidation, Failed, PartiallyFailed,
 * WaitingForPluginOperationsPartiallyFailed and FinalizingPartiallyFailed
 * are Degraded with `status.failureReason` as the message when it is set
 * (even empty), else the phase; any other phase, known to this version or
 * not, is Progressing with the phase as the message (whether the phase is
 * known is velstatus_phase_from_string() and velstatus_phase_valid()).
 * @param[out] health Receives the health.
 * @param[out] message Receives Argo's message: static text, or phase or
 *             failure_reason itself (borrowed: valid as long as they are).
 * @param[out] message_len Receives its length.
 * @param[in] kind ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[in] phase `status.phase`, or NULL when absent or null.
 * @param[in] phase_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] failure_reason `status.failureReason`, or NULL when absent or null.
 * @param[in] failure_reason_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] deleting Non-zero when `metadata.deletionTimestamp` is set.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (a NULL output, another kind).
 */
VELSTATUS_API velstatus_status velstatus_argo_health_of(velstatus_argo_health *health, const char **message,
                                                        size_t *message_len, velstatus_kind kind, const char *phase,
                                                        size_t phase_len, const char *failure_reason,
                                                        size_t failure_reason_len, int deleting, velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_PHASE_H */
