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
	"runtime"
	"time"
	"unsafe"
)

// SnapshotKind is the kind of a decoded object (velstatus_snapshot_kind).
type SnapshotKind int

// The kinds, with the values of the C enum.
const (
	SnapshotKindVolumeSnapshot SnapshotKind = C.VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT
	SnapshotKindContent        SnapshotKind = C.VELSTATUS_SNAPSHOT_KIND_CONTENT
)

// String returns "volume_snapshot" or "volume_snapshot_content".
func (k SnapshotKind) String() string {
	return enumString(C.velstatus_snapshot_kind_to_string(C.velstatus_snapshot_kind(k)), "SnapshotKind", int(k))
}

// SnapshotField names a field the decoder reads (velstatus_snapshot_field).
type SnapshotField int

// The fields, with the values of the C enum.
const (
	SnapshotFieldAPIVersion        SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_API_VERSION
	SnapshotFieldName              SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_NAME
	SnapshotFieldNamespace         SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_NAMESPACE
	SnapshotFieldBackupNameLabel   SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_BACKUP_NAME_LABEL
	SnapshotFieldSourcePVC         SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_SOURCE_PVC
	SnapshotFieldClassName         SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_CLASS_NAME
	SnapshotFieldBoundContent      SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT
	SnapshotFieldRestoreSize       SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE
	SnapshotFieldErrorMessage      SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE
	SnapshotFieldDriver            SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_DRIVER
	SnapshotFieldDeletionPolicy    SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_DELETION_POLICY
	SnapshotFieldSnapshotHandle    SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_SNAPSHOT_HANDLE
	SnapshotFieldRefName           SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_REF_NAME
	SnapshotFieldRefNamespace      SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_REF_NAMESPACE
	SnapshotFieldCreationTimestamp SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP
	SnapshotFieldDeletionTimestamp SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_DELETION_TIMESTAMP
	SnapshotFieldCreationTime      SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME
	SnapshotFieldErrorTime         SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_ERROR_TIME
	SnapshotFieldReadyToUse        SnapshotField = C.VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE
)

// String returns the field's token ("bound_content").
func (f SnapshotField) String() string {
	return enumString(C.velstatus_snapshot_field_to_string(C.velstatus_snapshot_field(f)), "SnapshotField", int(f))
}

// SnapshotObject is one decoded VolumeSnapshot or VolumeSnapshotContent. A
// nil pointer is a field that is absent or null (or not of this kind).
type SnapshotObject struct {
	Kind      SnapshotKind
	HasStatus bool // a non-nil status ({} is one)
	HasError  bool // a non-nil status.error
	// Texts, indexed by the text fields (SnapshotFieldAPIVersion to SnapshotFieldRefNamespace).
	Text map[SnapshotField]*string
	// Times in ns since the epoch, indexed by SnapshotFieldCreationTimestamp to SnapshotFieldErrorTime
	// (a content's status.creationTime, an integer in its JSON, too).
	TimeNs           map[SnapshotField]*int64
	RestoreSizeBytes *int64 // a content's status.restoreSize
	ReadyToUse       *bool
}

func snapshotObjectOf(l *C.velstatus_snapshot_list, i C.size_t) SnapshotObject {
	o := SnapshotObject{
		Kind:      SnapshotKind(C.velstatus_snapshot_list_kind(l, i)),
		HasStatus: C.velstatus_snapshot_list_has_status(l, i) != 0,
		HasError:  C.velstatus_snapshot_list_has_error(l, i) != 0,
		Text:      map[SnapshotField]*string{},
		TimeNs:    map[SnapshotField]*int64{},
	}
	var n C.size_t
	var v C.int64_t
	var b C.int
	for f := SnapshotFieldAPIVersion; f <= SnapshotFieldRefNamespace; f++ {
		o.Text[f] = ctext(C.velstatus_snapshot_list_text(l, i, C.velstatus_snapshot_field(f), &n), n)
	}
	for f := SnapshotFieldCreationTimestamp; f <= SnapshotFieldErrorTime; f++ {
		if C.velstatus_snapshot_list_time(l, i, C.velstatus_snapshot_field(f), &v) != 0 {
			x := int64(v)
			o.TimeNs[f] = &x
		} else {
			o.TimeNs[f] = nil
		}
	}
	if C.velstatus_snapshot_list_int(l, i, C.VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, &v) != 0 {
		x := int64(v)
		o.RestoreSizeBytes = &x
	}
	if C.velstatus_snapshot_list_bool(l, i, C.VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b) != 0 {
		x := b != 0
		o.ReadyToUse = &x
	}
	return o
}

// SnapshotList holds decoded VolumeSnapshots and VolumeSnapshotContents
// (velstatus_snapshot_list). It is safe for concurrent use; Close releases it.
type SnapshotList struct {
	ctx *Context
	l   *C.velstatus_snapshot_list
	// Objects are the decoded objects, in text order (a watch stream's last states).
	Objects []SnapshotObject
	// Skipped counts the objects of other kinds and the ERROR events.
	Skipped int
}

// DecodeSnapshots decodes VolumeSnapshots and VolumeSnapshotContents
// (velstatus_snapshot_list_from_json): one object, a List, an array, or a
// `kubectl get -w -o json` stream (with or without --output-watch-events),
// as Kubernetes' decoder reads them. A field of the wrong type is an error
// wrapping ErrSchema with its path, line and column.
func DecodeSnapshots(data []byte) (*SnapshotList, error) {
	ctx, err := NewContext()
	if err != nil {
		return nil, err
	}
	s := &SnapshotList{ctx: ctx, Objects: []SnapshotObject{}}
	err = ctx.do(func(c *C.velstatus_ctx) error {
		var l *C.velstatus_snapshot_list
		var cerr C.velstatus_error
		p, n := cbuf(data)
		st := C.velstatus_snapshot_list_from_json(&l, c, p, n, &cerr)
		runtime.KeepAlive(data)
		if err := check(st, &cerr); err != nil {
			return err
		}
		s.l = l
		for i := C.size_t(0); i < C.velstatus_snapshot_list_count(l); i++ {
			s.Objects = append(s.Objects, snapshotObjectOf(l, i))
		}
		s.Skipped = int(C.velstatus_snapshot_list_skipped(l))
		return nil
	})
	if err != nil {
		ctx.Close()
		return nil, err
	}
	runtime.SetFinalizer(s, (*SnapshotList).Close)
	return s, nil
}

// Close releases the list (idempotent; a finalizer backs it up).
func (s *SnapshotList) Close() error {
	_ = s.ctx.do(func(*C.velstatus_ctx) error {
		C.velstatus_snapshot_list_free(s.l)
		s.l = nil
		return nil
	})
	runtime.SetFinalizer(s, nil)
	return s.ctx.Close()
}

func (s *SnapshotList) with(fn func(c *C.velstatus_ctx, l *C.velstatus_snapshot_list) error) error {
	err := s.ctx.do(func(c *C.velstatus_ctx) error {
		if s.l == nil {
			return errClosed("velstatus.SnapshotList")
		}
		return fn(c, s.l)
	})
	runtime.KeepAlive(s)
	return err
}

// Find returns the index of the object of that kind, namespace (ignored
// for a content) and name (velstatus_snapshot_list_find).
func (s *SnapshotList) Find(kind SnapshotKind, namespace, name string) (int, bool) {
	var idx C.size_t
	found := false
	_ = s.with(func(_ *C.velstatus_ctx, l *C.velstatus_snapshot_list) error {
		ns, nm := []byte(namespace), []byte(name)
		np, nn := cbuf(ns)
		mp, mn := cbuf(nm)
		found = C.velstatus_snapshot_list_find(l, C.velstatus_snapshot_kind(kind), np, nn, mp, mn, &idx) != 0
		runtime.KeepAlive(ns)
		runtime.KeepAlive(nm)
		return nil
	})
	return int(idx), found
}

// Progress is what Velero's VolumeSnapshot plugin of release major.minor
// answers to Progress(operationID) with these objects in the cluster
// (velstatus_snapshot_progress), in the form a PluginClient.Progress
// returns it: (progress, nil) or (_, the Progress error with the text the
// controller receives). err is a failed call (an unsupported release).
func (s *SnapshotList) Progress(kind Kind, operationID string, now time.Time, major, minor int) (p OpProgress, progressErr error, err error) {
	nowNs, err := unixNanos(now)
	if err != nil {
		return p, nil, err
	}
	return s.answer(operationID, func(cp *C.velstatus_op_progress, text **C.char, l *C.velstatus_snapshot_list, ip *C.char, in C.size_t, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_snapshot_progress(cp, text, l, C.velstatus_kind(kind), ip, in, C.int64_t(nowNs),
			C.int(major), C.int(minor), cerr)
	})
}

// ContentProgress is what the VolumeSnapshotContent backup action of
// Velero's CSI plugin (velero.io/csi-volumesnapshotcontent-backupper) of
// release major.minor answers to Progress(operationID) with these objects
// in the cluster (velstatus_snapshot_content_progress): in 1.12 and 1.13
// the content the ID `<name>/<started>` names decides; 1.14 and later give
// an empty progress. Returned as Progress returns it.
func (s *SnapshotList) ContentProgress(operationID string, major, minor int) (p OpProgress, progressErr error, err error) {
	return s.answer(operationID, func(cp *C.velstatus_op_progress, text **C.char, l *C.velstatus_snapshot_list, ip *C.char, in C.size_t, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_snapshot_content_progress(cp, text, l, ip, in, C.int(major), C.int(minor), cerr)
	})
}

// answer runs one of the library's answers on the operation ID and reads
// the progress it fills.
func (s *SnapshotList) answer(operationID string, call func(*C.velstatus_op_progress, **C.char, *C.velstatus_snapshot_list, *C.char, C.size_t, *C.velstatus_error) C.velstatus_status) (p OpProgress, progressErr error, err error) {
	err = s.with(func(c *C.velstatus_ctx, l *C.velstatus_snapshot_list) error {
		var cp C.velstatus_op_progress
		var cerr C.velstatus_error
		var text *C.char
		C.velstatus_op_progress_init(&cp, C.size_t(unsafe.Sizeof(cp)))
		id := []byte(operationID)
		ip, in := cbuf(id)
		st := call(&cp, &text, l, ip, in, &cerr)
		runtime.KeepAlive(id)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_free(c, unsafe.Pointer(text))
		msg := gsn(cp.err, cp.err_len)
		if cp.report == C.VELSTATUS_OP_REPORT_PROGRESS_ERROR {
			progressErr = errors.New(msg)
			return nil
		}
		p = OpProgress{Completed: cp.completed != 0, Err: msg}
		p.Started = reportedTime(cp.has_started, cp.started_ns, cp.has_started_sec, cp.started_sec, cp.started_nsec)
		p.Updated = reportedTime(cp.has_updated, cp.updated_ns, cp.has_updated_sec, cp.updated_sec, cp.updated_nsec)
		return nil
	})
	return p, progressErr, err
}

// ReconcileSnapshots runs a pass (as Reconcile) whose VolumeSnapshot plugin
// operations are answered by the library's client
// (velstatus_snapshot_client_init) from snaps as Velero major.minor's
// plugin answers them, and every other operation by fallback (a nil
// Progress: that plugin cannot be obtained). The callbacks must not use the
// list or snaps.
func (ol *OpList) ReconcileSnapshots(ctx context.Context, snaps *SnapshotList, major, minor int, fallback PluginClient,
	opts ReconcileOptions) (ReconcileResult, error) {
	var res ReconcileResult
	nowNs, err := unixNanos(opts.Now)
	if err != nil {
		return res, err
	}
	// The config and the fallback client are read by C during the pass: C memory.
	fb := (*C.velstatus_plugin_client)(C.calloc(1, C.size_t(unsafe.Sizeof(C.velstatus_plugin_client{}))))
	cfg := (*C.velstatus_snapshot_client_config)(C.calloc(1, C.size_t(unsafe.Sizeof(C.velstatus_snapshot_client_config{}))))
	defer C.free(unsafe.Pointer(fb))
	defer C.free(unsafe.Pointer(cfg))
	if fb == nil || cfg == nil {
		return res, &Error{Code: StatusNoMem, Message: "out of memory"}
	}
	err = snaps.with(func(_ *C.velstatus_ctx, sl *C.velstatus_snapshot_list) error {
		var err error
		res, err = ol.reconcileVia(ctx, fallback, opts, func(pc *C.velstatus_plugin_client, userdata unsafe.Pointer) error {
			var cerr C.velstatus_error
			C.vs_go_plugin_client_setup(fb, userdata, cbool(fallback.Progress != nil), cbool(fallback.Cancel != nil))
			C.velstatus_snapshot_client_config_init(cfg, C.size_t(unsafe.Sizeof(*cfg)))
			cfg.snapshots = sl
			cfg.major, cfg.minor = C.int(major), C.int(minor)
			cfg.now_ns = C.int64_t(nowNs)
			cfg.fallback = fb
			return check(C.velstatus_snapshot_client_init(pc, C.size_t(unsafe.Sizeof(*pc)), cfg, &cerr), &cerr)
		})
		return err
	})
	return res, err
}
