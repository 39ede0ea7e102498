#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Go binding's tests (doc/conventions.md §8): `go vet` and `go test` over the
# binding module, then `go vet` over the example host (examples/go), which
# the binding's tests build and run. The tests need only PKG_CONFIG_PATH
# (here the uninstalled pkg-config file, i.e. the in-tree archive): they read
# their data from the source tree and compare with the CLI through golden
# files (tests/data/cli-golden). This script only keeps go's caches in the
# build tree and makes a rebuilt archive relink. Exit 0 pass, 1 fail, 77 skip (no
# go toolchain, or a sanitizer build whose go and test binaries would not be
# instrumented); CI installs golang-go and never builds the bindings under
# sanitizers, so a skip there is a failure.
set -u
srcdir=${VS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${VS_BUILDDIR:-$(pwd)}
go=${GO:-}
if [ -z "$go" ]; then
    go=$(command -v go 2>/dev/null || true)
fi
if [ -z "$go" ] || ! "$go" version >/dev/null 2>&1; then
    echo "SKIP: no go toolchain (configure --disable-go, or install golang-go)"
    exit 77
fi
if [ "${VS_SANITIZERS:-no}" = yes ]; then
    echo "SKIP: sanitizer build (go and its test binaries are not instrumented)"
    exit 77
fi

# Everything go writes goes under the build tree: the source tree may be
# read-only (make distcheck), and HOME may be unset or shared (CI runs as
# root). The module directories are used in place: go vet and go test
# write only to GOCACHE and GOTMPDIR.
work=$builddir/bindings/go/_build
mkdir -p "$work/cache" "$work/gopath" "$work/tmp" "$work/home" || exit 1
HOME=$work/home
GOCACHE=$work/cache
GOPATH=$work/gopath
GOTMPDIR=$work/tmp
GOENV=off
GOFLAGS=-mod=readonly
GOPROXY=off
GOSUMDB=off
GOWORK=off
GO111MODULE=on
GOTOOLCHAIN=local
CGO_ENABLED=1
# The strict cgo pointer checks: every pointer passed to C is checked for Go
# pointers inside it, the rule the callbacks and option structs must keep.
GODEBUG=cgocheck=2
GO=$go
PKG_CONFIG_PATH=$builddir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export HOME GOCACHE GOPATH GOTMPDIR GOENV GOFLAGS GOPROXY GOSUMDB GOWORK GO111MODULE GOTOOLCHAIN CGO_ENABLED GODEBUG GO
export PKG_CONFIG_PATH
# cgo runs $CC; configure's compiler, when make check exported it.
[ -n "${CC:-}" ] && export CC

# go caches package builds by their sources and flags, not by the content
# of the C archive it links; naming the archive's checksum in -ldflags makes
# every rebuilt libvelstatus.a relink the test binaries.
archive=$builddir/lib/.libs/libvelstatus.a
if [ ! -f "$archive" ]; then
    echo "FAIL: $archive is missing (run make first)"
    exit 1
fi
sum=$(cksum < "$archive" | cut -d' ' -f1)
ldflags="-X=libvelstatus.invalid/velstatus.archiveChecksum=$sum"
VS_GO_LDFLAGS=$ldflags
export VS_GO_LDFLAGS

"$go" version
fail=0
cd "$srcdir/bindings/go" || exit 1
echo "go vet ./... (bindings/go)"
"$go" vet ./... || fail=1
echo "go test -count=1 ./... (bindings/go)"
"$go" test -count=1 -ldflags="$ldflags" -v ./... >"$work/test.out" 2>&1 || fail=1
grep -E '^(=== RUN|--- (PASS|FAIL|SKIP)|PASS|FAIL|ok|panic)' "$work/test.out" | grep -v '^=== RUN' || true
if [ $fail != 0 ]; then cat "$work/test.out"; fi
if grep -q -- '--- SKIP' "$work/test.out"; then
    echo "FAIL: a Go test skipped"
    fail=1
fi
cd "$srcdir/examples/go" || exit 1
echo "go vet ./... (examples/go)"
"$go" vet ./... || fail=1
passed=$(grep -c -- '--- PASS' "$work/test.out")
failed=$(grep -c -- '--- FAIL' "$work/test.out")
echo "go: $passed passed, $failed failed (subtests included)"
exit $fail
