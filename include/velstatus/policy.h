/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/policy.h
 * @brief Policy knobs and the two presets: Velero-exact and hardened.
 *
 * Velero has quirks (doc/velero-behaviour.md §6). Every decision that differs between
 * "what Velero does" and "what it should do" reads a knob here. Start from a
 * preset and change single knobs if you must:
 *
 * @code
 * velstatus_policy p = velstatus_policy_hardened();
 * p.progress_error_grace_ns = 0;   // but fail at the first Progress() error
 * @endcode
 *
 * Velero's own decisions changed between releases: velstatus_policy_velero()
 * is the current release, velstatus_policy_velero_release() any release
 * from 1.11 (doc/velero-releases.md).
 *
 * The struct is size-tagged (first field) so that knobs can be appended
 * without breaking callers compiled against an older header; functions that
 * take a policy accept a NULL pointer as "the hardened preset".
 *
 * @defgroup policy Policy presets
 * @{
 */
#ifndef VELSTATUS_POLICY_H
#define VELSTATUS_POLICY_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief Which preset a policy was made from. */
typedef enum velstatus_preset {
    VELSTATUS_PRESET_VELERO = 0,  /**< Velero HEAD, quirk for quirk where deterministic. */
    VELSTATUS_PRESET_HARDENED = 1 /**< The recommended default for new hosts. */
} velstatus_preset;

/**
 * @brief The policy knobs. Booleans are `int` (0 or 1).
 *
 * Each knob names the section of doc/velero-behaviour.md that motivates it, and gives the
 * value of each preset as `velero / hardened`.
 */
typedef struct velstatus_policy {
    uint32_t struct_size; /**< sizeof(velstatus_policy) as the caller compiled it; set by velstatus_policy_init(). */
    uint32_t preset;      /**< The ::velstatus_preset this was made from (informational). */

    /** Restart handling also requeues ReadyToStart backups (doc/velero-behaviour.md §6.17). 0 / 1. */
    int requeue_ready_to_start_on_restart;

    /** A timeout <= 0 expires at the first poll (doc/velero-behaviour.md §2.8, §6.3). 1 / 0 (0 means "no timeout"). */
    int zero_timeout_expires;
    /** PartiallyFailed follows `failed > 0` rather than new errors only (doc/velero-behaviour.md §2.5, §6.6). 0 / 1. */
    int level_triggered_partial_failure;
    /** An operation phase outside {New, InProgress, Completed, Failed} counts as
     *  failed rather than being skipped (doc/velero-behaviour.md §2.4 step 0, §6.5). 0 / 1. */
    int unknown_phase_fails;
    /** How long Progress() errors may persist before the operation fails, in
     *  nanoseconds; 0 fails at the first error (doc/velero-behaviour.md §2.4 steps 1-2, §6.4). 0 / 60 s. */
    int64_t progress_error_grace_ns;
    /** Restore operation errors carry `, plugin: <name>` as backup ones do (doc/velero-behaviour.md §2.4, §6.9). 0 / 1. */
    int restore_error_plugin_suffix;
    /** Timestamps are compared as instants and a zero time reported after a
     *  non-zero one is ignored (doc/velero-behaviour.md §2.4 step 4, §6.10). 0 / 1. */
    int compare_times_by_instant;
    /** `time.Unix(0,0)` from a plugin means "unknown", like the zero time (doc/velero-behaviour.md §2.2, §6.11). 0 / 1. */
    int unix_epoch_is_unknown;
    /** Cancel()'s result is reported to the caller rather than discarded (doc/velero-behaviour.md §2.4 step 6, §6.13). 0 / 1. */
    int report_cancel_results;

    /** Retry errors are classified transient / conflict / terminal and only
     *  the first two are retried; otherwise every error is (doc/velero-behaviour.md §4.2, §6.14). 0 / 1. */
    int retry_classify_errors;
    /** The status writes Velero sends once (doc/velero-behaviour.md §4.3, §6.15) are retried too. 0 / 1. */
    int retry_forgotten_patches;

    /* The Velero releases (doc/velero-releases.md): each knob below is one
     * difference between Velero minor releases, with the releases it covers.
     * velstatus_policy_velero() is the current release (1.18);
     * velstatus_policy_velero_release() gives every supported one. The
     * values are given as `1.11 … 1.18 / hardened`. */

    /** A new operation error turns WaitingForPluginOperations into
     *  WaitingForPluginOperationsPartiallyFailed only in the pass where no
     *  operation is still running, so mid-run errors leave the phase as it
     *  is (Velero 1.11; decided before the in-progress test from 1.12, #6491).
     *  1 in 1.11, else 0 / 0. */
    int partial_failure_when_done;
    /** A read-only BSL moves a restore in a Waiting phase to PartiallyFailed
     *  with `BSL is read-only`, as it does a backup (Velero 1.11; removed in
     *  1.12, #6758, commit 93995bfd0). 1 in 1.11, else 0 / 0. */
    int restore_readonly_bsl_fails;
    /** Restores have the Finalizing and FinalizingPartiallyFailed phases
     *  (from Velero 1.14, #7377). Without them a restore's last pass, or its
     *  main run, ends Completed or PartiallyFailed, and a missing backup or
     *  BSL gives PartiallyFailed. 0 before 1.14, else 1 / 1. */
    int restore_finalizing;
    /** Backup operation errors carry `, plugin: <name>` (wrapErrMsg, from
     *  Velero 1.13, #7115). 0 before 1.13, else 1 / 1. */
    int backup_error_plugin_suffix;
    /** The first evaluation of a backup's operations (phase InProgress) logs
     *  each new error as its index, `0`, `1`, …, not its message; the count
     *  is right (Velero 1.11–1.13; fixed in 1.14, #7805). 1 in 1.11–1.13,
     *  else 0 / 0. */
    int first_pass_errors_as_index;
    /** The first evaluation of a restore's operations logs each new error as
     *  its index and does not count it, so such a restore can end Completed
     *  (Velero 1.11; counted, as `error from restore item operation: <msg>`,
     *  from 1.12, #6594). 1 in 1.11, else 0 / 0. */
    int first_pass_restore_errors_uncounted;
    /** The server's default item-operation timeout, given to a Backup or
     *  Restore whose `spec.itemOperationTimeout` is 0
     *  (`--default-item-operation-timeout`): 1 h in Velero 1.11, 4 h from 1.12
     *  (#6423). The library reads it in no decision: it is what a host (and
     *  `velstatus operations reconcile` without `--timeout`) passes as
     *  velstatus_reconcile_options::timeout_ns. 1 h in 1.11, else 4 h / 4 h. */
    int64_t default_item_operation_timeout_ns;
    /** Velero retries the status patches velstatus_retry_transition() lists
     *  (from Velero 1.15, #8068); before, every status patch is sent once.
     *  0 before 1.15, else 1 / 1. */
    int status_patch_retries;
    /** Backups have the Queued and ReadyToStart phases (from Velero 1.18,
     *  #9307). Without them the backup controller takes a New backup to
     *  InProgress or FailedValidation itself. 0 before 1.18, else 1 / 1. */
    int backup_queue;
    /** The backup validation errors about a missing BSL read as Velero
     *  1.11–1.14 wrote them (`wasn't specified`, `doesn't exist`,
     *  `wasn't found`, the name in single quotes); from 1.15 `was not
     *  specified`, `does not exist`, `was not found`, no quotes (#8245).
     *  1 before 1.15, else 0 / 0. */
    int validation_texts_quoted;
    /** Validation fails a backup or restore whose BSL is not Available (from
     *  Velero 1.17, #8976). 0 before 1.17, else 1 / 1. */
    int validation_bsl_available;
    /** Go's `%q` (strconv.Quote, in the texts that name a plugin, a BSL or a
     *  phase) escapes the runes `unicode.IsPrint` rejects, by the tables of
     *  Unicode 13.0.0 (Go 1.20, which built Velero 1.11 and 1.12); else by
     *  those of Unicode 15.0.0 (Go 1.21 to 1.25: Velero 1.13 to 1.18). A rune
     *  assigned in Unicode 14 or 15 is escaped with this knob and written as
     *  it is without. 1 in 1.11–1.12, else 0 / 0. */
    int quote_unicode_13;
    /** The plugin's answer for an operation ID it does not know, as
     *  velstatus_op_reports_client() gives it, is the BIA/RIA v2 helper
     *  `InvalidOperationIDError` of Velero 1.11, `Operation ID <id> is
     *  invalid.`; from 1.12 `operation ID <id> is invalid` (#6177, commit
     *  e106bbf06). 1 in 1.11, else 0 / 0. */
    int invalid_operation_id_text_1_11;
} velstatus_policy;

/**
 * @brief Fills a policy with a preset: the one way to initialise a
 * ::velstatus_policy.
 *
 * Zeroes all `struct_size` bytes, then writes the preset's value of every
 * knob that fits in them and sets `struct_size`. A caller built against an
 * older header (a smaller struct) gets exactly the fields it knows; one built
 * against a newer header (a larger struct) keeps its unknown tail zero, which
 * every function taking the policy accepts (doc/conventions.md §2).
 * @code
 * velstatus_policy pol;
 * velstatus_policy_init(&pol, sizeof(pol), VELSTATUS_PRESET_HARDENED, &err);
 * pol.progress_error_grace_ns = 0;   // then change any knob
 * @endcode
 * @param[out] p The caller's policy.
 * @param[in] struct_size sizeof(*p) as the caller compiled it.
 * @param[in] preset ::VELSTATUS_PRESET_VELERO (Velero-exact, at the current
 *            release) or ::VELSTATUS_PRESET_HARDENED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL p, unknown preset) or
 *         ::VELSTATUS_E_ABI (`struct_size` smaller than the first released
 *         layout). Nothing is written on failure.
 */
VELSTATUS_API velstatus_status velstatus_policy_init(velstatus_policy *p, size_t struct_size, velstatus_preset preset,
                                                     velstatus_error *err);

/**
 * @brief Fills a policy with the Velero-exact preset of one Velero minor
 * release, as velstatus_policy_init() fills a preset.
 *
 * Velero 1.11 to the current release (1.18) are supported; a patch release
 * decides as its minor release does. Each release's policy is the Velero
 * preset with the knobs of the release differences (doc/velero-releases.md)
 * at that release's values.
 * @param[out] p The caller's policy.
 * @param[in] struct_size sizeof(*p) as the caller compiled it.
 * @param[in] major The major version (1).
 * @param[in] minor The minor version.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL p; a release outside
 *         the supported range, the message naming the range) or
 *         ::VELSTATUS_E_ABI (`struct_size` too small). Nothing is written on
 *         failure.
 */
VELSTATUS_API velstatus_status velstatus_policy_init_release(velstatus_policy *p, size_t struct_size, int major,
                                                             int minor, velstatus_error *err);

/**
 * @brief Fills a policy with the Velero-exact preset of a release given as
 * text: `1.14`, `v1.14`, or a patch release `1.14.2` / `v1.14.2`.
 * @param[out] p The caller's policy.
 * @param[in] struct_size sizeof(*p) as the caller compiled it.
 * @param[out] major Receives the major version, or NULL.
 * @param[out] minor Receives the minor version, or NULL.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL p, text that is not a
 *         version, or a release outside the supported range; the message
 *         quotes the text and names the range) or ::VELSTATUS_E_ABI
 *         (`struct_size` too small). Nothing is written on failure.
 */
VELSTATUS_API velstatus_status velstatus_policy_init_version(velstatus_policy *p, size_t struct_size, int *major,
                                                             int *minor, const char *s, size_t len,
                                                             velstatus_error *err);

/**
 * @brief The Velero-exact preset, returned by value.
 * @deprecated Returning a size-tagged struct by value overruns a caller built
 * against an older, smaller header once a knob is appended. Use
 * velstatus_policy_init() with ::VELSTATUS_PRESET_VELERO.
 * @return A policy with every knob at Velero HEAD's behaviour.
 */
VELSTATUS_API velstatus_policy velstatus_policy_velero(void)
    VELSTATUS_DEPRECATED("use velstatus_policy_init(p, sizeof *p, VELSTATUS_PRESET_VELERO, err)");

/**
 * @brief The hardened preset, returned by value.
 * @deprecated As velstatus_policy_velero(); use velstatus_policy_init() with
 * ::VELSTATUS_PRESET_HARDENED.
 * @return A policy with every knob at the fixed behaviour.
 */
VELSTATUS_API velstatus_policy velstatus_policy_hardened(void)
    VELSTATUS_DEPRECATED("use velstatus_policy_init(p, sizeof *p, VELSTATUS_PRESET_HARDENED, err)");

/**
 * @brief The Velero-exact preset of one Velero minor release, written whole
 * through `*out`.
 * @deprecated `*out` is written at this library's size, past the end of an
 * older caller's struct. Use velstatus_policy_init_release().
 * @param[out] out Receives the policy.
 * @param[in] major The major version (1).
 * @param[in] minor The minor version.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, or ::VELSTATUS_E_INVALID (NULL out; a release
 *         outside the supported range).
 */
VELSTATUS_API velstatus_status velstatus_policy_velero_release(velstatus_policy *out, int major, int minor,
                                                               velstatus_error *err)
    VELSTATUS_DEPRECATED("use velstatus_policy_init_release(p, sizeof *p, major, minor, err)");

/**
 * @brief The Velero-exact preset of a release given as text, written whole
 * through `*out`.
 * @deprecated As velstatus_policy_velero_release(); use
 * velstatus_policy_init_version().
 * @param[out] out Receives the policy.
 * @param[out] major Receives the major version, or NULL.
 * @param[out] minor Receives the minor version, or NULL.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_policy_velero_version(velstatus_policy *out, int *major, int *minor,
                                                               const char *s, size_t len, velstatus_error *err)
    VELSTATUS_DEPRECATED("use velstatus_policy_init_version(p, sizeof *p, &major, &minor, s, len, err)");

/**
 * @brief The number of supported Velero minor releases.
 * @return The count (8: 1.11 to 1.18).
 */
VELSTATUS_API size_t velstatus_velero_release_count(void);

/**
 * @brief The supported Velero minor release at `index`, oldest first; the
 * last one is the current release, the one velstatus_policy_velero() is.
 * @param[out] major Receives the major version.
 * @param[out] minor Receives the minor version.
 * @param[in] index 0 to velstatus_velero_release_count() - 1.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, or ::VELSTATUS_E_INVALID (a NULL output, an index
 *         out of range).
 */
VELSTATUS_API velstatus_status velstatus_velero_release_at(int *major, int *minor, size_t index, velstatus_error *err);

/**
 * @brief A preset, written whole through `*out`.
 * @deprecated As velstatus_policy_velero_release(); use velstatus_policy_init().
 * @param[out] out Receives the policy.
 * @param[in] preset ::VELSTATUS_PRESET_VELERO or ::VELSTATUS_PRESET_HARDENED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, unknown preset).
 */
VELSTATUS_API velstatus_status velstatus_policy_preset(velstatus_policy *out, velstatus_preset preset,
                                                       velstatus_error *err)
    VELSTATUS_DEPRECATED("use velstatus_policy_init(p, sizeof *p, preset, err)");

/**
 * @brief The preset name: "velero" or "hardened".
 * @param[in] preset The preset.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_preset_to_string(velstatus_preset preset);

/**
 * @brief Parses "velero" or "hardened" (exact, case-sensitive).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_preset_from_string(velstatus_preset *out, const char *s, size_t len,
                                                            velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_POLICY_H */
