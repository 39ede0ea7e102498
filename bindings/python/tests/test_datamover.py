# SPDX-License-Identifier: Apache-2.0
"""DataMoverList (the DataUpload/DataDownload decoder), the CSI PVC plugin's
Progress and Cancel per release, and DataMoverClient under OpList.reconcile."""

import os

import pytest
import velstatus as vs

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data")


def oadp_list():
    # the DataUpload and DataDownload pasted in openshift/oadp-operator #1482
    with open(os.path.join(DATA, "datamover", "oadp-1482-list.json"), "rb") as f:
        return vs.DataMoverList.from_json(f.read())


def du(ns, name, oid, status=None, kind="DataUpload"):
    s = ',"status":%s' % status if status else ""
    return ('{"kind":"%s","metadata":{"namespace":"%s","name":"%s","labels":{"velero.io/async-operation-id":"%s"}}%s}'
            % (kind, ns, name, oid, s))


def test_decoder_reads_what_users_paste():
    with oadp_list() as dms:
        assert len(dms) == 2 and dms.skipped == 0
        up, down = dms[0], dms[1]
        assert up.kind is vs.DmKind.UPLOAD and up.phase is vs.DmPhase.COMPLETED
        assert up.text["operation_id"] == "du-890610ca-26f9-451f-b855-a057d2950351.cc85de73-69bc-49c72363e"
        assert up.text["namespace"] == "openshift-adp" and up.text["volume_snapshot"] == "velero-mongo-x64kh"
        assert "message" not in up.text and "started" not in up.time_ns
        assert up.time_ns["created"] == vs.parse_time("2024-08-13T17:22:02Z")
        assert up.ints["generation"] == 11
        assert down.kind == "download" and down.text["target_pv"] == ""
        assert down.ints["bytes_done"] == down.ints["total_bytes"] == 10737418240
        assert [o.index for o in dms] == [0, 1] and dms[-1] == down
        with pytest.raises(IndexError):
            dms[2]
    with pytest.raises(vs.StateError):
        len(dms)


def test_decoder_errors_and_streams():
    with pytest.raises(vs.SchemaError) as e:
        vs.DataMoverList.from_json('{"items":[{"kind":"DataUpload","spec":{"cancel":"yes"}}]}')
    assert "items[0].spec.cancel: expected a boolean" in str(e.value)
    with pytest.raises(vs.ParseError):
        vs.DataMoverList.from_json('{"kind":"DataUpload"')
    stream = ('{"type":"ADDED","object":%s}{"type":"MODIFIED","object":%s}{"type":"DELETED","object":%s}'
              % (du("velero", "a", "x", '{"phase":"Accepted"}'), du("velero", "a", "x", '{"phase":"Failed"}'),
                 du("velero", "b", "y")))
    dms = vs.DataMoverList.from_json(stream)
    assert [(o.text["name"], o.phase) for o in dms] == [("a", vs.DmPhase.FAILED)]


def test_enums_match_the_header():
    assert str(vs.DmPhase.IN_PROGRESS) == "InProgress" and vs.DmPhase("Canceled").c == 5
    assert vs.DmText.NAMES["operation_id"] == 3 and vs.DmInt.NAMES["cancel"] == 5
    assert set(vs.DmTime.NAMES) == {"created", "deleted", "started", "completed", "accepted"}


@pytest.mark.parametrize("release", ["1.12", "1.13", "1.14", "1.15", "1.16", "1.17", "1.18"])
def test_progress_and_cancel_per_release(release):
    dms = vs.DataMoverList.from_json(
        "[%s,%s]" % (du("velero", "testing", "testing",
                        '{"phase":"Failed","progress":{"bytesDone":1000,"totalBytes":1000},"message":"Testing error",'
                        '"startTimestamp":"2024-05-01T11:59:00Z"}'),
                     du("other", "elsewhere", "other-ns", '{"phase":"InProgress"}')))
    p = dms.progress("upload", "testing", release=release)
    assert (p.completed, p.err, p.n_completed, p.n_total, p.operation_units, p.description) == (
        True, "Testing error", 1000, 1000, "Bytes", "Failed")
    assert p.started == vs.parse_time("2024-05-01T11:59:00Z") and p.updated is None
    assert p.report is vs.OpReport.PROGRESS
    assert dms.cancel("upload", "testing", release=release) == (0, None)
    # a DataUpload outside Velero's namespace: found where the plugin lists every namespace
    every_ns = release in ("1.13", "1.14", "1.15", "1.16", "1.17")
    p = dms.progress("upload", "other-ns", release=release)
    if every_ns:
        assert p.report is vs.OpReport.PROGRESS and p.description == "InProgress" and not p.completed
        assert dms.find("upload", "other-ns", release=release) == (1, 1)
    else:
        assert p.report is vs.OpReport.PROGRESS_ERROR
        assert p.err == "rpc error: code = Unknown desc = not found DataUpload for operationID other-ns"
        assert dms.find("upload", "other-ns", release=release) == (None, 0)
    assert dms.cancel("download", "testing", release=release) == (
        None, "rpc error: code = Unknown desc = didn't find DataDownload")


def test_release_1_11_has_no_data_mover():
    dms = vs.DataMoverList.from_json("[]")
    with pytest.raises(vs.InvalidArgument) as e:
        dms.progress("upload", "x", release="1.11")
    assert "Velero 1.11 has no data mover" in str(e.value)
    with pytest.raises(vs.InvalidArgument):
        dms.find("upload", "x", release=(1, 19))
    with pytest.raises(vs.InvalidArgument):
        dms.find("upload", "a,b", release="1.18")  # not a label value


BACKUP_OPS = (
    '[{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"velero.io/csi-pvc-backupper",'
    '"resourceIdentifier":{"Group":"","Resource":"persistentvolumeclaims","Namespace":"app","Name":"d0"},'
    '"operationID":"du-a"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}},'
    '{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"velero.io/csi-pvc-backupper",'
    '"resourceIdentifier":{"Group":"","Resource":"persistentvolumeclaims","Namespace":"app","Name":"d1"},'
    '"operationID":"du-b"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}},'
    '{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"example.io/other",'
    '"resourceIdentifier":{"Group":"","Resource":"pods","Namespace":"app","Name":"p"},'
    '"operationID":"x-1"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]')


def test_client_under_reconcile():
    dms = vs.DataMoverList.from_json("[%s,%s]" % (
        du("velero", "a", "du-a", '{"phase":"Completed","progress":{"bytesDone":10,"totalBytes":10}}'),
        du("velero", "b", "du-b", '{"phase":"Canceled"}')))
    seen = []

    def other(op):
        seen.append(op.operation_id)
        return vs.Progress(completed=True)

    ops = vs.OpList.from_json(BACKUP_OPS, "backup")
    r = ops.reconcile(vs.DataMoverClient(dms, release="1.14", fallback=other), now="2024-05-01T12:00:00Z",
                      policy=vs.Policy.velero_release("1.14"))
    assert seen == ["x-1"]
    assert r.phase is vs.Phase.FINALIZING_PARTIALLY_FAILED
    assert r.errors == ("DataUpload is canceled, plugin: velero.io/csi-pvc-backupper",)
    assert ops[0].phase == "Completed" and ops[0].n_total == 10 and ops[0].description == "Completed"

    # without a fallback the other plugin cannot be obtained
    ops = vs.OpList.from_json(BACKUP_OPS, "backup")
    r = ops.reconcile(vs.DataMoverClient(dms, release=(1, 14)), now="2024-05-01T12:00:00Z",
                      policy=vs.Policy.velero_release("1.14"))
    assert r.errors[-1] == 'unable to get valid BackupItemActionV2 for "example.io/other", plugin: unknown'


def test_client_chained_to_the_snapshot_client():
    """DataUploads, then VolumeSnapshots, then the host: the chain the CLI's reconcile builds."""
    dms = vs.DataMoverList.from_json("[%s,%s]" % (
        du("velero", "a", "du-a", '{"phase":"Completed","progress":{"bytesDone":10,"totalBytes":10}}'),
        du("velero", "b", "du-b", '{"phase":"InProgress"}')))
    ops_json = BACKUP_OPS[:-1] + (
        ',{"spec":{"backupName":"b","backupUID":"u","backupItemAction":"velero.io/csi-volumesnapshot-backupper",'
        '"resourceIdentifier":{"Group":"snapshot.storage.k8s.io","Resource":"volumesnapshots","Namespace":"app",'
        '"Name":"vs-1"},"operationID":"app/vs-1/2024-05-01T10:00:04Z"},'
        '"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]')
    snaps = vs.SnapshotList('{"kind":"List","items":[{"kind":"VolumeSnapshot","metadata":{"name":"vs-1",'
                            '"namespace":"app"},"status":{"readyToUse":true,"boundVolumeSnapshotContentName":"c-1"}},'
                            '{"kind":"VolumeSnapshotContent","metadata":{"name":"c-1"},"status":{"readyToUse":true}}]}')
    seen = []

    def other(op):
        seen.append(op.operation_id)
        return vs.Progress(completed=True)

    now = "2024-05-01T12:00:00Z"
    chain = vs.DataMoverClient(dms, release="1.16", fallback=vs.SnapshotClient(snaps, now=now, release="1.16",
                                                                               fallback=other))
    ops = vs.OpList.from_json(ops_json, "backup")
    r = ops.reconcile(chain, now=now, policy=vs.Policy.velero_release("1.16"))
    assert seen == ["x-1"]  # the host saw only the operation neither client answers
    assert [op.phase for op in ops] == ["Completed", "InProgress", "Completed", "Completed"]
    assert (r.completed, r.failed) == (3, 0) and r.phase is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS
    with pytest.raises(TypeError):
        ops.reconcile(chain, lambda op: None, now=now)
