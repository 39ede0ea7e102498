// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var dmPhases = map[string]DMPhase{"New": DMPhaseNew, "Accepted": DMPhaseAccepted, "Prepared": DMPhasePrepared,
	"InProgress": DMPhaseInProgress, "Canceling": DMPhaseCanceling, "Canceled": DMPhaseCanceled,
	"Completed": DMPhaseCompleted, "Failed": DMPhaseFailed, "Unknown": DMPhaseUnknown}

var dmActions = map[string]DMAction{}

func init() {
	for a := DMActionNone; a <= DMActionResume; a++ {
		dmActions[a.String()] = a
	}
}

func dmTime(t *testing.T, s string) time.Time {
	t.Helper()
	if len(s) < 20 {
		s = "2024-05-01T" + s + "Z"
	}
	v, err := ParseTime(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

type dmRow struct {
	line   int
	minors []int
	obj    DMObject
	cfg    DMConfig
	now    time.Time
	want   DMDecision
}

func dmMinors(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		var lo, hi int
		if n, _ := fmt.Sscanf(part, "1.%d-1.%d", &lo, &hi); n != 2 {
			hi = lo
		}
		for m := lo; m <= hi; m++ {
			out = append(out, m)
		}
	}
	return out
}

func dmParseObject(t *testing.T, r *dmRow, col string) {
	for i, w := range strings.Split(col, " ") {
		k, v, _ := strings.Cut(w, "=")
		switch {
		case i == 0:
			r.obj.Kind = map[string]DMKind{"du": DMUpload, "dd": DMDownload}[k]
		case k == "phase":
			r.obj.Phase = v
		case k == "cancel":
			r.obj.Cancel = true
		case k == "deleting":
			r.obj.Deleting = true
		case k == "ns":
			r.obj.Namespace = v
		case k == "name":
			r.obj.Name = v
		case k == "node":
			r.obj.Node = v
		case k == "label":
			r.obj.AcceptedByLabel = v
		case k == "anno":
			r.obj.AcceptedAtAnnotation = v
		case k == "start":
			r.obj.Start = dmTime(t, v)
		case k == "accepted":
			r.obj.Accepted = dmTime(t, v)
		default:
			t.Fatalf("line %d: object key %s", r.line, k)
		}
	}
}

func dmParseConfig(t *testing.T, r *dmRow, col string) {
	for _, w := range strings.Split(col, " ") {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "-":
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil {
				t.Fatal(err)
			}
			r.cfg.PrepareTimeout = d
		case "restart":
			at, node, _ := strings.Cut(v, "@")
			r.cfg.NodeRestart, r.cfg.RestartNode = dmTime(t, at), node
		case "server":
			r.cfg.ServerRestart = dmTime(t, v)
		case "seen":
			r.cfg.CancelSeen = dmTime(t, v)
		case "resume":
			r.cfg.ResumeError = strings.ReplaceAll(v, "_", " ")
		default:
			t.Fatalf("line %d: config key %s", r.line, k)
		}
	}
}

func dmParseDecision(t *testing.T, r *dmRow, col, msg string) {
	for i, w := range strings.Split(col, " ") {
		k, v, _ := strings.Cut(w, "=")
		switch {
		case i == 0:
			r.want.Action = dmActions[w]
		case i == 1:
			r.want.When = map[string]DMWhen{"never": DMWhenNever, "now": DMWhenNow, "at": DMWhenAt}[w]
		case k == "at":
			r.want.At = dmTime(t, v)
		case k == "after":
			r.want.PhaseAfter = dmPhases[v]
		case k == "cancel":
			r.want.CancelAfter = v == "1"
		}
	}
	if strings.HasPrefix(msg, "=") {
		m := msg[1:]
		r.want.Message = &m
	}
}

func dmRows(t *testing.T) []dmRow {
	f, err := os.Open(filepath.Join("..", "..", "tests", "data", "releases", "dm-node-agent.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []dmRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, " | ")
		if len(col) != 7 {
			t.Fatalf("line %d: %d columns", n, len(col))
		}
		r := dmRow{line: n, minors: dmMinors(col[0]), now: dmTime(t, col[3])}
		dmParseObject(t, &r, col[1])
		dmParseConfig(t, &r, col[2])
		dmParseDecision(t, &r, col[4], col[5])
		rows = append(rows, r)
	}
	return rows
}

func dmSame(a, b DMDecision) bool {
	if (a.Message == nil) != (b.Message == nil) || (a.Message != nil && *a.Message != *b.Message) {
		return false
	}
	return a.Action == b.Action && a.When == b.When && a.At.Equal(b.At) && a.PhaseAfter == b.PhaseAfter &&
		a.CancelAfter == b.CancelAfter
}

// TestDMDecideReleaseRows replays every per-release row of the C suite.
func TestDMDecideReleaseRows(t *testing.T) {
	rows := dmRows(t)
	if len(rows) < 60 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		for _, minor := range r.minors {
			got, err := DMDecide(r.obj, r.now, 1, minor, &r.cfg)
			if err != nil {
				t.Fatalf("line %d (1.%d): %v", r.line, minor, err)
			}
			if !dmSame(got, r.want) {
				t.Errorf("line %d (1.%d): got %v/%v at %v msg %v, want %v/%v at %v msg %v", r.line, minor,
					got.Action, got.When, got.At, got.Message, r.want.Action, r.want.When, r.want.At, r.want.Message)
			}
		}
	}
}

func TestDMDecideRefuses(t *testing.T) {
	obj := DMObject{Kind: DMUpload, Phase: "Accepted"}
	_, err := DMDecide(obj, time.Unix(0, 0), 1, 11, nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "1.11 has no data mover") {
		t.Errorf("1.11: %v", err)
	}
	_, err = DMDecide(obj, time.Unix(0, 0), 1, 18, &DMConfig{PrepareTimeout: -time.Second})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("negative timeout: %v", err)
	}
	_, err = DMDecide(DMObject{Kind: DMKind(7)}, time.Unix(0, 0), 1, 18, nil)
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("kind 7: %v", err)
	}
	_, err = DMDecide(obj, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), 1, 18, nil)
	if err == nil || !strings.Contains(err.Error(), "outside the int64 nanosecond range") {
		t.Errorf("year 3000: %v", err)
	}
	if d, err := DMPrepareTimeoutDefault(1, 17); err != nil || d != 30*time.Minute {
		t.Errorf("default timeout: %v %v", d, err)
	}
	if DMActionSetCancel.String() != "set_cancel" || DMWhenAt.String() != "at" || DMAction(42).String() != "DMAction(42)" {
		t.Errorf("tokens: %v %v %v", DMActionSetCancel, DMWhenAt, DMAction(42))
	}
}

func TestDMTimeline(t *testing.T) {
	// 1.15 writes the accept instant in whole seconds: the timeout comes half a second early
	ev, err := DMTimeline(DMObject{Kind: DMDownload}, dmTime(t, "08:00:00.5"), 1, 15, nil)
	if err != nil || len(ev) != 2 || ev[0].Action != DMActionAccept || !ev[0].At.Equal(dmTime(t, "08:00:00.5")) ||
		ev[1].Action != DMActionFail || !ev[1].At.Equal(dmTime(t, "08:30:00")) ||
		ev[1].Message == nil || *ev[1].Message != "timeout on preparing data download" {
		t.Fatalf("%+v %v", ev, err)
	}
	ev, err = DMTimeline(DMObject{Kind: DMUpload, Phase: "Completed"}, dmTime(t, "08:00:00"), 1, 18, nil)
	if err != nil || len(ev) != 0 {
		t.Errorf("completed: %+v %v", ev, err)
	}
	if _, err = DMTimeline(DMObject{Kind: DMUpload}, dmTime(t, "08:00:00"), 1, 11, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.11: %v", err)
	}
}
