/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/experimental.h
 * @brief The experimental tier: declarations outside the 1.x stability promise.
 *
 * What is here is complete, tested and documented, but its shape may still
 * change in a minor release (doc/conventions.md, "The experimental tier").
 * The umbrella header <velstatus.h> does not include this file; a host opts in
 * by including it itself:
 *
 * @code
 * #include <velstatus.h>
 * #include <velstatus/experimental.h>
 * @endcode
 *
 * Today the tier holds one thing, the map of recorded plugin answers by
 * operation ID (::velstatus_op_reports): it replays a reconcile pass without
 * a plugin, which is what the `velstatus` CLI, the tests and the fuzzers
 * need, but a controller, which has a real plugin, does not.
 *
 * @defgroup experimental Experimental tier
 * @{
 */
#ifndef VELSTATUS_EXPERIMENTAL_H
#define VELSTATUS_EXPERIMENTAL_H

#include "common.h"
#include "status.h"
#include "host.h"
#include "reconcile.h"

VELSTATUS_BEGIN_DECLS

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
                                                           const velstatus_op_reports *reports, velstatus_error *err);

/**
 * @brief Makes the map's client answer an unknown operation ID as the
 * plugins of the policy's Velero release do
 * (velstatus_policy::invalid_operation_id_text_1_11: `Operation ID <id> is
 * invalid.` in 1.11, `operation ID <id> is invalid` from 1.12).
 * @param[in,out] reports The map.
 * @param[in] policy The policy; NULL means the hardened preset (the current
 *            release's text).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL reports) or
 *         ::VELSTATUS_E_ABI (the policy's struct_size).
 */
VELSTATUS_API velstatus_status velstatus_op_reports_set_policy(velstatus_op_reports *reports,
                                                               const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief Decodes a map of plugin answers by operation ID (the CLI's
 * `--progress` file).
 *
 * The input is a JSON object whose keys are operation IDs and whose values
 * are one of:
 * - a progress object (Velero's `OperationProgress`, doc/velero-behaviour.md §2.2): `completed` (bool), `err`, `nCompleted`,
 *   `nTotal` (integers), `operationUnits`, `description` (strings),
 *   `started`, `updated` (RFC 3339 strings over Go's whole range, years
 *   0000 to 9999, outside the int64 nanosecond range into
 *   velstatus_op_progress::has_started_sec and its twins; absent, `null` or
 *   `"0001-01-01T00:00:00Z"` is Go's zero time, `"1970-01-01T00:00:00Z"` is
 *   `time.Unix(0, 0)`); all optional;
 * - `{"error": "..."}`: Progress() returned that error (even an empty one);
 * - `{"lookupError": "..."}`: the plugin could not be obtained.
 * Any of them may also carry `"cancelError": "..."`, the error the
 * plugin's Cancel() returns, and all but `lookupError` `"name": "..."`, the
 * plugin's own `Name()` (velstatus_op_progress::plugin_name; without it the
 * messages name the plugin as Velero's plugin manager registered the
 * record's item action). Other keys, or `error`/`lookupError` mixed with
 * progress fields, are ::VELSTATUS_E_SCHEMA (this is libvelstatus's own
 * format, so it is strict).
 * @param[out] out Receives the map.
 * @param[in] ctx The context to allocate from.
 * @param[in] p The JSON text.
 * @param[in] len Its length.
 * @param[out] err Error details on failure, or NULL (the message names the
 *             path, e.g. `["op-1"].nTotal`).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID, ::VELSTATUS_E_PARSE,
 *         ::VELSTATUS_E_SCHEMA, ::VELSTATUS_E_RANGE or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_op_reports_free().
 */
VELSTATUS_API velstatus_status velstatus_op_reports_from_json(velstatus_op_reports **out, velstatus_ctx *ctx,
                                                              const char *p, size_t len, velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_EXPERIMENTAL_H */
