#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The C example host: built by its own Makefile, outside the source tree, through
# pkg-config only (PKG_CONFIG_PATH points at the build tree, so pkg-config picks
# libvelstatus-uninstalled.pc), then run on examples/ and compared with
# examples/c/expected-output.txt; its verdict and counts agree with the CLI's.
set -u
src=${VS_SRCDIR:?}/examples/c
v=${VELSTATUS:?}
ex=$VS_SRCDIR/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-chost.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# The build's compiler and flags (sanitizers included), and C99 with warnings as errors.
if ! (cd "$tmp" && MAKEFLAGS= ${MAKE:-make} -s -f "$src/Makefile" srcdir="$src" CC="${CC:-cc}" \
        PKG_CONFIG="${PKG_CONFIG:-pkg-config}" CFLAGS="${VS_CFLAGS:-} -std=c99 -pedantic -Wall -Wextra -Werror" \
        LDFLAGS="${VS_LDFLAGS:-}" check) >"$tmp/make.log" 2>&1; then
    cat "$tmp/make.log"
    echo "FAIL: make check of examples/c"
    exit 1
fi
echo "ok c-host builds with pkg-config and prints expected-output.txt"

# The golden file is not taken on trust: the published verdict is the CLI's, and so are the counts.
want=$("$v" server-status "$ex/bsl/one-unavailable.json")
grep -qxF "publish $want" "$tmp/c-host.out" && echo "ok verdict as velstatus server-status" \
    || { echo "FAIL: c-host did not publish '$want'"; fail=1; }
"$v" operations reconcile --kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:30:00Z --timeout 4h \
    --progress "$ex/operations/backup-progress.json" "$ex/operations/backup-itemoperations.json" >"$tmp/cli.out"
counts=$(sed -nE 's/^(completed|failed|inProgress): //p' "$tmp/cli.out" | tr '\n' ' ')
line=$(sed -n 's/.*(completed \([0-9]*\), failed \([0-9]*\), in progress \([0-9]*\))$/\1 \2 \3 /p' "$tmp/c-host.out")
[ -n "$line" ] && [ "$counts" = "$line" ] && echo "ok reconcile counts as velstatus operations reconcile ($line)" \
    || { echo "FAIL: reconcile counts: c-host [$line], CLI [$counts]"; fail=1; }

# Bad input: a clear message naming the file, the field and its value's position, exit 1.
# bad NAME BSL-FILE OPS-FILE PATTERN: c-host exits 1 and its stderr matches PATTERN.
bad() {
    "$tmp/c-host" "$2" "$3" "$ex/operations/backup-progress.json" 2024-05-01T10:30:00Z >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 1 ] && grep -q "$4" "$tmp/err"; then
        echo "ok $1: $(cat "$tmp/err")"
    else
        echo "FAIL: $1: exit $rc"; cat "$tmp/err"; fail=1
    fi
}
printf '[{"spec":{"backupName":1}}]' >"$tmp/bad.json"
bad "bad itemoperations file" "$ex/bsl/one-unavailable.json" "$tmp/bad.json" \
    'bad.json: VELSTATUS_E_SCHEMA: .*\[0\]\.spec\.backupName: .* (line 1, column 24)$'
printf '{"items":[{"metadata":{"name":"a"},"status":{"phase":7}}]}' >"$tmp/bad-bsl.json"
bad "bad BSL list" "$tmp/bad-bsl.json" "$ex/operations/backup-itemoperations.json" \
    'bad-bsl.json: VELSTATUS_E_SCHEMA: items\[0\]\.status\.phase: .* (line 1, column 54)$'
exit $fail
