// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
*/
import "C"

import (
	"runtime"
	"time"
)

// ParseTime parses an RFC 3339 timestamp exactly as Go's
// time.Parse(time.RFC3339, s) accepts it, as metav1.Time reads every time
// in Velero's files (velstatus_time_parse_sec), and returns the instant in
// UTC, over Go's whole range: years 0000 to 9999 at any offset
// ("0001-01-01T00:00:00Z" is the zero time.Time). A parse error carries the
// byte offset.
func ParseTime(s string) (time.Time, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var sec C.int64_t
	var nsec C.int32_t
	var cerr C.velstatus_error
	st := C.velstatus_time_parse_sec(&sec, &nsec, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(sec), int64(nsec)).UTC(), nil
}

// ParseTimeGoString parses a time as Go's time.Time.String() prints it, as
// `velero describe` and `velero backup-location get` show times
// ("2023-11-10 16:40:35 +0100 CET"): the numeric offset decides, the zone's
// abbreviation and a monotonic " m=+..." suffix are ignored
// (velstatus_time_parse_go_string). The instant is returned in UTC.
func ParseTimeGoString(s string) (time.Time, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var sec C.int64_t
	var nsec C.int32_t
	var cerr C.velstatus_error
	st := C.velstatus_time_parse_go_string(&sec, &nsec, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(sec), int64(nsec)).UTC(), nil
}

// ParseTimeNanos is ParseTime returning nanoseconds since the epoch, the
// library's own representation: an instant outside 1677-2262 is ErrRange.
func ParseTimeNanos(s string) (int64, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.int64_t
	var cerr C.velstatus_error
	st := C.velstatus_time_parse(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return int64(out), nil
}

// FormatTime formats an instant in UTC as RFC 3339 (velstatus_time_format_sec),
// as t.UTC().Format does: whole seconds (time.RFC3339, the instant floored
// to its second, as metav1.Time writes) when fraction is false,
// time.RFC3339Nano when true. Every time.Time whose Unix seconds fit int64
// is formatted, years before 0000 and after 9999 as Go writes them.
func FormatTime(t time.Time, fraction bool) (string, error) {
	var buf [C.VELSTATUS_TIME_BUFSIZE]C.char
	var cerr C.velstatus_error
	st := C.velstatus_time_format_sec(&buf[0], C.size_t(len(buf)), C.int64_t(t.Unix()), C.int32_t(t.Nanosecond()),
		cbool(fraction), &cerr)
	if err := check(st, &cerr); err != nil {
		return "", err // cannot happen: the buffer fits every int64 second
	}
	return C.GoString(&buf[0]), nil
}

// FormatTimeNanos is FormatTime for nanoseconds since the epoch.
func FormatTimeNanos(ns int64, fraction bool) string {
	var buf [C.VELSTATUS_TIME_BUFSIZE]C.char
	var cerr C.velstatus_error
	if st := C.velstatus_time_format(&buf[0], C.size_t(len(buf)), C.int64_t(ns), cbool(fraction), &cerr); st != C.VELSTATUS_OK {
		panic(newError(st, &cerr)) // cannot happen: the buffer always suffices
	}
	return C.GoString(&buf[0])
}

// FormatTimeGo formats an instant as Go's time.Time.String() does in UTC
// (velstatus_time_format_go), e.g. "2023-06-24 00:00:00 +0000 UTC".
func FormatTimeGo(t time.Time) (string, error) {
	ns, err := unixNanos(t)
	if err != nil {
		return "", err
	}
	var buf [C.VELSTATUS_TIME_BUFSIZE]C.char
	var cerr C.velstatus_error
	if err := check(C.velstatus_time_format_go(&buf[0], C.size_t(len(buf)), C.int64_t(ns), &cerr), &cerr); err != nil {
		return "", err
	}
	return C.GoString(&buf[0]), nil
}

// ParseDuration parses a Go duration string exactly as time.ParseDuration
// does (velstatus_duration_parse); the error text is Go's.
func ParseDuration(s string) (time.Duration, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.int64_t
	var cerr C.velstatus_error
	st := C.velstatus_duration_parse(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return time.Duration(out), nil
}

// FormatDuration formats a duration exactly as time.Duration.String() does
// (velstatus_duration_format).
func FormatDuration(d time.Duration) string {
	var buf [C.VELSTATUS_DURATION_BUFSIZE]C.char
	var cerr C.velstatus_error
	if st := C.velstatus_duration_format(&buf[0], C.size_t(len(buf)), C.int64_t(d), &cerr); st != C.VELSTATUS_OK {
		panic(newError(st, &cerr)) // cannot happen: the buffer always suffices
	}
	return C.GoString(&buf[0])
}

// minTime and maxTime bound the int64 nanosecond range.
var (
	minTime = time.Unix(0, -1<<63)
	maxTime = time.Unix(0, 1<<63-1)
)

// unixNanos converts t to nanoseconds since the epoch, or ErrRange.
func unixNanos(t time.Time) (int64, error) {
	if t.Before(minTime) || t.After(maxTime) {
		return 0, &Error{Code: StatusRange, Message: "time " + t.String() + " is outside the int64 nanosecond range"}
	}
	return t.UnixNano(), nil
}
