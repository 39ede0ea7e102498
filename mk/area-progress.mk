# SPDX-License-Identifier: Apache-2.0
# Decision area "progress": its check suites, its CLI command and data.

VS_CHECK_PROGS += tests/check_progress tests/check_describe
tests_check_progress_SOURCES = tests/check_progress.c $(VS_TEST_COMMON)
tests_check_describe_SOURCES = tests/check_describe.c $(VS_TEST_COMMON)

VS_SH_TESTS += tests/cli-progress.sh tests/cli-describe-in.sh
# Edges: per-unit getters past the last group, encoder argument checks.
VS_CHECK_PROGS += tests/check_progress_edges
tests_check_progress_edges_SOURCES = tests/check_progress_edges.c $(VS_TEST_COMMON)
