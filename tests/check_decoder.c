/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming itemoperations decoder (velstatus/decoder.h): fed in chunks
 * of every size it equals the one-shot velstatus_oplist_from_json(), records
 * and errors alike (positions in the whole text); its argument checks, its
 * replayed first error, and every allocation failure. And the list's shared
 * copies of repeating texts (lib/operations/private.h): one record's change
 * never shows in another's. And the decoder that takes the kind from the
 * text (velstatus_oplist_decoder_new_detect). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"

/* text fed `chunk` bytes at a time (0: all at once), then finished; kind
 * VELSTATUS_KIND_INVALID: a decoder that takes it from the text. */
static velstatus_status stream(velstatus_ctx *ctx, velstatus_kind kind, const char *text, size_t len, size_t chunk,
                               velstatus_oplist **out, velstatus_error *err)
{
    velstatus_oplist_decoder *d;
    velstatus_status st = kind == VELSTATUS_KIND_INVALID ? velstatus_oplist_decoder_new_detect(&d, ctx, err)
                                                         : velstatus_oplist_decoder_new(&d, ctx, kind, err);
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

/* Asserts that text decodes in chunks of 1..maxchunk bytes exactly as in one go. */
static void assert_same(velstatus_ctx *ctx, velstatus_kind kind, const char *text, size_t len, size_t maxchunk)
{
    velstatus_oplist *want = NULL;
    velstatus_error ew;
    velstatus_status sw = velstatus_oplist_from_json(&want, ctx, kind, text, len, &ew);
    char *wj = NULL;
    size_t wn = 0;
    if (sw == VELSTATUS_OK)
        wj = json_of(want, &wn);
    for (size_t chunk = 0; chunk <= maxchunk; chunk++) {
        velstatus_oplist *got = NULL;
        velstatus_error eg;
        velstatus_status sg = stream(ctx, kind, text, len, chunk, &got, &eg);
        ck_assert_msg(sg == sw, "chunks of %zu: status %d, one-shot %d, for %.60s", chunk, (int)sg, (int)sw, text);
        if (sw == VELSTATUS_OK) {
            size_t gn;
            char *gj = json_of(got, &gn);
            ck_assert_uint_eq(gn, wn);
            ck_assert_int_eq(memcmp(gj, wj, wn), 0);
            ck_assert_uint_eq(velstatus_oplist_count(got), velstatus_oplist_count(want));
            velstatus_free(ctx, gj);
            velstatus_oplist_free(got);
        } else {
            ck_assert_str_eq(eg.message, ew.message);
            ck_assert_uint_eq(eg.line, ew.line);
            ck_assert_uint_eq(eg.column, ew.column);
            ck_assert_uint_eq(eg.offset, ew.offset);
        }
    }
    velstatus_free(ctx, wj);
    velstatus_oplist_free(want);
}

START_TEST(chunks_of_every_size_decode_the_examples)
{
    static const char *const files[] = {"operations/spec-example.json", "progress/example-backup-ops.json"};
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t f = 0; f < 2; f++) {
        size_t len;
        char *text = vs_test_read_data(files[f], &len);
        assert_same(ctx, VELSTATUS_KIND_BACKUP, text, len, (size_t)vs_test_iterations(300));
        free(text);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every place the text can end or go wrong, cut everywhere. */
START_TEST(errors_and_edges_have_the_one_shot_positions)
{
    static const char *const texts[] = {
        "",
        "   \n ",
        "null",
        " null \n",
        "nul",
        "nulx",
        "nx",
        "[[1],{}]",
        "null x",
        "[",
        "[]",
        " [ ] ",
        "[] x",
        "[\n]\n]",
        "x",
        "[1",
        "[12]",
        "[1.5e3]",
        "[-]",
        "[1.]",
        "[true]",
        "[nul]",
        "[null]",
        "[\"s\"]",
        "[{}",
        "[{},",
        "[{} {}]",
        "[{},\n{}]\n",
        "[{}]\n\n  x",
        "[{\"a\":1}]",
        "[{\"a\":\"\\u12\"}]",
        "[{\"a\":\"\\ud800\"}]",
        "[{\"a\":\"\\ud800\\udc00\"}]",
        "[{\"a\":\"\xc3\xa9\xe2\x82\xac\"}]",
        "[{\"a\":\"\xe2\x82\"}]",
        "[{\"a\":99999999999999999999}]",
        "[{\"a\":1e999}]",
        "[{\"a\" 1}]",
        "[{\"a\":}]",
        "[{1:2}]",
        "[{\"spec\":{\"backupName\":\"n\xc3\xa9\"}},\n {\"status\":{\"created\":\"2024-13-01T00:00:00Z\"}}]",
        "[{},\n\xc3\xa9{\"status\":{\"nTotal\":\"x\"}}]",
        "[{}\n,{\"status\":{\"nTotal\":1.5}}]",
        "[{\"status\":{\"phase\":\"Odd\",\"x\":[1,{\"y\":null}]}},{\"spec\":null,\"status\":{\"created\":null}}]",
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        size_t len = strlen(texts[k]);
        assert_same(ctx, VELSTATUS_KIND_BACKUP, texts[k], len, len + 1);
        assert_same(ctx, VELSTATUS_KIND_RESTORE, texts[k], len, len + 1);
    }
    assert_same(ctx, VELSTATUS_KIND_BACKUP, "[{}\0]", 5, 6); /* a raw NUL after a record */
    velstatus_ctx_free(ctx);
}
END_TEST

/* The column of text[off] by its definition: 1 + the characters (bytes
 * that do not continue a UTF-8 sequence) after the last newline before it. */
static uint32_t column_of(const char *text, size_t off)
{
    size_t start = off;
    uint32_t col = 1;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    for (size_t i = start; i < off; i++)
        col += ((unsigned char)text[i] & 0xC0) != 0x80;
    return col;
}

/* Error columns after texts of 1- to 4-byte characters of every count from
 * 0 to 40 (every alignment of the eight-byte counting), in one go and fed
 * in chunks of 1 to 9 bytes: the column counts characters, not bytes. */
START_TEST(columns_count_characters_at_every_alignment)
{
    static const char *const chars[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t c = 0; c < sizeof(chars) / sizeof(chars[0]); c++)
        for (size_t k = 0; k <= 40; k++) {
            char text[512];
            size_t len = (size_t)sprintf(text, "%s[{\"status\":{\"description\":\"", k % 3 ? "" : " \n ");
            for (size_t j = 0; j < k; j++)
                len += (size_t)sprintf(text + len, "%s%s", chars[(c + j * (k % 2)) % 4], k % 5 == 4 ? "x" : "");
            len += (size_t)sprintf(text + len, "\"}},?]");
            for (size_t chunk = 0; chunk <= 9; chunk++) {
                velstatus_oplist *l = NULL;
                velstatus_error err;
                ck_assert_int_eq(stream(ctx, VELSTATUS_KIND_BACKUP, text, len, chunk, &l, &err), VELSTATUS_E_PARSE);
                ck_assert_uint_eq(err.offset, len - 2); /* the '?' */
                ck_assert_uint_eq(err.line, k % 3 ? 1 : 2);
                ck_assert_uint_eq(err.column, column_of(text, len - 2));
            }
        }
    velstatus_ctx_free(ctx);
}
END_TEST

/* One record whose description is n bytes of 'x' (malloc'ed). */
static char *long_record(size_t n, size_t *len)
{
    char *text = malloc(n + 64);
    ck_assert_ptr_nonnull(text);
    *len = (size_t)sprintf(text, "[{\"status\":{\"description\":\"");
    memset(text + *len, 'x', n);
    *len += n;
    *len += (size_t)sprintf(text + *len, "\"}}]");
    return text;
}

/* A record of 100 KB fed a byte at a time is scanned again only when the
 * bytes held double: it decodes, and quickly enough for this test. */
START_TEST(a_long_record_in_one_byte_chunks)
{
    velstatus_ctx *ctx = vs_test_ctx();
    size_t len;
    char *text = long_record(100000, &len);
    velstatus_oplist *l = NULL;
    velstatus_error err;
    ck_assert_int_eq(stream(ctx, VELSTATUS_KIND_BACKUP, text, len, 1, &l, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_count(l), 1);
    velstatus_oplist_free(l);
    free(text);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(arguments_and_the_replayed_error)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist_decoder *d = NULL;
    velstatus_oplist *l = NULL;
    velstatus_error err, again;
    ck_assert_int_eq(velstatus_oplist_decoder_new(NULL, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_decoder_new(&d, NULL, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_decoder_new(&d, ctx, (velstatus_kind)7, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(NULL, "[", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_uint_eq(velstatus_oplist_decoder_count(NULL), 0);
    velstatus_oplist_decoder_free(NULL);

    ck_assert_int_eq(velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, NULL, 3, &err), VELSTATUS_E_INVALID); /* not fatal */
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, NULL, 0, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "[{},", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_decoder_count(d), 1);
    ck_assert_int_eq(velstatus_oplist_decoder_finish(NULL, d, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "{}]", 3, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, d, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_count(l), 2);
    ck_assert_uint_eq(velstatus_oplist_decoder_count(d), 2);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, " ", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "the decoder is finished");
    ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, d, &err), VELSTATUS_E_INVALID);
    velstatus_oplist_decoder_free(d); /* the list was handed over: it stays */
    ck_assert_uint_eq(velstatus_oplist_count(l), 2);
    velstatus_oplist_free(l);

    /* the first error ends the decoding; every later call gives it again */
    l = NULL;
    ck_assert_int_eq(velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "[{}\n", VELSTATUS_NUL_TERMINATED, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, ",{\"status\":7}]", VELSTATUS_NUL_TERMINATED, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_str_eq(err.message, "[1].status: must be an object");
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 12);
    ck_assert_uint_eq(err.offset, 15);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "]", 1, NULL), VELSTATUS_E_SCHEMA);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "]", 1, &again), VELSTATUS_E_SCHEMA);
    ck_assert_str_eq(again.message, err.message);
    ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, d, &again), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_null(l);
    ck_assert_uint_eq(again.offset, 15);
    velstatus_oplist_decoder_free(d);

    /* a record cut by a chunk is tried again once twice the bytes are held,
     * at the latest at finish: the error then comes from finish */
    ck_assert_int_eq(velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "[{}\n,{\"status\":", VELSTATUS_NUL_TERMINATED, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "7}]", 3, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, d, &err), VELSTATUS_E_SCHEMA);
    ck_assert_str_eq(err.message, "[1].status: must be an object");
    ck_assert_uint_eq(err.offset, 15);
    velstatus_oplist_decoder_free(d);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every allocation of new, feed (the held bytes, the records) and finish
 * fails in turn: E_NOMEM, nothing leaked, and the decoder stays failed. */
START_TEST(every_allocation_failure)
{
    size_t len;
    char *text = vs_test_read_data("operations/spec-example.json", &len);
    velstatus_status st;
    for (size_t chunk = 7; chunk <= 4096; chunk *= 8) {
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_oplist_decoder *d = NULL;
            velstatus_oplist *l = NULL;
            velstatus_error err;
            size_t i = 0;
            st = velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err);
            while (st == VELSTATUS_OK && i < len) {
                size_t n = len - i < chunk ? len - i : chunk;
                st = velstatus_oplist_decoder_feed(d, text + i, n, &err);
                i += n;
            }
            if (st == VELSTATUS_E_NOMEM && d) {
                ck_assert_int_eq(velstatus_oplist_decoder_feed(d, "]", 1, NULL), VELSTATUS_E_NOMEM);
                ck_assert_int_eq(velstatus_oplist_decoder_finish(&l, d, &err), VELSTATUS_E_NOMEM);
            }
            if (st == VELSTATUS_OK)
                st = velstatus_oplist_decoder_finish(&l, d, &err);
            velstatus_oplist_decoder_free(d);
            if (st == VELSTATUS_OK) {
                char *js = NULL;
                size_t jn = 0;
                VS_FAILALLOC_PAUSE_AGAIN(fa);
                ck_assert_int_eq(velstatus_oplist_to_json(&js, &jn, l, NULL), VELSTATUS_OK);
                ck_assert_uint_eq(jn, len);
                ck_assert_int_eq(memcmp(js, text, len), 0);
                velstatus_free(ctx, js);
                velstatus_oplist_free(l);
            }
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
    free(text);
}
END_TEST

/* A record longer than the held buffer's first 4 KiB, in chunks of 1,000
 * bytes: growing the buffer fails too. */
START_TEST(a_long_record_without_memory)
{
    size_t len;
    char *text = long_record(10000, &len);
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        velstatus_error err;
        st = stream(ctx, VELSTATUS_KIND_BACKUP, text, len, 1000, &l, &err);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(velstatus_oplist_count(l), 1);
            velstatus_oplist_free(l);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(text);
}
END_TEST

static const char *text_of(const velstatus_oplist *l, size_t i, velstatus_op_field f)
{
    size_t n;
    return velstatus_op_string(velstatus_oplist_at(l, i), f, &n);
}

static int answer_all(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    (void)list;
    (void)i;
    return velstatus_op_reply_set_progress(reply, (const velstatus_op_progress *)ud, NULL) == VELSTATUS_OK ? 0 : -1;
}

/* Records decoded with the same texts share one copy; a setter or a step
 * changing one record's text leaves the others' as they were. */
START_TEST(shared_texts_are_never_written_through)
{
    static const char text[] = "[{\"spec\":{\"backupName\":\"b\"},\"status\":{\"phase\":\"New\",\"operationUnits\":"
                               "\"Bytes\",\"description\":\"Odd\\u0021\"}},{\"spec\":{\"backupName\":\"b\"},\"status\":"
                               "{\"phase\":\"InProgress\",\"operationUnits\":\"Bytes\",\"description\":\"Odd!\"}}]";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_op_progress p;
    velstatus_error err;
    uint32_t flags;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, sizeof(text) - 1, &err),
                     VELSTATUS_OK);
    ck_assert_ptr_eq(text_of(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION), text_of(l, 1, VELSTATUS_OP_FIELD_DESCRIPTION));
    ck_assert_ptr_eq(text_of(l, 0, VELSTATUS_OP_FIELD_NAME), text_of(l, 1, VELSTATUS_OP_FIELD_NAME));
    /* a shorter text would fit in place: not in a shared copy */
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION, "Od", 2, &err), VELSTATUS_OK);
    ck_assert_str_eq(text_of(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION), "Od");
    ck_assert_str_eq(text_of(l, 1, VELSTATUS_OP_FIELD_DESCRIPTION), "Odd!");
    /* the step's new units and description for record 1 only */
    velstatus_op_progress_init(&p, sizeof(p));
    p.operation_units = "Byt";
    p.operation_units_len = 3;
    p.description = "Odd";
    p.description_len = 3;
    ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, l, 1, &p, 0, 0, NULL, &err), VELSTATUS_OK);
    ck_assert_str_eq(text_of(l, 1, VELSTATUS_OP_FIELD_OPERATION_UNITS), "Byt");
    ck_assert_str_eq(text_of(l, 0, VELSTATUS_OP_FIELD_OPERATION_UNITS), "Bytes");
    ck_assert_str_eq(text_of(l, 1, VELSTATUS_OP_FIELD_DESCRIPTION), "Odd");
    ck_assert_str_eq(text_of(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION), "Od");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* More distinct short texts than the table holds, and one too long for it:
 * every record keeps its own text, and the file round-trips. */
START_TEST(more_texts_than_the_shared_table_holds)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    char *text = malloc(200 * 300 + 16), *js;
    size_t len = 0, n;
    ck_assert_ptr_nonnull(text);
    text[len++] = '[';
    for (int i = 0; i < 200; i++)
        len += (size_t)sprintf(text + len, "%s{\"spec\":{\"backupName\":\"name-%03d%s\"}}", i ? "," : "", i,
                               i == 7   ? "-longer-than-thirty-two-bytes-of-text"
                               : i == 8 ? "\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078"
                                          "\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078"
                                          "\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078\\u0078"
                                          "\\u0078\\u0078\\u0078"
                                        : "");
    len += (size_t)sprintf(text + len, "]");
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, len, NULL), VELSTATUS_OK);
    ck_assert_str_eq(text_of(l, 199, VELSTATUS_OP_FIELD_NAME), "name-199");
    ck_assert_str_eq(text_of(l, 7, VELSTATUS_OP_FIELD_NAME), "name-007-longer-than-thirty-two-bytes-of-text");
    /* 33 escapes (198 bytes of text) for 33 characters: too long to try */
    ck_assert_str_eq(text_of(l, 8, VELSTATUS_OP_FIELD_NAME), "name-008xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    ck_assert_int_eq(velstatus_oplist_to_json(&js, &n, l, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(strstr(js, "\"backupName\":\"name-150\""));
    velstatus_free(ctx, js);
    velstatus_oplist_free(l);
    free(text);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The step's first shared copy is the pool's first allocation of a built
 * list: its failure is E_NOMEM and leaves the record as it was. */
START_TEST(a_shared_copy_that_cannot_be_made)
{
    static const char *const texts[2] = {"Bytes", "a description longer than thirty-two bytes"};
    velstatus_status st;
    for (int k = 0; k < 2; k++) { /* a shared copy; a copy of its own (too long to share) */
        velstatus_op_field field = k == 0 ? VELSTATUS_OP_FIELD_OPERATION_UNITS : VELSTATUS_OP_FIELD_DESCRIPTION;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_oplist *l = NULL;
            velstatus_op_progress p;
            size_t i;
            uint32_t flags;
            VS_FAILALLOC_PAUSE(fa);
            ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_oplist_append(&i, l, NULL), VELSTATUS_OK);
            VS_FAILALLOC_RESUME(fa);
            velstatus_op_progress_init(&p, sizeof(p));
            if (k == 0) {
                p.operation_units = texts[k];
                p.operation_units_len = strlen(texts[k]);
            } else {
                p.description = texts[k];
                p.description_len = strlen(texts[k]);
            }
            st = velstatus_oplist_step(&flags, NULL, NULL, l, i, &p, 0, 0, NULL, NULL);
            VS_FAILALLOC_PAUSE_AGAIN(fa);
            ck_assert_str_eq(text_of(l, i, field), st == VELSTATUS_OK ? texts[k] : "");
            velstatus_oplist_free(l);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}

/* A list longer than the reconcile loop's prefetch distance (16 records):
 * every operation asked, every record updated. */
START_TEST(a_long_list_reconciles)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_op_progress p;
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    size_t i, n = 40;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    for (i = 0; i < n; i++)
        ck_assert_int_eq(velstatus_oplist_append(NULL, l, NULL), VELSTATUS_OK);
    velstatus_op_progress_init(&p, sizeof(p));
    p.n_completed = 1;
    p.n_total = 2;
    p.operation_units = "Bytes";
    p.operation_units_len = 5;
    p.has_started = 1;
    p.started_ns = 1;
    velstatus_plugin_client_init(&c, sizeof(c));
    c.userdata = &p;
    c.progress = answer_all;
    velstatus_reconcile_options_init(&o, sizeof(o));
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, &c, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), n);
    for (i = 0; i < n; i++) {
        ck_assert_str_eq(text_of(l, i, VELSTATUS_OP_FIELD_OPERATION_UNITS), "Bytes");
        ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, i)), VELSTATUS_OP_PHASE_IN_PROGRESS);
    }
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST
END_TEST

/* ---- the decoder that takes the file's kind from its text
 * (velstatus_oplist_decoder_new_detect): the first spec key only one kind
 * has settles it, fed in chunks of every size; the list is then exactly the
 * one-shot decoding with that kind, records and errors alike; no key means
 * backup; keys outside spec never decide (issue 24). ---- */

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
        velstatus_status sg = stream(ctx, VELSTATUS_KIND_INVALID, text, len, chunk, &gl, &eg);
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

START_TEST(detect_arguments)
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
START_TEST(detect_every_allocation_failure)
{
    static const char text[] =
        "[{\"spec\":{\"operationID\":\"a\",\"x\":{\"y\":1}}},{\"spec\":{\"restoreName\":\"r\"}}]";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        velstatus_error err;
        st = stream(ctx, VELSTATUS_KIND_INVALID, text, sizeof(text) - 1, 9, &l, &err);
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
    Suite *s = suite_create("decoder");
    TCase *tc = tcase_create("decoder");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, chunks_of_every_size_decode_the_examples);
    tcase_add_test(tc, errors_and_edges_have_the_one_shot_positions);
    tcase_add_test(tc, columns_count_characters_at_every_alignment);
    tcase_add_test(tc, a_long_record_in_one_byte_chunks);
    tcase_add_test(tc, arguments_and_the_replayed_error);
    tcase_add_test(tc, every_allocation_failure);
    tcase_add_test(tc, a_long_record_without_memory);
    tcase_add_test(tc, shared_texts_are_never_written_through);
    tcase_add_test(tc, more_texts_than_the_shared_table_holds);
    tcase_add_test(tc, a_shared_copy_that_cannot_be_made);
    tcase_add_test(tc, a_long_list_reconciles);
    tcase_add_loop_test(tc, the_first_key_of_one_kind_decides, 0, (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(tc, velero_files_detect_their_kind);
    tcase_add_test(tc, detect_arguments);
    tcase_add_test(tc, detect_every_allocation_failure);
    suite_add_tcase(s, tc);
    return s;
}
