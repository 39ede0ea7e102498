// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdlib.h>
#include <velstatus.h>

// shim.c: fills the vtable with the C trampolines of callbacks.go.
extern void vs_go_server_host_setup(velstatus_server_status_host *host, void *userdata, int with_read,
                                    int with_classify);
// shim.c: velstatus_bsl_watch_event_foreach() with each BSL added to set.
extern velstatus_status vs_go_bsl_watch_event(velstatus_watch_event **event, velstatus_bsl_set *set,
                                              velstatus_ctx *ctx, const char *json, size_t len,
                                              velstatus_error *err);
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"time"
	"unsafe"
)

// ServerState is the server status (velstatus_server_status), an int
// constant like every other enum of the binding; String() gives the token the
// CLI prints ("Ready", "PartiallyReady", "Waiting", "NotReady") from the
// library's velstatus_server_status_to_string.
type ServerState int

// The server states.
const (
	ServerReady          ServerState = C.VELSTATUS_SERVER_READY
	ServerPartiallyReady ServerState = C.VELSTATUS_SERVER_PARTIALLY_READY
	ServerWaiting        ServerState = C.VELSTATUS_SERVER_WAITING
	ServerNotReady       ServerState = C.VELSTATUS_SERVER_NOT_READY
)

// Reason is a reason flag (velstatus_server_reason). The C type is a bit set:
// the value is the flag's bit. String() gives its token, e.g.
// "some_unavailable" (velstatus_server_reason_to_string); see
// doc/server-status.md.
type Reason uint32

// The reason flags.
const (
	ReasonNoBSL               Reason = C.VELSTATUS_SERVER_REASON_NO_BSL
	ReasonPending             Reason = C.VELSTATUS_SERVER_REASON_PENDING
	ReasonAllUnavailable      Reason = C.VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE
	ReasonSomeUnavailable     Reason = C.VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE
	ReasonSomePending         Reason = C.VELSTATUS_SERVER_REASON_SOME_PENDING
	ReasonNoDefault           Reason = C.VELSTATUS_SERVER_REASON_NO_DEFAULT
	ReasonMultipleDefaults    Reason = C.VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS
	ReasonDefaultNotAvailable Reason = C.VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE
	ReasonDefaultReadOnly     Reason = C.VELSTATUS_SERVER_REASON_DEFAULT_READONLY
	ReasonStale               Reason = C.VELSTATUS_SERVER_REASON_STALE
	ReasonUnknownPhase        Reason = C.VELSTATUS_SERVER_REASON_UNKNOWN_PHASE
	ReasonNeverValidated      Reason = C.VELSTATUS_SERVER_REASON_NEVER_VALIDATED
)

// String returns the state's token, or "ServerState(N)" outside the enum.
func (s ServerState) String() string {
	if p := C.velstatus_server_status_to_string(C.velstatus_server_status(s)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("ServerState(%d)", int(s))
}

// String returns the reason's token, or "Reason(N)" for a value that is not one flag.
func (r Reason) String() string {
	if p := C.velstatus_server_reason_to_string(C.velstatus_server_reason(r)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("Reason(%d)", uint32(r))
}

// ParseServerState parses a state token ("Ready", ...; exact, case-sensitive).
func ParseServerState(s string) (ServerState, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_server_status
	var cerr C.velstatus_error
	st := C.velstatus_server_status_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	return ServerState(out), check(st, &cerr)
}

// ParseReason parses a reason token ("some_unavailable", ...; exact, case-sensitive).
func ParseReason(s string) (Reason, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_server_reason
	var cerr C.velstatus_error
	st := C.velstatus_server_reason_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	return Reason(out), check(st, &cerr)
}

// cvalue is the C enum of a state the library knows (ErrInvalid otherwise).
func (s ServerState) cvalue() (C.velstatus_server_status, error) {
	v, err := ParseServerState(s.String())
	return C.velstatus_server_status(v), err
}

// cvalue is the flag of a reason the library knows (ErrInvalid otherwise).
func (r Reason) cvalue() (C.velstatus_server_reason, error) {
	v, err := ParseReason(r.String())
	return C.velstatus_server_reason(v), err
}

// reasonsOf splits a reason bitmask into its flags, sorted by token as the
// JSON encoding sorts them. A bit the library has no name for is kept
// (printed "Reason(N)") rather than dropped.
func reasonsOf(mask C.uint32_t) []Reason {
	rs := []Reason{}
	for bit := 0; bit < 32; bit++ {
		if mask&(1<<uint(bit)) == 0 {
			continue
		}
		rs = append(rs, Reason(1)<<uint(bit))
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].String() < rs[j].String() })
	return rs
}

// reasonMask joins tokens into the C bitmask.
func reasonMask(rs []Reason) (C.uint32_t, error) {
	var m C.uint32_t
	for _, r := range rs {
		v, err := r.cvalue()
		if err != nil {
			return 0, err
		}
		m |= C.uint32_t(v)
	}
	return m, nil
}

// Options says how to classify (velstatus_server_status_options). The zero
// value is the library's default: no default-location setting, no
// staleness check, four states.
type Options struct {
	// DefaultLocation is the server's --default-backup-storage-location:
	// when non-empty, the BSL of that name alone is the default.
	DefaultLocation string
	// CheckStale enables the staleness check: an Available BSL whose last
	// validation is older than StaleAfter at Now (or missing) counts as
	// pending and is flagged "stale".
	CheckStale bool
	Now        time.Time     // the present instant (with CheckStale)
	StaleAfter time.Duration // the staleness bound, >= 0 (with CheckStale)
	// ThreeState reports NotReady as Waiting (the three-status reading).
	ThreeState bool
	// Policy drives the publish retries of ServerStatusStep (nil: hardened).
	Policy *Policy
	// RetryTimeout is the retry budget of one publish (Velero's
	// --resource-timeout); 0 means Velero's default, 10 minutes.
	RetryTimeout time.Duration
}

// cOptions is a C options struct. The default-location text is copied into
// C memory (a Go struct passed to C may not point at Go memory); release it
// with free once the C call is over (the tracker keeps its own copy).
type cOptions struct {
	c      C.velstatus_server_status_options
	policy *C.velstatus_policy // C memory; nil for the hardened preset
}

func (o *Options) toC() (*cOptions, error) {
	co := &cOptions{}
	C.velstatus_server_status_options_init(&co.c, C.size_t(unsafe.Sizeof(co.c)))
	if !o.CheckStale && (o.StaleAfter != 0 || !o.Now.IsZero()) {
		return nil, errorf(StatusInvalid, "Options.Now and Options.StaleAfter need Options.CheckStale")
	}
	if o.CheckStale {
		ns, err := unixNanos(o.Now)
		if err != nil {
			return nil, err
		}
		co.c.check_stale = 1
		co.c.now_ns = C.int64_t(ns)
		co.c.stale_after_ns = C.int64_t(o.StaleAfter)
	}
	co.c.three_state = cbool(o.ThreeState)
	co.c.retry_timeout_ns = C.int64_t(o.RetryTimeout)
	if o.Policy != nil {
		// The step is passed a pointer to the policy, so it lives in C memory too.
		cp := (*C.velstatus_policy)(C.malloc(C.size_t(unsafe.Sizeof(C.velstatus_policy{}))))
		*cp = o.Policy.toC()
		co.policy = cp
	}
	if o.DefaultLocation != "" {
		co.c.default_location = (*C.char)(C.CBytes([]byte(o.DefaultLocation)))
		co.c.default_location_len = C.size_t(len(o.DefaultLocation))
	}
	return co, nil
}

func (co *cOptions) ptr() *C.velstatus_server_status_options { return &co.c }

func (co *cOptions) free() {
	if co.policy != nil {
		C.free(unsafe.Pointer(co.policy))
		co.policy = nil
	}
	if co.c.default_location != nil {
		C.free(unsafe.Pointer(co.c.default_location))
		co.c.default_location = nil
	}
}

// BSL is one BackupStorageLocation as the classification sees it
// (velstatus_bsl_record).
type BSL struct {
	Name          string    // metadata.name: non-empty, unique
	Phase         string    // status.phase, verbatim ("" = never validated)
	Default       bool      // spec.default
	ReadOnly      bool      // spec.accessMode is ReadOnly
	Created       time.Time // metadata.creationTimestamp; zero = unknown
	LastValidated time.Time // status.lastValidationTime; zero = never
	Message       string    // status.message (kept, never classified)
}

// record is a velstatus_bsl_record of b whose texts live in one C buffer:
// the record may hold no Go pointer. Call free when done.
type record struct {
	c   C.velstatus_bsl_record
	buf unsafe.Pointer
}

func (b *BSL) record() (*record, error) {
	cb, err := b.toC()
	if err != nil {
		return nil, err
	}
	r := &record{}
	C.velstatus_bsl_record_init(&r.c, C.size_t(unsafe.Sizeof(r.c)))
	texts := [3]string{b.Name, b.Phase, b.Message}
	if all := texts[0] + texts[1] + texts[2]; len(all) > 0 {
		r.buf = C.CBytes([]byte(all))
	}
	at := uintptr(0)
	ptrs := [3]**C.char{&r.c.name, &r.c.phase, &r.c.message}
	lens := [3]*C.size_t{&r.c.name_len, &r.c.phase_len, &r.c.message_len}
	for i, t := range texts {
		if len(t) > 0 {
			*ptrs[i] = (*C.char)(unsafe.Add(r.buf, at))
			*lens[i] = C.size_t(len(t))
			at += uintptr(len(t))
		}
	}
	r.c.is_default, r.c.access = cb.isDefault, cb.access
	r.c.has_created, r.c.created_ns = cb.hasCreated, cb.createdNs
	r.c.has_validated, r.c.validated_ns = cb.hasValid, cb.validatedNs
	return r, nil
}

func (r *record) free() {
	if r.buf != nil {
		C.free(r.buf)
		r.buf = nil
	}
}

// bslOf reads the i-th BSL of a set (velstatus_bsl_set_get).
func bslOf(set *C.velstatus_bsl_set, i C.size_t) (BSL, error) {
	var r C.velstatus_bsl_record
	var cerr C.velstatus_error
	C.velstatus_bsl_record_init(&r, C.size_t(unsafe.Sizeof(r)))
	if err := check(C.velstatus_bsl_set_get(set, i, &r, &cerr), &cerr); err != nil {
		return BSL{}, err
	}
	b := BSL{Name: gsn(r.name, r.name_len), Phase: gsn(r.phase, r.phase_len), Default: r.is_default != 0,
		ReadOnly: r.access == C.VELSTATUS_BSL_READ_ONLY, Message: gsn(r.message, r.message_len)}
	if r.has_created != 0 {
		b.Created = time.Unix(0, int64(r.created_ns)).UTC()
	}
	if r.has_validated != 0 {
		b.LastValidated = time.Unix(0, int64(r.validated_ns)).UTC()
	}
	return b, nil
}

// cbsl holds the C arguments of velstatus_bsl_set_add (and the scalars of a record).
type cbsl struct {
	name, phase            []byte
	isDefault              C.int
	access                 C.velstatus_bsl_access
	hasCreated, hasValid   C.int
	createdNs, validatedNs C.int64_t
}

func (b *BSL) toC() (*cbsl, error) {
	c := &cbsl{name: []byte(b.Name), phase: []byte(b.Phase), isDefault: cbool(b.Default),
		access: C.VELSTATUS_BSL_READ_WRITE}
	if b.ReadOnly {
		c.access = C.VELSTATUS_BSL_READ_ONLY
	}
	if !b.Created.IsZero() {
		ns, err := unixNanos(b.Created)
		if err != nil {
			return nil, err
		}
		c.hasCreated, c.createdNs = 1, C.int64_t(ns)
	}
	if !b.LastValidated.IsZero() {
		ns, err := unixNanos(b.LastValidated)
		if err != nil {
			return nil, err
		}
		c.hasValid, c.validatedNs = 1, C.int64_t(ns)
	}
	return c, nil
}

// Verdict is a classification result (velstatus_server_verdict), copied
// into Go values.
type Verdict struct {
	Status      ServerState         // the state, printed as the CLI prints it
	Reasons     []Reason            // the reason flags set, sorted; empty, never nil
	Available   int                 // A: BSLs counted Available
	Unavailable int                 // U: BSLs whose phase is Unavailable
	Pending     int                 // P: BSLs counted pending
	Total       int                 // n = A + U + P
	Default     string              // the resolved default BSL; "" when none
	BSLs        map[Reason][]string // the BSL names behind each set reason (sorted; possibly empty)
	Message     string              // a one-line human message
	JSON        []byte              // the verdict as the library encodes it (the CLI's -o json)
	condition   Condition           // the library's condition at the epoch (see Condition)
}

// verdictFromC copies a C verdict (not freed here).
func verdictFromC(c *C.velstatus_ctx, v *C.velstatus_server_verdict) (Verdict, error) {
	mask := C.velstatus_server_verdict_reasons(v)
	out := Verdict{
		Status:      ServerState(C.velstatus_server_verdict_status(v)),
		Reasons:     reasonsOf(mask),
		Available:   int(C.velstatus_server_verdict_available(v)),
		Unavailable: int(C.velstatus_server_verdict_unavailable(v)),
		Pending:     int(C.velstatus_server_verdict_pending(v)),
		Total:       int(C.velstatus_server_verdict_total(v)),
		Default:     goStr(C.velstatus_server_verdict_default(v)),
		BSLs:        map[Reason][]string{},
		Message:     goStr(C.velstatus_server_verdict_message(v)),
	}
	for bit := 0; bit < 32; bit++ {
		flag := C.velstatus_server_reason(1 << uint(bit))
		if mask&C.uint32_t(flag) == 0 || C.velstatus_server_reason_to_string(flag) == nil {
			continue
		}
		n := int(C.velstatus_server_verdict_name_count(v, flag))
		names := make([]string, 0, n)
		for i := 0; i < n; i++ {
			names = append(names, goStr(C.velstatus_server_verdict_name(v, flag, C.size_t(i))))
		}
		out.BSLs[Reason(flag)] = names
	}
	var js *C.char
	var jn C.size_t
	var cerr C.velstatus_error
	if err := check(C.velstatus_server_verdict_to_json(&js, &jn, v, &cerr), &cerr); err != nil {
		return Verdict{}, err
	}
	out.JSON = []byte(takeString(c, js, jn))
	var err error
	out.condition, err = conditionBase(c, v)
	return out, err
}

// ServerStatus classifies the BSLs in bslsJSON, the output of
// `kubectl get backupstoragelocations -o json` (a List, an array or one
// BSL), exactly as `velstatus server-status` does. Malformed input is
// ErrParse and a field of the wrong type ErrSchema, with the JSON path,
// line and column.
func ServerStatus(bslsJSON []byte, opts Options) (Verdict, error) {
	co, err := opts.toC()
	if err != nil {
		return Verdict{}, err
	}
	defer co.free()
	var out Verdict
	err = withTempContext(func(c *C.velstatus_ctx) error {
		var set *C.velstatus_bsl_set
		var cerr C.velstatus_error
		p, n := cbuf(bslsJSON)
		st := C.velstatus_bsl_set_from_json(&set, c, p, n, &cerr)
		runtime.KeepAlive(bslsJSON)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_bsl_set_free(set)
		return classifySet(c, &out, set, co)
	})
	return out, err
}

// DecodeBSLs decodes `kubectl get bsl -o json` output as ServerStatus does
// (velstatus_bsl_set_from_json) and lists the BSLs in input order, every
// field the classification reads and the status.message: a decoded BSL can
// go straight to Tracker.Upsert.
func DecodeBSLs(bslsJSON []byte) ([]BSL, error) {
	var out []BSL
	err := withTempContext(func(c *C.velstatus_ctx) error {
		var set *C.velstatus_bsl_set
		var cerr C.velstatus_error
		p, n := cbuf(bslsJSON)
		st := C.velstatus_bsl_set_from_json(&set, c, p, n, &cerr)
		runtime.KeepAlive(bslsJSON)
		if err := check(st, &cerr); err != nil {
			return err
		}
		defer C.velstatus_bsl_set_free(set)
		var err error
		out, err = bslsOf(set)
		return err
	})
	return out, err
}

// DecodeBSLWatchEvent decodes one event of a BackupStorageLocation watch and
// the BSLs of its object, validating the text once
// (velstatus_bsl_watch_event_foreach): the event as DecodeWatchEvent gives
// it, the BSLs as DecodeBSLs gives those of its object (none for an ERROR or
// a BOOKMARK).
func DecodeBSLWatchEvent(text []byte) (WatchEvent, []BSL, error) {
	var ev WatchEvent
	var out []BSL
	err := withTempContext(func(c *C.velstatus_ctx) error {
		var e *C.velstatus_watch_event
		var set *C.velstatus_bsl_set
		var cerr C.velstatus_error
		if err := check(C.velstatus_bsl_set_new(&set, c, &cerr), &cerr); err != nil {
			return err
		}
		p, n := cbuf(text)
		st := C.vs_go_bsl_watch_event(&e, set, c, p, n, &cerr)
		runtime.KeepAlive(text)
		defer C.velstatus_watch_event_free(e)
		defer C.velstatus_bsl_set_free(set)
		if err := check(st, &cerr); err != nil {
			return err
		}
		ev = watchEventOf(e, text)
		var err error
		out, err = bslsOf(set)
		return err
	})
	return ev, out, err
}

// bslsOf lists the BSLs of a C set (none for NULL), in set order.
func bslsOf(set *C.velstatus_bsl_set) ([]BSL, error) {
	count := C.velstatus_bsl_set_count(set)
	out := make([]BSL, 0, int(count))
	for i := C.size_t(0); i < count; i++ {
		b, err := bslOf(set, i)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// ClassifyBSLs classifies a list of BSLs built in Go.
func ClassifyBSLs(bsls []BSL, opts Options) (Verdict, error) {
	co, err := opts.toC()
	if err != nil {
		return Verdict{}, err
	}
	defer co.free()
	var out Verdict
	err = withTempContext(func(c *C.velstatus_ctx) error {
		var set *C.velstatus_bsl_set
		var cerr C.velstatus_error
		if err := check(C.velstatus_bsl_set_new(&set, c, &cerr), &cerr); err != nil {
			return err
		}
		defer C.velstatus_bsl_set_free(set)
		for i := range bsls {
			b, err := bsls[i].toC()
			if err != nil {
				return err
			}
			np, nn := cbuf(b.name)
			pp, pn := cbuf(b.phase)
			st := C.velstatus_bsl_set_add(set, np, nn, pp, pn, b.isDefault, b.access, b.hasCreated,
				b.createdNs, b.hasValid, b.validatedNs, &cerr)
			runtime.KeepAlive(b)
			if err := check(st, &cerr); err != nil {
				return err
			}
		}
		return classifySet(c, &out, set, co)
	})
	return out, err
}

func classifySet(c *C.velstatus_ctx, out *Verdict, set *C.velstatus_bsl_set, co *cOptions) error {
	var v *C.velstatus_server_verdict
	var cerr C.velstatus_error
	st := C.velstatus_server_status_classify(&v, set, co.ptr(), &cerr)
	runtime.KeepAlive(co)
	if err := check(st, &cerr); err != nil {
		return err
	}
	defer C.velstatus_server_verdict_free(v)
	var err error
	*out, err = verdictFromC(c, v)
	return err
}

// Tracker keeps a BSL set current one event at a time
// (velstatus_server_tracker): Upsert and Delete cost O(1) and say whether
// the status or the reasons changed, so a controller publishes only on
// change. A Tracker is safe for concurrent use; Close releases it.
type Tracker struct {
	ctx *Context
	t   *C.velstatus_server_tracker
}

// NewTracker creates an empty tracker classifying with opts.
func NewTracker(opts Options) (*Tracker, error) {
	co, err := opts.toC()
	if err != nil {
		return nil, err
	}
	defer co.free()
	ctx, err := NewContext()
	if err != nil {
		return nil, err
	}
	tr := &Tracker{ctx: ctx}
	err = ctx.do(func(c *C.velstatus_ctx) error {
		var cerr C.velstatus_error
		st := C.velstatus_server_tracker_new(&tr.t, c, co.ptr(), &cerr)
		runtime.KeepAlive(co)
		return check(st, &cerr)
	})
	if err != nil {
		ctx.Close()
		return nil, err
	}
	runtime.SetFinalizer(tr, (*Tracker).Close)
	return tr, nil
}

// Close releases the tracker (idempotent; a finalizer backs it up).
func (tr *Tracker) Close() error {
	_ = tr.ctx.do(func(*C.velstatus_ctx) error {
		C.velstatus_server_tracker_free(tr.t)
		tr.t = nil
		return nil
	})
	runtime.SetFinalizer(tr, nil)
	return tr.ctx.Close()
}

// with runs fn on the open tracker, holding its context's lock.
func (tr *Tracker) with(fn func(t *C.velstatus_server_tracker) error) error {
	return tr.withCtx(func(_ *C.velstatus_ctx, t *C.velstatus_server_tracker) error { return fn(t) })
}

func (tr *Tracker) withCtx(fn func(c *C.velstatus_ctx, t *C.velstatus_server_tracker) error) error {
	err := tr.ctx.do(func(c *C.velstatus_ctx) error {
		if tr.t == nil {
			return errClosed("velstatus.Tracker")
		}
		return fn(c, tr.t)
	})
	runtime.KeepAlive(tr)
	return err
}

// Upsert inserts a BSL or replaces the one of the same name
// (velstatus_server_tracker_upsert).
func (tr *Tracker) Upsert(b BSL) (changed bool, err error) {
	r, err := b.record()
	if err != nil {
		return false, err
	}
	defer r.free()
	err = tr.with(func(t *C.velstatus_server_tracker) error {
		var ch C.int
		var cerr C.velstatus_error
		st := C.velstatus_server_tracker_upsert(t, &ch, &r.c, &cerr)
		changed = ch != 0
		return check(st, &cerr)
	})
	return changed, err
}

// UpsertJSON inserts or replaces the BSL of one BackupStorageLocation
// object's JSON (a watch event's object), decoded as ServerStatus decodes
// each item (velstatus_server_tracker_upsert_json): a field of the wrong
// type is ErrSchema with its path, line and column. On error the tracker is
// unchanged.
func (tr *Tracker) UpsertJSON(bslJSON []byte) (changed bool, err error) {
	err = tr.with(func(t *C.velstatus_server_tracker) error {
		var ch C.int
		var cerr C.velstatus_error
		p, n := cbuf(bslJSON)
		st := C.velstatus_server_tracker_upsert_json(t, &ch, p, n, &cerr)
		runtime.KeepAlive(bslJSON)
		changed = ch != 0
		return check(st, &cerr)
	})
	return changed, err
}

// Delete removes the BSL of that name; an absent name is a no-op.
func (tr *Tracker) Delete(name string) (changed bool, err error) {
	b := []byte(name)
	err = tr.with(func(t *C.velstatus_server_tracker) error {
		var ch C.int
		var cerr C.velstatus_error
		p, n := cbuf(b)
		st := C.velstatus_server_tracker_delete(t, &ch, p, n, &cerr)
		runtime.KeepAlive(b)
		changed = ch != 0
		return check(st, &cerr)
	})
	return changed, err
}

// SetNow moves the tracker's clock. With CheckStale it re-evaluates
// staleness (O(n)); without, it only dates the transitions that follow
// (LastTransition), O(1).
func (tr *Tracker) SetNow(now time.Time) (changed bool, err error) {
	ns, err := unixNanos(now)
	if err != nil {
		return false, err
	}
	err = tr.with(func(t *C.velstatus_server_tracker) error {
		var ch C.int
		var cerr C.velstatus_error
		st := C.velstatus_server_tracker_set_now(t, &ch, C.int64_t(ns), &cerr)
		changed = ch != 0
		return check(st, &cerr)
	})
	return changed, err
}

// Status returns the current state, O(1) (Waiting after Close).
func (tr *Tracker) Status() ServerState {
	s := ServerWaiting
	_ = tr.with(func(t *C.velstatus_server_tracker) error {
		s = ServerState(C.velstatus_server_tracker_status(t))
		return nil
	})
	return s
}

// Reasons returns the current reason flags, sorted.
func (tr *Tracker) Reasons() []Reason {
	var m C.uint32_t
	_ = tr.with(func(t *C.velstatus_server_tracker) error {
		m = C.velstatus_server_tracker_reasons(t)
		return nil
	})
	return reasonsOf(m)
}

// LastTransition returns when the condition status (True, False, Unknown)
// last changed: the tracker's clock at that event, the condition's
// lastTransitionTime (a change of the reasons alone, or between Ready and
// PartiallyReady, is none). ok is false while it is unknown: no clock given
// yet (CheckStale's Now, or SetNow), or after Close.
func (tr *Tracker) LastTransition() (at time.Time, ok bool) {
	var ns C.int64_t
	_ = tr.with(func(t *C.velstatus_server_tracker) error {
		ok = C.velstatus_server_tracker_last_transition(t, &ns) != 0
		return nil
	})
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(0, int64(ns)).UTC(), true
}

// Len returns the number of BSLs tracked.
func (tr *Tracker) Len() int {
	n := 0
	_ = tr.with(func(t *C.velstatus_server_tracker) error {
		n = int(C.velstatus_server_tracker_count(t))
		return nil
	})
	return n
}

// Verdict builds the full verdict of the tracked set, equal to what
// ClassifyBSLs gives for the same BSLs and options.
func (tr *Tracker) Verdict() (Verdict, error) {
	var out Verdict
	err := tr.withCtx(func(c *C.velstatus_ctx, t *C.velstatus_server_tracker) error {
		var v *C.velstatus_server_verdict
		var cerr C.velstatus_error
		if err := check(C.velstatus_server_tracker_verdict(&v, t, &cerr), &cerr); err != nil {
			return err
		}
		defer C.velstatus_server_verdict_free(v)
		var err error
		out, err = verdictFromC(c, v)
		return err
	})
	return out, err
}

// ServerStatusHost is the host side of one controller step
// (velstatus_server_status_host). A host that also implements
// PublishedStatusReader is asked for the published status, and the step
// publishes only on change; otherwise it always publishes.
type ServerStatusHost interface {
	// ListBSLs returns the BSLs as `kubectl get bsl -o json` text.
	ListBSLs() ([]byte, error)
	// Publish publishes a new status; verdictJSON is the library's encoding.
	Publish(status ServerState, reasons []Reason, verdictJSON []byte) error
}

// PublishedStatusReader is the optional read_status slot of a
// ServerStatusHost: ok is false when nothing was published yet.
type PublishedStatusReader interface {
	ReadStatus() (status ServerState, reasons []Reason, ok bool, err error)
}

// serverStepCall is what the trampolines of one ServerStatusStep see.
type serverStepCall struct {
	hookState // the publish retries' hooks; errs holds the publish errors
	host      ServerStatusHost
	reader    PublishedStatusReader
	publishes uint64 // publish attempts so far
}

// ServerStatusStep runs one controller step (velstatus_server_status_step):
// list the BSLs, classify them, read the published status, and publish the
// new one when it differs. The publish is a status write, retried as
// opts.Policy says within opts.RetryTimeout, with the hooks' sleep, random,
// clock and classifier (nil hooks: real time; a nil Classify retries every
// error). An error from ListBSLs or ReadStatus, a publish still failing when
// the retries end (its last error), or a panic in any of them is returned,
// wrapped in an *Error with StatusHost. ctx is checked before every
// callback and ends the default Sleep early: the step then returns an
// error that errors.Is(err, ctx.Err()).
func ServerStatusStep(ctx context.Context, host ServerStatusHost, opts Options, hooks *RetryHooks) (v Verdict, published bool, err error) {
	if host == nil {
		return Verdict{}, false, errorf(StatusInvalid, "ServerStatusStep: nil host")
	}
	co, err := opts.toC()
	if err != nil {
		return Verdict{}, false, err
	}
	defer co.free()
	call := &serverStepCall{host: host}
	call.reader, _ = host.(PublishedStatusReader)
	call.setHooks(ctx, hooks)
	cell := newHostCell(call)
	defer cell.free()
	err = withTempContext(func(c *C.velstatus_ctx) error {
		var h C.velstatus_server_status_host
		C.vs_go_server_host_setup(&h, cell.userdata(), cbool(call.reader != nil), cbool(call.hooks.Classify != nil))
		var cv *C.velstatus_server_verdict
		var pub C.int
		var cerr C.velstatus_error
		st := C.velstatus_server_status_step(&cv, &pub, c, &h, co.ptr(), co.policy, &cerr)
		runtime.KeepAlive(co)
		if st == C.VELSTATUS_E_HOST && call.target.err == nil && call.publishes > 0 {
			call.target.err = call.errOf(call.publishes) // the last publish's error
		}
		if err := call.target.result(st, &cerr); err != nil {
			if cv != nil {
				C.velstatus_server_verdict_free(cv)
			}
			return err
		}
		defer C.velstatus_server_verdict_free(cv)
		published = pub != 0
		var err error
		v, err = verdictFromC(c, cv)
		return err
	})
	return v, published, err
}
