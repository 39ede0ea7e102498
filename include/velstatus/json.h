/**
 * @file velstatus/json.h
 * @brief The JSON codec: Velero's own JSON in and out, as UTF-8 text.
 *
 * jansson is used inside; `json_t` never crosses the API. Input is
 * `(const char *p, size_t len)`; output is a NUL-terminated buffer from the
 * context allocator, released with velstatus_free(). Errors name the JSON
 * path (`items[3].status.phase`) and the 1-based line/column/offset.
 *
 * @defgroup json JSON codec
 * @{
 */
#ifndef VELSTATUS_JSON_H
#define VELSTATUS_JSON_H

#include "common.h"
#include "status.h"
#include "host.h"

VELSTATUS_BEGIN_DECLS

/* ---- BackupStorageLocations and server-status verdicts (server_status.h) ---- */
#include "server_status.h" /* the types below; nested extern "C" is fine */

/**
 * @brief Reads BSLs from `kubectl get backupstoragelocations -o json` output.
 *
 * Accepts a `List` or `BackupStorageLocationList` object (`items`), a bare
 * array of BSL objects, or one BSL object. Per BSL it reads
 * `metadata.name` (required, non-empty, unique), `metadata.creationTimestamp`,
 * `spec.default`, `spec.accessMode` (`ReadOnly`, `ReadWrite` or empty),
 * `status.phase` (kept verbatim), `status.lastValidationTime` and
 * `status.message`; every other field is ignored. A field may be absent or
 * `null`; one of the wrong type or value is an error naming its path
 * (`items[3].status.phase`) with its line, column and byte offset.
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
VELSTATUS_API velstatus_status velstatus_json_decode_bsls(velstatus_bsl_set **out, velstatus_ctx *ctx,
                                                          const char *json, size_t len, velstatus_error *err);

/**
 * @brief Writes a verdict as compact JSON, keys in this order:
 * `status`, `reasons` (tokens, sorted), `counts` (`available`,
 * `unavailable`, `pending`, `total`), `default` (name or null), `bsls`
 * (reason token → sorted names, one key per reason set, keys sorted) and
 * `message`. Keys may be appended in later versions.
 * @param[out] out Receives the NUL-terminated text.
 * @param[out] out_len Receives its length (may be NULL).
 * @param[in] verdict The verdict.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_NOMEM.
 * @owned `*out`: release with velstatus_free() on the verdict's context.
 */
VELSTATUS_API velstatus_status velstatus_json_encode_server_verdict(char **out, size_t *out_len,
                                                                    const velstatus_server_verdict *verdict,
                                                                    velstatus_error *err);


/* ---- Item operations and plugin progress (operations.h) ---- */



/* ---- Progress reports (progress.h) ---- */



VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_JSON_H */
