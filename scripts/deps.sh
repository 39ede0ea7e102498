#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages libvelstatus needs to build and test, if
# any is missing. Debian's registry only; run as root. clang and
# libclang-rt-14-dev (libFuzzer's runtime, which --no-install-recommends
# leaves out) are for the fuzz targets (scripts/ci-fuzz.sh); clang-format
# (14, Debian 12's) for the format check of make check (tests/format.sh).
# libxml2-utils (xmllint) and librsvg2-bin (rsvg-convert) for the explain -o svg
# test (tests/cli-explain-svg.sh).
# frama-c-base (Frama-C with its EVA plug-in) for `make prove`
# (scripts/ci-prove.sh, doc/proof.md).
set -eu
pkgs="build-essential autoconf automake libtool autoconf-archive pkgconf check libjansson-dev zlib1g-dev libyaml-dev doxygen
libxml2-utils librsvg2-bin
valgrind gcovr golang-go python3 python3-cffi python3-prometheus-client python3-pytest python3-pycparser python3-dev python3-pip python3-venv git groff-base
debhelper dh-python lintian fakeroot dpkg-dev python3-setuptools time
clang libclang-rt-14-dev clang-format
frama-c-base"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing
fi
