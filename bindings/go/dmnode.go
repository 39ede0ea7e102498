// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdint.h>
#include <stdlib.h>
#include <velstatus.h>
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// DmAction is what happens to a data-mover object next (velstatus_dm_action).
type DmAction int

// The actions, with the values of the C enum.
const (
	DmActionInvalid      DmAction = C.VELSTATUS_DM_ACTION_INVALID
	DmActionNone         DmAction = C.VELSTATUS_DM_ACTION_NONE
	DmActionWaitExpose   DmAction = C.VELSTATUS_DM_ACTION_WAIT_EXPOSE
	DmActionWaitDataPath DmAction = C.VELSTATUS_DM_ACTION_WAIT_DATA_PATH
	DmActionAccept       DmAction = C.VELSTATUS_DM_ACTION_ACCEPT
	DmActionStart        DmAction = C.VELSTATUS_DM_ACTION_START
	DmActionFail         DmAction = C.VELSTATUS_DM_ACTION_FAIL
	DmActionSetCancel    DmAction = C.VELSTATUS_DM_ACTION_SET_CANCEL
	DmActionCanceling    DmAction = C.VELSTATUS_DM_ACTION_CANCELING
	DmActionCanceled     DmAction = C.VELSTATUS_DM_ACTION_CANCELED
	DmActionResume       DmAction = C.VELSTATUS_DM_ACTION_RESUME
)

// String returns the C token ("set_cancel"; velstatus_dm_action_to_string).
func (a DmAction) String() string {
	return enumString(C.velstatus_dm_action_to_string(C.velstatus_dm_action(a)), "DmAction", int(a))
}

// DmWhen says when a DmAction happens (velstatus_dm_when).
type DmWhen int

// The values of the C enum.
const (
	DmWhenInvalid DmWhen = C.VELSTATUS_DM_WHEN_INVALID
	DmWhenNever   DmWhen = C.VELSTATUS_DM_WHEN_NEVER // nothing the controller times
	DmWhenNow     DmWhen = C.VELSTATUS_DM_WHEN_NOW   // at the controller's next pass
	DmWhenAt      DmWhen = C.VELSTATUS_DM_WHEN_AT    // at DmDecision.At, later than now
)

// String returns "never", "now" or "at" (velstatus_dm_when_to_string).
func (w DmWhen) String() string {
	return enumString(C.velstatus_dm_when_to_string(C.velstatus_dm_when(w)), "DmWhen", int(w))
}

// DmObject holds the fields of a DataUpload or DataDownload that the
// node-agent's decisions read. A zero time.Time is an absent timestamp.
type DmObject struct {
	Kind                 DmKind
	Phase                string // status.phase as written ("" is New)
	Cancel               bool   // spec.cancel
	Deleting             bool   // metadata.deletionTimestamp is set
	Namespace, Name      string
	Node                 string    // status.node
	AcceptedByLabel      string    // labels["velero.io/accepted-by"] (1.12 to 1.14)
	AcceptedAtAnnotation string    // annotations["velero.io/accepted-at"] (1.15)
	Start                time.Time // status.startTimestamp
	Accepted             time.Time // status.acceptedTimestamp (1.16 and later)
}

// DmConfig is what the caller knows beyond the object; the zero value is
// the defaults. A zero time.Time is "none".
type DmConfig struct {
	PrepareTimeout time.Duration // 0: the release's default
	NodeRestart    time.Time     // a node-agent restarts at this instant
	RestartNode    string        // on this node
	ServerRestart  time.Time     // the Velero server restarts while the backup is InProgress
	CancelSeen     time.Time     // 1.17+: when the controller first saw spec.cancel
	ResumeError    string        // 1.15+: the error resuming an InProgress data path gives ("" succeeds)
}

// DmDecision is the node-agent's next decision (velstatus_dm_decision).
type DmDecision struct {
	Action      DmAction
	When        DmWhen
	At          time.Time // the rule's instant; zero when it has none
	PhaseAfter  DmPhase
	CancelAfter bool    // spec.cancel after the action
	Message     *string // the status.message it writes; nil: left as it is
}

// dmTexts copies Go strings to C memory for one call.
type dmTexts []unsafe.Pointer

func (t *dmTexts) set(s string, p **C.char, n *C.size_t) {
	if s == "" {
		return
	}
	c := C.CBytes([]byte(s))
	*t = append(*t, c)
	*p, *n = (*C.char)(c), C.size_t(len(s))
}

func (t dmTexts) free() {
	for _, p := range t {
		C.free(p)
	}
}

var dmMinTime, dmMaxTime = time.Unix(0, -1<<63), time.Unix(0, 1<<63-1)

// dmNs is t in int64 nanoseconds; ok is false for the zero time.
func dmNs(t time.Time, what string) (ns C.int64_t, ok C.int, err error) {
	if t.IsZero() {
		return 0, 0, nil
	}
	if t.Before(dmMinTime) || t.After(dmMaxTime) {
		return 0, 0, fmt.Errorf("velstatus: DmDecide: %s %v is outside the int64 nanosecond range", what, t)
	}
	return C.int64_t(t.UnixNano()), 1, nil
}

func dmNodeObject(o DmObject, t *dmTexts) (C.velstatus_dm_object, error) {
	var c C.velstatus_dm_object
	var err error
	C.velstatus_dm_object_init(&c, C.size_t(unsafe.Sizeof(c)), nil)
	c.kind = C.velstatus_dm_kind(o.Kind)
	c.phase_text = (*C.char)(C.CBytes([]byte(o.Phase + "\x00"))) // set even when "": the phase is read from it
	*t = append(*t, unsafe.Pointer(c.phase_text))
	c.phase_text_len = C.size_t(len(o.Phase))
	c.cancel, c.deleting = cbool(o.Cancel), cbool(o.Deleting)
	t.set(o.Namespace, &c.ns, &c.ns_len)
	t.set(o.Name, &c.name, &c.name_len)
	t.set(o.Node, &c.node, &c.node_len)
	t.set(o.AcceptedByLabel, &c.accepted_by_label, &c.accepted_by_label_len)
	t.set(o.AcceptedAtAnnotation, &c.accepted_at_annotation, &c.accepted_at_annotation_len)
	if c.start_ns, c.has_start, err = dmNs(o.Start, "Start"); err != nil {
		return c, err
	}
	c.accepted_ns, c.has_accepted, err = dmNs(o.Accepted, "Accepted")
	return c, err
}

func dmNodeConfig(cfg *DmConfig, t *dmTexts) (C.velstatus_dm_config, error) {
	var c C.velstatus_dm_config
	var err error
	C.velstatus_dm_config_init(&c, C.size_t(unsafe.Sizeof(c)), nil)
	if cfg == nil {
		return c, nil
	}
	c.prepare_timeout_ns = C.int64_t(cfg.PrepareTimeout)
	t.set(cfg.RestartNode, &c.restart_node, &c.restart_node_len)
	t.set(cfg.ResumeError, &c.resume_error, &c.resume_error_len)
	if c.node_restart_ns, c.has_node_restart, err = dmNs(cfg.NodeRestart, "NodeRestart"); err != nil {
		return c, err
	}
	if c.server_restart_ns, c.has_server_restart, err = dmNs(cfg.ServerRestart, "ServerRestart"); err != nil {
		return c, err
	}
	c.cancel_seen_ns, c.has_cancel_seen, err = dmNs(cfg.CancelSeen, "CancelSeen")
	return c, err
}

// dmCall holds one call's C structs: they live in C memory, as they hold
// pointers to C texts.
type dmCall struct {
	texts dmTexts
	obj   *C.velstatus_dm_object
	cfg   *C.velstatus_dm_config
	now   C.int64_t
}

func newDmCall(obj DmObject, now time.Time, cfg *DmConfig) (*dmCall, error) {
	c := &dmCall{}
	o, err := dmNodeObject(obj, &c.texts)
	if err == nil {
		var q C.velstatus_dm_config
		if q, err = dmNodeConfig(cfg, &c.texts); err == nil {
			c.now, _, err = dmNs(now, "now")
			c.obj = (*C.velstatus_dm_object)(C.malloc(C.size_t(unsafe.Sizeof(o))))
			c.cfg = (*C.velstatus_dm_config)(C.malloc(C.size_t(unsafe.Sizeof(q))))
			*c.obj, *c.cfg = o, q
		}
	}
	if err != nil {
		c.free()
		return nil, err
	}
	return c, nil
}

func (c *dmCall) free() {
	c.texts.free()
	C.free(unsafe.Pointer(c.obj))
	C.free(unsafe.Pointer(c.cfg))
}

// newDmDecisions is n initialized decisions in C memory.
func newDmDecisions(n int) []C.velstatus_dm_decision {
	p := (*C.velstatus_dm_decision)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.velstatus_dm_decision{}))))
	d := unsafe.Slice(p, n)
	for i := range d {
		C.velstatus_dm_decision_init(&d[i], C.size_t(unsafe.Sizeof(d[i])), nil)
	}
	return d
}

func dmDecisionFromC(d *C.velstatus_dm_decision) DmDecision {
	out := DmDecision{Action: DmAction(d.action), When: DmWhen(d.when), PhaseAfter: DmPhase(d.phase_after),
		CancelAfter: d.cancel_after != 0}
	if d.has_at != 0 {
		out.At = time.Unix(0, int64(d.at_ns)).UTC()
	}
	if d.message_set != 0 {
		m := C.GoStringN(&d.message[0], C.int(d.message_len))
		out.Message = &m
	}
	return out
}

// DmDecide says what Velero major.minor's node-agent does next with the
// object at now, and when (velstatus_dm_decide; doc/data-mover.md). cfg
// may be nil.
func DmDecide(obj DmObject, now time.Time, major, minor int, cfg *DmConfig) (DmDecision, error) {
	c, err := newDmCall(obj, now, cfg)
	if err != nil {
		return DmDecision{}, err
	}
	defer c.free()
	d := newDmDecisions(1)
	defer C.free(unsafe.Pointer(&d[0]))
	var cerr C.velstatus_error
	if err := check(C.velstatus_dm_decide(c.obj, c.now, C.int(major), C.int(minor), c.cfg, &d[0], &cerr), &cerr); err != nil {
		return DmDecision{}, err
	}
	return dmDecisionFromC(&d[0]), nil
}

// DmTimeline is the changes to come, one after another
// (velstatus_dm_timeline): each decision's At is the instant it happens.
func DmTimeline(obj DmObject, now time.Time, major, minor int, cfg *DmConfig) ([]DmDecision, error) {
	c, err := newDmCall(obj, now, cfg)
	if err != nil {
		return nil, err
	}
	defer c.free()
	var n C.size_t
	var cerr C.velstatus_error
	if err := check(C.velstatus_dm_timeline(c.obj, c.now, C.int(major), C.int(minor), c.cfg, nil, 0, &n, &cerr), &cerr); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	d := newDmDecisions(int(n))
	defer C.free(unsafe.Pointer(&d[0]))
	if err := check(C.velstatus_dm_timeline(c.obj, c.now, C.int(major), C.int(minor), c.cfg, &d[0], n, &n, &cerr), &cerr); err != nil {
		return nil, err
	}
	out := make([]DmDecision, int(n))
	for i := range out {
		out[i] = dmDecisionFromC(&d[i])
	}
	return out, nil
}

// DmPrepareTimeoutDefault is the node-agent's default
// --data-mover-prepare-timeout of Velero major.minor.
func DmPrepareTimeoutDefault(major, minor int) (time.Duration, error) {
	var ns C.int64_t
	var cerr C.velstatus_error
	if err := check(C.velstatus_dm_prepare_timeout_default(C.int(major), C.int(minor), &ns, &cerr), &cerr); err != nil {
		return 0, err
	}
	return time.Duration(ns), nil
}

// Next says what Velero major.minor's node-agent does next with the i-th
// object at now, and when (velstatus_dm_next). cfg may be nil.
func (dms *DataMoverList) Next(i int, now time.Time, major, minor int, cfg *DmConfig) (DmDecision, error) {
	if i < 0 {
		return DmDecision{}, fmt.Errorf("velstatus: DataMoverList.Next: index %d is negative", i)
	}
	c, err := newDmCall(DmObject{}, now, cfg)
	if err != nil {
		return DmDecision{}, err
	}
	defer c.free()
	d := newDmDecisions(1)
	defer C.free(unsafe.Pointer(&d[0]))
	err = dms.with(func(_ *C.velstatus_ctx, l *C.velstatus_dm_list) error {
		var cerr C.velstatus_error
		return check(C.velstatus_dm_next(l, C.size_t(i), c.now, C.int(major), C.int(minor), c.cfg, &d[0], &cerr), &cerr)
	})
	if err != nil {
		return DmDecision{}, err
	}
	return dmDecisionFromC(&d[0]), nil
}
