#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates the figures of doc/hostile-inputs.md: builds each hostile
# input, runs the CLI on it under /usr/bin/time, and prints one Markdown row
# per run (input, size, command, exit status and first line of the message,
# wall time, peak RSS). The small inputs are also asserted in `make check`
# (tests/check_json_decode.c); the big ones (up to 680 MB of input and about
# 3 GB of RAM) only run here.
#
#   scripts/hostile-inputs.sh [BUILD_DIR] [small|all]
#
# BUILD_DIR holds tools/velstatus (default: .); `small` (the default) skips
# the inputs of more than 1 MB. Needs python3 and GNU time (`time` package).
set -u
build=${1:-.}
what=${2:-small}
v=$build/tools/velstatus
[ -x "$v" ] || { echo "no $v (give the build directory)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-hostile.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
now=2024-05-01T12:00:00Z

# gen NAME PYTHON-EXPRESSION: writes the bytes the expression gives to $tmp/NAME
gen() {
    python3 - "$tmp/$1" "$2" <<'EOF'
import sys
path, expr = sys.argv[1], sys.argv[2]
rec = lambda body: '[{"spec":{"operationID":"o"},"status":{' + body + '}}]'
with open(path, 'wb') as f:
    data = eval(expr)
    f.write(data.encode('utf-8', 'surrogatepass') if isinstance(data, str) else data)
EOF
}

# row LABEL FILE ARGS...: runs velstatus ARGS... FILE, prints a table row
row() {
    label=$1; file=$2; shift 2
    size=$(wc -c <"$tmp/$file" | tr -d ' ')
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$v" "$@" "$tmp/$file" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    secs=$(tail -n 1 "$tmp/time" | cut -d' ' -f1)
    kb=$(tail -n 1 "$tmp/time" | cut -d' ' -f2)
    msg=$(head -n 1 "$tmp/err" | sed 's/^velstatus: [^:]*: [^:]*: //' | cut -c1-110 | sed 's/|/\\|/g')
    [ -n "$msg" ] || msg=$(tail -n 1 "$tmp/out" | cut -c1-60 | sed 's/|/\\|/g')
    printf '| %s | %s B | `%s` | %s: %s | %s s | %s MiB |\n' "$label" "$size" "$*" "$rc" "$msg" "$secs" \
        "$(awk "BEGIN { printf \"%.1f\", $kb / 1024 }")"
}

echo "| input | size | command | exit: message | time | peak RSS |"
echo "|---|---|---|---|---|---|"
gen depth2048 "'[{\"x\":' + '[' * 2047 + ']' * 2047 + '}]'"
row "a record nested 2048 levels (jansson's limit)" depth2048 operations format
gen depth2049 "'[{\"x\":' + '[' * 2048 + ']' * 2048 + '}]'"
row "a record nested 2049 levels" depth2049 operations check
gen depth1m "'[{\"x\":' + '[' * 1000000 + ']' * 1000000 + '}]'"
row "a record nested 1,000,000 levels" depth1m operations check
gen e400 "rec('\"nTotal\":1e400')"
row "1e400 (nTotal)" e400 operations check
gen e400u "'[{\"x\":1e400}]'"
row "1e400 (unknown value)" e400u operations check
gen minus0 "rec('\"nTotal\":-0,\"nCompleted\":-0,\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"')"
row "-0 (nTotal, nCompleted)" minus0 operations format
gen p63 "rec('\"nTotal\":9223372036854775808')"
row "2^63 (nTotal)" p63 operations check
gen m63 "rec('\"nTotal\":-9223372036854775808')"
row "-2^63 (nTotal)" m63 operations format
gen dup "'[{\"spec\":{\"operationID\":\"a\",\"backupName\":\"x\"},\"spec\":{\"operationID\":\"b\"},\"x\":1,\"x\":2}]'"
row "repeated keys" dup operations format
gen nul "rec('\"error\":\"a\\\\u0000b\"')"
row '\u0000 in a string' nul operations format
gen nulkey "'[{\"a\\\\u0000\":1}]'"
row '\u0000 in a key' nulkey operations check
gen rawnul "b'[{\"s\":{\"\":7\\x00},\"c\":7\\x00,\"\":{\"\":7\\x00},\"t\":3}'"
row "raw NUL after a number (defect 1)" rawnul operations check
gen badutf8 "b'[{\"status\":{\"error\":\"\\xff\\xfe\"}}]'"
row "invalid UTF-8" badutf8 operations check
gen overlong "b'[{\"status\":{\"error\":\"\\xc0\\xaf\"}}]'"
row "overlong UTF-8" overlong operations check
gen lone "rec('\"error\":\"\\\\ud800\"')"
row "lone surrogate escape" lone operations check
gen bslnul "'[{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":\"Available\",\"message\":\"x\\\\u0000y\"}}]'"
row '\u0000 in a BSL message (defect 6)' bslnul server-status
gen bsldup "'[{\"metadata\":{\"name\":\"a\",\"name\":\"b\"},\"spec\":{\"default\":true}}]'"
row "repeated BSL keys" bsldup server-status

if [ "$what" = all ]; then
    gen str50 "'[{\"spec\":{\"operationID\":\"o\"},\"status\":{\"description\":\"' + 'a' * (50 << 20) + '\"}}]'"
    for c in "operations format" "operations check" "progress --now $now"; do
        # shellcheck disable=SC2086
        row "50 MB string (status.description)" str50 $c
    done
    gen lt50 "'[{\"spec\":{\"operationID\":\"o\"},\"' + '<' * (50 << 20) + '\":1}]'"
    for c in "operations format" "operations check" "progress --now $now"; do
        # shellcheck disable=SC2086
        row "50 MB of < in an unknown key" lt50 $c
    done
    gen empty10m "'[' + '{},' * 9999999 + '{}]'"
    for c in "operations format" "operations check" "progress --now $now"; do
        # shellcheck disable=SC2086
        row "10,000,000 {} records" empty10m $c
    done
    gen bsl10m "'[' + ','.join('{\"metadata\":{\"name\":\"bsl-%08d\"},\"status\":{\"phase\":\"Available\"}}' % i for i in range(10000000)) + ']'"
    row "10,000,000 BSLs" bsl10m server-status
fi
