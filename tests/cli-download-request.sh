#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# velstatus download-request: the DownloadRequest Velero's CLI creates for an
# itemoperations file (pkg/cmd/util/downloadrequest/downloadrequest.go):
# apiVersion velero.io/v1, name NAME-<uuid v4> (or --name), spec.target kind
# BackupItemOperations / RestoreItemOperations; the YAML reads back (through
# the tool's own YAML reader) as the -o json text; usage errors.
set -u
v=${VELSTATUS:?}
y2j=${VS_BUILDDIR:?}/tests/yaml2json
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
want='apiVersion: velero.io/v1
kind: DownloadRequest
metadata:
  name: nightly-fetch
  namespace: oadp
spec:
  target:
    kind: BackupItemOperations
    name: nightly-20240501'
[ "$("$v" download-request backup nightly-20240501 -n oadp --name nightly-fetch)" = "$want" ] && ok yaml || no yaml
[ "$("$v" download-request restore r1 --name q -o json)" = \
  '{"apiVersion":"velero.io/v1","kind":"DownloadRequest","metadata":{"name":"q","namespace":"velero"},"spec":{"target":{"kind":"RestoreItemOperations","name":"r1"}}}' ] &&
    ok json || no json
# the YAML is the JSON (names that would read as numbers or booleans are quoted)
for n in nightly 0777 yes 1e3; do
    a=$("$v" download-request backup "$n" --name "$n" | "$y2j" | tr -d ' \n')
    b=$("$v" download-request backup "$n" --name "$n" -o json)
    [ "$a" = "$b" ] && ok "yaml-is-json $n" || no "yaml-is-json $n: $a"
done
# without --name: NAME-<random v4 UUID>, as Velero names it; two runs differ
a=$("$v" download-request backup nightly | sed -n 's/^  name: //p')
b=$("$v" download-request backup nightly | sed -n 's/^  name: //p')
echo "$a" | grep -Eq '^nightly-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' && [ "$a" != "$b" ] &&
    ok random-name || no "random-name: $a $b"
bad() { # bad NAME TEXT ARGS...
    name=$1 text=$2; shift 2
    "$v" download-request "$@" >/dev/null 2>/tmp/vs_dr.$$; rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "$text" /tmp/vs_dr.$$; then ok "$name"; else no "$name: exit $rc"; cat /tmp/vs_dr.$$; fi
    rm -f /tmp/vs_dr.$$
}
bad kind 'usage: velstatus download-request' schedule x
bad missing 'usage: velstatus download-request' backup
bad upper 'NAME must be a Kubernetes object name' backup Nightly
bad ns '--namespace must be a Kubernetes namespace name' backup x -n 'a b'
bad output '-o must be yaml or json' backup x -o text
"$v" download-request --help | grep -q 'kubectl create -f -' && ok help-recipe || no help-recipe
exit $fail
