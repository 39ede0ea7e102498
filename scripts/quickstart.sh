#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
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
ops=../examples/operations
echo
echo "== reconcile a backup's item operations (Velero preset), then its progress and describe text"
$v operations reconcile --kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:30:00Z \
    --timeout 4h --policy velero --progress $ops/backup-progress.json $ops/backup-itemoperations.json
$v progress --now 2024-05-01T10:30:00Z $ops/backup-itemoperations.json
$v describe-operations --kind backup $ops/backup-itemoperations.json
echo
echo "== Velero's status-patch retry schedule for --resource-timeout=10m"
$v backoff --velero-cap 10m
echo
printf 'phase check: '
$v phase check --kind backup InProgress Finalizing
