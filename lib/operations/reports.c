/* SPDX-License-Identifier: Apache-2.0 */
/* Plugin answers by operation ID, and a plugin client that serves them.
 * Decoding is in ops_json.c (velstatus_op_reports_from_json). */
#include <stdlib.h>
#include <string.h>

#include "operations/private.h"
#include "common/util_array.h"

velstatus_status velstatus__reports_new(velstatus_op_reports **out, velstatus_ctx *ctx, velstatus_error *err)
{
    velstatus_op_reports *r;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    r = velstatus__calloc(ctx, 1, sizeof(*r));
    if (!r)
        return velstatus__error_nomem(err);
    r->ctx = ctx;
    velstatus__pool_init(&r->pool, ctx);
    *out = r;
    return VELSTATUS_OK;
}

void velstatus_op_reports_free(velstatus_op_reports *reports)
{
    if (reports)
        velstatus__pool_owner_free(&reports->pool, reports->e, reports);
}

vs__report_entry *velstatus__reports_push(velstatus_op_reports *r)
{
    vs__report_entry *e = velstatus__array_reserve(r->ctx, r->e, &r->cap, r->n + 1, sizeof(*e), 16);
    if (!e)
        return NULL;
    r->e = e;
    e = &r->e[r->n++];
    memset(e, 0, sizeof(*e));
    velstatus_op_progress_init(&e->p, sizeof(e->p));
    e->id.p = velstatus__empty;
    e->cancel_err.p = velstatus__empty;
    return e;
}

static int cmp_id(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static int cmp_entry(const void *x, const void *y)
{
    const vs__report_entry *a = x, *b = y;
    return cmp_id(a->id.p, a->id.len, b->id.p, b->id.len);
}

velstatus_status velstatus__reports_finish(velstatus_op_reports *r, velstatus_error *err)
{
    size_t i;
    if (r->n > 1)
        qsort(r->e, r->n, sizeof(*r->e), cmp_entry);
    for (i = 1; i < r->n; i++)
        if (cmp_entry(&r->e[i - 1], &r->e[i]) == 0)
            return velstatus__error_set(err, VELSTATUS_E_PARSE, "operation ID \"%.*s\" appears twice",
                                        (int)(r->e[i].id.len > 200 ? 200 : r->e[i].id.len), r->e[i].id.p);
    return VELSTATUS_OK;
}

static const vs__report_entry *find(const velstatus_op_reports *r, const char *id, size_t len)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_id(r->e[mid].id.p, r->e[mid].id.len, id, len);
        if (c == 0)
            return &r->e[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int velstatus_op_reports_get(velstatus_op_progress *progress, const velstatus_op_reports *reports, const char *id,
                             size_t id_len)
{
    const vs__report_entry *e;
    uint32_t size;
    id_len = velstatus__text_len(id, id_len);
    if (!progress || !reports || (!id && id_len > 0) || progress->struct_size < VS_OP_PROGRESS_SIZE_V1)
        return 0;
    e = find(reports, id, id_len);
    if (!e)
        return 0;
    size = progress->struct_size; /* the caller's: a newer caller's tail stays as its _init left it */
    memcpy(progress, &e->p, size < sizeof(e->p) ? size : sizeof(e->p));
    progress->struct_size = size;
    return 1;
}

static int reports_progress(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const velstatus_op_reports *r = ud;
    const velstatus_op *op = velstatus_oplist_at(list, index);
    size_t idlen;
    const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &idlen);
    const vs__report_entry *e = find(r, id, idlen);
    velstatus_op_progress p;
    velstatus__buf b;
    velstatus_status st;
    if (e)
        return velstatus_op_reply_set_progress(reply, &e->p, NULL) == VELSTATUS_OK ? 0 : -1;
    /* Velero's InvalidOperationIDError (doc/velero-behaviour.md §2.2): "operation ID %v is invalid",
     * in 1.11 "Operation ID %v is invalid." (pkg/plugin/velero/backupitemaction/v2). */
    velstatus__buf_init(&b, r->ctx);
    velstatus__buf_puts(&b, r->invalid_id_1_11 ? "Operation ID " : "operation ID ");
    velstatus__buf_append(&b, id, idlen);
    velstatus__buf_puts(&b, r->invalid_id_1_11 ? " is invalid." : " is invalid");
    if (b.failed) {
        velstatus__buf_reset(&b);
        reply->oom = 1;
        return -1;
    }
    velstatus_op_progress_init(&p, sizeof(p));
    p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
    p.err = b.p;
    p.err_len = b.len;
    st = velstatus_op_reply_set_progress(reply, &p, NULL);
    velstatus__buf_reset(&b);
    return st == VELSTATUS_OK ? 0 : -1;
}

static int reports_cancel(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const velstatus_op_reports *r = ud;
    size_t idlen;
    const char *id = velstatus_op_string(velstatus_oplist_at(list, index), VELSTATUS_OP_FIELD_OPERATION_ID, &idlen);
    const vs__report_entry *e = find(r, id, idlen);
    if (!e || !e->has_cancel_err)
        return 0;
    return velstatus_op_reply_set_cancel_error(reply, e->cancel_err.p, e->cancel_err.len, NULL) == VELSTATUS_OK ? 0
                                                                                                                : -1;
}

velstatus_status velstatus_op_reports_set_policy(velstatus_op_reports *reports, const velstatus_policy *policy,
                                                 velstatus_error *err)
{
    velstatus_policy p;
    velstatus_status st;
    if (!reports)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "reports is NULL");
    st = velstatus__policy_load(&p, policy, err);
    if (st == VELSTATUS_OK)
        reports->invalid_id_1_11 = p.invalid_operation_id_text_1_11 != 0;
    return st;
}

velstatus_status velstatus_op_reports_client(velstatus_plugin_client *client, const velstatus_op_reports *reports,
                                             velstatus_error *err)
{
    if (!client || !reports)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !client ? "client" : "reports");
    velstatus_plugin_client_init(client, sizeof(*client));
    client->userdata = (void *)(uintptr_t)reports;
    client->progress = reports_progress;
    client->cancel = reports_cancel;
    return VELSTATUS_OK;
}
