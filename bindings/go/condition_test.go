// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const conditionNow = "2026-12-01T10:00:00.5Z"

// doc/cli.md §6: the condition status of each server status.
var conditionStatus = map[ServerState]string{
	ServerReady: "True", ServerPartiallyReady: "True", ServerWaiting: "Unknown", ServerNotReady: "False",
}

var conditionReasonRE = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

func TestConditionMatchesCLI(t *testing.T) {
	now, err := ParseTime(conditionNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bslExamples(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ServerStatus(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cond, err := v.Condition(now, -1)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := json.Marshal(cond)
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(runCLI(t, "server-status", "-o", "condition", "--now", conditionNow, f), []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n  go:  %s\n  cli: %s", filepath.Base(f), got, want)
		}
		reason, err := ConditionReason(v.Reasons...)
		if err != nil || cond.Reason != reason || cond.Status != conditionStatus[v.Status] || cond.Message != v.Message {
			t.Errorf("%s: %+v, reason %q (%v), status of %s", filepath.Base(f), cond, reason, err, v.Status)
		}
		if cond.LastTransitionTime.Format(time.RFC3339Nano) != "2026-12-01T10:00:00Z" {
			t.Errorf("%s: time %v, want whole seconds", filepath.Base(f), cond.LastTransitionTime)
		}
	}
}

func TestConditionGenerationAndTime(t *testing.T) {
	v, err := ServerStatus([]byte(`[]`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cond, err := v.Condition(time.Unix(-2, 5e8), 7) // -1.5 s, floored as the C library floors: 23:59:58
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(cond)
	want := `{"type":"Ready","status":"Unknown","observedGeneration":7,"lastTransitionTime":"1969-12-31T23:59:58Z",` +
		`"reason":"NoLocations","message":"no backup storage locations"}`
	if string(js) != want {
		t.Errorf("got %s\nwant %s", js, want)
	}
	if c, _ := v.Condition(time.Unix(0, 0), 0); c.ObservedGeneration != 0 {
		t.Errorf("generation 0: %d", c.ObservedGeneration)
	}
	if _, err := v.Condition(time.Unix(0, 0), -2); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "observedGeneration") {
		t.Errorf("generation -2: %v", err)
	}
	if _, err := v.Condition(time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), -1); !errors.Is(err, ErrRange) {
		t.Errorf("year 2300: %v", err)
	}
	if _, err := (Verdict{}).Condition(time.Unix(0, 0), -1); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero Verdict: %v", err)
	}
}

func TestConditionReasonPrecedence(t *testing.T) {
	if r, err := ConditionReason(); r != "AllLocationsAvailable" || err != nil {
		t.Errorf("no flag: %q %v", r, err)
	}
	order := []struct {
		flag Reason
		want string
	}{{ReasonNoBSL, "NoLocations"}, {ReasonAllUnavailable, "AllLocationsUnavailable"},
		{ReasonNeverValidated, "LocationsNeverValidated"}, {ReasonPending, "LocationsPending"},
		{ReasonDefaultNotAvailable, "DefaultLocationUnavailable"}, {ReasonNoDefault, "NoDefaultLocation"},
		{ReasonMultipleDefaults, "MultipleDefaultLocations"}, {ReasonDefaultReadOnly, "DefaultLocationReadOnly"},
		{ReasonSomeUnavailable, "SomeLocationsUnavailable"}, {ReasonStale, "LocationsNotRevalidated"},
		{ReasonSomePending, "SomeLocationsPending"}, {ReasonUnknownPhase, "UnknownLocationPhase"}}
	var all []Reason
	for i, o := range order {
		if r, _ := ConditionReason(o.flag); r != o.want || !conditionReasonRE.MatchString(r) {
			t.Errorf("%s: %q, want %q", o.flag, r, o.want)
		}
		// with every less severe flag set too, the most severe still wins
		rest := []Reason{o.flag}
		for _, later := range order[i+1:] {
			rest = append(rest, later.flag)
		}
		if r, _ := ConditionReason(rest...); r != o.want {
			t.Errorf("%v: %q, want %q", rest, r, o.want)
		}
		all = append(all, o.flag)
	}
	if len(all) != 12 {
		t.Fatalf("%d flags", len(all))
	}
	if _, err := ConditionReason(Reason(1 << 20)); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown bit: %v", err)
	}
}

func TestArgoHealthString(t *testing.T) {
	for h, want := range map[ArgoHealth]string{ArgoHealthy: "healthy", ArgoProgressing: "progressing",
		ArgoDegraded: "degraded", ArgoHealthInvalid: "ArgoHealth(-1)", 9: "ArgoHealth(9)"} {
		if h.String() != want {
			t.Errorf("%d: %q, want %q", int(h), h.String(), want)
		}
		if h >= 0 && h <= 2 {
			if p, err := ParseArgoHealth(want); p != h || err != nil {
				t.Errorf("parse %q: %v %v", want, p, err)
			}
		}
	}
	if _, err := ParseArgoHealth("Healthy"); !errors.Is(err, ErrInvalid) {
		t.Errorf("Healthy: %v", err)
	}
}

func strp(s string) *string { return &s }

func TestArgoHealthOfEveryPhase(t *testing.T) {
	degraded := map[Phase]bool{PhaseFailedValidation: true, PhaseFailed: true, PhasePartiallyFailed: true,
		PhaseWaitingForPluginOperationsPartiallyFailed: true, PhaseFinalizingPartiallyFailed: true}
	expect := func(kind Kind, phase, reason *string, deleting bool, want ArgoHealth, wantMsg string) {
		t.Helper()
		h, msg, err := ArgoHealthOf(kind, phase, reason, deleting)
		if err != nil || h != want || msg != wantMsg {
			t.Errorf("%s %v %v %v: %s %q %v, want %s %q", kind, phase, reason, deleting, h, msg, err, want, wantMsg)
		}
	}
	for _, kind := range []Kind{KindBackup, KindRestore} {
		noun := map[Kind]string{KindBackup: "Backup", KindRestore: "Restore"}[kind]
		n := 0
		for p := PhaseNew; p.String() != fmt.Sprintf("Phase(%d)", int(p)); p++ {
			n++
			name := p.String()
			switch {
			case p == PhaseCompleted:
				expect(kind, &name, strp("x"), false, ArgoHealthy, noun+" completed")
			case degraded[p]:
				expect(kind, &name, strp("bucket gone"), false, ArgoDegraded, "bucket gone")
				expect(kind, &name, strp(""), false, ArgoDegraded, "") // Lua's `or` keeps ""
				expect(kind, &name, nil, false, ArgoDegraded, name)
			default:
				expect(kind, &name, strp("ignored"), false, ArgoProgressing, name)
			}
		}
		if n != 13 {
			t.Errorf("%d phases", n)
		}
		expect(kind, nil, nil, false, ArgoProgressing, "Waiting for "+strings.ToLower(noun)+" to be processed")
		expect(kind, strp(""), nil, false, ArgoProgressing, "") // present and empty: not absent
		expect(kind, strp("Exploded"), nil, false, ArgoProgressing, "Exploded")
		expect(kind, strp("completed"), nil, false, ArgoProgressing, "completed")
		expect(kind, strp("Failed"), strp("été"), false, ArgoDegraded, "été")
	}
	expect(KindBackup, strp("Completed"), nil, true, ArgoProgressing, "Pending deletion")
	expect(KindBackup, strp("Failed"), strp("x"), true, ArgoProgressing, "Pending deletion")
	expect(KindRestore, strp("Completed"), nil, true, ArgoHealthy, "Restore completed") // no deletion branch
	if _, _, err := ArgoHealthOf(Kind(7), strp("Completed"), nil, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("kind 7: %v", err)
	}
}
