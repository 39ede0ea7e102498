# SPDX-License-Identifier: Apache-2.0
"""Server status: classify, tracker, controller step with Python callables."""

import glob
import json
import os
import threading

import pytest

import velstatus as vs


def examples(srcdir):
    files = sorted(glob.glob(os.path.join(srcdir, "examples", "bsl", "*.json")))
    assert len(files) >= 6
    return files


def cli_json(cli, path, *args):
    """The CLI's verdict JSON without the "namespace" and "locations" it appends (in this order)."""
    out = cli("server-status", "-o", "json", *args, path).decode("utf-8").rstrip("\n")
    return out[:out.index(',"namespace":')] + "}"


def bsl(name, phase="Available", default=False, access="ReadWrite", created="2026-01-01T00:00:00Z",
        validated=None):
    obj = {"metadata": {"name": name, "creationTimestamp": created},
           "spec": {"default": default, "accessMode": access}, "status": {"phase": phase}}
    if validated:
        obj["status"]["lastValidationTime"] = validated
    return obj


def test_examples_match_cli_text_and_dicts(srcdir, cli):
    for path in examples(srcdir):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        want = cli_json(cli, path)
        v = vs.server_status(text)
        assert v.json == want, path
        doc = json.loads(text)
        items = doc["items"] if isinstance(doc, dict) and "items" in doc else doc
        assert vs.server_status(items).json == want, path          # a list of dicts
        assert vs.server_status(text.encode()).json == want, path  # bytes
        d = json.loads(want)
        assert v.status == d["status"] and str(v.status) == d["status"]
        assert [str(r) for r in v.reasons] == d["reasons"]
        assert (v.available, v.unavailable, v.pending, v.total) == tuple(
            d["counts"][k] for k in ("available", "unavailable", "pending", "total"))
        assert v.default == d["default"] and v.message == d["message"]
        assert {k: list(n) for k, n in v.bsls.items()} == d["bsls"]
        text_line = cli("server-status", path).decode().splitlines()[0]  # the verdict line; the table follows
        assert str(v) == text_line


def test_total_rule():
    # doc/design.md §3, top to bottom.
    assert vs.server_status([]).status == "Waiting"
    assert vs.server_status([]).reasons == (vs.ServerReason.NO_BSL,)
    assert vs.server_status([bsl("a", ""), bsl("b", "Unavailable")]).status == vs.ServerStatus.WAITING
    na = vs.server_status([bsl("a", "Unavailable", True)])
    assert na.status is vs.ServerStatus.NOT_READY
    assert vs.ServerReason.ALL_UNAVAILABLE in na.reasons
    assert vs.server_status([bsl("a", "Unavailable")], three_state=True).status == "Waiting"
    assert vs.server_status([bsl("a", default=True), bsl("b")]).status == "Ready"
    ro = vs.server_status([bsl("a", default=True, access="ReadOnly")])
    assert ro.status == "PartiallyReady" and ro.reasons == (vs.ServerReason.DEFAULT_READONLY,)
    assert ro.bsls == {"default_readonly": ("a",)}


def test_default_location_decides():
    bsls = [bsl("a", default=True), bsl("b", "Unavailable")]
    v = vs.server_status(bsls, default_location="b")
    assert v.default == "b"
    assert "default_not_available" in [str(r) for r in v.reasons]
    assert vs.server_status(bsls, default_location="").default == "a"  # "" = not given (doc/velero-behaviour.md §1.5 D1)


def test_staleness():
    bsls = [bsl("a", default=True, validated="2026-11-30T12:00:00Z")]
    fresh = vs.server_status(bsls, now="2026-11-30T12:04:00Z", stale_after="5m")
    stale = vs.server_status(bsls, now="2026-11-30T12:06:00Z", stale_after="5m")
    assert fresh.status == "Ready"
    assert stale.status == "Waiting" and vs.ServerReason.STALE in stale.reasons
    with pytest.raises(vs.InvalidArgument):
        vs.server_status(bsls, now="2026-11-30T12:06:00Z")


def test_bsl_objects_and_errors():
    b = [vs.Bsl("a", "Available", default=True), vs.Bsl("b", "Unavailable", access=vs.BslAccess.READ_ONLY)]
    assert vs.server_status(b).status == "PartiallyReady"
    assert str(vs.BslAccess.READ_ONLY) == "ReadOnly"
    with pytest.raises(vs.InvalidArgument, match="duplicate|exists|unique"):
        vs.server_status([vs.Bsl("a"), vs.Bsl("a")])
    with pytest.raises(vs.ParseError) as ei:
        vs.server_status('{"items": [\n  {"metadata": }]}')
    assert ei.value.line == 2 and ei.value.column > 0
    with pytest.raises(vs.SchemaError, match=r"items\[1\]\.spec\.default") as ei:
        vs.server_status('{"items": [{"metadata": {"name": "a"}},\n {"metadata": {"name": "b"}, "spec": {"default": "yes"}}]}')
    assert ei.value.line == 2
    with pytest.raises(TypeError):
        vs.server_status([vs.Bsl("a"), bsl("b")])
    # any iterable, read once: a generator of Bsl or of dicts
    assert vs.server_status(x for x in b).json == vs.server_status(b).json
    assert vs.server_status(bsl(n) for n in "ab").total == 2


def test_tracker_matches_classify(srcdir):
    for path in examples(srcdir):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        items = doc["items"] if isinstance(doc, dict) and "items" in doc else doc
        with vs.ServerTracker() as t:
            for item in items:
                t.upsert(item)
            assert len(t) == len(items)
            assert t.verdict() == vs.server_status(items), path
            assert t.status == vs.server_status(items).status


def test_bsl_from_dict_is_what_the_decoder_read():
    b = vs.Bsl.from_dict({"metadata": {"name": "d\u00e9", "creationTimestamp": "2026-11-30T12:00:00Z"},
                          "spec": {"default": True, "accessMode": "ReadOnly"},
                          "status": {"phase": "Available", "lastValidationTime": "2026-11-30T12:59:00Z",
                                     "message": "ok"}})
    assert b == vs.Bsl("d\u00e9", "Available", True, vs.BslAccess.READ_ONLY, "2026-11-30T12:00:00Z",
                       "2026-11-30T12:59:00Z", "ok")
    assert vs.Bsl.from_dict({"metadata": {"name": "n"}}) == vs.Bsl("n")
    with pytest.raises(vs.SchemaError, match=r"^spec\.default: expected a boolean") as ei:
        vs.Bsl.from_dict({"metadata": {"name": "n"}, "spec": {"default": "yes"}})
    assert ei.value.line == 1 and ei.value.column > 1
    with pytest.raises(TypeError):
        vs.Bsl.from_dict([{"metadata": {"name": "n"}}])


def test_tracker_upsert_from_json_text():
    t = vs.ServerTracker()
    assert t.upsert('{"metadata": {"name": "a"}, "spec": {"default": true}, "status": {"phase": "Available"}}')
    assert t.status == "Ready"
    assert t.upsert(b'{"metadata": {"name": "b"}, "status": {"phase": "Unavailable"}}') is True
    assert t.status == "PartiallyReady" and len(t) == 2
    assert t.upsert(vs.Bsl("b", "Available")) is True and t.status == "Ready"
    # a bad object: the field and its value's position, and the tracker unchanged
    with pytest.raises(vs.SchemaError, match=r"^status\.phase: expected a string") as ei:
        t.upsert('{"metadata": {"name": "a"},\n "status": {"phase": 7}}')
    assert (ei.value.line, ei.value.column) == (2, 22)
    assert str(ei.value).endswith("(line 2, column 22)")
    with pytest.raises(vs.SchemaError, match="expected a BackupStorageLocation object, got an array"):
        t.upsert('[{"metadata": {"name": "a"}}]')
    with pytest.raises(vs.ParseError):
        t.upsert("{")
    with pytest.raises(TypeError):
        t.upsert(42)
    assert t.status == "Ready" and len(t) == 2
    t.close()


def test_bsl_watch_event_is_the_event_and_its_bsls():
    text = ('{"type":"DELETED","object":{"kind":"List","items":[{"metadata":{"name":"a"},'
            '"status":{"phase":"Unavailable"}},{"metadata":{"name":"b"},"spec":{"default":true}}]}}')
    ev, bsls = vs.bsl_watch_event(text)
    assert ev == vs.watch_event(text)
    assert ev.type == vs.WatchType.DELETED
    assert bsls == [vs.Bsl("a", "Unavailable"), vs.Bsl("b", default=True)]
    ev, bsls = vs.bsl_watch_event('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}')
    assert ev.type == vs.WatchType.BOOKMARK and bsls == []
    # one object (no List): decoded straight to the callback, escapes and times included
    text = ('{"type":"ADDED","object":{"metadata":{"n\\u0061me":"\\u00e9t\\u00e9","creationTimestamp":'
            '"2026-11-30T12:00:00Z"},"spec":{"accessMode":"ReadOnly"},"status":{"phase":"Available",'
            '"lastValidationTime":"2026-11-30T12:59:00.5Z","message":"m\\n"}}}')
    ev, bsls = vs.bsl_watch_event(text.encode("utf-8"))
    assert ev.type == vs.WatchType.ADDED
    assert bsls == [vs.Bsl.from_dict(json.loads(text)["object"])]
    assert bsls[0] == vs.Bsl("\u00e9t\u00e9", "Available", access=vs.BslAccess.READ_ONLY,
                             created="2026-11-30T12:00:00Z", validated="2026-11-30T12:59:00.5Z", message="m\n")
    with pytest.raises(vs.SchemaError, match=r"^metadata\.name: missing"):
        vs.bsl_watch_event('{"type":"ADDED","object":{"metadata":{}}}')
    with pytest.raises(vs.ParseError):
        vs.bsl_watch_event('{"type":"ADDED","object":{}')


def test_tracker_reports_changes():
    t = vs.ServerTracker()
    assert t.status == "Waiting" and t.reasons == (vs.ServerReason.NO_BSL,)
    assert t.upsert(bsl("a", default=True)) is True
    assert t.status == "Ready"
    assert t.upsert(bsl("b")) is False           # still Ready, same reasons
    assert t.upsert(bsl("b", "Unavailable")) is True
    assert t.status == "PartiallyReady"
    assert t.delete("b") is True and t.status == "Ready"
    assert t.delete("nope") is False
    t.close()
    t.close()
    with pytest.raises(vs.StateError):
        t.status


def test_tracker_clock():
    t = vs.ServerTracker(now="2026-11-30T12:00:00Z", stale_after="5m")
    t.upsert(vs.Bsl("a", "Available", default=True, validated="2026-11-30T12:00:00Z"))
    assert t.status == "Ready"
    assert t.set_now("2026-11-30T12:10:00Z") is True
    assert t.status == "Waiting"
    assert t.last_transition == vs.parse_time("2026-11-30T12:10:00Z")
    assert vs.ServerTracker().set_now(0) is False  # no staleness check: the clock only dates transitions


def test_tracker_last_transition():
    t = vs.ServerTracker()
    assert t.last_transition is None               # no clock yet
    assert t.set_now("2026-11-30T11:59:00Z") is False  # dates the Waiting it starts with
    assert t.last_transition == vs.parse_time("2026-11-30T11:59:00Z")
    t.set_now("2026-11-30T12:00:00Z")
    assert t.upsert(bsl("a", default=True)) is True  # Waiting -> Ready
    assert t.last_transition == vs.parse_time("2026-11-30T12:00:00Z")
    t.set_now("2026-11-30T12:00:05Z")
    assert t.upsert(bsl("b", "Unavailable")) is True  # PartiallyReady: still True
    assert t.status == "PartiallyReady"
    assert t.last_transition == vs.parse_time("2026-11-30T12:00:00Z")
    assert t.upsert(bsl("a", "Unavailable", default=True)) is True  # NotReady: False
    assert t.last_transition == vs.parse_time("2026-11-30T12:00:05Z")
    t.close()
    with pytest.raises(vs.StateError):
        t.last_transition


def test_tracker_shares_context_across_threads():
    ctx = vs.Context()
    t = vs.ServerTracker(ctx=ctx)
    errors = []

    def worker(k):
        try:
            for i in range(200):
                t.upsert(vs.Bsl("t%d-%d" % (k, i % 7), "Available"))
                t.delete("t%d-%d" % (k, (i + 3) % 7))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert t.verdict().total == len(t)
    ctx.close()            # the tracker keeps the C context alive
    assert t.status in list(vs.ServerStatus)
    t.close()


def test_step_publishes_only_on_change():
    published = []
    state = {"cur": None}
    bsls = [bsl("a", default=True), bsl("b", "Unavailable")]

    def publish(status, reasons, text):
        published.append((status, reasons, json.loads(text)))
        state["cur"] = (status, reasons)

    r = vs.server_status_step(lambda: bsls, publish, lambda: state["cur"])
    assert r.published and r.verdict.status == "PartiallyReady"
    assert published[0][0] == "PartiallyReady" and published[0][2] == r.verdict.as_dict()
    r = vs.server_status_step(lambda: json.dumps(bsls), publish, lambda: state["cur"])
    assert not r.published and len(published) == 1
    r = vs.server_status_step(lambda: bsls, publish)  # no read_status: always publishes
    assert r.published and len(published) == 2


class Boom(Exception):
    pass


@pytest.mark.parametrize("where", ["list_bsls", "read_status", "publish"])
def test_step_callback_exception_surfaces_unchanged(where):
    boom = Boom("from " + where)
    calls = []
    slept = []

    def cb(name, value):
        def f(*args):
            calls.append(name)
            if name == where:
                raise boom
            return value
        return f

    with pytest.raises(Boom) as ei:
        vs.server_status_step(cb("list_bsls", [bsl("a", default=True)]), cb("publish", None),
                              cb("read_status", None), sleep=slept.append, random=lambda: 0.0)
    assert ei.value is boom
    # the traceback reaches into the callback that raised
    assert any(fr.name == "f" for fr in __import__("traceback").extract_tb(ei.value.__traceback__))
    assert calls[-1] == where
    if where == "publish":
        # a failed publish is a failed status write: retried (hardened: 30 attempts), then raised
        assert calls.count("publish") == 30 and len(slept) == 29
    else:
        assert "publish" not in calls and not slept
    # nothing stuck: the next step works
    assert vs.server_status_step(lambda: [], lambda *a: None).verdict.status == "Waiting"


def test_step_publish_retried_with_fake_clock():
    clock = {"ns": 0, "slept": []}

    def sleep(seconds):
        clock["slept"].append(round(seconds * 1e9))
        clock["ns"] += round(seconds * 1e9)

    attempts = []

    def publish(status, reasons, text):
        attempts.append(clock["ns"])
        if len(attempts) < 3:
            raise ConnectionError("apiserver unavailable")

    r = vs.server_status_step(lambda: [bsl("a", default=True)], publish, sleep=sleep, random=lambda: 0.0,
                              clock=lambda: clock["ns"])
    assert r.published and r.verdict.status == "Ready"
    # hardened schedule: 100 ms, then 200 ms, no jitter with r = 0
    assert clock["slept"] == [100 * 10**6, 200 * 10**6] and attempts == [0, 100 * 10**6, 300 * 10**6]
    # Velero's policy: CapBackoff(retry_timeout), 10 ms x5
    attempts.clear()
    clock["slept"].clear()
    r = vs.server_status_step(lambda: [bsl("a", default=True)], publish, policy="velero",
                              retry_timeout="1m", sleep=sleep, random=lambda: 0.0)
    assert r.published and clock["slept"] == [10 * 10**6, 50 * 10**6]


def test_step_publish_classified_terminal_is_not_retried():
    errors = []

    def publish(*a):
        e = PermissionError("forbidden #%d" % (len(errors) + 1))
        errors.append(e)
        raise e

    seen = []

    def classify(exc):
        seen.append(exc)
        return "terminal"

    with pytest.raises(PermissionError) as ei:
        vs.server_status_step(lambda: [bsl("a", default=True)], publish, classify=classify,
                              sleep=lambda s: pytest.fail("slept"))
    assert ei.value is errors[0] and len(errors) == 1 and seen == errors


def test_step_keyboard_interrupt_in_publish_stops_at_once():
    calls = []

    def publish(*a):
        calls.append(1)
        raise KeyboardInterrupt()

    with pytest.raises(KeyboardInterrupt):
        vs.server_status_step(lambda: [bsl("a", default=True)], publish, sleep=lambda s: None)
    assert len(calls) == 1


def test_step_negative_return_is_host_error():
    with pytest.raises(vs.HostError) as ei:
        vs.server_status_step(lambda: [], lambda *a: -7, sleep=None)
    assert ei.value.host_code == -7
    seen = []

    def classify(exc):
        seen.append(exc)
        return "terminal"

    with pytest.raises(vs.HostError) as ei:
        vs.server_status_step(lambda: [], lambda *a: -9, classify=classify, sleep=None)
    assert ei.value.host_code == -9
    assert len(seen) == 1 and isinstance(seen[0], vs.HostError) and "-9" in str(seen[0])


def test_step_callback_reentering_context_fails_cleanly():
    ctx = vs.Context()
    t = vs.ServerTracker(ctx=ctx)

    def list_bsls():
        t.upsert(vs.Bsl("x"))  # same context, from inside its own call
        return []

    with pytest.raises(vs.StateError, match="re-entered"):
        vs.server_status_step(list_bsls, lambda *a: None, ctx=ctx)
    assert t.upsert(vs.Bsl("x")) is True  # the lock was released


# -- nothing leaks -------------------------------------------------------------

def failalloc_loop(ctx, call, strict=True):
    """Fails allocation #0, #1, ... in turn (tests/failalloc.c, from Python):
    each failure is NoMemory and (strict) leaves exactly the blocks held
    before. A long-lived object may keep capacity it reserved before the
    failing allocation (not strict); closing it must still free everything."""
    a = ctx.allocator
    n = 0
    while True:
        before = a.live
        a.calls, a.fail_at = 0, n
        try:
            result = call()
        except vs.NoMemory:
            if strict:
                assert a.live == before, "leak after failing allocation #%d" % n
            n += 1
            continue
        finally:
            a.fail_at = None
        return n, result


def test_debug_allocator_counts_the_context():
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    assert a.live == 1  # the ctx itself
    ctx.close()
    assert a.live == 0


def test_server_status_no_memory_leaks_nothing(srcdir):
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    path = os.path.join(srcdir, "examples", "bsl", "one-unavailable.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    n, v = failalloc_loop(ctx, lambda: vs.server_status(text, ctx=ctx))
    assert n > 3 and v.status == "PartiallyReady"
    assert a.live == 1
    bsls = [vs.Bsl("a", "Available", True), vs.Bsl("b", "Unavailable")]
    n, v = failalloc_loop(ctx, lambda: vs.server_status(bsls, default_location="a", ctx=ctx))
    assert n > 0 and v.default == "a"
    assert a.live == 1


def test_tracker_no_memory_leaks_nothing():
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    t = vs.ServerTracker(ctx=ctx)
    grew = []
    for i in range(20):
        def upsert():
            try:
                return t.upsert(vs.Bsl("b%02d" % i, "Available", i == 0))
            except vs.NoMemory:
                assert len(t) == i  # the tracker is unchanged
                raise
        n, changed = failalloc_loop(ctx, upsert, strict=False)
        if n > 0:
            grew.append(i)
    # a short name lives in the table: an upsert allocates when the table
    # grows (load 7/8 of 8, 16, 32 slots); the first one also makes the
    # default heap
    assert grew == [0, 7, 14]
    assert len(t) == 20 and t.status == "Ready"
    n, v = failalloc_loop(ctx, t.verdict)
    assert n > 0 and v.total == 20
    t.close()
    assert a.live == 1
    ctx.close()
    assert a.live == 0


def test_step_with_raising_callback_leaks_nothing():
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)

    def publish(*args):
        raise Boom("publish")

    for _ in range(3):
        with pytest.raises(Boom):
            vs.server_status_step(lambda: [bsl("a", default=True), bsl("b")], publish, sleep=None, ctx=ctx)
        assert a.live == 1
    n, r = failalloc_loop(ctx, lambda: vs.server_status_step(lambda: [bsl("a", default=True)],
                                                              lambda *x: None, ctx=ctx))
    assert n > 0 and r.published
    assert a.live == 1


def test_lifetimes_are_ffi_gc_pointers():
    # An object made from a Context keeps the C context alive after the
    # Context is closed or dropped; garbage collection frees both, the
    # object first (its ffi.gc destructor holds the context).
    import gc
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    t = vs.ServerTracker(ctx=ctx)
    t.upsert(vs.Bsl("a", "Available", True))
    held = a.live
    assert held > 1
    ctx.close()
    del ctx
    gc.collect()
    assert a.live == held and t.status == "Ready"  # still usable
    del t
    gc.collect()
    assert a.live == 0
    # close() frees at once and is idempotent; a closed object refuses calls.
    ctx = vs.Context(allocator=a)
    t = vs.ServerTracker(ctx=ctx)
    t.close()
    t.close()
    assert a.live == 1
    with pytest.raises(vs.StateError):
        t.upsert(vs.Bsl("a", "Available", True))
    ctx.close()
    assert a.live == 0


def test_a_garbage_cycle_frees_objects_before_their_context():
    # A cycle of garbage holding a Context, objects made from it and the
    # DebugAllocator whose Python memory the C objects live in: the collector
    # runs the ffi.gc destructors in any order (cffi's run when the collector
    # clears them) and clears the allocator's attributes, yet each object is
    # freed before its C context and the memory outlives both. Without that,
    # this crashed the interpreter. With the allocator kept outside the cycle,
    # nothing leaks either.
    import gc
    kept = vs.DebugAllocator()
    for i in range(300):
        a = vs.DebugAllocator() if i % 2 else kept
        ctx = vs.Context(allocator=a)
        objs = [vs.ServerTracker(ctx=ctx), vs.OpList.from_json("[]", ctx=ctx), vs.OpList(ctx=ctx), ctx, a]
        objs[0].upsert(vs.Bsl("a", "Available", True))
        k = i % len(objs)
        cycle = {"objs": objs[k:] + objs[:k]}
        cycle["self"] = cycle
        del a, ctx, objs, cycle
        gc.collect()
        assert kept.live == 0, i


def test_raw_cffi_objects_are_not_exported():
    assert "ffi" not in vs.__all__ and "lib" not in vs.__all__
    assert not hasattr(vs, "ffi") and not hasattr(vs, "lib")
