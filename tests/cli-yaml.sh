#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# YAML input (doc/yaml.md): every input the tests hold as JSON, given as YAML
# (as `kubectl get -o yaml` writes it and as people indent it by hand,
# tests/json2yaml.py), gives the same output as its JSON form, for every
# command: each CLI golden run (tests/data/cli-golden: server-status,
# progress, describe-operations, operations reconcile/format, explain), plus
# backup-status over a stream of objects, operations check, and
# server-status --watch over the YAML form of a watch stream. Then the real
# cases kept as YAML (tests/data/yaml, their issue numbers beside them), the
# scalar table against the answers of sigs.k8s.io/yaml, and the errors.
set -u
v=${VELSTATUS:?}
py=${PYTHON:-python3}
top=${VS_SRCDIR:?}
y2j=${VS_BUILDDIR:?}/tests/yaml2json
conv="$top/tests/json2yaml.py"
tmp=${TMPDIR:-/tmp}/vs_yaml.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
command -v "$py" >/dev/null 2>&1 || { echo "no python3"; exit 77; }
TZ=UTC; export TZ
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
n=0

# yamlify STYLE FILE: the YAML of FILE (cached), printed as its path
yamlify() {
    out="$tmp/$(printf '%s' "$2" | sed 's|[/.]|_|g').$1.yaml"
    [ -f "$out" ] || "$py" "$conv" "$1" <"$2" >"$out"
    printf '%s' "$out"
}

# same NAME ARGS...: the command with each *.json argument replaced by its
# YAML (both styles) prints what it prints with the JSON, with the same exit.
same() {
    name=$1; shift
    (cd "$top" && "$v" "$@") >"$tmp/want" 2>/dev/null; want_rc=$?
    for style in kubectl hand; do
        first=1
        for a in "$@"; do
            if [ $first = 1 ]; then set --; first=0; fi
            case $a in
            *.json) if [ -f "$top/$a" ]; then a=$(cd "$top" && yamlify $style "$top/$a"); elif [ -f "$a" ]; then a=$(yamlify $style "$a"); fi ;;
            esac
            set -- "$@" "$a"
        done
        (cd "$top" && "$v" "$@") >"$tmp/got" 2>"$tmp/err"; rc=$?
        # a file name printed is the input's: the same once both are called FILE
        sed 's|[^ ]*\.json|FILE|g' "$tmp/want" >"$tmp/want.n"
        sed 's|[^ ]*\.yaml|FILE|g' "$tmp/got" >"$tmp/got.n"
        if [ "$rc" = "$want_rc" ] && cmp -s "$tmp/got.n" "$tmp/want.n"; then
            n=$((n + 1))
        else
            no "$name ($style): exit $rc (want $want_rc)"; diff "$tmp/want" "$tmp/got" | head -5; cat "$tmp/err"
        fi
        # the next style starts again from the JSON arguments
        set --
        for a in $saved; do set -- "$@" "$a"; done
    done
}

# 1. every CLI golden run (their arguments hold no spaces)
for args in "$top"/tests/data/cli-golden/*.args; do
    saved=$(tr '\n' ' ' <"$args")
    # shellcheck disable=SC2086
    set -- $saved
    same "golden $(basename "$args" .args): $saved" "$@"
done
# 2. what the goldens do not run: operations check, backup-status, explain's examples, reconcile --progress
for f in tests/data/operations/spec-example.json examples/operations/backup-itemoperations.json \
    examples/operations/restore-itemoperations.json tests/data/operations/nul-strings.json; do
    saved="operations check $f"; set -- $saved; same "$saved" "$@"
    saved="operations format $f"; set -- $saved; same "$saved" "$@"
done
saved="backup-status --now 2026-11-30T13:00:00Z tests/data/backup-status/objects.json"; set -- $saved; same "$saved" "$@"
saved="backup-status -o json --now 2026-11-30T13:00:00Z tests/data/backup-status/objects.json"; set -- $saved; same "$saved" "$@"
d=tests/data/explain
saved="explain --utc --now 2025-01-07T09:12:00Z --operations $d/readonly-itemoperations.json --bsls $d/bsls-readonly.json $d/readonly-backup.json"
set -- $saved; same "explain example 2 (velero #8576)" "$@"
saved="explain --utc --now 2023-09-13T09:30:00Z --operations $d/restore-itemoperations.json $d/restore.json"
set -- $saved; same "explain example 3 (velero #6813)" "$@"
saved="explain -o json --utc --now 2024-05-01T11:00:30Z --operations $d/timeout-itemoperations.json $d/timeout-backup.json"
set -- $saved; same "explain example 1 -o json (velero #8454)" "$@"
saved="operations reconcile --kind backup --phase WaitingForPluginOperations --now 2024-05-01T10:30:00Z --progress examples/operations/backup-progress.json examples/operations/backup-itemoperations.json"
set -- $saved; same "reconcile --progress" "$@"
# 3. server-status --watch over `kubectl get -w -o yaml` (documents after ---), with and without --output-watch-events
"$py" "$top/tests/watch-stream.py" record >"$tmp/events.json"
"$py" "$top/tests/watch-stream.py" record --plain >"$tmp/plain.json"
# the recorded streams hold a malformed event on purpose: the YAML gets the well-formed ones
for s in events plain; do
    "$py" - "$tmp/$s.json" <<'EOT'
import json, sys
text, dec, pos, out = open(sys.argv[1]).read(), json.JSONDecoder(), 0, []
while pos < len(text):
    if text[pos] in " \t\r\n":
        pos += 1
        continue
    try:
        v, pos = dec.raw_decode(text, pos)
        out.append(json.dumps(v, indent=4))
    except ValueError:
        pos = text.index("\n{", pos) + 1
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOT
    saved="server-status --watch --now 2026-11-30T13:00:00Z $tmp/$s.json"; set -- $saved; same "watch $s" "$@"
done
[ $n -gt 100 ] && ok "$n YAML runs give the JSON's output" || no "only $n YAML runs"

# 4. the real cases kept as YAML: each beside the JSON it equals
for y in "$top"/tests/data/yaml/*.yaml; do
    j=${y%.yaml}.json
    [ -f "$j" ] || continue
    if "$y2j" <"$y" | "$py" -c 'import json,sys; a=json.load(sys.stdin); b=json.load(open(sys.argv[1])); sys.exit(a!=b)' "$j"; then
        ok "$(basename "$y") is $(basename "$j")"
    else no "$(basename "$y") differs from $(basename "$j")"; fi
done

# 5. scalars: each line of the table is YAML TAB the JSON sigs.k8s.io/yaml v1.3.0 (go-yaml v2.4.0) made of "v: YAML"
bad=0
tab=$(printf '\t')
while IFS= read -r line; do
    case $line in '#'*) continue ;; esac
    yv=${line%%"$tab"*} jv=${line#*"$tab"}
    got=$(printf 'v: %s\n' "$yv" | "$y2j" 2>/dev/null | tr -d '\n')
    [ -n "$got" ] || got=ERROR
    [ "$got" = "$jv" ] || { echo "FAIL scalar '$yv': $got, want $jv"; bad=1; fail=1; }
done <"$top/tests/data/yaml/scalars.tsv"
[ $bad = 0 ] && ok "scalar table ($(grep -vc '^#' "$top/tests/data/yaml/scalars.tsv") values)"

# 6. errors name the YAML line and column; the defined refusals
err() { # err NAME TEXT YAML
    printf '%b' "$3" >"$tmp/e.yaml"
    "$v" server-status "$tmp/e.yaml" >/dev/null 2>"$tmp/err"; rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "$2" "$tmp/err"; then ok "$1"; else no "$1: exit $rc"; cat "$tmp/err"; fi
}
err syntax "YAML: could not find expected ':' (while scanning a simple key at line 4, column 2) (line 5, column 1)" 'a: 1\nb:\n c: 1\n d\n'
err tab "YAML: found character that cannot start any token" 'items:\n\t- a\n'
err duplicate 'YAML: duplicate key "name" in a mapping' 'metadata:\n  name: a\n  name: b\n'
# an empty key twice (a fuzz finding: the arena held no byte yet; tests/data/fuzz-regress)
err duplicate-empty 'YAML: duplicate key "" in a mapping' 'metadata:\n  "": a\n  "": b\n'
err merge "YAML: merge keys (<<) are not supported" 'a: &x {b: 1}\nc:\n  <<: *x\n'
err alias "YAML: the alias *nope names no anchor" 'a: *nope\n'
err inf "YAML: an infinity (.inf) has no JSON form" 'a: .inf\n'
err null-key "YAML: a null mapping key has no JSON form" '~: 1\n'
err tag "YAML: the text does not fit its tag" 'a: !!int abc\n'
err binary "YAML: a !!binary value that is not base64" 'a: !!binary "%%%%"\n'
laughs='a: &a ["x","x","x","x","x","x","x","x","x","x"]\n'
p=a
for l in b c d e f g h i; do
    laughs="$laughs$l: &$l [*$p,*$p,*$p,*$p,*$p,*$p,*$p,*$p,*$p,*$p]\n"
    p=$l
done
err billion-laughs 'refused as a "billion laughs" expansion (line 6, column 11)' "$laughs"
# a schema error in YAML names the YAML line (the JSON keeps the lines)
printf 'apiVersion: v1\nkind: List\nitems:\n- metadata:\n    name: a\n  status:\n    phase: 7\n' >"$tmp/s.yaml"
"$v" server-status "$tmp/s.yaml" 2>&1 | grep -q 'items\[0\].status.phase.*(line 7,' && ok schema-line || { no schema-line; "$v" server-status "$tmp/s.yaml"; }
# anchors and aliases expand; comments, CRLF, a BOM, flow style and block scalars are read
printf '\357\273\277# a comment\r\napiVersion: v1\r\nkind: List\r\nitems:\r\n- {apiVersion: velero.io/v1, kind: BackupStorageLocation, metadata: &m {name: default}, spec: {default: yes}, status: {phase: Available}}\r\n- apiVersion: velero.io/v1\r\n  metadata: {name: second}\r\n  spec:\r\n    default: no\r\n  status:\r\n    phase: Available\r\n    message: |\r\n      two\r\n      lines\r\n' >"$tmp/f.yaml"
[ "$("$v" server-status "$tmp/f.yaml" | head -n 1)" = "Ready: all 2 backup storage locations available; default: default" ] && ok crlf-bom-flow || { no crlf-bom-flow; "$v" server-status "$tmp/f.yaml"; }
# several documents are one list (documents that are lists give their items); empty documents are skipped
printf -- '---\n- {a: 1}\n---\n---\n- {b: 2}\n- {c: 3}\n---\n{d: 4}\n' | "$y2j" | tr -d ' \n' >"$tmp/m"
[ "$(cat "$tmp/m")" = '[{"a":1},{"b":2},{"c":3},{"d":4}]' ] && ok multi-doc-list || no "multi-doc-list: $(cat "$tmp/m")"
printf -- 'a: 1\n---\n~\n---\nb: 2\n' | "$y2j" | tr -d ' \n' >"$tmp/m"
[ "$(cat "$tmp/m")" = '[{"a":1},{"b":2}]' ] && ok multi-doc-objects || no "multi-doc-objects: $(cat "$tmp/m")"
printf -- 'a: 1\n' | "$y2j" | tr -d ' \n' >"$tmp/m"
[ "$(cat "$tmp/m")" = '{"a":1}' ] && ok single-doc || no "single-doc: $(cat "$tmp/m")"
# --max-input bounds a watch's YAML document
printf -- 'a: 1\n---\nb: %0300d\n' 0 | "$v" server-status --watch --max-input 200 >/dev/null 2>"$tmp/err"
grep -q 'a YAML document is larger than --max-input (200 bytes)' "$tmp/err" && ok watch-doc-bound || { no watch-doc-bound; cat "$tmp/err"; }
# gzip'ed YAML
"$py" "$conv" kubectl <"$top/examples/bsl/one-unavailable.json" | gzip -c >"$tmp/b.yaml.gz"
[ "$("$v" server-status "$tmp/b.yaml.gz")" = "$("$v" server-status "$top/examples/bsl/one-unavailable.json")" ] && ok gzip-yaml || no gzip-yaml
exit $fail
