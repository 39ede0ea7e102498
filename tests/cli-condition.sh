#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# server-status -o condition (a metav1.Condition: the status mapping, the
# reason and its pattern, lastTransitionTime from --now, in watch mode one
# per change) and -o prometheus (parsed by python3-prometheus-client's
# parser: families, HELP/TYPE, values, label escaping).
set -u
v=${VELSTATUS:?}
py=${PYTHON:-python3}
ex=${VS_SRCDIR:?}/examples/bsl
tmp=${TMPDIR:-/tmp}/vs_cond.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1"; fail=1; }
now=2026-11-30T13:00:00Z
cond() { # cond FILE STATUS REASON
    out=$("$v" server-status -o condition --now "$now" "$1") || { no "condition $1: exit $?"; return; }
    "$py" - "$out" "$2" "$3" "$now" "$("$v" server-status -o json "$1")" <<'EOT' && ok "condition $(basename "$1")" || no "condition $1: $out"
import json, re, sys
c = json.loads(sys.argv[1]); verdict = json.loads(sys.argv[5])
assert list(c) == ["type", "status", "lastTransitionTime", "reason", "message"], list(c)
assert c["type"] == "Ready" and c["status"] == sys.argv[2] and c["reason"] == sys.argv[3], c
assert re.fullmatch(r"[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?", c["reason"])
assert c["lastTransitionTime"] == sys.argv[4] and c["message"] == verdict["message"]
EOT
}
cond "$ex/all-available.json" True AllLocationsAvailable
cond "$ex/one-unavailable.json" True SomeLocationsUnavailable
cond "$ex/no-default.json" True NoDefaultLocation
cond "$ex/two-defaults.json" True MultipleDefaultLocations
cond "$ex/empty.json" Unknown NoLocations
cond "$ex/not-yet-validated.json" Unknown LocationsPending
printf '{"items":[{"metadata":{"name":"a"},"status":{"phase":"Unavailable"}}]}' > "$tmp/down.json"
cond "$tmp/down.json" False AllLocationsUnavailable

# Watch mode: one condition per change.
"$py" "$VS_SRCDIR/tests/watch-stream.py" record > "$tmp/events.json"
"$v" server-status --watch -o condition --now "$now" "$tmp/events.json" > "$tmp/c" 2>/dev/null; rc=$?
[ "$rc" = 3 ] && [ "$("$py" -c 'import json,sys; print(" ".join(json.loads(l)["status"] + "/" + json.loads(l)["reason"] for l in open(sys.argv[1])))' "$tmp/c")" = \
  "True/AllLocationsAvailable True/SomeLocationsUnavailable False/AllLocationsUnavailable True/AllLocationsAvailable" ] &&
    ok watch-condition || { no "watch-condition: exit $rc"; cat "$tmp/c"; }

# Prometheus: the real parser reads it; values and labels as the verdict says.
if "$py" -c 'import prometheus_client.parser' 2>/dev/null; then
    printf '{"items":[{"metadata":{"name":"default"},"spec":{"default":true},"status":{"phase":"Available"}},{"metadata":{"name":"we\\"ird\\\\one"},"status":{"phase":"Unavailable"}},{"metadata":{"name":"new"}}]}' > "$tmp/mix.json"
    for f in "$ex/one-unavailable.json" "$ex/empty.json" "$tmp/mix.json"; do
        "$v" server-status -o prometheus "$f" > "$tmp/prom" || { no "prometheus $f: exit"; continue; }
        "$py" - "$tmp/prom" "$("$v" server-status -o json "$f")" "$f" <<'EOT' && ok "prometheus $(basename "$f")" || { no "prometheus $f"; cat "$tmp/prom"; }
import json, sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1]).read(); v = json.loads(sys.argv[2]); src = json.load(open(sys.argv[3]))
fam = {f.name: f for f in text_string_to_metric_families(text)}
assert set(fam) == {"velstatus_server_status", "velstatus_server_reason", "velstatus_backup_locations",
                    "velstatus_backup_location_available"}, set(fam)
for f in fam.values():
    assert f.type == "gauge" and f.documentation, f
    assert "# HELP %s " % f.name in text and "# TYPE %s gauge" % f.name in text
st = {s.labels["status"]: s.value for s in fam["velstatus_server_status"].samples}
assert st == {k: float(k == v["status"]) for k in ("Ready", "PartiallyReady", "Waiting", "NotReady")}, st
rs = {s.labels["reason"]: s.value for s in fam["velstatus_server_reason"].samples}
assert len(rs) == 12 and {k for k, x in rs.items() if x == 1} == set(v["reasons"]), rs
for f in fam.values():
    for s in f.samples:
        assert s.labels["namespace"] == v["namespace"], s
ph = {s.labels["phase"]: s.value for s in fam["velstatus_backup_locations"].samples}
assert ph == {"Available": v["counts"]["available"], "Unavailable": v["counts"]["unavailable"],
              "Pending": v["counts"]["pending"]}, ph
items = src["items"] if isinstance(src, dict) else src
want = {i["metadata"]["name"]: float((i.get("status") or {}).get("phase") == "Available") for i in items}
got = {s.labels["backup_location_name"]: s.value for s in fam["velstatus_backup_location_available"].samples}
assert got == want, (got, want)
EOT
    done
else
    echo "skip prometheus: python3-prometheus-client is not installed (scripts/deps.sh installs it)"
fi
# Two namespaces (kubectl get bsl -A -o json): one series set per namespace, each as its own verdict.
if "$py" -c 'import prometheus_client.parser' 2>/dev/null; then
    printf '{"kind":"List","items":[{"metadata":{"name":"default","namespace":"openshift-adp"},"spec":{"default":true},"status":{"phase":"Available"}},{"metadata":{"name":"default","namespace":"velero"},"spec":{"default":true},"status":{"phase":"Unavailable"}}]}' > "$tmp/two-ns.json"
    "$v" server-status -o prometheus "$tmp/two-ns.json" > "$tmp/prom" || no "prometheus two-ns: exit"
    "$py" - "$tmp/prom" <<'EOT' && ok prometheus-two-namespaces || { no prometheus-two-namespaces; cat "$tmp/prom"; }
import sys
from prometheus_client.parser import text_string_to_metric_families
fam = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
st = {(s.labels["namespace"], s.labels["status"]) for s in fam["velstatus_server_status"].samples if s.value == 1}
assert st == {("openshift-adp", "Ready"), ("velero", "NotReady")}, st
av = {(s.labels["namespace"], s.labels["backup_location_name"]): s.value for s in fam["velstatus_backup_location_available"].samples}
assert av == {("openshift-adp", "default"): 1.0, ("velero", "default"): 0.0}, av
EOT
    out=$("$v" server-status -A -o condition --now "$now" "$tmp/two-ns.json")
    "$py" - "$out" <<'EOT' && ok condition-two-namespaces || no "condition-two-namespaces: $out"
import json, sys
c = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [(x["namespace"], x["status"]) for x in c] == [("openshift-adp", "True"), ("velero", "False")], c
EOT
fi
"$v" server-status --watch -o prometheus "$tmp/events.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'not with --watch' "$tmp/err" && ok prometheus-not-watch || no prometheus-not-watch
exit "$fail"
