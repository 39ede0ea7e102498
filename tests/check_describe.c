/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus_describe_operations(): the operations section of `velero backup
 * describe` / `velero restore describe`, byte-exact (doc/velero-behaviour.md §3.2, §3.3). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "failalloc.h"
#include "harness.h"
#include "velstatus.h"

#define SEC INT64_C(1000000000)

static int64_t ts(const char *rfc3339)
{
    int64_t ns = 0;
    ck_assert_int_eq(velstatus_time_parse(&ns, rfc3339, strlen(rfc3339), NULL), VELSTATUS_OK);
    return ns;
}

static void set(velstatus_oplist *l, size_t i, velstatus_op_field f, const char *s)
{
    ck_assert_int_eq(velstatus_oplist_set_string(l, i, f, s, strlen(s), NULL), VELSTATUS_OK);
}

static size_t add(velstatus_oplist *l, const char *group, const char *resource, const char *ns, const char *name,
                  const char *action, const char *id, const char *phase)
{
    size_t i;
    ck_assert_int_eq(velstatus_oplist_append(&i, l, NULL), VELSTATUS_OK);
    set(l, i, VELSTATUS_OP_FIELD_RESOURCE_GROUP, group);
    set(l, i, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, resource);
    set(l, i, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, ns);
    set(l, i, VELSTATUS_OP_FIELD_RESOURCE_NAME, name);
    set(l, i, VELSTATUS_OP_FIELD_ITEM_ACTION, action);
    set(l, i, VELSTATUS_OP_FIELD_OPERATION_ID, id);
    set(l, i, VELSTATUS_OP_FIELD_PHASE, phase);
    return i;
}

static char *describe(velstatus_ctx *ctx, const velstatus_oplist *l, int details, size_t *len)
{
    char *out = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_describe_operations(&out, len, ctx, l, details, &err);
    ck_assert_msg(st == VELSTATUS_OK, "describe: %s", err.message);
    ck_assert_ptr_nonnull(out);
    return out;
}

/* The record of Velero's TestDescribeBackupItemOperation
 * (pkg/cmd/util/output/backup_describer_test.go). */
static velstatus_oplist *velero_test_list(velstatus_ctx *ctx, velstatus_kind kind)
{
    velstatus_oplist *l = NULL;
    size_t i;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, kind, NULL), VELSTATUS_OK);
    i = add(l, "group", "rs-type", "ns", "rs-name", "action-1", "op-1", "Failed");
    set(l, i, VELSTATUS_OP_FIELD_NAME, "backup-1");
    set(l, i, VELSTATUS_OP_FIELD_ERROR, "operation error");
    ck_assert_int_eq(velstatus_oplist_set_counts(l, i, 50, 100, NULL), VELSTATUS_OK);
    set(l, i, VELSTATUS_OP_FIELD_OPERATION_UNITS, "bytes");
    set(l, i, VELSTATUS_OP_FIELD_DESCRIPTION, "operation description");
    ck_assert_int_eq(velstatus_oplist_set_time(l, i, VELSTATUS_OP_TIME_CREATED, 1, ts("2023-06-24T00:00:00Z"), NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(l, i, VELSTATUS_OP_TIME_STARTED, 1, ts("2023-06-25T00:00:00Z"), NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(l, i, VELSTATUS_OP_TIME_UPDATED, 1, ts("2023-06-26T00:00:00Z"), NULL),
                     VELSTATUS_OK);
    return l;
}

/* doc/velero-behaviour.md §3.2: Velero's own describer test renders byte-identically.
 * The golden file is the test's expected text, verbatim. */
START_TEST(velero_TestDescribeBackupItemOperation)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = velero_test_list(ctx, VELSTATUS_KIND_BACKUP);
    size_t glen, len;
    char *golden = vs_test_read_data("progress/velero-TestDescribeBackupItemOperation.txt", &glen);
    char *out = describe(ctx, l, 1, &len);
    static const char header[] = "Backup Item Operations:\n";
    ck_assert_uint_eq(len, sizeof(header) - 1 + glen);
    ck_assert_int_eq(memcmp(out, header, sizeof(header) - 1), 0);
    ck_assert_msg(memcmp(out + sizeof(header) - 1, golden, glen) == 0, "got\n%s\nwant\n%s", out, golden);
    velstatus_free(ctx, out);

    /* Without --details: the summary line (§3.2 "Operations summary"). */
    out = describe(ctx, l, 0, &len);
    ck_assert_str_eq(out, "Backup Item Operations:  0 of 1 completed successfully, 1 failed "
                          "(specify --details for more information)\n");
    velstatus_free(ctx, out);
    free(golden);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* doc/velero-behaviour.md §3.3: restores say "Restore Item Action Plugin" (wider, so
 * the whole block is one column wider) and never print items to update. */
START_TEST(restore_kind)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = velero_test_list(ctx, VELSTATUS_KIND_RESTORE);
    char *out = describe(ctx, l, 1, NULL);
    ck_assert_str_eq(out, "Restore Item Operations:\n"
                          "  Operation for rs-type.group ns/rs-name:\n"
                          "    Restore Item Action Plugin:  action-1\n"
                          "    Operation ID:                op-1\n"
                          "    Phase:                       Failed\n"
                          "    Operation Error:             operation error\n"
                          "    Progress:                    50 of 100 complete (bytes)\n"
                          "    Progress description:        operation description\n"
                          "    Created:                     2023-06-24 00:00:00 +0000 UTC\n"
                          "    Started:                     2023-06-25 00:00:00 +0000 UTC\n"
                          "    Updated:                     2023-06-26 00:00:00 +0000 UTC\n");
    velstatus_free(ctx, out);
    out = describe(ctx, l, 0, NULL);
    ck_assert_str_eq(out, "Restore Item Operations:  0 of 1 completed successfully, 1 failed "
                          "(specify --details for more information)\n");
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(backup_blocks)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    size_t i;
    char *out;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    /* Core group, post-operation items, in progress, a fractional time.
     * The "Items to Update" lines have an empty column-2 cell in the same
     * block as Phase/Progress/Created, so Velero indents them by 15. (Expected
     * text produced with Go's fmt + text/tabwriter.) */
    i = add(l, "", "persistentvolumeclaims", "app", "data-0", "velero.io/csi-pvc-backupper", "du-1", "InProgress");
    ck_assert_int_eq(
        velstatus_oplist_add_post_item(l, i, "velero.io", 9, "datauploads", 11, "velero", 6, "du-x", 4, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_add_post_item(l, i, "", 0, "pods", 4, "", 0, "p", 1, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_counts(l, i, 524288000, 1073741824, NULL), VELSTATUS_OK);
    set(l, i, VELSTATUS_OP_FIELD_OPERATION_UNITS, "Bytes");
    ck_assert_int_eq(velstatus_oplist_set_time(l, i, VELSTATUS_OP_TIME_CREATED, 1, ts("2024-05-01T10:00:00.5Z"), NULL),
                     VELSTATUS_OK);
    /* Cluster-scoped (empty namespace: " /name", as in #6589), no progress
     * (0 of 0), an empty phase printed raw, nothing optional. */
    add(l, "storage.k8s.io", "storageclasses", "", "fast", "a", "op-2", "");
    /* Progress shows when nCompleted > 0 even with nTotal 0; units may be empty. */
    i = add(l, "", "pods", "ns", "p", "b", "op-3", "Completed");
    ck_assert_int_eq(velstatus_oplist_set_counts(l, i, 3, 0, NULL), VELSTATUS_OK);
    /* Negative values: neither is > 0, so no Progress line. */
    i = add(l, "", "pods", "ns", "q", "c", "op-4", "Failed");
    ck_assert_int_eq(velstatus_oplist_set_counts(l, i, -1, -2, NULL), VELSTATUS_OK);
    out = describe(ctx, l, 1, NULL);
    ck_assert_str_eq(out, "Backup Item Operations:\n"
                          "  Operation for persistentvolumeclaims app/data-0:\n"
                          "    Backup Item Action Plugin:  velero.io/csi-pvc-backupper\n"
                          "    Operation ID:               du-1\n"
                          "    Items to Update:\n"
                          "               datauploads.velero.io velero/du-x\n"
                          "               pods /p\n"
                          "    Phase:     InProgress\n"
                          "    Progress:  524288000 of 1073741824 complete (Bytes)\n"
                          "    Created:   2024-05-01 10:00:00.5 +0000 UTC\n"
                          "  Operation for storageclasses.storage.k8s.io /fast:\n"
                          "    Backup Item Action Plugin:  a\n"
                          "    Operation ID:               op-2\n"
                          "    Phase:                      \n"
                          "  Operation for pods ns/p:\n"
                          "    Backup Item Action Plugin:  b\n"
                          "    Operation ID:               op-3\n"
                          "    Phase:                      Completed\n"
                          "    Progress:                   3 of 0 complete ()\n"
                          "  Operation for pods ns/q:\n"
                          "    Backup Item Action Plugin:  c\n"
                          "    Operation ID:               op-4\n"
                          "    Phase:                      Failed\n");
    velstatus_free(ctx, out);
    out = describe(ctx, l, 0, NULL);
    ck_assert_str_eq(out, "Backup Item Operations:  1 of 4 completed successfully, 1 failed "
                          "(specify --details for more information)\n");
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Text with tabs and newlines goes through the tabwriter as Go's would:
 * a tab in a value opens a new column, a newline a new line; here the
 * "line\t" cell joins column 0 of the whole block and widens it to 6.
 * (Expected text produced with Go's fmt + text/tabwriter.) */
START_TEST(control_characters)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    size_t i;
    char *out;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_RESTORE, NULL), VELSTATUS_OK);
    i = add(l, "", "pods", "ns", "p", "act\tion", "id", "New");
    set(l, i, VELSTATUS_OP_FIELD_DESCRIPTION, "line one\nline\ttwo");
    out = describe(ctx, l, 1, NULL);
    ck_assert_str_eq(out, "Restore Item Operations:\n"
                          "      Operation for pods ns/p:\n"
                          "        Restore Item Action Plugin:  act  ion\n"
                          "        Operation ID:                id\n"
                          "        Phase:                       New\n"
                          "        Progress description:        line one\n"
                          "line  two\n");
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(empty_list)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    size_t len = 99;
    char *out;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    out = describe(ctx, l, 1, &len);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(out, "");
    velstatus_free(ctx, out);
    out = describe(ctx, l, 0, &len);
    ck_assert_uint_eq(len, 0);
    velstatus_free(ctx, out);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(invalid_and_limits)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = velero_test_list(ctx, VELSTATUS_KIND_BACKUP);
    velstatus_error err;
    char *out = NULL, *desc;
    size_t i, n = 20000, w = 100000, pos = 0;
    ck_assert_int_eq(velstatus_describe_operations(NULL, NULL, ctx, l, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "out"));
    ck_assert_int_eq(velstatus_describe_operations(&out, NULL, NULL, l, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "ctx"));
    ck_assert_int_eq(velstatus_describe_operations(&out, NULL, ctx, NULL, 1, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "ops"));
    ck_assert_ptr_null(out);
    /* 220 KB of description asking for 20000 lines padded to 100 KB each
     * (2 GB): refused, not attempted. */
    desc = malloc(w + 1 + n * 6 + 1);
    memset(desc, 'a', w);
    pos = w;
    desc[pos++] = '\t';
    for (i = 0; i < n; i++) {
        memcpy(desc + pos, "\n\t\t\t\tb", 6);
        pos += 6;
    }
    ck_assert_int_eq(velstatus_oplist_set_string(l, 0, VELSTATUS_OP_FIELD_DESCRIPTION, desc, pos, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_describe_operations(&out, NULL, ctx, l, 1, &err), VELSTATUS_E_RANGE);
    ck_assert_ptr_null(out);
    ck_assert_ptr_nonnull(strstr(err.message, "limit"));
    free(desc);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(describe_failalloc)
{
    velstatus_ctx *lctx = vs_test_ctx();
    velstatus_oplist *l = velero_test_list(lctx, VELSTATUS_KIND_BACKUP);
    size_t glen;
    char *golden = vs_test_read_data("progress/velero-TestDescribeBackupItemOperation.txt", &glen);
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        char *a = NULL, *b = NULL;
        st = velstatus_describe_operations(&a, NULL, ctx, l, 1, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_describe_operations(&b, NULL, ctx, l, 0, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(a + strlen("Backup Item Operations:\n"), golden);
            ck_assert_ptr_nonnull(strstr(b, "0 of 1 completed successfully, 1 failed"));
        }
        velstatus_free(ctx, a);
        velstatus_free(ctx, b);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(golden);
    velstatus_oplist_free(l);
    velstatus_ctx_free(lctx);
}
END_TEST

/* 120 random operation lists (tabs, newlines, vertical tabs, form feeds,
 * multi-byte text, HTML characters, U+2028, negative and huge counts,
 * unknown and empty phases, missing times) as Velero encodes them, and the
 * text Velero's describer prints for them, produced with Go's fmt and
 * text/tabwriter by tests/data/progress/describe-vectors.go.txt. */
START_TEST(go_vectors)
{
    size_t len, i, n;
    char *data = vs_test_read_data("progress/describe-vectors.json", &len);
    json_error_t jerr;
    json_t *root = json_loadb(data, len, 0, &jerr);
    velstatus_ctx *ctx = vs_test_ctx();
    ck_assert_msg(root != NULL, "describe-vectors.json: %s", jerr.text);
    n = json_array_size(root);
    ck_assert_uint_eq(n, 120);
    for (i = 0; i < n; i++) {
        json_t *v = json_array_get(root, i);
        const char *kind = json_string_value(json_object_get(v, "kind"));
        json_t *ops = json_object_get(v, "ops");
        json_t *want[2] = {json_object_get(v, "summary"), json_object_get(v, "details")};
        velstatus_kind k;
        velstatus_oplist *l = NULL;
        velstatus_error err;
        int d;
        ck_assert_int_eq(velstatus_kind_from_string(&k, kind, strlen(kind), NULL), VELSTATUS_OK);
        ck_assert_msg(velstatus_oplist_from_json(&l, ctx, k, json_string_value(ops), json_string_length(ops), &err) ==
                          VELSTATUS_OK,
                      "vector %zu: %s", i, err.message);
        for (d = 0; d < 2; d++) {
            size_t olen;
            char *out = describe(ctx, l, d, &olen);
            ck_assert_msg(olen == json_string_length(want[d]) && memcmp(out, json_string_value(want[d]), olen) == 0,
                          "vector %zu (%s, details=%d):\ngot\n%s\nwant\n%s", i, kind, d, out,
                          json_string_value(want[d]));
            velstatus_free(ctx, out);
        }
        velstatus_oplist_free(l);
    }
    json_decref(root);
    velstatus_ctx_free(ctx);
    free(data);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("describe");
    TCase *tc = tcase_create("describe");
    tcase_add_test(tc, velero_TestDescribeBackupItemOperation);
    tcase_add_test(tc, restore_kind);
    tcase_add_test(tc, backup_blocks);
    tcase_add_test(tc, control_characters);
    tcase_add_test(tc, empty_list);
    tcase_add_test(tc, invalid_and_limits);
    tcase_add_test(tc, describe_failalloc);
    tcase_add_test(tc, go_vectors);
    suite_add_tcase(s, tc);
    return s;
}
