#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The CLI uses the library only through its public API (issue 21): nothing in
# tools/ names an internal symbol (velstatus__*), the internal scanner
# (json_scan) or a header of lib/, and tools/local.mk puts no lib/ directory
# on the CLI's include path. In an unpacked tarball it greps the files there.
set -u
src=${VS_SRCDIR:-.}
pat='velstatus__|json_scan|VELSTATUS__|#include "\.\./lib/|#include "(velstatus_private|kube_json|util_[a-z]+)\.h"'
if command -v git >/dev/null 2>&1 && git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git -C "$src" grep -nE "$pat" -- tools)
else
    hits=$(cd "$src" && grep -rnE "$pat" tools)
fi
inc=$(grep -nE -- '-I *\$\(top_(src|build)dir\)/lib|-I *[^ ]*/lib( |$)' "$src/tools/local.mk")
fail=0
if [ -n "$hits" ]; then
    printf '%s\n' "$hits"
    echo "FAIL: tools/ uses library internals (make them public API, or write a tools-local helper)"
    fail=1
fi
if [ -n "$inc" ]; then
    printf 'tools/local.mk:%s\n' "$inc"
    echo "FAIL: tools/local.mk puts lib/ on the CLI's include path"
    fail=1
fi
[ "$fail" = 0 ] && echo "tools/ uses only the public API"
exit "$fail"
