/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/datamover.h
 * @brief Velero's data mover: DataUpload and DataDownload objects
 * (velero.io/v2alpha1), and what the node-agent's controllers do with them
 * next, per Velero release (doc/data-mover.md).
 *
 * Velero 1.11 has no data mover (no DataUpload CRD): every function that
 * takes a release refuses 1.11 with ::VELSTATUS_E_INVALID.
 *
 * @defgroup datamover Data mover
 * @{
 */
#ifndef VELSTATUS_DATAMOVER_H
#define VELSTATUS_DATAMOVER_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief A data-mover object's kind. */
typedef enum velstatus_dm_kind {
    VELSTATUS_DM_KIND_INVALID = -1, /**< Not a kind (a getter given NULL). */
    VELSTATUS_DM_UPLOAD = 0,        /**< A DataUpload (backup). */
    VELSTATUS_DM_DOWNLOAD = 1       /**< A DataDownload (restore). */
} velstatus_dm_kind;

/** @brief A DataUpload or DataDownload's `status.phase`. */
typedef enum velstatus_dm_phase {
    VELSTATUS_DM_PHASE_INVALID = -1, /**< Not a phase (a getter given NULL). */
    VELSTATUS_DM_PHASE_NEW = 0,      /**< "" or "New": no node-agent has taken it. */
    VELSTATUS_DM_PHASE_ACCEPTED = 1,
    VELSTATUS_DM_PHASE_PREPARED = 2,
    VELSTATUS_DM_PHASE_IN_PROGRESS = 3,
    VELSTATUS_DM_PHASE_CANCELING = 4,
    VELSTATUS_DM_PHASE_CANCELED = 5,
    VELSTATUS_DM_PHASE_COMPLETED = 6,
    VELSTATUS_DM_PHASE_FAILED = 7,
    VELSTATUS_DM_PHASE_UNKNOWN = 8 /**< Any other text. */
} velstatus_dm_phase;

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

/** @} */

VELSTATUS_END_DECLS

/** @} */

#endif /* VELSTATUS_DATAMOVER_H */
