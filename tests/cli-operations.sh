#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus operations reconcile|format|check: outputs, exit codes, the
# examples, and a 100,000-operation file through the CLI.
set -u
v=${VELSTATUS:?}
data=${VS_TEST_DATA:?}/operations
ex=${VS_SRCDIR:?}/examples/operations
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-ops.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

. "${VS_SRCDIR:?}/tests/cli-lib.sh"
# expect_out NAME TEXT : stdout equals TEXT exactly
expect_out() {
    if [ "$(cat "$tmp/out")" = "$2" ]; then ok "$1"; else bad "$1: got"; cat "$tmp/out"; echo "want"; echo "$2"; fi
}
# has NAME FILE TEXT : FILE contains TEXT
has() {
    if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: lacks '$3'"; cat "$2"; fi
}

# ---- format: byte-identical round trips ----
for f in "$data/spec-example.json" "$ex/backup-itemoperations.json" "$ex/restore-itemoperations.json"; do
    if run "format $(basename "$f")" 0 operations format "$f" && cmp -s "$tmp/out" "$f"; then
        ok "format $(basename "$f") byte-identical"
    else
        bad "format $(basename "$f") differs"
    fi
done
# Go's whole range: its zero time (a present created, written back as the
# text it was) and the last second of year 9999 come back byte-identical
f=$data/go-time-range.json
if run "format go-time-range.json" 0 operations format "$f" && cmp -s "$tmp/out" "$f"; then
    ok "format 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z byte-identical"
else
    bad "format go-time-range.json differs"; cat "$tmp/out"
fi
# offsets and fractions become metav1.Time's UTC whole seconds; an offset
# that leaves year 0000 is written as Go writes it
printf '%s' '[{"status":{"created":"2024-05-01T12:00:00.75+02:00","started":"0001-01-01T01:00:00+01:00","updated":"0000-01-01T00:00:00+00:01"}}]' >"$tmp/tz.json"
run "format normalises times" 0 operations format "$tmp/tz.json" \
    && has "format normalises times" "$tmp/out" '"created":"2024-05-01T10:00:00Z","started":"0001-01-01T00:00:00Z","updated":"-0001-12-31T23:59:00Z"}'
# a created of Go's zero time times out at once (Velero's Created.Time.Add(timeout).Before(now))
printf '%s' '{"op-zero":{},"op-last":{}}' >"$tmp/range-progress.json"
for pol in velero hardened; do
    run "zero created times out ($pol)" 0 operations reconcile --phase WaitingForPluginOperations \
        --now 2024-05-01T10:00:00Z --timeout 4h --policy $pol --progress "$tmp/range-progress.json" "$f" \
        && has "zero created canceled ($pol)" "$tmp/out" '  op-zero Failed 0/0 error: Asynchronous action timed out' \
        && has "year 9999 still running ($pol)" "$tmp/out" '  op-last InProgress 0/0'
done

# a plugin reporting times outside 1678-2262 (issue 20): the --progress file
# takes Go's whole range; what Velero writes back was checked with Go 1.19
# (time.Unix(sec, nsec).UTC() marshalled as metav1.Time): the zero time is
# written null, a fraction is dropped, year 9999 and year 0000 are kept
printf '%s' '[{"spec":{"backupItemAction":"a","operationID":"o1"},"status":{"phase":"New","created":"2024-05-01T10:00:00Z","started":"2024-05-01T10:00:00Z","updated":"2024-05-01T10:00:00Z"}},{"spec":{"backupItemAction":"a","operationID":"o2"},"status":{"phase":"New","created":"2024-05-01T10:00:00Z"}}]' >"$tmp/wide.json"
printf '%s' '{"o1":{"started":"0001-01-01T00:00:00Z","updated":"9999-12-31T23:59:59.5Z"},"o2":{"started":"0000-06-01T12:00:00Z","updated":"1600-02-29T10:00:00+02:00"}}' >"$tmp/wide-progress.json"
for pol in velero hardened; do
    run "wide reported times ($pol)" 0 operations reconcile --phase WaitingForPluginOperations \
        --now 2024-05-01T10:00:01Z --timeout 4h --policy $pol --progress "$tmp/wide-progress.json" -o json "$tmp/wide.json" \
        && has "year 0000 and 1600 written as Go does ($pol)" "$tmp/out" \
            '"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z","started":"0000-06-01T12:00:00Z","updated":"1600-02-29T08:00:00Z"}'
done
has "zero time written null, year 9999 whole seconds" "$tmp/out" \
    '"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z","started":"2024-05-01T10:00:00Z","updated":"9999-12-31T23:59:59Z"}'
run "wide reported times (velero)" 0 operations reconcile --phase WaitingForPluginOperations \
    --now 2024-05-01T10:00:01Z --timeout 4h --policy velero --progress "$tmp/wide-progress.json" -o json "$tmp/wide.json" \
    && has "zero time after a read one: null (velero)" "$tmp/out" \
        '"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z","started":null,"updated":"9999-12-31T23:59:59Z"}'
printf '%s' '{"o1":{"started":"10000-01-01T00:00:00Z"}}' >"$tmp/wide-bad.json"
run "5-digit year in --progress" 2 operations reconcile --phase WaitingForPluginOperations --now 2024-05-01T10:00:01Z \
    --progress "$tmp/wide-bad.json" "$tmp/wide.json" && has "5-digit year names the field" "$tmp/err" '["o1"].started: not a valid time'

run "format stdin" 0 operations format - <"$data/spec-example.json" && cmp -s "$tmp/out" "$data/spec-example.json" \
    && ok "format stdin" || bad "format stdin"
printf '[ {"spec": {"restoreName": "r"}, "status": {"created": "2024-05-01T12:00:00.5+02:00"}} ]' >"$tmp/r.json"
run "format sniffs restore" 0 operations format "$tmp/r.json" && expect_out "format sniffs restore" \
'[{"spec":{"restoreName":"r","restoreUID":"","restoreItemAction":"","resourceIdentifier":{"Group":"","Resource":"","Namespace":"","Name":""},"operationID":""},"status":{"created":"2024-05-01T10:00:00Z"}}]'
printf '[{"spec":{"backupName":1}}]' >"$tmp/bad.json"
run "format bad input" 2 operations format "$tmp/bad.json" && has "format names the path" "$tmp/err" '[0].spec.backupName'
printf '[{},\n{"status": }]' >"$tmp/bad2.json"
run "format syntax error" 2 operations format "$tmp/bad2.json" && has "format gives the line" "$tmp/err" 'line 2'
run "format missing file" 2 operations format "$tmp/nope.json" && has "format missing file message" "$tmp/err" 'cannot open'

# ---- check ----
run "check example" 0 operations check "$ex/backup-itemoperations.json" \
    && expect_out "check example output" "$ex/backup-itemoperations.json: 5 backup operations, 0 problems"
cat >"$tmp/problems.json" <<'EOF'
[{"spec":{"backupName":"b","backupItemAction":"a","operationID":"x"},"status":{"phase":"Paused","created":"2024-05-01T10:00:00Z"}},
 {"spec":{"backupName":"b","backupItemAction":"","operationID":"x"},"status":{"phase":"Failed","nCompleted":5,"nTotal":2}},
 {"spec":{"backupName":"b","backupItemAction":"a","operationID":""},"status":{"phase":"New","nTotal":-1,"created":"2024-05-01T10:00:00Z"}}]
EOF
run "check problems" 1 operations check "$tmp/problems.json" && expect_out "check lists every problem" \
"[0].status.phase: phase \"Paused\" is not New, InProgress, Completed or Failed (Velero skips the operation: not counted, not waited for)
[1].spec.backupItemAction: empty: no plugin can be looked up
[1].spec.operationID: \"x\" is also the ID of operation [0]
[1].status.created: missing: the timeout cannot be evaluated (Velero would crash on it)
[1].status.error: empty on a Failed operation
[1].status.nCompleted: 5 is more than nTotal 2
[2].spec.operationID: empty: the plugin cannot be asked for progress
[2].status.nTotal: negative (-1)
$tmp/problems.json: 3 backup operations, 8 problems"
run "check json" 1 operations check -o json "$tmp/problems.json" \
    && has "check json valid false" "$tmp/out" '{"kind":"backup","valid":false,"operations":3,"problems":[{"path":"[0].status.phase","message":'
run "check syntax" 2 operations check "$tmp/bad2.json" && has "check syntax message" "$tmp/err" 'invalid JSON'

# ---- reconcile: the examples ----
bargs="--kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:30:00Z --timeout 4h"
run "reconcile backup velero" 0 operations reconcile $bargs --policy velero --progress "$ex/backup-progress.json" \
    "$ex/backup-itemoperations.json" && expect_out "reconcile backup velero text" \
"phase: WaitingForPluginOperationsPartiallyFailed
stillInProgress: true
changes: true
persist: upload_and_patch
requeue: false
completed: 2
failed: 2
inProgress: 1
errors: 2
  Asynchronous action timed out, plugin: velero.io/csi-pvc-backupper
  unable to get valid BackupItemActionV2 for \"example.io/snapshot-exporter\", plugin: unknown
canceled: 1
  du-nightly-20240501-klmno
operations: 5
  du-nightly-20240501-abcde Completed 1073741824/1073741824 Bytes
  du-nightly-20240501-fghij InProgress 0/4294967296 Bytes
  du-nightly-20240501-klmno Failed 21474836480/53687091200 Bytes error: Asynchronous action timed out
  du-nightly-20240501-pqrst Completed 2147483648/2147483648 Bytes
  export-7f3a Failed 0/0 error: unable to get valid BackupItemActionV2 for \"example.io/snapshot-exporter\""
run "reconcile backup hardened json" 0 operations reconcile $bargs --progress "$ex/backup-progress.json" -o json \
    "$ex/backup-itemoperations.json" \
    && has "hardened json head" "$tmp/out" '{"phase":"WaitingForPluginOperationsPartiallyFailed","stillInProgress":true,"changes":true,"completed":2,"failed":1,"inProgress":2,"persist":"upload_and_patch","requeue":false,"errors":["Asynchronous action timed out, plugin: velero.io/csi-pvc-backupper"],"canceled":["du-nightly-20240501-klmno"],"operations":[{"spec":{"backupName":"nightly-20240501"' \
    && has "hardened grace recorded" "$tmp/out" '"velstatusProgressErrorSince":"2024-05-01T10:30:00Z"'
rargs="--kind restore --phase WaitingForPluginOperations --now 2024-05-02T08:05:00Z --timeout 4h"
run "reconcile restore velero" 0 operations reconcile $rargs --policy velero --progress "$ex/restore-progress.json" \
    -o json "$ex/restore-itemoperations.json" \
    && has "restore errors raw" "$tmp/out" '"errors":["DataDownload is canceled","rpc error: code = Unavailable desc = connection refused"],"canceled":[]'
run "reconcile restore hardened" 0 operations reconcile $rargs --progress "$ex/restore-progress.json" \
    "$ex/restore-itemoperations.json" && has "restore errors suffixed" "$tmp/out" \
    '  DataDownload is canceled, plugin: velero.io/csi-pvc-restorer'

# the operations array of -o json is Velero's format: format must leave it unchanged
run "reconcile json ops" 0 operations reconcile $bargs --policy velero --progress "$ex/backup-progress.json" -o json \
    "$ex/backup-itemoperations.json"
sed 's/.*,"operations"://; s/}$//' "$tmp/out" >"$tmp/ops-after.json"
run "format reconciled ops" 0 operations format "$tmp/ops-after.json" && cmp -s "$tmp/out" "$tmp/ops-after.json" \
    && ok "reconciled operations are Velero's bytes" || bad "reconciled operations are not Velero's bytes"

# ---- BSL missing / read-only: no Progress or Cancel ----
run "bsl missing" 0 operations reconcile $bargs --bsl missing --bsl-name primary --progress "$ex/backup-progress.json" \
    -o json "$ex/backup-itemoperations.json" && has "bsl missing output" "$tmp/out" \
    '{"phase":"PartiallyFailed","stillInProgress":true,"changes":false,"completed":1,"failed":0,"inProgress":4,"persist":"patch","requeue":true,"errors":["backupstoragelocations.velero.io \"primary\" not found"],"canceled":[],"operations":'
run "bsl readonly" 0 operations reconcile $bargs --bsl readonly --progress "$ex/backup-progress.json" \
    "$ex/backup-itemoperations.json" && has "bsl readonly output" "$tmp/out" '  BSL is read-only'
run "restore bsl missing" 0 operations reconcile $rargs --bsl missing --progress "$ex/restore-progress.json" \
    "$ex/restore-itemoperations.json" && has "restore bsl missing phase" "$tmp/out" 'phase: FinalizingPartiallyFailed' \
    && has "restore bsl default name" "$tmp/out" 'backupstoragelocations.velero.io "default" not found'

# ---- a BSL or Backup Get failing otherwise than NotFound: Velero requeues (issue 20) ----
# backup_operations_controller.go Reconcile: err.Error() as the error, PartiallyFailed, patch only, error returned
conn='Get "https://10.96.0.1:443/apis/velero.io/v1/namespaces/velero/backupstoragelocations/default": dial tcp 10.96.0.1:443: connect: connection refused'
for r in 1.11 1.14 1.18; do
    run "bsl error $r" 0 operations reconcile $bargs --velero-version $r --bsl-error "$conn" \
        --progress "$ex/backup-progress.json" "$ex/backup-itemoperations.json" \
        && has "bsl error $r phase" "$tmp/out" 'phase: PartiallyFailed' && has "bsl error $r text" "$tmp/out" "  $conn" \
        && has "bsl error $r requeue" "$tmp/out" 'requeue: true' && has "bsl error $r patch" "$tmp/out" 'persist: patch'
done
run "bsl readonly no requeue" 0 operations reconcile $bargs --bsl readonly --progress "$ex/backup-progress.json" \
    "$ex/backup-itemoperations.json" && has "bsl readonly requeue false" "$tmp/out" 'requeue: false'
run "bsl missing requeue" 0 operations reconcile $bargs --bsl missing --progress "$ex/backup-progress.json" \
    "$ex/backup-itemoperations.json" && has "bsl missing requeue true" "$tmp/out" 'requeue: true'
# restore_controller.go fetchBackupInfoInternal: "can't find backup NS/NAME: <err>"; FinalizingPartiallyFailed from 1.14
for c in "1.11 PartiallyFailed" "1.13 PartiallyFailed" "1.14 FinalizingPartiallyFailed" "1.18 FinalizingPartiallyFailed"; do
    set -- $c
    run "backup error $1" 0 operations reconcile $rargs --velero-version $1 --backup-error 'etcdserver: request timed out' \
        --backup-name nightly --namespace backup-system --bsl readonly --progress "$ex/restore-progress.json" -o json \
        "$ex/restore-itemoperations.json" && has "backup error $1" "$tmp/out" \
        "{\"phase\":\"$2\",\"stillInProgress\":true,\"changes\":false,\"completed\":0,\"failed\":0,\"inProgress\":3,\"persist\":\"patch\",\"requeue\":true,\"errors\":[\"can't find backup backup-system/nightly: etcdserver: request timed out\"]"
done
run "restore bsl error" 0 operations reconcile $rargs --bsl-error 'the server was unable to return a response' \
    --progress "$ex/restore-progress.json" "$ex/restore-itemoperations.json" \
    && has "restore bsl error raw" "$tmp/out" '  the server was unable to return a response' \
    && has "restore bsl error phase" "$tmp/out" 'phase: FinalizingPartiallyFailed'
run "bsl error with bsl missing" 2 operations reconcile $bargs --bsl missing --bsl-error x \
    --progress "$ex/backup-progress.json" "$ex/backup-itemoperations.json" && has "bsl error missing msg" "$tmp/err" 'bsl_error'
run "backup error on a backup" 2 operations reconcile $bargs --backup-error x \
    --progress "$ex/backup-progress.json" "$ex/backup-itemoperations.json" && has "backup error backup msg" "$tmp/err" 'backup_error'

# ---- the persist step failing (updateBackupAndOperationsJSON returns before or after the patch) ----
printf '[{"spec":{"backupName":"b","backupItemAction":"a","operationID":"o1"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]\n' >"$tmp/pone.json"
printf '{"o1":{"completed":true,"err":"bad"}}' >"$tmp/pbad.json"
pargs="--kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:00:10Z --timeout 1h --policy velero"
run "persist upload fails" 0 operations reconcile $pargs --errors 2 --persist-fails upload --progress "$tmp/pbad.json" \
    "$tmp/pone.json" && has "upload fails kept" "$tmp/out" \
    'persist fails (upload): the phase stays WaitingForPluginOperations, 3 error(s) stay pending, 0 lost from status.errors; requeue: true'
run "persist patch fails" 0 operations reconcile $pargs --errors 2 --persist-fails patch --progress "$tmp/pbad.json" \
    -o json "$tmp/pone.json" && has "patch fails lost" "$tmp/out" \
    '"persistFails":{"write":"patch","phaseKept":"WaitingForPluginOperations","pendingErrors":0,"lostErrors":3,"requeue":true}'
# the next pass over the records as Velero keeps them: edge-triggered, Finalizing (the error is lost)
sed 's/.*,"operations"://; s/}$//' "$tmp/out" >"$tmp/pafter.json"
run "after lost errors 1.18" 0 operations reconcile $pargs --velero-version 1.18 --progress "$tmp/pbad.json" \
    "$tmp/pafter.json" && has "lost errors Finalizing" "$tmp/out" 'phase: Finalizing
'
run "after lost errors hardened" 0 operations reconcile $pargs --policy hardened --progress "$tmp/pbad.json" \
    "$tmp/pafter.json" && has "lost errors hardened" "$tmp/out" 'phase: FinalizingPartiallyFailed'
printf '{"o1":{"description":"running"}}' >"$tmp/prun.json"
run "persist nothing to fail" 0 operations reconcile $pargs --persist-fails upload --progress "$tmp/prun.json" \
    "$tmp/pone.json" && has "nothing to fail" "$tmp/out" 'persist fails (upload): nothing to fail: nothing is written'
run "persist bsl path" 0 operations reconcile $pargs --bsl missing --errors 1 --persist-fails patch --progress "$tmp/prun.json" \
    "$tmp/pone.json" && has "bsl path patch" "$tmp/out" 'the phase stays WaitingForPluginOperations, 1 error(s) stay pending, 0 lost'
run "persist bsl path upload" 0 operations reconcile $pargs --bsl missing --persist-fails upload --progress "$tmp/prun.json" \
    "$tmp/pone.json" && has "bsl path no upload" "$tmp/out" 'no backup store on the BSL path'
run "bad persist-fails" 2 operations reconcile $pargs --persist-fails disk --progress "$tmp/prun.json" "$tmp/pone.json" \
    && has "bad persist-fails msg" "$tmp/err" '--persist-fails must be upload or patch'

# ---- InProgress: the phase after the main run (doc/velero-behaviour.md §2.7) ----
printf '[{"spec":{"backupName":"b","backupItemAction":"a","operationID":"o1"},"status":{"phase":"New","created":"2024-05-01T10:00:00Z"}}]\n' >"$tmp/one.json"
printf '{"o1":{"description":"running"}}' >"$tmp/running.json"
printf '{"o1":{"completed":true}}' >"$tmp/done.json"
for c in "0 running WaitingForPluginOperations" "2 running WaitingForPluginOperationsPartiallyFailed" \
         "0 done Finalizing" "3 done FinalizingPartiallyFailed"; do
    set -- $c
    run "after run $c" 0 operations reconcile --kind backup --phase InProgress --errors "$1" --now 2024-05-01T10:00:10Z \
        --timeout 1h --policy velero --progress "$tmp/$2.json" "$tmp/one.json" && has "after run $c" "$tmp/out" "phase: $3"
done

# Velero 1.11's restore run logs an operation error by its index and does not count it
# (restore_controller.go runValidatedRestore: `for err := range errs`; Errors: 0 in describe)
printf '[{"spec":{"restoreName":"r","restoreItemAction":"a","operationID":"o1"},"status":{"phase":"New","created":"2024-05-01T10:00:00Z"}}]\n' >"$tmp/rone.json"
printf '{"o1":{"completed":true,"err":"bad"}}' >"$tmp/failed.json"
run "1.11 restore first pass" 0 operations reconcile --kind restore --phase InProgress --now 2024-05-01T10:00:10Z \
    --velero-version 1.11 --progress "$tmp/failed.json" "$tmp/rone.json" && has "1.11 restore index" "$tmp/out" 'errors: 1
  0' && has "1.11 restore not counted" "$tmp/out" 'note: status.errors grows by 0, not by the 1 error(s) listed'
run "1.12 restore first pass" 0 operations reconcile --kind restore --phase InProgress --now 2024-05-01T10:00:10Z \
    --velero-version 1.12 --progress "$tmp/failed.json" "$tmp/rone.json" \
    && if grep -q 'status.errors grows' "$tmp/out"; then bad "1.12 restore counted"; else ok "1.12 restore counted"; fi
run "bsl missing note" 0 operations reconcile $bargs --bsl missing --progress "$tmp/failed.json" "$tmp/one.json" \
    && has "bsl missing not counted" "$tmp/out" 'note: status.errors grows by 0, not by the 1 error(s) listed'
run "pending errors note" 0 operations reconcile $bargs --errors 2 --progress "$tmp/failed.json" "$tmp/one.json" \
    && has "pending errors counted" "$tmp/out" 'note: status.errors grows by 3, not by the 1 error(s) listed'

# absent from PROGRESS.json: Velero's InvalidOperationIDError
printf '{}' >"$tmp/empty.json"
run "absent id" 0 operations reconcile $bargs --policy velero --progress "$tmp/empty.json" "$tmp/one.json" \
    && has "absent id message" "$tmp/out" '  operation ID o1 is invalid, plugin: velero.io/a'
printf '{"o1":{"error":""}}' >"$tmp/emptyerr.json"
run "empty progress error" 0 operations reconcile $bargs --policy velero --progress "$tmp/emptyerr.json" "$tmp/one.json" \
    && has "empty error wraps" "$tmp/out" '  plugin: velero.io/a'

# the plugin's own Name() ("name"), as Velero's unit tests mock it; a lookup error has no plugin
printf '{"o1":{"completed":true,"err":"failed","name":"test"}}' >"$tmp/named.json"
run "plugin name" 0 operations reconcile $bargs --velero-version 1.18 --progress "$tmp/named.json" "$tmp/one.json" \
    && has "plugin name message" "$tmp/out" '  failed, plugin: test'
run "plugin name 1.12" 0 operations reconcile $bargs --velero-version 1.12 --progress "$tmp/named.json" "$tmp/one.json" \
    && if grep -qx '  failed' "$tmp/out"; then ok "plugin name 1.12 raw"; else bad "plugin name 1.12 raw"; cat "$tmp/out"; fi
printf '{"o1":{"lookupError":"gone","name":"test"}}' >"$tmp/namedlookup.json"
run "plugin name with lookupError" 2 operations reconcile $bargs --progress "$tmp/namedlookup.json" "$tmp/one.json" \
    && has "plugin name with lookupError message" "$tmp/err" 'name cannot be given with lookupError'

# ---- usage errors ----
run "no phase" 2 operations reconcile --now 2024-05-01T10:00:00Z --timeout 1h --progress "$tmp/empty.json" "$tmp/one.json" \
    && has "no phase message" "$tmp/err" 'missing --phase'
run "bad phase" 2 operations reconcile --kind restore --phase Queued --now 2024-05-01T10:00:00Z --timeout 1h --progress "$tmp/empty.json" "$tmp/one.json" \
    && has "bad phase message" "$tmp/err" '--phase'
# a phase the operations controller skips: nothing to do, exit 0, the list untouched
for ph in Completed New FinalizingPartiallyFailed Failed; do
    run "skipped phase $ph" 0 operations reconcile --kind backup --phase $ph --now 2024-05-01T10:00:00Z --timeout 1h \
        --progress "$tmp/empty.json" "$tmp/one.json" && has "skipped phase $ph text" "$tmp/out" "phase: $ph
nothing to do: a backup in phase $ph has no item operations to reconcile"
done
run "skipped phase json" 0 operations reconcile --kind restore --phase Completed --now 2024-05-01T10:00:00Z \
    --timeout 1h --progress "$tmp/empty.json" -o json "$tmp/one.json" \
    && has "skipped phase json" "$tmp/out" '{"phase":"Completed","nothingToDo":true,"reason":"a restore in phase Completed has no item operations to reconcile'
run "skipped phase of the wrong kind" 2 operations reconcile --kind restore --phase Deleting --now 2024-05-01T10:00:00Z \
    --timeout 1h --progress "$tmp/empty.json" "$tmp/one.json" && has "wrong kind message" "$tmp/err" '--phase'
run "bad now" 2 operations reconcile $bargs --now yesterday --progress "$tmp/empty.json" "$tmp/one.json" && has "bad now message" "$tmp/err" '--now'
run "bad timeout" 2 operations reconcile $bargs --timeout 4 --progress "$tmp/empty.json" "$tmp/one.json" && has "bad timeout message" "$tmp/err" '--item-operation-timeout'
# --item-operation-timeout is the one name across commands; --timeout its alias (issue 22)
run "timeout name" 2 operations reconcile $bargs --item-operation-timeout 4 --progress "$tmp/empty.json" "$tmp/one.json" && has "timeout name message" "$tmp/err" '--item-operation-timeout'
"$v" operations reconcile --help | grep -q -- '--timeout DURATION  *alias of --item-operation-timeout' && echo "ok timeout alias in help" || { echo "FAIL timeout alias in help"; fail=1; }
"$v" operations reconcile --help | grep -q '"lookupError"' && "$v" operations reconcile --help | grep -q 'Example:' && echo "ok progress keys in help" || { echo "FAIL progress keys in help"; fail=1; }
run "bad policy" 2 operations reconcile $bargs --policy strict --progress "$tmp/empty.json" "$tmp/one.json" && has "bad policy message" "$tmp/err" '--policy'
run "bad bsl" 2 operations reconcile $bargs --bsl gone --progress "$tmp/empty.json" "$tmp/one.json" && has "bad bsl message" "$tmp/err" '--bsl'
run "bad errors" 2 operations reconcile $bargs --errors -1 --progress "$tmp/empty.json" "$tmp/one.json" && has "bad errors message" "$tmp/err" '--errors'
printf '{"o1":{"nTotal":"x"}}' >"$tmp/badprog.json"
run "bad progress" 2 operations reconcile $bargs --progress "$tmp/badprog.json" "$tmp/one.json" && has "bad progress path" "$tmp/err" '["o1"].nTotal'
run "unknown sub" 2 operations frobnicate && has "unknown sub message" "$tmp/err" 'unknown subcommand'
run "help" 0 operations --help && has "help text" "$tmp/out" 'usage: velstatus operations reconcile'

# ---- text output writes every string whole, a NUL as \u0000 ----
nul="$data/nul-strings.json"
run "reconcile NUL text" 0 operations reconcile --kind backup --phase WaitingForPluginOperations \
    --now 2024-05-01T10:30:00Z --timeout 4h --policy velero --progress "$data/nul-strings-progress.json" "$nul" \
    && expect_out "reconcile NUL text" \
'phase: FinalizingPartiallyFailed
stillInProgress: false
changes: true
persist: upload_and_patch
requeue: false
completed: 0
failed: 2
inProgress: 0
errors: 2
  plug\u0000in broke, plugin: velero.io/a
  Asynchronous action timed out, plugin: velero.io/a
canceled: 1
  slow\u0000op
note: 1 operation(s) with an unknown phase
operations: 3
  op\u0000one Fai\u0000led 0/0 By\u0000tes error: disk\u0000full
  op\u0000one Failed 1/2 By\u0000tes error: plug\u0000in broke
  slow\u0000op Failed 1/2 error: Asynchronous action timed out'
run "reconcile NUL json" 0 operations reconcile --kind backup --phase WaitingForPluginOperations \
    --now 2024-05-01T10:30:00Z --timeout 4h --policy velero --progress "$data/nul-strings-progress.json" -o json "$nul" \
    && has "reconcile NUL json error" "$tmp/out" '"errors":["plug\u0000in broke, plugin: velero.io/a",' \
    && has "reconcile NUL json canceled" "$tmp/out" '"canceled":["slow\u0000op"]'
run "check NUL text" 1 operations check "$nul" && expect_out "check NUL text" \
"[0].status.phase: phase \"Fai\\u0000led\" is not New, InProgress, Completed or Failed (Velero skips the operation: not counted, not waited for)
[1].spec.operationID: \"op\\u0000one\" is also the ID of operation [0]
$nul: 3 backup operations, 2 problems"
run "check NUL json" 1 operations check -o json "$nul" \
    && has "check NUL json message" "$tmp/out" '"message":"\"op\\u0000one\" is also the ID of operation [0]"'

# ---- 100,000 operations through the CLI ----
awk 'BEGIN {
    printf "[";
    for (i = 0; i < 100000; i++) {
        if (i) printf ",";
        ph = (i % 4 == 0) ? "Completed" : (i % 4 == 1) ? "InProgress" : "New";
        printf "{\"spec\":{\"backupName\":\"big\",\"backupUID\":\"0b6a2c1e-3f0d-4d6e-9d1a-5c2b7e8f9a10\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"ns-%d\",\"Name\":\"data-%d\"},\"operationID\":\"du-big-%d\",\"postOperationItems\":[{\"Group\":\"velero.io\",\"Resource\":\"datauploads\",\"Namespace\":\"velero\",\"Name\":\"big-%d\"}]},\"status\":{\"phase\":\"%s\",\"nCompleted\":%d,\"nTotal\":1073741824,\"operationUnits\":\"Bytes\",\"description\":\"%s\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:03:00Z\"}}", i % 100, i, i, i, ph, i * 10 + 1, ph;
    }
    printf "]\n";
}' >"$tmp/big.json"
awk 'BEGIN {
    printf "{";
    for (i = 0; i < 100000; i++) {
        if (i % 4 == 0) continue;
        if (i > 1) printf ",";
        if (i % 4 == 3) printf "\"du-big-%d\":{\"completed\":true,\"nCompleted\":1073741824,\"nTotal\":1073741824,\"operationUnits\":\"Bytes\",\"description\":\"Completed\",\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:09:00Z\"}", i;
        else printf "\"du-big-%d\":{\"nCompleted\":%d,\"nTotal\":1073741824,\"operationUnits\":\"Bytes\",\"description\":\"InProgress\",\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:09:00Z\"}", i, i * 20;
    }
    printf "}\n";
}' >"$tmp/bigprog.json"
run "100k format" 0 operations format "$tmp/big.json" && cmp -s "$tmp/out" "$tmp/big.json" && ok "100k round trip" || bad "100k round trip"
# format writes its output in chunks as it encodes: a failed write is an error, not lost silently
if [ -w /dev/full ]; then
    "$v" operations format "$tmp/big.json" >/dev/full 2>"$tmp/err"; rc=$?
    [ "$rc" = 2 ] && has "format to a full disk" "$tmp/err" 'writing the output failed' || bad "format to a full disk: exit $rc"
fi
run "100k reconcile" 0 operations reconcile --kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:10:00Z \
    --timeout 4h --policy velero --progress "$tmp/bigprog.json" -o json "$tmp/big.json" \
    && { want='{"phase":"WaitingForPluginOperations","stillInProgress":true,"changes":true,"completed":50000,"failed":0,"inProgress":50000,"persist":"patch","requeue":false,"errors":[],"canceled":[],"operations":[{"spec":{"backupName":"big"'
         if [ "$(head -c ${#want} "$tmp/out")" = "$want" ]; then ok "100k reconcile counts"
         else bad "100k reconcile counts: $(head -c 200 "$tmp/out")"; fi; }
run "100k check" 0 operations check "$tmp/big.json" && has "100k check" "$tmp/out" '100000 backup operations, 0 problems'

exit $fail
