#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The one formatting dialect (doc/conventions.md, "Formatting"): every C file
# of the tree is as clang-format writes it with the tree's .clang-format.
# clang-format's output differs between major versions, so the check runs
# with the version the dialect was fixed with (14, Debian 12's) and is
# skipped (exit 77) where that is missing; scripts/deps.sh installs it, so CI
# never skips it.
#   tests/format.sh      check (make check)
#   tests/format.sh -i   rewrite the files in place (make format)
set -u
src=${VS_SRCDIR:-.}
cf=${CLANG_FORMAT:-clang-format}
want=14
fix=0
[ "${1:-}" = -i ] && fix=1
command -v "$cf" >/dev/null 2>&1 || { echo "SKIP: $cf not found (install clang-format $want)"; exit 77; }
have=$("$cf" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
[ "$have" = "$want" ] || { echo "SKIP: $cf is version ${have:-unknown}; the dialect is fixed with $want"; exit 77; }
[ -f "$src/.clang-format" ] || { echo "FAIL: $src/.clang-format is missing"; exit 1; }
files=$(cd "$src" && ls lib/*/*.[ch] util/*.h include/*.h include/velstatus/*.h tools/*.[ch] tests/*.[ch] fuzz/*.[ch] \
    bench/*.[ch] examples/c/*.c doc/tutorials/*.c bindings/go/shim.c proof/*.[ch] 2>/dev/null)
if [ "$fix" = 1 ]; then
    (cd "$src" && "$cf" -i --style=file $files)
    exit $?
fi
bad=0; checked=0
for f in $files; do
    checked=$((checked + 1))
    if ! "$cf" --style=file "$src/$f" | cmp -s - "$src/$f"; then
        echo "FAIL: $f is not formatted (make format)"
        "$cf" --style=file "$src/$f" | diff -u "$src/$f" - | head -n 20
        bad=$((bad + 1))
    fi
done
echo "$checked files checked, $bad not formatted"
[ "$bad" -eq 0 ]
