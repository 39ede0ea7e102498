#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs libFuzzer targets: replays the seed corpus, then fuzzes for SECONDS.
#   fuzz/run.sh BUILDDIR SRCDIR SECONDS TARGET...
# With several targets, FUZZ_JOBS (default 2) of them run at a time. Each
# target keeps its corpus in BUILDDIR/fuzz/corpus/<target> (so a later run
# resumes from it), its log in BUILDDIR/fuzz/logs/<target>.log, and writes any
# crashing, leaking or hanging input to BUILDDIR/fuzz/findings/<target>-*.
# Exits non-zero if any target found something. FUZZ_MAX_LEN (default 8192)
# bounds the input size; FUZZ_FLAGS adds libFuzzer options (a long campaign
# that should go on after a finding: FUZZ_FLAGS='-fork=1 -ignore_crashes=1').
set -u
build=$1
src=$2
secs=$3
shift 3
if [ $# -gt 1 ]; then
    printf '%s\n' "$@" | xargs -P "${FUZZ_JOBS:-2}" -n 1 sh "$0" "$build" "$src" "$secs"
    rc=$?
    echo "---- summary (executions, coverage, findings) ----"
    for t in "$@"; do cat "$build/fuzz/logs/$t.summary" 2>/dev/null || echo "$t: no summary"; done
    exit $rc
fi
t=$1
bin=$build/fuzz/fuzz_$t
seeds=$build/fuzz/seeds/$t
corpus=$build/fuzz/corpus/$t
log=$build/fuzz/logs/$t.log
mkdir -p "$corpus" "$build/fuzz/logs" "$build/fuzz/findings"
rm -f "$build/fuzz/logs/$t.summary"

# the dictionary: the JSON keys of what the target parses (fuzz/dict/)
case $t in
bsl | yaml) dicts=bsl ;;
reports) dicts="reports oplist" ;;
time) dicts=time ;;
snapshot) dicts=snapshot ;;
oom | scan) dicts="bsl oplist reports snapshot" ;;
*) dicts=oplist ;;
esac
dict=$build/fuzz/logs/$t.dict
: >"$dict"
for d in $dicts; do cat "$src/fuzz/dict/$d.dict" >>"$dict"; done

summary() {
    echo "$t: $*" | tee "$build/fuzz/logs/$t.summary"
}

# 1. replay every seed once
if ! find "$seeds" -type f | sort | xargs "$bin" -timeout=25 >"$log" 2>&1; then
    summary "FINDING while replaying the seeds (see $log)"
    tail -n 40 "$log"
    exit 1
fi
# 2. fuzz (with FUZZ_FLAGS='-fork=1 -ignore_crashes=1' it goes on after a finding)
before=$(ls "$build/fuzz/findings/" | grep -c "^$t-")
"$bin" -max_total_time="$secs" -max_len="${FUZZ_MAX_LEN:-8192}" -timeout=25 -rss_limit_mb=2048 \
    -dict="$dict" -artifact_prefix="$build/fuzz/findings/$t-" -print_final_stats=1 ${FUZZ_FLAGS:-} \
    "$corpus" "$seeds" >>"$log" 2>&1
rc=$?
found=$(($(ls "$build/fuzz/findings/" | grep -c "^$t-") - before))
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$execs" ] || execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
units=$(find "$corpus" -type f | wc -l)
stats="${execs:-?} executions in ${secs} s, cov ${cov:-?}, ft ${ft:-?}, corpus $units"
if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    summary "$stats, FINDINGS: $found new input(s) in $build/fuzz/findings/$t-* (exit $rc)"
    grep -E 'ERROR: |vs-fuzz finding|SUMMARY' "$log" | sort | uniq -c | sort -rn | head -n 5
    exit 1
fi
summary "$stats, no finding"
