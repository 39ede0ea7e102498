// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"errors"
	"strings"
	"testing"
)

// Issue 21: a repeated key's last value wins and an escaped key is its text,
// as Go's decoder (and so Velero and kubectl) reads them.
func TestDecodeBackupsKeysAsKubernetes(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"Failed","phase":"Completed"}}`, "Completed"},
		{`{"kind":"Backup","status":{"\u0070hase":"Completed"}}`, "Completed"},
		{`{"kind":"Backup","status":{"phase":"Failed","phase":null}}`, "Failed"},
	} {
		objs, skipped, err := DecodeBackups([]byte(c.text))
		if err != nil || skipped != 0 || len(objs) != 1 || objs[0].Phase == nil || *objs[0].Phase != c.want {
			t.Fatalf("%s: %+v %d %v", c.text, objs, skipped, err)
		}
		cond, err := BackupConditionsOf(objs[0].Kind, objs[0].Phase, false, nil)
		if err != nil || cond.Reason != c.want {
			t.Errorf("%s: conditions %+v %v", c.text, cond, err)
		}
	}
	objs, _, _ := DecodeBackups([]byte(`{"kind":"Backup","status":{"Phase":"Completed"}}`))
	if objs[0].Phase != nil {
		t.Errorf("Phase is not phase (case-sensitive): %q", *objs[0].Phase)
	}
	// the same duplicate in a BSL
	v, err := ServerStatus([]byte(`{"items":[{"metadata":{"name":"a"},"spec":{"default":true},`+
		`"status":{"phase":"Available","phase":"Unavailable"}}]}`), Options{})
	if err != nil || v.Status != ServerNotReady {
		t.Errorf("BSL duplicate: %v %v", v.Status, err)
	}
}

func TestDecodeBackupsFieldsAndErrors(t *testing.T) {
	objs, skipped, err := DecodeBackups([]byte(`{"kind":"List","items":[{"kind":"Restore","metadata":{"name":"r",` +
		`"deletionTimestamp":"1970-01-01T00:00:02Z","finalizers":["a",null],"generation":3},` +
		`"spec":{"backupName":"b"},"status":{"phase":"","errors":4,"restoreItemOperationsFailed":1}},{"kind":"Pod"}]}`))
	if err != nil || skipped != 1 || len(objs) != 1 {
		t.Fatalf("%+v %d %v", objs, skipped, err)
	}
	r := objs[0]
	if r.Kind != KindRestore || *r.Name != "r" || *r.DeletionTimeNs != 2e9 || *r.Generation != 3 ||
		*r.BackupName != "b" || *r.Phase != "" || *r.Errors != 4 || r.Warnings != nil ||
		*r.ItemOperationsFailed != 1 || len(r.Finalizers) != 2 || r.Finalizers[1] != "" {
		t.Errorf("%+v", r)
	}
	_, _, err = DecodeBackups([]byte("{\"kind\":\"Backup\",\n\"status\":{\"phase\":5}}"))
	var e *Error
	if !errors.Is(err, ErrSchema) || !errors.As(err, &e) || e.Line != 2 ||
		!strings.Contains(err.Error(), "status.phase: expected a string, got a number") {
		t.Errorf("wrong type: %v", err)
	}
}

func TestBackupConditions(t *testing.T) {
	pol, err := PolicyVeleroRelease(1, 17)
	if err != nil {
		t.Fatal(err)
	}
	q := "Queued"
	c, err := BackupConditionsOf(KindBackup, &q, false, pol)
	if err != nil || !c.PhaseValid || c.PhaseInRelease || c.Ready != ConditionUnknown || c.Reason != "UnknownPhase" {
		t.Errorf("%+v %v", c, err)
	}
	f := "PartiallyFailed"
	if c, _ := BackupConditionsOf(KindRestore, &f, false, nil); c.Stalled != ConditionTrue || c.Reconciling != ConditionFalse {
		t.Errorf("%+v", c)
	}
	if c, _ := BackupConditionsOf(KindBackup, nil, false, nil); c.Reason != "NoStatus" || c.Ready.String() != "False" {
		t.Errorf("%+v", c)
	}
	if _, err := BackupConditionsOf(Kind(7), nil, false, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("kind 7: %v", err)
	}
}

func TestWatchEvents(t *testing.T) {
	ev, err := DecodeWatchEvent([]byte(`{"type":"ADDED","object":{"a":1},"type":"DELETED","object":{"b":2}}`))
	if err != nil || ev.Type != WatchDeleted || string(ev.Object) != `{"b":2}` || ev.Type.String() != "DELETED" {
		t.Errorf("%+v %v", ev, err)
	}
	ev, err = DecodeWatchEvent([]byte(`{"type":"ERROR","object":{"kind":"Status","reason":"Expired","code":410}}`))
	if err != nil || ev.Type != WatchError || *ev.Reason != "Expired" || ev.Message != nil || *ev.Code != 410 {
		t.Errorf("%+v %v", ev, err)
	}
	if _, err := DecodeWatchEvent([]byte(`{"type":"SYNC","object":{}}`)); !errors.Is(err, ErrSchema) {
		t.Errorf("SYNC: %v", err)
	}
	if n, err := JSONValueEnd([]byte("{\"a\":1}\n{")); n != 7 || err != nil {
		t.Errorf("%d %v", n, err)
	}
	if _, err := JSONValueEnd([]byte(`{"a":}`)); !errors.Is(err, ErrParse) {
		t.Errorf("%v", err)
	}
}
