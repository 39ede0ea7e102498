#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus backoff: the doc/velero-behaviour.md §4.5 schedule, JSON keys, truncation, overflow,
# jitter bounds and reproducibility, usage errors.
set -u
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}/retry
t=${TMPDIR:-/tmp}/vs_retry.$$
fail=0
check() { # check NAME WANT_EXIT WANT_STDOUT -- ARGS...
    name=$1; want_rc=$2; want_out=$3; shift 4
    out=$("$v" "$@" 2>"$t.err"); rc=$?
    if [ "$rc" != "$want_rc" ]; then echo "FAIL $name: exit $rc, want $want_rc"; cat "$t.err"; fail=1; return; fi
    if [ "$out" != "$want_out" ]; then echo "FAIL $name: got"; echo "$out"; echo "want"; echo "$want_out"; fail=1; return; fi
    echo "ok $name"
}
stderr_has() { # stderr_has NAME TEXT -- ARGS... : exit 2, one-line stderr containing TEXT
    name=$1; text=$2; shift 3
    "$v" "$@" >/dev/null 2>"$t.err"; rc=$?
    if [ "$rc" != 2 ]; then echo "FAIL $name: exit $rc, want 2"; fail=1; return; fi
    if ! grep -qF -- "$text" "$t.err"; then echo "FAIL $name: stderr lacks '$text':"; cat "$t.err"; fail=1; return; fi
    if [ "$(wc -l < "$t.err")" -ne 1 ]; then echo "FAIL $name: message is not one line"; fail=1; return; fi
    echo "ok $name"
}

# doc/velero-behaviour.md §4.5: Velero's default --resource-timeout, 7 attempts, 195.31 s, the last sleep wasted.
check cap-10m-json 0 "$(cat "$d/cap-10m.json")" -- backoff --velero-cap 10m -o json
check cap-10m-text 0 "$(cat "$d/cap-10m.txt")" -- backoff --velero-cap 10m
# Any cap in [156.25 s, 781.25 s) is the same schedule; 1h has 8 attempts.
check cap-5m-same 0 "$(cat "$d/cap-10m.json")" -- backoff --velero-cap=5m -o json
check cap-1h 0 '{"sleepsNs":[10000000,50000000,250000000,1250000000,6250000000,31250000000,156250000000,781250000000],"attempts":8,"totalSleepNs":976560000000,"trailingSleep":true,"truncated":false,"jitter":0.1,"jitterDrawn":false,"sleepsMaxNs":[11000000,55000000,275000000,1375000000,6875000000,34375000000,171875000000,859375000000]}' -- backoff --velero-cap 1h -o json
check cap-49ms 0 '{"sleepsNs":[10000000],"attempts":1,"totalSleepNs":10000000,"trailingSleep":true,"truncated":false,"jitter":0.1,"jitterDrawn":false,"sleepsMaxNs":[11000000]}' -- backoff --velero-cap 49ms -o json
# client-go DefaultBackoff / DefaultRetry without jitter: N attempts, N-1 sleeps.
check default-backoff 0 '{"sleepsNs":[10000000,50000000,250000000],"attempts":4,"totalSleepNs":310000000,"trailingSleep":false,"truncated":false,"jitter":0,"jitterDrawn":false,"sleepsMaxNs":[10000000,50000000,250000000]}' -- backoff --duration 10ms --factor 5 --jitter 0 --steps 4 -o json
check default-retry 0 '{"sleepsNs":[10000000,10000000,10000000,10000000],"attempts":5,"totalSleepNs":40000000,"trailingSleep":false,"truncated":false,"jitter":0,"jitterDrawn":false,"sleepsMaxNs":[10000000,10000000,10000000,10000000]}' -- backoff --duration 10ms --factor 1 --jitter 0 --steps 5 -o json
check steps-0 0 '{"sleepsNs":[],"attempts":0,"totalSleepNs":0,"trailingSleep":false,"truncated":false,"jitter":0,"jitterDrawn":false,"sleepsMaxNs":[]}' -- backoff --duration 10ms --factor 5 --jitter 0 --steps 0 -o json
check steps-negative 0 '{"sleepsNs":[],"attempts":0,"totalSleepNs":0,"trailingSleep":false,"truncated":false,"jitter":0,"jitterDrawn":false,"sleepsMaxNs":[]}' -- backoff --duration 10ms --factor 5 --jitter 0 --steps -3 -o json
check cap-below-duration 0 '{"sleepsNs":[10000000],"attempts":1,"totalSleepNs":10000000,"trailingSleep":true,"truncated":false,"jitter":0,"jitterDrawn":false,"sleepsMaxNs":[10000000]}' -- backoff --duration 10ms --factor 5 --jitter 0 --steps 100 --cap 5ms -o json

# Cap 0 never stops: cut at --max-steps, raw overflowed values, null total.
"$v" backoff --velero-cap 0 -o json > "$t.out" || { echo "FAIL cap-0 exit"; fail=1; }
if grep -q '"attempts":61,"totalSleepNs":null,"trailingSleep":false,"truncated":true,"jitter":0.1,"jitterDrawn":false,"sleepsMaxNs":\[11000000,55000000,' "$t.out" &&
   grep -q '^{"sleepsNs":\[10000000,50000000,' "$t.out" &&
   grep -q ',7629394531249999872,-9223372036854775808,' "$t.out" &&
   [ "$(tr ',' '\n' < "$t.out" | grep -c -- '-9223372036854775808')" = 84 ]; then
    echo "ok cap-0-truncated"
else
    echo "FAIL cap-0-truncated"; cat "$t.out"; fail=1
fi
check cap-negative-is-0 0 "$(cat "$t.out")" -- backoff --velero-cap -1s -o json
check max-steps-2 0 '{"sleepsNs":[10000000,50000000],"attempts":3,"totalSleepNs":60000000,"trailingSleep":false,"truncated":true,"jitter":0.1,"jitterDrawn":false,"sleepsMaxNs":[11000000,55000000]}' -- backoff --velero-cap 0 --max-steps 2 -o json
check max-steps-0 0 '{"sleepsNs":[],"attempts":1,"totalSleepNs":0,"trailingSleep":false,"truncated":true,"jitter":0.1,"jitterDrawn":false,"sleepsMaxNs":[]}' -- backoff --velero-cap 10m --max-steps 0 -o json
"$v" backoff --velero-cap 0 | grep -q '^total sleep without jitter: does not fit in int64$' && echo "ok overflow-text" || { echo "FAIL overflow-text"; fail=1; }

# Velero's CapBackoff has jitter 0.1: without --seed the unjittered schedule, labelled, with bounds x [1, 1.1).
"$v" backoff --velero-cap 10m > "$t.out"
if grep -qx 'schedule without jitter; each sleep is drawn from \[sleep, sleep x 1.1) (use --seed to draw)' "$t.out" &&
   grep -qx 'attempt 4 fails, sleep 1.25s (jittered: 1.25s to 1.375s)' "$t.out" &&
   grep -qx 'backoff: duration 10ms, factor 5, jitter 0.1, steps 9223372036854775807, cap 10m0s' "$t.out"; then
    echo "ok cap-jitter-labelled"
else
    echo "FAIL cap-jitter-labelled"; cat "$t.out"; fail=1
fi
a=$("$v" backoff --velero-cap 10m --seed 7 -o json)
echo "$a" | grep -q '"jitter":0.1,"jitterDrawn":true,' && [ "$a" != "$(cat "$d/cap-10m.json")" ] &&
    echo "ok cap-seed-draws" || { echo "FAIL cap-seed-draws: $a"; fail=1; }

# Jitter: reproducible with --seed, different across seeds, within [d, d + 0.1 d].
a=$("$v" backoff --velero-cap 10m --jitter 0.1 --seed 7 -o json)
b=$("$v" backoff --velero-cap 10m --jitter 0.1 --seed 7 -o json)
c=$("$v" backoff --velero-cap 10m --jitter 0.1 --seed 8 -o json)
[ -n "$a" ] && [ "$a" = "$b" ] && echo "ok seed-reproducible" || { echo "FAIL seed-reproducible"; fail=1; }
[ "$a" != "$c" ] && echo "ok seed-differs" || { echo "FAIL seed-differs"; fail=1; }
echo "$a" | sed 's/.*"sleepsNs":\[\([^]]*\)\].*/\1/' | tr ',' '\n' > "$t.j"
if awk 'BEGIN { split("10000000 50000000 250000000 1250000000 6250000000 31250000000 156250000000", base, " "); ok = 1 }
        { n++; if ($1 < base[n] || $1 > base[n] * 1.1) ok = 0 }
        END { exit !(ok && n == 7) }' "$t.j" &&
   echo "$a" | grep -q '"attempts":7,"totalSleepNs":[0-9]*,"trailingSleep":true,"truncated":false,"jitter":0.1,"jitterDrawn":true,'; then
    echo "ok jitter-bounds"
else
    echo "FAIL jitter-bounds: $a"; fail=1
fi

# Usage errors: one line, exit 2.
stderr_has mix '--velero-cap cannot be combined' -- backoff --velero-cap 10m --steps 3
stderr_has missing 'missing --jitter' -- backoff --duration 1s --factor 2 --steps 3
stderr_has none 'give --velero-cap DURATION' -- backoff
stderr_has bad-duration 'unknown unit "x"' -- backoff --velero-cap 1x
stderr_has bad-factor '--factor must be a finite number' -- backoff --duration 1s --factor inf --jitter 0 --steps 3
stderr_has bad-steps '--steps must be an integer' -- backoff --duration 1s --factor 2 --jitter 0 --steps 99999999999999999999
stderr_has bad-seed '--seed must be a non-negative integer' -- backoff --velero-cap 10m --seed -1
stderr_has bad-max '--max-steps must be an integer in [0, 1000000]' -- backoff --velero-cap 10m --max-steps 1000001
stderr_has bad-format '-o must be text or json' -- backoff --velero-cap 10m -o yaml
stderr_has no-value '--cap needs a value' -- backoff --duration 1s --factor 2 --jitter 0 --steps 3 --cap
stderr_has extra 'unexpected argument "x"' -- backoff --velero-cap 10m x
"$v" backoff --help | grep -q 'usage: velstatus backoff' && echo "ok help" || { echo "FAIL help"; fail=1; }
rm -f "$t.err" "$t.out" "$t.j"
exit $fail
