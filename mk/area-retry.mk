# SPDX-License-Identifier: Apache-2.0
# Decision area "retry": its check suites, its CLI command and data.

VS_CHECK_PROGS += tests/check_retry tests/check_retry_vectors
tests_check_retry_SOURCES = tests/check_retry.c $(VS_TEST_COMMON)

# Reads tests/data/conformance/backoff-vectors.json (the vendored golden vectors).
tests_check_retry_vectors_SOURCES = tests/check_retry_vectors.c $(VS_TEST_COMMON)

VS_SH_TESTS += tests/cli-retry.sh

# Edges: the hardened deadline's clock, failing callbacks, argument checks.
VS_CHECK_PROGS += tests/check_retry_edges
tests_check_retry_edges_SOURCES = tests/check_retry_edges.c $(VS_TEST_COMMON)
