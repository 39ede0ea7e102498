#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the consumers in this directory (C, Python, Go) in WORK, a
# directory outside any source tree, against whatever libvelstatus the
# environment provides, the way a user would: the C program with
# `pkg-config --cflags --libs --static libvelstatus` only (PKG_CONFIG_PATH
# and PKG_CONFIG_SYSROOT_DIR as the caller set them), the Python one with the
# `velstatus` package Python finds, the Go one with its go.mod's replace
# pointed at GOMODDIR. Each must print "velstatus VERSION: PartiallyReady",
# VERSION being pkg-config's. Used by tests/install-consumers.sh (a DESTDIR install of
# the build) and scripts/ci-deb.sh (the installed .debs).
# Usage: run.sh WORK [--python PY] [--go GO --gomoddir GOMODDIR]
# (a language whose option is missing is not run). Exit 0 or 1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: run.sh WORK [--python PY] [--go GO --gomoddir DIR]}; shift
py="" go="" gomoddir=""
while [ $# -gt 0 ]; do
    case $1 in
    --python) py=$2; shift 2 ;;
    --go) go=$2; shift 2 ;;
    --gomoddir) gomoddir=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1"; exit 1 ;;
    esac
done
pkgconf=${PKG_CONFIG:-pkg-config}
version=$($pkgconf --modversion libvelstatus) || { echo "FAIL: pkg-config finds no libvelstatus"; exit 1; }
want="velstatus $version: PartiallyReady"
fail=0
expect() { # expect WHAT OUTPUT
    if [ "$2" = "$want" ]; then echo "ok $1: $2"; else echo "FAIL $1: got '$2', want '$want'"; fail=1; fi
}

mkdir -p "$work/c" && cp "$here/c/consumer.c" "$work/c/" || exit 1
# shellcheck disable=SC2046
if (cd "$work/c" && ${CC:-cc} ${VS_CFLAGS:-} $($pkgconf --cflags libvelstatus) -o consumer consumer.c \
        ${VS_LDFLAGS:-} $($pkgconf --libs --static libvelstatus)); then
    expect "C consumer" "$(cd "$work/c" && ./consumer)"
else
    echo "FAIL: building the C consumer"; fail=1
fi

if [ -n "$py" ]; then
    mkdir -p "$work/python" && cp "$here/python/consumer.py" "$work/python/" || exit 1
    expect "Python consumer ($py)" "$(cd "$work/python" && PYTHONDONTWRITEBYTECODE=1 "$py" consumer.py)"
fi

if [ -n "$go" ]; then
    mkdir -p "$work/go" "$work/gohome" && cp "$here/go/go.mod" "$here/go/main.go" "$work/go/" || exit 1
    if (cd "$work/go" && export HOME="$work/gohome" GOCACHE="$work/gohome/cache" GOPATH="$work/gohome/gopath" \
            GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOWORK=off GOTOOLCHAIN=local GOENV=off CGO_ENABLED=1 &&
        "$go" mod edit -replace=libvelstatus.invalid/velstatus="${gomoddir:?--go needs --gomoddir}" &&
        "$go" build -o consumer .) >"$work/go.log" 2>&1; then
        expect "Go consumer" "$(cd "$work/go" && ./consumer)"
    else
        cat "$work/go.log"; echo "FAIL: building the Go consumer"; fail=1
    fi
fi
exit $fail
