#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Programs outside the source and build trees, built against
# `make install DESTDIR=...` of this build the way a user builds them:
#   C       cc with `pkg-config --cflags --libs --static libvelstatus` only;
#   Python  the installed package on PYTHONPATH, then a virtual environment
#           with `pip install --no-build-isolation --no-index bindings/python`
#           compiled against the installed library;
#   Go      a module whose go.mod replaces libvelstatus.invalid/velstatus with
#           the installed module source ($(datadir)/gocode/src/...).
# Each prints "velstatus VERSION: PartiallyReady". The staged .pc is used
# through PKG_CONFIG_SYSROOT_DIR, as for any DESTDIR install. Exit 77 when a
# part cannot run here (no go, no venv/pip, a sanitizer build's Python/Go);
# CI has them all, and counts a SKIP as a failure.
set -u
srcdir=${VS_SRCDIR:?}
builddir=${VS_BUILDDIR:?}
make=${MAKE:-make}
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-consumers.XXXXXX") || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
stage=$work/stage
fail=0 skipped=""
"$make" -s -C "$builddir" install DESTDIR="$stage" >"$work/install.log" 2>&1 || {
    cat "$work/install.log"; echo "FAIL: make install DESTDIR=$stage"; exit 1; }
pc=$(find "$stage" -name libvelstatus.pc | head -n1)
[ -n "$pc" ] || { echo "FAIL: no libvelstatus.pc installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc"); PKG_CONFIG_SYSROOT_DIR=$stage
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
pkgconf=${PKG_CONFIG:-pkg-config}
want="velstatus $($pkgconf --modversion libvelstatus): PartiallyReady"

expect() { # expect WHAT OUTPUT
    if [ "$2" = "$want" ]; then echo "ok $1: $2"; else echo "FAIL $1: got '$2', want '$want'"; fail=1; fi
}

# C
mkdir "$work/c" && cp "$srcdir/tests/consumers/c/consumer.c" "$work/c/" || exit 1
# shellcheck disable=SC2046
if (cd "$work/c" && ${CC:-cc} ${VS_CFLAGS:-} $($pkgconf --cflags libvelstatus) -o consumer consumer.c \
        ${VS_LDFLAGS:-} $($pkgconf --libs --static libvelstatus)); then
    expect "C consumer" "$(cd "$work/c" && ./consumer)"
else
    echo "FAIL: building the C consumer"; fail=1
fi

# Python
py=${PYTHON:-}
pydir=$(find "$stage" -path '*/velstatus/__init__.py' 2>/dev/null | head -n1)
if [ "${VS_SANITIZERS:-no}" = yes ] || [ -z "$py" ]; then
    skipped="$skipped python"
elif [ -z "$pydir" ]; then
    echo "FAIL: make install installed no Python package"; fail=1
else
    pydir=$(dirname "$(dirname "$pydir")")
    expect "Python consumer (installed package)" \
        "$(cd "$work" && PYTHONPATH=$pydir PYTHONDONTWRITEBYTECODE=1 "$py" "$srcdir/tests/consumers/python/consumer.py")"
    if "$py" -m venv --system-site-packages "$work/venv" >"$work/venv.log" 2>&1 && [ -x "$work/venv/bin/pip" ]; then
        # pip builds in place: a writable copy of the package source
        cp -R "$srcdir/bindings/python" "$work/pysrc" && chmod -R u+w "$work/pysrc" || exit 1
        if (cd "$work" && "$work/venv/bin/pip" install -q --no-build-isolation --no-index ./pysrc) >"$work/pip.log" 2>&1; then
            expect "Python consumer (pip install)" \
                "$(cd "$work" && "$work/venv/bin/python" "$srcdir/tests/consumers/python/consumer.py")"
        else
            cat "$work/pip.log"; echo "FAIL: pip install bindings/python"; fail=1
        fi
    else
        cat "$work/venv.log"; skipped="$skipped pip(python3-venv,python3-pip)"
    fi
fi

# Go
go=${GO:-}
gomod=$(find "$stage" -path '*/gocode/src/libvelstatus.invalid/velstatus/go.mod' | head -n1)
if [ "${VS_SANITIZERS:-no}" = yes ] || [ -z "$go" ]; then
    skipped="$skipped go"
elif [ -z "$gomod" ]; then
    echo "FAIL: make install installed no Go module source"; fail=1
else
    mkdir "$work/go" "$work/gohome" && cp "$srcdir/tests/consumers/go/go.mod" "$srcdir/tests/consumers/go/main.go" "$work/go/" || exit 1
    if (cd "$work/go" && export HOME="$work/gohome" GOCACHE="$work/gohome/cache" GOPATH="$work/gohome/gopath" \
            GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOWORK=off GOTOOLCHAIN=local GOENV=off CGO_ENABLED=1 &&
        "$go" mod edit -replace=libvelstatus.invalid/velstatus="$(dirname "$gomod")" &&
        "$go" build -o consumer .) >"$work/go.log" 2>&1; then
        expect "Go consumer" "$(cd "$work/go" && ./consumer)"
    else
        cat "$work/go.log"; echo "FAIL: building the Go consumer"; fail=1
    fi
fi

[ $fail = 0 ] || exit 1
if [ -n "$skipped" ]; then echo "SKIP:$skipped (not available in this build)"; exit 77; fi
exit 0
