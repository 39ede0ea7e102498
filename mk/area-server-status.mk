# SPDX-License-Identifier: Apache-2.0
# Decision area "server-status": its check suite, its CLI command and data.
VS_CHECK_PROGS += tests/check_server_status
tests_check_server_status_SOURCES = tests/check_server_status.c $(VS_TEST_COMMON)
tests_check_server_status_CFLAGS = $(AM_CFLAGS) -Wno-missing-field-initializers
VS_SH_TESTS += tests/cli-server-status.sh tests/cli-watch.sh tests/cli-condition.sh
# The watch under faults (issue 24): relist, ERROR, a cut stream, garbage, a burst.
VS_SH_TESTS += tests/cli-watch-faults.sh
EXTRA_DIST += tests/watch-stream.py
EXTRA_DIST += examples/bsl
# Edges: every publish-retry slot of the step, setter checks, tracker deletes.
VS_CHECK_PROGS += tests/check_server_status_edges
tests_check_server_status_edges_SOURCES = tests/check_server_status_edges.c $(VS_TEST_COMMON)

# The watch-stream splitter of server-status --watch (tools/watch_stream.c).
VS_CHECK_PROGS += tests/check_watch_stream
tests_check_watch_stream_SOURCES = tests/check_watch_stream.c tools/watch_stream.c tools/watch_stream.h $(VS_TEST_COMMON)
tests_check_watch_stream_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools

# The verdict as a metav1.Condition (lib/server_status/condition.c).
VS_CHECK_PROGS += tests/check_condition
tests_check_condition_SOURCES = tests/check_condition.c $(VS_TEST_COMMON)

# BSLs by namespace, the locations table's fields and never_validated.
VS_CHECK_PROGS += tests/check_server_status_ns
tests_check_server_status_ns_SOURCES = tests/check_server_status_ns.c $(VS_TEST_COMMON)
