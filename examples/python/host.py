#!/usr/bin/env python3
"""A minimal Python host of libvelstatus.

1. Classifies every bundled BSL example (examples/bsl/*.json) exactly as
   `velstatus server-status` does (with --json: one line per file, the
   verdict as `velstatus server-status -o json` prints it).
2. Patches a server status through the retry policy, the patch failing
   twice, with a fake clock: no real sleeping.

Run from a build tree:
    PYTHONPATH=$srcdir/bindings/python:$builddir/bindings/python \\
        python3 examples/python/host.py [--json] [BSL_DIR]
"""

import glob
import os
import sys

import velstatus


def classify_examples(bsl_dir, as_json):
    for path in sorted(glob.glob(os.path.join(bsl_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            verdict = velstatus.server_status(f.read())
        name = os.path.basename(path)
        print("%s %s" % (name, verdict.json) if as_json else "%-24s %s" % (name, verdict))


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
    bsl_dir = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bsl")
    classify_examples(bsl_dir, as_json)
    if not as_json:
        patch_with_retry()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
