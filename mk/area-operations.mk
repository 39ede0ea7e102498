# Decision area "operations": library sources, its check suite, its CLI command and data.
# lib_libvelstatus_la_SOURCES += lib/operations.c
# VS_CHECK_PROGS += tests/check_operations
# tests_check_operations_SOURCES = tests/check_operations.c $(VS_TEST_COMMON)
# tests_check_operations_CPPFLAGS = $(VS_TEST_CPPFLAGS)
# tests_check_operations_CFLAGS = $(VS_TEST_CFLAGS_ALL)
# tests_check_operations_LDADD = $(VS_TEST_LDADD)
# VS_SH_TESTS += tests/cli-operations.sh
