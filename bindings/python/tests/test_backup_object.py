# SPDX-License-Identifier: Apache-2.0
"""decode_backups, backup_conditions, watch_event and json_value_end: the
library's decoders, with keys read as Kubernetes reads them (issue 21: a
repeated key's last value wins, an escaped key is its text); ServerReason
as an IntFlag; no import cycle between the package's modules."""

import importlib

import pytest
import velstatus as vs


def one(text):
    got = vs.decode_backups(text)
    assert got.skipped == 0 and len(got.objects) == 1, got
    return got.objects[0]


def test_issue_21_reproductions():
    b = one('{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"Failed","phase":"Completed"}}')
    assert b.phase == "Completed"  # Go's decoder (Velero, kubectl) reads the last
    assert one(r'{"kind":"Backup","status":{"\u0070hase":"Completed"}}').phase == "Completed"
    assert one('{"kind":"Backup","status":{"Phase":"Completed"}}').phase is None  # case-sensitive
    assert one('{"kind":"Backup","status":{"phase":"Failed","phase":null}}').phase == "Failed"
    c = vs.backup_conditions(b.kind, b.phase)
    assert (c.ready, c.reconciling, c.stalled, c.reason) == (
        vs.ConditionStatus.TRUE, vs.ConditionStatus.FALSE, vs.ConditionStatus.FALSE, "Completed")
    # the same duplicate in a BSL
    v = vs.server_status('{"items":[{"metadata":{"name":"a"},"spec":{"default":true},'
                         '"status":{"phase":"Available","phase":"Unavailable"}}]}')
    assert v.status == vs.ServerStatus.NOT_READY


def test_every_field_and_skipped_kinds():
    r = one('{"kind":"Restore","metadata":{"name":"r\\u0000x","namespace":"velero","generation":2,'
            '"deletionTimestamp":"1970-01-01T00:00:01Z","finalizers":["a",null]},'
            '"spec":{"backupName":"b","storageLocation":"default","itemOperationTimeout":"1h"},'
            '"status":{"phase":"InProgress","errors":3,"restoreItemOperationsCompleted":4}}')
    assert r.kind == vs.Kind.RESTORE and r.name == "r\x00x" and r.namespace == "velero"
    assert r.deletion_time_ns == 1_000_000_000 and r.finalizers == ("a", "") and r.generation == 2
    assert (r.backup_name, r.storage_location, r.item_operation_timeout) == ("b", "default", "1h")
    assert (r.errors, r.warnings, r.item_operations_completed, r.item_operations_failed) == (3, None, 4, None)
    got = vs.decode_backups(b'{"kind":"List","items":[{"kind":"Backup"},{"kind":"Schedule"},{"kind":"Restore"}]}')
    assert [o.kind for o in got.objects] == [vs.Kind.BACKUP, vs.Kind.RESTORE] and got.skipped == 1


def test_errors_name_the_field():
    with pytest.raises(vs.SchemaError) as e:
        vs.decode_backups('{"kind":"Backup",\n"status":{"phase":5}}')
    assert "status.phase: expected a string, got a number" in str(e.value)
    assert e.value.line == 2
    with pytest.raises(vs.ParseError):
        vs.decode_backups('{"kind":"Backup",')


def test_conditions():
    c = vs.backup_conditions("backup", "Queued", policy=vs.Policy.velero_release("1.17"))
    assert c.phase_valid and not c.phase_in_release and c.ready == vs.ConditionStatus.UNKNOWN
    assert vs.backup_conditions("restore", None).reason == "NoStatus"
    assert vs.backup_conditions("backup", "Failed", deleting=True).reason == "Deleting"
    assert vs.backup_conditions("backup", "PartiallyFailed").stalled == vs.ConditionStatus.TRUE
    assert str(vs.ConditionStatus.UNKNOWN) == "Unknown"


def test_watch_events():
    text = '{"type":"ADDED","object":{"a":1},"type":"MODIFIED","object":{"b":2}}'
    ev = vs.watch_event(text)
    assert ev.type == vs.WatchType.MODIFIED and ev.object == b'{"b":2}' and str(ev.type) == "MODIFIED"
    ev = vs.watch_event('{"type":"ERROR","object":{"kind":"Status","reason":"Expired","message":"old","code":410}}')
    assert (ev.type, ev.reason, ev.message, ev.code) == (vs.WatchType.ERROR, "Expired", "old", 410)
    assert vs.watch_event('{"kind":"Backup"}').type == vs.WatchType.OBJECT
    with pytest.raises(vs.SchemaError) as e:
        vs.watch_event('{"type":"SYNC","object":{}}')
    assert 'got "SYNC"' in str(e.value)
    assert vs.json_value_end(b'{"a":1}\n{"b"') == 7
    with pytest.raises(vs.ParseError) as e:
        vs.json_value_end(b'{"a":}')
    assert e.value.offset == 5


def test_server_reason_is_an_int_flag():
    r = vs.ServerReason
    assert issubclass(r, __import__("enum").IntFlag)
    assert int(r.STALE) == 512 and str(r.STALE) == "stale"
    assert r.from_token("some_pending") is r.SOME_PENDING
    assert str(r.NO_BSL | r.STALE) == "no_bsl|stale"
    with pytest.raises(vs.InvalidArgument):
        r.from_token("STALE")
    v = vs.server_status([])
    assert v.reasons == (r.NO_BSL,) and v.reason_flags == r.NO_BSL


def test_no_import_cycle():
    """_forecast and _reconcile_result import nothing that imports them back:
    _operations imports _forecast, never the other way round."""
    import ast
    import inspect

    def imports(name):
        tree = ast.parse(inspect.getsource(importlib.import_module("velstatus." + name)))
        return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1}

    assert "_operations" not in imports("_forecast")
    assert not {"_operations", "_forecast"} & imports("_reconcile_result")
    assert "_forecast" in imports("_operations")
    for name in ("_forecast", "_reconcile_result", "_operations"):  # nothing is imported inside a function
        assert all(not isinstance(n, (ast.Import, ast.ImportFrom)) or n.col_offset == 0
                   for n in ast.walk(ast.parse(inspect.getsource(importlib.import_module("velstatus." + name))))), name
