#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A minimal Python host of libvelstatus.

1. Classifies every bundled BSL example (examples/bsl/*.json) exactly as
   `velstatus server-status` does (with --json: one line per file, the
   verdict as `velstatus server-status -o json` prints it).
2. Runs one reconcile pass of the operations controller over the bundled
   backup's itemoperations file, with the plugin's Progress() and Cancel()
   written in Python (answering from examples/operations/backup-progress.json),
   prints the progress summary, then shows a Progress() that raises: its
   exception comes out of reconcile() unchanged.
3. Patches a server status through the retry policy, the patch failing
   twice, with a fake clock: no real sleeping.

Run from a build tree:
    PYTHONPATH=$srcdir/bindings/python:$builddir/bindings/python \\
        python3 examples/python/host.py [--json] [BSL_DIR]
"""

import glob
import json
import os
import sys

import velstatus


def classify_examples(bsl_dir, as_json):
    for path in sorted(glob.glob(os.path.join(bsl_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            verdict = velstatus.server_status(f.read())
        name = os.path.basename(path)
        print("%s %s" % (name, verdict.json) if as_json else "%-24s %s" % (name, verdict))


class Plugin:
    """A plugin client in Python: Progress() and Cancel() by operation ID."""

    def __init__(self, answers):
        self.answers = answers
        self.calls = []

    def progress(self, op):
        self.calls.append(("progress", op.operation_id))
        a = self.answers.get(op.operation_id)
        if a is None:
            return velstatus.Progress.error("operation ID %s is invalid" % op.operation_id)
        if "lookupError" in a:
            return velstatus.Progress.lookup_error(a["lookupError"])
        if "error" in a:
            return velstatus.Progress.error(a["error"])
        return velstatus.Progress(
            completed=a.get("completed", False), n_completed=a.get("nCompleted", 0),
            n_total=a.get("nTotal", 0), err=a.get("err", ""), operation_units=a.get("operationUnits", ""),
            description=a.get("description", ""), started=a.get("started"), updated=a.get("updated"))

    def cancel(self, op):
        self.calls.append(("cancel", op.operation_id))
        return self.answers.get(op.operation_id, {}).get("cancelError")


def reconcile_example(ops_dir, now="2024-05-01T10:30:00Z"):
    with open(os.path.join(ops_dir, "backup-progress.json"), encoding="utf-8") as f:
        plugin = Plugin(json.load(f))
    with open(os.path.join(ops_dir, "backup-itemoperations.json"), encoding="utf-8") as f:
        ops = velstatus.OpList.from_json(f.read(), velstatus.Kind.BACKUP)
    with ops:
        r = ops.reconcile(plugin.progress, plugin.cancel, now=now, timeout="4h",
                          phase=velstatus.Phase.WAITING_FOR_PLUGIN_OPERATIONS)
        print("reconcile: %d Progress() and %d Cancel() calls in Python" % (
            sum(1 for c in plugin.calls if c[0] == "progress"), sum(1 for c in plugin.calls if c[0] == "cancel")))
        print("reconcile: next phase %s; %d completed, %d failed, %d in progress" % (
            r.phase, r.completed, r.failed, r.in_progress))
        for e in r.errors:
            print("reconcile: error: %s" % e)
        for c in r.canceled:
            print("reconcile: canceled %s (Cancel: %s)" % (c.operation_id, c.cancel_error or "ok"))
        print("progress: %s" % ops.progress(now).summary)

    # A plugin client that raises: the exception leaves reconcile() unchanged.
    class PluginCrash(Exception):
        pass

    def crashing_progress(op):
        raise PluginCrash("gRPC stream to %s reset" % op.item_action)

    with open(os.path.join(ops_dir, "backup-itemoperations.json"), encoding="utf-8") as f:
        ops = velstatus.OpList.from_json(f.read(), velstatus.Kind.BACKUP)
    with ops:
        try:
            ops.reconcile(crashing_progress, now=now)
        except PluginCrash as exc:
            print("reconcile: the Python plugin raised %r; it surfaced unchanged" % exc)


class FakeClock:
    def __init__(self):
        self.ns = 0

    def sleep(self, seconds):
        self.ns += round(seconds * 1e9)

    def now(self):
        return self.ns


class Conflict(Exception):
    pass


def patch_with_retry():
    clock = FakeClock()
    attempts = []

    def patch_status():
        attempts.append(clock.ns)
        if len(attempts) < 3:
            raise Conflict("the object has been modified; please apply your changes to the latest version")
        return "patched"

    result = velstatus.retry_result(
        patch_status, velstatus.Backoff.velero_cap("10m"), sleep=clock.sleep, clock=clock.now,
        random=lambda: 0.5)
    print("retry: %s after %d attempts, slept %s (fake clock at %s)" % (
        result.value, result.attempts, ", ".join(velstatus.format_duration(s) for s in result.sleeps),
        velstatus.format_duration(clock.ns)))


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bsl_dir = args[0] if args else os.path.join(examples, "bsl")
    classify_examples(bsl_dir, as_json)
    if not as_json:
        reconcile_example(os.path.join(examples, "operations"))
        patch_with_retry()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
