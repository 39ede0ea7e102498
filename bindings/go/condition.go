// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Condition is a verdict as a Kubernetes condition, with the fields and
// JSON keys of metav1.Condition in Go's order, for a host to patch into a
// status subresource (velstatus_server_verdict_to_condition_json; doc/cli.md
// §6). json.Marshal of a Condition is what the library writes, except that
// an ObservedGeneration of 0 is left out, as metav1.Condition's omitempty
// leaves it out.
type Condition struct {
	Type               string    `json:"type"`                         // "Ready"
	Status             string    `json:"status"`                       // "True", "False" or "Unknown"
	ObservedGeneration int64     `json:"observedGeneration,omitempty"` // the host's generation; 0 when none
	LastTransitionTime time.Time `json:"lastTransitionTime"`           // UTC, whole seconds, as metav1.Time
	Reason             string    `json:"reason"`                       // ConditionReason of the verdict's reasons
	Message            string    `json:"message"`                      // the verdict's message, at most 32768 bytes
}

// conditionBase is the C condition of a C verdict at the epoch with no
// generation: the keys the verdict alone decides.
func conditionBase(c *C.velstatus_ctx, v *C.velstatus_server_verdict) (Condition, error) {
	var js *C.char
	var jn C.size_t
	var cerr C.velstatus_error
	if err := check(C.velstatus_server_verdict_to_condition_json(&js, &jn, v, 0, -1, &cerr), &cerr); err != nil {
		return Condition{}, err
	}
	var cond Condition
	if err := json.Unmarshal([]byte(takeString(c, js, jn)), &cond); err != nil {
		return Condition{}, fmt.Errorf("velstatus: the library's condition is not JSON: %w", err)
	}
	return cond, nil
}

// Condition returns the verdict as a Kubernetes condition:
// lastTransition is when the condition's status last changed (the host
// keeps it; for a single snapshot, the present), floored to its second;
// observedGeneration is the generation the verdict was computed for, or
// -1 (or 0) for none. A generation below -1 is ErrInvalid, a time outside
// the int64 nanosecond range ErrRange.
func (v Verdict) Condition(lastTransition time.Time, observedGeneration int64) (Condition, error) {
	if observedGeneration < -1 {
		return Condition{}, errorf(StatusInvalid, "observedGeneration is %d: -1 (absent) or >= 0", observedGeneration)
	}
	ns, err := unixNanos(lastTransition)
	if err != nil {
		return Condition{}, err
	}
	if v.condition.Type == "" {
		return Condition{}, errorf(StatusInvalid, "a Verdict made outside the library has no condition")
	}
	cond := v.condition
	if observedGeneration > 0 {
		cond.ObservedGeneration = observedGeneration
	}
	cond.LastTransitionTime = time.Unix(0, ns).UTC().Truncate(time.Second)
	return cond, nil
}

// ConditionReason returns the condition reason for a set of reason flags
// (velstatus_server_condition_reason): the first of a fixed precedence,
// most severe first, or "AllLocationsAvailable" for none. An unknown
// token is ErrInvalid.
func ConditionReason(reasons ...Reason) (string, error) {
	mask, err := reasonMask(reasons)
	if err != nil {
		return "", err
	}
	return C.GoString(C.velstatus_server_condition_reason(mask)), nil
}

// ArgoHealth is Argo CD's health of a Backup or Restore
// (velstatus_argo_health). String prints "healthy", "progressing" or
// "degraded".
type ArgoHealth int

// The healths, with the values of the C enum.
const (
	ArgoHealthInvalid ArgoHealth = C.VELSTATUS_ARGO_HEALTH_INVALID // never a health: outside the enum
	ArgoHealthy       ArgoHealth = C.VELSTATUS_ARGO_HEALTHY        // Completed
	ArgoProgressing   ArgoHealth = C.VELSTATUS_ARGO_PROGRESSING    // any other phase, no status, a Backup being deleted
	ArgoDegraded      ArgoHealth = C.VELSTATUS_ARGO_DEGRADED       // one of the five failed phases
)

// String returns the health's token (velstatus_argo_health_to_string), or
// "ArgoHealth(N)" for a value outside the enum.
func (h ArgoHealth) String() string {
	if p := C.velstatus_argo_health_to_string(C.velstatus_argo_health(h)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("ArgoHealth(%d)", int(h))
}

// ParseArgoHealth parses "healthy", "progressing" or "degraded" (exact,
// case-sensitive).
func ParseArgoHealth(s string) (ArgoHealth, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_argo_health
	var cerr C.velstatus_error
	st := C.velstatus_argo_health_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return ArgoHealthInvalid, err
	}
	return ArgoHealth(out), nil
}

// optionalCString passes an optional string to C for one call: nil stays
// NULL, and an empty string is a non-NULL pointer (present, not absent).
// Keep the returned slice alive until C is done with the pointer.
func optionalCString(s *string) ([]byte, *C.char, C.size_t) {
	if s == nil {
		return nil, nil, 0
	}
	b := append([]byte(*s), 0)
	return b, (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(*s))
}

// ArgoHealthOf returns the Argo CD health of a Backup or Restore and Argo's
// message (velstatus_argo_health_of), exactly as Argo CD's
// velero.io/Backup and velero.io/Restore health checks compute it
// (doc/cli.md §7). phase is status.phase and failureReason
// status.failureReason, each nil when absent or null; deleting says
// metadata.deletionTimestamp is set. A phase unknown to this version is
// Progressing, as in Argo: ParsePhase tells whether it is known.
func ArgoHealthOf(kind Kind, phase, failureReason *string, deleting bool) (ArgoHealth, string, error) {
	bphase, cphase, nphase := optionalCString(phase)
	breason, creason, nreason := optionalCString(failureReason)
	var h C.velstatus_argo_health
	var msg *C.char
	var mlen C.size_t
	var cerr C.velstatus_error
	st := C.velstatus_argo_health_of(&h, &msg, &mlen, C.velstatus_kind(kind), cphase, nphase, creason, nreason,
		cbool(deleting), &cerr)
	if err := check(st, &cerr); err != nil {
		return ArgoHealthInvalid, "", err
	}
	// The message may point into phase or failureReason: copy it while they live.
	text := C.GoStringN(msg, C.int(mlen))
	runtime.KeepAlive(bphase)
	runtime.KeepAlive(breason)
	return ArgoHealth(h), text, nil
}
