// SPDX-License-Identifier: Apache-2.0

// Command time-vectors prints what Go itself does with RFC 3339 timestamps
// at the edges, as Velero reads and writes them: k8s.io/apimachinery's
// metav1.Time.UnmarshalJSON reads a JSON string with
// time.Parse(time.RFC3339, s) and keeps t.Local(); MarshalJSON writes the
// zero time as null and any other as t.UTC().Format(time.RFC3339) in
// quotes (pkg/apis/meta/v1/time.go). Both are copied below with the
// standard library only, so the program needs no module download.
//
// Regenerate tests/data/time/go-rfc3339.json with
//
//	go run scripts/time-vectors.go > tests/data/time/go-rfc3339.json
//
// Every input is one on which Go 1.19 (Debian 12's golang-go) and Go 1.20
// and later agree: Go 1.20's fast path for the RFC3339 layouts accepts a
// subset of what the general parser accepts and returns the same instant.
// Offsets past +24:60 are left out: Go 1.19 reads any two digits there,
// Go 1.20 and later (what Velero is built with) reject an hour above 24 or
// a minute above 60, as the library does (tests/check_time.c tests those).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

var inputs = []string{
	// the range: year 0 to 9999, Go's zero time, the int64 nanosecond edges
	"0000-01-01T00:00:00Z",
	"0000-02-29T00:00:00Z",
	"0000-12-31T23:59:59Z",
	"0001-01-01T00:00:00Z",
	"0001-01-01T00:00:00.000000001Z",
	"0001-01-01T00:00:00.5Z",
	"0001-01-01T01:00:00+01:00",
	"0000-12-31T23:00:00-01:00",
	"0001-01-01T00:00:01Z",
	"1677-09-21T00:12:43Z",
	"1677-09-21T00:12:43.145224191Z",
	"1677-09-21T00:12:43.145224192Z",
	"1677-09-21T00:12:44Z",
	"1969-12-31T23:59:59.5Z",
	"1970-01-01T00:00:00Z",
	"2024-05-01T10:00:00Z",
	"2262-04-11T23:47:16Z",
	"2262-04-11T23:47:16.854775807Z",
	"2262-04-11T23:47:16.854775808Z",
	"2262-04-11T23:47:17Z",
	"9999-12-31T23:59:59Z",
	"9999-12-31T23:59:59.999999999Z",
	// offsets that leave the 4-digit years in UTC (Go writes them anyway)
	"0000-01-01T00:00:00+00:01",
	"0000-01-01T00:00:00+23:59",
	"0000-01-01T00:00:00+24:00",
	"0000-01-01T00:00:00+24:60",
	"9999-12-31T23:59:59-00:01",
	"9999-12-31T23:59:59-23:59",
	"9999-12-31T23:59:59-24:60",
	// offsets
	"2024-05-01T10:00:00+02:00",
	"2024-05-01T10:00:00-07:30",
	"2024-05-01T10:00:00+00:00",
	"2024-05-01T10:00:00-00:00",
	"2024-05-01T10:00:00+00:60",
	"2024-05-01T10:00:00+0200",
	"2024-05-01T10:00:00+02",
	"2024-05-01T10:00:00+2:00",
	"2024-05-01T10:00:00UTC",
	// fractions
	"2024-05-01T10:00:00.5Z",
	"2024-05-01T10:00:00,5Z",
	"2024-05-01T10:00:00.123456789Z",
	"2024-05-01T10:00:00.1234567891Z",
	"2024-05-01T10:00:00.123456789123456789Z",
	"2024-05-01T10:00:00,1234567891Z",
	"2024-05-01T10:00:00.000000000000Z",
	"2024-05-01T10:00:00.Z",
	"2024-05-01T10:00:00.5",
	"1969-12-31T23:59:59.999999999999Z",
	// the hour
	"2024-05-01T1:00:00Z",
	"2024-05-01T1:00:00.1234567891Z",
	"2024-05-01T1:00:00,5+24:00",
	"2024-05-01T24:00:00Z",
	"2024-05-01T23:60:00Z",
	"2024-05-01T23:59:60Z",
	"2024-05-01T001:00:00Z",
	// the calendar
	"2024-02-29T00:00:00Z",
	"2023-02-29T00:00:00Z",
	"2024-02-30T00:00:00Z",
	"2024-04-31T00:00:00Z",
	"1900-02-29T00:00:00Z",
	"2000-02-29T00:00:00Z",
	"2024-00-01T00:00:00Z",
	"2024-13-01T00:00:00Z",
	"2024-05-00T00:00:00Z",
	"2024-05-32T00:00:00Z",
	"2024-5-01T00:00:00Z",
	"2024-05-1T00:00:00Z",
	// what Go rejects
	"",
	"0",
	"2024",
	"2024-05-01",
	"2024-05-01T10:00Z",
	"2024-05-01T10:00:00",
	"2024-05-01t10:00:00Z",
	"2024-05-01T10:00:00z",
	"2024-05-01 10:00:00Z",
	"2024-05-01T10:00:00ZZ",
	" 2024-05-01T10:00:00Z",
	"2024-05-01T10:00:00Z ",
	"10000-01-01T00:00:00Z",
	"-001-01-01T00:00:00Z",
	"+001-01-01T00:00:00Z",
	"-0001-01-01T00:00:00Z",
	"02024-05-01T10:00:00Z",
}

// decisions are the (now, timeout) pairs, in nanoseconds, at which each
// accepted time is tried as an operation's created: Velero's
// "operation.Status.Created.Time.Add(timeout).Before(time.Now())"
// (pkg/controller/backup_operations_controller.go and
// restore_operations_controller.go). now is an int64 nanosecond instant,
// as the library takes it.
var decisions = [][2]int64{
	{1714557600000000000, 4 * 3600 * 1000000000}, // 2024-05-01T10:00:00Z, the default 4h
	{-1 << 63, 3600 * 1000000000},                // 1677-09-21T00:12:43.145224192Z, 1h
	{-1 << 63, 1<<63 - 1},                        // the longest timeout from the earliest now
	{0, 1<<63 - 1},
	{0, 0},
	{1<<63 - 1, -1 << 63},
	{1<<63 - 1, 0},
	{1<<63 - 1, 1},
}

type vector struct {
	In       string `json:"in"`
	OK       bool   `json:"ok"`
	Sec      int64  `json:"sec,omitempty"`
	Nsec     int32  `json:"nsec,omitempty"`
	Zero     bool   `json:"zero,omitempty"`
	Out      string `json:"out,omitempty"`
	NanoUT   string `json:"rfc3339nano,omitempty"`
	TimedOut []bool `json:"timed_out,omitempty"`
	// The same decisions on the instant's whole second, for a time with a
	// fraction outside the int64 nanosecond range: the library keeps only
	// the whole second of such a time (all that metav1.Time writes).
	WholeTimedOut []bool `json:"whole_second_timed_out,omitempty"`
}

var (
	minNs = time.Unix(0, -1<<63)
	maxNs = time.Unix(0, 1<<63-1)
)

func timedOut(t time.Time) []bool {
	var r []bool
	for _, d := range decisions {
		r = append(r, t.Add(time.Duration(d[1])).Before(time.Unix(0, d[0])))
	}
	return r
}

// marshal is metav1.Time.MarshalJSON.
func marshal(t time.Time) string {
	if t.IsZero() {
		return "null"
	}
	return `"` + t.UTC().Format(time.RFC3339) + `"`
}

func main() {
	out := make([]vector, 0, len(inputs))
	for _, s := range inputs {
		v := vector{In: s}
		t, err := time.Parse(time.RFC3339, s)
		if err == nil {
			t = t.Local() // metav1.Time.UnmarshalJSON
			v.OK = true
			v.Sec, v.Nsec = t.Unix(), int32(t.Nanosecond())
			v.Zero = t.IsZero()
			v.Out = marshal(t)
			v.NanoUT = t.UTC().Format(time.RFC3339Nano)
			v.TimedOut = timedOut(t)
			if (t.Before(minNs) || t.After(maxNs)) && t.Nanosecond() != 0 {
				v.WholeTimedOut = timedOut(t.Truncate(time.Second))
			}
		}
		out = append(out, v)
	}
	var b strings.Builder
	dj, err := json.Marshal(decisions)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b.WriteString("{\"decisions\": ")
	b.Write(dj)
	b.WriteString(",\n\"vectors\": [\n")
	for i, v := range out {
		line, err := json.Marshal(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b.Write(line)
		if i+1 < len(out) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	os.Stdout.WriteString(b.String())
}
