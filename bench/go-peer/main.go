// SPDX-License-Identifier: Apache-2.0

// Command go-peer is the benchmark peer of `make bench`: what Velero itself
// does with an itemoperations file, in Go, with the standard library only.
//
// The types follow Velero's pkg/itemoperation (BackupOperation,
// RestoreOperation, OperationStatus, with their JSON tags) and
// pkg/plugin/velero.ResourceIdentifier; a time is a *Time that behaves as
// metav1.Time does in JSON (RFC 3339, read as .Local(), a zero time written
// as null). The loop is the per-operation check of Velero's
// getBackupItemOperationProgress (pkg/controller/backup_operations_controller.go),
// with an in-process fake plugin that answers every operation as the C side's
// fake client does (bench/bench_operations.c): 1 of 2 Bytes, "InProgress",
// started 2024-05-01T10:00:00Z, updated 10:30:00Z, not completed, no error;
// "now" is fixed at 11:00:00Z and the timeout is 4 h, so no operation times
// out and both sides do the same decision work on the same records.
//
//	go-peer decode|loop|encode|job FILE [backup|restore]
//
// prints "key value" lines: decode_s (CPU seconds of decoding), loop_first_ns
// and loop_steady_ns (CPU ns per operation of the first pass, and the mean of the ten after it),
// encode_s and identical (1 when the encoding equals the input); "job" reads
// FILE, runs one pass and writes the list to stdout, and prints nothing else
// (the caller measures the whole process).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// ResourceIdentifier is velero.ResourceIdentifier: schema.GroupResource
// (Group, Resource) embedded, then Namespace and Name, no JSON tags.
type ResourceIdentifier struct {
	Group     string
	Resource  string
	Namespace string
	Name      string
}

// Time is metav1.Time as JSON sees it.
type Time struct {
	time.Time
}

// UnmarshalJSON reads null as the zero time and a string as RFC 3339, in the
// local zone (metav1.Time.UnmarshalJSON).
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) == 4 && string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// MarshalJSON writes the zero time as null, else RFC 3339 in UTC, whole
// seconds (metav1.Time.MarshalJSON).
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	buf := make([]byte, 0, len(time.RFC3339)+2)
	buf = append(buf, '"')
	buf = t.UTC().AppendFormat(buf, time.RFC3339)
	buf = append(buf, '"')
	return buf, nil
}

// OperationStatus is itemoperation.OperationStatus.
type OperationStatus struct {
	Phase          string `json:"phase,omitempty"`
	Error          string `json:"error,omitempty"`
	NCompleted     int64  `json:"nCompleted,omitempty"`
	NTotal         int64  `json:"nTotal,omitempty"`
	OperationUnits string `json:"operationUnits,omitempty"`
	Description    string `json:"description,omitempty"`
	Created        *Time  `json:"created,omitempty"`
	Started        *Time  `json:"started,omitempty"`
	Updated        *Time  `json:"updated,omitempty"`
}

// BackupOperationSpec is itemoperation.BackupOperationSpec.
type BackupOperationSpec struct {
	BackupName         string               `json:"backupName"`
	BackupUID          string               `json:"backupUID"`
	BackupItemAction   string               `json:"backupItemAction"`
	ResourceIdentifier ResourceIdentifier   `json:"resourceIdentifier"`
	OperationID        string               `json:"operationID"`
	PostOperationItems []ResourceIdentifier `json:"postOperationItems"`
}

// BackupOperation is itemoperation.BackupOperation.
type BackupOperation struct {
	Spec   BackupOperationSpec `json:"spec"`
	Status OperationStatus     `json:"status"`
}

// RestoreOperationSpec is itemoperation.RestoreOperationSpec.
type RestoreOperationSpec struct {
	RestoreName        string             `json:"restoreName"`
	RestoreUID         string             `json:"restoreUID"`
	RestoreItemAction  string             `json:"restoreItemAction"`
	ResourceIdentifier ResourceIdentifier `json:"resourceIdentifier"`
	OperationID        string             `json:"operationID"`
}

// RestoreOperation is itemoperation.RestoreOperation.
type RestoreOperation struct {
	Spec   RestoreOperationSpec `json:"spec"`
	Status OperationStatus      `json:"status"`
}

// The operation phases (itemoperation.OperationPhase*).
const (
	phaseNew        = "New"
	phaseInProgress = "InProgress"
	phaseCompleted  = "Completed"
	phaseFailed     = "Failed"
)

// OperationProgress is velero.OperationProgress.
type OperationProgress struct {
	Completed      bool
	Err            string
	NCompleted     int64
	NTotal         int64
	OperationUnits string
	Description    string
	Started        time.Time
	Updated        time.Time
}

// fakeAction is the in-process plugin: every operation gets the same answer.
type fakeAction struct {
	answer OperationProgress
}

func (a *fakeAction) Progress(operationID string) (OperationProgress, error) {
	return a.answer, nil
}

func (a *fakeAction) Cancel(operationID string) error {
	return nil
}

// fakeManager stands for clientmgmt.Manager: one action for every name.
type fakeManager struct {
	action *fakeAction
}

func (m *fakeManager) GetBackupItemActionV2(name string) (*fakeAction, error) {
	return m.action, nil
}

func newManager() *fakeManager {
	return &fakeManager{action: &fakeAction{answer: OperationProgress{
		NCompleted:     1,
		NTotal:         2,
		OperationUnits: "Bytes",
		Description:    "InProgress",
		Started:        time.Unix(1714561200, 0).UTC(),
		Updated:        time.Unix(1714563000, 0).UTC(),
	}}}
}

var (
	benchNow     = time.Unix(1714563600, 0)
	benchTimeout = 4 * time.Hour
)

// steadyPasses is how many passes after the first loop_steady_ns averages
// (as bench_operations does): one pass is too short a window to time alone
// on a shared machine.
const steadyPasses = 10

// progressPass is the per-operation check of getBackupItemOperationProgress.
func progressPass(m *fakeManager, ops []*BackupOperation) (bool, bool, int, int, []string) {
	inProgress, changes := false, false
	var errs []string
	var completed, failed int
	// Velero repeats these four lines at each way an operation fails.
	fail := func(st *OperationStatus, msg string) {
		st.Phase, st.Error = phaseFailed, msg
		errs = append(errs, msg)
		changes = true
		failed++
	}
	for _, op := range ops {
		st := &op.Status
		if st.Phase == phaseNew || st.Phase == phaseInProgress {
			bia, err := m.GetBackupItemActionV2(op.Spec.BackupItemAction)
			if err != nil {
				fail(st, err.Error())
				continue
			}
			p, err := bia.Progress(op.Spec.OperationID)
			if err != nil {
				fail(st, err.Error())
				continue
			}
			if st.NCompleted != p.NCompleted {
				st.NCompleted = p.NCompleted
				changes = true
			}
			if st.NTotal != p.NTotal {
				st.NTotal = p.NTotal
				changes = true
			}
			if st.OperationUnits != p.OperationUnits {
				st.OperationUnits = p.OperationUnits
				changes = true
			}
			if st.Description != p.Description {
				st.Description = p.Description
				changes = true
			}
			started := Time{p.Started}
			if st.Started == nil && !p.Started.IsZero() || st.Started != nil && *st.Started != started {
				st.Started = &started
				changes = true
			}
			updated := Time{p.Updated}
			if st.Updated == nil && !p.Updated.IsZero() || st.Updated != nil && *st.Updated != updated {
				st.Updated = &updated
				changes = true
			}
			if p.Completed {
				if p.Err != "" {
					fail(st, p.Err)
					continue
				}
				st.Phase = phaseCompleted
				changes = true
				completed++
				continue
			}
			if st.Created.Time.Add(benchTimeout).Before(benchNow) {
				_ = bia.Cancel(op.Spec.OperationID)
				fail(st, "Asynchronous action timed out")
				continue
			}
			if st.Phase == phaseNew && st.Started != nil {
				st.Phase = phaseInProgress
				changes = true
			}
			inProgress = true
		} else if st.Phase == phaseCompleted {
			completed++
		} else if st.Phase == phaseFailed {
			failed++
		}
	}
	return inProgress, changes, completed, failed, errs
}

// cpuSeconds is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID, as the C side).
func cpuSeconds() float64 {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		fmt.Fprintln(os.Stderr, "clock_gettime:", e)
		os.Exit(2)
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "go-peer:", err)
	os.Exit(2)
}

// encode writes the list as Velero does (json.Encoder: HTML escaping, a newline).
func encode(w io.Writer, v interface{}) {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		fatal(err)
	}
}

func runBackup(mode string, input []byte, path string) {
	var ops []*BackupOperation
	if mode == "job" {
		f, err := os.Open(path)
		if err != nil {
			fatal(err)
		}
		// Velero: json.NewDecoder(gzip reader).Decode(&itemOps)
		if err := json.NewDecoder(bufio.NewReader(f)).Decode(&ops); err != nil {
			fatal(err)
		}
		f.Close()
		progressPass(newManager(), ops)
		w := bufio.NewWriter(os.Stdout)
		encode(w, ops)
		if err := w.Flush(); err != nil {
			fatal(err)
		}
		return
	}
	t0 := cpuSeconds()
	if err := json.Unmarshal(input, &ops); err != nil {
		fatal(err)
	}
	t1 := cpuSeconds()
	fmt.Printf("decode_s %.6f\nrecords %d\n", t1-t0, len(ops))
	switch mode {
	case "loop":
		m := newManager()
		t0 = cpuSeconds()
		progressPass(m, ops)
		t1 = cpuSeconds()
		fmt.Printf("loop_first_ns %.3f\n", (t1-t0)*1e9/float64(len(ops)))
		t0 = cpuSeconds()
		for k := 0; k < steadyPasses; k++ {
			progressPass(m, ops)
		}
		t1 = cpuSeconds()
		fmt.Printf("loop_steady_ns %.3f\n", (t1-t0)*1e9/float64(len(ops)*steadyPasses))
	case "encode":
		var b bytes.Buffer
		t0 = cpuSeconds()
		encode(&b, ops)
		t1 = cpuSeconds()
		same := 0
		if bytes.Equal(b.Bytes(), input) {
			same = 1
		}
		fmt.Printf("encode_s %.6f\nidentical %d\n", t1-t0, same)
	}
}

func runRestore(mode string, input []byte) {
	var ops []*RestoreOperation
	t0 := cpuSeconds()
	if err := json.Unmarshal(input, &ops); err != nil {
		fatal(err)
	}
	t1 := cpuSeconds()
	fmt.Printf("decode_s %.6f\nrecords %d\n", t1-t0, len(ops))
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: go-peer decode|loop|encode|job FILE [backup|restore]")
		os.Exit(2)
	}
	mode, path := os.Args[1], os.Args[2]
	if mode != "decode" && mode != "loop" && mode != "encode" && mode != "job" {
		fatal(fmt.Errorf("unknown mode %q", mode))
	}
	if len(os.Args) > 3 && os.Args[3] == "restore" {
		input, err := os.ReadFile(path)
		if err != nil {
			fatal(err)
		}
		runRestore(mode, input)
		return
	}
	var input []byte
	if mode != "job" {
		var err error
		if input, err = os.ReadFile(path); err != nil {
			fatal(err)
		}
	}
	runBackup(mode, input, path)
}
