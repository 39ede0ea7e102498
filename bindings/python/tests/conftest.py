# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures. The tests import ``velstatus`` from wherever Python finds
it (run-tests.sh puts the source package and the build-tree module on
PYTHONPATH; an installed package works as well) and read their data from the
source tree, located from this file.

Comparisons with the velstatus CLI read golden files kept in the tree
(tests/data/cli-golden: ``<key>.args``, one argument a line with paths relative
to the top of the tree, and ``<key>.out``, the CLI's exact stdout), so no built
CLI is needed; tests/cli-golden.sh (make check) runs every recorded command
through the built CLI and fails on any difference. To record a new command,
run the tests once with VS_CLI_GOLDEN_RECORD=1 and VELSTATUS set to a built
tools/velstatus: missing pairs are written.
"""

import hashlib
import os
import subprocess

import pytest

TOP_SRCDIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session")
def srcdir():
    return TOP_SRCDIR


def _normalise(args):
    norm = []
    for a in args:
        a = str(a)
        if os.path.exists(a):
            rel = os.path.relpath(os.path.abspath(a), TOP_SRCDIR)
            assert not rel.startswith(".."), "velstatus argument %s is outside the source tree" % a
            a = rel.replace(os.sep, "/")
        norm.append(a)
    return norm


def cli_stdout(*args):
    """What ``velstatus args...`` prints (bytes, the final newline kept), from its golden file."""
    norm = _normalise(args)
    key = hashlib.sha256(("\n".join(norm) + "\n").encode("utf-8")).hexdigest()[:16]
    base = os.path.join(TOP_SRCDIR, "tests", "data", "cli-golden", key)
    try:
        with open(base + ".out", "rb") as f:
            return f.read()
    except FileNotFoundError:
        if os.environ.get("VS_CLI_GOLDEN_RECORD") != "1":
            raise AssertionError("no golden output for `velstatus %s`: record it with "
                                 "VS_CLI_GOLDEN_RECORD=1 VELSTATUS=tools/velstatus" % " ".join(norm)) from None
    # describe-operations prints local time; the goldens hold UTC
    out = subprocess.run([os.environ["VELSTATUS"], *norm], check=True, stdout=subprocess.PIPE,
                         cwd=TOP_SRCDIR, env={**os.environ, "TZ": "UTC"}).stdout
    with open(base + ".args", "w", encoding="utf-8") as f:
        f.write("\n".join(norm) + "\n")
    with open(base + ".out", "wb") as f:
        f.write(out)
    return out


@pytest.fixture(scope="session")
def cli():
    """``cli(*args)``: the velstatus CLI's stdout for args (bytes), from the golden files."""
    return cli_stdout


def _each_allocation_failing(make, call):
    """Fails allocation #0, #1, ... of ``call(obj)`` in turn, ``obj = make(ctx)``
    built first on a Context with a DebugAllocator (its allocations are not
    counted), until a run needs no more: every failing run must raise
    NoMemory and, once ``obj`` is closed, leave only the C context allocated.
    Returns the successful run's result and the number of runs that failed."""
    import velstatus as vs
    a = vs.DebugAllocator()
    ctx = vs.Context(allocator=a)
    n = 0
    while True:
        obj = make(ctx)
        a.calls, a.fail_at = 0, n
        try:
            return call(obj), n
        except vs.NoMemory:
            n += 1
        finally:
            a.fail_at = None
            obj.close()
            assert a.live == 1


@pytest.fixture(scope="session")
def each_allocation_failing():
    """``each_allocation_failing(make, call)``: see _each_allocation_failing."""
    return _each_allocation_failing
