# SPDX-License-Identifier: Apache-2.0
# Tests: one check binary per area (TAP through automake's tap-driver) and
# shell tests (exit status: 0 pass, 77 skip, else fail).
#
# The flags every check program shares are the defaults (AM_CPPFLAGS,
# AM_CFLAGS, LDADD), so a check program needs only its _SOURCES line. Every
# lib/, tools/, bench/ and fuzz/ target sets its own _CPPFLAGS/_CFLAGS/_LDADD,
# which automake uses instead of these defaults.
VS_TEST_COMMON = tests/harness.c tests/harness.h tests/failalloc.c tests/failalloc.h tests/fake_host.c tests/fake_host.h
AM_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib -I$(top_srcdir)/util -I$(top_srcdir)/tests
AM_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS) $(CHECK_CFLAGS)
LDADD = lib/libvelstatus.la $(CHECK_LIBS) $(JANSSON_LIBS)

VS_CHECK_PROGS = tests/check_core tests/check_time tests/check_time_range tests/check_phase tests/check_abi tests/check_util tests/check_go_quote

tests_check_core_SOURCES = tests/check_core.c $(VS_TEST_COMMON)

tests_check_time_SOURCES = tests/check_time.c $(VS_TEST_COMMON)

tests_check_time_range_SOURCES = tests/check_time_range.c $(VS_TEST_COMMON)

tests_check_phase_SOURCES = tests/check_phase.c $(VS_TEST_COMMON)

tests_check_abi_SOURCES = tests/check_abi.c $(VS_TEST_COMMON)

tests_check_util_SOURCES = tests/check_util.c $(VS_TEST_COMMON)

tests_check_go_quote_SOURCES = tests/check_go_quote.c $(VS_TEST_COMMON)

VS_SH_TESTS += tests/function-length.sh
VS_SH_TESTS += tests/headertest.sh tests/check-symbols.sh tests/pkgconfig.sh tests/cli-core.sh tests/cli-conventions.sh tests/cli-backup-status.sh
# Release hygiene: license lines, and no reference to files outside the tree.
VS_SH_TESTS += tests/spdx.sh tests/private-refs.sh tests/layers.sh tests/tools-public-api.sh tests/comment-refs.sh
EXTRA_DIST += tests/comment-refs.py tests/comment-refs.allow
# The one formatting dialect (.clang-format; `make format` rewrites).
VS_SH_TESTS += tests/format.sh

TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(SHELL) $(top_srcdir)/build-aux/test-driver
AM_TESTS_ENVIRONMENT = \
	VS_TEST_DATA='$(abs_top_srcdir)/tests/data'; export VS_TEST_DATA; \
	VS_SRCDIR='$(abs_top_srcdir)'; export VS_SRCDIR; \
	VS_BUILDDIR='$(abs_top_builddir)'; export VS_BUILDDIR; \
	VELSTATUS='$(abs_top_builddir)/tools/velstatus'; export VELSTATUS; \
	PKG_CONFIG_PATH='$(abs_top_builddir)/pkgconfig'; export PKG_CONFIG_PATH; \
	PKG_CONFIG='$(PKG_CONFIG)'; export PKG_CONFIG; \
	CC='$(CC)'; export CC; VS_CFLAGS='$(CFLAGS) $(VS_SAN_FLAGS)'; export VS_CFLAGS; VS_LDFLAGS='$(LDFLAGS) $(VS_INSTR_LDFLAGS)'; export VS_LDFLAGS; CXX='$(CXX)'; export CXX; NM='$(NM)'; export NM; \
	PYTHON='$(PYTHON)'; export PYTHON; GO='$(GO)'; export GO; \
	DOXYGEN='$(DOXYGEN)'; export DOXYGEN; \
	VS_SANITIZERS='$(enable_sanitizers)'; export VS_SANITIZERS; \
	VS_DOCS='$(enable_docs)'; export VS_DOCS; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1; export ASAN_OPTIONS; \
	UBSAN_OPTIONS=print_stacktrace=1; export UBSAN_OPTIONS;

@VALGRIND_CHECK_RULES@
VALGRIND_SUPPRESSIONS_FILES = $(top_srcdir)/tests/valgrind.supp
VALGRIND_FLAGS = --leak-check=full --errors-for-leak-kinds=definite,indirect --track-origins=yes \
	--error-exitcode=1 --show-leak-kinds=definite,indirect
EXTRA_DIST += tests/data tests/valgrind.supp tests/cli-lib.sh $(VS_SH_TESTS)

# 8 worker threads and 2 readers at once (scripts/ci-tsan.sh runs it under TSan).
VS_CHECK_PROGS += tests/check_threads
tests_check_threads_SOURCES = tests/check_threads.c $(VS_TEST_COMMON)
tests_check_threads_CFLAGS = $(AM_CFLAGS) -pthread
tests_check_threads_LDADD = $(LDADD) -lpthread

# Edges of the shared modules (argument checks, overflow guards, OOM paths).
VS_CHECK_PROGS += tests/check_core_edges
tests_check_core_edges_SOURCES = tests/check_core_edges.c $(VS_TEST_COMMON)

# The decoders of untrusted JSON: the scanner and the issue-10 regressions.
VS_CHECK_PROGS += tests/check_json_decode
VS_SH_TESTS += tests/cli-json-decode.sh
tests_check_json_decode_SOURCES = tests/check_json_decode.c $(VS_TEST_COMMON)
# YAML input (doc/yaml.md): tests/yaml2json runs the tool's converter alone.
check_PROGRAMS += tests/yaml2json
tests_yaml2json_SOURCES = tests/yaml2json.c tools/yaml_json.h tools/yaml_json.c tools/yaml_scalar.c
tests_yaml2json_CPPFLAGS = -I$(top_srcdir)/tools
tests_yaml2json_CFLAGS = $(VS_TEST_CFLAGS) $(YAML_CFLAGS)
tests_yaml2json_LDADD = $(YAML_LIBS) -lm
VS_SH_TESTS += tests/cli-yaml.sh tests/cli-download-request.sh
EXTRA_DIST += tests/json2yaml.py

# The CLI's memory bound, measured with getrusage (tests/peak_rss runs a command and reports its peak RSS).
check_PROGRAMS += tests/peak_rss
tests_peak_rss_SOURCES = tests/peak_rss.c
# It measures another process and links nothing of the library.
tests_peak_rss_LDADD =
# A measurement: not part of VS_CORE_TESTS, which the sanitizer build runs
# (ASan's shadow memory would make the figure meaningless there).
VS_MEASURE_TESTS += tests/cli-memory.sh
# Issue 24: the kind taken from the text costs linear work (an instruction
# ratio of N and 4N records under valgrind); a measurement too.
VS_MEASURE_TESTS += tests/cli-kind-linear.sh
VS_CHECK_PROGS += tests/check_json_oom
tests_check_json_oom_SOURCES = tests/check_json_oom.c $(VS_TEST_COMMON)

# Argo CD's health of Backups and Restores (lib/phase/argo_health.c).
VS_CHECK_PROGS += tests/check_argo_health
tests_check_argo_health_SOURCES = tests/check_argo_health.c $(VS_TEST_COMMON)
VS_CHECK_PROGS += tests/check_backup_object
tests_check_backup_object_SOURCES = tests/check_backup_object.c $(VS_TEST_COMMON)
VS_CHECK_PROGS += tests/check_datamover
tests_check_datamover_SOURCES = tests/check_datamover.c $(VS_TEST_COMMON)

# CSI snapshots without the data mover (lib/snapshot/): the VolumeSnapshot
# and VolumeSnapshotContent decoder, the plugin's answers per release, its client.
VS_CHECK_PROGS += tests/check_snapshot
tests_check_snapshot_SOURCES = tests/check_snapshot.c $(VS_TEST_COMMON)

# Velero releases 1.11 to 1.18: the per-release presets, the operations
# controllers' tests of each release tag as data, every release's files.
VS_CHECK_PROGS += tests/check_releases
tests_check_releases_SOURCES = tests/check_releases.c $(VS_TEST_COMMON)
VS_SH_TESTS += tests/cli-releases.sh
