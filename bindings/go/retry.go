// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdlib.h>
#include <velstatus.h>

// shim.c: fills the vtable with the C trampolines of callbacks.go.
extern void vs_go_retry_host_setup(velstatus_retry_host *host, void *userdata, int attempt, int classify,
                                   int sleep, int random, int now);
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"time"
	"unsafe"
)

// Backoff is Kubernetes' wait.Backoff (velstatus_backoff): Step has its
// exact semantics (doc/velero-behaviour.md §4.4), with the random number supplied by
// the caller.
type Backoff struct {
	Duration time.Duration // the next sleep, before jitter
	Factor   float64       // growth multiplier; 0 means no growth
	Jitter   float64       // fraction added to each sleep, times r in [0, 1)
	Steps    int64         // remaining steps: the retry loop's attempt budget
	Cap      time.Duration // a product strictly above it ends the sequence; <= 0: no cap
}

func backoffFromC(c C.velstatus_backoff) Backoff {
	return Backoff{Duration: time.Duration(c.duration_ns), Factor: float64(c.factor), Jitter: float64(c.jitter),
		Steps: int64(c.steps), Cap: time.Duration(c.cap_ns)}
}

func (b *Backoff) toC() C.velstatus_backoff {
	var c C.velstatus_backoff
	C.velstatus_backoff_init(&c, C.size_t(unsafe.Sizeof(c)))
	c.duration_ns = C.int64_t(b.Duration)
	c.factor = C.double(b.Factor)
	c.jitter = C.double(b.Jitter)
	c.steps = C.int64_t(b.Steps)
	c.cap_ns = C.int64_t(b.Cap)
	return c
}

// BackoffVeleroCap is Velero's CapBackoff(cap): 10ms, x5, jitter 0.1,
// MaxInt steps, the cap (negative gives 0).
func BackoffVeleroCap(cap time.Duration) Backoff {
	return cBackoff(BackoffKindVeleroCap, cap)
}

// cBackoff fills a C backoff with a known preset
// (velstatus_backoff_init_preset), at the size this package was compiled
// against.
func cBackoff(kind BackoffKind, cap time.Duration) Backoff {
	var c C.velstatus_backoff
	C.velstatus_backoff_init_preset(&c, C.size_t(unsafe.Sizeof(c)), C.velstatus_backoff_kind(kind), C.int64_t(cap), nil)
	return backoffFromC(c)
}

// BackoffDefault is client-go's retry.DefaultBackoff: 10ms, x5, jitter 0.1,
// 4 steps, no cap.
func BackoffDefault() Backoff { return cBackoff(BackoffKindDefaultBackoff, 0) }

// BackoffDefaultRetry is client-go's retry.DefaultRetry: 10ms, x1, jitter
// 0.1, 5 steps, no cap.
func BackoffDefaultRetry() Backoff { return cBackoff(BackoffKindDefaultRetry, 0) }

// BackoffKind names a backoff preset (velstatus_backoff_kind).
type BackoffKind int

// The backoff presets, with the values of the C enum.
const (
	BackoffKindVeleroCap      BackoffKind = C.VELSTATUS_BACKOFF_VELERO_CAP
	BackoffKindDefaultBackoff BackoffKind = C.VELSTATUS_BACKOFF_DEFAULT_BACKOFF
	BackoffKindDefaultRetry   BackoffKind = C.VELSTATUS_BACKOFF_DEFAULT_RETRY
)

// String returns "velero_cap", "default_backoff" or "default_retry".
func (k BackoffKind) String() string {
	if s := C.velstatus_backoff_kind_to_string(C.velstatus_backoff_kind(k)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("BackoffKind(%d)", int(k))
}

// ParseBackoffKind parses a preset name.
func ParseBackoffKind(s string) (BackoffKind, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_backoff_kind
	var cerr C.velstatus_error
	st := C.velstatus_backoff_kind_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return BackoffKind(out), nil
}

// BackoffPreset returns a preset by kind; cap is used by BackoffKindVeleroCap.
func BackoffPreset(kind BackoffKind, cap time.Duration) (Backoff, error) {
	var c C.velstatus_backoff
	var cerr C.velstatus_error
	st := C.velstatus_backoff_init_preset(&c, C.size_t(unsafe.Sizeof(c)), C.velstatus_backoff_kind(kind), C.int64_t(cap), &cerr)
	if err := check(st, &cerr); err != nil {
		return Backoff{}, err
	}
	return backoffFromC(c), nil
}

// Step is one wait.Backoff.Step(): it returns the sleep and advances b. r
// is the jitter's random number in [0, 1) (ErrRange otherwise; pass 0 when
// Jitter <= 0). The sleep may be 0 or negative, as Go's may.
func (b *Backoff) Step(r float64) (time.Duration, error) {
	c := b.toC()
	var sleep C.int64_t
	var cerr C.velstatus_error
	if err := check(C.velstatus_backoff_step(&sleep, &c, C.double(r), &cerr), &cerr); err != nil {
		return 0, err
	}
	*b = backoffFromC(c)
	return time.Duration(sleep), nil
}

// RetryClass is how a failed attempt's error is classified (velstatus_retry_class).
type RetryClass int

// The classes, with the values of the C enum.
const (
	RetryTransient RetryClass = C.VELSTATUS_RETRY_CLASS_TRANSIENT // retried
	RetryConflict  RetryClass = C.VELSTATUS_RETRY_CLASS_CONFLICT  // retried; re-read first
	RetryTerminal  RetryClass = C.VELSTATUS_RETRY_CLASS_TERMINAL  // returned at once
)

// String returns "transient", "conflict" or "terminal".
func (c RetryClass) String() string {
	if s := C.velstatus_retry_class_to_string(C.velstatus_retry_class(c)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("RetryClass(%d)", int(c))
}

// ParseRetryClass parses "transient", "conflict" or "terminal".
func ParseRetryClass(s string) (RetryClass, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_retry_class
	var cerr C.velstatus_error
	st := C.velstatus_retry_class_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return RetryClass(out), nil
}

// RetryOutcome says why a retry run ended (velstatus_retry_outcome).
type RetryOutcome int

// The outcomes, with the values of the C enum.
const (
	RetryInvalid      RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_INVALID // never a run's: the C getter's answer for NULL
	RetrySucceeded    RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_SUCCEEDED
	RetryNotAttempted RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_NOT_ATTEMPTED
	RetryTerminated   RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_TERMINAL
	RetryExhausted    RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_EXHAUSTED
	RetryDeadline     RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_DEADLINE
	RetryTruncated    RetryOutcome = C.VELSTATUS_RETRY_OUTCOME_TRUNCATED
)

// String returns the outcome's name, e.g. "exhausted".
func (o RetryOutcome) String() string {
	if s := C.velstatus_retry_outcome_to_string(C.velstatus_retry_outcome(o)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("RetryOutcome(%d)", int(o))
}

// ParseRetryOutcome parses an outcome name.
func ParseRetryOutcome(s string) (RetryOutcome, error) {
	b := []byte(s)
	p, n := cbuf(b)
	var out C.velstatus_retry_outcome
	var cerr C.velstatus_error
	st := C.velstatus_retry_outcome_from_string(&out, p, n, &cerr)
	runtime.KeepAlive(b)
	if err := check(st, &cerr); err != nil {
		return 0, err
	}
	return RetryOutcome(out), nil
}

// RetrySchedule is the hardened schedule (velstatus_retry_schedule).
type RetrySchedule struct {
	Base        time.Duration // the first sleep, > 0
	Factor      float64       // growth per transient failure, >= 1
	Jitter      float64       // fraction taken off each sleep, in [0, 1]
	MaxSleep    time.Duration // per-sleep ceiling, >= Base
	MaxAttempts int64         // attempt limit, >= 1
	Deadline    time.Duration // total budget from the first attempt; 0: none
}

// RetryScheduleHardened returns the hardened defaults: 100ms, x2, jitter
// 0.1, ceiling 30s, 30 attempts, deadline 10min.
func RetryScheduleHardened() RetrySchedule {
	var c C.velstatus_retry_schedule
	C.velstatus_retry_schedule_init(&c, C.size_t(unsafe.Sizeof(c)))
	return RetrySchedule{Base: time.Duration(c.base_ns), Factor: float64(c.factor), Jitter: float64(c.jitter),
		MaxSleep: time.Duration(c.max_sleep_ns), MaxAttempts: int64(c.max_attempts),
		Deadline: time.Duration(c.deadline_ns)}
}

func (s *RetrySchedule) toC() C.velstatus_retry_schedule {
	var c C.velstatus_retry_schedule
	C.velstatus_retry_schedule_init(&c, C.size_t(unsafe.Sizeof(c)))
	c.base_ns = C.int64_t(s.Base)
	c.factor = C.double(s.Factor)
	c.jitter = C.double(s.Jitter)
	c.max_sleep_ns = C.int64_t(s.MaxSleep)
	c.max_attempts = C.int64_t(s.MaxAttempts)
	c.deadline_ns = C.int64_t(s.Deadline)
	return c
}

// RetryHooks are the injectable side effects of a retry run. Each nil hook
// takes the real thing: Sleep time.Sleep, Random math/rand's Float64, Now
// time.Now. A nil Classify retries every error as transient (Velero's
// RetryOnErrorMaxBackOff). Tests inject a fake clock through Sleep and Now.
type RetryHooks struct {
	// Classify classifies a failed attempt's error; interrupted reports
	// that it is, or wraps, a wait timeout or a context cancellation.
	Classify func(err error) (class RetryClass, interrupted bool)
	// Sleep waits d (never negative); an error aborts the run and is
	// returned (wrapped in an *Error with StatusHost).
	Sleep func(d time.Duration) error
	// Random returns a uniform number in [0, 1) for the jitter.
	Random func() float64
	// Now reads a clock, for the hardened deadline.
	Now func() time.Time
}

// RetryResult describes a finished retry run.
type RetryResult struct {
	Outcome       RetryOutcome    // why it ended
	Attempts      uint64          // how many times fn was called
	Sleeps        []time.Duration // the sleeps, raw Step() values, in order
	TrailingSleep bool            // the last sleep bought no attempt (doc/velero-behaviour.md §4.5)
	ErrAttempt    uint64          // the 1-based attempt whose error the run returns; 0 for none
	TotalSleep    time.Duration   // the sum of the sleeps, when it fits in int64
	TotalOverflow bool            // the sum does not fit (TotalSleep is then 0)
}

// hookState is the part of a call that the retry hooks' trampolines
// (classify, sleep, random, now) see; the retry drivers and the server
// step embed it.
type hookState struct {
	hooks  RetryHooks
	target callbackTarget
	errs   []error   // errs[k-1] is attempt k's error (nil on success)
	start  time.Time // the first Now() reading: the library gets nanoseconds since it
	began  bool
}

func (s *hookState) state() *hookState { return s }

// hooked is implemented by every call type that embeds hookState.
type hooked interface{ state() *hookState }

// setHooks copies the hooks and fills the nil ones with the real thing;
// the real Sleep ends early, with the context's error, when ctx is done.
func (s *hookState) setHooks(ctx context.Context, h *RetryHooks) {
	if ctx == nil {
		ctx = context.Background()
	}
	s.target.ctx = ctx
	if h != nil {
		s.hooks = *h
	}
	if s.hooks.Sleep == nil {
		s.hooks.Sleep = func(d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	if s.hooks.Random == nil {
		s.hooks.Random = rand.Float64
	}
	if s.hooks.Now == nil {
		s.hooks.Now = time.Now
	}
}

// record stores attempt k's error.
func (s *hookState) record(attempt uint64, err error) {
	for uint64(len(s.errs))+1 < attempt {
		s.errs = append(s.errs, nil)
	}
	s.errs = append(s.errs, err)
}

func (s *hookState) errOf(attempt uint64) error {
	if attempt >= 1 && attempt <= uint64(len(s.errs)) {
		return s.errs[attempt-1]
	}
	return nil
}

// retryCall is what the trampolines of one retry run see.
type retryCall struct {
	hookState
	fn func() error
}

// runRetry sets up the vtable, runs one C driver and converts the result.
// withFn is false for the dry run (no attempt callback).
func runRetry(ctx context.Context, fn func() error, hooks *RetryHooks, withFn bool,
	drive func(c *C.velstatus_ctx, host *C.velstatus_retry_host, out **C.velstatus_retry_result, cerr *C.velstatus_error) C.velstatus_status) (RetryResult, error) {
	call := &retryCall{fn: fn}
	call.setHooks(ctx, hooks)
	cell := newHostCell(call)
	defer cell.free()
	var res RetryResult
	var fnErr error
	err := withTempContext(func(c *C.velstatus_ctx) error {
		var host C.velstatus_retry_host
		C.vs_go_retry_host_setup(&host, cell.userdata(), cbool(withFn), cbool(call.hooks.Classify != nil),
			cbool(withFn), 1, cbool(withFn))
		var out *C.velstatus_retry_result
		var cerr C.velstatus_error
		st := drive(c, &host, &out, &cerr)
		if err := call.target.result(st, &cerr); err != nil {
			if st == C.VELSTATUS_OK {
				C.velstatus_retry_result_free(out)
			}
			return err
		}
		defer C.velstatus_retry_result_free(out)
		res.Outcome = RetryOutcome(C.velstatus_retry_result_outcome(out))
		res.Attempts = uint64(C.velstatus_retry_result_attempts(out))
		n := int(C.velstatus_retry_result_sleep_count(out))
		res.Sleeps = make([]time.Duration, n)
		for i := 0; i < n; i++ {
			res.Sleeps[i] = time.Duration(C.velstatus_retry_result_sleep(out, C.size_t(i)))
		}
		res.TrailingSleep = C.velstatus_retry_result_trailing_sleep(out) != 0
		var total C.int64_t
		res.TotalOverflow = C.velstatus_retry_result_total_sleep(&total, out) == 0
		res.TotalSleep = time.Duration(total)
		var text *C.char
		var tlen C.size_t
		if C.velstatus_retry_result_error(&text, &tlen, out) != 0 {
			res.ErrAttempt = uint64(C.velstatus_retry_result_error_attempt(out))
			// The host's own error object, as client-go returns it.
			if fnErr = call.errOf(res.ErrAttempt); fnErr == nil {
				fnErr = errors.New(gsn(text, tlen))
			}
		}
		return nil
	})
	if err != nil {
		return RetryResult{}, err
	}
	return res, fnErr
}

// RetryOnError runs fn with the exact semantics of client-go v0.36.0
// retry.OnError(backoff, retriable, fn) (velstatus_retry_on_error): the
// error returned is fn's own error object that OnError would return, or nil;
// the result says how the run went. A failure of the library or of a hook
// (a Sleep error, a panic in any hook or in fn) is returned as an *Error
// with StatusHost wrapping it, with a zero result. ctx is checked before
// every attempt and hook, and the default Sleep returns early when it is
// done: the run then ends with an error that errors.Is(err, ctx.Err()).
func RetryOnError(ctx context.Context, backoff Backoff, fn func() error, hooks *RetryHooks) (RetryResult, error) {
	if fn == nil {
		return RetryResult{}, errorf(StatusInvalid, "RetryOnError: nil fn")
	}
	b := backoff.toC()
	return runRetry(ctx, fn, hooks, true, func(c *C.velstatus_ctx, h *C.velstatus_retry_host, out **C.velstatus_retry_result, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_retry_on_error(out, c, &b, h, cerr)
	})
}

// RetryHardened runs fn under the hardened schedule
// (velstatus_retry_hardened); a nil schedule is RetryScheduleHardened().
// The deadline is measured with hooks.Now from just before the first attempt;
// ctx as for RetryOnError.
func RetryHardened(ctx context.Context, schedule *RetrySchedule, fn func() error, hooks *RetryHooks) (RetryResult, error) {
	if fn == nil {
		return RetryResult{}, errorf(StatusInvalid, "RetryHardened: nil fn")
	}
	var sp *C.velstatus_retry_schedule
	if schedule != nil {
		s := schedule.toC()
		sp = &s
	}
	return runRetry(ctx, fn, hooks, true, func(c *C.velstatus_ctx, h *C.velstatus_retry_host, out **C.velstatus_retry_result, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_retry_hardened(out, c, sp, h, cerr)
	})
}

// Retry retries a status write as the policy says (velstatus_retry_run):
// Velero's CapBackoff(resourceTimeout) under the Velero preset, the
// hardened schedule with resourceTimeout as its deadline otherwise. A nil
// policy is the hardened preset; ctx as for RetryOnError.
func Retry(ctx context.Context, resourceTimeout time.Duration, fn func() error, hooks *RetryHooks, policy *Policy) (RetryResult, error) {
	if fn == nil {
		return RetryResult{}, errorf(StatusInvalid, "Retry: nil fn")
	}
	cp := policy.cptr()
	return runRetry(ctx, fn, hooks, true, func(c *C.velstatus_ctx, h *C.velstatus_retry_host, out **C.velstatus_retry_result, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_retry_run(out, c, C.int64_t(resourceTimeout), h, cp, cerr)
	})
}

// SimulateBackoff is a dry run of RetryOnError in which every attempt fails
// (velstatus_backoff_simulate): the sleeps the loop takes, at most
// maxSleeps of them (then the outcome is RetryTruncated). random supplies
// the jitter; nil means r = 0. Nothing sleeps.
func SimulateBackoff(backoff Backoff, maxSleeps uint64, random func() float64) (RetryResult, error) {
	b := backoff.toC()
	if random == nil {
		random = func() float64 { return 0 }
	}
	return runRetry(context.Background(), nil, &RetryHooks{Random: random}, false, func(c *C.velstatus_ctx, h *C.velstatus_retry_host, out **C.velstatus_retry_result, cerr *C.velstatus_error) C.velstatus_status {
		return C.velstatus_backoff_simulate(out, c, &b, C.uint64_t(maxSleeps), h, cerr)
	})
}

// RetryTransition reports whether the status patch moving a CR from `from`
// to `to` is retried (velstatus_retry_transition; doc/velero-behaviour.md §4.3, §6.15).
// atStartup marks the server's startup pass. A nil policy is hardened.
func RetryTransition(kind Kind, from, to Phase, atStartup bool, policy *Policy) (bool, error) {
	var retried C.int
	var cerr C.velstatus_error
	st := C.velstatus_retry_transition(&retried, C.velstatus_kind(kind), C.velstatus_phase(from), C.velstatus_phase(to),
		cbool(atStartup), policy.cptr(), &cerr)
	if err := check(st, &cerr); err != nil {
		return false, err
	}
	return retried != 0, nil
}
