// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdlib.h>
#include <velstatus.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// BackupObject is one decoded Backup or Restore (velstatus/backup_object.h).
// A nil pointer is a field that is absent or null.
type BackupObject struct {
	Kind                    Kind
	Name                    *string
	Namespace               *string
	Phase                   *string // status.phase, verbatim ("" is New)
	FailureReason           *string
	DeletionTimeNs          *int64 // metadata.deletionTimestamp, ns since the epoch: set while being deleted
	Generation              *int64
	Errors                  *int64
	Warnings                *int64
	StorageLocation         *string
	ItemOperationTimeout    *string // verbatim Go duration, e.g. "4h0m0s"
	BackupName              *string // a Restore's spec.backupName
	ItemOperationsCompleted *int64  // status.backupItemOperationsCompleted (a Restore's restore...)
	ItemOperationsFailed    *int64
	Finalizers              []string
}

// ctext is a library text (nil for NULL); it may hold a NUL byte.
func ctext(p *C.char, n C.size_t) *string {
	if p == nil {
		return nil
	}
	s := C.GoStringN(p, C.int(n))
	return &s
}

type listText func(*C.velstatus_backup_list, C.size_t, *C.size_t) *C.char
type listInt func(*C.velstatus_backup_list, C.size_t, *C.int64_t) C.int

func backupObjectOf(l *C.velstatus_backup_list, i C.size_t) BackupObject {
	var n C.size_t
	text := func(get listText) *string { return ctext(get(l, i, &n), n) }
	num := func(get listInt) *int64 {
		var v C.int64_t
		if get(l, i, &v) == 0 {
			return nil
		}
		x := int64(v)
		return &x
	}
	o := BackupObject{
		Kind: Kind(C.velstatus_backup_list_kind(l, i)),
		Name: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_name(l, i, n)
		}),
		Namespace: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_namespace(l, i, n)
		}),
		Phase: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_phase(l, i, n)
		}),
		FailureReason: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_failure_reason(l, i, n)
		}),
		StorageLocation: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_storage_location(l, i, n)
		}),
		ItemOperationTimeout: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_item_operation_timeout(l, i, n)
		}),
		BackupName: text(func(l *C.velstatus_backup_list, i C.size_t, n *C.size_t) *C.char {
			return C.velstatus_backup_list_backup_name(l, i, n)
		}),
		DeletionTimeNs: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_deletion_time(l, i, v)
		}),
		Generation: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_generation(l, i, v)
		}),
		Errors: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_errors(l, i, v)
		}),
		Warnings: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_warnings(l, i, v)
		}),
		ItemOperationsCompleted: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_item_operations_completed(l, i, v)
		}),
		ItemOperationsFailed: num(func(l *C.velstatus_backup_list, i C.size_t, v *C.int64_t) C.int {
			return C.velstatus_backup_list_item_operations_failed(l, i, v)
		}),
		Finalizers: []string{},
	}
	for j := C.size_t(0); j < C.velstatus_backup_list_finalizer_count(l, i); j++ {
		o.Finalizers = append(o.Finalizers, *ctext(C.velstatus_backup_list_finalizer(l, i, j, &n), n))
	}
	return o
}

// DecodeBackups decodes Backup and Restore objects (`kubectl get backup -o
// json`: one object, a List or an array; velstatus_backup_list_from_json)
// as Kubernetes' decoder reads them: keys unescaped and case-sensitive, the
// last non-null repeated value wins. Objects of another kind are skipped and
// counted. A field of the wrong type is an error wrapping ErrSchema with its
// path, line and column.
func DecodeBackups(text []byte) (objects []BackupObject, skipped int, err error) {
	objects = []BackupObject{}
	err = withTempContext(func(c *C.velstatus_ctx) error {
		var l *C.velstatus_backup_list
		var cerr C.velstatus_error
		p, n := cbuf(text)
		st := C.velstatus_backup_list_from_json(&l, c, p, n, &cerr)
		runtime.KeepAlive(text)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_backup_list_free(l)
		for i := C.size_t(0); i < C.velstatus_backup_list_count(l); i++ {
			objects = append(objects, backupObjectOf(l, i))
		}
		skipped = int(C.velstatus_backup_list_skipped(l))
		return nil
	})
	return objects, skipped, err
}

// ConditionStatus is a Kubernetes condition status (velstatus_condition_status).
type ConditionStatus int

// The condition statuses.
const (
	ConditionFalse   ConditionStatus = C.VELSTATUS_CONDITION_FALSE
	ConditionTrue    ConditionStatus = C.VELSTATUS_CONDITION_TRUE
	ConditionUnknown ConditionStatus = C.VELSTATUS_CONDITION_UNKNOWN
)

// String returns "False", "True" or "Unknown", or "ConditionStatus(N)".
func (s ConditionStatus) String() string {
	if p := C.velstatus_condition_status_to_string(C.velstatus_condition_status(s)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("ConditionStatus(%d)", int(s))
}

// BackupConditions are the kstatus-style conditions of a Backup or Restore
// (velstatus_backup_conditions_of).
type BackupConditions struct {
	Ready, Reconciling, Stalled ConditionStatus
	Reason                      string // the phase, "New", "NoStatus", "Deleting" or "UnknownPhase"
	PhaseValid                  bool   // the phase is absent or one of the kind's
	PhaseInRelease              bool   // the policy's Velero release has it
}

// BackupConditionsOf gives the Ready, Reconciling and Stalled conditions a
// Backup or Restore in phase (status.phase; nil when absent) should carry.
// policy picks the Velero release whose phases exist (nil: the current one).
func BackupConditionsOf(kind Kind, phase *string, deleting bool, policy *Policy) (BackupConditions, error) {
	var c C.velstatus_backup_conditions
	var cerr C.velstatus_error
	var cp *C.char
	var n C.size_t
	if phase != nil {
		cp = C.CString(*phase)
		defer C.free(unsafe.Pointer(cp))
		n = C.size_t(len(*phase))
	}
	C.velstatus_backup_conditions_init(&c, C.size_t(unsafe.Sizeof(c)))
	st := C.velstatus_backup_conditions_of(&c, C.velstatus_kind(kind), cp, n, cbool(deleting), policy.cptr(), &cerr)
	if err := check(st, &cerr); err != nil {
		return BackupConditions{}, err
	}
	return BackupConditions{
		Ready: ConditionStatus(c.ready), Reconciling: ConditionStatus(c.reconciling),
		Stalled: ConditionStatus(c.stalled), Reason: C.GoStringN(c.reason, C.int(c.reason_len)),
		PhaseValid: c.phase_valid != 0, PhaseInRelease: c.phase_in_release != 0,
	}, nil
}

// WatchType is the type of a watch event (velstatus_watch_type).
type WatchType int

// The watch event types.
const (
	WatchObject   WatchType = C.VELSTATUS_WATCH_OBJECT // no type: a bare object
	WatchAdded    WatchType = C.VELSTATUS_WATCH_ADDED
	WatchModified WatchType = C.VELSTATUS_WATCH_MODIFIED
	WatchDeleted  WatchType = C.VELSTATUS_WATCH_DELETED
	WatchBookmark WatchType = C.VELSTATUS_WATCH_BOOKMARK
	WatchError    WatchType = C.VELSTATUS_WATCH_ERROR // a Status: list again
)

// String returns the type's token ("ADDED", ...; "OBJECT"), or "WatchType(N)".
func (t WatchType) String() string {
	if p := C.velstatus_watch_type_to_string(C.velstatus_watch_type(t)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("WatchType(%d)", int(t))
}

// WatchEvent is one decoded event of a `kubectl get --watch -o json` stream.
type WatchEvent struct {
	Type    WatchType
	Object  []byte  // the event's object (the text itself for a bare object)
	Reason  *string // an ERROR's Status reason
	Message *string // an ERROR's Status message
	Code    *int64  // an ERROR's Status code
}

// DecodeWatchEvent decodes one watch event (velstatus_watch_event_from_json).
func DecodeWatchEvent(text []byte) (WatchEvent, error) {
	var ev WatchEvent
	err := withTempContext(func(c *C.velstatus_ctx) error {
		var e *C.velstatus_watch_event
		var cerr C.velstatus_error
		p, tn := cbuf(text)
		st := C.velstatus_watch_event_from_json(&e, c, p, tn, &cerr)
		runtime.KeepAlive(text)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_watch_event_free(e)
		ev = watchEventOf(e, text)
		return nil
	})
	return ev, err
}

// watchEventOf copies a decoded event out of C; its object is a slice of text.
func watchEventOf(e *C.velstatus_watch_event, text []byte) WatchEvent {
	var ev WatchEvent
	var off, n C.size_t
	var code C.int64_t
	length := C.velstatus_watch_event_object(e, &off)
	ev.Type = WatchType(C.velstatus_watch_event_type(e))
	ev.Object = text[int(off) : int(off)+int(length)]
	ev.Reason = ctext(C.velstatus_watch_event_reason(e, &n), n)
	ev.Message = ctext(C.velstatus_watch_event_message(e, &n), n)
	if C.velstatus_watch_event_code(e, &code) != 0 {
		x := int64(code)
		ev.Code = &x
	}
	return ev
}

// JSONValueEnd returns where the JSON value starting at data[0] ends
// (velstatus_json_value_end), validated as the decoders validate: the way to
// cut a watch stream into objects.
func JSONValueEnd(data []byte) (int, error) {
	var end C.size_t
	var cerr C.velstatus_error
	p, n := cbuf(data)
	st := C.velstatus_json_value_end(&end, nil, p, n, &cerr)
	runtime.KeepAlive(data)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return int(end), nil
}
