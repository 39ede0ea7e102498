#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compares the vendored golden vectors (tests/data/conformance) with the
# upstream copy beside the source tree, when that copy exists, so the vendored
# one can never drift. Run by .ci/run, never by make check (which knows
# nothing outside the tree).
set -eu
cd "$(dirname "$0")/.."
# The default is shared/conformance in the directory that holds the tree.
up=${1:-$(cd .. && pwd)/shared/conformance}
if [ ! -d "$up" ]; then
    echo "check-vendored: no $up beside the tree; nothing to compare"
    exit 0
fi
bad=0
for f in "$up"/*; do
    [ -f "$f" ] || continue
    v=tests/data/conformance/$(basename "$f")
    if ! cmp -s "$f" "$v"; then
        echo "check-vendored: $v differs from $f (copy it again; never edit a vector)"
        bad=1
    fi
done
[ "$bad" -eq 0 ] && echo "check-vendored: tests/data/conformance equals $up"
exit "$bad"
