/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/datamover.h
 * @brief The data mover: DataUpload and DataDownload objects (the decoder of
 * `kubectl get datauploads,datadownloads -o json`), the answers Velero's CSI
 * PVC plugin gives for them (Progress, Cancel) per release, and a ready-made
 * host plugin client that gives those answers to velstatus_oplist_reconcile().
 *
 * The decoder reads keys as Kubernetes' own decoder does (apimachinery's
 * `sigs.k8s.io/json`), as backup_object.h describes: keys unescaped, matched
 * case-sensitively, the last non-null repeated value wins, a repeated object
 * merges into the earlier one. doc/data-mover.md is the guide.
 *
 * Release 1.11 has no data mover (no DataUpload or DataDownload CRD): every
 * function here that takes a release refuses 1.11 with ::VELSTATUS_E_INVALID.
 *
 * @defgroup datamover Data mover (DataUpload, DataDownload)
 * @{
 */
#ifndef VELSTATUS_DATAMOVER_H
#define VELSTATUS_DATAMOVER_H

#include "common.h"
#include "reconcile.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief The decoded DataUploads and DataDownloads of one text (opaque). */
typedef struct velstatus_dm_list velstatus_dm_list;

/** @brief Which data mover object. Tokens: `upload`, `download`. */
typedef enum velstatus_dm_kind {
    VELSTATUS_DM_KIND_INVALID = -1, /**< Not a kind (a getter given NULL or an index out of range). */
    VELSTATUS_DM_UPLOAD = 0,        /**< A DataUpload (a CSI backup's data movement). */
    VELSTATUS_DM_DOWNLOAD = 1       /**< A DataDownload (a restore's). */
} velstatus_dm_kind;

/**
 * @brief The phase of a DataUpload or DataDownload (`status.phase`). The
 * tokens are Velero's own texts: `New`, `Accepted`, `Prepared`,
 * `InProgress`, `Canceling`, `Canceled`, `Completed`, `Failed`, and
 * `Unknown` for a text that is none of them.
 */
typedef enum velstatus_dm_phase {
    VELSTATUS_DM_PHASE_INVALID = -1,    /**< Not a phase (a getter given NULL or an index out of range). */
    VELSTATUS_DM_PHASE_NEW = 0,         /**< `New`, `""` or no phase: created, not yet taken by a node-agent. */
    VELSTATUS_DM_PHASE_ACCEPTED = 1,    /**< `Accepted`: a node-agent took it and exposes the volume. */
    VELSTATUS_DM_PHASE_PREPARED = 2,    /**< `Prepared`: the volume is exposed. */
    VELSTATUS_DM_PHASE_IN_PROGRESS = 3, /**< `InProgress`: data is moving. */
    VELSTATUS_DM_PHASE_CANCELING = 4,   /**< `Canceling`: spec.cancel was seen, the data path is stopping. */
    VELSTATUS_DM_PHASE_CANCELED = 5,    /**< `Canceled`. */
    VELSTATUS_DM_PHASE_COMPLETED = 6,   /**< `Completed`. */
    VELSTATUS_DM_PHASE_FAILED = 7,      /**< `Failed` (status.message says why). */
    VELSTATUS_DM_PHASE_UNKNOWN = 8      /**< Any other text (kept: ::VELSTATUS_DM_TEXT_PHASE). */
} velstatus_dm_phase;

/**
 * @brief The text fields of a DataUpload or DataDownload, for
 * velstatus_dm_list_text(). A field the object's kind does not have reads as
 * absent.
 */
typedef enum velstatus_dm_text {
    VELSTATUS_DM_TEXT_NAME = 0,              /**< metadata.name. */
    VELSTATUS_DM_TEXT_NAMESPACE = 1,         /**< metadata.namespace. */
    VELSTATUS_DM_TEXT_UID = 2,               /**< metadata.uid. */
    VELSTATUS_DM_TEXT_OPERATION_ID = 3,      /**< The label `velero.io/async-operation-id`. */
    VELSTATUS_DM_TEXT_BACKUP_NAME = 4,       /**< The label `velero.io/backup-name` (a DataUpload's). */
    VELSTATUS_DM_TEXT_BACKUP_UID = 5,        /**< The label `velero.io/backup-uid`. */
    VELSTATUS_DM_TEXT_RESTORE_NAME = 6,      /**< The label `velero.io/restore-name` (a DataDownload's). */
    VELSTATUS_DM_TEXT_RESTORE_UID = 7,       /**< The label `velero.io/restore-uid`. */
    VELSTATUS_DM_TEXT_PVC_UID = 8,           /**< The label `velero.io/pvc-uid`. */
    VELSTATUS_DM_TEXT_ACCEPTED_BY = 9,       /**< The label `velero.io/accepted-by` (1.12 to 1.15). */
    VELSTATUS_DM_TEXT_EXPOSE_ON_GOING = 10,  /**< The label `velero.io/expose-on-going`. */
    VELSTATUS_DM_TEXT_PHASE = 11,            /**< status.phase, verbatim. */
    VELSTATUS_DM_TEXT_MESSAGE = 12,          /**< status.message. */
    VELSTATUS_DM_TEXT_NODE = 13,             /**< status.node. */
    VELSTATUS_DM_TEXT_ACCEPTED_BY_NODE = 14, /**< status.acceptedByNode (1.16+). */
    VELSTATUS_DM_TEXT_NODE_OS = 15,          /**< A DataUpload's status.nodeOS, a DataDownload's spec.nodeOS (1.16+). */
    VELSTATUS_DM_TEXT_SNAPSHOT_ID = 16,      /**< A DataUpload's status.snapshotID, a DataDownload's spec.snapshotID. */
    VELSTATUS_DM_TEXT_PATH = 17,             /**< status.path (DataUpload). */
    VELSTATUS_DM_TEXT_BSL = 18,              /**< spec.backupStorageLocation. */
    VELSTATUS_DM_TEXT_DATA_MOVER = 19,       /**< spec.datamover (empty: Velero's built-in). */
    VELSTATUS_DM_TEXT_SOURCE_NAMESPACE = 20, /**< spec.sourceNamespace. */
    VELSTATUS_DM_TEXT_OPERATION_TIMEOUT =
        21, /**< spec.operationTimeout, verbatim (a Go duration: velstatus_duration_parse()). */
    VELSTATUS_DM_TEXT_SNAPSHOT_TYPE = 22,    /**< spec.snapshotType (DataUpload: `CSI`). */
    VELSTATUS_DM_TEXT_SOURCE_PVC = 23,       /**< spec.sourcePVC (DataUpload). */
    VELSTATUS_DM_TEXT_VOLUME_SNAPSHOT = 24,  /**< spec.csiSnapshot.volumeSnapshot (DataUpload). */
    VELSTATUS_DM_TEXT_STORAGE_CLASS = 25,    /**< spec.csiSnapshot.storageClass (DataUpload). */
    VELSTATUS_DM_TEXT_SNAPSHOT_CLASS = 26,   /**< spec.csiSnapshot.snapshotClass (DataUpload). */
    VELSTATUS_DM_TEXT_CSI_DRIVER = 27,       /**< spec.csiSnapshot.driver (DataUpload, 1.17+). */
    VELSTATUS_DM_TEXT_TARGET_PVC = 28,       /**< spec.targetVolume.pvc (DataDownload). */
    VELSTATUS_DM_TEXT_TARGET_PV = 29,        /**< spec.targetVolume.pv (DataDownload). */
    VELSTATUS_DM_TEXT_TARGET_NAMESPACE = 30, /**< spec.targetVolume.namespace (DataDownload). */
    VELSTATUS_DM_TEXT_ACCEPTED_AT =
        31 /**< The annotation `velero.io/accepted-at` (1.15 only: where its prepare timeout counts from). */
} velstatus_dm_text;

/** @brief The timestamps of a DataUpload or DataDownload, for velstatus_dm_list_time(). */
typedef enum velstatus_dm_time {
    VELSTATUS_DM_TIME_CREATED = 0,   /**< metadata.creationTimestamp. */
    VELSTATUS_DM_TIME_DELETED = 1,   /**< metadata.deletionTimestamp. */
    VELSTATUS_DM_TIME_STARTED = 2,   /**< status.startTimestamp. */
    VELSTATUS_DM_TIME_COMPLETED = 3, /**< status.completionTimestamp. */
    VELSTATUS_DM_TIME_ACCEPTED = 4   /**< status.acceptedTimestamp (1.16+). */
} velstatus_dm_time;

/** @brief The integer fields of a DataUpload or DataDownload, for velstatus_dm_list_int(). */
typedef enum velstatus_dm_int {
    VELSTATUS_DM_INT_BYTES_DONE = 0,        /**< status.progress.bytesDone. */
    VELSTATUS_DM_INT_TOTAL_BYTES = 1,       /**< status.progress.totalBytes. */
    VELSTATUS_DM_INT_INCREMENTAL_BYTES = 2, /**< status.incrementalBytes (DataUpload, 1.18+). */
    VELSTATUS_DM_INT_SNAPSHOT_SIZE = 3,     /**< spec.snapshotSize (DataDownload, 1.18+). */
    VELSTATUS_DM_INT_GENERATION = 4,        /**< metadata.generation. */
    VELSTATUS_DM_INT_CANCEL = 5             /**< spec.cancel: 1 for `true`, 0 for `false` (a JSON boolean). */
} velstatus_dm_int;

/**
 * @brief Decodes DataUploads and DataDownloads: one object, a List (`kind`
 * `List`, `DataUploadList` or `DataDownloadList`, or none, with `items`), a
 * JSON array of objects, or a watch stream.
 *
 * A watch stream is what `kubectl get datauploads -w -o json` writes:
 * values one after another (objects, Lists or arrays), or, with
 * `--output-watch-events`, events `{"type":...,"object":...}` as
 * velstatus_watch_event_from_json() reads them. The list then holds the last
 * state of each object (by kind, namespace and name), in the order each was
 * first seen; a DELETED event removes it, a BOOKMARK changes nothing and an
 * ERROR event (a Status: the watch failed) is counted skipped. A single
 * event is read the same way.
 *
 * An object whose `kind` is neither `DataUpload` nor `DataDownload` (or
 * that has none, or is not an object) is skipped and counted
 * (velstatus_dm_list_skipped()). Read of each object: the fields of
 * ::velstatus_dm_text, ::velstatus_dm_time and ::velstatus_dm_int; other keys
 * are ignored, a null leaves a field absent. Times are RFC 3339 texts
 * between 1677 and 2262 (what int64 nanoseconds hold).
 * @param[out] out Receives the list (NULL on failure).
 * @param[in] ctx The context whose allocator the list uses.
 * @param[in] json The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL: the position of the
 *             offending value and its path in the message
 *             (`items[1].status.progress.bytesDone: expected an integer, got a string`).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, NULL json
 *         with a non-zero length), ::VELSTATUS_E_PARSE (not one JSON value),
 *         ::VELSTATUS_E_RANGE (a number no int64 or double holds),
 *         ::VELSTATUS_E_SCHEMA (a field of the wrong type or form, a List
 *         whose items is not an array) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_dm_list_free().
 */
VELSTATUS_API velstatus_status velstatus_dm_list_from_json(velstatus_dm_list **out, velstatus_ctx *ctx,
                                                           const char *json, size_t len, velstatus_error *err);

/**
 * @brief Releases a list.
 * @param[in] list The list, or NULL.
 */
VELSTATUS_API void velstatus_dm_list_free(velstatus_dm_list *list);

/**
 * @brief The number of DataUploads and DataDownloads decoded, in text order.
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_dm_list_count(const velstatus_dm_list *list);

/**
 * @brief The number of objects skipped because they are neither a DataUpload nor a DataDownload.
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_dm_list_skipped(const velstatus_dm_list *list);

/**
 * @brief The kind of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index, below velstatus_dm_list_count().
 * @return ::VELSTATUS_DM_UPLOAD or ::VELSTATUS_DM_DOWNLOAD;
 *         ::VELSTATUS_DM_KIND_INVALID for NULL or an index out of range.
 */
VELSTATUS_API velstatus_dm_kind velstatus_dm_list_kind(const velstatus_dm_list *list, size_t i);

/**
 * @brief The phase of the i-th object, as Velero's controllers compare it:
 * no phase and `""` are New, a text that is none of Velero's eight is
 * ::VELSTATUS_DM_PHASE_UNKNOWN (its text: ::VELSTATUS_DM_TEXT_PHASE).
 * @param[in] list The list.
 * @param[in] i The index.
 * @return The phase; ::VELSTATUS_DM_PHASE_INVALID for NULL or an index out of range.
 */
VELSTATUS_API velstatus_dm_phase velstatus_dm_list_phase(const velstatus_dm_list *list, size_t i);

/**
 * @brief A text field of the i-th object: the one text getter.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] field Which field.
 * @param[out] len Receives its length (the text may hold a NUL byte; 0 when absent). May be NULL.
 * @return The NUL-terminated text (possibly empty: `""` is a value), or NULL
 *         when absent or null (or NULL list, index out of range, unknown field).
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_dm_list_text(const velstatus_dm_list *list, size_t i, velstatus_dm_text field,
                                                 size_t *len);

/**
 * @brief A timestamp of the i-th object: the one time getter.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] which Which timestamp.
 * @param[out] ns Receives it in ns since the epoch (0 when absent). May be NULL.
 * @return 1 when it is set, 0 when not (or NULL list, index out of range, unknown field).
 */
VELSTATUS_API int velstatus_dm_list_time(const velstatus_dm_list *list, size_t i, velstatus_dm_time which, int64_t *ns);

/**
 * @brief An integer field of the i-th object: the one integer getter.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] which Which field.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when it is present, else 0 (or NULL list, index out of range, unknown field).
 */
VELSTATUS_API int velstatus_dm_list_int(const velstatus_dm_list *list, size_t i, velstatus_dm_int which, int64_t *out);

/**
 * @brief Finds the object the CSI PVC plugin of a release reads for an
 * operation: the one of `kind` whose label `velero.io/async-operation-id`
 * is exactly `operation_id`, looked for in `velero_namespace` or in every
 * namespace, as that release lists them (doc/data-mover.md, "The CSI
 * plugin's answers": a DataUpload in any namespace in 1.13 to 1.17, in
 * Velero's in 1.12 and 1.18; a DataDownload in any namespace in 1.13, in
 * Velero's otherwise).
 * @param[in] list The list.
 * @param[in] kind Which objects.
 * @param[in] operation_id The operation ID: a valid label value (what the
 *            API server's selector parser takes; Velero's IDs are).
 * @param[in] id_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] velero_namespace Velero's namespace (the Backup's or
 *            Restore's); NULL means `velero`.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major The Velero release's major version (1).
 * @param[in] minor Its minor version, 12 to 18 (a patch release decides as
 *            its minor; 1.18 is 1.18.1: doc/data-mover.md).
 * @param[out] index Receives the object's index when exactly one matches,
 *             SIZE_MAX otherwise. May be NULL.
 * @param[out] matches Receives the number of objects that match (0, 1, or
 *             more: the plugin's "not found" and "more than one"). May be NULL.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL list, an unknown kind,
 *         NULL text with a length, an ID that is not a label value, a
 *         release not supported or without the data mover: 1.11).
 */
VELSTATUS_API velstatus_status velstatus_dm_list_find(const velstatus_dm_list *list, velstatus_dm_kind kind,
                                                      const char *operation_id, size_t id_len,
                                                      const char *velero_namespace, size_t ns_len, int major, int minor,
                                                      size_t *index, size_t *matches, velstatus_error *err);

/**
 * @brief What the CSI PVC plugin's Progress answers for an operation, as
 * it reaches Velero's operations controller (`pvcBackupItemAction.Progress`
 * for a DataUpload, `pvcRestoreItemAction.Progress` for a DataDownload;
 * doc/data-mover.md gives every rule with its release).
 *
 * The object is found as velstatus_dm_list_find() finds it. None, or more
 * than one, or an empty ID: a ::VELSTATUS_OP_REPORT_PROGRESS_ERROR whose
 * text is the plugin's error after the gRPC hop,
 * `rpc error: code = Unknown desc = <error>` (`not found DataUpload for
 * operationID <id>`, `more than one DataUpload found operationID <id>`,
 * `didn't find DataDownload`, `find multiple DataDownloads`,
 * `operation ID  is invalid`). Found: a ::VELSTATUS_OP_REPORT_PROGRESS
 * that is empty while the phase is New or `""` (Velero then updates
 * nothing), and otherwise has the phase as description, `Bytes` as units,
 * bytesDone and totalBytes as the counts, startTimestamp and
 * completionTimestamp as started and updated; Completed finishes it,
 * Failed finishes it with status.message as its error (an empty message is
 * no error: Velero then counts the operation Completed), Canceled with
 * `DataUpload is canceled` / `DataDownload is canceled`.
 * @param[in,out] out A report whose struct_size is set
 *                (velstatus_op_progress_init()); it is filled whole.
 * @param[out] text Receives the allocated text out->err points to for a
 *             Progress error, NULL otherwise: release it with
 *             velstatus_free() once out is no longer used. Out's other
 *             texts are static or borrowed from the list.
 * @param[in] ctx The context to allocate from.
 * @param[in] list The list.
 * @param[in] kind ::VELSTATUS_DM_UPLOAD for a backup's operation,
 *            ::VELSTATUS_DM_DOWNLOAD for a restore's.
 * @param[in] operation_id The operation's ID (spec.operationID of its record).
 * @param[in] id_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] velero_namespace Velero's namespace; NULL means `velero`.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major The Velero release's major version (1).
 * @param[in] minor Its minor version, 12 to 18.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (as velstatus_dm_list_find(),
 *         NULL out, text or ctx); ::VELSTATUS_E_ABI (out's struct_size);
 *         ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_dm_progress(velstatus_op_progress *out, char **text, velstatus_ctx *ctx,
                                                     const velstatus_dm_list *list, velstatus_dm_kind kind,
                                                     const char *operation_id, size_t id_len,
                                                     const char *velero_namespace, size_t ns_len, int major, int minor,
                                                     velstatus_error *err);

/**
 * @brief What the CSI PVC plugin's Cancel does for an operation: it finds
 * the object as Progress does and merge-patches its `spec.cancel` to true,
 * or returns the same error as Progress (after the gRPC hop).
 *
 * The patch is the host's to make (`{"spec":{"cancel":true}}` on the
 * object at *index). If it fails, Velero's backup plugin returns
 * `error patch DataUpload: <error>` and its restore plugin the error as it
 * is; the operations controller discards Cancel's error either way.
 * @param[out] index Receives the index of the object to patch, SIZE_MAX when Cancel returns an error.
 * @param[out] text Receives the allocated error text Cancel returns (release
 *             with velstatus_free()), NULL when it patches.
 * @param[out] text_len Receives its length (0 when none). May be NULL.
 * @param[in] ctx The context to allocate from.
 * @param[in] list The list.
 * @param[in] kind As velstatus_dm_progress().
 * @param[in] operation_id The operation's ID.
 * @param[in] id_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] velero_namespace Velero's namespace; NULL means `velero`.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major The Velero release's major version (1).
 * @param[in] minor Its minor version, 12 to 18.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (as velstatus_dm_list_find(),
 *         NULL index, text or ctx); ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_dm_cancel(size_t *index, char **text, size_t *text_len, velstatus_ctx *ctx,
                                                   const velstatus_dm_list *list, velstatus_dm_kind kind,
                                                   const char *operation_id, size_t id_len,
                                                   const char *velero_namespace, size_t ns_len, int major, int minor,
                                                   velstatus_error *err);

/** @brief The state of a data mover plugin client (opaque): see velstatus_dm_client_init(). */
typedef struct velstatus_dm_client velstatus_dm_client;

/**
 * @brief Makes the state of a plugin client that answers the operations of
 * Velero's CSI PVC plugins from a DataUpload/DataDownload list.
 * @param[out] out Receives the state.
 * @param[in] ctx The context it allocates from (also for each answer).
 * @param[in] list The list it reads: not copied, it must outlive the state
 *            and must not change while a pass runs.
 * @param[in] velero_namespace Velero's namespace (copied); NULL means `velero`.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major The Velero release's major version (1).
 * @param[in] minor Its minor version, 12 to 18.
 * @param[in] fallback The client that answers every other operation
 *            (copied; its userdata must outlive the state), or NULL: those
 *            operations are answered as velstatus_oplist_reconcile() answers
 *            a NULL client (a lookup error; Cancel does nothing).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL out, ctx or list, NULL
 *         namespace text with a length, a release not supported or 1.11);
 *         ::VELSTATUS_E_ABI (fallback's struct_size); ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_dm_client_free().
 */
VELSTATUS_API velstatus_status velstatus_dm_client_new(velstatus_dm_client **out, velstatus_ctx *ctx,
                                                       const velstatus_dm_list *list, const char *velero_namespace,
                                                       size_t ns_len, int major, int minor,
                                                       const velstatus_plugin_client *fallback, velstatus_error *err);

/**
 * @brief Releases a client state.
 * @param[in] client The state, or NULL.
 */
VELSTATUS_API void velstatus_dm_client_free(velstatus_dm_client *client);

/**
 * @brief Fills a plugin client (reconcile.h) whose callbacks answer from
 * `dm`: an operation whose item action is the CSI PVC plugin of its list's
 * kind (`velero.io/csi-pvc-backupper` for a backup, `velero.io/csi-pvc-restorer`
 * for a restore, the names of 1.12 to 1.18; a name without `/` is read
 * with `velero.io/` before it, as Velero's plugin manager does) gets
 * velstatus_dm_progress()'s answer, and Cancel's error when
 * velstatus_dm_cancel() returns one; every other operation goes to the
 * fallback. The host patches spec.cancel itself, for each canceled record
 * (velstatus_reconcile_result_canceled_id(), velstatus_dm_cancel()). An
 * operation ID that is not a label value fails the pass
 * (::VELSTATUS_E_HOST, host_code -::VELSTATUS_E_INVALID).
 * @param[out] client The client to fill (zeroed first).
 * @param[in] struct_size sizeof(velstatus_plugin_client) as the caller sees it.
 * @param[in] dm The state (velstatus_dm_client_new()); it must outlive the client's use.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL client or dm) or
 *         ::VELSTATUS_E_ABI (struct_size too small).
 */
VELSTATUS_API velstatus_status velstatus_dm_client_init(velstatus_plugin_client *client, size_t struct_size,
                                                        velstatus_dm_client *dm, velstatus_error *err);

/**
 * @brief The kind's token: `upload` or `download`.
 * @param[in] kind The value.
 * @return A static string, or NULL for a value outside the enum.
 */
VELSTATUS_API const char *velstatus_dm_kind_to_string(velstatus_dm_kind kind);

/**
 * @brief Parses `upload` or `download`.
 * @param[out] out Receives the kind (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_dm_kind_from_string(velstatus_dm_kind *out, const char *s, size_t len,
                                                             velstatus_error *err);

/**
 * @brief The phase's token (Velero's text; `New` for ::VELSTATUS_DM_PHASE_NEW).
 * @param[in] phase The value.
 * @return A static string, or NULL for a value outside the enum.
 */
VELSTATUS_API const char *velstatus_dm_phase_to_string(velstatus_dm_phase phase);

/**
 * @brief Parses a phase token (exact, case-sensitive); `""` is
 * ::VELSTATUS_DM_PHASE_NEW, as Velero's controllers read it.
 * @param[out] out Receives the phase (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_dm_phase_from_string(velstatus_dm_phase *out, const char *s, size_t len,
                                                              velstatus_error *err);

/** @name The node-agent's decisions
 * The data-mover controllers of the node-agent
 * (`pkg/controller/data_upload_controller.go`, `data_download_controller.go`)
 * and the Velero server's start (`pkg/cmd/server/server.go`,
 * `markDataUploadsCancel`) as a pure function of one object, an instant and
 * a release: what happens to the object next, and when. doc/data-mover.md,
 * "The node-agent's decisions", gives every rule with its source.
 * @{ */

/** @brief What happens to a data-mover object next. */
typedef enum velstatus_dm_action {
    VELSTATUS_DM_ACTION_INVALID = -1, /**< Not an action (a getter given NULL). */
    VELSTATUS_DM_ACTION_NONE = 0,     /**< Completed, Failed or Canceled: nothing more happens to it. */
    VELSTATUS_DM_ACTION_WAIT_EXPOSE =
        1, /**< Accepted: waits for the exposer's pod to run on a node (it becomes Prepared then). */
    VELSTATUS_DM_ACTION_WAIT_DATA_PATH =
        2, /**< InProgress or Canceling: waits for the data path to end (Completed, Failed or Canceled). */
    VELSTATUS_DM_ACTION_ACCEPT = 3, /**< New: a node-agent accepts it (Accepted) and exposes the snapshot. */
    VELSTATUS_DM_ACTION_START = 4,  /**< Prepared: the node-agent of status.node starts the data path (InProgress). */
    VELSTATUS_DM_ACTION_FAIL = 5,   /**< It fails (Failed) with velstatus_dm_decision::message. */
    VELSTATUS_DM_ACTION_SET_CANCEL =
        6, /**< spec.cancel is set and status.message written; the phase does not change yet. */
    VELSTATUS_DM_ACTION_CANCELING = 7, /**< InProgress with spec.cancel: Canceling, the data path is told to stop. */
    VELSTATUS_DM_ACTION_CANCELED = 8,  /**< Canceled. */
    VELSTATUS_DM_ACTION_RESUME =
        9 /**< A restarted node-agent resumes watching its InProgress data path; the object is unchanged. */
} velstatus_dm_action;

/** @brief When velstatus_dm_decision::action happens. */
typedef enum velstatus_dm_when {
    VELSTATUS_DM_WHEN_INVALID = -1, /**< Not a value (a getter given NULL). */
    VELSTATUS_DM_WHEN_NEVER =
        0, /**< Nothing the controller times: the action waits on something outside (a pod, the data path) or there is none. */
    VELSTATUS_DM_WHEN_NOW = 1, /**< At the controller's next pass over the object: its condition holds now. */
    VELSTATUS_DM_WHEN_AT = 2   /**< At velstatus_dm_decision::at_ns, later than `now`; nothing changes before. */
} velstatus_dm_when;

/** @brief The longest velstatus_dm_decision::message, NUL included. */
#define VELSTATUS_DM_MESSAGE_MAX 1024

/**
 * @brief The fields of one DataUpload or DataDownload that the node-agent's
 * decisions read (size-tagged: fill with velstatus_dm_object_init()).
 * Texts are `(pointer, length)` pairs (NULL with 0 is absent or empty; a
 * length of #VELSTATUS_NUL_TERMINATED means NUL-terminated).
 */
typedef struct velstatus_dm_object {
    uint32_t struct_size;     /**< sizeof(velstatus_dm_object), set by velstatus_dm_object_init(). */
    velstatus_dm_kind kind;   /**< DataUpload or DataDownload. */
    velstatus_dm_phase phase; /**< status.phase (ignored when phase_text is set). */
    /** status.phase as written: when set, it gives the phase ("" and "New"
     * are NEW, Velero's other phase names their phase, any other text is
     * UNKNOWN) and is quoted as written in messages ("" and "New" differ);
     * NULL: `phase` and its name. */
    const char *phase_text;
    size_t phase_text_len; /**< Its length. */
    int cancel;            /**< spec.cancel. */
    int deleting;          /**< metadata.deletionTimestamp is set. */
    const char *ns;        /**< metadata.namespace. */
    size_t ns_len;         /**< Its length. */
    const char *name;      /**< metadata.name. */
    size_t name_len;       /**< Its length. */
    const char *node;      /**< status.node (set when Prepared): the node whose node-agent runs the data path. */
    size_t node_len;       /**< Its length. */
    const char *accepted_by_label; /**< metadata.labels["velero.io/accepted-by"] (written by 1.12 to 1.14). */
    size_t accepted_by_label_len;  /**< Its length. */
    const char
        *accepted_at_annotation; /**< metadata.annotations["velero.io/accepted-at"] (written by 1.15, RFC 3339). */
    size_t accepted_at_annotation_len; /**< Its length. */
    int has_start;                     /**< status.startTimestamp is set. */
    int64_t start_ns;                  /**< status.startTimestamp (ns since the epoch). */
    int has_accepted;                  /**< status.acceptedTimestamp is set (written by 1.16 and later). */
    int64_t accepted_ns;               /**< status.acceptedTimestamp. */
} velstatus_dm_object;

/**
 * @brief What the caller knows beyond the object (size-tagged: fill with
 * velstatus_dm_config_init()). Every instant is ns since the epoch.
 */
typedef struct velstatus_dm_config {
    uint32_t struct_size; /**< sizeof(velstatus_dm_config), set by velstatus_dm_config_init(). */
    /** The node-agent's `--data-mover-prepare-timeout`; 0 (the default)
     * is the release's default (30 minutes in 1.12 to 1.18); negative is
     * refused. */
    int64_t prepare_timeout_ns;
    int has_node_restart;     /**< A node-agent restarts at node_restart_ns. */
    int64_t node_restart_ns;  /**< That instant; a restart before `now` is already in the object and is ignored. */
    const char *restart_node; /**< The node whose node-agent restarts (required with has_node_restart). */
    size_t restart_node_len;  /**< Its length. */
    /** The Velero server restarts at server_restart_ns while the object's
     * Backup (or Restore) is InProgress (the server cancels its objects
     * then; a backup in a Waiting phase is left alone). */
    int has_server_restart;
    int64_t server_restart_ns; /**< That instant; before `now` it is ignored. */
    /** 1.17 and later: the instant the controller first saw spec.cancel
     * (its own in-memory record, which the object does not hold; the
     * instant the plugin's Cancel set it is a good stand-in). Without it the
     * forced cancel has no instant. */
    int has_cancel_seen;
    int64_t cancel_seen_ns; /**< That instant. */
    /** 1.15 and later: the error resuming an InProgress data path after a
     * node-agent restart gives (NULL with 0: the resume succeeds). */
    const char *resume_error;
    size_t resume_error_len; /**< Its length. */
} velstatus_dm_config;

/** @brief The next decision on a data-mover object (size-tagged). */
typedef struct velstatus_dm_decision {
    uint32_t struct_size; /**< sizeof(velstatus_dm_decision), set by the caller or velstatus_dm_decision_init(). */
    velstatus_dm_action action; /**< What happens. */
    velstatus_dm_when when;     /**< When. */
    int has_at;                 /**< at_ns is set: the action is timed (a timeout, a restart). */
    int64_t at_ns; /**< The earliest instant of the action (with ::VELSTATUS_DM_WHEN_NOW, when it fell due). */
    velstatus_dm_phase phase_after;         /**< status.phase after the action. */
    int cancel_after;                       /**< spec.cancel after the action. */
    int message_set;                        /**< status.message is overwritten with message (else left as it is). */
    size_t message_len;                     /**< The message's length in bytes. */
    char message[VELSTATUS_DM_MESSAGE_MAX]; /**< The message exactly as that release writes it, NUL-terminated. */
} velstatus_dm_decision;

/**
 * @brief The action's token: "none", "wait_expose", "wait_data_path",
 * "accept", "start", "fail", "set_cancel", "canceling", "canceled" or "resume".
 * @param[in] action The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_dm_action_to_string(velstatus_dm_action action);

/**
 * @brief Parses an action token.
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_dm_action_from_string(velstatus_dm_action *out, const char *s, size_t len,
                                                               velstatus_error *err);

/**
 * @brief The token of a `when`: "never", "now" or "at".
 * @param[in] when The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_dm_when_to_string(velstatus_dm_when when);

/**
 * @brief Parses "never", "now" or "at".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_dm_when_from_string(velstatus_dm_when *out, const char *s, size_t len,
                                                             velstatus_error *err);

/**
 * @brief Fills an object with no fields set: a New DataUpload.
 * @param[out] obj The struct.
 * @param[in] struct_size sizeof(*obj).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL obj) or ::VELSTATUS_E_ABI.
 */
VELSTATUS_API velstatus_status velstatus_dm_object_init(velstatus_dm_object *obj, size_t struct_size,
                                                        velstatus_error *err);

/**
 * @brief Fills a config with the defaults: the release's prepare timeout,
 * no restart, no cancel instant, resumes succeed.
 * @param[out] cfg The struct.
 * @param[in] struct_size sizeof(*cfg).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL cfg) or ::VELSTATUS_E_ABI.
 */
VELSTATUS_API velstatus_status velstatus_dm_config_init(velstatus_dm_config *cfg, size_t struct_size,
                                                        velstatus_error *err);

/**
 * @brief Fills a decision with nothing decided (action NONE, when NEVER).
 * @param[out] d The struct.
 * @param[in] struct_size sizeof(*d).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL d) or ::VELSTATUS_E_ABI.
 */
VELSTATUS_API velstatus_status velstatus_dm_decision_init(velstatus_dm_decision *d, size_t struct_size,
                                                          velstatus_error *err);

/**
 * @brief The prepare timeout a release's node-agent uses by default
 * (`--data-mover-prepare-timeout`, pkg/cmd/cli/nodeagent/server.go).
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version (a patch release decides as its minor).
 * @param[out] out_ns Receives the timeout.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out_ns, a release
 *         this library does not model, or 1.11, which has no data mover).
 */
VELSTATUS_API velstatus_status velstatus_dm_prepare_timeout_default(int major, int minor, int64_t *out_ns,
                                                                    velstatus_error *err);

/**
 * @brief What happens next to a DataUpload or DataDownload at `now_ns`,
 * as release major.minor decides it.
 *
 * The decision is stable between the instants it names: for every instant
 * `t` from `now_ns` up to (not including) `at_ns` of a ::VELSTATUS_DM_WHEN_AT
 * decision the same call gives the same decision, and at `at_ns` it gives
 * the same action, phase and message with ::VELSTATUS_DM_WHEN_NOW (the
 * property test in tests/check_dm_node.c). An instant is the earliest at
 * which the rule holds: the node-agent checks timeouts on a pass every
 * minute, so the object changes within a minute after it.
 * @param[in] obj The object's fields.
 * @param[in] now_ns The instant (ns since the epoch).
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version.
 * @param[in] cfg What else is known, or NULL for the defaults.
 * @param[out] out Receives the decision (its struct_size set by the caller
 *             or velstatus_dm_decision_init()); untouched on failure.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL obj or out, a kind or
 *         phase outside its enum, a NULL text with a non-zero length, a
 *         negative prepare timeout, a restart without its node, an
 *         unsupported release, or 1.11); ::VELSTATUS_E_ABI (a struct_size);
 *         ::VELSTATUS_E_RANGE (a message longer than
 *         #VELSTATUS_DM_MESSAGE_MAX - 1 bytes). A rule whose instant
 *         would pass the int64 range never falls due.
 */
VELSTATUS_API velstatus_status velstatus_dm_decide(const velstatus_dm_object *obj, int64_t now_ns, int major, int minor,
                                                   const velstatus_dm_config *cfg, velstatus_dm_decision *out,
                                                   velstatus_error *err);

/**
 * @brief velstatus_dm_decide() of the i-th decoded object: its kind, phase
 * (as written), spec.cancel, deletionTimestamp, namespace, name,
 * status.node, the `velero.io/accepted-by` label, the
 * `velero.io/accepted-at` annotation, status.startTimestamp and
 * status.acceptedTimestamp.
 * @param[in] list The decoded objects.
 * @param[in] i The index, below velstatus_dm_list_count().
 * @param[in] now_ns The instant.
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version.
 * @param[in] cfg What else is known, or NULL for the defaults.
 * @param[out] out Receives the decision (struct_size set).
 * @param[out] err Error details on failure, or NULL.
 * @return As velstatus_dm_decide(); ::VELSTATUS_E_INVALID also for a NULL
 *         list or an index out of range.
 */
VELSTATUS_API velstatus_status velstatus_dm_next(const velstatus_dm_list *list, size_t i, int64_t now_ns, int major,
                                                 int minor, const velstatus_dm_config *cfg, velstatus_dm_decision *out,
                                                 velstatus_error *err);

/**
 * @brief The changes to come, one after another: velstatus_dm_decide() at
 * `now_ns`, the change applied to the object as the controller writes it
 * (its phase, spec.cancel, the accept instant the release reads; a restart
 * happens once; the controller sees a cancel when it is written), then the
 * next decision from the instant of that change, until one waits on
 * something outside (when ::VELSTATUS_DM_WHEN_NEVER) or nothing more
 * happens. These are the instants a forecast places the object's events at.
 *
 * Each event is a decision whose `at_ns` (has_at set) is the instant the
 * change happens: `now_ns` for the changes due now, the rule's instant for
 * the later ones. The chain only has what the controller does on its own
 * and at the config's restarts: a change from outside (the exposer's pod
 * running, the data path ending) ends it.
 * @param[in] obj The object's fields.
 * @param[in] now_ns The instant.
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version.
 * @param[in] cfg What else is known, or NULL for the defaults.
 * @param[out] events Receives the first min(cap, *n) events (each with its
 *             struct_size set, by the caller or velstatus_dm_decision_init());
 *             may be NULL when cap is 0.
 * @param[in] cap The number of elements of events.
 * @param[out] n Receives the number of events (which may be more than cap:
 *             call again with a larger array).
 * @param[out] err Error details on failure, or NULL.
 * @return As velstatus_dm_decide(); ::VELSTATUS_E_INVALID also for a NULL n,
 *         or NULL events with a non-zero cap.
 */
VELSTATUS_API velstatus_status velstatus_dm_timeline(const velstatus_dm_object *obj, int64_t now_ns, int major,
                                                     int minor, const velstatus_dm_config *cfg,
                                                     velstatus_dm_decision *events, size_t cap, size_t *n,
                                                     velstatus_error *err);

/** @} */

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_DATAMOVER_H */
