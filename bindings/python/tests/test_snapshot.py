# SPDX-License-Identifier: Apache-2.0
"""CSI snapshots without the data mover: the decoder, the VolumeSnapshot
plugin's and the VolumeSnapshotContent action's answers per release, and the
library's plugin client in a pass."""

import json
import os

import pytest

import velstatus
from velstatus import (Kind, OpList, OpReport, Phase, Progress, SchemaError, SnapshotClient, SnapshotField,
                       SnapshotKind, SnapshotList)

NOW = "2024-05-01T12:00:00Z"
GRPC = "rpc error: code = Unknown desc = "


def _read(srcdir, rel):
    with open(os.path.join(srcdir, "tests", "data", rel), "rb") as f:
        return f.read()


def test_kubectl_list(srcdir):
    snaps = SnapshotList(_read(srcdir, "snapshot/volumesnapshots-during-backup.json"))
    assert len(snaps.objects) == 4 and snaps.skipped == 0
    vs, bad, vsc = snaps.objects[0], snaps.objects[1], snaps.objects[2]
    assert vs.kind is SnapshotKind.VOLUME_SNAPSHOT and vs.namespace == "app" and vs.ready_to_use is True
    assert vs.restore_size == "1Gi" and vs.backup_name_label == "nightly" and vs.source_pvc == "data-0"
    assert vs.creation_time == velstatus.time_ns("2024-05-01T10:00:05Z")
    assert bad.has_error and "snapshot quota exceeded" in bad.error_message and bad.ready_to_use is False
    assert vsc.kind is SnapshotKind.CONTENT and vsc.restore_size == 1073741824 and vsc.namespace is None
    assert vsc.creation_time == 1714557605123456789 and vsc.driver == "hostpath.csi.k8s.io"
    assert snaps.find("volume_snapshot_content", None, vsc.name) == 2
    assert snaps.find(SnapshotKind.VOLUME_SNAPSHOT, "other", vs.name) is None
    # 1.16 reads the bound content: the first is done, the second's VolumeSnapshot error is "temporary" (#9674)
    done = snaps.progress("app/%s/2024-05-01T10:00:04Z" % vs.name, now=NOW, release="1.16")
    assert done.completed and done.err == "" and done.updated == velstatus.time_ns(NOW)
    assert done.started == velstatus.time_ns("2024-05-01T10:00:04Z")
    waiting = snaps.progress("app/%s/2024-05-01T10:00:06Z" % bad.name, now=NOW, release=(1, 16))
    assert not waiting.completed and waiting.report is OpReport.PROGRESS and waiting.updated is None
    snaps.close()
    snaps.close()
    with pytest.raises(velstatus.StateError):
        snaps.find("volume_snapshot", "app", "x")


def test_watch_stream_and_fields(srcdir):
    snaps = SnapshotList(_read(srcdir, "snapshot/volumesnapshots-v1beta1-watch.json"))
    assert len(snaps.objects) == 1 and snaps.skipped == 0  # its BOOKMARK changes nothing
    assert snaps.objects[0].api_version == "snapshot.storage.k8s.io/v1beta1"
    assert [str(f) for f in SnapshotField][:3] == ["api_version", "name", "namespace"]
    assert set(SnapshotField) and all(f.value in snaps.objects[0]._fields for f in SnapshotField)


def test_errors_name_the_field():
    with pytest.raises(SchemaError) as e:
        SnapshotList('{"kind":"VolumeSnapshot","status":{"readyToUse":"yes"}}')
    assert "status.readyToUse: expected a boolean, got a string" in str(e.value)
    with pytest.raises(velstatus.ParseError):
        SnapshotList('{"kind":"VolumeSnapshot"} {')


@pytest.mark.parametrize("release, completed, err", [
    ("1.13", True, ""),       # 1.12 and 1.13 read the VolumeSnapshot only
    ("1.14", True, "error"),  # 1.14 on: the content's error completes it with Err
])
def test_progress_per_release(release, completed, err):
    snaps = SnapshotList(json.dumps([
        {"kind": "VolumeSnapshot", "metadata": {"name": "name", "namespace": "ns"},
         "status": {"readyToUse": True, "boundVolumeSnapshotContentName": "vsc"}},
        {"kind": "VolumeSnapshotContent", "metadata": {"name": "vsc"}, "status": {"error": {"message": "error"}}}]))
    p = snaps.progress("ns/name/2024-04-11T18:49:00+08:00", now=NOW, release=release)
    assert (p.completed, p.err) == (completed, err)
    assert p.started == velstatus.time_ns("2024-04-11T10:49:00Z")


def test_progress_errors():
    snaps = SnapshotList("[]")
    p = snaps.progress("ns/name/2024-04-11T18:49:00Z", now=NOW)
    assert p.report is OpReport.PROGRESS_ERROR
    assert p.err == GRPC + 'volumesnapshots.snapshot.storage.k8s.io "name" not found'
    assert p.started is None
    p = snaps.progress("ns/name/invalid", now=NOW, release="1.12")
    assert p.err == GRPC + 'parsing time "invalid" as "2006-01-02T15:04:05Z07:00": cannot parse "invalid" as "2006"'
    assert snaps.progress("", now=NOW, kind=Kind.RESTORE, release="1.13").err == GRPC + "operation ID  is invalid"
    assert snaps.progress("x", now=NOW, release="1.11").err == "Plugin does not support asynchronous operations"
    with pytest.raises(velstatus.InvalidArgument) as e:
        snaps.progress("x", now=NOW, release="1.10")
    assert "Velero 1.10 is not supported" in str(e.value)


# The VolumeSnapshotContent action (velero.io/csi-volumesnapshotcontent-backupper): 1.12 and 1.13
# read the content (its error, velero #7356's failure, completes with the message), 1.14 on give
# an empty progress, 1.11 Velero's own text.
CONTENTS = json.dumps([{"kind": "VolumeSnapshotContent", "metadata": {"name": "c-1"},
                        "status": {"readyToUse": False, "error": {"message": "snapshot quota exceeded"}}}])


@pytest.mark.parametrize("release, completed, err, started", [
    ("1.12", True, "snapshot quota exceeded", True),
    ("1.13", True, "snapshot quota exceeded", True),
    ("1.14", False, "", False),
    ("1.18", False, "", False),
])
def test_content_progress_per_release(release, completed, err, started):
    p = SnapshotList(CONTENTS).content_progress("c-1/2024-04-11T18:49:00+08:00", release=release)
    assert p.report is OpReport.PROGRESS
    assert (p.completed, p.err) == (completed, err)
    assert p.started == (velstatus.time_ns("2024-04-11T10:49:00Z") if started else None)
    assert p.updated is None


def test_content_progress_errors():
    snaps = SnapshotList(CONTENTS)
    p = snaps.content_progress("c-1/invalid", release="1.12")
    assert p.report is OpReport.PROGRESS_ERROR
    assert p.err == GRPC + ('fail to parse StartedTime: parsing time "invalid" as "2006-01-02T15:04:05Z07:00": '
                            'cannot parse "invalid" as "2006"')
    assert snaps.content_progress("c-2/2024-04-11T18:49:00Z").err == \
        GRPC + 'volumesnapshotcontents.snapshot.storage.k8s.io "c-2" not found'
    assert snaps.content_progress("ns/c-1/2024-04-11T18:49:00Z").err == \
        GRPC + "operation ID ns/c-1/2024-04-11T18:49:00Z is invalid"
    assert snaps.content_progress("x", release="1.11").err == "Plugin does not support asynchronous operations"
    with pytest.raises(velstatus.InvalidArgument):
        snaps.content_progress("x", release="1.19")


def test_client_answers_the_content_action():
    ops = OpList.from_json(json.dumps([
        {"spec": {"backupName": "b", "backupItemAction": "velero.io/csi-volumesnapshotcontent-backupper",
                  "operationID": "c-1/2024-05-01T10:00:00Z"},
         "status": {"phase": "InProgress", "created": "2024-05-01T10:00:00Z"}}]), Kind.BACKUP)
    client = SnapshotClient(SnapshotList(CONTENTS), now=NOW, release="1.13")
    r = ops.reconcile(client, now=NOW, policy=velstatus.Policy.velero_release("1.13"))
    assert r.failed == 1 and r.phase is Phase.FINALIZING_PARTIALLY_FAILED
    assert list(r.errors) == ["snapshot quota exceeded, plugin: velero.io/csi-volumesnapshotcontent-backupper"]


OPS = json.dumps([
    {"spec": {"backupName": "b", "backupUID": "u", "backupItemAction": "velero.io/csi-volumesnapshot-backupper",
              "resourceIdentifier": {"Group": "snapshot.storage.k8s.io", "Resource": "volumesnapshots",
                                     "Namespace": "app", "Name": "vs-1"},
              "operationID": "app/vs-1/2024-05-01T10:00:00Z"},
     "status": {"phase": "InProgress", "created": "2024-05-01T10:00:00Z"}},
    {"spec": {"backupName": "b", "backupUID": "u", "backupItemAction": "example.io/other",
              "resourceIdentifier": {"Group": "", "Resource": "pods", "Namespace": "app", "Name": "p"},
              "operationID": "op-2"},
     "status": {"phase": "InProgress", "created": "2024-05-01T10:00:00Z"}}])

CLUSTER = json.dumps({"kind": "List", "items": [
    {"kind": "VolumeSnapshot", "metadata": {"name": "vs-1", "namespace": "app"},
     "status": {"readyToUse": True, "boundVolumeSnapshotContentName": "c-1"}},
    {"kind": "VolumeSnapshotContent", "metadata": {"name": "c-1"}, "status": {"readyToUse": True}}]})


def test_client_in_a_reconcile_pass():
    seen = []

    def other(op):
        seen.append(op.operation_id)
        return Progress(completed=True)

    ops = OpList.from_json(OPS, Kind.BACKUP)
    snaps = SnapshotList(CLUSTER)
    client = SnapshotClient(snaps, now=NOW, release="1.18", fallback=other)
    r = ops.reconcile(client, now=NOW, policy=velstatus.Policy.velero_release("1.18"))
    assert seen == ["op-2"]
    assert (r.completed, r.failed) == (2, 0) and r.phase is Phase.FINALIZING
    # without a fallback the other plugin cannot be obtained
    ops = OpList.from_json(OPS, Kind.BACKUP)
    r = ops.reconcile(SnapshotClient(snaps, now=NOW), now=NOW, policy=velstatus.Policy.velero_release("1.18"))
    assert r.failed == 1 and any("example.io/other" in e for e in r.errors)


def test_fallback_exception_propagates():
    def boom(op):
        raise KeyError("host")

    ops = OpList.from_json(OPS, Kind.BACKUP)
    with pytest.raises(KeyError):
        ops.reconcile(SnapshotClient(SnapshotList(CLUSTER), now=NOW, fallback=boom), now=NOW)
