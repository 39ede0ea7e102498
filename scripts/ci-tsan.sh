#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CI: the threads test (tests/check_threads.c: 8 workers with their own
# contexts, 2 readers of shared immutable results) under ThreadSanitizer.
# A small build of its own: the library and that one test program, nothing
# else (TSan cannot share a build with ASan or valgrind). Any race report
# fails the run (TSAN_OPTIONS halt_on_error=1, exitcode=66).
#   sh scripts/ci-tsan.sh            (from the top of the tree)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
build=${VS_TSAN_BUILD:-$top/_ci_tsan}
[ -x configure ] || autoreconf -fi
rm -rf "$build" && mkdir -p "$build" && cd "$build"
tsan="-fsanitize=thread -g -O1"
if ! "$top/configure" --disable-docs --disable-python --disable-go --disable-valgrind \
       CFLAGS="$tsan" LDFLAGS="-fsanitize=thread" >configure.out 2>&1; then
    tail -n 40 configure.out; exit 1
fi
jobs=$(nproc 2>/dev/null || echo 2)
if ! make -j"$jobs" tests/check_threads >make.out 2>&1; then
    tail -n 40 make.out; exit 1
fi
# CK_FORK=no: the threads run in this process, not in a child check forks.
CK_FORK=no VS_SRCDIR="$top" VS_TEST_DATA="$top/tests/data" \
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" \
    ./tests/check_threads
echo "tsan: tests/check_threads passed without a race report"
