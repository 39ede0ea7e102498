#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Python binding's tests: build the cffi module into the build tree, then
# run pytest over bindings/python/tests against the srcdir package.
# Exit 77 (SKIP) only when cffi or pytest is missing or under sanitizers (the
# interpreter is not instrumented); CI has both and counts a SKIP as a failure.
set -u
srcdir=${VS_SRCDIR:?}
builddir=${VS_BUILDDIR:?}
py=${PYTHON:-}
if [ "${VS_SANITIZERS:-no}" = yes ]; then
    echo "SKIP: the Python binding is not tested under sanitizers"; exit 77
fi
if [ -z "$py" ]; then echo "SKIP: no PYTHON (configure PYTHON=/usr/bin/python3)"; exit 77; fi
"$py" -c 'import cffi' 2>/dev/null || { echo "SKIP: $py has no cffi (python3-cffi)"; exit 77; }
"$py" -c 'import pytest' 2>/dev/null || { echo "SKIP: $py has no pytest (python3-pytest)"; exit 77; }

out="$builddir/bindings/python"
cdef="$out/velstatus.cdef"
[ -f "$cdef" ] || { echo "FAIL: $cdef missing (make generates it)"; exit 1; }
# Nothing may be written into srcdir (distcheck's is read-only): no bytecode,
# no pytest cache, cffi's temporary files under the build tree.
PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE
"$py" "$srcdir/bindings/python/_build_ffi.py" --cdef "$cdef" --outdir "$out" >"$out/build-ffi.out" 2>&1 || {
    cat "$out/build-ffi.out"; echo "FAIL: building the cffi module"; exit 1; }
PYTHONPATH="$srcdir/bindings/python:$out${PYTHONPATH:+:$PYTHONPATH}"; export PYTHONPATH
# An ini file of our own, so no pytest.ini/pyproject.toml above the tree applies.
printf '[pytest]\n' > "$out/pytest.ini" || exit 1
cd "$out" || exit 1
exec "$py" -m pytest -q -p no:cacheprovider -c "$out/pytest.ini" "$srcdir/bindings/python/tests"
