/* SPDX-License-Identifier: Apache-2.0 */
/* The watch-stream splitter (tools/watch_stream.c): the same objects and
 * errors, at the same positions, whatever the byte boundaries of the feeds;
 * compact, indented and concatenated objects; malformed stretches reported
 * and skipped to the next "\n{"; a failed allocation loses nothing. Every
 * test runs twice: as the splitter validates, and in quick mode, where the
 * callback validates each unchecked object as the CLI's decoder does and
 * asks for a recheck of one that is not JSON: the same log either way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "watch_stream.h"

typedef struct log {
    char text[8192];
    size_t n;
    int stop_at; /* stop the feed at this object (1-based), 0 never */
    int count;
    const vs_watch_split *sp;
    int unchecked, rechecks; /* objects handed out unchecked, and those sent back */
} log_t;

static int on_obj(void *ud, const char *obj, size_t len, vs_watch_pos at);
static int on_err(void *ud, vs_watch_pos at, const char *reason);

/* Quick mode for the test being run (the loop index: 0 or 1). */
static int quick;

/* Sets up sp for log l in the current mode. */
static void split_init(vs_watch_split *sp, log_t *l, size_t max_object)
{
    vs_watch_split_init(sp, max_object, on_obj, on_err, l);
    sp->quick = quick;
    l->sp = sp;
}

static int on_obj(void *ud, const char *obj, size_t len, vs_watch_pos at)
{
    log_t *l = ud;
    size_t end = 0;
    if (l->sp && l->sp->unchecked) {
        l->unchecked++;
        if (velstatus_json_value_end(&end, NULL, obj, len, NULL) != VELSTATUS_OK || end != len) {
            l->rechecks++;
            return VS_WATCH_RECHECK;
        }
    }
    l->n += (size_t)snprintf(l->text + l->n, sizeof(l->text) - l->n, "O@%llu:%llu:%.*s\n",
                             (unsigned long long)at.offset, (unsigned long long)at.line, (int)len, obj);
    return ++l->count == l->stop_at;
}

static int on_err(void *ud, vs_watch_pos at, const char *reason)
{
    log_t *l = ud;
    l->n += (size_t)snprintf(l->text + l->n, sizeof(l->text) - l->n, "E@%llu:%llu:%s\n", (unsigned long long)at.offset,
                             (unsigned long long)at.line, reason);
    return 0;
}

/* Splits s at the cut points (sorted offsets) and logs what comes out;
 * the pieces fed in turn with a copy (vs_watch_split_feed) and written
 * into the splitter's room (vs_watch_split_space, as the CLI reads). */
static void run(log_t *l, const char *s, const size_t *cuts, size_t ncuts, size_t max_object)
{
    vs_watch_split sp;
    size_t prev = 0, n = strlen(s);
    memset(l, 0, sizeof(*l));
    split_init(&sp, l, max_object);
    for (size_t i = 0; i <= ncuts; i++) {
        size_t next = i < ncuts ? cuts[i] : n;
        char *room = i % 2 && next > prev ? vs_watch_split_space(&sp, next - prev) : NULL;
        if (room) {
            memcpy(room, s + prev, next - prev);
            ck_assert_int_eq(vs_watch_split_commit(&sp, next - prev), 0);
        } else {
            ck_assert_int_eq(vs_watch_split_feed(&sp, s + prev, next - prev), 0);
        }
        prev = next;
    }
    ck_assert_int_eq(vs_watch_split_end(&sp), 0);
    vs_watch_split_free(&sp);
}

static const char stream[] =
    "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a}{\\\"\"}}}\n"
    "{\n  \"kind\": \"BackupStorageLocation\",\n  \"metadata\": {\n    \"name\": \"b\"\n  }\n}\n"
    "{\"type\":\"BOOKMARK\"}{\"type\":\"DELETED\"}   \r\n\t"
    "garbage\n"
    "{\"type\":\"MODIFIED\",\"object\":{\"x\": oops, \"y\": {\n  \"z\": 1}}}\n"
    "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}\n"
    "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"na";

/* Offsets and lines computed by hand from the text above: the objects
 * start at bytes 0, 56 (line 2), 131 and 150 (line 8, concatenated) and 241
 * (line 12); "garbage" is at 174 (line 9, after a tab); the bad literal at
 * 216 (line 10); the last object's unterminated string at 334 (line 13). */
static const char expected[] =
    "O@0:1:{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a}{\\\"\"}}}\n"
    "O@56:2:{\n  \"kind\": \"BackupStorageLocation\",\n  \"metadata\": {\n    \"name\": \"b\"\n  }\n}\n"
    "O@131:8:{\"type\":\"BOOKMARK\"}\n"
    "O@150:8:{\"type\":\"DELETED\"}\n"
    "E@174:9:a JSON object ('{') expected\n"
    "E@216:10:invalid literal (true, false or null expected)\n"
    "O@241:12:{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}\n"
    "E@334:13:unterminated string\n";

/* s split whole gives the log want; in quick mode `unchecked` objects went
 * out unchecked and `rechecks` of them were sent back (none otherwise). */
static void assert_whole(const char *s, const char *want, int unchecked, int rechecks)
{
    log_t l;
    run(&l, s, NULL, 0, 1 << 20);
    ck_assert_str_eq(l.text, want);
    ck_assert_int_eq(l.unchecked, quick ? unchecked : 0);
    ck_assert_int_eq(l.rechecks, quick ? rechecks : 0);
}

/* s split at every single byte gives the log want. */
static void assert_every_cut(const char *s, const char *want)
{
    log_t l;
    for (size_t c = 0; c <= strlen(s); c++) {
        run(&l, s, &c, 1, 1 << 20);
        ck_assert_msg(strcmp(l.text, want) == 0, "cut at %zu:\n%s", c, l.text);
    }
}

START_TEST(whole_stream)
{
    quick = _i;
    /* quick: four objects go unchecked; the line of the two concatenated
     * ones is handed out whole and sent back (the scanner cuts the first,
     * the second goes unchecked); the bad literal's brackets close and it
     * is sent back; the last one never closes */
    assert_whole(stream, expected, 6, 2);
}
END_TEST

/* Lines that end with '}' but are not one object: an object whose first
 * line ends with '}', two objects on one line (after a blank, before a
 * "\r\n"), a '}' in a string, and a last object without a newline. Quick
 * mode hands out each such line, is sent back and the scanner cuts it: the
 * same log as the validating splitter's, at every single cut. */
static const char lines_stream[] = "{\"a\":{\"b\":1}\n,\"c\":2}\n{\"d\":1} {\"e\":2}\r\n{\"f\":\"}\"}\n{\"g\":1}";
static const char lines_expected[] = "O@0:1:{\"a\":{\"b\":1}\n,\"c\":2}\n"
                                     "O@21:3:{\"d\":1}\n"
                                     "O@29:3:{\"e\":2}\n"
                                     "O@38:4:{\"f\":\"}\"}\n"
                                     "O@48:5:{\"g\":1}\n";

START_TEST(lines_that_are_not_one_object)
{
    quick = _i;
    assert_whole(lines_stream, lines_expected, 5, 2); /* the two lines sent back, then e, f and g */
    assert_every_cut(lines_stream, lines_expected);
}
END_TEST

/* Indented objects cut at the first '}' in column 0 (kubectl's layout):
 * one whose nested object closes in column 0 is sent back at that cut,
 * and the scanner cuts it whole; then one in kubectl's layout goes out
 * unchecked, and a last one never closes. */
static const char column0_stream[] = "{\n\"a\": {\n\"b\": 1\n}\n}\n{\n    \"c\": 2\n}\n{\n    \"d\": [\n";
static const char column0_expected[] = "O@0:1:{\n\"a\": {\n\"b\": 1\n}\n}\n"
                                       "O@20:6:{\n    \"c\": 2\n}\n"
                                       "E@48:11:the stream ends inside an object\n";

START_TEST(column_zero_braces)
{
    quick = _i;
    assert_whole(column0_stream, column0_expected, 2, 1);
    assert_every_cut(column0_stream, column0_expected);
}
END_TEST

START_TEST(every_single_cut)
{
    quick = _i;
    assert_every_cut(stream, expected);
}
END_TEST

START_TEST(random_cuts)
{
    quick = _i;
    log_t l;
    size_t n = strlen(stream), cuts[64];
    unsigned seed = 12345;
    for (long it = 0; it < vs_test_iterations(3000); it++) {
        size_t k = 0;
        for (size_t c = 0; c < n && k < 64; c++) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 7 == 0)
                cuts[k++] = c;
        }
        run(&l, stream, cuts, k, 1 << 20);
        ck_assert_msg(strcmp(l.text, expected) == 0, "iteration %ld:\n%s", it, l.text);
    }
}
END_TEST

START_TEST(byte_at_a_time)
{
    quick = _i;
    log_t l;
    size_t n = strlen(stream), cuts[sizeof(stream)];
    for (size_t c = 0; c < n; c++)
        cuts[c] = c;
    run(&l, stream, cuts, n, 1 << 20);
    ck_assert_str_eq(l.text, expected);
}
END_TEST

/* An object cut short by the next one (a kubectl killed mid-write, then
 * restarted): reported at its own start, and the next object, which begins
 * before the byte where the scan failed, is not lost (issue 24). The same
 * for every cut of the feed. */
START_TEST(object_cut_short_by_the_next)
{
    quick = _i;
    static const char s[] = "{\"a\":1}\n{\"type\": \"MODIFIED\", \"object\": {\"metadata\": \n{\"b\":2}\n"
                            "{\"type\": \"MODIFIED\", \"object\": {\"na\n{\"c\":3}\n";
    static const char want[] = "O@0:1:{\"a\":1}\n"
                               "E@8:2:an object cut short: the next one starts on a later line\n"
                               "O@53:3:{\"b\":2}\n"
                               "E@96:4:raw control character in a string\n"
                               "O@97:5:{\"c\":3}\n";
    log_t l;
    for (size_t c = 0; c <= strlen(s); c++) {
        run(&l, s, &c, 1, 1 << 20);
        ck_assert_msg(strcmp(l.text, want) == 0, "cut at %zu:\n%s", c, l.text);
    }
}
END_TEST

START_TEST(object_larger_than_limit)
{
    quick = _i;
    log_t l;
    const char *s = "{\"a\":\"0123456789012345678901234567890123456789\"}\n{\"b\":1}\n";
    size_t cuts[] = {10, 20, 30};
    run(&l, s, cuts, 3, 16);
    ck_assert_str_eq(l.text, "E@0:1:an object larger than the limit (--max-input)\nO@49:2:{\"b\":1}\n");
}
END_TEST

/* Stretches over the limit one after another in one feed: each is reported,
 * and what follows is split at once (the buffer stays within the limit). */
START_TEST(limit_stretches_in_one_feed)
{
    quick = _i;
    log_t l;
    vs_watch_split sp;
    const char *a = "{\"a\":[1,2,3,4,5,6,7,8,9\n{\"b\":[1,2,3,4,5,6,7,8,9\n{\"c\":[";
    memset(&l, 0, sizeof(l));
    split_init(&sp, &l, 16);
    ck_assert_int_eq(vs_watch_split_feed(&sp, a, strlen(a)), 0);
    ck_assert_uint_le(sp.len, 16);
    ck_assert_int_eq(vs_watch_split_feed(&sp, "1]}\n", 4), 0);
    ck_assert_int_eq(vs_watch_split_end(&sp), 0);
    ck_assert_str_eq(l.text, "E@0:1:an object larger than the limit (--max-input)\n"
                             "E@24:2:an object larger than the limit (--max-input)\n"
                             "O@48:3:{\"c\":[1]}\n");
    vs_watch_split_free(&sp);
}
END_TEST

START_TEST(stop_from_callback)
{
    quick = _i;
    log_t l;
    vs_watch_split sp;
    memset(&l, 0, sizeof(l));
    l.stop_at = 2;
    split_init(&sp, &l, 1 << 20);
    ck_assert_int_eq(vs_watch_split_feed(&sp, "{}{\"x\":1}{}", 11), 1);
    ck_assert_int_eq(l.count, 2);
    vs_watch_split_free(&sp);
}
END_TEST

static int fail_next;
static void *failing_realloc(void *p, size_t n)
{
    if (fail_next) {
        fail_next = 0;
        return NULL;
    }
    return realloc(p, n);
}

/* A feed whose buffer must grow fails, with bytes buffered from before; the
 * same bytes fed again give what a run without the failure gives. */
START_TEST(failed_allocation_loses_nothing)
{
    quick = _i;
    static char big[sizeof(stream) + 5000];
    log_t ref, l;
    vs_watch_split sp;
    size_t n = strlen(stream);
    for (size_t c = 1; c < n; c += 7) {
        memcpy(big, stream, c);
        memset(big + c, ' ', 5000);
        memcpy(big + c + 5000, stream + c, n - c + 1);
        run(&ref, big, NULL, 0, 1 << 20);
        memset(&l, 0, sizeof(l));
        split_init(&sp, &l, 1 << 20);
        sp.realloc_fn = failing_realloc;
        ck_assert_int_eq(vs_watch_split_feed(&sp, big, c), 0);
        fail_next = 1;
        ck_assert_int_eq(vs_watch_split_feed(&sp, big + c, strlen(big) - c), -1);
        ck_assert_int_eq(vs_watch_split_feed(&sp, big + c, strlen(big) - c), 0);
        ck_assert_int_eq(vs_watch_split_end(&sp), 0);
        ck_assert_msg(strcmp(l.text, ref.text) == 0, "cut at %zu:\n%s\nwant\n%s", c, l.text, ref.text);
        vs_watch_split_free(&sp);
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("watch_stream");
    TCase *tc = tcase_create("split");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, whole_stream, 0, 2);
    tcase_add_loop_test(tc, lines_that_are_not_one_object, 0, 2);
    tcase_add_loop_test(tc, column_zero_braces, 0, 2);
    tcase_add_loop_test(tc, every_single_cut, 0, 2);
    tcase_add_loop_test(tc, random_cuts, 0, 2);
    tcase_add_loop_test(tc, byte_at_a_time, 0, 2);
    tcase_add_loop_test(tc, object_cut_short_by_the_next, 0, 2);
    tcase_add_loop_test(tc, object_larger_than_limit, 0, 2);
    tcase_add_loop_test(tc, limit_stretches_in_one_feed, 0, 2);
    tcase_add_loop_test(tc, stop_from_callback, 0, 2);
    tcase_add_loop_test(tc, failed_allocation_loses_nothing, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
