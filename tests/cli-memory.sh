#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The CLI's memory bound (issue 10; include/velstatus/json.h,
# doc/hostile-inputs.md): peak RSS <= 2 x the input + 320 bytes per record
# for `operations check`, `operations format` and `progress`, on 1,000,000
# `{}` records (3 MB of input, so the per-record part, 320 MB, dominates;
# every `{}` record has four problems for `check` and 192 bytes of output
# for `format`). Measured with tests/peak_rss (getrusage of the child).
# Skipped under the sanitizers (ASan's shadow memory is not the program's).
set -u
v=${VELSTATUS:?}
peak=${VS_BUILDDIR:?}/tests/peak_rss
if [ "${VS_SANITIZERS:-no}" = yes ]; then echo "skip: sanitizer build"; exit 77; fi
[ -x "$peak" ] || { echo "FAIL: $peak not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-mem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=1000000
{ printf '['; yes '{},' | head -n $((n - 1)) | tr -d '\n'; printf '{}]'; } >"$tmp/in.json"
size=$(wc -c <"$tmp/in.json" | tr -d ' ')
[ "$size" = $((3 * n + 1)) ] || { echo "FAIL: generated $size bytes, want $((3 * n + 1))"; exit 1; }
bound=$((2 * size + 320 * n))

# measure NAME WANT_RC ARGS... : runs velstatus ARGS... on the input, checks
# the exit status and that the peak is within the bound (and above the input,
# which the million records outweigh: a sanity check of the measurement)
measure() {
    name=$1; want=$2; shift 2
    "$peak" "$tmp/rss" "$v" "$@" "$tmp/in.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL $name: peak_rss"; fail=1; return; }
    read -r rc kib <"$tmp/rss"
    bytes=$((kib * 1024))
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, want $want"; head -n 3 "$tmp/err"; fail=1
    elif [ "$bytes" -gt "$bound" ] || [ "$bytes" -le "$size" ]; then
        echo "FAIL $name: peak $bytes bytes, bound $bound (2 x $size + 320 x $n)"; fail=1
    else
        echo "ok $name: peak $bytes bytes, $((bytes * 100 / bound))% of the bound $bound"
    fi
}
measure "operations check" 1 operations check
tail -n 1 "$tmp/out" | grep -qF "$n backup operations, $((4 * n)) problems" \
    && echo "ok check listed every problem" || { echo "FAIL check summary: $(tail -n 1 "$tmp/out")"; fail=1; }
[ "$(wc -l <"$tmp/out" | tr -d ' ')" = $((4 * n + 1)) ] || { echo "FAIL check printed $(wc -l <"$tmp/out") lines"; fail=1; }
measure "operations check -o json" 1 operations check -o json
measure "operations format" 0 operations format
[ "$(wc -c <"$tmp/out" | tr -d ' ')" = $((192 * n + 2)) ] || { echo "FAIL format wrote $(wc -c <"$tmp/out") bytes"; fail=1; }
measure "progress" 0 progress --now 2024-05-01T12:00:00Z

# The input is never held whole (issue 15: the streaming decoder): 20,000
# records, each followed by 3,000 bytes of whitespace (60 MB), plain and
# gzip-compressed; peak RSS must stay under half the (decompressed) input,
# and both must give what the one-shot library call gives (the output of a
# compact copy, which is small enough to hold).
# The same without a key that names the kind (issue 24: the CLI kept every
# byte while it looked for one): the decoder takes the kind as it reads.
m=20000
pad=$(printf '%3000s' '')
for rec in '{"spec":{"backupName":"b"}}' '{"spec":{"operationID":"op"},"status":{"phase":"New"}}'; do
{ printf '['; i=1; while [ $i -lt $m ]; do printf '%s%s,\n' "$rec" "$pad"; i=$((i + 1)); done; printf '%s]\n' "$rec"; } >"$tmp/pad.json"
psize=$(wc -c <"$tmp/pad.json" | tr -d ' ')
gzip -1 -c "$tmp/pad.json" >"$tmp/pad.json.gz"
tr -d ' \n' <"$tmp/pad.json" >"$tmp/compact.json"
"$v" operations format "$tmp/compact.json" >"$tmp/want" 2>"$tmp/err" || { echo "FAIL format compact"; fail=1; }
for f in pad.json pad.json.gz; do
    "$peak" "$tmp/rss" "$v" operations format "$tmp/$f" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL $f: peak_rss"; fail=1; continue; }
    read -r rc kib <"$tmp/rss"
    bytes=$((kib * 1024))
    if [ "$rc" != 0 ] || ! cmp -s "$tmp/out" "$tmp/want"; then
        echo "FAIL streamed $f: exit $rc, output differs from the compact file's"; head -n 3 "$tmp/err"; fail=1
    elif [ "$bytes" -ge $((psize / 2)) ]; then
        echo "FAIL streamed $f: peak $bytes bytes, not under half the $psize-byte input"; fail=1
    else
        echo "ok streamed $f: peak $bytes bytes for a $psize-byte input ($rec)"
    fi
done
done
exit $fail
