# SPDX-License-Identifier: Apache-2.0
"""The forecast (forecast.h): the done-when case compared with `velstatus explain -o json`,
stepped against reconcile with a Python plugin answering the recorded progress, both presets,
errors and every allocation failure."""

import json
import os

import pytest

import velstatus as vs

NOW = "2024-05-01T11:00:30Z"


def data(srcdir, name):
    return os.path.join(srcdir, "tests", "data", "explain", name)


def timeout_ops(srcdir, ctx=None):
    with open(data(srcdir, "timeout-itemoperations.json"), encoding="utf-8") as f:
        return vs.OpList.from_json(f.read(), ctx=ctx)


def forecast(ops, policy="velero"):
    return ops.forecast(now=NOW, timeout="4h", completed_before=1, failed_before=1, policy=policy)


def assert_timeline(f, want):
    assert f.end == vs.ForecastEnd[want["end"].upper()] and str(f.end) == want["end"]
    assert f.final_phase == want["finalPhase"]
    assert len(f.events) == len(want["events"])
    for ev, w in zip(f.events, want["events"]):
        assert ev.at == vs.parse_time(w["at"])
        assert ev.result.phase == w["phase"]
        assert [c.operation_id for c in ev.result.canceled] == w["canceled"]
        assert list(ev.result.errors) == w["errors"]
        assert str(ev.result.persist) == w["persist"]


def test_forecast_matches_explain_json(srcdir, cli):
    want = json.loads(cli("explain", "-o", "json", "--now", NOW, "--operations", data(srcdir, "timeout-itemoperations.json"),
                          "--bsls", data(srcdir, "bsls-available.json"), data(srcdir, "timeout-backup.json")))
    ops = timeout_ops(srcdir)
    f = forecast(ops)
    assert f.phase is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS
    assert_timeline(f, want["timeline"])
    assert_timeline(forecast(ops, "hardened"), want["otherPreset"]["timeline"])
    for op, w in zip(f.operations, want["operations"]):
        assert str(op.fate) == w["fate"] and str(op.eta) == w["eta"]
        assert op.event == w["event"]
        assert op.deadline == (vs.parse_time(w["deadline"]) if w["deadline"] else None)
        assert op.finish == (vs.parse_time(w["finish"]) if w["finish"] else None)
    # the done-when: the timeout and Cancel at created + 4h + 1ns, then FinalizingPartiallyFailed
    assert f.events[0].at == vs.parse_time("2024-05-01T14:00:00Z") + 1
    assert f.operations[0].fate is vs.ForecastFate.TIMES_OUT and f.operations[0].eta is vs.ForecastEta.AFTER
    assert f.final_phase is vs.Phase.FINALIZING_PARTIALLY_FAILED


def test_forecast_steps_like_reconcile(srcdir):
    """The real pass with a Python plugin echoing each record decides what the forecast says, at
    each forecast instant, and nothing one nanosecond before it."""
    for policy in ("velero", "hardened"):
        ops = timeout_ops(srcdir)
        f = forecast(ops, policy)
        sim = timeout_ops(srcdir)
        recorded = {op.operation_id: op for op in sim}

        def progress(op):
            r = recorded[op.operation_id]
            return vs.Progress(n_completed=r.n_completed, n_total=r.n_total, operation_units=r.operation_units,
                               description=r.description, started=r.started, updated=r.updated)

        phase, counts = vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS, (1, 1)
        prev = vs.parse_time(NOW)
        for ev in f.events:
            if ev.at - 1 > prev:
                quiet = sim.reconcile(progress, lambda op: None, now=ev.at - 1, phase=phase, completed_before=counts[0],
                                      failed_before=counts[1], policy=policy)
                assert quiet.phase == phase and not quiet.canceled and not quiet.errors
            r = sim.reconcile(progress, lambda op: None, now=ev.at, phase=phase, completed_before=counts[0],
                              failed_before=counts[1], policy=policy)
            assert r == ev.result
            phase, counts, prev = r.phase, (r.completed, r.failed), ev.at


def test_forecast_presets_and_errors():
    ops = vs.OpList()
    ops.append(operation_id="op", item_action="p", phase="InProgress", created=vs.parse_time("2024-05-01T10:00:00Z"))
    velero = ops.forecast(now="2024-05-01T09:00:00Z", timeout="0s", policy="velero")
    assert velero.events[0].at == vs.parse_time("2024-05-01T10:00:00Z") + 1
    hardened = ops.forecast(now="2024-05-01T09:00:00Z", timeout="0s", policy="hardened")
    assert hardened.events == () and hardened.end is vs.ForecastEnd.STALLED
    assert hardened.operations[0].fate is vs.ForecastFate.NO_TIMEOUT and hardened.operations[0].event is None
    with pytest.raises(vs.StateError):
        ops.forecast(now=0, phase="InProgress")
    with pytest.raises(vs.InvalidArgument):
        ops.forecast(now=0, errors=-1)
    ops.close()
    with pytest.raises(vs.StateError):
        ops.forecast(now=0)
    assert str(vs.ForecastFate.TIMES_OUT) == "times_out" and str(vs.ForecastEta.NO_DEADLINE) == "no_deadline"


def test_forecast_no_memory_leaks_nothing(srcdir, each_allocation_failing):
    f, n = each_allocation_failing(lambda ctx: timeout_ops(srcdir, ctx), forecast)
    assert n > 0 and f.final_phase is vs.Phase.FINALIZING_PARTIALLY_FAILED
