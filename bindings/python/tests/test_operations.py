# SPDX-License-Identifier: Apache-2.0
"""Item operations and progress: the list codec, the step, reconcile with
Python plugin callbacks (compared with the CLI), progress and describe."""

import json
import os

import pytest

import velstatus as vs

NOW = "2024-05-01T10:30:00Z"


def example(srcdir, name):
    with open(os.path.join(srcdir, "examples", "operations", name), encoding="utf-8") as f:
        return f.read()


def plugin_from_reports(reports):
    """A Python plugin client answering from the CLI's --progress file format."""

    def progress(op):
        a = reports.get(op.operation_id)
        if a is None:
            return vs.Progress.error("operation ID %s is invalid" % op.operation_id)  # doc/velero-behaviour.md §2.2
        if "lookupError" in a:
            return vs.Progress.lookup_error(a["lookupError"])
        if "error" in a:
            return vs.Progress.error(a["error"])
        return vs.Progress(completed=a.get("completed", False), n_completed=a.get("nCompleted", 0),
                           n_total=a.get("nTotal", 0), err=a.get("err", ""),
                           operation_units=a.get("operationUnits", ""), description=a.get("description", ""),
                           started=a.get("started"), updated=a.get("updated"))

    def cancel(op):
        return reports.get(op.operation_id, {}).get("cancelError")

    return progress, cancel


CASES = [("backup", "2024-05-01T10:30:00Z", "WaitingForPluginOperations", "hardened"),
         ("backup", "2024-05-01T10:30:00Z", "WaitingForPluginOperations", "velero"),
         ("backup", "2024-05-01T14:30:00Z", "InProgress", "velero"),
         ("restore", "2024-05-02T08:05:00Z", "WaitingForPluginOperations", "hardened"),
         ("restore", "2024-05-02T08:05:00Z", "WaitingForPluginOperationsPartiallyFailed", "velero")]


@pytest.mark.parametrize("kind,now,phase,policy", CASES)
def test_reconcile_with_python_callbacks_matches_cli(srcdir, cli, kind, now, phase, policy):
    ops_path = os.path.join(srcdir, "examples", "operations", "%s-itemoperations.json" % kind)
    prog_path = os.path.join(srcdir, "examples", "operations", "%s-progress.json" % kind)
    want = json.loads(cli("operations", "reconcile", "--kind", kind, "--phase", phase, "--now", now, "--timeout", "4h",
                          "--policy", policy, "--progress", prog_path, "-o", "json", ops_path))
    with open(prog_path, encoding="utf-8") as f:
        progress, cancel = plugin_from_reports(json.load(f))
    with open(ops_path, encoding="utf-8") as f:
        ops = vs.OpList.from_json(f.read(), kind)
    r = ops.reconcile(progress, cancel, now=now, phase=phase, timeout="4h", policy=policy)
    assert r.phase == want["phase"]
    assert (r.still_in_progress, r.changes) == (want["stillInProgress"], want["changes"])
    assert (r.completed, r.failed, r.in_progress) == (want["completed"], want["failed"], want["inProgress"])
    assert list(r.errors) == want["errors"]
    assert [c.operation_id for c in r.canceled] == want["canceled"]
    assert json.loads(ops.to_json()) == want["operations"]


def test_reconcile_reports_cancel_errors_by_policy(srcdir):
    progress, cancel = plugin_from_reports(json.loads(example(srcdir, "backup-progress.json")))
    text = example(srcdir, "backup-itemoperations.json")
    hardened = vs.OpList.from_json(text).reconcile(progress, cancel, now=NOW)
    velero = vs.OpList.from_json(text).reconcile(progress, cancel, now=NOW, policy="velero")
    assert hardened.canceled[0].cancel_error == "DataUpload nightly-20240501-klmno: cancel request already pending"
    assert velero.canceled[0].cancel_error is None  # doc/velero-behaviour.md §6.13: Velero discards it
    assert hardened.canceled[0].operation_id == "du-nightly-20240501-klmno"
    assert hardened.flag_counts[vs.OpStepFlag.CANCEL] == 1
    # doc/velero-behaviour.md §2.5 step 11: new errors are pending, so the file is uploaded and the CR patched
    # (Velero has no grace period: the lookup error fails export-7f3a too)
    assert velero.persist is vs.PersistAction.UPLOAD_AND_PATCH
    assert velero.errors_added == len(velero.errors) == 2 and len(hardened.errors) == 1


def test_persist_follows_the_counts():
    ops = vs.OpList()
    ops.append(operation_id="a", phase="InProgress", created="2024-05-01T10:00:00Z")
    ops.append(operation_id="b", phase="InProgress", created="2024-05-01T10:00:00Z")

    def progress(op):
        return vs.Progress(completed=op.operation_id == "a", n_completed=1, n_total=1)

    r = ops.reconcile(progress, now="2024-05-01T10:01:00Z", policy="velero")
    assert r.completed == 1 and r.still_in_progress
    assert r.persist is vs.PersistAction.PATCH and r.errors_added == 0  # a new completion count
    r = ops.reconcile(progress, now="2024-05-01T10:02:00Z", policy="velero", completed_before=1)
    assert r.persist is vs.PersistAction.NONE  # nothing new to write


def test_lookup_errors_requeue_with_velero_texts():
    # backup_operations_controller.go / restore_operations_controller.go Reconcile (v1.11.1 ... v1.18.1)
    ops = vs.OpList()
    ops.append(operation_id="a", phase="InProgress", created="2024-05-01T10:00:00Z")
    r = ops.reconcile(None, now="2024-05-01T10:01:00Z", policy="velero", bsl_error="dial tcp: i/o timeout")
    assert r.phase is vs.Phase.PARTIALLY_FAILED and r.errors == ("dial tcp: i/o timeout",) and r.requeue
    assert r.persist is vs.PersistAction.PATCH
    rops = vs.OpList(kind="restore")
    r = rops.reconcile(None, now="2024-05-01T10:01:00Z", policy="velero", backup_error="etcdserver: request timed out",
                       backup_name="nightly", velero_namespace="ops")
    assert r.errors == ("can't find backup ops/nightly: etcdserver: request timed out",) and r.requeue
    assert r.phase is vs.Phase.FINALIZING_PARTIALLY_FAILED
    r = ops.reconcile(None, now="2024-05-01T10:01:00Z", policy="velero", bsl="readonly")
    assert not r.requeue  # a read-only BSL returns nil
    with pytest.raises(vs.InvalidArgument):
        ops.reconcile(None, now="2024-05-01T10:01:00Z", bsl="missing", bsl_error="x")


def test_after_persist_failure_keeps_or_loses_the_errors():
    ops = vs.OpList()
    ops.append(operation_id="a", phase="InProgress", created="2024-05-01T10:00:00Z")
    r = ops.reconcile(lambda op: vs.Progress(completed=True, err="bad"), now="2024-05-01T10:01:00Z",
                      policy="velero", errors=2)
    assert r.persist is vs.PersistAction.UPLOAD_AND_PATCH
    up, patch = r.after_persist_failure[vs.PersistFailure.UPLOAD], r.after_persist_failure[vs.PersistFailure.PATCH]
    assert up == vs.AfterPersistFailure(vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS, 3, 0)
    assert patch == vs.AfterPersistFailure(vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS, 0, 3)
    running = vs.OpList()
    running.append(operation_id="b", phase="InProgress", created="2024-05-01T10:00:00Z")
    r = running.reconcile(lambda op: vs.Progress(), now="2024-05-01T10:02:00Z", policy="velero")
    assert r.persist is vs.PersistAction.NONE
    assert r.after_persist_failure == {vs.PersistFailure.UPLOAD: None, vs.PersistFailure.PATCH: None}


class PluginCrash(Exception):
    pass


def test_progress_callback_exception_surfaces_unchanged(srcdir):
    crash = PluginCrash("grpc stream reset")
    seen = []

    def progress(op):
        seen.append(op.index)
        if op.index == 2:
            raise crash
        return vs.Progress(completed=True, n_completed=1, n_total=1)

    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    ops = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"), ctx=ctx)
    before = [op.phase for op in ops]
    assert before[:3] == ["InProgress", "New", "InProgress"]
    with pytest.raises(PluginCrash) as ei:
        ops.reconcile(progress, now=NOW)
    assert ei.value is crash
    assert seen == [0, 1, 2]
    after = [op.phase for op in ops]
    assert after[:2] == ["Completed", "Completed"]  # stepped before the crash: kept
    assert after[2:] == before[2:]                  # the rest: untouched
    blocks = a.live
    for _ in range(3):
        seen.clear()
        with pytest.raises(PluginCrash):
            ops.reconcile(progress, now=NOW)
        assert seen == [2] and a.live == blocks  # nothing leaks per failed pass
    ops.close()
    assert a.live == 1
    ctx.close()
    assert a.live == 0


def test_cancel_callback_exception_and_bad_answer(srcdir):
    progress, _ = plugin_from_reports(json.loads(example(srcdir, "backup-progress.json")))
    boom = RuntimeError("cancel exploded")

    def cancel(op):
        raise boom

    ops = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))
    with pytest.raises(RuntimeError) as ei:
        ops.reconcile(progress, cancel, now=NOW)
    assert ei.value is boom
    with pytest.raises(TypeError, match="must return a Progress"):
        vs.OpList.from_json(example(srcdir, "backup-itemoperations.json")).reconcile(lambda op: 42, now=NOW)


def test_callback_reading_the_list_is_a_state_error(srcdir):
    ops = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))

    def progress(op):
        return ops[op.index]  # re-enters the context running the pass

    with pytest.raises(vs.StateError, match="re-entered"):
        ops.reconcile(progress, now=NOW)
    assert len(ops) == 5  # usable again


def test_no_plugin_means_lookup_errors(srcdir):
    ops = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))
    r = ops.reconcile(None, now=NOW, policy="velero")
    # doc/velero-behaviour.md §2.4 step 1: every running operation fails with the lookup error, wrapped
    assert r.failed >= 3 and all(", plugin: unknown" in e for e in r.errors)
    assert any('unable to get valid BackupItemActionV2 for "velero.io/csi-pvc-backupper"' in e for e in r.errors)


def test_reconcile_no_memory_leaks_nothing(srcdir, each_allocation_failing):
    reports = json.loads(example(srcdir, "backup-progress.json"))
    progress, cancel = plugin_from_reports(reports)
    text = example(srcdir, "backup-itemoperations.json")
    r, n = each_allocation_failing(lambda ctx: vs.OpList.from_json(text, ctx=ctx),
                                   lambda ops: ops.reconcile(progress, cancel, now=NOW))
    assert n > 0 and r.phase == "WaitingForPluginOperationsPartiallyFailed"


def test_round_trip_is_byte_exact(srcdir):
    for kind in ("backup", "restore"):
        text = example(srcdir, "%s-itemoperations.json" % kind)
        ops = vs.OpList.from_json(text, kind)
        assert ops.kind is vs.Kind(kind)
        assert ops.to_json() == text if text.endswith("\n") else ops.to_json() == text + "\n"
    assert vs.OpList.from_json("null").is_null and vs.OpList.from_json("null").to_json() == "null\n"
    assert vs.OpList().to_json() == "[]\n"


def test_build_and_snapshot():
    ops = vs.OpList("backup")
    i = ops.append(name="b1", uid="u-1", item_action="example.io/action", resource_resource="pods",
                   resource_namespace="ns", resource_name="p", operation_id="op-1",
                   created="2024-05-01T10:00:00Z", n_total=10,
                   post_items=[vs.ResourceId("velero.io", "datauploads", "velero", "du-1")])
    assert i == 0 and len(ops) == 1
    op = ops[0]
    assert op.phase == vs.OpPhase.NEW and op.op_phase is vs.OpPhase.NEW
    assert (op.name, op.operation_id, op.n_completed, op.n_total) == ("b1", "op-1", 0, 10)
    assert op.created == vs.parse_time("2024-05-01T10:00:00Z") and op.started is None
    assert op.post_items == (vs.ResourceId("velero.io", "datauploads", "velero", "du-1"),)
    assert op.resource == vs.ResourceId("", "pods", "ns", "p")
    doc = json.loads(ops.to_json())
    assert doc[0]["spec"]["backupName"] == "b1" and doc[0]["status"]["created"] == "2024-05-01T10:00:00Z"
    ops.set(0, phase="Paused")
    assert ops[0].op_phase is vs.OpPhase.UNKNOWN and ops[0].phase == "Paused"
    with pytest.raises(TypeError):
        ops.set(0, nope=1)
    with pytest.raises(IndexError):
        ops[5]
    assert vs.OpList("restore").append() == 0


def test_step_timeout_and_message():
    ops = vs.OpList("backup")
    ops.append(item_action="velero.io/csi-pvc-backupper", operation_id="op", phase="InProgress",
               created="2024-05-01T06:00:00Z")
    out = ops.step(0, vs.Progress(n_completed=1, n_total=10), now="2024-05-01T10:00:01Z", timeout="4h")
    assert vs.OpStepFlag.CANCEL in out.flags and vs.OpStepFlag.FAILED_NOW in out.flags
    assert out.message == "Asynchronous action timed out, plugin: velero.io/csi-pvc-backupper"
    assert ops[0].phase == "Failed" and ops[0].error == "Asynchronous action timed out"
    ops.append(operation_id="op2", phase="InProgress", created="2024-05-01T10:00:00Z")
    out = ops.step(1, vs.Progress(completed=True, n_completed=5, n_total=5), now="2024-05-01T10:00:02Z")
    assert vs.OpStepFlag.COMPLETED_NOW in out.flags and out.message is None
    # a zero timeout: expires at once for Velero, means "none" when hardened (doc/velero-behaviour.md §6.3)
    ops.append(operation_id="op3", phase="InProgress", created="2024-05-01T10:00:00Z")
    ops.append(operation_id="op4", phase="InProgress", created="2024-05-01T10:00:00Z")
    assert vs.OpStepFlag.CANCEL in ops.step(2, vs.Progress(), now="2024-05-01T10:00:01Z", timeout=0,
                                            policy="velero").flags
    assert vs.OpStepFlag.CANCEL not in ops.step(3, vs.Progress(), now="2024-05-01T10:00:01Z", timeout=0).flags


def test_step_names_the_plugin_by_its_own_name():
    # Velero's unit tests mock Name(): "test" for the action "foo-13"
    cases = [(vs.Progress(completed=True, err="failed", plugin_name="test"), "failed, plugin: test"),
             (vs.Progress.error("boom", plugin_name="test"), "boom, plugin: test"),
             (vs.Progress.error("boom", plugin_name=""), "boom, plugin: "),
             (vs.Progress(completed=True, err="failed"), "failed, plugin: velero.io/foo-13"),
             (vs.Progress.lookup_error("gone"), "gone, plugin: unknown")]
    for progress, want in cases:
        ops = vs.OpList("backup")
        ops.append(item_action="foo-13", operation_id="op", phase="New", created="2024-05-01T10:00:00Z")
        out = ops.step(0, progress, now="2024-05-01T10:00:01Z", policy="velero")
        assert out.message == want
    reports = vs.OpReports('{"a": {"completed": true, "name": "test"}, "b": {"error": "x", "name": ""}, "c": {}}')
    assert reports.get("a").plugin_name == "test"
    assert reports.get("b").plugin_name == "" and reports.get("b").report is vs.OpReport.PROGRESS_ERROR
    assert reports.get("c").plugin_name is None


def test_reported_times_outside_int64_ns_are_exact():
    # issue 20: a plugin's Started/Updated beyond 1677-2262. What Velero writes
    # back was checked with Go 1.19 (time.Unix(sec, nsec).UTC() marshalled as
    # metav1.Time): the zero time null, a fraction dropped, year 9999 kept.
    go_zero = -62135596800 * 10**9
    last = 253402300799 * 10**9
    ops = vs.OpList("backup")
    ops.append(item_action="x", operation_id="op", phase="New", created="2024-05-01T10:00:00Z",
               started="2024-05-01T10:00:00Z")
    out = ops.step(0, vs.Progress(started="0001-01-01T00:00:00Z", updated="9999-12-31T23:59:59.5Z"),
                   now="2024-05-01T10:00:01Z", policy="velero")
    assert vs.OpStepFlag.CHANGED in out.flags
    op = ops[0]
    assert op.started is None and op.updated == last and op.phase == "InProgress"
    assert '"started":null,"updated":"9999-12-31T23:59:59Z"' in ops.to_json()
    # an int beyond int64 and a datetime of year 1 are the same instants
    p = vs.Progress(started=go_zero + 5 * 10**8, updated=last)
    assert p.started == go_zero + 5 * 10**8
    out = ops.step(0, p, now="2024-05-01T10:00:01Z", policy="velero")
    assert ops[0].started == go_zero  # held as its whole second
    assert vs.OpStepFlag.CHANGED in out.flags
    assert '"started":"0001-01-01T00:00:00Z","updated":"9999-12-31T23:59:59Z"' in ops.to_json()
    # the same report again is no change (a UTC time equal at the second kept)
    assert vs.OpStepFlag.CHANGED not in ops.step(0, p, now="2024-05-01T10:00:01Z", policy="velero").flags
    # the --progress file reads them, and get() gives them back exactly
    reports = vs.OpReports('{"a": {"started": "0000-06-01T12:00:00Z", "updated": "1970-01-01T00:00:00Z"}}')
    assert reports.get("a").started == -62154043200 * 10**9 and reports.get("a").updated == 0
    with pytest.raises(vs.RangeError):
        ops.step(0, vs.Progress(updated=(253402390799 + 1) * 10**9), now="2024-05-01T10:00:01Z")


def test_decode_errors_name_the_path():
    with pytest.raises(vs.SchemaError) as ei:
        vs.OpList.from_json('[{"spec": {}, "status": {}},\n {"spec": {}, "status": {"nTotal": "x"}}]')
    assert "[1].status.nTotal" in str(ei.value) and ei.value.line == 2
    with pytest.raises(vs.ParseError):
        vs.OpList.from_json("[{")


def test_wrap_error():
    assert vs.wrap_error("boom", "velero.io/x") == "boom, plugin: velero.io/x"
    assert vs.wrap_error("", "velero.io/x") == "plugin: velero.io/x"
    assert vs.wrap_error("boom") == "boom, plugin: unknown"


def test_progress_report_matches_cli(srcdir, cli):
    for kind, now in (("backup", NOW), ("restore", "2024-05-02T08:05:00Z")):
        path = os.path.join(srcdir, "examples", "operations", "%s-itemoperations.json" % kind)
        want = cli("progress", "--kind", kind, "--now", now, "-o", "json", path).decode().rstrip("\n")
        text = cli("progress", "--kind", kind, "--now", now, path).decode().rstrip("\n")
        with open(path, encoding="utf-8") as f:
            rep = vs.OpList.from_json(f.read(), kind).progress(now)
        assert rep.json == want and rep.summary == text
        d = json.loads(want)
        assert (rep.attempted, rep.new, rep.in_progress, rep.completed, rep.failed, rep.unquantified) == (
            d["attempted"], d["new"], d["inProgress"], d["completed"], d["failed"], d["unquantified"])
        assert [(u.units, u.operations, u.completed, u.total, u.percent, u.eta) for u in rep.units] == [
            (u["units"], u["operations"], u["completed"], u["total"], u["percent"], u["etaSeconds"])
            for u in d["units"]]


def test_progress_groups_units_and_flags():
    ops = vs.OpList()
    ops.append(phase="InProgress", n_completed=50, n_total=100, operation_units="Bytes",
               started="2024-05-01T10:00:00Z")
    ops.append(phase="InProgress", n_completed=5, n_total=10, operation_units="bytes")  # another group
    ops.append(phase="Completed", n_completed=0, n_total=0)                             # unquantified
    ops.append(phase="Weird")
    rep = ops.progress("2024-05-01T10:00:10Z")
    assert [u.units for u in rep.units] == ["Bytes", "bytes"]
    by = {u.units: u for u in rep.units}
    assert by["Bytes"].percent == 50.0 and by["Bytes"].rate == 5.0 and by["Bytes"].eta == 10
    assert by["bytes"].rate is None and vs.ProgressFlag.UNTIMED in by["bytes"].flags  # no started time
    assert rep.unknown_phase == 1 and rep.unquantified == 1 and rep.attempted == 4
    assert vs.ProgressFlag.UNKNOWN_PHASE in rep.flags


def test_describe(srcdir):
    ops = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))
    assert ops.describe() == ("Backup Item Operations:  1 of 5 completed successfully, 0 failed "
                              "(specify --details for more information)\n")
    details = vs.describe_operations(ops, details=True)
    assert details.startswith("Backup Item Operations:\n")
    assert "Operation for persistentvolumeclaims app/data-0:" in details
    assert vs.OpList().describe() == ""


def test_threads_sharing_a_context(srcdir):
    import threading

    text = example(srcdir, "backup-itemoperations.json")
    progress, cancel = plugin_from_reports(json.loads(example(srcdir, "backup-progress.json")))
    ctx = vs.Context()
    want = vs.OpList.from_json(text).reconcile(progress, cancel, now=NOW)
    results, errors = [], []

    def worker():
        try:
            for _ in range(20):
                with vs.OpList.from_json(text, ctx=ctx) as ops:
                    results.append(ops.reconcile(progress, cancel, now=NOW))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 80
    assert all(r == want for r in results)


def test_op_reports_client_equals_python_callbacks(srcdir):
    text = example(srcdir, "backup-progress.json")
    reports = vs.OpReports.from_json(text)
    progress, cancel = plugin_from_reports(json.loads(text))
    a = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))
    b = vs.OpList.from_json(example(srcdir, "backup-itemoperations.json"))
    assert a.reconcile(reports, now=NOW) == b.reconcile(progress, cancel, now=NOW)
    assert a.to_json() == b.to_json()
    p = reports.get("du-nightly-20240501-fghij")
    assert p == vs.Progress(n_total=4294967296, operation_units="Bytes", description="Prepared",
                            started="2024-05-01T10:29:00Z", updated="2024-05-01T10:29:00Z")
    assert reports.get("export-7f3a").report is vs.OpReport.LOOKUP_ERROR
    assert reports.get("nope") is None
    with pytest.raises(vs.SchemaError, match="nTotal"):
        vs.OpReports('{"x": {"nTotal": "many"}}')
    reports.close()
    with pytest.raises(vs.StateError):
        reports.get("x")


def test_callbacks_are_released_without_the_garbage_collector(srcdir):
    import gc
    import weakref

    class Plugin:
        def __call__(self, op):
            return vs.Progress(completed=True, n_completed=1, n_total=1)

    class Crash(Exception):
        pass

    class CrashingPlugin:
        def __call__(self, op):
            raise Crash()

    text = example(srcdir, "backup-itemoperations.json")
    gc.disable()
    try:
        for cls in (Plugin, CrashingPlugin):
            plugin = cls()
            ref = weakref.ref(plugin)
            with vs.OpList.from_json(text) as ops:
                try:
                    ops.reconcile(plugin, now=NOW)
                except Crash:
                    pass
            del plugin
            assert ref() is None, cls.__name__  # no reference cycle keeps it alive
        box = [Plugin()]  # any object: retry() returns it
        ref = weakref.ref(box[0])
        assert vs.retry(lambda: box[0], vs.Backoff.default_retry(), sleep=lambda s: None) is ref()
        box.clear()
        assert ref() is None
    finally:
        gc.enable()


def test_go_whole_time_range(srcdir):
    """Go's zero time and year 9999 in a file: exact, present, byte-identical."""
    with open(os.path.join(srcdir, "tests", "data", "operations", "go-time-range.json"), encoding="utf-8") as f:
        text = f.read()
    ops = vs.OpList.from_json(text)
    assert ops[0].created == vs.parse_time("0001-01-01T00:00:00Z") == -62135596800 * 10**9
    assert ops[1].created == 253402300799 * 10**9
    assert ops[1].started == vs.parse_time("0000-01-01T00:00:00Z")
    assert vs.to_datetime(ops[0].created).year == 1
    with pytest.raises(vs.RangeError):
        vs.to_datetime(ops[1].started)  # year 0: datetime has none
    assert ops.to_json() == text
    # a zero created times out at once, as in Velero; year 9999 does not
    assert vs.OpStepFlag.CANCEL in ops.step(0, vs.Progress(), now=NOW, timeout="4h", policy="velero").flags
    assert vs.OpStepFlag.CANCEL not in ops.step(1, vs.Progress(), now=NOW, timeout="4h", policy="velero").flags


def test_from_chunks_equals_from_json(srcdir):
    text = example(srcdir, "backup-itemoperations.json").encode("utf-8")
    want = vs.OpList.from_json(text)
    for size in (1, 7, 4096):
        got = vs.OpList.from_chunks(text[i:i + size] for i in range(0, len(text), size))
        assert len(got) == len(want) and got.to_json() == want.to_json()
    assert vs.OpList.from_chunks(["[", "]"]).to_json() == "[]\n"
    bad = b'[{},\n {"status":{"nTotal":"ten"}}]'
    with pytest.raises(vs.SchemaError) as want_err:
        vs.OpList.from_json(bad)
    with pytest.raises(vs.SchemaError) as got_err:
        vs.OpList.from_chunks(bad[i:i + 3] for i in range(0, len(bad), 3))
    assert str(got_err.value) == str(want_err.value)
    with pytest.raises(vs.ParseError):
        vs.OpList.from_chunks([b"[{"])


def test_kind_taken_from_the_text():
    # velstatus_oplist_decoder_new_detect: the first spec key only one kind has
    text = '[{"spec":{"operationID":"a"}},\n {"spec":{"operationID":"b","restoreName":"r"}}]'
    want = vs.OpList.from_json(text, "restore")
    for got in (vs.OpList.from_json(text, None), vs.OpList.from_json(text.encode("utf-8"), None),
                vs.OpList.from_chunks((text[i:i + 5] for i in range(0, len(text), 5)), None)):
        assert got.kind == vs.Kind.RESTORE and got.to_json() == want.to_json()
    assert vs.OpList.from_json('[{"status":{"phase":"New"}}]', None).kind == vs.Kind.BACKUP
    assert vs.OpList.from_json('[{"spec":{"backupName":"b"}}]', None).kind == vs.Kind.BACKUP
    with pytest.raises(vs.SchemaError) as err:
        vs.OpList.from_chunks(['[{"spec":{"restoreName"', ':5}}]'], None)
    assert ".spec.restoreName" in str(err.value)
    with pytest.raises(TypeError):
        vs.OpList(None)
