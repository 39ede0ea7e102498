#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus version / phase check: output, exit codes, usage errors.
set -u
v=${VELSTATUS:?}
fail=0
check() { # check NAME WANT_EXIT WANT_STDOUT -- ARGS...
    name=$1; want_rc=$2; want_out=$3; shift 4
    out=$("$v" "$@" 2>"${TMPDIR:-/tmp}/vs_err.$$"); rc=$?
    if [ "$rc" != "$want_rc" ]; then echo "FAIL $name: exit $rc, want $want_rc"; cat "${TMPDIR:-/tmp}/vs_err.$$"; fail=1; return; fi
    if [ -n "$want_out" ] && [ "$out" != "$want_out" ]; then echo "FAIL $name: got"; echo "$out"; echo "want"; echo "$want_out"; fail=1; return; fi
    echo "ok $name"
}
stderr_has() { # stderr_has NAME TEXT -- ARGS... : exit 2 and stderr contains TEXT
    name=$1; text=$2; shift 3
    "$v" "$@" >/dev/null 2>"${TMPDIR:-/tmp}/vs_err.$$"; rc=$?
    if [ "$rc" != 2 ]; then echo "FAIL $name: exit $rc, want 2"; fail=1; return; fi
    if ! grep -qF -- "$text" "${TMPDIR:-/tmp}/vs_err.$$"; then echo "FAIL $name: stderr lacks '$text':"; cat "${TMPDIR:-/tmp}/vs_err.$$"; fail=1; return; fi
    if [ "$(wc -l < "${TMPDIR:-/tmp}/vs_err.$$")" -ne 1 ]; then echo "FAIL $name: message is not one line"; fail=1; return; fi
    echo "ok $name"
}
check version 0 "" -- version
"$v" version | grep -q '^velstatus [0-9]*\.[0-9]*\.[0-9]* (libvelstatus [0-9]' || { echo "FAIL version text"; fail=1; }
check illegal 1 "illegal: Velero never moves a backup from InProgress to Completed" -- phase check --kind backup InProgress Completed
check legal 0 "legal: backup InProgress -> Finalizing (backup)" -- phase check --kind backup InProgress Finalizing
check json-legal 0 '{"kind":"backup","from":"WaitingForPluginOperations","to":"Finalizing","legal":true,"controller":"backup-operations","retryVelero":false,"retryHardened":false}' -- phase check --kind backup -o json WaitingForPluginOperations Finalizing
check json-illegal 1 '{"kind":"restore","from":"Completed","to":"InProgress","legal":false,"controller":null,"retryVelero":false,"retryHardened":false}' -- phase check --kind=restore Completed InProgress -o json
check empty-is-new 0 "legal: backup New -> Queued (backup-queue)" -- phase check --kind backup "" Queued
check json-retried 0 '{"kind":"backup","from":"InProgress","to":"Failed","legal":true,"controller":"backup, server-startup","retryVelero":true,"retryHardened":true}' -- phase check --kind backup -o json InProgress Failed
check json-retried-hardened 0 '{"kind":"restore","from":"New","to":"InProgress","legal":true,"controller":"restore","retryVelero":false,"retryHardened":true}' -- phase check --kind restore -o json New InProgress
check restore-finalizer 0 "" -- phase check --kind restore Finalizing PartiallyFailed
check backup-not-finalizer 1 "" -- phase check --kind backup Finalizing PartiallyFailed
stderr_has unknown-phase 'unknown backup phase "Done"' -- phase check --kind backup InProgress Done
stderr_has restore-queued 'a restore has no phase "Queued"' -- phase check --kind restore Queued New
stderr_has no-kind '--kind backup|restore is required' -- phase check InProgress Completed
stderr_has bad-kind '--kind must be backup or restore' -- phase check --kind schedule New Queued
stderr_has bad-format '-o must be text or json' -- phase check --kind backup -o yaml New Queued
stderr_has missing-arg 'needs FROM and TO' -- phase check --kind backup New
stderr_has extra-arg 'unexpected argument' -- phase check --kind backup New Queued Failed
stderr_has unknown-cmd 'unknown command "nope"' -- nope
stderr_has unknown-sub 'unknown subcommand' -- phase verify
stderr_has kind-no-value '--kind needs a value' -- phase check --kind
# Each area's own CLI test covers its commands' --help.
for c in version phase; do
    "$v" $c --help >/dev/null 2>&1 || { echo "FAIL $c --help exit $?"; fail=1; }
    "$v" $c --help 2>/dev/null | grep -q 'usage: velstatus' || { echo "FAIL $c --help prints no usage"; fail=1; }
done
"$v" --help | grep -q 'phase' || { echo "FAIL --help"; fail=1; }
"$v" >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL no-args exit"; fail=1; }
rm -f "${TMPDIR:-/tmp}/vs_err.$$"
exit $fail
