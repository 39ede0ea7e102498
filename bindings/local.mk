# SPDX-License-Identifier: Apache-2.0
# bindings: the Python (cffi) and Go (cgo) bindings. Each language keeps its
# lines in its own block below.

# python
# The cffi cdef is the preprocessed umbrella header, generated here into the
# build tree (never hand-copied); bindings/python/run-tests.sh compiles the
# extension module next to it and runs pytest over the srcdir package.
VS_BINDING_TESTS += bindings/python/run-tests.sh
# distcheck's own configure must test with the same interpreter (Debian's
# /usr/bin/python3 has python3-cffi and python3-pytest; a pyenv one may not).
AM_DISTCHECK_CONFIGURE_FLAGS += PYTHON='$(PYTHON)'
VS_PY_CDEF = bindings/python/velstatus.cdef
$(VS_PY_CDEF): $(include_HEADERS) $(velstatusinc_HEADERS) $(nodist_velstatusinc_HEADERS)
	$(AM_V_GEN)$(MKDIR_P) bindings/python && \
	$(CPP) -P -DVELSTATUS_CDEF -I$(top_srcdir)/include -I$(top_builddir)/include \
	  $(top_srcdir)/include/velstatus.h > $@.tmp && mv $@.tmp $@
VS_PY_FILES = \
	bindings/python/README.md \
	bindings/python/_build_ffi.py \
	bindings/python/callbacks.cdef \
	bindings/python/velstatus/__init__.py \
	bindings/python/velstatus/_ffi.py \
	bindings/python/velstatus/_errors.py \
	bindings/python/velstatus/_context.py \
	bindings/python/velstatus/_enums.py \
	bindings/python/velstatus/_core.py \
	bindings/python/velstatus/_server_status.py \
	bindings/python/velstatus/_retry.py \
	bindings/python/velstatus/_operations.py \
	bindings/python/velstatus/_progress.py \
	bindings/python/tests/conftest.py \
	bindings/python/tests/test_core.py \
	bindings/python/tests/test_server_status.py \
	bindings/python/tests/test_retry.py \
	bindings/python/tests/test_example.py \
	bindings/python/tests/test_operations.py
EXTRA_DIST += bindings/python/run-tests.sh $(VS_PY_FILES)
# (examples/python/host.py ships with examples/, see examples/local.mk)
bindings/python/run-tests.log: $(VS_PY_CDEF) $(VS_PY_FILES) examples/python/host.py lib/libvelstatus.la \
	  tools/velstatus$(EXEEXT)
clean-local: clean-python
clean-python:
	-rm -rf bindings/python/_cffi_tmp bindings/python/_velstatus_cffi.* bindings/python/velstatus.cdef \
	  bindings/python/velstatus.cdef.tmp bindings/python/build-ffi.out bindings/python/pytest.ini
# end python

# go
# The cgo binding (doc/conventions.md §8) and the Go example host. run-tests.sh
# writes only under $(builddir)/bindings/go/_build.
VS_BINDING_TESTS += bindings/go/run-tests.sh
VS_GO_DIST_FILES = \
	bindings/go/go.mod \
	bindings/go/velstatus.go \
	bindings/go/callbacks.go \
	bindings/go/shim.c \
	bindings/go/serverstatus.go \
	bindings/go/serverstatus_test.go \
	bindings/go/retry.go \
	bindings/go/retry_test.go \
	bindings/go/operations.go \
	bindings/go/operations_test.go \
	bindings/go/reports.go \
	bindings/go/progress.go \
	bindings/go/progress_test.go \
	bindings/go/handle.go \
	bindings/go/phase.go \
	bindings/go/policy.go \
	bindings/go/timefmt.go \
	bindings/go/core_test.go \
	bindings/go/example_test.go
EXTRA_DIST += bindings/go/run-tests.sh $(VS_GO_DIST_FILES)
# (examples/go ships with examples/, see examples/local.mk)
bindings/go/run-tests.log: $(VS_GO_DIST_FILES) examples/go/go.mod examples/go/main.go lib/libvelstatus.la \
	  tools/velstatus$(EXEEXT)
clean-local: clean-local-go
clean-local-go:
	-chmod -R u+w bindings/go/_build 2>/dev/null; rm -rf bindings/go/_build
.PHONY: clean-local-go
# end go
