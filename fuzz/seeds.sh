#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds each fuzz target's seed corpus from the test data and the examples:
#   fuzz/seeds.sh SRCDIR OUTDIR   ->  OUTDIR/<target>/<file>
# Every JSON file of tests/data and examples goes to the targets that parse
# its kind (those of tests/data/decode, the decoders' regression inputs, to
# every JSON target); the time target gets each timestamp and duration found in them;
# the reports target also gets each examples/operations answers file joined
# to its itemoperations file ("\n--\n", see fuzz/fuzz.h). A reproducer added
# under tests/data thus becomes a seed of every target that reads its kind.
set -eu
src=$1
out=$2
rm -rf "$out"
for t in bsl oplist reports time reconcile progress oom scan watch decoder describe_in table_in yaml snapshot datamover; do mkdir -p "$out/$t"; done

put() { # put TARGET... -- FILE : copy FILE under a name unique across directories
    f=$1
    name=$(printf '%s' "$f" | sed "s|^$src/||; s|/|_|g")
    shift
    for t in "$@"; do cp "$f" "$out/$t/$name"; done
}

# the describe texts and tables the tests hold (tools/text_in.h), and the
# inputs the fuzz smoke found (tests/data/fuzz-regress)
for f in "$src"/tests/data/describe-in/*.txt "$src"/tests/data/progress/*.details.txt "$src"/tests/data/progress/*.summary.txt \
    "$src"/tests/data/fuzz-regress/*.txt; do
    [ -f "$f" ] && put "$f" describe_in table_in
done
for f in "$src"/tests/data/fuzz-regress/oom-*.json; do
    [ -f "$f" ] && put "$f" oom
done
for f in "$src"/tests/data/fuzz-regress/bsl-*.json; do
    [ -f "$f" ] && put "$f" bsl oom
done
for f in "$src"/tests/data/fuzz-regress/yaml-*.yaml; do
    [ -f "$f" ] && put "$f" yaml
done
for f in "$src"/tests/data/server-status/*.json "$src"/examples/bsl/*.json; do
    [ -f "$f" ] && put "$f" bsl oom scan watch
done
# Backups and Restores: objects, Lists, events with repeated and escaped keys
for f in "$src"/tests/data/backup-status/*.json; do
    [ -f "$f" ] && put "$f" oom scan watch
done
# VolumeSnapshots and VolumeSnapshotContents: objects, Lists, watch streams
# (tests/data/snapshot), and the cluster of each row of the plugin's
# per-release table, one file each
for f in "$src"/tests/data/snapshot/*.json; do
    [ -f "$f" ] && put "$f" snapshot oom scan watch
done
for table in csi-volumesnapshot-progress csi-volumesnapshotcontent-progress; do
    [ -f "$src/tests/data/releases/$table.txt" ] || continue
    i=0
    grep -v '^#' "$src/tests/data/releases/$table.txt" | awk -F' [|] ' 'NF >= 7 { print $4 }' |
        while IFS= read -r objs; do
            i=$((i + 1))
            printf '%s' "$objs" >"$out/snapshot/$table-row-$i.json"
        done
done
# DataUploads and DataDownloads as users paste them, and the objects of the CSI
# plugin's per-release cases (tests/data/releases/csi-pvc-plugin.txt, column 6)
for f in "$src"/tests/data/datamover/*.json; do
    [ -f "$f" ] && put "$f" datamover oom scan watch
done
if [ -f "$src/tests/data/releases/csi-pvc-plugin.txt" ]; then
    grep -v '^#' "$src/tests/data/releases/csi-pvc-plugin.txt" | awk -F' [|] ' 'NF >= 6 { print $6 }' |
        awk -v d="$out/datamover" '{ f = sprintf("%s/csi-pvc-plugin-%03d.json", d, NR); print > f; close(f) }'
fi
# recorded kubectl watch streams, with and without event types (tests/watch-stream.py)
if command -v python3 >/dev/null 2>&1; then
    python3 "$src/tests/watch-stream.py" record >"$out/watch/events.json"
    python3 "$src/tests/watch-stream.py" record --plain >"$out/watch/plain.json"
fi
for f in "$src"/tests/data/operations/*.json "$src"/tests/data/progress/*-ops.json \
         "$src"/examples/operations/*-itemoperations.json; do
    [ -f "$f" ] && put "$f" oplist reconcile progress oom scan decoder
done
for f in "$src"/examples/operations/*-progress.json; do
    [ -f "$f" ] || continue
    put "$f" reports oom scan
    ops=$(printf '%s' "$f" | sed 's/-progress\.json$/-itemoperations.json/')
    [ -f "$ops" ] || continue
    pair="$out/reports/pair-$(basename "$f")"
    { cat "$f"; printf '\n--\n'; cat "$ops"; } >"$pair"
    cp "$pair" "$out/oom/"
done

# YAML: the real cases kept as YAML, and every BSL list, itemoperations file and watch
# stream as kubectl's and hand-indented YAML (tests/json2yaml.py)
for f in "$src"/tests/data/yaml/*.yaml; do
    [ -f "$f" ] && put "$f" yaml
done
if command -v python3 >/dev/null 2>&1; then
    for f in "$src"/examples/bsl/*.json "$src"/tests/data/operations/*.json "$src"/examples/operations/*.json \
             "$src"/tests/data/backup-status/*.json; do
        [ -f "$f" ] || continue
        name=$(printf '%s' "$f" | sed "s|^$src/||; s|/|_|g")
        for style in kubectl hand; do
            python3 "$src/tests/json2yaml.py" $style <"$f" >"$out/yaml/$name.$style.yaml" 2>/dev/null ||
                rm -f "$out/yaml/$name.$style.yaml"
        done
    done
fi

# the decoders' regression inputs are of every kind: each JSON target gets them all
for f in "$src"/tests/data/decode/*.json; do
    [ -f "$f" ] && put "$f" bsl oplist reports reconcile progress oom scan decoder
done

# every timestamp and Go duration the data spells (100 of each at most), one per file
values() { # values REGEX
    find "$src/tests/data" "$src/examples" -type f \( -name '*.json' -o -name '*.txt' \) -exec cat {} + |
        grep -oE "$1" | sort -u | head -n 100
}
{
    values '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{1,2}:[0-9]{2}:[0-9]{2}([.,][0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})'
    values '(^|[^0-9a-zA-Z.])-?([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+' | sed 's/^[^-0-9]//'
} | {
    i=0
    while IFS= read -r v; do
        i=$((i + 1))
        printf '%s' "$v" >"$out/time/value-$i"
    done
}
