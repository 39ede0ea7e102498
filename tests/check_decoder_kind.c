/* SPDX-License-Identifier: Apache-2.0 */
/* The decoder that takes the file's kind from its text
 * (velstatus_oplist_decoder_new_detect): the first spec key only one kind
 * has settles it, fed in chunks of every size; the list is then exactly the
 * one-shot decoding with that kind, records and errors alike; no key means
 * backup; keys outside spec never decide. Its argument checks and every
 * allocation failure. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"

/* text fed `chunk` bytes at a time (0: all at once) to a detecting decoder. */
static velstatus_status detect(velstatus_ctx *ctx, const char *text, size_t len, size_t chunk, velstatus_oplist **out,
                               velstatus_error *err)
{
    velstatus_oplist_decoder *d;
    velstatus_status st = velstatus_oplist_decoder_new_detect(&d, ctx, err);
    size_t i = 0;
    if (st != VELSTATUS_OK)
        return st;
    while (st == VELSTATUS_OK && i < len) {
        size_t n = chunk == 0 || len - i < chunk ? len - i : chunk;
        st = velstatus_oplist_decoder_feed(d, text + i, n, err);
        i += n;
    }
    if (st == VELSTATUS_OK)
        st = velstatus_oplist_decoder_finish(out, d, err);
    velstatus_oplist_decoder_free(d);
    return st;
}

static char *json_of(const velstatus_oplist *l, size_t *n)
{
    char *s = NULL;
    ck_assert_int_eq(velstatus_oplist_to_json(&s, n, l, NULL), VELSTATUS_OK);
    return s;
}

/* Asserts that text, detected in chunks of 0..maxchunk bytes, is the
 * one-shot decoding of kind `want` (the list, or the error). */
static void assert_detects(const char *name, const char *text, velstatus_kind want, size_t maxchunk)
{
    velstatus_ctx *ctx = vs_test_ctx();
    size_t len = strlen(text), wn = 0;
    velstatus_oplist *wl = NULL;
    velstatus_error ew;
    velstatus_status sw = velstatus_oplist_from_json(&wl, ctx, want, text, len, &ew);
    char *wj = sw == VELSTATUS_OK ? json_of(wl, &wn) : NULL;
    for (size_t chunk = 0; chunk <= maxchunk; chunk++) {
        velstatus_oplist *gl = NULL;
        velstatus_error eg;
        velstatus_status sg = detect(ctx, text, len, chunk, &gl, &eg);
        ck_assert_msg(sg == sw, "%s, chunks of %zu: status %d, want %d", name, chunk, (int)sg, (int)sw);
        if (sw == VELSTATUS_OK) {
            size_t gn;
            char *gj = json_of(gl, &gn);
            ck_assert_msg(velstatus_oplist_kind(gl) == want, "%s, chunks of %zu: kind %s", name, chunk,
                          velstatus_kind_to_string(velstatus_oplist_kind(gl)));
            ck_assert_msg(gn == wn && memcmp(gj, wj, wn) == 0, "%s, chunks of %zu: %.*s", name, chunk, (int)gn, gj);
            velstatus_free(ctx, gj);
            velstatus_oplist_free(gl);
        } else {
            ck_assert_msg(strcmp(eg.message, ew.message) == 0, "%s: %s, want %s", name, eg.message, ew.message);
            ck_assert_uint_eq(eg.offset, ew.offset);
            ck_assert_uint_eq(eg.line, ew.line);
            ck_assert_uint_eq(eg.column, ew.column);
        }
    }
    velstatus_free(ctx, wj);
    velstatus_oplist_free(wl);
    velstatus_ctx_free(ctx);
}

static const struct {
    const char *name, *text;
    velstatus_kind want;
} cases[] = {
    {"empty array", "[]", VELSTATUS_KIND_BACKUP},
    {"null", "null", VELSTATUS_KIND_BACKUP},
    {"no spec key of a kind", "[{\"spec\":{\"operationID\":\"a\"},\"status\":{\"phase\":\"New\"}}]",
     VELSTATUS_KIND_BACKUP},
    {"backupName", "[{\"spec\":{\"backupName\":\"b\",\"operationID\":\"a\"}}]", VELSTATUS_KIND_BACKUP},
    {"restoreName", "[{\"spec\":{\"restoreName\":\"r\",\"operationID\":\"a\"}}]", VELSTATUS_KIND_RESTORE},
    {"the second record decides",
     "[{\"spec\":{\"operationID\":\"a\",\"x\":1}},{\"spec\":{\"operationID\":\"b\",\"restoreName\":\"r\"}}]",
     VELSTATUS_KIND_RESTORE},
    {"restoreUID alone", "[{\"spec\":{\"operationID\":\"a\",\"restoreUID\":\"u\"}}]", VELSTATUS_KIND_RESTORE},
    {"restoreItemAction after an unknown key", "[{\"spec\":{\"other\":[1],\"restoreItemAction\":\"p\"}}]",
     VELSTATUS_KIND_RESTORE},
    {"postOperationItems is a backup's", "[{\"spec\":{\"postOperationItems\":[]}},{\"spec\":{\"restoreName\":\"r\"}}]",
     VELSTATUS_KIND_BACKUP},
    {"backupUID before restoreName", "[{\"spec\":{\"backupUID\":\"u\",\"restoreName\":\"r\"}}]", VELSTATUS_KIND_BACKUP},
    {"case-folded as Go matches keys", "[{\"spec\":{\"RESTORENAME\":\"r\"}}]", VELSTATUS_KIND_RESTORE},
    {"an escaped key", "[{\"spec\":{\"r\\u0065storeName\":\"r\"}}]", VELSTATUS_KIND_RESTORE},
    {"the second spec of a record", "[{\"spec\":{\"operationID\":\"a\"},\"spec\":{\"restoreName\":\"r\"}}]",
     VELSTATUS_KIND_RESTORE},
    {"a null spec first", "[{\"spec\":null},{\"spec\":{\"restoreName\":\"r\"}}]", VELSTATUS_KIND_RESTORE},
    {"keys outside spec never decide",
     "[{\"restoreName\":\"r\",\"status\":{\"description\":\"\\\"restoreName\\\"\",\"restoreName\":1},"
     "\"spec\":{\"resourceIdentifier\":{\"restoreName\":\"x\"}}}]",
     VELSTATUS_KIND_BACKUP},
    {"the deciding key's error", "[{\"spec\":{\"operationID\":\"a\"}},\n {\"spec\":{\"restoreName\":5}}]",
     VELSTATUS_KIND_RESTORE},
    {"a syntax error before any key", "[{\"spec\":{\"operationID\":\"a\"}},\n {\"spec\":{\"restoreName\" 5}}]",
     VELSTATUS_KIND_BACKUP},
};

START_TEST(the_first_key_of_one_kind_decides)
{
    assert_detects(cases[_i].name, cases[_i].text, cases[_i].want, (size_t)vs_test_iterations(40));
}
END_TEST

/* Velero's own files: the examples decode as with their kind given. */
START_TEST(velero_files_detect_their_kind)
{
    static const struct {
        const char *file;
        velstatus_kind kind;
    } files[] = {{"operations/spec-example.json", VELSTATUS_KIND_BACKUP},
                 {"progress/example-backup-ops.json", VELSTATUS_KIND_BACKUP},
                 {"releases/v1.16-restore-itemoperations.json", VELSTATUS_KIND_RESTORE},
                 {"releases/v1.11-restore-itemoperations.json", VELSTATUS_KIND_RESTORE}};
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        size_t len;
        char *text = vs_test_read_data(files[f].file, &len);
        assert_detects(files[f].file, text, files[f].kind, 3);
        free(text);
    }
}
END_TEST

START_TEST(arguments)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist_decoder *d = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_oplist_decoder_new_detect(NULL, ctx, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "out is NULL");
    ck_assert_int_eq(velstatus_oplist_decoder_new_detect(&d, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "ctx is NULL");
    ck_assert_ptr_null(d);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every allocation of new_detect, feed and finish fails in turn. */
START_TEST(every_allocation_failure)
{
    static const char text[] =
        "[{\"spec\":{\"operationID\":\"a\",\"x\":{\"y\":1}}},{\"spec\":{\"restoreName\":\"r\"}}]";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        velstatus_error err;
        st = detect(ctx, text, sizeof(text) - 1, 9, &l, &err);
        if (st == VELSTATUS_OK) {
            ck_assert_int_eq(velstatus_oplist_kind(l), VELSTATUS_KIND_RESTORE);
            ck_assert_uint_eq(velstatus_oplist_count(l), 2);
            velstatus_oplist_free(l);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("decoder_kind");
    TCase *tc = tcase_create("decoder_kind");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, the_first_key_of_one_kind_decides, 0, (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(tc, velero_files_detect_their_kind);
    tcase_add_test(tc, arguments);
    tcase_add_test(tc, every_allocation_failure);
    suite_add_tcase(s, tc);
    return s;
}
