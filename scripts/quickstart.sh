#!/bin/sh
# The README's first command: install what is missing, build, and run
# velstatus on the bundled examples.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
[ -x configure ] || autoreconf -fi
mkdir -p build
cd build
[ -f Makefile ] || ../configure PYTHON=/usr/bin/python3
make -j"$(nproc)"
v=./tools/velstatus
$v version
for f in ../examples/bsl/*.json; do
    [ -e "$f" ] || continue
    printf '%-28s ' "$(basename "$f"):"
    $v server-status "$f"
done
printf 'phase check: '
$v phase check --kind backup InProgress Finalizing
