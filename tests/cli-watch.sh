#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus server-status --watch: a recorded watch stream (pretty-printed
# events with a BOOKMARK, a DELETED, a malformed event and an ERROR at the
# end), written into a pipe in random-sized pieces, prints exactly one line
# per change of the status or the reasons and exits 3 at the ERROR; the plain
# form (no event types, kind: Status as the ERROR); -o json with observedAt;
# --strict; --exit-status; gzip; unknown event types.
set -u
v=${VELSTATUS:?}
py=${PYTHON:-python3}
gen="$VS_SRCDIR/tests/watch-stream.py"
tmp=${TMPDIR:-/tmp}/vs_watch.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
command -v "$py" >/dev/null 2>&1 || { echo "no python3"; exit 77; }
now=2026-11-30T13:00:00Z
"$py" "$gen" record > "$tmp/events.json"
"$py" "$gen" record --plain > "$tmp/plain.json"

cat > "$tmp/want.txt" <<EOT
$now Ready: all 1 backup storage location available; default: default
$now PartiallyReady: 1 of 2 backup storage locations unavailable (second)
$now NotReady: 2 of 2 backup storage locations unavailable (default, second); no default backup storage location
$now Ready: all 1 backup storage location available; default: default
EOT
for seed in 1 2 3 4 5; do
    "$py" "$gen" chunked "$seed" "$tmp/events.json" | "$v" server-status --watch --now "$now" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" = 3 ] && cmp -s "$tmp/out" "$tmp/want.txt" && [ "$(wc -l < "$tmp/err")" = 2 ] &&
       grep -q 'stdin: malformed event at byte [0-9]* (line [0-9]*): invalid literal.*(skipped)$' "$tmp/err" &&
       grep -q 'stdin: watch ERROR at byte [0-9]* (line [0-9]*): Expired: too old resource version: 100 (200) (code 410); list again and restart the watch$' "$tmp/err"; then
        ok "recorded stream, pieces seeded $seed"
    else
        no "recorded stream, pieces seeded $seed: exit $rc"; cat "$tmp/out" "$tmp/err"
    fi
done
# The malformed event's position is the same whatever the pieces: the file's.
"$v" server-status --watch --now "$now" "$tmp/events.json" 2>&1 >/dev/null | grep 'malformed' > "$tmp/pos.file"
"$py" "$gen" chunked 9 "$tmp/events.json" | "$v" server-status --watch --now "$now" 2>&1 >/dev/null | grep malformed |
    sed 's/stdin:/'"$(printf '%s' "$tmp/events.json" | sed 's/[\/&]/\\&/g')"':/' > "$tmp/pos.pipe"
cmp -s "$tmp/pos.file" "$tmp/pos.pipe" && [ -s "$tmp/pos.file" ] && ok malformed-position || no malformed-position
# The byte named is where the bad literal is.
off=$(sed -n 's/.*malformed event at byte \([0-9]*\) .*/\1/p' "$tmp/pos.file")
[ "$(tail -c +$((off + 1)) "$tmp/events.json" | head -c 4)" = oops ] && ok malformed-offset || no "malformed-offset $off"

# -o json: the verdict of server-status -o json plus observedAt, one line per change.
"$py" "$gen" chunked 7 "$tmp/events.json" | "$v" server-status --watch -o json --now "$now" > "$tmp/json" 2>/dev/null
rc=$?
"$py" - "$tmp/json" "$now" <<'EOT' && [ "$rc" = 3 ] && ok json-lines || no "json-lines (exit $rc)"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
got = [(o["status"], o["reasons"], o["observedAt"]) for o in map(json.loads, lines)]
want = [("Ready", [], sys.argv[2]), ("PartiallyReady", ["some_unavailable"], sys.argv[2]),
        ("NotReady", ["all_unavailable", "no_default"], sys.argv[2]), ("Ready", [], sys.argv[2])]
assert got == want, got
assert list(json.loads(lines[0]))[-1] == "observedAt"
EOT
# The JSON line without observedAt is what server-status -o json gives for the same BSLs.
head -1 "$tmp/json" | sed 's/,"observedAt":"[^"]*"}$/}/' > "$tmp/first"
"$py" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["object"]))' "$tmp/events.json" 2>/dev/null > "$tmp/one.json" ||
    "$py" - "$tmp/events.json" > "$tmp/one.json" <<'EOT'
import json, sys
t = open(sys.argv[1]).read()
obj, _ = json.JSONDecoder().raw_decode(t)
print(json.dumps(obj["object"]))
EOT
# (the snapshot adds its "locations"; both carry the namespace)
"$v" server-status -o json "$tmp/one.json" | sed 's/,"locations":\[.*\]}$/}/' > "$tmp/snap"
[ "$(cat "$tmp/snap")" = "$(cat "$tmp/first")" ] && grep -q '"namespace":' "$tmp/first" && ok json-equals-snapshot ||
    no json-equals-snapshot

# Without --now the clock gives observedAt.
printf '%s\n' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}}}' |
    "$v" server-status --watch -o json | grep -q '"observedAt":"20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z"}$' && ok clock-observedAt || no clock-observedAt

# The plain form: each object an upsert, a kind: Status object is the ERROR.
cat > "$tmp/want-plain.txt" <<EOT
$now Ready: all 1 backup storage location available; default: default
$now PartiallyReady: 1 of 2 backup storage locations unavailable (second)
$now NotReady: 2 of 2 backup storage locations unavailable (default, second); no default backup storage location
$now PartiallyReady: 1 of 2 backup storage locations unavailable (second)
EOT
"$py" "$gen" chunked 3 "$tmp/plain.json" | "$v" server-status --watch --now "$now" > "$tmp/out" 2>/dev/null
rc=$?
[ "$rc" = 3 ] && cmp -s "$tmp/out" "$tmp/want-plain.txt" && ok plain-form || { no "plain-form: exit $rc"; cat "$tmp/out"; }

# --strict: the malformed event is fatal (exit 2), after the lines before it.
"$v" server-status --watch --strict --now "$now" "$tmp/events.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$tmp/out")" = 2 ] && grep -q 'malformed event at byte [0-9]* (line [0-9]*): invalid literal (true, false or null expected)$' "$tmp/err" &&
    ok strict || { no "strict: exit $rc"; cat "$tmp/err"; }

# --exit-status at the end of input: the last status's code; 0 without it.
head -c "$(grep -b '"type": "ERROR"' "$tmp/events.json" | cut -d: -f1)" "$tmp/events.json" | sed '$d' > "$tmp/noerr.json"
"$v" server-status --watch --now "$now" "$tmp/noerr.json" >/dev/null 2>&1; rc0=$?
"$v" server-status --watch --exit-status --now "$now" "$tmp/noerr.json" >/dev/null 2>&1; rc1=$?
[ "$rc0" = 0 ] && [ "$rc1" = 0 ] && ok exit-status-ready || no "exit-status-ready: $rc0 $rc1"
head -c "$(grep -b '"type": "DELETED"' "$tmp/events.json" | cut -d: -f1)" "$tmp/events.json" | sed '$d' > "$tmp/notready.json"
"$v" server-status --watch --exit-status --now "$now" "$tmp/notready.json" >/dev/null 2>&1; rc=$?
[ "$rc" = 5 ] && ok exit-status-notready || no "exit-status-notready: $rc"

# gzip, and an unknown event type (reported, skipped)
gzip -c "$tmp/events.json" > "$tmp/events.json.gz"
"$v" server-status --watch --now "$now" "$tmp/events.json.gz" 2>/dev/null | cmp -s - "$tmp/want.txt" && ok gzip || no gzip
printf '%s\n' '{"type":"SYNC","object":{}}' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}}}' |
    "$v" server-status --watch --now "$now" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q 'event at byte 0 (line 1): type: expected "ADDED", "MODIFIED", "DELETED", "BOOKMARK" or "ERROR", got "SYNC" (skipped)' "$tmp/err" &&
    [ "$(wc -l < "$tmp/out")" = 1 ] && ok unknown-type || { no unknown-type; cat "$tmp/err"; }
# keys as Kubernetes' decoder reads them (issue 21): the last repeated phase, type and object win
printf '%s\n' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Unavailable","phase":"Available"}}}' |
    "$v" server-status --watch --now "$now" | grep -q ' Ready: ' && ok duplicate-phase || no duplicate-phase
printf '%s\n' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}},"object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Unavailable"}}}' |
    "$v" server-status --watch --now "$now" | grep -q ' NotReady: ' && ok duplicate-object || no duplicate-object
printf '%s\n' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}}}' \
    '{"type":"ADDED","\u0074ype":"DELETED","object":{"metadata":{"name":"a"}}}' |
    "$v" server-status --watch --now "$now" | tail -1 | grep -q ' Waiting: no backup storage locations$' && ok escaped-type || no escaped-type
# a schema error in one event (no name) is reported with its position; the rest is applied
printf '%s\n' '{"type":"ADDED","object":{"metadata":{},"status":{"phase":"Available"}}}' '{"type":"ADDED","object":{"metadata":{"name":"a"},"spec":{"default":true},"status":{"phase":"Available"}}}' |
    "$v" server-status --watch --now "$now" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q 'event at byte 0 (line 1): .*metadata.name' "$tmp/err" && grep -q ' Ready: ' "$tmp/out" && ok schema-error || { no schema-error; cat "$tmp/err"; }
# --exit-status on one snapshot: 0 Ready, 1 PartiallyReady, 4 Waiting, 5 NotReady; 0 without it
ex=$VS_SRCDIR/examples/bsl
for c in all-available:0 no-default:1 empty:4 not-yet-validated:4; do
    "$v" server-status --exit-status "$ex/${c%:*}.json" >/dev/null; rc=$?
    [ "$rc" = "${c#*:}" ] && ok "exit-status ${c%:*}" || no "exit-status ${c%:*}: $rc"
    "$v" server-status "$ex/${c%:*}.json" >/dev/null || no "no exit-status ${c%:*}"
done
printf '{"items":[{"metadata":{"name":"a"},"status":{"phase":"Unavailable"}}]}' > "$tmp/down.json"
"$v" server-status --exit-status "$tmp/down.json" >/dev/null; rc=$?
[ "$rc" = 5 ] && ok "exit-status notready" || no "exit-status notready: $rc"
"$v" server-status --exit-status --three-state "$tmp/down.json" >/dev/null; rc=$?
[ "$rc" = 4 ] && ok "exit-status three-state" || no "exit-status three-state: $rc"
errs=$("$v" server-status --strict "$tmp/events.json" 2>&1 >/dev/null)
[ $? = 2 ] && printf '%s' "$errs" | grep -q 'strict goes with --watch' && ok strict-needs-watch || no strict-needs-watch
# Every namespace (kubectl get bsl -A --watch --output-watch-events -o json): one tracker per
# namespace, a line per namespace that changes, prefixed with it; -n follows one.
ev() { printf '{"type":"%s","object":{"kind":"BackupStorageLocation","metadata":{"name":"default","namespace":"%s"},"spec":{"default":true},"status":{"phase":"%s"}}}\n' "$@"; }
{ ev ADDED openshift-adp Available; ev ADDED velero Available; ev MODIFIED velero Unavailable; ev MODIFIED openshift-adp Available; } > "$tmp/ns.json"
out=$("$v" server-status --watch --now "$now" "$tmp/ns.json")
want="$now namespace openshift-adp: Ready: all 1 backup storage location available; default: default
$now namespace velero: Ready: all 1 backup storage location available; default: default
$now namespace velero: NotReady: 1 of 1 backup storage location unavailable (default); default not available (default)"
# the first line has no prefix yet: one namespace was seen then (-A prefixes from the start)
[ "$(printf '%s\n' "$out" | sed 1d)" = "$(printf '%s\n' "$want" | sed 1d)" ] && ok watch-namespaces || { no watch-namespaces; echo "$out"; }
[ "$("$v" server-status --watch -A --now "$now" "$tmp/ns.json")" = "$want" ] && ok watch-all-namespaces ||
    no watch-all-namespaces
[ "$("$v" server-status --watch -n openshift-adp --now "$now" "$tmp/ns.json")" = "$now Ready: all 1 backup storage location available; default: default" ] &&
    ok watch-one-namespace || no watch-one-namespace
"$v" server-status --watch -o json -A --now "$now" "$tmp/ns.json" | grep -c '"namespace":"velero"' | grep -qx 2 &&
    ok watch-json-namespace || no watch-json-namespace
"$v" server-status --watch --exit-status --now "$now" "$tmp/ns.json" >/dev/null; rc=$?
[ "$rc" = 5 ] && ok watch-exit-worst || no "watch-exit-worst: $rc"
exit "$fail"
