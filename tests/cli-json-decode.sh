#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The issue-10 reproducers through the CLI: every command that reads an
# untrusted file exits 2 with a message naming the position, never crashes.
set -u
v=${VELSTATUS:?}
data=${VS_TEST_DATA:?}/decode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-dec.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
now=2024-05-01T12:00:00Z

. "${VS_SRCDIR:?}/tests/cli-lib.sh"
has() {
    if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: lacks '$3'"; cat "$2"; fi
}

# defect 1: a raw NUL after a number (jansson skipped it; the CLI crashed with 139)
f=$data/nul-after-number.json
run "format nul" 2 operations format "$f" &&
    has "format nul message" "$tmp/err" "raw NUL byte outside a string (line 1, column 12, offset 11)"
run "check nul" 2 operations check "$f" &&
    has "check nul message" "$tmp/err" "raw NUL byte outside a string (line 1, column 12, offset 11)"
run "progress nul" 2 progress --now "$now" "$f" && has "progress nul message" "$tmp/err" "raw NUL byte"
run "server-status nul" 2 server-status "$data/bsl-nul-after-number.json" &&
    has "server-status nul message" "$tmp/err" "raw NUL byte"

# defect 6: one \u0000 in a BSL's status.message no longer fails the whole status
run "server-status NUL in message" 0 server-status "$data/bsl-nul-in-message.json" &&
    has "server-status NUL in message verdict" "$tmp/out" "1 of 2 backup storage locations unavailable (aws)"

# defect 5: Velero 1.11's keys (OperationID, ...) read as HEAD's
# rec NAME KIND FILE: one reconcile pass, JSON output in $tmp/out
rec() {
    run "$1" 0 operations reconcile --kind "$2" --phase WaitingForPluginOperations --now 2024-05-01T11:00:00Z \
        --timeout 4h --progress "$data/velero-1.11-progress.json" -o json "$3"
}
for k in backup restore; do
    if rec "reconcile 1.11 $k" $k "$data/velero-1.11-$k.json"; then
        mv "$tmp/out" "$tmp/old"
        if rec "reconcile lowercase $k" $k "$data/velero-1.11-$k-lowercase.json"; then
            if cmp -s "$tmp/old" "$tmp/out"; then ok "1.11 $k reconciles as lowercase"; else bad "1.11 $k differs"; fi
        fi
        has "1.11 $k still in progress" "$tmp/old" '"phase":"WaitingForPluginOperations"'
        has "1.11 $k ID read" "$tmp/old" '"operationID":"du-nightly-abcde"'
    fi
    run "check 1.11 $k" 0 operations check --kind $k "$data/velero-1.11-$k.json" && ok "check 1.11 $k"
done

# defect 2: a plugin's time at the start of the int64 range is written
# floored to 1677-09-21T00:12:43Z; the file reconcile writes must check clean
if run "reconcile earliest time" 0 operations reconcile --kind backup --phase WaitingForPluginOperations \
    --now 2024-05-01T11:00:00Z --timeout 4h --progress "$data/progress-time-extremes.json" -o json \
    "$data/velero-1.11-backup-lowercase.json"; then
    sed 's/.*"operations":\(.*\)}$/\1/' "$tmp/out" >"$tmp/written.json"
    has "earliest time written floored" "$tmp/written.json" '"started":"1677-09-21T00:12:43Z"'
    run "check what reconcile wrote" 0 operations check "$tmp/written.json" && ok "check what reconcile wrote"
fi

# errors point at the offending value, and the position is printed once:
# "(line L, column C, offset O)" at the end, nowhere else
once() {
    if [ "$(grep -o 'line [0-9]*' "$tmp/err" | wc -l)" = 1 ] && grep -qF -- "$2" "$tmp/err"; then
        ok "$1"
    else
        bad "$1: want '$2' once"; cat "$tmp/err"
    fi
}
{
    printf '[\n  {\n'
    i=0
    while [ $i -lt 24 ]; do printf '    "x%d": %d,\n' $i $i; i=$((i + 1)); done
    printf '    "status": {"phase": "New",\n      "created": "soon"}\n  }\n]\n'
} >"$tmp/created.json"
run "bad created" 2 operations format "$tmp/created.json" &&
    once "bad created: the value's position" '[0].status.created: not a valid time: invalid RFC 3339 timestamp "soon": expected a 4-digit year (line 28, column 19, offset 395)'
run "check bad created" 2 operations check "$tmp/created.json" && once "check bad created" '(line 28, column 19, offset 395)'
run "progress bad created" 2 progress --now "$now" "$tmp/created.json" && once "progress bad created" '(line 28, column 19, offset 395)'
: >"$tmp/empty.json"
run "empty file" 2 operations format "$tmp/empty.json" &&
    once "empty file: column 1" 'empty input: expected an array of operations or null (line 1, column 1, offset 0)'
run "empty BSL file" 2 server-status "$tmp/empty.json" && once "empty BSL file: column 1" '(line 1, column 1, offset 0)'
printf '{"op-1": {"description": "d",\n  "nTotal": "many"}}' >"$tmp/answers.json"
run "bad answer" 2 operations reconcile --kind backup --phase WaitingForPluginOperations --now "$now" \
    --timeout 4h --progress "$tmp/answers.json" "$data/velero-1.11-backup-lowercase.json" &&
    once "bad answer: the value's position" '["op-1"].nTotal: must be an integer (line 2, column 13, offset 42)'
run "empty answers" 2 operations reconcile --kind backup --phase WaitingForPluginOperations --now "$now" \
    --timeout 4h --progress "$tmp/empty.json" "$data/velero-1.11-backup-lowercase.json" &&
    once "empty answers: column 1" '(line 1, column 1, offset 0)'
printf '{"items": [{"metadata": {"name": "a"},\n  "spec": {"default": "yes"}}]}' >"$tmp/bsl.json"
run "bad BSL" 2 server-status "$tmp/bsl.json" &&
    once "bad BSL: the value's position" 'items[0].spec.default: expected a boolean, got a string (line 2, column 23, offset 61)'
run "bad now" 2 server-status --now 2026-11-30X13:00:00Z --stale-after 5m "$tmp/bsl.json" &&
    once "bad --now: the position once" "expected 'T' (line 1, column 11, offset 10)"

exit $fail
