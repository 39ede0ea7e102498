/* SPDX-License-Identifier: Apache-2.0 */
/* RFC 3339 timestamps and Go durations (velstatus/time.h).
 *
 * The vectors marked "Go" were produced by Go's own time package
 * (time.Parse(time.RFC3339Nano, s), Time.Format(time.RFC3339),
 * Time.Format(time.RFC3339Nano), Time.String(), time.ParseDuration,
 * Duration.String()) and pasted here as data. The generator ran on Go 1.19;
 * the few inputs on which Go 1.20+ (what Velero builds with) behaves
 * differently are in the hand-written tables below, with the reason. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "common/private.h"

/* For the sweeps: check's ck_assert records a mark point per call, which
 * dominates loops of a million checks; this only calls into check on failure. */
#define VS_REQUIRE(cond, ...)          \
    do {                               \
        if (!(cond))                   \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

/* ------------------------------------------------------------------ */
/* velstatus_time_parse                                                */

typedef struct {
    const char *s;
    int64_t ns;
    velstatus_status st;
} parse_vec;

/* Go: time.Parse(time.RFC3339Nano, s); VELSTATUS_E_RANGE where Go parsed
 * the text but the instant has no int64 UnixNano. */
static const parse_vec go_parse[] = {
    {"1970-01-01T00:00:00Z", INT64_C(0), VELSTATUS_OK},
    {"2024-05-01T12:00:00+02:00", INT64_C(1714557600000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00Z", INT64_C(1714557600000000000), VELSTATUS_OK},
    {"2024-05-01T12:00:00-02:00", INT64_C(1714572000000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00.5Z", INT64_C(1714557600500000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00.123456789Z", INT64_C(1714557600123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00,25Z", INT64_C(1714557600250000000), VELSTATUS_OK},
    {"2024-05-01T1:00:00Z", INT64_C(1714525200000000000), VELSTATUS_OK},
    {"2024-05-01T01:00:00Z", INT64_C(1714525200000000000), VELSTATUS_OK},
    {"1969-12-31T23:59:59.999999999Z", INT64_C(-1), VELSTATUS_OK},
    {"1969-12-31T23:59:59Z", INT64_C(-1000000000), VELSTATUS_OK},
    {"1900-02-28T00:00:00Z", INT64_C(-2203977600000000000), VELSTATUS_OK},
    {"1900-02-29T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2000-02-29T00:00:00Z", INT64_C(951782400000000000), VELSTATUS_OK},
    {"2000-02-30T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2023-02-29T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-02-29T23:59:59Z", INT64_C(1709251199000000000), VELSTATUS_OK},
    {"2100-02-29T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-04-31T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-12-31T23:59:59Z", INT64_C(1735689599000000000), VELSTATUS_OK},
    {"2024-13-01T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-00-01T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-00T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T24:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T23:60:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T23:59:60Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01t00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00Zx", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00.Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00.", 0, VELSTATUS_E_PARSE},
    {"2024-01-01 00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"24-01-01T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-1-01T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-1T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:0:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:0Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+0200", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+02", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+02:0", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00 +02:00", 0, VELSTATUS_E_PARSE},
    {"", 0, VELSTATUS_E_PARSE},
    {"Z", 0, VELSTATUS_E_PARSE},
    {"2024", 0, VELSTATUS_E_PARSE},
    {"2024-01-01", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+02:00x", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00.5+05:30", INT64_C(1704047400500000000), VELSTATUS_OK},
    {"2024-01-01T00:00:00-00:00", INT64_C(1704067200000000000), VELSTATUS_OK},
    {"2024-01-01T00:00:00+23:59", INT64_C(1703980860000000000), VELSTATUS_OK},
    {"2024-01-01T00:00:00-23:59", INT64_C(1704153540000000000), VELSTATUS_OK},
    {"1677-09-21T00:12:43.145224192Z", INT64_MIN, VELSTATUS_OK},
    {"1677-09-21T00:12:43.145224191Z", 0, VELSTATUS_E_RANGE},
    {"2262-04-11T23:47:16.854775807Z", INT64_C(9223372036854775807), VELSTATUS_OK},
    {"2262-04-11T23:47:16.854775808Z", 0, VELSTATUS_E_RANGE},
    {"2262-04-12T01:47:16.854775807+02:00", INT64_C(9223372036854775807), VELSTATUS_OK},
    {"2262-04-12T01:47:16.854775808+02:00", 0, VELSTATUS_E_RANGE},
    {"1677-09-20T22:12:43.145224192-02:00", INT64_MIN, VELSTATUS_OK},
    {"1677-09-20T22:12:43.145224191-02:00", 0, VELSTATUS_E_RANGE},
    {"0001-01-01T00:00:00Z", 0, VELSTATUS_E_RANGE},
    {"9999-12-31T23:59:59.999999999Z", 0, VELSTATUS_E_RANGE},
    {"0000-01-01T00:00:00Z", 0, VELSTATUS_E_RANGE},
    {"1600-02-29T12:34:56.000000001Z", 0, VELSTATUS_E_RANGE},
    {"2000-03-01T00:00:00Z", INT64_C(951868800000000000), VELSTATUS_OK},
    {"1970-01-01T00:00:00.000000001Z", INT64_C(1), VELSTATUS_OK},
    {"1970-01-01T00:00:00.1Z", INT64_C(100000000), VELSTATUS_OK},
    {"1969-12-31T23:59:59.9Z", INT64_C(-100000000), VELSTATUS_OK},
    {"2026-11-30T13:05:07.000100Z", INT64_C(1796043907000100000), VELSTATUS_OK},
    {"+024-01-01T00:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00.-1Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T-1:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00.5.5Z", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00\303\251", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00Z\012", 0, VELSTATUS_E_PARSE},
    /* more Go vectors: edge cases */
    {"2024-05-01T10:00:00.5+0200", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00.123456789+02:00", INT64_C(1714550400123456789), VELSTATUS_OK},
    {"2024-05-01T9:05:06Z", INT64_C(1714554306000000000), VELSTATUS_OK},
    {"2024-05-01T09:5:06Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00.5-00:30", INT64_C(1714559400500000000), VELSTATUS_OK},
    {"2024-05-01T100:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00..5Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00.5,5Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00+02:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00ZZ", 0, VELSTATUS_E_PARSE},
    {"02024-05-01T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00+02:00:00", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00-02:30", INT64_C(1714566600000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00+02;00", 0, VELSTATUS_E_PARSE},
    {"1970-01-01T00:00:00-00:01", INT64_C(60000000000), VELSTATUS_OK},
    {"1969-12-31T23:59:59.000000001+00:00", INT64_C(-999999999), VELSTATUS_OK},
    {"2024-05-01T10:00:00,000000001Z", INT64_C(1714557600000000001), VELSTATUS_OK},
    {"2024-05-01T0:00:00,5+23:59", INT64_C(1714435260500000000), VELSTATUS_OK},
    {"\357\273\2772024-05-01T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00.5 Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00 Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01t10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00UTC", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00GMT", 0, VELSTATUS_E_PARSE},
    {"2024-02-30T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-06-31T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-09-31T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-11-31T10:00:00Z", 0, VELSTATUS_E_PARSE},
    {"2024-04-30T10:00:00Z", INT64_C(1714471200000000000), VELSTATUS_OK},
    {"1600-02-29T00:00:00Z", 0, VELSTATUS_E_RANGE},
    {"2000-12-31T23:59:59.999999999-23:59", INT64_C(978393539999999999), VELSTATUS_OK},
    {"1970-01-01T00:00:00+23:59", INT64_C(-86340000000000), VELSTATUS_OK},
};

/* Go 1.20+ (format.go parseRFC3339 fast path, then the layout reader):
 * - the strict reader takes any number of fraction digits after '.',
 *   truncating past nine; the layout reader (the only one that accepts ',',
 *   a one-digit hour or offsets 24:xx / xx:60) takes at most nine;
 * - offsets are range-checked with '>' (24:00 and 00:60 pass, 25 and 61 fail);
 * - offset digits are read with getnum, so a sign inside them is rejected
 *   (Go 1.19 used atoi and accepted "-+2:00"). */
static const parse_vec modern_parse[] = {
    {"2024-05-01T10:00:00.1234567891Z", INT64_C(1714557600123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00.999999999999Z", INT64_C(1714557600999999999), VELSTATUS_OK},
    {"2024-05-01T10:00:00.0000000009Z", INT64_C(1714557600000000000), VELSTATUS_OK},
    {"2024-05-01T12:00:00.1234567891+02:00", INT64_C(1714557600123456789), VELSTATUS_OK},
    /* time.Parse(time.RFC3339, s), as metav1.Time reads, takes any number
     * of fraction digits in every form (the layout has no fraction) */
    {"2024-05-01T10:00:00,1234567891Z", INT64_C(1714557600123456789), VELSTATUS_OK},
    {"2024-05-01T1:00:00.1234567891Z", INT64_C(1714525200123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00.1234567891+24:00", INT64_C(1714471200123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00.1234567891+00:60", INT64_C(1714554000123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00.123456789+24:00", INT64_C(1714471200123456789), VELSTATUS_OK},
    {"2024-05-01T10:00:00+24:00", INT64_C(1714471200000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00-24:00", INT64_C(1714644000000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00+00:60", INT64_C(1714554000000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00+24:60", INT64_C(1714467600000000000), VELSTATUS_OK},
    {"2024-05-01T10:00:00+25:00", 0, VELSTATUS_E_PARSE},
    {"2024-05-01T10:00:00+00:61", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00-+2:00", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+2:00", 0, VELSTATUS_E_PARSE},
    {"2024-01-01T00:00:00+02:+0", 0, VELSTATUS_E_PARSE},
    /* the extremes reached through a 24:60 offset */
    {"2262-04-12T00:47:16.854775807+00:60", INT64_C(9223372036854775807), VELSTATUS_OK},
    {"1677-09-19T23:12:43.145224192-24:60", INT64_MIN, VELSTATUS_OK},
    {"1677-09-19T23:12:43.145224191-24:60", 0, VELSTATUS_E_RANGE},
    {"1677-09-20T00:00:00-24:00", 0, VELSTATUS_E_RANGE},
};

static void check_parse_table(const parse_vec *v, size_t n, const char *table)
{
    for (size_t i = 0; i < n; i++) {
        int64_t ns = 42;
        velstatus_error err;
        velstatus_status st;
        memset(&err, 0, sizeof(err));
        st = velstatus_time_parse(&ns, v[i].s, strlen(v[i].s), &err);
        ck_assert_msg(st == v[i].st, "%s[%zu] \"%s\": status %s, want %s (%s)", table, i, v[i].s,
                      velstatus_status_name(st), velstatus_status_name(v[i].st), err.message);
        if (st == VELSTATUS_OK) {
            ck_assert_msg(ns == v[i].ns, "%s[%zu] \"%s\": %" PRId64 ", want %" PRId64, table, i, v[i].s, ns, v[i].ns);
        } else {
            ck_assert_msg(ns == 42, "%s[%zu]: output written on failure", table, i);
            ck_assert_int_eq(err.code, st);
            ck_assert_msg(err.message[0] != '\0', "%s[%zu]: empty message", table, i);
            /* without an error struct the status is the same */
            ck_assert_int_eq(velstatus_time_parse(&ns, v[i].s, strlen(v[i].s), NULL), st);
        }
    }
}

START_TEST(parse_go_vectors)
{
    check_parse_table(go_parse, sizeof(go_parse) / sizeof(go_parse[0]), "go_parse");
}
END_TEST

START_TEST(parse_modern_go_vectors)
{
    check_parse_table(modern_parse, sizeof(modern_parse) / sizeof(modern_parse[0]), "modern_parse");
}
END_TEST

static int64_t parse_ok(const char *s)
{
    int64_t ns = 0;
    velstatus_error err;
    velstatus_status st = velstatus_time_parse(&ns, s, strlen(s), &err);
    ck_assert_msg(st == VELSTATUS_OK, "\"%s\": %s", s, st == VELSTATUS_OK ? "" : err.message);
    return ns;
}

static velstatus_status parse_fail(const char *s, velstatus_error *err)
{
    int64_t ns = 7;
    velstatus_status st = velstatus_time_parse(&ns, s, strlen(s), err);
    ck_assert_msg(st != VELSTATUS_OK, "\"%s\" parsed", s);
    ck_assert(ns == 7);
    return st;
}

START_TEST(parse_brief_cases)
{
    velstatus_error err;
    /* the int64 boundary instants, and one nanosecond beyond */
    ck_assert(parse_ok("1677-09-21T00:12:43.145224192Z") == INT64_MIN);
    ck_assert(parse_ok("2262-04-11T23:47:16.854775807Z") == INT64_MAX);
    ck_assert_int_eq(parse_fail("1677-09-21T00:12:43.145224191Z", &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(parse_fail("2262-04-11T23:47:16.854775808Z", &err), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err.message, "\"2262-04-11T23:47:16.854775808Z\""));
    /* an offset moves the instant, not the meaning */
    ck_assert(parse_ok("2024-05-01T12:00:00+02:00") == parse_ok("2024-05-01T10:00:00Z"));
    ck_assert(parse_ok("2024-05-01T08:00:00-02:00") == parse_ok("2024-05-01T10:00:00Z"));
    ck_assert(parse_ok("2024-05-01T10:00:00Z") == INT64_C(1714557600000000000));
    /* leap years: 1900 is not, 2000 is, 2024 is, 2023 is not */
    ck_assert_int_eq(parse_fail("1900-02-29T00:00:00Z", &err), VELSTATUS_E_PARSE);
    ck_assert(parse_ok("2000-02-29T00:00:00Z") + INT64_C(86400000000000) == parse_ok("2000-03-01T00:00:00Z"));
    ck_assert(parse_ok("1900-02-28T00:00:00Z") + INT64_C(86400000000000) == parse_ok("1900-03-01T00:00:00Z"));
    ck_assert_int_eq(parse_fail("2023-02-29T00:00:00Z", &err), VELSTATUS_E_PARSE);
    ck_assert(parse_ok("2024-02-29T00:00:00Z") == INT64_C(1709164800000000000));
    /* Go rejects hour 24 and leap seconds */
    ck_assert_int_eq(parse_fail("2024-01-01T24:00:00Z", &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(parse_fail("2016-12-31T23:59:60Z", &err), VELSTATUS_E_PARSE);
    /* case, missing offset, garbage */
    ck_assert_int_eq(parse_fail("2024-01-01t00:00:00Z", &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(parse_fail("2024-01-01T00:00:00z", &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(parse_fail("2024-01-01T00:00:00", &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(parse_fail("2024-01-01T00:00:00Z ", &err), VELSTATUS_E_PARSE);
}
END_TEST

START_TEST(parse_error_positions)
{
    static const struct {
        const char *s;
        size_t pos;
        const char *what;
    } v[] = {
        {"", 0, "year"},
        {"2024/01/01T00:00:00Z", 4, "'-'"},
        {"2024-1-01T00:00:00Z", 5, "month"},
        {"2024-13-01T00:00:00Z", 5, "month out of range"},
        {"2024-01-01t00:00:00Z", 10, "'T'"},
        {"2024-01-01Tx0:00:00Z", 11, "hour"},
        {"2024-01-01T24:00:00Z", 11, "hour out of range"},
        {"2024-01-01T00:60:00Z", 14, "minute out of range"},
        {"2024-01-01T00:00:60Z", 17, "second out of range"},
        {"2024-01-01T00:00:00", 19, "'Z'"},
        {"2024-01-01T00:00:00.Z", 19, "'Z'"},
        {"2024-01-01T00:00:00z", 19, "'Z'"},
        {"2024-01-01T00:00:00+0200", 22, "':'"},
        {"2024-01-01T00:00:00+25:00", 20, "offset hour out of range"},
        {"2024-01-01T00:00:00+00:61", 23, "offset minute out of range"},
        {"2024-01-01T00:00:00Zjunk", 20, "extra text"},
        {"2023-02-29T00:00:00Z", 8, "day out of range"},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        velstatus_error err;
        char want[64];
        memset(&err, 0, sizeof(err));
        ck_assert_int_eq(parse_fail(v[i].s, &err), VELSTATUS_E_PARSE);
        ck_assert_int_eq(err.code, VELSTATUS_E_PARSE);
        ck_assert_msg(err.offset == v[i].pos, "\"%s\": offset %" PRIu64 ", want %zu (%s)", v[i].s, err.offset, v[i].pos,
                      err.message);
        ck_assert_uint_eq(err.line, 1);
        ck_assert_uint_eq(err.column, v[i].pos + 1);
        /* the position is in the fields only: the message never spells it */
        ck_assert_msg(!strstr(err.message, " byte "), "\"%s\": %s", v[i].s, err.message);
        ck_assert_msg(strstr(err.message, v[i].what) != NULL, "\"%s\": %s", v[i].s, err.message);
        /* the message quotes the input */
        snprintf(want, sizeof(want), "\"%s\"", v[i].s);
        ck_assert_msg(strstr(err.message, want) != NULL, "\"%s\": %s", v[i].s, err.message);
    }
}
END_TEST

START_TEST(parse_error_quoting)
{
    velstatus_error err;
    char big[5000];
    int64_t ns = 0;
    /* control and non-ASCII bytes are escaped as Go's time package does */
    ck_assert_int_eq(parse_fail("2024-01-01T00:00:00Z\n\"\xc3\xa9\\", &err), VELSTATUS_E_PARSE);
    ck_assert_msg(strstr(err.message, "\"2024-01-01T00:00:00Z\\x0a\\\"\\xc3\\xa9\\\\\"") != NULL, "%s", err.message);
    /* huge input: the quote is cut, the error still gives the byte */
    memset(big, '9', sizeof(big));
    memcpy(big, "2024-01-01T00:00:00.", 20);
    ck_assert_int_eq(velstatus_time_parse(&ns, big, sizeof(big), &err), VELSTATUS_E_PARSE);
    ck_assert_uint_lt(strlen(err.message), sizeof(err.message) - 1);
    ck_assert_ptr_nonnull(strstr(err.message, "\"..."));
    ck_assert(err.offset == 5000 && err.column == 5001);
    /* an embedded NUL is just a bad byte */
    ck_assert_int_eq(velstatus_time_parse(&ns, "2024-01-01T00:00:00Z\0", 21, &err), VELSTATUS_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err.message, "\\x00"));
    ck_assert(err.offset == 20);
    /* the text is not read past len */
    ck_assert_int_eq(velstatus_time_parse(&ns, "2024-01-01T00:00:00Z", 19, &err), VELSTATUS_E_PARSE);
    ck_assert(parse_ok("2024-01-01T00:00:00Z") != 0);
    ns = 0;
    ck_assert_int_eq(velstatus_time_parse(&ns, "2024-01-01T00:00:00Zjunk", 20, &err), VELSTATUS_OK);
    ck_assert(ns == INT64_C(1704067200000000000));
}
END_TEST

START_TEST(parse_null_arguments)
{
    velstatus_error err;
    int64_t ns = 5;
    ck_assert_int_eq(velstatus_time_parse(NULL, "2024-01-01T00:00:00Z", 20, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "out_ns"));
    ck_assert_int_eq(velstatus_time_parse(&ns, NULL, 20, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "s is NULL"));
    ck_assert_int_eq(velstatus_time_parse(NULL, NULL, 0, NULL), VELSTATUS_E_INVALID);
    /* (NULL, 0) is the empty text: a parse error, not a NULL-pointer error */
    ck_assert_int_eq(velstatus_time_parse(&ns, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert(ns == 5);
}
END_TEST

START_TEST(parse_success_leaves_err_alone)
{
    velstatus_error err;
    int64_t ns;
    memset(&err, 0x5a, sizeof(err));
    ck_assert_int_eq(velstatus_time_parse(&ns, "2024-01-01T00:00:00Z", 20, &err), VELSTATUS_OK);
    for (size_t i = 0; i < sizeof(err); i++)
        ck_assert_int_eq(((unsigned char *)&err)[i], 0x5a);
}
END_TEST

/* Walks every day from 1677-09-22 to 2262-04-10 with a naive calendar
 * (independent of the library's days_from_civil) and checks that format and
 * parse agree with it at midnight and at the last nanosecond of the day. */
START_TEST(calendar_every_day)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    /* 1677-09-22T00:00:00Z */
    int64_t day_ns = INT64_C(86400000000000);
    int64_t midnight = parse_ok("1677-09-22T00:00:00Z");
    int y = 1677, m = 9, d = 22;
    long days = 0;
    ck_assert(midnight == INT64_C(-9223286400000000000));
    while (!(y == 2262 && m == 4 && d == 11)) {
        char want[64], got[VELSTATUS_TIME_BUFSIZE];
        int64_t back = 0;
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        snprintf(want, sizeof(want), "%04d-%02d-%02dT00:00:00Z", y, m, d);
        VS_REQUIRE(velstatus_time_format(got, sizeof(got), midnight, 1, NULL) == VELSTATUS_OK, "%s", want);
        VS_REQUIRE(strcmp(got, want) == 0, "%s formatted as %s", want, got);
        VS_REQUIRE(velstatus_time_parse(&back, want, strlen(want), NULL) == VELSTATUS_OK && back == midnight, "%s",
                   want);
        snprintf(want, sizeof(want), "%04d-%02d-%02dT23:59:59.999999999Z", y, m, d);
        VS_REQUIRE(velstatus_time_format(got, sizeof(got), midnight + day_ns - 1, 1, NULL) == VELSTATUS_OK, "%s", want);
        VS_REQUIRE(strcmp(got, want) == 0, "%s formatted as %s", want, got);
        VS_REQUIRE(velstatus_time_parse(&back, want, strlen(want), NULL) == VELSTATUS_OK &&
                       back == midnight + day_ns - 1,
                   "%s", want);
        /* the day after the month's last is rejected */
        if (d == (m == 2 && leap ? 29 : dim[m - 1])) {
            snprintf(want, sizeof(want), "%04d-%02d-%02dT00:00:00Z", y, m, d + 1);
            VS_REQUIRE(velstatus_time_parse(&back, want, strlen(want), NULL) == VELSTATUS_E_PARSE, "%s", want);
            d = 1;
            if (++m == 13) {
                m = 1;
                y++;
            }
        } else {
            d++;
        }
        midnight += day_ns;
        days++;
    }
    /* whole days strictly inside the int64 range; Python agrees:
     * (date(2262, 4, 11) - date(1677, 9, 22)).days == 213502 */
    ck_assert_int_eq(days, 213502);
    ck_assert(midnight == parse_ok("2262-04-11T00:00:00Z"));
    ck_assert(midnight == INT64_C(9223286400000000000));
}
END_TEST

/* ------------------------------------------------------------------ */
/* velstatus_time_format / velstatus_time_format_go                    */

typedef struct {
    int64_t ns;
    const char *rfc3339, *rfc3339nano, *go;
} format_vec;

/* Go: t := time.Unix(0, ns).UTC(); t.Format(time.RFC3339),
 * t.Format(time.RFC3339Nano), t.String(). */
static const format_vec go_format[] = {
    {INT64_C(0), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01 00:00:00 +0000 UTC"},
    {INT64_C(1), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000001Z", "1970-01-01 00:00:00.000000001 +0000 UTC"},
    {INT64_C(-1), "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999999999Z", "1969-12-31 23:59:59.999999999 +0000 UTC"},
    {INT64_C(999999999), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.999999999Z",
     "1970-01-01 00:00:00.999999999 +0000 UTC"},
    {INT64_C(-999999999), "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.000000001Z",
     "1969-12-31 23:59:59.000000001 +0000 UTC"},
    {INT64_C(1000000000), "1970-01-01T00:00:01Z", "1970-01-01T00:00:01Z", "1970-01-01 00:00:01 +0000 UTC"},
    {INT64_C(-1000000000), "1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "1969-12-31 23:59:59 +0000 UTC"},
    {INT64_C(500000000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.5Z", "1970-01-01 00:00:00.5 +0000 UTC"},
    {INT64_C(-500000000), "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.5Z", "1969-12-31 23:59:59.5 +0000 UTC"},
    {INT64_C(1714557600000000000), "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z", "2024-05-01 10:00:00 +0000 UTC"},
    {INT64_C(1714557600500000000), "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5Z", "2024-05-01 10:00:00.5 +0000 UTC"},
    {INT64_C(1714557600123456789), "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123456789Z",
     "2024-05-01 10:00:00.123456789 +0000 UTC"},
    {INT64_C(1714557600100000000), "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.1Z", "2024-05-01 10:00:00.1 +0000 UTC"},
    {INT64_C(1714557600000001000), "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.000001Z",
     "2024-05-01 10:00:00.000001 +0000 UTC"},
    {INT64_C(9223372036854775807), "2262-04-11T23:47:16Z", "2262-04-11T23:47:16.854775807Z",
     "2262-04-11 23:47:16.854775807 +0000 UTC"},
    {INT64_MIN, "1677-09-21T00:12:43Z", "1677-09-21T00:12:43.145224192Z", "1677-09-21 00:12:43.145224192 +0000 UTC"},
    {INT64_C(-9223372036854775807), "1677-09-21T00:12:43Z", "1677-09-21T00:12:43.145224193Z",
     "1677-09-21 00:12:43.145224193 +0000 UTC"},
    {INT64_C(9223372036854775806), "2262-04-11T23:47:16Z", "2262-04-11T23:47:16.854775806Z",
     "2262-04-11 23:47:16.854775806 +0000 UTC"},
    {INT64_C(-2208988800000000000), "1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z", "1900-01-01 00:00:00 +0000 UTC"},
    {INT64_C(951782400000000000), "2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2000-02-29 00:00:00 +0000 UTC"},
    {INT64_C(951868799999999999), "2000-02-29T23:59:59Z", "2000-02-29T23:59:59.999999999Z",
     "2000-02-29 23:59:59.999999999 +0000 UTC"},
    {INT64_C(951868800000000000), "2000-03-01T00:00:00Z", "2000-03-01T00:00:00Z", "2000-03-01 00:00:00 +0000 UTC"},
    {INT64_C(-2203891200000000000), "1900-03-01T00:00:00Z", "1900-03-01T00:00:00Z", "1900-03-01 00:00:00 +0000 UTC"},
    {INT64_C(-5000000000000000000), "1811-07-23T15:06:40Z", "1811-07-23T15:06:40Z", "1811-07-23 15:06:40 +0000 UTC"},
    {INT64_C(5000000000000000000), "2128-06-11T08:53:20Z", "2128-06-11T08:53:20Z", "2128-06-11 08:53:20 +0000 UTC"},
    {INT64_C(86399999999999), "1970-01-01T23:59:59Z", "1970-01-01T23:59:59.999999999Z",
     "1970-01-01 23:59:59.999999999 +0000 UTC"},
    {INT64_C(-86400000000000), "1969-12-31T00:00:00Z", "1969-12-31T00:00:00Z", "1969-12-31 00:00:00 +0000 UTC"},
    {INT64_C(-86400000000001), "1969-12-30T23:59:59Z", "1969-12-30T23:59:59.999999999Z",
     "1969-12-30 23:59:59.999999999 +0000 UTC"},
    {INT64_C(4102444800000000000), "2100-01-01T00:00:00Z", "2100-01-01T00:00:00Z", "2100-01-01 00:00:00 +0000 UTC"},
    {INT64_C(2534023007999999), "1970-01-30T07:53:43Z", "1970-01-30T07:53:43.007999999Z",
     "1970-01-30 07:53:43.007999999 +0000 UTC"},
    {INT64_C(1), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000001Z", "1970-01-01 00:00:00.000000001 +0000 UTC"},
    {INT64_C(10), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.00000001Z", "1970-01-01 00:00:00.00000001 +0000 UTC"},
    {INT64_C(100), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.0000001Z", "1970-01-01 00:00:00.0000001 +0000 UTC"},
    {INT64_C(1000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000001Z", "1970-01-01 00:00:00.000001 +0000 UTC"},
    {INT64_C(10000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.00001Z", "1970-01-01 00:00:00.00001 +0000 UTC"},
    {INT64_C(100000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.0001Z", "1970-01-01 00:00:00.0001 +0000 UTC"},
    {INT64_C(1000000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.001Z", "1970-01-01 00:00:00.001 +0000 UTC"},
    {INT64_C(10000000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.01Z", "1970-01-01 00:00:00.01 +0000 UTC"},
    {INT64_C(100000000), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.1Z", "1970-01-01 00:00:00.1 +0000 UTC"},
};

START_TEST(format_go_vectors)
{
    for (size_t i = 0; i < sizeof(go_format) / sizeof(go_format[0]); i++) {
        const format_vec *v = &go_format[i];
        char buf[VELSTATUS_TIME_BUFSIZE];
        velstatus_error err;
        ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), v->ns, 0, &err), VELSTATUS_OK);
        ck_assert_str_eq(buf, v->rfc3339);
        ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), v->ns, 1, &err), VELSTATUS_OK);
        ck_assert_str_eq(buf, v->rfc3339nano);
        ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), v->ns, -7, &err), VELSTATUS_OK);
        ck_assert_str_eq(buf, v->rfc3339nano);
        ck_assert_int_eq(velstatus_time_format_go(buf, sizeof(buf), v->ns, &err), VELSTATUS_OK);
        ck_assert_str_eq(buf, v->go);
    }
}
END_TEST

START_TEST(format_brief_cases)
{
    char buf[VELSTATUS_TIME_BUFSIZE];
    ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), INT64_C(1714557600500000000), 1, NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "2024-05-01T10:00:00.5Z");
    ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), INT64_C(1714557600999999999), 0, NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "2024-05-01T10:00:00Z"); /* truncated, not rounded */
    /* before 1970 the second is floored: -0.5 s is 23:59:59.5 */
    ck_assert_int_eq(velstatus_time_format(buf, sizeof(buf), INT64_C(-500000000), 0, NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "1969-12-31T23:59:59Z");
    ck_assert_int_eq(velstatus_time_format_go(buf, sizeof(buf), INT64_C(1687564800000000000), NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "2023-06-24 00:00:00 +0000 UTC");
    /* the longest outputs fit the advertised sizes */
    ck_assert_int_eq(velstatus_time_format_go(buf, sizeof(buf), INT64_C(-9223372036854775807), NULL), VELSTATUS_OK);
    ck_assert_uint_lt(strlen(buf), VELSTATUS_TIME_BUFSIZE);
}
END_TEST

/* Every capacity up to the output length fails with E_RANGE, leaving an
 * empty string (when cap > 0) and nothing past it; strlen + 1 succeeds. */
START_TEST(format_buffer_sizes)
{
    static const int64_t ns[] = {0, 1, -1, INT64_MIN, INT64_MAX, INT64_C(1714557600500000000)};
    for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        for (int which = 0; which < 3; which++) {
            char full[VELSTATUS_TIME_BUFSIZE], buf[VELSTATUS_TIME_BUFSIZE];
            velstatus_error err;
            size_t n;
            velstatus_status st;
            st = which == 2 ? velstatus_time_format_go(full, sizeof(full), ns[i], NULL)
                            : velstatus_time_format(full, sizeof(full), ns[i], which, NULL);
            ck_assert_int_eq(st, VELSTATUS_OK);
            n = strlen(full);
            for (size_t cap = 0; cap <= n + 1; cap++) {
                memset(buf, 'x', sizeof(buf));
                memset(&err, 0, sizeof(err));
                st = which == 2 ? velstatus_time_format_go(buf, cap, ns[i], &err)
                                : velstatus_time_format(buf, cap, ns[i], which, &err);
                if (cap <= n) {
                    ck_assert_int_eq(st, VELSTATUS_E_RANGE);
                    ck_assert_int_eq(err.code, VELSTATUS_E_RANGE);
                    ck_assert_ptr_nonnull(strstr(err.message, "too small"));
                    if (cap > 0)
                        ck_assert_int_eq(buf[0], '\0');
                    for (size_t k = cap > 0 ? 1 : 0; k < sizeof(buf); k++)
                        ck_assert_int_eq(buf[k], 'x');
                } else {
                    ck_assert_int_eq(st, VELSTATUS_OK);
                    ck_assert_str_eq(buf, full);
                }
            }
        }
    }
}
END_TEST

START_TEST(format_null_arguments)
{
    velstatus_error err;
    ck_assert_int_eq(velstatus_time_format(NULL, 40, 0, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "buf"));
    ck_assert_int_eq(velstatus_time_format_go(NULL, 40, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "buf"));
    ck_assert_int_eq(velstatus_duration_format(NULL, 40, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "buf"));
    ck_assert_int_eq(velstatus_time_format(NULL, 0, 0, 0, NULL), VELSTATUS_E_INVALID);
}
END_TEST

/* A sweep over the whole int64 range (a fixed-step walk plus the
 * neighbourhood of the ends and of 0): format -> parse is the identity with
 * fractions, and the floor to whole seconds without. */
static void roundtrip_instant(int64_t ns)
{
    char buf[VELSTATUS_TIME_BUFSIZE];
    int64_t back = 0, sec, floor_ns;
    velstatus_status st;
    velstatus_error err;
    VS_REQUIRE(velstatus_time_format(buf, sizeof(buf), ns, 1, &err) == VELSTATUS_OK, "%" PRId64, ns);
    VS_REQUIRE(velstatus_time_parse(&back, buf, strlen(buf), &err) == VELSTATUS_OK, "%s: %s", buf, err.message);
    VS_REQUIRE(back == ns, "%" PRId64 " -> %s -> %" PRId64, ns, buf, back);
    VS_REQUIRE(velstatus_time_format(buf, sizeof(buf), ns, 0, &err) == VELSTATUS_OK, "%" PRId64, ns);
    sec = ns / 1000000000;
    if (ns % 1000000000 < 0)
        sec--;
    floor_ns = sec * 1000000000;
    st = velstatus_time_parse(&back, buf, strlen(buf), &err);
    if (sec < INT64_MIN / 1000000000) {
        /* the floor of the first partial second is before INT64_MIN: the
         * whole second reads back saturated (issue 10, defect 2) */
        VS_REQUIRE(st == VELSTATUS_OK, "%s: %d", buf, (int)st);
        VS_REQUIRE(back == INT64_MIN, "%" PRId64 " -> %s -> %" PRId64, ns, buf, back);
    } else {
        VS_REQUIRE(st == VELSTATUS_OK, "%s: %s", buf, err.message);
        VS_REQUIRE(back == floor_ns, "%" PRId64 " -> %s -> %" PRId64, ns, buf, back);
    }
}

START_TEST(roundtrip_instants)
{
    uint64_t step = UINT64_C(0x9E3779B97F4A7C15); /* odd: visits all residues */
    uint64_t u = 0;
    for (long i = 0, n = vs_test_iterations(200000); i < n; i++) {
        u += step;
        roundtrip_instant((int64_t)(u ^ (u >> 29)));
    }
    for (int64_t k = 0; k < 2000; k++) {
        roundtrip_instant(INT64_MIN + k);
        roundtrip_instant(INT64_MAX - k);
        roundtrip_instant(k - 1000);
        roundtrip_instant(k * INT64_C(999999937) - INT64_C(1000000000000));
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* velstatus_duration_parse / velstatus_duration_format                */

typedef struct {
    const char *s;
    int64_t ns;
    velstatus_status st;
    const char *msg; /* Go's error text, exactly */
} dparse_vec;

/* Go: time.ParseDuration(s). Go reports overflow as "invalid duration";
 * we keep its text and return VELSTATUS_E_RANGE for it. */
static const dparse_vec go_dparse[] = {
    {"0", INT64_C(0), VELSTATUS_OK, NULL},
    {"-0", INT64_C(0), VELSTATUS_OK, NULL},
    {"+0", INT64_C(0), VELSTATUS_OK, NULL},
    {"00", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"00\""},
    {"0s", INT64_C(0), VELSTATUS_OK, NULL},
    {"1s", INT64_C(1000000000), VELSTATUS_OK, NULL},
    {"-1s", INT64_C(-1000000000), VELSTATUS_OK, NULL},
    {"+1s", INT64_C(1000000000), VELSTATUS_OK, NULL},
    {"1.5h", INT64_C(5400000000000), VELSTATUS_OK, NULL},
    {"1h30m", INT64_C(5400000000000), VELSTATUS_OK, NULL},
    {"10ms", INT64_C(10000000), VELSTATUS_OK, NULL},
    {"300us", INT64_C(300000), VELSTATUS_OK, NULL},
    {"300\302\265s", INT64_C(300000), VELSTATUS_OK, NULL},
    {"300\316\274s", INT64_C(300000), VELSTATUS_OK, NULL},
    {"1ns", INT64_C(1), VELSTATUS_OK, NULL},
    {"4h0m0s", INT64_C(14400000000000), VELSTATUS_OK, NULL},
    {"-2m", INT64_C(-120000000000), VELSTATUS_OK, NULL},
    {".5s", INT64_C(500000000), VELSTATUS_OK, NULL},
    {"5.s", INT64_C(5000000000), VELSTATUS_OK, NULL},
    {"1.s", INT64_C(1000000000), VELSTATUS_OK, NULL},
    {".s", 0, VELSTATUS_E_PARSE, "time: invalid duration \".s\""},
    {"-.s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"-.s\""},
    {".", 0, VELSTATUS_E_PARSE, "time: invalid duration \".\""},
    {"", 0, VELSTATUS_E_PARSE, "time: invalid duration \"\""},
    {"-", 0, VELSTATUS_E_PARSE, "time: invalid duration \"-\""},
    {"+", 0, VELSTATUS_E_PARSE, "time: invalid duration \"+\""},
    {"1", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"1\""},
    {"10", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"10\""},
    {"1x", 0, VELSTATUS_E_PARSE, "time: unknown unit \"x\" in duration \"1x\""},
    {"1s1", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"1s1\""},
    {"1.5", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"1.5\""},
    {"s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"s\""},
    {"1e3s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"e\" in duration \"1e3s\""},
    {" 1s", 0, VELSTATUS_E_PARSE, "time: invalid duration \" 1s\""},
    {"1s ", 0, VELSTATUS_E_PARSE, "time: unknown unit \"s \" in duration \"1s \""},
    {"1S", 0, VELSTATUS_E_PARSE, "time: unknown unit \"S\" in duration \"1S\""},
    {"1Ms", 0, VELSTATUS_E_PARSE, "time: unknown unit \"Ms\" in duration \"1Ms\""},
    {"1h1h", INT64_C(7200000000000), VELSTATUS_OK, NULL},
    {"2562047h47m16.854775807s", INT64_C(9223372036854775807), VELSTATUS_OK, NULL},
    {"2562047h47m16.854775808s", 0, VELSTATUS_E_RANGE, "time: invalid duration \"2562047h47m16.854775808s\""},
    {"-2562047h47m16.854775808s", INT64_MIN, VELSTATUS_OK, NULL},
    {"-2562047h47m16.854775809s", 0, VELSTATUS_E_RANGE, "time: invalid duration \"-2562047h47m16.854775809s\""},
    {"9223372036854775807ns", INT64_C(9223372036854775807), VELSTATUS_OK, NULL},
    {"9223372036854775808ns", 0, VELSTATUS_E_RANGE, "time: invalid duration \"9223372036854775808ns\""},
    {"-9223372036854775808ns", INT64_MIN, VELSTATUS_OK, NULL},
    {"-9223372036854775809ns", 0, VELSTATUS_E_RANGE, "time: invalid duration \"-9223372036854775809ns\""},
    {"99999999999999999999ns", 0, VELSTATUS_E_RANGE, "time: invalid duration \"99999999999999999999ns\""},
    {"1.0000000000000000000000001s", INT64_C(1000000000), VELSTATUS_OK, NULL},
    {"0.3333333333333333333h", INT64_C(1200000000000), VELSTATUS_OK, NULL},
    {"1.1h", INT64_C(3960000000000), VELSTATUS_OK, NULL},
    {"0.1ns", INT64_C(0), VELSTATUS_OK, NULL},
    {"1.9ns", INT64_C(1), VELSTATUS_OK, NULL},
    {"0.000000001s", INT64_C(1), VELSTATUS_OK, NULL},
    {"0.0000000009s", INT64_C(0), VELSTATUS_OK, NULL},
    {"1.123456789123s", INT64_C(1123456789), VELSTATUS_OK, NULL},
    {"1.00000000000000000001h", INT64_C(3600000000000), VELSTATUS_OK, NULL},
    {"3.6e+12ns", 0, VELSTATUS_E_PARSE, "time: unknown unit \"e+\" in duration \"3.6e+12ns\""},
    {"1h-1m", 0, VELSTATUS_E_PARSE, "time: unknown unit \"h-\" in duration \"1h-1m\""},
    {"1m1h", INT64_C(3660000000000), VELSTATUS_OK, NULL},
    {"1.5us", INT64_C(1500), VELSTATUS_OK, NULL},
    {"2.5\302\265s", INT64_C(2500), VELSTATUS_OK, NULL},
    {"1\302\265", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xc2\\xb5\" in duration \"1\\xc2\\xb5\""},
    {"1\303\202s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xc3\\x82s\" in duration \"1\\xc3\\x82s\""},
    {"1\316\274", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xce\\xbc\" in duration \"1\\xce\\xbc\""},
    {"-1.5h", INT64_C(-5400000000000), VELSTATUS_OK, NULL},
    {"15m0.000000001s", INT64_C(900000000001), VELSTATUS_OK, NULL},
    {"2540400h10m10.000000000s", INT64_C(9145440610000000000), VELSTATUS_OK, NULL},
    {"1s\"", 0, VELSTATUS_E_PARSE, "time: unknown unit \"s\\\"\" in duration \"1s\\\"\""},
    {"1\\s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\\\s\" in duration \"1\\\\s\""},
    {"0.00000000000000000000000000000000001ns", INT64_C(0), VELSTATUS_OK, NULL},
    {"18446744073709551616ns", 0, VELSTATUS_E_RANGE, "time: invalid duration \"18446744073709551616ns\""},
    {"9223372036854775.808us", 0, VELSTATUS_E_RANGE, "time: invalid duration \"9223372036854775.808us\""},
    {"0.9999999999999999999999h", INT64_C(3600000000000), VELSTATUS_OK, NULL},
    {"1.4999999999h", INT64_C(5399999999640), VELSTATUS_OK, NULL},
    {"7.5m", INT64_C(450000000000), VELSTATUS_OK, NULL},
    {"1.000000001s", INT64_C(1000000001), VELSTATUS_OK, NULL},
    {"1.0000000005s", INT64_C(1000000000), VELSTATUS_OK, NULL},
    {"3.9999999999999s", INT64_C(3999999999), VELSTATUS_OK, NULL},
    {"0h", INT64_C(0), VELSTATUS_OK, NULL},
    {"-0h", INT64_C(0), VELSTATUS_OK, NULL},
    {"0.0s", INT64_C(0), VELSTATUS_OK, NULL},
    {"..5s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"..5s\""},
    {"1..5s", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"1..5s\""},
    /* more Go vectors: edge cases */
    {"+-1s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"+-1s\""},
    {"-+1s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"-+1s\""},
    {"1.h", INT64_C(3600000000000), VELSTATUS_OK, NULL},
    {"1h.", 0, VELSTATUS_E_PARSE, "time: invalid duration \"1h.\""},
    {".0s", INT64_C(0), VELSTATUS_OK, NULL},
    {"0.s", INT64_C(0), VELSTATUS_OK, NULL},
    {"00s", INT64_C(0), VELSTATUS_OK, NULL},
    {"-00", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"-00\""},
    {"+00", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"+00\""},
    {"1\302s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xc2s\" in duration \"1\\xc2s\""},
    {"1\265s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xb5s\" in duration \"1\\xb5s\""},
    {"1\377s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"\\xffs\" in duration \"1\\xffs\""},
    {"1ns1", 0, VELSTATUS_E_PARSE, "time: missing unit in duration \"1ns1\""},
    {"1h 1m", 0, VELSTATUS_E_PARSE, "time: unknown unit \"h \" in duration \"1h 1m\""},
    {"9223372036854775807.9ns", INT64_C(9223372036854775807), VELSTATUS_OK, NULL},
    {"0.9223372036854775809h", INT64_C(3320413933267), VELSTATUS_OK, NULL},
    {"1.9999999999999999999999ns", INT64_C(2), VELSTATUS_OK, NULL},
    {"0x1s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"x\" in duration \"0x1s\""},
    {"1_000s", 0, VELSTATUS_E_PARSE, "time: unknown unit \"_\" in duration \"1_000s\""},
    {"1,5s", 0, VELSTATUS_E_PARSE, "time: unknown unit \",\" in duration \"1,5s\""},
    {"\331\243s", 0, VELSTATUS_E_PARSE, "time: invalid duration \"\\xd9\\xa3s\""},
    {"1hm", 0, VELSTATUS_E_PARSE, "time: unknown unit \"hm\" in duration \"1hm\""},
    {"1mh", 0, VELSTATUS_E_PARSE, "time: unknown unit \"mh\" in duration \"1mh\""},
    {"1sms", 0, VELSTATUS_E_PARSE, "time: unknown unit \"sms\" in duration \"1sms\""},
    {"5m30s", INT64_C(330000000000), VELSTATUS_OK, NULL},
    {"1h1m1s1ms1us1ns", INT64_C(3661001001001), VELSTATUS_OK, NULL},
    {"-1h-1m", 0, VELSTATUS_E_PARSE, "time: unknown unit \"h-\" in duration \"-1h-1m\""},
    {"1h+1m", 0, VELSTATUS_E_PARSE, "time: unknown unit \"h+\" in duration \"1h+1m\""},
    {"2562047h", INT64_C(9223369200000000000), VELSTATUS_OK, NULL},
    {"-2562047h", INT64_C(-9223369200000000000), VELSTATUS_OK, NULL},
    {"2562047h47m", INT64_C(9223372020000000000), VELSTATUS_OK, NULL},
    {"2562047h48m", 0, VELSTATUS_E_RANGE, "time: invalid duration \"2562047h48m\""},
    {"153722867m", INT64_C(9223372020000000000), VELSTATUS_OK, NULL},
    {"153722868m", 0, VELSTATUS_E_RANGE, "time: invalid duration \"153722868m\""},
    {"9223372036s", INT64_C(9223372036000000000), VELSTATUS_OK, NULL},
    {"9223372037s", 0, VELSTATUS_E_RANGE, "time: invalid duration \"9223372037s\""},
    {"9223372036.854775807s", INT64_C(9223372036854775807), VELSTATUS_OK, NULL},
    {"9223372036.854775808s", 0, VELSTATUS_E_RANGE, "time: invalid duration \"9223372036.854775808s\""},
    {"-9223372036.854775808s", INT64_MIN, VELSTATUS_OK, NULL},
    {"-9223372036.854775809s", 0, VELSTATUS_E_RANGE, "time: invalid duration \"-9223372036.854775809s\""},
    {"9223372036854775us", INT64_C(9223372036854775000), VELSTATUS_OK, NULL},
    {"9223372036854776us", 0, VELSTATUS_E_RANGE, "time: invalid duration \"9223372036854776us\""},
    {"0.000000000000000000000000000000000000000000000000000001h", INT64_C(0), VELSTATUS_OK, NULL},
    {"1.00000000000000000000000000000000000000000000000000000000000000000000001s", INT64_C(1000000000), VELSTATUS_OK,
     NULL},
};

START_TEST(duration_parse_go_vectors)
{
    for (size_t i = 0; i < sizeof(go_dparse) / sizeof(go_dparse[0]); i++) {
        const dparse_vec *v = &go_dparse[i];
        int64_t ns = 42;
        velstatus_error err;
        velstatus_status st;
        memset(&err, 0, sizeof(err));
        st = velstatus_duration_parse(&ns, v->s, strlen(v->s), &err);
        ck_assert_msg(st == v->st, "[%zu] \"%s\": %s, want %s (%s)", i, v->s, velstatus_status_name(st),
                      velstatus_status_name(v->st), err.message);
        if (st == VELSTATUS_OK) {
            ck_assert_msg(ns == v->ns, "[%zu] \"%s\": %" PRId64 ", want %" PRId64, i, v->s, ns, v->ns);
        } else {
            ck_assert(ns == 42);
            ck_assert_int_eq(err.code, v->st);
            ck_assert_str_eq(err.message, v->msg);
            ck_assert_int_eq(velstatus_duration_parse(&ns, v->s, strlen(v->s), NULL), v->st);
        }
    }
}
END_TEST

/* Go: time.ParseDuration on fractions where Go's float64 evaluation
 * f * (unit / scale) differs from both the other float order and from
 * exact decimal truncation; found by a random search against Go. */
static const struct {
    const char *s;
    int64_t ns;
} go_dparse_rounding[] = {
    {"98.438394627m", INT64_C(5906303677620)},      /* f*unit/scale would give 5906303677619, exact 5906303677620 */
    {"78.24858237h", INT64_C(281694896532000)},     /* f*unit/scale would give 281694896531999, exact 281694896532000 */
    {"81.44762355695m", INT64_C(4886857413417)},    /* f*unit/scale would give 4886857413416, exact 4886857413417 */
    {"1.5434055070m", INT64_C(92604330420)},        /* f*unit/scale would give 92604330419, exact 92604330420 */
    {"70.888842494m", INT64_C(4253330549640)},      /* f*unit/scale would give 4253330549639, exact 4253330549640 */
    {"1.11624815651h", INT64_C(4018493363436)},     /* f*unit/scale would give 4018493363435, exact 4018493363436 */
    {"20.95883311h", INT64_C(75451799196000)},      /* f*unit/scale would give 75451799195999, exact 75451799196000 */
    {"11.2730985010h", INT64_C(40583154603600)},    /* f*unit/scale would give 40583154603599, exact 40583154603600 */
    {"33.06082517908h", INT64_C(119018970644688)},  /* f*unit/scale would give 119018970644687, exact 119018970644688 */
    {"23.6028168267h", INT64_C(84970140576120)},    /* f*unit/scale would give 84970140576119, exact 84970140576120 */
    {"95.334552771m", INT64_C(5720073166260)},      /* f*unit/scale would give 5720073166259, exact 5720073166260 */
    {"64.597429712h", INT64_C(232550746963200)},    /* f*unit/scale would give 232550746963199, exact 232550746963200 */
    {"36.93236408824h", INT64_C(132956510717664)},  /* f*unit/scale would give 132956510717663, exact 132956510717664 */
    {"91.4966685927m", INT64_C(5489800115562)},     /* f*unit/scale would give 5489800115561, exact 5489800115562 */
    {"64.24945790329h", INT64_C(231298048451844)},  /* f*unit/scale would give 231298048451843, exact 231298048451844 */
    {"5.51338604597500h", INT64_C(19848189765509)}, /* exact decimal truncation would give 19848189765510 */
    {"86.94164512147000h", INT64_C(312989922437291)},   /* exact decimal truncation would give 312989922437292 */
    {"55.02935222081000h", INT64_C(198105667994915)},   /* exact decimal truncation would give 198105667994916 */
    {"42.59768367999750h", INT64_C(153351661247990)},   /* exact decimal truncation would give 153351661247991 */
    {"80.4179529509230555h", INT64_C(289504630623323)}, /* exact decimal truncation would give 289504630623322 */
    {"97.45619185179500h", INT64_C(350842290666461)},   /* exact decimal truncation would give 350842290666462 */
    {"41.54869912339000h", INT64_C(149575316844203)},   /* exact decimal truncation would give 149575316844204 */
    {"9.70204102079361101h", INT64_C(34927347674857)},  /* exact decimal truncation would give 34927347674856 */
    {"65.8020112622233333h", INT64_C(236887240544004)}, /* exact decimal truncation would give 236887240544003 */
    {"29.11935284751750h", INT64_C(104829670251062)},   /* exact decimal truncation would give 104829670251063 */
    {"41.96376634224750h", INT64_C(151069558832090)},   /* exact decimal truncation would give 151069558832091 */
    {"34.01714814878500h", INT64_C(122461733335625)},   /* exact decimal truncation would give 122461733335626 */
    {"2.53144677999500h", INT64_C(9113208407981)},      /* exact decimal truncation would give 9113208407982 */
    {"5.335049732563055542h", INT64_C(19206179037227)}, /* exact decimal truncation would give 19206179037226 */
    {"54.26065642243750h", INT64_C(195338363120774)},   /* exact decimal truncation would give 195338363120775 */
};

START_TEST(duration_parse_go_rounding)
{
    for (size_t i = 0; i < sizeof(go_dparse_rounding) / sizeof(go_dparse_rounding[0]); i++) {
        int64_t ns = 0;
        const char *s = go_dparse_rounding[i].s;
        ck_assert_int_eq(velstatus_duration_parse(&ns, s, strlen(s), NULL), VELSTATUS_OK);
        ck_assert_msg(ns == go_dparse_rounding[i].ns, "\"%s\": %" PRId64 ", Go says %" PRId64, s, ns,
                      go_dparse_rounding[i].ns);
        /* the sign only negates */
        {
            char neg[64];
            int64_t nns = 0;
            snprintf(neg, sizeof(neg), "-%s", s);
            ck_assert_int_eq(velstatus_duration_parse(&nns, neg, strlen(neg), NULL), VELSTATUS_OK);
            ck_assert(nns == -ns);
        }
    }
}
END_TEST

typedef struct {
    int64_t ns;
    const char *s;
} dfmt_vec;

/* Go: time.Duration(ns).String(). */
static const dfmt_vec go_dfmt[] = {
    {INT64_C(0), "0s"},
    {INT64_C(1), "1ns"},
    {INT64_C(-1), "-1ns"},
    {INT64_C(999), "999ns"},
    {INT64_C(1000), "1\302\265s"},
    {INT64_C(1001), "1.001\302\265s"},
    {INT64_C(1500), "1.5\302\265s"},
    {INT64_C(999999), "999.999\302\265s"},
    {INT64_C(1000000), "1ms"},
    {INT64_C(1500000), "1.5ms"},
    {INT64_C(999999999), "999.999999ms"},
    {INT64_C(1000000000), "1s"},
    {INT64_C(1500000000), "1.5s"},
    {INT64_C(60000000000), "1m0s"},
    {INT64_C(61000000000), "1m1s"},
    {INT64_C(3600000000000), "1h0m0s"},
    {INT64_C(3661000000001), "1h1m1.000000001s"},
    {INT64_C(-120000000000), "-2m0s"},
    {INT64_C(14400000000000), "4h0m0s"},
    {INT64_C(9223372036854775807), "2562047h47m16.854775807s"},
    {INT64_MIN, "-2562047h47m16.854775808s"},
    {INT64_C(-9223372036854775807), "-2562047h47m16.854775807s"},
    {INT64_C(-1000), "-1\302\265s"},
    {INT64_C(-999999999), "-999.999999ms"},
    {INT64_C(100), "100ns"},
    {INT64_C(10000000), "10ms"},
    {INT64_C(123456789), "123.456789ms"},
    {INT64_C(86400000000000), "24h0m0s"},
    {INT64_C(59999999999), "59.999999999s"},
};

START_TEST(duration_format_go_vectors)
{
    for (size_t i = 0; i < sizeof(go_dfmt) / sizeof(go_dfmt[0]); i++) {
        char buf[VELSTATUS_DURATION_BUFSIZE];
        int64_t back = 0;
        ck_assert_int_eq(velstatus_duration_format(buf, sizeof(buf), go_dfmt[i].ns, NULL), VELSTATUS_OK);
        ck_assert_str_eq(buf, go_dfmt[i].s);
        /* and Go's output parses back to the same duration */
        ck_assert_int_eq(velstatus_duration_parse(&back, buf, strlen(buf), NULL), VELSTATUS_OK);
        ck_assert(back == go_dfmt[i].ns);
    }
}
END_TEST

START_TEST(duration_brief_cases)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    int64_t ns = 0;
    velstatus_error err;
    ck_assert_int_eq(velstatus_duration_format(buf, sizeof(buf), INT64_MIN, NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "-2562047h47m16.854775808s");
    ck_assert_int_eq(velstatus_duration_parse(&ns, buf, strlen(buf), NULL), VELSTATUS_OK);
    ck_assert(ns == INT64_MIN);
    ck_assert_int_eq(velstatus_duration_format(buf, sizeof(buf), 1000, NULL), VELSTATUS_OK);
    ck_assert_str_eq(buf, "1\xc2\xb5s"); /* U+00B5, as Go prints */
    /* both micro signs, and "us", parse */
    ck_assert_int_eq(velstatus_duration_parse(&ns, "7\xc2\xb5s", 4, NULL), VELSTATUS_OK);
    ck_assert(ns == 7000);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "7\xce\xbcs", 4, NULL), VELSTATUS_OK);
    ck_assert(ns == 7000);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "7us", 3, NULL), VELSTATUS_OK);
    ck_assert(ns == 7000);
    /* "0" alone needs no unit; "00" does */
    ck_assert_int_eq(velstatus_duration_parse(&ns, "0", 1, NULL), VELSTATUS_OK);
    ck_assert(ns == 0);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "00", 2, &err), VELSTATUS_E_PARSE);
    ck_assert_str_eq(err.message, "time: missing unit in duration \"00\"");
    /* not read past len */
    ck_assert_int_eq(velstatus_duration_parse(&ns, "1h30m", 2, NULL), VELSTATUS_OK);
    ck_assert(ns == INT64_C(3600000000000));
    ck_assert_int_eq(velstatus_duration_parse(&ns, "1h\0", 3, &err), VELSTATUS_E_PARSE);
    ck_assert_str_eq(err.message, "time: unknown unit \"h\\x00\" in duration \"1h\\x00\"");
    /* 2^63 ns overflows only when positive */
    ck_assert_int_eq(velstatus_duration_parse(&ns, "-9223372036854775808ns", 22, NULL), VELSTATUS_OK);
    ck_assert(ns == INT64_MIN);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "9223372036854775808ns", 21, &err), VELSTATUS_E_RANGE);
    ck_assert_str_eq(err.message, "time: invalid duration \"9223372036854775808ns\"");
    /* overflow through the fraction and through the sum of parts */
    ck_assert_int_eq(velstatus_duration_parse(&ns, "2562047.9h", 10, NULL), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "2562047h2562047h", 16, NULL), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "-2562047h2562047h", 17, NULL), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_duration_parse(&ns, "2562048h", 8, NULL), VELSTATUS_E_RANGE);
}
END_TEST

START_TEST(duration_long_input_quoted_and_cut)
{
    char big[3000];
    int64_t ns = 0;
    velstatus_error err;
    memset(big, '1', sizeof(big));
    big[0] = 'x';
    ck_assert_int_eq(velstatus_duration_parse(&ns, big, sizeof(big), &err), VELSTATUS_E_PARSE);
    ck_assert_uint_lt(strlen(err.message), sizeof(err.message) - 1);
    ck_assert_msg(strncmp(err.message, "time: invalid duration \"x111", 28) == 0, "%s", err.message);
    ck_assert_msg(strcmp(err.message + strlen(err.message) - 4, "\"...") == 0, "%s", err.message);
    /* a long unit is cut too, and both quotes still fit */
    memset(big, 'h', sizeof(big));
    big[0] = '1';
    ck_assert_int_eq(velstatus_duration_parse(&ns, big, sizeof(big), &err), VELSTATUS_E_PARSE);
    ck_assert_msg(strncmp(err.message, "time: unknown unit \"hhh", 23) == 0, "%s", err.message);
    ck_assert_ptr_nonnull(strstr(err.message, "\"... in duration \"1hh"));
    /* long numbers of digits are fine when the value is */
    memset(big, '0', sizeof(big));
    big[sizeof(big) - 2] = '7';
    big[sizeof(big) - 1] = 's';
    ck_assert_int_eq(velstatus_duration_parse(&ns, big, sizeof(big), &err), VELSTATUS_OK);
    ck_assert(ns == INT64_C(7000000000));
}
END_TEST

START_TEST(duration_null_and_buffers)
{
    char full[VELSTATUS_DURATION_BUFSIZE], buf[VELSTATUS_DURATION_BUFSIZE];
    int64_t ns = 3;
    velstatus_error err;
    static const int64_t vals[] = {0, 1, 1000, INT64_MIN, INT64_MAX, -120000000000};
    ck_assert_int_eq(velstatus_duration_parse(NULL, "1s", 2, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "out_ns"));
    ck_assert_int_eq(velstatus_duration_parse(&ns, NULL, 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_duration_parse(&ns, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_str_eq(err.message, "time: invalid duration \"\"");
    ck_assert(ns == 3);
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        size_t n;
        ck_assert_int_eq(velstatus_duration_format(full, sizeof(full), vals[i], NULL), VELSTATUS_OK);
        n = strlen(full);
        for (size_t cap = 0; cap <= n + 1; cap++) {
            velstatus_status st;
            memset(buf, 'x', sizeof(buf));
            st = velstatus_duration_format(buf, cap, vals[i], &err);
            if (cap <= n) {
                ck_assert_int_eq(st, VELSTATUS_E_RANGE);
                ck_assert_int_eq(err.code, VELSTATUS_E_RANGE);
                if (cap > 0)
                    ck_assert_int_eq(buf[0], '\0');
                for (size_t k = cap > 0 ? 1 : 0; k < sizeof(buf); k++)
                    ck_assert_int_eq(buf[k], 'x');
            } else {
                ck_assert_int_eq(st, VELSTATUS_OK);
                ck_assert_str_eq(buf, full);
            }
        }
    }
}
END_TEST

static void roundtrip_duration(int64_t d)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    int64_t back = 0;
    velstatus_error err;
    VS_REQUIRE(velstatus_duration_format(buf, sizeof(buf), d, &err) == VELSTATUS_OK, "%" PRId64, d);
    VS_REQUIRE(velstatus_duration_parse(&back, buf, strlen(buf), &err) == VELSTATUS_OK, "%s: %s", buf, err.message);
    VS_REQUIRE(back == d, "%" PRId64 " -> %s -> %" PRId64, d, buf, back);
}

START_TEST(roundtrip_durations)
{
    uint64_t u = 0;
    for (int i = 0, n = (int)vs_test_iterations(200000); i < n; i++) {
        u += UINT64_C(0x9E3779B97F4A7C15);
        roundtrip_duration((int64_t)(u ^ (u >> 31)));
        roundtrip_duration((int64_t)(u >> (i % 64))); /* every magnitude */
        roundtrip_duration(-(int64_t)(u >> (i % 63 + 1)));
    }
    for (int64_t k = 0; k < 3000; k++) {
        roundtrip_duration(INT64_MIN + k);
        roundtrip_duration(INT64_MAX - k);
        roundtrip_duration(k - 1500);
        roundtrip_duration(k * 1000);
        roundtrip_duration(k * 1000000 - 1);
        roundtrip_duration(k * INT64_C(60000000000));
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("time");
    TCase *tc = tcase_create("time");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, parse_go_vectors);
    tcase_add_test(tc, parse_modern_go_vectors);
    tcase_add_test(tc, parse_brief_cases);
    tcase_add_test(tc, parse_error_positions);
    tcase_add_test(tc, parse_error_quoting);
    tcase_add_test(tc, parse_null_arguments);
    tcase_add_test(tc, parse_success_leaves_err_alone);
    tcase_add_test(tc, calendar_every_day);
    tcase_add_test(tc, format_go_vectors);
    tcase_add_test(tc, format_brief_cases);
    tcase_add_test(tc, format_buffer_sizes);
    tcase_add_test(tc, format_null_arguments);
    tcase_add_test(tc, roundtrip_instants);
    tcase_add_test(tc, duration_parse_go_vectors);
    tcase_add_test(tc, duration_parse_go_rounding);
    tcase_add_test(tc, duration_format_go_vectors);
    tcase_add_test(tc, duration_brief_cases);
    tcase_add_test(tc, duration_long_input_quoted_and_cut);
    tcase_add_test(tc, duration_null_and_buffers);
    tcase_add_test(tc, roundtrip_durations);
    suite_add_tcase(s, tc);
    return s;
}
