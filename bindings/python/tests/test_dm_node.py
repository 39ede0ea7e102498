# SPDX-License-Identifier: Apache-2.0
"""The node-agent's decisions (dm_decide): every row of
tests/data/releases/dm-node-agent.txt (the C suite's per-release cases),
replayed through the binding, and the binding's own argument handling."""

import json
import os

import pytest

import velstatus
from velstatus import DmAction, DmDecision, DmPhase, DmWhen, dm_decide, dm_prepare_timeout_default

ROWS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data", "releases", "dm-node-agent.txt")
PHASES = {"New": DmPhase.NEW, "Accepted": DmPhase.ACCEPTED, "Prepared": DmPhase.PREPARED,
          "InProgress": DmPhase.IN_PROGRESS, "Canceling": DmPhase.CANCELING, "Canceled": DmPhase.CANCELED,
          "Completed": DmPhase.COMPLETED, "Failed": DmPhase.FAILED, "Unknown": DmPhase.UNKNOWN}


def t(text):
    return velstatus.parse_time(text if len(text) >= 20 else "2024-05-01T%sZ" % text)


def releases(col):
    for part in col.split(","):
        lo, _, hi = part.partition("-")
        for minor in range(int(lo.split(".")[1]), int((hi or lo).split(".")[1]) + 1):
            yield (1, minor)


def parse(line):
    rel, obj, cfg, now, dec, msg, _source = line.split(" | ")
    kw = {"now": t(now)}
    words = obj.split(" ")
    kw["kind"] = "upload" if words[0] == "du" else "download"
    keys = {"ns": "namespace", "name": "name", "node": "node", "label": "accepted_by_label",
            "anno": "accepted_at_annotation"}
    for w in words[1:]:
        k, _, v = w.partition("=")
        if k == "phase":
            kw["phase"] = v
        elif k in ("cancel", "deleting"):
            kw[k] = True
        elif k in ("start", "accepted"):
            kw[k] = t(v)
        else:
            kw[keys[k]] = v
    for w in cfg.split(" "):
        k, _, v = w.partition("=")
        if k == "timeout":
            kw["prepare_timeout"] = velstatus.parse_duration(v)
        elif k == "restart":
            at, _, node = v.partition("@")
            kw["node_restart"] = (t(at), node)
        elif k == "server":
            kw["server_restart"] = t(v)
        elif k == "seen":
            kw["cancel_seen"] = t(v)
        elif k == "resume":
            kw["resume_error"] = v.replace("_", " ")
    d = dec.split(" ")
    want = {"action": DmAction[d[0].upper()], "when": DmWhen[d[1].upper()], "at": None}
    for w in d[2:]:
        k, _, v = w.partition("=")
        if k == "at":
            want["at"] = t(v)
        elif k == "after":
            want["phase_after"] = PHASES.get(v, DmPhase.UNKNOWN)
        elif k == "cancel":
            want["cancel_after"] = v == "1"
    want["message"] = msg[1:] if msg.startswith("=") else None
    return list(releases(rel)), kw, DmDecision(**want)


def rows():
    with open(ROWS, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                yield n, line


@pytest.mark.parametrize("lineno,line", list(rows()))
def test_release_rows(lineno, line):
    rels, kw, want = parse(line)
    for rel in rels:
        got = dm_decide(release=rel, **kw)
        assert got == want, "line %d at %d.%d" % (lineno, rel[0], rel[1])


def test_rows_cover_every_release():
    seen = set()
    for _n, line in rows():
        seen.update(parse(line)[0])
    assert seen == {(1, m) for m in range(12, 19)}


def test_prepare_timeout_and_tokens():
    assert dm_prepare_timeout_default((1, 15)) == 30 * 60 * 10**9
    assert str(DmAction.SET_CANCEL) == "set_cancel" and str(DmWhen.AT) == "at"
    with pytest.raises(velstatus.InvalidArgument, match="1.11 has no data mover"):
        dm_prepare_timeout_default((1, 11))


def test_decision_fields():
    d = dm_decide(kind="upload", phase="Accepted", accepted=t("08:05:21"), now=t("08:10:00"), release=(1, 18))
    assert d.action == DmAction.FAIL and d.when == DmWhen.AT and d.at == t("08:35:21")
    assert d.phase_after == DmPhase.FAILED and d.cancel_after is False
    assert d.message == "timeout on preparing data upload"
    # a DmPhase is accepted for the phase, and a custom timeout moves the instant
    d = dm_decide(kind=velstatus.DmKind.DOWNLOAD, phase=DmPhase.ACCEPTED, accepted=t("08:05:21"),
                  now=t("08:10:00"), release=(1, 16), prepare_timeout=10 * 60 * 10**9)
    assert d.at == t("08:15:21") and d.message == "timeout on preparing data download"


def test_refused():
    with pytest.raises(velstatus.InvalidArgument, match="Velero 1.19 is not supported"):
        dm_decide(kind="upload", phase="", now=0, release=(1, 19))
    with pytest.raises(velstatus.InvalidArgument, match="prepare_timeout_ns is negative"):
        dm_decide(kind="upload", phase="", now=0, release=(1, 18), prepare_timeout=-1)
    with pytest.raises(velstatus.InvalidArgument, match="without a restart_node"):
        dm_decide(kind="upload", phase="", now=0, release=(1, 18), node_restart=(5, ""))
    with pytest.raises(velstatus.RangeError, match="more than 1023"):
        dm_decide(kind="upload", phase="InProgress", node="n", now=0, release=(1, 18),
                  node_restart=(0, "n"), resume_error="x" * 2000)


def test_timeline():
    # 1.15 writes the accept instant in whole seconds: the timeout comes half a second early
    events = velstatus.dm_timeline(kind="download", phase="", now=t("08:00:00.5"), release=(1, 15))
    assert [(e.action, e.at) for e in events] == [(DmAction.ACCEPT, t("08:00:00.5")), (DmAction.FAIL, t("08:30:00"))]
    assert events[1].message == "timeout on preparing data download"
    # a restart cancels, and the Accepted object is canceled at once (1.16)
    events = velstatus.dm_timeline(kind="upload", phase="Accepted", accepted=t("08:05:21"), now=t("08:10:00"),
                                   release=(1, 16), node_restart=(t("08:20:00"), "node-9"))
    assert [(e.action, e.at, e.message) for e in events] == [
        (DmAction.SET_CANCEL, t("08:20:00"),
         "Dataupload is in Accepted status during the node-agent starting, mark it as cancel"),
        (DmAction.CANCELED, t("08:20:00"), None)]
    assert velstatus.dm_timeline(kind="upload", phase="Completed", now=0, release=(1, 18)) == []


def _object_json(kw):
    """The row's object as kubectl prints it (a DataUpload or DataDownload)."""
    meta, status = {}, {"phase": kw.get("phase", "")}
    for key, field in (("namespace", "namespace"), ("name", "name")):
        if key in kw:
            meta[field] = kw[key]
    if kw.get("deleting"):
        meta["deletionTimestamp"] = "2024-05-01T07:00:00Z"
    if "accepted_by_label" in kw:
        meta["labels"] = {"velero.io/accepted-by": kw["accepted_by_label"]}
    if "accepted_at_annotation" in kw:
        meta["annotations"] = {"velero.io/accepted-at": kw["accepted_at_annotation"]}
    if "node" in kw:
        status["node"] = kw["node"]
    for key, field in (("start", "startTimestamp"), ("accepted", "acceptedTimestamp")):
        if key in kw:
            status[field] = velstatus.format_time(kw[key])
    return json.dumps({"apiVersion": "velero.io/v2alpha1",
                       "kind": "DataUpload" if kw["kind"] == "upload" else "DataDownload",
                       "metadata": meta, "spec": {"cancel": bool(kw.get("cancel"))}, "status": status})


CONFIG = ("prepare_timeout", "node_restart", "server_restart", "cancel_seen", "resume_error")


@pytest.mark.parametrize("lineno,line", list(rows()))
def test_release_rows_through_next(lineno, line):
    """Each row's object decoded (DataMoverList) decides through next() as its fields do."""
    rels, kw, want = parse(line)
    with velstatus.DataMoverList.from_json(_object_json(kw)) as dms:
        assert len(dms) == 1
        cfg = {k: kw[k] for k in CONFIG if k in kw}
        for rel in rels:
            got = dms.next(0, now=kw["now"], release=rel, **cfg)
            assert got == want, "line %d at %d.%d" % (lineno, rel[0], rel[1])
            assert dms.next(0, now=kw["now"], release="%d.%d.3" % rel, **cfg) == want


def test_next_refused():
    dms = velstatus.DataMoverList.from_json('{"kind":"DataUpload","metadata":{"name":"du-1"},'
                                            '"status":{"phase":"Accepted"}}')
    with pytest.raises(velstatus.InvalidArgument, match="index"):
        dms.next(1, now=0, release=(1, 18))
    with pytest.raises(velstatus.InvalidArgument, match="1.11 has no data mover"):
        dms.next(0, now=0, release=(1, 11))
    dms.close()
    with pytest.raises(velstatus.StateError):
        dms.next(0, now=0, release=(1, 18))


# The case of doc/explain.md "read-only storage" (tests/data/explain/readonly-*): the CSI PVC
# operation, New, and its DataUpload Accepted at 08:05:21, no node-agent taking it.
EXPLAIN = os.path.join(os.path.dirname(ROWS), "..", "explain")
OP_ID = "du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx"
ACCEPTED_DU = json.dumps({
    "apiVersion": "velero.io/v2alpha1", "kind": "DataUpload",
    "metadata": {"name": "longhorn-backup-datamover-lthkx", "namespace": "velero",
                 "labels": {"velero.io/async-operation-id": OP_ID}},
    "status": {"phase": "Accepted", "acceptedTimestamp": "2025-01-07T08:05:21Z",
               "startTimestamp": "2025-01-07T08:05:21Z"}})


def _day(hms):
    return velstatus.parse_time("2025-01-07T%sZ" % hms)


def test_dm_instants_prepare_timeout():
    with open(os.path.join(EXPLAIN, "readonly-itemoperations.json"), encoding="utf-8") as f:
        ops = velstatus.OpList.from_json(f.read(), "backup")
    dms = velstatus.DataMoverList.from_json(ACCEPTED_DU)
    # 1.16 on: the prepare timeout (30m by default) runs from status.acceptedTimestamp
    assert ops.dm_instants(dms, now=_day("08:10:00"), release=(1, 18)) == [_day("08:35:21")]
    assert ops.dm_instants(dms, now=_day("08:10:00"), release="1.16", velero_namespace="velero",
                           prepare_timeout=10 * 60 * 10**9) == [_day("08:15:21")]
    # 1.12 to 1.14 read status.startTimestamp: the same instant here
    assert ops.dm_instants(dms, now=_day("08:10:00"), release=(1, 13)) == [_day("08:35:21")]
    # at that very instant the failure is due now: the instant is still listed (from `now` on)
    assert ops.dm_instants(dms, now=_day("08:35:21"), release=(1, 18)) == [_day("08:35:21")]
    # another Velero namespace: the plugin finds no object, nothing to come
    assert ops.dm_instants(dms, now=_day("08:10:00"), release=(1, 18), velero_namespace="backup") == []
    # the DataUpload as next() sees it: fails at 08:35:21 with the node-agent's message
    d = dms.next(0, now=_day("08:10:00"), release=(1, 18))
    assert (d.action, d.at, d.message) == (DmAction.FAIL, _day("08:35:21"), "timeout on preparing data upload")
    with pytest.raises(velstatus.InvalidArgument, match="1.11 has no data mover"):
        ops.dm_instants(dms, now=0, release=(1, 11))
    dms.close()
    with pytest.raises(velstatus.StateError):
        ops.dm_instants(dms, now=0, release=(1, 18))


def test_dm_instants_shared_context():
    ctx = velstatus.Context()
    with open(os.path.join(EXPLAIN, "readonly-itemoperations.json"), encoding="utf-8") as f:
        ops = velstatus.OpList.from_json(f.read(), "backup", ctx=ctx)
    dms = velstatus.DataMoverList.from_json(ACCEPTED_DU, ctx=ctx)
    assert ops.dm_instants(dms, now=_day("08:10:00"), release=(1, 17)) == [_day("08:35:21")]


def test_forecast_dm_prepare_timeout():
    """The forecast over the operation and its DataUpload: the prepare timeout fails the
    DataUpload at 08:35:21 and that pass fails the operation (forecast() alone waits for the
    operation's own 4h timeout)."""
    with open(os.path.join(EXPLAIN, "readonly-itemoperations.json"), encoding="utf-8") as f:
        ops = velstatus.OpList.from_json(f.read(), "backup")
    dms = velstatus.DataMoverList.from_json(ACCEPTED_DU)
    fc = ops.forecast_dm(dms, release=(1, 18), now=_day("08:10:00"), policy=velstatus.Policy.velero_release((1, 18)))
    assert [e.at for e in fc.events] == [_day("08:35:21")]
    assert str(fc.operations[0].fate) == "error_fails" and fc.final_phase == velstatus.Phase.FINALIZING_PARTIALLY_FAILED
    plain = ops.forecast(now=_day("08:10:00"), policy=velstatus.Policy.velero_release((1, 18)))
    assert str(plain.operations[0].fate) == "times_out" and plain.events[-1].at == _day("12:05:21") + 1
    # 1.15 counts from the velero.io/accepted-at annotation, which this object lacks
    fc = ops.forecast_dm(dms, release="1.15", now=_day("08:10:00"), prepare_timeout=10 * 60 * 10**9)
    assert str(fc.operations[0].fate) == "times_out"
    fc = ops.forecast_dm(dms, release="1.16", now=_day("08:10:00"), prepare_timeout=10 * 60 * 10**9)
    assert [e.at for e in fc.events] == [_day("08:15:21")]
    with pytest.raises(velstatus.InvalidArgument, match="1.11 has no data mover"):
        ops.forecast_dm(dms, release=(1, 11), now=_day("08:10:00"))


SNAP_OPS = json.dumps([{
    "spec": {"backupName": "b", "backupItemAction": "velero.io/csi-volumesnapshot-backupper",
             "operationID": "app/snap-1/2025-01-07T08:05:21Z"},
    "status": {"phase": "InProgress", "created": "2025-01-07T08:05:21Z"}}])


def _snapshots(content_status, ctx=None):
    return velstatus.SnapshotList(json.dumps([
        {"kind": "VolumeSnapshot", "metadata": {"name": "snap-1", "namespace": "app"},
         "status": {"boundVolumeSnapshotContentName": "snapcontent-1", "readyToUse": False}},
        {"kind": "VolumeSnapshotContent", "metadata": {"name": "snapcontent-1"}, "status": content_status}]), ctx)


def test_forecast_dm_snapshots():
    """The VolumeSnapshot plugin's operation answered from the snapshot list: from 1.14 a
    content with an error fails it at the next pass with the message, a ready one completes it
    then; 1.13 reads only the VolumeSnapshot (not ready): the operation's timeout. Without the
    list (forecast()) it keeps its record and times out."""
    ops = velstatus.OpList.from_json(SNAP_OPS, "backup")
    err = {"readyToUse": False, "error": {"message": "Failed to check and update snapshot content"}}
    pol = velstatus.Policy.velero_release((1, 18))
    fc = ops.forecast_dm(snapshots=_snapshots(err), release=(1, 18), now=_day("08:10:00"), policy=pol)
    assert [e.at for e in fc.events] == [_day("08:10:00")]
    assert str(fc.operations[0].fate) == "error_fails" and fc.final_phase == velstatus.Phase.FINALIZING_PARTIALLY_FAILED
    fc = ops.forecast_dm(snapshots=_snapshots({"readyToUse": True}), release="1.14", now=_day("08:10:00"), policy=pol)
    assert [e.at for e in fc.events] == [_day("08:10:00")] and fc.final_phase == velstatus.Phase.FINALIZING
    fc = ops.forecast_dm(snapshots=_snapshots({"readyToUse": True}), release="1.13", now=_day("08:10:00"), policy=pol)
    assert str(fc.operations[0].fate) == "times_out" and fc.events[-1].at == _day("12:05:21") + 1
    # with the DataUploads too, sharing one context: the same answer
    ctx = velstatus.Context()
    ops = velstatus.OpList.from_json(SNAP_OPS, "backup", ctx=ctx)
    dms = velstatus.DataMoverList.from_json(ACCEPTED_DU, ctx=ctx)
    fc = ops.forecast_dm(dms, snapshots=_snapshots(err, ctx), release=(1, 16), now=_day("08:10:00"), policy=pol)
    assert str(fc.operations[0].fate) == "error_fails" and [e.at for e in fc.events] == [_day("08:10:00")]
    with pytest.raises(velstatus.InvalidArgument, match="dms and snapshots are both NULL"):
        ops.forecast_dm(release=(1, 18), now=_day("08:10:00"))
    snaps = _snapshots(err)
    snaps.close()
    with pytest.raises(velstatus.StateError):
        ops.forecast_dm(snapshots=snaps, release=(1, 18), now=_day("08:10:00"))
