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
// time.Parse(time.RFC3339Nano, s) accepts it (velstatus_time_parse) and
// returns the instant in UTC. A parse error carries the byte offset.
func ParseTime(s string) (time.Time, error) {
	ns, err := ParseTimeNanos(s)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, ns).UTC(), nil
}

// ParseTimeNanos is ParseTime returning nanoseconds since the epoch, the
// library's own representation.
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

// FormatTime formats an instant in UTC as RFC 3339 (velstatus_time_format):
// whole seconds (time.RFC3339, the instant floored to its second) when
// fraction is false, time.RFC3339Nano when true. An instant outside the
// int64 nanosecond range is ErrRange.
func FormatTime(t time.Time, fraction bool) (string, error) {
	ns, err := unixNanos(t)
	if err != nil {
		return "", err
	}
	return FormatTimeNanos(ns, fraction), nil
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
