#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every tracked source file carries `SPDX-License-Identifier: Apache-2.0` in
# its first three lines (after a shebang). Data and prose are exempt: test
# vectors and golden files (tests/data/, *.json, *.txt), Markdown pages, LICENSE
# and NEWS, go.sum, empty markers (py.typed), pictures (*.png: doc/explain-timeout.png
# is rendered from tests/data/explain/timeout.svg) and debian/ (Debian's own formats;
# debian/copyright states the license there). Lists the files with
# `git ls-files` when the source tree is a checkout's top; in an unpacked
# tarball (make distcheck, even one unpacked inside a checkout) it finds the
# source files by their names instead.
set -u
src=${VS_SRCDIR:-.}
tag='SPDX-License-Identifier: Apache-2.0'
missing=0; checked=0
list=$(mktemp); trap 'rm -f "$list"' EXIT
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
    git -C "$src" ls-files > "$list"
else
    (cd "$src" && find lib include tools tests bindings examples doc fuzz bench scripts mk pkgconfig proof .ci \
        -type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.py' -o -name '*.go' -o -name '*.mk' \
        -o -name '*.in' -o -name '*.cdef' -o -name '*.[13]' -o -name 'Makefile' -o -name 'run' \) 2>/dev/null |
        sed 's|^\./||'; ls Makefile.am configure.ac autogen.sh) > "$list"
fi
while IFS= read -r f; do
    case $f in
        tests/data/*|debian/*|*.json|*.txt|*.md|*.gz|*.png|LICENSE|NEWS|go.sum|*/go.sum|*/py.typed) continue ;;
    esac
    p=$src/$f
    [ -f "$p" ] && [ -s "$p" ] || continue
    checked=$((checked + 1))
    if ! head -n 3 "$p" | grep -qF "$tag"; then
        echo "missing SPDX line: $f"; missing=$((missing + 1))
    fi
done < "$list"
echo "$checked source files checked, $missing without an SPDX line"
[ "$checked" -gt 0 ] || { echo "FAIL: no file checked"; exit 1; }
[ "$missing" -eq 0 ]
