#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a BSL watch stream for tests/cli-watch.sh and bench/watch.sh.

  watch-stream.py record [--plain]       the recorded stream (pretty-printed events,
                                         or plain indented objects with --plain)
  watch-stream.py chunked SEED FILE      copies FILE to stdout in random-sized
                                         writes (1..300 bytes), flushed, with pauses,
                                         so the reader sees reads split at any byte
  watch-stream.py bulk N [--indent]      N compact events over 50 BSLs (a status
                                         change every 1000th), then an ERROR; one
                                         event a line, as the API server's watch
                                         sends them, or indented as kubectl -o json
                                         writes them
"""
import json
import random
import sys
import time


def bsl(name, phase, default=False, message=None, validated="2026-11-30T12:59:00Z"):
    o = {"apiVersion": "velero.io/v1", "kind": "BackupStorageLocation",
         "metadata": {"name": name, "namespace": "velero", "resourceVersion": "1",
                      "creationTimestamp": "2026-11-30T12:00:00Z"},
         "spec": {"default": default, "provider": "aws",
                  "objectStorage": {"bucket": "b-" + name}},
         "status": {"phase": phase, "lastValidationTime": validated}}
    if message:
        o["status"]["message"] = message
    return o


ERROR = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
         "message": "too old resource version: 100 (200)", "reason": "Expired", "code": 410}


def record(plain):
    """The events and, after each, whether the status or the reasons change."""
    ev = [("ADDED", bsl("default", "Available", True)),           # Ready
          ("ADDED", bsl("second", "Available")),                  # Ready, same reasons
          ("BOOKMARK", {"kind": "BackupStorageLocation", "apiVersion": "velero.io/v1",
                        "metadata": {"resourceVersion": "150"}}),
          ("MODIFIED", bsl("second", "Unavailable", message="bucket b-second not found")),  # PartiallyReady
          ("MODIFIED", bsl("second", "Unavailable", message="still not found")),            # no change
          ("MALFORMED", None),
          ("MODIFIED", bsl("default", "Unavailable")),            # NotReady
          ("DELETED", bsl("second", "Unavailable")),              # NotReady, one BSL: same reasons
          ("MODIFIED", bsl("default", "Available", True)),        # Ready
          ("ERROR", ERROR)]
    out = []
    for typ, obj in ev:
        if plain and typ in ("BOOKMARK", "DELETED"):
            continue  # the plain form has no event types: deletions are invisible
        if typ == "MALFORMED":
            out.append('{\n    "type": "MODIFIED",\n    "object": {"metadata": {"name": oops}}\n}\n')
            continue
        doc = obj if plain else {"type": typ, "object": obj}
        out.append(json.dumps(doc, indent=4) + "\n")
    sys.stdout.write("".join(out))


def chunked(seed, path):
    data = open(path, "rb").read()
    rng = random.Random(int(seed))
    out = sys.stdout.buffer
    i = 0
    while i < len(data):
        n = rng.randint(1, 300)
        out.write(data[i:i + n])
        out.flush()
        i += n
        if rng.random() < 0.3:
            time.sleep(0.002)


def bulk(n, indent):
    out = sys.stdout
    names = ["bsl-%02d" % i for i in range(50)]

    def put(doc):
        out.write((json.dumps(doc, indent=4) if indent else json.dumps(doc, separators=(",", ":"))) + "\n")

    put({"type": "ADDED", "object": bsl("default", "Available", True)})
    for i in range(1, int(n) - 1):
        name = names[i % 50]
        phase = "Unavailable" if (i // 1000) % 2 else "Available"
        put({"type": "MODIFIED", "object": bsl(name, phase)})
    put({"type": "ERROR", "object": ERROR})

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "record":
        record("--plain" in sys.argv)
    elif cmd == "chunked":
        chunked(sys.argv[2], sys.argv[3])
    elif cmd == "bulk":
        bulk(sys.argv[2], "--indent" in sys.argv)
