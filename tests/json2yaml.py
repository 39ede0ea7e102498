#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes JSON as the YAML users paste, for tests/cli-yaml.sh (json module only).

  json2yaml.py kubectl < JSON   as `kubectl get -o yaml` writes it (go-yaml v2's
                                Marshal under sigs.k8s.io/yaml: keys sorted, two
                                spaces, sequences not indented under their key,
                                double quotes only where a plain scalar would
                                read as something else)
  json2yaml.py hand < JSON      as people indent it by hand: keys in their order,
                                four spaces, indented sequences, single quotes,
                                short lists in flow style, comments, CRLF lines

Several JSON values in a row (a watch stream, one object per line) become a
stream of documents separated by `---`, as `kubectl get -w -o yaml` writes them.
"""
import json
import re
import sys

# What a plain scalar would resolve to other than a string (go-yaml v2, YAML 1.1).
NOT_STRING = re.compile(r"""^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    |~|null|Null|NULL|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|<<
    |[-+]?[0-9_][0-9a-fA-FxXoObB_]*|[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?
    |[0-9]{4}-.*)$""", re.X)
SAFE = re.compile(r"^[^-?:,\[\]{}#&*!|>'\"%@` \t][^\t\n\r]*$")


def plain_ok(s):
    return (s != "" and SAFE.match(s) and not NOT_STRING.match(s) and ": " not in s and " #" not in s
            and not s.endswith(" ") and not s.endswith(":") and all(0x20 <= ord(c) < 0x7f for c in s))


def scalar(v, hand):
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if plain_ok(v):
        return v
    if hand and "\n" not in v and all(0x20 <= ord(c) < 0x7f for c in v):
        return "'" + v.replace("'", "''") + "'"
    return json.dumps(v)  # a JSON string is a YAML double-quoted scalar


def emit(v, ind, hand, out, lead):
    """Writes v; lead is the text that precedes it on its first line ("key:" or "-")."""
    step = 4 if hand else 2
    if isinstance(v, dict) and v:
        keys = list(v) if hand else sorted(v)
        for i, k in enumerate(keys):
            key = scalar(k, hand)
            first = lead + " " if (i == 0 and lead.endswith("-")) else None
            prefix = first if first is not None else " " * ind
            child = v[k]
            if isinstance(child, (dict, list)) and child and not (hand and flow_ok(child)):
                out.append(prefix + key + ":")
                sub = ind + step if isinstance(child, dict) or hand else ind
                emit(child, sub, hand, out, "")
            else:
                out.append(prefix + key + ": " + inline(child, hand))
        return
    if isinstance(v, list) and v:
        for e in v:
            dash = " " * ind + "-"
            if isinstance(e, (dict, list)) and e and not (hand and flow_ok(e)):
                if isinstance(e, dict):
                    emit(e, ind + 2, hand, out, dash)
                else:
                    out.append(dash)
                    emit(e, ind + 2, hand, out, "")
            else:
                out.append(dash + " " + inline(e, hand))
        return
    out.append(" " * ind + inline(v, hand))


def flow_ok(v):
    return isinstance(v, list) and 0 < len(v) <= 4 and all(isinstance(e, str) and plain_ok(e) for e in v)


def inline(v, hand):
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[" + ", ".join(scalar(e, hand) for e in v) + "]" if v else "[]"
    return scalar(v, hand)


def main():
    style = sys.argv[1]
    text = sys.stdin.read()
    dec, pos, docs = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos == len(text):
            break
        v, pos = dec.raw_decode(text, pos)
        docs.append(v)
    hand = style == "hand"
    lines = ["# pasted by hand"] if hand else []
    for i, d in enumerate(docs):
        if i or hand:
            lines.append("---")
        if isinstance(d, (dict, list)) and d:
            emit(d, 0, hand, lines, "")
        else:
            lines.append(inline(d, hand))
    nl = "\r\n" if hand else "\n"
    sys.stdout.write(nl.join(lines) + nl)


main()
