// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <velstatus.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Preset says which preset a policy was made from (velstatus_preset).
type Preset int

// The presets, with the values of the C enum.
const (
	PresetVelero   Preset = C.VELSTATUS_PRESET_VELERO   // Velero HEAD, quirk for quirk
	PresetHardened Preset = C.VELSTATUS_PRESET_HARDENED // the recommended default
)

// String returns "velero" or "hardened" (velstatus_preset_to_string).
func (p Preset) String() string {
	if s := C.velstatus_preset_to_string(C.velstatus_preset(p)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("Preset(%d)", int(p))
}

// ParsePreset parses "velero" or "hardened".
func ParsePreset(s string) (Preset, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_preset
	var cerr C.velstatus_error
	st := C.velstatus_preset_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return Preset(out), nil
}

// Policy holds the knobs of velstatus_policy (policy.h documents each one
// and the section of doc/velero-behaviour.md behind it). Start from PolicyVelero() or
// PolicyHardened() and change single knobs. A nil *Policy passed to any
// function means the hardened preset.
type Policy struct {
	Preset Preset // the preset this was made from (informational)

	RequeueReadyToStartOnRestart bool          // doc/velero-behaviour.md §6.17
	ZeroTimeoutExpires           bool          // doc/velero-behaviour.md §2.8, §6.3
	LevelTriggeredPartialFailure bool          // doc/velero-behaviour.md §2.5, §6.6
	UnknownPhaseFails            bool          // doc/velero-behaviour.md §2.4 step 0, §6.5
	ProgressErrorGrace           time.Duration // doc/velero-behaviour.md §2.4 steps 1-2, §6.4
	RestoreErrorPluginSuffix     bool          // doc/velero-behaviour.md §2.4, §6.9
	CompareTimesByInstant        bool          // doc/velero-behaviour.md §2.4 step 4, §6.10
	UnixEpochIsUnknown           bool          // doc/velero-behaviour.md §2.2, §6.11
	ReportCancelResults          bool          // doc/velero-behaviour.md §2.4 step 6, §6.13
	RetryClassifyErrors          bool          // doc/velero-behaviour.md §4.2, §6.14
	RetryForgottenPatches        bool          // doc/velero-behaviour.md §4.3, §6.15

	// The Velero-release knobs (doc/velero-releases.md): each is one
	// difference between Velero minor releases.
	PartialFailureWhenDone          bool          // 1.11: PartiallyFailed only once nothing runs
	RestoreReadOnlyBSLFails         bool          // 1.11: a read-only BSL fails a restore
	RestoreFinalizing               bool          // from 1.14: restore Finalizing phases
	BackupErrorPluginSuffix         bool          // from 1.13: ", plugin: <name>"
	FirstPassErrorsAsIndex          bool          // 1.11-1.13: the backup run logs "0", "1", ...
	FirstPassRestoreErrorsUncounted bool          // 1.11: the restore run does not count them
	DefaultItemOperationTimeout     time.Duration // 1h in 1.11, 4h from 1.12
	StatusPatchRetries              bool          // from 1.15
	BackupQueue                     bool          // from 1.18: Queued and ReadyToStart
	ValidationTextsQuoted           bool          // 1.11-1.14 validation texts
	ValidationBSLAvailable          bool          // from 1.17: an unavailable BSL fails validation
	QuoteUnicode13                  bool          // 1.11-1.12: %q by Unicode 13.0.0 (Go 1.20)
	InvalidOperationIDText111       bool          // 1.11: "Operation ID <id> is invalid."
}

// PolicyVelero returns the Velero-exact preset (velstatus_policy_init with
// VELSTATUS_PRESET_VELERO).
func PolicyVelero() *Policy {
	p := policyFromC(cPreset(PresetVelero))
	return &p
}

// PolicyHardened returns the hardened preset (velstatus_policy_init with
// VELSTATUS_PRESET_HARDENED).
func PolicyHardened() *Policy {
	p := policyFromC(cPreset(PresetHardened))
	return &p
}

// cPreset fills a C policy with a known preset, at the size this package
// was compiled against.
func cPreset(preset Preset) C.velstatus_policy {
	var c C.velstatus_policy
	C.velstatus_policy_init(&c, C.size_t(unsafe.Sizeof(c)), C.velstatus_preset(preset), nil)
	return c
}

// policyFilled runs one C function that fills a policy, and converts it.
func policyFilled(fill func(cp *C.velstatus_policy, cerr *C.velstatus_error) C.velstatus_status) (*Policy, error) {
	var cp C.velstatus_policy
	var cerr C.velstatus_error
	if err := check(fill(&cp, &cerr), &cerr); err != nil {
		return nil, err
	}
	p := policyFromC(cp)
	return &p, nil
}

// PolicyVeleroRelease returns the Velero-exact preset of Velero major.minor
// (velstatus_policy_init_release); a release outside the supported range is
// an ErrInvalid error naming the range.
func PolicyVeleroRelease(major, minor int) (*Policy, error) {
	return policyFilled(func(cp *C.velstatus_policy, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_policy_init_release(cp, C.size_t(unsafe.Sizeof(*cp)), C.int(major), C.int(minor), cerr)
	})
}

// PolicyVeleroVersion is PolicyVeleroRelease for a version text: "1.14",
// "v1.14" or a patch release "1.14.2" (velstatus_policy_init_version).
func PolicyVeleroVersion(version string) (*Policy, error) {
	b := []byte(version)
	defer runtime.KeepAlive(b)
	return policyFilled(func(cp *C.velstatus_policy, cerr *C.velstatus_error) C.velstatus_status {
		cs, n := cbuf(b)
		return C.velstatus_policy_init_version(cp, C.size_t(unsafe.Sizeof(*cp)), nil, nil, cs, n, cerr)
	})
}

// VeleroReleases lists the supported Velero releases ("1.11" ... ), oldest
// first; the last is the current release, the one PolicyVelero() is.
func VeleroReleases() []string {
	n := int(C.velstatus_velero_release_count())
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		var major, minor C.int
		if C.velstatus_velero_release_at(&major, &minor, C.size_t(i), nil) == C.VELSTATUS_OK {
			out = append(out, fmt.Sprintf("%d.%d", int(major), int(minor)))
		}
	}
	return out
}

// PolicyPreset returns the named preset (velstatus_policy_init).
func PolicyPreset(preset Preset) (*Policy, error) {
	return policyFilled(func(cp *C.velstatus_policy, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_policy_init(cp, C.size_t(unsafe.Sizeof(*cp)), C.velstatus_preset(preset), cerr)
	})
}

func policyFromC(c C.velstatus_policy) Policy {
	return Policy{
		Preset:                       Preset(c.preset),
		RequeueReadyToStartOnRestart: c.requeue_ready_to_start_on_restart != 0,
		ZeroTimeoutExpires:           c.zero_timeout_expires != 0,
		LevelTriggeredPartialFailure: c.level_triggered_partial_failure != 0,
		UnknownPhaseFails:            c.unknown_phase_fails != 0,
		ProgressErrorGrace:           time.Duration(c.progress_error_grace_ns),
		RestoreErrorPluginSuffix:     c.restore_error_plugin_suffix != 0,
		CompareTimesByInstant:        c.compare_times_by_instant != 0,
		UnixEpochIsUnknown:           c.unix_epoch_is_unknown != 0,
		ReportCancelResults:          c.report_cancel_results != 0,
		RetryClassifyErrors:          c.retry_classify_errors != 0,
		RetryForgottenPatches:        c.retry_forgotten_patches != 0,

		PartialFailureWhenDone:          c.partial_failure_when_done != 0,
		RestoreReadOnlyBSLFails:         c.restore_readonly_bsl_fails != 0,
		RestoreFinalizing:               c.restore_finalizing != 0,
		BackupErrorPluginSuffix:         c.backup_error_plugin_suffix != 0,
		FirstPassErrorsAsIndex:          c.first_pass_errors_as_index != 0,
		FirstPassRestoreErrorsUncounted: c.first_pass_restore_errors_uncounted != 0,
		DefaultItemOperationTimeout:     time.Duration(c.default_item_operation_timeout_ns),
		StatusPatchRetries:              c.status_patch_retries != 0,
		BackupQueue:                     c.backup_queue != 0,
		ValidationTextsQuoted:           c.validation_texts_quoted != 0,
		ValidationBSLAvailable:          c.validation_bsl_available != 0,
		QuoteUnicode13:                  c.quote_unicode_13 != 0,
		InvalidOperationIDText111:       c.invalid_operation_id_text_1_11 != 0,
	}
}

// toC builds the C struct. It starts from the C preset so that a knob the
// Go struct does not know yet keeps the preset's value.
func (p *Policy) toC() C.velstatus_policy {
	preset := PresetHardened
	if p.Preset == PresetVelero {
		preset = PresetVelero
	}
	c := cPreset(preset)
	c.preset = C.uint32_t(p.Preset)
	c.requeue_ready_to_start_on_restart = cbool(p.RequeueReadyToStartOnRestart)
	c.zero_timeout_expires = cbool(p.ZeroTimeoutExpires)
	c.level_triggered_partial_failure = cbool(p.LevelTriggeredPartialFailure)
	c.unknown_phase_fails = cbool(p.UnknownPhaseFails)
	c.progress_error_grace_ns = C.int64_t(p.ProgressErrorGrace)
	c.restore_error_plugin_suffix = cbool(p.RestoreErrorPluginSuffix)
	c.compare_times_by_instant = cbool(p.CompareTimesByInstant)
	c.unix_epoch_is_unknown = cbool(p.UnixEpochIsUnknown)
	c.report_cancel_results = cbool(p.ReportCancelResults)
	c.retry_classify_errors = cbool(p.RetryClassifyErrors)
	c.retry_forgotten_patches = cbool(p.RetryForgottenPatches)
	c.partial_failure_when_done = cbool(p.PartialFailureWhenDone)
	c.restore_readonly_bsl_fails = cbool(p.RestoreReadOnlyBSLFails)
	c.restore_finalizing = cbool(p.RestoreFinalizing)
	c.backup_error_plugin_suffix = cbool(p.BackupErrorPluginSuffix)
	c.first_pass_errors_as_index = cbool(p.FirstPassErrorsAsIndex)
	c.first_pass_restore_errors_uncounted = cbool(p.FirstPassRestoreErrorsUncounted)
	c.default_item_operation_timeout_ns = C.int64_t(p.DefaultItemOperationTimeout)
	c.status_patch_retries = cbool(p.StatusPatchRetries)
	c.backup_queue = cbool(p.BackupQueue)
	c.validation_texts_quoted = cbool(p.ValidationTextsQuoted)
	c.validation_bsl_available = cbool(p.ValidationBSLAvailable)
	c.quote_unicode_13 = cbool(p.QuoteUnicode13)
	c.invalid_operation_id_text_1_11 = cbool(p.InvalidOperationIDText111)
	return c
}

// cptr returns a pointer to a C copy of the policy, or NULL for a nil
// policy (the hardened preset). The copy lives in Go memory and holds no Go
// pointers, so it may be passed to one C call.
func (p *Policy) cptr() *C.velstatus_policy {
	if p == nil {
		return nil
	}
	c := p.toC()
	return &c
}
