#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The watch soak (issue 24): server-status --watch fed the bench stream
# (tests/watch-stream.py bulk 100000, without its closing ERROR) BLOCKS times
# through one pipe, 10,000,000 events by default, with the process's peak
# RSS (VmHWM from /proc) read at 1M, 5M and 10M events and at the end. A
# flat peak means memory does not grow with the stream: the tracker holds
# one entry per BSL (51 here) and the splitter one event. Not part of
# `make check` (minutes of CPU); the figures are in doc/hostile-inputs.md.
# Usage: bench/watch-soak.sh [BLOCKS] (default 100), from the build directory.
set -eu
blocks=${1:-100}
src=$(cd "$(dirname "$0")/.." && pwd)
v=${VELSTATUS:-./tools/velstatus}
py=${PYTHON:-python3}
[ -r /proc/self/status ] || { echo "watch-soak.sh: needs /proc" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-soak.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$py" "$src/tests/watch-stream.py" bulk 100000 | sed '$d' >"$tmp/block.json"
per=$(wc -l <"$tmp/block.json" | tr -d ' ')
size=$(wc -c <"$tmp/block.json" | tr -d ' ')
mkfifo "$tmp/fifo"
start=$(date +%s)
"$v" server-status --watch --now 2026-11-30T13:00:00Z <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/fifo"
# hwm: the process's peak and current RSS, in KiB
hwm() { awk '/^VmHWM:/ { h = $2 } /^VmRSS:/ { r = $2 } END { printf "peak %s KiB, now %s KiB", h, r }' "/proc/$pid/status"; }
i=0
while [ "$i" -lt "$blocks" ]; do
    cat "$tmp/block.json" >&3
    i=$((i + 1))
    case $((i * per)) in
    999990 | 4999950 | 9999900 | 1000000 | 5000000 | 10000000)
        echo "$((i * per)) events ($((i * size)) bytes) fed, $(($(date +%s) - start)) s: $(hwm)" ;;
    esac
done
sleep 1 # the last pipe buffer is read
echo "end: $((blocks * per)) events fed: $(hwm)"
exec 3>&-
rc=0
wait "$pid" || rc=$?
echo "exit $rc after $(($(date +%s) - start)) s, $(wc -l <"$tmp/out" | tr -d ' ') lines, $(wc -l <"$tmp/err" | tr -d ' ') lines on stderr"
