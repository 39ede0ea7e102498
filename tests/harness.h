/* SPDX-License-Identifier: Apache-2.0 */
/* Shared main() for the check suites: TAP on stdout, CK_NOFORK under valgrind. */
#ifndef VS_TEST_HARNESS_H
#define VS_TEST_HARNESS_H
#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <velstatus.h>

/* Each check_<area>.c defines this. */
Suite *velstatus_test_suite(void);

/* A context with the default allocator; aborts the test if it cannot be made. */
/* The presets as values, for tests: each fills a struct of this library's
 * size with the one public way (velstatus_policy_init(),
 * velstatus_backoff_init_preset(), velstatus_retry_schedule_init()) and
 * returns it; a failure fails the test. */
velstatus_policy vs_policy(velstatus_preset preset);
velstatus_backoff vs_backoff(velstatus_backoff_kind kind, int64_t cap_ns);
velstatus_retry_schedule vs_schedule(void);

velstatus_ctx *vs_test_ctx(void);
/* The context of each test of a suite whose fixture is vs_test_ctx_setup /
 * vs_test_ctx_teardown (tcase_add_checked_fixture). */
extern velstatus_ctx *vs_tctx;
void vs_test_ctx_setup(void);
void vs_test_ctx_teardown(void);
/* An RFC 3339 text in ns since the epoch (the test fails on a bad text). */
int64_t vs_test_ns(const char *rfc3339);

/* Reads a whole file into a malloc'ed, NUL-terminated buffer; aborts the
 * test on failure. `rel` is relative to $VS_TEST_DATA. */
char *vs_test_read_data(const char *rel, size_t *len);
/* Same for an absolute or cwd-relative path. */
char *vs_test_read_file(const char *path, size_t *len);

/* Iteration count for a randomized or sweeping test: n normally, n / 100
 * (at least 1) under valgrind (the check-valgrind rules set $VALGRIND).
 * Valgrind looks for memory errors, which the first iterations already
 * exercise; the full count runs in the plain and sanitizer builds. */
long vs_test_iterations(long n);

/* The release tables of tests/data/releases/ ("|"-separated rows):
 * vs_test_trim() cuts the spaces (and a trailing CR or LF) around s in
 * place; vs_test_split_row() splits line at " | " into col[0..n), trimmed,
 * asserting exactly n columns (lineno for the message); vs_test_in_releases()
 * says whether Velero 1.minor is in spec: "1.13", "1.11-1.18" or "1.14-". */
char *vs_test_trim(char *s);
void vs_test_split_row(char *line, char **col, int n, int lineno);
int vs_test_in_releases(const char *spec, int minor);

/* Asserts that err is at the byte `at` of `text` (a pointer into it): its
 * offset, and its line and column counted here (1-based; columns in UTF-8
 * characters), independently of the library's own counting. */
void vs_test_assert_position(const velstatus_error *err, const char *text, const char *at);

/* velstatus_server_tracker_upsert() of a record with these fields (the
 * tests' tables give BSLs field by field). */
velstatus_status vs_test_upsert(velstatus_server_tracker *t, int *changed, const char *name, size_t name_len,
                                const char *phase, size_t phase_len, int is_default, velstatus_bsl_access access,
                                int has_created, int64_t created_ns, int has_validated, int64_t validated_ns,
                                velstatus_error *err);

#endif
