// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func bslExamples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "bsl", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples/bsl/*.json (%v)", err)
	}
	return files
}

// cliVerdict is the CLI's -o json layout (doc/server-status.md).
type cliVerdict struct {
	Status  string   `json:"status"`
	Reasons []string `json:"reasons"`
	Counts  struct {
		Available   int `json:"available"`
		Unavailable int `json:"unavailable"`
		Pending     int `json:"pending"`
		Total       int `json:"total"`
	} `json:"counts"`
	Default *string             `json:"default"`
	BSLs    map[string][]string `json:"bsls"`
	Message string              `json:"message"`
}

// verdictOnly is the CLI's -o json line without the "namespace" and
// "locations" it appends to the library's verdict.
func verdictOnly(cli []byte) []byte {
	if i := bytes.Index(cli, []byte(`,"namespace":`)); i >= 0 {
		return append(append([]byte{}, cli[:i]...), '}')
	}
	return cli
}

// compareWithCLI checks a Verdict field by field against the CLI's JSON
// (an independent path: the Go fields come from the getters, the CLI from
// the encoder) and byte for byte against the library encoding.
func compareWithCLI(t *testing.T, what string, v Verdict, cli []byte) {
	t.Helper()
	cli = verdictOnly(cli)
	if !bytes.Equal(v.JSON, cli) {
		t.Errorf("%s: JSON\n  go:  %s\n  cli: %s", what, v.JSON, cli)
	}
	var c cliVerdict
	if err := json.Unmarshal(cli, &c); err != nil {
		t.Fatalf("%s: CLI output is not JSON: %v", what, err)
	}
	reasons := make([]string, len(v.Reasons))
	for i, r := range v.Reasons {
		reasons[i] = r.String()
	}
	bsls := map[string][]string{}
	for r, names := range v.BSLs {
		bsls[r.String()] = names
	}
	def := ""
	if c.Default != nil {
		def = *c.Default
	}
	if v.Status.String() != c.Status || !reflect.DeepEqual(reasons, c.Reasons) || v.Available != c.Counts.Available ||
		v.Unavailable != c.Counts.Unavailable || v.Pending != c.Counts.Pending || v.Total != c.Counts.Total ||
		v.Default != def || !reflect.DeepEqual(bsls, c.BSLs) || v.Message != c.Message {
		t.Errorf("%s: fields differ from the CLI\n  go:  %+v\n  cli: %+v", what, v, c)
	}
}

func TestServerStateTokens(t *testing.T) {
	// The CLI's strings (doc/design.md §3), read from the library at init.
	want := []string{"Ready", "PartiallyReady", "Waiting", "NotReady"}
	for i, s := range []ServerState{ServerReady, ServerPartiallyReady, ServerWaiting, ServerNotReady} {
		if s.String() != want[i] || int(s) != i {
			t.Errorf("state %d: %q, want %d %q", int(s), s, i, want[i])
		}
		if p, err := ParseServerState(want[i]); err != nil || p != s {
			t.Errorf("ParseServerState(%q) = %v, %v", want[i], p, err)
		}
	}
	if fmt.Sprint(ServerPartiallyReady) != "PartiallyReady" {
		t.Error("ServerState does not print its token")
	}
	reasons := []Reason{ReasonNoBSL, ReasonPending, ReasonAllUnavailable, ReasonSomeUnavailable, ReasonSomePending,
		ReasonNoDefault, ReasonMultipleDefaults, ReasonDefaultNotAvailable, ReasonDefaultReadOnly, ReasonStale,
		ReasonUnknownPhase, ReasonNeverValidated}
	seen := map[Reason]bool{}
	for _, r := range reasons {
		if p, err := ParseReason(r.String()); err != nil || p != r || r&(r-1) != 0 {
			t.Errorf("reason %d %q: not one flag, or does not parse back: %v", uint32(r), r, err)
		}
		if seen[r] || r.String() == "" || strings.ToLower(r.String()) != r.String() {
			t.Errorf("reason token %q: empty, duplicate or not lower case", r)
		}
		seen[r] = true
		m, err := reasonMask([]Reason{r})
		if err != nil || reasonsOf(m)[0] != r {
			t.Errorf("reason %q round trip: %v", r, err)
		}
	}
	for _, s := range []ServerState{ServerReady, ServerPartiallyReady, ServerWaiting, ServerNotReady} {
		if _, err := s.cvalue(); err != nil {
			t.Errorf("state %q: %v", s, err)
		}
	}
	if _, err := ServerState(99).cvalue(); !errors.Is(err, ErrInvalid) {
		t.Errorf(`state 99: %v`, err)
	}
	if _, err := ParseServerState("ready"); !errors.Is(err, ErrInvalid) {
		t.Errorf(`state "ready": %v`, err)
	}
	if s := Reason(1 << 20).String(); s != "Reason(1048576)" {
		t.Errorf("an unknown bit prints %q", s)
	}
}

func TestServerStatusMatchesCLI(t *testing.T) {
	for _, f := range bslExamples(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ServerStatus(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		compareWithCLI(t, filepath.Base(f), v, runCLI(t, "server-status", "-o", "json", f))

		// The same file with every option.
		now := time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC)
		opts := Options{DefaultLocation: "secondary", CheckStale: true, Now: now, StaleAfter: 90 * time.Second,
			ThreeState: true}
		v, err = ServerStatus(data, opts)
		if err != nil {
			t.Fatalf("%s with options: %v", f, err)
		}
		compareWithCLI(t, filepath.Base(f)+" with options", v, runCLI(t, "server-status", "-o", "json",
			"--default-location", "secondary", "--now", "2026-11-30T13:00:00Z", "--stale-after", "1m30s",
			"--three-state", f))
	}
}

// Inputs the bundled examples do not cover, each against the CLI with and
// without --three-state.
func TestServerStatusMatchesCLISynthetic(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "tests", "data", "cli-golden", "inputs", "bsl-*.json"))
	if err != nil || len(files) != 4 {
		t.Fatalf("tests/data/cli-golden/inputs/bsl-*.json: %d files (%v)", len(files), err)
	}
	inputs := map[string]string{}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "bsl-"), ".json")
		text := string(mustRead(t, f))
		inputs[name] = text
		for _, three := range []bool{false, true} {
			v, err := ServerStatus([]byte(text), Options{ThreeState: three})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			args := []string{"server-status", "-o", "json", f}
			if three {
				args = append(args, "--three-state")
			}
			compareWithCLI(t, fmt.Sprintf("%s three-state=%v", name, three), v, runCLI(t, args...))
		}
	}
	v, _ := ServerStatus([]byte(inputs["all-unavailable"]), Options{})
	w, _ := ServerStatus([]byte(inputs["all-unavailable"]), Options{ThreeState: true})
	if v.Status != ServerNotReady || w.Status != ServerWaiting {
		t.Errorf("all unavailable: %s, three-state %s", v.Status, w.Status)
	}
}

func TestDecodeBSLs(t *testing.T) {
	bsls, err := DecodeBSLs([]byte(`{"items":[{"metadata":{"name":"a"},"status":{"phase":"Unavailable",
		"message":"BackupStorageLocation \"a\" is unavailable: bucket not found"}},{"metadata":{"name":"b"}}]}`))
	want := []BSL{{Name: "a", Phase: "Unavailable", Message: `BackupStorageLocation "a" is unavailable: bucket not found`},
		{Name: "b"}}
	if err != nil || !reflect.DeepEqual(bsls, want) {
		t.Errorf("DecodeBSLs: %+v %v", bsls, err)
	}
	if _, err := DecodeBSLs([]byte(`[{"metadata":{}}]`)); !errors.Is(err, ErrSchema) {
		t.Errorf("nameless BSL: %v", err)
	}
	// every field the rule reads
	bsls, err = DecodeBSLs([]byte(`[{"metadata":{"name":"d","creationTimestamp":"2026-11-30T12:00:00Z"},
		"spec":{"default":true,"accessMode":"ReadOnly"},
		"status":{"phase":"Available","lastValidationTime":"2026-11-30T12:59:00Z"}}]`))
	want = []BSL{{Name: "d", Phase: "Available", Default: true, ReadOnly: true,
		Created:       time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		LastValidated: time.Date(2026, 11, 30, 12, 59, 0, 0, time.UTC)}}
	if err != nil || !reflect.DeepEqual(bsls, want) {
		t.Errorf("DecodeBSLs, every field: %+v %v", bsls, err)
	}
}

// DecodeBSLWatchEvent gives what DecodeWatchEvent and then DecodeBSLs of
// the object give; an ERROR has no BSLs; a bad object is an error.
func TestDecodeBSLWatchEvent(t *testing.T) {
	text := []byte(`{"type":"MODIFIED","object":{"kind":"List","items":[{"metadata":{"name":"a"},
		"status":{"phase":"Unavailable"}},{"metadata":{"name":"b"},"spec":{"default":true}}]}}`)
	ev, bsls, err := DecodeBSLWatchEvent(text)
	wantEv, _ := DecodeWatchEvent(text)
	wantBsls, _ := DecodeBSLs(wantEv.Object)
	if err != nil || !reflect.DeepEqual(ev, wantEv) || !reflect.DeepEqual(bsls, wantBsls) || len(bsls) != 2 {
		t.Errorf("DecodeBSLWatchEvent: %+v %+v %v", ev, bsls, err)
	}
	// one object (no List): decoded straight to the callback, escapes and times included
	text = []byte(`{"type":"ADDED","object":{"metadata":{"n\u0061me":"\u00e9t\u00e9","creationTimestamp":
		"2026-11-30T12:00:00Z"},"spec":{"accessMode":"ReadOnly"},"status":{"phase":"Available",
		"lastValidationTime":"2026-11-30T12:59:00.5Z","message":"m\n"}}}`)
	ev, bsls, err = DecodeBSLWatchEvent(text)
	wantBsls, _ = DecodeBSLs(ev.Object)
	if err != nil || ev.Type != WatchAdded || !reflect.DeepEqual(bsls, wantBsls) || len(bsls) != 1 ||
		bsls[0].Name != "\u00e9t\u00e9" || bsls[0].Message != "m\n" || !bsls[0].ReadOnly ||
		bsls[0].LastValidated.Nanosecond() != 500000000 {
		t.Errorf("one object: %+v %+v %v", ev, bsls, err)
	}
	ev, bsls, err = DecodeBSLWatchEvent([]byte(`{"type":"ERROR","object":{"kind":"Status","code":410}}`))
	if err != nil || ev.Type != WatchError || len(bsls) != 0 || ev.Code == nil || *ev.Code != 410 {
		t.Errorf("ERROR event: %+v %+v %v", ev, bsls, err)
	}
	if _, _, err := DecodeBSLWatchEvent([]byte(`{"type":"ADDED","object":{"metadata":{}}}`)); !errors.Is(err, ErrSchema) {
		t.Errorf("nameless BSL: %v", err)
	}
	if _, _, err := DecodeBSLWatchEvent([]byte(`{"type":"ADDED","object":{"metadata":{}}`)); !errors.Is(err, ErrParse) {
		t.Errorf("cut short: %v", err)
	}
}

// A tracker fed from DecodeBSLs, and one fed each item's JSON, agree with
// ServerStatus over the whole list, for every bundled example.
func TestTrackerFromDecodedAndJSON(t *testing.T) {
	for _, f := range bslExamples(t) {
		data := mustRead(t, f)
		want, err := ServerStatus(data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		bsls, err := DecodeBSLs(data)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Items []json.RawMessage }
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		a, _ := NewTracker(Options{})
		b, _ := NewTracker(Options{})
		for i, bsl := range bsls {
			if _, err := a.Upsert(bsl); err != nil {
				t.Fatalf("%s: Upsert(%+v): %v", f, bsl, err)
			}
			if _, err := b.UpsertJSON(doc.Items[i]); err != nil {
				t.Fatalf("%s: UpsertJSON(%s): %v", f, doc.Items[i], err)
			}
		}
		for _, tr := range []*Tracker{a, b} {
			v, err := tr.Verdict()
			if err != nil || string(v.JSON) != string(want.JSON) {
				t.Errorf("%s: tracker %s, ServerStatus %s (%v)", f, v.JSON, want.JSON, err)
			}
			tr.Close()
		}
	}
}

func TestTrackerUpsertJSONErrors(t *testing.T) {
	tr, err := NewTracker(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if ch, err := tr.UpsertJSON([]byte(`{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}}`)); err != nil || !ch {
		t.Fatalf("UpsertJSON: %v %v", ch, err)
	}
	_, err = tr.UpsertJSON([]byte("{\"metadata\": {\"name\": \"b\"},\n \"status\": {\"phase\": 7}}"))
	var e *Error
	if !errors.Is(err, ErrSchema) || !errors.As(err, &e) || !strings.HasPrefix(e.Message, "status.phase: expected a string") ||
		e.Line != 2 || e.Column != 22 || strings.Count(err.Error(), "line 2") != 1 {
		t.Errorf("wrong type: %#v (%v)", err, err)
	}
	if _, err := tr.UpsertJSON([]byte(`[{"metadata":{"name":"b"}}]`)); !errors.Is(err, ErrSchema) {
		t.Errorf("an array: %v", err)
	}
	if _, err := tr.UpsertJSON(nil); !errors.Is(err, ErrParse) {
		t.Errorf("empty: %v", err)
	}
	if tr.Len() != 1 || tr.Status() != ServerReady {
		t.Errorf("tracker changed by failed upserts: %d %s", tr.Len(), tr.Status())
	}
	// a message survives the round trip through a record
	if _, err := tr.Upsert(BSL{Name: "m", Phase: "Unavailable", Message: "bucket gone"}); err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 2 || tr.Status() != ServerPartiallyReady {
		t.Errorf("after Upsert: %d %s", tr.Len(), tr.Status())
	}
	tr.Close()
	if _, err := tr.UpsertJSON([]byte(`{}`)); err == nil {
		t.Errorf("UpsertJSON on a closed tracker")
	}
}

func TestServerStatusErrors(t *testing.T) {
	_, err := ServerStatus([]byte("{\"items\": [\n  {\"metadata\": }\n]}"), Options{})
	var e *Error
	if !errors.Is(err, ErrParse) || !errors.As(err, &e) || e.Line != 2 || e.Column == 0 {
		t.Errorf("malformed JSON: %#v", err)
	}
	_, err = ServerStatus([]byte(`{"items": [{"metadata": {"name": "a"}, "status": {"phase": 7}}]}`), Options{})
	if !errors.Is(err, ErrSchema) || !errors.As(err, &e) || !strings.Contains(e.Message, "items[0].status.phase") {
		t.Errorf("wrong type: %v", err)
	}
	_, err = ServerStatus([]byte(`[{"metadata": {"name": "a"}}, {"metadata": {"name": "a"}}]`), Options{})
	if !errors.Is(err, ErrSchema) {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err = ServerStatus(nil, Options{}); !errors.Is(err, ErrParse) {
		t.Errorf("empty input: %v", err)
	}
	if _, err = ServerStatus([]byte("[]"), Options{StaleAfter: time.Minute}); !errors.Is(err, ErrInvalid) {
		t.Errorf("StaleAfter without CheckStale: %v", err)
	}
	_, err = ServerStatus([]byte("[]"), Options{CheckStale: true, Now: time.Unix(0, 0), StaleAfter: -1})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("negative StaleAfter: %v", err)
	}
	v, err := ServerStatus([]byte("[]"), Options{})
	if err != nil || v.Status != ServerWaiting || !reflect.DeepEqual(v.Reasons, []Reason{ReasonNoBSL}) {
		t.Errorf("no BSL: %+v, %v", v, err)
	}
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func sampleBSLs() []BSL {
	return []BSL{
		{Name: "default", Phase: "Available", Default: true, Created: t0.Add(-time.Hour), LastValidated: t0},
		{Name: "archive", Phase: "Available", ReadOnly: true, Created: t0.Add(-2 * time.Hour), LastValidated: t0},
		{Name: "secondary", Phase: "Unavailable", Created: t0},
		{Name: "new", Phase: ""},
		{Name: "weird", Phase: "Availble"},
	}
}

func TestTrackerEqualsClassify(t *testing.T) {
	tr, err := NewTracker(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var added []BSL
	for _, b := range sampleBSLs() {
		before := tr.Status()
		beforeReasons := tr.Reasons()
		changed, err := tr.Upsert(b)
		if err != nil {
			t.Fatal(err)
		}
		added = append(added, b)
		want, err := ClassifyBSLs(added, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tr.Verdict()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: tracker %+v, classify %+v", b.Name, got, want)
		}
		wantChanged := before != want.Status || !reflect.DeepEqual(beforeReasons, want.Reasons)
		if changed != wantChanged {
			t.Errorf("upsert %s: changed=%v, status %s -> %s, reasons %v -> %v", b.Name, changed, before,
				want.Status, beforeReasons, want.Reasons)
		}
		if tr.Status() != want.Status || !reflect.DeepEqual(tr.Reasons(), want.Reasons) || tr.Len() != len(added) {
			t.Errorf("O(1) getters disagree after %s", b.Name)
		}
	}
	v, _ := tr.Verdict()
	if v.Status != ServerPartiallyReady || v.Default != "default" ||
		!reflect.DeepEqual(v.BSLs[ReasonUnknownPhase], []string{"weird"}) ||
		!reflect.DeepEqual(v.BSLs[ReasonSomePending], []string{"new", "weird"}) {
		t.Errorf("final verdict: %+v", v)
	}
	// Deleting brings it back; deleting an absent name is a no-op.
	for _, name := range []string{"weird", "new", "secondary", "archive"} {
		if _, err := tr.Delete(name); err != nil {
			t.Fatal(err)
		}
	}
	if tr.Status() != ServerReady || len(tr.Reasons()) != 0 {
		t.Errorf("after deletes: %s %v", tr.Status(), tr.Reasons())
	}
	if changed, err := tr.Delete("nope"); err != nil || changed {
		t.Errorf("delete of an absent name: %v %v", changed, err)
	}
	if _, err := tr.Upsert(BSL{Name: ""}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty name: %v", err)
	}
	if _, ok := tr.LastTransition(); ok {
		t.Errorf("LastTransition known before any clock")
	}
	// Without CheckStale the clock only dates transitions.
	if changed, err := tr.SetNow(t0); err != nil || changed {
		t.Errorf("SetNow without CheckStale: %v %v", changed, err)
	}
	if at, ok := tr.LastTransition(); !ok || !at.Equal(t0) {
		t.Errorf("LastTransition not dated by the first clock: %v %v", at, ok)
	}
	if _, err := tr.SetNow(t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	// Upsert replaces by name.
	if changed, err := tr.Upsert(BSL{Name: "default", Phase: "Unavailable", Default: true}); err != nil || !changed {
		t.Errorf("replace: %v %v", changed, err)
	}
	if tr.Status() != ServerNotReady || tr.Len() != 1 {
		t.Errorf("after replace: %s, %d BSLs", tr.Status(), tr.Len())
	}
	if at, ok := tr.LastTransition(); !ok || !at.Equal(t0.Add(time.Second)) || at.Location() != time.UTC {
		t.Errorf("LastTransition after Ready -> NotReady: %v %v", at, ok)
	}
	if _, err := tr.SetNow(t0.Add(2 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Upsert(BSL{Name: "other", Phase: "Unavailable"}); err != nil {
		t.Fatal(err)
	}
	if at, _ := tr.LastTransition(); !at.Equal(t0.Add(time.Second)) {
		t.Errorf("LastTransition moved without a transition: %v", at)
	}
}

func TestTrackerStaleness(t *testing.T) {
	tr, err := NewTracker(Options{CheckStale: true, Now: t0, StaleAfter: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, err := tr.Upsert(BSL{Name: "default", Phase: "Available", Default: true, LastValidated: t0.Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if tr.Status() != ServerReady {
		t.Fatalf("fresh: %s %v", tr.Status(), tr.Reasons())
	}
	changed, err := tr.SetNow(t0.Add(10 * time.Minute))
	if err != nil || !changed {
		t.Fatalf("SetNow: %v %v", changed, err)
	}
	v, err := tr.Verdict()
	if err != nil || v.Status != ServerWaiting || !reflect.DeepEqual(v.BSLs[ReasonStale], []string{"default"}) {
		t.Errorf("stale: %+v %v", v, err)
	}
	if at, ok := tr.LastTransition(); !ok || !at.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("LastTransition after staleness: %v %v", at, ok)
	}
}

func TestTrackerClosed(t *testing.T) {
	tr, err := NewTracker(Options{DefaultLocation: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	if _, err := tr.Upsert(BSL{Name: "a"}); !errors.Is(err, ErrState) {
		t.Errorf("Upsert after Close: %v", err)
	}
	if _, err := tr.Verdict(); !errors.Is(err, ErrState) {
		t.Errorf("Verdict after Close: %v", err)
	}
	if tr.Len() != 0 || tr.Status() != ServerWaiting {
		t.Error("getters after Close")
	}
	if at, ok := tr.LastTransition(); ok || !at.IsZero() {
		t.Errorf("LastTransition after Close: %v %v", at, ok)
	}
}

func TestTrackerConcurrent(t *testing.T) {
	tr, err := NewTracker(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				name := fmt.Sprintf("bsl-%d-%d", g, i)
				if _, err := tr.Upsert(BSL{Name: name, Phase: "Available"}); err != nil {
					t.Error(err)
					return
				}
				if i%2 == 1 {
					if _, err := tr.Delete(name); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	if tr.Len() != 400 {
		t.Errorf("Len() = %d, want 400", tr.Len())
	}
}

// fakeServerHost is a ServerStatusHost over a BSL list; it remembers what
// it published and can fail or panic on demand.
type fakeServerHost struct {
	list         []byte
	listErr      error
	listPanic    interface{}
	publishErrs  []error // returned by the first publishes, in turn; the last one repeats
	publishPanic interface{}
	publishCalls int
	published    []ServerState
	lastReasons  []Reason
	lastJSON     []byte
}

func (h *fakeServerHost) ListBSLs() ([]byte, error) {
	if h.listPanic != nil {
		panic(h.listPanic)
	}
	return h.list, h.listErr
}

func (h *fakeServerHost) Publish(s ServerState, rs []Reason, js []byte) error {
	h.publishCalls++
	if h.publishPanic != nil {
		panic(h.publishPanic)
	}
	if n := len(h.publishErrs); n > 0 {
		if h.publishCalls <= n {
			if err := h.publishErrs[h.publishCalls-1]; err != nil {
				return err
			}
		} else if err := h.publishErrs[n-1]; err != nil {
			return err
		}
	}
	h.published = append(h.published, s)
	h.lastReasons, h.lastJSON = rs, js
	return nil
}

// readingHost adds the optional ReadStatus from what was published.
type readingHost struct {
	fakeServerHost
	readState *ServerState // overrides the published state when set
}

func (h *readingHost) ReadStatus() (ServerState, []Reason, bool, error) {
	if h.readState != nil {
		return *h.readState, nil, true, nil
	}
	if len(h.published) == 0 {
		return 0, nil, false, nil
	}
	return h.published[len(h.published)-1], h.lastReasons, true, nil
}

func TestServerStatusStep(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "bsl", "one-unavailable.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ServerStatus(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Without ReadStatus the step always publishes.
	h := &fakeServerHost{list: data}
	for i := 0; i < 2; i++ {
		v, pub, err := ServerStatusStep(context.Background(), h, Options{}, newFakeClock().hooks())
		if err != nil || !pub || !reflect.DeepEqual(v, want) {
			t.Fatalf("step %d: %v %v %+v", i, pub, err, v)
		}
	}
	if len(h.published) != 2 || !bytes.Equal(h.lastJSON, want.JSON) ||
		!reflect.DeepEqual(h.lastReasons, want.Reasons) {
		t.Errorf("published %v %s", h.published, h.lastJSON)
	}
	// With ReadStatus it publishes on change only.
	rh := &readingHost{fakeServerHost: fakeServerHost{list: data}}
	for i, wantPub := range []bool{true, false, false} {
		_, pub, err := ServerStatusStep(context.Background(), rh, Options{}, newFakeClock().hooks())
		if err != nil || pub != wantPub {
			t.Errorf("reading step %d: published=%v err=%v", i, pub, err)
		}
	}
	ready := ServerReady
	rh.readState = &ready
	if _, pub, err := ServerStatusStep(context.Background(), rh, Options{}, newFakeClock().hooks()); err != nil || !pub {
		t.Errorf("changed status not published: %v %v", pub, err)
	}
}

var errAPIServer = errors.New("apiserver: connection refused")

func TestServerStatusStepFailures(t *testing.T) {
	// An error from a Go callback comes back as ErrHost wrapping it.
	h := &fakeServerHost{listErr: errAPIServer}
	_, _, err := ServerStatusStep(context.Background(), h, Options{}, newFakeClock().hooks())
	var e *Error
	if !errors.Is(err, ErrHost) || !errors.Is(err, errAPIServer) || !errors.As(err, &e) || e.HostCode >= 0 {
		t.Errorf("list error: %v", err)
	}
	if !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("message lost the callback's error: %q", err.Error())
	}
	// A publish that keeps failing is retried as the policy says (Velero's
	// CapBackoff(1s): 3 attempts), then its last error comes back.
	h = &fakeServerHost{list: []byte("[]"), publishErrs: []error{errors.New("first"), errors.New("second"), errAPIServer}}
	clock := newFakeClock()
	_, pub, err := ServerStatusStep(context.Background(), h, Options{Policy: PolicyVelero(), RetryTimeout: time.Second}, clock.hooks())
	if !errors.Is(err, ErrHost) || !errors.Is(err, errAPIServer) || pub || h.publishCalls != 3 ||
		!reflect.DeepEqual(clock.sleeps, ms(10, 50, 250)) {
		t.Errorf("publish error: %v %v, %d calls, slept %v", pub, err, h.publishCalls, clock.sleeps)
	}
	// A panic in Publish ends the retries at once.
	h = &fakeServerHost{list: []byte("[]"), publishPanic: "publish exploded"}
	clock = newFakeClock()
	_, _, err = ServerStatusStep(context.Background(), h, Options{}, clock.hooks())
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "publish exploded" || h.publishCalls != 1 || len(clock.sleeps) != 0 {
		t.Errorf("publish panic: %v, %d calls, slept %v", err, h.publishCalls, clock.sleeps)
	}
	// A panic inside a callback becomes an error; nothing unwinds through C.
	h = &fakeServerHost{listPanic: "boom"}
	_, _, err = ServerStatusStep(context.Background(), h, Options{}, newFakeClock().hooks())
	if !errors.Is(err, ErrHost) || !errors.As(err, &pe) || pe.Value != "boom" || len(pe.Stack) == 0 {
		t.Errorf("panic: %v", err)
	}
	// A panic with an error value is reachable with errors.Is.
	h = &fakeServerHost{listPanic: errAPIServer}
	if _, _, err = ServerStatusStep(context.Background(), h, Options{}, newFakeClock().hooks()); !errors.Is(err, errAPIServer) {
		t.Errorf("panic(error): %v", err)
	}
	// Bad JSON from the host is the library's parse error, with position.
	h = &fakeServerHost{list: []byte(`{"items": [`)}
	if _, _, err = ServerStatusStep(context.Background(), h, Options{}, newFakeClock().hooks()); !errors.Is(err, ErrParse) {
		t.Errorf("bad list: %v", err)
	}
	// A state the library does not know, from ReadStatus, fails the step.
	bogus := ServerState(99)
	rh := &readingHost{fakeServerHost: fakeServerHost{list: []byte("[]")}, readState: &bogus}
	if _, _, err = ServerStatusStep(context.Background(), rh, Options{}, newFakeClock().hooks()); !errors.Is(err, ErrHost) || !errors.Is(err, ErrInvalid) {
		t.Errorf("bad published state: %v", err)
	}
	if _, _, err = ServerStatusStep(context.Background(), nil, Options{}, newFakeClock().hooks()); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil host: %v", err)
	}
	// A transient publish failure is retried and the step succeeds; Classify
	// sees the Go error object.
	h = &fakeServerHost{list: []byte("[]"), publishErrs: []error{errAPIServer, nil}}
	hooks := newFakeClock().hooks()
	var classified []error
	hooks.Classify = func(err error) (RetryClass, bool) { classified = append(classified, err); return RetryTransient, false }
	if _, pub, err := ServerStatusStep(context.Background(), h, Options{}, hooks); err != nil || !pub || h.publishCalls != 2 ||
		len(classified) != 1 || classified[0] != errAPIServer {
		t.Errorf("retried publish: %v %v, %d calls, classified %v", pub, err, h.publishCalls, classified)
	}
	// The step still works afterwards (no state left behind).
	if _, pub, err := ServerStatusStep(context.Background(), &fakeServerHost{list: []byte("[]")}, Options{}, newFakeClock().hooks()); err != nil || !pub {
		t.Errorf("step after failures: %v %v", pub, err)
	}
}

// Reasons come out sorted by token, as the JSON encoder sorts them.
func TestReasonsSorted(t *testing.T) {
	v, err := ClassifyBSLs(sampleBSLs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sort.SliceIsSorted(v.Reasons, func(i, j int) bool { return v.Reasons[i].String() < v.Reasons[j].String() }) {
		t.Errorf("reasons not sorted: %v", v.Reasons)
	}
}
