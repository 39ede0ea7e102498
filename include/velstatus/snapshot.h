/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/snapshot.h
 * @brief CSI snapshots without the data mover: the decoder of VolumeSnapshot
 * and VolumeSnapshotContent objects, what Velero's VolumeSnapshot plugin
 * answers for its asynchronous operation in each release (1.11 to 1.18), and
 * a ready-made host plugin client that answers for it.
 *
 * doc/data-mover.md ("CSI snapshots without the data mover") gives the rules
 * per release with Velero's files and functions.
 *
 * @defgroup snapshot CSI snapshots
 * @{
 */
#ifndef VELSTATUS_SNAPSHOT_H
#define VELSTATUS_SNAPSHOT_H

#include "common.h"
#include "host.h"
#include "op_step.h"
#include "phase.h"
#include "reconcile.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief The kind of a decoded object. Tokens: `volume_snapshot`, `volume_snapshot_content`. */
typedef enum velstatus_snapshot_kind {
    VELSTATUS_SNAPSHOT_KIND_INVALID = -1,        /**< Not a kind (NULL list, index out of range). */
    VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT = 0, /**< A `VolumeSnapshot` (namespaced). */
    VELSTATUS_SNAPSHOT_KIND_CONTENT = 1          /**< A `VolumeSnapshotContent` (cluster-scoped). */
} velstatus_snapshot_kind;

/**
 * @brief The token of a kind.
 * @param[in] kind The kind.
 * @return `volume_snapshot` or `volume_snapshot_content`, or NULL outside the enum.
 */
VELSTATUS_API const char *velstatus_snapshot_kind_to_string(velstatus_snapshot_kind kind);

/**
 * @brief Parses a kind token (exact, case-sensitive).
 * @param[out] out Receives the kind (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_snapshot_kind_from_string(velstatus_snapshot_kind *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief The fields of a decoded object, for velstatus_snapshot_list_text(),
 * _time(), _int() and _bool(). Each getter answers the fields of its type
 * and reports any other as absent. "VS" is a VolumeSnapshot, "VSC" a
 * VolumeSnapshotContent; a field of the other kind is absent. Tokens: the
 * value names in lower case (`bound_content_name`).
 */
typedef enum velstatus_snapshot_field {
    VELSTATUS_SNAPSHOT_FIELD_API_VERSION = 0, /**< Text: `apiVersion` (`snapshot.storage.k8s.io/v1`, `.../v1beta1`). */
    VELSTATUS_SNAPSHOT_FIELD_NAME = 1,        /**< Text: `metadata.name`. */
    VELSTATUS_SNAPSHOT_FIELD_NAMESPACE = 2,   /**< Text: `metadata.namespace` (VS). */
    /** Text: `metadata.labels["velero.io/backup-name"]`: the Backup that made it. */
    VELSTATUS_SNAPSHOT_FIELD_BACKUP_NAME_LABEL = 3,
    VELSTATUS_SNAPSHOT_FIELD_SOURCE_PVC = 4,    /**< Text: VS `spec.source.persistentVolumeClaimName`. */
    VELSTATUS_SNAPSHOT_FIELD_CLASS_NAME = 5,    /**< Text: `spec.volumeSnapshotClassName`. */
    VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT = 6, /**< Text: VS `status.boundVolumeSnapshotContentName`. */
    VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE =
        7, /**< Text: VS `status.restoreSize` (a quantity, `10Gi`); Int: VSC `status.restoreSize` (bytes). */
    VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE = 8,       /**< Text: `status.error.message`. */
    VELSTATUS_SNAPSHOT_FIELD_DRIVER = 9,              /**< Text: VSC `spec.driver`. */
    VELSTATUS_SNAPSHOT_FIELD_DELETION_POLICY = 10,    /**< Text: VSC `spec.deletionPolicy`. */
    VELSTATUS_SNAPSHOT_FIELD_SNAPSHOT_HANDLE = 11,    /**< Text: VSC `status.snapshotHandle`. */
    VELSTATUS_SNAPSHOT_FIELD_REF_NAME = 12,           /**< Text: VSC `spec.volumeSnapshotRef.name`. */
    VELSTATUS_SNAPSHOT_FIELD_REF_NAMESPACE = 13,      /**< Text: VSC `spec.volumeSnapshotRef.namespace`. */
    VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP = 14, /**< Time: `metadata.creationTimestamp`. */
    VELSTATUS_SNAPSHOT_FIELD_DELETION_TIMESTAMP = 15, /**< Time: `metadata.deletionTimestamp`. */
    /** Time: `status.creationTime`: an RFC 3339 text in a VS, an integer of
     *  nanoseconds since the epoch in a VSC (also given by _int()). */
    VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME = 16,
    VELSTATUS_SNAPSHOT_FIELD_ERROR_TIME = 17,  /**< Time: `status.error.time`. */
    VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE = 18 /**< Bool: `status.readyToUse`. */
} velstatus_snapshot_field;

/**
 * @brief The token of a field.
 * @param[in] field The field.
 * @return Its token, or NULL outside the enum.
 */
VELSTATUS_API const char *velstatus_snapshot_field_to_string(velstatus_snapshot_field field);

/**
 * @brief Parses a field token (exact, case-sensitive).
 * @param[out] out Receives the field (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_snapshot_field_from_string(velstatus_snapshot_field *out, const char *s,
                                                                    size_t len, velstatus_error *err);

/** @brief The decoded VolumeSnapshots and VolumeSnapshotContents of one text (opaque). */
typedef struct velstatus_snapshot_list velstatus_snapshot_list;

/**
 * @brief Decodes VolumeSnapshot and VolumeSnapshotContent objects
 * (`snapshot.storage.k8s.io` v1 or v1beta1, as kubectl writes them): one
 * object, a List (`kind` `List`, `VolumeSnapshotList` or
 * `VolumeSnapshotContentList`, or none, with `items`), a JSON array, or a
 * watch stream (`kubectl get -w -o json`: values one after the other,
 * objects, Lists or arrays, or with `--output-watch-events`
 * `{"type":…,"object":…}` events), in which the last state of each
 * kind/namespace/name wins at the place it first appeared, a DELETED event
 * removes it and a BOOKMARK changes nothing: the same reading as
 * velstatus_dm_list_from_json().
 *
 * Objects of another kind and ERROR events are skipped and counted. Keys are read as Kubernetes' decoder reads them (backup_object.h):
 * unescaped, case-sensitive, the last repeated value wins; the pointer
 * fields of the snapshot API (`status`, `status.error`,
 * `status.error.message`, `status.readyToUse`,
 * `status.boundVolumeSnapshotContentName`, …) are reset by a later `null`,
 * as Go resets a pointer, and a repeated `status` merges into the earlier one.
 * @param[out] out Receives the list (NULL on failure).
 * @param[in] ctx The context whose allocator the list uses.
 * @param[in] json The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL: the position of the
 *             offending value and its path in the message
 *             (`items[1].status.readyToUse: expected a boolean, got a string`).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, NULL json
 *         with a non-zero length), ::VELSTATUS_E_PARSE (not JSON, or a
 *         stream value that does not end), ::VELSTATUS_E_RANGE,
 *         ::VELSTATUS_E_SCHEMA (a field of the wrong type or form) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_snapshot_list_free().
 */
VELSTATUS_API velstatus_status velstatus_snapshot_list_from_json(velstatus_snapshot_list **out, velstatus_ctx *ctx,
                                                                 const char *json, size_t len, velstatus_error *err);

/**
 * @brief Releases a list.
 * @param[in] list The list, or NULL.
 */
VELSTATUS_API void velstatus_snapshot_list_free(velstatus_snapshot_list *list);

/**
 * @brief The number of objects decoded.
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_snapshot_list_count(const velstatus_snapshot_list *list);

/**
 * @brief The number of objects and events skipped (another kind, ERROR).
 * @param[in] list The list (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_snapshot_list_skipped(const velstatus_snapshot_list *list);

/**
 * @brief The kind of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index, below velstatus_snapshot_list_count().
 * @return The kind; ::VELSTATUS_SNAPSHOT_KIND_INVALID for NULL or out of range.
 */
VELSTATUS_API velstatus_snapshot_kind velstatus_snapshot_list_kind(const velstatus_snapshot_list *list, size_t i);

/**
 * @brief Whether the i-th object has a `status` (Go: a non-nil `Status` pointer; `{}` is one).
 * @param[in] list The list.
 * @param[in] i The index.
 * @return 1 or 0 (0 out of range).
 */
VELSTATUS_API int velstatus_snapshot_list_has_status(const velstatus_snapshot_list *list, size_t i);

/**
 * @brief Whether the i-th object has a `status.error` (a non-nil pointer, even without a message).
 * @param[in] list The list.
 * @param[in] i The index.
 * @return 1 or 0 (0 out of range).
 */
VELSTATUS_API int velstatus_snapshot_list_has_error(const velstatus_snapshot_list *list, size_t i);

/**
 * @brief A text field of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] field A text field (::velstatus_snapshot_field says which are).
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text (`""` is a value), or NULL when absent,
 *         null, not a text field of this kind, or out of range.
 * @borrowed Valid until the list is freed.
 */
VELSTATUS_API const char *velstatus_snapshot_list_text(const velstatus_snapshot_list *list, size_t i,
                                                       velstatus_snapshot_field field, size_t *len);

/**
 * @brief A time field of the i-th object.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] field A time field.
 * @param[out] ns Receives it in ns since the epoch (0 when absent). May be NULL.
 * @return 1 when present, else 0.
 */
VELSTATUS_API int velstatus_snapshot_list_time(const velstatus_snapshot_list *list, size_t i,
                                               velstatus_snapshot_field field, int64_t *ns);

/**
 * @brief An integer field of the i-th object: a VSC's `status.restoreSize` or `status.creationTime`.
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] field The field.
 * @param[out] out Receives it (0 when absent). May be NULL.
 * @return 1 when present, else 0.
 */
VELSTATUS_API int velstatus_snapshot_list_int(const velstatus_snapshot_list *list, size_t i,
                                              velstatus_snapshot_field field, int64_t *out);

/**
 * @brief A boolean field of the i-th object (`status.readyToUse`).
 * @param[in] list The list.
 * @param[in] i The index.
 * @param[in] field The field.
 * @param[out] out Receives 1 (true) or 0 (false or absent). May be NULL.
 * @return 1 when present (true or false), 0 when absent or null.
 */
VELSTATUS_API int velstatus_snapshot_list_bool(const velstatus_snapshot_list *list, size_t i,
                                               velstatus_snapshot_field field, int *out);

/**
 * @brief Finds an object by kind, namespace and name (the last one when a
 * text holds it twice).
 * @param[in] list The list.
 * @param[in] kind The kind.
 * @param[in] ns The namespace (ignored for a VolumeSnapshotContent; NULL is "").
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] name The name (NULL is "").
 * @param[in] name_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] index Receives its index when found. May be NULL.
 * @return 1 when found, 0 when not (or NULL list).
 */
VELSTATUS_API int velstatus_snapshot_list_find(const velstatus_snapshot_list *list, velstatus_snapshot_kind kind,
                                               const char *ns, size_t ns_len, const char *name, size_t name_len,
                                               size_t *index);

/**
 * @brief What Velero's VolumeSnapshot plugin answers for one of its
 * operations in release major.minor, with `list` as the cluster's
 * VolumeSnapshots and VolumeSnapshotContents (an object not in it is not
 * found).
 *
 * Backups (`velero.io/csi-volumesnapshot-backupper`): 1.11's plugin is a
 * v1 action, whose Progress Velero answers itself with `Plugin does not
 * support asynchronous operations`. From 1.12 the operation ID is
 * `<namespace>/<name>/<started, RFC 3339>`: an empty ID, or one that is not
 * three parts, is `operation ID <id> is invalid`; a started part Go's
 * `time.Parse(time.RFC3339, …)` refuses is Go's parse error text; a
 * VolumeSnapshot not found is the API server's NotFound text. 1.12 and
 * 1.13 answer Completed when the VolumeSnapshot's `status.readyToUse` is
 * true; 1.14 to 1.18 read its bound VolumeSnapshotContent instead (a VS
 * error returns not completed at once), which must exist, and answer
 * Completed (Updated `now_ns`) when it is ready to use or has an error,
 * whose message becomes Err. Started is the ID's time throughout.
 * Restores (`velero.io/csi-volumesnapshot-restorer`, whose Execute never
 * starts an operation): an empty progress, but an empty ID is invalid in
 * 1.12 and 1.13 and 1.11 answers as for a backup.
 *
 * A plugin error (report ::VELSTATUS_OP_REPORT_PROGRESS_ERROR) is given as
 * the controller receives it after the plugin's gRPC hop:
 * `rpc error: code = Unknown desc = <text>` (1.11's text is Velero's own,
 * with no hop).
 * @param[out] out Receives the answer; a struct filled with
 *             velstatus_op_progress_init(). Its `err` points into *text or
 *             into the list.
 * @param[out] text Receives the error text the answer points to, or NULL
 *             when it needs none.
 * @param[in] list The objects (required; decode `[]` for none). *text is
 *            allocated from its context.
 * @param[in] kind ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[in] operation_id The operation ID (NULL is "").
 * @param[in] id_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] now_ns The current time (Updated, 1.14 and later).
 * @param[in] major Velero's major release (1).
 * @param[in] minor Its minor release, 11 to 18.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, text or list,
 *         another kind, NULL operation_id with a length, an unsupported
 *         release), ::VELSTATUS_E_ABI (out's struct_size) or ::VELSTATUS_E_NOMEM.
 * @owned Release *text with velstatus_free() on the list's context.
 */
VELSTATUS_API velstatus_status velstatus_snapshot_progress(velstatus_op_progress *out, char **text,
                                                           const velstatus_snapshot_list *list, velstatus_kind kind,
                                                           const char *operation_id, size_t id_len, int64_t now_ns,
                                                           int major, int minor, velstatus_error *err);

/**
 * @brief What the VolumeSnapshotContent backup item action of Velero's CSI
 * plugin (`velero.io/csi-volumesnapshotcontent-backupper`) answers for one
 * of its operations in release major.minor, with `list` as the cluster's
 * objects (an object not in it is not found).
 *
 * 1.11's action is a v1 action, whose Progress Velero answers itself with
 * `Plugin does not support asynchronous operations`. In 1.12 and 1.13
 * (velero-plugin-for-csi v0.6 and v0.7) the operation ID is
 * `<VolumeSnapshotContent name>/<started, RFC 3339>`: an empty ID, or one
 * that is not two parts, is `operation ID <id> is invalid`; a started part
 * Go's `time.Parse(time.RFC3339, …)` refuses is `fail to parse
 * StartedTime: ` and Go's parse error text; a VolumeSnapshotContent not
 * found is the API server's NotFound text. With no `status` the answer is
 * not completed; it is Completed when `status.readyToUse` is true or, else,
 * when it has a `status.error`, whose message becomes Err. Started is the
 * ID's time; Updated is never set. From 1.14 the action's Progress answers
 * an empty progress for any ID (not completed, no Started).
 *
 * Errors are given as velstatus_snapshot_progress() gives them (after the
 * plugin's gRPC hop from 1.12).
 * @param[out] out Receives the answer; a struct filled with
 *             velstatus_op_progress_init(). Its `err` points into *text or
 *             into the list.
 * @param[out] text Receives the error text the answer points to, or NULL.
 * @param[in] list The objects (required). *text is allocated from its context.
 * @param[in] operation_id The operation ID (NULL is "").
 * @param[in] id_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major Velero's major release (1).
 * @param[in] minor Its minor release, 11 to 18.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, text or list,
 *         NULL operation_id with a length, an unsupported release),
 *         ::VELSTATUS_E_ABI (out's struct_size) or ::VELSTATUS_E_NOMEM.
 * @owned Release *text with velstatus_free() on the list's context.
 */
VELSTATUS_API velstatus_status velstatus_snapshot_content_progress(velstatus_op_progress *out, char **text,
                                                                   const velstatus_snapshot_list *list,
                                                                   const char *operation_id, size_t id_len, int major,
                                                                   int minor, velstatus_error *err);

/**
 * @brief The configuration of a snapshot plugin client
 * (velstatus_snapshot_client_init()). Size-tagged: fill it with
 * velstatus_snapshot_client_config_init(). The client reads it at every
 * call, so it must outlive the client; change now_ns between passes.
 */
typedef struct velstatus_snapshot_client_config {
    uint32_t struct_size; /**< sizeof(velstatus_snapshot_client_config) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    const velstatus_snapshot_list *snapshots; /**< The cluster's objects (required). */
    int major;                                /**< Velero's release: major (1). */
    int minor;                                /**< Velero's release: minor (11 to 18). */
    int64_t now_ns;                           /**< The current time, for Updated. */
    /** The client every other operation goes to; NULL answers them as
     *  velstatus_oplist_reconcile() answers a NULL client (the plugin cannot
     *  be obtained; Cancel does nothing). */
    const velstatus_plugin_client *fallback;
    /* v1 ends here. Append only. */
} velstatus_snapshot_client_config;

/**
 * @brief Zero-fills a configuration and sets its struct_size.
 * @param[out] config The struct; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_snapshot_client_config) as the caller sees it.
 */
VELSTATUS_API void velstatus_snapshot_client_config_init(velstatus_snapshot_client_config *config, size_t struct_size);

/**
 * @brief Fills a host plugin client (reconcile.h) that answers the
 * operations of Velero's VolumeSnapshot and VolumeSnapshotContent actions
 * and passes every other record to the fallback.
 *
 * A record is the plugin's when its item action, named as Velero's plugin
 * manager names it (`velero.io/` before a name without `/`), is
 * `velero.io/csi-volumesnapshot-backupper` (a backup) or
 * `velero.io/csi-volumesnapshot-restorer` (a restore), answered with
 * velstatus_snapshot_progress(), or
 * `velero.io/csi-volumesnapshotcontent-backupper` (a backup), answered with
 * velstatus_snapshot_content_progress(): the names every release 1.11 to
 * 1.18 registers. Its Cancel of them does nothing and returns nil, in
 * every release (the CSI specification cannot cancel a snapshot).
 * @param[out] client Receives the client (its userdata is config).
 * @param[in] client_size sizeof(velstatus_plugin_client) as the caller sees it.
 * @param[in] config The configuration; borrowed for the client's lifetime.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL client or config, no
 *         snapshots, non-zero flags, an unsupported release) or
 *         ::VELSTATUS_E_ABI (a struct_size).
 */
VELSTATUS_API velstatus_status velstatus_snapshot_client_init(velstatus_plugin_client *client, size_t client_size,
                                                              const velstatus_snapshot_client_config *config,
                                                              velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_SNAPSHOT_H */
