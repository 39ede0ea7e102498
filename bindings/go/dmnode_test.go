// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var dmPhases = map[string]DmPhase{"New": DmPhaseNew, "Accepted": DmPhaseAccepted, "Prepared": DmPhasePrepared,
	"InProgress": DmPhaseInProgress, "Canceling": DmPhaseCanceling, "Canceled": DmPhaseCanceled,
	"Completed": DmPhaseCompleted, "Failed": DmPhaseFailed, "Unknown": DmPhaseUnknown}

var dmActions = map[string]DmAction{}

func init() {
	for a := DmActionNone; a <= DmActionResume; a++ {
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
	obj    DmObject
	cfg    DmConfig
	now    time.Time
	want   DmDecision
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
			r.obj.Kind = map[string]DmKind{"du": DmUpload, "dd": DmDownload}[k]
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
			r.want.When = map[string]DmWhen{"never": DmWhenNever, "now": DmWhenNow, "at": DmWhenAt}[w]
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

func dmSame(a, b DmDecision) bool {
	if (a.Message == nil) != (b.Message == nil) || (a.Message != nil && *a.Message != *b.Message) {
		return false
	}
	return a.Action == b.Action && a.When == b.When && a.At.Equal(b.At) && a.PhaseAfter == b.PhaseAfter &&
		a.CancelAfter == b.CancelAfter
}

// TestDmDecideReleaseRows replays every per-release row of the C suite.
func TestDmDecideReleaseRows(t *testing.T) {
	rows := dmRows(t)
	if len(rows) < 60 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		for _, minor := range r.minors {
			got, err := DmDecide(r.obj, r.now, 1, minor, &r.cfg)
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

func TestDmDecideRefuses(t *testing.T) {
	obj := DmObject{Kind: DmUpload, Phase: "Accepted"}
	_, err := DmDecide(obj, time.Unix(0, 0), 1, 11, nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "1.11 has no data mover") {
		t.Errorf("1.11: %v", err)
	}
	_, err = DmDecide(obj, time.Unix(0, 0), 1, 18, &DmConfig{PrepareTimeout: -time.Second})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("negative timeout: %v", err)
	}
	_, err = DmDecide(DmObject{Kind: DmKind(7)}, time.Unix(0, 0), 1, 18, nil)
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("kind 7: %v", err)
	}
	_, err = DmDecide(obj, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), 1, 18, nil)
	if err == nil || !strings.Contains(err.Error(), "outside the int64 nanosecond range") {
		t.Errorf("year 3000: %v", err)
	}
	if d, err := DmPrepareTimeoutDefault(1, 17); err != nil || d != 30*time.Minute {
		t.Errorf("default timeout: %v %v", d, err)
	}
	if DmActionSetCancel.String() != "set_cancel" || DmWhenAt.String() != "at" || DmAction(42).String() != "DmAction(42)" {
		t.Errorf("tokens: %v %v %v", DmActionSetCancel, DmWhenAt, DmAction(42))
	}
}

func TestDmTimeline(t *testing.T) {
	// 1.15 writes the accept instant in whole seconds: the timeout comes half a second early
	ev, err := DmTimeline(DmObject{Kind: DmDownload}, dmTime(t, "08:00:00.5"), 1, 15, nil)
	if err != nil || len(ev) != 2 || ev[0].Action != DmActionAccept || !ev[0].At.Equal(dmTime(t, "08:00:00.5")) ||
		ev[1].Action != DmActionFail || !ev[1].At.Equal(dmTime(t, "08:30:00")) ||
		ev[1].Message == nil || *ev[1].Message != "timeout on preparing data download" {
		t.Fatalf("%+v %v", ev, err)
	}
	ev, err = DmTimeline(DmObject{Kind: DmUpload, Phase: "Completed"}, dmTime(t, "08:00:00"), 1, 18, nil)
	if err != nil || len(ev) != 0 {
		t.Errorf("completed: %+v %v", ev, err)
	}
	if _, err = DmTimeline(DmObject{Kind: DmUpload}, dmTime(t, "08:00:00"), 1, 11, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.11: %v", err)
	}
}

// dmObjectJSON is the object as kubectl prints it: the row's fields in a
// DataUpload or DataDownload.
func dmObjectJSON(o DmObject) []byte {
	meta := map[string]any{}
	status := map[string]any{"phase": o.Phase}
	kind := map[DmKind]string{DmUpload: "DataUpload", DmDownload: "DataDownload"}[o.Kind]
	for k, v := range map[string]string{"namespace": o.Namespace, "name": o.Name} {
		if v != "" {
			meta[k] = v
		}
	}
	if o.Deleting {
		meta["deletionTimestamp"] = "2024-05-01T07:00:00Z"
	}
	if o.AcceptedByLabel != "" {
		meta["labels"] = map[string]string{"velero.io/accepted-by": o.AcceptedByLabel}
	}
	if o.AcceptedAtAnnotation != "" {
		meta["annotations"] = map[string]string{"velero.io/accepted-at": o.AcceptedAtAnnotation}
	}
	if o.Node != "" {
		status["node"] = o.Node
	}
	for k, v := range map[string]time.Time{"startTimestamp": o.Start, "acceptedTimestamp": o.Accepted} {
		if !v.IsZero() {
			status[k] = v.UTC().Format(time.RFC3339Nano)
		}
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "velero.io/v2alpha1", "kind": kind, "metadata": meta,
		"spec": map[string]any{"cancel": o.Cancel}, "status": status})
	return b
}

// TestDmNextReleaseRows replays every row through the decoder and
// DataMoverList.Next: the decoded object decides as its fields do.
func TestDmNextReleaseRows(t *testing.T) {
	for _, r := range dmRows(t) {
		dms, err := DecodeDataMovers(dmObjectJSON(r.obj))
		if err != nil || dms.Len() != 1 {
			t.Fatalf("line %d: %v (%d objects)", r.line, err, dms.Len())
		}
		for _, minor := range r.minors {
			got, err := dms.Next(0, r.now, 1, minor, &r.cfg)
			if err != nil {
				t.Fatalf("line %d (1.%d): %v", r.line, minor, err)
			}
			if !dmSame(got, r.want) {
				t.Errorf("line %d (1.%d): got %v/%v at %v msg %v, want %v/%v at %v msg %v", r.line, minor,
					got.Action, got.When, got.At, got.Message, r.want.Action, r.want.When, r.want.At, r.want.Message)
			}
		}
		dms.Close()
	}
}

func TestDmNextRefuses(t *testing.T) {
	dms, err := DecodeDataMovers([]byte(`{"kind":"DataUpload","metadata":{"name":"du-1"},"status":{"phase":"Accepted"}}`))
	if err != nil {
		t.Fatal(err)
	}
	now := dmTime(t, "08:00:00")
	if _, err := dms.Next(1, now, 1, 18, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("index 1 of 1: %v", err)
	}
	if _, err := dms.Next(-1, now, 1, 18, nil); err == nil {
		t.Error("a negative index is accepted")
	}
	if _, err := dms.Next(0, now, 1, 11, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.11: %v", err)
	}
	dms.Close()
	if _, err := dms.Next(0, now, 1, 18, nil); err == nil {
		t.Error("a closed list answers")
	}
}

// The case of doc/explain.md "read-only storage" (tests/data/explain/readonly-*):
// the CSI PVC operation, New, and its DataUpload Accepted at 08:05:21.
const dmAcceptedDU = `{"apiVersion":"velero.io/v2alpha1","kind":"DataUpload",
 "metadata":{"name":"longhorn-backup-datamover-lthkx","namespace":"velero",
  "labels":{"velero.io/async-operation-id":"du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx"}},
 "status":{"phase":"Accepted","acceptedTimestamp":"2025-01-07T08:05:21Z","startTimestamp":"2025-01-07T08:05:21Z"}}`

// dmReadOnlyCase is the case's operation list and its DataUpload.
func dmReadOnlyCase(t *testing.T) (*OpList, *DataMoverList) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "data", "explain", "readonly-itemoperations.json"))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := DecodeOpList(KindBackup, data)
	if err != nil {
		t.Fatal(err)
	}
	dms, err := DecodeDataMovers([]byte(dmAcceptedDU))
	if err != nil {
		t.Fatal(err)
	}
	return ops, dms
}

func TestDmInstants(t *testing.T) {
	ops, dms := dmReadOnlyCase(t)
	defer ops.Close()
	day := func(s string) time.Time { return dmTime(t, "2025-01-07T"+s+"Z") }
	now := day("08:10:00")
	for _, c := range []struct {
		ns    string
		minor int
		cfg   *DmConfig
		want  []time.Time
	}{
		{"", 18, nil, []time.Time{day("08:35:21")}}, // 30m from status.acceptedTimestamp
		{"velero", 16, &DmConfig{PrepareTimeout: 10 * time.Minute}, []time.Time{day("08:15:21")}},
		{"", 13, nil, []time.Time{day("08:35:21")}}, // 1.12-1.14: from status.startTimestamp
		{"backup", 18, nil, nil},                    // another namespace: the plugin finds none
	} {
		got, err := ops.DmInstants(dms, c.ns, now, 1, c.minor, c.cfg)
		if err != nil {
			t.Fatalf("1.%d: %v", c.minor, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("1.%d ns %q: %v, want %v", c.minor, c.ns, got, c.want)
		}
	}
	d, err := dms.Next(0, now, 1, 18, nil)
	if err != nil || d.Action != DmActionFail || !d.At.Equal(day("08:35:21")) || d.Message == nil ||
		*d.Message != "timeout on preparing data upload" {
		t.Errorf("Next: %+v %v", d, err)
	}
	if _, err := ops.DmInstants(dms, "", now, 1, 11, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.11: %v", err)
	}
	dms.Close()
	if _, err := ops.DmInstants(dms, "", now, 1, 18, nil); err == nil {
		t.Error("a closed list answers")
	}
}

// dmForecastOptions: the read-only case's day (2025-01-07) and the options
// of its pass at 08:10:00 under Velero 1.18's policy.
func dmForecastOptions(t *testing.T) (func(string) time.Time, ReconcileOptions) {
	t.Helper()
	day := func(s string) time.Time { return dmTime(t, "2025-01-07T"+s+"Z") }
	pol, err := PolicyVeleroRelease(1, 18)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultReconcileOptions(day("08:10:00"))
	opts.Policy = pol
	return day, opts
}

// TestForecastDataMover: the prepare timeout fails the DataUpload at
// 08:35:21 and that pass fails the operation; Forecast alone waits for the
// operation's own 4h timeout.
func TestForecastDataMover(t *testing.T) {
	ops, dms := dmReadOnlyCase(t)
	defer ops.Close()
	defer dms.Close()
	day, opts := dmForecastOptions(t)
	fc, err := ops.ForecastDataMover(dms, nil, 1, 18, "", nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(fc.Events) != 1 || !fc.Events[0].At.Equal(day("08:35:21")) || fc.Ops[0].Fate != FateErrorFails ||
		fc.FinalPhase != PhaseFinalizingPartiallyFailed {
		t.Errorf("ForecastDataMover: %+v", fc)
	}
	plain, err := ops.Forecast(opts)
	if err != nil || plain.Ops[0].Fate != FateTimesOut {
		t.Errorf("Forecast: %+v %v", plain, err)
	}
	fc, err = ops.ForecastDataMover(dms, nil, 1, 16, "velero", &DmConfig{PrepareTimeout: 10 * time.Minute}, opts)
	if err != nil || len(fc.Events) != 1 || !fc.Events[0].At.Equal(day("08:15:21")) {
		t.Errorf("10m prepare timeout: %+v %v", fc, err)
	}
	if _, err := ops.ForecastDataMover(dms, nil, 1, 11, "", nil, opts); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.11: %v", err)
	}
}

// TestForecastSnapshots: the VolumeSnapshot plugin's operation answered
// from the snapshot list: from 1.14 a content with an error fails it at the
// next pass; 1.13 reads only the VolumeSnapshot (not ready), so the
// operation's 4h timeout ends it. With the DataUploads too the answer is
// the same; neither list is refused, a closed one too.
func TestForecastSnapshots(t *testing.T) {
	ops, err := DecodeOpList(KindBackup, []byte(`[{"spec":{"backupName":"b",`+
		`"backupItemAction":"velero.io/csi-volumesnapshot-backupper","operationID":"app/snap-1/2025-01-07T08:05:21Z"},`+
		`"status":{"phase":"InProgress","created":"2025-01-07T08:05:21Z"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer ops.Close()
	snaps, err := DecodeSnapshots([]byte(`[{"kind":"VolumeSnapshot","metadata":{"name":"snap-1","namespace":"app"},` +
		`"status":{"boundVolumeSnapshotContentName":"snapcontent-1","readyToUse":false}},` +
		`{"kind":"VolumeSnapshotContent","metadata":{"name":"snapcontent-1"},` +
		`"status":{"readyToUse":false,"error":{"message":"Failed to check and update snapshot content"}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	roOps, dms := dmReadOnlyCase(t)
	defer roOps.Close()
	defer dms.Close()
	day, opts := dmForecastOptions(t)
	for _, d := range []*DataMoverList{nil, dms} {
		fc, err := ops.ForecastDataMover(d, snaps, 1, 18, "", nil, opts)
		if err != nil || len(fc.Events) != 1 || !fc.Events[0].At.Equal(day("08:10:00")) ||
			fc.Ops[0].Fate != FateErrorFails || fc.FinalPhase != PhaseFinalizingPartiallyFailed {
			t.Errorf("1.18 (dms %v): %+v %v", d != nil, fc, err)
		}
	}
	fc, err := ops.ForecastDataMover(nil, snaps, 1, 13, "", nil, opts)
	if err != nil || fc.Ops[0].Fate != FateTimesOut {
		t.Errorf("1.13: %+v %v", fc, err)
	}
	if _, err := ops.ForecastDataMover(nil, nil, 1, 18, "", nil, opts); !errors.Is(err, ErrInvalid) {
		t.Errorf("neither list: %v", err)
	}
	snaps.Close()
	if _, err := ops.ForecastDataMover(nil, snaps, 1, 18, "", nil, opts); err == nil {
		t.Error("a closed snapshot list answers")
	}
}
