/**
 * @file velstatus/time.h
 * @brief RFC 3339 timestamps and Go duration strings, by pure arithmetic.
 *
 * Instants are `int64_t` nanoseconds since 1970-01-01T00:00:00Z (UTC), which
 * covers 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z.
 * Input outside that range is ::VELSTATUS_E_RANGE, never wrapped. Durations
 * are `int64_t` nanoseconds, as Go's `time.Duration`. No libc time, locale or
 * TZ function is used: output is the same on every host.
 *
 * @defgroup time Time and durations
 * @{
 */
#ifndef VELSTATUS_TIME_H
#define VELSTATUS_TIME_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief Buffer sizes (including the NUL) that always fit the formatters' output. */
enum {
    VELSTATUS_TIME_BUFSIZE = 40,     /**< For velstatus_time_format() and velstatus_time_format_go(). */
    VELSTATUS_DURATION_BUFSIZE = 32  /**< For velstatus_duration_format(). */
};

/**
 * @brief Parses an RFC 3339 timestamp into nanoseconds since the epoch.
 *
 * Accepts `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` as Go's
 * `time.RFC3339Nano` parser does: `T`/`Z` upper case, 1 to 9 fraction digits,
 * calendar-checked day (leap years included), hour < 24, minute and second < 60.
 * @param[out] out_ns The instant, in nanoseconds since the epoch (UTC).
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length in bytes.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer),
 *         ::VELSTATUS_E_PARSE (not RFC 3339; the message gives the byte
 *         position) or ::VELSTATUS_E_RANGE (outside the int64 range).
 */
VELSTATUS_API velstatus_status velstatus_time_parse(int64_t *out_ns, const char *s, size_t len,
                                                    velstatus_error *err);

/**
 * @brief Formats an instant as RFC 3339 in UTC, as Go's `time.RFC3339Nano`
 * does (`2024-05-01T10:00:00.5Z`: trailing zeros of the fraction dropped).
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_TIME_BUFSIZE always suffices.
 * @param[in] ns The instant.
 * @param[in] fraction 0 to print whole seconds (truncated, as `metav1.Time`
 *            does), non-zero for RFC3339Nano.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (buf NULL) or
 *         ::VELSTATUS_E_RANGE (cap too small).
 */
VELSTATUS_API velstatus_status velstatus_time_format(char *buf, size_t cap, int64_t ns, int fraction,
                                                     velstatus_error *err);

/**
 * @brief Formats an instant as Go's `time.Time.String()` does in UTC, e.g.
 * `2023-06-24 00:00:00 +0000 UTC` (fraction printed only when non-zero,
 * trailing zeros dropped).
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_TIME_BUFSIZE always suffices.
 * @param[in] ns The instant.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_RANGE (cap).
 */
VELSTATUS_API velstatus_status velstatus_time_format_go(char *buf, size_t cap, int64_t ns,
                                                        velstatus_error *err);

/**
 * @brief Parses a Go duration string (`4h0m0s`, `1h30m`, `10ms`, `1.5s`,
 * `-2m`, `300us`, `0`) exactly as Go's `time.ParseDuration` does.
 * @param[out] out_ns The duration in nanoseconds.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length in bytes.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID, ::VELSTATUS_E_PARSE (the
 *         message quotes the input as Go does) or ::VELSTATUS_E_RANGE (overflow).
 */
VELSTATUS_API velstatus_status velstatus_duration_parse(int64_t *out_ns, const char *s, size_t len,
                                                        velstatus_error *err);

/**
 * @brief Formats a duration exactly as Go's `time.Duration.String()` does
 * (`4h0m0s`, `1.5s`, `10ms`, `0s`, `-2m0s`).
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_DURATION_BUFSIZE always suffices.
 * @param[in] ns The duration.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_RANGE (cap).
 */
VELSTATUS_API velstatus_status velstatus_duration_format(char *buf, size_t cap, int64_t ns,
                                                         velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_TIME_H */
