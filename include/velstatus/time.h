/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/time.h
 * @brief RFC 3339 timestamps and Go duration strings, by pure arithmetic.
 *
 * Instants are `int64_t` nanoseconds since 1970-01-01T00:00:00Z (UTC), which
 * covers 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z:
 * velstatus_time_parse() reports input outside that range as
 * ::VELSTATUS_E_RANGE, never wrapped. Go's own range, every year 0000 to 9999
 * (Go's zero `time.Time` is 0001-01-01T00:00:00Z), is read and written
 * exactly by the `_sec` twins, velstatus_time_parse_sec() and
 * velstatus_time_format_sec(), as whole seconds since the epoch plus
 * nanoseconds. Durations are `int64_t` nanoseconds, as Go's
 * `time.Duration`. No libc time, locale or TZ function is used: output is
 * the same on every host.
 *
 * "As Go does" means Go 1.20 and later (what Velero is built with). Text
 * arguments are `(s, len)` spans: `s` need not be NUL-terminated, nothing
 * past `len` is read, and `(NULL, 0)` is the empty text (a parse error, not
 * a NULL-pointer error). Error messages quote the input as Go's time package
 * does (double quote and backslash escaped, control and non-ASCII bytes as
 * hex escapes), cut after 64 bytes with `...` after the closing quote.
 *
 * Formatters write into a caller buffer. When it is too small they return
 * ::VELSTATUS_E_RANGE and leave an empty string in it (if cap > 0) rather
 * than a truncated timestamp that could be mistaken for a real one.
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
    VELSTATUS_TIME_BUFSIZE = 40,    /**< For velstatus_time_format() and velstatus_time_format_go(). */
    VELSTATUS_DURATION_BUFSIZE = 32 /**< For velstatus_duration_format(). */
};

/**
 * @brief Parses an RFC 3339 timestamp into nanoseconds since the epoch.
 *
 * Accepts `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` exactly as Go's
 * `time.Parse(time.RFC3339, s)` does, which is how `metav1.Time` (every
 * time in Velero's files) reads: `T`/`Z` upper case; a 4-digit year 0000 to
 * 9999; a calendar-checked day (leap years included, year 0 is one); hour
 * < 24, minute and second < 60 (no leap second, no 24:00); seconds
 * required. Go's laxities are kept, so that whatever Velero accepts is
 * accepted here too:
 * - the hour may have one digit (`2024-05-01T1:00:00Z`);
 * - the fraction separator may be `,` as well as `.`, and the fraction may
 *   have any number of digits (those past the ninth are truncated);
 * - offsets are range-checked with `>`: `+24:00` and `+00:60` are accepted
 *   (`+25:00`, `+00:61` are not), as Go 1.20 and later check them.
 *
 * `tests/data/time/go-rfc3339.json` holds what Go does with the edge cases
 * (made by `scripts/time-vectors.go`); the tests check both parsers against
 * it.
 *
 * On ::VELSTATUS_E_PARSE, `err->offset` is the 0-based byte position of the
 * problem, `err->line` is 1 and `err->column` is offset + 1; the message
 * quotes the input and says what was expected (the position is in those
 * fields, not in the message). A date that
 * does not exist (2023-02-29) is a parse error; a real instant outside the
 * int64 range is ::VELSTATUS_E_RANGE, with one exception that saturates:
 * the earliest second written whole, `1677-09-21T00:12:43Z` (with no
 * fraction, or a zero one, at any offset), reads as INT64_MIN, the first
 * instant of that second that int64 holds. velstatus_time_format() floors
 * to the second, so it writes that text for every instant from INT64_MIN to
 * 0.145 s later; without the exception the library would write a time it
 * cannot read back. *out_ns is written only on success.
 * @param[out] out_ns The instant, in nanoseconds since the epoch (UTC).
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length in bytes.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL pointer),
 *         ::VELSTATUS_E_PARSE (not RFC 3339; `err->offset` gives the byte)
 *         or ::VELSTATUS_E_RANGE (outside the int64 range).
 */
VELSTATUS_API velstatus_status velstatus_time_parse(int64_t *out_ns, const char *s, size_t len, velstatus_error *err);

/**
 * @brief Formats an instant as RFC 3339 in UTC, as Go's `time.RFC3339Nano`
 * does (`2024-05-01T10:00:00.5Z`: trailing zeros of the fraction dropped).
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_TIME_BUFSIZE always suffices.
 * @param[in] ns The instant.
 * @param[in] fraction 0 to print whole seconds (`time.RFC3339`, as
 *            `metav1.Time` marshals: the fraction is dropped, i.e. the instant
 *            is floored to its second, also before 1970), non-zero for
 *            `time.RFC3339Nano`.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (buf NULL) or
 *         ::VELSTATUS_E_RANGE (cap too small).
 */
VELSTATUS_API velstatus_status velstatus_time_format(char *buf, size_t cap, int64_t ns, int fraction,
                                                     velstatus_error *err);

/**
 * @brief Parses an RFC 3339 timestamp exactly, over Go's whole range.
 *
 * Accepts exactly what velstatus_time_parse() accepts (Go's
 * `time.Parse(time.RFC3339, s)`), with no range error: every 4-digit year
 * at every offset is an instant here, from `0000-01-01T00:00:00+24:60`
 * (year -1 in UTC) to `9999-12-31T23:59:59.999999999-24:60` (year 10000).
 * Go's zero `time.Time`, `0001-01-01T00:00:00Z`, is
 * `*out_sec == -62135596800, *out_nsec == 0`. Errors are those of
 * velstatus_time_parse() (E_PARSE with the byte offset, E_INVALID for a
 * NULL output). Outputs are written only on success.
 * @param[out] out_sec Whole seconds since 1970-01-01T00:00:00Z (floored).
 * @param[out] out_nsec Nanoseconds past that second, 0 to 999999999.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length in bytes, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_PARSE.
 */
VELSTATUS_API velstatus_status velstatus_time_parse_sec(int64_t *out_sec, int32_t *out_nsec, const char *s, size_t len,
                                                        velstatus_error *err);

/**
 * @brief Parses a time as Go's `time.Time.String()` prints it, which is how
 * `velero backup describe` and `velero backup-location get` print times:
 * `2023-11-10 16:40:35 +0100 CET`, exactly, over Go's whole range.
 *
 * The form is `YYYY-MM-DD hh:mm:ss[.fraction] +hhmm[ ABBR][ m=±S.F]`: the
 * date and clock as velstatus_time_parse_sec() reads them (a calendar-checked
 * day, two-digit hour) with a space for the `T`; the fraction as Go prints
 * it (any number of digits, those past the ninth truncated); then the
 * numeric offset, which decides the instant. The zone's abbreviation
 * (`CET`, `IST`, `-03`: any printable text without a space) is ignored, as
 * is the monotonic clock reading Go appends to a time taken from the clock.
 * So `2023-11-10 16:40:35 +0100 CET` and `2023-11-10 15:40:35 +0000 UTC`
 * are the same instant, `1699630835` seconds.
 *
 * On ::VELSTATUS_E_PARSE, `err->offset` is the 0-based byte of the problem
 * (`err->line` 1, `err->column` offset + 1) and the message quotes the input
 * and says what was expected. Outputs are written only on success. Nothing
 * is allocated.
 * @param[out] out_sec Whole seconds since 1970-01-01T00:00:00Z (floored).
 * @param[out] out_nsec Nanoseconds past that second, 0 to 999999999.
 * @param[in] s The text (need not be NUL-terminated).
 * @param[in] len Its length in bytes, or #VELSTATUS_NUL_TERMINATED.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (a NULL output, or s NULL
 *         with a non-zero len) or ::VELSTATUS_E_PARSE.
 */
VELSTATUS_API velstatus_status velstatus_time_parse_go_string(int64_t *out_sec, int32_t *out_nsec, const char *s,
                                                              size_t len, velstatus_error *err);

/**
 * @brief Formats an exact instant as RFC 3339 in UTC, as Go's
 * `t.UTC().Format(time.RFC3339[Nano])` does.
 *
 * The same text as velstatus_time_format() over the int64 range, and Go's
 * beyond it: the year has at least four digits, a `-` before a negative one
 * and more digits past 9999, so year -1 is `-0001-12-31T23:59:00Z` and year
 * 10000 `10000-01-01T00:00:59Z` (what `metav1.Time` writes for them, though
 * Go cannot read either back). Every `int64_t` second fits
 * #VELSTATUS_TIME_BUFSIZE.
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_TIME_BUFSIZE always suffices.
 * @param[in] sec Whole seconds since the epoch.
 * @param[in] nsec Nanoseconds past it, 0 to 999999999.
 * @param[in] fraction 0 for whole seconds (`time.RFC3339`, as `metav1.Time`
 *            marshals), non-zero for `time.RFC3339Nano`.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (buf NULL, nsec outside
 *         its range) or ::VELSTATUS_E_RANGE (cap too small).
 */
VELSTATUS_API velstatus_status velstatus_time_format_sec(char *buf, size_t cap, int64_t sec, int32_t nsec, int fraction,
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
VELSTATUS_API velstatus_status velstatus_time_format_go(char *buf, size_t cap, int64_t ns, velstatus_error *err);

/**
 * @brief Parses a Go duration string (`4h0m0s`, `1h30m`, `10ms`, `1.5s`,
 * `-2m`, `300us`, `0`) exactly as Go's `time.ParseDuration` does.
 *
 * Units `ns`, `us`, micro sign + `s` (U+00B5 or U+03BC), `ms`, `s`, `m`, `h`; an
 * optional sign; a bare `0` needs no unit. Fractions (`1.5h`) are scaled the
 * way Go does it, in IEEE double arithmetic, then truncated, so the result
 * is bit-identical to Go's. Error messages are Go's text:
 * `time: invalid duration "..."`, `time: missing unit in duration "..."`,
 * `time: unknown unit "x" in duration "..."`. Overflow keeps Go's
 * `invalid duration` text but returns ::VELSTATUS_E_RANGE; `-2562047h47m16.854775808s`
 * (the int64 minimum) is accepted.
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
 * (`4h0m0s`, `1.5s`, `10ms`, `0s`, `-2m0s`; microseconds with the U+00B5
 * micro sign in UTF-8, as Go prints them; the int64 minimum as
 * `-2562047h47m16.854775808s`).
 * @param[out] buf Receives the NUL-terminated text.
 * @param[in] cap Size of buf; #VELSTATUS_DURATION_BUFSIZE always suffices.
 * @param[in] ns The duration.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID or ::VELSTATUS_E_RANGE (cap).
 */
VELSTATUS_API velstatus_status velstatus_duration_format(char *buf, size_t cap, int64_t ns, velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_TIME_H */
