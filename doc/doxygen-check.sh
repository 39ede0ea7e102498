#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs Doxygen over the public headers; any warning (an undocumented symbol,
# a missing @param, an unknown tag) fails the test.
set -u
if [ "${VS_DOCS:-yes}" = no ]; then echo "docs disabled (--disable-docs)"; exit 77; fi
if [ -z "${DOXYGEN:-}" ] || ! command -v "$DOXYGEN" >/dev/null 2>&1; then
    echo "doxygen not found"; exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sed "s|^OUTPUT_DIRECTORY .*|OUTPUT_DIRECTORY = $out|" "$VS_BUILDDIR/doc/Doxyfile" > "$out/Doxyfile"
if ! "$DOXYGEN" "$out/Doxyfile" > "$out/log" 2>&1; then
    cat "$out/log"
    echo "FAIL: doxygen reported warnings"
    exit 1
fi
if [ -s "$out/log" ]; then cat "$out/log"; echo "FAIL: doxygen printed warnings"; exit 1; fi
echo "doxygen: no warnings"
