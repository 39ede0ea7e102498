// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdint.h>
#include <stdlib.h>
#include <velstatus.h>
extern void vs_go_plugin_client_setup(velstatus_plugin_client *client, void *userdata, int progress, int cancel);
*/
import "C"

import (
	"context"
	"errors"
	"runtime"
	"unsafe"
)

// DmKind is a DataUpload or a DataDownload (velstatus_dm_kind).
type DmKind int

// The kinds, with the values of the C enum.
const (
	DmKindInvalid DmKind = C.VELSTATUS_DM_KIND_INVALID
	DmUpload      DmKind = C.VELSTATUS_DM_UPLOAD
	DmDownload    DmKind = C.VELSTATUS_DM_DOWNLOAD
)

// String returns "upload" or "download" (velstatus_dm_kind_to_string).
func (k DmKind) String() string {
	return enumString(C.velstatus_dm_kind_to_string(C.velstatus_dm_kind(k)), "DmKind", int(k))
}

// DmPhase is the phase of a DataUpload or DataDownload (velstatus_dm_phase);
// "" and no phase are DmPhaseNew.
type DmPhase int

// The phases, with the values of the C enum.
const (
	DmPhaseInvalid    DmPhase = C.VELSTATUS_DM_PHASE_INVALID
	DmPhaseNew        DmPhase = C.VELSTATUS_DM_PHASE_NEW
	DmPhaseAccepted   DmPhase = C.VELSTATUS_DM_PHASE_ACCEPTED
	DmPhasePrepared   DmPhase = C.VELSTATUS_DM_PHASE_PREPARED
	DmPhaseInProgress DmPhase = C.VELSTATUS_DM_PHASE_IN_PROGRESS
	DmPhaseCanceling  DmPhase = C.VELSTATUS_DM_PHASE_CANCELING
	DmPhaseCanceled   DmPhase = C.VELSTATUS_DM_PHASE_CANCELED
	DmPhaseCompleted  DmPhase = C.VELSTATUS_DM_PHASE_COMPLETED
	DmPhaseFailed     DmPhase = C.VELSTATUS_DM_PHASE_FAILED
	DmPhaseUnknown    DmPhase = C.VELSTATUS_DM_PHASE_UNKNOWN
)

// String returns Velero's text of the phase ("InProgress"; velstatus_dm_phase_to_string).
func (p DmPhase) String() string {
	return enumString(C.velstatus_dm_phase_to_string(C.velstatus_dm_phase(p)), "DmPhase", int(p))
}

// DmText is a text field of a DataUpload or DataDownload (velstatus_dm_text):
// the keys of DataMoverObject.Text. The values are the C enum's, 0 up to
// DmTextTargetNamespace; the C header documents each field.
type DmText int

// The text fields.
const (
	DmTextName             DmText = C.VELSTATUS_DM_TEXT_NAME
	DmTextNamespace        DmText = C.VELSTATUS_DM_TEXT_NAMESPACE
	DmTextUID              DmText = C.VELSTATUS_DM_TEXT_UID
	DmTextOperationID      DmText = C.VELSTATUS_DM_TEXT_OPERATION_ID
	DmTextBackupName       DmText = C.VELSTATUS_DM_TEXT_BACKUP_NAME
	DmTextBackupUID        DmText = C.VELSTATUS_DM_TEXT_BACKUP_UID
	DmTextRestoreName      DmText = C.VELSTATUS_DM_TEXT_RESTORE_NAME
	DmTextRestoreUID       DmText = C.VELSTATUS_DM_TEXT_RESTORE_UID
	DmTextPVCUID           DmText = C.VELSTATUS_DM_TEXT_PVC_UID
	DmTextAcceptedBy       DmText = C.VELSTATUS_DM_TEXT_ACCEPTED_BY
	DmTextExposeOnGoing    DmText = C.VELSTATUS_DM_TEXT_EXPOSE_ON_GOING
	DmTextPhase            DmText = C.VELSTATUS_DM_TEXT_PHASE
	DmTextMessage          DmText = C.VELSTATUS_DM_TEXT_MESSAGE
	DmTextNode             DmText = C.VELSTATUS_DM_TEXT_NODE
	DmTextAcceptedByNode   DmText = C.VELSTATUS_DM_TEXT_ACCEPTED_BY_NODE
	DmTextNodeOS           DmText = C.VELSTATUS_DM_TEXT_NODE_OS
	DmTextSnapshotID       DmText = C.VELSTATUS_DM_TEXT_SNAPSHOT_ID
	DmTextPath             DmText = C.VELSTATUS_DM_TEXT_PATH
	DmTextBSL              DmText = C.VELSTATUS_DM_TEXT_BSL
	DmTextDataMover        DmText = C.VELSTATUS_DM_TEXT_DATA_MOVER
	DmTextSourceNamespace  DmText = C.VELSTATUS_DM_TEXT_SOURCE_NAMESPACE
	DmTextOperationTimeout DmText = C.VELSTATUS_DM_TEXT_OPERATION_TIMEOUT
	DmTextSnapshotType     DmText = C.VELSTATUS_DM_TEXT_SNAPSHOT_TYPE
	DmTextSourcePVC        DmText = C.VELSTATUS_DM_TEXT_SOURCE_PVC
	DmTextVolumeSnapshot   DmText = C.VELSTATUS_DM_TEXT_VOLUME_SNAPSHOT
	DmTextStorageClass     DmText = C.VELSTATUS_DM_TEXT_STORAGE_CLASS
	DmTextSnapshotClass    DmText = C.VELSTATUS_DM_TEXT_SNAPSHOT_CLASS
	DmTextCSIDriver        DmText = C.VELSTATUS_DM_TEXT_CSI_DRIVER
	DmTextTargetPVC        DmText = C.VELSTATUS_DM_TEXT_TARGET_PVC
	DmTextTargetPV         DmText = C.VELSTATUS_DM_TEXT_TARGET_PV
	DmTextTargetNamespace  DmText = C.VELSTATUS_DM_TEXT_TARGET_NAMESPACE
)

// DmTime is a timestamp of a DataUpload or DataDownload (velstatus_dm_time).
type DmTime int

// The timestamps.
const (
	DmTimeCreated   DmTime = C.VELSTATUS_DM_TIME_CREATED
	DmTimeDeleted   DmTime = C.VELSTATUS_DM_TIME_DELETED
	DmTimeStarted   DmTime = C.VELSTATUS_DM_TIME_STARTED
	DmTimeCompleted DmTime = C.VELSTATUS_DM_TIME_COMPLETED
	DmTimeAccepted  DmTime = C.VELSTATUS_DM_TIME_ACCEPTED
)

// DmInt is an integer field of a DataUpload or DataDownload (velstatus_dm_int).
type DmInt int

// The integer fields (DmIntCancel is spec.cancel, 1 for true).
const (
	DmIntBytesDone        DmInt = C.VELSTATUS_DM_INT_BYTES_DONE
	DmIntTotalBytes       DmInt = C.VELSTATUS_DM_INT_TOTAL_BYTES
	DmIntIncrementalBytes DmInt = C.VELSTATUS_DM_INT_INCREMENTAL_BYTES
	DmIntSnapshotSize     DmInt = C.VELSTATUS_DM_INT_SNAPSHOT_SIZE
	DmIntGeneration       DmInt = C.VELSTATUS_DM_INT_GENERATION
	DmIntCancel           DmInt = C.VELSTATUS_DM_INT_CANCEL
)

// DataMoverObject is one decoded DataUpload or DataDownload: each map
// holds only the fields present (times in ns since the epoch).
type DataMoverObject struct {
	Index  int
	Kind   DmKind
	Phase  DmPhase
	Text   map[DmText]string
	TimeNs map[DmTime]int64
	Ints   map[DmInt]int64
}

// DataMoverList holds decoded DataUploads and DataDownloads
// (velstatus_dm_list). It is safe for concurrent use; Close releases it.
type DataMoverList struct {
	ctx *Context
	l   *C.velstatus_dm_list
}

// DecodeDataMovers decodes `kubectl get datauploads -o json` output
// (velstatus_dm_list_from_json): an object, a List, an array, or a watch
// stream (the last state of each object; DELETED removes it).
func DecodeDataMovers(data []byte) (*DataMoverList, error) {
	ctx, err := NewContext()
	if err != nil {
		return nil, err
	}
	dms := &DataMoverList{ctx: ctx}
	err = ctx.do(func(c *C.velstatus_ctx) error {
		var cerr C.velstatus_error
		p, n := cbuf(data)
		st := C.velstatus_dm_list_from_json(&dms.l, c, p, n, &cerr)
		runtime.KeepAlive(data)
		return check(st, &cerr)
	})
	if err != nil {
		ctx.Close()
		return nil, err
	}
	runtime.SetFinalizer(dms, (*DataMoverList).Close)
	return dms, nil
}

// Close releases the list (idempotent; a finalizer backs it up).
func (dms *DataMoverList) Close() error {
	_ = dms.ctx.do(func(*C.velstatus_ctx) error {
		C.velstatus_dm_list_free(dms.l)
		dms.l = nil
		return nil
	})
	runtime.SetFinalizer(dms, nil)
	return dms.ctx.Close()
}

func (dms *DataMoverList) with(fn func(c *C.velstatus_ctx, l *C.velstatus_dm_list) error) error {
	err := dms.ctx.do(func(c *C.velstatus_ctx) error {
		if dms.l == nil {
			return errClosed("velstatus.DataMoverList")
		}
		return fn(c, dms.l)
	})
	runtime.KeepAlive(dms)
	return err
}

// Len returns the number of objects decoded.
func (dms *DataMoverList) Len() int {
	n := 0
	_ = dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		n = int(C.velstatus_dm_list_count(l))
		return nil
	})
	return n
}

// Skipped returns the number of objects skipped (another kind, a watch's ERROR).
func (dms *DataMoverList) Skipped() int {
	n := 0
	_ = dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		n = int(C.velstatus_dm_list_skipped(l))
		return nil
	})
	return n
}

func dmObjectOf(l *C.velstatus_dm_list, i C.size_t) DataMoverObject {
	o := DataMoverObject{Index: int(i), Kind: DmKind(C.velstatus_dm_list_kind(l, i)),
		Phase: DmPhase(C.velstatus_dm_list_phase(l, i)), Text: map[DmText]string{}, TimeNs: map[DmTime]int64{},
		Ints: map[DmInt]int64{}}
	var n C.size_t
	var v C.int64_t
	for f := DmTextName; f <= DmTextTargetNamespace; f++ {
		if s := ctext(C.velstatus_dm_list_text(l, i, C.velstatus_dm_text(f), &n), n); s != nil {
			o.Text[f] = *s
		}
	}
	for f := DmTimeCreated; f <= DmTimeAccepted; f++ {
		if C.velstatus_dm_list_time(l, i, C.velstatus_dm_time(f), &v) != 0 {
			o.TimeNs[f] = int64(v)
		}
	}
	for f := DmIntBytesDone; f <= DmIntCancel; f++ {
		if C.velstatus_dm_list_int(l, i, C.velstatus_dm_int(f), &v) != 0 {
			o.Ints[f] = int64(v)
		}
	}
	return o
}

// Object returns the i-th object.
func (dms *DataMoverList) Object(i int) (DataMoverObject, error) {
	var o DataMoverObject
	err := dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		if i < 0 || i >= int(C.velstatus_dm_list_count(l)) {
			return errorf(StatusRange, "data mover object index %d out of range", i)
		}
		o = dmObjectOf(l, C.size_t(i))
		return nil
	})
	return o, err
}

// Objects returns every object, in order.
func (dms *DataMoverList) Objects() []DataMoverObject {
	var out []DataMoverObject
	_ = dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		for i := C.size_t(0); i < C.velstatus_dm_list_count(l); i++ {
			out = append(out, dmObjectOf(l, i))
		}
		return nil
	})
	return out
}

// dmArgs are the operation arguments every call passes: C copies of the ID
// and of Velero's namespace ("" means "velero").
type dmArgs struct {
	id, ns []byte
}

func (a *dmArgs) c() (*C.char, C.size_t, *C.char, C.size_t) {
	ip, in := cbuf(a.id)
	var np *C.char
	var nn C.size_t
	if len(a.ns) > 0 {
		np, nn = cbuf(a.ns)
	}
	return ip, in, np, nn
}

// Find returns the object the CSI PVC plugin of Velero major.minor reads
// for an operation (velstatus_dm_list_find): its index (-1 unless exactly
// one matches) and the number of matches. veleroNamespace "" is "velero".
func (dms *DataMoverList) Find(kind DmKind, operationID, veleroNamespace string, major, minor int) (int, int, error) {
	index, matches := -1, 0
	a := dmArgs{[]byte(operationID), []byte(veleroNamespace)}
	err := dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		var cerr C.velstatus_error
		var ci, cm C.size_t
		ip, in, np, nn := a.c()
		st := C.velstatus_dm_list_find(l, C.velstatus_dm_kind(kind), ip, in, np, nn, C.int(major), C.int(minor),
			&ci, &cm, &cerr)
		runtime.KeepAlive(&a)
		if err := check(st, &cerr); err != nil {
			return err
		}
		if cm == 1 {
			index = int(ci)
		}
		matches = int(cm)
		return nil
	})
	return index, matches, err
}

// Progress returns what the CSI PVC plugin's Progress() answers for an
// operation, as it reaches Velero (velstatus_dm_progress), in the form a
// PluginClient.Progress returns it: (progress, nil), or (_, the Progress()
// error, its text after the gRPC hop). err is a call that failed (an
// unsupported release, 1.11, an ID that is not a label value).
func (dms *DataMoverList) Progress(kind DmKind, operationID, veleroNamespace string, major, minor int) (p OpProgress, progressErr error, err error) {
	a := dmArgs{[]byte(operationID), []byte(veleroNamespace)}
	err = dms.with(func(c *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		var cp C.velstatus_op_progress
		var cerr C.velstatus_error
		var text *C.char
		C.velstatus_op_progress_init(&cp, C.size_t(unsafe.Sizeof(cp)))
		ip, in, np, nn := a.c()
		st := C.velstatus_dm_progress(&cp, &text, c, l, C.velstatus_dm_kind(kind), ip, in, np, nn, C.int(major),
			C.int(minor), &cerr)
		runtime.KeepAlive(&a)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_free(c, unsafe.Pointer(text))
		if cp.report == C.VELSTATUS_OP_REPORT_PROGRESS_ERROR {
			progressErr = errors.New(gsn(cp.err, cp.err_len))
			return nil
		}
		p = OpProgress{Completed: cp.completed != 0, Err: gsn(cp.err, cp.err_len), NCompleted: int64(cp.n_completed),
			NTotal: int64(cp.n_total), OperationUnits: gsn(cp.operation_units, cp.operation_units_len),
			Description: gsn(cp.description, cp.description_len)}
		p.Started = reportedTime(cp.has_started, cp.started_ns, 0, 0, 0)
		p.Updated = reportedTime(cp.has_updated, cp.updated_ns, 0, 0, 0)
		return nil
	})
	return p, progressErr, err
}

// Cancel returns what the CSI PVC plugin's Cancel() does (velstatus_dm_cancel):
// the index of the object whose spec.cancel it patches to true, or -1 and
// the error Cancel returns (after the gRPC hop). err is a call that failed.
func (dms *DataMoverList) Cancel(kind DmKind, operationID, veleroNamespace string, major, minor int) (index int, cancelErr error, err error) {
	index = -1
	a := dmArgs{[]byte(operationID), []byte(veleroNamespace)}
	err = dms.with(func(c *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		var cerr C.velstatus_error
		var ci, n C.size_t
		var text *C.char
		ip, in, np, nn := a.c()
		st := C.velstatus_dm_cancel(&ci, &text, &n, c, l, C.velstatus_dm_kind(kind), ip, in, np, nn, C.int(major),
			C.int(minor), &cerr)
		runtime.KeepAlive(&a)
		if err := check(st, &cerr); err != nil {
			return err
		}
		if text != nil {
			cancelErr = errors.New(takeString(c, text, n))
			return nil
		}
		index = int(ci)
		return nil
	})
	return index, cancelErr, err
}

// ReconcileDataMover runs one pass (as Reconcile) whose operations of
// Velero's CSI PVC plugins are answered from dms, as the plugin of Velero
// major.minor answers them (velstatus_dm_client_init), and every other
// operation by fallback (its nil Progress: no plugin can be obtained; its
// Cancel: the other plugins' Cancel). veleroNamespace "" is "velero". The
// callbacks must use neither list.
func (ol *OpList) ReconcileDataMover(ctx context.Context, dms *DataMoverList, major, minor int,
	veleroNamespace string, fallback PluginClient, opts ReconcileOptions) (ReconcileResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var res ReconcileResult
	co, err := opts.toC()
	if err != nil {
		return res, err
	}
	defer co.free()
	call := &reconcileCall{client: fallback}
	call.target.ctx = ctx
	cell := newHostCell(call)
	defer cell.free()
	a := dmArgs{nil, []byte(veleroNamespace)}
	err = dms.with(func(dc *C.velstatus_ctx, dl *C.velstatus_dm_list) error {
		var fb, pc C.velstatus_plugin_client
		var cerr C.velstatus_error
		var state *C.velstatus_dm_client
		C.vs_go_plugin_client_setup(&fb, cell.userdata(), cbool(fallback.Progress != nil),
			cbool(fallback.Cancel != nil))
		_, _, np, nn := a.c()
		st := C.velstatus_dm_client_new(&state, dc, dl, np, nn, C.int(major), C.int(minor), &fb, &cerr)
		runtime.KeepAlive(&a)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_dm_client_free(state)
		if err := check(C.velstatus_dm_client_init(&pc, C.size_t(unsafe.Sizeof(pc)), state, &cerr), &cerr); err != nil {
			return err
		}
		return ol.withCallbacks(func(_ *C.velstatus_ctx, l *C.velstatus_oplist) error {
			var out *C.velstatus_reconcile_result
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
	})
	return res, err
}
