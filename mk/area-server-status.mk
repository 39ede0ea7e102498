# SPDX-License-Identifier: Apache-2.0
# Decision area "server-status": library sources, its check suite, its CLI command and data.
lib_libvelstatus_la_SOURCES += lib/server_status.c lib/server_status_private.h lib/bsl_json.c lib/server_status_step.c
VS_CHECK_PROGS += tests/check_server_status
tests_check_server_status_SOURCES = tests/check_server_status.c $(VS_TEST_COMMON)
tests_check_server_status_CPPFLAGS = $(VS_TEST_CPPFLAGS)
tests_check_server_status_CFLAGS = $(VS_TEST_CFLAGS_ALL) -Wno-missing-field-initializers
tests_check_server_status_LDADD = $(VS_TEST_LDADD)
VS_SH_TESTS += tests/cli-server-status.sh
EXTRA_DIST += examples/bsl
# Edges: every publish-retry slot of the step, setter checks, tracker deletes.
VS_CHECK_PROGS += tests/check_server_status_edges
tests_check_server_status_edges_SOURCES = tests/check_server_status_edges.c $(VS_TEST_COMMON)
tests_check_server_status_edges_CPPFLAGS = $(VS_TEST_CPPFLAGS)
tests_check_server_status_edges_CFLAGS = $(VS_TEST_CFLAGS_ALL)
tests_check_server_status_edges_LDADD = $(VS_TEST_LDADD)
