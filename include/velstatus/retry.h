/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/retry.h
 * @brief The status-patch retry policy (doc/design.md §6, doc/velero-behaviour.md §4).
 *
 * Four pieces:
 *
 * 1. ::velstatus_backoff, a value type with the exact `Step()` semantics of
 *    Kubernetes' `wait.Backoff` (k8s.io/apimachinery, identical in v0.33.11,
 *    v0.36.0 and master), and its presets: Velero's `CapBackoff(cap)` and
 *    client-go's `retry.DefaultBackoff` / `retry.DefaultRetry`.
 * 2. Two drivers over a host vtable (::velstatus_retry_host): one with the
 *    exact `retry.OnError` semantics of client-go v0.36.0, which Velero main
 *    pins (velstatus_retry_on_error()), and a hardened one with a real
 *    deadline (velstatus_retry_hardened()); velstatus_retry_run() picks one
 *    from a ::velstatus_policy.
 * 3. A dry run of a backoff (velstatus_backoff_simulate()): the sleeps the
 *    retry loop takes when every attempt fails, as `velstatus backoff` prints.
 * 4. Which phase transitions need a retried status patch
 *    (velstatus_retry_transition(), doc/velero-behaviour.md §4.3, §6.15).
 *
 * The library never sleeps, reads a clock or draws a random number itself:
 * the host does, through the vtable. doc/retry.md explains the decisions
 * (the overflow choice, the hardened defaults) at more length.
 *
 * @defgroup retry retry
 * @{
 */
#ifndef VELSTATUS_RETRY_H
#define VELSTATUS_RETRY_H

#include "common.h"
#include "host.h"
#include "phase.h"
#include "policy.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/**
 * @brief A `wait.Backoff` (doc/velero-behaviour.md §4.4), mutated by velstatus_backoff_step().
 *
 * A size-tagged value type: set `struct_size` (velstatus_backoff_init() or
 * velstatus_backoff_init_preset() does it). All fields take any value Go's would; nothing is rejected
 * except a non-zero `flags`.
 */
typedef struct velstatus_backoff {
    uint32_t struct_size; /**< sizeof(velstatus_backoff) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    int64_t duration_ns;  /**< `Duration`: the next sleep, before jitter (may be 0 or negative). */
    double factor;        /**< `Factor`: the growth multiplier; 0 means no growth. */
    double jitter;        /**< `Jitter`: fraction added to each sleep, times r in [0, 1); <= 0 means none. */
    int64_t steps;        /**< `Steps`: the remaining steps (Go's 64-bit `int`); the retry loop's attempt budget. */
    int64_t cap_ns;       /**< `Cap`: a product strictly above it ends the sequence; <= 0 means no cap. */
} velstatus_backoff;

/** @brief The backoff presets (for velstatus_backoff_preset()). */
typedef enum velstatus_backoff_kind {
    VELSTATUS_BACKOFF_VELERO_CAP =
        0, /**< Velero `CapBackoff(cap)`: 10 ms, x5, jitter 0.1, MaxInt steps, cap (negative -> 0). */
    VELSTATUS_BACKOFF_DEFAULT_BACKOFF =
        1, /**< client-go `retry.DefaultBackoff`: 10 ms, x5, jitter 0.1, 4 steps, no cap. */
    VELSTATUS_BACKOFF_DEFAULT_RETRY = 2 /**< client-go `retry.DefaultRetry`: 10 ms, x1, jitter 0.1, 5 steps, no cap. */
} velstatus_backoff_kind;

/**
 * @brief Fills a backoff with Go's zero value (everything 0) and its struct_size.
 *
 * The twin of a `{ sizeof(velstatus_backoff) }` initialiser, for cffi and cgo.
 * @param[out] b The struct to initialise; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_backoff) as the caller sees it.
 */
VELSTATUS_API void velstatus_backoff_init(velstatus_backoff *b, size_t struct_size);

/**
 * @brief Fills a backoff with a preset: the one way to initialise a
 * ::velstatus_backoff with a preset (velstatus_backoff_init() gives Go's zero
 * value).
 *
 * Zeroes all `struct_size` bytes, writes the preset's fields that fit in
 * them and sets `struct_size` (doc/conventions.md §2). The presets:
 * - ::VELSTATUS_BACKOFF_VELERO_CAP: Velero's `CapBackoff(cap)`
 *   (pkg/client/retry.go; doc/velero-behaviour.md §4.2): Duration 10 ms,
 *   Factor 5, Jitter 0.1, Steps `math.MaxInt` (9223372036854775807), Cap
 *   `cap_ns`, or 0 when `cap_ns` is negative;
 * - ::VELSTATUS_BACKOFF_DEFAULT_BACKOFF: client-go's `retry.DefaultBackoff`,
 *   10 ms, x5, jitter 0.1, 4 steps, no cap;
 * - ::VELSTATUS_BACKOFF_DEFAULT_RETRY: client-go's `retry.DefaultRetry`,
 *   10 ms, x1, jitter 0.1, 5 steps, no cap.
 * @param[out] b The caller's backoff.
 * @param[in] struct_size sizeof(*b) as the caller compiled it.
 * @param[in] preset Which preset.
 * @param[in] cap_ns Velero's `--resource-timeout` in nanoseconds, for
 *            ::VELSTATUS_BACKOFF_VELERO_CAP; ignored otherwise.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL b, unknown preset) or
 *         ::VELSTATUS_E_ABI (`struct_size` smaller than the first released
 *         layout). Nothing is written on failure.
 */
VELSTATUS_API velstatus_status velstatus_backoff_init_preset(velstatus_backoff *b, size_t struct_size,
                                                             velstatus_backoff_kind preset, int64_t cap_ns,
                                                             velstatus_error *err);

/**
 * @brief Velero's `CapBackoff(cap)`, returned by value.
 * @deprecated Returning a size-tagged struct by value overruns a caller built
 * against an older, smaller header once a field is appended. Use
 * velstatus_backoff_init_preset() with ::VELSTATUS_BACKOFF_VELERO_CAP.
 * @param[in] cap_ns Velero's `--resource-timeout` in nanoseconds.
 * @return The backoff, with struct_size set.
 */
VELSTATUS_API velstatus_backoff velstatus_backoff_velero_cap(int64_t cap_ns)
    VELSTATUS_DEPRECATED("use velstatus_backoff_init_preset(b, sizeof *b, VELSTATUS_BACKOFF_VELERO_CAP, cap_ns, err)");

/**
 * @brief client-go's `retry.DefaultBackoff`, returned by value.
 * @deprecated As velstatus_backoff_velero_cap(); use
 * velstatus_backoff_init_preset() with ::VELSTATUS_BACKOFF_DEFAULT_BACKOFF.
 * @return The backoff, with struct_size set.
 */
VELSTATUS_API velstatus_backoff velstatus_backoff_default_backoff(void)
    VELSTATUS_DEPRECATED("use velstatus_backoff_init_preset(b, sizeof *b, VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0, err)");

/**
 * @brief client-go's `retry.DefaultRetry`, returned by value.
 * @deprecated As velstatus_backoff_velero_cap(); use
 * velstatus_backoff_init_preset() with ::VELSTATUS_BACKOFF_DEFAULT_RETRY.
 * @return The backoff, with struct_size set.
 */
VELSTATUS_API velstatus_backoff velstatus_backoff_default_retry(void)
    VELSTATUS_DEPRECATED("use velstatus_backoff_init_preset(b, sizeof *b, VELSTATUS_BACKOFF_DEFAULT_RETRY, 0, err)");

/**
 * @brief A preset, written whole through `*out`.
 * @deprecated `*out` is written at this library's size, past the end of an
 * older caller's struct. Use velstatus_backoff_init_preset().
 * @param[out] out Receives the backoff.
 * @param[in] preset Which preset.
 * @param[in] cap_ns The cap for ::VELSTATUS_BACKOFF_VELERO_CAP; ignored otherwise.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, unknown preset).
 */
VELSTATUS_API velstatus_status velstatus_backoff_preset(velstatus_backoff *out, velstatus_backoff_kind preset,
                                                        int64_t cap_ns, velstatus_error *err)
    VELSTATUS_DEPRECATED("use velstatus_backoff_init_preset(b, sizeof *b, preset, cap_ns, err)");

/**
 * @brief One `Backoff.Step()` call: returns the sleep and advances `*b`.
 *
 * Exactly `wait.Backoff.Step()` (doc/velero-behaviour.md §4.4; the conformance README states it
 * in words): if `steps < 1` the (jittered) duration is returned and `steps`
 * becomes 0; otherwise `steps` is decremented, the next duration is
 * `duration * factor` computed in double and truncated toward zero (unless
 * `factor == 0`), a next duration strictly above a positive cap becomes the
 * cap and sets `steps` to 0, and the **old** duration is returned, plus
 * `trunc((r * jitter) * duration)` when `jitter > 0`.
 *
 * **Overflow.** Go leaves an out-of-range float-to-int64 conversion to the
 * architecture; amd64 (CVTTSD2SI) gives INT64_MIN, and so does a NaN. This
 * function does that explicitly, without undefined behaviour: any product
 * outside [-2^63, 2^63), and NaN, becomes INT64_MIN. The jitter addition
 * wraps modulo 2^64 as Go's does. These are the values the conformance
 * vectors record for amd64 (their arm64 values saturate instead).
 * @param[out] sleep_ns The sleep this step returns. May be 0 or negative.
 * @param[in,out] b The backoff; `duration_ns` and `steps` are updated.
 * @param[in] r The random number for the jitter, in [0, 1) (Go's
 *            `rand.Float64()`); checked even when `jitter <= 0`, pass 0 then.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, flags not 0),
 *         ::VELSTATUS_E_ABI (struct_size) or ::VELSTATUS_E_RANGE (r outside
 *         [0, 1) or NaN). On failure `*b` is unchanged.
 */
VELSTATUS_API velstatus_status velstatus_backoff_step(int64_t *sleep_ns, velstatus_backoff *b, double r,
                                                      velstatus_error *err);

/** @brief How the host classifies a failed attempt's error. */
typedef enum velstatus_retry_class {
    VELSTATUS_RETRY_CLASS_TRANSIENT = 0, /**< Retried (a timeout, a 5xx, a connection reset, a 429). */
    VELSTATUS_RETRY_CLASS_CONFLICT = 1,  /**< Retried; a 409 Conflict: the host re-reads before the next
                                              attempt, and the hardened driver waits the base delay only. */
    VELSTATUS_RETRY_CLASS_TERMINAL = 2   /**< Not retried (404, 403, 422 Invalid...): returned at once. */
} velstatus_retry_class;

/** @brief Why a retry run ended. */
typedef enum velstatus_retry_outcome {
    VELSTATUS_RETRY_OUTCOME_INVALID =
        -1, /**< Not an outcome: what velstatus_retry_result_outcome() returns for NULL. */
    VELSTATUS_RETRY_OUTCOME_SUCCEEDED = 0,     /**< An attempt succeeded. */
    VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED = 1, /**< `Steps <= 0` on entry: OnError calls nothing and returns nil. */
    VELSTATUS_RETRY_OUTCOME_TERMINAL = 2,      /**< An attempt failed with a terminal (non-retriable) error. */
    VELSTATUS_RETRY_OUTCOME_EXHAUSTED = 3,     /**< The steps ran out (the cap included), or max_attempts were made. */
    VELSTATUS_RETRY_OUTCOME_DEADLINE = 4,      /**< Hardened: the next sleep would have crossed the deadline. */
    VELSTATUS_RETRY_OUTCOME_TRUNCATED = 5      /**< velstatus_backoff_simulate() only: stopped at max_sleeps. */
} velstatus_retry_outcome;

/**
 * @brief An opaque out-object through which an `attempt` callback reports a
 * failed attempt (velstatus_retry_reply_set_error()); valid during the
 * callback only.
 */
typedef struct velstatus_retry_reply velstatus_retry_reply;

/**
 * @brief Reports the attempt the callback was given as failed, with its
 * error's text, which the library copies (the callback's buffer need not
 * outlive it). A later call replaces an earlier one. Not calling it means
 * the attempt succeeded.
 * @param[in,out] reply The reply the callback was given.
 * @param[in] text The error's text (may be NULL when len is 0: an empty message).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL reply, NULL text with
 *         a non-zero length) or ::VELSTATUS_E_NOMEM (the run then ends with
 *         ::VELSTATUS_E_NOMEM, whatever the callback returns).
 */
VELSTATUS_API velstatus_status velstatus_retry_reply_set_error(velstatus_retry_reply *reply, const char *text,
                                                               size_t len, velstatus_error *err);

/**
 * @brief The host side of a retry run. Follows the callback contract of
 * host.h (size-tagged, `userdata` first, 0 success, negative failure ->
 * ::VELSTATUS_E_HOST, ::VELSTATUS_PASSTHROUGH = slot is NULL).
 *
 * Only `attempt` is required. A NULL `classify` retries every error as
 * transient (Velero's `RetryOnErrorMaxBackOff`); a NULL `sleep` records the
 * sleeps without waiting (a dry run); a NULL `random` uses r = 0 (no jitter
 * added); a NULL `now` makes the hardened deadline count the sleeps only.
 */
typedef struct velstatus_retry_host {
    uint32_t struct_size; /**< sizeof(velstatus_retry_host) as compiled by the host. */
    uint32_t flags;       /**< Reserved, must be 0. */
    void *userdata;       /**< First argument of every callback. */
    /**
     * Makes attempt number `attempt` (1-based): for a status patch, sends the
     * patch. On success just return 0. On a failed attempt pass the error's
     * text to velstatus_retry_reply_set_error() (which copies it) and return
     * 0. Return negative only if the host itself cannot go on (aborts the run).
     */
    int (*attempt)(void *userdata, uint64_t attempt, velstatus_retry_reply *reply);
    /**
     * Classifies the error of failed attempt `attempt` (the text is the
     * library's copy). Set `*cls` (preset to TRANSIENT); set `*interrupted`
     * to 1 when the error is, or wraps, `wait.ErrWaitTimeout`,
     * `context.Canceled` or `context.DeadlineExceeded` (client-go's
     * `wait.Interrupted`): OnError v0.36.0 treats a terminal error of that
     * kind as the loop's own timeout (see velstatus_retry_on_error()).
     */
    int (*classify)(void *userdata, uint64_t attempt, const char *err_text, size_t err_len, velstatus_retry_class *cls,
                    int *interrupted);
    /** Sleeps `ns` nanoseconds (never negative; a raw negative `Step()` value is passed as 0). */
    int (*sleep)(void *userdata, int64_t ns);
    /** Stores a uniform random number in [0, 1) in `*r` (anything else fails the run with ::VELSTATUS_E_RANGE). */
    int (*random)(void *userdata, double *r);
    /** Stores a monotonic clock reading in nanoseconds in `*ns` (hardened deadline only). */
    int (*now)(void *userdata, int64_t *ns);
} velstatus_retry_host;

/**
 * @brief Fills a host vtable with NULL slots and its struct_size.
 * @param[out] host The struct to initialise; NULL is ignored.
 * @param[in] struct_size sizeof(velstatus_retry_host) as the caller sees it.
 */
VELSTATUS_API void velstatus_retry_host_init(velstatus_retry_host *host, size_t struct_size);

/**
 * @brief The hardened schedule (doc/velero-behaviour.md §6.14): exponential sleeps with a
 * per-sleep ceiling, an attempt limit and a total deadline.
 *
 * After failed attempt k (retriable), the driver stops with
 * ::VELSTATUS_RETRY_OUTCOME_EXHAUSTED if k == max_attempts; otherwise the next
 * sleep is `d = min(trunc(base * factor^(j)), max_sleep)` (j = the number of
 * transient failures before this one; a conflict waits `base`), minus
 * jitter: `d - trunc((r * jitter) * d)`, so max_sleep is a true ceiling. If
 * the time since the first attempt plus that sleep would exceed
 * `deadline_ns`, it stops with ::VELSTATUS_RETRY_OUTCOME_DEADLINE without
 * sleeping. No sleep is ever wasted.
 */
typedef struct velstatus_retry_schedule {
    uint32_t struct_size; /**< sizeof(velstatus_retry_schedule) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    int64_t base_ns;      /**< The first sleep, > 0. Hardened default 100 ms. */
    double factor;        /**< Growth per transient failure, finite and >= 1. Default 2. */
    double jitter;        /**< Fraction taken off each sleep, in [0, 1]. Default 0.1. */
    int64_t max_sleep_ns; /**< Per-sleep ceiling, >= base_ns. Default 30 s. */
    int64_t max_attempts; /**< Attempt limit, >= 1. Default 30. */
    int64_t deadline_ns;  /**< Total time budget from the first attempt, >= 0; 0 means none. Default 10 min. */
} velstatus_retry_schedule;

/**
 * @brief Fills a schedule with the hardened defaults and its struct_size: the
 * one way to initialise a ::velstatus_retry_schedule (a zero schedule would be
 * invalid). The defaults are 100 ms, x2, jitter 0.1, ceiling 30 s, 30
 * attempts, deadline 10 min; doc/retry.md gives the reasons. All
 * `struct_size` bytes are zeroed first, and only the fields that fit in them
 * are written (doc/conventions.md §2).
 * @param[out] s The struct to initialise; NULL is ignored.
 * @param[in] struct_size sizeof(*s) as the caller compiled it.
 */
VELSTATUS_API void velstatus_retry_schedule_init(velstatus_retry_schedule *s, size_t struct_size);

/**
 * @brief The hardened defaults, returned by value.
 * @deprecated Returning a size-tagged struct by value overruns a caller built
 * against an older, smaller header once a field is appended. Use
 * velstatus_retry_schedule_init().
 * @return The schedule, with struct_size set.
 */
VELSTATUS_API velstatus_retry_schedule velstatus_retry_schedule_hardened(void)
    VELSTATUS_DEPRECATED("use velstatus_retry_schedule_init(s, sizeof *s)");

/** @brief The result of a retry run (opaque; read with the getters). */
typedef struct velstatus_retry_result velstatus_retry_result;

/**
 * @brief Runs `fn` with the exact semantics of client-go v0.36.0
 * `retry.OnError(backoff, retriable, fn)` (doc/velero-behaviour.md §4.4).
 *
 * The loop is `wait.ExponentialBackoff`: while `steps > 0`, make one
 * attempt; stop on success or a terminal error; stop without sleeping if
 * `steps == 1`; otherwise sleep one velstatus_backoff_step(). When the cap
 * forces `steps` to 0, the sleep just taken buys no attempt
 * (velstatus_retry_result_trailing_sleep() is 1). `steps <= 0` makes no
 * attempt and succeeds (::VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED).
 *
 * The error returned (velstatus_retry_result_error()) follows v0.36.0: on
 * exhaustion, the last retriable error; on a terminal error, that error,
 * except that a terminal error the host marked `interrupted` is replaced by
 * the last retriable error, or by none if there was none (the v0.36.0 quirk
 * the vectors pin). `classify` is the `retriable` predicate: TRANSIENT and
 * CONFLICT are retriable; a NULL `classify` retries every error, which is
 * Velero's `RetryOnErrorMaxBackOff`.
 * @param[out] out Receives the result (only on ::VELSTATUS_OK).
 * @param[in] ctx The context.
 * @param[in] backoff The backoff (copied; the caller's is not advanced).
 * @param[in] host The host (copied).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK (whatever the outcome), ::VELSTATUS_E_INVALID (NULL
 *         argument, flags, no attempt callback), ::VELSTATUS_E_ABI
 *         (struct_size), ::VELSTATUS_E_HOST (a callback failed; the run
 *         stops), ::VELSTATUS_E_RANGE (random gave a number outside [0, 1))
 *         or ::VELSTATUS_E_NOMEM.
 * @owned Release the result with velstatus_retry_result_free().
 */
VELSTATUS_API velstatus_status velstatus_retry_on_error(velstatus_retry_result **out, velstatus_ctx *ctx,
                                                        const velstatus_backoff *backoff,
                                                        const velstatus_retry_host *host, velstatus_error *err);

/**
 * @brief Runs `fn` under the hardened schedule (see ::velstatus_retry_schedule).
 *
 * TRANSIENT and CONFLICT errors are retried, TERMINAL ones returned at once;
 * the error returned is the one of the last attempt. The deadline is
 * measured with `now` (from just before the first attempt), or, when `now`
 * is NULL, as the sum of the sleeps taken.
 * @param[out] out Receives the result (only on ::VELSTATUS_OK).
 * @param[in] ctx The context.
 * @param[in] schedule The schedule, or NULL for velstatus_retry_schedule_hardened().
 * @param[in] host The host (copied).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL argument, a schedule
 *         field out of range: the message names it), ::VELSTATUS_E_ABI,
 *         ::VELSTATUS_E_HOST (a callback failed, or `now` went backwards),
 *         ::VELSTATUS_E_RANGE (random) or ::VELSTATUS_E_NOMEM.
 * @owned Release the result with velstatus_retry_result_free().
 */
VELSTATUS_API velstatus_status velstatus_retry_hardened(velstatus_retry_result **out, velstatus_ctx *ctx,
                                                        const velstatus_retry_schedule *schedule,
                                                        const velstatus_retry_host *host, velstatus_error *err);

/**
 * @brief Retries a status write as the policy says.
 *
 * With the Velero preset (`policy->preset`): velstatus_retry_on_error() over
 * `CapBackoff(resource_timeout_ns)`, which is `RetryOnErrorMaxBackOff` (every
 * error retried, `classify` not called) unless `retry_classify_errors` is
 * set. With the hardened preset: velstatus_retry_hardened() with the default
 * schedule and `deadline_ns = resource_timeout_ns` (the default 10 min when
 * it is <= 0), so that `--resource-timeout` bounds the total time as the
 * design (doc/velero-behaviour.md §4.1) meant; the 30-attempt limit still applies (with 10 min
 * the two nearly coincide; a longer timeout stops at 30 attempts, about
 * 11 min of sleep, because the retry blocks a controller worker,
 * doc/velero-behaviour.md §4.3). `classify` is called only when `retry_classify_errors` is set,
 * else every error is transient. The driver is chosen by `policy->preset`.
 * @param[out] out Receives the result (only on ::VELSTATUS_OK).
 * @param[in] ctx The context.
 * @param[in] resource_timeout_ns Velero's `--resource-timeout` (default 10 min).
 * @param[in] host The host (copied).
 * @param[in] policy The policy, or NULL for the hardened preset.
 * @param[out] err Error details on failure, or NULL.
 * @return As velstatus_retry_on_error() and velstatus_retry_hardened().
 * @owned Release the result with velstatus_retry_result_free().
 */
VELSTATUS_API velstatus_status velstatus_retry_run(velstatus_retry_result **out, velstatus_ctx *ctx,
                                                   int64_t resource_timeout_ns, const velstatus_retry_host *host,
                                                   const velstatus_policy *policy, velstatus_error *err);

/**
 * @brief A dry run of velstatus_retry_on_error() in which every attempt fails
 * retriably: the sleeps the loop takes, in order, and the attempts it makes.
 *
 * Stops with ::VELSTATUS_RETRY_OUTCOME_TRUNCATED when the loop would take
 * sleep `max_sleeps + 1` (a cap of 0 never stops); the attempts are then
 * those made before the cut, one more than the sleeps. Otherwise the outcome
 * is ::VELSTATUS_RETRY_OUTCOME_EXHAUSTED (or NOT_ATTEMPTED for `steps <= 0`)
 * and the returned error is always nil. Only the host's `random` slot is used (jitter); `host`
 * may be NULL (r = 0). Sleeps are the raw `Step()` values, overflowed
 * (negative) ones included.
 * @param[out] out Receives the result (only on ::VELSTATUS_OK).
 * @param[in] ctx The context.
 * @param[in] backoff The backoff (copied).
 * @param[in] max_sleeps The most sleeps to record (0 is allowed).
 * @param[in] host The host for `random`, or NULL.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID, ::VELSTATUS_E_ABI,
 *         ::VELSTATUS_E_HOST, ::VELSTATUS_E_RANGE or ::VELSTATUS_E_NOMEM.
 * @owned Release the result with velstatus_retry_result_free().
 */
VELSTATUS_API velstatus_status velstatus_backoff_simulate(velstatus_retry_result **out, velstatus_ctx *ctx,
                                                          const velstatus_backoff *backoff, uint64_t max_sleeps,
                                                          const velstatus_retry_host *host, velstatus_error *err);

/**
 * @brief Releases a result.
 * @param[in] result The result, or NULL.
 */
VELSTATUS_API void velstatus_retry_result_free(velstatus_retry_result *result);

/**
 * @brief Why the run ended.
 * @param[in] result The result.
 * @return The outcome (::VELSTATUS_RETRY_OUTCOME_INVALID for NULL).
 */
VELSTATUS_API velstatus_retry_outcome velstatus_retry_result_outcome(const velstatus_retry_result *result);

/**
 * @brief How many attempts were made (how many times the function was called).
 * @param[in] result The result.
 * @return The count (0 for NULL).
 */
VELSTATUS_API uint64_t velstatus_retry_result_attempts(const velstatus_retry_result *result);

/**
 * @brief How many sleeps the run took.
 * @param[in] result The result.
 * @return The count (0 for NULL).
 */
VELSTATUS_API size_t velstatus_retry_result_sleep_count(const velstatus_retry_result *result);

/**
 * @brief Sleep `i` (0-based; sleep i follows attempt i + 1), as `Step()`
 * returned it: raw, so possibly 0 or negative after an overflow.
 * @param[in] result The result.
 * @param[in] i The index, below velstatus_retry_result_sleep_count().
 * @return The sleep in nanoseconds (0 for NULL or an index out of range).
 */
VELSTATUS_API int64_t velstatus_retry_result_sleep(const velstatus_retry_result *result, size_t i);

/**
 * @brief The sum of the sleeps.
 * @param[out] total_ns The sum, when it fits in int64 (0 otherwise). May be NULL.
 * @param[in] result The result.
 * @return 1 if the sum fits in int64, 0 if it overflows (or result is NULL).
 */
VELSTATUS_API int velstatus_retry_result_total_sleep(int64_t *total_ns, const velstatus_retry_result *result);

/**
 * @brief Whether the last sleep bought no attempt (the cap ended the loop
 * right after it: Velero's wasted sleep, doc/velero-behaviour.md §4.5).
 * @param[in] result The result.
 * @return 1 or 0 (0 for NULL).
 */
VELSTATUS_API int velstatus_retry_result_trailing_sleep(const velstatus_retry_result *result);

/**
 * @brief The error the run returns (what `OnError` returns), if any.
 * @param[out] text The error's text, NUL-terminated; NULL when there is none. May be NULL.
 * @param[out] len Its length in bytes. May be NULL.
 * @param[in] result The result.
 * @return 1 if the run returns an error, 0 if it returns nil (or result is NULL).
 * @borrowed The text lives as long as the result.
 */
VELSTATUS_API int velstatus_retry_result_error(const char **text, size_t *len, const velstatus_retry_result *result);

/**
 * @brief Which attempt the returned error came from (client-go's
 * "from_attempt"), so a host can return its own error object.
 * @param[in] result The result.
 * @return The 1-based attempt, or 0 when the run returns nil.
 */
VELSTATUS_API uint64_t velstatus_retry_result_error_attempt(const velstatus_retry_result *result);

/**
 * @brief The outcome's name: "succeeded", "not_attempted", "terminal",
 * "exhausted", "deadline" or "truncated".
 * @param[in] outcome The outcome.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_retry_outcome_to_string(velstatus_retry_outcome outcome);

/**
 * @brief Parses an outcome token (the names velstatus_retry_outcome_to_string() gives).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_retry_outcome_from_string(velstatus_retry_outcome *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief The class's name: "transient", "conflict" or "terminal".
 * @param[in] cls The class.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_retry_class_to_string(velstatus_retry_class cls);

/**
 * @brief Parses "transient", "conflict" or "terminal" (exact, case-sensitive).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_retry_class_from_string(velstatus_retry_class *out, const char *s, size_t len,
                                                                 velstatus_error *err);

/**
 * @brief The backoff preset's name: "velero_cap", "default_backoff" or "default_retry".
 * @param[in] kind The preset.
 * @return A static string, or NULL for an unknown value.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_backoff_kind_to_string(velstatus_backoff_kind kind);

/**
 * @brief Parses "velero_cap", "default_backoff" or "default_retry" (exact, case-sensitive).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_backoff_kind_from_string(velstatus_backoff_kind *out, const char *s,
                                                                  size_t len, velstatus_error *err);

/**
 * @brief Whether the status patch that moves a CR from `from` to `to` is
 * retried (doc/velero-behaviour.md §4.3; the hardened preset adds §6.15).
 *
 * Velero retries, with `CapBackoff(--resource-timeout)`: InProgress ->
 * WaitingForPluginOperations[PartiallyFailed] / Finalizing[PartiallyFailed] /
 * Failed (backup and restore controllers), and Finalizing* -> Completed /
 * PartiallyFailed (finalizer controllers). Everything else goes out once:
 * the queue (New -> Queued -> ReadyToStart), ReadyToStart or New ->
 * InProgress / FailedValidation, the operations controllers' Waiting* moves
 * (their 10 s poll retries), -> Deleting, and the server's startup
 * InProgress -> Failed. With `retry_forgotten_patches` (hardened) these are
 * retried too: ReadyToStart (backup) or New (restore) -> InProgress /
 * FailedValidation, -> Deleting, and the startup InProgress -> Failed. The
 * queue and the operations controllers stay as they are (they are requeued
 * or polled). A transition Velero never makes gives 0.
 * @param[out] retried 1 if the patch is retried, else 0.
 * @param[in] kind The kind.
 * @param[in] from The current phase.
 * @param[in] to The phase being written.
 * @param[in] at_startup Non-zero for the server's startup pass
 *            (`markInProgress*Failed`), which writes InProgress -> Failed
 *            outside the controllers.
 * @param[in] policy The policy, or NULL for the hardened preset.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL retried, unknown kind,
 *         a phase the kind does not have) or ::VELSTATUS_E_ABI (policy size).
 */
VELSTATUS_API velstatus_status velstatus_retry_transition(int *retried, velstatus_kind kind, velstatus_phase from,
                                                          velstatus_phase to, int at_startup,
                                                          const velstatus_policy *policy, velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_RETRY_H */
