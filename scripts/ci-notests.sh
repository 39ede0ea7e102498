#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CI: `configure --disable-tests` builds the archive and the tool with neither
# jansson nor check (the tests' dependencies): pkg-config is given a
# directory with only zlib's and libyaml's .pc files, so it finds neither,
# and no object of lib/ or tools/ may include their headers. `make check` is
# then refused with its reason.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pcdir=$(pkg-config --variable pcfiledir zlib) || exit 1
mkdir "$work/pc" "$work/b"
cp "$pcdir/zlib.pc" "$(pkg-config --variable pcfiledir yaml-0.1)/yaml-0.1.pc" "$work/pc/" || exit 1
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi) || exit 1
cd "$work/b" || exit 1
if ! PKG_CONFIG_LIBDIR="$work/pc" "$top/configure" --disable-tests --disable-python --disable-go >configure.out 2>&1; then
    tail -n 20 configure.out; echo "FAIL: configure --disable-tests"; exit 1
fi
make -j"$(nproc 2>/dev/null || echo 2)" >make.out 2>&1 || { tail -n 30 make.out; echo "FAIL: make"; exit 1; }
[ -f lib/.libs/libvelstatus.a ] && [ -x tools/velstatus ] || { echo "FAIL: no archive or tool"; exit 1; }
if grep -lE '(jansson|check)\.h' lib/*/.deps/*.Plo tools/.deps/*.Po 2>/dev/null; then
    echo "FAIL: these objects include jansson's or check's header"; exit 1
fi
./tools/velstatus server-status "$top/examples/bsl/all-available.json" >/dev/null || { echo "FAIL: the tool does not run"; exit 1; }
if make check >check.out 2>&1 || ! grep -q 'configured with --disable-tests' check.out; then
    cat check.out; echo "FAIL: make check was not refused with its reason"; exit 1
fi
echo "configure --disable-tests: the archive and the tool built without jansson and check"
