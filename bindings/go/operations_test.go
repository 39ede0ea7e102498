// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func opsExample(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join("..", "..", "examples", "operations", name)
}

// A file Velero wrote comes back byte-identical, as the CLI's format does.
func TestOpListRoundTrip(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		file string
	}{{KindBackup, "backup-itemoperations.json"}, {KindRestore, "restore-itemoperations.json"}} {
		path := opsExample(t, c.file)
		data := mustRead(t, path)
		ol, err := DecodeOpList(c.kind, data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		out, err := ol.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: round trip differs:\n%s\n%s", c.file, out, data)
		}
		cli := runCLI(t, "operations", "format", "--kind", c.kind.String(), path)
		if !bytes.Equal(bytes.TrimSuffix(out, []byte("\n")), cli) {
			t.Errorf("%s: differs from the CLI's format", c.file)
		}
		if ol.Kind() != c.kind || ol.IsNull() {
			t.Errorf("%s: kind %v, null %v", c.file, ol.Kind(), ol.IsNull())
		}
		// The getters agree with the JSON, read with encoding/json.
		var raw []struct {
			Spec   map[string]interface{} `json:"spec"`
			Status struct {
				Phase      string `json:"phase"`
				NCompleted int64  `json:"nCompleted"`
				NTotal     int64  `json:"nTotal"`
				Created    string `json:"created"`
			} `json:"status"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		ops, err := ol.Ops()
		if err != nil || len(ops) != len(raw) || ol.Len() != len(raw) {
			t.Fatalf("%s: %d ops (%v), JSON has %d", c.file, len(ops), err, len(raw))
		}
		for i, op := range ops {
			r := raw[i]
			created, _ := time.Parse(time.RFC3339, r.Status.Created)
			if op.OperationID != r.Spec["operationID"] || op.PhaseText != r.Status.Phase ||
				op.Phase != ParseOpPhase(r.Status.Phase) || op.NCompleted != r.Status.NCompleted ||
				op.NTotal != r.Status.NTotal || !op.Created.Equal(created) {
				t.Errorf("%s[%d]: %+v vs %+v", c.file, i, op, r)
			}
		}
		ol.Close()
		if _, err := ol.JSON(); !errors.Is(err, ErrState) {
			t.Errorf("JSON after Close: %v", err)
		}
	}
}

func TestOpListBuild(t *testing.T) {
	ol, err := NewOpList(KindBackup)
	if err != nil {
		t.Fatal(err)
	}
	defer ol.Close()
	if js, _ := ol.JSON(); string(js) != "[]\n" {
		t.Errorf("empty list: %q", js)
	}
	want := Operation{
		Name: "b1", UID: "u-1", ItemAction: "velero.io/csi-pvc-backupper",
		Resource:    ResourceID{Resource: "persistentvolumeclaims", Namespace: "app", Name: "data-0"},
		OperationID: "du-1", PostOperationItems: []ResourceID{{"velero.io", "datauploads", "velero", "du-1"}},
		Phase: OpPhaseInProgress, PhaseText: "InProgress", NCompleted: 5, NTotal: 10, OperationUnits: "Bytes",
		Description: "uploading", Created: t0, Started: t0.Add(time.Second),
	}
	if i, err := ol.Append(want); err != nil || i != 0 {
		t.Fatalf("Append: %d %v", i, err)
	}
	got, err := ol.Op(0)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Op(0):\n got %+v\nwant %+v", got, want)
	}
	// A record with nothing set is New, as Velero creates one; the phase
	// enum alone sets the text.
	if _, err := ol.Append(Operation{OperationID: "du-2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ol.Append(Operation{OperationID: "du-3", Phase: OpPhaseFailed}); err != nil {
		t.Fatal(err)
	}
	ops, _ := ol.Ops()
	if ops[1].Phase != OpPhaseNew || ops[1].PhaseText != "New" || ops[1].PostOperationItems != nil ||
		ops[2].PhaseText != "Failed" {
		t.Errorf("defaults: %+v / %+v", ops[1], ops[2])
	}
	// The encoding decodes back to the same records.
	js, err := ol.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeOpList(KindBackup, js)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if ops2, _ := back.Ops(); !reflect.DeepEqual(ops2, ops) {
		t.Errorf("decode(encode) differs:\n%+v\n%+v", ops2, ops)
	}
	if _, err := ol.Op(3); !errors.Is(err, ErrRange) {
		t.Errorf("Op(3): %v", err)
	}
	// A restore record has no post-operation items.
	rl, _ := NewOpList(KindRestore)
	defer rl.Close()
	if _, err := rl.Append(Operation{PostOperationItems: []ResourceID{{}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("restore post item: %v", err)
	}
	if OpPhaseCompleted.String() != "Completed" || OpPhaseUnknown.String() != "OpPhase(0)" ||
		ParseOpPhase("completed") != OpPhaseUnknown {
		t.Error("op phase strings")
	}
}

// The streaming decode of a reader equals the one-shot decode, byte by byte too.
func TestDecodeOpListFrom(t *testing.T) {
	text := []byte("[{\"spec\":{\"backupName\":\"b\"},\"status\":{\"phase\":\"New\"}},\n{\"status\":{}}]\n")
	want, err := DecodeOpList(KindBackup, text)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	got, err := DecodeOpListFrom(KindBackup, iotest.OneByteReader(bytes.NewReader(text)))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	wj, _ := want.JSON()
	gj, _ := got.JSON()
	if got.Len() != 2 || !bytes.Equal(wj, gj) {
		t.Errorf("streamed %d records %q, want %q", got.Len(), gj, wj)
	}
	bad := []byte("[{},\n {\"status\":{\"nTotal\":\"ten\"}}]")
	_, werr := DecodeOpList(KindBackup, bad)
	_, gerr := DecodeOpListFrom(KindBackup, iotest.HalfReader(bytes.NewReader(bad)))
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
		t.Errorf("streamed error %v, want %v", gerr, werr)
	}
	boom := errors.New("boom")
	if _, err := DecodeOpListFrom(KindBackup, iotest.ErrReader(boom)); err != boom {
		t.Errorf("read error: %v", err)
	}
	if _, err := DecodeOpListFrom(Kind(9), bytes.NewReader(text)); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad kind: %v", err)
	}
}

// The kind taken from the text: the first spec key only one kind has.
func TestDecodeOpListFromAnyKind(t *testing.T) {
	text := []byte("[{\"spec\":{\"operationID\":\"a\"}},\n{\"spec\":{\"restoreName\":\"r\"}}]")
	want, err := DecodeOpList(KindRestore, text)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	got, err := DecodeOpListFromAnyKind(iotest.OneByteReader(bytes.NewReader(text)))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	wj, _ := want.JSON()
	gj, _ := got.JSON()
	if got.Kind() != KindRestore || !bytes.Equal(wj, gj) {
		t.Errorf("detected %v %q, want restore %q", got.Kind(), gj, wj)
	}
	none, err := DecodeOpListFromAnyKind(bytes.NewReader([]byte(`[{"status":{"phase":"New"}}]`)))
	if err != nil || none.Kind() != KindBackup {
		t.Errorf("no kind key: %v %v", none, err)
	}
	none.Close()
	if _, err := DecodeOpListFromAnyKind(bytes.NewReader([]byte(`[{"spec":{"restoreName":5}}]`))); !errors.Is(err, ErrSchema) {
		t.Errorf("the deciding key's error: %v", err)
	}
}

func TestDecodeOpListErrors(t *testing.T) {
	_, err := DecodeOpList(KindBackup, []byte(`[{"spec":{},"status":{"nTotal":"ten"}}]`))
	var e *Error
	if !errors.Is(err, ErrSchema) || !errors.As(err, &e) || !strings.Contains(e.Message, "[0].status.nTotal") || e.Line == 0 {
		t.Errorf("wrong type: %v", err)
	}
	if _, err = DecodeOpList(KindBackup, []byte("[\n{")); !errors.Is(err, ErrParse) {
		t.Errorf("truncated: %v", err)
	}
	if _, err = DecodeOpList(Kind(9), []byte("[]")); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad kind: %v", err)
	}
	ol, err := DecodeOpList(KindRestore, []byte("null"))
	if err != nil || !ol.IsNull() || ol.Len() != 0 {
		t.Fatalf("null: %v", err)
	}
	if js, _ := ol.JSON(); string(js) != "null\n" {
		t.Errorf("null re-encoded as %q", js)
	}
	ol.Close()
}

// progressFile is the CLI's --progress format (json.h), read in Go.
type progressFile map[string]struct {
	Completed      bool    `json:"completed"`
	Err            string  `json:"err"`
	NCompleted     int64   `json:"nCompleted"`
	NTotal         int64   `json:"nTotal"`
	OperationUnits string  `json:"operationUnits"`
	Description    string  `json:"description"`
	Started        *string `json:"started"`
	Updated        *string `json:"updated"`
	Error          *string `json:"error"`
	LookupError    *string `json:"lookupError"`
	CancelError    *string `json:"cancelError"`
}

// goClient is a PluginClient written in Go that answers from a progress
// file, as the CLI's reports client does.
func goClient(t *testing.T, pf progressFile, log *[]string) PluginClient {
	parse := func(s *string) time.Time {
		if s == nil {
			return time.Time{}
		}
		tm, err := time.Parse(time.RFC3339, *s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	return PluginClient{
		Progress: func(i int, op Operation) (OpProgress, error) {
			*log = append(*log, fmt.Sprintf("progress %d %s", i, op.OperationID))
			p, ok := pf[op.OperationID]
			switch {
			case !ok:
				return OpProgress{}, fmt.Errorf("operation ID %s is invalid", op.OperationID)
			case p.LookupError != nil:
				return OpProgress{}, &LookupError{errors.New(*p.LookupError)}
			case p.Error != nil:
				return OpProgress{}, errors.New(*p.Error)
			}
			return OpProgress{Completed: p.Completed, Err: p.Err, NCompleted: p.NCompleted, NTotal: p.NTotal,
				OperationUnits: p.OperationUnits, Description: p.Description, Started: parse(p.Started),
				Updated: parse(p.Updated)}, nil
		},
		Cancel: func(i int, op Operation) error {
			*log = append(*log, fmt.Sprintf("cancel %d %s", i, op.OperationID))
			if p := pf[op.OperationID]; p.CancelError != nil {
				return errors.New(*p.CancelError)
			}
			return nil
		},
	}
}

// cliReconcile is the CLI's reconcile -o json output.
type cliReconcile struct {
	Phase           string            `json:"phase"`
	StillInProgress bool              `json:"stillInProgress"`
	Changes         bool              `json:"changes"`
	Completed       int               `json:"completed"`
	Failed          int               `json:"failed"`
	InProgress      int               `json:"inProgress"`
	Errors          []string          `json:"errors"`
	Canceled        []string          `json:"canceled"`
	Operations      []json.RawMessage `json:"operations"`
}

// A reconcile driven by Go callbacks equals the CLI's, driven by the
// library's own reports client over the same answers.
func TestReconcileMatchesCLI(t *testing.T) {
	type run struct {
		kind              Kind
		ops, progress     string
		phase             Phase
		now               string
		policy            string
		wantCancelReports bool
	}
	var runs []run
	for _, pol := range []string{"velero", "hardened"} {
		for _, now := range []string{"2024-05-01T10:30:00Z", "2024-05-01T16:30:00Z"} {
			runs = append(runs,
				run{KindBackup, "backup-itemoperations.json", "backup-progress.json", PhaseWaitingForPluginOperations, now, pol, pol == "hardened"},
				run{KindBackup, "backup-itemoperations.json", "backup-progress.json", PhaseInProgress, now, pol, pol == "hardened"},
				run{KindRestore, "restore-itemoperations.json", "restore-progress.json", PhaseWaitingForPluginOperationsPartiallyFailed, "2024-05-02T08:05:00Z", pol, pol == "hardened"})
		}
	}
	for _, r := range runs {
		name := fmt.Sprintf("%s %s %s %s", r.ops, r.phase, r.now, r.policy)
		var pf progressFile
		if err := json.Unmarshal(mustRead(t, opsExample(t, r.progress)), &pf); err != nil {
			t.Fatal(err)
		}
		ol, err := DecodeOpList(r.kind, mustRead(t, opsExample(t, r.ops)))
		if err != nil {
			t.Fatal(err)
		}
		now, _ := time.Parse(time.RFC3339, r.now)
		opts := DefaultReconcileOptions(now)
		opts.Phase = r.phase
		opts.Timeout = 4 * time.Hour
		opts.Policy = PolicyHardened()
		if r.policy == "velero" {
			opts.Policy = PolicyVelero()
		}
		var log []string
		res, err := ol.Reconcile(context.Background(), goClient(t, pf, &log), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var cli cliReconcile
		out := runCLI(t, "operations", "reconcile", "--kind", r.kind.String(), "--phase", r.phase.String(), "--now", r.now,
			"--timeout", "4h", "--policy", r.policy, "--progress", opsExample(t, r.progress), "-o", "json", opsExample(t, r.ops))
		if err := json.Unmarshal(out, &cli); err != nil {
			t.Fatalf("%s: CLI output: %v\n%s", name, err, out)
		}
		var ids []string
		for _, c := range res.Canceled {
			ids = append(ids, c.OperationID)
			if c.CancelFailed != (r.wantCancelReports && pf[c.OperationID].CancelError != nil) ||
				(c.CancelFailed && c.CancelError != *pf[c.OperationID].CancelError) {
				t.Errorf("%s: cancel report %+v", name, c)
			}
		}
		if res.Phase.String() != cli.Phase || res.StillInProgress != cli.StillInProgress || res.Changes != cli.Changes ||
			res.Completed != cli.Completed || res.Failed != cli.Failed || res.InProgress != cli.InProgress ||
			fmt.Sprint(res.Errors) != fmt.Sprint(cli.Errors) || fmt.Sprint(ids) != fmt.Sprint(cli.Canceled) {
			t.Errorf("%s:\n  go:  %+v\n  cli: %+v", name, res, cli)
		}
		// The records after the pass, byte for byte.
		js, _ := ol.JSON()
		var cliOps bytes.Buffer
		cliOps.WriteString("[")
		for i, o := range cli.Operations {
			if i > 0 {
				cliOps.WriteString(",")
			}
			cliOps.Write(o)
		}
		cliOps.WriteString("]\n")
		if len(cli.Operations) > 0 && !bytes.Equal(js, cliOps.Bytes()) {
			t.Errorf("%s: records differ:\n  go:  %s\n  cli: %s", name, js, cliOps.Bytes())
		}
		if len(log) == 0 {
			t.Errorf("%s: no Go callback ran", name)
		}
		ol.Close()
	}
}

var errPluginServer = errors.New("plugin server gone")

func TestReconcileCallbackFailures(t *testing.T) {
	data := mustRead(t, opsExample(t, "backup-itemoperations.json"))
	now := time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)

	// A panic in Progress aborts the pass and comes back as an error; the
	// records stepped before it keep their updates, the others are untouched.
	ol, _ := DecodeOpList(KindBackup, data)
	defer ol.Close()
	before, _ := ol.Ops()
	calls := 0
	_, err := ol.Reconcile(context.Background(), PluginClient{Progress: func(i int, op Operation) (OpProgress, error) {
		calls++
		if calls == 2 {
			panic("plugin exploded")
		}
		return OpProgress{Completed: true, NCompleted: 1, NTotal: 1}, nil
	}}, DefaultReconcileOptions(now))
	var pe *PanicError
	var e *Error
	if !errors.Is(err, ErrHost) || !errors.As(err, &pe) || pe.Value != "plugin exploded" || !errors.As(err, &e) ||
		e.HostCode >= 0 || calls != 2 {
		t.Fatalf("panic: %v (calls %d)", err, calls)
	}
	after, _ := ol.Ops()
	if after[0].Phase != OpPhaseCompleted || !reflect.DeepEqual(after[2:], before[2:]) {
		t.Errorf("records after the aborted pass:\n%+v", after)
	}

	// An AbortError aborts too, reachable with errors.Is and errors.As.
	ol2, _ := DecodeOpList(KindBackup, data)
	defer ol2.Close()
	_, err = ol2.Reconcile(context.Background(), PluginClient{Progress: func(int, Operation) (OpProgress, error) {
		return OpProgress{}, &AbortError{errPluginServer}
	}}, DefaultReconcileOptions(now))
	var ae *AbortError
	if !errors.Is(err, ErrHost) || !errors.Is(err, errPluginServer) || !errors.As(err, &ae) {
		t.Errorf("abort: %v", err)
	}

	// A panic in Cancel, too (everything times out at +5h).
	ol3, _ := DecodeOpList(KindBackup, data)
	defer ol3.Close()
	_, err = ol3.Reconcile(context.Background(), PluginClient{
		Progress: func(int, Operation) (OpProgress, error) { return OpProgress{}, nil },
		Cancel:   func(int, Operation) error { panic(errPluginServer) },
	}, DefaultReconcileOptions(now.Add(5*time.Hour)))
	if !errors.As(err, &pe) || !errors.Is(err, errPluginServer) {
		t.Errorf("cancel panic: %v", err)
	}

	// No Progress: every running operation gets Velero's lookup error
	// (at once under the Velero preset; the hardened one defers it).
	ol4, _ := DecodeOpList(KindBackup, data)
	defer ol4.Close()
	opts := DefaultReconcileOptions(now)
	opts.Policy = PolicyVelero()
	res, err := ol4.Reconcile(context.Background(), PluginClient{}, opts)
	if err != nil || len(res.Errors) != 4 || !strings.Contains(res.Errors[0], "unable to get valid BackupItemActionV2") ||
		!strings.HasSuffix(res.Errors[0], ", plugin: unknown") {
		t.Errorf("nil Progress (velero): %+v %v", res, err)
	}
	ol5, _ := DecodeOpList(KindBackup, data)
	defer ol5.Close()
	res, err = ol5.Reconcile(context.Background(), PluginClient{}, DefaultReconcileOptions(now))
	// (the fourth has timed out: the timeout still applies during the grace)
	if err != nil || res.FlagCounts[StepErrorDeferred] != 3 || res.FlagCounts[StepCancel] != 1 {
		t.Errorf("nil Progress (hardened grace): %+v %v", res, err)
	}

	// Options are checked before any callback runs.
	if _, err := ol4.Reconcile(context.Background(), PluginClient{}, ReconcileOptions{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero options: %v", err)
	}
	opts = DefaultReconcileOptions(now)
	opts.Phase = PhaseCompleted
	if _, err := ol4.Reconcile(context.Background(), PluginClient{}, opts); !errors.Is(err, ErrState) {
		t.Errorf("phase Completed: %v", err)
	}
	// A missing BSL: no callback, the not-found error names the BSL.
	opts = DefaultReconcileOptions(now)
	opts.BSL, opts.BSLName = BSLMissing, "primary"
	res, err = ol4.Reconcile(context.Background(), PluginClient{Progress: func(int, Operation) (OpProgress, error) {
		t.Error("Progress called with the BSL missing")
		return OpProgress{}, nil
	}}, opts)
	if err != nil || res.Phase != PhasePartiallyFailed || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], `"primary" not found`) {
		t.Errorf("missing BSL: %+v %v", res, err)
	}
}

// What to write after a pass (doc/velero-behaviour.md §2.5 step 11).
func TestReconcilePersist(t *testing.T) {
	data := mustRead(t, opsExample(t, "backup-itemoperations.json"))
	var pf progressFile
	if err := json.Unmarshal(mustRead(t, opsExample(t, "backup-progress.json")), &pf); err != nil {
		t.Fatal(err)
	}
	var log []string
	now := time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)
	run := func(mod func(*ReconcileOptions)) ReconcileResult {
		ol, _ := DecodeOpList(KindBackup, data)
		defer ol.Close()
		opts := DefaultReconcileOptions(now)
		opts.Policy = PolicyVelero()
		mod(&opts)
		res, err := ol.Reconcile(context.Background(), goClient(t, pf, &log), opts)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// A new error is pending: upload and patch; Velero adds pending + new.
	res := run(func(o *ReconcileOptions) { o.Errors = 2 })
	if res.Persist != PersistUploadAndPatch || res.ErrorsAdded != 2+int64(len(res.Errors)) {
		t.Errorf("errors pending: %+v", res)
	}
	// A missing BSL: patch only, and Velero does not count its own error.
	res = run(func(o *ReconcileOptions) { o.BSL = BSLMissing })
	if res.Persist != PersistPatch || res.ErrorsAdded != 0 || len(res.Errors) != 1 {
		t.Errorf("missing BSL: %+v", res)
	}
	if !res.Requeue || res.AfterPersistFailure[PersistFailedPatch].PendingErrors != 0 {
		t.Errorf("missing BSL requeue and patch failure: %+v", res)
	}
	if _, ok := res.AfterPersistFailure[PersistFailedUpload]; ok {
		t.Errorf("missing BSL: no store, nothing uploaded: %+v", res.AfterPersistFailure)
	}
	// A pending error and a patch failing after the upload: lost (uploadProgress cleared them).
	res = run(func(o *ReconcileOptions) { o.Errors = 2 })
	want := AfterPersistFailure{PhaseWaitingForPluginOperations, 0, 2 + int64(len(res.Errors))}
	if res.AfterPersistFailure[PersistFailedPatch] != want || res.Requeue {
		t.Errorf("patch failure: %+v", res.AfterPersistFailure)
	}
	if got := res.AfterPersistFailure[PersistFailedUpload]; got.PendingErrors != want.LostErrors || got.LostErrors != 0 {
		t.Errorf("upload failure: %+v", got)
	}
	// Lookup errors other than NotFound: Velero's texts, requeued.
	res = run(func(o *ReconcileOptions) { o.BSLError = "dial tcp: i/o timeout" })
	if !res.Requeue || len(res.Errors) != 1 || res.Errors[0] != "dial tcp: i/o timeout" || res.Phase != PhasePartiallyFailed {
		t.Errorf("BSL error: %+v", res)
	}
	rl, _ := NewOpList(KindRestore)
	defer rl.Close()
	ro := DefaultReconcileOptions(now)
	ro.BackupError, ro.BackupName = "etcdserver: request timed out", "nightly"
	if rr, err := rl.Reconcile(context.Background(), PluginClient{}, ro); err != nil ||
		rr.Errors[0] != "can't find backup velero/nightly: etcdserver: request timed out" || !rr.Requeue {
		t.Errorf("Backup error: %+v %v", rr, err)
	}
	if d := DefaultReconcileOptions(now); d.CompletedBefore != 0 || d.FailedBefore != 0 || d.Timeout != 4*time.Hour ||
		d.Phase != PhaseWaitingForPluginOperations || d.BSL != BSLAvailable {
		t.Errorf("defaults: %+v", d)
	}
	ol, _ := DecodeOpList(KindBackup, data)
	defer ol.Close()
	opts := DefaultReconcileOptions(now)
	opts.FailedBefore = -1
	if _, err := ol.Reconcile(context.Background(), PluginClient{}, opts); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative FailedBefore: %v", err)
	}
}

func TestStepAndWrapError(t *testing.T) {
	ol, _ := NewOpList(KindBackup)
	defer ol.Close()
	ol.Append(Operation{OperationID: "a", ItemAction: "velero.io/x", Phase: OpPhaseInProgress, Created: t0})
	ol.Append(Operation{OperationID: "b", ItemAction: "velero.io/x", Phase: OpPhaseNew, Created: t0})
	out, err := ol.Step(0, OpProgress{Completed: true, NCompleted: 3, NTotal: 3}, nil, t0.Add(time.Minute), time.Hour, nil)
	if err != nil || out.Flags&StepCompletedNow == 0 || out.Flags&StepChanged == 0 || out.Message != "" {
		t.Errorf("completed step: %+v %v", out, err)
	}
	out, err = ol.Step(1, OpProgress{}, &LookupError{errors.New("no such plugin")}, t0.Add(time.Minute), time.Hour,
		PolicyVelero())
	if err != nil || out.Flags&StepFailedNow == 0 || out.Message != "no such plugin, plugin: unknown" {
		t.Errorf("lookup step: %+v %v", out, err)
	}
	if op, _ := ol.Op(1); op.Phase != OpPhaseFailed || op.Error != "no such plugin" {
		t.Errorf("record after lookup step: %+v", op)
	}
	if _, err := ol.Step(2, OpProgress{}, nil, t0, time.Hour, nil); !errors.Is(err, ErrRange) {
		t.Errorf("step out of range: %v", err)
	}
	for _, c := range [][3]string{{"boom", "velero.io/x", "boom, plugin: velero.io/x"}, {"", "p", "plugin: p"},
		{"boom", "", "boom, plugin: unknown"}} {
		if got, err := WrapError(c[0], c[1]); err != nil || got != c[2] {
			t.Errorf("WrapError(%q, %q) = %q, %v", c[0], c[1], got, err)
		}
	}
}

// A plugin whose Name() is not the name its action was registered under
// (Velero's unit tests mock it): the message names the plugin's own name,
// with a completion error and with a Progress() error alike; nil names the
// registered one, and a lookup error has no plugin.
func TestStepPluginName(t *testing.T) {
	test, empty := "test", ""
	for i, c := range []struct {
		p    OpProgress
		perr error
		want string
	}{
		{OpProgress{Completed: true, Err: "failed", PluginName: &test}, nil, "failed, plugin: test"},
		{OpProgress{PluginName: &test}, errors.New("boom"), "boom, plugin: test"},
		{OpProgress{PluginName: &empty}, errors.New("boom"), "boom, plugin: "},
		{OpProgress{Completed: true, Err: "failed"}, nil, "failed, plugin: velero.io/foo-13"},
		{OpProgress{PluginName: &test}, &LookupError{errors.New("gone")}, "gone, plugin: unknown"},
	} {
		ol, _ := NewOpList(KindBackup)
		ol.Append(Operation{OperationID: "a", ItemAction: "foo-13", Phase: OpPhaseNew, Created: t0})
		out, err := ol.Step(0, c.p, c.perr, t0.Add(time.Minute), time.Hour, PolicyVelero())
		if err != nil || out.Message != c.want {
			t.Errorf("case %d: %q, %v; want %q", i, out.Message, err, c.want)
		}
		ol.Close()
	}
	rep, err := DecodeOpReports([]byte(`{"a":{"completed":true,"name":"test"},"b":{"error":"x","name":""},"c":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	if p, _, _ := rep.Get("a"); p.PluginName == nil || *p.PluginName != "test" {
		t.Errorf("Get(a) = %+v", p)
	}
	if p, perr, _ := rep.Get("b"); perr == nil || p.PluginName == nil || *p.PluginName != "" {
		t.Errorf("Get(b) = %+v, %v", p, perr)
	}
	if p, _, _ := rep.Get("c"); p.PluginName != nil {
		t.Errorf("Get(c) = %+v", p)
	}
}

// The library's reports client and a Go client over the same answers give
// the same pass; Get returns what the Go client would.
func TestReconcileReports(t *testing.T) {
	progress := mustRead(t, opsExample(t, "backup-progress.json"))
	rep, err := DecodeOpReports(progress)
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	var pf progressFile
	if err := json.Unmarshal(progress, &pf); err != nil {
		t.Fatal(err)
	}
	var log []string
	client := goClient(t, pf, &log)
	for id := range pf {
		got, gerr, ok := rep.Get(id)
		want, werr := client.Progress(0, Operation{OperationID: id})
		var gl, wl *LookupError
		if !ok || !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) ||
			(gerr == nil) != (werr == nil) || errors.As(gerr, &gl) != errors.As(werr, &wl) {
			t.Errorf("Get(%q) = %+v, %v; Go client %+v, %v", id, got, gerr, want, werr)
		}
	}
	if _, _, ok := rep.Get("nope"); ok {
		t.Error("Get of an absent ID")
	}
	data := mustRead(t, opsExample(t, "backup-itemoperations.json"))
	for _, now := range []time.Time{time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC), time.Date(2024, 5, 1, 16, 0, 0, 0, time.UTC)} {
		a, _ := DecodeOpList(KindBackup, data)
		b, _ := DecodeOpList(KindBackup, data)
		opts := DefaultReconcileOptions(now)
		ra, err := a.ReconcileReports(rep, opts)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Reconcile(context.Background(), client, opts)
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := a.JSON()
		jb, _ := b.JSON()
		if !reflect.DeepEqual(ra, rb) || !bytes.Equal(ja, jb) {
			t.Errorf("at %v:\n  reports: %+v\n  go:      %+v", now, ra, rb)
		}
		a.Close()
		b.Close()
	}
	if _, err := DecodeOpReports([]byte(`{"x": {"nTotal": "7"}}`)); !errors.Is(err, ErrSchema) {
		t.Errorf("bad reports: %v", err)
	}
}

// Go's whole time range in a file: a present zero created (which Velero
// times out at once) and year 9999 are read exactly and written back
// byte-identically.
func TestOpListGoTimeRange(t *testing.T) {
	data := mustRead(t, filepath.Join("..", "..", "tests", "data", "operations", "go-time-range.json"))
	ol, err := DecodeOpList(KindBackup, data)
	if err != nil {
		t.Fatal(err)
	}
	defer ol.Close()
	if out, err := ol.JSON(); err != nil || !bytes.Equal(out, data) {
		t.Errorf("round trip differs: %v\n%s\n%s", err, out, data)
	}
	zero, _ := ol.Op(0)
	last, _ := ol.Op(1)
	if !zero.Created.IsZero() || !last.Created.Equal(time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)) ||
		!last.Started.Equal(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("times: %v %v %v", zero.Created, last.Created, last.Started)
	}
	for i, want := range []bool{true, false} {
		out, err := ol.Step(i, OpProgress{}, nil, t0, 4*time.Hour, PolicyVelero())
		if err != nil || (out.Flags&StepCancel != 0) != want {
			t.Errorf("op %d: %+v %v, cancel want %v", i, out, err, want)
		}
	}
}

// A plugin reporting times outside the int64 nanosecond range (issue 20).
// What Velero writes back was checked with Go 1.19: time.Unix(sec, nsec).UTC()
// marshalled as metav1.Time writes the zero time null, drops a fraction and
// keeps year 9999 and year 0000.
func TestStepReportedTimesOutsideNanoseconds(t *testing.T) {
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	last := time.Date(9999, 12, 31, 23, 59, 59, 500000000, time.UTC)
	year1 := time.Date(1, 1, 1, 0, 0, 0, 500000000, time.UTC) // not IsZero
	ol, _ := NewOpList(KindBackup)
	defer ol.Close()
	ol.Append(Operation{OperationID: "a", ItemAction: "x", Phase: OpPhaseNew, Created: t0})
	out, err := ol.Step(0, OpProgress{Started: year1, Updated: last}, nil, t0.Add(time.Second), time.Hour, PolicyVelero())
	if err != nil || out.Flags&StepChanged == 0 {
		t.Fatalf("Step = %+v, %v", out, err)
	}
	op, _ := ol.Op(0)
	if !op.Started.Equal(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)) || !op.Updated.Equal(last.Truncate(time.Second)) ||
		op.Phase != OpPhaseInProgress {
		t.Errorf("Op = %+v", op)
	}
	js, _ := ol.JSON()
	if want := `"started":"0001-01-01T00:00:00Z","updated":"9999-12-31T23:59:59Z"`; !strings.Contains(string(js), want) {
		t.Errorf("JSON = %s, want %s", js, want)
	}
	// the same report again: no change at the second the record keeps
	out, _ = ol.Step(0, OpProgress{Started: year1, Updated: last}, nil, t0.Add(time.Second), time.Hour, PolicyVelero())
	if out.Flags&StepChanged != 0 {
		t.Errorf("second step changed: %+v", out)
	}
	// a year Go cannot write as RFC 3339 is StatusRange
	if _, err := ol.Step(0, OpProgress{Updated: time.Date(10001, 1, 1, 0, 0, 0, 0, time.UTC)}, nil, t0, time.Hour,
		PolicyVelero()); !errors.Is(err, ErrRange) {
		t.Errorf("year 10001: %v", err)
	}
	// the --progress format reads and gives back the exact instants
	rep, err := DecodeOpReports([]byte(`{"a":{"started":"0000-06-01T12:00:00Z","updated":"0001-01-01T00:00:00Z"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	p, _, _ := rep.Get("a")
	if !p.Started.Equal(time.Date(0, 6, 1, 12, 0, 0, 0, time.UTC)) || !p.Updated.IsZero() {
		t.Errorf("Get(a) = %+v", p)
	}
}
