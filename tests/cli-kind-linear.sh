#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 24: without --kind, `operations format` and `check` used to keep the
# whole input and search all of it again for "backupName" / "restoreName"
# after every 64 KiB read, so a file without either took time quadratic in
# its size. Now the decoder takes the kind from the text as it reads it.
# Measured as work, not time: the instructions (valgrind's cachegrind,
# "I refs") of N records and of 4N records, whose ratio is about 4 when the
# work is linear (3.97 measured) and grows with N when it is quadratic (9.9 at
# these sizes before the fix). The bound, 6, leaves room for the start-up's
# share and for compilers, and none for the quadratic. A run of --kind backup
# must do as much work as one without --kind, within 10%.
# Skipped without valgrind and under the sanitizers (ASan and valgrind cannot
# run the same binary).
set -u
v=${VELSTATUS:?}
if [ "${VS_SANITIZERS:-no}" = yes ]; then echo "skip: sanitizer build"; exit 77; fi
command -v valgrind >/dev/null 2>&1 || { echo "skip: no valgrind"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-kind.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# gen N: N records without a spec key of either kind (the records),
# each followed by 200 spaces and a newline, so that most bytes are ones the
# decoder skips and a search over the held text would dominate.
gen() {
    awk -v n="$1" 'BEGIN { pad = sprintf("%200s", ""); printf "[";
        for (i = 0; i < n; i++) printf "%s{\"spec\":{\"operationID\":\"op-%d\"},\"status\":{\"phase\":\"New\"}}%s\n", (i ? "," : ""), i, pad;
        print "]" }'
}
# irefs FILE ARGS...: the instructions of velstatus ARGS... FILE
irefs() {
    f=$1; shift
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$v" "$@" "$f" >"$tmp/out" 2>"$tmp/vg"
    rc=$?
    sed -n 's/^==[0-9]*== I *refs: *//p' "$tmp/vg" | tr -d ','
    return $rc
}
n=4000
gen $n >"$tmp/n.json"
gen $((4 * n)) >"$tmp/4n.json"
for args in "operations format" "operations check"; do
    want=0
    [ "$args" = "operations check" ] && want=1 # every record lacks `created`
    # shellcheck disable=SC2086
    small=$(irefs "$tmp/n.json" $args); rc1=$?
    # shellcheck disable=SC2086
    large=$(irefs "$tmp/4n.json" $args); rc2=$?
    # shellcheck disable=SC2086
    kind=$(irefs "$tmp/4n.json" $args --kind backup); rc3=$?
    if [ "$rc1" != $want ] || [ "$rc2" != $want ] || [ "$rc3" != $want ] || [ -z "$small" ] || [ -z "$large" ] || [ -z "$kind" ]; then
        echo "FAIL $args: exits $rc1 $rc2 $rc3 (want $want), instructions '$small' '$large' '$kind'"
        head -n 5 "$tmp/vg"
        fail=1
        continue
    fi
    ratio=$(awk -v a="$large" -v b="$small" 'BEGIN { printf "%.2f", a / b }')
    if awk -v r="$ratio" 'BEGIN { exit !(r < 6) }'; then
        echo "ok $args: $large instructions for $((4 * n)) records, $small for $n: ratio $ratio (linear: 4)"
    else
        echo "FAIL $args: $large instructions for $((4 * n)) records, $small for $n: ratio $ratio, not under 6 (quadratic?)"
        fail=1
    fi
    if awk -v a="$large" -v k="$kind" 'BEGIN { exit !(a <= k * 1.1) }'; then
        echo "ok $args: without --kind $large instructions, with --kind backup $kind"
    else
        echo "FAIL $args: without --kind $large instructions, more than 1.1 x the $kind of --kind backup"
        fail=1
    fi
done
exit $fail
