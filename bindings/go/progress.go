// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
*/
import "C"

import (
	"time"
)

// ProgressFlag is a flag of a progress report or unit group
// (velstatus_progress_flag); progress.h defines each.
type ProgressFlag uint32

// The progress flags, with the values of the C enum.
const (
	ProgressUnknownPhase ProgressFlag = C.VELSTATUS_PROGRESS_F_UNKNOWN_PHASE
	ProgressOverTotal    ProgressFlag = C.VELSTATUS_PROGRESS_F_OVER_TOTAL
	ProgressNegative     ProgressFlag = C.VELSTATUS_PROGRESS_F_NEGATIVE
	ProgressSaturated    ProgressFlag = C.VELSTATUS_PROGRESS_F_SATURATED
	ProgressUntimed      ProgressFlag = C.VELSTATUS_PROGRESS_F_UNTIMED
)

// String returns the flag's token (velstatus_progress_flag_to_string, e.g.
// "over_total"); a combination joins its flags' tokens with "|".
func (f ProgressFlag) String() string {
	return flagString(uint32(f), "ProgressFlag", func(bit uint32) *C.char {
		return C.velstatus_progress_flag_to_string(C.velstatus_progress_flag(bit))
	})
}

// UnitProgress is the aggregate of one unit group (one operationUnits string).
type UnitProgress struct {
	Unit       string        // the operationUnits string, e.g. "Bytes"
	Operations int           // records in the group
	Completed  int64         // sum of nCompleted (clamped to int64)
	Total      int64         // sum of nTotal (clamped to int64)
	Percent    float64       // in [0, 100], rounded down to 0.01
	RateKnown  bool          // whether Rate is known
	Rate       float64       // units per second, rounded to 0.001
	ETAKnown   bool          // whether ETA is known
	ETA        time.Duration // estimated time to completion (whole seconds)
	Flags      ProgressFlag  // the group's flags
}

// Progress is an aggregated progress report over an operation list
// (velstatus_progress): counts by phase, and per unit group the sums,
// percent, rate and ETA, plus the one-line summary.
type Progress struct {
	Attempted    int // every record
	New          int // phase New
	InProgress   int // phase InProgress (Velero never prints this count)
	Completed    int // phase Completed
	Failed       int // phase Failed
	UnknownPhase int // empty or unknown phase
	Unquantified int // known phase and nTotal == 0
	Flags        ProgressFlag
	Units        []UnitProgress // sorted by unit string, byte-wise
	Summary      string         // velstatus_progress_summary
	JSON         []byte         // the report as the library encodes it (the CLI's -o json)
}

// Progress aggregates the list at the instant now (velstatus_progress_new).
func (ol *OpList) Progress(now time.Time) (Progress, error) {
	var out Progress
	nowNs, err := unixNanos(now)
	if err != nil {
		return out, err
	}
	err = ol.with(func(c *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var r *C.velstatus_progress
		var cerr C.velstatus_error
		if err := check(C.velstatus_progress_new(&r, c, l, C.int64_t(nowNs), &cerr), &cerr); err != nil {
			return err
		}
		defer C.velstatus_progress_free(r)
		count := func(w C.velstatus_progress_counter) int { return int(C.velstatus_progress_count(r, w)) }
		out = Progress{
			Attempted:    count(C.VELSTATUS_PROGRESS_ATTEMPTED),
			New:          count(C.VELSTATUS_PROGRESS_NEW),
			InProgress:   count(C.VELSTATUS_PROGRESS_IN_PROGRESS),
			Completed:    count(C.VELSTATUS_PROGRESS_COMPLETED),
			Failed:       count(C.VELSTATUS_PROGRESS_FAILED),
			UnknownPhase: count(C.VELSTATUS_PROGRESS_UNKNOWN_PHASE),
			Unquantified: count(C.VELSTATUS_PROGRESS_UNQUANTIFIED),
			Flags:        ProgressFlag(C.velstatus_progress_flags(r)),
			Units:        []UnitProgress{},
		}
		for i, n := C.size_t(0), C.velstatus_progress_unit_count(r); i < n; i++ {
			var l C.size_t
			u := UnitProgress{
				Unit:       gsn(C.velstatus_progress_unit_name(r, i, &l), l),
				Operations: int(C.velstatus_progress_unit_operations(r, i)),
				Completed:  int64(C.velstatus_progress_unit_completed(r, i)),
				Total:      int64(C.velstatus_progress_unit_total(r, i)),
				Percent:    float64(C.velstatus_progress_unit_percent(r, i)),
				Flags:      ProgressFlag(C.velstatus_progress_unit_flags(r, i)),
			}
			var rate C.double
			if C.velstatus_progress_unit_rate(r, i, &rate) != 0 {
				u.RateKnown, u.Rate = true, float64(rate)
			}
			var eta C.int64_t
			if C.velstatus_progress_unit_eta(r, i, &eta) != 0 {
				u.ETAKnown, u.ETA = true, time.Duration(eta)*time.Second
			}
			out.Units = append(out.Units, u)
		}
		var s *C.char
		var sn C.size_t
		if err := check(C.velstatus_progress_summary(&s, &sn, r, &cerr), &cerr); err != nil {
			return err
		}
		out.Summary = takeString(c, s, sn)
		var js *C.char
		var jn C.size_t
		if err := check(C.velstatus_progress_to_json(&js, &jn, r, &cerr), &cerr); err != nil {
			return err
		}
		out.JSON = []byte(takeString(c, js, jn))
		return nil
	})
	return out, err
}

// Describe renders the operations section of `velero backup describe` /
// `velero restore describe` byte for byte (velstatus_describe_operations):
// the summary line, or with details one block per record (times in UTC).
func (ol *OpList) Describe(details bool) (string, error) {
	var out string
	err := ol.with(func(c *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var s *C.char
		var n C.size_t
		var cerr C.velstatus_error
		if err := check(C.velstatus_describe_operations(&s, &n, c, l, cbool(details), &cerr), &cerr); err != nil {
			return err
		}
		out = takeString(c, s, n)
		return nil
	})
	return out, err
}
