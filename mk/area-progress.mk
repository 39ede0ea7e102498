# Decision area "progress": library sources, its check suite, its CLI command and data.
# lib_libvelstatus_la_SOURCES += lib/progress.c
# VS_CHECK_PROGS += tests/check_progress
# tests_check_progress_SOURCES = tests/check_progress.c $(VS_TEST_COMMON)
# tests_check_progress_CPPFLAGS = $(VS_TEST_CPPFLAGS)
# tests_check_progress_CFLAGS = $(VS_TEST_CFLAGS_ALL)
# tests_check_progress_LDADD = $(VS_TEST_LDADD)
# VS_SH_TESTS += tests/cli-progress.sh
