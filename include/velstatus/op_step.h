/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/op_step.h
 * @brief One pass over one operation: the plugin's answer and the per-operation step (layer 2 of the operations area).
 *
 * velstatus_oplist_step() applies one plugin answer (::velstatus_op_progress) to one
 * record, exactly as one iteration of Velero's operations loop does; the host
 * asks the plugin itself. For the whole list with a plugin vtable, see
 * reconcile.h.
 */
#ifndef VELSTATUS_OP_STEP_H
#define VELSTATUS_OP_STEP_H

#include "oplist.h"
#include "policy.h"

VELSTATUS_BEGIN_DECLS

/** @addtogroup operations
 * @{
 */

/* ------------------------------------------------------------------------ */
/* What the plugin said                                                      */
/* ------------------------------------------------------------------------ */

/** @brief What a plugin's answer for one operation was. */
typedef enum velstatus_op_report_kind {
    /** `Progress()` returned an `OperationProgress` (the other fields of
     *  ::velstatus_op_progress hold it). */
    VELSTATUS_OP_REPORT_PROGRESS = 0,
    /** `Progress()` returned an error; its text is velstatus_op_progress::err
     *  (it may be empty). doc/velero-behaviour.md §2.4 step 2. */
    VELSTATUS_OP_REPORT_PROGRESS_ERROR = 1,
    /** The plugin named by the record's item action could not be obtained
     *  (Velero: `GetBackupItemActionV2` failed); the text is
     *  velstatus_op_progress::err. The wrapped message then names
     *  `plugin: unknown`. doc/velero-behaviour.md §2.4 step 1. */
    VELSTATUS_OP_REPORT_LOOKUP_ERROR = 2
} velstatus_op_report_kind;

/**
 * @brief The report kind's token: "progress", "progress_error" or "lookup_error".
 * @param[in] kind The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_op_report_kind_to_string(velstatus_op_report_kind kind);

/**
 * @brief Parses "progress", "progress_error" or "lookup_error".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_op_report_kind_from_string(velstatus_op_report_kind *out, const char *s,
                                                                    size_t len, velstatus_error *err);

/**
 * @brief A plugin's answer for one operation, by value (doc/velero-behaviour.md §2.2,
 * `OperationProgress`). Size-tagged: initialise with
 * velstatus_op_progress_init() or `{ sizeof(velstatus_op_progress) }`.
 *
 * Text fields are `(pointer, length)` pairs, need not be NUL-terminated, and
 * are copied by the call they are passed to; a NULL pointer with length 0 is
 * the empty string. A Go zero `time.Time` is `has_started = 0`;
 * `time.Unix(0, 0)` is `has_started = 1, started_ns = 0` (see
 * velstatus_policy::unix_epoch_is_unknown). A time outside the int64
 * nanosecond range is given exactly by has_started_sec / started_sec /
 * started_nsec (and the updated_ twins).
 */
typedef struct velstatus_op_progress {
    uint32_t struct_size; /**< sizeof(velstatus_op_progress) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    uint32_t report;      /**< A ::velstatus_op_report_kind. */
    int completed;        /**< OperationProgress.Completed: finished, successfully or not. */
    int64_t n_completed;  /**< OperationProgress.NCompleted. */
    int64_t n_total;      /**< OperationProgress.NTotal. */
    const char *err; /**< OperationProgress.Err, or the error text of a failed call (see ::velstatus_op_report_kind). */
    size_t err_len;  /**< Length of err. */
    const char *operation_units; /**< OperationProgress.OperationUnits. */
    size_t operation_units_len;  /**< Length of operation_units. */
    const char *description;     /**< OperationProgress.Description. */
    size_t description_len;      /**< Length of description. */
    int has_started;             /**< 0 when OperationProgress.Started is Go's zero time. */
    int64_t started_ns;          /**< OperationProgress.Started (when has_started). */
    int has_updated;             /**< 0 when OperationProgress.Updated is Go's zero time. */
    int64_t updated_ns;          /**< OperationProgress.Updated (when has_updated). */
    /** The plugin's own `Name()`, written as it is after `, plugin: ` in the
     *  error messages of this operation (a Progress error, a completion with
     *  an error, a timeout). NULL (the default) means the name Velero's plugin
     *  manager registered the record's item action under (`velero.io/`
     *  prefixed when it has no `/`), which is what a real plugin answers; a
     *  host sets it when its plugin answers another name (Velero's unit tests
     *  mock `Name()`). Unlike other texts, NULL is not the empty name: a
     *  non-NULL pointer with length 0 is a plugin named "". Ignored for
     *  ::VELSTATUS_OP_REPORT_LOOKUP_ERROR (no plugin, `plugin: unknown`).
     *  Appended in 1.1. */
    const char *plugin_name;
    size_t plugin_name_len; /**< Length of plugin_name. */
    /** Non-zero: OperationProgress.Started is exactly started_sec seconds
     *  and started_nsec nanoseconds after 1970-01-01T00:00:00Z, over Go's
     *  whole range (velstatus_time_parse_sec()), and has_started /
     *  started_ns are ignored. For a time outside the int64 nanosecond range
     *  (1677-09-21 to 2262-04-11). Go's zero time, `(-62135596800, 0)`, is
     *  the zero time (as `has_started = 0`), `(0, 0)` is `time.Unix(0, 0)`.
     *  A time outside the nanosecond range is held as its whole second
     *  (doc/operations.md, "Times"). Appended in 1.1. */
    int has_started_sec;
    int32_t started_nsec; /**< 0 to 999999999 (when has_started_sec). */
    /** Whole seconds, floored (when has_started_sec), from
     *  `0000-01-01T00:00:00+24:60` to `9999-12-31T23:59:59-24:60`: what an
     *  RFC 3339 text can say. */
    int64_t started_sec;
    int has_updated_sec;  /**< As has_started_sec, for OperationProgress.Updated. Appended in 1.1. */
    int32_t updated_nsec; /**< As started_nsec. */
    int64_t updated_sec;  /**< As started_sec. */
} velstatus_op_progress;

/**
 * @brief Zero-fills a progress struct and sets its struct_size (the twin of
 * a `{ sizeof(velstatus_op_progress) }` initialiser, for cffi and cgo).
 * @param[out] progress The struct; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_op_progress) as the caller sees it.
 */
VELSTATUS_API void velstatus_op_progress_init(velstatus_op_progress *progress, size_t struct_size);

/**
 * @brief Formats an error as Velero's backup operations controller does
 * (`wrapErrMsg`, doc/velero-behaviour.md §2.4): `"<msg>, plugin: <plugin>"`, or
 * `"plugin: <plugin>"` when msg is empty; plugin NULL gives `unknown`.
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] ctx The context to allocate from.
 * @param[in] msg The message (may be NULL when msg_len is 0).
 * @param[in] msg_len Its length.
 * @param[in] plugin The plugin name, or NULL for "unknown".
 * @param[in] plugin_len Its length.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, NULL msg
 *         with msg_len > 0) or ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_free().
 */
VELSTATUS_API velstatus_status velstatus_op_wrap_error(char **out, size_t *out_len, velstatus_ctx *ctx, const char *msg,
                                                       size_t msg_len, const char *plugin, size_t plugin_len,
                                                       velstatus_error *err);

/* ------------------------------------------------------------------------ */
/* The per-operation step                                                    */
/* ------------------------------------------------------------------------ */

/**
 * @brief Bits of the outcome of velstatus_oplist_step() (and the names
 * counted by velstatus_reconcile_result_count()).
 */
typedef enum velstatus_op_step_flag {
    VELSTATUS_OP_STEP_CHANGED = 1,          /**< The record was modified (Velero's `changes = true`). */
    VELSTATUS_OP_STEP_CANCEL = 2,           /**< It timed out: the host must call the plugin's Cancel() for it. */
    VELSTATUS_OP_STEP_FAILED_NOW = 4,       /**< It became Failed in this step; an error message is returned. */
    VELSTATUS_OP_STEP_COMPLETED_NOW = 8,    /**< It became Completed in this step. */
    VELSTATUS_OP_STEP_COUNT_COMPLETED = 16, /**< It counts in `completed` (Completed now or before). */
    VELSTATUS_OP_STEP_COUNT_FAILED = 32,    /**< It counts in `failed` (Failed now or before). */
    VELSTATUS_OP_STEP_IN_PROGRESS = 64,     /**< It is still New or InProgress after the step. */
    VELSTATUS_OP_STEP_UNKNOWN_PHASE =
        128, /**< Its phase is none of Velero's four (doc/velero-behaviour.md §2.4 step 0, §6.5). */
    VELSTATUS_OP_STEP_MISSING_CREATED =
        256, /**< Running without `created`: the timeout was not evaluated (doc/velero-behaviour.md §6.2). */
    VELSTATUS_OP_STEP_ERROR_DEFERRED =
        512 /**< A Progress or lookup error within the grace period (doc/velero-behaviour.md §6.4). */
} velstatus_op_step_flag;

/**
 * @brief A step flag's token, e.g. "failed_now" (the flag name in lower case).
 * @param[in] flag The value (a single flag).
 * @return A static string, or NULL for anything but a single known flag.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_op_step_flag_to_string(velstatus_op_step_flag flag);

/**
 * @brief Parses a step flag token (one flag).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_op_step_flag_from_string(velstatus_op_step_flag *out, const char *s,
                                                                  size_t len, velstatus_error *err);

/**
 * @brief One operation, one pass: Velero's loop body of
 * `getBackupItemOperationProgress` / `getRestoreItemOperationProgress`
 * (doc/velero-behaviour.md §2.4), as a pure function that updates record `index` in
 * place.
 *
 * Records whose phase is neither New nor InProgress are only classified
 * (step 0): `report` is ignored and may be NULL. Under the Velero preset an
 * unknown phase is skipped (counted nowhere); with
 * velstatus_policy::unknown_phase_fails it becomes Failed with the error
 * `unknown operation phase "<phase>"` (doc/velero-behaviour.md §6.5).
 *
 * For a New or InProgress record, `report` is what the plugin said:
 * - a lookup or Progress error fails the operation with that text (steps
 *   1-2), unless velstatus_policy::progress_error_grace_ns is positive: the
 *   first error then records its time (`velstatusProgressErrorSince`, kept
 *   in the record and in its JSON) and the operation keeps running until
 *   errors have persisted for the grace period (`now - since >= grace`);
 *   any successful report clears it. During the grace period the timeout
 *   still applies.
 * - progress fields are copied when different (step 3), and `started` /
 *   `updated` follow step 4: by Go struct equality in the Velero preset (a
 *   time read from JSON never equals one reported by a plugin, because
 *   Velero reads times into the local zone and plugins report UTC; a zero
 *   time reported after a non-zero one replaces it with a zero time,
 *   written `null`), or, with velstatus_policy::compare_times_by_instant,
 *   by instant at the second precision the file keeps, ignoring a zero time
 *   reported after a non-zero one. With velstatus_policy::unix_epoch_is_unknown
 *   a reported `time.Unix(0, 0)` counts as zero.
 * - `completed` finishes it (step 5, checked before the timeout).
 * - the timeout (step 6) fails it when `created + timeout < now`, strictly,
 *   and sets ::VELSTATUS_OP_STEP_CANCEL: the caller calls Cancel. A timeout
 *   <= 0 expires at once under the Velero preset and means "no timeout"
 *   under velstatus_policy::zero_timeout_expires = 0. A record without
 *   `created` never times out and is flagged (both presets; Velero panics).
 *   `created + timeout` is computed exactly, as Go's `Time.Add`, over Go's
 *   whole range: never overflows, so a `created` of Go's zero time
 *   (`0001-01-01T00:00:00Z` in the file) times out at once, as in Velero.
 * - New with a `started` time becomes InProgress (step 7).
 *
 * The message for a newly failed operation is Velero's: `wrapErrMsg(text,
 * plugin)` for backups (the plugin is the record's item action, `unknown`
 * for a lookup error), the raw text for restores unless
 * velstatus_policy::restore_error_plugin_suffix is set.
 *
 * @param[out] flags Receives the ::velstatus_op_step_flag bits.
 * @param[out] message Receives the new error message when
 *             ::VELSTATUS_OP_STEP_FAILED_NOW is set, else NULL. May be NULL
 *             if the caller does not want it.
 * @param[out] message_len Receives its length (0 when none); may be NULL.
 * @param[in,out] list The list; record `index` is updated.
 * @param[in] index The record.
 * @param[in] report What the plugin said; required (non-NULL) for a New or
 *            InProgress record, ignored otherwise.
 * @param[in] now_ns The current time (the library never reads a clock).
 * @param[in] timeout_ns The item-operation timeout (`spec.itemOperationTimeout`).
 * @param[in] policy The policy, or NULL for the hardened preset.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL flags or list, NULL
 *         report when one is needed, an unknown report kind, non-zero report
 *         flags, NULL text with a non-zero length); ::VELSTATUS_E_RANGE
 *         (index out of range, an exact reported time outside its range); ::VELSTATUS_E_ABI (report or policy
 *         struct_size); ::VELSTATUS_E_NOMEM. On failure the record is
 *         unchanged.
 * @owned Release *message with velstatus_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_step(uint32_t *flags, char **message, size_t *message_len,
                                                     velstatus_oplist *list, size_t index,
                                                     const velstatus_op_progress *report, int64_t now_ns,
                                                     int64_t timeout_ns, const velstatus_policy *policy,
                                                     velstatus_error *err);

/** @} */

VELSTATUS_END_DECLS

#endif /* VELSTATUS_OP_STEP_H */
