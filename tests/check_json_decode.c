/* SPDX-License-Identifier: Apache-2.0 */
/* The decoders of untrusted JSON (issue 10): the scanner that finds value
 * boundaries (lib/common/json_scan.c), and one regression test per defect, each
 * with its reproducer under tests/data/decode/. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "failalloc.h"
#include "harness.h"
#include "common/json_scan.h"
#include "server_status/private.h"
#include <velstatus.h>
#include <velstatus/experimental.h>

static velstatus_oplist *decode_ok(velstatus_ctx *ctx, velstatus_kind kind, const char *json, size_t len)
{
    velstatus_oplist *l = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_oplist_from_json(&l, ctx, kind, json, len, &err);
    ck_assert_msg(st == VELSTATUS_OK, "decode failed: %s", st == VELSTATUS_OK ? "" : err.message);
    return l;
}

static char *encode(const velstatus_oplist *l)
{
    char *out = NULL;
    ck_assert_int_eq(velstatus_oplist_to_json(&out, NULL, l, NULL), VELSTATUS_OK);
    return out;
}

/* ---- the scanner ---- */

typedef struct scan_case {
    const char *text;
    size_t len;  /* 0: strlen */
    long end;    /* the value's end, or -1: rejected */
    long err_at; /* where a rejection points */
    velstatus_status code;
} scan_case;

#define ACC(t, e)                \
    {                            \
        t, 0, e, 0, VELSTATUS_OK \
    }
#define REJ(t, at)                      \
    {                                   \
        t, 0, -1, at, VELSTATUS_E_PARSE \
    }
#define RANGE(t)                       \
    {                                  \
        t, 0, -1, 0, VELSTATUS_E_RANGE \
    }

static const scan_case scan_cases[] = {
    ACC("1", 1),
    ACC("-0", 2),
    ACC("0.5e-3,", 6),
    ACC("12]", 2),
    ACC("true ", 4),
    ACC("null}", 4),
    ACC("false", 5),
    ACC("\"a\\\"b\" x", 6),
    ACC("{} ", 2),
    ACC("[ ] ", 3),
    ACC("{\"a\" : [1, {\"b\":null}] }x", 24),
    ACC("\"\\u0000\"", 8),
    ACC("\"\\ud83d\\ude00\"", 14),
    ACC("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", 11),
    ACC("9223372036854775807", 19),
    ACC("-9223372036854775808", 20),
    ACC("1e-400", 6),
    ACC("1.7976931348623157e308", 22),
    ACC("{\"a\":1,\"a\":2}", 13),
    REJ("01", 0),
    REJ("-", 0),
    REJ("1.", 0),
    REJ("1e+", 0),
    REJ(".5", 0),
    REJ("+1", 0),
    REJ("tru", 0),
    REJ("truex", 0),
    REJ("[1,]", 3),
    REJ("{\"a\":1,}", 7),
    REJ("{\"a\" 1}", 5),
    REJ("{1:2}", 1),
    REJ("[1 2]", 3),
    REJ("\"abc", 0),
    REJ("\"a\tb\"", 2),
    REJ("\"\\x\"", 1),
    REJ("\"\\u12G4\"", 1),
    REJ("\"\\ud800\"", 1),
    REJ("\"\\udc00\"", 1),
    REJ("\"\\ud800\\u0041\"", 1),
    REJ("{\"\\u0000\":1}", 2),
    REJ("\"\xff\"", 1),
    REJ("\"\xc0\xaf\"", 1),
    REJ("\"\xed\xa0\x80\"", 1),
    REJ("\"\xf4\x90\x80\x80\"", 1),
    REJ("\xef\xbb\xbf[]", 0),
    REJ("[", 1),
    REJ("", 0),
    /* raw NUL bytes: jansson skips one after a number or literal; never here */
    {"[7\0]", 4, -1, 2, VELSTATUS_E_PARSE},
    {"[true\0]", 7, -1, 5, VELSTATUS_E_PARSE},
    {"{\"a\":7\0}", 8, -1, 6, VELSTATUS_E_PARSE},
    {"\"a\0\"", 4, -1, 2, VELSTATUS_E_PARSE},
    {"[\0]", 3, -1, 1, VELSTATUS_E_PARSE},
    {"{\"a\"\0:1}", 8, -1, 4, VELSTATUS_E_PARSE},
    RANGE("9223372036854775808"),
    RANGE("-9223372036854775809"),
    RANGE("1e400"),
    RANGE("-1e400"),
    RANGE("1.7976931348623159e308"),
    RANGE("[1,2,99999999999999999999]"),
};

START_TEST(scanner_boundaries_and_rejections)
{
    size_t k;
    for (k = 0; k < sizeof(scan_cases) / sizeof(scan_cases[0]); k++) {
        const scan_case *c = &scan_cases[k];
        size_t len = c->len ? c->len : strlen(c->text), end = 12345;
        velstatus__json_scan_err e;
        int ok = velstatus__json_scan(c->text, len, &end, &e);
        if (c->end >= 0) {
            ck_assert_msg(ok, "case %zu [%s] rejected: %s at %zu", k, c->text, ok ? "" : e.reason, e.off);
            ck_assert_msg(end == (size_t)c->end, "case %zu [%s]: end %zu, want %ld", k, c->text, end, c->end);
        } else {
            ck_assert_msg(!ok, "case %zu [%s] accepted", k, c->text);
            ck_assert_msg(e.code == c->code, "case %zu [%s]: code %d", k, c->text, (int)e.code);
            if (c->code == VELSTATUS_E_PARSE)
                ck_assert_msg(e.off == (size_t)c->err_at, "case %zu [%s]: at %zu, want %ld (%s)", k, c->text, e.off,
                              c->err_at, e.reason);
            ck_assert_ptr_nonnull(e.reason);
        }
    }
}
END_TEST

/* jansson's limit: 2048 nested levels pass, 2049 fail. */
START_TEST(scanner_depth_limit)
{
    size_t depth;
    for (depth = VELSTATUS__JSON_MAX_DEPTH; depth <= VELSTATUS__JSON_MAX_DEPTH + 1; depth++) {
        char *b = malloc(2 * depth);
        size_t end = 0;
        velstatus__json_scan_err e;
        int ok;
        ck_assert_ptr_nonnull(b);
        memset(b, '[', depth);
        memset(b + depth, ']', depth);
        ok = velstatus__json_scan(b, 2 * depth, &end, &e);
        if (depth == VELSTATUS__JSON_MAX_DEPTH) {
            ck_assert(ok);
            ck_assert_uint_eq(end, 2 * depth);
        } else {
            ck_assert(!ok);
            ck_assert_uint_eq(e.off, VELSTATUS__JSON_MAX_DEPTH);
            ck_assert_ptr_nonnull(strstr(e.reason, "2048"));
        }
        free(b);
    }
}
END_TEST

START_TEST(scanner_walks_members_and_elements)
{
    const char *t = "{ \"a\" : [1, \"x,]\" , {\"b\":{}}] , \"c\\\"d\":null}";
    velstatus__json_iter it, in;
    size_t end, ks, ke, vs, ve, k = 0;
    velstatus__json_scan_err e;
    ck_assert(velstatus__json_scan(t, strlen(t), &end, &e));
    velstatus__json_iter_init(&it, t, 0, end);
    ck_assert(velstatus__json_next_member(&it, &ks, &ke, &vs, &ve));
    ck_assert_uint_eq(ks, 2);
    ck_assert_uint_eq(ke, 5);
    ck_assert_int_eq(t[vs], '[');
    ck_assert_int_eq(t[ve - 1], ']');
    velstatus__json_iter_init(&in, t, vs, ve);
    while (velstatus__json_next_element(&in, &vs, &ve))
        k++;
    ck_assert_uint_eq(k, 3);
    ck_assert(velstatus__json_next_member(&it, &ks, &ke, &vs, &ve));
    ck_assert_uint_eq(ke - ks, 6);
    ck_assert(strncmp(t + vs, "null", ve - vs) == 0 && ve - vs == 4);
    ck_assert(!velstatus__json_next_member(&it, &ks, &ke, &vs, &ve));
}
END_TEST

/* Every span of the walk over `t`, depth first: member keys (when objects)
 * and values, written as "ks-ke:vs-ve;" into out. */
static void walk_spans(char *out, size_t cap, const char *t, size_t vs, size_t ve, velstatus__json_tape *tape)
{
    velstatus__json_iter it;
    size_t ks = 0, ke = 0, a, b;
    int obj = t[vs] == '{';
    if (t[vs] != '{' && t[vs] != '[')
        return;
    if (tape)
        velstatus__json_iter_init_tape(&it, t, vs, ve, tape);
    else
        velstatus__json_iter_init(&it, t, vs, ve);
    while (obj ? velstatus__json_next_member(&it, &ks, &ke, &a, &b) : velstatus__json_next_element(&it, &a, &b)) {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%zu-%zu:%zu-%zu;", ks, ke, a, b);
        walk_spans(out, cap, t, a, b, tape);
    }
}

/* The ends the scan records (the tape) give the walk the very spans it
 * finds without them: within the tape's limits, and past them (more
 * entries than it holds, containers nested deeper than it follows), where
 * the walk finds the ends itself. The text starts at an offset (the tape's
 * base), as a record in the middle of a file does. */
START_TEST(scanner_tape_gives_the_walk_its_spans)
{
    static char t[16384], plain[65536], taped[65536];
    static velstatus__json_tape tape;
    const char *const texts[] = {
        "  {\"a\" : [1, \"x,]\" , {\"b\":{}}] , \"c\\\"d\":null, \"e\": -1.5e3, \"f\":[[],{}]}",
        "  [[[[[[[[[[[[[[[[[[[[{\"deep\":[1,2,{\"x\":\"y\"}]}]]]]]]]]]]]]]]]]]]]]",
        NULL, /* built below: more entries than the tape holds */
    };
    size_t k, n = 3, end, used = 0;
    velstatus__json_scan_err e;
    for (k = 0; k < 300; k++) /* 600 entries: keys and values */
        used += (size_t)snprintf(t + used, sizeof(t) - used, "%s\"k%zu\":{\"v\":[%zu]}", k ? "," : "  {", k, k);
    snprintf(t + used, sizeof(t) - used, "}");
    for (k = 0; k < n; k++) {
        const char *x = texts[k] ? texts[k] : t;
        plain[0] = taped[0] = '\0';
        ck_assert(velstatus__json_scan_tape(x + 2, strlen(x) - 2, &end, &e, &tape, 2));
        ck_assert(tape.active);
        ck_assert_uint_eq(end, strlen(x) - 2);
        ck_assert_uint_le(tape.n, VELSTATUS__JSON_TAPE);
        ck_assert_uint_eq(tape.start[0], 0);
        ck_assert_uint_eq(tape.end[0], end); /* the outermost container */
        walk_spans(plain, sizeof(plain), x, 2, 2 + end, NULL);
        walk_spans(taped, sizeof(taped), x, 2, 2 + end, &tape);
        ck_assert_str_eq(taped, plain);
        ck_assert_uint_gt(strlen(plain), 0);
    }
    ck_assert_uint_eq(tape.n, VELSTATUS__JSON_TAPE); /* the last text overflowed it */
    /* a text the scan rejects leaves the tape inactive: the walk ignores it */
    ck_assert(!velstatus__json_scan_tape("{\"a\":}", 6, &end, &e, &tape, 0));
    ck_assert(!tape.active);
}
END_TEST

/* The scanner's decoders give jansson's values: random strings of escapes,
 * UTF-8 and plain bytes, and integers around the int64 limits. */
START_TEST(scanner_decodes_as_jansson)
{
    static const char *const atoms[] = {"a",
                                        "\\\"",
                                        "\\\\",
                                        "\\/",
                                        "\\b",
                                        "\\f",
                                        "\\n",
                                        "\\r",
                                        "\\t",
                                        "\\u0000",
                                        "\\u00e9",
                                        "\\u20AC",
                                        "\\uD83D\\uDE00",
                                        "\\udbff\\udfff",
                                        "\xc3\xa9",
                                        "\xe2\x80\xa8",
                                        "\xf0\x9f\x98\x80",
                                        "<",
                                        " ",
                                        "\\u0041"};
    static const char *const ints[] = {"0",
                                       "-0",
                                       "7",
                                       "-1",
                                       "9223372036854775807",
                                       "-9223372036854775808",
                                       "1000000000000000000",
                                       "-999999999999999999"};
    long it, n = vs_test_iterations(20000);
    unsigned seed = 1;
    size_t k;
    for (it = 0; it < n; it++) {
        char text[256], out[256];
        size_t len = 1, end, got;
        int parts = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
        velstatus__json_scan_err e;
        json_error_t jerr;
        json_t *j;
        text[0] = '"';
        while (parts-- > 0) {
            const char *a = atoms[((seed = seed * 1103515245u + 12345u) >> 16) % 20];
            memcpy(text + len, a, strlen(a));
            len += strlen(a);
        }
        text[len++] = '"';
        ck_assert(velstatus__json_scan(text, len, &end, &e));
        ck_assert_uint_eq(end, len);
        got = velstatus__json_unescape(out, text + 1, len - 2);
        j = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
        ck_assert_ptr_nonnull(j);
        ck_assert_uint_eq(got, json_string_length(j));
        ck_assert(memcmp(out, json_string_value(j), got) == 0);
        json_decref(j);
    }
    for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
        json_t *j = json_loadb(ints[k], strlen(ints[k]), JSON_DECODE_ANY, NULL);
        ck_assert_ptr_nonnull(j);
        ck_assert(velstatus__json_int(ints[k], strlen(ints[k])) == (int64_t)json_integer_value(j));
        json_decref(j);
    }
}
END_TEST

/* ---- defect 1: a raw NUL after a number ---- */

/* The file from the issue: jansson skipped the NUL and reported a record
 * end one byte short per skip; the raw walk then ran with a length of
 * SIZE_MAX (a crash). It is not JSON: E_PARSE at the first NUL. */
START_TEST(defect1_raw_nul_after_number_is_rejected)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_op_reports *r = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    size_t n;
    char *p = vs_test_read_data("decode/nul-after-number.json", &n);
    ck_assert_uint_eq(n, 38);
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, p, n, &err), VELSTATUS_E_PARSE);
    ck_assert_ptr_null(l);
    ck_assert_uint_eq(err.offset, 11);
    ck_assert_uint_eq(err.column, 12);
    ck_assert_msg(strstr(err.message, "[0]: invalid JSON") && strstr(err.message, "raw NUL byte"), "%s", err.message);
    free(p);

    p = vs_test_read_data("decode/bsl-nul-after-number.json", &n);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, p, n, &err), VELSTATUS_E_PARSE);
    ck_assert_ptr_null(set);
    ck_assert_uint_eq(err.offset, (uint64_t)(memchr(p, '\0', n) - (void *)p));
    ck_assert_msg(strstr(err.message, "invalid JSON") && strstr(err.message, "raw NUL byte"), "%s", err.message);
    free(p);

    p = vs_test_read_data("decode/progress-nul-after-number.json", &n);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, p, n, &err), VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.offset, (uint64_t)(memchr(p, '\0', n) - (void *)p));
    ck_assert_msg(strstr(err.message, "raw NUL byte"), "%s", err.message);
    free(p);

    /* every truncation and every NUL position of a real record: no crash,
     * and a NUL anywhere is a parse error */
    {
        static const char rec[] = "[{\"spec\":{\"operationID\":\"o\",\"x\":[1,true,{\"y\":-2.5e3}]},"
                                  "\"status\":{\"nTotal\":7,\"z\":null}}]";
        char buf[sizeof(rec) + 1];
        size_t i, len = sizeof(rec) - 1;
        for (i = 0; i <= len; i++) {
            velstatus_status st;
            memcpy(buf, rec, i);
            buf[i] = '\0';
            memcpy(buf + i + 1, rec + i, len - i);
            st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, buf, len + 1, &err);
            ck_assert_int_eq(st, VELSTATUS_E_PARSE);
            /* at the NUL, or at the start of the number or literal it cuts */
            ck_assert_msg(err.offset <= i && i - err.offset < 8, "NUL at %zu: %s", i, err.message);
            st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, rec, i, &err);
            ck_assert_int_eq(st, i == len ? VELSTATUS_OK : VELSTATUS_E_PARSE);
            if (st == VELSTATUS_OK)
                velstatus_oplist_free(l);
        }
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- defect 2: what the library writes, it reads back ---- */

/* Times are written floored to the second: every instant in the first
 * 0.145 s of the int64 range was written as 1677-09-21T00:12:43Z, which the
 * decoder rejected (E_RANGE). That whole second now saturates to INT64_MIN. */
START_TEST(defect2_earliest_second_saturates)
{
    static const char *const ok[] = {"1677-09-21T00:12:43Z", "1677-09-21T00:12:43.000Z", "1677-09-20T22:12:43-02:00"};
    static const char *const range[] = {"1677-09-21T00:12:42Z", "1677-09-21T00:12:43.1Z",
                                        "1677-09-21T00:12:42.999999999Z"};
    size_t k;
    for (k = 0; k < 3; k++) {
        int64_t ns = 0;
        ck_assert_int_eq(velstatus_time_parse(&ns, ok[k], strlen(ok[k]), NULL), VELSTATUS_OK);
        ck_assert(ns == INT64_MIN);
        ck_assert_int_eq(velstatus_time_parse(&ns, range[k], strlen(range[k]), NULL), VELSTATUS_E_RANGE);
    }
}
END_TEST

static void assert_reads_back(velstatus_ctx *ctx, const velstatus_oplist *l)
{
    char *a = encode(l), *b;
    velstatus_oplist *back = decode_ok(ctx, velstatus_oplist_kind(l), a, strlen(a));
    b = encode(back);
    ck_assert_str_eq(a, b);
    velstatus_free(ctx, a);
    velstatus_free(ctx, b);
    velstatus_oplist_free(back);
}

static int answer_extremes(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    velstatus_op_progress p;
    (void)list;
    (void)i;
    velstatus_op_progress_init(&p, sizeof(p));
    p.has_started = 1;
    p.started_ns = *(const int64_t *)ud;
    p.has_updated = 1;
    p.updated_ns = *(const int64_t *)ud == INT64_MIN ? INT64_MAX : INT64_MIN;
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

/* Every encoder path that writes a time, at both ends of the range. */
START_TEST(defect2_every_time_written_reads_back)
{
    static const int64_t ends[2] = {INT64_MIN, INT64_MAX};
    velstatus_ctx *ctx = vs_test_ctx();
    int e, w;
    for (e = 0; e < 2; e++) {
        velstatus_oplist *l = NULL;
        size_t idx;
        velstatus_plugin_client c;
        velstatus_reconcile_options o;
        velstatus_reconcile_result *r = NULL;
        ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_append(&idx, l, NULL), VELSTATUS_OK);
        for (w = 0; w < 3; w++) /* the setter */
            ck_assert_int_eq(velstatus_oplist_set_time(l, idx, (velstatus_op_time)w, 1, ends[e], NULL), VELSTATUS_OK);
        assert_reads_back(ctx, l);
        ck_assert_int_eq(velstatus_oplist_set_string(l, idx, VELSTATUS_OP_FIELD_OPERATION_ID, "o", 1, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_set_time(l, idx, VELSTATUS_OP_TIME_CREATED, 1, 0, NULL), VELSTATUS_OK);
        velstatus_plugin_client_init(&c, sizeof(c)); /* a plugin's started/updated */
        c.userdata = (void *)&ends[e];
        c.progress = answer_extremes;
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = 1;
        ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, NULL, NULL), VELSTATUS_OK);
        velstatus_reconcile_result_free(r);
        ck_assert(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_STARTED, NULL));
        assert_reads_back(ctx, l);
        velstatus_oplist_free(l);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- defect 5: keys matched as Go's encoding/json matches them ---- */

static void assert_field(const velstatus_op *op, velstatus_op_field f, const char *want)
{
    size_t n;
    const char *got = velstatus_op_string(op, f, &n);
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(n, strlen(want));
    ck_assert_str_eq(got, want);
}

/* The plugin answers by operation ID: an ID it does not know aborts the pass. */
static int answer_by_id(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    const velstatus_op_progress *want = ud;
    size_t n;
    const char *id = velstatus_op_string(velstatus_oplist_at(list, i), VELSTATUS_OP_FIELD_OPERATION_ID, &n);
    if (n != strlen("du-nightly-abcde") || memcmp(id, "du-nightly-abcde", n) != 0)
        return -1;
    return velstatus_op_reply_set_progress(reply, want, NULL) == VELSTATUS_OK ? 0 : -1;
}

typedef struct pass {
    velstatus_phase phase;
    size_t completed, failed, in_progress, errors;
    char *records;
} pass;

static pass reconcile_file(velstatus_ctx *ctx, velstatus_kind kind, const char *rel)
{
    size_t n;
    char *p = vs_test_read_data(rel, &n);
    velstatus_oplist *l = decode_ok(ctx, kind, p, n);
    velstatus_op_progress prog;
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_error err;
    pass out;
    velstatus_op_progress_init(&prog, sizeof(prog));
    prog.n_completed = 3;
    prog.n_total = 10;
    prog.operation_units = "Bytes";
    prog.operation_units_len = 5;
    velstatus_plugin_client_init(&c, sizeof(c));
    c.userdata = &prog;
    c.progress = answer_by_id;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    ck_assert_int_eq(velstatus_time_parse(&o.now_ns, "2024-05-01T11:00:00Z", 20, NULL), VELSTATUS_OK);
    ck_assert_msg(velstatus_oplist_reconcile(&r, l, &c, &o, NULL, &err) == VELSTATUS_OK, "%s: %s", rel, err.message);
    out.phase = velstatus_reconcile_result_phase(r);
    out.completed = velstatus_reconcile_result_completed(r);
    out.failed = velstatus_reconcile_result_failed(r);
    out.in_progress = velstatus_reconcile_result_in_progress(r);
    out.errors = velstatus_reconcile_result_error_count(r);
    out.records = encode(l);
    assert_field(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_OPERATION_ID, "du-nightly-abcde");
    assert_field(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, "persistentvolumeclaims");
    assert_field(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_RESOURCE_NAME, "data-0");
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(l);
    free(p);
    return out;
}

/* Velero 1.11 wrote ResourceIdentifier, OperationID, PostOperationItems
 * (malformed struct tags, fixed in 1.12 by 3893c4608); Go reads them into
 * the same fields. The 1.11 file reconciles exactly as the lowercase one:
 * before, the ID read as empty and the operation failed ("operation ID  is
 * invalid"), moving the backup to FinalizingPartiallyFailed. */
START_TEST(defect5_velero_1_11_keys_reconcile_as_lowercase)
{
    velstatus_ctx *ctx = vs_test_ctx();
    static const char *const files[2][2] = {
        {"decode/velero-1.11-backup.json", "decode/velero-1.11-backup-lowercase.json"},
        {"decode/velero-1.11-restore.json", "decode/velero-1.11-restore-lowercase.json"}};
    int k;
    for (k = 0; k < 2; k++) {
        velstatus_kind kind = k == 0 ? VELSTATUS_KIND_BACKUP : VELSTATUS_KIND_RESTORE;
        pass a = reconcile_file(ctx, kind, files[k][0]), b = reconcile_file(ctx, kind, files[k][1]);
        ck_assert_int_eq(a.phase, VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS);
        ck_assert_int_eq(a.phase, b.phase);
        ck_assert_uint_eq(a.in_progress, 1);
        ck_assert_uint_eq(a.in_progress, b.in_progress);
        ck_assert_uint_eq(a.completed, b.completed);
        ck_assert_uint_eq(a.failed, 0);
        ck_assert_uint_eq(a.failed, b.failed);
        ck_assert_uint_eq(a.errors, 0);
        ck_assert_uint_eq(a.errors, b.errors);
        ck_assert_str_eq(a.records, b.records); /* written with HEAD's lowercase keys */
        ck_assert_ptr_nonnull(strstr(a.records, "\"operationID\":\"du-nightly-abcde\""));
        velstatus_free(ctx, a.records);
        velstatus_free(ctx, b.records);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* bytes.EqualFold: ASCII case, U+017F ~ s, U+212A ~ k; keys unescaped first. */
START_TEST(defect5_keys_fold_as_go)
{
    velstatus_ctx *ctx = vs_test_ctx();
    static const char in[] =
        "[{\"\xc5\xbfPEC\":{\"bac\\u212aupName\":\"n\",\"BACKUPUID\":\"u\",\"Bac\xe2\x84\xaaupItemAction\":\"a\","
        "\"resourceidentifier\":{\"group\":\"g\",\"RESOURCE\":\"r\",\"nameſpace\":\"ns\",\"nAmE\":\"x\"},"
        "\"operationid\":\"op\",\"postoperationitems\":[{\"GROUP\":\"pg\"}]},"
        "\"Status\":{\"\\u0070hase\":\"Completed\",\"NTOTAL\":3,\"ncompleted\":2,\"CREATED\":\"2024-05-01T10:00:00Z\","
        "\"phas\\u00e9\":1,\"Error\":\"e\"}}]";
    static const char want[] =
        "[{\"spec\":{\"backupName\":\"n\",\"backupUID\":\"u\",\"backupItemAction\":\"a\",\"resourceIdentifier\":"
        "{\"Group\":\"g\",\"Resource\":\"r\",\"Namespace\":\"ns\",\"Name\":\"x\"},\"operationID\":\"op\","
        "\"postOperationItems\":[{\"Group\":\"pg\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"}]},"
        "\"status\":{\"phase\":\"Completed\",\"error\":\"e\",\"nCompleted\":2,\"nTotal\":3,"
        "\"created\":\"2024-05-01T10:00:00Z\",\"phas\xc3\xa9\":1}}]\n";
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, in, sizeof(in) - 1);
    char *out = encode(l);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_COMPLETED);
    ck_assert_str_eq(out, want);
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Duplicate keys are assigned in order, as Go does: a later scalar wins, a
 * later object merges into the earlier one, a later array decodes into the
 * earlier items, a later null resets a slice or time to nil and leaves a
 * string alone. Unknown duplicates are all kept, in order. */
START_TEST(defect5_duplicate_keys_assign_in_order)
{
    velstatus_ctx *ctx = vs_test_ctx();
    static const char in[] =
        "[{\"spec\":{\"backupName\":\"a\",\"operationID\":\"o\",\"x\":1,"
        "\"postOperationItems\":[{\"Name\":\"a\"},{\"Name\":\"b\"}],\"postOperationItems\":[{\"Group\":\"g\"}]},"
        "\"spec\":{\"backupName\":\"b\",\"backupUID\":null,\"x\":2,\"resourceIdentifier\":{\"Name\":\"n\"},"
        "\"resourceIdentifier\":{\"Group\":\"g\",\"Name\":null}},"
        "\"status\":{\"phase\":\"Bogus\",\"created\":\"2024-05-01T10:00:00Z\",\"nTotal\":1},"
        "\"status\":{\"phase\":\"New\",\"created\":null,\"nTotal\":2,\"Phase\":\"InProgress\"}}]";
    static const char want[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"g\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"n\"},\"operationID\":\"o\","
        "\"postOperationItems\":[{\"Group\":\"g\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"a\"}],"
        "\"x\":1,\"x\":2},\"status\":{\"phase\":\"InProgress\",\"nTotal\":2}}]\n";
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, in, sizeof(in) - 1);
    char *out = encode(l);
    ck_assert_str_eq(out, want);
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    {
        static const char nil[] = "[{\"spec\":{\"postOperationItems\":[{}],\"postOperationItems\":null}}]";
        l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, nil, sizeof(nil) - 1);
    }
    ck_assert(velstatus_op_post_items_null(velstatus_oplist_at(l, 0)));
    ck_assert_uint_eq(velstatus_op_post_item_count(velstatus_oplist_at(l, 0)), 0);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* BSLs: a repeated key, the last wins (jansson's and Go's rule; jansson
 * rejected them before). Keys stay case-sensitive: Velero reads BSLs
 * through apimachinery's serializer, which decodes with sigs.k8s.io/json's
 * case-sensitive UnmarshalCaseSensitivePreserveInts (doc/json-decoding.md). */
START_TEST(defect5_bsl_duplicate_keys_last_wins)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    static const char dup[] = "{\"items\":[],\"items\":[{\"metadata\":{\"name\":\"a\",\"name\":\"b\"},"
                              "\"status\":{\"phase\":\"Unavailable\",\"phase\":\"Available\"}}]}";
    static const char folded[] = "[{\"Metadata\":{\"name\":\"a\"}}]";
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, dup, sizeof(dup) - 1, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "b");
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 0), "Available");
    velstatus_bsl_set_free(set);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, folded, sizeof(folded) - 1, &err), VELSTATUS_E_SCHEMA);
    ck_assert_msg(strstr(err.message, "[0].metadata: missing") != NULL, "%s", err.message);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- defect 6: one \u0000 in a BSL's status.message ---- */

/* It failed the whole server status (E_PARSE); both decoders now keep it,
 * with its length, as the itemoperations decoder always did. */
START_TEST(defect6_nul_escape_in_bsl_message_is_kept)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    velstatus_oplist *l;
    velstatus_error err;
    size_t n;
    char *p = vs_test_read_data("decode/bsl-nul-in-message.json", &n);
    static const char op[] = "[{\"status\":{\"error\":\"rpc error: \\u0000 in the middle\"}}]";
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, p, n, &err), VELSTATUS_OK);
    ck_assert_uint_eq(vs_bsl_rec(set->items[1])->message_len, 26);
    ck_assert(memcmp(vs_bsl_rec(set->items[1])->message, "rpc error: \0 in the middle", 26) == 0);
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_verdict_total(v), 2);
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, op, sizeof(op) - 1);
    ck_assert(velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_ERROR, &n) && n == 26);
    velstatus_oplist_free(l);
    free(p);
    /* a NUL where the set cannot hold one is a schema error naming the field */
    {
        static const char name[] = "[{\"metadata\":{\"name\":\"a\\u0000\"}}]";
        static const char phase[] = "[{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":\"A\\u0000\"}}]";
        ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, name, sizeof(name) - 1, &err), VELSTATUS_E_SCHEMA);
        ck_assert_msg(strstr(err.message, "[0].metadata.name: contains a NUL") != NULL, "%s", err.message);
        ck_assert_uint_eq(err.offset, 21);
        ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, phase, sizeof(phase) - 1, &err), VELSTATUS_E_SCHEMA);
        ck_assert_msg(strstr(err.message, "[0].status.phase: contains a NUL") != NULL, "%s", err.message);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- the hostile inputs of doc/hostile-inputs.md (the small ones) ---- */

static void assert_ops_fail(const char *json, size_t len, velstatus_status code, const char *reason)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, json, len, &err), code);
    ck_assert_ptr_null(l);
    ck_assert_msg(strstr(err.message, reason) != NULL, "%s: want \"%s\"", err.message, reason);
    velstatus_ctx_free(ctx);
}

static char *nested(size_t depth, size_t *len)
{
    char *b = malloc(2 * depth + 16);
    ck_assert_ptr_nonnull(b);
    memcpy(b, "[{\"x\":", 6);
    memset(b + 6, '[', depth - 1);
    memset(b + 6 + depth - 1, ']', depth - 1);
    memcpy(b + 6 + 2 * (depth - 1), "}]", 2);
    *len = 2 * depth + 6;
    return b;
}

START_TEST(hostile_inputs_small)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l;
    size_t len;
    char *b, *out;
    /* nesting: a record of 2048 levels (the record and its unknown value; the
     * file's array is not counted) is kept, 2049 and a million are rejected */
    b = nested(2048, &len);
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, b, len);
    out = encode(l);
    ck_assert_ptr_nonnull(strstr(out, "\"x\":[[[["));
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    free(b);
    b = nested(2049, &len);
    assert_ops_fail(b, len, VELSTATUS_E_PARSE, "nesting deeper than 2048 levels");
    free(b);
    b = nested(1000000, &len);
    assert_ops_fail(b, len, VELSTATUS_E_PARSE, "nesting deeper than 2048 levels");
    free(b);
    /* numbers */
    assert_ops_fail("[{\"status\":{\"nTotal\":1e400}}]", 29, VELSTATUS_E_RANGE, "real number overflow");
    assert_ops_fail("[{\"x\":-1e400}]", 14, VELSTATUS_E_RANGE, "real number overflow");
    assert_ops_fail("[{\"status\":{\"nTotal\":9223372036854775808}}]", 43, VELSTATUS_E_RANGE, "int64 range");
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "[{\"status\":{\"nTotal\":-9223372036854775808,\"nCompleted\":-0}}]", 60);
    ck_assert(velstatus_op_n_total(velstatus_oplist_at(l, 0)) == INT64_MIN);
    ck_assert_int_eq(velstatus_op_n_completed(velstatus_oplist_at(l, 0)), 0);
    velstatus_oplist_free(l);
    /* text */
    assert_ops_fail("[{\"a\\u0000\":1}]", 15, VELSTATUS_E_PARSE, "\\u0000 in an object key");
    assert_ops_fail("[{\"status\":{\"error\":\"\xff\xfe\"}}]", 27, VELSTATUS_E_PARSE, "invalid UTF-8");
    assert_ops_fail("[{\"status\":{\"error\":\"\xc0\xaf\"}}]", 27, VELSTATUS_E_PARSE, "invalid UTF-8");
    assert_ops_fail("[{\"status\":{\"error\":\"\xed\xa0\x80\"}}]", 28, VELSTATUS_E_PARSE, "invalid UTF-8");
    assert_ops_fail("[{\"status\":{\"error\":\"\\ud800\"}}]", 31, VELSTATUS_E_PARSE, "lone high surrogate");
    assert_ops_fail("[{\"status\":{\"error\":\"\\udc00\"}}]", 31, VELSTATUS_E_PARSE, "lone low surrogate");
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- errors point at the offending value, and say where once ---- */

enum { DEC_OPS, DEC_BSLS, DEC_REPORTS };

static velstatus_status decode_any(int which, const char *json, velstatus_error *err)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_op_reports *r = NULL;
    velstatus_status st;
    size_t n = strlen(json);
    if (which == DEC_OPS)
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, json, n, err);
    else if (which == DEC_BSLS)
        st = velstatus_bsl_set_from_json(&set, ctx, json, n, err);
    else
        st = velstatus_op_reports_from_json(&r, ctx, json, n, err);
    velstatus_oplist_free(l);
    velstatus_bsl_set_free(set);
    velstatus_op_reports_free(r);
    velstatus_ctx_free(ctx);
    return st;
}

/* The error's position is that of the first `at` in the text; the message
 * names `path` and no position. */
static void fails_at(int which, const char *json, velstatus_status code, const char *path, const char *at)
{
    velstatus_error err;
    ck_assert_int_eq(decode_any(which, json, &err), code);
    ck_assert_msg(strstr(err.message, path) != NULL, "message \"%s\" lacks \"%s\"", err.message, path);
    ck_assert_msg(!strstr(err.message, "line") && !strstr(err.message, "column"), "message \"%s\" spells a position",
                  err.message);
    vs_test_assert_position(&err, json, strstr(json, at));
}

START_TEST(errors_point_at_the_value)
{
    /* the bad `created` of a record whose start is 26 lines above it; a bad
     * time points at its first bad byte */
    char file[2048];
    int n = snprintf(file, sizeof(file), "[\n  {\n");
    for (int i = 0; i < 24; i++)
        n += snprintf(file + n, sizeof(file) - (size_t)n, "    \"x%d\": %d,\n", i, i);
    snprintf(file + n, sizeof(file) - (size_t)n,
             "    \"status\": {\"phase\": \"New\",\n      \"created\": \"soon\"}\n  }\n]\n");
    fails_at(DEC_OPS, file, VELSTATUS_E_SCHEMA, "[0].status.created: not a valid time", "soon\"");
    {
        velstatus_error err;
        ck_assert_int_eq(decode_any(DEC_OPS, file, &err), VELSTATUS_E_SCHEMA);
        ck_assert_uint_eq(err.line, 28);
        ck_assert_uint_eq(err.column, 19); /* the first bad byte of the string */
    }
    /* itemoperations: every kind of field */
    fails_at(DEC_OPS, "[{},\n {\"spec\": {\"backupName\": 7}}]", VELSTATUS_E_SCHEMA, "[1].spec.backupName", "7");
    fails_at(DEC_OPS, "[{\"spec\": {\"resourceIdentifier\": {\"Name\": []}}}]", VELSTATUS_E_SCHEMA,
             "[0].spec.resourceIdentifier.Name", "[]");
    fails_at(DEC_OPS, "[{\"spec\": {\"resourceIdentifier\": \"x\"}}]", VELSTATUS_E_SCHEMA,
             "[0].spec.resourceIdentifier", "\"x\"");
    fails_at(DEC_OPS, "[{\"spec\": {\"postOperationItems\": [{}, {\"Group\": 0}]}}]", VELSTATUS_E_SCHEMA,
             "[0].spec.postOperationItems[1].Group", "0}");
    fails_at(DEC_OPS, "[{\"spec\": {\"postOperationItems\": {}}}]", VELSTATUS_E_SCHEMA, "[0].spec.postOperationItems",
             "{}");
    fails_at(DEC_OPS, "[{\"spec\": 1}]", VELSTATUS_E_SCHEMA, "[0].spec: must be an object", "1}");
    fails_at(DEC_OPS, "[{\"status\": []}]", VELSTATUS_E_SCHEMA, "[0].status: must be an object", "[]");
    fails_at(DEC_OPS, "[{\"status\": {\"nTotal\": 1e3}}]", VELSTATUS_E_SCHEMA, "[0].status.nTotal", "1e3");
    fails_at(DEC_OPS, "[{\"status\": {\"nCompleted\": \"1\"}}]", VELSTATUS_E_SCHEMA, "[0].status.nCompleted", "\"1\"");
    /* created/started/updated take years 0000-9999; the library's own
     * error-since time must fit int64 nanoseconds */
    fails_at(DEC_OPS, "[{\"status\": {\"velstatusProgressErrorSince\": \"3000-01-01T00:00:00Z\"}}]", VELSTATUS_E_RANGE,
             "[0].status.velstatusProgressErrorSince", "3000");
    fails_at(DEC_OPS, "[{}, null]", VELSTATUS_E_SCHEMA, "[1]: a record must be an object", "null");
    fails_at(DEC_OPS, "[{} {}]", VELSTATUS_E_PARSE, "expected ','", "{}]");
    fails_at(DEC_OPS, "[{\"a\": tru}]", VELSTATUS_E_PARSE, "[0]: invalid JSON", "tru");
    /* plugin answers */
    fails_at(DEC_REPORTS, "{\"op-1\": {\"description\": \"d\",\n  \"completed\": 3}}", VELSTATUS_E_SCHEMA,
             "[\"op-1\"].completed: must be true or false", "3}");
    fails_at(DEC_REPORTS, "{\"a\": {}, \"b\": {\"nTotal\": \"x\"}}", VELSTATUS_E_SCHEMA, "[\"b\"].nTotal", "\"x\"");
    fails_at(DEC_REPORTS, "{\"a\": {\"started\": \"noon\"}}", VELSTATUS_E_SCHEMA, "[\"a\"].started", "noon\"");
    fails_at(DEC_REPORTS, "{\"a\": {\"nTotal\": 1, \"bogus\": 1}}", VELSTATUS_E_SCHEMA, "[\"a\"].bogus: unknown key",
             "\"bogus\"");
    fails_at(DEC_REPORTS, "{\"a\": {\"completed\": true}, \"b\": 7}", VELSTATUS_E_SCHEMA, "[\"b\"]: must be an object",
             "7}");
    fails_at(DEC_REPORTS, "{\"a\": {} \"b\": {}}", VELSTATUS_E_PARSE, "expected ',' or '}'", "\"b\"");
    /* BSLs (the decoder that always did this) */
    fails_at(DEC_BSLS, "{\"items\": [{\"metadata\": {\"name\": \"a\"},\n \"status\": {\"phase\": 7}}]}",
             VELSTATUS_E_SCHEMA, "items[0].status.phase", "7}");
    fails_at(DEC_BSLS, "[{\"metadata\": {\"name\": \"a\"}}] x", VELSTATUS_E_PARSE, "invalid JSON", "x");
    /* empty and blank input: column 1 of where the value should start */
    for (int w = DEC_OPS; w <= DEC_REPORTS; w++) {
        fails_at(w, "", VELSTATUS_E_PARSE, "", "");
        {
            velstatus_error err;
            decode_any(w, "\n\n  ", &err);
            ck_assert_uint_eq(err.line, 3);
            ck_assert_uint_eq(err.column, 3);
            decode_any(w, "", &err);
            ck_assert_uint_eq(err.line, 1);
            ck_assert_uint_eq(err.column, 1);
        }
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("json_decode");
    TCase *tc = tcase_create("json_decode");
    tcase_add_test(tc, scanner_boundaries_and_rejections);
    tcase_add_test(tc, scanner_depth_limit);
    tcase_add_test(tc, scanner_walks_members_and_elements);
    tcase_add_test(tc, scanner_tape_gives_the_walk_its_spans);
    tcase_add_test(tc, scanner_decodes_as_jansson);
    tcase_add_test(tc, defect1_raw_nul_after_number_is_rejected);
    tcase_add_test(tc, defect2_earliest_second_saturates);
    tcase_add_test(tc, defect2_every_time_written_reads_back);
    tcase_add_test(tc, defect5_velero_1_11_keys_reconcile_as_lowercase);
    tcase_add_test(tc, defect5_keys_fold_as_go);
    tcase_add_test(tc, defect5_duplicate_keys_assign_in_order);
    tcase_add_test(tc, defect5_bsl_duplicate_keys_last_wins);
    tcase_add_test(tc, defect6_nul_escape_in_bsl_message_is_kept);
    tcase_add_test(tc, hostile_inputs_small);
    tcase_add_test(tc, errors_point_at_the_value);
    suite_add_tcase(s, tc);
    return s;
}
