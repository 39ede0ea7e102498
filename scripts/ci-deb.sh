#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages from a clean clone of this repository's HEAD,
# checks them with lintian (errors fail, warnings are printed), installs
# them, and builds and runs the C, Python and Go consumers
# (tests/consumers/run.sh) against the installed packages: no source tree,
# no PKG_CONFIG_PATH. The tests already ran, so the package build does not
# repeat them (DEB_BUILD_OPTIONS=nocheck). Run as root on Debian 12 after the
# test suite, never inside it: it installs packages (scripts/deps.sh first,
# then the .debs, which it purges again on exit).
# Usage: scripts/ci-deb.sh [REPO]   (default: the repository this script is in)
# VS_DEB_OUT=DIR keeps the .debs, the .changes, the build log and lintian's output.
set -eu
start=$(date +%s)
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-deb.XXXXXX")
pkgs="libvelstatus-dev velstatus python3-velstatus golang-velstatus-dev"
installed=no
cleanup() {
    if [ $installed = yes ]; then
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $pkgs >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

sh "$repo/scripts/deps.sh"
git clone -q "$repo" "$work/src"
cd "$work/src"
echo "ci-deb: building $(git log -1 --format='%h %s')"
dpkg-checkbuilddeps
upstream=$(sed -n 's/^AC_INIT(\[libvelstatus\], \[\([^]]*\)\].*/\1/p' configure.ac)
debver=$(dpkg-parsechangelog -S Version)
[ "$upstream" = "${debver%%-*}" ] ||
    echo "ci-deb: WARNING: debian/changelog says $debver, configure.ac $upstream (add a changelog entry)"
DEB_BUILD_OPTIONS=nocheck nice dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1 || {
    tail -n 60 "$work/build.log"; echo "ci-deb: FAIL: dpkg-buildpackage"; exit 1; }
cd "$work"
ls -1 ./*.deb
changes=$(ls ./*.changes)
echo "ci-deb: lintian $changes"
lintian --fail-on error --display-info "$changes" >"$work/lintian.log" 2>&1 || lint_rc=$?
cat "$work/lintian.log"
if [ "${lint_rc:-0}" != 0 ]; then echo "ci-deb: FAIL: lintian reports errors"; exit 1; fi
echo "ci-deb: lintian: $(grep -c '^E:' "$work/lintian.log" || true) errors, $(grep -c '^W:' "$work/lintian.log" || true) warnings"

if [ -n "${VS_DEB_OUT:-}" ]; then
    mkdir -p "$VS_DEB_OUT" && cp ./*.deb ./*.changes ./*.buildinfo build.log lintian.log "$VS_DEB_OUT/"
fi
for p in $pkgs; do dpkg-deb -c ./"$p"_*.deb | awk '{print $6}' | sed "s|^\./|$p: /|"; done
installed=yes
debs=$(for p in $pkgs; do ls ./"$p"_*.deb; done)
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs >/dev/null
# The consumers, away from the clone, against what the packages installed.
cp -R "$work/src/tests/consumers" "$work/consumers"
rm -rf "$work/src"
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PYTHONPATH || true
velstatus version
sh "$work/consumers/run.sh" "$work/run" --python /usr/bin/python3 --go "$(command -v go)" \
    --gomoddir /usr/share/gocode/src/libvelstatus.invalid/velstatus
echo "ci-deb: OK in $(( $(date +%s) - start )) s"
