# Decision area "retry": library sources, its check suite, its CLI command and data.
# lib_libvelstatus_la_SOURCES += lib/retry.c
# VS_CHECK_PROGS += tests/check_retry
# tests_check_retry_SOURCES = tests/check_retry.c $(VS_TEST_COMMON)
# tests_check_retry_CPPFLAGS = $(VS_TEST_CPPFLAGS)
# tests_check_retry_CFLAGS = $(VS_TEST_CFLAGS_ALL)
# tests_check_retry_LDADD = $(VS_TEST_LDADD)
# VS_SH_TESTS += tests/cli-retry.sh
