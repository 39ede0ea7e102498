#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Velero's describe text and the BSL get tables as input (doc/cli.md, "Input
# forms"): the round trip (describe text read back and described again is
# the same bytes) over every itemoperations file the tests hold, in four
# zones; real pastes from Velero's issue threads; and the same decision as
# the JSON form for every command that takes each.
set -u
v=${VELSTATUS:?}
data=${VS_TEST_DATA:?}
d=$data/describe-in
e=$data/explain
tmp=${TMPDIR:-/tmp}/vs_describe_in.$$
fail=0
. "${VS_SRCDIR:?}/tests/cli-lib.sh"
mkdir -p "$tmp"
trap 'rm -rf "$tmp" "$tmp".*' EXIT

# POSIX zone rules (no tzdata needed): Berlin, Kolkata, St. John's (a
# half-hour offset west), UTC.
zones='CET-1CEST,M3.5.0,M10.5.0/3 IST-5:30 NST3:30NDT,M3.2.0,M11.1.0 UTC0'

# 1. The round trip. go-time-range.json holds the years 0000 and 9999,
#    which leave RFC 3339's four digits in a zone east or west of UTC: only UTC.
n=0
for f in $(grep -l '"operationID"\|"OperationID"' "$data"/releases/*.json "$data"/progress/*.json "$data"/operations/*.json \
    "$data"/explain/*itemoperations.json "$data"/decode/*.json "$data"/cli-golden/inputs/*.json 2>/dev/null); do
    for z in $zones; do
        case $f in *go-time-range.json) [ "$z" = UTC0 ] || continue ;; esac
        TZ=$z "$v" describe-operations --details "$f" >"$tmp.a" 2>/dev/null || continue
        [ -s "$tmp.a" ] || continue
        for k in "" --utc; do
            TZ=$z "$v" describe-operations --details $k "$f" >"$tmp.a" 2>/dev/null
            if TZ=$z "$v" describe-operations --details $k "$tmp.a" >"$tmp.b" 2>"$tmp.err" && cmp -s "$tmp.a" "$tmp.b"; then
                n=$((n + 1))
            else
                echo "FAIL round-trip $f TZ=$z $k"; cat "$tmp.err"; diff "$tmp.a" "$tmp.b" | head; fail=1
            fi
        done
    done
done
[ "$n" -ge 100 ] && echo "ok round-trip ($n describe texts)" || { echo "FAIL round-trip: only $n"; fail=1; }

# The same records: describe text -> operations format equals the JSON's,
# but for the name and UID (the section has neither) and a time written as
# null (the same as no time).
norm() { sed -e 's/"\(backup\|restore\)\(Name\|UID\)":"[^"]*",//g' -e 's/,"\(created\|started\|updated\)":null//g'; }
for f in "$e"/timeout-itemoperations.json "$data"/progress/example-backup-ops.json "$data"/progress/example-restore-ops.json; do
    TZ=IST-5:30 "$v" describe-operations --details "$f" | "$v" operations format - 2>/dev/null |
        norm >"$tmp.a"
    "$v" operations format "$f" | norm >"$tmp.b"
    cmp -s "$tmp.a" "$tmp.b" && ok "records $(basename "$f")" || { bad "records $f"; diff "$tmp.a" "$tmp.b" | head -5; }
done

# 2. Real pastes. velero #8178: a data-mover backup in CEST, followed by
#    "Resource List:"; velero #6589: a block that starts inside an operation.
run issue-8178 0 operations format "$d/issue-8178-backup-describe.txt" &&
    grep -q '"created":"2024-09-03T07:14:19Z"' "$tmp/out" && grep -q '"nCompleted":617,"nTotal":617,"operationUnits":"Bytes"' "$tmp/out" &&
    grep -q '"Group":"velero.io","Resource":"datauploads","Namespace":"openshift-adp"' "$tmp/out" && ok issue-8178 ||
    bad "issue-8178: $(cat "$tmp/out")"
run issue-6589 0 operations format "$d/issue-6589-backup-describe.txt" &&
    [ "$(grep -o '"operationID"' "$tmp/out" | wc -l)" = 2 ] && grep -q '"Namespace":"","Name":"velero-velero-kibishii' "$tmp/out" &&
    ok issue-6589 || bad "issue-6589: $(cat "$tmp/out")"
for c in "progress --now 2023-08-02T08:00:00Z" "operations check"; do
    "$v" $c - <"$d/issue-6589-backup-describe.txt" >"$tmp.a" 2>/dev/null; ra=$?
    "$v" operations format "$d/issue-6589-backup-describe.txt" 2>/dev/null >"$tmp.json"
    "$v" $c - <"$tmp.json" >"$tmp.b" 2>/dev/null; rb=$?
    [ $ra = $rb ] && cmp -s "$tmp.a" "$tmp.b" && ok "same: $c" || bad "same: $c ($ra/$rb)"
done

# 3. explain: the whole describe --details output gives the decision of its
#    JSON form (status.errors: the JSON omits it, the text says 0 by printing
#    no Errors: line).
same_explain() { # NAME JSON-ARGS -- TEXT-FILE COMMON-ARGS...
    name=$1; jargs=$2; t=$3; shift 3
    for o in text json; do
        "$v" explain --utc -o $o "$@" $jargs 2>&1 | sed 's/"errors":null/"errors":0/' >"$tmp.a"
        "$v" explain --utc -o $o "$@" "$t" 2>/dev/null >"$tmp.b"
        cmp -s "$tmp.a" "$tmp.b" && ok "explain $name $o" || { bad "explain $name $o"; diff "$tmp.a" "$tmp.b" | head -6; }
    done
}
same_explain timeout "--operations $e/timeout-itemoperations.json $e/timeout-backup.json" "$d/timeout-backup-describe.txt" \
    --now 2024-05-01T11:00:30Z --bsls "$e/bsls-available.json"
same_explain readonly "--operations $e/readonly-itemoperations.json $e/readonly-backup.json" "$d/readonly-backup-describe.txt" \
    --now 2025-01-07T09:12:00Z --bsls "$e/bsls-readonly.json"
same_explain restore "--operations $e/restore-itemoperations.json $e/restore.json" "$d/restore-describe.txt" \
    --now 2023-09-13T09:30:00Z
same_explain restore-1.11 "--operations $e/restore-itemoperations.json $e/restore.json" "$d/restore-describe.txt" \
    --now 2023-09-13T09:30:00Z --velero-version 1.11
# the describe OBJECT from stdin, with its operations
"$v" explain --utc --now 2024-05-01T11:00:30Z - <"$d/timeout-backup-describe.txt" 2>/dev/null | grep -q 'du-3046afb5-ac71-4121' &&
    ok explain-stdin || bad explain-stdin
# what the text says it does not carry
"$v" explain --utc --now 2023-09-13T09:30:00Z "$d/restore-describe.txt" 2>&1 >/dev/null | grep -q 'status.errors is taken as the 1 message' &&
    ok explain-note || bad explain-note

# 4. Tables: server-status decides as for the JSON form.
for f in velero-bsl-get kubectl-bsl-get; do
    for o in text json condition prometheus; do
        "$v" server-status -o $o --now 2023-11-10T15:41:00Z --stale-after 1m "$d/$f.txt" >"$tmp.a" 2>/dev/null
        "$v" server-status -o $o --now 2023-11-10T15:41:00Z --stale-after 1m "$d/$f.json" >"$tmp.b"
        cmp -s "$tmp.a" "$tmp.b" && ok "table $f $o" || { bad "table $f $o"; diff "$tmp.a" "$tmp.b" | head -4; }
    done
done
"$v" server-status "$d/velero-bsl-get.txt" 2>&1 >/dev/null | grep -q 'not in the table: status.message' && ok table-note || bad table-note

# 5. Bad input is named; the override.
printf 'Backup Item Operations:\n  Operation for pvc ns/a:\n    Backup Item Action Plugin:  p\n    Operation ID:  x\n    Phase:  New\n    Created:  yesterday\n' >"$tmp.t"
stderr_has bad-time 'line 6: "Created:" is not a time' -- operations format "$tmp.t"
printf 'Backup Item Operations:\t1 of 2 completed successfully, 0 failed (specify --details for more information)\nName:  b\nPhase:  Completed\n' >"$tmp.t"
stderr_has summary-only 'only the summary line' -- progress "$tmp.t"
printf 'Backup Item Operations:\n  Operation for pvc ns/a:\n    Restore Item Action Plugin:  p\n    Operation ID:  x\n    Phase:  New\n' >"$tmp.t"
stderr_has mixed-kind 'cannot hold both backup and restore operations' -- progress "$tmp.t"
printf '  Operation for pvc ns/a:\n    Restore Item Action Plugin:  p\n    Operation ID:  x\n    Phase:  New\n' >"$tmp.t"
stderr_has restore-kind 'lists restore operations, not backup ones' -- progress --kind backup "$tmp.t"
printf 'Operation for pvc ns/a:\n  Backup Item Action Plugin:  p\n  Phase:  New\n  Operation ID:  x\n' >"$tmp.t"
stderr_has order 'out of the order Velero prints' -- operations format "$tmp.t"
stderr_has form-bad '--input-form must be auto, json, describe or table' -- progress --input-form xml "$tmp.t"
printf 'NAME   PHASE   LAST VALIDATED   AGE   DEFAULT\nx      Available  soon   1d   true\n' >"$tmp.t"
stderr_has table-bad 'LAST VALIDATED or AGE' -- server-status "$tmp.t"
# an age past the int64 range (found by the table_in fuzz target under UBSan) is an error, never wrapped
printf 'NAME   PHASE       LAST VALIDATED   AGE   DEFAULT\nx      Available   25s              9999999999y   true\n' >"$tmp.t"
stderr_has table-age-range 'LAST VALIDATED or AGE' -- server-status --now 1677-09-21T00:13:00Z "$tmp.t"
"$v" operations format --input-form json "$d/issue-8178-backup-describe.txt" >/dev/null 2>&1 && bad form-json || ok form-json
# the fuzz smoke's findings (tests/data/fuzz-regress): invalid UTF-8 in a
# resource name is written as U+FFFD (as Go's encoding/json writes it), so
# the JSON stays valid; a table row without a column the header lacks is read
# as an empty cell, never indexed out of bounds.
r=$(cd "$d/.." && pwd)/fuzz-regress
fffd=$(printf '\357\277\275')
"$v" operations format "$r/describe_in-invalid-utf8.txt" 2>/dev/null | grep -q "pers$fffd$fffd$fffd${fffd}istentvolumeclaims" &&
    ok fuzz-invalid-utf8 || bad fuzz-invalid-utf8
"$v" server-status --now 2023-11-10T16:41:00Z "$r/table_in-absent-column.txt" >/dev/null 2>&1
[ $? -le 2 ] && ok fuzz-absent-column || bad fuzz-absent-column
exit $fail
