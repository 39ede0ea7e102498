# SPDX-License-Identifier: Apache-2.0
"""Retry: Backoff (Step and iterator), retry() with a fake clock, conformance
vectors (the copy vendored under tests/data/conformance), transitions."""

import json
import os

import pytest

import velstatus as vs

MS = 10**6


def vectors():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "..", "tests", "data", "conformance", "backoff-vectors.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class FakeClock:
    """A monotonic clock that only sleep() moves."""

    def __init__(self, start=1_000_000_000):
        self.ns = start
        self.slept = []

    def sleep(self, seconds):
        ns = round(seconds * 1e9)
        self.slept.append(ns)
        self.ns += ns

    def now(self):
        return self.ns


class Flaky:
    """fn for retry(): raises the scripted errors, then returns a value."""

    def __init__(self, script, value="done"):
        self.script = list(script)
        self.value = value
        self.calls = 0
        self.raised = []

    def __call__(self):
        self.calls += 1
        step = self.script[min(self.calls, len(self.script)) - 1]
        if step == "ok":
            return self.value
        exc = Retriable("%s error at attempt %d" % (step.split("_")[0], self.calls))
        exc.kind = step
        self.raised.append(exc)
        raise exc


class Retriable(Exception):
    kind = "retriable"


def classify(exc):
    # the vectors' scripts: retriable / fatal / fatal_deadline / fatal_waittimeout
    if exc.kind == "retriable":
        return vs.RetryClass.TRANSIENT
    return ("terminal", exc.kind in ("fatal_deadline", "fatal_waittimeout"))


def test_presets():
    b = vs.Backoff.velero_cap("10m")
    assert (b.duration_ns, b.factor, b.jitter, b.steps, b.cap_ns) == (10 * MS, 5.0, 0.1, 2**63 - 1, 600 * 10**9)
    assert vs.Backoff.default_retry() == vs.Backoff.preset("default_retry")
    assert vs.Backoff.default_backoff().steps == 4
    assert vs.Backoff.velero_cap(-1).cap_ns == 0  # Velero clamps a negative cap
    assert vs.Backoff().as_dict() == {"duration_ns": 0, "factor": 0.0, "jitter": 0.0, "steps": 0, "cap_ns": 0}
    with pytest.raises(AttributeError):
        vs.Backoff(nope=1)


def test_step_matches_vectors():
    for case in vectors()["backoff_cases"]:
        b = vs.Backoff(duration_ns=case["duration_ns"], factor=case["factor"], jitter=case["jitter"],
                       steps=case["steps"], cap_ns=case["cap_ns"])
        for i, want in enumerate(case["sleeps_ns"]):
            assert b.step(0.0) == want, (case["name"], i)
            assert b.duration_ns == case["durations_after_ns"][i], (case["name"], i)
            assert b.steps == case["steps_after"][i], (case["name"], i)


def test_step_rejects_bad_random():
    b = vs.Backoff.default_backoff()
    with pytest.raises(vs.RangeError):
        b.step(1.0)
    assert b.steps == 4  # unchanged on failure


def test_iterator_is_the_loop_and_equals_the_dry_run():
    b = vs.Backoff.velero_cap("1s")
    b.jitter = 0
    sleeps = list(b)
    assert sleeps == [10 * MS, 50 * MS, 250 * MS]   # cap_backoff_1s: the third sleep buys no attempt
    assert b.steps == 2**63 - 1                      # the backoff itself is not advanced
    dry = b.simulate()
    assert list(dry.sleeps) == sleeps and dry.trailing_sleep and dry.outcome is vs.RetryOutcome.EXHAUSTED
    assert list(vs.Backoff.default_retry().copy(jitter=0)) == [10 * MS] * 4
    # jitter draws from the injected random, only when jitter > 0
    draws = iter([0.5, 0.0, 0.25])
    # d + trunc(r * 0.1 * d): 10 ms + 0.5 ms, 50 ms + 0, 250 ms + 6.25 ms
    assert list(vs.Backoff.default_backoff().sleeps(lambda: next(draws))) == [
        10_500_000, 50_000_000, 256_250_000]
    assert list(vs.Backoff(steps=1, duration_ns=MS)) == []


def test_on_error_vectors_with_fake_clock():
    for case in vectors()["on_error_cases"]:
        b = vs.Backoff(**case["backoff"])
        clock = FakeClock()
        fn = Flaky(case["script"])
        r = vs.retry_result(fn, b, classify=classify, sleep=clock.sleep, clock=clock.now,
                            random=lambda: pytest.fail("no jitter in the vectors"))
        name = case["name"]
        assert r.attempts == case["attempts"] == fn.calls, name
        assert list(r.sleeps) == case["sleeps_ns"] == clock.slept, name
        assert r.trailing_sleep == case["trailing_sleep"], name
        want = case["result_by_client_go"]["v0.36.0"]  # what Velero main pins
        if want["kind"] == "nil":
            assert r.error is None, name
        else:
            assert r.error is fn.raised[want["from_attempt"] - 1], name  # the very exception
            assert str(r.error) == want["message"] and r.error_attempt == want["from_attempt"], name


def test_retry_returns_value_or_raises_the_original():
    clock = FakeClock()
    fn = Flaky(["retriable", "retriable", "ok"], value=42)
    assert vs.retry(fn, vs.Backoff.default_retry(), sleep=clock.sleep, random=lambda: 0.0) == 42
    assert clock.slept == [10 * MS, 10 * MS]
    fn = Flaky(["retriable"])
    with pytest.raises(Retriable) as ei:
        vs.retry(fn, vs.Backoff.default_retry(), sleep=clock.sleep, random=lambda: 0.0)
    assert ei.value is fn.raised[-1] and fn.calls == 5
    assert vs.retry(Flaky(["ok"]), vs.Backoff(steps=0)) is None  # steps <= 0: no attempt


def test_hardened_deadline_with_fake_clock():
    clock = FakeClock()
    s = vs.RetrySchedule.hardened(base_ns="100ms", factor=2.0, jitter=0.0, max_sleep_ns="1s",
                                  max_attempts=100, deadline_ns="3s")
    r = vs.retry_result(Flaky(["retriable"]), schedule=s, sleep=clock.sleep, clock=clock.now,
                        random=lambda: 0.0)
    assert r.outcome is vs.RetryOutcome.DEADLINE
    assert clock.ns - 1_000_000_000 == r.total_sleep <= 3 * 10**9
    assert list(r.sleeps[:4]) == [100 * MS, 200 * MS, 400 * MS, 800 * MS] and max(r.sleeps) == 10**9
    # terminal errors are not retried
    r = vs.retry_result(Flaky(["fatal"]), schedule=s, classify=classify, sleep=clock.sleep, clock=clock.now)
    assert r.outcome is vs.RetryOutcome.TERMINAL and r.attempts == 1


def test_policy_driver():
    clock = FakeClock()
    # Velero: CapBackoff(resource_timeout), every error retried, classify not called
    r = vs.retry_result(Flaky(["fatal"]), policy="velero", resource_timeout="1s", sleep=clock.sleep,
                        clock=clock.now, random=lambda: 0.0, classify=lambda e: pytest.fail("called"))
    assert r.outcome is vs.RetryOutcome.EXHAUSTED and r.attempts == 3 and r.trailing_sleep
    r = vs.retry_result(Flaky(["fatal"]), resource_timeout="1s", classify=classify, sleep=clock.sleep,
                        clock=clock.now, random=lambda: 0.0)
    assert r.outcome is vs.RetryOutcome.TERMINAL and r.attempts == 1


class Stop(Exception):
    pass


@pytest.mark.parametrize("where", ["classify", "sleep", "random", "clock"])
def test_exception_in_a_host_callable_surfaces_unchanged(where):
    stop = Stop(where)
    clock = FakeClock()

    def boom(*a):
        raise stop

    kw = dict(classify=classify, sleep=clock.sleep, random=lambda: 0.5, clock=clock.now)
    kw[where] = boom
    with pytest.raises(Stop) as ei:
        vs.retry(Flaky(["retriable"]), schedule=vs.RetrySchedule(), **kw)
    assert ei.value is stop


def test_base_exception_from_fn_aborts_the_run():
    calls = []

    def fn():
        calls.append(1)
        raise KeyboardInterrupt()

    with pytest.raises(KeyboardInterrupt):
        vs.retry(fn, vs.Backoff.default_retry(), sleep=lambda s: None)
    assert len(calls) == 1


def test_retry_leaks_nothing_under_failed_allocations():
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    n = 0
    while True:
        a.calls, a.fail_at = 0, n
        try:
            r = vs.retry_result(Flaky(["retriable", "retriable", "ok"]), vs.Backoff.default_retry(),
                                sleep=lambda s: None, random=lambda: 0.0, ctx=ctx)
            break
        except vs.NoMemory:
            assert a.live == 1
            n += 1
        finally:
            a.fail_at = None
    assert n > 0 and r.value == "done" and a.live == 1


def test_retry_transition():
    # doc/velero-behaviour.md §4.3: InProgress -> Finalizing is retried; the queue's moves are not.
    assert vs.retry_transition("backup", "InProgress", "Finalizing", policy="velero") is True
    assert vs.retry_transition("backup", "New", "Queued", policy="velero") is False
    # §6.15: the startup InProgress -> Failed is sent once by Velero, retried when hardened
    assert vs.retry_transition("backup", "InProgress", "Failed", at_startup=True, policy="velero") is False
    assert vs.retry_transition("backup", "InProgress", "Failed", at_startup=True) is True


def test_enums():
    assert [str(c) for c in vs.RetryClass] == ["transient", "conflict", "terminal"]
    assert vs.RetryOutcome.DEADLINE == "deadline"
    assert {str(k) for k in vs.BackoffKind} == {"velero_cap", "default_backoff", "default_retry"}
