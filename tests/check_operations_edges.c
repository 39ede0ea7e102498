/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the operations area: Go's %q in the plugin-lookup error, reports
 * from newer headers and oversized texts, getters and setters given bad
 * arguments, the reports map's client, and out-of-memory paths of the
 * reconcile pass and of post-operation items. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include <velstatus/experimental.h>
#include "fake_host.h"
#include "harness.h"
#include "operations/private.h"

#define NOW_NS INT64_C(1714559400000000000) /* 2024-05-01T10:30:00Z */
#define HOUR_NS (INT64_C(3600) * 1000000000)

/* Appends a backup record, InProgress, created `age_ns` before NOW_NS. */
static void add_op(velstatus_oplist *list, const char *action, const char *id, int64_t age_ns)
{
    size_t i;
    ck_assert_int_eq(velstatus_oplist_append(&i, list, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(list, i, VELSTATUS_OP_FIELD_ITEM_ACTION, action, strlen(action), NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(list, i, VELSTATUS_OP_FIELD_OPERATION_ID, id, strlen(id), NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(list, i, VELSTATUS_OP_FIELD_PHASE, "InProgress", 10, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_time(list, i, VELSTATUS_OP_TIME_CREATED, 1, NOW_NS - age_ns, NULL),
                     VELSTATUS_OK);
}

/* A list of one such record. */
static velstatus_oplist *one_op(velstatus_ctx *ctx, const char *action, const char *id, int64_t age_ns)
{
    velstatus_oplist *list = NULL;
    ck_assert_int_eq(velstatus_oplist_new(&list, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    add_op(list, action, id, age_ns);
    return list;
}

static const char odd_action[] = "x\\y\a\b\f\n\r\t\v\x01\x7f\"z";
static const char odd_quoted[] =
    "unable to get valid BackupItemActionV2 for \"velero.io/x\\\\y\\a\\b\\f\\n\\r\\t\\v\\x01\\x7f\\\"z\"";
static const char odd_wrapped_suffix[] = ", plugin: unknown";

static velstatus_status reconcile_without_plugin(velstatus_ctx *ctx, char **error_text)
{
    velstatus_oplist *list = one_op(ctx, odd_action, "op-1", HOUR_NS);
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_policy velero = vs_policy(VELSTATUS_PRESET_VELERO); /* fails at once, no grace period */
    velstatus_plugin_client_init(&client, sizeof(client));        /* progress NULL: no plugin */
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    velstatus_status st = velstatus_oplist_reconcile(&res, list, &client, &o, &velero, NULL);
    if (st == VELSTATUS_OK) {
        size_t len = 0;
        const char *e = velstatus_op_string(velstatus_oplist_at(list, 0), VELSTATUS_OP_FIELD_ERROR, &len);
        ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(list, 0)), VELSTATUS_OP_PHASE_FAILED);
        ck_assert_uint_eq(velstatus_reconcile_result_failed(res), 1);
        /* The record keeps the text; the backup's error list wraps it. */
        size_t wlen = 0;
        const char *w = velstatus_reconcile_result_error(res, 0, &wlen);
        ck_assert_uint_eq(wlen, len + strlen(odd_wrapped_suffix));
        ck_assert_int_eq(memcmp(w, e, len), 0);
        ck_assert_str_eq(w + len, odd_wrapped_suffix);
        *error_text = velstatus__strndup(ctx, e, len);
        ck_assert_ptr_nonnull(*error_text);
    }
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    return st;
}

START_TEST(lookup_error_quotes_the_item_action_as_go_does)
{
    /* Velero: fmt.Errorf("unable to get valid BackupItemActionV2 for %q", ...):
     * Go's %q escapes \\ \" and \a \b \f \n \r \t \v by name, other control
     * bytes and DEL as \xNN. */
    velstatus_ctx *ctx = NULL;
    char *text = NULL;
    ctx = vs_test_ctx();
    ck_assert_int_eq(reconcile_without_plugin(ctx, &text), VELSTATUS_OK);
    ck_assert_str_eq(text, odd_quoted);
    velstatus_free(ctx, text);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(lookup_error_reconcile_out_of_memory)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        /* The list is built without failures; only the pass's allocations fail. */
        VS_FAILALLOC_PAUSE(fa);
        velstatus_oplist *list = one_op(ctx, odd_action, "op-1", HOUR_NS);
        velstatus_plugin_client client;
        velstatus_reconcile_options o;
        velstatus_reconcile_result *res = NULL;
        velstatus_policy velero = vs_policy(VELSTATUS_PRESET_VELERO);
        velstatus_plugin_client_init(&client, sizeof(client));
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = NOW_NS;
        VS_FAILALLOC_RESUME(fa);
        st = velstatus_oplist_reconcile(&res, list, &client, &o, &velero, NULL);
        VS_FAILALLOC_PAUSE_AGAIN(fa);
        const velstatus_op *op = velstatus_oplist_at(list, 0);
        size_t len = 0;
        const char *e = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len);
        if (st == VELSTATUS_OK) {
            ck_assert(len == strlen(odd_quoted) && memcmp(e, odd_quoted, len) == 0);
        } else {
            ck_assert_ptr_null(res);
            /* Never half-updated: the record is as it was, or fully stepped
             * (the failure came after its step, as with a host error). */
            if (velstatus_op_phase_value(op) == VELSTATUS_OP_PHASE_IN_PROGRESS)
                ck_assert_uint_eq(len, 0);
            else
                ck_assert(len == strlen(odd_quoted) && memcmp(e, odd_quoted, len) == 0);
        }
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* Reconcile with the lookup options given; the result's first error and phase checked. */
static void lookup_case(velstatus_kind kind, int minor, velstatus_reconcile_options *o, velstatus_phase want,
                        const char *want_err, int want_requeue)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = NULL;
    velstatus_reconcile_result *res = NULL;
    velstatus_policy pol;
    velstatus_error err;
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof pol, 1, minor, NULL), VELSTATUS_OK);
    if (kind == VELSTATUS_KIND_BACKUP)
        list = one_op(ctx, "a", "op-1", HOUR_NS);
    else
        ck_assert_int_eq(velstatus_oplist_new(&list, ctx, kind, NULL), VELSTATUS_OK);
    o->now_ns = NOW_NS;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, o, &pol, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_reconcile_result_phase(res), want);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(res), 1);
    ck_assert_str_eq(velstatus_reconcile_result_error(res, 0, NULL), want_err);
    ck_assert_int_eq(velstatus_reconcile_result_requeue(res), want_requeue);
    ck_assert_int_eq(velstatus_reconcile_result_persist(res), VELSTATUS_PERSIST_PATCH);
    ck_assert_int_eq(velstatus_reconcile_result_errors_added(res), 0);
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}

/* backup_operations_controller.go / restore_operations_controller.go
 * Reconcile at v1.11.1 ... v1.18.1: a failed Get (any error) returns its
 * error (requeue); fetchBackupInfoInternal wraps the Backup's. */
START_TEST(lookup_errors_give_velero_texts_phases_and_requeue)
{
    velstatus_reconcile_options o;
    for (int minor = 11; minor <= 18; minor++) {
        velstatus_phase rp =
            minor >= 14 ? VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED : VELSTATUS_PHASE_PARTIALLY_FAILED;
        velstatus_reconcile_options_init(&o, sizeof o);
        o.bsl_error = "dial tcp: i/o timeout";
        o.bsl_error_len = VELSTATUS_NUL_TERMINATED;
        lookup_case(VELSTATUS_KIND_BACKUP, minor, &o, VELSTATUS_PHASE_PARTIALLY_FAILED, "dial tcp: i/o timeout", 1);
        lookup_case(VELSTATUS_KIND_RESTORE, minor, &o, rp, "dial tcp: i/o timeout", 1);
        velstatus_reconcile_options_init(&o, sizeof o);
        o.bsl = VELSTATUS_BSL_MISSING; /* the Backup's Get comes first: the BSL is never asked */
        o.backup_error = "backups.velero.io \"b\" not found";
        o.backup_error_len = VELSTATUS_NUL_TERMINATED;
        o.backup_name = "b";
        o.backup_name_len = 1;
        lookup_case(VELSTATUS_KIND_RESTORE, minor, &o, rp,
                    "can't find backup velero/b: backups.velero.io \"b\" not found", 1);
        o.velero_namespace = "ops";
        o.velero_namespace_len = 3;
        lookup_case(VELSTATUS_KIND_RESTORE, minor, &o, rp, "can't find backup ops/b: backups.velero.io \"b\" not found",
                    1);
        velstatus_reconcile_options_init(&o, sizeof o);
        o.bsl = VELSTATUS_BSL_READONLY; /* Reconcile returns nil */
        lookup_case(VELSTATUS_KIND_BACKUP, minor, &o, VELSTATUS_PHASE_PARTIALLY_FAILED, "BSL is read-only", 0);
        o.bsl = VELSTATUS_BSL_MISSING;
        lookup_case(VELSTATUS_KIND_BACKUP, minor, &o, VELSTATUS_PHASE_PARTIALLY_FAILED,
                    "backupstoragelocations.velero.io \"default\" not found", 1);
    }
}
END_TEST

START_TEST(lookup_errors_bad_combinations_are_refused)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "a", "op-1", HOUR_NS);
    velstatus_reconcile_result *res = NULL;
    velstatus_reconcile_options o;
    velstatus_error err;
    velstatus_reconcile_options_init(&o, sizeof o);
    o.bsl_error = "x";
    o.bsl_error_len = 1;
    o.bsl = VELSTATUS_BSL_READONLY;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "options.bsl_error needs options.bsl available"));
    o.bsl = VELSTATUS_BSL_AVAILABLE;
    o.phase = VELSTATUS_PHASE_IN_PROGRESS;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "options.bsl_error must be NULL with phase InProgress"));
    velstatus_reconcile_options_init(&o, sizeof o);
    o.backup_error = "x";
    o.backup_error_len = 1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "options.backup_error is a restore's"));
    velstatus_reconcile_options_init(&o, sizeof o);
    o.velero_namespace_len = 2;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "options.velero_namespace is NULL with a non-zero length");
    ck_assert_ptr_null(res);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(lookup_error_out_of_memory)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        VS_FAILALLOC_PAUSE(fa);
        velstatus_oplist *list = NULL;
        velstatus_reconcile_options o;
        velstatus_reconcile_result *res = NULL;
        ck_assert_int_eq(velstatus_oplist_new(&list, ctx, VELSTATUS_KIND_RESTORE, NULL), VELSTATUS_OK);
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.backup_error = "etcdserver: request timed out";
        o.backup_error_len = VELSTATUS_NUL_TERMINATED;
        o.backup_name = "nightly";
        o.backup_name_len = VELSTATUS_NUL_TERMINATED;
        VS_FAILALLOC_RESUME(fa);
        st = velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, NULL);
        VS_FAILALLOC_PAUSE_AGAIN(fa);
        if (st == VELSTATUS_OK)
            ck_assert_str_eq(velstatus_reconcile_result_error(res, 0, NULL),
                             "can't find backup velero/nightly: etcdserver: request timed out");
        else
            ck_assert_ptr_null(res);
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* One pass, then what stays when `failure` fails. */
static velstatus_status persist_case(velstatus_kind kind, int nops, int done, int64_t errors, velstatus_bsl_state bsl,
                                     velstatus_persist_failure failure, int64_t *pending, int64_t *lost)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *list = NULL;
    velstatus_reconcile_result *res = NULL;
    velstatus_reconcile_options o;
    vs_fake_plugin fp;
    velstatus_plugin_client c;
    velstatus_phase kept = VELSTATUS_PHASE_INVALID;
    velstatus_status st;
    vs_fake_plugin_init(&fp);
    fp.ans[0].completed = done;
    fp.ans[0].err = done ? "bad" : NULL;
    fp.ans[0].err_len = done ? 3 : 0;
    c = vs_fake_plugin_client(&fp);
    if (nops)
        list = one_op(ctx, "a", "op-1", 0);
    else
        ck_assert_int_eq(velstatus_oplist_new(&list, ctx, kind, NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof o);
    o.now_ns = NOW_NS;
    o.errors = errors;
    o.bsl = bsl;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &c, &o, NULL, NULL), VELSTATUS_OK);
    st = velstatus_reconcile_result_after_persist_failure(res, failure, &kept, pending, lost, NULL);
    if (st == VELSTATUS_OK)
        ck_assert_int_eq(kept, VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS);
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
    return st;
}

/* updateBackupAndOperationsJSON at v1.11.1 ... v1.18.1: an upload failure
 * returns before the patch (the deferred Put keeps the errors), a patch
 * failure after uploadProgress loses them, a counts-only patch repeats. */
START_TEST(persist_failures_keep_or_lose_the_errors)
{
    int64_t pending = -1, lost = -1;
    const velstatus_persist_failure up = VELSTATUS_PERSIST_FAILED_UPLOAD, patch = VELSTATUS_PERSIST_FAILED_PATCH;
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_BACKUP, 1, 1, 2, VELSTATUS_BSL_AVAILABLE, up, &pending, &lost),
                     VELSTATUS_OK);
    ck_assert(pending == 3 && lost == 0);
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_BACKUP, 1, 1, 2, VELSTATUS_BSL_AVAILABLE, patch, &pending, &lost),
                     VELSTATUS_OK);
    ck_assert(pending == 0 && lost == 3);
    /* the BSL path: no store, a patch only; the earlier errors stay pending */
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_BACKUP, 1, 0, 1, VELSTATUS_BSL_MISSING, patch, &pending, &lost),
                     VELSTATUS_OK);
    ck_assert(pending == 1 && lost == 0);
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_BACKUP, 1, 0, 1, VELSTATUS_BSL_MISSING, up, NULL, NULL),
                     VELSTATUS_E_STATE);
    /* still running, nothing new: nothing written, nothing to fail */
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_BACKUP, 1, 0, 0, VELSTATUS_BSL_AVAILABLE, patch, NULL, NULL),
                     VELSTATUS_E_STATE);
    /* a restore's empty list: Finalizing, nothing uploaded, the patch's errors lost all the same */
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_RESTORE, 0, 0, 1, VELSTATUS_BSL_AVAILABLE, up, NULL, NULL),
                     VELSTATUS_E_STATE);
    ck_assert_int_eq(persist_case(VELSTATUS_KIND_RESTORE, 0, 0, 1, VELSTATUS_BSL_AVAILABLE, patch, &pending, &lost),
                     VELSTATUS_OK);
    ck_assert(pending == 0 && lost == 1);
    ck_assert_int_eq(velstatus_reconcile_result_after_persist_failure(NULL, up, NULL, NULL, NULL, NULL),
                     VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(step_accepts_a_report_from_a_newer_header)
{
    /* A caller compiled against a later header passes a bigger struct whose
     * extra bytes are zero: the same answer as the current struct. */
    struct {
        velstatus_op_progress p;
        uint64_t tail[2];
    } big;
    velstatus_op_progress cur;
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    velstatus_oplist *a = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_oplist *b = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_op_progress_init(&cur, sizeof(cur));
    cur.n_completed = 5;
    cur.n_total = 10;
    cur.operation_units = "Bytes";
    cur.operation_units_len = 5;
    memset(&big, 0, sizeof(big));
    big.p = cur;
    big.p.struct_size = (uint32_t)sizeof(big);
    uint32_t fa = 0, fb = 0;
    ck_assert_int_eq(velstatus_oplist_step(&fa, NULL, NULL, a, 0, &cur, NOW_NS, 4 * HOUR_NS, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_step(&fb, NULL, NULL, b, 0, &big.p, NOW_NS, 4 * HOUR_NS, NULL, NULL),
                     VELSTATUS_OK);
    ck_assert_uint_eq(fa, fb);
    ck_assert(fa & VELSTATUS_OP_STEP_CHANGED);
    ck_assert_int_eq(velstatus_op_n_completed(velstatus_oplist_at(b, 0)), 5);
    char *ja = NULL, *jb = NULL;
    ck_assert_int_eq(velstatus_oplist_to_json(&ja, NULL, a, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(&jb, NULL, b, NULL), VELSTATUS_OK);
    ck_assert_str_eq(ja, jb);
    velstatus_free(ctx, ja);
    velstatus_free(ctx, jb);
    velstatus_oplist_free(a);
    velstatus_oplist_free(b);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(step_rejects_a_text_over_4_gib_and_keeps_the_record)
{
    static const char small[] = "Bytes"; /* never read past: the length is checked first */
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    char *before = NULL, *after = NULL;
    ck_assert_int_eq(velstatus_oplist_to_json(&before, NULL, list, NULL), VELSTATUS_OK);
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    p.description = small;
    p.description_len = (size_t)UINT32_MAX + 1;
    uint32_t flags = 0;
    ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, NULL, &err),
                     VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err.message, "4 GiB"));
    ck_assert_int_eq(velstatus_oplist_to_json(&after, NULL, list, NULL), VELSTATUS_OK);
    ck_assert_str_eq(before, after);
    velstatus_free(ctx, before);
    velstatus_free(ctx, after);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(getters_and_setters_reject_bad_arguments)
{
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    size_t len = 77;
    int64_t ns = 77;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    const velstatus_op *op = velstatus_oplist_at(list, 0);
    ck_assert_int_eq(velstatus_oplist_kind(NULL), VELSTATUS_KIND_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, (velstatus_op_field)12, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "unknown field 12");
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_NAME, NULL, 3, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, (velstatus_op_time)3, 1, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "unknown timestamp 3");
    ck_assert_ptr_null(velstatus_op_string(op, (velstatus_op_field)12, &len));
    ck_assert_uint_eq(len, 0);
    len = 77;
    ck_assert_ptr_null(velstatus_op_string(NULL, VELSTATUS_OP_FIELD_NAME, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_nonnull(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, NULL));
    len = 77;
    ck_assert_ptr_null(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_NAME, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(velstatus_op_time_value(op, (velstatus_op_time)-1, &ns), 0);
    ck_assert_int_eq(ns, 0);
    ck_assert_int_eq(velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, NULL), 1);
    /* The item's texts are checked before anything is added. */
    ck_assert_int_eq(velstatus_oplist_add_post_item(list, 0, NULL, 2, "r", 1, "n", 1, "m", 1, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_add_post_item(list, 0, "g", 1, "r", 1, "n", (size_t)UINT32_MAX + 1, "m", 1, &err),
                     VELSTATUS_E_RANGE);
    ck_assert_uint_eq(velstatus_op_post_item_count(op), 0);
    char *msg = NULL;
    ck_assert_int_eq(velstatus_op_wrap_error(&msg, NULL, ctx, NULL, 4, NULL, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(msg);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(add_post_item_out_of_memory_keeps_the_items)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *list = NULL;
        size_t i;
        st = velstatus_oplist_new(&list, ctx, VELSTATUS_KIND_BACKUP, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_oplist_append(&i, list, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_oplist_add_post_item(list, 0, "velero.io", 9, "datauploads", 11, "velero", 6, "du-1", 4,
                                                NULL);
        if (st == VELSTATUS_OK) {
            /* A second item: on failure the first is still there, intact. */
            st = velstatus_oplist_add_post_item(list, 0, "velero.io", 9, "datauploads", 11, "velero", 6, "du-2", 4,
                                                NULL);
            const velstatus_op *op = velstatus_oplist_at(list, 0);
            size_t len = 0;
            ck_assert_uint_eq(velstatus_op_post_item_count(op), st == VELSTATUS_OK ? 2 : 1);
            const char *name = velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_NAME, &len);
            ck_assert_uint_eq(len, 4);
            ck_assert_int_eq(memcmp(name, "du-1", 4), 0);
        }
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(result_getters_out_of_range)
{
    size_t len = 77;
    ck_assert_ptr_null(velstatus_reconcile_result_error(NULL, 0, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(NULL, 0), SIZE_MAX);
    len = 77;
    ck_assert_ptr_null(velstatus_reconcile_result_canceled_id(NULL, 0, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_null(velstatus_reconcile_result_canceled_id(NULL, 0, NULL));
    len = 77;
    ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(NULL, 0, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(velstatus_reconcile_result_phase(NULL), VELSTATUS_PHASE_INVALID);
}
END_TEST

START_TEST(reports_client_timeout_without_cancel_error)
{
    /* A timed-out operation whose entry has no cancelError: Cancel returns
     * nil, the record is canceled with no cancel error. */
    static const char json[] = "{\"op-1\":{\"nCompleted\":1,\"nTotal\":4}}";
    velstatus_ctx *ctx = NULL;
    velstatus_op_reports *reports = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    size_t len = 77;
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_op_reports_from_json(&reports, ctx, json, sizeof(json) - 1, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_client(&client, reports, NULL), VELSTATUS_OK);
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", 5 * HOUR_NS);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &client, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(res), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(res, 0), 0);
    ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(res, 0, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(list, 0)), VELSTATUS_OP_PHASE_FAILED);
    /* Argument checks of the map. */
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, NULL, 4), 0);
    ck_assert_int_eq(velstatus_op_reports_get(NULL, reports, "op-1", 4), 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, "op-1", 4), 1);
    ck_assert_int_eq(p.n_total, 4);
    p.struct_size = 8;
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, "op-1", 4), 0);
    velstatus_op_reports *r2 = NULL;
    ck_assert_int_eq(velstatus_op_reports_from_json(NULL, ctx, json, sizeof(json) - 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reports_from_json(&r2, NULL, json, sizeof(json) - 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(r2);
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    velstatus_op_reports_free(reports);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(enum_arguments_below_zero_are_rejected)
{
    velstatus_ctx *ctx = NULL;
    size_t len = 77;
    int64_t ns = 77;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    ck_assert_int_eq(
        velstatus_oplist_add_post_item(list, 0, "velero.io", 9, "datauploads", 11, "velero", 6, "du-1", 4, NULL),
        VELSTATUS_OK);
    const velstatus_op *op = velstatus_oplist_at(list, 0);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, (velstatus_op_field)-1, "x", 1, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, (velstatus_op_time)-1, 1, 0, NULL), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_op_string(op, (velstatus_op_field)-1, &len));
    ck_assert_uint_eq(len, 0);
    /* A post-operation item has only the four resource fields. */
    len = 77;
    ck_assert_ptr_null(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_NAME, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_null(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_OPERATION_ID, &len));
    ck_assert_str_eq(velstatus_op_post_item(op, 0, VELSTATUS_OP_FIELD_RESOURCE_GROUP, NULL), "velero.io");
    ck_assert_int_eq(velstatus_op_time_value(NULL, VELSTATUS_OP_TIME_CREATED, &ns), 0);
    ck_assert_int_eq(ns, 0);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(phase_text_round_trips_every_phase_and_big_texts)
{
    /* The phase enum follows the text (an unknown text is UNKNOWN and kept
     * verbatim); a text larger than a pool block is kept whole. */
    static const struct {
        const char *text;
        velstatus_op_phase ph;
    } v[] = {
        {"Completed", VELSTATUS_OP_PHASE_COMPLETED},
        {"Failed", VELSTATUS_OP_PHASE_FAILED},
        {"New", VELSTATUS_OP_PHASE_NEW},
        {"Canceled", VELSTATUS_OP_PHASE_UNKNOWN},
        {"", VELSTATUS_OP_PHASE_UNKNOWN},
        {"InProgress", VELSTATUS_OP_PHASE_IN_PROGRESS},
    };
    velstatus_ctx *ctx = NULL;
    size_t len;
    velstatus_error err;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    const velstatus_op *op = velstatus_oplist_at(list, 0);
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        ck_assert_int_eq(
            velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_PHASE, v[i].text, strlen(v[i].text), NULL),
            VELSTATUS_OK);
        ck_assert_int_eq(velstatus_op_phase_value(op), v[i].ph);
        ck_assert_str_eq(velstatus_op_string(op, VELSTATUS_OP_FIELD_PHASE, &len), v[i].text);
    }
    enum { BIG = 100 * 1024 };
    char *big = malloc(BIG);
    ck_assert_ptr_nonnull(big);
    memset(big, 'd', BIG);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_DESCRIPTION, big, BIG, NULL),
                     VELSTATUS_OK);
    const char *d = velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &len);
    ck_assert_uint_eq(len, BIG);
    ck_assert_int_eq(memcmp(d, big, BIG), 0);
    /* Over 4 GiB is refused before the text is read. */
    ck_assert_int_eq(
        velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_DESCRIPTION, big, (size_t)UINT32_MAX + 1, &err),
        VELSTATUS_E_RANGE);
    ck_assert_uint_eq(velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &len) == d ? len : 0, BIG);
    free(big);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

static uint32_t step_error(velstatus_oplist *list, int64_t now, const velstatus_policy *pol)
{
    velstatus_op_progress p;
    uint32_t flags = 0;
    velstatus_op_progress_init(&p, sizeof(p));
    p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
    p.err = "rpc error";
    p.err_len = 9;
    ck_assert_int_eq(velstatus_oplist_step(&flags, NULL, NULL, list, 0, &p, now, 0, pol, NULL), VELSTATUS_OK);
    return flags;
}

START_TEST(grace_period_and_timeout_saturate_at_the_int64_ends)
{
    /* now - since and created + timeout saturate instead of wrapping: a
     * clock that jumps to the earliest instant keeps the error deferred, one
     * that jumps to the latest fails it; a negative timeout (expires at once
     * under the Velero preset) still expires at the earliest created time. */
    velstatus_ctx *ctx = NULL;
    velstatus_policy h = vs_policy(VELSTATUS_PRESET_HARDENED);
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, VELSTATUS_OP_TIME_CREATED, 0, 0, NULL), VELSTATUS_OK);
    const velstatus_op *op = velstatus_oplist_at(list, 0);
    uint32_t f = step_error(list, INT64_MAX - 10, &h); /* the error begins */
    ck_assert(f & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    f = step_error(list, INT64_MIN, &h); /* INT64_MIN - (INT64_MAX - 10) saturates */
    ck_assert(f & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_IN_PROGRESS);
    velstatus_oplist_free(list);

    list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    op = velstatus_oplist_at(list, 0);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, VELSTATUS_OP_TIME_CREATED, 0, 0, NULL), VELSTATUS_OK);
    f = step_error(list, INT64_MIN + 10, &h);
    ck_assert(f & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    f = step_error(list, INT64_MAX, &h); /* INT64_MAX - (INT64_MIN + 10) saturates */
    ck_assert(f & VELSTATUS_OP_STEP_FAILED_NOW);
    ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_FAILED);
    velstatus_oplist_free(list);

    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
    list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, VELSTATUS_OP_TIME_CREATED, 1, INT64_MIN + 5, NULL),
                     VELSTATUS_OK);
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    f = 0;
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, INT64_MIN + 5, -10, &vel, NULL), VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_CANCEL);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(times_before_1970_compare_by_the_floored_second)
{
    /* compare_times_by_instant: second precision, floored (Go's Unix()):
     * -1.5 s and -1.9 s are the same second (-2), -2.5 s is not. */
    velstatus_ctx *ctx = NULL;
    velstatus_policy h = vs_policy(VELSTATUS_PRESET_HARDENED);
    int64_t ns = 0;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    ck_assert_int_eq(velstatus_oplist_set_time(list, 0, VELSTATUS_OP_TIME_STARTED, 1, -INT64_C(1500000000), NULL),
                     VELSTATUS_OK);
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    p.has_started = 1;
    p.started_ns = -INT64_C(1900000000);
    uint32_t f = 0;
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, &h, NULL), VELSTATUS_OK);
    ck_assert(!(f & VELSTATUS_OP_STEP_CHANGED));
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(list, 0), VELSTATUS_OP_TIME_STARTED, &ns), 1);
    ck_assert_int_eq(ns, -INT64_C(1500000000));
    p.started_ns = -INT64_C(2500000000);
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, &h, NULL), VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_CHANGED);
    ck_assert_int_eq(velstatus_op_time_value(velstatus_oplist_at(list, 0), VELSTATUS_OP_TIME_STARTED, &ns), 1);
    ck_assert_int_eq(ns, -INT64_C(2500000000));
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(reconcile_with_reports_out_of_memory)
{
    /* The example backup and its plugin answers (progress, completion, a
     * Progress error, cancel errors): every allocation of the pass fails in
     * turn; each failure is E_NOMEM with no result and no leak, and the run
     * that succeeds gives the same file as a run on the plain allocator. */
    char path[4096];
    size_t ops_len, rep_len;
    const char *src = getenv("VS_SRCDIR");
    ck_assert_ptr_nonnull(src);
    snprintf(path, sizeof(path), "%s/examples/operations/backup-itemoperations.json", src);
    char *ops = vs_test_read_file(path, &ops_len);
    snprintf(path, sizeof(path), "%s/examples/operations/backup-progress.json", src);
    char *rep = vs_test_read_file(path, &rep_len);
    velstatus_ctx *plain = NULL;
    plain = vs_test_ctx();
    velstatus_op_reports *reports = NULL;
    ck_assert_int_eq(velstatus_op_reports_from_json(&reports, plain, rep, rep_len, NULL), VELSTATUS_OK);
    velstatus_plugin_client client;
    ck_assert_int_eq(velstatus_op_reports_client(&client, reports, NULL), VELSTATUS_OK);
    velstatus_reconcile_options o;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    char *want = NULL;
    size_t want_canceled = 0;
    {
        velstatus_oplist *list = NULL;
        velstatus_reconcile_result *res = NULL;
        ck_assert_int_eq(velstatus_oplist_from_json(&list, plain, VELSTATUS_KIND_BACKUP, ops, ops_len, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &client, &o, NULL, NULL), VELSTATUS_OK);
        want_canceled = velstatus_reconcile_result_canceled_count(res);
        ck_assert_int_eq(velstatus_oplist_to_json(&want, NULL, list, NULL), VELSTATUS_OK);
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *list = NULL;
        velstatus_reconcile_result *res = NULL;
        VS_FAILALLOC_PAUSE(fa);
        ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, ops, ops_len, NULL),
                         VELSTATUS_OK);
        VS_FAILALLOC_RESUME(fa);
        st = velstatus_oplist_reconcile(&res, list, &client, &o, NULL, NULL);
        VS_FAILALLOC_PAUSE_AGAIN(fa);
        if (st == VELSTATUS_OK) {
            char *got = NULL;
            ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(res), want_canceled);
            ck_assert_int_eq(velstatus_oplist_to_json(&got, NULL, list, NULL), VELSTATUS_OK);
            ck_assert_str_eq(got, want);
            velstatus_free(ctx, got);
        } else {
            ck_assert_ptr_null(res);
        }
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    velstatus_free(plain, want);
    velstatus_op_reports_free(reports);
    velstatus_ctx_free(plain);
    free(ops);
    free(rep);
}
END_TEST

static uint32_t step_units(velstatus_oplist *list, const char *units, size_t len)
{
    velstatus_op_progress p;
    uint32_t f = 0;
    velstatus_op_progress_init(&p, sizeof(p));
    p.operation_units = units;
    p.operation_units_len = len;
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, NULL, NULL), VELSTATUS_OK);
    return f;
}

START_TEST(a_one_byte_change_anywhere_in_a_text_is_seen)
{
    /* Step 3 copies a reported text only when it differs: for every length
     * up to 24 and every position, a text differing in that one byte is
     * copied (CHANGED), the same text again is not. */
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    char a[32], b[32];
    for (size_t n = 1; n <= 24; n++) {
        memset(a, 'u', n);
        ck_assert(step_units(list, a, n) & VELSTATUS_OP_STEP_CHANGED);
        ck_assert(!(step_units(list, a, n) & VELSTATUS_OP_STEP_CHANGED));
        for (size_t k = 0; k < n; k++) {
            memcpy(b, a, n);
            b[k] = 'v';
            ck_assert_msg(step_units(list, b, n) & VELSTATUS_OP_STEP_CHANGED, "length %zu, byte %zu", n, k);
            size_t len = 0;
            const char *got =
                velstatus_op_string(velstatus_oplist_at(list, 0), VELSTATUS_OP_FIELD_OPERATION_UNITS, &len);
            ck_assert(len == n && memcmp(got, b, n) == 0);
            ck_assert(step_units(list, a, n) & VELSTATUS_OP_STEP_CHANGED); /* and back */
        }
    }
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(report_texts_null_with_a_length_are_refused)
{
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    uint32_t f = 0;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    for (int which = 0; which < 5; which++) {
        velstatus_op_progress p;
        velstatus_op_progress_init(&p, sizeof(p));
        switch (which) {
        case 0: p.err_len = 3; break;             /* err NULL */
        case 1: p.operation_units_len = 2; break; /* units NULL */
        case 2: p.description_len = 1; break;     /* description NULL */
        case 3:
            p.err = "e";
            p.err_len = (size_t)UINT32_MAX + 1;
            break; /* over 4 GiB */
        default:
            p.operation_units = "u";
            p.operation_units_len = (size_t)UINT32_MAX + 1;
            break;
        }
        velstatus_status want = which < 3 ? VELSTATUS_E_INVALID : VELSTATUS_E_RANGE;
        ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, NULL, &err), want);
    }
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(list, 0)), VELSTATUS_OP_PHASE_IN_PROGRESS);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(an_empty_progress_error_is_wrapped_with_the_plugin_only)
{
    /* Velero's wrapErrMsg("", plugin) is "plugin: <plugin>"; the record keeps
     * the empty text. message_len is 0 when no message is returned. */
    velstatus_ctx *ctx = NULL;
    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
    char *msg = NULL;
    size_t mlen = 99;
    uint32_t f = 0;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_oplist_step(&f, &msg, &mlen, list, 0, &p, NOW_NS, 4 * HOUR_NS, &vel, NULL),
                     VELSTATUS_OK);
    ck_assert_ptr_null(msg);
    ck_assert_uint_eq(mlen, 0);
    p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR; /* err NULL, length 0 */
    ck_assert_int_eq(velstatus_oplist_step(&f, &msg, &mlen, list, 0, &p, NOW_NS, 4 * HOUR_NS, &vel, NULL),
                     VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_FAILED_NOW);
    ck_assert_str_eq(msg, "plugin: velero.io/csi");
    ck_assert_uint_eq(mlen, strlen(msg));
    velstatus_free(ctx, msg);
    size_t len = 9;
    velstatus_op_string(velstatus_oplist_at(list, 0), VELSTATUS_OP_FIELD_ERROR, &len);
    ck_assert_uint_eq(len, 0);
    /* A terminal record needs no report. */
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, NULL, NOW_NS, 4 * HOUR_NS, &vel, NULL),
                     VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_COUNT_FAILED);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_PHASE, "Canceled", 8, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, NULL, NOW_NS, 4 * HOUR_NS, &vel, NULL),
                     VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_UNKNOWN_PHASE);
    /* wrap_error with an empty message. */
    ck_assert_int_eq(velstatus_op_wrap_error(&msg, &mlen, ctx, NULL, 0, "p", 1, NULL), VELSTATUS_OK);
    ck_assert_str_eq(msg, "plugin: p");
    velstatus_free(ctx, msg);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(a_good_report_clears_the_error_time)
{
    velstatus_ctx *ctx = NULL;
    uint32_t f = 0;
    char *file = NULL;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    p.report = VELSTATUS_OP_REPORT_LOOKUP_ERROR;
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, NULL, NULL), VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    /* A second error within the grace period keeps the first time. */
    ck_assert_int_eq(
        velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS + HOUR_NS / 3600, 4 * HOUR_NS, NULL, NULL),
        VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_ERROR_DEFERRED);
    ck_assert(!(f & VELSTATUS_OP_STEP_CHANGED));
    p.report = VELSTATUS_OP_REPORT_PROGRESS;
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 4 * HOUR_NS, NULL, NULL), VELSTATUS_OK);
    ck_assert(f & VELSTATUS_OP_STEP_CHANGED);
    ck_assert_int_eq(velstatus_oplist_to_json(&file, NULL, list, NULL), VELSTATUS_OK);
    ck_assert_ptr_null(strstr(file, "velstatusProgressErrorSince"));
    velstatus_free(ctx, file);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A plugin client whose callbacks misuse the replies, then answer, or fail. */
typedef struct misuse {
    int mode;
    velstatus_status seen[4];
} misuse;

static int mu_progress(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    misuse *m = ud;
    struct {
        velstatus_op_progress p;
        uint64_t tail;
    } big;
    (void)list;
    (void)index;
    m->seen[0] = velstatus_op_reply_set_progress(reply, NULL, NULL);
    m->seen[1] = velstatus_op_reply_set_progress(NULL, &big.p, NULL);
    m->seen[2] = velstatus_op_reply_set_cancel_error(reply, "x", 1, NULL);
    if (m->mode == 1)
        return -9;
    memset(&big, 0, sizeof(big));
    big.p.struct_size = (uint32_t)sizeof(big); /* a newer caller's struct */
    big.p.n_completed = 2;
    big.p.n_total = 8;
    m->seen[3] = velstatus_op_reply_set_progress(reply, &big.p, NULL);
    return 0;
}

static int mu_cancel(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    misuse *m = ud;
    (void)list;
    (void)index;
    if (m->mode == 2)
        return -7;
    return velstatus_op_reply_set_cancel_error(reply, NULL, 0, NULL) == VELSTATUS_OK ? 0 : -1;
}

START_TEST(reply_misuse_and_failing_callbacks)
{
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    ctx = vs_test_ctx();
    for (int mode = 0; mode < 3; mode++) {
        misuse m;
        memset(&m, 0, sizeof(m));
        m.mode = mode;
        /* mode 2 times out (5 h old): cancel is called */
        velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", mode == 2 ? 5 * HOUR_NS : HOUR_NS);
        velstatus_plugin_client c;
        velstatus_plugin_client_init(&c, sizeof(c));
        c.userdata = &m;
        c.progress = mu_progress;
        c.cancel = mu_cancel;
        velstatus_reconcile_options o;
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = NOW_NS;
        velstatus_reconcile_result *res = NULL;
        velstatus_status st = velstatus_oplist_reconcile(&res, list, &c, &o, NULL, &err);
        ck_assert_int_eq(m.seen[0], VELSTATUS_E_INVALID);
        ck_assert_int_eq(m.seen[1], VELSTATUS_E_INVALID);
        ck_assert_int_eq(m.seen[2], VELSTATUS_E_INVALID); /* a cancel answer to a progress call */
        if (mode == 0) {
            ck_assert_int_eq(st, VELSTATUS_OK);
            ck_assert_int_eq(m.seen[3], VELSTATUS_OK);
            ck_assert_int_eq(velstatus_op_n_total(velstatus_oplist_at(list, 0)), 8);
        } else {
            ck_assert_int_eq(st, VELSTATUS_E_HOST);
            ck_assert_int_eq(err.host_code, mode == 1 ? -9 : -7);
            ck_assert_ptr_null(res);
        }
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    /* Options checks. */
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.bsl = (velstatus_bsl_state)3;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "options.bsl 3 is not a velstatus_bsl_state");
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

static int answer_cancel_with_empty_error(void *ud, const velstatus_oplist *list, size_t index,
                                          velstatus_op_reply *reply)
{
    (void)ud;
    (void)list;
    (void)index;
    return velstatus_op_reply_set_cancel_error(reply, NULL, 0, NULL) == VELSTATUS_OK ? 0 : -1;
}

START_TEST(cancel_answers_nil_empty_error_or_no_callback)
{
    /* A timed-out operation is canceled. Cancel returning an error with an
     * empty text is recorded as "" (an error), a client without a cancel
     * slot as nil (NULL), and so is an ID the reports map does not know
     * (its Progress error is deferred by the hardened grace period, then
     * the timeout cancels it). */
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    for (int mode = 0; mode < 3; mode++) {
        velstatus_oplist *list = one_op(ctx, "velero.io/csi", mode == 2 ? "op-unknown" : "op-1", 5 * HOUR_NS);
        velstatus_plugin_client c;
        velstatus_op_reports *reports = NULL;
        vs_fake_plugin fp; /* answers an empty progress */
        vs_fake_plugin_init(&fp);
        velstatus_plugin_client_init(&c, sizeof(c));
        if (mode == 2) {
            ck_assert_int_eq(velstatus_op_reports_from_json(&reports, ctx, "{\"op-1\":{}}", 11, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_op_reports_client(&c, reports, NULL), VELSTATUS_OK);
        } else {
            c.userdata = &fp;
            c.progress = vs_fake_progress;
            c.cancel = mode == 0 ? answer_cancel_with_empty_error : NULL;
        }
        velstatus_reconcile_options o;
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = NOW_NS;
        velstatus_reconcile_result *res = NULL;
        ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &c, &o, NULL, NULL), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(res), 1);
        size_t len = 99;
        const char *ce = velstatus_reconcile_result_cancel_error(res, 0, &len);
        if (mode == 0) {
            ck_assert_ptr_nonnull(ce);
            ck_assert_str_eq(ce, "");
        } else {
            ck_assert_ptr_null(ce);
        }
        ck_assert_uint_eq(len, 0);
        ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(res, 1, &len));
        ck_assert_ptr_nonnull(velstatus_reconcile_result_canceled_id(res, 0, NULL));
        ck_assert_ptr_null(velstatus_reconcile_result_error(res, 5, &len));
        ck_assert_uint_eq(len, 0);
        velstatus_reconcile_result_free(res);
        velstatus_op_reports_free(reports);
        velstatus_oplist_free(list);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(more_argument_checks)
{
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    uint32_t f = 0;
    int64_t ns = 5;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", 5 * HOUR_NS);
    const velstatus_op *op = velstatus_oplist_at(list, 0);
    /* A running record needs a report. */
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, NULL, NOW_NS, 4 * HOUR_NS, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "needs one"));
    /* Hardened: a timeout <= 0 means none, even for an old record. */
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, &p, NOW_NS, 0, NULL, NULL), VELSTATUS_OK);
    ck_assert(!(f & VELSTATUS_OP_STEP_CANCEL));
    ck_assert(f & VELSTATUS_OP_STEP_IN_PROGRESS);
    ck_assert_int_eq(velstatus_op_reply_set_cancel_error(NULL, "x", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_op_reply_set_progress(NULL, &p, &err), VELSTATUS_E_INVALID);
    /* Clearing a text with NULL, 0. */
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_OPERATION_ID, NULL, 0, NULL),
                     VELSTATUS_OK);
    size_t len = 9;
    ck_assert_str_eq(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &len), "");
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_null(velstatus_op_post_item(NULL, 0, VELSTATUS_OP_FIELD_RESOURCE_NAME, NULL));
    ck_assert_int_eq(velstatus_op_time_value(op, (velstatus_op_time)3, &ns), 0);
    ck_assert_int_eq(ns, 0);
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.bsl = (velstatus_bsl_state)-1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, NULL, &o, NULL, &err), VELSTATUS_E_INVALID);
    velstatus_op_reports *reports = NULL;
    ck_assert_int_eq(velstatus_op_reports_from_json(&reports, ctx, "{\"a\":{}}", 8, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_op_reports_get(&p, NULL, "a", 1), 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, "a", 1), 1);
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, "b", 1), 0);
    ck_assert_int_eq(velstatus_op_reports_get(&p, reports, "", 0), 0);
    velstatus_op_reports_free(reports);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(step_failing_an_operation_out_of_memory)
{
    /* A Progress error fails the record with a message: every allocation
     * of the step fails in turn; a failed step leaves the record as it was
     * and returns no message. */
    velstatus_status st;
    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        VS_FAILALLOC_PAUSE(fa);
        velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
        VS_FAILALLOC_RESUME(fa);
        velstatus_op_progress p;
        velstatus_op_progress_init(&p, sizeof(p));
        p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
        p.err = "disk quota exceeded";
        p.err_len = strlen(p.err);
        p.description = "a new description";
        p.description_len = strlen(p.description);
        char *msg = (char *)&p; /* must be reset */
        size_t mlen = 99;
        uint32_t f = 0;
        st = velstatus_oplist_step(&f, &msg, &mlen, list, 0, &p, NOW_NS, 4 * HOUR_NS, &vel, NULL);
        VS_FAILALLOC_PAUSE_AGAIN(fa);
        const velstatus_op *op = velstatus_oplist_at(list, 0);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(msg, "disk quota exceeded, plugin: velero.io/csi");
            ck_assert_uint_eq(mlen, strlen(msg));
            ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_FAILED);
            velstatus_free(ctx, msg);
        } else {
            ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_IN_PROGRESS);
            size_t len = 9;
            velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len);
            ck_assert_uint_eq(len, 0);
        }
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

static int answer_with_the_stored_text(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const velstatus_op *op = velstatus_oplist_at(list, index);
    velstatus_op_progress p;
    (void)ud;
    velstatus_op_progress_init(&p, sizeof(p));
    p.description = velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &p.description_len);
    p.operation_units = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &p.operation_units_len);
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

START_TEST(an_answer_repeating_the_stored_texts_changes_nothing)
{
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_DESCRIPTION, "copying", 7, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_OPERATION_UNITS, "Bytes", 5, NULL),
                     VELSTATUS_OK);
    velstatus_plugin_client c;
    velstatus_plugin_client_init(&c, sizeof(c));
    c.progress = answer_with_the_stored_text;
    velstatus_reconcile_options o;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    velstatus_reconcile_result *res = NULL;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &c, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_reconcile_result_changes(res), 0);
    ck_assert_str_eq(velstatus_op_string(velstatus_oplist_at(list, 0), VELSTATUS_OP_FIELD_DESCRIPTION, NULL),
                     "copying");
    velstatus_reconcile_result_free(res);
    /* A New record with no report is refused too. */
    uint32_t f = 0;
    ck_assert_int_eq(velstatus_oplist_set_string(list, 0, VELSTATUS_OP_FIELD_PHASE, "New", 3, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_step(&f, NULL, NULL, list, 0, NULL, NOW_NS, 4 * HOUR_NS, NULL, NULL),
                     VELSTATUS_E_INVALID);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The answers of two_answers(): `first` set, then `second` (when not NULL)
 * set over it in the same call; an invalid second leaves the first. */
typedef struct two_answers_ud {
    const velstatus_op_progress *first, *second;
} two_answers_ud;

static int two_answers(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const two_answers_ud *a = ud;
    (void)list;
    (void)index;
    if (velstatus_op_reply_set_progress(reply, a->first, NULL) != VELSTATUS_OK)
        return -1;
    if (a->second)
        (void)velstatus_op_reply_set_progress(reply, a->second, NULL); /* refused or not: 0 */
    return 0;
}

/* n records as one_op() makes them, one reconcile pass answered by ud; the
 * list's JSON and the pass's error texts, '|'-separated, in *json / *errs. */
static void reconcile_answered(velstatus_ctx *ctx, size_t n, two_answers_ud *ud, char **json, char **errs)
{
    velstatus_oplist *list = one_op(ctx, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    size_t i, len, at = 0;
    for (i = 1; i < n; i++)
        add_op(list, "velero.io/csi", "op-1", HOUR_NS);
    velstatus_plugin_client_init(&c, sizeof(c));
    c.userdata = ud;
    c.progress = two_answers;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = NOW_NS;
    ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, &c, &o, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_oplist_to_json(json, &len, list, NULL), VELSTATUS_OK);
    *errs = calloc(1, 4096);
    ck_assert_ptr_nonnull(*errs);
    for (i = 0; i < velstatus_reconcile_result_error_count(res); i++)
        at += (size_t)snprintf(*errs + at, 4096 - at, "%s|", velstatus_reconcile_result_error(res, i, NULL));
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
}

/* velstatus_op_reply_set_progress() takes a pass's first answer through its
 * checked path (the reply's text slots are still empty) and the later ones,
 * when they are the usual kind (short texts, no plugin name, nanosecond
 * times, this library's struct), without it: the records and the messages
 * come out the same either way, at every text length around the usual
 * path's 16 bytes, and a refused answer after a good one leaves the good
 * one. */
/* Case k of the test below: *p, and a refused second answer in *bad. */
static void usual_case(size_t k, velstatus_op_progress *p, velstatus_op_progress *bad, two_answers_ud *ud)
{
    static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static const size_t lens[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 40};
    const size_t nlens = sizeof(lens) / sizeof(lens[0]), len = lens[k % nlens];
    velstatus_op_progress_init(p, sizeof(*p));
    p->n_completed = 3;
    p->n_total = 9;
    p->operation_units = "Bytes";
    p->operation_units_len = 5;
    p->description = "InProgress";
    p->description_len = 10;
    p->has_started = 1;
    p->started_ns = NOW_NS - HOUR_NS / 2;
    p->has_updated = 1;
    p->updated_ns = NOW_NS - 1;
    ud->first = p;
    ud->second = NULL;
    if (k < nlens) { /* units of every length, the last byte apart */
        p->operation_units = abc + k % nlens;
        p->operation_units_len = len;
    } else if (k < 2 * nlens) { /* descriptions */
        p->description = abc + 1 + k % nlens;
        p->description_len = len;
    } else if (k < 3 * nlens) { /* a completion with an error of every length */
        p->completed = 1;
        p->err = len ? abc + 2 + k % nlens : NULL;
        p->err_len = len;
    } else if (k < 3 * nlens + 2) { /* a plugin's own name, and a plugin named "" */
        p->plugin_name = k == 3 * nlens ? "my-plugin" : "";
        p->plugin_name_len = strlen(p->plugin_name);
        p->completed = 1;
        p->err = "e";
        p->err_len = 1;
    } else if (k == 3 * nlens + 2) { /* an exact time in year 1 */
        p->has_started_sec = 1;
        p->started_sec = INT64_C(-62135596799);
        p->started_nsec = 5;
    } else if (k < 3 * nlens + 5) { /* a Progress error, a lookup error */
        p->report = k == 3 * nlens + 3 ? VELSTATUS_OP_REPORT_PROGRESS_ERROR : VELSTATUS_OP_REPORT_LOOKUP_ERROR;
        p->err = "boom";
        p->err_len = 4;
    } else if (k == 3 * nlens + 5) { /* an older header's struct */
        p->struct_size = VS_OP_PROGRESS_SIZE_V1;
    } else if (k == 3 * nlens + 6) { /* NULL and "" texts */
        p->operation_units = NULL;
        p->operation_units_len = 0;
        p->description = "";
        p->description_len = 0;
    } else if (k == 3 * nlens + 7) { /* no times, then the Unix epoch */
        p->has_started = 0;
        p->has_updated = 0;
    } else if (k == 3 * nlens + 8) {
        p->started_ns = 0;
    } else { /* a refused answer over a good one: bad flags, or a NULL text with a length */
        *bad = *p;
        bad->n_total = 1;
        if (k & 1)
            bad->flags = 1;
        else
            bad->description = NULL;
        ud->second = bad;
    }
}

/* velstatus_op_reply_set_progress() takes a pass's first answer through its
 * checked path (the reply's text slots are still empty) and the later ones,
 * when they are the usual kind (short texts, no plugin name, nanosecond
 * times, this library's struct), without it: the records and the messages
 * come out the same either way, at every text length around the usual
 * path's 16 bytes, and a refused answer after a good one leaves the good
 * one. */
START_TEST(the_usual_answer_is_the_checked_answer)
{
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t k = 0; k < 3 * 13 + 11; k++) {
        velstatus_op_progress p, bad;
        two_answers_ud ud;
        char *json1, *errs1, *json3, *errs3, *want;
        usual_case(k, &p, &bad, &ud);
        reconcile_answered(ctx, 1, &ud, &json1, &errs1);
        reconcile_answered(ctx, 3, &ud, &json3, &errs3);
        /* [R,R,R] and three times its message: each record as the first answer made it */
        want = calloc(1, 3 * strlen(json1) + 8);
        ck_assert_ptr_nonnull(want);
        ck_assert_ptr_nonnull(strrchr(json1, ']'));
        *strrchr(json1, ']') = '\0'; /* "[R" and what followed the bracket */
        sprintf(want, "%s,%s,%s]%s", json1, json1 + 1, json1 + 1, json1 + strlen(json1) + 1);
        ck_assert_msg(strcmp(json3, want) == 0, "case %zu: %s\nwant %s", k, json3, want);
        ck_assert_uint_eq(strlen(errs3), 3 * strlen(errs1));
        ck_assert_msg(strncmp(errs3, errs1, strlen(errs1)) == 0 &&
                          strncmp(errs3 + 2 * strlen(errs1), errs1, strlen(errs1)) == 0,
                      "case %zu: %s", k, errs3);
        if (ud.second) { /* the refused answer changed nothing */
            ud.second = NULL;
            free(json3);
            free(errs3);
            reconcile_answered(ctx, 3, &ud, &json3, &errs3);
            ck_assert_str_eq(json3, want);
        }
        free(want);
        free(json1);
        free(errs1);
        free(json3);
        free(errs3);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* The step's timeout test on a record's created time
 * (velstatus__op_times_out_at): one sum when created is in nanoseconds and
 * the sum fits, the split rule otherwise; both the split rule's answer at
 * the int64 ends, for whole-second (wide) times and on random operands a
 * nanosecond or so from the turn. */
START_TEST(times_out_at_is_the_split_rule)
{
    /* in nanoseconds, or (wide) whole seconds of years 0000 to 9999, as a record holds them */
    static const int64_t ts[] = {INT64_MIN,   INT64_MIN + 1, -1000000001,   -1,        0,
                                 1,           NOW_NS,        INT64_MAX - 1, INT64_MAX, -62135596800,
                                 -9300000000, 9300000000,    253402300799};
    static const int64_t adds[] = {0, 1, -1, 4 * HOUR_NS, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1};
    uint64_t x = UINT64_C(0x2545f4914f6cdd1d);
    for (size_t a = 0; a < sizeof(ts) / sizeof(ts[0]); a++)
        for (size_t b = 0; b < sizeof(adds) / sizeof(adds[0]); b++)
            for (int wide = 0; wide < 2; wide++)
                for (int d = -2; d <= 2; d++) {
                    int64_t t[3] = {0, 0, ts[a]}, sec, sum, now = d < 0 ? INT64_MIN : d > 0 ? INT64_MAX : 0;
                    int32_t nsec;
                    if (wide && (ts[a] < INT64_C(-62167309200) || ts[a] > INT64_C(253402390799)))
                        continue;
                    if (!wide && !velstatus__add_overflow_i64(&sum, ts[a], adds[b]))
                        (void)velstatus__add_overflow_i64(&now, sum, d); /* a nanosecond or two from the sum */
                    vs__time_exact(t, (uint8_t)(wide << 2), 2, &sec, &nsec);
                    ck_assert_msg(velstatus__op_times_out_at(t, (uint8_t)(wide << 2), 2, adds[b], now) ==
                                      velstatus__op_times_out(sec, nsec, adds[b], now),
                                  "t %lld wide %d add %lld now %lld", (long long)ts[a], wide, (long long)adds[b],
                                  (long long)now);
                }
    for (int i = 0; i < 200000; i++) {
        int64_t t[3], sec, now;
        int32_t nsec;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        t[0] = (int64_t)x >> (x % 3 * 8);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t add = (int64_t)(x >> (x % 64)) * ((i & 1) ? 1 : -1);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if ((i & 2) && !velstatus__add_overflow_i64(&now, t[0], add))
            (void)velstatus__add_overflow_i64(&now, now, (int64_t)(x % 5) - 2); /* at the turn */
        else
            now = (int64_t)x;
        vs__time_exact(t, 0, 0, &sec, &nsec);
        ck_assert_msg(velstatus__op_times_out_at(t, 0, 0, add, now) == velstatus__op_times_out(sec, nsec, add, now),
                      "t %lld add %lld now %lld", (long long)t[0], (long long)add, (long long)now);
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("operations_edges");
    TCase *tc = tcase_create("operations_edges");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lookup_error_quotes_the_item_action_as_go_does);
    tcase_add_test(tc, lookup_error_reconcile_out_of_memory);
    tcase_add_test(tc, step_accepts_a_report_from_a_newer_header);
    tcase_add_test(tc, step_rejects_a_text_over_4_gib_and_keeps_the_record);
    tcase_add_test(tc, getters_and_setters_reject_bad_arguments);
    tcase_add_test(tc, add_post_item_out_of_memory_keeps_the_items);
    tcase_add_test(tc, result_getters_out_of_range);
    tcase_add_test(tc, reports_client_timeout_without_cancel_error);
    tcase_add_test(tc, enum_arguments_below_zero_are_rejected);
    tcase_add_test(tc, phase_text_round_trips_every_phase_and_big_texts);
    tcase_add_test(tc, grace_period_and_timeout_saturate_at_the_int64_ends);
    tcase_add_test(tc, times_before_1970_compare_by_the_floored_second);
    tcase_add_test(tc, reconcile_with_reports_out_of_memory);
    tcase_add_test(tc, a_one_byte_change_anywhere_in_a_text_is_seen);
    tcase_add_test(tc, report_texts_null_with_a_length_are_refused);
    tcase_add_test(tc, an_empty_progress_error_is_wrapped_with_the_plugin_only);
    tcase_add_test(tc, a_good_report_clears_the_error_time);
    tcase_add_test(tc, reply_misuse_and_failing_callbacks);
    tcase_add_test(tc, cancel_answers_nil_empty_error_or_no_callback);
    tcase_add_test(tc, more_argument_checks);
    tcase_add_test(tc, step_failing_an_operation_out_of_memory);
    tcase_add_test(tc, an_answer_repeating_the_stored_texts_changes_nothing);
    tcase_add_test(tc, lookup_errors_give_velero_texts_phases_and_requeue);
    tcase_add_test(tc, lookup_errors_bad_combinations_are_refused);
    tcase_add_test(tc, lookup_error_out_of_memory);
    tcase_add_test(tc, persist_failures_keep_or_lose_the_errors);
    tcase_add_test(tc, the_usual_answer_is_the_checked_answer);
    tcase_add_test(tc, times_out_at_is_the_split_rule);
    suite_add_tcase(s, tc);
    return s;
}
