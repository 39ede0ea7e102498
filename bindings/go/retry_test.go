// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeClock is an injectable clock: Sleep advances it and records the
// sleeps; Now reads it. Nothing really waits.
type fakeClock struct {
	now    time.Time
	sleeps []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) hooks() *RetryHooks {
	return &RetryHooks{
		Sleep:  func(d time.Duration) error { c.sleeps = append(c.sleeps, d); c.now = c.now.Add(d); return nil },
		Random: func() float64 { return 0 },
		Now:    func() time.Time { return c.now },
	}
}

func ms(v ...int64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestBackoffPresets(t *testing.T) {
	if b := BackoffDefault(); b != (Backoff{10 * time.Millisecond, 5, 0.1, 4, 0}) {
		t.Errorf("DefaultBackoff: %+v", b)
	}
	if b := BackoffDefaultRetry(); b != (Backoff{10 * time.Millisecond, 1, 0.1, 5, 0}) {
		t.Errorf("DefaultRetry: %+v", b)
	}
	if b := BackoffVeleroCap(10 * time.Minute); b != (Backoff{10 * time.Millisecond, 5, 0.1, math.MaxInt64, 10 * time.Minute}) {
		t.Errorf("CapBackoff(10m): %+v", b)
	}
	if b := BackoffVeleroCap(-time.Second); b.Cap != 0 {
		t.Errorf("CapBackoff(-1s).Cap = %v", b.Cap)
	}
	for _, k := range []BackoffKind{BackoffKindVeleroCap, BackoffKindDefaultBackoff, BackoffKindDefaultRetry} {
		b, err := BackoffPreset(k, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		want := map[BackoffKind]Backoff{BackoffKindVeleroCap: BackoffVeleroCap(time.Minute),
			BackoffKindDefaultBackoff: BackoffDefault(), BackoffKindDefaultRetry: BackoffDefaultRetry()}[k]
		if b != want {
			t.Errorf("BackoffPreset(%v) = %+v", k, b)
		}
		if back, err := ParseBackoffKind(k.String()); err != nil || back != k {
			t.Errorf("ParseBackoffKind(%q): %v %v", k.String(), back, err)
		}
	}
	if _, err := BackoffPreset(BackoffKind(7), 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("preset 7: %v", err)
	}
	for _, c := range []RetryClass{RetryTransient, RetryConflict, RetryTerminal} {
		if back, err := ParseRetryClass(c.String()); err != nil || back != c {
			t.Errorf("class %v: %v %v", c, back, err)
		}
	}
	for o := RetrySucceeded; o <= RetryTruncated; o++ {
		if back, err := ParseRetryOutcome(o.String()); err != nil || back != o || strings.HasPrefix(o.String(), "Retry") {
			t.Errorf("outcome %d %q: %v %v", int(o), o.String(), back, err)
		}
	}
	// Step rejects r outside [0, 1) and leaves the backoff alone.
	b := BackoffDefault()
	if _, err := b.Step(1); !errors.Is(err, ErrRange) || b != BackoffDefault() {
		t.Errorf("Step(1): %v %+v", err, b)
	}
	// Jitter: d + trunc((r * j) * d).
	if d, err := b.Step(0.5); err != nil || d != 10*time.Millisecond+500*time.Microsecond || b.Duration != 50*time.Millisecond {
		t.Errorf("jittered step: %v %v %+v", d, err, b)
	}
}

// conformance reads the golden vectors vendored in the source tree
// (tests/data/conformance, two directories above this package).
func conformance(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "data", "conformance", "backoff-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	return top
}

type vecBackoff struct {
	DurationNs int64   `json:"duration_ns"`
	Factor     float64 `json:"factor"`
	Jitter     float64 `json:"jitter"`
	Steps      int64   `json:"steps"`
	CapNs      int64   `json:"cap_ns"`
}

func (v vecBackoff) backoff() Backoff {
	return Backoff{time.Duration(v.DurationNs), v.Factor, v.Jitter, v.Steps, time.Duration(v.CapNs)}
}

// The wait.Backoff.Step vectors (amd64 values), through the Go binding.
func TestBackoffStepConformance(t *testing.T) {
	var cases []struct {
		Name string `json:"name"`
		vecBackoff
		Sleeps     []int64 `json:"sleeps_ns"`
		DurAfter   []int64 `json:"durations_after_ns"`
		StepsAfter []int64 `json:"steps_after"`
		AfterExh   []int64 `json:"after_exhaustion_ns"`
	}
	if err := json.Unmarshal(conformance(t)["backoff_cases"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d backoff cases", len(cases))
	}
	for _, c := range cases {
		b := c.backoff()
		for i, want := range c.Sleeps {
			got, err := b.Step(0)
			if err != nil || int64(got) != want || int64(b.Duration) != c.DurAfter[i] || b.Steps != c.StepsAfter[i] {
				t.Fatalf("%s call %d: %d (%v), state %+v; want %d, %d, %d", c.Name, i, got, err, b, want,
					c.DurAfter[i], c.StepsAfter[i])
			}
		}
		for i, want := range c.AfterExh {
			if got, _ := b.Step(0); int64(got) != want {
				t.Errorf("%s after exhaustion %d: %d, want %d", c.Name, i, got, want)
			}
		}
	}
}

// errWaitTimeout stands for wait.ErrWaitTimeout in the vectors' scripts.
var errWaitTimeout = errors.New("timed out waiting for the condition")

type fatalError struct{ error }

func (f fatalError) Unwrap() error { return f.error }

// The retry.OnError vectors (client-go v0.36.0, which Velero main pins),
// with real Go errors, a Go classifier and a fake clock. The returned error
// must be the very object the vector names.
func TestOnErrorConformance(t *testing.T) {
	var cases []struct {
		Name     string     `json:"name"`
		Backoff  vecBackoff `json:"backoff"`
		Script   []string   `json:"script"`
		Attempts uint64     `json:"attempts"`
		Sleeps   []int64    `json:"sleeps_ns"`
		Trailing bool       `json:"trailing_sleep"`
		Result   map[string]struct {
			Kind        string `json:"kind"`
			FromAttempt uint64 `json:"from_attempt"`
			Message     string `json:"message"`
		} `json:"result_by_client_go"`
	}
	if err := json.Unmarshal(conformance(t)["on_error_cases"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("only %d on_error cases", len(cases))
	}
	for _, c := range cases {
		clock := newFakeClock()
		hooks := clock.hooks()
		hooks.Classify = func(err error) (RetryClass, bool) {
			var f fatalError
			if errors.As(err, &f) || errors.Is(err, errWaitTimeout) {
				return RetryTerminal, errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errWaitTimeout)
			}
			return RetryTransient, false
		}
		var returned []error
		fn := func() error {
			n := len(returned) + 1
			step := c.Script[len(c.Script)-1]
			if n <= len(c.Script) {
				step = c.Script[n-1]
			}
			var err error
			switch step {
			case "ok":
			case "retriable":
				err = fmt.Errorf("retriable error at attempt %d", n)
			case "fatal":
				err = fatalError{fmt.Errorf("fatal error at attempt %d", n)}
			case "fatal_deadline":
				err = fatalError{fmt.Errorf("fatal error at attempt %d: %w", n, context.DeadlineExceeded)}
			case "fatal_waittimeout":
				err = errWaitTimeout
			default:
				t.Fatalf("%s: unknown script step %q", c.Name, step)
			}
			returned = append(returned, err)
			return err
		}
		res, err := RetryOnError(context.Background(), c.Backoff.backoff(), fn, hooks)
		sleeps := make([]int64, len(res.Sleeps))
		for i, d := range res.Sleeps {
			sleeps[i] = int64(d)
		}
		if res.Attempts != c.Attempts || uint64(len(returned)) != c.Attempts || fmt.Sprint(sleeps) != fmt.Sprint(c.Sleeps) ||
			fmt.Sprint(res.Sleeps) != fmt.Sprint(clock.sleeps) || res.TrailingSleep != c.Trailing {
			t.Errorf("%s: attempts %d (fn ran %d), sleeps %v (slept %v), trailing %v; want %d, %v, %v", c.Name,
				res.Attempts, len(returned), sleeps, clock.sleeps, res.TrailingSleep, c.Attempts, c.Sleeps, c.Trailing)
		}
		want := c.Result["v0.36.0"]
		switch {
		case want.Kind == "nil":
			if err != nil {
				t.Errorf("%s: returned %v, want nil", c.Name, err)
			}
		case strings.HasSuffix(want.Kind, "_from_attempt"):
			if want.FromAttempt == 0 || int(want.FromAttempt) > len(returned) || err != returned[want.FromAttempt-1] ||
				res.ErrAttempt != want.FromAttempt || err.Error() != want.Message {
				t.Errorf("%s: returned %v (attempt %d), want the error object of attempt %d (%q)", c.Name, err,
					res.ErrAttempt, want.FromAttempt, want.Message)
			}
		default:
			t.Errorf("%s: unexpected result kind %q", c.Name, want.Kind)
		}
	}
}

var errTransient = errors.New("etcdserver: request timed out")

// The hardened driver reads the fake clock: time spent inside fn counts
// toward the deadline, and no sleep crosses it.
func TestRetryHardenedFakeClock(t *testing.T) {
	s := RetryScheduleHardened()
	if s != (RetrySchedule{100 * time.Millisecond, 2, 0.1, 30 * time.Second, 30, 10 * time.Minute}) {
		t.Errorf("hardened schedule: %+v", s)
	}
	s = RetrySchedule{Base: 100 * time.Millisecond, Factor: 2, MaxSleep: time.Second, MaxAttempts: 10, Deadline: 3 * time.Second}

	clock := newFakeClock()
	calls := 0
	res, err := RetryHardened(context.Background(), &s, func() error { calls++; return errTransient }, clock.hooks())
	if err != errTransient || res.Outcome != RetryDeadline || res.Attempts != 6 || calls != 6 ||
		!reflect.DeepEqual(res.Sleeps, ms(100, 200, 400, 800, 1000)) || !reflect.DeepEqual(clock.sleeps, res.Sleeps) {
		t.Errorf("sleep-only deadline: %+v %v (calls %d, slept %v)", res, err, calls, clock.sleeps)
	}

	// Each attempt takes 500ms of fake time: the deadline comes sooner.
	clock = newFakeClock()
	res, err = RetryHardened(context.Background(), &s, func() error { clock.now = clock.now.Add(500 * time.Millisecond); return errTransient },
		clock.hooks())
	if err != errTransient || res.Outcome != RetryDeadline || res.Attempts != 4 ||
		!reflect.DeepEqual(res.Sleeps, ms(100, 200, 400)) {
		t.Errorf("clock deadline: %+v %v", res, err)
	}

	// Success on the third attempt; conflicts wait the base only; jitter
	// takes off trunc((r * j) * d).
	clock = newFakeClock()
	hooks := clock.hooks()
	hooks.Random = func() float64 { return 0.5 }
	errConflict := errors.New("the object has been modified")
	hooks.Classify = func(err error) (RetryClass, bool) {
		if err == errConflict {
			return RetryConflict, false
		}
		return RetryTransient, false
	}
	script := []error{errTransient, errConflict, errTransient, nil}
	n := 0
	s.Jitter = 0.2
	res, err = RetryHardened(context.Background(), &s, func() error { n++; return script[n-1] }, hooks)
	if err != nil || res.Outcome != RetrySucceeded || res.Attempts != 4 || res.ErrAttempt != 0 ||
		!reflect.DeepEqual(res.Sleeps, ms(90, 90, 180)) {
		t.Errorf("conflict and jitter: %+v %v", res, err)
	}

	// A terminal error returns at once, as itself.
	errForbidden := errors.New("forbidden")
	hooks.Classify = func(error) (RetryClass, bool) { return RetryTerminal, false }
	res, err = RetryHardened(context.Background(), nil, func() error { return errForbidden }, hooks)
	if err != errForbidden || res.Outcome != RetryTerminated || res.Attempts != 1 || len(res.Sleeps) != 0 {
		t.Errorf("terminal: %+v %v", res, err)
	}
	// An invalid schedule is the library's ErrInvalid.
	if _, err = RetryHardened(context.Background(), &RetrySchedule{}, func() error { return nil }, hooks); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero schedule: %v", err)
	}
}

// Retry picks the driver from the policy: Velero's CapBackoff(10m) gives the
// README's 7 attempts and 195.31s of sleep, the last one wasted.
func TestRetryByPolicy(t *testing.T) {
	clock := newFakeClock()
	res, err := Retry(context.Background(), 10*time.Minute, func() error { return errTransient }, clock.hooks(), PolicyVelero())
	if err != errTransient || res.Outcome != RetryExhausted || res.Attempts != 7 || !res.TrailingSleep ||
		!reflect.DeepEqual(res.Sleeps, ms(10, 50, 250, 1250, 6250, 31250, 156250)) ||
		res.TotalSleep != 195310*time.Millisecond || clock.now.Sub(newFakeClock().now) != 195310*time.Millisecond {
		t.Errorf("velero: %+v %v", res, err)
	}
	clock = newFakeClock()
	res, err = Retry(context.Background(), 10*time.Minute, func() error { return errTransient }, clock.hooks(), nil)
	if err != errTransient || (res.Outcome != RetryDeadline && res.Outcome != RetryExhausted) || res.Attempts > 30 ||
		res.TotalSleep > 10*time.Minute {
		t.Errorf("hardened: %+v %v", res, err)
	}
	// The hardened preset classifies: a terminal error is not retried.
	hooks := newFakeClock().hooks()
	hooks.Classify = func(error) (RetryClass, bool) { return RetryTerminal, false }
	if res, _ = Retry(context.Background(), time.Minute, func() error { return errTransient }, hooks, nil); res.Attempts != 1 {
		t.Errorf("hardened terminal: %+v", res)
	}
	// The Velero preset never calls Classify (RetryOnErrorMaxBackOff).
	hooks.Classify = func(error) (RetryClass, bool) { t.Error("Classify called under Velero"); return RetryTerminal, false }
	if res, _ = Retry(context.Background(), time.Second, func() error { return errTransient }, hooks, PolicyVelero()); res.Attempts != 3 {
		t.Errorf("velero 1s: %+v", res)
	}
}

var errInterrupted = errors.New("context canceled by the host")

// Failures of hooks and panics come back as errors; the library is left
// in no bad state.
func TestRetryCallbackFailures(t *testing.T) {
	hooks := newFakeClock().hooks()
	hooks.Sleep = func(time.Duration) error { return errInterrupted }
	res, err := RetryOnError(context.Background(), BackoffDefault(), func() error { return errTransient }, hooks)
	var e *Error
	if !errors.Is(err, ErrHost) || !errors.Is(err, errInterrupted) || !errors.As(err, &e) || e.HostCode != hostFailure ||
		!reflect.DeepEqual(res, RetryResult{}) {
		t.Errorf("sleep error: %+v %v", res, err)
	}
	// A panic inside fn.
	_, err = RetryOnError(context.Background(), BackoffDefault(), func() error { panic("fn exploded") }, newFakeClock().hooks())
	var pe *PanicError
	if !errors.Is(err, ErrHost) || !errors.As(err, &pe) || pe.Value != "fn exploded" {
		t.Errorf("fn panic: %v", err)
	}
	// A panic inside a hook, after some attempts.
	hooks = newFakeClock().hooks()
	hooks.Classify = func(error) (RetryClass, bool) { panic(fmt.Errorf("classifier: %w", errInterrupted)) }
	_, err = RetryOnError(context.Background(), BackoffDefault(), func() error { return errTransient }, hooks)
	if !errors.As(err, &pe) || !errors.Is(err, errInterrupted) {
		t.Errorf("classify panic: %v", err)
	}
	// A random number outside [0, 1) is the library's ErrRange.
	hooks = newFakeClock().hooks()
	hooks.Random = func() float64 { return 1.5 }
	if _, err = RetryOnError(context.Background(), BackoffDefault(), func() error { return errTransient }, hooks); !errors.Is(err, ErrRange) {
		t.Errorf("random 1.5: %v", err)
	}
	if _, err = RetryOnError(context.Background(), BackoffDefault(), nil, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil fn: %v", err)
	}
	// Steps <= 0: fn is never called and the run succeeds.
	res, err = RetryOnError(context.Background(), Backoff{Steps: 0}, func() error { t.Error("called"); return nil }, nil)
	if err != nil || res.Outcome != RetryNotAttempted || res.Attempts != 0 {
		t.Errorf("steps 0: %+v %v", res, err)
	}
}

func TestSimulateBackoff(t *testing.T) {
	res, err := SimulateBackoff(BackoffVeleroCap(time.Second), 100, nil)
	if err != nil || res.Outcome != RetryExhausted || res.Attempts != 3 || !res.TrailingSleep ||
		!reflect.DeepEqual(res.Sleeps, ms(10, 50, 250)) {
		t.Errorf("cap 1s: %+v %v", res, err)
	}
	// Cap 0 overflows int64 after sleep 18: the total does not fit.
	res, err = SimulateBackoff(BackoffVeleroCap(0), 30, nil)
	if err != nil || res.Outcome != RetryTruncated || !res.TotalOverflow || res.TotalSleep != 0 {
		t.Errorf("cap 0, 30 sleeps: %v %v %v %v", res.Outcome, res.TotalOverflow, res.TotalSleep, err)
	}
	res, err = SimulateBackoff(BackoffVeleroCap(0), 5, func() float64 { return 0.5 })
	if err != nil || res.Outcome != RetryTruncated || res.Attempts != 6 ||
		!reflect.DeepEqual(res.Sleeps, []time.Duration{10500000, 52500000, 262500000, 1312500000, 6562500000}) {
		t.Errorf("cap 0 with jitter: %+v %v", res, err)
	}
}

func TestRetryTransition(t *testing.T) {
	cases := []struct {
		kind      Kind
		from, to  Phase
		atStartup bool
		velero    bool
		hardened  bool
	}{
		{KindBackup, PhaseInProgress, PhaseFinalizing, false, true, true},
		{KindBackup, PhaseFinalizing, PhaseCompleted, false, true, true},
		{KindBackup, PhaseReadyToStart, PhaseInProgress, false, false, true},
		{KindBackup, PhaseNew, PhaseQueued, false, false, false},
		{KindRestore, PhaseInProgress, PhaseFailed, true, false, true},
		{KindBackup, PhaseCompleted, PhaseNew, false, false, false},
	}
	for _, c := range cases {
		v, err := RetryTransition(c.kind, c.from, c.to, c.atStartup, PolicyVelero())
		h, err2 := RetryTransition(c.kind, c.from, c.to, c.atStartup, nil)
		if err != nil || err2 != nil || v != c.velero || h != c.hardened {
			t.Errorf("%v %v -> %v (startup %v): velero %v hardened %v (%v %v)", c.kind, c.from, c.to, c.atStartup,
				v, h, err, err2)
		}
	}
	if _, err := RetryTransition(KindRestore, PhaseQueued, PhaseNew, false, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("restore Queued: %v", err)
	}
}
