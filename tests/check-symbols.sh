#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The archive's symbols (doc/conventions.md §5): (1) every defined global symbol starts
# with velstatus_; (2) the functions declared VELSTATUS_API are exactly the
# defined velstatus_[a-z]* symbols; (3) nothing references I/O, clock,
# environment or random functions (lib/ is I/O-free, doc/design.md §8).
set -u
lib="$VS_BUILDDIR/lib/.libs/libvelstatus.a"
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
nm=${NM:-nm}
fail=0
# Instrumentation symbols (ASan's __odr_asan.*, __asan_*, UBSan's, coverage) are the compiler's, not ours.
bad=$($nm -g --defined-only "$lib" | awk 'NF==3 {print $3}' | grep -v '^velstatus_' \
    | grep -Ev '^(__odr_asan|__asan_|__ubsan_|__sancov_|__gcov_|__llvm_)' || true)
if [ -n "$bad" ]; then echo "FAIL: symbols without the velstatus_ prefix:"; echo "$bad"; fail=1; fi
defined=$($nm -g --defined-only "$lib" | awk 'NF==3 && $2=="T" {print $3}' | grep '^velstatus_[a-z]' | sort -u)
declared=$(cat "$VS_SRCDIR"/include/velstatus/*.h "$VS_BUILDDIR"/include/velstatus/version.h | tr '\n' ' ' | sed 's/;/;\n/g' \
    | grep 'VELSTATUS_API' | sed 's/VELSTATUS_DEPRECATED("[^"]*")//' | sed -n 's/.*[ *]\(velstatus_[a-z][a-z0-9_]*\)[[:space:]]*(.*/\1/p' | sort -u)
if [ "$defined" != "$declared" ]; then
    echo "FAIL: exported functions and VELSTATUS_API declarations differ (< defined, > declared):"
    printf '%s\n' "$defined" > "${TMPDIR:-/tmp}/vs_def.$$"; printf '%s\n' "$declared" > "${TMPDIR:-/tmp}/vs_dec.$$"
    diff "${TMPDIR:-/tmp}/vs_def.$$" "${TMPDIR:-/tmp}/vs_dec.$$"
    rm -f "${TMPDIR:-/tmp}/vs_def.$$" "${TMPDIR:-/tmp}/vs_dec.$$"
    fail=1
fi
forbidden='fopen open read write time clock_gettime gettimeofday getenv secure_getenv rand random srand printf fprintf puts fputs fwrite fread setlocale localtime gmtime mktime strftime arc4random getrandom'
undef=$($nm -u "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
for f in $forbidden; do
    if printf '%s\n' "$undef" | grep -qx "$f"; then echo "FAIL: the archive references $f"; fail=1; fi
done
[ $fail = 0 ] && echo "symbols: $(printf '%s\n' "$defined" | wc -l) exported functions, all prefixed and declared; no I/O"
exit $fail
