#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus explain -o svg: each worked example of doc/explain.md, a
# 500-operation backup and hostile input give SVG that parses as XML (Python's
# xml.etree and xmllint), is self-contained and holds every operation ID and
# every event time as the text form prints them (UTC and a local zone);
# rendered with rsvg-convert, the picture is not blank. The SVG of example 1
# is compared byte for byte (doc/explain.md shows it rendered).
# xmllint (libxml2-utils) and rsvg-convert (librsvg2-bin) come from
# scripts/deps.sh; without them this test skips.
set -u
v=${VELSTATUS:?}
d=${VS_TEST_DATA:?}/explain
py=${PYTHON:-python3}
check="${VS_SRCDIR:?}/tests/svg-check.py"
tmp=${TMPDIR:-/tmp}/vs_explain_svg.$$
fail=0
TZ=UTC; export TZ
. "${VS_SRCDIR:?}/tests/cli-lib.sh"
for tool in xmllint rsvg-convert "$py"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$tool not found (scripts/deps.sh installs it)"; exit 77; }
done

# svg_case NAME ARGS...: -o svg of ARGS is valid, self-contained XML holding
# the IDs of -o json and the event times of the text form.
svg_case() {
    name=$1; shift
    if ! "$v" explain -o svg "$@" >"$tmp.svg" 2>"$tmp.err"; then echo "FAIL $name: exit status"; cat "$tmp.err"; fail=1; return; fi
    "$v" explain -o json "$@" >"$tmp.json" && "$v" explain "$@" >"$tmp.txt" || { echo "FAIL $name: json/text"; fail=1; return; }
    if ! xmllint --noout "$tmp.svg"; then echo "FAIL $name: xmllint"; fail=1; return; fi
    if "$py" "$check" xml "$tmp.svg" "$tmp.json" "$tmp.txt"; then echo "ok $name"; else echo "FAIL $name"; fail=1; fi
}
# render NAME: the last SVG drawn as a PNG that is not blank.
render() {
    if rsvg-convert -z 0.5 -o "$tmp.png" "$tmp.svg" && "$py" "$check" png "$tmp.png"; then echo "ok $1-png"; else echo "FAIL $1-png"; fail=1; fi
}

# The three worked examples of doc/explain.md.
ex1="--now 2024-05-01T11:00:30Z --operations $d/timeout-itemoperations.json --bsls $d/bsls-available.json $d/timeout-backup.json"
svg_case example1 --utc $ex1
render example1
golden example1-svg "$d/timeout.svg" -- explain -o svg --utc $ex1
svg_case example1-hardened --utc --policy hardened $ex1
svg_case example2 --utc --now 2025-01-07T09:12:00Z \
    --operations "$d/readonly-itemoperations.json" --bsls "$d/bsls-readonly.json" "$d/readonly-backup.json"
render example2
svg_case example3 --utc --now 2023-09-13T09:30:00Z --operations "$d/restore-itemoperations.json" "$d/restore.json"
render example3
# The local zone, as the text prints it (a POSIX TZ needs no tzdata).
TZ="CET-1CEST,M3.5.0,M10.5.0/3" svg_case example1-local $ex1
grep -q '13:00' "$tmp.svg" && grep -q '+0200 CEST' "$tmp.svg" && echo "ok local-ticks" || { echo "FAIL local-ticks"; fail=1; }
# No timeline: no --operations, a terminal phase.
svg_case no-operations --utc --now 2024-05-01T11:00:30Z "$d/timeout-backup.json"
grep -q 'No timeline without --operations' "$tmp.svg" && echo "ok no-operations-words" || { echo "FAIL no-operations-words"; fail=1; }
printf '{"kind":"Backup","metadata":{"name":"b"},"status":{"phase":"Completed"}}' >"$tmp.obj"
svg_case terminal --utc --operations "$d/timeout-itemoperations.json" "$tmp.obj"

# 500 operations of four plugins in every state (a data-mover backup of 500
# volumes): one row per fate and plugin, every ID and event time still there.
"$py" - "$tmp.ops" <<'EOF'
import json, sys
plugins = ["velero.io/csi-pvc-backupper", "velero.io/vsv2-backupper", "example.io/snapshot-exporter",
           "velero.io/csi-volumesnapshot"]
ops = []
for i in range(500):
    created = "2024-05-01T10:%02d:%02dZ" % divmod(i * 6, 60)
    st = {"created": created, "started": created, "updated": "2024-05-01T11:00:00Z", "operationUnits": "Bytes"}
    k = i % 10
    if k == 0:
        st.update(phase="Completed", nCompleted=1000, nTotal=1000)
    elif k == 1:
        st.update(phase="Failed", error="unable to get valid BackupItemActionV2")
    elif k in (2, 3, 4):
        st.update(phase="InProgress", nCompleted=900, nTotal=1000)  # done before its timeout
    elif k == 9:
        st.update(phase="New")
        del st["created"]  # no created: never times out
    else:
        st.update(phase="InProgress", nCompleted=100, nTotal=100000)  # times out
    ops.append({"spec": {"backupName": "big", "backupItemAction": plugins[i % 4],
                         "resourceIdentifier": {"Group": "", "Resource": "persistentvolumeclaims",
                                                "Namespace": "ns%d" % (i % 7), "Name": "data-%d" % i},
                         "operationID": "du-%04d-%s" % (i, "x" * (i % 5))}, "status": st})
json.dump(ops, open(sys.argv[1], "w"))
EOF
printf '{"kind":"Backup","metadata":{"name":"big","namespace":"velero"},"spec":{"itemOperationTimeout":"4h"},"status":{"phase":"WaitingForPluginOperations"}}' >"$tmp.big"
svg_case ops-500 --utc --now 2024-05-01T11:00:30Z --operations "$tmp.ops" "$tmp.big"
render ops-500
rows=$(grep -c 'operations · ' "$tmp.svg")
[ "$rows" -ge 8 ] && [ "$rows" -le 40 ] && grep -q '500 operations: one row per fate and plugin' "$tmp.svg" &&
    echo "ok ops-500-grouped ($rows rows)" || { echo "FAIL ops-500-grouped: $rows rows"; fail=1; }

# Hostile input: a name of 10,000 characters with markup, quotes, control
# characters and U+FFFE escaped, operation fields with the same. Raw invalid
# UTF-8 bytes and a lone surrogate escape are refused by the library's
# decoders (doc/json-decoding.md: jansson's rules), naming the position: no
# such text reaches the SVG writer, which still replaces one by U+FFFD.
"$py" - "$tmp" <<'EOF'
import sys
t, long = sys.argv[1], "n" * 10000
bad = "<&\\\"'>]]>\\u0000\\u0001\\u001f\\u007f\\ufffe\\ud83d\\ude00"
obj = ('{"kind":"Backup","metadata":{"name":"%s%s","namespace":"ns<&"},"spec":{},'
       '"status":{"phase":"WaitingForPluginOperations"}}' % (long, bad))
open(t + ".hostile", "w").write(obj)
raw = obj.replace('"ns<&"', '"ns\xff\xfe<&"')
open(t + ".rawbytes", "wb").write(raw.encode("latin-1"))
open(t + ".surrogate", "w").write('{"kind":"Backup","metadata":{"name":"a\\ud800b<"},"status":{"phase":"New"}}')
op = ('{"spec":{"backupName":"b","backupItemAction":"p<&>\\u0002","resourceIdentifier":{"Group":"",'
      '"Resource":"r&","Namespace":"a\\"b","Name":"%s"},"operationID":"id-%d%s"},"status":{"phase":"InProgress",'
      '"nCompleted":1,"nTotal":10,"created":"2024-05-01T10:00:00Z","started":"2024-05-01T10:00:00Z",'
      '"updated":"2024-05-01T10:30:00Z","error":"<x>&\\u0003"}}')
open(t + ".hops", "w").write("[" + ",".join(op % (long, i, bad) for i in range(3)) + "]")
EOF
for obj in rawbytes surrogate; do
    if "$v" explain -o svg --utc --now 2024-05-01T11:00:30Z --operations "$tmp.hops" "$tmp.$obj" >"$tmp.svg" 2>"$tmp.err"; then
        echo "FAIL refused-$obj: accepted"; fail=1
    elif [ $? -eq 2 ] && [ ! -s "$tmp.svg" ] && grep -q 'invalid JSON: .*(line 1, column [0-9]*, offset [0-9]*)' "$tmp.err"; then
        echo "ok refused-$obj"
    else
        echo "FAIL refused-$obj: $(cat "$tmp.err")"; fail=1
    fi
done
for obj in hostile; do
    if "$v" explain -o svg --utc --now 2024-05-01T11:00:30Z --operations "$tmp.hops" "$tmp.$obj" >"$tmp.svg" &&
        xmllint --noout "$tmp.svg" && "$py" "$check" xml "$tmp.svg" && grep -q 'nnnnnnnnnn' "$tmp.svg"; then
        echo "ok hostile-$obj"
    else
        echo "FAIL hostile-$obj"; fail=1
    fi
done
render hostile
# the escaping itself: markup escaped, invalid bytes and forbidden characters
# as U+FFFD, the emoji kept
"$v" explain -o svg --utc --now 2024-05-01T11:00:30Z --operations "$tmp.hops" "$tmp.hostile" >"$tmp.svg"
grep -q '&lt;&amp;&quot;&apos;&gt;\]\]&gt;' "$tmp.svg" && grep -q 'ns&lt;&amp;' "$tmp.svg" &&
    grep -q '�����😀' "$tmp.svg" && ! grep -q '<x>' "$tmp.svg" &&
    echo "ok hostile-escaping" || { echo "FAIL hostile-escaping"; fail=1; }

# The checker itself: a blank picture and a script are caught.
printf '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#fff"/></svg>' >"$tmp.svg"
rsvg-convert -o "$tmp.png" "$tmp.svg" && ! "$py" "$check" png "$tmp.png" >/dev/null && echo "ok checker-blank" ||
    { echo "FAIL checker-blank: a blank picture passed"; fail=1; }
printf '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' >"$tmp.svg"
! "$py" "$check" xml "$tmp.svg" >/dev/null && echo "ok checker-script" || { echo "FAIL checker-script"; fail=1; }

stderr_has bad-format '-o must be text, json or svg' -- explain -o yaml "$d/timeout-backup.json"
"$v" explain --help | grep -q -- '-o svg' && echo "ok help" || { echo "FAIL help"; fail=1; }

rm -f "$tmp".*
exit $fail
