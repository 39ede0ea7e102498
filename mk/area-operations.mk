# SPDX-License-Identifier: Apache-2.0
# Decision area "operations": its check suite, its CLI command and data.
VS_CHECK_PROGS += tests/check_operations tests/check_operations_machine
tests_check_operations_SOURCES = tests/check_operations.c $(VS_TEST_COMMON)
tests_check_operations_machine_SOURCES = tests/check_operations_machine.c $(VS_TEST_COMMON)
VS_SH_TESTS += tests/cli-operations.sh
EXTRA_DIST += examples/operations
# Edges: Go's %q in lookup errors, newer report structs, bad arguments, OOM.
VS_CHECK_PROGS += tests/check_operations_edges
tests_check_operations_edges_SOURCES = tests/check_operations_edges.c $(VS_TEST_COMMON)
# Edges of the itemoperations/reports decoders and the encoder.
VS_CHECK_PROGS += tests/check_ops_json_edges
tests_check_ops_json_edges_SOURCES = tests/check_ops_json_edges.c $(VS_TEST_COMMON)
# The streaming decoder against the one-shot decode; its OOM paths; the kind taken from the text.
VS_CHECK_PROGS += tests/check_decoder
tests_check_decoder_SOURCES = tests/check_decoder.c $(VS_TEST_COMMON)
