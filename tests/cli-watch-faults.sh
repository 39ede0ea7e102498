#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus server-status --watch under faults (issue 24): a relist after
# kubectl restarts (every BSL ADDED again) adds no line; an ERROR event exits
# 3 with the verdict so far printed and the error on stderr, and nothing
# after it is read; a stream cut inside an object names the byte and line; a
# kubectl killed mid-write and restarted loses no event; garbage between
# events is reported and skipped; a burst of 100,000 events in one second
# prints exactly the changes. Each case also runs with the stream written
# into a pipe in random-sized pieces (tests/watch-stream.py chunked).
set -u
v=${VELSTATUS:?}
py=${PYTHON:-python3}
gen="$VS_SRCDIR/tests/watch-stream.py"
command -v "$py" >/dev/null 2>&1 || { echo "no python3"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-watchf.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
now=2026-11-30T13:00:00Z

# ev TYPE NAME RESOURCEVERSION DEFAULT PHASE: one compact event, as kubectl
# --output-watch-events -o json writes it with --output-watch-events piped
# through jq -c (kubectl's own indented form is in tests/cli-watch.sh).
ev() {
    printf '{"type":"%s","object":{"apiVersion":"velero.io/v1","kind":"BackupStorageLocation","metadata":{"name":"%s","namespace":"velero","resourceVersion":"%s"},"spec":{"default":%s,"provider":"aws","objectStorage":{"bucket":"b"}},"status":{"phase":"%s"}}}\n' "$@"
}
ready1="$now Ready: all 1 backup storage location available; default: default"
ready="$now Ready: all 2 backup storage locations available; default: default"
partial="$now PartiallyReady: 1 of 2 backup storage locations unavailable (second)"

# run NAME FILE WANT_RC WANT_OUT [ARGS]: the file, then the same bytes
# through a pipe in pieces, give exit WANT_RC and exactly WANT_OUT on
# stdout; stderr is left in $tmp/err (of the piped run: the same text with
# stdin for the name).
run() {
    name=$1; f=$2; want_rc=$3; want_out=$4; shift 4
    printf '%s\n' "$want_out" >"$tmp/want"
    "$v" server-status --watch --now "$now" "$@" "$f" >"$tmp/out" 2>"$tmp/err.file"; rc=$?
    if [ "$rc" != "$want_rc" ] || ! cmp -s "$tmp/out" "$tmp/want"; then
        no "$name (file): exit $rc, want $want_rc"; diff "$tmp/want" "$tmp/out"; cat "$tmp/err.file"; return
    fi
    "$py" "$gen" chunked 11 "$f" 2>/dev/null | "$v" server-status --watch --now "$now" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    sed "s|stdin:|$f:|" "$tmp/err" >"$tmp/err.pipe"
    if [ "$rc" != "$want_rc" ] || ! cmp -s "$tmp/out" "$tmp/want" || ! cmp -s "$tmp/err.pipe" "$tmp/err.file"; then
        no "$name (pipe): exit $rc, want $want_rc"; diff "$tmp/want" "$tmp/out"; diff "$tmp/err.file" "$tmp/err.pipe"; return
    fi
    ok "$name"
}

# 1. A relist: kubectl restarted (a new watch) sends every BSL ADDED again,
# with newer resourceVersions and the same state: no line. Both forms.
{
    ev ADDED default 1 true Available; ev ADDED second 2 false Available
    ev MODIFIED second 3 false Unavailable
    ev ADDED default 7 true Available; ev ADDED second 8 false Unavailable # the relist
    ev ADDED default 7 true Available; ev ADDED second 8 false Unavailable # and another
    ev MODIFIED second 9 false Available
} >"$tmp/relist.json"
run relist "$tmp/relist.json" 0 "$ready1
$partial
$ready"
[ -s "$tmp/err" ] && { no "relist: stderr"; cat "$tmp/err"; }
# the plain form (no --output-watch-events): the objects alone
sed 's/^{"type":"[A-Z]*","object":\(.*\)}$/\1/' "$tmp/relist.json" >"$tmp/relist-plain.json"
run relist-plain "$tmp/relist-plain.json" 0 "$ready1
$partial
$ready"

# 2. An ERROR event: the verdict so far on stdout, the Status on stderr with
# its byte and line, exit 3; the events after it are not read.
{
    ev ADDED default 1 true Available; ev ADDED second 2 false Available
    printf '%s\n' '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 100 (200)","reason":"Expired","code":410}}'
    ev MODIFIED second 3 false Unavailable
} >"$tmp/error.json"
off=$(head -n 2 "$tmp/error.json" | wc -c | tr -d ' ')
run error "$tmp/error.json" 3 "$ready1"
[ "$(cat "$tmp/err.file")" = "velstatus: server-status: $tmp/error.json: watch ERROR at byte $off (line 3): Expired: too old resource version: 100 (200) (code 410); list again and restart the watch" ] &&
    ok error-message || { no "error-message"; cat "$tmp/err.file"; }
# with --exit-status the ERROR still decides the exit status
"$v" server-status --watch --exit-status --now "$now" "$tmp/error.json" >/dev/null 2>&1; rc=$?
[ "$rc" = 3 ] && ok error-exit-status || no "error-exit-status: $rc"

# 3. The stream cut inside an object: reported with the byte and line of
# where it stopped (inside the last event), the events before it applied;
# exit 0 (2 with --strict, after the same lines).
{ ev ADDED default 1 true Available; ev ADDED second 2 false Available; ev MODIFIED second 3 false Unavailable; } >"$tmp/full.json"
cut=$(($(head -n 2 "$tmp/full.json" | wc -c) + 60))
head -c "$cut" "$tmp/full.json" >"$tmp/cut.json"
start=$(head -n 2 "$tmp/full.json" | wc -c | tr -d ' ')
run cut "$tmp/cut.json" 0 "$ready1"
byte=$(sed -n 's/.*malformed event at byte \([0-9]*\) (line 3): .*(skipped)$/\1/p' "$tmp/err.file")
[ -n "$byte" ] && [ "$byte" -ge "$start" ] && [ "$byte" -le "$cut" ] && [ "$(wc -l <"$tmp/err.file")" = 1 ] &&
    ok "cut-position (byte $byte of the event at $start, cut at $cut)" || { no cut-position; cat "$tmp/err.file"; }
run cut-strict "$tmp/cut.json" 2 "$ready1" --strict
# cut between two tokens: the end of the stream is named
head -c $((start + 29)) "$tmp/full.json" >"$tmp/cut2.json" # after '"object":{'
"$v" server-status --watch --now "$now" "$tmp/cut2.json" >/dev/null 2>"$tmp/err"
grep -q "malformed event at byte $((start + 29)) (line 3): the stream ends inside an object (skipped)$" "$tmp/err" &&
    ok cut-between-tokens || { no cut-between-tokens; cat "$tmp/err"; }

# 4. kubectl killed in the middle of a write, then restarted: the cut event
# is reported at its first byte and the relist's first event is applied
# (it was lost before issue 24: the second BSL never came back).
{
    ev ADDED default 1 true Available
    printf '%s\n' '{"type":"ADDED","object":{"apiVersion":"velero.io/v1","kind":"BackupStorageLocation",'
    ev ADDED second 2 false Unavailable; ev ADDED default 1 true Available
} >"$tmp/killed.json"
killed=$(head -n 1 "$tmp/killed.json" | wc -c | tr -d ' ')
run killed-mid-write "$tmp/killed.json" 0 "$ready1
$partial"
grep -q "malformed event at byte $killed (line 2): an object cut short: the next one starts on a later line (skipped)$" "$tmp/err.file" &&
    ok killed-position || { no killed-position; cat "$tmp/err.file"; }

# 5. Garbage between events: text, control bytes, a stray ']' and a JSON
# scalar; each stretch reported once with its line, every event applied.
{
    ev ADDED default 1 true Available
    printf 'garbage\n\001\002\033[0m }}]\n'
    ev ADDED second 2 false Available
    printf 'null\n   \n]\n'
    ev MODIFIED second 3 false Unavailable
    printf 'Error from server (NotFound): the server could not find the requested resource\n'
    ev MODIFIED second 4 false Available
} >"$tmp/garbage.json"
run garbage "$tmp/garbage.json" 0 "$ready1
$partial
$ready"
lines=$(sed -n "s/.*malformed event at byte [0-9]* (line \([0-9]*\)): a JSON object ('{') expected (skipped)$/\1/p" "$tmp/err.file" | tr '\n' ' ')
[ "$lines" = "2 5 9 " ] && [ "$(wc -l <"$tmp/err.file")" = 3 ] && ok "garbage-reported (lines $lines)" || { no "garbage-reported: $lines"; cat "$tmp/err.file"; }

# 6. A burst: 100,000 events with one clock second (--now), as fast as the
# pipe carries them. tests/watch-stream.py bulk: "default" ADDED, then
# MODIFIED events over 50 BSLs, event i Unavailable when (i / 1000) is odd,
# then an ERROR. A BSL goes down at i = 1000, 3000, ..., 99000 (PartiallyReady,
# 50 lines) and the last of the 50 comes back at i = 2049, 4049, ..., 98049
# (Ready, 49 lines); with the first Ready, 100 lines, alternating.
"$py" "$gen" bulk 100000 | "$v" server-status --watch --now "$now" >"$tmp/out" 2>"$tmp/err"; rc=$?
got=$(cut -d' ' -f2 "$tmp/out" | uniq -c | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }')
alt=$(cut -d' ' -f2 "$tmp/out" | awk 'NR % 2 == 1 && $0 != "Ready:" { bad = 1 } NR % 2 == 0 && $0 != "PartiallyReady:" { bad = 1 } END { print bad ? "no" : "yes" }')
if [ "$rc" = 3 ] && [ "$(wc -l <"$tmp/out" | tr -d ' ')" = 100 ] && [ "$alt" = yes ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] &&
    grep -q 'watch ERROR at byte [0-9]* (line 100000): Expired' "$tmp/err"; then
    ok "burst of 100000 events: 100 lines, alternating"
else
    no "burst: exit $rc, $(wc -l <"$tmp/out") lines ($got), alternating: $alt"; head -3 "$tmp/err"
fi
exit "$fail"
