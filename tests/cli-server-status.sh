#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus server-status: every example's text and JSON output equals the
# golden verdict the library test (check_server_status) also checks, so the
# CLI and the library agree; options; bad input exits 2 naming the JSON path.
set -u
v=${VELSTATUS:?}
data=${VS_TEST_DATA:?}/server-status
ex=${VS_SRCDIR:?}/examples/bsl
tmp=${TMPDIR:-/tmp}/vs_ss.$$
fail=0
check() { # check NAME WANT_STDOUT -- ARGS... : exit 0 and exactly this first line (the verdict)
    name=$1; want=$2; shift 3
    out=$("$v" server-status "$@" 2>"$tmp"); rc=$?
    out=$(printf '%s\n' "$out" | sed 1q)
    if [ "$rc" != 0 ]; then echo "FAIL $name: exit $rc, want 0"; cat "$tmp"; fail=1; return; fi
    if [ "$out" != "$want" ]; then echo "FAIL $name: got"; echo "$out"; echo "want"; echo "$want"; fail=1; return; fi
    echo "ok $name"
}
bad() { # bad NAME TEXT -- ARGS... : exit 2, one stderr line containing TEXT, nothing on stdout
    name=$1; text=$2; shift 3
    out=$("$v" server-status "$@" 2>"$tmp"); rc=$?
    if [ "$rc" != 2 ]; then echo "FAIL $name: exit $rc, want 2"; fail=1; return; fi
    if [ -n "$out" ]; then echo "FAIL $name: stdout not empty: $out"; fail=1; return; fi
    if ! grep -qF -- "$text" "$tmp"; then echo "FAIL $name: stderr lacks '$text':"; cat "$tmp"; fail=1; return; fi
    if [ "$(wc -l < "$tmp")" -ne 1 ]; then echo "FAIL $name: message is not one line"; cat "$tmp"; fail=1; return; fi
    echo "ok $name"
}

n=0
for f in "$ex"/*.json; do
    base=$(basename "$f" .json)
    [ -f "$data/$base.json" ] || { echo "FAIL $base: no golden $data/$base.json"; fail=1; continue; }
    # the JSON is the library's verdict, then "namespace" and "locations"
    out=$("$v" server-status -o json "$f"); golden=$(cat "$data/$base.json")
    case $out in
        "${golden%\}},\"namespace\":"*",\"locations\":["*"]}") echo "ok $base-json" ;;
        *) echo "FAIL $base-json: got"; echo "$out"; echo "want a prefix of"; echo "$golden"; fail=1 ;;
    esac
    # the text's first line is the verdict line; the table follows
    [ "$("$v" server-status "$f" | sed 1q)" = "$(cat "$data/$base.txt")" ] && echo "ok $base-text" ||
        { echo "FAIL $base-text"; fail=1; }
    [ "$("$v" server-status - < "$f" | sed 1q)" = "$(cat "$data/$base.txt")" ] && echo "ok $base-stdin" ||
        { echo "FAIL $base-stdin"; fail=1; }
    # the text line is the JSON's status and message
    st=$(sed 's/^{"status":"\([A-Za-z]*\)".*/\1/' "$data/$base.json")
    case $(cat "$data/$base.txt") in
        "$st: "*) ;;
        *) echo "FAIL $base: text does not start with the JSON status $st"; fail=1 ;;
    esac
    n=$((n + 1))
done
[ "$n" = 6 ] || { echo "FAIL expected 6 examples, found $n"; fail=1; }

# options
check three-state "Waiting: 1 of 1 backup storage location unavailable (x); default not available (x)" -- --three-state "$data/unavailable-one.json"
check four-state "NotReady: 1 of 1 backup storage location unavailable (x); default not available (x)" -- "$data/unavailable-one.json"
check default-location 'Ready: all 2 backup storage locations available; default: default' -- --default-location default "$ex/two-defaults.json"
check default-location-missing 'PartiallyReady: default location "primary" not found' -- --default-location=primary "$ex/all-available.json"
check stale 'Waiting: 2 of 2 backup storage locations pending validation (default, dr-west); last validation missing or older than 10s (default, dr-west); default not available (default)' -- --now 2026-11-30T13:00:00Z --stale-after 10s "$ex/all-available.json"
check fresh 'Ready: all 2 backup storage locations available; default: default' -- --now 2026-11-30T13:00:00Z --stale-after 5m "$ex/all-available.json"
check stale-json '{"status":"PartiallyReady","reasons":["default_not_available","some_pending","stale"],"counts":{"available":1,"unavailable":0,"pending":1,"total":2},"default":"default","bsls":{"default_not_available":["default"],"some_pending":["default"],"stale":["default"]},"message":"1 of 2 backup storage locations pending validation (default); last validation missing or older than 1m10s (default); default not available (default)","namespace":"velero","locations":[{"name":"default","namespace":"velero","provider":"aws","bucket":"acme-velero-backups","prefix":"prod-eu","default":true,"accessMode":"ReadWrite","creationTimestamp":"2026-09-14T08:21:37Z","phase":"Available","lastValidationTime":"2026-11-30T12:58:42Z","message":""},{"name":"dr-west","namespace":"velero","provider":"aws","bucket":"acme-velero-dr","prefix":"prod-eu","default":false,"accessMode":"ReadWrite","creationTimestamp":"2026-10-02T15:04:11Z","phase":"Available","lastValidationTime":"2026-11-30T12:58:51Z","message":""}]}' -- -o json --now 2026-11-30T12:59:58Z --stale-after 1m10s "$ex/all-available.json"

# bad input: exit 2, the path and position named
bad bad-phase 'items[1].status.phase: expected a string, got a number (line 1, column' -- "$data/bad-phase.json"
bad bad-time 'items[0].metadata.creationTimestamp: not an RFC 3339 time' -- "$data/bad-time.json"
bad bad-json 'invalid JSON' -- "$data/bad-syntax.json"
bad bad-stdin 'stdin: items[1].status.phase' -- - < "$data/bad-phase.json"
bad missing-file 'cannot open' -- "$data/does-not-exist.json"
"$VELSTATUS" server-status --now 2026-11-30T13:00:00Z "$ex/empty.json" >/dev/null && echo "ok now-alone" ||
    { echo "FAIL now-alone: --now without --stale-after is accepted"; fail=1; }
bad bad-now '--now' -- --now yesterday --stale-after 5m "$ex/empty.json"
bad bad-duration '--stale-after' -- --now 2026-11-30T13:00:00Z --stale-after 5 "$ex/empty.json"
bad negative-duration 'must not be negative' -- --now 2026-11-30T13:00:00Z --stale-after -5m "$ex/empty.json"
bad bad-format '-o must be text, json, condition, prometheus, not "yaml"' -- -o yaml "$ex/empty.json"
bad two-files 'unexpected argument' -- "$ex/empty.json" "$ex/empty.json"
bad unknown-option 'unknown option "--default"' -- --default x "$ex/empty.json"
bad no-value '--default-location needs a value' -- --default-location
"$v" server-status --help | grep -q 'usage: velstatus server-status' || { echo "FAIL --help"; fail=1; }
rm -f "$tmp"
exit $fail
