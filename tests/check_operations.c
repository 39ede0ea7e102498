/* SPDX-License-Identifier: Apache-2.0 */
/* Operation lists: the itemoperations codec (doc/velero-behaviour.md §2.1), the record
 * getters and builders, and the plugin-answer map. The state machine is
 * tested in check_operations_machine.c. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include <velstatus.h>
#include <velstatus/experimental.h>

static velstatus_oplist *decode_ok(velstatus_ctx *ctx, velstatus_kind kind, const char *json)
{
    velstatus_oplist *l = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_oplist_from_json(&l, ctx, kind, json, strlen(json), &err);
    ck_assert_msg(st == VELSTATUS_OK, "decode failed: %s", st == VELSTATUS_OK ? "" : err.message);
    return l;
}

/* Encodes and compares with `want` exactly. */
static void assert_encodes(velstatus_ctx *ctx, const velstatus_oplist *l, const char *want)
{
    char *out = NULL;
    size_t n = 0;
    ck_assert_int_eq(velstatus_oplist_to_json(&out, &n, l, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(n, strlen(out));
    ck_assert_msg(strcmp(out, want) == 0, "got\n%s\nwant\n%s", out, want);
    velstatus_free(ctx, out);
}

/* Evaluates the getter (which stores the length in n) before reading n. */
#define ASSERT_GOT(expr, want)     \
    do {                           \
        const char *got_ = (expr); \
        assert_str(got_, n, want); \
    } while (0)

static void assert_str(const char *got, size_t len, const char *want)
{
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_str_eq(got, want);
}

/* Decodes `json` expecting failure `code`, and checks the message contains `path`. */
static void assert_decode_fails(velstatus_kind kind, const char *json, velstatus_status code, const char *path)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = (velstatus_oplist *)&l; /* must stay untouched */
    velstatus_oplist *const sentinel = l;
    velstatus_error err;
    velstatus_status st = velstatus_oplist_from_json(&l, ctx, kind, json, strlen(json), &err);
    ck_assert_msg(st == code, "status %s, want %s (%s) for %s", velstatus_status_name(st), velstatus_status_name(code),
                  st == VELSTATUS_OK ? "" : err.message, json);
    ck_assert_ptr_eq(l, sentinel);
    ck_assert_int_eq(err.code, code);
    ck_assert_msg(strstr(err.message, path) != NULL, "message \"%s\" lacks \"%s\"", err.message, path);
    /* the position is in err's fields; the message never spells it */
    ck_assert_msg(code == VELSTATUS_E_INVALID || (err.line > 0 && err.column > 0 && !strstr(err.message, "line")),
                  "message \"%s\" at line %u, column %u", err.message, (unsigned)err.line, (unsigned)err.column);
    velstatus_ctx_free(ctx);
}

/* doc/velero-behaviour.md §2.1 "Full example", exactly as Go's json.Encoder writes it. */
START_TEST(spec_example_round_trips_byte_identically)
{
    size_t len;
    char *text = vs_test_read_data("operations/spec-example.json", &len);
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    const velstatus_op *op;
    char *out = NULL;
    size_t out_len = 0, n;
    int64_t ns;
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, len, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_count(l), 2);
    ck_assert_int_eq(velstatus_oplist_kind(l), VELSTATUS_KIND_BACKUP);
    ck_assert_int_eq(velstatus_oplist_is_null(l), 0);

    op = velstatus_oplist_at(l, 0);
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_NAME, &n), "nightly-20240501");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_UID, &n), "0b6a2c1e-3f0d-4d6e-9d1a-5c2b7e8f9a10");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &n), "velero.io/csi-pvc-backupper");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP, &n), "");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &n), "persistentvolumeclaims");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &n), "app");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAME, &n), "data-0");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &n), "du-nightly-20240501-abcde");
    ck_assert_uint_eq(velstatus_op_post_item_count(op), 1);
    ck_assert_int_eq(velstatus_op_post_items_null(op), 0);
    ASSERT_GOT(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_GROUP, &n), "velero.io");
    ASSERT_GOT(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &n), "datauploads");
    ASSERT_GOT(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &n), "velero");
    ASSERT_GOT(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_NAME, &n), "nightly-20240501-abcde");
    ck_assert_ptr_null(velstatus_op_post_item(op, 1, VELSTATUS_OP_FIELD_RESOURCE_NAME, &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_PHASE, NULL));
    ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_IN_PROGRESS);
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_PHASE, &n), "InProgress");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &n), "");
    ck_assert_int_eq(velstatus_op_n_completed(op), 524288000);
    ck_assert_int_eq(velstatus_op_n_total(op), 1073741824);
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &n), "Bytes");
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &n), "InProgress");
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &ns), 1);
    ck_assert_int_eq(ns, INT64_C(1714557600) * 1000000000);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &ns), 1);
    ck_assert_int_eq(ns, INT64_C(1714557605) * 1000000000);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &ns), 1);
    ck_assert_int_eq(ns, INT64_C(1714557780) * 1000000000);

    op = velstatus_oplist_at(l, 1);
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAME, &n), "p<1>"); /* \u003c decoded */
    ASSERT_GOT(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &n), "op&2");
    ck_assert_int_eq(velstatus_op_post_items_null(op), 1);
    ck_assert_uint_eq(velstatus_op_post_item_count(op), 0);
    ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_NEW);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &ns), 0); /* absent */
    ck_assert_int_eq(ns, 0);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &ns), 0); /* absent */
    ck_assert_ptr_null(velstatus_oplist_at(l, 2));

    ck_assert_int_eq(velstatus_oplist_to_json(&out, &out_len, l, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(out_len, len);
    ck_assert_msg(memcmp(out, text, len) == 0, "round trip differs:\n%s", out);
    ck_assert_int_eq(out[out_len], '\0');
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
    free(text);
}
END_TEST

/* The restore record of doc/velero-behaviour.md §2.1, and the examples shipped in examples/. */
START_TEST(restore_record_and_examples_round_trip)
{
    static const char restore[] =
        "[{\"spec\":{\"restoreName\":\"r1\",\"restoreUID\":\"u\",\"restoreItemAction\":\"velero.io/csi-pvc-restorer\","
        "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"ns\",\"Name\":"
        "\"pvc\"},\"operationID\":\"dd-r1-xyz\"},\"status\":{\"phase\":\"Completed\",\"nCompleted\":10,\"nTotal\":10,"
        "\"operationUnits\":\"Bytes\",\"created\":\"2024-05-01T10:00:00Z\"}}]\n";
    static const char *const files[] = {"backup-itemoperations.json", "restore-itemoperations.json"};
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_RESTORE, restore);
    const char *src = getenv("VS_SRCDIR");
    size_t n;
    ASSERT_GOT(velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_NAME, &n), "r1");
    ASSERT_GOT(velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_ITEM_ACTION, &n),
               "velero.io/csi-pvc-restorer");
    ck_assert_int_eq(velstatus_op_post_items_null(velstatus_oplist_at(l, 0)), 1);
    assert_encodes(ctx, l, restore);
    velstatus_oplist_free(l);
    for (size_t i = 0; i < 2; i++) {
        char path[4096], *text, *out;
        size_t len, out_len;
        snprintf(path, sizeof(path), "%s/examples/operations/%s", src ? src : ".", files[i]);
        text = vs_test_read_file(path, &len);
        ck_assert_int_eq(
            velstatus_oplist_from_json(&l, ctx, i ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, text, len, NULL),
            VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_to_json(&out, &out_len, l, NULL), VELSTATUS_OK);
        ck_assert_uint_eq(out_len, len);
        ck_assert_msg(memcmp(out, text, len) == 0, "%s does not round-trip", files[i]);
        velstatus_free(ctx, out);
        velstatus_oplist_free(l);
        free(text);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(empty_and_nil_lists)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "[]\n");
    ck_assert_uint_eq(velstatus_oplist_count(l), 0);
    ck_assert_int_eq(velstatus_oplist_is_null(l), 0);
    assert_encodes(ctx, l, "[]\n");
    velstatus_oplist_free(l);
    l = decode_ok(ctx, VELSTATUS_KIND_RESTORE, " null \n");
    ck_assert_int_eq(velstatus_oplist_is_null(l), 1);
    ck_assert_int_eq(velstatus_oplist_kind(l), VELSTATUS_KIND_RESTORE);
    assert_encodes(ctx, l, "null\n");
    /* appending makes a nil list non-nil */
    ck_assert_int_eq(velstatus_oplist_append(NULL, l, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_is_null(l), 0);
    velstatus_oplist_free(l);
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "  [ \n ]  ");
    assert_encodes(ctx, l, "[]\n");
    velstatus_oplist_free(l);
    ck_assert_uint_eq(velstatus_oplist_count(NULL), 0);
    ck_assert_int_eq(velstatus_oplist_is_null(NULL), 0);
    ck_assert_ptr_null(velstatus_oplist_at(NULL, 0));
    velstatus_oplist_free(NULL);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Unknown keys at every level are kept, in order, after the known keys;
 * their values are written as Go writes a json.RawMessage (compact, HTML-escaped),
 * numbers keep their text. */
START_TEST(unknown_fields_are_kept)
{
    static const char in[] =
        "[ {\"x-top\": {\"b\": [1, 2.50, 1e3]},\n"
        "   \"status\": {\"z\": \"a<b>&c\", \"phase\": \"New\", \"created\": \"2024-05-01T10:00:00Z\", \"y\": null},\n"
        "   \"spec\": {\"extra\": true, \"backupName\": \"b\", \"restoreName\": \"r\",\n"
        "      \"resourceIdentifier\": {\"Name\": \"n\", \"Version\": \"v1\", \"Group\": \"g\"},\n"
        "      \"postOperationItems\": [{\"Name\": \"p\", \"Kind\": \"K\"}, null]},\n"
        "   \"last\": \"\\u2028\"} ]";
    static const char want[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"g\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"n\",\"Version\":\"v1\"},\"operationID\":\"\","
        "\"postOperationItems\":[{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"p\",\"Kind\":\"K\"},"
        "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"}],\"extra\":true,\"restoreName\":\"r\"},"
        "\"status\":{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\",\"z\":\"a\\u003cb\\u003e\\u0026c\","
        "\"y\":null},\"x-top\":{\"b\":[1,2.50,1e3]},\"last\":\"\\u2028\"}]\n";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, in);
    char *out;
    size_t n;
    assert_encodes(ctx, l, want);
    /* Decoding our own output again is a fixed point. */
    ck_assert_int_eq(velstatus_oplist_to_json(&out, &n, l, NULL), VELSTATUS_OK);
    velstatus_oplist_free(l);
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, out);
    assert_encodes(ctx, l, want);
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The raw walk that keeps unknown fields finds the end of strings with
 * escaped quotes and runs of backslashes (keys and values). */
START_TEST(unknown_fields_with_escapes_are_kept)
{
    static const char in[] =
        "[{\"status\":{\"a\\\"b\":\"q\\\\\", \"phase\":\"New\",\"c\":[\"\\\\\\\"}]\",  \"\\\\\\\\\" , "
        "\"\\\"\\\\\\\\\\\"\"]},\"spec\":{\"backupName\":\"b\"},\"z\\\\\":{\"k\\\\\\\"\":\"\\\\\"}}]";
    static const char want[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":{"
        "\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},\"operationID\":\"\","
        "\"postOperationItems\":null},\"status\":{\"phase\":\"New\",\"a\\\"b\":\"q\\\\\",\"c\":[\"\\\\\\\"}]\","
        "\"\\\\\\\\\",\"\\\"\\\\\\\\\\\"\"]},\"z\\\\\":{\"k\\\\\\\"\":\"\\\\\"}}]\n";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, in);
    assert_encodes(ctx, l, want);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A file another tool wrote comes back as Velero would write it. */
START_TEST(foreign_files_are_normalised)
{
    static const char in[] =
        "[{\"spec\":{\"backupName\":\"b\"},\"status\":{\"phase\":\"InProgress\",\"nCompleted\":0,\"error\":\"\","
        "\"created\":\"2024-05-01T12:00:00.999+02:00\",\"started\":\"2024-05-01T10:00:05.5Z\",\"updated\":null}},"
        "{\"status\":null,\"spec\":null}]";
    static const char want[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},\"operationID\":\"\","
        "\"postOperationItems\":"
        "null},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\",\"started\":"
        "\"2024-05-01T10:00:05Z\"}},"
        "{\"spec\":{\"backupName\":\"\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},\"operationID\":\"\","
        "\"postOperationItems\":"
        "null},\"status\":{}}]\n";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, in);
    int64_t ns;
    size_t n;
    /* the instant keeps its fraction in memory; only the file loses it */
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_CREATED, &ns), 1);
    ck_assert_int_eq(ns, INT64_C(1714557600999000000));
    /* an absent phase is "" and UNKNOWN */
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 1)), VELSTATUS_OP_PHASE_UNKNOWN);
    ASSERT_GOT(velstatus_op_string(velstatus_oplist_at(l, 1), VELSTATUS_OP_FIELD_PHASE, &n), "");
    assert_encodes(ctx, l, want);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(strings_with_nul_and_escapes)
{
    static const char in[] = "[{\"spec\":{\"operationID\":\"a\\u0000b\\\"\\\\\\n\\t\\u00e9\"},\"status\":{}}]";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_RESTORE, in);
    size_t n;
    const char *id = velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_OPERATION_ID, &n);
    ck_assert_uint_eq(n, 9);
    ck_assert_int_eq(memcmp(id, "a\0b\"\\\n\t\xc3\xa9", 9), 0);
    assert_encodes(
        ctx, l,
        "[{\"spec\":{\"restoreName\":\"\",\"restoreUID\":\"\",\"restoreItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},\"operationID\":"
        "\"a\\u0000b\\\"\\\\\\n\\t\xc3\xa9\"},\"status\":{}}]\n");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(unknown_phase_text_is_kept)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "[{\"status\":{\"phase\":\"Canceled\"}}]");
    size_t n;
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_UNKNOWN);
    ASSERT_GOT(velstatus_op_string(velstatus_oplist_at(l, 0), VELSTATUS_OP_FIELD_PHASE, &n), "Canceled");
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(decode_errors_name_path_and_position)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_error err;
    const char *bad = "[\n{\"spec\":{}},\n{\"status\":{\"nTotal\":1.5}}]";
    /* malformed JSON: position is absolute (line 3) */
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, "[{},\n {\"spec\": }]", 17, &err),
                     VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_msg(strstr(err.message, "[1]") != NULL, "%s", err.message);
    /* wrong type: the path names the field, the position its value (the 1.5) */
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, bad, strlen(bad), &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_msg(strstr(err.message, "[1].status.nTotal") != NULL, "%s", err.message);
    ck_assert_uint_eq(err.line, 3);
    ck_assert_uint_eq(err.column, 21);
    ck_assert_uint_eq(err.offset, 35);
    velstatus_ctx_free(ctx);

    assert_decode_fails(VELSTATUS_KIND_BACKUP, "", VELSTATUS_E_PARSE, "empty input");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "{}", VELSTATUS_E_PARSE, "expected '['");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[] x", VELSTATUS_E_PARSE, "after the array");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "null x", VELSTATUS_E_PARSE, "after null");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{}", VELSTATUS_E_PARSE, "end of input");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{} {}]", VELSTATUS_E_PARSE, "expected ','");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{},]", VELSTATUS_E_PARSE, "[1]");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[null]", VELSTATUS_E_SCHEMA, "[0]: a record must be an object");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{}, 3]", VELSTATUS_E_SCHEMA, "[1]");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":[]}]", VELSTATUS_E_SCHEMA, "[0].spec:");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":1}]", VELSTATUS_E_SCHEMA, "[0].status:");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":{\"backupName\":1}}]", VELSTATUS_E_SCHEMA,
                        "[0].spec.backupName");
    assert_decode_fails(VELSTATUS_KIND_RESTORE, "[{\"spec\":{\"restoreUID\":true}}]", VELSTATUS_E_SCHEMA,
                        "[0].spec.restoreUID");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":{\"resourceIdentifier\":{\"Name\":[]}}}]",
                        VELSTATUS_E_SCHEMA, "[0].spec.resourceIdentifier.Name");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":{\"resourceIdentifier\":\"x\"}}]", VELSTATUS_E_SCHEMA,
                        "[0].spec.resourceIdentifier");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":{\"postOperationItems\":{}}}]", VELSTATUS_E_SCHEMA,
                        "[0].spec.postOperationItems");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"spec\":{\"postOperationItems\":[{},{\"Group\":0}]}}]",
                        VELSTATUS_E_SCHEMA, "[0].spec.postOperationItems[1].Group");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"phase\":5}}]", VELSTATUS_E_SCHEMA, "[0].status.phase");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"nCompleted\":\"1\"}}]", VELSTATUS_E_SCHEMA,
                        "[0].status.nCompleted");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"nTotal\":1e3}}]", VELSTATUS_E_SCHEMA,
                        "[0].status.nTotal");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"nTotal\":99999999999999999999}}]", VELSTATUS_E_RANGE,
                        "[0]");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"created\":\"\"}}]", VELSTATUS_E_SCHEMA,
                        "[0].status.created");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"started\":\"2024-13-01T00:00:00Z\"}}]",
                        VELSTATUS_E_SCHEMA, "[0].status.started");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"updated\":1714557600}}]", VELSTATUS_E_SCHEMA,
                        "[0].status.updated");
    /* created, started and updated hold Go's whole range (years 0000-9999);
     * the library's own error-since time is int64 nanoseconds */
    assert_decode_fails(VELSTATUS_KIND_BACKUP,
                        "[{\"status\":{\"velstatusProgressErrorSince\":\"3000-01-01T00:00:00Z\"}}]", VELSTATUS_E_RANGE,
                        "[0].status.velstatusProgressErrorSince");
    assert_decode_fails(VELSTATUS_KIND_BACKUP, "[{\"status\":{\"error\":\"\xff\"}}]", VELSTATUS_E_PARSE, "[0]");
    assert_decode_fails((velstatus_kind)7, "[]", VELSTATUS_E_INVALID, "kind");
}
END_TEST

START_TEST(decode_encode_argument_checks)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_error err;
    char *out;
    ck_assert_int_eq(velstatus_oplist_from_json(NULL, ctx, VELSTATUS_KIND_BACKUP, "[]", 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_from_json(&l, NULL, VELSTATUS_KIND_BACKUP, "[]", 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, NULL, 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(velstatus_oplist_to_json(&out, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(NULL, NULL, l, &err), VELSTATUS_E_INVALID);
    /* success leaves err alone */
    err.code = VELSTATUS_E_RANGE;
    ck_assert_int_eq(velstatus_oplist_to_json(&out, NULL, l, &err), VELSTATUS_OK);
    ck_assert_int_eq(err.code, VELSTATUS_E_RANGE);
    ck_assert_str_eq(out, "[]\n");
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    ck_assert_int_eq(velstatus_oplist_new(NULL, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_new(&l, NULL, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, (velstatus_kind)2, &err), VELSTATUS_E_INVALID);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(decode_and_encode_fail_cleanly_without_memory)
{
    size_t len;
    char *text = vs_test_read_data("operations/spec-example.json", &len);
    static const char unk[] = "[{\"a\":[1,{\"b\":\"<\"}],\"spec\":{\"x\":1,\"resourceIdentifier\":{\"y\":2},"
                              "\"postOperationItems\":[{\"z\":3}]},\"status\":{\"w\":4,\"phase\":\"Odd\"}},{}]";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, text, len, NULL);
        if (st == VELSTATUS_OK) {
            char *out = NULL;
            st = velstatus_oplist_to_json(&out, NULL, l, NULL);
            if (st == VELSTATUS_OK) {
                ck_assert_int_eq(memcmp(out, text, len), 0);
                velstatus_free(ctx, out);
            }
            velstatus_oplist_free(l);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, unk, strlen(unk), NULL);
        if (st == VELSTATUS_OK)
            velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(text);
}
END_TEST

/* A list built through the API encodes as Velero writes a new record (doc/velero-behaviour.md §2.3). */
START_TEST(builders_and_setters)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_error err;
    size_t idx = 99, n;
    static const char *const values[12] = {"b", "uid",  "act",        "",     "pods",  "ns",
                                           "p", "op-1", "InProgress", "boom", "Bytes", "desc"};
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_append(&idx, l, &err), VELSTATUS_OK);
    ck_assert_uint_eq(idx, 0);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_NEW);
    assert_encodes(
        ctx, l,
        "[{\"spec\":{\"backupName\":\"\",\"backupUID\":\"\",\"backupItemAction\":\"\",\"resourceIdentifier\":"
        "{\"Group\":\"\",\"Resource\":\"\",\"Namespace\":\"\",\"Name\":\"\"},\"operationID\":\"\","
        "\"postOperationItems\":null},\"status\":{\"phase\":\"New\"}}]\n");
    for (int f = 0; f < 12; f++)
        ck_assert_int_eq(velstatus_oplist_set_string(l, 0, (velstatus_op_field)f, values[f], strlen(values[f]), &err),
                         VELSTATUS_OK);
    for (int f = 0; f < 12; f++)
        ASSERT_GOT(velstatus_op_string(velstatus_oplist_at(l, 0), (velstatus_op_field)f, &n), values[f]);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_IN_PROGRESS);
    ck_assert_int_eq(velstatus_oplist_set_counts(l, 0, 5, 10, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, VELSTATUS_OP_TIME_CREATED, 1, INT64_C(1714557600500000000), &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, VELSTATUS_OP_TIME_STARTED, 1, 0, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, VELSTATUS_OP_TIME_STARTED, 0, 5, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(l, 0), VELSTATUS_OP_TIME_STARTED, NULL), 0);
    ck_assert_int_eq(
        velstatus_oplist_add_post_item(l, 0, "velero.io", 9, "datauploads", 11, "velero", 6, "d<1>", 4, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_add_post_item(l, 0, NULL, 0, "r", 1, NULL, 0, "n", 1, &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_op_post_item_count(velstatus_oplist_at(l, 0)), 2);
    /* shorter text reuses the bytes, longer allocates: both read back */
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_ERROR, "bo", 2, &err), VELSTATUS_OK);
    ck_assert_int_eq(
        velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION, "a longer description", 20, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_PHASE, "Failed", 6, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_PHASE, "Fail", 4, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_UNKNOWN);
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_PHASE, "Failed", 6, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(l, 0)), VELSTATUS_OP_PHASE_FAILED);
    assert_encodes(ctx, l,
                   "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"uid\",\"backupItemAction\":\"act\","
                   "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"ns\",\"Name\":\"p\"},"
                   "\"operationID\":\"op-1\",\"postOperationItems\":[{\"Group\":\"velero.io\",\"Resource\":"
                   "\"datauploads\",\"Namespace\":\"velero\",\"Name\":\"d\\u003c1\\u003e\"},{\"Group\":\"\","
                   "\"Resource\":\"r\",\"Namespace\":\"\",\"Name\":\"n\"}]},\"status\":{\"phase\":\"Failed\","
                   "\"error\":\"bo\",\"nCompleted\":5,\"nTotal\":10,\"operationUnits\":\"Bytes\",\"description\":"
                   "\"a longer description\",\"created\":\"2024-05-01T10:00:00Z\"}}]\n");
    /* argument errors */
    ck_assert_int_eq(velstatus_oplist_set_string(l, 1, VELSTATUS_OP_FIELD_NAME, "x", 1, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, (velstatus_op_field)12, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_NAME, NULL, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_string(NULL, 0, VELSTATUS_OP_FIELD_NAME, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_counts(l, 3, 1, 1, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_oplist_set_counts(NULL, 0, 1, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_time(l, 0, (velstatus_op_time)3, 1, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_time(l, 9, VELSTATUS_OP_TIME_CREATED, 1, 1, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_oplist_add_post_item(l, 0, NULL, 1, "r", 1, "", 0, "n", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_add_post_item(l, 1, "", 0, "r", 1, "", 0, "n", 1, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_oplist_append(NULL, NULL, &err), VELSTATUS_E_INVALID);
    velstatus_oplist_free(l);
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_RESTORE, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_append(NULL, l, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_add_post_item(l, 0, "", 0, "r", 1, "", 0, "n", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "restore") != NULL, "%s", err.message);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(builders_fail_cleanly_without_memory)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        st = velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL);
        for (int i = 0; i < 40 && st == VELSTATUS_OK; i++)
            st = velstatus_oplist_append(NULL, l, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_oplist_set_string(l, 3, VELSTATUS_OP_FIELD_OPERATION_ID, "id-3", 4, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_oplist_add_post_item(l, 3, "g", 1, "r", 1, "n", 1, "x", 1, NULL);
        if (st == VELSTATUS_OK) {
            /* a failed setter leaves the field as it was */
            size_t n;
            ck_assert_str_eq(velstatus_op_string(velstatus_oplist_at(l, 3), VELSTATUS_OP_FIELD_OPERATION_ID, &n),
                             "id-3");
            ck_assert_uint_eq(velstatus_oplist_count(l), 40);
        }
        velstatus_oplist_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(phase_strings)
{
    static const char *const names[] = {NULL, "New", "InProgress", "Completed", "Failed"};
    velstatus_op_phase ph = VELSTATUS_OP_PHASE_NEW;
    velstatus_error err;
    for (int p = 1; p <= 4; p++) {
        ck_assert_str_eq(velstatus_op_phase_to_string((velstatus_op_phase)p), names[p]);
        ck_assert_int_eq(velstatus_op_phase_from_string(&ph, names[p], strlen(names[p]), &err), VELSTATUS_OK);
        ck_assert_int_eq(ph, p);
    }
    ck_assert_ptr_null(velstatus_op_phase_to_string(VELSTATUS_OP_PHASE_UNKNOWN));
    ck_assert_ptr_null(velstatus_op_phase_to_string((velstatus_op_phase)9));
    /* Anything but the four is E_INVALID, and *out is UNKNOWN (what a record with that text has). */
    static const struct {
        const char *s;
        size_t len;
    } bad[] = {{"", 0}, {NULL, 0}, {"new", 3}, {"Canceled", 8}, {"Newer", VELSTATUS_NUL_TERMINATED}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ph = VELSTATUS_OP_PHASE_NEW;
        ck_assert_int_eq(velstatus_op_phase_from_string(&ph, bad[i].s, bad[i].len, &err), VELSTATUS_E_INVALID);
        ck_assert_int_eq(ph, VELSTATUS_OP_PHASE_UNKNOWN);
    }
    ck_assert_msg(strstr(err.message, "\"Newer\"") != NULL, "%s", err.message);
    ck_assert_int_eq(velstatus_op_phase_from_string(&ph, "Newer", 3, &err), VELSTATUS_OK);
    ck_assert_int_eq(ph, VELSTATUS_OP_PHASE_NEW);
    ck_assert_int_eq(velstatus_op_phase_from_string(NULL, "New", 3, &err), VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(getters_accept_null)
{
    size_t n = 7;
    int64_t ns = 7;
    ck_assert_ptr_null(velstatus_op_string(NULL, VELSTATUS_OP_FIELD_NAME, &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(velstatus_op_string(NULL, VELSTATUS_OP_FIELD_UID, NULL));
    ck_assert_ptr_null(velstatus_op_string(NULL, VELSTATUS_OP_FIELD_ERROR, NULL));
    ck_assert_int_eq(velstatus_op_n_total(NULL), 0);
    ck_assert_int_eq(velstatus_op_n_completed(NULL), 0);
    ck_assert_int_eq(velstatus_op_phase_value(NULL), VELSTATUS_OP_PHASE_INVALID);
    /* A NULL object never reads as a good result (doc/conventions.md). */
    ck_assert_int_eq(velstatus_oplist_kind(NULL), VELSTATUS_KIND_INVALID);
    ck_assert_int_eq(velstatus_reconcile_result_phase(NULL), VELSTATUS_PHASE_INVALID);
    ck_assert_ptr_null(velstatus_kind_to_string(velstatus_oplist_kind(NULL)));
    ck_assert_ptr_null(velstatus_phase_to_string(velstatus_reconcile_result_phase(NULL)));
    ck_assert_int_eq(velstatus_op_time_value(NULL, VELSTATUS_OP_TIME_CREATED, &ns), 0);
    ck_assert_int_eq(ns, 0);
    ck_assert_int_eq(velstatus_op_time_value(NULL, VELSTATUS_OP_TIME_UPDATED, NULL), 0);
    ck_assert_uint_eq(velstatus_op_post_item_count(NULL), 0);
    ck_assert_int_eq(velstatus_op_post_items_null(NULL), 1);
}
END_TEST

/* ---- the plugin-answer map ---- */

START_TEST(reports_decode_and_get)
{
    static const char in[] =
        "{\"op-1\": {\"completed\": true, \"err\": \"x\", \"nCompleted\": 5, \"nTotal\": 10,\n"
        " \"operationUnits\": \"Bytes\", \"description\": \"d\", \"started\": \"2024-05-01T10:00:05Z\",\n"
        " \"updated\": null},\n"
        " \"op-2\": {\"error\": \"\"}, \"op-3\": {\"lookupError\": \"gone\", \"cancelError\": \"no\"},\n"
        " \"op\\u00e9\": {}}";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_op_progress p;
    velstatus_plugin_client c;
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, in, strlen(in), NULL), VELSTATUS_OK);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-1", 4), 1);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS);
    ck_assert_int_eq(p.completed, 1);
    ck_assert_uint_eq(p.err_len, 1);
    ck_assert_int_eq(p.err[0], 'x');
    ck_assert_int_eq(p.n_completed, 5);
    ck_assert_int_eq(p.n_total, 10);
    ck_assert_int_eq(memcmp(p.operation_units, "Bytes", 5), 0);
    ck_assert_int_eq(p.has_started, 1);
    ck_assert_int_eq(p.started_ns, INT64_C(1714557605) * 1000000000);
    ck_assert_int_eq(p.has_updated, 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-2", 4), 1);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    ck_assert_uint_eq(p.err_len, 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-3", 4), 1);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_LOOKUP_ERROR);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op\xc3\xa9", 4), 1);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS);
    ck_assert_int_eq(p.completed, 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-4", 4), 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-", 3), 0);
    ck_assert_int_eq(velstatus_op_reports_get(NULL, r, "op-1", 4), 0);
    p.struct_size = 8;
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "op-1", 4), 0);
    ck_assert_int_eq(velstatus_op_reports_client(&c, r, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(c.progress);
    ck_assert_ptr_nonnull(c.cancel);
    ck_assert_uint_eq(c.struct_size, sizeof(c));
    ck_assert_int_eq(velstatus_op_reports_client(NULL, r, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reports_client(&c, NULL, NULL), VELSTATUS_E_INVALID);
    velstatus_op_reports_free(r);
    velstatus_op_reports_free(NULL);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, "{}", 2, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "", 0), 0);
    velstatus_op_reports_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

static void assert_reports_fail(const char *json, velstatus_status code, const char *text)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_op_reports_from_json(&r, ctx, json, strlen(json), &err);
    ck_assert_msg(st == code, "status %s for %s", velstatus_status_name(st), json);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(err.message, text) != NULL, "message \"%s\" lacks \"%s\"", err.message, text);
    velstatus_ctx_free(ctx);
}

START_TEST(reports_errors)
{
    assert_reports_fail("[]", VELSTATUS_E_PARSE, "expected '{'");
    assert_reports_fail("{\"a\": {}", VELSTATUS_E_PARSE, "expected ','");
    assert_reports_fail("{\"a\": {}} x", VELSTATUS_E_PARSE, "after the object");
    assert_reports_fail("{\"a\": {}, \"a\": {}}", VELSTATUS_E_PARSE, "\"a\" appears twice");
    assert_reports_fail("{\"a\": 3}", VELSTATUS_E_SCHEMA, "[\"a\"]: must be an object");
    assert_reports_fail("{\"a\": {\"nTotal\": \"1\"}}", VELSTATUS_E_SCHEMA, "[\"a\"].nTotal");
    assert_reports_fail("{\"a\": {\"completed\": 1}}", VELSTATUS_E_SCHEMA, "[\"a\"].completed");
    assert_reports_fail("{\"a\": {\"started\": \"yesterday\"}}", VELSTATUS_E_SCHEMA, "[\"a\"].started");
    assert_reports_fail("{\"a\": {\"Completed\": true}}", VELSTATUS_E_SCHEMA, "unknown key");
    assert_reports_fail("{\"a\": {\"error\": \"x\", \"nTotal\": 1}}", VELSTATUS_E_SCHEMA, "cannot be mixed");
    assert_reports_fail("{\"a\": {\"error\": \"x\", \"lookupError\": \"y\"}}", VELSTATUS_E_SCHEMA, "both");
    assert_reports_fail("{\"a\": {\"error\": 1}}", VELSTATUS_E_SCHEMA, "[\"a\"].error");
    assert_reports_fail("{\"a\": {\"nTotal\": 1, \"nTotal\": 2}}", VELSTATUS_E_PARSE, "duplicate");
    assert_reports_fail("{3: {}}", VELSTATUS_E_PARSE, "operation ID");
    assert_reports_fail("{\"a\": {\"name\": 1}}", VELSTATUS_E_SCHEMA, "[\"a\"].name: must be a string");
    assert_reports_fail("{\"a\": {\"lookupError\": \"x\", \"name\": \"p\"}}", VELSTATUS_E_SCHEMA,
                        "name cannot be given with lookupError");
}
END_TEST

/* "name": the plugin's own Name(), given with progress or a Progress error;
 * absent, the field stays NULL (the registered name); "" is a name. */
START_TEST(reports_plugin_name)
{
    static const char in[] = "{\"a\": {\"completed\": true, \"name\": \"test\"}, \"b\": {\"error\": \"x\", "
                             "\"name\": \"\"}, \"c\": {}}";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_op_reports *r = NULL;
    velstatus_op_progress p;
    ck_assert_int_eq(velstatus_op_reports_from_json(&r, ctx, in, strlen(in), NULL), VELSTATUS_OK);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "a", 1), 1);
    ck_assert_uint_eq(p.plugin_name_len, 4);
    ck_assert_mem_eq(p.plugin_name, "test", 4);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "b", 1), 1);
    ck_assert_ptr_nonnull(p.plugin_name);
    ck_assert_uint_eq(p.plugin_name_len, 0);
    ck_assert_int_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    ck_assert_int_eq(velstatus_op_reports_get(&p, r, "c", 1), 1);
    ck_assert_ptr_null(p.plugin_name);
    velstatus_op_reports_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reports_fail_cleanly_without_memory)
{
    static const char in[] =
        "{\"op-1\": {\"err\": \"x\", \"operationUnits\": \"B\", \"description\": \"d\", \"name\": \"n\"},"
        " \"op-2\": {\"lookupError\": \"l\", \"cancelError\": \"c\"}, \"op-0\": {}}";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_op_reports *r = NULL;
        st = velstatus_op_reports_from_json(&r, ctx, in, strlen(in), NULL);
        velstatus_op_reports_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* ---- velstatus_oplist_write_json: the text in chunks ---- */

/* What a sink received: the bytes, the chunk count and sizes, and when to fail. */
typedef struct sink_log {
    char *p;
    size_t len, cap;
    size_t calls, max_chunk;
    size_t fail_on; /* 1-based call that returns fail_rc; 0 never */
    int fail_rc;
    size_t big; /* chunks over 64 KiB */
    int failed; /* it returned a negative value */
} sink_log;

static int log_sink(void *userdata, const char *data, size_t len)
{
    sink_log *s = userdata;
    ck_assert_uint_gt(len, 0);
    ck_assert_msg(!s->failed, "called after failing");
    s->calls++;
    if (s->len + len > s->cap) {
        s->cap = (s->len + len) * 2;
        s->p = realloc(s->p, s->cap);
        ck_assert_ptr_nonnull(s->p);
    }
    memcpy(s->p + s->len, data, len);
    s->len += len;
    if (len > s->max_chunk)
        s->max_chunk = len;
    s->big += len > 65536;
    if (s->fail_on != 0 && s->calls == s->fail_on) {
        s->failed = s->fail_rc < 0;
        return s->fail_rc;
    }
    return 0;
}

/* n records of varying size (0 to about 1.5 KiB of description, kept
 * unknown keys with characters Go escapes), so the 64 KiB chunk boundary
 * falls after many different records. */
static char *varied_list_json(size_t n)
{
    size_t cap = 64 + n * 1800, len = 0;
    char *p = malloc(cap);
    ck_assert_ptr_nonnull(p);
    len += (size_t)snprintf(p + len, cap - len, "[");
    for (size_t i = 0; i < n; i++) {
        size_t d = (i * 733) % 1500;
        len += (size_t)snprintf(p + len, cap - len,
                                "%s{\"spec\":{\"backupName\":\"b\",\"operationID\":\"op-%zu\"},"
                                "\"status\":{\"phase\":\"InProgress\",\"description\":\"",
                                i ? "," : "", i);
        memset(p + len, 'a' + (int)(i % 26), d);
        len += d;
        len += (size_t)snprintf(p + len, cap - len, "\"},\"x%zu\":\"<&>\"}", i % 7);
    }
    snprintf(p + len, cap - len, "]");
    return p;
}

/* The chunks are the one-shot text, each at most 64 KiB (the lists here
 * have no string run that long); returns the chunk count. */
static size_t assert_chunks_equal_one_shot(const velstatus_oplist *l, velstatus_ctx *ctx)
{
    char *whole = NULL;
    size_t whole_len = 0;
    sink_log s = {0};
    velstatus_error err;
    ck_assert_int_eq(velstatus_oplist_to_json(&whole, &whole_len, l, NULL), VELSTATUS_OK);
    err.code = VELSTATUS_E_RANGE; /* success leaves err alone */
    ck_assert_int_eq(velstatus_oplist_write_json(l, log_sink, &s, &err), VELSTATUS_OK);
    ck_assert_int_eq(err.code, VELSTATUS_E_RANGE);
    ck_assert_uint_eq(s.len, whole_len);
    ck_assert_msg(memcmp(s.p, whole, whole_len) == 0, "chunks differ from the one-shot text");
    ck_assert_uint_le(s.max_chunk, 65536);
    ck_assert_uint_ge(s.calls, (whole_len + 65535) / 65536);
    velstatus_free(ctx, whole);
    free(s.p);
    return s.calls;
}

START_TEST(write_json_chunks_are_the_one_shot_text)
{
    static const size_t sizes[] = {1, 2, 3, 40, 90, 91, 200, 333, 1000};
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l;
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "null");
    assert_chunks_equal_one_shot(l, ctx);
    velstatus_oplist_free(l);
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, "[]");
    assert_chunks_equal_one_shot(l, ctx);
    velstatus_oplist_free(l);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        char *json = varied_list_json(sizes[k]);
        l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, json);
        ck_assert_uint_ge(assert_chunks_equal_one_shot(l, ctx), sizes[k] >= 200 ? 2 : 1);
        velstatus_oplist_free(l);
        free(json);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* One record bigger than a chunk: 300,000 bytes of description (one run,
 * handed over uncopied) and an unknown key of 100,000 '<' (600,000 bytes
 * written, in chunks of at most 64 KiB). */
START_TEST(write_json_splits_inside_a_record)
{
    static const char head[] = "[{\"status\":{\"description\":\"";
    size_t d = 300000, k = 100000, len = 0;
    char *json = malloc(sizeof(head) + d + k + 64), *whole = NULL;
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l;
    sink_log s = {0};
    size_t whole_len;
    ck_assert_ptr_nonnull(json);
    memcpy(json, head, sizeof(head) - 1);
    len = sizeof(head) - 1;
    memset(json + len, 'd', d);
    len += d;
    memcpy(json + len, "\"},\"", 4);
    len += 4;
    memset(json + len, '<', k);
    len += k;
    memcpy(json + len, "\":1}]", 6);
    json[len + 6] = '\0';
    l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, json);
    ck_assert_int_eq(velstatus_oplist_to_json(&whole, &whole_len, l, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_write_json(l, log_sink, &s, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(s.len, whole_len);
    ck_assert_int_eq(memcmp(s.p, whole, whole_len), 0);
    ck_assert_uint_eq(s.big, 1); /* the description's run */
    ck_assert_uint_eq(s.max_chunk, d);
    ck_assert_uint_ge(s.calls, 1 + 6 * k / 65536);
    velstatus_free(ctx, whole);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
    free(s.p);
    free(json);
}
END_TEST

START_TEST(write_json_stops_when_the_host_fails)
{
    velstatus_ctx *ctx = vs_test_ctx();
    char *json = varied_list_json(400), *whole = NULL;
    size_t whole_len, chunks;
    velstatus_oplist *l = decode_ok(ctx, VELSTATUS_KIND_BACKUP, json);
    velstatus_error err;
    sink_log all = {0};
    ck_assert_int_eq(velstatus_oplist_to_json(&whole, &whole_len, l, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_write_json(l, log_sink, &all, NULL), VELSTATUS_OK);
    chunks = all.calls;
    ck_assert_uint_ge(chunks, 3);
    for (size_t k = 1; k <= chunks; k++) {
        sink_log s = {0};
        s.fail_on = k;
        s.fail_rc = -40 - (int)k;
        ck_assert_int_eq(velstatus_oplist_write_json(l, log_sink, &s, &err), VELSTATUS_E_HOST);
        ck_assert_int_eq(err.code, VELSTATUS_E_HOST);
        ck_assert_int_eq(err.host_code, -40 - (int)k);
        ck_assert_uint_eq(s.calls, k);
        ck_assert_uint_eq(s.len < whole_len, k < chunks);
        ck_assert_int_eq(memcmp(s.p, whole, s.len), 0); /* a prefix of the text */
        free(s.p);
    }
    { /* a positive return is success (doc/conventions.md §2): the whole text follows */
        sink_log s = {0};
        s.fail_on = 1;
        s.fail_rc = 1;
        ck_assert_int_eq(velstatus_oplist_write_json(l, log_sink, &s, &err), VELSTATUS_OK);
        ck_assert_uint_eq(s.calls, chunks);
        ck_assert_uint_eq(s.len, whole_len);
        free(s.p);
    }
    ck_assert_int_eq(velstatus_oplist_write_json(NULL, log_sink, &all, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_write_json(l, NULL, &all, &err), VELSTATUS_E_INVALID);
    ck_assert_uint_eq(all.calls, chunks);
    velstatus_free(ctx, whole);
    velstatus_oplist_free(l);
    free(all.p);
    free(json);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(write_json_fails_cleanly_without_memory)
{
    velstatus_ctx *plain = vs_test_ctx();
    char *json = varied_list_json(150), *whole = NULL;
    size_t whole_len;
    velstatus_oplist *l0 = decode_ok(plain, VELSTATUS_KIND_BACKUP, json);
    velstatus_status st;
    ck_assert_int_eq(velstatus_oplist_to_json(&whole, &whole_len, l0, NULL), VELSTATUS_OK);
    ck_assert_uint_gt(whole_len, 2 * 65536);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *l = NULL;
        st = velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, json, strlen(json), NULL);
        if (st == VELSTATUS_OK) {
            sink_log s = {0};
            velstatus_error err;
            st = velstatus_oplist_write_json(l, log_sink, &s, &err);
            if (st != VELSTATUS_OK)
                ck_assert_int_eq(err.code, VELSTATUS_E_NOMEM);
            ck_assert_uint_eq(s.len == whole_len, st == VELSTATUS_OK);
            ck_assert_int_eq(memcmp(s.p ? s.p : "", whole, s.len), 0);
            free(s.p);
            velstatus_oplist_free(l);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
    velstatus_free(plain, whole);
    velstatus_oplist_free(l0);
    free(json);
    velstatus_ctx_free(plain);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("operations");
    TCase *tc = tcase_create("operations");
    tcase_add_test(tc, spec_example_round_trips_byte_identically);
    tcase_add_test(tc, restore_record_and_examples_round_trip);
    tcase_add_test(tc, empty_and_nil_lists);
    tcase_add_test(tc, unknown_fields_are_kept);
    tcase_add_test(tc, unknown_fields_with_escapes_are_kept);
    tcase_add_test(tc, foreign_files_are_normalised);
    tcase_add_test(tc, strings_with_nul_and_escapes);
    tcase_add_test(tc, unknown_phase_text_is_kept);
    tcase_add_test(tc, decode_errors_name_path_and_position);
    tcase_add_test(tc, decode_encode_argument_checks);
    tcase_add_test(tc, decode_and_encode_fail_cleanly_without_memory);
    tcase_add_test(tc, builders_and_setters);
    tcase_add_test(tc, builders_fail_cleanly_without_memory);
    tcase_add_test(tc, phase_strings);
    tcase_add_test(tc, getters_accept_null);
    tcase_add_test(tc, reports_decode_and_get);
    tcase_add_test(tc, reports_errors);
    tcase_add_test(tc, reports_plugin_name);
    tcase_add_test(tc, reports_fail_cleanly_without_memory);
    tcase_add_test(tc, write_json_chunks_are_the_one_shot_text);
    tcase_add_test(tc, write_json_splits_inside_a_record);
    tcase_add_test(tc, write_json_stops_when_the_host_fails);
    tcase_add_test(tc, write_json_fails_cleanly_without_memory);
    suite_add_tcase(s, tc);
    return s;
}
