/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/oplist.h
 * @brief Item-operation records and lists: the content of one itemoperations file (layer 1 of the operations area).
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
 * int64 range (INT64_MIN / INT64_MAX), velstatus_op_time_sec() exactly. See
 * doc/operations.md, "Times", for what a zero, sub-second or offset time
 * becomes when the list is written.
 */
#ifndef VELSTATUS_OPLIST_H
#define VELSTATUS_OPLIST_H

#include "common.h"
#include "status.h"
#include "host.h"
#include "phase.h"

VELSTATUS_BEGIN_DECLS

/** @addtogroup operations
 * @{
 */

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
VELSTATUS_API velstatus_status velstatus_oplist_set_time(velstatus_oplist *list, size_t index, velstatus_op_time which,
                                                         int has, int64_t ns, velstatus_error *err);

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
                                                              const char *name, size_t name_len, velstatus_error *err);

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

/**
 * @brief One of the three timestamps, exactly, as whole seconds and
 * nanoseconds: the second view of velstatus_op_time_value()'s value.
 *
 * velstatus_op_time_value() gives nanoseconds, the unit of every decision
 * input (`now`, timeouts, plugin reports), saturated outside 1677-2262. A
 * record read from a file holds any time Velero reads (years 0000 to 9999
 * at any offset, Go's zero time `0001-01-01T00:00:00Z` included); this
 * getter gives it without loss (`*sec * 1e9 + *nsec` is `ns` wherever that
 * does not saturate). A time read from JSON outside the int64 nanosecond
 * range keeps its whole second only, so `*nsec` is 0 there: that is all the
 * file keeps, since `metav1.Time` writes whole seconds
 * (`0001-01-01T00:00:00.5Z` is written `0001-01-01T00:00:00Z`). Go's zero
 * time reads `*sec == -62135596800, *nsec == 0`, present.
 * @param[in] op The record.
 * @param[in] which Which timestamp.
 * @param[out] sec Whole seconds since 1970-01-01T00:00:00Z (floored) when
 *             present, else 0; may be NULL.
 * @param[out] nsec Nanoseconds past that second (0 to 999999999) when
 *             present, else 0; may be NULL.
 * @return 1 if present, 0 if absent/nil (or op NULL, which unknown).
 */
VELSTATUS_API int velstatus_op_time_sec(const velstatus_op *op, velstatus_op_time which, int64_t *sec, int32_t *nsec);

/* ---- JSON: the itemoperations file in and out ---- */

/**
 * @brief Decodes a `<name>-itemoperations.json` file (Velero's
 * `pkg/itemoperation` records, doc/velero-behaviour.md §2.1) into a new list.
 *
 * The input is the uncompressed JSON text Velero writes: a top-level array
 * of `{"spec": ..., "status": ...}` records, or `null` (a nil list). The
 * array is walked record by record and no DOM is built (doc/design.md §9).
 *
 * Memory: the call allocates the list and, beyond it, at most one decoded
 * key or time string of scratch. The list takes 272 bytes per record (its
 * record array grows by doubling; only the used part is ever touched) plus
 * the text of its strings and of the unknown keys and values it keeps, each
 * at most the size of its text in the input (unknown values are stored
 * compacted but not escaped). With the input in memory the peak is
 * therefore at most 2 x the input + 272 bytes per record (a 50 MiB unknown
 * key: 101 MiB in all; `doc/hostile-inputs.md` lists the inputs tested and
 * the CLI's figures).
 *
 * The CLI's bound, which `tests/cli-memory.sh` asserts on 1,000,000 `{}`
 * records: peak memory <= 2 x the input + 320 bytes per record for
 * `operations check`, `operations format` and `progress`. Beyond the list,
 * velstatus_progress_new() allocates nothing per record,
 * velstatus_oplist_write_json() holds 64 KiB of the text, and `check`
 * prints each record's problems as it finds them, keeping 8 bytes per record
 * for the duplicate-ID sort. Measured on 10,000,000 `{}` records (30 MB; the
 * bound is 3109 MiB): `format` 2624 MiB, `progress` 2624 MiB, `check`
 * 2710 MiB (before: 4426, 3206 and 10072 MiB).
 * A record may nest 2048 levels (jansson's limit; the file's array is not
 * counted), and a string or kept value may hold up to 4 GiB - 1 bytes
 * (::VELSTATUS_E_RANGE beyond).
 *
 * Keys are matched as Go's `encoding/json` matches them to struct fields:
 * after unescaping, an exact match first, else a case-insensitive one
 * (`bytes.EqualFold`: ASCII case, and U+017F LONG S and U+212A KELVIN SIGN
 * match `s` and `k`). So the keys Velero 1.11 wrote, `ResourceIdentifier`,
 * `OperationID` and `PostOperationItems`, read as HEAD's; the encoder always
 * writes HEAD's keys. A repeated key is assigned in order, as Go does: a
 * later scalar or time wins, a later object merges into the earlier one, a
 * later `postOperationItems` array decodes into the earlier items (its
 * length wins), a later `null` resets `postOperationItems` or a time to nil
 * and leaves a string or number as it was. Every key it does not know, at every level it decodes (the
 * record, `spec`, `status`, `resourceIdentifier` and each post-operation
 * item), is kept with its value and written back by
 * velstatus_oplist_to_json(), in its original order, after the known keys;
 * a repeated unknown key is kept every time it occurs.
 * Keys of the other kind (e.g. `restoreName` in a backup list) count as
 * unknown. Timestamps are RFC 3339 strings as `metav1.Time` reads them
 * (`time.Parse(time.RFC3339)`: years 0000 to 9999, any offset, any
 * fraction; Go's zero time `0001-01-01T00:00:00Z` is a present time) or
 * `null`; both absent and `null` read as "no time"
 * (velstatus_op_time_value() returns 0), and each is written back as it was.
 * A time is written as `metav1.Time` writes it: UTC, whole seconds (see
 * doc/operations.md, "Times", for the zero time).
 *
 * Rejected (no list is returned; `err` names the JSON path, e.g.
 * `[3].status.nTotal`, with the line, column and byte offset): malformed
 * JSON (::VELSTATUS_E_PARSE), which includes a raw NUL byte anywhere, invalid
 * UTF-8, a lone surrogate escape and nesting deeper than 2048 levels (see
 * `doc/hostile-inputs.md`); a number that does not fit a double or, without
 * a fraction or exponent, an int64 (::VELSTATUS_E_RANGE); a value of the wrong type,
 * a number that is not an integer or does not fit int64, a malformed
 * timestamp (::VELSTATUS_E_SCHEMA), a `velstatusProgressErrorSince` outside
 * the int64 nanosecond range (::VELSTATUS_E_RANGE).
 * Unknown phase text is *not* an error: it is kept (velstatus_op_phase_value()
 * is then ::VELSTATUS_OP_PHASE_UNKNOWN); use the `check` tool or the
 * reconcile step to act on it.
 *
 * @param[out] out Receives the list.
 * @param[in] ctx The context whose allocator the list uses.
 * @param[in] kind The file's kind: ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[in] p The JSON text (need not be NUL-terminated).
 * @param[in] len Its length in bytes.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, ctx, or p with
 *         len > 0; unknown kind), ::VELSTATUS_E_PARSE (not JSON, trailing
 *         text, top level not an array or null),
 *         ::VELSTATUS_E_SCHEMA (a field of the wrong type),
 *         ::VELSTATUS_E_RANGE (a number or time out of range) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_oplist_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_from_json(velstatus_oplist **out, velstatus_ctx *ctx,
                                                          velstatus_kind kind, const char *p, size_t len,
                                                          velstatus_error *err);

/**
 * @brief Encodes a list exactly as Velero writes it (doc/velero-behaviour.md §2.1): Go
 * `json.Encoder` output of `[]*BackupOperation` / `[]*RestoreOperation`.
 *
 * Compact, keys in Go struct order (`spec` then `status`; every spec field
 * present; status fields omitted when empty or zero; `postOperationItems`
 * written as `null` when nil), Go's HTML-safe string escaping, times as
 * second-precision UTC RFC 3339, and a trailing newline. A nil list is
 * `null\n`, an empty one `[]\n`. Times follow `*metav1.Time` with
 * `omitempty`: an absent time is omitted, and a time that is present but
 * zero is written as `null` (a `null` read from the input, or a zero time a
 * plugin reported, see velstatus_oplist_step()). Unknown keys kept by the
 * decoder follow the known keys of their object, in their original order
 * (a repeated one as often as it occurred), the key written with Go's
 * escaping and the value as Go's encoder writes a `json.RawMessage`: its
 * text compacted, with `<`, `>`, `&`, U+2028 and U+2029 escaped and every
 * other byte (numbers, escapes) as it was.
 *
 * For a file Velero wrote, decode + encode gives back the same bytes. A file
 * from another writer comes back normalised: fractional seconds are
 * truncated and offsets converted to UTC (Velero reads times into local
 * time and writes them in UTC with second precision), absent spec fields
 * are written as `""`, and so on.
 *
 * One key that Velero does not have may be written: the hardened policy's
 * Progress-error grace period (velstatus_policy::progress_error_grace_ns)
 * records when an operation's errors began as
 * `"status":{...,"velstatusProgressErrorSince":"<RFC 3339>"}`, so that the
 * grace period survives a round trip through the file. Velero ignores the
 * key; it is never written under the Velero preset.
 * @param[out] out Receives the NUL-terminated text (the NUL is not counted in out_len).
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] list The list.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or list) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_to_json(char **out, size_t *out_len, const velstatus_oplist *list,
                                                        velstatus_error *err);


/**
 * @brief Encodes a list as velstatus_oplist_to_json() does, handing the text
 * to the host in chunks instead of as one string.
 *
 * The chunks, in order, are exactly the bytes velstatus_oplist_to_json()
 * returns (trailing newline included), split wherever the 64 KiB buffer
 * fills (a chunk may end inside a record or a string). The call's memory is
 * that buffer, whatever the list's size or the length of its strings; a run
 * of 64 KiB or more of a string that needs no escaping is handed over
 * straight from the list, uncopied. (10,000,000 `{}` records are 1.92 GB of
 * text: one string from velstatus_oplist_to_json(), 64 KiB here.) The
 * library does no I/O itself: `write` does.
 *
 * On failure the chunks already handed over are the beginning of the text
 * and no more follow; the host discards them (e.g. writes to a temporary
 * file that it renames only on ::VELSTATUS_OK).
 * @param[in] list The list.
 * @param[in] write The sink, called one or more times.
 * @param[in] userdata Passed to `write` as it is; may be NULL.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL list or write),
 *         ::VELSTATUS_E_HOST (`write` returned a negative value; host_code
 *         holds it) or ::VELSTATUS_E_NOMEM (the chunk buffer could not grow).
 */
VELSTATUS_API velstatus_status velstatus_oplist_write_json(const velstatus_oplist *list, velstatus_write_fn write,
                                                           void *userdata, velstatus_error *err);

/** @} */

VELSTATUS_END_DECLS

#endif /* VELSTATUS_OPLIST_H */
