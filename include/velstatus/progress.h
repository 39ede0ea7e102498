/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/progress.h
 * @brief Progress aggregation and Velero's describe text (doc/design.md §5, doc/velero-behaviour.md §3).
 *
 * Velero prints each operation's `NCompleted of NTotal (units)` and never
 * aggregates (doc/velero-behaviour.md §3.4, §6.23). A ::velstatus_progress report does:
 * over an operation list and a caller-given `now` it counts operations by
 * phase and, per unit string, sums progress, computes a percentage, a rate
 * and an ETA. It is immutable once built.
 *
 * ## Definitions
 *
 * - **attempted** is the number of records. Each record with one of
 *   Velero's four phases counts in exactly one of new / inProgress /
 *   completed / failed. A record with an empty or unknown phase counts in
 *   attempted (and in ::VELSTATUS_PROGRESS_UNKNOWN_PHASE) only, takes part in
 *   nothing else, and sets ::VELSTATUS_PROGRESS_F_UNKNOWN_PHASE.
 * - A record with `nTotal == 0` is **unquantified**: it is counted in
 *   ::VELSTATUS_PROGRESS_UNQUANTIFIED and in no unit group, and never divided by.
 * - Every other record is in the **unit group** of its `operationUnits`
 *   string (exact byte match: `"Bytes"`, `"bytes"` and `""` are three
 *   groups; different units are never added). Groups are sorted by unit
 *   string, byte-wise (a prefix sorts first, so `""` is first).
 * - Per group: **operations**, **completed** = sum of `nCompleted`,
 *   **total** = sum of `nTotal`. Sums are exact and then clamped to the
 *   int64 range (::VELSTATUS_PROGRESS_F_SATURATED when clamped), so they
 *   never overflow and do not depend on record order.
 * - **percent** = 100 × completed / total, rounded *down* to 0.01 and
 *   clamped to [0, 100]: it reaches 100 only when completed >= total. A
 *   total <= 0 (only possible with negative values) gives 0.
 *   `nCompleted > nTotal` sets ::VELSTATUS_PROGRESS_F_OVER_TOTAL; a negative
 *   `nCompleted` or `nTotal` sets ::VELSTATUS_PROGRESS_F_NEGATIVE.
 * - **rate** (units per second) = the sum, over the group's InProgress
 *   records, of `nCompleted / (end - started)`, where end is `updated` when
 *   present and `now` otherwise (the operations run in parallel, so their
 *   speeds add up). A record without `started`, with `end <= started` or
 *   with a negative `nCompleted` does not contribute and sets
 *   ::VELSTATUS_PROGRESS_F_UNTIMED. The rate is *known* when at least one
 *   record contributed; it is rounded to 0.001.
 * - **remaining** = the sum, over the group's New and InProgress records,
 *   of `max(0, nTotal - max(0, nCompleted))` (Completed and Failed records
 *   have no work left).
 * - **ETA** (seconds) = ceil(remaining / rate), known when the rate is
 *   known and > 0; capped at 9223372036 s (the longest Go duration), with
 *   ::VELSTATUS_PROGRESS_F_SATURATED.
 *
 * The report-level flags are the union of the group flags, plus
 * ::VELSTATUS_PROGRESS_F_UNKNOWN_PHASE, plus the checks on unquantified
 * records: with `nTotal == 0`, a negative `nCompleted` sets
 * ::VELSTATUS_PROGRESS_F_NEGATIVE and a positive one
 * ::VELSTATUS_PROGRESS_F_OVER_TOTAL.
 *
 * doc/progress.md gives the reasons for each choice.
 *
 * @defgroup progress Progress
 * @{
 */
#ifndef VELSTATUS_PROGRESS_H
#define VELSTATUS_PROGRESS_H

#include "common.h"
#include "status.h"
#include "host.h"
#include "oplist.h"

VELSTATUS_BEGIN_DECLS

/** @brief An aggregated progress report (opaque, immutable). */
typedef struct velstatus_progress velstatus_progress;

/** @brief The operation counts of a report, for velstatus_progress_count(). */
typedef enum velstatus_progress_counter {
    VELSTATUS_PROGRESS_ATTEMPTED = 0,     /**< Every record. */
    VELSTATUS_PROGRESS_NEW = 1,           /**< Phase "New". */
    VELSTATUS_PROGRESS_IN_PROGRESS = 2,   /**< Phase "InProgress" (Velero never prints this count). */
    VELSTATUS_PROGRESS_COMPLETED = 3,     /**< Phase "Completed". */
    VELSTATUS_PROGRESS_FAILED = 4,        /**< Phase "Failed". */
    VELSTATUS_PROGRESS_UNKNOWN_PHASE = 5, /**< An empty or unknown phase. */
    VELSTATUS_PROGRESS_UNQUANTIFIED = 6   /**< Known phase and `nTotal == 0`. */
} velstatus_progress_counter;

/**
 * @brief The counter's token, e.g. "attempted" or "unknown_phase".
 * @param[in] counter The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_progress_counter_to_string(velstatus_progress_counter counter);

/**
 * @brief Parses a counter token.
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_progress_counter_from_string(velstatus_progress_counter *out, const char *s,
                                                                      size_t len, velstatus_error *err);

/** @brief Flags of a report or of one unit group (a bit set). */
typedef enum velstatus_progress_flag {
    VELSTATUS_PROGRESS_F_UNKNOWN_PHASE = 1, /**< A record has an empty or unknown phase (report only). */
    VELSTATUS_PROGRESS_F_OVER_TOTAL = 2,    /**< A record, or a group's sums, has completed > total. */
    VELSTATUS_PROGRESS_F_NEGATIVE = 4,      /**< A record has a negative nCompleted or nTotal. */
    VELSTATUS_PROGRESS_F_SATURATED = 8,     /**< A sum was clamped to the int64 range, or the ETA was capped. */
    VELSTATUS_PROGRESS_F_UNTIMED = 16       /**< An InProgress record could not contribute to the rate. */
} velstatus_progress_flag;

/**
 * @brief A flag's token, e.g. "over_total".
 * @param[in] flag The value (a single flag).
 * @return A static string, or NULL for anything but a single known flag.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_progress_flag_to_string(velstatus_progress_flag flag);

/**
 * @brief Parses a progress flag token (one flag).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_progress_flag_from_string(velstatus_progress_flag *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief Aggregates an operation list into a new report.
 *
 * One pass over the list, reading each record in place: the call allocates
 * nothing per record, only the report and a table of the distinct
 * `operationUnits` (with their text).
 * @param[out] out Receives the report.
 * @param[in] ctx The context whose allocator the report uses.
 * @param[in] ops The operations (backup or restore; the kind does not matter).
 * @param[in] now_ns The current instant (nanoseconds since the epoch), the
 *            end of the interval of an InProgress record without `updated`.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, ctx or ops) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_progress_free().
 */
VELSTATUS_API velstatus_status velstatus_progress_new(velstatus_progress **out, velstatus_ctx *ctx,
                                                      const velstatus_oplist *ops, int64_t now_ns,
                                                      velstatus_error *err);

/**
 * @brief Releases a report.
 * @param[in] report The report, or NULL (no-op).
 */
VELSTATUS_API void velstatus_progress_free(velstatus_progress *report);

/**
 * @brief One operation count of a report.
 * @param[in] report The report.
 * @param[in] which The count.
 * @return The count; 0 when report is NULL or which is not a counter.
 */
VELSTATUS_API size_t velstatus_progress_count(const velstatus_progress *report, velstatus_progress_counter which);

/**
 * @brief The report's flags.
 * @param[in] report The report.
 * @return A set of ::velstatus_progress_flag bits; 0 when report is NULL.
 */
VELSTATUS_API uint32_t velstatus_progress_flags(const velstatus_progress *report);

/**
 * @brief The number of unit groups.
 * @param[in] report The report.
 * @return The number of groups; 0 when report is NULL.
 */
VELSTATUS_API size_t velstatus_progress_unit_count(const velstatus_progress *report);

/**
 * @brief A group's unit string (`operationUnits`), e.g. "Bytes".
 * @param[in] report The report.
 * @param[in] index The group, 0 <= index < velstatus_progress_unit_count().
 * @param[out] len Receives its length in bytes; may be NULL.
 * @return The NUL-terminated text (it may contain NUL bytes: prefer len),
 *         or NULL when report is NULL or index is out of range.
 * @borrowed Owned by the report.
 */
VELSTATUS_API const char *velstatus_progress_unit_name(const velstatus_progress *report, size_t index, size_t *len);

/**
 * @brief The number of records in a group.
 * @param[in] report The report.
 * @param[in] index The group.
 * @return The count; 0 when report is NULL or index is out of range.
 */
VELSTATUS_API size_t velstatus_progress_unit_operations(const velstatus_progress *report, size_t index);

/**
 * @brief A group's sum of `nCompleted` (clamped to the int64 range).
 * @param[in] report The report.
 * @param[in] index The group.
 * @return The sum; 0 when report is NULL or index is out of range.
 */
VELSTATUS_API int64_t velstatus_progress_unit_completed(const velstatus_progress *report, size_t index);

/**
 * @brief A group's sum of `nTotal` (clamped to the int64 range).
 * @param[in] report The report.
 * @param[in] index The group.
 * @return The sum; 0 when report is NULL or index is out of range.
 */
VELSTATUS_API int64_t velstatus_progress_unit_total(const velstatus_progress *report, size_t index);

/**
 * @brief A group's percentage, in [0, 100], rounded down to 0.01.
 * @param[in] report The report.
 * @param[in] index The group.
 * @return The percentage; 0 when report is NULL or index is out of range.
 */
VELSTATUS_API double velstatus_progress_unit_percent(const velstatus_progress *report, size_t index);

/**
 * @brief A group's rate in units per second, when known.
 * @param[in] report The report.
 * @param[in] index The group.
 * @param[out] per_second Receives the rate (rounded to 0.001), or 0 when
 *             unknown; may be NULL.
 * @return 1 when the rate is known, 0 otherwise (or report NULL, index out of range).
 */
VELSTATUS_API int velstatus_progress_unit_rate(const velstatus_progress *report, size_t index, double *per_second);

/**
 * @brief A group's estimated time to completion, when known.
 * @param[in] report The report.
 * @param[in] index The group.
 * @param[out] seconds Receives the ETA in whole seconds (rounded up), or 0
 *             when unknown; may be NULL.
 * @return 1 when the ETA is known, 0 otherwise (or report NULL, index out of range).
 */
VELSTATUS_API int velstatus_progress_unit_eta(const velstatus_progress *report, size_t index, int64_t *seconds);

/**
 * @brief A group's flags.
 * @param[in] report The report.
 * @param[in] index The group.
 * @return A set of ::velstatus_progress_flag bits (never
 *         ::VELSTATUS_PROGRESS_F_UNKNOWN_PHASE); 0 when report is NULL or
 *         index is out of range.
 */
VELSTATUS_API uint32_t velstatus_progress_unit_flags(const velstatus_progress *report, size_t index);

/**
 * @brief The report as one line of text (no newline), e.g.
 * `3 of 5 operations done (1 failed, 2 in progress); Bytes: 1.5 GiB of 4.0 GiB (37%), ETA 3m20s`.
 *
 * Grammar: `D of A operation(s) done (F failed[, I in progress][, N new][,
 * U with unknown phase])`, where D = completed + failed, then for each group
 * `; UNITS: C of T (P%)[, ETA DURATION]`, then `; Q without a total` when
 * there are unquantified records. An empty list gives `no operations`.
 * P is the percentage rounded down to a whole number. A group whose unit
 * is `bytes` in any letter case shows sizes in IEC units (`B`, `KiB` ...
 * `EiB`, one decimal, rounded down); other groups show plain integers; the
 * group `""` is labelled `(no unit)`. DURATION is Go's `time.Duration`
 * text (`3m20s`).
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] report The report.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or report) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_free() on the report's ctx.
 */
VELSTATUS_API velstatus_status velstatus_progress_summary(char **out, size_t *out_len, const velstatus_progress *report,
                                                          velstatus_error *err);

/**
 * @brief The operations section of `velero backup describe` /
 * `velero restore describe`, byte-exact (doc/velero-behaviour.md §3.2, §3.3).
 *
 * Without details, one line: `Backup Item Operations:  C of A completed
 * successfully, F failed (specify --details for more information)` (or
 * `Restore ...`), where A is the number of records and C and F the numbers
 * of Completed and Failed records (Velero prints the counters of the
 * Backup/Restore status, which its controllers keep equal to these). With
 * details, the `Backup Item Operations:` header and one block per record
 * (`Operation for <resource[.group]> <namespace>/<name>:`, the plugin,
 * operation ID, items to update (backups), raw phase text, error, progress
 * when `nTotal > 0 || nCompleted > 0`, description, and the times that are
 * present), aligned as Go's text/tabwriter aligns Velero's Describer output
 * (minwidth 0, tabwidth 8, padding 2, padchar ' '). An empty list gives
 * the empty text.
 *
 * Differences from Velero, by necessity: times print in UTC
 * (`2023-06-24 00:00:00 +0000 UTC`), where the velero CLI uses the local
 * zone of the machine it runs on (the library has no local zone); and the
 * section is aligned on its own, where Velero aligns it together with the
 * line that follows it in the full output when that line has cells too.
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length; may be NULL.
 * @param[in] ctx The context whose allocator the text comes from.
 * @param[in] ops The operations; their kind selects "Backup"/"Restore".
 * @param[in] details 0 for the summary line, non-zero for `--details`.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out, ctx or ops),
 *         ::VELSTATUS_E_RANGE (the aligned text would exceed 1 GiB, which
 *         needs hostile input: many lines sharing a very wide column) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release *out with velstatus_free(ctx, *out).
 */
VELSTATUS_API velstatus_status velstatus_describe_operations(char **out, size_t *out_len, velstatus_ctx *ctx,
                                                             const velstatus_oplist *ops, int details,
                                                             velstatus_error *err);

/* ---- JSON ---- */


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
#endif /* VELSTATUS_PROGRESS_H */
