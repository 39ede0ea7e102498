// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func dmObject(kind, ns, name, id, status string) string {
	s := ""
	if status != "" {
		s = `,"status":` + status
	}
	return fmt.Sprintf(`{"kind":"%s","metadata":{"namespace":"%s","name":"%s","labels":{"velero.io/async-operation-id":"%s"}}%s}`,
		kind, ns, name, id, s)
}

// The DataUpload and DataDownload pasted in openshift/oadp-operator #1482.
func TestDecodeDataMoversAsUsersPasteThem(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "tests", "data", "datamover", "oadp-1482-list.json"))
	if err != nil {
		t.Fatal(err)
	}
	dms, err := DecodeDataMovers(data)
	if err != nil {
		t.Fatal(err)
	}
	defer dms.Close()
	if dms.Len() != 2 || dms.Skipped() != 0 {
		t.Fatalf("len %d skipped %d", dms.Len(), dms.Skipped())
	}
	up, err := dms.Object(0)
	if err != nil || up.Kind != DmUpload || up.Phase != DmPhaseCompleted || up.Kind.String() != "upload" ||
		up.Phase.String() != "Completed" {
		t.Fatalf("%+v %v", up, err)
	}
	if up.Text[DmTextOperationID] != "du-890610ca-26f9-451f-b855-a057d2950351.cc85de73-69bc-49c72363e" ||
		up.Ints[DmIntGeneration] != 11 {
		t.Errorf("%+v", up)
	}
	if _, ok := up.TimeNs[DmTimeStarted]; ok {
		t.Errorf("startTimestamp is not in the quote")
	}
	if created := time.Unix(0, up.TimeNs[DmTimeCreated]).UTC().Format(time.RFC3339); created != "2024-08-13T17:22:02Z" {
		t.Errorf("created %s", created)
	}
	down := dms.Objects()[1]
	if down.Kind != DmDownload || down.Text[DmTextTargetPV] != "" || down.Ints[DmIntTotalBytes] != 10737418240 {
		t.Errorf("%+v", down)
	}
	if _, ok := down.Text[DmTextTargetPV]; !ok {
		t.Errorf("an empty pv is a value")
	}
	if _, err := dms.Object(2); err == nil {
		t.Errorf("index 2 out of range")
	}
	if _, err := DecodeDataMovers([]byte(`{"kind":"DataUpload","spec":{"cancel":"yes"}}`)); err == nil ||
		!strings.Contains(err.Error(), "spec.cancel: expected a boolean") {
		t.Errorf("schema error: %v", err)
	}
}

func TestDataMoverProgressAndCancelPerRelease(t *testing.T) {
	dms, err := DecodeDataMovers([]byte("[" + dmObject("DataUpload", "velero", "testing", "testing",
		`{"phase":"Failed","progress":{"bytesDone":1000,"totalBytes":1000},"message":"Testing error"}`) + "," +
		dmObject("DataUpload", "other", "o", "other-ns", `{"phase":"InProgress"}`) + "]"))
	if err != nil {
		t.Fatal(err)
	}
	defer dms.Close()
	for minor := 12; minor <= 18; minor++ {
		p, perr, err := dms.Progress(DmUpload, "testing", "", 1, minor)
		if err != nil || perr != nil || !p.Completed || p.Err != "Testing error" || p.NCompleted != 1000 ||
			p.OperationUnits != "Bytes" || p.Description != "Failed" || !p.Started.IsZero() {
			t.Errorf("1.%d: %+v %v %v", minor, p, perr, err)
		}
		everyNS := minor >= 13 && minor <= 17
		_, perr, err = dms.Progress(DmUpload, "other-ns", "velero", 1, minor)
		if err != nil || (perr == nil) != everyNS {
			t.Errorf("1.%d other namespace: %v %v", minor, perr, err)
		}
		if !everyNS && perr.Error() != "rpc error: code = Unknown desc = not found DataUpload for operationID other-ns" {
			t.Errorf("1.%d: %v", minor, perr)
		}
		if i, m, err := dms.Find(DmUpload, "testing", "", 1, minor); i != 0 || m != 1 || err != nil {
			t.Errorf("1.%d find: %d %d %v", minor, i, m, err)
		}
		if i, cerr, err := dms.Cancel(DmUpload, "testing", "", 1, minor); i != 0 || cerr != nil || err != nil {
			t.Errorf("1.%d cancel: %d %v %v", minor, i, cerr, err)
		}
		if i, cerr, err := dms.Cancel(DmDownload, "testing", "", 1, minor); i != -1 || err != nil ||
			cerr == nil || cerr.Error() != "rpc error: code = Unknown desc = didn't find DataDownload" {
			t.Errorf("1.%d cancel download: %d %v %v", minor, i, cerr, err)
		}
	}
	if _, _, err := dms.Progress(DmUpload, "testing", "", 1, 11); err == nil ||
		!strings.Contains(err.Error(), "Velero 1.11 has no data mover") {
		t.Errorf("1.11: %v", err)
	}
}

func TestReconcileDataMover(t *testing.T) {
	ops := `[{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"velero.io/csi-pvc-backupper",` +
		`"resourceIdentifier":{"Group":"","Resource":"persistentvolumeclaims","Namespace":"app","Name":"d0"},` +
		`"operationID":"du-a"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}},` +
		`{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"example.io/other",` +
		`"resourceIdentifier":{"Group":"","Resource":"pods","Namespace":"app","Name":"p"},` +
		`"operationID":"x-1"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]`
	dms, err := DecodeDataMovers([]byte(dmObject("DataUpload", "velero", "a", "du-a", `{"phase":"Failed","message":"data path error"}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer dms.Close()
	ol, err := DecodeOpList(KindBackup, []byte(ops))
	if err != nil {
		t.Fatal(err)
	}
	defer ol.Close()
	now, _ := time.Parse(time.RFC3339, "2024-05-01T12:00:00Z")
	opts := DefaultReconcileOptions(now)
	opts.Policy, _ = PolicyVeleroRelease(1, 14)
	var seen []string
	res, err := ol.ReconcileDataMover(context.Background(), dms, 1, 14, "", PluginClient{
		Progress: func(i int, op Operation) (OpProgress, error) {
			seen = append(seen, op.OperationID)
			return OpProgress{Completed: true}, nil
		}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "x-1" {
		t.Errorf("fallback saw %v", seen)
	}
	if res.Phase != PhaseFinalizingPartiallyFailed || len(res.Errors) != 1 ||
		res.Errors[0] != "data path error, plugin: velero.io/csi-pvc-backupper" {
		t.Errorf("%+v", res)
	}
	if _, err := ol.ReconcileDataMover(context.Background(), dms, 1, 11, "", PluginClient{}, opts); err == nil {
		t.Errorf("1.11 has no data mover")
	}
}
