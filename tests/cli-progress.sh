#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus progress / describe-operations: golden output, stdin, exit codes, usage errors.
set -u
# describe-operations prints local time (TZ): the expected texts are in UTC.
TZ=UTC; export TZ
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}/progress
tmp=${TMPDIR:-/tmp}/vs_progress.$$
fail=0
now=2024-05-01T10:01:09Z
. "${VS_SRCDIR:?}/tests/cli-lib.sh"

# The operations section, as `velero backup describe [--details]` prints it
# (the --details golden was produced by Go's fmt + text/tabwriter).
golden describe-summary "$d/example-backup.summary.txt" -- describe-operations --kind backup "$d/example-backup-ops.json"
golden describe-details "$d/example-backup.details.txt" -- describe-operations --kind backup --details "$d/example-backup-ops.json"
golden describe-restore "$d/example-restore.details.txt" -- describe-operations --details --kind=restore "$d/example-restore-ops.json"
# Aggregate progress: text and JSON.
golden progress-text "$d/example-backup.progress.txt" -- progress --now "$now" "$d/example-backup-ops.json"
golden progress-json "$d/example-backup.progress.json" -- progress --now="$now" -o json "$d/example-backup-ops.json"

# stdin
"$v" describe-operations --kind backup --details - <"$d/example-backup-ops.json" >"$tmp.out" 2>&1 &&
    cmp -s "$tmp.out" "$d/example-backup.details.txt" && echo "ok describe-stdin" || { echo "FAIL describe-stdin"; fail=1; }
"$v" progress -o json --now "$now" - <"$d/example-backup-ops.json" >"$tmp.out" 2>&1 &&
    cmp -s "$tmp.out" "$d/example-backup.progress.json" && echo "ok progress-stdin" || { echo "FAIL progress-stdin"; fail=1; }

# An empty list prints nothing (with or without --details); null is a nil list.
for list in '[]' 'null'; do
    for det in "" --details; do
        out=$(printf '%s' "$list" | "$v" describe-operations --kind backup $det -); rc=$?
        if [ "$rc" = 0 ] && [ -z "$out" ]; then echo "ok describe-empty $list $det"; else echo "FAIL describe-empty $list $det: rc $rc [$out]"; fail=1; fi
    done
done
out=$(printf '[]' | "$v" progress --now "$now" -o json -)
want='{"attempted":0,"new":0,"inProgress":0,"completed":0,"failed":0,"unquantified":0,"units":[],"summary":"no operations"}'
[ "$out" = "$want" ] && echo "ok progress-empty" || { echo "FAIL progress-empty: $out"; fail=1; }

# The progress summary follows --now: 64 s later the in-progress operations
# have moved nothing, so the one without `updated` halves its rate.
out=$("$v" progress --now 2024-05-01T10:02:13Z "$d/example-backup-ops.json")
want='3 of 5 operations done (1 failed, 2 in progress); Bytes: 1.5 GiB of 4.0 GiB (37%), ETA 4m16s'
[ "$out" = "$want" ] && echo "ok progress-now" || { echo "FAIL progress-now: $out"; fail=1; }

# Bad input: exit 2 with a message naming the problem.
# --now defaults to the current time; no FILE (or -) reads stdin; the kind comes from the file.
"$v" progress "$d/example-backup-ops.json" | grep -q '^3 of 5 operations done' && echo "ok progress-now-default" ||
    { echo "FAIL progress-now-default"; fail=1; }
[ "$("$v" progress --now 2024-05-01T10:02:13Z < "$d/example-backup-ops.json")" = "$want" ] &&
[ "$("$v" progress --now 2024-05-01T10:02:13Z - < "$d/example-backup-ops.json")" = "$want" ] && echo "ok progress-stdin" ||
    { echo "FAIL progress-stdin"; fail=1; }
[ "$("$v" describe-operations --details "$d/example-backup-ops.json")" = "$("$v" describe-operations --kind backup --details "$d/example-backup-ops.json")" ] &&
[ "$("$v" describe-operations --details < "$d/example-backup-ops.json")" = "$("$v" describe-operations --kind backup --details "$d/example-backup-ops.json")" ] &&
    echo "ok describe-kind-detected-stdin" || { echo "FAIL describe-kind-detected-stdin"; fail=1; }
stderr_has progress-bad-now '--now' -- progress --now yesterday "$d/example-backup-ops.json"
stderr_has progress-bad-format '-o must be text or json' -- progress --now "$now" -o yaml "$d/example-backup-ops.json"
stderr_has progress-bad-kind '--kind must be backup or restore' -- progress --now "$now" --kind schedule "$d/example-backup-ops.json"
stderr_has progress-two-files 'unexpected argument' -- progress --now "$now" a.json b.json
stderr_has progress-missing-file 'cannot open' -- progress --now "$now" "$d/does-not-exist.json"
stderr_has progress-unknown-opt 'unknown option "--details"' -- progress --now "$now" --details x.json
printf '[{"spec":{},"status":{"nTotal":"ten"}}]' >"$tmp.bad"
stderr_has progress-schema '[0].status.nTotal' -- progress --now "$now" "$tmp.bad"
stderr_has describe-schema '[0].status.nTotal' -- describe-operations --kind backup "$tmp.bad"
printf '[{"spec":' >"$tmp.bad"
stderr_has describe-parse 'line 1' -- describe-operations --kind backup "$tmp.bad"
stderr_has describe-bad-kind '--kind must be backup or restore' -- describe-operations --kind both "$d/example-backup-ops.json"
stderr_has describe-kind-no-value '--kind needs a value' -- describe-operations --kind
stderr_has describe-unknown-opt 'unknown option "--now"' -- describe-operations --now "$now" "$d/example-backup-ops.json"
[ "$("$v" describe-operations -ojson "$d/example-backup-ops.json")" = "$("$v" operations format "$d/example-backup-ops.json")" ] &&
    echo "ok describe-json" || { echo "FAIL describe-json"; fail=1; }
for c in progress describe-operations; do
    "$v" $c --help | grep -q "usage: velstatus $c" && echo "ok $c --help" || { echo "FAIL $c --help"; fail=1; }
    "$v" $c </dev/null >/dev/null 2>&1; [ $? = 2 ] && echo "ok $c empty-stdin" || { echo "FAIL $c empty-stdin"; fail=1; }
done
# A NUL inside a string: the summary writes it as \u0000 (text output never cuts a
# string); describe-operations writes the raw byte, as Velero's describe does.
nul=${VS_TEST_DATA}/operations/nul-strings.json
out=$("$v" progress --now 2024-05-01T10:30:00Z "$nul"); rc=$?
want='0 of 3 operations done (0 failed, 2 in progress, 1 with unknown phase); By\u0000tes: 1 of 2 (50%); 1 without a total'
if [ "$rc" = 0 ] && [ "$out" = "$want" ]; then echo "ok progress NUL text"; else echo "FAIL progress NUL text: rc $rc [$out]"; fail=1; fi
"$v" describe-operations --kind backup --details "$nul" >"$tmp.out"; rc=$?
if [ "$rc" = 0 ] && [ "$(grep -ac 'Operation Error:            disk.full$' "$tmp.out")" = 1 ] \
   && [ "$(tr -cd '\000' <"$tmp.out" | wc -c)" = 6 ]; then
    echo "ok describe NUL raw"
else
    echo "FAIL describe NUL raw: rc $rc"; od -c "$tmp.out" | head -20; fail=1
fi
# Go's whole time range in local time, as Go's Time.In(loc).String() prints it (checked with Go
# and time.FixedZone; POSIX TZ strings need no tzdata): the year has at least four digits and a
# '-' before a negative one.
range=${VS_TEST_DATA:?}/operations/go-time-range.json
for z in "CET-1|0001-01-01 01:00:00 +0100 CET|10000-01-01 00:59:59 +0100 CET|0000-01-01 01:00:00 +0100 CET|1677-09-21 01:12:43 +0100 CET" \
         "EST5|0000-12-31 19:00:00 -0500 EST|9999-12-31 18:59:59 -0500 EST|-0001-12-31 19:00:00 -0500 EST|1677-09-20 19:12:43 -0500 EST"; do
    tz=${z%%|*}
    want=$(printf '%s\n' "${z#*|}" | tr '|' '\n')
    got=$(TZ=$tz "$v" describe-operations --details "$range" | sed -n 's/^ *\(Created\|Started\|Updated\): *//p')
    if [ "$got" = "$want" ]; then echo "ok describe go range TZ=$tz"; else echo "FAIL describe go range TZ=$tz:"; echo "$got"; fail=1; fi
done

rm -f "$tmp.out" "$tmp.err" "$tmp.bad"
# --now as Velero prints times (Go's Time.String(), the offset deciding) is RFC 3339's instant
a=$("$v" progress --now 2024-05-01T10:02:13Z -o json "$d/example-backup-ops.json" 2>&1)
b=$("$v" progress --now "2024-05-01 12:02:13 +0200 CEST" -o json "$d/example-backup-ops.json" 2>&1)
[ -n "$a" ] && [ "$a" = "$b" ] && echo "ok --now go form" || { echo "FAIL --now go form: $a / $b"; fail=1; }
"$v" progress --now '2024-05-01 12:00:00 CEST' "$d/example-backup-ops.json" 2>&1 | grep -q 'offset 20' && echo "ok --now go form error" || { echo "FAIL --now go form error"; fail=1; }
exit $fail
