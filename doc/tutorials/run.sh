#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs every tutorial of the main page (doc/tutorials/NAME.c, built by
# `make check` as doc/tutorials/NAME): each checks its own results and exits 0
# only when the library answered as the page says. A tutorial source without
# its program fails, so a new tutorial cannot be left out of doc/local.mk.
set -u
n=0; bad=0
for src in "$VS_SRCDIR"/doc/tutorials/*.c; do
    name=$(basename "$src" .c)
    prog=$VS_BUILDDIR/doc/tutorials/$name
    n=$((n + 1))
    if [ ! -x "$prog" ]; then
        echo "FAIL $name: $prog was not built (add it to VS_TUTORIALS in doc/local.mk)"; bad=$((bad + 1)); continue
    fi
    if out=$("$prog" 2>&1) && [ -n "$out" ]; then
        echo "ok $name"
    else
        printf '%s\n' "$out"; echo "FAIL $name"; bad=$((bad + 1))
    fi
done
echo "$n tutorials, $bad failed"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
