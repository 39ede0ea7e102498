// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
*/
import "C"

import (
	"fmt"
	"runtime"
)

// Kind says which CR a phase belongs to (velstatus_kind).
type Kind int

// The kinds, with the values of the C enum.
const (
	KindInvalid Kind = C.VELSTATUS_KIND_INVALID // never a list's kind: the C getter's answer for NULL
	KindBackup  Kind = C.VELSTATUS_KIND_BACKUP
	KindRestore Kind = C.VELSTATUS_KIND_RESTORE
)

// String returns "backup" or "restore" (velstatus_kind_to_string), or
// "Kind(N)" for a value outside the enum.
func (k Kind) String() string {
	if p := C.velstatus_kind_to_string(C.velstatus_kind(k)); p != nil {
		return C.GoString(p)
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind parses "backup" or "restore" (exact, case-sensitive).
func ParseKind(s string) (Kind, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_kind
	var cerr C.velstatus_error
	st := C.velstatus_kind_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return Kind(out), nil
}

// Phase is a backup or restore phase (velstatus_phase). String prints
// Velero's wire spelling, e.g. "WaitingForPluginOperations".
type Phase int

// The phases, with the values of the C enum (doc/velero-behaviour.md §5.1).
const (
	PhaseInvalid                                   Phase = C.VELSTATUS_PHASE_INVALID // never a CR's phase: the C getters' answer for NULL
	PhaseNew                                       Phase = C.VELSTATUS_PHASE_NEW
	PhaseQueued                                    Phase = C.VELSTATUS_PHASE_QUEUED
	PhaseReadyToStart                              Phase = C.VELSTATUS_PHASE_READY_TO_START
	PhaseFailedValidation                          Phase = C.VELSTATUS_PHASE_FAILED_VALIDATION
	PhaseInProgress                                Phase = C.VELSTATUS_PHASE_IN_PROGRESS
	PhaseWaitingForPluginOperations                Phase = C.VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS
	PhaseWaitingForPluginOperationsPartiallyFailed Phase = C.VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED
	PhaseFinalizing                                Phase = C.VELSTATUS_PHASE_FINALIZING
	PhaseFinalizingPartiallyFailed                 Phase = C.VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED
	PhaseCompleted                                 Phase = C.VELSTATUS_PHASE_COMPLETED
	PhasePartiallyFailed                           Phase = C.VELSTATUS_PHASE_PARTIALLY_FAILED
	PhaseFailed                                    Phase = C.VELSTATUS_PHASE_FAILED
	PhaseDeleting                                  Phase = C.VELSTATUS_PHASE_DELETING
)

// String returns the phase in Velero's spelling (velstatus_phase_to_string),
// or "Phase(N)" for a value outside the enum.
func (p Phase) String() string {
	if s := C.velstatus_phase_to_string(C.velstatus_phase(p)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// MarshalText writes the wire spelling; a value outside the enum is an error.
func (p Phase) MarshalText() ([]byte, error) {
	s := C.velstatus_phase_to_string(C.velstatus_phase(p))
	if s == nil {
		return nil, &Error{Code: StatusInvalid, Message: fmt.Sprintf("phase %d is outside the enum", int(p))}
	}
	return []byte(C.GoString(s)), nil
}

// ParsePhase parses a phase of the given kind; "" reads as New. A phase the
// kind does not have (a restore "Queued") is ErrInvalid.
func ParsePhase(kind Kind, s string) (Phase, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_phase
	var cerr C.velstatus_error
	st := C.velstatus_phase_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	if !Phase(out).ValidFor(kind) {
		return 0, errorf(StatusInvalid, "phase: a %s has no phase %q", kind, s)
	}
	return Phase(out), nil
}

// ValidFor reports whether the kind has this phase.
func (p Phase) ValidFor(kind Kind) bool {
	return C.velstatus_phase_valid(C.velstatus_kind(kind), C.velstatus_phase(p)) != 0
}

// IsTerminal reports whether `velero ... create --wait` stops at this phase.
func (p Phase) IsTerminal(kind Kind) bool {
	return C.velstatus_phase_is_terminal(C.velstatus_kind(kind), C.velstatus_phase(p)) != 0
}

// PhaseTransition reports whether Velero ever moves a CR of this kind from
// `from` to `to`, and which controller(s) do ("none" for from == to, "" when
// illegal), in the Velero release the policy models (doc/velero-releases.md;
// nil: the hardened preset, the current release). A phase the release did not
// have is an ErrInvalid error.
func PhaseTransition(kind Kind, from, to Phase, policy *Policy) (legal bool, controller string, err error) {
	var cl C.int
	var cc *C.char
	var cerr C.velstatus_error
	cp := policy.cptr()
	st := C.velstatus_phase_transition(&cl, &cc, C.velstatus_kind(kind), C.velstatus_phase(from),
		C.velstatus_phase(to), cp, &cerr)
	if err := check(st, &cerr); err != nil {
		return false, "", err
	}
	return cl != 0, goStr(cc), nil
}

// PhaseExists reports whether the kind has the phase in the policy's Velero
// release: Queued and ReadyToStart from 1.18, a restore's Finalizing phases
// from 1.14 (velstatus_phase_exists). A nil policy is the hardened preset.
func PhaseExists(kind Kind, phase Phase, policy *Policy) (bool, error) {
	var e C.int
	var cerr C.velstatus_error
	cp := policy.cptr()
	if err := check(C.velstatus_phase_exists(&e, C.velstatus_kind(kind), C.velstatus_phase(phase), cp, &cerr), &cerr); err != nil {
		return false, err
	}
	return e != 0, nil
}

// PhaseAfterRun returns the phase after the main backup or restore run
// (doc/velero-behaviour.md §2.7).
func PhaseAfterRun(kind Kind, fatal bool, errorsLogged int64, inProgress bool) Phase {
	return Phase(C.velstatus_phase_after_run(C.velstatus_kind(kind), cbool(fatal), C.int64_t(errorsLogged),
		cbool(inProgress)))
}

// RestartAction is what the server does with a CR at restart.
type RestartAction int

// The restart actions, with the values of the C enum.
const (
	RestartNone       RestartAction = C.VELSTATUS_RESTART_NONE
	RestartMarkFailed RestartAction = C.VELSTATUS_RESTART_MARK_FAILED
	RestartRequeue    RestartAction = C.VELSTATUS_RESTART_REQUEUE
)

// String returns "none", "mark_failed" or "requeue"
// (velstatus_restart_action_to_string).
func (a RestartAction) String() string {
	if s := C.velstatus_restart_action_to_string(C.velstatus_restart_action(a)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("RestartAction(%d)", int(a))
}

// PhaseOnRestart says what the server does at restart with a CR in `phase`
// and the phase after that action. A nil policy is the hardened preset.
func PhaseOnRestart(kind Kind, phase Phase, policy *Policy) (RestartAction, Phase, error) {
	var act C.velstatus_restart_action
	var next C.velstatus_phase
	var cerr C.velstatus_error
	cp := policy.cptr()
	st := C.velstatus_phase_on_restart(&act, &next, C.velstatus_kind(kind), C.velstatus_phase(phase), cp, &cerr)
	if err := check(st, &cerr); err != nil {
		return 0, 0, err
	}
	return RestartAction(act), Phase(next), nil
}

// BSLValidation is a BackupStorageLocation problem that fails a Backup's or
// Restore's validation (velstatus_bsl_validation).
type BSLValidation int

// The BSL validation problems, with the values of the C enum.
const (
	BSLValidationServerDefaultMissing BSLValidation = C.VELSTATUS_BSL_VALIDATION_SERVER_DEFAULT_MISSING
	BSLValidationDefaultMissing       BSLValidation = C.VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING
	BSLValidationReadOnly             BSLValidation = C.VELSTATUS_BSL_VALIDATION_READ_ONLY
	BSLValidationUnavailable          BSLValidation = C.VELSTATUS_BSL_VALIDATION_UNAVAILABLE
)

// String returns the token, such as "read_only" (velstatus_bsl_validation_to_string).
func (v BSLValidation) String() string {
	if s := C.velstatus_bsl_validation_to_string(C.velstatus_bsl_validation(v)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("BSLValidation(%d)", int(v))
}

// BSLValidationError is the validation error Velero writes for a BSL
// problem, in the wording of the policy's Velero release
// (velstatus_bsl_validation_error; doc/velero-releases.md). ok is false when
// that release has no such check (an unavailable BSL before Velero 1.17). A
// nil policy is the hardened preset (the current release's texts).
func BSLValidationError(kind Kind, problem BSLValidation, bsl, cause string, policy *Policy) (text string, ok bool, err error) {
	err = withTempContext(func(c *C.velstatus_ctx) error {
		b, k := []byte(bsl), []byte(cause)
		bp, bn := cbuf(b)
		kp, kn := cbuf(k)
		var o *C.char
		var on C.size_t
		var cerr C.velstatus_error
		cp := policy.cptr()
		st := C.velstatus_bsl_validation_error(&o, &on, c, C.velstatus_kind(kind), C.velstatus_bsl_validation(problem),
			bp, bn, kp, kn, cp, &cerr)
		runtime.KeepAlive(b)
		runtime.KeepAlive(k)
		if err := check(st, &cerr); err != nil {
			return err
		}
		if o != nil {
			text, ok = takeString(c, o, on), true
		}
		return nil
	})
	return text, ok, err
}
