#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs Doxygen over the public headers and the doc/*.md pages; any warning (an undocumented symbol,
# a missing @param, an unknown tag) fails the test.
set -u
if [ "${VS_DOCS:-yes}" = no ]; then echo "docs disabled (--disable-docs)"; exit 77; fi
if [ -z "${DOXYGEN:-}" ] || ! command -v "$DOXYGEN" >/dev/null 2>&1; then
    echo "doxygen not found"; exit 77
fi
# Every page under doc/ is a related page: a new doc/*.md must be added to
# INPUT in doc/Doxyfile.in (and to VS_DOC_PAGES in doc/local.mk).
missing=0
for page in "$VS_SRCDIR"/doc/*.md; do
    if ! grep -qF "/doc/$(basename "$page")" "$VS_BUILDDIR/doc/Doxyfile"; then
        echo "FAIL: doc/$(basename "$page") is not in INPUT of doc/Doxyfile.in"; missing=1
    fi
done
[ "$missing" -eq 0 ] || exit 1
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
