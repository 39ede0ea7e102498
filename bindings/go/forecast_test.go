// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

const forecastNow = "2024-05-01T11:00:30Z"

func explainData(name string) string {
	return filepath.Join("..", "..", "tests", "data", "explain", name)
}

type explainTimeline struct {
	End        string `json:"end"`
	FinalPhase string `json:"finalPhase"`
	Events     []struct {
		At       string   `json:"at"`
		Phase    string   `json:"phase"`
		Canceled []string `json:"canceled"`
		Errors   []string `json:"errors"`
		Persist  string   `json:"persist"`
	} `json:"events"`
}

func timeoutForecast(t *testing.T, policy *Policy) (*OpList, Forecast) {
	t.Helper()
	ol, err := DecodeOpList(KindBackup, mustRead(t, explainData("timeout-itemoperations.json")))
	if err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.RFC3339, forecastNow)
	opts := DefaultReconcileOptions(now)
	opts.CompletedBefore, opts.FailedBefore, opts.Policy = 1, 1, policy
	fc, err := ol.Forecast(opts)
	if err != nil {
		t.Fatal(err)
	}
	return ol, fc
}

func checkTimeline(t *testing.T, name string, fc Forecast, want explainTimeline) {
	t.Helper()
	if fc.End.String() != want.End || fc.FinalPhase.String() != want.FinalPhase || len(fc.Events) != len(want.Events) {
		t.Fatalf("%s: end %v, final %v, %d events; want %+v", name, fc.End, fc.FinalPhase, len(fc.Events), want)
	}
	for k, ev := range fc.Events {
		w := want.Events[k]
		at, err := time.Parse(time.RFC3339Nano, w.At)
		if err != nil || !ev.At.Equal(at) || ev.Result.Phase.String() != w.Phase ||
			ev.Result.Persist.String() != w.Persist || !reflect.DeepEqual(append([]string{}, ev.Result.Errors...), w.Errors) {
			t.Fatalf("%s event %d: %+v, want %+v", name, k, ev, w)
		}
		ids := []string{}
		for _, c := range ev.Result.Canceled {
			ids = append(ids, c.OperationID)
		}
		if !reflect.DeepEqual(ids, w.Canceled) {
			t.Fatalf("%s event %d: canceled %v, want %v", name, k, ids, w.Canceled)
		}
	}
}

// The done-when case of issue 14 against `velstatus explain -o json`, both presets.
func TestForecastMatchesExplain(t *testing.T) {
	var want struct {
		Timeline    explainTimeline `json:"timeline"`
		OtherPreset struct {
			Timeline explainTimeline `json:"timeline"`
		} `json:"otherPreset"`
		Operations []struct {
			Fate  string `json:"fate"`
			ETA   string `json:"eta"`
			Event *int   `json:"event"`
		} `json:"operations"`
	}
	out := runCLI(t, "explain", "-o", "json", "--now", forecastNow, "--operations", explainData("timeout-itemoperations.json"),
		"--bsls", explainData("bsls-available.json"), explainData("timeout-backup.json"))
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	ol, fc := timeoutForecast(t, PolicyVelero())
	defer ol.Close()
	checkTimeline(t, "velero", fc, want.Timeline)
	for i, op := range fc.Ops {
		w := want.Operations[i]
		if op.Fate.String() != w.Fate || op.ETA.String() != w.ETA || (w.Event == nil) != (op.Event == -1) ||
			(w.Event != nil && *w.Event != op.Event) {
			t.Fatalf("op %d: %+v, want %+v", i, op, w)
		}
	}
	deadline, _ := time.Parse(time.RFC3339, "2024-05-01T14:00:00Z")
	if !fc.Ops[0].Deadline.Equal(deadline) || !fc.Events[0].At.Equal(deadline.Add(time.Nanosecond)) ||
		fc.Ops[0].Fate != FateTimesOut || fc.Ops[0].ETA != ETAAfter || fc.FinalPhase != PhaseFinalizingPartiallyFailed {
		t.Fatalf("done-when: %+v", fc)
	}
	_, hfc := timeoutForecast(t, PolicyHardened())
	checkTimeline(t, "hardened", hfc, want.OtherPreset.Timeline)
}

// Stepping Reconcile with a Go plugin echoing the records decides, at each
// forecast instant, what the forecast says, and nothing one nanosecond before.
func TestForecastStepsLikeReconcile(t *testing.T) {
	for _, pol := range []*Policy{PolicyVelero(), PolicyHardened()} {
		_, fc := timeoutForecast(t, pol)
		sim, err := DecodeOpList(KindBackup, mustRead(t, explainData("timeout-itemoperations.json")))
		if err != nil {
			t.Fatal(err)
		}
		recorded, _ := sim.Ops()
		client := PluginClient{
			Progress: func(i int, _ Operation) (OpProgress, error) {
				r := recorded[i]
				return OpProgress{NCompleted: r.NCompleted, NTotal: r.NTotal, OperationUnits: r.OperationUnits,
					Description: r.Description, Started: r.Started, Updated: r.Updated}, nil
			},
			Cancel: func(int, Operation) error { return nil },
		}
		now, _ := time.Parse(time.RFC3339, forecastNow)
		opts := DefaultReconcileOptions(now)
		opts.CompletedBefore, opts.FailedBefore, opts.Policy = 1, 1, pol
		prev := now
		for k, ev := range fc.Events {
			if ev.At.Add(-time.Nanosecond).After(prev) {
				opts.Now = ev.At.Add(-time.Nanosecond)
				quiet, err := sim.Reconcile(context.Background(), client, opts)
				if err != nil || quiet.Phase != opts.Phase || len(quiet.Canceled) != 0 || len(quiet.Errors) != 0 {
					t.Fatalf("event %d: the pass before it decided %+v (%v)", k, quiet, err)
				}
			}
			opts.Now = ev.At
			got, err := sim.Reconcile(context.Background(), client, opts)
			if err != nil || !reflect.DeepEqual(got, ev.Result) {
				t.Fatalf("event %d: reconcile %+v (%v), forecast %+v", k, got, err, ev.Result)
			}
			opts.Phase, opts.CompletedBefore, opts.FailedBefore = got.Phase, int64(got.Completed), int64(got.Failed)
			prev = ev.At
		}
		sim.Close()
	}
}

func TestForecastPresetsAndErrors(t *testing.T) {
	ol, err := DecodeOpList(KindBackup, []byte(`[{"spec":{"backupItemAction":"p","operationID":"op"},`+
		`"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.RFC3339, "2024-05-01T09:00:00Z")
	opts := DefaultReconcileOptions(now)
	opts.Timeout = 0
	opts.Policy = PolicyVelero()
	fc, err := ol.Forecast(opts)
	created, _ := time.Parse(time.RFC3339, "2024-05-01T10:00:00Z")
	if err != nil || len(fc.Events) != 1 || !fc.Events[0].At.Equal(created.Add(time.Nanosecond)) {
		t.Fatalf("velero, zero timeout: %+v, %v", fc, err)
	}
	opts.Policy = nil // hardened: a zero timeout is no timeout
	fc, err = ol.Forecast(opts)
	if err != nil || len(fc.Events) != 0 || fc.End != EndStalled || fc.Ops[0].Fate != FateNoTimeout ||
		fc.Ops[0].Event != -1 || !fc.Ops[0].Deadline.IsZero() {
		t.Fatalf("hardened, zero timeout: %+v, %v", fc, err)
	}
	opts.Phase = PhaseInProgress
	if _, err := ol.Forecast(opts); !errors.Is(err, ErrState) {
		t.Fatalf("InProgress: %v", err)
	}
	opts.Phase, opts.Errors = PhaseWaitingForPluginOperations, -1
	if _, err := ol.Forecast(opts); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative errors: %v", err)
	}
	ol.Close()
	opts.Errors = 0
	if _, err := ol.Forecast(opts); !errors.Is(err, ErrState) {
		t.Fatalf("closed list: %v", err)
	}
	if FateTimesOut.String() != "times_out" || ETANoDeadline.String() != "no_deadline" || EndFinal.String() != "final" ||
		FateInvalid.String() != "ForecastFate(-1)" {
		t.Fatal("enum strings")
	}
}
