#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CI: the proof stage (doc/proof.md). Configures a build tree (make prove
# needs only include/velstatus/version.h from it, nothing is compiled) and
# runs `make prove`: Frama-C's EVA over the parsers of untrusted text, which
# fails on any alarm proof/justified.txt does not list. Needs frama-c
# (Debian's frama-c-base, which scripts/deps.sh installs) and nothing else;
# a few minutes of CPU (the figures are in doc/proof.md).
set -eu
cd "$(dirname "$0")/.."
if ! command -v frama-c >/dev/null 2>&1; then
    echo "FAILED: frama-c not found (sh scripts/deps.sh installs frama-c-base)"
    exit 1
fi
[ -x configure ] || autoreconf -fi
rm -rf _ci_prove && mkdir _ci_prove && cd _ci_prove
if ! ../configure --disable-docs --disable-python --disable-go >configure.out 2>&1; then
    tail -n 20 configure.out
    echo "FAILED: configure"
    exit 1
fi
if ! make prove; then
    echo "FAILED: make prove (logs and reports in _ci_prove/proof-out/)"
    exit 1
fi
echo "prove: OK"
