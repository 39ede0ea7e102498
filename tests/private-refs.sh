#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Nothing in the tree may point at documents users do not have: the project's
# behaviour reference is doc/velero-behaviour.md and its design record is
# doc/design.md. Fails on any tracked file (outside the vendored vectors in
# tests/data/conformance, which are byte-identical upstream copies) that names
# the private research notes. In an unpacked tarball it greps the files there.
set -u
src=${VS_SRCDIR:-.}
# The pattern is assembled so that this file does not match itself.
s=SPEC; d=DESIGN; t=STYLE; :
pat="$s-velero|$s §|$d §|$d\\.md|$t §|$t\\.md|\\.\\./shared"
# A reference wrapped over two lines leaves the bare name at the end of one.
pat="$pat|(^|[^A-Za-z0-9_])($s|$d|$t)[[:space:]]*\$"
if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git -C "$src" grep -nE "$pat" -- . ':(exclude)tests/data/conformance')
else
    hits=$(cd "$src" && grep -rnE --exclude-dir=conformance --exclude-dir=autom4te.cache "$pat" . )
fi
if [ -n "$hits" ]; then
    printf '%s\n' "$hits"
    echo "FAIL: $(printf '%s\n' "$hits" | wc -l) line(s) refer to files that are not in the repository"
    exit 1
fi
echo "no references to files outside the repository"
