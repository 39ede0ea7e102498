/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain --datauploads/--datadownloads: the chain behind each
 * running operation of Velero's CSI data mover (issue 26). Every step is a
 * library decision: the object the plugin reads (velstatus_dm_list_find),
 * what the node-agent does to it next (velstatus_dm_next), what the CSI
 * plugin answers before and after (velstatus_dm_progress), and the
 * operations controller's pass then (velstatus_oplist_reconcile with the
 * chained clients). This file only writes the object as it is after
 * the decision, as one more value of the watch stream the objects were read
 * as, so that the library answers from it. */
#include "explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static velstatus_dm_kind dm_kind(const ex *x)
{
    return x->o.kind == VELSTATUS_KIND_BACKUP ? VELSTATUS_DM_UPLOAD : VELSTATUS_DM_DOWNLOAD;
}

static void put_json_time(FILE *f, const char *key, const velstatus_dm_list *l, size_t i, velstatus_dm_time which)
{
    int64_t ns;
    char t[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_dm_list_time(l, i, which, &ns) && velstatus_time_format(t, sizeof t, ns, 0, NULL) == VELSTATUS_OK)
        fprintf(f, ",\"%s\":\"%s\"", key, t);
}

static void put_json_text(FILE *f, const char *key, const velstatus_dm_list *l, size_t i, velstatus_dm_text which)
{
    size_t n;
    const char *s = velstatus_dm_list_text(l, i, which, &n);
    if (s) {
        fprintf(f, "%s\"%s\":", key[0] == '{' ? "" : ",", key[0] == '{' ? key + 1 : key);
        cli_json_str(f, s, n);
    }
}

/* The object as it is after the decision (its phase, message and
 * spec.cancel the decision's), with the fields the plugin reads. */
static char *stepped_object(const velstatus_dm_list *l, size_t i, const velstatus_dm_decision *d, size_t *len)
{
    char *buf = NULL;
    int64_t v;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fprintf(f, "\n{\"apiVersion\":\"velero.io/v2alpha1\",\"kind\":\"%s\",\"metadata\":{",
            velstatus_dm_list_kind(l, i) == VELSTATUS_DM_UPLOAD ? "DataUpload" : "DataDownload");
    put_json_text(f, "{name", l, i, VELSTATUS_DM_TEXT_NAME);
    put_json_text(f, "namespace", l, i, VELSTATUS_DM_TEXT_NAMESPACE);
    fprintf(f, ",\"labels\":{");
    put_json_text(f, "{velero.io/async-operation-id", l, i, VELSTATUS_DM_TEXT_OPERATION_ID);
    fprintf(f, "}},\"spec\":{\"cancel\":%s},\"status\":{\"phase\":\"%s\"", d->cancel_after ? "true" : "false",
            velstatus_dm_phase_to_string(d->phase_after));
    if (d->message_set) {
        fprintf(f, ",\"message\":");
        cli_json_str(f, d->message, d->message_len);
    } else {
        put_json_text(f, "message", l, i, VELSTATUS_DM_TEXT_MESSAGE);
    }
    put_json_text(f, "node", l, i, VELSTATUS_DM_TEXT_NODE);
    fprintf(f, ",\"progress\":{\"bytesDone\":%lld",
            (long long)(velstatus_dm_list_int(l, i, VELSTATUS_DM_INT_BYTES_DONE, &v) ? v : 0));
    fprintf(f, ",\"totalBytes\":%lld}",
            (long long)(velstatus_dm_list_int(l, i, VELSTATUS_DM_INT_TOTAL_BYTES, &v) ? v : 0));
    put_json_time(f, "startTimestamp", l, i, VELSTATUS_DM_TIME_STARTED);
    put_json_time(f, "completionTimestamp", l, i, VELSTATUS_DM_TIME_COMPLETED);
    put_json_time(f, "acceptedTimestamp", l, i, VELSTATUS_DM_TIME_ACCEPTED);
    fprintf(f, "}}\n");
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The objects after the decision: the objects' text, then the stepped
 * object (the watch stream's last state wins). */
static int stepped_list(ex *x, ex_dm *c)
{
    velstatus_error err;
    size_t slen = 0;
    char *s = stepped_object(x->objs.dm, c->obj, &c->dec, &slen), *all;
    if (!s)
        return cli_fail(EX_CMD, "out of memory");
    all = malloc(x->objs.dm_text_len + slen + 1);
    if (!all) {
        free(s);
        return cli_fail(EX_CMD, "out of memory");
    }
    memcpy(all, x->objs.dm_text, x->objs.dm_text_len);
    memcpy(all + x->objs.dm_text_len, s, slen + 1);
    free(s);
    if (velstatus_dm_list_from_json(&c->stepped, x->ctx, all, x->objs.dm_text_len + slen, &err) != VELSTATUS_OK) {
        free(all);
        return cli_fail_err(EX_CMD, "the object after the node-agent's decision", &err);
    }
    free(all);
    return CLI_OK;
}

static int answer(ex *x, const velstatus_dm_list *l, const char *id, size_t il, velstatus_op_progress *p, char **t)
{
    velstatus_error err;
    velstatus_op_progress_init(p, sizeof *p);
    if (velstatus_dm_progress(p, t, x->ctx, l, dm_kind(x), id, il, x->o.ns, x->o.ns ? x->o.ns_len : 0, x->major,
                              x->minor, &err) != VELSTATUS_OK)
        return cli_fail_err(EX_CMD, "the CSI plugin's answer", &err);
    return CLI_OK;
}

/* The phase and counts of the backup just before instant t: those after
 * the forecast's last event before it (1 if one left the Waiting phases). */
static int phase_before(const ex *x, int64_t t, velstatus_reconcile_options *o)
{
    size_t k, n = x->fc ? velstatus_forecast_event_count(x->fc) : 0;
    for (k = 0; k < n; k++) {
        int64_t at;
        const velstatus_reconcile_result *r = velstatus_forecast_event_result(x->fc, k);
        if (!velstatus_forecast_event_time(x->fc, k, &at) || at >= t)
            break;
        o->phase = velstatus_reconcile_result_phase(r);
        o->completed_before = (long long)velstatus_reconcile_result_completed(r);
        o->failed_before = (long long)velstatus_reconcile_result_failed(r);
        if (!ex_is_waiting(o->phase))
            return 1;
    }
    return 0;
}

/* The operations controller's pass at c->pass_at, its plugin answering from
 * the objects after the decision. */
static int run_pass(ex *x, ex_dm *c)
{
    velstatus_reconcile_options o;
    velstatus_plugin_client client;
    velstatus_error err;
    char *text = NULL;
    size_t len;
    cli_objects stepped = x->objs;
    if (!x->phase_known || !ex_is_waiting(x->phase))
        return CLI_OK; /* no operations controller pass: its phase is not a Waiting one */
    c->has_pass = 1;
    ex_options(x, &o, x->bsl_known ? x->bsl_state : VELSTATUS_BSL_AVAILABLE);
    o.now_ns = c->pass_at;
    c->left = phase_before(x, c->pass_at, &o);
    c->left_phase = o.phase;
    if (c->left)
        return CLI_OK;
    if (velstatus_oplist_to_json(&text, &len, x->ops, &err) != VELSTATUS_OK ||
        velstatus_oplist_from_json(&c->pass_list, x->ctx, x->o.kind, text, len, &err) != VELSTATUS_OK) {
        if (text)
            velstatus_free(x->ctx, text);
        return cli_fail_err(EX_CMD, "operations", &err);
    }
    velstatus_free(x->ctx, text);
    stepped.dm = c->stepped, stepped.dm_state = NULL;
    if (cli_objects_client(EX_CMD, x->ctx, &stepped, x->o.ns, x->major, x->minor, c->pass_at, NULL, &client) != CLI_OK)
        return CLI_BAD_INPUT;
    if (velstatus_oplist_reconcile(&c->pass, c->pass_list, &client, &o, &x->pol, &err) != VELSTATUS_OK) {
        velstatus_dm_client_free(stepped.dm_state);
        return cli_fail_err(EX_CMD, "reconcile", &err);
    }
    velstatus_dm_client_free(stepped.dm_state);
    return CLI_OK;
}

/* One running operation whose object is in the list: its chain. */
static int chain_one(ex *x, ex_dm *c, const char *id, size_t il)
{
    velstatus_error err;
    velstatus_dm_decision_init(&c->dec, sizeof c->dec, NULL);
    if (velstatus_dm_next(x->objs.dm, c->obj, x->now, x->major, x->minor, NULL, &c->dec, &err) != VELSTATUS_OK)
        return cli_fail_err(EX_CMD, "the node-agent's decision", &err);
    if (answer(x, x->objs.dm, id, il, &c->now_ans, &c->now_text) != CLI_OK)
        return CLI_BAD_INPUT;
    if (c->dec.when == VELSTATUS_DM_WHEN_NEVER)
        return CLI_OK; /* it waits on something outside: no instant to forecast */
    c->pass_at = c->dec.when == VELSTATUS_DM_WHEN_AT ? c->dec.at_ns : x->now;
    if (stepped_list(x, c) != CLI_OK || answer(x, c->stepped, id, il, &c->then_ans, &c->then_text) != CLI_OK)
        return CLI_BAD_INPUT;
    c->has_then = 1;
    return run_pass(x, c);
}

int ex_dm_chains(ex *x)
{
    size_t i, n = x->ops ? velstatus_oplist_count(x->ops) : 0;
    velstatus_error err;
    if (!x->objs.have_dm || n == 0)
        return CLI_OK;
    x->dm = calloc(n, sizeof *x->dm);
    if (!x->dm)
        return cli_fail(EX_CMD, "out of memory");
    for (i = 0; i < n; i++) {
        const velstatus_op *op = velstatus_oplist_at(x->ops, i);
        velstatus_op_phase ph = velstatus_op_phase_value(op);
        size_t il, matches = 0;
        const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &il);
        ex_dm *c = &x->dm[x->ndm];
        if ((ph != VELSTATUS_OP_PHASE_NEW && ph != VELSTATUS_OP_PHASE_IN_PROGRESS) || !id || il == 0)
            continue;
        if (velstatus_dm_list_find(x->objs.dm, dm_kind(x), id, il, x->o.ns, x->o.ns ? x->o.ns_len : 0, x->major,
                                   x->minor, &c->obj, &matches, &err) != VELSTATUS_OK)
            return cli_fail_err(EX_CMD, x->o.kind == VELSTATUS_KIND_BACKUP ? "--datauploads" : "--datadownloads", &err);
        if (matches != 1)
            continue;
        c->op = i;
        x->ndm++;
        if (chain_one(x, c, id, il) != CLI_OK)
            return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

void ex_dm_free(ex *x)
{
    size_t i;
    for (i = 0; i < x->ndm; i++) {
        ex_dm *c = &x->dm[i];
        velstatus_free(x->ctx, c->now_text);
        velstatus_free(x->ctx, c->then_text);
        velstatus_reconcile_result_free(c->pass);
        velstatus_oplist_free(c->pass_list);
        velstatus_dm_list_free(c->stepped);
    }
    free(x->dm);
    cli_objects_free(&x->objs);
}
