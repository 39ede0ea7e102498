/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/server_status.h
 * @brief Server status from the BackupStorageLocations (doc/design.md §3, doc/velero-behaviour.md §1).
 *
 * Velero never built a server status (doc/velero-behaviour.md §1.6, §1.7); the rules of
 * its issue #2488 leave most BSL sets undefined (§1.8). libvelstatus defines
 * a total function and is the reference for it. With A / U / P the numbers of
 * Available, Unavailable and pending BSLs (pending: an empty phase, a phase
 * outside {Available, Unavailable}, or, when staleness is checked, an
 * Available BSL whose last validation is older than the bound or missing),
 * the status is, top to bottom:
 *
 * 1. no BSL → ::VELSTATUS_SERVER_WAITING
 * 2. A = 0 and P > 0 → ::VELSTATUS_SERVER_WAITING
 * 3. A = 0 → ::VELSTATUS_SERVER_NOT_READY (::VELSTATUS_SERVER_WAITING with
 *    velstatus_server_status_options::three_state)
 * 4. A = n, exactly one default (several `spec.default` never count as one)
 *    and it is ReadWrite → ::VELSTATUS_SERVER_READY
 * 5. otherwise → ::VELSTATUS_SERVER_PARTIALLY_READY
 *
 * The reason flags (::velstatus_server_reason) are set independently of the
 * status, each exactly when its condition holds. `doc/server-status.md`
 * explains every rule and decision.
 *
 * Three ways in:
 * - a ::velstatus_bsl_set (built with velstatus_bsl_set_add() or decoded by
 *   velstatus_bsl_set_from_json()) classified by velstatus_server_status_classify();
 * - a ::velstatus_server_tracker fed one upsert or delete at a time, O(1)
 *   each, that says whether the status or the reasons changed;
 * - velstatus_server_status_step(), a controller step over a host vtable.
 *
 * @defgroup server_status Server status
 * @{
 */
#ifndef VELSTATUS_SERVER_STATUS_H
#define VELSTATUS_SERVER_STATUS_H

#include "common.h"
#include "status.h"
#include "policy.h"
#include "retry.h"
#include "host.h"
#include "watch.h"

VELSTATUS_BEGIN_DECLS

/** @brief The server status. Tokens (velstatus_server_status_to_string()) are the CLI's. */
typedef enum velstatus_server_status {
    VELSTATUS_SERVER_INVALID = -1,        /**< Not a status: what the verdict and tracker getters return for NULL. */
    VELSTATUS_SERVER_READY = 0,           /**< `Ready`: every BSL available, one ReadWrite default. */
    VELSTATUS_SERVER_PARTIALLY_READY = 1, /**< `PartiallyReady`: some BSL available, something is wrong. */
    VELSTATUS_SERVER_WAITING = 2,         /**< `Waiting`: no BSL, or none available and some pending. */
    VELSTATUS_SERVER_NOT_READY = 3        /**< `NotReady`: BSLs exist, all Unavailable. */
} velstatus_server_status;

/**
 * @brief The reason flags, a bitmask. Each is set exactly when its condition
 * holds, whatever the status. n = number of BSLs; A, U, P as in the file comment.
 */
typedef enum velstatus_server_reason {
    VELSTATUS_SERVER_REASON_NO_BSL = 1,                  /**< `no_bsl`: n = 0. */
    VELSTATUS_SERVER_REASON_PENDING = 2,                 /**< `pending`: A = 0 and P > 0. */
    VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE = 4,         /**< `all_unavailable`: n > 0 and U = n. */
    VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE = 8,        /**< `some_unavailable`: 0 < U < n. */
    VELSTATUS_SERVER_REASON_SOME_PENDING = 16,           /**< `some_pending`: 0 < P < n. */
    VELSTATUS_SERVER_REASON_NO_DEFAULT = 32,             /**< `no_default`: n > 0 and no default resolved. */
    VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS = 64,      /**< `multiple_defaults`: no default-location
                                                              name given and more than one `spec.default`. */
    VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE = 128, /**< `default_not_available`: the resolved
                                                              default is not counted Available. */
    VELSTATUS_SERVER_REASON_DEFAULT_READONLY = 256,      /**< `default_readonly`: the resolved default is ReadOnly. */
    VELSTATUS_SERVER_REASON_STALE = 512,                 /**< `stale`: an Available BSL is counted
                                                              pending because of staleness. */
    VELSTATUS_SERVER_REASON_UNKNOWN_PHASE = 1024,        /**< `unknown_phase`: a phase outside
                                                              {Available, Unavailable, ""}. */
    /** `never_validated`: when staleness is checked, a BSL with an empty
     *  phase and no `lastValidationTime` whose `creationTimestamp` is older
     *  than the bound (`now - created > stale_after_ns`). Velero validates
     *  every BSL once as soon as its controller sees it, so such a BSL means
     *  no Velero server reconciles that namespace (doc/server-status.md).
     *  The BSL still counts pending: the flag names it, the status is unchanged. */
    VELSTATUS_SERVER_REASON_NEVER_VALIDATED = 2048
} velstatus_server_reason;

/** @brief A BSL's `spec.accessMode`. An empty value is ReadWrite, as in Velero (doc/velero-behaviour.md §1.1). */
typedef enum velstatus_bsl_access {
    VELSTATUS_BSL_READ_WRITE = 0, /**< `ReadWrite` (or empty). */
    VELSTATUS_BSL_READ_ONLY = 1   /**< `ReadOnly`. */
} velstatus_bsl_access;

/**
 * @brief The access mode in Velero's spelling: "ReadWrite" or "ReadOnly".
 * @param[in] access The value.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_bsl_access_to_string(velstatus_bsl_access access);

/**
 * @brief Parses "ReadWrite" or "ReadOnly" (exact; the empty string is not accepted here, though a BSL's empty `accessMode` reads as ReadWrite).
 * @param[out] out The value.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL out, NULL s with a
 *         non-zero length, or an unknown token; the message lists the tokens).
 */
VELSTATUS_API velstatus_status velstatus_bsl_access_from_string(velstatus_bsl_access *out, const char *s, size_t len,
                                                                velstatus_error *err);

/**
 * @brief The status token: `Ready`, `PartiallyReady`, `Waiting` or `NotReady`.
 * @param[in] status The status.
 * @return A static string, or NULL for a value outside the enum.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_server_status_to_string(velstatus_server_status status);

/**
 * @brief Parses a status token (exact, case-sensitive).
 * @param[out] out The status.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL pointer, unknown token).
 */
VELSTATUS_API velstatus_status velstatus_server_status_from_string(velstatus_server_status *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/**
 * @brief The reason token of one flag, e.g. `some_unavailable`.
 * @param[in] reason Exactly one flag.
 * @return A static string, or NULL when `reason` is not exactly one known flag.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_server_reason_to_string(velstatus_server_reason reason);

/**
 * @brief Parses a reason token (exact, lower case).
 * @param[out] out The flag.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL pointer, unknown token).
 */
VELSTATUS_API velstatus_status velstatus_server_reason_from_string(velstatus_server_reason *out, const char *s,
                                                                   size_t len, velstatus_error *err);

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

/**
 * @brief How to classify. Size-tagged: fill it with
 * velstatus_server_status_options_init(), then set what you need. A NULL
 * options pointer means "all defaults" (no default-location name, no
 * staleness check, four statuses).
 */
typedef struct velstatus_server_status_options {
    uint32_t struct_size; /**< sizeof(velstatus_server_status_options) as compiled by the caller. */
    uint32_t flags;       /**< Reserved, must be 0. */
    /** The server's default-location setting (`--default-backup-storage-location`),
     *  or NULL. When given (non-NULL, length > 0) the BSL of that name alone is
     *  the default and `spec.default` is ignored; an empty name means "not
     *  given", as Velero's empty flag does nothing (doc/velero-behaviour.md §1.5 D1). */
    const char *default_location;
    size_t default_location_len; /**< Length of default_location in bytes. */
    int64_t now_ns;              /**< The present instant, ns since the epoch (only with check_stale). */
    int64_t stale_after_ns;      /**< The staleness bound in ns, >= 0 (only with check_stale). */
    /** Non-zero: an Available BSL whose last validation is older than
     *  stale_after_ns at now_ns (`now - last > bound`), or missing, counts as pending. */
    int check_stale;
    /** Non-zero: map ::VELSTATUS_SERVER_NOT_READY to ::VELSTATUS_SERVER_WAITING
     *  (the three-status reading of Velero PR #4270). Reasons are unchanged. */
    int three_state;
    /** The retry budget for one publish in ns (Velero's `--resource-timeout`);
     *  0 means Velero's default, 10 minutes. Negative is ::VELSTATUS_E_INVALID. */
    int64_t retry_timeout_ns;
    /* v1 (1.0) ends here. Append only. */
} velstatus_server_status_options;

/**
 * @brief Fills an options struct with the defaults and its struct_size.
 * @param[out] opts The struct (NULL is ignored).
 * @param[in] struct_size sizeof(velstatus_server_status_options) as the caller sees it.
 */
VELSTATUS_API void velstatus_server_status_options_init(velstatus_server_status_options *opts, size_t struct_size);

/* ---------------------------------------------------------------------- */
/* One BSL                                                                */
/* ---------------------------------------------------------------------- */

/**
 * @brief One BSL: every field the rule reads, as a host has it from its
 * Kubernetes client (or from velstatus_bsl_set_get()). Size-tagged: fill it
 * with velstatus_bsl_record_init(), then set the fields; the texts are
 * borrowed (the library copies what it keeps) and need not be
 * NUL-terminated: each length may be #VELSTATUS_NUL_TERMINATED.
 * velstatus_server_tracker_upsert() takes it.
 */
typedef struct velstatus_bsl_record {
    uint32_t struct_size;        /**< sizeof(velstatus_bsl_record) as compiled by the caller. */
    uint32_t flags;              /**< Reserved, must be 0. */
    const char *name;            /**< `metadata.name`: non-empty, no NUL byte. */
    size_t name_len;             /**< Length of name in bytes. */
    int is_default;              /**< `spec.default` (non-zero for true). */
    velstatus_bsl_access access; /**< `spec.accessMode`. */
    /** `status.phase`, verbatim: `Available`, `Unavailable`, `""` (never
     *  validated) or anything else (pending, flagged `unknown_phase`). May be
     *  NULL when phase_len is 0; no NUL byte. */
    const char *phase;
    size_t phase_len;     /**< Length of phase in bytes. */
    int has_created;      /**< Non-zero when `metadata.creationTimestamp` is known. */
    int64_t created_ns;   /**< `metadata.creationTimestamp`, ns since the epoch. */
    int has_validated;    /**< Non-zero when `status.lastValidationTime` is set. */
    int64_t validated_ns; /**< `status.lastValidationTime`, ns since the epoch. */
    const char *message;  /**< `status.message` (may be NULL when message_len is 0). */
    size_t message_len;   /**< Length of message in bytes. */
    /* v1 ends here. Append only. */
    /** `metadata.namespace` (may be NULL when ns_len is 0; no NUL byte). A
     *  set keeps one BSL per namespace and name; a tracker keys by name only
     *  (keep one tracker per namespace). */
    const char *ns;
    size_t ns_len;        /**< Length of ns in bytes. */
    const char *provider; /**< `spec.provider` (may be NULL when provider_len is 0). */
    size_t provider_len;  /**< Length of provider in bytes. */
    const char *bucket;   /**< `spec.objectStorage.bucket` (may be NULL when bucket_len is 0). */
    size_t bucket_len;    /**< Length of bucket in bytes. */
    const char *prefix;   /**< `spec.objectStorage.prefix` (may be NULL when prefix_len is 0). */
    size_t prefix_len;    /**< Length of prefix in bytes. */
} velstatus_bsl_record;

/**
 * @brief Fills a record with zeros (an unnamed, ReadWrite, non-default BSL
 * with an empty phase and no times) and its struct_size.
 * @param[out] bsl The record (NULL is ignored).
 * @param[in] struct_size sizeof(velstatus_bsl_record) as the caller sees it.
 */
VELSTATUS_API void velstatus_bsl_record_init(velstatus_bsl_record *bsl, size_t struct_size);

/* ---------------------------------------------------------------------- */
/* BSL sets                                                               */
/* ---------------------------------------------------------------------- */

/** @brief An opaque list of BSLs, in insertion order, with a unique name in each namespace. */
typedef struct velstatus_bsl_set velstatus_bsl_set;

/**
 * @brief Creates an empty BSL set.
 * @param[out] out Receives the set.
 * @param[in] ctx The context whose allocator the set uses.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_bsl_set_free().
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_new(velstatus_bsl_set **out, velstatus_ctx *ctx, velstatus_error *err);

/**
 * @brief Releases a set.
 * @param[in] set The set, or NULL.
 */
VELSTATUS_API void velstatus_bsl_set_free(velstatus_bsl_set *set);

/**
 * @brief Appends a BSL. Every text is copied.
 *
 * The phase is kept verbatim: `Available`, `Unavailable`, `""` (never
 * validated) or anything else (counted pending and flagged `unknown_phase`).
 * @param[in,out] set The set.
 * @param[in] name `metadata.name`: non-empty, no NUL byte, unique among the
 *            set's BSLs without a namespace (the namespace is "").
 * @param[in] name_len Its length.
 * @param[in] phase `status.phase` (may be NULL when phase_len is 0).
 * @param[in] phase_len Its length.
 * @param[in] is_default `spec.default` (non-zero for true).
 * @param[in] access `spec.accessMode`.
 * @param[in] has_created Non-zero when `metadata.creationTimestamp` is known.
 * @param[in] created_ns `metadata.creationTimestamp`, ns since the epoch.
 * @param[in] has_validated Non-zero when `status.lastValidationTime` is set.
 * @param[in] validated_ns `status.lastValidationTime`, ns since the epoch.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, empty name,
 *         NUL byte, duplicate name, unknown access) or ::VELSTATUS_E_NOMEM
 *         (the set is unchanged).
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_add(velstatus_bsl_set *set, const char *name, size_t name_len,
                                                     const char *phase, size_t phase_len, int is_default,
                                                     velstatus_bsl_access access, int has_created, int64_t created_ns,
                                                     int has_validated, int64_t validated_ns, velstatus_error *err);

/**
 * @brief The number of BSLs in a set.
 * @param[in] set The set (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_bsl_set_count(const velstatus_bsl_set *set);

/**
 * @brief The name of the i-th BSL, in insertion order.
 * @param[in] set The set.
 * @param[in] i The index.
 * @return The NUL-terminated name, or NULL when out of range.
 * @borrowed Valid until the set is freed.
 */
VELSTATUS_API const char *velstatus_bsl_set_name(const velstatus_bsl_set *set, size_t i);

/**
 * @brief The phase of the i-th BSL, verbatim.
 * @param[in] set The set.
 * @param[in] i The index.
 * @return The NUL-terminated phase (possibly empty), or NULL when out of range.
 * @borrowed Valid until the set is freed.
 */
VELSTATUS_API const char *velstatus_bsl_set_phase(const velstatus_bsl_set *set, size_t i);

/**
 * @brief The `status.message` of the i-th BSL (set by the JSON decoder; empty otherwise).
 * @param[in] set The set.
 * @param[in] i The index.
 * @return The NUL-terminated message, or NULL when out of range.
 * @borrowed Valid until the set is freed.
 */
VELSTATUS_API const char *velstatus_bsl_set_message(const velstatus_bsl_set *set, size_t i);

/**
 * @brief Every field of the i-th BSL, as the record the tracker takes: a
 * decoded list bridges to a tracker with this and
 * velstatus_server_tracker_upsert(), without reading the JSON again.
 *
 * The texts point into the set (NUL-terminated; the lengths exclude the
 * NUL). The record's struct_size is kept; fields past the library's own
 * size are left as they are.
 * @param[in] set The set.
 * @param[in] i The index, below velstatus_bsl_set_count().
 * @param[in,out] out A record filled with velstatus_bsl_record_init().
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, index out of
 *         range; `*out` unchanged) or ::VELSTATUS_E_ABI (struct_size).
 * @borrowed The texts are valid until the set is freed.
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_get(const velstatus_bsl_set *set, size_t i, velstatus_bsl_record *out,
                                                     velstatus_error *err);

/**
 * @brief Appends a BSL given as a record (every field, the namespace,
 * provider, bucket and prefix too). Every text is copied.
 * @param[in,out] set The set.
 * @param[in] bsl The BSL (velstatus_bsl_record_init(), then its fields).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, flags not 0,
 *         empty name, NUL byte in the name, phase or namespace, NULL text
 *         with a length, unknown access, a name already in that namespace),
 *         ::VELSTATUS_E_ABI (struct_size) or ::VELSTATUS_E_NOMEM (the set is
 *         unchanged).
 */
VELSTATUS_API velstatus_status velstatus_bsl_set_add_record(velstatus_bsl_set *set, const velstatus_bsl_record *bsl,
                                                            velstatus_error *err);

/**
 * @brief The namespace of the i-th BSL (`metadata.namespace`; "" when it has none).
 * @param[in] set The set.
 * @param[in] i The index.
 * @return The NUL-terminated namespace, or NULL when out of range.
 * @borrowed Valid until the set is freed.
 */
VELSTATUS_API const char *velstatus_bsl_set_namespace(const velstatus_bsl_set *set, size_t i);

/**
 * @brief How many distinct namespaces the set's BSLs are in (0 for an empty
 * set; BSLs without a namespace count as the namespace ""). One Velero server
 * reads the BSLs of its own namespace only, so each namespace has its own
 * server status: classify each with velstatus_server_status_classify_namespace().
 * @param[in] set The set (NULL gives 0).
 * @return The count, O(1).
 */
VELSTATUS_API size_t velstatus_bsl_set_namespace_count(const velstatus_bsl_set *set);

/**
 * @brief The k-th distinct namespace, in the order of first appearance
 * (`kubectl get bsl -A` lists by namespace, so that is sorted there).
 * @param[in] set The set.
 * @param[in] k The index, below velstatus_bsl_set_namespace_count().
 * @return The NUL-terminated namespace, or NULL when out of range.
 * @borrowed Valid until the set is freed.
 */
VELSTATUS_API const char *velstatus_bsl_set_namespace_at(const velstatus_bsl_set *set, size_t k);

/* ---------------------------------------------------------------------- */
/* Verdicts                                                               */
/* ---------------------------------------------------------------------- */

/** @brief An opaque, immutable classification result. */
typedef struct velstatus_server_verdict velstatus_server_verdict;

/**
 * @brief Classifies a set of BSLs (a full pass over the set).
 * @param[out] out Receives the verdict.
 * @param[in] set The BSLs.
 * @param[in] opts Options, or NULL for the defaults.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, flags not 0,
 *         negative stale bound, NULL default_location with a length),
 *         ::VELSTATUS_E_ABI (options struct_size) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_server_verdict_free().
 */
VELSTATUS_API velstatus_status velstatus_server_status_classify(velstatus_server_verdict **out,
                                                                const velstatus_bsl_set *set,
                                                                const velstatus_server_status_options *opts,
                                                                velstatus_error *err);

/**
 * @brief Classifies the BSLs of one namespace (the server status of the
 * Velero server in that namespace): velstatus_server_status_classify() of
 * the subset whose `metadata.namespace` is `ns`, O(n). A namespace with no
 * BSL gives the verdict of an empty set (Waiting, `no_bsl`). The verdict
 * records the namespace (velstatus_server_verdict_namespace()).
 * @param[out] out Receives the verdict.
 * @param[in] set The BSLs.
 * @param[in] ns The namespace ("" for BSLs without one; need not be NUL-terminated).
 * @param[in] ns_len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] opts Options, or NULL for the defaults (`default_location`
 *            names a BSL of this namespace).
 * @param[out] err Error details on failure, or NULL.
 * @return As velstatus_server_status_classify(); also ::VELSTATUS_E_INVALID
 *         for a NULL ns with a non-zero length.
 * @owned Release with velstatus_server_verdict_free().
 */
VELSTATUS_API velstatus_status velstatus_server_status_classify_namespace(velstatus_server_verdict **out,
                                                                          const velstatus_bsl_set *set, const char *ns,
                                                                          size_t ns_len,
                                                                          const velstatus_server_status_options *opts,
                                                                          velstatus_error *err);

/**
 * @brief The namespace a verdict was classified for.
 * @param[in] verdict The verdict.
 * @return The NUL-terminated namespace given to
 *         velstatus_server_status_classify_namespace(), or NULL for a verdict
 *         of velstatus_server_status_classify() or of a tracker (or a NULL verdict).
 * @borrowed Valid until the verdict is freed.
 */
VELSTATUS_API const char *velstatus_server_verdict_namespace(const velstatus_server_verdict *verdict);

/**
 * @brief Releases a verdict.
 * @param[in] verdict The verdict, or NULL.
 */
VELSTATUS_API void velstatus_server_verdict_free(velstatus_server_verdict *verdict);

/**
 * @brief The status.
 * @param[in] verdict The verdict (NULL gives ::VELSTATUS_SERVER_INVALID).
 * @return The status.
 */
VELSTATUS_API velstatus_server_status velstatus_server_verdict_status(const velstatus_server_verdict *verdict);

/**
 * @brief The reason flags.
 * @param[in] verdict The verdict (NULL gives 0).
 * @return A bitmask of ::velstatus_server_reason values.
 */
VELSTATUS_API uint32_t velstatus_server_verdict_reasons(const velstatus_server_verdict *verdict);

/**
 * @brief A = the BSLs counted Available (Available and not stale).
 * @param[in] verdict The verdict (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_server_verdict_available(const velstatus_server_verdict *verdict);

/**
 * @brief U = the BSLs whose phase is Unavailable.
 * @param[in] verdict The verdict (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_server_verdict_unavailable(const velstatus_server_verdict *verdict);

/**
 * @brief P = the BSLs counted pending (empty or unknown phase, or stale).
 * @param[in] verdict The verdict (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_server_verdict_pending(const velstatus_server_verdict *verdict);

/**
 * @brief n = all BSLs (A + U + P).
 * @param[in] verdict The verdict (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_server_verdict_total(const velstatus_server_verdict *verdict);

/**
 * @brief The name of the resolved default BSL.
 * @param[in] verdict The verdict.
 * @return The NUL-terminated name, or NULL when no default was resolved.
 * @borrowed Valid until the verdict is freed.
 */
VELSTATUS_API const char *velstatus_server_verdict_default(const velstatus_server_verdict *verdict);

/**
 * @brief How many BSL names stand behind a reason flag (0 when it is not set).
 *
 * The names: `pending` and `some_pending` the pending BSLs;
 * `all_unavailable` and `some_unavailable` the Unavailable ones;
 * `multiple_defaults` every BSL with `spec.default`; `default_not_available`
 * and `default_readonly` the default; `stale` the stale ones;
 * `unknown_phase` those with an unknown phase; `no_bsl` and `no_default`
 * none. Each list is sorted byte-wise.
 * @param[in] verdict The verdict.
 * @param[in] reason Exactly one flag.
 * @return The count (0 for a NULL verdict or not exactly one flag).
 */
VELSTATUS_API size_t velstatus_server_verdict_name_count(const velstatus_server_verdict *verdict,
                                                         velstatus_server_reason reason);

/**
 * @brief The i-th BSL name behind a reason flag.
 * @param[in] verdict The verdict.
 * @param[in] reason Exactly one flag.
 * @param[in] i The index, below velstatus_server_verdict_name_count().
 * @return The NUL-terminated name, or NULL when out of range.
 * @borrowed Valid until the verdict is freed.
 */
VELSTATUS_API const char *velstatus_server_verdict_name(const velstatus_server_verdict *verdict,
                                                        velstatus_server_reason reason, size_t i);

/**
 * @brief A one-line human message, without the status, e.g.
 * `1 of 3 backup storage locations unavailable (secondary)`.
 * @param[in] verdict The verdict.
 * @return The NUL-terminated message ("" for a NULL verdict).
 * @borrowed Valid until the verdict is freed.
 */
VELSTATUS_API const char *velstatus_server_verdict_message(const velstatus_server_verdict *verdict);

/* ---------------------------------------------------------------------- */
/* Tracker                                                                */
/* ---------------------------------------------------------------------- */

/**
 * @brief An opaque, incrementally maintained BSL set: "continuously updated".
 *
 * Upsert and delete cost O(1) expected (a hash table keyed by name,
 * incremental counts) plus O(log d) for the d BSLs with `spec.default` (a
 * heap finds the newest); no event rescans the set. The status and reasons
 * are always current; velstatus_server_tracker_verdict() builds the full
 * verdict (names, message) in O(n log n). Advancing the clock for the
 * staleness check (velstatus_server_tracker_set_now()) is O(n).
 *
 * Memory: one 64-byte entry per BSL, in a table at most 7/8 full (about 84
 * bytes per BSL at 100,000 BSLs, `make bench`), plus a copy of each name of
 * 16 bytes or more; the tracker keeps no other text of a BSL (its phase is
 * classified as it arrives, and no getter hands out a BSL's texts). An
 * upsert of a tracked name allocates nothing.
 */
typedef struct velstatus_server_tracker velstatus_server_tracker;

/**
 * @brief Creates an empty tracker.
 * @param[out] out Receives the tracker.
 * @param[in] ctx The context whose allocator it uses.
 * @param[in] opts Options (copied, default_location too), or NULL for the defaults.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID, ::VELSTATUS_E_ABI or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_server_tracker_free().
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_new(velstatus_server_tracker **out, velstatus_ctx *ctx,
                                                            const velstatus_server_status_options *opts,
                                                            velstatus_error *err);

/**
 * @brief Releases a tracker.
 * @param[in] tracker The tracker, or NULL.
 */
VELSTATUS_API void velstatus_server_tracker_free(velstatus_server_tracker *tracker);

/**
 * @brief Inserts a BSL or replaces the one of the same name (an informer's
 * add or update event). Every text is copied.
 * @param[in,out] tracker The tracker.
 * @param[out] changed Set to 1 when the status or the reasons changed, else 0 (may be NULL).
 * @param[in] bsl The BSL (velstatus_bsl_record_init(), then its fields).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, flags not 0,
 *         empty name, NUL byte in the name or the phase, NULL text with a
 *         length, unknown access), ::VELSTATUS_E_ABI (struct_size) or
 *         ::VELSTATUS_E_NOMEM (the tracker is unchanged).
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_upsert(velstatus_server_tracker *tracker, int *changed,
                                                               const velstatus_bsl_record *bsl, velstatus_error *err);

/**
 * @brief velstatus_server_tracker_upsert() of one BackupStorageLocation
 * object as JSON (a watch event's `object`, one item of `kubectl get bsl -o
 * json`), decoded as velstatus_bsl_set_from_json() decodes each item: same
 * keys, same checks, same messages (the path starts at the object).
 * @param[in,out] tracker The tracker.
 * @param[out] changed Set to 1 when the status or the reasons changed, else 0 (may be NULL).
 * @param[in] json The text: one JSON object, whitespace around it allowed
 *        (need not be NUL-terminated).
 * @param[in] len Its length in bytes, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL; a parse or schema error
 *        carries the position of the offending value.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer),
 *         ::VELSTATUS_E_PARSE (not JSON), ::VELSTATUS_E_SCHEMA (not a BSL
 *         object: a List or an array is one too; a field of the wrong type;
 *         a missing or empty name), ::VELSTATUS_E_RANGE (a number JSON cannot
 *         hold) or ::VELSTATUS_E_NOMEM. On error the tracker is unchanged.
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_upsert_json(velstatus_server_tracker *tracker, int *changed,
                                                                    const char *json, size_t len, velstatus_error *err);

/**
 * @brief Removes the BSL of that name; removing an absent name is a no-op
 * (a watch may replay deletes).
 * @param[in,out] tracker The tracker.
 * @param[out] changed Set to 1 when the status or the reasons changed, else 0 (may be NULL).
 * @param[in] name The name.
 * @param[in] name_len Its length.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL pointer).
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_delete(velstatus_server_tracker *tracker, int *changed,
                                                               const char *name, size_t name_len, velstatus_error *err);

/**
 * @brief Moves the tracker's clock (velstatus_server_status_options::now_ns).
 * With check_stale it re-evaluates staleness, O(n); without, it only dates
 * the transitions that follow (velstatus_server_tracker_last_transition()), O(1).
 * @param[in,out] tracker The tracker.
 * @param[out] changed Set to 1 when the status or the reasons changed, else 0 (may be NULL).
 * @param[in] now_ns The new present instant, ns since the epoch.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID (NULL tracker).
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_set_now(velstatus_server_tracker *tracker, int *changed,
                                                                int64_t now_ns, velstatus_error *err);

/**
 * @brief The current status, O(1).
 * @param[in] tracker The tracker (NULL gives ::VELSTATUS_SERVER_INVALID).
 * @return The status.
 */
VELSTATUS_API velstatus_server_status velstatus_server_tracker_status(const velstatus_server_tracker *tracker);

/**
 * @brief The current reason flags, O(1).
 * @param[in] tracker The tracker (NULL gives 0).
 * @return A bitmask of ::velstatus_server_reason values.
 */
VELSTATUS_API uint32_t velstatus_server_tracker_reasons(const velstatus_server_tracker *tracker);

/**
 * @brief When the condition status (`True` for Ready and PartiallyReady,
 * `False` for NotReady, `Unknown` for Waiting) last changed: the tracker's
 * clock at the event that changed it, O(1). This is a Kubernetes condition's
 * `lastTransitionTime`: a change of the reasons alone, or between Ready and
 * PartiallyReady, is no transition. The first status holds from creation.
 * The clock is known from creation with check_stale (its now_ns), else from
 * the first velstatus_server_tracker_set_now(), which dates the status
 * holding then (Kubernetes accepts "the time the API field changed" when the
 * transition's own time is not known). The library reads no clock: give it
 * the present with velstatus_server_tracker_set_now() before each event.
 * @param[in] tracker The tracker (NULL gives 0).
 * @param[out] ns Receives the instant in ns since the epoch when known (may be NULL).
 * @return 1 when the instant is known, else 0 (NULL tracker, or no clock
 *         given yet; `*ns` untouched).
 */
VELSTATUS_API int velstatus_server_tracker_last_transition(const velstatus_server_tracker *tracker, int64_t *ns);

/**
 * @brief The number of BSLs tracked, O(1).
 * @param[in] tracker The tracker (NULL gives 0).
 * @return The count.
 */
VELSTATUS_API size_t velstatus_server_tracker_count(const velstatus_server_tracker *tracker);

/**
 * @brief The full verdict of the tracked set, equal to what
 * velstatus_server_status_classify() gives for the same BSLs and options.
 * @param[out] out Receives the verdict.
 * @param[in] tracker The tracker.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_server_verdict_free().
 */
VELSTATUS_API velstatus_status velstatus_server_tracker_verdict(velstatus_server_verdict **out,
                                                                const velstatus_server_tracker *tracker,
                                                                velstatus_error *err);

/* ---------------------------------------------------------------------- */
/* Controller step                                                        */
/* ---------------------------------------------------------------------- */

/**
 * @brief An opaque out-object through which `list_bsls` answers
 * (velstatus_bsls_reply_set_json()); valid during the callback only.
 */
typedef struct velstatus_bsls_reply velstatus_bsls_reply;

/**
 * @brief Answers a `list_bsls` callback: decodes the text at once
 * (velstatus_bsl_set_from_json()), so the callback's buffer need not outlive
 * it. A later call replaces an earlier one. A decoding failure is returned
 * here and is also the step's result, whatever the callback then returns.
 * @param[in,out] reply The reply the callback was given.
 * @param[in] json `kubectl get bsl -o json` text (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL reply, NULL json with
 *         a non-zero length), ::VELSTATUS_E_PARSE / ::VELSTATUS_E_SCHEMA /
 *         ::VELSTATUS_E_RANGE (the text; the message names the path) or
 *         ::VELSTATUS_E_NOMEM.
 */
VELSTATUS_API velstatus_status velstatus_bsls_reply_set_json(velstatus_bsls_reply *reply, const char *json, size_t len,
                                                             velstatus_error *err);

/**
 * @brief The host side of velstatus_server_status_step(). Size-tagged;
 * fill it with velstatus_server_status_host_init(). Callbacks follow the
 * contract in host.h (0 success, negative failure, ::VELSTATUS_PASSTHROUGH
 * means "as if NULL").
 */
typedef struct velstatus_server_status_host {
    uint32_t struct_size; /**< sizeof(velstatus_server_status_host) as compiled by the host. */
    uint32_t flags;       /**< Reserved, must be 0. */
    void *userdata;       /**< First argument of every callback. */
    /** Required. Lists the BSLs: passes text in the form
     *  velstatus_bsl_set_from_json() reads (`kubectl get bsl -o json`) to
     *  velstatus_bsls_reply_set_json(), which decodes it during the call.
     *  Returning 0 without answering reads as an empty text (a parse error). */
    int (*list_bsls)(void *userdata, velstatus_bsls_reply *reply);
    /** Optional. Reads the status currently published: sets `*has_status` to 0
     *  when nothing was published yet, else 1 with `*status` and `*reasons`.
     *  NULL (or PASSTHROUGH): the step always publishes. */
    int (*read_status)(void *userdata, int *has_status, velstatus_server_status *status, uint32_t *reasons);
    /** Required. Publishes a new status; `json` (NUL-terminated, `json_len`
     *  bytes) is the verdict as velstatus_server_verdict_to_json() writes
     *  it, valid during the call only. */
    int (*publish)(void *userdata, velstatus_server_status status, uint32_t reasons, const char *json, size_t json_len);
    /** The publish retries: `classify` (its text is "publish returned
     *  <code>"), `sleep`, `random` and `now`, each as velstatus_retry_host
     *  documents it and each optional (NULL behaves as it does there).
     *  `retry.attempt` must be NULL (an attempt is one publish) and
     *  `retry.flags` 0; `retry.userdata` is their first argument, NULL
     *  meaning this struct's `userdata`. `retry.struct_size` is set by
     *  velstatus_server_status_host_init() and not read: the embedded
     *  struct's size is this struct's. */
    velstatus_retry_host retry;
    /* v1 (1.0) ends here. Append only. */
} velstatus_server_status_host;

/**
 * @brief Fills a host struct with zeros and its struct_size (and the
 * embedded `retry`'s).
 * @param[out] host The struct (NULL is ignored).
 * @param[in] struct_size sizeof(velstatus_server_status_host) as the caller sees it.
 */
VELSTATUS_API void velstatus_server_status_host_init(velstatus_server_status_host *host, size_t struct_size);

/**
 * @brief One controller step: list the BSLs, classify them, read the
 * published status, and publish the new one only when the status or the
 * reasons differ (or nothing was published).
 *
 * The publish is a status write, so it goes through the retry driver
 * (velstatus_retry_run()) with `policy` and `opts->retry_timeout_ns`:
 * a publish returning a negative code is a failed attempt, retried with the
 * host's `retry` slots (classify, sleep, random, now); only when the retries end with the
 * write still failing does the step fail with ::VELSTATUS_E_HOST, whose
 * host_code is the last publish's code.
 * @param[out] out Receives the verdict (may be NULL when not wanted).
 * @param[out] published Set to 1 when publish() was called and succeeded, else 0 (may be NULL).
 * @param[in] ctx The context.
 * @param[in] host The host vtable (copied).
 * @param[in] opts Options, or NULL for the defaults.
 * @param[in] policy The policy of the publish retries, or NULL for the
 *            hardened preset (not kept after the call).
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer, missing
 *         list_bsls or publish, flags not 0), ::VELSTATUS_E_ABI,
 *         ::VELSTATUS_E_HOST (a callback failed; host_code holds its value),
 *         ::VELSTATUS_E_PARSE / ::VELSTATUS_E_SCHEMA (the listed JSON; the
 *         message names the path) or ::VELSTATUS_E_NOMEM.
 * @owned `*out`: release with velstatus_server_verdict_free().
 */
VELSTATUS_API velstatus_status velstatus_server_status_step(velstatus_server_verdict **out, int *published,
                                                            velstatus_ctx *ctx,
                                                            const velstatus_server_status_host *host,
                                                            const velstatus_server_status_options *opts,
                                                            const velstatus_policy *policy, velstatus_error *err);

/* ---- JSON: BackupStorageLocations in, verdicts out ---- */

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
 * Memory: the set takes about 290 bytes per BSL plus its seven texts
 * (name, phase, message, namespace, provider, bucket, prefix), each copied
 * once; no DOM and no copy of the input are made (`make bench`: 332 bytes
 * per BSL at 100,000 BSLs of 47 bytes of text). Nesting deeper than 2048
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
 * @brief The host's callback for each BSL of a watch event
 * (velstatus_bsl_watch_event_foreach()).
 * @param[in] userdata The pointer the host passed with the callback.
 * @param[in] event The event: its type is ::VELSTATUS_WATCH_ADDED,
 *            ::VELSTATUS_WATCH_MODIFIED, ::VELSTATUS_WATCH_DELETED or
 *            ::VELSTATUS_WATCH_OBJECT (a bare object or List).
 * @param[in] bsl The BSL, every field as velstatus_bsl_set_get() gives it
 *            except that the texts need not be NUL-terminated (read them by
 *            their lengths; one of length 0 may be NULL); valid only during
 *            the call.
 * @return 0 (or any non-negative value) to go on; a negative value stops
 *         the call, which then returns ::VELSTATUS_E_HOST with the value in
 *         velstatus_error::host_code.
 */
typedef int (*velstatus_bsl_fn)(void *userdata, const velstatus_watch_event *event, const velstatus_bsl_record *bsl);

/**
 * @brief Decodes one event of a BackupStorageLocation watch (`kubectl get
 * bsl --watch -o json`, with or without `--output-watch-events`) and hands
 * each BSL of its object to `fn`, validating the text once and building no
 * set.
 *
 * The event is what velstatus_watch_event_from_json() gives for the same
 * text; the BSLs, in order, what velstatus_bsl_set_from_json() gives for the
 * event's object (velstatus_watch_event_object()), with the same checks and
 * messages (positions count from the object's first byte). Every BSL is
 * decoded and checked before the first call of `fn`, so a bad object makes
 * no call at all. An ERROR or a BOOKMARK event makes no call. A host that
 * wants the BSLs kept adds each to a set (velstatus_bsl_set_add_record());
 * one that tracks a server upserts or deletes each in its tracker
 * (velstatus_server_tracker_upsert(), velstatus_server_tracker_delete()).
 * @param[out] event Receives the event: on success, and also when the event
 *        decodes but its object's BSLs do not or `fn` stops (an error is
 *        returned; the caller releases the event with
 *        velstatus_watch_event_free()); else NULL.
 * @param[in] ctx The context.
 * @param[in] json The text of one event (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[in] fn The callback.
 * @param[in] userdata Its first argument.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, the errors of velstatus_watch_event_from_json()
 *         and of velstatus_bsl_set_from_json() (::VELSTATUS_E_INVALID for a
 *         NULL `fn`), or ::VELSTATUS_E_HOST when `fn` stopped it.
 * @owned Release the event with velstatus_watch_event_free().
 */
VELSTATUS_API velstatus_status velstatus_bsl_watch_event_foreach(velstatus_watch_event **event, velstatus_ctx *ctx,
                                                                 const char *json, size_t len, velstatus_bsl_fn fn,
                                                                 void *userdata, velstatus_error *err);

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

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_SERVER_STATUS_H */
