// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdint.h>
#include <stdlib.h>
#include <velstatus.h>
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// ForecastFate is what the timeline says becomes of one operation
// (velstatus_forecast_fate).
type ForecastFate int

// The fates, with the values of the C enum.
const (
	FateInvalid        ForecastFate = C.VELSTATUS_FORECAST_FATE_INVALID // never an operation's: the C getter's answer for NULL
	FateSettled        ForecastFate = C.VELSTATUS_FORECAST_FATE_SETTLED
	FateTimesOut       ForecastFate = C.VELSTATUS_FORECAST_FATE_TIMES_OUT
	FateErrorFails     ForecastFate = C.VELSTATUS_FORECAST_FATE_ERROR_FAILS
	FateUnknownFails   ForecastFate = C.VELSTATUS_FORECAST_FATE_UNKNOWN_FAILS
	FateUnknownSkipped ForecastFate = C.VELSTATUS_FORECAST_FATE_UNKNOWN_SKIPPED
	FateNoCreated      ForecastFate = C.VELSTATUS_FORECAST_FATE_NO_CREATED
	FateNoTimeout      ForecastFate = C.VELSTATUS_FORECAST_FATE_NO_TIMEOUT
	FateNotReached     ForecastFate = C.VELSTATUS_FORECAST_FATE_NOT_REACHED
)

// String returns the C token ("times_out"; velstatus_forecast_fate_to_string).
func (f ForecastFate) String() string {
	return enumString(C.velstatus_forecast_fate_to_string(C.velstatus_forecast_fate(f)), "ForecastFate", int(f))
}

// ForecastETA is how an operation's estimated finish compares with its
// deadline (velstatus_forecast_eta).
type ForecastETA int

// The comparisons, with the values of the C enum.
const (
	ETAInvalid    ForecastETA = C.VELSTATUS_FORECAST_ETA_INVALID // the C getter's answer for NULL
	ETAUnknown    ForecastETA = C.VELSTATUS_FORECAST_ETA_UNKNOWN
	ETABefore     ForecastETA = C.VELSTATUS_FORECAST_ETA_BEFORE
	ETAAfter      ForecastETA = C.VELSTATUS_FORECAST_ETA_AFTER
	ETANoDeadline ForecastETA = C.VELSTATUS_FORECAST_ETA_NO_DEADLINE
)

// String returns the C token ("after"; velstatus_forecast_eta_to_string).
func (e ForecastETA) String() string {
	return enumString(C.velstatus_forecast_eta_to_string(C.velstatus_forecast_eta(e)), "ForecastETA", int(e))
}

// ForecastEnd is how the timeline ends (velstatus_forecast_end).
type ForecastEnd int

// The ends, with the values of the C enum.
const (
	EndInvalid ForecastEnd = C.VELSTATUS_FORECAST_END_INVALID // the C getter's answer for NULL
	EndFinal   ForecastEnd = C.VELSTATUS_FORECAST_END_FINAL   // it leaves the Waiting phases
	EndStalled ForecastEnd = C.VELSTATUS_FORECAST_END_STALLED // operations keep running with no deadline
)

// String returns "final" or "stalled" (velstatus_forecast_end_to_string).
func (e ForecastEnd) String() string {
	return enumString(C.velstatus_forecast_end_to_string(C.velstatus_forecast_end(e)), "ForecastEnd", int(e))
}

// ForecastEvent is one instant at which a pass decides something: the
// earliest such instant and the result of the pass at it.
type ForecastEvent struct {
	At     time.Time
	Result ReconcileResult
}

// ForecastOp is what the forecast says of one operation.
type ForecastOp struct {
	Index    int          // the record's index
	Fate     ForecastFate // what becomes of it
	Event    int          // the index in Forecast.Events of the pass that fails it, or -1
	Deadline time.Time    // created + timeout (zero when it has none): the first pass after it fails it
	Finish   time.Time    // its estimated finish at the current rate (zero when unknown)
	ETA      ForecastETA  // Finish against Deadline
}

// Forecast is the timeline of an operation list from a Waiting phase
// (velstatus_forecast_new; doc/explain.md), if every plugin keeps reporting
// the progress its record holds.
type Forecast struct {
	Phase      Phase           // the phase it starts from
	FinalPhase Phase           // the phase after the last event
	End        ForecastEnd     // how it ends
	Events     []ForecastEvent // in time order; Events[0] may be the next pass, at opts.Now
	Ops        []ForecastOp    // in list order
}

func forecastTime(ok C.int, ns C.int64_t) time.Time {
	if ok == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(ns)).UTC()
}

func forecastFromC(f *C.velstatus_forecast) Forecast {
	fc := Forecast{
		Phase:      Phase(C.velstatus_forecast_phase(f)),
		FinalPhase: Phase(C.velstatus_forecast_final_phase(f)),
		End:        ForecastEnd(C.velstatus_forecast_end_kind(f)),
		Events:     []ForecastEvent{},
		Ops:        []ForecastOp{},
	}
	for k, n := C.size_t(0), C.velstatus_forecast_event_count(f); k < n; k++ {
		var ns C.int64_t
		ok := C.velstatus_forecast_event_time(f, k, &ns)
		fc.Events = append(fc.Events, ForecastEvent{At: forecastTime(ok, ns),
			Result: reconcileResultFromC(C.velstatus_forecast_event_result(f, k))})
	}
	for i, n := C.size_t(0), C.velstatus_forecast_op_count(f); i < n; i++ {
		var d, fin C.int64_t
		okd := C.velstatus_forecast_op_deadline(f, i, &d)
		okf := C.velstatus_forecast_op_finish(f, i, &fin)
		op := ForecastOp{Index: int(i), Fate: ForecastFate(C.velstatus_forecast_op_fate(f, i)), Event: -1,
			Deadline: forecastTime(okd, d), Finish: forecastTime(okf, fin),
			ETA: ForecastETA(C.velstatus_forecast_op_eta(f, i))}
		if e := C.velstatus_forecast_op_event(f, i); e != C.SIZE_MAX {
			op.Event = int(e)
		}
		fc.Ops = append(fc.Ops, op)
	}
	return fc
}

// Forecast returns the timeline of the coming passes (velstatus_forecast_new):
// opts are the inputs of the next pass, as for Reconcile; every plugin is
// assumed to keep reporting the progress its record holds. The list is not
// modified. It calls no Go code and never blocks, so it takes no context.
func (ol *OpList) Forecast(opts ReconcileOptions) (Forecast, error) {
	var fc Forecast
	co, err := opts.toC()
	if err != nil {
		return fc, err
	}
	defer co.free()
	err = ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var out *C.velstatus_forecast
		var cerr C.velstatus_error
		if err := check(C.velstatus_forecast_new(&out, l, &co.c, co.policy, &cerr), &cerr); err != nil {
			return err
		}
		defer C.velstatus_forecast_free(out)
		fc = forecastFromC(out)
		return nil
	})
	return fc, err
}

// DmInstants returns the instants, ascending, at which the DataUploads or
// DataDownloads of the list's running operations change on their own
// (velstatus_forecast_dm_instants): a forecast over the operations and dms
// looks at these besides its own. veleroNamespace "" is "velero"; cfg may
// be nil.
func (ol *OpList) DmInstants(dms *DataMoverList, veleroNamespace string, now time.Time, major, minor int,
	cfg *DmConfig) ([]time.Time, error) {
	c, err := newDmCall(DmObject{}, now, cfg)
	if err != nil {
		return nil, err
	}
	defer c.free()
	a := dmArgs{nil, []byte(veleroNamespace)}
	var out []time.Time
	err = dms.with(func(_ *C.velstatus_ctx, dl *C.velstatus_dm_list) error {
		return ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
			capacity := 16*int(C.velstatus_oplist_count(l)) + 1
			p := (*C.int64_t)(C.calloc(C.size_t(capacity), C.size_t(unsafe.Sizeof(C.int64_t(0)))))
			defer C.free(unsafe.Pointer(p))
			var n C.size_t
			var cerr C.velstatus_error
			_, _, np, nn := a.c()
			st := C.velstatus_forecast_dm_instants(l, dl, np, nn, c.now, C.int(major), C.int(minor), c.cfg, p,
				C.size_t(capacity), &n, &cerr)
			runtime.KeepAlive(&a)
			if err := check(st, &cerr); err != nil {
				return err
			}
			for _, ns := range unsafe.Slice(p, int(n)) {
				out = append(out, time.Unix(0, int64(ns)).UTC())
			}
			return nil
		})
	})
	return out, err
}

// ForecastDataMover is Forecast over the operations and the objects
// Velero's own CSI plugins read (velstatus_forecast_new_dm): the
// operations of the CSI PVC plugins are answered from a copy of dms
// (DataUploads or DataDownloads) that the node-agent's decisions of Velero
// major.minor change, so an event can be an operation failing when the
// prepare timeout fails its DataUpload; those of the VolumeSnapshot plugin
// from snaps, which nothing changes (a ready snapshot completes at the
// next pass, a content with an error fails then); every other plugin keeps
// reporting what its record holds. dms or snaps may be nil, not both.
// veleroNamespace "" is "velero"; cfg may be nil. No list is modified.
func (ol *OpList) ForecastDataMover(dms *DataMoverList, snaps *SnapshotList, major, minor int, veleroNamespace string,
	cfg *DmConfig, opts ReconcileOptions) (Forecast, error) {
	var fc Forecast
	co, err := opts.toC()
	if err != nil {
		return fc, err
	}
	defer co.free()
	c, err := newDmCall(DmObject{}, time.Time{}, cfg)
	if err != nil {
		return fc, err
	}
	defer c.free()
	a := dmArgs{nil, []byte(veleroNamespace)}
	withDms := func(fn func(*C.velstatus_dm_list) error) error {
		if dms == nil {
			return fn(nil)
		}
		return dms.with(func(_ *C.velstatus_ctx, dl *C.velstatus_dm_list) error { return fn(dl) })
	}
	withSnaps := func(fn func(*C.velstatus_snapshot_list) error) error {
		if snaps == nil {
			return fn(nil)
		}
		return snaps.with(func(_ *C.velstatus_ctx, sl *C.velstatus_snapshot_list) error { return fn(sl) })
	}
	err = withDms(func(dl *C.velstatus_dm_list) error {
		return withSnaps(func(sl *C.velstatus_snapshot_list) error {
			return ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
				var out *C.velstatus_forecast
				var cerr C.velstatus_error
				_, _, np, nn := a.c()
				st := C.velstatus_forecast_new_dm(&out, l, &co.c, co.policy, dl, sl, np, nn, C.int(major), C.int(minor),
					c.cfg, &cerr)
				runtime.KeepAlive(&a)
				if err := check(st, &cerr); err != nil {
					return err
				}
				defer C.velstatus_forecast_free(out)
				fc = forecastFromC(out)
				return nil
			})
		})
	})
	return fc, err
}
