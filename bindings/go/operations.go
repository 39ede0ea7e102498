// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdlib.h>
#include <velstatus.h>

// shim.c: fills the plugin client with the C trampolines of callbacks.go.
extern void vs_go_plugin_client_setup(velstatus_plugin_client *client, void *userdata, int progress, int cancel);
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"
	"unsafe"
)

// OpPhase is the phase of one item operation (velstatus_op_phase): Velero
// has exactly four; anything else is OpPhaseUnknown (the raw text is kept
// in Operation.PhaseText).
type OpPhase int

// The operation phases, with the values of the C enum.
const (
	OpPhaseInvalid    OpPhase = C.VELSTATUS_OP_PHASE_INVALID // never a record's phase: the C getter's answer for NULL
	OpPhaseUnknown    OpPhase = C.VELSTATUS_OP_PHASE_UNKNOWN
	OpPhaseNew        OpPhase = C.VELSTATUS_OP_PHASE_NEW
	OpPhaseInProgress OpPhase = C.VELSTATUS_OP_PHASE_IN_PROGRESS
	OpPhaseCompleted  OpPhase = C.VELSTATUS_OP_PHASE_COMPLETED
	OpPhaseFailed     OpPhase = C.VELSTATUS_OP_PHASE_FAILED
)

// String returns the wire spelling ("New", "InProgress", "Completed",
// "Failed"; velstatus_op_phase_to_string), or "OpPhase(N)" for
// OpPhaseUnknown and values outside the enum.
func (p OpPhase) String() string {
	if s := C.velstatus_op_phase_to_string(C.velstatus_op_phase(p)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("OpPhase(%d)", int(p))
}

// ParseOpPhase classifies a phase text exactly as Velero compares it
// (byte-exact); anything but the four values is OpPhaseUnknown.
func ParseOpPhase(s string) OpPhase {
	b := []byte(s)
	p, n := cbuf(b)
	var v C.velstatus_op_phase
	// E_INVALID for any other text leaves v at OpPhaseUnknown: what a record
	// with that text has.
	C.velstatus_op_phase_from_string(&v, p, n, nil)
	runtime.KeepAlive(b)
	return OpPhase(v)
}

// ResourceID is a Kubernetes resource identifier (Velero's
// velero.ResourceIdentifier).
type ResourceID struct {
	Group, Resource, Namespace, Name string
}

// Operation is a copy of one operation record (spec and status).
type Operation struct {
	Name       string     // spec.backupName / spec.restoreName
	UID        string     // spec.backupUID / spec.restoreUID
	ItemAction string     // spec.backupItemAction / restoreItemAction: the plugin name
	Resource   ResourceID // spec.resourceIdentifier
	// OperationID is the plugin's operation identifier (spec.operationID).
	OperationID string
	// PostOperationItems (backups only); nil when the file has null.
	PostOperationItems []ResourceID

	Phase          OpPhase // status.phase, classified
	PhaseText      string  // status.phase as read or set
	Error          string  // status.error
	NCompleted     int64   // status.nCompleted
	NTotal         int64   // status.nTotal
	OperationUnits string  // status.operationUnits
	Description    string  // status.description
	// status.created, .started, .updated, in UTC; the zero time when
	// absent. Go's whole range is read exactly, so a file's present zero
	// time ("0001-01-01T00:00:00Z", which makes Velero time the operation
	// out at once) reads as the zero time.Time too: Operation cannot tell
	// it from absent, the OpList can (its JSON writes it back as it was).
	// Append takes times in the int64 nanosecond range (1677-2262) only.
	Created time.Time
	Started time.Time
	Updated time.Time
}

// gsn copies a (pointer, length) text.
func gsn(p *C.char, n C.size_t) string {
	if p == nil || n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
}

func opField(op *C.velstatus_op, f C.velstatus_op_field) string {
	var n C.size_t
	return gsn(C.velstatus_op_string(op, f, &n), n)
}

// opTime reads a time exactly (velstatus_op_time_sec): every time Velero
// reads, years 0000 to 9999, is a time.Time.
func opTime(op *C.velstatus_op, which C.velstatus_op_time) time.Time {
	var sec C.int64_t
	var nsec C.int32_t
	if C.velstatus_op_time_sec(op, which, &sec, &nsec) == 0 {
		return time.Time{}
	}
	return time.Unix(int64(sec), int64(nsec)).UTC()
}

// opFromC copies a record.
func opFromC(op *C.velstatus_op) Operation {
	o := Operation{
		Name:        opField(op, C.VELSTATUS_OP_FIELD_NAME),
		UID:         opField(op, C.VELSTATUS_OP_FIELD_UID),
		ItemAction:  opField(op, C.VELSTATUS_OP_FIELD_ITEM_ACTION),
		OperationID: opField(op, C.VELSTATUS_OP_FIELD_OPERATION_ID),
		Resource: ResourceID{
			Group:     opField(op, C.VELSTATUS_OP_FIELD_RESOURCE_GROUP),
			Resource:  opField(op, C.VELSTATUS_OP_FIELD_RESOURCE_RESOURCE),
			Namespace: opField(op, C.VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE),
			Name:      opField(op, C.VELSTATUS_OP_FIELD_RESOURCE_NAME),
		},
		Phase:          OpPhase(C.velstatus_op_phase_value(op)),
		PhaseText:      opField(op, C.VELSTATUS_OP_FIELD_PHASE),
		Error:          opField(op, C.VELSTATUS_OP_FIELD_ERROR),
		NCompleted:     int64(C.velstatus_op_n_completed(op)),
		NTotal:         int64(C.velstatus_op_n_total(op)),
		OperationUnits: opField(op, C.VELSTATUS_OP_FIELD_OPERATION_UNITS),
		Description:    opField(op, C.VELSTATUS_OP_FIELD_DESCRIPTION),
		Created:        opTime(op, C.VELSTATUS_OP_TIME_CREATED),
		Started:        opTime(op, C.VELSTATUS_OP_TIME_STARTED),
		Updated:        opTime(op, C.VELSTATUS_OP_TIME_UPDATED),
	}
	if C.velstatus_op_post_items_null(op) == 0 {
		n := int(C.velstatus_op_post_item_count(op))
		o.PostOperationItems = make([]ResourceID, n)
		for i := 0; i < n; i++ {
			item := func(f C.velstatus_op_field) string {
				var l C.size_t
				return gsn(C.velstatus_op_post_item(op, C.size_t(i), f, &l), l)
			}
			o.PostOperationItems[i] = ResourceID{
				Group:     item(C.VELSTATUS_OP_FIELD_RESOURCE_GROUP),
				Resource:  item(C.VELSTATUS_OP_FIELD_RESOURCE_RESOURCE),
				Namespace: item(C.VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE),
				Name:      item(C.VELSTATUS_OP_FIELD_RESOURCE_NAME),
			}
		}
	}
	return o
}

// OpList is an operation list of one kind: the content of one
// `<name>-itemoperations.json` file (velstatus_oplist). It is safe for
// concurrent use; Close releases it.
type OpList struct {
	ctx *Context
	l   *C.velstatus_oplist
}

func newOpList(build func(c *C.velstatus_ctx, out **C.velstatus_oplist, cerr *C.velstatus_error) C.velstatus_status) (*OpList, error) {
	ctx, err := NewContext()
	if err != nil {
		return nil, err
	}
	ol := &OpList{ctx: ctx}
	err = ctx.do(func(c *C.velstatus_ctx) error {
		var cerr C.velstatus_error
		var l *C.velstatus_oplist // a local: C may be handed no pointer into a Go struct holding Go pointers
		if err := check(build(c, &l, &cerr), &cerr); err != nil {
			return err
		}
		ol.l = l
		return nil
	})
	if err != nil {
		ctx.Close()
		return nil, err
	}
	runtime.SetFinalizer(ol, (*OpList).Close)
	return ol, nil
}

// NewOpList creates an empty (non-nil) list.
func NewOpList(kind Kind) (*OpList, error) {
	return newOpList(func(c *C.velstatus_ctx, out **C.velstatus_oplist, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_oplist_new(out, c, C.velstatus_kind(kind), cerr)
	})
}

// DecodeOpList decodes an itemoperations file (velstatus_oplist_from_json).
// Unknown keys are kept and written back by JSON. Errors name the JSON
// path, line and column.
func DecodeOpList(kind Kind, data []byte) (*OpList, error) {
	return newOpList(func(c *C.velstatus_ctx, out **C.velstatus_oplist, cerr *C.velstatus_error) C.velstatus_status {
		p, n := cbuf(data)
		st := C.velstatus_oplist_from_json(out, c, C.velstatus_kind(kind), p, n, cerr)
		runtime.KeepAlive(data)
		return st
	})
}

// DecodeOpListFrom decodes an itemoperations file as it reads it from r,
// 64 KiB at a time, with the streaming decoder (velstatus/decoder.h): the
// text is never held whole. The list and the errors are DecodeOpList's for
// the same bytes; an error of r other than io.EOF is returned as it is.
func DecodeOpListFrom(kind Kind, r io.Reader) (*OpList, error) {
	return decodeFrom(r, func(c *C.velstatus_ctx, d **C.velstatus_oplist_decoder, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_oplist_decoder_new(d, c, C.velstatus_kind(kind), cerr)
	})
}

// DecodeOpListFromAnyKind is DecodeOpListFrom for a file whose kind the
// caller does not know: the decoder takes it from the text
// (velstatus_oplist_decoder_new_detect), from the first spec key only one
// kind has (restoreName, backupName, ...); a file without one is a backup
// file. The list's Kind says which.
func DecodeOpListFromAnyKind(r io.Reader) (*OpList, error) {
	return decodeFrom(r, func(c *C.velstatus_ctx, d **C.velstatus_oplist_decoder, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_oplist_decoder_new_detect(d, c, cerr)
	})
}

// decodeFrom feeds r, 64 KiB at a time, to the decoder newDecoder makes.
func decodeFrom(r io.Reader, newDecoder func(c *C.velstatus_ctx, d **C.velstatus_oplist_decoder, cerr *C.velstatus_error) C.velstatus_status) (*OpList, error) {
	var readErr error
	ol, err := newOpList(func(c *C.velstatus_ctx, out **C.velstatus_oplist, cerr *C.velstatus_error) C.velstatus_status {
		var d *C.velstatus_oplist_decoder
		st := newDecoder(c, &d, cerr)
		if st != C.VELSTATUS_OK {
			return st
		}
		defer C.velstatus_oplist_decoder_free(d)
		buf := make([]byte, 65536)
		for {
			n, e := r.Read(buf)
			if n > 0 {
				p, cn := cbuf(buf[:n])
				if st = C.velstatus_oplist_decoder_feed(d, p, cn, cerr); st != C.VELSTATUS_OK {
					return st
				}
			}
			if e == io.EOF {
				return C.velstatus_oplist_decoder_finish(out, d, cerr)
			}
			if e != nil {
				readErr = e // returned instead of the status below
				return C.VELSTATUS_E_HOST
			}
		}
	})
	if readErr != nil {
		return nil, readErr
	}
	return ol, err
}

// Close releases the list (idempotent; a finalizer backs it up).
func (ol *OpList) Close() error {
	_ = ol.ctx.do(func(*C.velstatus_ctx) error {
		C.velstatus_oplist_free(ol.l)
		ol.l = nil
		return nil
	})
	runtime.SetFinalizer(ol, nil)
	return ol.ctx.Close()
}

// with runs fn on the open list, holding its context's lock.
func (ol *OpList) with(fn func(c *C.velstatus_ctx, l *C.velstatus_oplist) error) error {
	return ol.run(false, fn)
}

// withCallbacks is with for a call that runs Go callbacks: a callback that
// calls back into the list gets ErrState instead of waiting for the lock
// its own call holds.
func (ol *OpList) withCallbacks(fn func(c *C.velstatus_ctx, l *C.velstatus_oplist) error) error {
	return ol.run(true, fn)
}

func (ol *OpList) run(callbacks bool, fn func(c *C.velstatus_ctx, l *C.velstatus_oplist) error) error {
	do := ol.ctx.do
	if callbacks {
		do = ol.ctx.doCallbacks
	}
	err := do(func(c *C.velstatus_ctx) error {
		if ol.l == nil {
			return errClosed("velstatus.OpList")
		}
		return fn(c, ol.l)
	})
	runtime.KeepAlive(ol)
	return err
}

// Kind returns the list's kind.
func (ol *OpList) Kind() Kind {
	var k Kind
	_ = ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		k = Kind(C.velstatus_oplist_kind(l))
		return nil
	})
	return k
}

// Len returns the number of records (0 after Close).
func (ol *OpList) Len() int {
	n := 0
	_ = ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		n = int(C.velstatus_oplist_count(l))
		return nil
	})
	return n
}

// IsNull reports whether the list was decoded from JSON null (Go's nil slice).
func (ol *OpList) IsNull() bool {
	null := false
	_ = ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		null = C.velstatus_oplist_is_null(l) != 0
		return nil
	})
	return null
}

// Op returns a copy of record i.
func (ol *OpList) Op(i int) (Operation, error) {
	var o Operation
	err := ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		if i < 0 || i >= int(C.velstatus_oplist_count(l)) {
			return errorf(StatusRange, "operation index %d out of range", i)
		}
		o = opFromC(C.velstatus_oplist_at(l, C.size_t(i)))
		return nil
	})
	return o, err
}

// Ops returns copies of every record.
func (ol *OpList) Ops() ([]Operation, error) {
	var ops []Operation
	err := ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		n := int(C.velstatus_oplist_count(l))
		ops = make([]Operation, n)
		for i := range ops {
			ops[i] = opFromC(C.velstatus_oplist_at(l, C.size_t(i)))
		}
		return nil
	})
	return ops, err
}

// Append adds a record built from op and returns its index. The phase is
// op.PhaseText when set, else op.Phase when known, else "New" (the state
// Velero creates a record in). Zero times are absent. On error the record
// may be partly filled; the list stays valid.
func (ol *OpList) Append(op Operation) (int, error) {
	idx := -1
	err := ol.with(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var cerr C.velstatus_error
		var ci C.size_t
		if err := check(C.velstatus_oplist_append(&ci, l, &cerr), &cerr); err != nil {
			return err
		}
		idx = int(ci)
		phase := op.PhaseText
		if phase == "" && op.Phase != OpPhaseUnknown {
			phase = op.Phase.String()
		}
		fields := []struct {
			f C.velstatus_op_field
			v string
		}{
			{C.VELSTATUS_OP_FIELD_NAME, op.Name}, {C.VELSTATUS_OP_FIELD_UID, op.UID},
			{C.VELSTATUS_OP_FIELD_ITEM_ACTION, op.ItemAction},
			{C.VELSTATUS_OP_FIELD_RESOURCE_GROUP, op.Resource.Group},
			{C.VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, op.Resource.Resource},
			{C.VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, op.Resource.Namespace},
			{C.VELSTATUS_OP_FIELD_RESOURCE_NAME, op.Resource.Name},
			{C.VELSTATUS_OP_FIELD_OPERATION_ID, op.OperationID}, {C.VELSTATUS_OP_FIELD_ERROR, op.Error},
			{C.VELSTATUS_OP_FIELD_OPERATION_UNITS, op.OperationUnits},
			{C.VELSTATUS_OP_FIELD_DESCRIPTION, op.Description},
		}
		if phase != "" {
			fields = append(fields, struct {
				f C.velstatus_op_field
				v string
			}{C.VELSTATUS_OP_FIELD_PHASE, phase})
		}
		for _, fv := range fields {
			if fv.v == "" {
				continue
			}
			b := []byte(fv.v)
			p, n := cbuf(b)
			st := C.velstatus_oplist_set_string(l, ci, fv.f, p, n, &cerr)
			runtime.KeepAlive(b)
			if err := check(st, &cerr); err != nil {
				return err
			}
		}
		if err := check(C.velstatus_oplist_set_counts(l, ci, C.int64_t(op.NCompleted), C.int64_t(op.NTotal), &cerr), &cerr); err != nil {
			return err
		}
		for _, tv := range []struct {
			which C.velstatus_op_time
			t     time.Time
		}{{C.VELSTATUS_OP_TIME_CREATED, op.Created}, {C.VELSTATUS_OP_TIME_STARTED, op.Started},
			{C.VELSTATUS_OP_TIME_UPDATED, op.Updated}} {
			if tv.t.IsZero() {
				continue
			}
			ns, err := unixNanos(tv.t)
			if err != nil {
				return err
			}
			if err := check(C.velstatus_oplist_set_time(l, ci, tv.which, 1, C.int64_t(ns), &cerr), &cerr); err != nil {
				return err
			}
		}
		for _, it := range op.PostOperationItems {
			g, r, ns, nm := []byte(it.Group), []byte(it.Resource), []byte(it.Namespace), []byte(it.Name)
			gp, gn := cbuf(g)
			rp, rn := cbuf(r)
			np, nn := cbuf(ns)
			mp, mn := cbuf(nm)
			st := C.velstatus_oplist_add_post_item(l, ci, gp, gn, rp, rn, np, nn, mp, mn, &cerr)
			runtime.KeepAlive(g)
			runtime.KeepAlive(r)
			runtime.KeepAlive(ns)
			runtime.KeepAlive(nm)
			if err := check(st, &cerr); err != nil {
				return err
			}
		}
		return nil
	})
	return idx, err
}

// JSON encodes the list exactly as Velero writes it
// (velstatus_oplist_to_json), with a trailing newline.
func (ol *OpList) JSON() ([]byte, error) {
	var out []byte
	err := ol.with(func(c *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var p *C.char
		var n C.size_t
		var cerr C.velstatus_error
		if err := check(C.velstatus_oplist_to_json(&p, &n, l, &cerr), &cerr); err != nil {
			return err
		}
		out = []byte(takeString(c, p, n))
		return nil
	})
	return out, err
}

// OpProgress is what a plugin's Progress() reported (Velero's
// OperationProgress). A zero Started or Updated is Go's zero time;
// time.Unix(0, 0) is the epoch (see Policy.UnixEpochIsUnknown). Any other
// instant of years 0000 to 9999 is given exactly (outside the int64
// nanosecond range, 1677 to 2262, the record keeps its whole second).
type OpProgress struct {
	Completed      bool
	Err            string
	NCompleted     int64
	NTotal         int64
	OperationUnits string
	Description    string
	Started        time.Time
	Updated        time.Time
	// PluginName is the plugin's own Name() (velstatus_op_progress's
	// plugin_name), written after ", plugin: " in this operation's error
	// messages; nil means the name Velero's plugin manager registered the
	// record's item action under, which a real plugin answers. It is read
	// with a Progress() error too (the OpProgress returned beside it), and
	// ignored with a *LookupError.
	PluginName *string
}

// LookupError says that the plugin behind an operation could not be
// obtained (Velero: GetBackupItemActionV2 failed). Return it from
// PluginClient.Progress, or pass it to Step.
type LookupError struct{ Err error }

func (e *LookupError) Error() string { return e.Err.Error() }

// Unwrap returns the lookup's cause.
func (e *LookupError) Unwrap() error { return e.Err }

// AbortError, returned by a PluginClient callback, aborts the reconcile
// pass (the callback failed as a host, not the plugin): Reconcile returns
// an *Error with StatusHost wrapping Err.
type AbortError struct{ Err error }

func (e *AbortError) Error() string { return "reconcile aborted: " + e.Err.Error() }

// Unwrap returns the abort's cause.
func (e *AbortError) Unwrap() error { return e.Err }

// cProgress is a C progress struct whose texts live in C memory; free it
// after the one call it is passed to.
type cProgress struct {
	c    C.velstatus_op_progress
	bufs []unsafe.Pointer
}

func (cp *cProgress) text(s string) (*C.char, C.size_t) {
	if s == "" {
		return nil, 0
	}
	p := C.CBytes([]byte(s))
	cp.bufs = append(cp.bufs, p)
	return (*C.char)(p), C.size_t(len(s))
}

func (cp *cProgress) free() {
	for _, p := range cp.bufs {
		C.free(p)
	}
	cp.bufs = nil
}

// reportTime sets one reported time: nothing for Go's zero time,
// nanoseconds within the int64 range, else the exact seconds and
// nanoseconds (the library refuses a year it cannot write with
// StatusRange).
func reportTime(t time.Time, has *C.int, ns *C.int64_t, hasSec *C.int, sec *C.int64_t, nsec *C.int32_t) {
	if t.IsZero() {
		return
	}
	if n, err := unixNanos(t); err == nil {
		*has, *ns = 1, C.int64_t(n)
		return
	}
	*hasSec, *sec, *nsec = 1, C.int64_t(t.Unix()), C.int32_t(t.Nanosecond())
}

// reportedTime is reportTime's inverse: the zero time when none is set.
func reportedTime(has C.int, ns C.int64_t, hasSec C.int, sec C.int64_t, nsec C.int32_t) time.Time {
	switch {
	case hasSec != 0:
		return time.Unix(int64(sec), int64(nsec)).UTC()
	case has != 0:
		return time.Unix(0, int64(ns)).UTC()
	}
	return time.Time{}
}

// toCProgress builds the report of a plugin answer: (r, nil) is progress,
// (_, *LookupError) a lookup failure, (_, other error) a Progress() error.
func toCProgress(r OpProgress, perr error) (*cProgress, error) {
	cp := &cProgress{}
	C.velstatus_op_progress_init(&cp.c, C.size_t(unsafe.Sizeof(cp.c)))
	var lookup *LookupError
	switch {
	case perr == nil:
		cp.c.report = C.VELSTATUS_OP_REPORT_PROGRESS
		cp.c.completed = cbool(r.Completed)
		cp.c.n_completed = C.int64_t(r.NCompleted)
		cp.c.n_total = C.int64_t(r.NTotal)
		cp.c.err, cp.c.err_len = cp.text(r.Err)
		cp.c.operation_units, cp.c.operation_units_len = cp.text(r.OperationUnits)
		cp.c.description, cp.c.description_len = cp.text(r.Description)
		reportTime(r.Started, &cp.c.has_started, &cp.c.started_ns, &cp.c.has_started_sec, &cp.c.started_sec,
			&cp.c.started_nsec)
		reportTime(r.Updated, &cp.c.has_updated, &cp.c.updated_ns, &cp.c.has_updated_sec, &cp.c.updated_sec,
			&cp.c.updated_nsec)
	case errors.As(perr, &lookup):
		cp.c.report = C.VELSTATUS_OP_REPORT_LOOKUP_ERROR
		cp.c.err, cp.c.err_len = cp.text(lookup.Err.Error())
	default:
		cp.c.report = C.VELSTATUS_OP_REPORT_PROGRESS_ERROR
		cp.c.err, cp.c.err_len = cp.text(perr.Error())
	}
	if r.PluginName != nil && lookup == nil {
		cp.c.plugin_name, cp.c.plugin_name_len = cp.text(*r.PluginName)
		if cp.c.plugin_name == nil { // an empty Name() is a name: non-NULL
			cp.c.plugin_name = (*C.char)(cp.keep(C.malloc(1)))
		}
	}
	return cp, nil
}

// keep records a C block for free.
func (cp *cProgress) keep(p unsafe.Pointer) unsafe.Pointer {
	cp.bufs = append(cp.bufs, p)
	return p
}

// StepFlag is a bit of a step's outcome (velstatus_op_step_flag).
type StepFlag uint32

// The step flags, with the values of the C enum.
const (
	StepChanged        StepFlag = C.VELSTATUS_OP_STEP_CHANGED
	StepCancel         StepFlag = C.VELSTATUS_OP_STEP_CANCEL
	StepFailedNow      StepFlag = C.VELSTATUS_OP_STEP_FAILED_NOW
	StepCompletedNow   StepFlag = C.VELSTATUS_OP_STEP_COMPLETED_NOW
	StepCountCompleted StepFlag = C.VELSTATUS_OP_STEP_COUNT_COMPLETED
	StepCountFailed    StepFlag = C.VELSTATUS_OP_STEP_COUNT_FAILED
	StepInProgress     StepFlag = C.VELSTATUS_OP_STEP_IN_PROGRESS
	StepUnknownPhase   StepFlag = C.VELSTATUS_OP_STEP_UNKNOWN_PHASE
	StepMissingCreated StepFlag = C.VELSTATUS_OP_STEP_MISSING_CREATED
	StepErrorDeferred  StepFlag = C.VELSTATUS_OP_STEP_ERROR_DEFERRED
)

// String returns the flag's token (velstatus_op_step_flag_to_string, e.g.
// "failed_now"); a combination joins its flags' tokens with "|", and an
// unknown bit prints as "StepFlag(0xN)".
func (f StepFlag) String() string {
	return flagString(uint32(f), "StepFlag", func(bit uint32) *C.char {
		return C.velstatus_op_step_flag_to_string(C.velstatus_op_step_flag(bit))
	})
}

// stepFlags lists the single bits, for the per-flag counts.
var stepFlags = []StepFlag{StepChanged, StepCancel, StepFailedNow, StepCompletedNow, StepCountCompleted,
	StepCountFailed, StepInProgress, StepUnknownPhase, StepMissingCreated, StepErrorDeferred}

// StepOutcome is the outcome of Step.
type StepOutcome struct {
	Flags   StepFlag // the outcome bits
	Message string   // the new error message when Flags has StepFailedNow
}

// Step runs one operation through one pass (velstatus_oplist_step): what
// the plugin said is (report, nil), (_, *LookupError) or (_, a Progress()
// error); it is ignored for records that are not New or InProgress. A nil
// policy is the hardened preset. The record is updated in place.
func (ol *OpList) Step(i int, report OpProgress, progressErr error, now time.Time, timeout time.Duration,
	policy *Policy) (StepOutcome, error) {
	var out StepOutcome
	nowNs, err := unixNanos(now)
	if err != nil {
		return out, err
	}
	cp, err := toCProgress(report, progressErr)
	if err != nil {
		return out, err
	}
	defer cp.free()
	pol := policy.cptr()
	err = ol.with(func(c *C.velstatus_ctx, l *C.velstatus_oplist) error {
		if i < 0 {
			return errorf(StatusRange, "operation index %d out of range", i)
		}
		var flags C.uint32_t
		var msg *C.char
		var mlen C.size_t
		var cerr C.velstatus_error
		st := C.velstatus_oplist_step(&flags, &msg, &mlen, l, C.size_t(i), &cp.c, C.int64_t(nowNs),
			C.int64_t(timeout), pol, &cerr)
		if err := check(st, &cerr); err != nil {
			return err
		}
		out.Flags = StepFlag(flags)
		out.Message = takeString(c, msg, mlen)
		return nil
	})
	return out, err
}

// WrapError formats an error as Velero's backup operations controller does:
// "<msg>, plugin: <plugin>", or "plugin: <plugin>" for an empty msg; an
// empty plugin is "unknown" (velstatus_op_wrap_error).
func WrapError(msg, plugin string) (string, error) {
	var out string
	err := withTempContext(func(c *C.velstatus_ctx) error {
		m, p := []byte(msg), []byte(plugin)
		mp, mn := cbuf(m)
		pp, pn := cbuf(p)
		var o *C.char
		var on C.size_t
		var cerr C.velstatus_error
		st := C.velstatus_op_wrap_error(&o, &on, c, mp, mn, pp, pn, &cerr)
		runtime.KeepAlive(m)
		runtime.KeepAlive(p)
		if err := check(st, &cerr); err != nil {
			return err
		}
		out = takeString(c, o, on)
		return nil
	})
	return out, err
}

// PluginClient is the host's plugin client for Reconcile
// (velstatus_plugin_client), as Go functions. Both get the record's index
// and a copy of it.
//
// Progress returns what the plugin's Progress() returned: (progress, nil),
// (_, err) for a Progress() error, or (_, &LookupError{...}) when the plugin
// cannot be obtained. A nil Progress gives every running operation a lookup
// error. Cancel returns what the plugin's Cancel() returned (reported only
// under Policy.ReportCancelResults); a nil Cancel does nothing.
//
// Returning an *AbortError, or panicking, aborts the pass: Reconcile
// returns the cause (or a *PanicError) wrapped in an *Error with
// StatusHost. Callbacks must not use the list they are called for.
type PluginClient struct {
	Progress func(index int, op Operation) (OpProgress, error)
	Cancel   func(index int, op Operation) error
}

// BSLState is the state of the BackupStorageLocation a backup or restore
// uses (velstatus_bsl_state).
type BSLState int

// The BSL states, with the values of the C enum.
const (
	BSLAvailable BSLState = C.VELSTATUS_BSL_AVAILABLE
	BSLMissing   BSLState = C.VELSTATUS_BSL_MISSING
	BSLReadOnly  BSLState = C.VELSTATUS_BSL_READONLY
)

// String returns "available", "missing" or "readonly" (velstatus_bsl_state_to_string).
func (s BSLState) String() string {
	return enumString(C.velstatus_bsl_state_to_string(C.velstatus_bsl_state(s)), "BSLState", int(s))
}

// ReconcileOptions are the inputs of one pass besides the list
// (velstatus_reconcile_options). Start from DefaultReconcileOptions.
type ReconcileOptions struct {
	Phase   Phase         // WaitingForPluginOperations[PartiallyFailed], or InProgress (first evaluation)
	BSL     BSLState      // the BSL's state
	Now     time.Time     // the current time; required
	Timeout time.Duration // spec.itemOperationTimeout
	Errors  int64         // errors already logged or pending
	BSLName string        // the BSL's name for the not-found error; "" means "default"
	Policy  *Policy       // nil: the hardened preset
	// CompletedBefore and FailedBefore are the CR's operation counts before
	// the pass (status.backupItemOperationsCompleted/Failed), for Persist.
	CompletedBefore, FailedBefore int64
	// BSLError: getting the BSL failed with this error other than NotFound
	// (needs BSL available). BackupError: a restore's Backup Get failed;
	// its text names VeleroNamespace ("": velero) and BackupName. "" is
	// no error. Velero requeues (ReconcileResult.Requeue).
	BSLError, BackupError, BackupName, VeleroNamespace string
}

// DefaultReconcileOptions returns the library's defaults (phase
// WaitingForPluginOperations, BSL available, timeout 4h) with Now set.
func DefaultReconcileOptions(now time.Time) ReconcileOptions {
	var c C.velstatus_reconcile_options
	C.velstatus_reconcile_options_init(&c, C.size_t(unsafe.Sizeof(c)))
	return ReconcileOptions{Phase: Phase(c.phase), BSL: BSLState(c.bsl), Now: now,
		Timeout: time.Duration(c.timeout_ns), Errors: int64(c.errors), CompletedBefore: int64(c.completed_before),
		FailedBefore: int64(c.failed_before)}
}

// cReconcileOptions is a C options struct; its name and policy live in C
// memory, released by free.
type cReconcileOptions struct {
	c      C.velstatus_reconcile_options
	policy *C.velstatus_policy // C memory; nil for the hardened preset
}

func (o *ReconcileOptions) toC() (*cReconcileOptions, error) {
	if o.Now.IsZero() {
		return nil, errorf(StatusInvalid, "ReconcileOptions.Now is not set")
	}
	now, err := unixNanos(o.Now)
	if err != nil {
		return nil, err
	}
	co := &cReconcileOptions{}
	C.velstatus_reconcile_options_init(&co.c, C.size_t(unsafe.Sizeof(co.c)))
	co.c.phase = C.velstatus_phase(o.Phase)
	co.c.bsl = C.velstatus_bsl_state(o.BSL)
	co.c.now_ns = C.int64_t(now)
	co.c.timeout_ns = C.int64_t(o.Timeout)
	co.c.errors = C.int64_t(o.Errors)
	co.c.completed_before = C.int64_t(o.CompletedBefore)
	co.c.failed_before = C.int64_t(o.FailedBefore)
	if o.BSLName != "" {
		co.c.bsl_name = (*C.char)(C.CBytes([]byte(o.BSLName)))
		co.c.bsl_name_len = C.size_t(len(o.BSLName))
	}
	co.c.bsl_error, co.c.bsl_error_len = cText(o.BSLError)
	co.c.backup_error, co.c.backup_error_len = cText(o.BackupError)
	co.c.backup_name, co.c.backup_name_len = cText(o.BackupName)
	co.c.velero_namespace, co.c.velero_namespace_len = cText(o.VeleroNamespace)
	if o.Policy != nil {
		p := (*C.velstatus_policy)(C.malloc(C.size_t(unsafe.Sizeof(C.velstatus_policy{}))))
		*p = o.Policy.toC()
		co.policy = p
	}
	return co, nil
}

// cText is a copy of s in C memory, or nil for "" (free it with C.free).
func cText(s string) (*C.char, C.size_t) {
	if s == "" {
		return nil, 0
	}
	return (*C.char)(C.CBytes([]byte(s))), C.size_t(len(s))
}

func (co *cReconcileOptions) free() {
	for _, p := range []**C.char{&co.c.bsl_name, &co.c.bsl_error, &co.c.backup_error, &co.c.backup_name,
		&co.c.velero_namespace} {
		if *p != nil {
			C.free(unsafe.Pointer(*p))
			*p = nil
		}
	}
	if co.policy != nil {
		C.free(unsafe.Pointer(co.policy))
		co.policy = nil
	}
}

// PersistAction is what the host must write after a pass
// (velstatus_persist_action; doc/velero-behaviour.md §2.5 step 11).
type PersistAction int

// The persist actions, with the values of the C enum.
const (
	PersistNone           PersistAction = C.VELSTATUS_PERSIST_NONE             // keep the progress in memory
	PersistPatch          PersistAction = C.VELSTATUS_PERSIST_PATCH            // patch the CR only
	PersistUploadAndPatch PersistAction = C.VELSTATUS_PERSIST_UPLOAD_AND_PATCH // upload the files, then patch
	PersistInvalid        PersistAction = C.VELSTATUS_PERSIST_INVALID          // never a result's: the C getter's answer for NULL
)

// String returns "none", "patch" or "upload_and_patch" (velstatus_persist_action_to_string).
func (a PersistAction) String() string {
	return enumString(C.velstatus_persist_action_to_string(C.velstatus_persist_action(a)), "PersistAction", int(a))
}

// PersistFailure is which write of the persist action fails (velstatus_persist_failure).
type PersistFailure int

// The writes that can fail, with the values of the C enum.
const (
	PersistFailedUpload PersistFailure = C.VELSTATUS_PERSIST_FAILED_UPLOAD // the upload to the object store
	PersistFailedPatch  PersistFailure = C.VELSTATUS_PERSIST_FAILED_PATCH  // the status patch
)

// AfterPersistFailure is what stays when a write fails
// (velstatus_reconcile_result_after_persist_failure); Velero requeues.
type AfterPersistFailure struct {
	Phase         Phase // the phase the CR keeps (the one before the pass)
	PendingErrors int64 // errors still pending for the next pass
	LostErrors    int64 // errors that never reach status.errors
}

// CanceledOp is an operation Cancel was called for.
type CanceledOp struct {
	Index        int    // the record's index
	OperationID  string // its operation ID
	CancelFailed bool   // Cancel returned an error (reported under Policy.ReportCancelResults)
	CancelError  string // that error's text
}

// ReconcileResult is the outcome of a pass (velstatus_reconcile_result).
type ReconcileResult struct {
	Phase           Phase            // the next phase of the backup or restore
	StillInProgress bool             // Velero's stillInProgress
	Changes         bool             // Velero's changes: a record was modified
	Completed       int              // Completed operations in the list
	Failed          int              // Failed operations in the list
	InProgress      int              // operations still New or InProgress
	Errors          []string         // the new errors, as Velero formats them
	Canceled        []CanceledOp     // the operations Cancel was called for, in list order
	FlagCounts      map[StepFlag]int // how many steps had each outcome bit
	Persist         PersistAction    // what to write after the pass
	ErrorsAdded     int64            // how much Velero adds to the CR's status.errors
	Requeue         bool             // Reconcile returns an error (a lookup failed): Velero requeues
	// AfterPersistFailure: what stays when that write fails; absent when
	// the pass writes no such thing.
	AfterPersistFailure map[PersistFailure]AfterPersistFailure
}

// reconcileCall is what the plugin client's trampolines see.
type reconcileCall struct {
	client PluginClient
	target callbackTarget
}

// Reconcile runs one pass over the whole list (velstatus_oplist_reconcile):
// the operations controller's Reconcile, or the first evaluation when
// opts.Phase is InProgress. Records are updated in place. If a callback
// aborts or panics, the records already stepped keep their updates and the
// error is returned. ctx is checked before every callback: once it is done
// the pass stops there, with an error that errors.Is(err, ctx.Err()). A
// callback that calls back into this list gets an ErrState error instead of
// a deadlock.
func (ol *OpList) Reconcile(ctx context.Context, client PluginClient, opts ReconcileOptions) (ReconcileResult, error) {
	return ol.reconcileVia(ctx, client, opts, func(pc *C.velstatus_plugin_client, userdata unsafe.Pointer) error {
		C.vs_go_plugin_client_setup(pc, userdata, cbool(client.Progress != nil), cbool(client.Cancel != nil))
		return nil
	})
}

// reconcileVia runs one pass with the C client install fills, given the
// userdata of the Go callbacks that answer as client (Reconcile, and the
// fallback of ReconcileSnapshots).
func (ol *OpList) reconcileVia(ctx context.Context, client PluginClient, opts ReconcileOptions,
	install func(pc *C.velstatus_plugin_client, userdata unsafe.Pointer) error) (ReconcileResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var res ReconcileResult
	co, err := opts.toC()
	if err != nil {
		return res, err
	}
	defer co.free()
	call := &reconcileCall{client: client}
	call.target.ctx = ctx
	cell := newHostCell(call)
	defer cell.free()
	err = ol.withCallbacks(func(c *C.velstatus_ctx, l *C.velstatus_oplist) error {
		var pc C.velstatus_plugin_client
		if err := install(&pc, cell.userdata()); err != nil {
			return err
		}
		var out *C.velstatus_reconcile_result
		var cerr C.velstatus_error
		st := C.velstatus_oplist_reconcile(&out, l, &pc, &co.c, co.policy, &cerr)
		if err := call.target.result(st, &cerr); err != nil {
			if st == C.VELSTATUS_OK {
				C.velstatus_reconcile_result_free(out)
			}
			return err
		}
		defer C.velstatus_reconcile_result_free(out)
		res = reconcileResultFromC(out)
		return nil
	})
	return res, err
}

func reconcileResultFromC(out *C.velstatus_reconcile_result) ReconcileResult {
	res := ReconcileResult{
		Phase:               Phase(C.velstatus_reconcile_result_phase(out)),
		StillInProgress:     C.velstatus_reconcile_result_still_in_progress(out) != 0,
		Changes:             C.velstatus_reconcile_result_changes(out) != 0,
		Completed:           int(C.velstatus_reconcile_result_completed(out)),
		Failed:              int(C.velstatus_reconcile_result_failed(out)),
		InProgress:          int(C.velstatus_reconcile_result_in_progress(out)),
		Errors:              []string{},
		Canceled:            []CanceledOp{},
		FlagCounts:          map[StepFlag]int{},
		Persist:             PersistAction(C.velstatus_reconcile_result_persist(out)),
		ErrorsAdded:         int64(C.velstatus_reconcile_result_errors_added(out)),
		Requeue:             C.velstatus_reconcile_result_requeue(out) != 0,
		AfterPersistFailure: map[PersistFailure]AfterPersistFailure{},
	}
	for _, f := range []PersistFailure{PersistFailedUpload, PersistFailedPatch} {
		var ph C.velstatus_phase
		var pending, lost C.int64_t
		if C.velstatus_reconcile_result_after_persist_failure(out, C.velstatus_persist_failure(f), &ph, &pending, &lost,
			nil) == C.VELSTATUS_OK {
			res.AfterPersistFailure[f] = AfterPersistFailure{Phase(ph), int64(pending), int64(lost)}
		}
	}
	for i, n := 0, int(C.velstatus_reconcile_result_error_count(out)); i < n; i++ {
		var l C.size_t
		res.Errors = append(res.Errors, gsn(C.velstatus_reconcile_result_error(out, C.size_t(i), &l), l))
	}
	for i, n := 0, int(C.velstatus_reconcile_result_canceled_count(out)); i < n; i++ {
		var l, el C.size_t
		co := CanceledOp{
			Index:       int(C.velstatus_reconcile_result_canceled_index(out, C.size_t(i))),
			OperationID: gsn(C.velstatus_reconcile_result_canceled_id(out, C.size_t(i), &l), l),
		}
		if p := C.velstatus_reconcile_result_cancel_error(out, C.size_t(i), &el); p != nil {
			co.CancelFailed, co.CancelError = true, gsn(p, el)
		}
		res.Canceled = append(res.Canceled, co)
	}
	for _, f := range stepFlags {
		res.FlagCounts[f] = int(C.velstatus_reconcile_result_count(out, C.velstatus_op_step_flag(f)))
	}
	return res
}
