// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestVersion(t *testing.T) {
	if Version() != HeaderVersion {
		t.Fatalf("linked library %q, headers %q", Version(), HeaderVersion)
	}
	parts := strings.Split(Version(), ".")
	if len(parts) != 3 {
		t.Fatalf("version %q is not MAJOR.MINOR.PATCH", Version())
	}
	var n uint32
	for _, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 255 {
			t.Fatalf("version %q: bad component %q", Version(), p)
		}
		n = n<<8 | uint32(v)
	}
	if VersionNumber() != n {
		t.Fatalf("VersionNumber() = %#x, want %#x from %q", VersionNumber(), n, Version())
	}
}

func TestStatusNames(t *testing.T) {
	want := map[Status]string{
		StatusOK: "VELSTATUS_OK", StatusNoMem: "VELSTATUS_E_NOMEM", StatusInvalid: "VELSTATUS_E_INVALID",
		StatusParse: "VELSTATUS_E_PARSE", StatusSchema: "VELSTATUS_E_SCHEMA", StatusHost: "VELSTATUS_E_HOST",
		StatusABI: "VELSTATUS_E_ABI", StatusRange: "VELSTATUS_E_RANGE", StatusState: "VELSTATUS_E_STATE",
		StatusPassthrough: "VELSTATUS_PASSTHROUGH", StatusInternal: "VELSTATUS_E_INTERNAL",
	}
	descs := map[string]bool{}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), s.String(), name)
		}
		d := s.Describe()
		if d == "" || descs[d] {
			t.Errorf("Status(%d).Describe() = %q: empty or not unique", int(s), d)
		}
		descs[d] = true
	}
	// Values are the documented ABI (doc/conventions.md §1).
	if StatusNoMem != -1 || StatusState != -8 || StatusPassthrough != -30 || StatusInternal != -99 {
		t.Fatal("status values moved")
	}
	// An unknown code still prints something, never panics.
	if Status(-55).String() == "" {
		t.Error("unknown status prints empty")
	}
}

func TestErrorsIsAndAs(t *testing.T) {
	_, err := ParseTime("2024-13-01T00:00:00Z")
	if err == nil {
		t.Fatal("month 13 parsed")
	}
	if !errors.Is(err, ErrParse) {
		t.Fatalf("errors.Is(%v, ErrParse) = false", err)
	}
	for _, other := range []error{ErrNoMem, ErrInvalid, ErrSchema, ErrHost, ErrABI, ErrRange, ErrState, ErrInternal} {
		if errors.Is(err, other) {
			t.Errorf("errors.Is(%v, %v) = true", err, other)
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("errors.As(%T) failed", err)
	}
	if e.Code != StatusParse || e.Offset != 5 || e.Line != 1 || e.Column != 6 {
		t.Errorf("error position: %+v, want code PARSE at offset 5 (line 1, column 6)", e)
	}
	if !strings.Contains(e.Message, `"2024-13-01T00:00:00Z"`) {
		t.Errorf("message %q does not quote the input", e.Message)
	}
	if s := err.Error(); !strings.HasPrefix(s, "velstatus: parse: ") || strings.Contains(s, "VELSTATUS_") ||
		!strings.HasSuffix(s, "(line 1, column 6)") {
		t.Errorf("Error() = %q", s)
	}
	// Wrapped by the caller, it still matches.
	wrapped := fmt.Errorf("reading backup: %w", err)
	if !errors.Is(wrapped, ErrParse) {
		t.Error("wrapped error lost its status")
	}
	// ParseTime holds Go's whole range; the nanosecond form does not (in
	// 0.1 ParseTime too returned ErrRange here)
	_, err = ParseTimeNanos("9999-12-31T23:59:59Z")
	if !errors.Is(err, ErrRange) {
		t.Errorf("year 9999 in nanoseconds: %v, want ErrRange", err)
	}
}

func TestContextLifecycle(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	called := false
	if err := ctx.do(func(c *cctx) error { called = c != nil; return nil }); err != nil || !called {
		t.Fatalf("do on an open context: %v, called=%v", err, called)
	}
	if err := ctx.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ctx.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	err = ctx.do(func(*cctx) error { t.Error("ran on a closed context"); return nil })
	if !errors.Is(err, ErrState) {
		t.Fatalf("do after Close: %v, want ErrState", err)
	}
}

// Durations: the library must agree with Go's own time package, bit for bit
// and message for message.
func TestDurationMatchesGo(t *testing.T) {
	inputs := []string{"0", "4h0m0s", "1h30m", "10ms", "1.5s", "-2m", "300us", "300µs", "300μs", "1.0000000001s",
		".5h", "5.h", "", "1", "1x", "h", "+3m", "-0", "9223372036854775807ns", "9223372036854775808ns",
		"-9223372036854775808ns", "2562047h47m16.854775807s", "2562047h47m16.854775808s",
		"-2562047h47m16.854775808s", "0.3333333333333333333h", "1e3s", "1h-2m", " 1s", "1s ", "3000000h"}
	for _, s := range inputs {
		got, gerr := ParseDuration(s)
		want, werr := time.ParseDuration(s)
		if (gerr == nil) != (werr == nil) {
			t.Errorf("ParseDuration(%q): err %v, Go: %v", s, gerr, werr)
			continue
		}
		if werr != nil {
			var e *Error
			if !errors.As(gerr, &e) || e.Message != werr.Error() {
				t.Errorf("ParseDuration(%q): message %q, Go %q", s, e.Message, werr.Error())
			}
			if !errors.Is(gerr, ErrParse) && !errors.Is(gerr, ErrRange) {
				t.Errorf("ParseDuration(%q): %v is neither ErrParse nor ErrRange", s, gerr)
			}
			continue
		}
		if got != want {
			t.Errorf("ParseDuration(%q) = %d, Go %d", s, got, want)
		}
	}
	r := rand.New(rand.NewSource(7))
	values := []time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, time.Microsecond, 999, 1000, 1001,
		time.Millisecond, time.Second, time.Minute, time.Hour, 4 * time.Hour, -90 * time.Minute}
	for i := 0; i < 2000; i++ {
		values = append(values, time.Duration(r.Int63()>>uint(r.Intn(63))*int64(1-2*r.Intn(2))))
	}
	for _, d := range values {
		if got := FormatDuration(d); got != d.String() {
			t.Fatalf("FormatDuration(%d) = %q, Go %q", int64(d), got, d.String())
		}
		back, err := ParseDuration(FormatDuration(d))
		if err != nil || back != d {
			t.Fatalf("round trip of %d: %d, %v", int64(d), back, err)
		}
	}
}

func TestTimeMatchesGo(t *testing.T) {
	inputs := []string{"2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00,5Z",
		"2024-05-01T1:00:00Z", "2024-02-29T00:00:00+01:00", "2023-02-29T00:00:00Z", "2024-05-01T10:00:00+24:00",
		"2024-05-01 10:00:00Z", "2024-05-01T10:00:00z", "1970-01-01T00:00:00Z",
		"1969-12-31T23:59:59.999999999Z", "", "x", "2024-05-01T10:00:60Z",
		"2262-04-11T23:47:16.854775807Z", "1677-09-21T00:12:43.145224192Z", "2024-05-01T10:00:00-07:30"}
	for _, s := range inputs {
		got, gerr := ParseTime(s)
		want, werr := time.Parse(time.RFC3339, s) // as metav1.Time reads
		if (gerr == nil) != (werr == nil) {
			t.Errorf("ParseTime(%q): err %v, Go: %v", s, gerr, werr)
			continue
		}
		if gerr != nil {
			continue
		}
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, Go %v", s, got, want)
		}
	}
	// The library follows Go 1.20 and later (time.h); Debian's go 1.19
	// differs on these two, so they are checked against time.h instead.
	if _, err := ParseTime("2024-05-01T10:00:00+25:00"); !errors.Is(err, ErrParse) {
		t.Errorf("offset +25:00: %v, want ErrParse", err)
	}
	if got, err := ParseTimeNanos("2024-05-01T10:00:00.1234567891Z"); err != nil || got%1e9 != 123456789 {
		t.Errorf("10 fraction digits: %d, %v; want the 10th truncated", got, err)
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 2000; i++ {
		ns := r.Int63() * int64(1-2*r.Intn(2))
		if i%3 == 0 {
			ns -= ns % int64(time.Second)
		}
		tm := time.Unix(0, ns).UTC()
		if got, err := FormatTime(tm, true); err != nil || got != tm.Format(time.RFC3339Nano) {
			t.Fatalf("FormatTime(%d, nano) = %q, %v; Go %q", ns, got, err, tm.Format(time.RFC3339Nano))
		}
		if got, err := FormatTime(tm, false); err != nil || got != tm.Truncate(time.Second).Format(time.RFC3339) {
			// Truncate rounds toward the zero time (year 1), i.e. floors, as metav1.Time does.
			t.Fatalf("FormatTime(%d) = %q, %v; Go %q", ns, got, err, tm.Truncate(time.Second).Format(time.RFC3339))
		}
		if got, err := FormatTimeGo(tm); err != nil || got != tm.String() {
			t.Fatalf("FormatTimeGo(%d) = %q, %v; Go %q", ns, got, err, tm.String())
		}
		back, err := ParseTimeNanos(FormatTimeNanos(ns, true))
		if err != nil || back != ns {
			t.Fatalf("round trip of %d: %d, %v", ns, back, err)
		}
	}
	// Go's whole range (ErrRange outside int64 nanoseconds in 0.1)
	for _, tm := range []time.Time{time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), {},
		time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(-1, 12, 31, 23, 59, 0, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 59, 5e8, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)} {
		if got, err := FormatTime(tm, true); err != nil || got != tm.Format(time.RFC3339Nano) {
			t.Errorf("FormatTime(%v, nano) = %q, %v; Go %q", tm, got, err, tm.Format(time.RFC3339Nano))
		}
		if got, err := FormatTime(tm, false); err != nil || got != tm.Format(time.RFC3339) {
			t.Errorf("FormatTime(%v) = %q, %v; Go %q", tm, got, err, tm.Format(time.RFC3339))
		}
	}
	if _, err := FormatTimeGo(time.Time{}); !errors.Is(err, ErrRange) {
		t.Errorf("zero time: %v, want ErrRange", err)
	}
}

// TestTimeVectorsMatchGo runs every input of tests/data/time/go-rfc3339.json
// (scripts/time-vectors.go) through ParseTime and FormatTime and compares
// with this Go's own time.Parse(time.RFC3339) and metav1.Time's writing.
func TestTimeVectorsMatchGo(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "data", "time", "go-rfc3339.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []struct {
			In string `json:"in"`
			OK bool   `json:"ok"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.Vectors) < 80 {
		t.Fatalf("vectors: %d, %v", len(file.Vectors), err)
	}
	for _, v := range file.Vectors {
		got, gerr := ParseTime(v.In)
		want, werr := time.Parse(time.RFC3339, v.In)
		if (gerr == nil) != v.OK || (werr == nil) != v.OK {
			t.Errorf("%q: library %v, Go %v, vector ok=%v", v.In, gerr, werr, v.OK)
			continue
		}
		if !v.OK {
			continue
		}
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, Go %v", v.In, got, want)
		}
		if got.IsZero() != want.IsZero() {
			t.Errorf("ParseTime(%q).IsZero() = %v", v.In, got.IsZero())
		}
		if s, err := FormatTime(got, false); err != nil || s != want.UTC().Format(time.RFC3339) {
			t.Errorf("FormatTime(%q) = %q, %v; metav1.Time %q", v.In, s, err, want.UTC().Format(time.RFC3339))
		}
	}
}

// allPhases lists the enum by value; the names come from the library.
func allPhases() []Phase {
	var ps []Phase
	for p := PhaseNew; p <= PhaseDeleting; p++ {
		ps = append(ps, p)
	}
	return ps
}

func TestPhaseStrings(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range allPhases() {
		s := p.String()
		if s == "" || strings.HasPrefix(s, "Phase(") || seen[s] {
			t.Fatalf("Phase(%d).String() = %q", int(p), s)
		}
		seen[s] = true
		back, err := ParsePhase(KindBackup, s)
		if err != nil || back != p {
			t.Errorf("ParsePhase(backup, %q) = %v, %v", s, back, err)
		}
		if !p.ValidFor(KindBackup) {
			t.Errorf("%v not valid for backups", p)
		}
		text, err := p.MarshalText()
		if err != nil || string(text) != s {
			t.Errorf("%v.MarshalText() = %q, %v", p, text, err)
		}
		restoreValid := p != PhaseQueued && p != PhaseReadyToStart && p != PhaseDeleting
		if p.ValidFor(KindRestore) != restoreValid {
			t.Errorf("%v.ValidFor(restore) = %v", p, !restoreValid)
		}
		_, err = ParsePhase(KindRestore, s)
		if (err == nil) != restoreValid || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("ParsePhase(restore, %q): %v", s, err)
		}
		terminal := p == PhaseFailedValidation || p == PhaseCompleted || p == PhasePartiallyFailed || p == PhaseFailed
		if p.IsTerminal(KindBackup) != terminal {
			t.Errorf("%v.IsTerminal(backup) = %v", p, !terminal)
		}
	}
	if PhaseWaitingForPluginOperations.String() != "WaitingForPluginOperations" {
		t.Errorf("wire spelling: %q", PhaseWaitingForPluginOperations.String())
	}
	if p, err := ParsePhase(KindBackup, ""); err != nil || p != PhaseNew {
		t.Errorf(`ParsePhase("") = %v, %v; want New`, p, err)
	}
	if _, err := ParsePhase(KindBackup, "completed"); !errors.Is(err, ErrInvalid) {
		t.Errorf("case-insensitive parse: %v", err)
	}
	if s := Phase(99).String(); s != "Phase(99)" {
		t.Errorf("Phase(99).String() = %q", s)
	}
	if _, err := Phase(-1).MarshalText(); !errors.Is(err, ErrInvalid) {
		t.Errorf("MarshalText of -1: %v", err)
	}
	if KindBackup.String() != "backup" || KindRestore.String() != "restore" || Kind(5).String() != "Kind(5)" {
		t.Error("kind names")
	}
	for _, k := range []Kind{KindBackup, KindRestore} {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, err := ParseKind("Backup"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseKind(Backup): %v", err)
	}
}

func TestPhaseTransitions(t *testing.T) {
	legal, ctl, err := PhaseTransition(KindBackup, PhaseInProgress, PhaseWaitingForPluginOperations, nil)
	if err != nil || !legal || ctl == "" {
		t.Errorf("InProgress -> Waiting: %v %q %v", legal, ctl, err)
	}
	legal, ctl, err = PhaseTransition(KindBackup, PhaseCompleted, PhaseNew, nil)
	if err != nil || legal || ctl != "" {
		t.Errorf("Completed -> New: %v %q %v", legal, ctl, err)
	}
	legal, ctl, err = PhaseTransition(KindRestore, PhaseFailed, PhaseFailed, nil)
	if err != nil || !legal || ctl != "none" {
		t.Errorf("Failed -> Failed: %v %q %v", legal, ctl, err)
	}
	if _, _, err = PhaseTransition(KindRestore, PhaseQueued, PhaseInProgress, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("restore Queued: %v", err)
	}
	// doc/velero-releases.md: the phase machine of each release.
	p17, err := PolicyVeleroVersion("1.17")
	if err != nil {
		t.Fatal(err)
	}
	if legal, ctl, err = PhaseTransition(KindBackup, PhaseNew, PhaseInProgress, p17); err != nil || !legal || ctl != "backup" {
		t.Errorf("1.17 New -> InProgress: %v %q %v", legal, ctl, err)
	}
	if legal, _, err = PhaseTransition(KindBackup, PhaseNew, PhaseInProgress, nil); err != nil || legal {
		t.Errorf("1.18 New -> InProgress: %v %v", legal, err)
	}
	if _, _, err = PhaseTransition(KindBackup, PhaseNew, PhaseQueued, p17); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.17 Queued: %v", err)
	}
	if e, err := PhaseExists(KindBackup, PhaseQueued, p17); err != nil || e {
		t.Errorf("1.17 has Queued: %v %v", e, err)
	}
	if e, err := PhaseExists(KindBackup, PhaseQueued, nil); err != nil || !e {
		t.Errorf("1.18 lacks Queued: %v %v", e, err)
	}
	// doc/velero-behaviour.md §2.7: the phase after the main run.
	cases := []struct {
		fatal      bool
		errs       int64
		inProgress bool
		want       Phase
	}{
		{true, 0, true, PhaseFailed},
		{false, 3, true, PhaseWaitingForPluginOperationsPartiallyFailed},
		{false, 1, false, PhaseFinalizingPartiallyFailed},
		{false, 0, true, PhaseWaitingForPluginOperations},
		{false, 0, false, PhaseFinalizing},
		{false, -5, false, PhaseFinalizing},
	}
	for _, k := range []Kind{KindBackup, KindRestore} {
		for _, c := range cases {
			if got := PhaseAfterRun(k, c.fatal, c.errs, c.inProgress); got != c.want {
				t.Errorf("PhaseAfterRun(%v, %+v) = %v", k, c, got)
			}
		}
	}
	// doc/velero-behaviour.md §6.17: Velero leaves a ReadyToStart backup alone at restart.
	act, next, err := PhaseOnRestart(KindBackup, PhaseReadyToStart, PolicyVelero())
	if err != nil || act != RestartNone || next != PhaseReadyToStart {
		t.Errorf("velero ReadyToStart at restart: %v %v %v", act, next, err)
	}
	act, next, err = PhaseOnRestart(KindBackup, PhaseReadyToStart, nil)
	if err != nil || act != RestartRequeue || next != PhaseReadyToStart {
		t.Errorf("hardened ReadyToStart at restart: %v %v %v", act, next, err)
	}
	act, next, err = PhaseOnRestart(KindRestore, PhaseInProgress, nil)
	if err != nil || act != RestartMarkFailed || next != PhaseFailed || act.String() != "mark_failed" {
		t.Errorf("InProgress at restart: %v %v %v", act, next, err)
	}
	if _, _, err = PhaseOnRestart(KindRestore, PhaseDeleting, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("restore Deleting at restart: %v", err)
	}
}

func TestPolicyPresets(t *testing.T) {
	v, h := PolicyVelero(), PolicyHardened()
	if v.Preset != PresetVelero || h.Preset != PresetHardened {
		t.Fatalf("presets: %v %v", v.Preset, h.Preset)
	}
	// policy.h documents each knob as `velero / hardened`.
	if !v.ZeroTimeoutExpires || h.ZeroTimeoutExpires || v.LevelTriggeredPartialFailure ||
		!h.LevelTriggeredPartialFailure || v.ProgressErrorGrace != 0 || h.ProgressErrorGrace != time.Minute ||
		v.RetryClassifyErrors || !h.RetryClassifyErrors || v.ReportCancelResults || !h.ReportCancelResults {
		t.Errorf("preset knobs: velero %+v hardened %+v", *v, *h)
	}
	for _, p := range []Preset{PresetVelero, PresetHardened} {
		got, err := PolicyPreset(p)
		if err != nil {
			t.Fatal(err)
		}
		want := PolicyVelero()
		if p == PresetHardened {
			want = PolicyHardened()
		}
		if *got != *want {
			t.Errorf("PolicyPreset(%v) = %+v, want %+v", p, *got, *want)
		}
		if round := policyFromC(got.toC()); round != *got {
			t.Errorf("C round trip of %v: %+v", p, round)
		}
		if back, err := ParsePreset(p.String()); err != nil || back != p {
			t.Errorf("ParsePreset(%q) = %v, %v", p.String(), back, err)
		}
	}
	if _, err := PolicyPreset(Preset(9)); !errors.Is(err, ErrInvalid) {
		t.Errorf("PolicyPreset(9): %v", err)
	}
	if _, err := ParsePreset("Velero"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParsePreset(Velero): %v", err)
	}
	// A changed knob reaches the library: the hardened preset with
	// RequeueReadyToStartOnRestart off behaves as Velero at restart.
	p := PolicyHardened()
	p.RequeueReadyToStartOnRestart = false
	if act, _, err := PhaseOnRestart(KindBackup, PhaseReadyToStart, p); err != nil || act != RestartNone {
		t.Errorf("knob not passed to C: %v %v", act, err)
	}
}

// Package-level functions use a context per call: safe from many goroutines.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				d := time.Duration(g*1000+i) * time.Millisecond
				back, err := ParseDuration(FormatDuration(d))
				if err != nil || back != d {
					errs <- fmt.Errorf("goroutine %d: %v %v", g, back, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Every enum prints its C token; the Invalid values (the C getters' answer
// for NULL) print as outside the enum.
func TestEnumStrings(t *testing.T) {
	for _, c := range []struct {
		got  fmt.Stringer
		want string
	}{
		{PersistUploadAndPatch, "upload_and_patch"}, {BSLReadOnly, "readonly"},
		{StepFailedNow, "failed_now"}, {StepCancel | StepFailedNow, "cancel|failed_now"},
		{StepFlag(0), "0"}, {StepFlag(1 << 20), "StepFlag(0x100000)"},
		{ProgressOverTotal, "over_total"}, {PhaseInvalid, "Phase(-1)"}, {KindInvalid, "Kind(-1)"},
		{PersistInvalid, "PersistAction(-1)"}, {RetryInvalid, "RetryOutcome(-1)"}, {OpPhaseInvalid, "OpPhase(-1)"},
	} {
		if s := c.got.String(); s != c.want {
			t.Errorf("%T(%v).String() = %q, want %q", c.got, c.got, s, c.want)
		}
	}
}

func TestPolicyVeleroReleases(t *testing.T) {
	want := []string{"1.11", "1.12", "1.13", "1.14", "1.15", "1.16", "1.17", "1.18"}
	if got := VeleroReleases(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("VeleroReleases() = %v", got)
	}
	cur, err := PolicyVeleroRelease(1, 18)
	if err != nil || *cur != *PolicyVelero() {
		t.Errorf("1.18 is not the Velero preset: %+v %v", cur, err)
	}
	p11, err := PolicyVeleroVersion("v1.11.1")
	if err != nil || !p11.PartialFailureWhenDone || p11.DefaultItemOperationTimeout != time.Hour || p11.BackupQueue {
		t.Errorf("1.11: %+v %v", p11, err)
	}
	p13, _ := PolicyVeleroRelease(1, 13)
	p14, _ := PolicyVeleroRelease(1, 14)
	if !p13.BackupErrorPluginSuffix || p13.RestoreFinalizing || !p14.RestoreFinalizing || p14.FirstPassErrorsAsIndex {
		t.Errorf("1.13 / 1.14 knobs: %+v %+v", p13, p14)
	}
	for _, bad := range []string{"1.10", "9.9", "x"} {
		if _, err := PolicyVeleroVersion(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := PolicyVeleroRelease(1, 10); err == nil || !strings.Contains(err.Error(), "supported: 1.11 to 1.18") {
		t.Errorf("1.10: %v", err)
	}
	// A release's knobs survive the trip to C: 1.12 reports raw errors, 1.13 wraps them
	// with the name the plugin manager registers ("csi" becomes "velero.io/csi").
	const one = `[{"spec":{"backupName":"b","backupItemAction":"csi","operationID":"x"},"status":{"phase":"New","created":"2024-05-01T10:00:00Z"}}]`
	client := PluginClient{Progress: func(int, Operation) (OpProgress, error) {
		return OpProgress{Completed: true, Err: "boom"}, nil
	}}
	for _, c := range []struct {
		minor int
		want  string
	}{{12, "boom"}, {13, "boom, plugin: velero.io/csi"}} {
		list, err := DecodeOpList(KindBackup, []byte(one))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := PolicyVeleroRelease(1, c.minor)
		opts := DefaultReconcileOptions(time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC))
		opts.Policy = p
		r, err := list.Reconcile(nil, client, opts)
		if err != nil || len(r.Errors) != 1 || r.Errors[0] != c.want {
			t.Errorf("1.%d reconcile: %+v %v", c.minor, r, err)
		}
		list.Close()
	}
	// the two knobs of issue 20: Go's %q Unicode version and 1.11's invalid-ID text
	for minor, want := range map[int][2]bool{11: {true, true}, 12: {true, false}, 13: {false, false}, 18: {false, false}} {
		p, _ := PolicyVeleroRelease(1, minor)
		if p.QuoteUnicode13 != want[0] || p.InvalidOperationIDText111 != want[1] {
			t.Errorf("1.%d: QuoteUnicode13 %v InvalidOperationIDText111 %v", minor, p.QuoteUnicode13, p.InvalidOperationIDText111)
		}
	}
}

func TestBSLValidationErrorPerRelease(t *testing.T) {
	p14, _ := PolicyVeleroRelease(1, 14)
	p15, _ := PolicyVeleroRelease(1, 15)
	p16, _ := PolicyVeleroRelease(1, 16)
	t14, ok, err := BSLValidationError(KindBackup, BSLValidationDefaultMissing, "main", "gone", p14)
	if err != nil || !ok || !strings.Contains(t14, "the default 'main' wasn't found.") {
		t.Errorf("1.14: %q %v %v", t14, ok, err)
	}
	t15, _, _ := BSLValidationError(KindBackup, BSLValidationDefaultMissing, "main", "gone", p15)
	if !strings.Contains(t15, "the default main was not found.") || !strings.HasSuffix(t15, "Error: gone") {
		t.Errorf("1.15: %q", t15)
	}
	if s, ok, err := BSLValidationError(KindRestore, BSLValidationUnavailable, "main", "", p16); err != nil || ok || s != "" {
		t.Errorf("1.16 restore unavailable: %q %v %v", s, ok, err)
	}
	if s, ok, _ := BSLValidationError(KindRestore, BSLValidationUnavailable, "main", "", nil); !ok ||
		s != "The BSL main is unavailable, cannot retrieve the backup" {
		t.Errorf("current restore unavailable: %q", s)
	}
	if _, _, err := BSLValidationError(KindRestore, BSLValidationReadOnly, "main", "", nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("restore read-only: %v", err)
	}
	if BSLValidationReadOnly.String() != "read_only" || BSLValidation(9).String() != "BSLValidation(9)" {
		t.Errorf("String: %s %s", BSLValidationReadOnly, BSLValidation(9))
	}
}

// Velero's describe prints Go's Time.String() in the client's zone (issue 22):
// the numeric offset decides, the abbreviation is ignored.
func TestParseTimeGoString(t *testing.T) {
	want := time.Date(2023, 11, 10, 15, 40, 35, 0, time.UTC)
	for _, s := range []string{"2023-11-10 16:40:35 +0100 CET", "2023-11-10 21:10:35 +0530 IST",
		"2023-11-10 12:10:35 -0330 NST", "2023-11-10 15:40:35 +0000 UTC m=+1.000000001"} {
		got, err := ParseTimeGoString(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTimeGoString(%q) = %v, %v; want %v", s, got, err, want)
		}
		// Go's own String() of the instant reads back.
		if back, err := ParseTimeGoString(got.In(time.FixedZone("X", 3600)).String()); err != nil || !back.Equal(want) {
			t.Errorf("round trip of %v: %v, %v", got, back, err)
		}
	}
	_, err := ParseTimeGoString("2023-11-10T16:40:35+01:00")
	var e *Error
	if !errors.As(err, &e) || e.Code != StatusParse || e.Offset != 10 {
		t.Errorf("RFC 3339 text: %v, want a parse error at offset 10", err)
	}
}
