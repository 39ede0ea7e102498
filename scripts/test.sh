#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's second command: the whole test suite, three builds.
#   (a) --enable-werror: make check, then make distcheck (read-only srcdir);
#   (b) --enable-sanitizers (ASan + UBSan): make check of the C tests;
#   (c) --enable-valgrind --enable-coverage: make check-valgrind (memcheck) of
#       the C tests, then make coverage-report: gcovr's lib/ line and branch
#       coverage from those same runs, failing under 98% lines or 95% branches.
# Ends with one line "N passed, N failed"; a skipped test counts as failed.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)
python=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
log() { printf '\n==== %s\n' "$*"; }

count() { # count LOGFILE : add the automake summary of one test-suite log
    f=$1
    if [ ! -f "$f" ]; then echo "missing $f"; failed=$((failed + 1)); return; fi
    p=$(sed -n 's/^# PASS: *//p' "$f" | head -n1)
    xf=$(sed -n 's/^# XFAIL: *//p' "$f" | head -n1)
    s=$(sed -n 's/^# SKIP: *//p' "$f" | head -n1)
    fl=$(sed -n 's/^# FAIL: *//p' "$f" | head -n1)
    xp=$(sed -n 's/^# XPASS: *//p' "$f" | head -n1)
    e=$(sed -n 's/^# ERROR: *//p' "$f" | head -n1)
    passed=$((passed + ${p:-0} + ${xf:-0}))
    failed=$((failed + ${s:-0} + ${fl:-0} + ${xp:-0} + ${e:-0}))
    echo "$(basename "$(dirname "$f")")/$(basename "$f"): ${p:-0} passed, $(( ${s:-0} + ${fl:-0} + ${xp:-0} + ${e:-0} )) failed (skips count as failures)"
    if [ "${s:-0}${fl:-0}${xp:-0}${e:-0}" != "0000" ]; then
        grep -E '^(FAIL|ERROR|SKIP|XPASS):' "$f" | head -n 40
    fi
}
step() { # step NAME CMD... : a build step that counts as one test
    name=$1; shift
    if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); return 1; fi
}

[ -x configure ] || autoreconf -fi || { echo "0 passed, 1 failed"; exit 1; }

log "(a) --enable-werror: make check"
rm -rf _ci_werror && mkdir _ci_werror && cd _ci_werror
if step configure-werror ../configure --enable-werror PYTHON="$python" >configure.out 2>&1 \
   && step build-werror make -j"$jobs" >make.out 2>&1; then
    make -j"$jobs" check >check.out 2>&1
    count tests/../test-suite.log
    log "(a) make distcheck"
    if step distcheck make -j"$jobs" distcheck >distcheck.out 2>&1; then
        echo "distcheck: OK"
    else
        tail -n 60 distcheck.out
        find . -path '*_build*' -name 'test-suite.log' -exec grep -E '^(FAIL|ERROR|SKIP):' {} + | head -n 40
    fi
else
    tail -n 40 configure.out make.out 2>/dev/null
fi
cd "$top"

log "(b) --enable-sanitizers: make check"
rm -rf _ci_asan && mkdir _ci_asan && cd _ci_asan
if step configure-asan ../configure --enable-sanitizers PYTHON="$python" >configure.out 2>&1 \
   && step build-asan make -j"$jobs" >make.out 2>&1; then
    make -j"$jobs" check TESTS='$(VS_CORE_TESTS)' >check.out 2>&1
    count test-suite.log
else
    tail -n 40 configure.out make.out 2>/dev/null
fi
cd "$top"

log "(c) --enable-valgrind --enable-coverage: make check-valgrind, then the coverage gate"
rm -rf _ci_valgrind && mkdir _ci_valgrind && cd _ci_valgrind
if step configure-valgrind ../configure --enable-valgrind --enable-coverage --disable-docs PYTHON="$python" \
     >configure.out 2>&1 \
   && step build-valgrind make -j"$jobs" >make.out 2>&1; then
    make -j"$jobs" check-valgrind TESTS='$(VS_CHECK_PROGS)' >check.out 2>&1
    count test-suite-memcheck.log
    log "(c) make coverage-report (lib/: lines >= 98%, branches >= 95%)"
    step coverage make coverage-report >coverage.out 2>&1
    cat coverage.out
else
    tail -n 40 configure.out make.out 2>/dev/null
fi
cd "$top"

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
