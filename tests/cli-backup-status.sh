#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus backup-status: the Argo CD health of Argo CD's velero.io/Backup
# and velero.io/Restore health.lua (deletionTimestamp and its finalizers, no
# status, Completed, the five Degraded phases with failureReason or the
# phase, everything else Progressing with the phase), the kstatus-style
# conditions, unknown phases flagged, -o json / -o condition, --exit-status,
# Lists and watch streams.
set -u
v=${VELSTATUS:?}
py=${PYTHON:-python3}
d=${VS_TEST_DATA:?}/backup-status
tmp=${TMPDIR:-/tmp}/vs_bs.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
now=2026-11-30T13:00:00Z
cat > "$tmp/want" <<'EOT'
Backup nightly: phase Completed; Argo CD health Healthy: Backup completed; Ready=True Reconciling=False Stalled=False (Completed)
Backup bad: phase PartiallyFailed; Argo CD health Degraded: ; Ready=False Reconciling=False Stalled=True (PartiallyFailed)
Backup fail: phase Failed; Argo CD health Degraded: boom; Ready=False Reconciling=False Stalled=True (Failed)
Restore r: phase WaitingForPluginOperationsPartiallyFailed; Argo CD health Degraded: WaitingForPluginOperationsPartiallyFailed; Ready=False Reconciling=True Stalled=False (WaitingForPluginOperationsPartiallyFailed)
Backup new: phase (none); Argo CD health Progressing: Waiting for backup to be processed; Ready=False Reconciling=True Stalled=False (NoStatus)
Backup del: phase Completed; Argo CD health Progressing: Pending deletion; blocked by finalizers: velero.io/x, y; Ready=False Reconciling=True Stalled=False (Deleting)
Backup odd: phase Exploded (unknown to this version); Argo CD health Progressing: Exploded; Ready=Unknown Reconciling=Unknown Stalled=Unknown (UnknownPhase)
Restore rq: phase Queued (unknown to this version); Argo CD health Progressing: Queued; Ready=Unknown Reconciling=Unknown Stalled=Unknown (UnknownPhase)
EOT
"$v" backup-status --now "$now" "$d/objects.json" > "$tmp/out"; rc=$?
[ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/want" && ok text || { no "text: exit $rc"; diff "$tmp/want" "$tmp/out"; }

# Argo's health per phase (health.lua's table), every phase of both kinds
for kind in Backup Restore; do
    for p in New Queued ReadyToStart InProgress WaitingForPluginOperations WaitingForPluginOperationsPartiallyFailed \
             Finalizing FinalizingPartiallyFailed Completed PartiallyFailed Failed FailedValidation Deleting ""; do
        case $p in
            Completed) want=Healthy ;;
            FailedValidation|Failed|PartiallyFailed|WaitingForPluginOperationsPartiallyFailed|FinalizingPartiallyFailed) want=Degraded ;;
            *) want=Progressing ;;
        esac
        got=$(printf '{"kind":"%s","metadata":{"name":"x"},"status":{"phase":"%s"}}' "$kind" "$p" |
              "$v" backup-status -o json --now "$now" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["health"]["status"])')
        [ "$got" = "$want" ] || no "argo $kind \"$p\": $got, want $want"
    done
done
[ "$fail" = 0 ] && ok argo-table
# a Restore being deleted is not special in Argo's Restore check; a null phase waits
printf '{"kind":"Restore","metadata":{"name":"x","deletionTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Completed"}}' |
    "$v" backup-status | grep -q 'Argo CD health Healthy: Restore completed' && ok restore-deleting || no restore-deleting
printf '{"kind":"Backup","metadata":{"name":"x"},"status":{"phase":null}}' |
    "$v" backup-status | grep -q 'Progressing: Waiting for backup to be processed' && ok null-phase || no null-phase
printf '{"kind":"Backup","metadata":{"name":"x"},"status":{"phase":"Failed","failureReason":null}}' |
    "$v" backup-status | grep -q 'Degraded: Failed;' && ok null-failure-reason || no null-failure-reason

# -o json and -o condition
head -1 "$d/objects.json" | "$v" backup-status -o json --now "$now" | "$py" -c '
import json, sys
o = json.load(sys.stdin)
assert o["kind"] == "Backup" and o["name"] == "nightly" and o["phase"] == "Completed" and o["phaseKnown"] is True
assert o["health"] == {"status": "Healthy", "message": "Backup completed"} and o["warnings"] == 2
assert [(c["type"], c["status"]) for c in o["conditions"]] == [("Ready", "True"), ("Reconciling", "False"), ("Stalled", "False")]
assert all(c["observedGeneration"] == 3 and c["lastTransitionTime"] == "2026-11-30T13:00:00Z" for c in o["conditions"])
' && ok json || no json
[ "$(sed -n 3p "$d/objects.json" | "$v" backup-status -o condition --now "$now")" = \
  '{"type":"Ready","status":"False","lastTransitionTime":"2026-11-30T13:00:00Z","reason":"Failed","message":"boom"}' ] && ok condition || no condition

# --exit-status: 0 Healthy, 1 Degraded, 4 Progressing (the last object)
for c in 1:0 3:1 5:4 7:4; do
    sed -n "${c%:*}p" "$d/objects.json" | "$v" backup-status --exit-status >/dev/null; rc=$?
    [ "$rc" = "${c#*:}" ] && ok "exit-status line ${c%:*}" || no "exit-status line ${c%:*}: $rc"
done
sed -n 3p "$d/objects.json" | "$v" backup-status >/dev/null && ok no-exit-status || no no-exit-status

# a List, a watch stream with an ERROR (exit 3), an object that is neither, no object
"$py" -c 'import json,sys; print(json.dumps({"kind":"BackupList","items":[json.loads(l) for l in open(sys.argv[1])]}, indent=2))' "$d/objects.json" > "$tmp/list.json"
"$v" backup-status --now "$now" "$tmp/list.json" | cmp -s - "$tmp/want" && ok list || no list
{ "$py" -c 'import json,sys; [print(json.dumps({"type":"MODIFIED","object":json.loads(l)})) for l in open(sys.argv[1])]' "$d/objects.json"
  echo '{"type":"BOOKMARK","object":{"kind":"Backup","metadata":{}}}'
  echo '{"type":"ERROR","object":{"kind":"Status","code":410}}'; } > "$tmp/watch.json"
"$v" backup-status --now "$now" "$tmp/watch.json" > "$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 3 ] && cmp -s "$tmp/out" "$tmp/want" && grep -q 'watch ERROR at byte' "$tmp/err" && ok watch || { no "watch: $rc"; cat "$tmp/err"; }
printf '{"kind":"Schedule","metadata":{"name":"s"}}{"kind":"Backup","metadata":{"name":"b"}}' | "$v" backup-status > "$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -q 'is not a Backup or Restore (skipped)' "$tmp/err" && [ "$(wc -l < "$tmp/out")" = 1 ] && ok not-a-backup || no not-a-backup
printf '{"kind":"Schedule"}' | "$v" backup-status >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'no Backup or Restore object' "$tmp/err" && ok none || no none
# keys as Kubernetes' decoder reads them (issue 21): the last repeated key wins, an escaped key is its text
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"Failed","phase":"Completed"}}' | "$v" backup-status --now "$now" > "$tmp/out"
grep -q '^Backup b: phase Completed; Argo CD health Healthy: Backup completed; Ready=True Reconciling=False Stalled=False (Completed)$' "$tmp/out" &&
    ok duplicate-phase-last-wins || { no duplicate-phase-last-wins; cat "$tmp/out"; }
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"\\u0070hase":"Completed"}}' | "$v" backup-status -o json --now "$now" |
    "$py" -c 'import json,sys; o=json.load(sys.stdin); assert o["phase"] == "Completed" and o["health"]["status"] == "Healthy", o' &&
    ok escaped-key || no escaped-key
printf '{"type":"MODIFIED","object":{"kind":"Backup","metadata":{"name":"a"}},"object":{"kind":"Backup","metadata":{"name":"b"}}}' |
    "$v" backup-status | grep -q '^Backup b: ' && ok event-object-last-wins || no event-object-last-wins
# a field of the wrong type is bad input, named with its position
printf '{"kind":"Backup",\n"status":{"phase":5}}' | "$v" backup-status >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'object at byte 36 (line 2): status.phase: expected a string, got a number$' "$tmp/err" &&
    ok wrong-type || { no wrong-type; cat "$tmp/err"; }
printf '{"kind":"Backup",' | "$v" backup-status >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'malformed JSON at byte' "$tmp/err" && ok malformed || no malformed
exit "$fail"
