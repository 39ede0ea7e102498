/* Shared main() for the check suites: TAP on stdout, CK_NOFORK under valgrind. */
#ifndef VS_TEST_HARNESS_H
#define VS_TEST_HARNESS_H
#include <check.h>
#include <stddef.h>

/* Each check_<area>.c defines this. */
Suite *velstatus_test_suite(void);

/* Reads a whole file into a malloc'ed, NUL-terminated buffer; aborts the
 * test on failure. `rel` is relative to $VS_TEST_DATA. */
char *vs_test_read_data(const char *rel, size_t *len);
/* Same for an absolute or cwd-relative path. */
char *vs_test_read_file(const char *path, size_t *len);

#endif
