#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Programs outside the source and build trees, built against
# `make install DESTDIR=...` of this build the way a user builds them
# (tests/consumers/run.sh: C through pkg-config only, Python with the
# installed package on PYTHONPATH, Go with go.mod's replace pointed at the
# installed module source), and the Python package installed the pip way: a
# virtual environment, `pip install --no-build-isolation --no-index
# bindings/python`, compiled against the installed library. The staged .pc is
# used through PKG_CONFIG_SYSROOT_DIR, as for any DESTDIR install. Exit 77
# when a part of the build cannot run here (no go toolchain, no venv/pip); CI
# has them all and counts a SKIP as a failure.
set -u
srcdir=${VS_SRCDIR:?}
builddir=${VS_BUILDDIR:?}
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-consumers.XXXXXX") || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
stage=$work/stage
fail=0 skipped=""
"${MAKE:-make}" -s -C "$builddir" install DESTDIR="$stage" >"$work/install.log" 2>&1 || {
    cat "$work/install.log"; echo "FAIL: make install DESTDIR=$stage"; exit 1; }
pc=$(find "$stage" -name libvelstatus.pc | head -n1)
[ -n "$pc" ] || { echo "FAIL: no libvelstatus.pc installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc"); PKG_CONFIG_SYSROOT_DIR=$stage
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

set --
py=${PYTHON:-} go=${GO:-}
# Not part of this build (not a skip): a sanitizer build has neither the
# Python module nor Go tests, and configure's --disable-python/--disable-go
# (or a Python without cffi) leave them out.
built_py=yes built_go=yes
if [ "${VS_SANITIZERS:-no}" = yes ]; then built_py=no built_go=no; fi
if [ -z "$py" ]; then built_py=no; fi
if [ "${VS_ENABLE_GO:-auto}" = no ]; then built_go=no; fi
if [ $built_py = no ]; then
    py=""
elif [ -n "$py" ]; then
    init=$(find "$stage" -path '*/velstatus/__init__.py' | head -n1)
    [ -n "$init" ] || { echo "FAIL: make install installed no Python package"; exit 1; }
    PYTHONPATH=$(dirname "$(dirname "$init")"); export PYTHONPATH
    set -- "$@" --python "$py"
fi
if [ $built_go = no ]; then
    go=""
elif [ -n "$go" ]; then
    gomod=$(find "$stage" -path '*/gocode/src/libvelstatus.invalid/velstatus/go.mod' | head -n1)
    [ -n "$gomod" ] || { echo "FAIL: make install installed no Go module source"; exit 1; }
    set -- "$@" --go "$go" --gomoddir "$(dirname "$gomod")"
else
    skipped="$skipped go"
fi
sh "$srcdir/tests/consumers/run.sh" "$work/installed" "$@" || fail=1
unset PYTHONPATH

# pip in a virtual environment, from a writable copy of bindings/python (pip builds in place)
if [ -n "$py" ] && "$py" -m venv --system-site-packages "$work/venv" >"$work/venv.log" 2>&1 &&
        [ -x "$work/venv/bin/pip" ]; then
    cp -R "$srcdir/bindings/python" "$work/pysrc" && chmod -R u+w "$work/pysrc" || exit 1
    if (cd "$work" && "$work/venv/bin/pip" install -q --no-build-isolation --no-index ./pysrc) >"$work/pip.log" 2>&1; then
        sh "$srcdir/tests/consumers/run.sh" "$work/pip" --python "$work/venv/bin/python" || fail=1
    else
        cat "$work/pip.log"; echo "FAIL: pip install bindings/python"; fail=1
    fi
elif [ -n "$py" ]; then
    cat "$work/venv.log"; skipped="$skipped pip(python3-venv,python3-pip)"
fi

[ $fail = 0 ] || exit 1
if [ -n "$skipped" ]; then echo "SKIP:$skipped (not available in this build)"; exit 77; fi
exit 0
