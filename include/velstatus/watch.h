/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/watch.h
 * @brief Watch streams: the events of `kubectl get ... --watch -o json`
 * (with or without `--output-watch-events`), and where one JSON value ends
 * in a stream of them.
 *
 * A host reads the stream, cuts it into objects with
 * velstatus_json_value_end() and decodes each with
 * velstatus_watch_event_from_json(): the event's type and the span of its
 * object (which the BSL and Backup decoders then read), or an ERROR event's
 * Status. Keys are read as Kubernetes' decoder reads them: unescaped,
 * case-sensitive, the last non-null repeated value wins
 * (doc/json-decoding.md).
 *
 * @defgroup watch Watch streams
 * @{
 */
#ifndef VELSTATUS_WATCH_H
#define VELSTATUS_WATCH_H

#include "common.h"
#include "host.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/**
 * @brief Where the one JSON value starting at json[0] ends, the value
 * validated exactly as the library's decoders validate their input (strict
 * UTF-8, no raw NUL byte, int64 integers, at most 2048 levels of nesting).
 *
 * Nothing after the value is read (a number or a literal ends at the first
 * byte that cannot continue it), so a stream of values is cut one at a
 * time. Leading whitespace is an error: skip it first.
 * @param[out] end Receives the offset just past the value.
 * @param[out] incomplete Receives 1 when the value failed only because the
 *             text ran out where the error was found: the same bytes followed
 *             by more text could still scan as a value, so a stream reader
 *             waits for more; 0 otherwise (and on success). May be NULL.
 * @param[in] json The text (need not be NUL-terminated; NULL when len is 0).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL: `offset` is the byte
 *             where the value went wrong (len when the text ended inside
 *             it), the message the reason alone (`"raw NUL byte outside a string"`).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL end, NULL json with a
 *         non-zero length), ::VELSTATUS_E_PARSE or ::VELSTATUS_E_RANGE (a
 *         number no int64 or double holds).
 */
VELSTATUS_API velstatus_status velstatus_json_value_end(size_t *end, int *incomplete, const char *json, size_t len,
                                                        velstatus_error *err);

/** @brief The type of a watch event. Tokens: Kubernetes' own, and `OBJECT`. */
typedef enum velstatus_watch_type {
    VELSTATUS_WATCH_INVALID = -1, /**< Not a type (velstatus_watch_type_to_string() gives NULL). */
    VELSTATUS_WATCH_OBJECT =
        0, /**< `OBJECT`: no `type` member: a bare object (kubectl without --output-watch-events). */
    VELSTATUS_WATCH_ADDED = 1,    /**< `ADDED`. */
    VELSTATUS_WATCH_MODIFIED = 2, /**< `MODIFIED`. */
    VELSTATUS_WATCH_DELETED = 3,  /**< `DELETED`: the object is its last state. */
    VELSTATUS_WATCH_BOOKMARK = 4, /**< `BOOKMARK`: only a resourceVersion; nothing changed. */
    /** `ERROR`: the object is a metav1.Status (velstatus_watch_event_reason());
     *  also a bare object of `kind` `Status`. The watch is over: list again. */
    VELSTATUS_WATCH_ERROR = 5
} velstatus_watch_type;

/**
 * @brief The token of a watch type.
 * @param[in] type The type.
 * @return `OBJECT`, `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`, or NULL outside the enum.
 */
VELSTATUS_API const char *velstatus_watch_type_to_string(velstatus_watch_type type);

/**
 * @brief Parses a watch type token (exact, case-sensitive).
 * @param[out] out Receives the type (untouched on failure).
 * @param[in] s The token.
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK or ::VELSTATUS_E_INVALID.
 */
VELSTATUS_API velstatus_status velstatus_watch_type_from_string(velstatus_watch_type *out, const char *s, size_t len,
                                                                velstatus_error *err);

/** @brief One decoded watch event (opaque). */
typedef struct velstatus_watch_event velstatus_watch_event;

/**
 * @brief Decodes one watch event: an object with `type` (`ADDED`,
 * `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`) and `object` (an object),
 * or, without `type`, a bare object (::VELSTATUS_WATCH_OBJECT, or
 * ::VELSTATUS_WATCH_ERROR when its `kind` is `Status`). Of an ERROR's
 * Status, `reason`, `message` (strings) and `code` (an integer) are read.
 * @param[out] out Receives the event (NULL on failure).
 * @param[in] ctx The context whose allocator the event uses.
 * @param[in] json The text of one object (need not be NUL-terminated).
 * @param[in] len Its length, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL (with the position).
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, NULL json
 *         with a non-zero length), ::VELSTATUS_E_PARSE, ::VELSTATUS_E_RANGE,
 *         ::VELSTATUS_E_SCHEMA (not an object, an unknown `type`, an event
 *         without an `object` object, a Status field of the wrong type) or
 *         ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_watch_event_free().
 */
VELSTATUS_API velstatus_status velstatus_watch_event_from_json(velstatus_watch_event **out, velstatus_ctx *ctx,
                                                               const char *json, size_t len, velstatus_error *err);

/**
 * @brief Releases an event.
 * @param[in] event The event, or NULL.
 */
VELSTATUS_API void velstatus_watch_event_free(velstatus_watch_event *event);

/**
 * @brief The event's type.
 * @param[in] event The event.
 * @return The type; ::VELSTATUS_WATCH_INVALID for NULL.
 */
VELSTATUS_API velstatus_watch_type velstatus_watch_event_type(const velstatus_watch_event *event);

/**
 * @brief Where the event's object is in the decoded text: the `object`
 * member's value, or the whole value for a bare object. Hand
 * json[offset..offset+len) to velstatus_bsl_set_from_json() or
 * velstatus_backup_list_from_json().
 * @param[in] event The event.
 * @param[out] offset Receives the object's first byte (0 for NULL). May be NULL.
 * @return The object's length in bytes (0 for NULL).
 */
VELSTATUS_API size_t velstatus_watch_event_object(const velstatus_watch_event *event, size_t *offset);

/**
 * @brief An ERROR event's Status `reason` (`Expired`, `Gone`, ...).
 * @param[in] event The event.
 * @param[out] len Receives its length (0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or not an ERROR.
 * @borrowed Valid until the event is freed.
 */
VELSTATUS_API const char *velstatus_watch_event_reason(const velstatus_watch_event *event, size_t *len);

/**
 * @brief An ERROR event's Status `message`.
 * @param[in] event The event.
 * @param[out] len Receives its length (the text may hold a NUL byte; 0 when absent). May be NULL.
 * @return The NUL-terminated text, or NULL when absent or not an ERROR.
 * @borrowed Valid until the event is freed.
 */
VELSTATUS_API const char *velstatus_watch_event_message(const velstatus_watch_event *event, size_t *len);

/**
 * @brief An ERROR event's Status `code` (410 for an expired resourceVersion).
 * @param[in] event The event.
 * @param[out] code Receives it (0 when absent). May be NULL.
 * @return 1 when present, else 0.
 */
VELSTATUS_API int velstatus_watch_event_code(const velstatus_watch_event *event, int64_t *code);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_WATCH_H */
