#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# No function in lib/ is longer than 80 lines (scripts/function-length.sh
# counts from the signature's first line to the closing brace). First the
# checker is shown to catch an 81-line function and to pass an 80-line one.
set -u
check="$VS_SRCDIR/scripts/function-length.sh"
tmp="${TMPDIR:-/tmp}/vs_fnlen.$$"
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
gen() { # gen NAME BODY_LINES: a function of BODY_LINES + 5 lines
    printf 'static int\n'
    printf '%s(int a,\n    int b)\n{\n' "$1"
    i=0
    while [ $i -lt "$2" ]; do printf '    a += b; /* { */\n'; i=$((i + 1)); done
    printf '}\n\n'
}
{ gen short 75; gen long 76; } >"$tmp/t.c"
out=$(sh "$check" "$tmp/t.c" 2>&1)
rc=$?
if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -q '^81 .*t.c:82 long$' || printf '%s\n' "$out" | grep -q short; then
    echo "FAIL: the checker did not flag exactly the 81-line function (rc $rc):"; echo "$out"; fail=1
fi
if ! sh "$check" -a "$tmp/t.c" 2>/dev/null | grep -q '^80 .*t.c:1 short$'; then
    echo "FAIL: the checker did not count the 80-line function as 80"; fail=1
fi
if ! sh "$check" "$VS_SRCDIR"/lib/*/*.c "$VS_SRCDIR"/lib/*/*.h; then
    fail=1
fi
[ $fail = 0 ] && echo "function length: every function in lib/ has at most 80 lines"
exit $fail
