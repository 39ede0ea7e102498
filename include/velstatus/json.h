/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/json.h
 * @brief The JSON codec: Velero's own JSON in and out, as UTF-8 text.
 *
 * No jansson type crosses the API, and the decoders read the text with the
 * library's own scanner (the rules jansson applies; see
 * `doc/json-decoding.md`), so a failed allocation is always
 * ::VELSTATUS_E_NOMEM, never a parse error or a wrong value. The names are
 * `velstatus_<object>_from_json()` and `velstatus_<object>_to_json()`, as the
 * enums' `_from_string()` / `_to_string()`. Input is
 * `(const char *p, size_t len)` (len may be #VELSTATUS_NUL_TERMINATED); output is a NUL-terminated buffer from the
 * context allocator, released with velstatus_free(). Errors name the JSON
 * path (`items[3].status.phase`) and the 1-based line/column/offset.
 *
 * @defgroup json JSON codec
 * @{
 */
#ifndef VELSTATUS_JSON_H
#define VELSTATUS_JSON_H

#include "common.h"
#include "host.h"
#include "operations.h"
#include "progress.h"
#include "server_status.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/* ---- BackupStorageLocations and server-status verdicts (server_status.h) ---- */

/**
 * @brief Reads BSLs from `kubectl get backupstoragelocations -o json` output.
 *
 * Accepts a `List` or `BackupStorageLocationList` object (`items`), a bare
 * array of BSL objects, or one BSL object. Per BSL it reads
 * `metadata.name` (required, non-empty, unique in its namespace),
 * `metadata.namespace` (`kubectl get bsl -A` lists several; absent reads as
 * ""), `metadata.creationTimestamp`, `spec.default`, `spec.accessMode`
 * (`ReadOnly`, `ReadWrite` or empty), `spec.provider`,
 * `spec.objectStorage.bucket` and `.prefix`,
 * `status.phase` (kept verbatim), `status.lastValidationTime` and
 * `status.message` (kept with its length: a `\u0000` in it is kept, as the
 * itemoperations decoder keeps one); every other field is ignored. A field may be absent or
 * `null`; one of the wrong type or value is an error naming its path
 * (`items[3].status.phase`) with its line, column and byte offset. Keys
 * are case-sensitive, as Kubernetes' decoder reads them; of a repeated key
 * the last wins. The text must be JSON by the same rules as
 * velstatus_oplist_from_json() (no raw NUL byte, strict UTF-8, ...).
 *
 * Memory: the set takes about 180 bytes per BSL plus its name, phase and
 * message; no DOM and no copy of the input are made (measured: 10 million
 * BSLs, 648 MiB of text, 2355 MiB with the input). Nesting deeper than 2048
 * levels is ::VELSTATUS_E_PARSE.
 * @param[out] out Receives the set, in input order.
 * @param[in] ctx The context.
 * @param[in] json The text (UTF-8, need not be NUL-terminated).
 * @param[in] len Its length in bytes.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer),
 *         ::VELSTATUS_E_PARSE (not JSON), ::VELSTATUS_E_SCHEMA (a field of the
 *         wrong type or value, a duplicate name) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_bsl_set_free().
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_from_json(velstatus_bsl_set **out, velstatus_ctx *ctx,
                                                           const char *json, size_t len, velstatus_error *err);

/**
 * @brief Writes the BSLs of a set (of one namespace, or all) as a compact
 * JSON array, in set order: per BSL `name`, `namespace`, `provider`,
 * `bucket`, `prefix`, `default` (boolean), `accessMode` (`ReadWrite` for an
 * empty one, as Velero reads it), `creationTimestamp`, `phase` (verbatim),
 * `lastValidationTime` (RFC 3339 in UTC, or null when absent) and `message`
 * (`status.message`: why a location is Unavailable). The columns of
 * `velero backup-location get`, plus the message. Keys may be appended.
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length (may be NULL).
 * @param[in] set The set.
 * @param[in] ns Only the BSLs of this namespace ("" for those without one),
 *            or NULL for every BSL (need not be NUL-terminated).
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_NOMEM.
 * @owned `*out`: release with velstatus_free() on the set's context.
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_locations_to_json(char **out, size_t *out_len,
                                                                   const velstatus_bsl_set *set, const char *ns,
                                                                   size_t ns_len, velstatus_error *err);

/**
 * @brief Writes a verdict as compact JSON, keys in this order:
 * `status`, `reasons` (tokens, sorted), `counts` (`available`,
 * `unavailable`, `pending`, `total`), `default` (name or null), `bsls`
 * (reason token → sorted names, one key per reason set, keys sorted),
 * `message` and, for a verdict of velstatus_server_status_classify_namespace(),
 * `namespace`. Keys may be appended in later versions.
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length (may be NULL).
 * @param[in] verdict The verdict.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_NOMEM.
 * @owned `*out`: release with velstatus_free() on the verdict's context.
 */
VELSTATUS_API velstatus_status velstatus_server_verdict_to_json(char **out, size_t *out_len,
                                                                const velstatus_server_verdict *verdict,
                                                                velstatus_error *err);


/**
 * @brief The reason a Kubernetes condition gives for a set of reason flags:
 * the first of a fixed precedence, most severe first (`NoLocations`,
 * `AllLocationsUnavailable`, `LocationsNeverValidated`, `LocationsPending`,
 * `DefaultLocationUnavailable`, `NoDefaultLocation`,
 * `MultipleDefaultLocations`, `DefaultLocationReadOnly`,
 * `SomeLocationsUnavailable`, `LocationsNotRevalidated` (stale),
 * `SomeLocationsPending`, `UnknownLocationPhase`), or
 * `AllLocationsAvailable` when no flag holds. Each matches the API's
 * pattern `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`.
 * @param[in] flags A bitmask of ::velstatus_server_reason values.
 * @return A static string, never NULL.
 */
VELSTATUS_API const char *velstatus_server_condition_reason(uint32_t flags);

/**
 * @brief Writes a verdict as a Kubernetes `metav1.Condition` object, for a
 * host to patch into a status subresource: keys `type` (`"Ready"`),
 * `status`, `observedGeneration` (only when given), `lastTransitionTime`,
 * `reason`, `message`, in the order Go declares them.
 *
 * `status` is `"True"` for Ready and PartiallyReady (the server works with
 * the locations it has; the reason names what is wrong), `"False"` for
 * NotReady and `"Unknown"` for Waiting (nothing validated yet).
 * `reason` is velstatus_server_condition_reason() of the verdict's flags.
 * `message` is the verdict's message; one longer than the API's 32768 bytes
 * is cut at a UTF-8 character boundary and ends with " ... (truncated)",
 * 32768 bytes in all. The time is written as metav1.Time writes it (RFC 3339,
 * whole seconds, UTC).
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length (may be NULL).
 * @param[in] verdict The verdict.
 * @param[in] last_transition_ns `lastTransitionTime`: when the status last
 *            changed (a tracker's host keeps it), ns since the epoch.
 * @param[in] observed_generation `observedGeneration`, or -1 to leave it out.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, generation
 *         below -1), ::VELSTATUS_E_RANGE (a time RFC 3339 cannot write) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned `*out`: release with velstatus_free() on the verdict's context.
 */
VELSTATUS_API velstatus_status velstatus_server_verdict_to_condition_json(char **out, size_t *out_len,
                                                                          const velstatus_server_verdict *verdict,
                                                                          int64_t last_transition_ns,
                                                                          int64_t observed_generation,
                                                                          velstatus_error *err);

/* ---- Item operations and plugin progress (operations.h) ---- */

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
 * @brief The host's sink for text the library hands over in chunks.
 * @param[in] userdata The pointer the host passed with the callback.
 * @param[in] data The next bytes of the text (not NUL-terminated; valid only
 *            during the call).
 * @param[in] len Their count, at least 1.
 * @return 0 (or any non-negative value) to go on; a negative value stops
 *         the call, which then returns ::VELSTATUS_E_HOST with the value in
 *         velstatus_error::host_code (::VELSTATUS_PASSTHROUGH too: there is no
 *         default sink to fall back to).
 */
typedef int (*velstatus_write_fn)(void *userdata, const char *data, size_t len);

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

/* ---- Progress reports (progress.h) ---- */


/**
 * @brief A progress report as compact JSON, keys in this order:
 * `{"attempted":N,"new":N,"inProgress":N,"completed":N,"failed":N,`
 * `"unquantified":N,"units":[{"units":"Bytes","operations":N,`
 * `"completed":N,"total":N,"percent":37.5,"ratePerSecond":R|null,`
 * `"etaSeconds":N|null},...],"summary":"..."}`.
 *
 * `units` lists the groups in report order (sorted by unit string);
 * `percent` has at most two decimals and `ratePerSecond` at most three
 * (trailing zeros dropped, no exponent: the text Go's `encoding/json`
 * writes for the same float64); `ratePerSecond` and `etaSeconds` are
 * `null` when unknown; `summary` is velstatus_progress_summary(). Strings
 * use Go's HTML-safe escaping. No trailing newline. The flags and the
 * unknown-phase count are not in the JSON (the count is `attempted` minus
 * the four phase counts).
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] report The report.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or report) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_free() on the report's ctx.
 */
VELSTATUS_API velstatus_status velstatus_progress_to_json(char **out, size_t *out_len, const velstatus_progress *report,
                                                          velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_JSON_H */
