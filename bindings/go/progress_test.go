// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// cliProgress is the CLI's progress -o json layout.
type cliProgress struct {
	Attempted    int `json:"attempted"`
	New          int `json:"new"`
	InProgress   int `json:"inProgress"`
	Completed    int `json:"completed"`
	Failed       int `json:"failed"`
	Unquantified int `json:"unquantified"`
	Units        []struct {
		Units         string   `json:"units"`
		Operations    int      `json:"operations"`
		Completed     int64    `json:"completed"`
		Total         int64    `json:"total"`
		Percent       float64  `json:"percent"`
		RatePerSecond *float64 `json:"ratePerSecond"`
		EtaSeconds    *int64   `json:"etaSeconds"`
	} `json:"units"`
	Summary string `json:"summary"`
}

func TestProgressMatchesCLI(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		file string
		now  string
	}{
		{KindBackup, "backup-itemoperations.json", "2024-05-01T10:30:00Z"},
		{KindBackup, "backup-itemoperations.json", "2024-05-01T12:00:00Z"},
		{KindRestore, "restore-itemoperations.json", "2024-05-02T08:05:00Z"},
	} {
		path := opsExample(t, c.file)
		ol, err := DecodeOpList(c.kind, mustRead(t, path))
		if err != nil {
			t.Fatal(err)
		}
		now, _ := time.Parse(time.RFC3339, c.now)
		p, err := ol.Progress(now)
		if err != nil {
			t.Fatal(err)
		}
		var cli cliProgress
		cliJSON := runCLI(t, "progress", "--now", c.now, "--kind", c.kind.String(), "-o", "json", path)
		if err := json.Unmarshal(cliJSON, &cli); err != nil {
			t.Fatal(err)
		}
		if string(p.JSON) != string(cliJSON) {
			t.Errorf("%s: JSON\n  go:  %s\n  cli: %s", c.file, p.JSON, cliJSON)
		}
		if p.Attempted != cli.Attempted || p.New != cli.New || p.InProgress != cli.InProgress ||
			p.Completed != cli.Completed || p.Failed != cli.Failed || p.Unquantified != cli.Unquantified ||
			p.Summary != cli.Summary || len(p.Units) != len(cli.Units) {
			t.Fatalf("%s at %s:\n  go:  %+v\n  cli: %+v", c.file, c.now, p, cli)
		}
		for i, u := range p.Units {
			cu := cli.Units[i]
			if u.Unit != cu.Units || u.Operations != cu.Operations || u.Completed != cu.Completed || u.Total != cu.Total ||
				u.Percent != cu.Percent || u.RateKnown != (cu.RatePerSecond != nil) || u.ETAKnown != (cu.EtaSeconds != nil) ||
				(u.RateKnown && u.Rate != *cu.RatePerSecond) || (u.ETAKnown && u.ETA != time.Duration(*cu.EtaSeconds)*time.Second) {
				t.Errorf("%s unit %d:\n  go:  %+v\n  cli: %+v", c.file, i, u, cu)
			}
		}
		if p.Attempted == 0 || p.Summary == "" {
			t.Errorf("%s: empty report %+v", c.file, p)
		}
		for _, details := range []bool{false, true} {
			d, err := ol.Describe(details)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"describe-operations", "--kind", c.kind.String(), path}
			if details {
				args = append(args, "--details")
			}
			if want := string(runCLI(t, args...)); strings.TrimSuffix(d, "\n") != want {
				t.Errorf("%s describe details=%v:\n  go:\n%s\n  cli:\n%s", c.file, details, d, want)
			}
		}
		ol.Close()
	}
}

// Units are grouped by exact string and never added; the flags follow the
// progress.h definitions.
func TestProgressAggregation(t *testing.T) {
	ol, _ := NewOpList(KindBackup)
	defer ol.Close()
	for _, op := range []Operation{
		{OperationID: "a", Phase: OpPhaseInProgress, NCompleted: 50, NTotal: 100, OperationUnits: "Bytes", Created: t0, Started: t0},
		{OperationID: "b", Phase: OpPhaseInProgress, NCompleted: 1, NTotal: 4, OperationUnits: "bytes", Created: t0},
		{OperationID: "c", Phase: OpPhaseCompleted, NCompleted: 12, NTotal: 10, OperationUnits: "Bytes", Created: t0},
		{OperationID: "d", PhaseText: "Paused", NTotal: 10, Created: t0},
		{OperationID: "e", Phase: OpPhaseNew, Created: t0},
		{OperationID: "f", Phase: OpPhaseFailed, NCompleted: math.MaxInt64, NTotal: math.MaxInt64, OperationUnits: "Bytes"},
	} {
		if _, err := ol.Append(op); err != nil {
			t.Fatal(err)
		}
	}
	p, err := ol.Progress(t0.Add(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if p.Attempted != 6 || p.InProgress != 2 || p.Completed != 1 || p.Failed != 1 || p.New != 1 || p.UnknownPhase != 1 ||
		p.Unquantified != 1 || len(p.Units) != 2 || p.Units[0].Unit != "Bytes" || p.Units[1].Unit != "bytes" {
		t.Fatalf("report: %+v", p)
	}
	b := p.Units[0]
	// Bytes: a (50/100), c (12/10), f (MaxInt64 twice, clamped).
	if b.Operations != 3 || b.Total != math.MaxInt64 || b.Flags&ProgressSaturated == 0 || b.Flags&ProgressOverTotal == 0 ||
		!b.RateKnown || b.Rate != 5 || !b.ETAKnown || b.ETA != 10*time.Second {
		t.Errorf("Bytes group: %+v", b)
	}
	if p.Units[1].RateKnown || p.Units[1].Flags&ProgressUntimed == 0 {
		t.Errorf("bytes group without started: %+v", p.Units[1])
	}
	if p.Flags&ProgressUnknownPhase == 0 || p.Flags&ProgressSaturated == 0 {
		t.Errorf("report flags %b", p.Flags)
	}
	empty, _ := NewOpList(KindRestore)
	defer empty.Close()
	if p, err := empty.Progress(t0); err != nil || p.Summary != "no operations" || len(p.Units) != 0 {
		t.Errorf("empty: %+v %v", p, err)
	}
	if d, err := empty.Describe(true); err != nil || d != "" {
		t.Errorf("empty describe: %q %v", d, err)
	}
}
