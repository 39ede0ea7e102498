# SPDX-License-Identifier: Apache-2.0
"""The verdict as a Kubernetes condition and the Argo CD health of a phase
(doc/cli.md §6, §7), against the CLI's golden outputs and the documented
tables."""

import glob
import json
import os
import re

import pytest

import velstatus as vs

NOW = "2026-12-01T10:00:00.5Z"
REASON_RE = re.compile(r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
# doc/cli.md §6: the condition status of each server status
CONDITION_STATUS = {"Ready": "True", "PartiallyReady": "True", "Waiting": "Unknown", "NotReady": "False"}


def examples(srcdir):
    files = sorted(glob.glob(os.path.join(srcdir, "examples", "bsl", "*.json")))
    assert len(files) >= 6
    return files


def test_examples_match_cli_condition(srcdir, cli):
    for path in examples(srcdir):
        with open(path, encoding="utf-8") as f:
            v = vs.server_status(f.read())  # the CLI reads --now only for the time without --stale-after
        want = cli("server-status", "-o", "condition", "--now", NOW, path).decode("utf-8").rstrip("\n")
        got = v.condition(NOW)
        assert json.dumps(got, separators=(",", ":"), ensure_ascii=False) == want, path
        assert list(got) == list(json.loads(want)), path  # the key order too
        assert got["status"] == CONDITION_STATUS[str(v.status)], path
        assert got["reason"] == v.condition_reason == vs.condition_reason(v.reason_flags), path
        assert got["message"] == v.message and got["type"] == "Ready"
        assert got["lastTransitionTime"] == "2026-12-01T10:00:00Z"  # whole seconds, as metav1.Time


def test_condition_generation_and_time(srcdir):
    v = vs.server_status(open(examples(srcdir)[0], encoding="utf-8").read())
    c = v.condition(0, observed_generation=7)
    assert list(c) == ["type", "status", "observedGeneration", "lastTransitionTime", "reason", "message"]
    assert c["observedGeneration"] == 7 and c["lastTransitionTime"] == "1970-01-01T00:00:00Z"
    assert v.condition(0, observed_generation=0)["observedGeneration"] == 0
    assert "observedGeneration" not in v.condition(0)
    for bad in (-1, 1 << 63, True, 1.5, "3"):
        with pytest.raises(vs.InvalidArgument, match="observed_generation"):
            v.condition(0, observed_generation=bad)
    with pytest.raises(vs.VelstatusError):
        v.condition("not a time")


def test_condition_reason_precedence():
    r = vs.ServerReason
    assert vs.condition_reason(0) == "AllLocationsAvailable"
    # the documented precedence, most severe first
    order = [(r.NO_BSL, "NoLocations"), (r.ALL_UNAVAILABLE, "AllLocationsUnavailable"),
             (r.PENDING, "LocationsPending"), (r.SOME_UNAVAILABLE, "SomeLocationsUnavailable"),
             (r.SOME_PENDING, "SomeLocationsPending"), (r.NO_DEFAULT, "NoDefaultLocation")]
    for flag, reason in order:
        assert vs.condition_reason(flag) == reason
    every = 0
    for flag in r:
        every |= flag
        assert REASON_RE.match(vs.condition_reason(flag)), flag
    assert vs.condition_reason(every) == "NoLocations"
    assert vs.condition_reason(r.SOME_PENDING | r.SOME_UNAVAILABLE) == "SomeLocationsUnavailable"
    for bad in (-1, 1 << 32, "1", None):
        with pytest.raises(vs.InvalidArgument):
            vs.condition_reason(bad)


def test_condition_message_truncated():
    name = "\u00e9" * 6000  # 12000 bytes, a two-byte character
    bsls = [{"metadata": {"name": "%d%s" % (i, name), "creationTimestamp": "2026-01-01T00:00:00Z"},
             "spec": {"default": i == 0}, "status": {"phase": "Unavailable"}} for i in range(3)]
    v = vs.server_status(bsls)
    assert len(v.message.encode()) > 32768
    m = v.condition(0)["message"]
    raw = m.encode("utf-8")  # a valid UTF-8 cut, else this raised in the binding
    assert 32768 - 1 <= len(raw) <= 32768 and m.endswith(" ... (truncated)")
    assert v.message.startswith(m[:-len(" ... (truncated)")])


def test_argo_health_enum():
    assert [str(h) for h in vs.ArgoHealth] == ["healthy", "progressing", "degraded"]
    assert vs.ArgoHealth("degraded") is vs.ArgoHealth.DEGRADED and vs.ArgoHealth.HEALTHY.c == 0
    assert vs.ArgoHealth.from_c(2) is vs.ArgoHealth.DEGRADED
    with pytest.raises(ValueError):
        vs.ArgoHealth("Healthy")


DEGRADED = {"FailedValidation", "Failed", "PartiallyFailed", "WaitingForPluginOperationsPartiallyFailed",
            "FinalizingPartiallyFailed"}


@pytest.mark.parametrize("kind", ["backup", "restore"])
def test_argo_health_of_every_phase(kind):
    noun = kind.capitalize()
    seen = 0
    for phase in vs.Phase:  # Argo reads the text: a phase the kind lacks is judged alike
        seen += 1
        got = vs.argo_health(kind, phase, failure_reason="bucket gone")
        if phase is vs.Phase.COMPLETED:
            assert got == (vs.ArgoHealth.HEALTHY, "%s completed" % noun)
        elif str(phase) in DEGRADED:
            assert got == (vs.ArgoHealth.DEGRADED, "bucket gone"), phase
            assert vs.argo_health(kind, str(phase), "") == (vs.ArgoHealth.DEGRADED, "")  # Lua's `or` keeps ""
            assert vs.argo_health(kind, phase) == (vs.ArgoHealth.DEGRADED, str(phase))
        else:
            assert got == (vs.ArgoHealth.PROGRESSING, str(phase)), phase
    assert seen == 13
    assert vs.argo_health(kind, None) == (vs.ArgoHealth.PROGRESSING, "Waiting for %s to be processed" % kind)
    assert vs.argo_health(kind, "Exploded") == (vs.ArgoHealth.PROGRESSING, "Exploded")  # unknown: Argo's answer
    assert vs.argo_health(kind, "completed") == (vs.ArgoHealth.PROGRESSING, "completed")  # exact match
    assert vs.argo_health(kind, "") == (vs.ArgoHealth.PROGRESSING, "")
    r = vs.argo_health(vs.Kind(kind), "Failed", "\u00e9t\u00e9")
    assert r.health is vs.ArgoHealth.DEGRADED and r.message == "\u00e9t\u00e9"


def test_argo_health_deleting():
    assert vs.argo_health("backup", "Completed", deleting=True) == (vs.ArgoHealth.PROGRESSING, "Pending deletion")
    assert vs.argo_health("backup", "Failed", "x", True) == (vs.ArgoHealth.PROGRESSING, "Pending deletion")
    # Argo's Restore check has no deletion branch
    assert vs.argo_health("restore", "Completed", deleting=True) == (vs.ArgoHealth.HEALTHY, "Restore completed")


def test_argo_health_bad_arguments():
    with pytest.raises(ValueError):
        vs.argo_health("schedule", "Completed")
    with pytest.raises(vs.InvalidArgument, match="failure_reason"):
        vs.argo_health("backup", "Failed", 3)


def test_condition_no_memory_leaks_nothing(srcdir):
    from test_server_status import failalloc_loop
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    with open(examples(srcdir)[0], encoding="utf-8") as f:
        text = f.read()
    calls = []

    def classify():
        v = vs.server_status(text, ctx=ctx)
        calls.append(a.calls)
        return v
    n, v = failalloc_loop(ctx, classify)
    # every allocation the call makes (the condition's, the last, included) failed once, leaking nothing
    assert n == calls[-1] and v.condition(0)["reason"] == "AllLocationsAvailable"
    assert a.live == 1
    ctx.close()
