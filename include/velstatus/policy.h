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
    VELSTATUS_PRESET_VELERO = 0,   /**< Velero HEAD, quirk for quirk where deterministic. */
    VELSTATUS_PRESET_HARDENED = 1  /**< The recommended default for new hosts. */
} velstatus_preset;

/**
 * @brief The policy knobs. Booleans are `int` (0 or 1).
 *
 * Each knob names the section of doc/velero-behaviour.md that motivates it, and gives the
 * value of each preset as `velero / hardened`.
 */
typedef struct velstatus_policy {
    uint32_t struct_size; /**< sizeof(velstatus_policy); set by the preset functions. */
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
} velstatus_policy;

/**
 * @brief The Velero-exact preset.
 * @return A policy with every knob at Velero HEAD's behaviour.
 */
VELSTATUS_API velstatus_policy velstatus_policy_velero(void);

/**
 * @brief The hardened preset, the recommended default.
 * @return A policy with every knob at the fixed behaviour.
 */
VELSTATUS_API velstatus_policy velstatus_policy_hardened(void);

/**
 * @brief Fills `*out` with a preset, for callers that cannot take structs by value.
 * @param[out] out Receives the policy.
 * @param[in] preset ::VELSTATUS_PRESET_VELERO or ::VELSTATUS_PRESET_HARDENED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, unknown preset).
 */
VELSTATUS_API velstatus_status velstatus_policy_preset(velstatus_policy *out, velstatus_preset preset,
                                                       velstatus_error *err);

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
