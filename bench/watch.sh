#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# server-status --watch over a long stream: events per second and peak RSS,
# for N events and N/10 (the RSS must not grow with the stream's length).
# Usage: bench/watch.sh [N] (default 100000), from the build directory.
set -eu
n=${1:-100000}
src=$(cd "$(dirname "$0")/.." && pwd)
v=${VELSTATUS:-./tools/velstatus}
tmp=${TMPDIR:-/tmp}/vs_bench_watch.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
for k in $((n / 10)) "$n"; do
    python3 "$src/tests/watch-stream.py" bulk "$k" > "$tmp/s.json"
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$v" server-status --watch --now 2026-11-30T13:00:00Z < "$tmp/s.json" > "$tmp/out" 2>/dev/null || true
    read -r secs kb <<EOT
$(tail -1 "$tmp/t")
EOT
    printf '%s events (%s bytes): %s s, %s events/s, peak RSS %s KiB, %s lines\n' "$k" "$(wc -c < "$tmp/s.json")" "$secs" \
        "$(awk -v k="$k" -v s="$secs" 'BEGIN { if (s > 0) printf "%d", k / s; else print "n/a" }')" "$kb" "$(wc -l < "$tmp/out")"
done
