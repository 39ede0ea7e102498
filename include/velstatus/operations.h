/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/operations.h
 * @brief The async item-operation state machine (doc/design.md §4, doc/velero-behaviour.md §2).
 *
 * ## The data
 *
 * A ::velstatus_oplist is the content of one `<name>-itemoperations.json`
 * file: a list of operation records of one kind (backup or restore), in
 * file order (doc/velero-behaviour.md §2.1). A record (::velstatus_op) has a *spec*
 * (name, UID, item action, resource identifier, operation ID and, for
 * backups, post-operation items) and a *status* (phase, error, counts,
 * units, description, and three optional timestamps).
 *
 * Lists come from velstatus_oplist_from_json() (json.h) or are built with
 * velstatus_oplist_new() and velstatus_oplist_append() plus the setters;
 * velstatus_oplist_to_json() writes Velero's exact bytes back. All the
 * strings of a list live in the list (one string pool per list); getters
 * return borrowed, NUL-terminated pointers plus a length (strings may
 * contain NUL bytes, so prefer the length).
 *
 * A `const velstatus_op *` obtained from velstatus_oplist_at() is borrowed
 * from the list: it stays valid until the list is freed or a record is
 * appended. Setters take the list and an index instead, because they may
 * allocate.
 *
 * ## Time
 *
 * Timestamps are `int64_t` nanoseconds since the Unix epoch (time.h). A nil
 * `*metav1.Time` (JSON `null` or an absent key) reads as "has = 0". A record
 * read from JSON holds every time Velero reads, years 0000 to 9999 at any
 * offset: Go's zero time, `0001-01-01T00:00:00Z`, is a present time (Velero
 * reads it as a non-nil zero `created`, which times out at once), not an
 * absent one. velstatus_op_time_value() gives such a time saturated to the
 * int64 range (INT64_MIN / INT64_MAX), velstatus_op_time_sec()
 * (velstatus/op_time.h) exactly. See doc/operations.md, "Times", for what a
 * zero, sub-second or offset time becomes when the list is written.
 *
 * @defgroup operations Item operations
 * @{
 */
#ifndef VELSTATUS_OPERATIONS_H
#define VELSTATUS_OPERATIONS_H

#include "common.h"
#include "status.h"
#include "host.h"
#include "policy.h"
#include "phase.h"

VELSTATUS_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Records and lists                                                         */
/* ------------------------------------------------------------------------ */

/**
 * @brief The phase of one operation (doc/velero-behaviour.md §2.1, `OperationPhase`).
 *
 * Velero has exactly four values. Anything else (including `""` and an
 * absent `phase`) reads as ::VELSTATUS_OP_PHASE_UNKNOWN; the raw text is
 * kept and written back unchanged (velstatus_op_string() with ::VELSTATUS_OP_FIELD_PHASE).
 */
typedef enum velstatus_op_phase {
    VELSTATUS_OP_PHASE_INVALID = -1,    /**< Not a phase: what velstatus_op_phase_value() returns for NULL. */
    VELSTATUS_OP_PHASE_UNKNOWN = 0,     /**< Not one of Velero's four values (also `""`). */
    VELSTATUS_OP_PHASE_NEW = 1,         /**< "New": created, not started by the plugin. */
    VELSTATUS_OP_PHASE_IN_PROGRESS = 2, /**< "InProgress": started by the plugin. */
    VELSTATUS_OP_PHASE_COMPLETED = 3,   /**< "Completed": finished successfully. */
    VELSTATUS_OP_PHASE_FAILED = 4       /**< "Failed": ended with an error (timeouts included). */
} velstatus_op_phase;

/**
 * @brief The string fields of a record, for velstatus_op_string() and
 * velstatus_oplist_set_string().
 */
typedef enum velstatus_op_field {
    VELSTATUS_OP_FIELD_NAME = 0,               /**< spec.backupName / spec.restoreName. */
    VELSTATUS_OP_FIELD_UID = 1,                /**< spec.backupUID / spec.restoreUID. */
    VELSTATUS_OP_FIELD_ITEM_ACTION = 2,        /**< spec.backupItemAction / spec.restoreItemAction (the plugin name). */
    VELSTATUS_OP_FIELD_RESOURCE_GROUP = 3,     /**< spec.resourceIdentifier.Group. */
    VELSTATUS_OP_FIELD_RESOURCE_RESOURCE = 4,  /**< spec.resourceIdentifier.Resource. */
    VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE = 5, /**< spec.resourceIdentifier.Namespace. */
    VELSTATUS_OP_FIELD_RESOURCE_NAME = 6,      /**< spec.resourceIdentifier.Name. */
    VELSTATUS_OP_FIELD_OPERATION_ID = 7,       /**< spec.operationID. */
    VELSTATUS_OP_FIELD_PHASE = 8,              /**< status.phase, raw text (setting it also sets the enum). */
    VELSTATUS_OP_FIELD_ERROR = 9,              /**< status.error. */
    VELSTATUS_OP_FIELD_OPERATION_UNITS = 10,   /**< status.operationUnits. */
    VELSTATUS_OP_FIELD_DESCRIPTION = 11        /**< status.description. */
} velstatus_op_field;

/** @brief The three optional timestamps of a record's status. */
typedef enum velstatus_op_time {
    VELSTATUS_OP_TIME_CREATED = 0, /**< status.created: set when the operation is created. */
    VELSTATUS_OP_TIME_STARTED = 1, /**< status.started: when the plugin started it. */
    VELSTATUS_OP_TIME_UPDATED = 2  /**< status.updated: the plugin's last update. */
} velstatus_op_time;

/** @brief An opaque operation list of one kind (one itemoperations file). */
typedef struct velstatus_oplist velstatus_oplist;

/** @brief One record of a list; opaque, read through the `velstatus_op_*` getters. */
typedef struct velstatus_op velstatus_op;

/**
 * @brief The wire spelling of an operation phase: "New", "InProgress",
 * "Completed" or "Failed".
 * @param[in] phase The phase.
 * @return A static string, or NULL for ::VELSTATUS_OP_PHASE_UNKNOWN and values
 *         outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_op_phase_to_string(velstatus_op_phase phase);

/**
 * @brief Parses "New", "InProgress", "Completed" or "Failed" (exact).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 * On ::VELSTATUS_E_INVALID with a non-NULL out, `*out` is
 * ::VELSTATUS_OP_PHASE_UNKNOWN: the value a record with that text has.
 */
VELSTATUS_API velstatus_status velstatus_op_phase_from_string(velstatus_op_phase *out, const char *s, size_t len,
                                                           velstatus_error *err);
/**
 * @brief The field's token, e.g. "item_action" or "operation_id".
 * @param[in] field The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_op_field_to_string(velstatus_op_field field);

/**
 * @brief Parses a field token (the names velstatus_op_field_to_string() gives).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_op_field_from_string(velstatus_op_field *out, const char *s, size_t len,
                                                           velstatus_error *err);

/**
 * @brief The timestamp's token: "created", "started" or "updated".
 * @param[in] which The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_op_time_to_string(velstatus_op_time which);

/**
 * @brief Parses "created", "started" or "updated".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_op_time_from_string(velstatus_op_time *out, const char *s, size_t len,
                                                           velstatus_error *err);


/**
 * @brief Creates an empty list.
 *
 * A new list is an empty, non-nil list (it encodes as `[]`).
 * @param[out] out Receives the list.
 * @param[in] ctx The context whose allocator the list uses.
 * @param[in] kind ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, unknown
 *         kind) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_oplist_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_new(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                                    velstatus_error *err);

/**
 * @brief Releases a list and every string it holds.
 * @param[in] list The list, or NULL.
 */
VELSTATUS_API void velstatus_oplist_free(velstatus_oplist *list);

/**
 * @brief The list's kind.
 * @param[in] list The list, or NULL.
 * @return ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE; ::VELSTATUS_KIND_INVALID for NULL.
 */
VELSTATUS_API velstatus_kind velstatus_oplist_kind(const velstatus_oplist *list);

/**
 * @brief The number of records.
 * @param[in] list The list, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_oplist_count(const velstatus_oplist *list);

/**
 * @brief Whether the list is Go's nil slice, i.e. was decoded from JSON
 * `null` (it then encodes as `null`; appending a record makes it non-nil).
 * @param[in] list The list, or NULL (0).
 * @return 1 for a nil list, else 0.
 */
VELSTATUS_API int velstatus_oplist_is_null(const velstatus_oplist *list);

/**
 * @brief The record at `index`.
 * @param[in] list The list, or NULL.
 * @param[in] index 0-based index.
 * @return The record, or NULL when list is NULL or index is out of range.
 * @borrowed Valid until the list is freed or a record is appended.
 */
VELSTATUS_API const velstatus_op *velstatus_oplist_at(const velstatus_oplist *list, size_t index);

/**
 * @brief Appends a record in the state Velero creates one in (doc/velero-behaviour.md §2.3):
 * every string empty, phase "New", counts 0, no timestamps, nil
 * post-operation items.
 *
 * Fill it with the setters below; remember to set `created`
 * (velstatus_oplist_set_time()), which Velero always sets.
 * @param[out] index Receives the new record's index; may be NULL.
 * @param[in] list The list.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list),
 *         ::VELSTATUS_E_RANGE (the list is full) or ::VELSTATUS_E_NOMEM
 *         (the list is unchanged).
 */
VELSTATUS_API velstatus_status velstatus_oplist_append(size_t *index, velstatus_oplist *list, velstatus_error *err);

/**
 * @brief Sets one string field of record `index` (the text is copied).
 *
 * Setting ::VELSTATUS_OP_FIELD_PHASE also sets the phase enum
 * (velstatus_op_phase_from_string()).
 * @param[in] list The list.
 * @param[in] index The record.
 * @param[in] field The field.
 * @param[in] s The text, UTF-8 (need not be NUL-terminated; may be NULL when len is 0).
 * @param[in] len Its length.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list, NULL s with
 *         len > 0, unknown field), ::VELSTATUS_E_RANGE (index out of range)
 *         or ::VELSTATUS_E_NOMEM (the field is unchanged).
 */
VELSTATUS_API velstatus_status velstatus_oplist_set_string(velstatus_oplist *list, size_t index,
                                                           velstatus_op_field field, const char *s, size_t len,
                                                           velstatus_error *err);

/**
 * @brief Sets status.nCompleted and status.nTotal of record `index`.
 * @param[in] list The list.
 * @param[in] index The record.
 * @param[in] n_completed The completed amount, in operation units.
 * @param[in] n_total The total amount, in operation units.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list) or
 *         ::VELSTATUS_E_RANGE (index out of range).
 */
VELSTATUS_API velstatus_status velstatus_oplist_set_counts(velstatus_oplist *list, size_t index, int64_t n_completed,
                                                           int64_t n_total, velstatus_error *err);

/**
 * @brief Sets or clears one timestamp of record `index`.
 *
 * Velero stores times with second precision; the encoder truncates the
 * fraction when writing, as `metav1.Time` does.
 * @param[in] list The list.
 * @param[in] index The record.
 * @param[in] which Which timestamp.
 * @param[in] has 0 clears it (nil, written as `null` or omitted), non-zero sets it.
 * @param[in] ns The instant, nanoseconds since the epoch (ignored when has is 0).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list, unknown which) or
 *         ::VELSTATUS_E_RANGE (index out of range).
 */
VELSTATUS_API velstatus_status velstatus_oplist_set_time(velstatus_oplist *list, size_t index,
                                                         velstatus_op_time which, int has, int64_t ns,
                                                         velstatus_error *err);

/**
 * @brief Appends a post-operation item (a resource identifier) to record
 * `index` of a backup list; the texts are copied.
 * @param[in] list The list (backup kind).
 * @param[in] index The record.
 * @param[in] group Group (may be NULL when group_len is 0).
 * @param[in] group_len Its length.
 * @param[in] resource Resource.
 * @param[in] resource_len Its length.
 * @param[in] ns Namespace.
 * @param[in] ns_len Its length.
 * @param[in] name Name.
 * @param[in] name_len Its length.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list or text pointer,
 *         a restore list: restore records have no post-operation items),
 *         ::VELSTATUS_E_RANGE (index out of range) or ::VELSTATUS_E_NOMEM
 *         (the record is unchanged).
 */
VELSTATUS_API velstatus_status velstatus_oplist_add_post_item(velstatus_oplist *list, size_t index, const char *group,
                                                              size_t group_len, const char *resource,
                                                              size_t resource_len, const char *ns, size_t ns_len,
                                                              const char *name, size_t name_len,
                                                              velstatus_error *err);

/* ---- getters (all take a record from velstatus_oplist_at()) ---- */

/**
 * @brief Any string field of a record: the one string getter of a record
 * (doc/conventions.md: one getter per value type, the field an enum, so a
 * field added later needs no new symbol and the bindings loop over the enum).
 * @param[in] op The record, or NULL.
 * @param[in] field The field.
 * @param[out] len Receives the length; may be NULL.
 * @return The NUL-terminated text ("" for an empty or absent field), or NULL
 *         (and *len = 0) when op is NULL or field unknown.
 * @borrowed Owned by the list.
 */
VELSTATUS_API const char *velstatus_op_string(const velstatus_op *op, velstatus_op_field field, size_t *len);

/**
 * @brief The number of spec.postOperationItems (always 0 for restores).
 * @param[in] op The record, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_op_post_item_count(const velstatus_op *op);

/**
 * @brief Whether spec.postOperationItems is Go's nil slice (written as
 * `null`) rather than an empty array (written as `[]`). Always 1 for a
 * record with no items that was not decoded from `[]`.
 * @param[in] op The record, or NULL (1).
 * @return 1 if nil, else 0.
 */
VELSTATUS_API int velstatus_op_post_items_null(const velstatus_op *op);

/**
 * @brief One field of post-operation item `item`.
 * @param[in] op The record.
 * @param[in] item 0-based item index.
 * @param[in] field One of the four ::VELSTATUS_OP_FIELD_RESOURCE_GROUP ..
 *            ::VELSTATUS_OP_FIELD_RESOURCE_NAME values.
 * @param[out] len Receives the length; may be NULL.
 * @return The text, or NULL (and *len = 0) when op is NULL, item is out of
 *         range or field is not a resource field.
 * @borrowed Owned by the list.
 */
VELSTATUS_API const char *velstatus_op_post_item(const velstatus_op *op, size_t item, velstatus_op_field field,
                                                 size_t *len);

/**
 * @brief status.phase as an enum.
 * @param[in] op The record, or NULL.
 * @return The phase; ::VELSTATUS_OP_PHASE_UNKNOWN for any other text;
 *         ::VELSTATUS_OP_PHASE_INVALID for NULL.
 */
VELSTATUS_API velstatus_op_phase velstatus_op_phase_value(const velstatus_op *op);

/**
 * @brief status.nCompleted.
 * @param[in] op The record, or NULL (0).
 * @return The value.
 */
VELSTATUS_API int64_t velstatus_op_n_completed(const velstatus_op *op);

/**
 * @brief status.nTotal.
 * @param[in] op The record, or NULL (0).
 * @return The value.
 */
VELSTATUS_API int64_t velstatus_op_n_total(const velstatus_op *op);

/**
 * @brief One of the three timestamps: the one time getter of a record
 * (as velstatus_op_string() is for the texts).
 * @param[in] op The record.
 * @param[in] which Which timestamp.
 * @param[out] ns Receives the instant (nanoseconds since the epoch) when
 *             present, else 0; may be NULL. A time outside the int64 range
 *             (Go's zero time, years before 1677 or after 2262) saturates
 *             to INT64_MIN or INT64_MAX; velstatus_op_time_sec() gives it
 *             exactly.
 * @return 1 if present, 0 if absent/nil (or op NULL, which unknown).
 */
VELSTATUS_API int velstatus_op_time_value(const velstatus_op *op, velstatus_op_time which, int64_t *ns);

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
VELSTATUS_API velstatus_status velstatus_op_report_kind_from_string(velstatus_op_report_kind *out, const char *s, size_t len,
                                                           velstatus_error *err);

/**
 * @brief A plugin's answer for one operation, by value (doc/velero-behaviour.md §2.2,
 * `OperationProgress`). Size-tagged: initialise with
 * velstatus_op_progress_init() or `{ sizeof(velstatus_op_progress) }`.
 *
 * Text fields are `(pointer, length)` pairs, need not be NUL-terminated, and
 * are copied by the call they are passed to; a NULL pointer with length 0 is
 * the empty string. A Go zero `time.Time` is `has_started = 0`;
 * `time.Unix(0, 0)` is `has_started = 1, started_ns = 0` (see
 * velstatus_policy::unix_epoch_is_unknown).
 */
typedef struct velstatus_op_progress {
    uint32_t struct_size;        /**< sizeof(velstatus_op_progress) as compiled by the caller. */
    uint32_t flags;              /**< Reserved, must be 0. */
    uint32_t report;             /**< A ::velstatus_op_report_kind. */
    int completed;               /**< OperationProgress.Completed: finished, successfully or not. */
    int64_t n_completed;         /**< OperationProgress.NCompleted. */
    int64_t n_total;             /**< OperationProgress.NTotal. */
    const char *err;             /**< OperationProgress.Err, or the error text of a failed call (see ::velstatus_op_report_kind). */
    size_t err_len;              /**< Length of err. */
    const char *operation_units; /**< OperationProgress.OperationUnits. */
    size_t operation_units_len;  /**< Length of operation_units. */
    const char *description;     /**< OperationProgress.Description. */
    size_t description_len;      /**< Length of description. */
    int has_started;             /**< 0 when OperationProgress.Started is Go's zero time. */
    int64_t started_ns;          /**< OperationProgress.Started (when has_started). */
    int has_updated;             /**< 0 when OperationProgress.Updated is Go's zero time. */
    int64_t updated_ns;          /**< OperationProgress.Updated (when has_updated). */
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
VELSTATUS_API velstatus_status velstatus_op_wrap_error(char **out, size_t *out_len, velstatus_ctx *ctx,
                                                       const char *msg, size_t msg_len, const char *plugin,
                                                       size_t plugin_len, velstatus_error *err);

/* ------------------------------------------------------------------------ */
/* The per-operation step                                                    */
/* ------------------------------------------------------------------------ */

/**
 * @brief Bits of the outcome of velstatus_oplist_step() (and the names
 * counted by velstatus_reconcile_result_count()).
 */
typedef enum velstatus_op_step_flag {
    VELSTATUS_OP_STEP_CHANGED = 1,            /**< The record was modified (Velero's `changes = true`). */
    VELSTATUS_OP_STEP_CANCEL = 2,             /**< It timed out: the host must call the plugin's Cancel() for it. */
    VELSTATUS_OP_STEP_FAILED_NOW = 4,         /**< It became Failed in this step; an error message is returned. */
    VELSTATUS_OP_STEP_COMPLETED_NOW = 8,      /**< It became Completed in this step. */
    VELSTATUS_OP_STEP_COUNT_COMPLETED = 16,   /**< It counts in `completed` (Completed now or before). */
    VELSTATUS_OP_STEP_COUNT_FAILED = 32,      /**< It counts in `failed` (Failed now or before). */
    VELSTATUS_OP_STEP_IN_PROGRESS = 64,       /**< It is still New or InProgress after the step. */
    VELSTATUS_OP_STEP_UNKNOWN_PHASE = 128,    /**< Its phase is none of Velero's four (doc/velero-behaviour.md §2.4 step 0, §6.5). */
    VELSTATUS_OP_STEP_MISSING_CREATED = 256,  /**< Running without `created`: the timeout was not evaluated (doc/velero-behaviour.md §6.2). */
    VELSTATUS_OP_STEP_ERROR_DEFERRED = 512    /**< A Progress or lookup error within the grace period (doc/velero-behaviour.md §6.4). */
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
VELSTATUS_API velstatus_status velstatus_op_step_flag_from_string(velstatus_op_step_flag *out, const char *s, size_t len,
                                                           velstatus_error *err);

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
 *         (index out of range); ::VELSTATUS_E_ABI (report or policy
 *         struct_size); ::VELSTATUS_E_NOMEM. On failure the record is
 *         unchanged.
 * @owned Release *message with velstatus_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_step(uint32_t *flags, char **message, size_t *message_len,
                                                     velstatus_oplist *list, size_t index,
                                                     const velstatus_op_progress *report, int64_t now_ns,
                                                     int64_t timeout_ns, const velstatus_policy *policy,
                                                     velstatus_error *err);

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
    uint32_t struct_size;           /**< sizeof(velstatus_reconcile_options) as compiled by the caller. */
    uint32_t flags;                 /**< Reserved, must be 0. */
    velstatus_phase phase;          /**< The backup's or restore's current phase: WaitingForPluginOperations[PartiallyFailed] (an operations-controller pass, doc/velero-behaviour.md §2.5/§2.6) or InProgress (the first evaluation at the end of the main run, doc/velero-behaviour.md §2.7). Default WaitingForPluginOperations. */
    velstatus_bsl_state bsl;        /**< The BSL's state (doc/velero-behaviour.md §2.5 step 2, §2.6). Default available. */
    int64_t now_ns;                 /**< The current time. Default 0 (set it). */
    int64_t timeout_ns;             /**< `spec.itemOperationTimeout`. Default 4h (doc/velero-behaviour.md §2.8). */
    int64_t errors;                 /**< InProgress: the errors the main run logged before the operations were evaluated. Waiting phases: errors still pending from earlier passes (Velero's `ErrsSinceUpdate` carried over). Default 0; negative is E_INVALID. */
    const char *bsl_name;           /**< The BSL's name, for the not-found error; NULL means "default". */
    size_t bsl_name_len;            /**< Length of bsl_name. */
    int64_t completed_before;       /**< `status.backupItemOperationsCompleted` (or the restore's) before the pass, for velstatus_reconcile_result_persist(). Default 0; negative is E_INVALID. */
    int64_t failed_before;          /**< `status.backupItemOperationsFailed` (or the restore's) before the pass. Default 0; negative is E_INVALID. */
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
VELSTATUS_API velstatus_status velstatus_persist_action_from_string(velstatus_persist_action *out, const char *s, size_t len,
                                                           velstatus_error *err);

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
 * is not checked for restores (§2.6), so the pass runs normally. The
 * counts then describe the list as it stands.
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

/* ------------------------------------------------------------------------ */
/* Plugin answers by operation ID (tests, the CLI, replaying a pass)         */
/* ------------------------------------------------------------------------ */

/** @brief An opaque map from operation ID to a plugin's answer (see velstatus_op_reports_from_json()). */
typedef struct velstatus_op_reports velstatus_op_reports;

/**
 * @brief Releases a reports map.
 * @param[in] reports The map, or NULL.
 */
VELSTATUS_API void velstatus_op_reports_free(velstatus_op_reports *reports);

/**
 * @brief The answer recorded for an operation ID.
 * @param[out] progress Receives the answer; its texts are borrowed from the map.
 *             Must have struct_size set (velstatus_op_progress_init()).
 * @param[in] reports The map.
 * @param[in] id The operation ID (need not be NUL-terminated).
 * @param[in] id_len Its length.
 * @return 1 if the ID is in the map, else 0 (also for NULL arguments or a
 *         struct_size smaller than the first version).
 */
VELSTATUS_API int velstatus_op_reports_get(velstatus_op_progress *progress, const velstatus_op_reports *reports,
                                           const char *id, size_t id_len);

/**
 * @brief A plugin client that answers from a reports map: Progress gets the
 * recorded answer; an ID absent from the map gets Velero's Progress error
 * `operation ID <id> is invalid` (doc/velero-behaviour.md §2.2); Cancel returns the entry's
 * `cancelError`, if any.
 * @param[out] client Receives the client; its userdata is the map, which
 *             must outlive its use.
 * @param[in] reports The map.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL argument).
 */
VELSTATUS_API velstatus_status velstatus_op_reports_client(velstatus_plugin_client *client,
                                                           const velstatus_op_reports *reports,
                                                           velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_OPERATIONS_H */
