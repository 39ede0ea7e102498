// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const grpcPrefix = "rpc error: code = Unknown desc = "

func TestSnapshotListFromKubectl(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "data", "snapshot", "volumesnapshots-during-backup.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeSnapshots(data)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.Objects) != 4 || s.Skipped != 0 {
		t.Fatalf("%d objects, %d skipped", len(s.Objects), s.Skipped)
	}
	vs, vsc := s.Objects[0], s.Objects[2]
	if vs.Kind != SnapshotKindVolumeSnapshot || *vs.Text[SnapshotFieldNamespace] != "app" || !*vs.ReadyToUse ||
		*vs.Text[SnapshotFieldRestoreSize] != "1Gi" || vs.RestoreSizeBytes != nil {
		t.Fatalf("%+v", vs)
	}
	if vsc.Kind != SnapshotKindContent || *vsc.RestoreSizeBytes != 1073741824 || vsc.Text[SnapshotFieldNamespace] != nil ||
		*vsc.TimeNs[SnapshotFieldCreationTime] != 1714557605123456789 {
		t.Fatalf("%+v", vsc)
	}
	if i, ok := s.Find(SnapshotKindContent, "", *vsc.Text[SnapshotFieldName]); !ok || i != 2 {
		t.Fatalf("find: %d %v", i, ok)
	}
	if SnapshotFieldBoundContent.String() != "bound_content" || SnapshotKindContent.String() != "volume_snapshot_content" {
		t.Fatal("tokens")
	}
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	p, perr, err := s.Progress(KindBackup, "app/"+*vs.Text[SnapshotFieldName]+"/2024-05-01T10:00:04Z", now, 1, 16)
	if err != nil || perr != nil || !p.Completed || !p.Updated.Equal(now) ||
		!p.Started.Equal(time.Date(2024, 5, 1, 10, 0, 4, 0, time.UTC)) {
		t.Fatalf("%+v %v %v", p, perr, err)
	}
	// the second snapshot's quota error: a "temporary" VolumeSnapshot error in 1.14+ (velero #9674)
	p, perr, err = s.Progress(KindBackup, "app/"+*s.Objects[1].Text[SnapshotFieldName]+"/2024-05-01T10:00:06Z", now, 1, 16)
	if err != nil || perr != nil || p.Completed {
		t.Fatalf("%+v %v %v", p, perr, err)
	}
}

func TestSnapshotProgressErrors(t *testing.T) {
	s, err := DecodeSnapshots([]byte("[]"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Unix(0, 0)
	cases := []struct {
		kind  Kind
		id    string
		minor int
		want  string
	}{
		{KindBackup, "ns/name/2024-04-11T18:49:00+08:00", 14, grpcPrefix + `volumesnapshots.snapshot.storage.k8s.io "name" not found`},
		{KindBackup, "ns/name/invalid", 12, grpcPrefix + `parsing time "invalid" as "2006-01-02T15:04:05Z07:00": cannot parse "invalid" as "2006"`},
		{KindBackup, "invalid", 18, grpcPrefix + "operation ID invalid is invalid"},
		{KindRestore, "", 13, grpcPrefix + "operation ID  is invalid"},
		{KindBackup, "x", 11, "Plugin does not support asynchronous operations"},
	}
	for _, c := range cases {
		_, perr, err := s.Progress(c.kind, c.id, now, 1, c.minor)
		if err != nil || perr == nil || perr.Error() != c.want {
			t.Errorf("%q in 1.%d: %v %v, want %q", c.id, c.minor, perr, err, c.want)
		}
	}
	if _, _, err := s.Progress(KindBackup, "x", now, 1, 10); err == nil || !errors.Is(err, ErrInvalid) {
		t.Fatalf("1.10: %v", err)
	}
	if _, err := DecodeSnapshots([]byte(`{"kind":"VolumeSnapshot","status":{"readyToUse":"yes"}}`)); err == nil ||
		!errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "status.readyToUse") {
		t.Fatalf("schema: %v", err)
	}
}

// The VolumeSnapshotContent action: 1.12 and 1.13 read the content (an
// error completes with its message; a bad time has the plugin's prefix),
// 1.14 gives an empty progress, 1.11 Velero's own text.
func TestSnapshotContentProgress(t *testing.T) {
	s, err := DecodeSnapshots([]byte(`[{"kind":"VolumeSnapshotContent","metadata":{"name":"c-1"},` +
		`"status":{"readyToUse":false,"error":{"message":"snapshot quota exceeded"}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, perr, err := s.ContentProgress("c-1/2024-05-01T10:00:00Z", 1, 12)
	if err != nil || perr != nil || !p.Completed || p.Err != "snapshot quota exceeded" || p.Started.IsZero() || !p.Updated.IsZero() {
		t.Fatalf("1.12: %+v %v %v", p, perr, err)
	}
	p, perr, err = s.ContentProgress("c-1/2024-05-01T10:00:00Z", 1, 14)
	if err != nil || perr != nil || p.Completed || !p.Started.IsZero() {
		t.Fatalf("1.14: %+v %v %v", p, perr, err)
	}
	for _, c := range []struct {
		id    string
		minor int
		want  string
	}{
		{"c-1/invalid", 13, grpcPrefix + `fail to parse StartedTime: parsing time "invalid" as "2006-01-02T15:04:05Z07:00": cannot parse "invalid" as "2006"`},
		{"c-2/2024-05-01T10:00:00Z", 12, grpcPrefix + `volumesnapshotcontents.snapshot.storage.k8s.io "c-2" not found`},
		{"ns/c-1/2024-05-01T10:00:00Z", 12, grpcPrefix + "operation ID ns/c-1/2024-05-01T10:00:00Z is invalid"},
		{"c-1/2024-05-01T10:00:00Z", 11, "Plugin does not support asynchronous operations"},
	} {
		_, perr, err := s.ContentProgress(c.id, 1, c.minor)
		if err != nil || perr == nil || perr.Error() != c.want {
			t.Errorf("%q in 1.%d: %v %v, want %q", c.id, c.minor, perr, err, c.want)
		}
	}
	if _, _, err := s.ContentProgress("x", 1, 10); err == nil || !errors.Is(err, ErrInvalid) {
		t.Fatalf("1.10: %v", err)
	}
}

const snapOps = `[{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"velero.io/csi-volumesnapshot-backupper",` +
	`"resourceIdentifier":{"Group":"snapshot.storage.k8s.io","Resource":"volumesnapshots","Namespace":"app","Name":"vs-1"},` +
	`"operationID":"app/vs-1/2024-05-01T10:00:00Z"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}},` +
	`{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"example.io/other","resourceIdentifier":{"Group":"",` +
	`"Resource":"pods","Namespace":"app","Name":"p"},"operationID":"op-2"},"status":{"phase":"InProgress",` +
	`"created":"2024-05-01T10:00:00Z"}}]`

const snapCluster = `{"kind":"List","items":[{"kind":"VolumeSnapshot","metadata":{"name":"vs-1","namespace":"app"},` +
	`"status":{"readyToUse":true,"boundVolumeSnapshotContentName":"c-1"}},{"kind":"VolumeSnapshotContent",` +
	`"metadata":{"name":"c-1"},"status":{"error":{"message":"snapshot quota exceeded"}}}]}`

func TestReconcileSnapshots(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		minor             int
		completed, failed int
		phase             Phase
	}{{14, 1, 1, PhaseFinalizingPartiallyFailed}, {13, 2, 0, PhaseFinalizing}} {
		ops, err := DecodeOpList(KindBackup, []byte(snapOps))
		if err != nil {
			t.Fatal(err)
		}
		snaps, err := DecodeSnapshots([]byte(snapCluster))
		if err != nil {
			t.Fatal(err)
		}
		var seen []string
		fallback := PluginClient{Progress: func(i int, op Operation) (OpProgress, error) {
			seen = append(seen, op.OperationID)
			return OpProgress{Completed: true}, nil
		}}
		opts := DefaultReconcileOptions(now)
		opts.Policy, err = PolicyVeleroRelease(1, c.minor)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ops.ReconcileSnapshots(context.Background(), snaps, 1, c.minor, fallback, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 1 || seen[0] != "op-2" || res.Completed != c.completed || res.Failed != c.failed ||
			res.Phase != c.phase {
			t.Fatalf("1.%d: seen %v, %+v", c.minor, seen, res)
		}
		if c.failed == 1 && res.Errors[0] != "snapshot quota exceeded, plugin: velero.io/csi-volumesnapshot-backupper" {
			t.Fatalf("errors %q", res.Errors)
		}
		ops.Close()
		snaps.Close()
	}
}
