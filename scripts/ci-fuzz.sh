#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CI: the fuzz smoke test (doc/fuzzing.md). Configures a clang build with
# --enable-fuzzing, which fails when -fsanitize=fuzzer does not link, then
# runs `make fuzz-smoke`: every target replays its seed corpus and fuzzes for
# FUZZ_SMOKE_SECONDS (20 s), two at a time; any finding fails the script.
# About 2 minutes on 2 cores. Run scripts/deps.sh first (clang, libclang-rt-14-dev).
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || autoreconf -fi
rm -rf _ci_fuzz && mkdir _ci_fuzz && cd _ci_fuzz
if ! ../configure CC=clang --enable-fuzzing --disable-docs --disable-python --disable-go >configure.out 2>&1; then
    tail -n 20 configure.out
    echo "FAILED: configure CC=clang --enable-fuzzing (clang cannot link -fsanitize=fuzzer?)"
    exit 1
fi
if ! make -j2 fuzz-smoke FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-20}"; then
    echo "FAILED: make fuzz-smoke (inputs in _ci_fuzz/fuzz/findings/, logs in _ci_fuzz/fuzz/logs/)"
    exit 1
fi
echo "fuzz-smoke: OK"
