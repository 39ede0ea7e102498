#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Python binding's tests, run as a user runs them: `python3 -m pytest
# bindings/python/tests` with the package make built into the build tree
# ($(builddir)/bindings/python/velstatus: the module and links to the sources)
# on PYTHONPATH. The tests read their data from the source tree and compare
# with the CLI through golden files (tests/data/cli-golden), so nothing else
# is needed. Exit 77 (SKIP) only when pytest is missing; CI has it and counts
# a SKIP as a failure.
set -u
srcdir=${VS_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${VS_BUILDDIR:-$(pwd)}
py=${PYTHON:-python3}
"$py" -c 'import pytest' 2>/dev/null || { echo "SKIP: $py has no pytest (python3-pytest)"; exit 77; }
out="$builddir/bindings/python"
ls "$out"/velstatus/_velstatus_cffi*.so >/dev/null 2>&1 || { echo "FAIL: no built module in $out/velstatus (run make)"; exit 1; }
# Nothing may be written into srcdir (distcheck's is read-only): no bytecode,
# no pytest cache.
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
PYTHONPATH="$out${PYTHONPATH:+:$PYTHONPATH}"; export PYTHONPATH
# An ini file of our own, so no pytest.ini/pyproject.toml above the tree applies.
printf '[pytest]\n' > "$out/pytest.ini" || exit 1
cd "$out" || exit 1
exec "$py" -m pytest -q -p no:cacheprovider -c "$out/pytest.ini" "$srcdir/bindings/python/tests"
