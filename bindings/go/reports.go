// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
#include <velstatus/experimental.h>
*/
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// OpReports maps operation IDs to recorded plugin answers (the CLI's
// --progress file, velstatus_op_reports): a way to replay a pass without a
// plugin. It is safe for concurrent use; Close releases it.
//
// Experimental: it wraps the C library's experimental tier
// (velstatus/experimental.h), whose shape may change in a minor release.
type OpReports struct {
	ctx *Context
	r   *C.velstatus_op_reports
}

// DecodeOpReports decodes a reports file (velstatus_op_reports_from_json):
// an object from operation ID to a progress object, {"error": ...} or
// {"lookupError": ...}, each optionally with "cancelError".
func DecodeOpReports(data []byte) (*OpReports, error) {
	ctx, err := NewContext()
	if err != nil {
		return nil, err
	}
	rep := &OpReports{ctx: ctx}
	err = ctx.do(func(c *C.velstatus_ctx) error {
		var r *C.velstatus_op_reports
		var cerr C.velstatus_error
		p, n := cbuf(data)
		st := C.velstatus_op_reports_from_json(&r, c, p, n, &cerr)
		runtime.KeepAlive(data)
		if err := check(st, &cerr); err != nil {
			return err
		}
		rep.r = r
		return nil
	})
	if err != nil {
		ctx.Close()
		return nil, err
	}
	runtime.SetFinalizer(rep, (*OpReports).Close)
	return rep, nil
}

// Close releases the map (idempotent; a finalizer backs it up).
func (rep *OpReports) Close() error {
	_ = rep.ctx.do(func(*C.velstatus_ctx) error {
		C.velstatus_op_reports_free(rep.r)
		rep.r = nil
		return nil
	})
	runtime.SetFinalizer(rep, nil)
	return rep.ctx.Close()
}

func (rep *OpReports) with(fn func(r *C.velstatus_op_reports) error) error {
	err := rep.ctx.do(func(*C.velstatus_ctx) error {
		if rep.r == nil {
			return errClosed("velstatus.OpReports")
		}
		return fn(rep.r)
	})
	runtime.KeepAlive(rep)
	return err
}

// Get returns the answer recorded for an operation ID, in the form a
// PluginClient.Progress returns it: (progress, nil), (_, a Progress()
// error) or (_, *LookupError). ok is false when the ID is absent.
func (rep *OpReports) Get(id string) (p OpProgress, progressErr error, ok bool) {
	_ = rep.with(func(r *C.velstatus_op_reports) error {
		var cp C.velstatus_op_progress
		C.velstatus_op_progress_init(&cp, C.size_t(unsafe.Sizeof(cp)))
		b := []byte(id)
		ip, in := cbuf(b)
		ok = C.velstatus_op_reports_get(&cp, r, ip, in) != 0
		runtime.KeepAlive(b)
		if !ok {
			return nil
		}
		text := gsn(cp.err, cp.err_len)
		if cp.plugin_name != nil {
			name := gsn(cp.plugin_name, cp.plugin_name_len)
			p.PluginName = &name
		}
		switch cp.report {
		case C.VELSTATUS_OP_REPORT_LOOKUP_ERROR:
			progressErr = &LookupError{errors.New(text)}
		case C.VELSTATUS_OP_REPORT_PROGRESS_ERROR:
			progressErr = errors.New(text)
		default:
			p = OpProgress{Completed: cp.completed != 0, Err: text, NCompleted: int64(cp.n_completed),
				NTotal: int64(cp.n_total), OperationUnits: gsn(cp.operation_units, cp.operation_units_len),
				Description: gsn(cp.description, cp.description_len), PluginName: p.PluginName}
			p.Started = reportedTime(cp.has_started, cp.started_ns, cp.has_started_sec, cp.started_sec, cp.started_nsec)
			p.Updated = reportedTime(cp.has_updated, cp.updated_ns, cp.has_updated_sec, cp.updated_sec, cp.updated_nsec)
		}
		return nil
	})
	return p, progressErr, ok
}

// ReconcileReports runs a pass whose plugin answers come from the map
// (velstatus_op_reports_client): an absent ID gets Velero's Progress error
// "operation ID <id> is invalid", and Cancel returns the entry's cancelError.
func (ol *OpList) ReconcileReports(rep *OpReports, opts ReconcileOptions) (ReconcileResult, error) {
	var res ReconcileResult
	co, err := opts.toC()
	if err != nil {
		return res, err
	}
	defer co.free()
	err = rep.with(func(r *C.velstatus_op_reports) error {
		return ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
			var pc C.velstatus_plugin_client
			var cerr C.velstatus_error
			C.velstatus_plugin_client_init(&pc, C.size_t(unsafe.Sizeof(pc)))
			if err := check(C.velstatus_op_reports_client(&pc, r, &cerr), &cerr); err != nil {
				return err
			}
			var out *C.velstatus_reconcile_result
			if err := check(C.velstatus_oplist_reconcile(&out, l, &pc, &co.c, co.policy, &cerr), &cerr); err != nil {
				return err
			}
			defer C.velstatus_reconcile_result_free(out)
			res = reconcileResultFromC(out)
			return nil
		})
	})
	return res, err
}
