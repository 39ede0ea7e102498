#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make prove` (doc/proof.md): runs Frama-C's EVA over each proof driver in
# proof/ and fails when an alarm is left that proof/justified.txt does not
# list, when a listed module does not analyse to its end, or when frama-c
# fails. Not part of `make check`.
#
#   sh proof/prove.sh [MODULE...]     (default: every module)
#
# Environment: VS_SRCDIR (the source tree, default: this script's parent),
# VS_BUILDDIR (a configured build tree, for include/velstatus/version.h;
# default: the current directory), FRAMA_C (default: frama-c), PROOF_OUT
# (where the logs and reports go, default: $VS_BUILDDIR/proof-out),
# PROOF_N_<MODULE> (the input bound of a module, e.g. PROOF_N_JSON=32).
set -u
LC_ALL=C
export LC_ALL

src=${VS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${VS_BUILDDIR:-$(pwd)}
fc=${FRAMA_C:-frama-c}
out=${PROOF_OUT:-$bld/proof-out}

# ---- the library files the proofs read: the one place to edit when they move ----
PROOF_SOURCES_JSON="lib/common/json_scan.c"
PROOF_SOURCES_TIME="lib/common/time.c lib/common/core.c"
PROOF_SOURCES_UTF8=""  # util/vsx_utf8.h, found through the include path
PROOF_SOURCES_ARITH="" # lib/common/util_arith.h, likewise
# ---- the CLI files the proofs read ----
PROOF_SOURCES_YAML="tools/yaml_scalar.c"
# the text readers, with what they call: the line splitter and the header
# helpers (describe_*.c), the JSON string writer (cli.c), the time parsers
# and formatters (lib/common/time.c), and the model of open_memstream()
PROOF_SOURCES_TEXT="tools/describe_in.c tools/describe_hdr.c tools/cli.c lib/common/time.c lib/common/core.c proof/memstream.c"
PROOF_SOURCES_TABLE="tools/table_in.c $PROOF_SOURCES_TEXT"
PROOF_SOURCES_DESCRIBE="$PROOF_SOURCES_TEXT proof/memcmp.c"
# Every directory under lib/ is on the include path, so headers may move
# between per-area folders without a change here.
PROOF_INCLUDE_DIRS="include util tools $(cd "$src" && find lib -type d | sort | tr '\n' ' ')"

# ---- the input bound of each module (bytes; doc/proof.md, "Bounds") ----
PROOF_N_JSON=${PROOF_N_JSON:-64}
PROOF_N_TIME=${PROOF_N_TIME:-64}
PROOF_N_UTF8=${PROOF_N_UTF8:-64}
PROOF_N_YAML=${PROOF_N_YAML:-64}
PROOF_N_TABLE=${PROOF_N_TABLE:-8}
PROOF_N_DESCRIBE=${PROOF_N_DESCRIBE:-8}
PROOF_N_ARITH=0 # no input text: the operands range over their whole types

# ---- the analysis: one set of options for every module ----
# -machdep x86_64        LP64, the CI's and Debian's amd64 ABI.
# -eva-alloc-builtin fresh
#                        every malloc() call of the drivers' input model makes
#                        its own base, so each input length has an array of
#                        exactly that size (see proof/proof_input.h).
# -eva-split-return auto a callee's return states are kept apart by return
#                        value (a parser's "failed" and "succeeded" states are
#                        not joined before the caller tests which it was).
# -eva-slevel-function main:1000
#                        keeps the one state per input length that
#                        Frama_C_interval_split() makes in the driver's main
#                        apart to the end (PROOF_N + 1 <= 1000 states), so
#                        each length is analysed on its own.
# -eva-domains octagon -eva-octagon-through-calls
#                        relations x - y, x + y in [a, b] between integer
#                        variables, across calls: what proves i < n style
#                        bounds and the overflow guards of util_arith.h.
# -eva-auto-loop-unroll 200
#                        a loop whose trip count EVA bounds by 200 (every loop
#                        over an input of at most PROOF_N <= 200 bytes, or
#                        over the 64 quoted bytes of an error message) is
#                        unrolled completely instead of widened.
# Each module adds per-function state budgets (-eva-slevel-function f:k)
# where a loop or a chain of tests must not be joined, and -inline-calls
# for the one-line byte predicates (is_digit(c) inlined is a test on c
# itself, which EVA uses to narrow c; through a call it cannot); each is
# explained beside it below.
common_opts="-machdep x86_64 -eva -eva-no-show-progress -eva-msg-key=-final-states
-eva-alloc-builtin fresh -eva-split-return auto -eva-domains octagon -eva-octagon-through-calls
-eva-auto-loop-unroll 200"

module_opts() {
    case $1 in
    json)
        # u_escape's four hex digits: one state per digit, so v <= 0xFFFF.
        echo "-inline-calls is_ws,plain_byte,is_alpha,hexval -eva-slevel-function main:1000,u_escape:10" ;;
    time)
        # velstatus__time_to_ns: its range tests as (sec, nsec) pairs. (A
        # state per digit count in parse_fraction and dur_frac removes their
        # alarms 9 and 13 of doc/proof.md only for inputs of up to about 30
        # bytes, at twice the time, so the bound of 64 keeps them joined.)
        echo "-inline-calls is_digit -eva-slevel-function main:1000,velstatus__time_to_ns:10" ;;
    utf8)
        echo "-eva-slevel-function main:1000" ;;
    yaml)
        # NaN and the infinities are values the resolver stores on purpose;
        # one_of's pointer loop over a word list, one state per word.
        echo "-warn-special-float none -eva-slevel-function main:1000,one_of:30" ;;
    describe)
        # As table (below), and: memcmp() is proof/memcmp.c's model,
        # inlined so that its assertions are reported in the function that
        # calls it. din_lines and classify return every state apart
        # (:full), one per line count and one per end of an operation, and
        # their callers keep them apart (cli_describe_ops, read_ops): the
        # line array and the type array are then exact in each, not joined
        # over the counts. read_ops' loop over the operations calls
        # malloc() (a continued value): kept apart per operation, it is
        # never widened, which with a fresh base per malloc() call would
        # not end.
        echo "-inline-calls proof_started_input,memcmp -eva-split-return-function din_lines:full,classify:full
-eva-slevel-function main:1000,din_lines:200,cli_describe_ops:100,read_ops:100,classify:100" ;;
    table)
        # proof_started_input() inlined into main: the states its
        # Frama_C_interval_split() calls make are joined at the return of
        # the function that made them, so a call would lose the per-length
        # split. din_lines: one state per line it has read, so that the
        # line count is exact and the growth of its array is only reached
        # when a text can have more lines than its first capacity (16);
        # its return split as 0 (the lines written) or -1 (nothing written).
        echo "-inline-calls proof_started_input -eva-split-return-function din_lines:0
-eva-slevel-function main:1000,din_lines:200" ;;
    arith)
        # every function's three outcomes (overflow up, down, none) apart.
        echo "-eva-slevel 10" ;;
    esac
}

# Preprocessor definitions of a module: the text readers call
# open_memstream(), which Frama-C's stdio.h does not declare (compat.h).
module_cpp() {
    case $1 in
    table | describe) echo "-DPROOF_MEMSTREAM" ;;
    esac
}

upper() { echo "$1" | tr '[:lower:]' '[:upper:]'; }

modules=${*:-"arith utf8 time json yaml table describe"}
mkdir -p "$out" || exit 1
cpp="-include $src/proof/compat.h -I$src/proof -I$bld/include"
for d in $PROOF_INCLUDE_DIRS; do cpp="$cpp -I$src/$d"; done

# One frama-c per module, all at once (two of them take minutes, the others
# seconds: on two cores the wall time is the longest module's).
run_module() { # MODULE N FILES...: the analysis, its log, report and CPU time
    m=$1 n=$2
    shift 2
    timer=""
    [ -x /usr/bin/time ] && timer="/usr/bin/time -f %U -o $out/$m.cpu"
    # shellcheck disable=SC2086
    $timer nice "$fc" $common_opts $(module_opts "$m") -cpp-extra-args="$cpp $(module_cpp "$m") -DPROOF_N=$n" "$@" \
        -then -report-csv "$out/$m.csv" >"$out/$m.log" 2>&1
    echo $? >"$out/$m.rc"
}

t0=$(date +%s)
for m in $modules; do
    M=$(upper "$m")
    eval "srcs=\${PROOF_SOURCES_$M-x}"
    eval "n=\${PROOF_N_$M-x}"
    if [ "$srcs" = x ] || [ "$n" = x ]; then
        echo "prove: unknown module $m" >&2
        exit 2
    fi
    files="$src/proof/$m.c"
    for f in $srcs; do files="$files $src/$f"; done
    rm -f "$out/$m.log" "$out/$m.csv" "$out/$m.rc" "$out/$m.cpu" "$out/$m.alarms"
    # shellcheck disable=SC2086
    run_module "$m" "$n" $files &
done
wait
t1=$(date +%s)

fail=0
total_alarms=0
for m in $modules; do
    M=$(upper "$m")
    eval "n=\${PROOF_N_$M}"
    log=$out/$m.log
    csv=$out/$m.csv
    rc=$(cat "$out/$m.rc" 2>/dev/null || echo "?")
    if [ "$rc" != 0 ] || [ ! -s "$csv" ]; then
        echo "FAIL: $m: frama-c exited $rc (see $log)"
        tail -n 20 "$log"
        fail=1
        continue
    fi
    if ! grep -q 'done for function main' "$log" || grep -qiE 'degenerat|non.terminating' "$log"; then
        echo "FAIL: $m: the analysis did not complete (see $log)"
        fail=1
        continue
    fi
    # Every property EVA could not prove: Unknown, Partially proven, Invalid
    # (the libc's own copies of a callee's preconditions are skipped: each
    # call site has its row). Its key: file name (not directory: files may
    # move), function, kind and the property itself; the line is only printed.
    awk -F'\t' 'NR > 1 && $1 !~ /^FRAMAC_SHARE/ && $6 != "Valid" && $6 != "Considered valid" && $6 != "Dead" {
        printf "%s\t%s\t%s\t%s\t%s\t%s\n", $2, $4, $5, $7, $3, $6 }' "$csv" | sort -u >"$out/$m.alarms"
    left=0
    while IFS='	' read -r file fn kind prop line status; do
        if grep -qxF "$file	$fn	$kind	$prop" "$src/proof/justified.txt"; then
            continue
        fi
        printf 'UNJUSTIFIED: %s: %s:%s: %s: %s (%s): %s\n' "$m" "$file" "$line" "$fn" "$kind" "$status" "$prop"
        left=$((left + 1))
    done <"$out/$m.alarms"
    count=$(wc -l <"$out/$m.alarms")
    total_alarms=$((total_alarms + count))
    cpu=$(cat "$out/$m.cpu" 2>/dev/null || echo "?")
    echo "prove: $m: N=$n, $cpu s CPU, $count alarms, $left unjustified (log: $log)"
    [ $left -eq 0 ] || fail=1
done
echo "prove: $((t1 - t0)) s wall for: $modules"
# A justification no module raised any more is reported (not an error: a
# smaller PROOF_N or a subset of modules raises fewer), so the list and
# doc/proof.md can be trimmed when the code improves.
if [ -z "${*:-}" ]; then
    cat "$out"/*.alarms 2>/dev/null | cut -f1-4 | sort -u >"$out/raised"
    grep -v '^#' "$src/proof/justified.txt" | grep -v '^$' | sort -u | comm -23 - "$out/raised" |
        while IFS= read -r k; do printf 'note: justified but not raised: %s\n' "$k"; done
fi
if [ $fail -ne 0 ]; then
    echo "prove: FAILED (justify an alarm in proof/justified.txt and doc/proof.md, or fix the code)"
    exit 1
fi
echo "prove: OK ($total_alarms alarms, every one justified in doc/proof.md)"
