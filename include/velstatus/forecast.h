/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/forecast.h
 * @brief The forecast of an operation list: when the next reconcile pass
 * would decide differently, what it would then do, and the whole timeline to
 * a Finalizing or terminal phase (doc/explain.md).
 *
 * The question users ask about a backup stuck in
 * `WaitingForPluginOperations` (velero #6913, #8576, #8454) is "what will
 * Velero do next, and when?". Every piece of the answer is a decision the
 * reconcile (velstatus_oplist_reconcile()) already makes with `now` as an
 * argument; the forecast runs that same reconcile on a copy of the list,
 * with a plugin client that answers every Progress call with the progress
 * the record holds (its counts, units, description and times; a record in a
 * Progress error's grace period keeps getting that error), at the instants
 * where its outcome changes:
 *
 * - the next pass, at `now` (event 0 when it decides anything: a phase
 *   change, a Cancel, an error, or new completion counts to patch);
 * - each later instant at which a running operation's timeout passes: the
 *   first pass with `created + timeout < now`, strictly, as Velero's
 *   `Created.Add(timeout).Before(now)` (pkg/controller/backup_operations_controller.go,
 *   getBackupItemOperationProgress), that is `created + timeout + 1 ns`;
 * - each instant at which a Progress error's grace period ends
 *   (velstatus_policy::progress_error_grace_ns).
 *
 * Between two events every pass decides nothing new (the property test in
 * tests/check_forecast.c steps the real reconcile to check it). The timeline
 * ends at the first event whose phase is not a Waiting phase, or stalls when
 * operations remain that can never time out.
 *
 * Each event's decision is the ::velstatus_reconcile_result of that pass
 * (velstatus_forecast_event_result()): its phase, canceled operations,
 * errors and what to persist are read with the reconcile's own getters.
 *
 * @defgroup forecast Forecast
 * @{
 */
#ifndef VELSTATUS_FORECAST_H
#define VELSTATUS_FORECAST_H

#include "common.h"
#include "status.h"
#include "host.h"
#include "policy.h"
#include "phase.h"
#include "oplist.h"
#include "reconcile.h"
#include "datamover.h"
#include "snapshot.h"

VELSTATUS_BEGIN_DECLS

/** @brief A forecast (opaque, immutable once built). */
typedef struct velstatus_forecast velstatus_forecast;

/** @brief What the timeline says will become of one operation. */
typedef enum velstatus_forecast_fate {
    VELSTATUS_FORECAST_FATE_INVALID =
        -1, /**< Not a fate: what velstatus_forecast_op_fate() returns for NULL or an index out of range. */
    VELSTATUS_FORECAST_FATE_SETTLED = 0, /**< Completed or Failed already: nothing changes. */
    VELSTATUS_FORECAST_FATE_TIMES_OUT =
        1, /**< Fails with `Asynchronous action timed out` and is canceled, at its event. */
    VELSTATUS_FORECAST_FATE_ERROR_FAILS =
        2, /**< Fails with its Progress error when the grace period ends (at the next pass when there is none). */
    VELSTATUS_FORECAST_FATE_UNKNOWN_FAILS =
        3, /**< An unknown phase that fails at the next pass (velstatus_policy::unknown_phase_fails). */
    VELSTATUS_FORECAST_FATE_UNKNOWN_SKIPPED = 4, /**< An unknown phase Velero skips: counted nowhere, never changes. */
    VELSTATUS_FORECAST_FATE_NO_CREATED =
        5, /**< Running without `created`: the timeout is never evaluated (Velero's controller dereferences the nil time). */
    VELSTATUS_FORECAST_FATE_NO_TIMEOUT =
        6, /**< Running with a timeout <= 0, which the policy reads as "no timeout" (velstatus_policy::zero_timeout_expires = 0). */
    VELSTATUS_FORECAST_FATE_NOT_REACHED =
        7 /**< Still running when the timeline ends (a BSL problem ends it first, or its deadline is beyond the int64 range). */
} velstatus_forecast_fate;

/** @brief How an operation's ETA compares with its timeout. */
typedef enum velstatus_forecast_eta {
    VELSTATUS_FORECAST_ETA_INVALID = -1,   /**< Not a value: NULL forecast or index out of range. */
    VELSTATUS_FORECAST_ETA_UNKNOWN = 0,    /**< No ETA (not running, no total, no rate). */
    VELSTATUS_FORECAST_ETA_BEFORE = 1,     /**< At its current rate it finishes at or before its deadline. */
    VELSTATUS_FORECAST_ETA_AFTER = 2,      /**< At its current rate it finishes after its deadline: it will time out. */
    VELSTATUS_FORECAST_ETA_NO_DEADLINE = 3 /**< It has an ETA but no deadline (no `created`, or no timeout). */
} velstatus_forecast_eta;

/** @brief How the timeline ends. */
typedef enum velstatus_forecast_end {
    VELSTATUS_FORECAST_END_INVALID = -1, /**< Not a value: what velstatus_forecast_end_kind() returns for NULL. */
    VELSTATUS_FORECAST_END_FINAL =
        0, /**< The last event leaves the Waiting phases (Finalizing*, or PartiallyFailed on a BSL problem). */
    VELSTATUS_FORECAST_END_STALLED =
        1 /**< Operations keep running with no future event: only the plugin can end them. */
} velstatus_forecast_end;

/**
 * @brief The fate's token: "settled", "times_out", "error_fails",
 * "unknown_fails", "unknown_skipped", "no_created", "no_timeout" or "not_reached".
 * @param[in] fate The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_forecast_fate_to_string(velstatus_forecast_fate fate);

/**
 * @brief Parses a fate token.
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_forecast_fate_from_string(velstatus_forecast_fate *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief The ETA comparison's token: "unknown", "before", "after" or "no_deadline".
 * @param[in] eta The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_forecast_eta_to_string(velstatus_forecast_eta eta);

/**
 * @brief Parses an ETA comparison token.
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_forecast_eta_from_string(velstatus_forecast_eta *out, const char *s,
                                                                  size_t len, velstatus_error *err);

/**
 * @brief The end's token: "final" or "stalled".
 * @param[in] end The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_forecast_end_to_string(velstatus_forecast_end end);

/**
 * @brief Parses "final" or "stalled".
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_forecast_end_from_string(velstatus_forecast_end *out, const char *s,
                                                                  size_t len, velstatus_error *err);

/**
 * @brief Forecasts the timeline of a list in a Waiting phase.
 *
 * `opts` are the inputs of the next pass, as for velstatus_oplist_reconcile():
 * the current phase (WaitingForPluginOperations or
 * WaitingForPluginOperationsPartiallyFailed), the BSL state, `now_ns`, the
 * item-operation timeout, the pending errors and the completion counts of
 * the CR's status. Later passes carry the phase and the counts of the one
 * before, with no pending errors (each pass that records errors uploads and
 * patches). The list is not modified.
 * @param[out] out Receives the forecast.
 * @param[in] list The list (its context allocates the forecast).
 * @param[in] opts The inputs of the next pass (copied); required.
 * @param[in] policy The policy, or NULL for the hardened preset (copied).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (NULL out, list or opts, and
 *         every option velstatus_oplist_reconcile() refuses);
 *         ::VELSTATUS_E_STATE (a phase other than the two Waiting phases:
 *         InProgress ends when the main run does, which no input tells);
 *         ::VELSTATUS_E_ABI (a struct_size); ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_forecast_free().
 */
VELSTATUS_API velstatus_status velstatus_forecast_new(velstatus_forecast **out, const velstatus_oplist *list,
                                                      const velstatus_reconcile_options *opts,
                                                      const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief Releases a forecast.
 * @param[in] forecast The forecast, or NULL.
 */
VELSTATUS_API void velstatus_forecast_free(velstatus_forecast *forecast);

/**
 * @brief The number of events (instants at which a pass decides something).
 * @param[in] forecast The forecast, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_forecast_event_count(const velstatus_forecast *forecast);

/**
 * @brief The instant of event `i`: the earliest instant at which a pass
 * makes that decision (`now` for the next pass).
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The event, 0-based, in time order.
 * @param[out] ns Receives the instant (nanoseconds since the epoch), 0 when
 *             there is none; may be NULL.
 * @return 1 when the event exists, else 0.
 */
VELSTATUS_API int velstatus_forecast_event_time(const velstatus_forecast *forecast, size_t i, int64_t *ns);

/**
 * @brief The decision of event `i`: the result of the reconcile pass at
 * that instant, read with the `velstatus_reconcile_result_*` getters (the
 * next phase, the operations canceled, the errors, what to persist).
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The event.
 * @return The result, or NULL when out of range.
 * @borrowed Owned by the forecast.
 */
VELSTATUS_API const velstatus_reconcile_result *velstatus_forecast_event_result(const velstatus_forecast *forecast,
                                                                                size_t i);

/**
 * @brief The phase the forecast starts from (velstatus_reconcile_options::phase).
 * @param[in] forecast The forecast, or NULL.
 * @return The phase; ::VELSTATUS_PHASE_INVALID for NULL.
 */
VELSTATUS_API velstatus_phase velstatus_forecast_phase(const velstatus_forecast *forecast);

/**
 * @brief The phase after the last event (the start phase when there is none).
 * @param[in] forecast The forecast, or NULL.
 * @return The phase; ::VELSTATUS_PHASE_INVALID for NULL.
 */
VELSTATUS_API velstatus_phase velstatus_forecast_final_phase(const velstatus_forecast *forecast);

/**
 * @brief How the timeline ends.
 * @param[in] forecast The forecast, or NULL.
 * @return ::VELSTATUS_FORECAST_END_FINAL or ::VELSTATUS_FORECAST_END_STALLED;
 *         ::VELSTATUS_FORECAST_END_INVALID for NULL.
 */
VELSTATUS_API velstatus_forecast_end velstatus_forecast_end_kind(const velstatus_forecast *forecast);

/**
 * @brief The number of operations (the list's records, in list order).
 * @param[in] forecast The forecast, or NULL (0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_forecast_op_count(const velstatus_forecast *forecast);

/**
 * @brief What becomes of operation `i`.
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The record index.
 * @return The fate; ::VELSTATUS_FORECAST_FATE_INVALID for NULL or out of range.
 */
VELSTATUS_API velstatus_forecast_fate velstatus_forecast_op_fate(const velstatus_forecast *forecast, size_t i);

/**
 * @brief The event at which operation `i` fails.
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The record index.
 * @return The event index, or SIZE_MAX when no event changes it (or out of range).
 */
VELSTATUS_API size_t velstatus_forecast_op_event(const velstatus_forecast *forecast, size_t i);

/**
 * @brief Operation `i`'s deadline, `created + timeout` (clamped to the int64 range): the
 * first pass after it, strictly, fails the operation.
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The record index.
 * @param[out] ns Receives the deadline, 0 when there is none; may be NULL.
 * @return 1 for a running operation with a deadline, else 0.
 */
VELSTATUS_API int velstatus_forecast_op_deadline(const velstatus_forecast *forecast, size_t i, int64_t *ns);

/**
 * @brief Operation `i`'s estimated finish at its current rate: its
 * `updated` time (`now` without one) plus its ETA, computed as the progress
 * report computes a unit group's ETA (progress.h) over this record alone.
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The record index.
 * @param[out] ns Receives the instant (saturated), 0 when unknown; may be NULL.
 * @return 1 when the ETA is known, else 0.
 */
VELSTATUS_API int velstatus_forecast_op_finish(const velstatus_forecast *forecast, size_t i, int64_t *ns);

/**
 * @brief Whether operation `i`'s estimated finish falls before or after its deadline.
 * @param[in] forecast The forecast, or NULL.
 * @param[in] i The record index.
 * @return The comparison; ::VELSTATUS_FORECAST_ETA_INVALID for NULL or out of range.
 */
VELSTATUS_API velstatus_forecast_eta velstatus_forecast_op_eta(const velstatus_forecast *forecast, size_t i);

/**
 * @brief The instants at which the data-mover objects of a list's running
 * operations change on their own: for each InProgress or New operation,
 * the DataUpload (a Backup's list) or DataDownload (a Restore's) the CSI
 * plugin of that release reads for it (velstatus_dm_list_find(); an
 * operation with none, or with more than one, adds nothing), and the
 * instants of its timeline (velstatus_dm_timeline(): the prepare timeout,
 * a cancel completing, a restart in `cfg`), from `now_ns` on.
 *
 * These are the instants a forecast over the operations and their
 * DataUploads has to look at besides its own: at each, the object's change
 * is what the CSI plugin reports at the next pass (velstatus_dm_progress()).
 * velstatus_forecast_new_dm() passes at these instants and the forecast's
 * own (doc/data-mover.md).
 * @param[in] ops The operation list.
 * @param[in] dms The decoded DataUploads and DataDownloads.
 * @param[in] velero_namespace Velero's namespace (NULL: `velero`), as velstatus_dm_list_find() reads it.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] now_ns The instant.
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version (12 to 18).
 * @param[in] cfg What else is known (restarts, the prepare timeout), or NULL.
 * @param[out] instants Receives the instants, ascending, each once.
 * @param[in] cap The number of elements of instants (16 per operation always suffice).
 * @param[out] n Receives the number stored.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK; ::VELSTATUS_E_INVALID (a NULL argument, an
 *         unsupported release or 1.11, a config velstatus_dm_decide()
 *         refuses); ::VELSTATUS_E_RANGE (more instants than cap);
 *         ::VELSTATUS_E_ABI (a struct_size).
 */
VELSTATUS_API velstatus_status velstatus_forecast_dm_instants(const velstatus_oplist *ops, const velstatus_dm_list *dms,
                                                              const char *velero_namespace, size_t ns_len,
                                                              int64_t now_ns, int major, int minor,
                                                              const velstatus_dm_config *cfg, int64_t *instants,
                                                              size_t cap, size_t *n, velstatus_error *err);

/**
 * @brief velstatus_forecast_new() over the operations and the objects
 * Velero's own CSI plugins read: the DataUploads (a Backup's list) or
 * DataDownloads (a Restore's) the CSI PVC plugins answer from
 * (velstatus_dm_client_init()), and the VolumeSnapshots and
 * VolumeSnapshotContents the VolumeSnapshot plugin answers from
 * (velstatus_snapshot_client_init()), each as release major.minor's plugin
 * answers; every other plugin keeps reporting what its record holds. The
 * clients are chained as a host chains them: the data mover's, the
 * snapshot plugin's, the recorded progress.
 *
 * The forecast steps a private copy of the data-mover objects: at each
 * instant, the node-agent's decisions due then (velstatus_dm_next(),
 * applied as its controller writes them: phase, spec.cancel,
 * status.message, the accept instant), the operations controller's pass,
 * then spec.cancel on the objects of the operations that pass canceled (the
 * plugin's Cancel) and the decisions that makes due. The instants are the
 * forecast's own and those of the objects' next decisions (the prepare
 * timeout, a cancel completing, 1.17's forced cancel, the restarts in
 * `cfg`), so an event says, e.g., that the operation fails at the pass when
 * the prepare timeout fails its DataUpload. The controller sees a
 * spec.cancel the forecast writes at that instant (cancel_seen_ns of `cfg`
 * is for the ones already written). Changes from outside (the exposer's
 * pod running, the data path ending) are not forecast: such an object
 * waits.
 *
 * The snapshot objects are read as they are: nothing Velero does changes
 * them (the plugin's Cancel does nothing) and the CSI snapshotter's work
 * is outside, so a snapshot operation's answer is the same at every pass
 * (only Updated, `now`, moves): from 1.12 an operation whose snapshot is
 * done (1.12 and 1.13: the VolumeSnapshot ready to use; 1.14 to 1.18: its
 * bound content ready to use) completes at the next pass, one whose
 * content has an error (1.14 to 1.18) fails at the next pass with that
 * message, and one still being cut keeps running until the operation's
 * timeout; an ID or object the plugin cannot read is a Progress error,
 * failing the operation when the policy's grace period ends. 1.11's plugin
 * is a v1 action, which Velero answers itself with a Progress error
 * (doc/data-mover.md).
 * @param[out] out Receives the forecast (free with velstatus_forecast_free()).
 * @param[in] list As velstatus_forecast_new(); not modified.
 * @param[in] opts As velstatus_forecast_new().
 * @param[in] policy As velstatus_forecast_new().
 * @param[in] dms The decoded DataUploads and DataDownloads, or NULL (the
 *            CSI PVC plugins' operations then keep their records); not modified.
 * @param[in] snapshots The decoded VolumeSnapshots and VolumeSnapshotContents
 *            (velstatus_snapshot_list_from_json()), or NULL (the VolumeSnapshot
 *            plugin's operations then keep their records); not modified. At
 *            least one of dms and snapshots is given.
 * @param[in] velero_namespace Velero's namespace (NULL: `velero`), as velstatus_dm_list_find() reads it.
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] major The Velero release's major version.
 * @param[in] minor Its minor version: 12 to 18 with dms, 11 to 18 with snapshots alone.
 * @param[in] cfg What else is known of the data mover (restarts, the prepare timeout), or NULL.
 * @param[out] err Error details on failure, or NULL.
 * @return As velstatus_forecast_new(); ::VELSTATUS_E_INVALID also for dms
 *         and snapshots both NULL, an unsupported release (1.11 with dms),
 *         or a config velstatus_dm_decide() refuses; ::VELSTATUS_E_ABI (a
 *         struct_size).
 */
VELSTATUS_API velstatus_status velstatus_forecast_new_dm(velstatus_forecast **out, const velstatus_oplist *list,
                                                         const velstatus_reconcile_options *opts,
                                                         const velstatus_policy *policy, const velstatus_dm_list *dms,
                                                         const velstatus_snapshot_list *snapshots,
                                                         const char *velero_namespace, size_t ns_len, int major,
                                                         int minor, const velstatus_dm_config *cfg,
                                                         velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_FORECAST_H */
