#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus explain: the three worked examples of doc/explain.md and
# velstatus(1) byte for byte (text and JSON, UTC and a local zone), missing
# inputs, stdin and gzip, and bad input.
set -u
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}/explain
tmp=${TMPDIR:-/tmp}/vs_explain.$$
fail=0
TZ=UTC; export TZ
. "${VS_SRCDIR:?}/tests/cli-lib.sh"

# Example 1: a DataUpload at 20% whose rate ends after its 4h timeout, one
# completed, one failed because its plugin was gone (velero #8454, #6913).
ex1="--now 2024-05-01T11:00:30Z --operations $d/timeout-itemoperations.json --bsls $d/bsls-available.json $d/timeout-backup.json"
golden example1-text "$d/timeout.txt" -- explain --utc $ex1
golden example1-json "$d/timeout.json" -- explain -o json $ex1
golden example1-hardened "$d/timeout-hardened.txt" -- explain --utc --policy hardened $ex1
# the local time zone by default (a POSIX TZ needs no tzdata)
TZ="CET-1CEST,M3.5.0,M10.5.0/3"
golden example1-local "$d/timeout-local.txt" -- explain $ex1
TZ=UTC
# Example 2: a DataUpload stuck in Accepted (velero #8576) with its BSL read-only.
golden example2-text "$d/readonly.txt" -- explain --utc --now 2025-01-07T09:12:00Z \
    --operations "$d/readonly-itemoperations.json" --bsls "$d/bsls-readonly.json" "$d/readonly-backup.json"
# Example 3: a data-mover restore with one DataDownload stuck (velero #6813).
golden example3-text "$d/restore.txt" -- explain --utc --now 2023-09-13T09:30:00Z \
    --operations "$d/restore-itemoperations.json" "$d/restore.json"

# Missing inputs are named, never guessed.
golden no-inputs "$d/no-inputs.txt" -- explain --utc --now 2024-05-01T11:00:30Z "$d/timeout-backup.json"
# The timeout: the object's spec, else the flag, else 4h.
"$v" explain --utc --now 2025-01-07T09:12:00Z --item-operation-timeout 1h --operations "$d/readonly-itemoperations.json" \
    "$d/readonly-backup.json" >"$tmp.out" 2>&1
grep -q 'item operation timeout 1h0m0s from --item-operation-timeout' "$tmp.out" &&
    grep -q 'its timeout (1h0m0s) passes at 2025-01-07 09:05:21 +0000 UTC' "$tmp.out" && grep -q '2025-01-07 09:12:00 +0000 UTC (the next pass)' "$tmp.out" && echo "ok timeout-flag" || { echo "FAIL timeout-flag"; cat "$tmp.out"; fail=1; }
"$v" explain --utc --now 2024-05-01T11:00:30Z --item-operation-timeout 1h --operations "$d/timeout-itemoperations.json" \
    "$d/timeout-backup.json" >"$tmp.out" 2>&1
grep -q 'from spec.itemOperationTimeout' "$tmp.out" && echo "ok timeout-spec-wins" || { echo "FAIL timeout-spec-wins"; fail=1; }
# --velero-version: that release's preset (1.11: a 1h default timeout); not with --policy hardened.
"$v" explain --utc --velero-version 1.11 --now 2025-01-07T09:12:00Z --operations "$d/readonly-itemoperations.json" \
    "$d/readonly-backup.json" >"$tmp.out" 2>&1
grep -q '(policy velero, Velero 1.11; item operation timeout 1h0m0s from Velero.s default' "$tmp.out" &&
    echo "ok velero-version" || { echo "FAIL velero-version"; cat "$tmp.out"; fail=1; }
"$v" explain -o json --velero-version v1.14.2 "$d/readonly-backup.json" | grep -q '"veleroVersion":"1.14"' &&
    echo "ok velero-version-json" || { echo "FAIL velero-version-json"; fail=1; }
# 1.11 restores have no Finalizing phases; before 1.15 the finalizer's patch is sent once.
"$v" explain --utc --velero-version 1.11 --now 2023-09-13T09:30:00Z --operations "$d/restore-itemoperations.json" \
    "$d/restore.json" | grep -q 'phase: WaitingForPluginOperationsPartiallyFailed -> PartiallyFailed' &&
    echo "ok velero-version-1.11-restore" || { echo "FAIL velero-version-1.11-restore"; fail=1; }
"$v" $(echo "explain --utc --velero-version 1.14 $ex1") |
    grep -q 'FinalizingPartiallyFailed -> PartiallyFailed (finalizer controller): sent once; Velero does not retry it.' &&
    echo "ok velero-version-1.14-patch" || { echo "FAIL velero-version-1.14-patch"; fail=1; }
# --persist-fails: an Unavailable BSL whose object store cannot be written (issue 20): the upload
# of every pass fails, so the backup stays in its Waiting phase past every timeout.
sed 's/"phase":"Available"/"phase":"Unavailable","message":"AccessDenied"/' "$d/bsls-available.json" >"$tmp.unavail.json"
"$v" explain --utc --now 2024-05-01T11:00:30Z --operations "$d/timeout-itemoperations.json" --bsls "$tmp.unavail.json" \
    --persist-fails upload "$d/timeout-backup.json" >"$tmp.out" 2>&1
tr '\n' ' ' <"$tmp.out" | sed 's/  */ /g' >"$tmp.flat"
grep -q 'but the upload fails (--persist-fails): the backup stays WaitingForPluginOperations (1 error(s) kept pending, 0 lost from status.errors) and Velero requeues it' "$tmp.flat" &&
    ! grep -q 'Then the finalizer controller' "$tmp.out" && echo "ok persist-fails-upload" ||
    { echo "FAIL persist-fails-upload"; cat "$tmp.out"; fail=1; }
"$v" explain -o json --now 2024-05-01T11:00:30Z --operations "$d/timeout-itemoperations.json" --persist-fails patch \
    "$d/timeout-backup.json" | grep -qF '"persistFails":{"write":"patch","phaseKept":"WaitingForPluginOperations","pendingErrors":0,"lostErrors":1}' &&
    echo "ok persist-fails-patch-json" || { echo "FAIL persist-fails-patch-json"; fail=1; }
stderr_has persist-fails-bad '--persist-fails must be upload or patch' -- explain --persist-fails disk "$d/readonly-backup.json"
rm -f "$tmp.unavail.json" "$tmp.flat"
stderr_has velero-version-hardened 'cannot be combined' -- explain --policy hardened --velero-version 1.14 "$d/readonly-backup.json"
stderr_has velero-version-bad '--velero-version' -- explain --velero-version 0.9 "$d/readonly-backup.json"
# --resource-timeout sets the retry budget: 1h gives 8 attempts.
"$v" explain --utc --resource-timeout 1h $ex1 | grep -q '8 attempts over 16m16.56s' && echo "ok resource-timeout" ||
    { echo "FAIL resource-timeout"; fail=1; }

# stdin and gzip: the object from -, the operations gzip-compressed.
gzip -c "$d/timeout-itemoperations.json" >"$tmp.ops.gz"
"$v" explain --utc --now 2024-05-01T11:00:30Z --operations "$tmp.ops.gz" --bsls "$d/bsls-available.json" - \
    <"$d/timeout-backup.json" >"$tmp.out" 2>&1 && cmp -s "$tmp.out" "$d/timeout.txt" && echo "ok stdin-gzip" ||
    { echo "FAIL stdin-gzip"; diff "$tmp.out" "$d/timeout.txt"; fail=1; }

# Other phases: terminal, InProgress, unknown.
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"Completed"}}' >"$tmp.obj"
"$v" explain --utc "$tmp.obj" | grep -q 'Nothing more happens: the phase is terminal.' && echo "ok terminal" || { echo "FAIL terminal"; fail=1; }
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"InProgress"}}' >"$tmp.obj"
"$v" explain --utc --operations "$d/readonly-itemoperations.json" "$tmp.obj" >"$tmp.out" &&
    grep -q 'a server restart marks it Failed' "$tmp.out" && grep -q 'first evaluated when the main run ends' "$tmp.out" &&
    echo "ok in-progress" || { echo "FAIL in-progress"; cat "$tmp.out"; fail=1; }
printf '{"kind":"Restore","metadata":{"name":"r"},"status":{"phase":"Queued"}}' >"$tmp.obj"
"$v" explain --utc "$tmp.obj" | grep -q 'not a restore phase this version knows' && echo "ok unknown-phase" || { echo "FAIL unknown-phase"; fail=1; }
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"FinalizingPartiallyFailed"}}' >"$tmp.obj"
"$v" explain --utc "$tmp.obj" | grep -q 'FinalizingPartiallyFailed -> PartiallyFailed (finalizer controller): retried with CapBackoff(--resource-timeout 10m0s): 7 attempts over 3m15.31s' &&
    echo "ok finalizing" || { echo "FAIL finalizing"; fail=1; }

# Bad input: exit 2 with a message naming the problem.
stderr_has no-object 'OBJECT is required' -- explain --utc
printf '{"kind":"Schedule"}' >"$tmp.obj"
stderr_has not-a-backup 'OBJECT must be a Backup or a Restore' -- explain "$tmp.obj"
printf '{"kind":"Backup","spec":{"itemOperationTimeout":"four hours"},"status":{"phase":"WaitingForPluginOperations"}}' >"$tmp.obj"
stderr_has bad-spec-timeout 'spec.itemOperationTimeout' -- explain "$tmp.obj"
stderr_has bad-policy '--policy must be velero or hardened' -- explain --policy strict "$d/timeout-backup.json"
stderr_has bad-flag-timeout '--item-operation-timeout' -- explain --item-operation-timeout x "$d/readonly-backup.json"
stderr_has bad-resource-timeout '--resource-timeout' -- explain --resource-timeout x "$d/timeout-backup.json"
stderr_has bad-now '--now' -- explain --now yesterday "$d/timeout-backup.json"
stderr_has bad-format '-o must be text, json or svg' -- explain -o yaml "$d/timeout-backup.json"
printf '[{"spec":{},"status":{"nTotal":"ten"}}]' >"$tmp.bad"
stderr_has bad-operations '[0].status.nTotal' -- explain --operations "$tmp.bad" "$d/timeout-backup.json"
printf '{"items":[{"metadata":{}}]}' >"$tmp.bad"
stderr_has bad-bsls '--bsls' -- explain --bsls "$tmp.bad" "$d/timeout-backup.json"
stderr_has missing-file 'cannot open' -- explain "$d/does-not-exist.json"
"$v" explain --help | grep -q '^usage: velstatus explain' && echo "ok help" || { echo "FAIL help"; fail=1; }

# The three cases from the user's DataUpload / DataDownload objects alone (issue 26): the
# reconcile asks Velero's CSI plugin (the library's answers from the objects) instead of a
# --progress file, and decides as with the answers the records hold (tests/data/explain/README).
same_decision() { # same_decision NAME PROGRESS_JSON ARGS... : the lines before "operations:" agree
    name=$1; prog=$2; shift 2
    printf '%s' "$prog" >"$tmp.prog"
    "$v" operations reconcile --progress "$tmp.prog" "$@" 2>&1 | sed '/^operations:/,$d' >"$tmp.want"
    "$v" operations reconcile "$@" 2>&1 | sed '/^operations:/,$d' >"$tmp.got"
    grep -q '^phase: ' "$tmp.want" && cmp -s "$tmp.got" "$tmp.want" && echo "ok $name" ||
        { echo "FAIL $name"; diff "$tmp.got" "$tmp.want"; fail=1; }
}
same_decision objects-timeout '{"du-3046afb5-ac71-4121":{"nCompleted":3086376960,"nTotal":15431884800,"operationUnits":"Bytes","description":"InProgress"}}' \
    --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z --datauploads "$d/timeout-datauploads.json" \
    "$d/timeout-itemoperations.json"
# ... and at 14:00:00.000000001, past the 4h timeout: the same cancel and PartiallyFailed.
same_decision objects-timeout-late '{"du-3046afb5-ac71-4121":{"nCompleted":3086376960,"nTotal":15431884800,"operationUnits":"Bytes","description":"InProgress"}}' \
    --phase WaitingForPluginOperationsPartiallyFailed --now 2024-05-01T14:00:01Z --datauploads "$d/timeout-datauploads.json" \
    "$d/timeout-itemoperations.json"
same_decision objects-readonly '{"du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx":{"description":"Accepted"}}' \
    --phase WaitingForPluginOperations --bsl readonly --now 2025-01-07T09:12:00Z \
    --datauploads "$d/readonly-datauploads.yaml" "$d/readonly-itemoperations.json"
same_decision objects-restore '{"dd-6d486051-9bf9-4c90-9026-7e2e270d04b0.9c3e0a11-5d2f-4e8b91f7a":{"description":"Prepared","operationUnits":"Bytes"}}' \
    --phase WaitingForPluginOperationsPartiallyFailed -n openshift-adp --now 2023-09-13T09:30:00Z \
    --datadownloads "$d/restore-datadownloads.json" "$d/restore-itemoperations.json"
# The plugin's answer lands in the record: the InProgress DataUpload's counts and description.
"$v" operations reconcile --phase WaitingForPluginOperations -n openshift-adp --now 2023-09-13T09:30:00Z \
    --datadownloads - "$d/restore-itemoperations.json" <"$d/restore-datadownloads.json" |
    grep -qx '  dd-6d486051-9bf9-4c90-9026-7e2e270d04b0.9c3e0a11-5d2f-4e8b91f7a New 0/0 Bytes' &&
    echo "ok objects-stdin" || { echo "FAIL objects-stdin"; fail=1; }
# Velero's namespace decides which objects the plugin lists: from another one it finds none.
"$v" operations reconcile --policy velero --phase WaitingForPluginOperationsPartiallyFailed --now 2023-09-13T09:30:00Z \
    --datadownloads "$d/restore-datadownloads.json" "$d/restore-itemoperations.json" |
    grep -q "9c3e0a11-5d2f-4e8b91f7a Failed 0/0 error: rpc error: code = Unknown desc = didn't find DataDownload" &&
    echo "ok objects-namespace" || { echo "FAIL objects-namespace"; fail=1; }
# A kubectl watch (--output-watch-events): the last state counts; here the DataUpload fails.
du='{"apiVersion":"velero.io/v2alpha1","kind":"DataUpload","metadata":{"name":"nightly-20240501-qzzr6","namespace":"velero","labels":{"velero.io/async-operation-id":"du-3046afb5-ac71-4121"}},"status":'
{ printf '{"type":"ADDED","object":%s{"phase":"InProgress","progress":{"bytesDone":1,"totalBytes":9}}}}\n' "$du"
  printf '{"type":"MODIFIED","object":%s{"phase":"Failed","message":"data path failed: disk full"}}}\n' "$du"; } >"$tmp.watch"
"$v" operations reconcile --policy velero --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z \
    --datauploads "$tmp.watch" "$d/timeout-itemoperations.json" >"$tmp.out" 2>&1
grep -q '^failed: 2$' "$tmp.out" && grep -q 'du-3046afb5-ac71-4121 Failed .*error: data path failed: disk full' "$tmp.out" &&
    echo "ok objects-watch" || { echo "FAIL objects-watch"; cat "$tmp.out"; fail=1; }
# Operations of another plugin still take --progress, or are named as unanswered.
sed 's/"phase":"Failed","error":"unable[^"]*\\"[^"]*\\""/"phase":"InProgress"/' "$d/timeout-itemoperations.json" >"$tmp.ops"
"$v" operations reconcile --policy velero --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z \
    --datauploads "$d/timeout-datauploads.json" "$tmp.ops" >"$tmp.out" 2>&1
grep -q '^unanswered: 1 ' "$tmp.out" && grep -qx '  export-7f3a (example.io/snapshot-exporter)' "$tmp.out" &&
    grep -q 'export-7f3a Failed 0/0 error: operation ID export-7f3a is invalid' "$tmp.out" && echo "ok objects-unanswered" ||
    { echo "FAIL objects-unanswered"; cat "$tmp.out"; fail=1; }
printf '{"export-7f3a":{"nCompleted":1,"nTotal":4}}' >"$tmp.prog"
"$v" operations reconcile -o json --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z --progress "$tmp.prog" \
    --datauploads "$d/timeout-datauploads.json" "$tmp.ops" >"$tmp.out" 2>&1
! grep -q unanswered "$tmp.out" && grep -q '"nCompleted":1,"nTotal":4' "$tmp.out" && echo "ok objects-and-progress" ||
    { echo "FAIL objects-and-progress"; cat "$tmp.out"; fail=1; }
"$v" operations reconcile -o json --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z \
    --datauploads "$d/timeout-datauploads.json" "$tmp.ops" | grep -q '"unanswered":\["export-7f3a"\],"operations":' &&
    echo "ok objects-unanswered-json" || { echo "FAIL objects-unanswered-json"; fail=1; }
# The snapshot plugin's operations: the VolumeSnapshot the ID names (here none: the API's NotFound).
printf '[{"spec":{"backupName":"b","backupItemAction":"velero.io/csi-volumesnapshot-backupper","operationID":"app/snap-1/2024-05-01T10:00:00Z"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]' >"$tmp.ops"
"$v" operations reconcile --policy velero --phase WaitingForPluginOperations --now 2024-05-01T11:00:30Z \
    --volumesnapshots - "$tmp.ops" \
    <"$d/timeout-datauploads.json" | grep -q 'error: rpc error: code = Unknown desc = .*snap-1.* not found' &&
    echo "ok objects-volumesnapshots" || { echo "FAIL objects-volumesnapshots"; fail=1; }
stderr_has objects-none 'missing --progress (or --datauploads' -- operations reconcile --phase WaitingForPluginOperations "$tmp.ops"
# The VolumeSnapshotContent action's operations (1.12, 1.13) need only the contents: c-1 is ready,
# c-2 carries the snapshot controller's error of velero #7197 (the failure of #7356); 1.14 leaves both
# in progress (its Progress is empty).
printf '[{"spec":{"backupName":"b","backupItemAction":"velero.io/csi-volumesnapshotcontent-backupper","operationID":"c-1/2024-05-01T10:00:00Z"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}},{"spec":{"backupName":"b","backupItemAction":"velero.io/csi-volumesnapshotcontent-backupper","operationID":"c-2/2024-05-01T10:00:00Z"},"status":{"phase":"InProgress","created":"2024-05-01T10:00:00Z"}}]' >"$tmp.vscops"
printf '{"kind":"List","items":[{"apiVersion":"snapshot.storage.k8s.io/v1","kind":"VolumeSnapshotContent","metadata":{"name":"c-1"},"status":{"readyToUse":true}},{"apiVersion":"snapshot.storage.k8s.io/v1","kind":"VolumeSnapshotContent","metadata":{"name":"c-2"},"status":{"readyToUse":false,"error":{"message":"Failed to check and update snapshot content: failed to remove VolumeSnapshotBeingCreated annotation on the content c-2"}}}]}' >"$tmp.vsc"
"$v" operations reconcile --velero-version 1.12 --policy velero --phase WaitingForPluginOperations \
    --now 2024-05-01T10:05:00Z --volumesnapshotcontents "$tmp.vsc" "$tmp.vscops" >"$tmp.out" 2>&1
grep -q '^completed: 1$' "$tmp.out" && grep -q '^failed: 1$' "$tmp.out" &&
    grep -q 'c-2/2024-05-01T10:00:00Z Failed .*error: Failed to check and update snapshot content' "$tmp.out" &&
    echo "ok objects-vsc-alone" || { echo "FAIL objects-vsc-alone"; cat "$tmp.out"; fail=1; }
"$v" operations reconcile --velero-version 1.14 --policy velero --phase WaitingForPluginOperations \
    --now 2024-05-01T10:05:00Z --volumesnapshotcontents "$tmp.vsc" "$tmp.vscops" >"$tmp.out" 2>&1
grep -q '^completed: 0$' "$tmp.out" && grep -q '^failed: 0$' "$tmp.out" && ! grep -q unanswered "$tmp.out" &&
    echo "ok objects-vsc-1.14" || { echo "FAIL objects-vsc-1.14"; cat "$tmp.out"; fail=1; }
printf '{"kind":"DataUpload","status":{"progress":{"bytesDone":"ten"}}}' >"$tmp.bad"
stderr_has objects-bad '--datauploads '"$tmp.bad"': status.progress.bytesDone' -- operations reconcile \
    --phase WaitingForPluginOperations --datauploads "$tmp.bad" "$tmp.ops"
stderr_has objects-1.11 'Velero 1.11' -- operations reconcile --velero-version 1.11 \
    --phase WaitingForPluginOperations --datauploads "$d/timeout-datauploads.json" "$tmp.ops"

# explain from the objects: the same timeline as before, and the data mover's chain (issue 26).
golden objects-explain-timeout "$d/timeout-objects.txt" -- explain --utc $ex1 --datauploads "$d/timeout-datauploads.json"
golden objects-explain-readonly "$d/readonly-objects.txt" -- explain --utc --now 2025-01-07T09:12:00Z \
    --operations "$d/readonly-itemoperations.json" --bsls "$d/bsls-readonly.json" \
    --datauploads "$d/readonly-datauploads.yaml" "$d/readonly-backup.json"
golden objects-explain-restore "$d/restore-objects.txt" -- explain --utc --now 2023-09-13T09:30:00Z \
    --operations "$d/restore-itemoperations.json" --datadownloads "$d/restore-datadownloads.json" "$d/restore.json"
# The issue's own chain: Accepted at 08:05:21, failed by the node-agent at 08:35:21, then the pass.
golden objects-explain-accepted "$d/accepted-objects.txt" -- explain --utc --now 2025-01-07T08:10:00Z \
    --operations "$d/readonly-itemoperations.json" --bsls "$d/bsls-available.json" \
    --datauploads "$d/readonly-datauploads.yaml" "$d/readonly-backup.json"
golden objects-explain-accepted-json "$d/accepted-objects.json" -- explain -o json --now 2025-01-07T08:10:00Z \
    --operations "$d/readonly-itemoperations.json" --bsls "$d/bsls-available.json" \
    --datauploads "$d/readonly-datauploads.yaml" "$d/readonly-backup.json"
# The CSI snapshot plugin's operations from the VolumeSnapshots and their contents (issue 26;
# the error text is velero #7197's): the ready one completes at the next pass; the one whose
# VolumeSnapshot carries the error waits until its 4h timeout in 1.16 (velero #9674).
snap="--utc --now 2023-12-10T03:55:00Z --operations $d/snapshot-itemoperations.json --bsls $d/bsls-available.json \
    --volumesnapshotcontents $d/snapshot-volumesnapshotcontents.json"
golden objects-explain-snapshots "$d/snapshot-objects.txt" -- explain --velero-version 1.16 $snap \
    --volumesnapshots "$d/snapshot-volumesnapshots.json" "$d/snapshot-backup.json"
# With the error on the content alone, 1.14 and later fail it at the next pass with the content's
# message; 1.13 reads only the VolumeSnapshot (not ready): its timeout still ends it.
sed 's/"error": {/"errorIgnored": {/' "$d/snapshot-volumesnapshots.json" >"$tmp.vs"
"$v" explain --velero-version 1.16 $snap --volumesnapshots "$tmp.vs" "$d/snapshot-backup.json" >"$tmp.out" 2>&1
sed -n '/^Timeline:/,/^$/p' "$tmp.out" | tr '\n' ' ' | sed 's/  */ /g' >"$tmp.flat"
grep -q '03:55:00 +0000 UTC (the next pass): apps/velero-data-postgres-0-t8vnd/2023-12-10T03:50:41Z fails with the error its plugin reports error: Failed to check and update snapshot content: failed to remove VolumeSnapshotBeingCreated' "$tmp.flat" &&
    grep -q 'phase: WaitingForPluginOperations -> FinalizingPartiallyFailed' "$tmp.flat" && ! grep -q 'times out' "$tmp.flat" &&
    echo "ok objects-explain-snapshot-content-error" || { echo "FAIL objects-explain-snapshot-content-error"; cat "$tmp.out"; fail=1; }
"$v" explain --velero-version 1.13 $snap --volumesnapshots "$tmp.vs" "$d/snapshot-backup.json" >"$tmp.out" 2>&1
grep -q '07:50:41.000000001 +0000 UTC (the first pass from then on):' "$tmp.out" && grep -q 't8vnd/2023-12-10T03:50:41Z times out' "$tmp.out" &&
    echo "ok objects-explain-snapshot-1.13" || { echo "FAIL objects-explain-snapshot-1.13"; cat "$tmp.out"; fail=1; }
# Without the snapshot list the forecast keeps the records: the ready one times out too.
"$v" explain --velero-version 1.16 --utc --now 2023-12-10T03:55:00Z --operations "$d/snapshot-itemoperations.json" \
    --bsls "$d/bsls-available.json" "$d/snapshot-backup.json" >"$tmp.out" 2>&1
grep -q 'gitea-0-5kq2w/2023-12-10T03:50:40Z times out' "$tmp.out" && ! grep -q 'then it patches the Backup.s status' "$tmp.out" &&
    echo "ok objects-explain-snapshot-none" || { echo "FAIL objects-explain-snapshot-none"; cat "$tmp.out"; fail=1; }
section() { sed -n "/^$1/,/^\$/p" "$2"; }
# The same decisions: the timeline's events, its opening line (what is assumed) apart.
events() { section Timeline: "$1" | sed '/^  (policy/,/):$/d'; }
for f in timeout readonly restore; do
    events "$d/$f-objects.txt" >"$tmp.got"; events "$d/$f.txt" >"$tmp.want"
    cmp -s "$tmp.got" "$tmp.want" && [ -s "$tmp.got" ] && echo "ok objects-same-timeline-$f" ||
        { echo "FAIL objects-same-timeline-$f"; diff "$tmp.got" "$tmp.want"; fail=1; }
done
# Without the objects, nothing of the chain is printed (the three goldens above stay as they were).
! grep -q '^Data mover' "$d/readonly.txt" && echo "ok objects-absent" || { echo "FAIL objects-absent"; fail=1; }
# A phase the operations controller does not poll: the chain without its pass (and no failure).
for ph in InProgress Completed; do
    sed "s/\"phase\": \"WaitingForPluginOperations\"/\"phase\": \"$ph\"/" "$d/readonly-backup.json" >"$tmp.obj"
    "$v" explain --utc --now 2025-01-07T08:10:00Z --operations "$d/readonly-itemoperations.json" \
        --datauploads "$d/readonly-datauploads.yaml" "$tmp.obj" >"$tmp.out" 2>&1 &&
        grep -q 'The CSI plugin then answers: done, Failed' "$tmp.out" && ! grep -q "controller's pass" "$tmp.out" &&
        echo "ok objects-explain-$ph" || { echo "FAIL objects-explain-$ph"; cat "$tmp.out"; fail=1; }
done
stderr_has objects-explain-1.11 'Velero 1.11 has no data mover' -- explain --velero-version 1.11 \
    --operations "$d/readonly-itemoperations.json" --datauploads "$d/readonly-datauploads.yaml" "$d/readonly-backup.json"
printf 'kind: DataUpload\nstatus:\n  acceptedTimestamp: yesterday\n' >"$tmp.bad"
stderr_has objects-explain-bad 'status.acceptedTimestamp' -- explain --datauploads "$tmp.bad" "$d/readonly-backup.json"

# doc/explain.md shows the three outputs as they are (code blocks 2, 4 and 6).
block() { # the lines of code block K of doc/explain.md
    awk -v k="$1" '/^```/ { n++; next } n == 2 * k - 1 { print }' "${VS_SRCDIR:?}/doc/explain.md"; }
k=0
for f in timeout readonly restore; do
    k=$((k + 1))
    block $((k * 2)) >"$tmp.doc"
    cmp -s "$tmp.doc" "$d/$f.txt" && echo "ok doc-example-$f" || { echo "FAIL doc-example-$f: doc/explain.md differs"; diff "$tmp.doc" "$d/$f.txt"; fail=1; }
done
# ... the timeline that follows the chain (code block 8, its events up to the first patch) ...
block 8 >"$tmp.doc"
section Timeline: "$d/accepted-objects.txt" | sed -n '1,/then it uploads/p' >"$tmp.want"
[ -s "$tmp.want" ] && cmp -s "$tmp.doc" "$tmp.want" && echo "ok doc-objects-timeline" ||
    { echo "FAIL doc-objects-timeline: doc/explain.md differs"; diff "$tmp.doc" "$tmp.want"; fail=1; }
# ... and the data mover's chains (code blocks 9 and 10) as explain prints them from the objects.
k=8
for f in readonly accepted; do
    k=$((k + 1))
    block $k >"$tmp.doc"
    sed -n '/^Data mover/,/^$/p' "$d/$f-objects.txt" | sed '$d' >"$tmp.want"
    [ -s "$tmp.want" ] && cmp -s "$tmp.doc" "$tmp.want" && echo "ok doc-objects-$f" ||
        { echo "FAIL doc-objects-$f: doc/explain.md differs"; diff "$tmp.doc" "$tmp.want"; fail=1; }
done
# ... and the snapshot plugin's timeline (code block 12, up to its phase change).
block 12 >"$tmp.doc"
section Timeline: "$d/snapshot-objects.txt" | sed -n '1,/phase: /p' >"$tmp.want"
[ -s "$tmp.want" ] && cmp -s "$tmp.doc" "$tmp.want" && echo "ok doc-objects-snapshots" ||
    { echo "FAIL doc-objects-snapshots: doc/explain.md differs"; diff "$tmp.doc" "$tmp.want"; fail=1; }

rm -f "$tmp".*
exit $fail
