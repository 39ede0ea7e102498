# SPDX-License-Identifier: Apache-2.0
# bindings: the Python (cffi) and Go (cgo) bindings. Each language keeps its
# lines in its own block below.

# The CLI's golden outputs, which the Python and Go tests read instead of
# running a CLI, checked against the built CLI.
VS_SH_TESTS += tests/cli-golden.sh
# C, Python and Go programs outside the trees, built against a DESTDIR install.
VS_SH_TESTS += tests/install-consumers.sh
EXTRA_DIST += tests/consumers
AM_TESTS_ENVIRONMENT += MAKE='$(MAKE)'; export MAKE; VS_ENABLE_GO='$(enable_go)'; export VS_ENABLE_GO;

# python
# A standard Python package (pyproject.toml + setup.py, doc/packaging.md).
# make builds the cffi module into the build tree's bindings/python/velstatus/
# (next to links to the package's sources when building out of tree), so
# PYTHONPATH=$(builddir)/bindings/python imports the built package; make
# install puts the package and the module into $(pythondir).
VS_PY_PKG = \
	bindings/python/velstatus/__init__.py \
	bindings/python/velstatus/_ffi.py \
	bindings/python/velstatus/_errors.py \
	bindings/python/velstatus/_context.py \
	bindings/python/velstatus/_enums.py \
	bindings/python/velstatus/_core.py \
	bindings/python/velstatus/_server_status.py \
	bindings/python/velstatus/_retry.py \
	bindings/python/velstatus/_operations.py \
	bindings/python/velstatus/_reconcile_result.py \
	bindings/python/velstatus/_forecast.py \
	bindings/python/velstatus/_datamover.py \
	bindings/python/velstatus/_progress.py \
	bindings/python/velstatus/_condition.py \
	bindings/python/velstatus/_backup_object.py \
	bindings/python/velstatus/_snapshot.py
VS_PY_FILES = \
	bindings/python/README.md \
	bindings/python/pyproject.toml \
	bindings/python/setup.py \
	bindings/python/_build_ffi.py \
	bindings/python/callbacks.cdef \
	bindings/python/velstatus/py.typed \
	bindings/python/tests/conftest.py \
	bindings/python/tests/test_core.py \
	bindings/python/tests/test_server_status.py \
	bindings/python/tests/test_retry.py \
	bindings/python/tests/test_example.py \
	bindings/python/tests/test_operations.py \
	bindings/python/tests/test_forecast.py \
	bindings/python/tests/test_datamover.py \
	bindings/python/tests/test_condition.py \
	bindings/python/tests/test_backup_object.py \
	bindings/python/tests/test_snapshot.py
EXTRA_DIST += bindings/python/run-tests.sh $(VS_PY_FILES) $(VS_PY_PKG)
# (examples/python/host.py ships with examples/, see examples/local.mk)
if VS_PYTHON
VS_BINDING_TESTS += bindings/python/run-tests.sh
# distcheck's own configure must test with the same interpreter (Debian's
# /usr/bin/python3 has python3-cffi and python3-pytest; a pyenv one may not).
AM_DISTCHECK_CONFIGURE_FLAGS += PYTHON='$(PYTHON)'
VS_PY_MODULE = bindings/python/velstatus/_velstatus_cffi$(VS_PY_EXT_SUFFIX)
velstatuspydir = $(pythondir)/velstatus
velstatuspy_PYTHON = $(VS_PY_PKG)
velstatuspy_DATA = bindings/python/velstatus/py.typed
nodist_velstatuspy_DATA = $(VS_PY_MODULE)
$(VS_PY_MODULE): bindings/python/_build_ffi.py bindings/python/callbacks.cdef $(include_HEADERS) \
	  $(velstatusinc_HEADERS) $(nodist_velstatusinc_HEADERS) lib/libvelstatus.la
	$(AM_V_GEN)$(MKDIR_P) bindings/python/velstatus && PKG_CONFIG_PATH='$(abs_top_builddir)/pkgconfig' PKG_CONFIG='$(PKG_CONFIG)' CPP='$(CPP)' \
	  PYTHONDONTWRITEBYTECODE=1 $(PYTHON) $(srcdir)/bindings/python/_build_ffi.py --outdir bindings/python \
	  >bindings/python/build-ffi.out 2>&1 || { cat bindings/python/build-ffi.out; exit 1; }
# Out of tree, the build tree's package directory links to the sources.
all-local: all-local-python
all-local-python: $(VS_PY_MODULE)
	@if test '$(abs_srcdir)' != '$(abs_builddir)'; then \
	  for f in $(VS_PY_PKG) bindings/python/velstatus/py.typed; do \
	    ln -sf '$(abs_srcdir)'/$$f $$f || exit 1; done; fi
bindings/python/run-tests.log: $(VS_PY_MODULE) $(VS_PY_FILES) $(VS_PY_PKG) examples/python/host.py
endif
clean-local: clean-python
clean-python:
	-rm -rf bindings/python/_cffi_tmp bindings/python/velstatus/_velstatus_cffi.* bindings/python/build-ffi.out \
	  bindings/python/pytest.ini
	-if test '$(abs_srcdir)' != '$(abs_builddir)'; then rm -rf bindings/python/velstatus; fi
# end python

# go
# The cgo binding (doc/conventions.md §8) and the Go example host. run-tests.sh
# writes only under $(builddir)/bindings/go/_build.
# The module source (no tests) is what make install puts under
# $(datadir)/gocode/src/<module path>, as Debian's golang-*-dev packages lay
# it out (doc/go.md: the module path and the go.mod lines a consumer writes).
VS_GO_MODULE_PATH = libvelstatus.invalid/velstatus
VS_GO_SOURCES = \
	bindings/go/go.mod \
	bindings/go/velstatus.go \
	bindings/go/callbacks.go \
	bindings/go/shim.c \
	bindings/go/serverstatus.go \
	bindings/go/backupobject.go \
	bindings/go/retry.go \
	bindings/go/operations.go \
	bindings/go/forecast.go \
	bindings/go/datamover.go \
	bindings/go/reports.go \
	bindings/go/progress.go \
	bindings/go/handle.go \
	bindings/go/phase.go \
	bindings/go/policy.go \
	bindings/go/timefmt.go \
	bindings/go/condition.go
VS_GO_DIST_FILES = $(VS_GO_SOURCES) \
	bindings/go/golden_test.go \
	bindings/go/serverstatus_test.go \
	bindings/go/retry_test.go \
	bindings/go/operations_test.go \
	bindings/go/forecast_test.go \
	bindings/go/datamover_test.go \
	bindings/go/progress_test.go \
	bindings/go/core_test.go \
	bindings/go/example_test.go \
	bindings/go/backupobject_test.go \
	bindings/go/condition_test.go
EXTRA_DIST += bindings/go/run-tests.sh $(VS_GO_DIST_FILES)
if VS_GO
VS_BINDING_TESTS += bindings/go/run-tests.sh
gocodedir = $(datadir)/gocode/src/$(VS_GO_MODULE_PATH)
dist_gocode_DATA = $(VS_GO_SOURCES)
endif
# (examples/go ships with examples/, see examples/local.mk)
bindings/go/run-tests.log: $(VS_GO_DIST_FILES) examples/go/go.mod examples/go/main.go lib/libvelstatus.la
clean-local: clean-local-go
clean-local-go:
	-chmod -R u+w bindings/go/_build 2>/dev/null; rm -rf bindings/go/_build
.PHONY: clean-local-go
# end go
