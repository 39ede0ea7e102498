#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Lists the C functions longer than a limit (default 80 lines), counted from
# the first line of the signature to the closing brace, and fails if there is
# any. Relies on the house layout: a definition's body opens with `{` and
# closes with `}` in column 0 (or the signature ends in `) {`), and nothing
# inside a body starts in column 0 except preprocessor lines.
#
#   scripts/function-length.sh [-m MAX] [-a] FILE...
#     -m MAX  the longest length allowed (80)
#     -a      print every function with its length, longest first
# Exit status: 0 none too long, 1 some too long, 2 usage.
max=80
all=0
while getopts m:a opt; do
    case $opt in
    m) max=$OPTARG ;;
    a) all=1 ;;
    *) echo "usage: $0 [-m MAX] [-a] FILE..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    echo "usage: $0 [-m MAX] [-a] FILE..." >&2
    exit 2
fi
case $max in '' | *[!0-9]*) echo "$0: -m wants a number" >&2; exit 2 ;; esac

${AWK:-awk} -v max="$max" -v all="$all" '
function reset() { start = 0; sig = "" }
FNR == 1 { reset(); inbody = 0; incomment = 0 }
{
    line = $0
    if (inbody) {
        if (line ~ /^}/) {
            n = FNR - start + 1
            name = sig
            sub(/\(.*/, "", name)
            sub(/.*[ \t*]/, "", name)
            printf "%d %s:%d %s\n", n, FILENAME, start, name
            inbody = 0
            reset()
        }
        next
    }
    if (incomment) {
        if (line ~ /\*\//)
            incomment = 0
        next
    }
    if (line ~ /^[ \t]*\/\*/) {
        if (line !~ /\*\//)
            incomment = 1
        reset()
        next
    }
    if (line ~ /^[ \t]*$/ || line ~ /^#/ || line ~ /^}/ || line ~ /^\/\//) {
        reset()
        next
    }
    if (line ~ /^{[ \t]*$/) {
        if (start > 0 && sig ~ /\(/)
            inbody = 1
        else
            reset()
        next
    }
    if (line ~ /^[A-Za-z_]/ && start == 0) {
        start = FNR
        sig = line
    } else if (start > 0) {
        sig = sig " " line
    }
    if (start > 0 && line ~ /\)[ \t]*{[ \t]*$/ && sig ~ /\(/ && sig !~ /=/) {
        inbody = 1
        next
    }
    if (line ~ /;[ \t]*$/ || line ~ /{[ \t]*$/)
        reset()
}
' "$@" | sort -k1,1nr -k2,2 >"${TMPDIR:-/tmp}/function-length.$$"
status=$?
if [ $status -ne 0 ]; then
    rm -f "${TMPDIR:-/tmp}/function-length.$$"
    exit 2
fi
if [ "$all" = 1 ]; then
    cat "${TMPDIR:-/tmp}/function-length.$$"
fi
long=$(${AWK:-awk} -v max="$max" '$1 > max' "${TMPDIR:-/tmp}/function-length.$$")
rm -f "${TMPDIR:-/tmp}/function-length.$$"
if [ -n "$long" ]; then
    echo "functions longer than $max lines (lines, where, name):" >&2
    echo "$long" >&2
    exit 1
fi
exit 0
