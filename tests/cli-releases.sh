#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --velero-version X.Y (doc/velero-releases.md): the operations reconcile of
# each release, the phases each release has, the retry schedule, the range.
set -u
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}/releases
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-rel.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

. "${VS_SRCDIR:?}/tests/cli-lib.sh"
# line NAME FILE TEXT : FILE has the line TEXT exactly
line() {
    if grep -qxF -- "$3" "$2"; then ok "$1"; else bad "$1: lacks the line '$3'"; cat "$2"; fi
}
lacks() {
    if grep -qF -- "$3" "$2"; then bad "$1: has '$3'"; cat "$2"; else ok "$1"; fi
}

now="--now 2024-05-01T10:30:00Z"
# A backup in WaitingForPluginOperations: one operation newly failed, one still running.
bk="operations reconcile --phase WaitingForPluginOperations $now --progress $d/two-ops-backup-progress.json"
run "1.11 backup" 0 $bk --velero-version 1.11 "$d/two-ops-backup.json" \
    && line "1.11 keeps WaitingForPluginOperations" "$tmp/out" "phase: WaitingForPluginOperations"
for r in 1.12 1.13 1.14 1.15 1.16 1.17 1.18; do
    run "$r backup" 0 $bk --velero-version $r "$d/two-ops-backup.json" \
        && line "$r moves to WaitingForPluginOperationsPartiallyFailed" "$tmp/out" \
            "phase: WaitingForPluginOperationsPartiallyFailed"
done
run "1.12 error" 0 $bk --velero-version 1.12 "$d/two-ops-backup.json" \
    && line "1.12: no plugin suffix" "$tmp/out" "  DataUpload is canceled" \
    && lacks "1.12: no plugin suffix at all" "$tmp/out" ", plugin:"
run "1.13 error" 0 $bk --velero-version 1.13 "$d/two-ops-backup.json" \
    && line "1.13: the plugin suffix" "$tmp/out" "  DataUpload is canceled, plugin: velero.io/csi-pvc-backupper"
# the default (no --velero-version) with --policy velero is the current release
run "default velero" 0 $bk --policy velero "$d/two-ops-backup.json" \
    && line "default is the current release" "$tmp/out" "phase: WaitingForPluginOperationsPartiallyFailed"
run "v-prefix and patch" 0 $bk --velero-version v1.11.1 "$d/two-ops-backup.json" \
    && line "v1.11.1 is 1.11" "$tmp/out" "phase: WaitingForPluginOperations"

# A restore under 1.13 ends without Finalizing; under 1.14 it goes through it.
rs="operations reconcile --phase WaitingForPluginOperations $now"
run "1.13 restore done" 0 $rs --velero-version 1.13 --progress "$d/one-op-restore-done.json" "$d/one-op-restore.json" \
    && line "1.13 restore: Completed" "$tmp/out" "phase: Completed"
run "1.13 restore failed" 0 $rs --velero-version 1.13 --progress "$d/one-op-restore-failed.json" "$d/one-op-restore.json" \
    && line "1.13 restore: PartiallyFailed" "$tmp/out" "phase: PartiallyFailed"
run "1.14 restore done" 0 $rs --velero-version 1.14 --progress "$d/one-op-restore-done.json" "$d/one-op-restore.json" \
    && line "1.14 restore: Finalizing" "$tmp/out" "phase: Finalizing"
run "1.14 restore failed" 0 $rs --velero-version 1.14 --progress "$d/one-op-restore-failed.json" "$d/one-op-restore.json" \
    && line "1.14 restore: FinalizingPartiallyFailed" "$tmp/out" "phase: FinalizingPartiallyFailed"
run "1.13 phase check" 0 phase check --kind restore --velero-version 1.13 WaitingForPluginOperations Completed \
    && line "1.13: Waiting -> Completed is legal" "$tmp/out" \
        "legal: restore WaitingForPluginOperations -> Completed (restore-operations)"
run "1.14 phase check" 1 phase check --kind restore --velero-version 1.14 WaitingForPluginOperations Completed
run "1.13 Finalizing" 2 phase check --kind restore --velero-version 1.13 WaitingForPluginOperations Finalizing \
    && line "1.13 has no restore Finalizing" "$tmp/err" \
        'velstatus: phase check: Velero 1.13: to: a restore has no phase "Finalizing" in this Velero release (restore Finalizing phases exist from Velero 1.14)'

# The default item-operation timeout: an operation created 2h ago times out under 1.11 only.
printf '{"du-b1-a": {"nCompleted": 1}, "du-b1-b": {"nCompleted": 1}}' >"$tmp/running.json"
run "1.11 default timeout" 0 operations reconcile --phase WaitingForPluginOperations --now 2024-05-01T12:00:00Z \
    --velero-version 1.11 --progress "$tmp/running.json" "$d/two-ops-backup.json" \
    && line "1.11 times out after 1h" "$tmp/out" "  Asynchronous action timed out"
run "1.12 default timeout" 0 operations reconcile --phase WaitingForPluginOperations --now 2024-05-01T12:00:00Z \
    --velero-version 1.12 --progress "$tmp/running.json" "$d/two-ops-backup.json" \
    && line "1.12 still waits" "$tmp/out" "phase: WaitingForPluginOperations"

# Queued exists from 1.18.
run "1.17 Queued" 2 phase check --kind backup --velero-version 1.17 New Queued \
    && line "1.17 has no Queued" "$tmp/err" \
        'velstatus: phase check: Velero 1.17: to: a backup has no phase "Queued" in this Velero release (Queued and ReadyToStart exist from Velero 1.18)'
run "1.18 Queued" 0 phase check --kind backup --velero-version 1.18 New Queued
run "1.17 New -> InProgress" 0 phase check --kind backup --velero-version 1.17 New InProgress
printf '{"kind":"Backup","metadata":{"name":"q"},"status":{"phase":"Queued"}}' >"$tmp/q.json"
run "backup-status 1.17" 0 backup-status --velero-version 1.17 --now 2024-05-01T10:00:00Z "$tmp/q.json" \
    && grep -qF 'phase Queued (not a phase of Velero 1.17)' "$tmp/out" && ok "backup-status flags Queued under 1.17" \
    || bad "backup-status 1.17 output"
run "backup-status 1.18" 0 backup-status --velero-version 1.18 --now 2024-05-01T10:00:00Z "$tmp/q.json" \
    && lacks "backup-status 1.18 knows Queued" "$tmp/out" "not a phase"

# Status-patch retries from 1.15.
run "phase check retries 1.14" 0 phase check --kind backup --velero-version 1.14 -o json Finalizing Completed \
    && grep -qF '"retryVelero":false' "$tmp/out" && ok "1.14 does not retry" || bad "1.14 retry"
run "phase check retries 1.15" 0 phase check --kind backup --velero-version 1.15 -o json Finalizing Completed \
    && grep -qF '"retryVelero":true' "$tmp/out" && ok "1.15 retries" || bad "1.15 retry"
run "backoff 1.14" 0 backoff --velero-cap 10m --velero-version 1.14 \
    && line "backoff 1.14: one attempt" "$tmp/out" "attempts: 1"
run "backoff 1.15" 0 backoff --velero-cap 10m --velero-version 1.15 \
    && line "backoff 1.15: seven attempts" "$tmp/out" "attempts: 7"
run "backoff spelled out" 2 backoff --duration 10ms --factor 5 --jitter 0 --steps 3 --velero-version 1.15

# describe-operations takes it (the section is the same in every release).
run "describe 1.11" 0 describe-operations --velero-version 1.11 --utc "$d/v1.11-backup-itemoperations.json"
cp "$tmp/out" "$tmp/d11"
run "describe 1.18" 0 describe-operations --velero-version 1.18 --utc "$d/v1.18-backup-itemoperations.json"
[ -s "$tmp/d11" ] && ok "describe 1.11 prints" || bad "describe 1.11 empty"

# The supported range, on every subcommand.
for ver in 1.10 9.9; do
    for cmd in "operations reconcile --phase WaitingForPluginOperations --progress $d/two-ops-backup-progress.json $d/two-ops-backup.json" \
               "phase check --kind backup New InProgress" "backoff --velero-cap 10m" \
               "describe-operations $d/v1.18-backup-itemoperations.json" "backup-status $tmp/q.json"; do
        # shellcheck disable=SC2086
        run "$ver: ${cmd%% *}" 2 $cmd --velero-version $ver \
            && grep -qF "Velero $ver is not supported (supported: 1.11 to 1.18)" "$tmp/err" \
            && ok "$ver rejected by ${cmd%% -*}" || bad "$ver message for ${cmd%% -*}: $(cat "$tmp/err")"
    done
done
run "not a version" 2 phase check --kind backup --velero-version 1.x New InProgress \
    && grep -qF 'is not MAJOR.MINOR' "$tmp/err" && ok "1.x rejected" || bad "1.x"
run "hardened and a version" 2 $bk --policy hardened --velero-version 1.12 "$d/two-ops-backup.json" \
    && grep -qF 'cannot be combined with --policy hardened' "$tmp/err" && ok "hardened + version rejected" \
    || bad "hardened + version"

# Every release's itemoperations files read (1.11's capitalised spec keys included).
for m in 11 12 13 14 15 16 17 18; do
    for k in backup restore; do
        run "check v1.$m $k" 0 operations check "$d/v1.$m-$k-itemoperations.json" \
            && line "v1.$m $k file reads" "$tmp/out" "$d/v1.$m-$k-itemoperations.json: 2 $k operations, 0 problems"
    done
done

# velstatus version lists them.
run "version" 0 version && line "version lists the releases" "$tmp/out" \
    "Velero releases: 1.11 1.12 1.13 1.14 1.15 1.16 1.17 1.18 (current)"
run "version json" 0 version -o json && grep -qF '"veleroReleases":["1.11","1.12","1.13","1.14","1.15","1.16","1.17","1.18"]' \
    "$tmp/out" && ok "version json" || bad "version json"

exit $fail
