# SPDX-License-Identifier: Apache-2.0
"""examples/python/host.py: classifies the bundled BSL examples exactly as the CLI does."""

import glob
import json
import os
import subprocess
import sys


def run_host(srcdir, *args):
    host = os.path.join(srcdir, "examples", "python", "host.py")
    out = subprocess.run([sys.executable, host, *args], check=True, stdout=subprocess.PIPE,
                         env=dict(os.environ)).stdout
    return out.decode("utf-8").splitlines()


def test_example_classifies_like_the_cli(srcdir, cli):
    lines = run_host(srcdir, "--json")
    got = dict(line.split(" ", 1) for line in lines)
    files = sorted(glob.glob(os.path.join(srcdir, "examples", "bsl", "*.json")))
    assert sorted(got) == [os.path.basename(f) for f in files] and len(files) >= 6
    for path in files:
        # the CLI appends the namespace and the locations to the verdict the library writes
        want = json.loads(cli("server-status", "-o", "json", path))
        assert isinstance(want.pop("locations"), list)
        want.pop("namespace")
        assert json.loads(got[os.path.basename(path)]) == want, path


def test_example_runs_end_to_end(srcdir, cli):
    lines = run_host(srcdir)
    text = "\n".join(lines)
    for path in glob.glob(os.path.join(srcdir, "examples", "bsl", "*.json")):
        want = cli("server-status", path).decode("utf-8").splitlines()[0]  # the verdict line; the table follows
        assert any(line.split(None, 1) == [os.path.basename(path), want] for line in lines), path
    assert "retry: patched after 3 attempts, slept 10.5ms, 52.5ms" in text
    # the reconcile driven by Python callbacks agrees with the CLI's
    ops_dir = os.path.join(srcdir, "examples", "operations")
    want = json.loads(cli("operations", "reconcile", "--kind", "backup", "--phase", "WaitingForPluginOperations",
                          "--now", "2024-05-01T10:30:00Z", "--timeout", "4h", "--progress",
                          os.path.join(ops_dir, "backup-progress.json"), "-o", "json",
                          os.path.join(ops_dir, "backup-itemoperations.json")))
    assert ("reconcile: next phase %s; %d completed, %d failed, %d in progress" % (
        want["phase"], want["completed"], want["failed"], want["inProgress"])) in lines
    for e in want["errors"]:
        assert "reconcile: error: " + e in lines
    assert [line.split()[2] for line in lines if line.startswith("reconcile: canceled ")] == want["canceled"]
    # the records after the pass, kept in the tree so the CLI's golden summary of them can be read
    after = os.path.join(srcdir, "tests", "data", "cli-golden", "inputs", "backup-after-reconcile-itemoperations.json")
    with open(after, encoding="utf-8") as f:
        assert json.load(f) == want["operations"]
    summary = cli("progress", "--now", "2024-05-01T10:30:00Z", after).decode().rstrip("\n")
    assert "progress: " + summary in lines  # the CLI's summary of the records after the pass
    assert any(line.startswith("reconcile: the Python plugin raised PluginCrash(") for line in lines)
