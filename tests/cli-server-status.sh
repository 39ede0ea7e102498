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

# Every namespace (kubectl get bsl -A -o json; OADP and multi-tenant installs): one verdict
# per namespace, the same BSL name in two namespaces is no duplicate.
two=$data/two-namespaces.json
want_adp='namespace openshift-adp: Ready: all 1 backup storage location available; default: default'
want_vel='namespace velero: Waiting: 1 of 2 backup storage locations unavailable (default); 1 of 2 backup storage locations pending validation (secondary); default not available (default)'
out=$(TZ=UTC "$v" server-status "$two")
[ "$(printf '%s\n' "$out" | grep '^namespace ')" = "$(printf '%s\n%s' "$want_adp" "$want_vel")" ] &&
    echo "ok two-namespaces-two-verdicts" || { echo "FAIL two-namespaces-two-verdicts:"; echo "$out"; fail=1; }
[ "$(TZ=UTC "$v" server-status -A "$two")" = "$out" ] && echo "ok -A-is-the-default-for-several" ||
    { echo "FAIL -A-is-the-default-for-several"; fail=1; }
# the table as velero backup-location get prints it (Kubernetes' table printer: padding 3)
want_table='NAME        PROVIDER   BUCKET/PREFIX         PHASE         LAST VALIDATED                  ACCESS MODE   DEFAULT
default     aws        acme-velero-backups   Unavailable   2026-11-30 12:58:40 +0000 UTC   ReadWrite     true
secondary   gcp        acme-velero-dr                      Unknown                         ReadWrite     '
got=$(TZ=UTC "$v" server-status -n velero "$two" | sed -n '2,4p')
[ "$got" = "$want_table" ] && echo "ok table" || { echo "FAIL table: got"; echo "$got"; fail=1; }
[ "$(TZ=UTC "$v" server-status --utc -n velero "$two" | sed -n '2,4p')" = "$want_table" ] && echo "ok table-utc" ||
    { echo "FAIL table-utc"; fail=1; }
got=$(TZ=Europe/Berlin "$v" server-status -n openshift-adp "$two" | sed -n 3p)
case $got in *"2026-11-30 13:58:42 +0100 CET"*) echo "ok table-local-zone" ;; *) echo "FAIL table-local-zone: $got"; fail=1 ;; esac
# the message of each location that is not Available
out=$("$v" server-status -n velero "$two")
printf '%s\n' "$out" | grep -q '^default: BackupStorageLocation "default" is unavailable: rpc error: code = Unknown desc = NoCredentialProviders' &&
    printf '%s\n' "$out" | grep -q '^secondary: no message (phase Unknown: never validated)$' &&
    ! printf '%s\n' "$("$v" server-status -n openshift-adp "$two")" | grep -q '^default: ' &&
    echo "ok messages" || { echo "FAIL messages:"; echo "$out"; fail=1; }
# -n picks one: the verdict line has no namespace prefix
check ns-pick "Ready: all 1 backup storage location available; default: default" -- -n openshift-adp "$two"
check ns-absent "Waiting: no backup storage locations" -- --namespace nowhere "$two"
bad ns-and-all 'exclude each other' -- -n velero -A "$two"
# JSON: one line per namespace, with its namespace and its locations (the message too)
out=$("$v" server-status -o json "$two")
"${PYTHON:-python3}" - "$out" <<'EOT' && echo "ok json-namespaces" || { echo "FAIL json-namespaces: $out"; fail=1; }
import json, sys
vs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [(v["namespace"], v["status"]) for v in vs] == [("openshift-adp", "Ready"), ("velero", "Waiting")], vs
loc = {l["name"]: l for l in vs[1]["locations"]}
assert loc["default"]["message"].startswith('BackupStorageLocation "default" is unavailable'), loc
assert loc["default"]["phase"] == "Unavailable" and loc["default"]["bucket"] == "acme-velero-backups"
assert loc["secondary"]["lastValidationTime"] is None and loc["secondary"]["phase"] == "" and loc["secondary"]["provider"] == "gcp"
assert vs[0]["locations"][0]["prefix"] == "velero" and vs[0]["locations"][0]["default"] is True
EOT
# --exit-status: the worst namespace
"$v" server-status --exit-status "$two" >/dev/null; rc=$?
[ "$rc" = 4 ] && echo "ok exit-status-worst" || { echo "FAIL exit-status-worst: $rc"; fail=1; }
"$v" server-status --exit-status -n openshift-adp "$two" >/dev/null; rc=$?
[ "$rc" = 0 ] && echo "ok exit-status-one" || { echo "FAIL exit-status-one: $rc"; fail=1; }
# a location never validated, created longer ago than --stale-after: a named reason
check never-validated 'Waiting: 1 of 2 backup storage locations unavailable (default); 1 of 2 backup storage locations pending validation (secondary); never validated in the 5m0s since creation (secondary); default not available (default)' -- -n velero --stale-after 5m --now 2026-11-30T13:00:00Z "$two"
check not-yet-never-validated 'Waiting: 1 of 2 backup storage locations unavailable (default); 1 of 2 backup storage locations pending validation (secondary); default not available (default)' -- -n velero --stale-after 3h --now 2026-11-30T13:00:00Z "$two"
# --velero-version, as every deciding command takes it
check velero-version 'Ready: all 1 backup storage location available; default: default' -- --velero-version 1.14 -n openshift-adp "$two"
bad velero-version-unknown 'not supported' -- --velero-version 1.2 "$two"
# a name twice in one namespace is still an error
printf '[{"metadata":{"name":"a","namespace":"velero"}},{"metadata":{"name":"a","namespace":"velero"}}]' > "$tmp.dup"
bad duplicate-in-namespace 'duplicate name "a" in namespace "velero"' -- "$tmp.dup"
rm -f "$tmp.dup"
rm -f "$tmp"
exit $fail
