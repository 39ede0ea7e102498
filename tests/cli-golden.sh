#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The CLI golden files the binding tests compare with (tests/data/cli-golden):
# each <key>.args (one argument a line, paths relative to the top of the
# source tree; <key> is the first 16 hex digits of the file's SHA-256) is run
# through the built CLI from the top of the tree, and its stdout must equal
# <key>.out byte for byte, with exit status 0. So the bindings' tests, which
# read the .out files instead of running a CLI, can never drift from the tool.
# After a deliberate change of the CLI's output, VS_CLI_GOLDEN_UPDATE=1
# rewrites the .out files (review the diff); the binding tests record new
# commands themselves (VS_CLI_GOLDEN_RECORD=1, see bindings/go/golden_test.go).
set -u
# describe-operations prints local time; the goldens hold UTC, as the bindings' Describe does.
TZ=UTC; export TZ
v=${VELSTATUS:?}
top=${VS_SRCDIR:?}
dir=$top/tests/data/cli-golden
tmp=${TMPDIR:-/tmp}/vs_golden.$$
trap 'rm -f "$tmp"' EXIT
fail=0 n=0
for args in "$dir"/*.args; do
    [ -f "$args" ] || continue
    key=$(basename "$args" .args)
    n=$((n + 1))
    sum=$(sha256sum < "$args" | cut -c1-16)
    if [ "$sum" != "$key" ]; then echo "FAIL $key: the key is not the args' SHA-256 ($sum)"; fail=1; continue; fi
    # one argument a line (no argument holds a newline)
    set --
    while IFS= read -r a; do set -- "$@" "$a"; done < "$args"
    (cd "$top" && "$v" "$@") > "$tmp"; rc=$?
    if [ $rc != 0 ]; then echo "FAIL $key: velstatus $*: exit $rc"; fail=1; continue; fi
    if [ "${VS_CLI_GOLDEN_UPDATE:-0}" = 1 ]; then cp "$tmp" "$dir/$key.out"; fi
    if ! cmp -s "$tmp" "$dir/$key.out"; then
        echo "FAIL $key: velstatus $* differs from $key.out:"; diff "$dir/$key.out" "$tmp" | head -20; fail=1; continue
    fi
    echo "ok $key velstatus $*"
done
for out in "$dir"/*.out; do
    [ -f "${out%.out}.args" ] || { echo "FAIL $(basename "$out"): no .args beside it"; fail=1; }
done
[ $n -ge 40 ] || { echo "FAIL: only $n golden commands in $dir"; fail=1; }
echo "cli-golden: $n commands"
exit $fail
