#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The conventions every velstatus command shares (doc/cli.md): the five
# spellings of -o on every subcommand, help, --version, stdin with - or no
# FILE, gzip input found by its magic bytes (corrupt and truncated streams
# named with their byte offset, --max-input), YAML input and the OS
# reason in read errors.
set -u
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}
tmp=${TMPDIR:-/tmp}/vs_conv.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
ops=$d/operations/spec-example.json
bsl=$VS_SRCDIR/examples/bsl/all-available.json
[ -f "$bsl" ] || bsl=$(ls "$VS_SRCDIR"/examples/bsl/*.json | head -1)
now=2024-05-01T10:02:13Z

# Every subcommand, its arguments before -o, and what follows.
cases="version|
phase check --kind backup New Queued|
server-status $bsl|
operations format $ops|
operations check $ops|
operations reconcile --phase WaitingForPluginOperations --now $now --timeout 1h --progress $tmp/progress.json $ops|
progress --now $now $ops|
describe-operations $ops|
backoff --velero-cap 10m"
printf '{}' > "$tmp/progress.json"
printf '%s\n' "$cases" | while IFS='|' read -r args _; do
    [ -n "$args" ] || continue
    # shellcheck disable=SC2086
    ref=$("$v" $args -o json 2>&1); rc=$?
    [ "$rc" -le 1 ] || { echo "FAIL -o json on \"$args\": exit $rc: $ref"; echo x >> "$tmp/failed"; continue; }
    printf '%s' "$ref" | python3 -c 'import json,sys; t=sys.stdin.read(); json.loads(t) if t.lstrip()[:1] in "{[" else sys.exit(1)' ||
        { echo "FAIL -o json on \"$args\" is not JSON: $ref"; echo x >> "$tmp/failed"; continue; }
    for form in "-ojson" "-o=json" "--output json" "--output=json"; do
        # shellcheck disable=SC2086
        got=$("$v" $args $form 2>&1)
        [ "$got" = "$ref" ] || { echo "FAIL \"$args $form\" differs from -o json"; echo x >> "$tmp/failed"; }
    done
    echo "ok -o forms: $args"
done
[ -f "$tmp/failed" ] && fail=1

# help, help COMMAND, help COMMAND SUBCOMMAND, --version
[ "$("$v" help)" = "$("$v" --help)" ] && ok help || no help
[ "$("$v" help server-status)" = "$("$v" server-status --help)" ] && ok help-command || no help-command
"$v" help operations format | grep -q '^usage: velstatus operations' && ok help-subcommand || no help-subcommand
"$v" help nope >/dev/null 2>&1; [ $? = 2 ] && ok help-unknown || no help-unknown
[ "$("$v" --version)" = "$("$v" version)" ] && ok --version || no --version

# stdin: - and no FILE read it, the same way
[ "$("$v" operations format < "$ops")" = "$("$v" operations format "$ops")" ] &&
[ "$("$v" operations format - < "$ops")" = "$("$v" operations format "$ops")" ] && ok stdin || no stdin

# gzip, found by the magic bytes whatever the name
gzip -c "$ops" > "$tmp/x.json.gz"
cp "$tmp/x.json.gz" "$tmp/noext"
"$v" operations format "$ops" > "$tmp/plain.out"
"$v" operations format "$tmp/x.json.gz" > "$tmp/gz.out"
cmp -s "$tmp/plain.out" "$tmp/gz.out" && ok gzip-format-same-bytes || no gzip-format-same-bytes
"$v" operations format "$tmp/noext" | cmp -s - "$tmp/plain.out" && ok gzip-by-magic || no gzip-by-magic
"$v" operations format < "$tmp/x.json.gz" | cmp -s - "$tmp/plain.out" && ok gzip-stdin || no gzip-stdin
gzip -c "$bsl" > "$tmp/bsl.gz"
[ "$("$v" server-status "$tmp/bsl.gz")" = "$("$v" server-status "$bsl")" ] && ok gzip-server-status || no gzip-server-status
# two members (gzip -c a; gzip -c b) are one stream, as gzip -d reads it
head -c 7 "$ops" | gzip -c > "$tmp/two.gz"; tail -c +8 "$ops" | gzip -c >> "$tmp/two.gz"
"$v" operations format "$tmp/two.gz" | cmp -s - "$tmp/plain.out" && ok gzip-members || no gzip-members

errline() { # errline NAME TEXT -- ARGS: exit 2, one stderr line containing TEXT
    name=$1; text=$2; shift 3
    "$v" "$@" >/dev/null 2>"$tmp/err"; rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "$text" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ]; then ok "$name"
    else echo "FAIL $name: exit $rc"; cat "$tmp/err"; fail=1; fi
}
size=$(wc -c < "$tmp/x.json.gz")
head -c $((size - 12)) "$tmp/x.json.gz" > "$tmp/trunc.gz"
errline gzip-truncated "truncated gzip stream: the input ends at byte $((size - 12)) inside a member" -- operations format "$tmp/trunc.gz"
# a changed byte in the deflate data (after the 10-byte header and the name), and in the CRC
flip() { python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); i=int(sys.argv[3]); i=i if i>=0 else len(b)+i; b[i]^=0x55; open(sys.argv[2],"wb").write(b)' "$tmp/x.json.gz" "$@"; }
flip "$tmp/bad.gz" 60
"$v" operations format "$tmp/bad.gz" >/dev/null 2>"$tmp/err"
if [ $? = 2 ] && grep -qE 'bad.gz: corrupt gzip stream at byte [0-9]+: ' "$tmp/err"; then ok gzip-corrupt; else no gzip-corrupt; cat "$tmp/err"; fi
flip "$tmp/crc.gz" -6
errline gzip-crc "crc.gz: corrupt gzip stream at byte $((size - 4)): incorrect data check" -- operations format "$tmp/crc.gz"
# --max-input bounds the decompressed size (a gzip bomb of valid JSON so far:
# '[' and 2 MB of spaces; a bomb of NUL bytes is refused at its first byte,
# since the decoder reads as the input comes, issue 24)
{ printf '['; head -c 2000000 /dev/zero | tr '\0' ' '; } | gzip -c > "$tmp/bomb.gz"
head -c 2000000 /dev/zero | gzip -c > "$tmp/nul-bomb.gz"
errline nul-bomb "nul-bomb.gz: expected '[' (an array of operations) or null (line 1, column 1, offset 0)" -- operations format --max-input 1M "$tmp/nul-bomb.gz"
errline max-input 'the input is larger than --max-input (1048576 bytes after decompression)' -- operations format --max-input 1M "$tmp/bomb.gz"
errline max-input-plain 'the input is larger than --max-input (100 bytes)' -- operations format --max-input=100 "$ops"
errline max-input-bad '--max-input must be a size' -- operations format --max-input lots "$ops"
"$v" operations format --max-input 1G "$tmp/x.json.gz" | cmp -s - "$tmp/plain.out" && ok max-input-fits || no max-input-fits

# YAML is read as its JSON (doc/yaml.md; tests/cli-yaml.sh has the cases); a YAML
# error names its line and column. A directory, a missing file.
printf 'apiVersion: v1\nitems: []\nkind: List\n' > "$tmp/bsl.yaml"
printf '{"apiVersion":"v1","items":[],"kind":"List"}\n' > "$tmp/bsl-yaml.json"
if [ "$("$v" server-status "$tmp/bsl.yaml" 2>&1)" = "$("$v" server-status "$tmp/bsl-yaml.json" 2>&1)" ]; then
    ok yaml
else no yaml; fi
printf 'a:\n  b: [1\n' > "$tmp/bad.yaml"
errline yaml-ops "bad.yaml: YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 6) (line 3, column 1)" -- operations check "$tmp/bad.yaml"
errline directory "cannot read $tmp: Is a directory" -- operations format "$tmp"
errline missing "cannot open $tmp/none.json: No such file or directory" -- progress "$tmp/none.json"

# the option parser: unknown options, flags given a value, -- ends the options
errline unknown-option 'unknown option "--nope"' -- server-status --nope "$bsl"
errline flag-value '--three-state takes no value' -- server-status --three-state=1 "$bsl"
errline no-value '-o needs a value' -- server-status "$bsl" -o
[ "$("$v" server-status -- "$bsl")" = "$("$v" server-status "$bsl")" ] && ok double-dash || no double-dash

# describe-operations: local time as velero describe prints it (TZ), --utc keeps UTC
if [ -f /usr/share/zoneinfo/Asia/Kolkata ]; then
    TZ=Asia/Kolkata "$v" describe-operations --details "$ops" > "$tmp/local.txt"
    TZ=Asia/Kolkata "$v" describe-operations --details --utc "$ops" > "$tmp/utc.txt"
    grep -qx '    Created:               2024-05-01 15:30:00 +0530 IST' "$tmp/local.txt" &&
    grep -qx '    Created:               2024-05-01 10:00:00 +0000 UTC' "$tmp/utc.txt" &&
    [ "$(TZ=UTC "$v" describe-operations --details "$ops")" = "$(cat "$tmp/utc.txt")" ] &&
    [ "$(grep -vc 'Created\|Started\|Updated' "$tmp/local.txt")" = "$(grep -vc 'Created\|Started\|Updated' "$tmp/utc.txt")" ] &&
    ! diff "$tmp/local.txt" "$tmp/utc.txt" | grep '^<' | grep -qv '+0530 IST$' && ok describe-local-time || no describe-local-time
fi

# bash completion: subcommands, options, values, all from the tool's option
# tables (velstatus --complete); every option of every command and subcommand
# is offered by the completion and listed by its --help
comp=$VS_SRCDIR/tools/completion/velstatus
if command -v bash >/dev/null 2>&1; then
    c() { bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _velstatus; echo "${COMPREPLY[*]}"' _ "$comp" "$@"; }
    [ "$(c "$v" server-status -o '')" = "text json condition prometheus" ] && [ "$(c "$v" progress -o '')" = "text json" ] && [ "$(c "$v" explain -o '')" = "text json svg" ] && ok completion-o || no completion-o
    [ "$(c "$v" desc)" = "describe-operations" ] && ok completion-command || no completion-command
    [ "$(c "$v" operations re)" = "reconcile" ] && ok completion-subcommand || no completion-subcommand
    [ "$(c "$v" operations reconcile --pr)" = "--progress" ] && ok completion-option || no completion-option
    [ "$(c "$v" operations reconcile --bsl '')" = "available missing readonly" ] && ok completion-values || no completion-values
    [ "$(c "$v" download-request '')" = "backup restore" ] && ok completion-operand || no completion-operand
    [ "$(c "$v" describe-operations --details --ut)" = "--utc" ] && ok completion-after-flag || no completion-after-flag
    [ -z "$(c "$v" progress --now '')" ] && ok completion-free-value || no completion-free-value
    n=0
    for cmd in $("$v" --complete | grep -v '^-'); do
        [ "$cmd" = help ] && continue
        # a command with subcommands lists only them; one without lists its options
        if "$v" --complete "$cmd" | grep -q '^-'; then subs=-; else subs=$("$v" --complete "$cmd"); fi
        for sub in $subs; do
            [ "$sub" = - ] && sub=""
            offered=" $(c "$v" "$cmd" $sub -) "
            help=$("$v" "$cmd" $sub --help)
            for o in $("$v" --complete "$cmd" $sub | grep '^-' | cut -d' ' -f1); do
                n=$((n + 1))
                case $offered in *" $o "*) ;; *) echo "FAIL completion of $cmd $sub does not offer $o"; fail=1 ;; esac
                printf '%s\n' "$help" | grep -qE -- "(^|[^-[:alnum:]])$o([^-[:alnum:]]|$)" || { echo "FAIL $cmd $sub --help does not list $o"; fail=1; }
            done
        done
    done
    [ "$n" -gt 100 ] && ok "completion-and-help-of-every-option ($n)" || no completion-and-help-of-every-option
fi
exit "$fail"
