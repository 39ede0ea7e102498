/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain: the data mover's chains (explain_dm.c) in words and
 * in -o json (doc/explain.md, "The data mover's chain"). */
#include "explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_t(FILE *f, const ex *x, int64_t ns)
{
    char buf[128];
    cli_format_time(buf, sizeof buf, ns, x->utc);
    fputs(buf, f);
}

static void put_dm(FILE *f, const velstatus_dm_list *l, size_t i, velstatus_dm_text field)
{
    size_t n;
    const char *s = velstatus_dm_list_text(l, i, field, &n);
    cli_put_text(f, s ? s : "", n);
}

static const char *action_words(velstatus_dm_action a)
{
    switch (a) {
    case VELSTATUS_DM_ACTION_NONE: return "nothing more happens to it";
    case VELSTATUS_DM_ACTION_WAIT_EXPOSE: return "it waits for the exposer's pod to run on a node (then Prepared)";
    case VELSTATUS_DM_ACTION_WAIT_DATA_PATH: return "it waits for its data path to end";
    case VELSTATUS_DM_ACTION_ACCEPT: return "a node-agent accepts it (Accepted) and exposes the snapshot";
    case VELSTATUS_DM_ACTION_START: return "the node-agent of its node starts the data path (InProgress)";
    case VELSTATUS_DM_ACTION_FAIL: return "the node-agent fails it";
    case VELSTATUS_DM_ACTION_SET_CANCEL: return "spec.cancel is set";
    case VELSTATUS_DM_ACTION_CANCELING: return "the node-agent moves it to Canceling and stops the data path";
    case VELSTATUS_DM_ACTION_CANCELED: return "it is Canceled";
    case VELSTATUS_DM_ACTION_RESUME: return "a restarted node-agent resumes watching its data path";
    case VELSTATUS_DM_ACTION_INVALID: break;
    }
    return "";
}

/* "done, error "..."" / "not done: Accepted, 0/0 Bytes" / "a Progress error: ..." */
static void put_answer(FILE *f, const velstatus_op_progress *p)
{
    if (p->report != VELSTATUS_OP_REPORT_PROGRESS) {
        fputs("the error ", f);
        cli_put_text(f, p->err, p->err_len);
        return;
    }
    if (p->description_len == 0 && !p->completed) {
        fputs("nothing yet (its phase is New: Velero updates nothing)", f);
        return;
    }
    fputs(p->completed ? "done" : "not done", f);
    if (p->description_len) {
        fputs(", ", f);
        cli_put_text(f, p->description, p->description_len);
    }
    fprintf(f, " %lld/%lld", (long long)p->n_completed, (long long)p->n_total);
    if (p->operation_units_len) {
        fputc(' ', f);
        cli_put_text(f, p->operation_units, p->operation_units_len);
    }
    if (p->err_len) {
        fputs(", error \"", f);
        cli_put_text(f, p->err, p->err_len);
        fputc('"', f);
    }
}

static void text_head(FILE *f, const ex *x, const ex_dm *c)
{
    const velstatus_dm_list *l = x->objs.dm;
    int64_t t = 0;
    size_t nl;
    const char *node = velstatus_dm_list_text(l, c->obj, VELSTATUS_DM_TEXT_NODE, &nl);
    fprintf(f, "%s ", velstatus_dm_list_kind(l, c->obj) == VELSTATUS_DM_UPLOAD ? "DataUpload" : "DataDownload");
    put_dm(f, l, c->obj, VELSTATUS_DM_TEXT_NAMESPACE);
    fputc('/', f);
    put_dm(f, l, c->obj, VELSTATUS_DM_TEXT_NAME);
    fprintf(f, " (operation ");
    {
        size_t il;
        const char *id = velstatus_op_string(velstatus_oplist_at(x->ops, c->op), VELSTATUS_OP_FIELD_OPERATION_ID, &il);
        cli_put_text(f, id ? id : "", il);
    }
    fprintf(f, "): %s", velstatus_dm_phase_to_string(velstatus_dm_list_phase(l, c->obj)));
    if (velstatus_dm_list_time(l, c->obj, VELSTATUS_DM_TIME_ACCEPTED, &t))
        fprintf(f, " (accepted at ");
    else if (velstatus_dm_list_time(l, c->obj, VELSTATUS_DM_TIME_STARTED, &t))
        fprintf(f, " (started at ");
    else if (velstatus_dm_list_time(l, c->obj, VELSTATUS_DM_TIME_CREATED, &t))
        fprintf(f, " (created at ");
    if (t) {
        put_t(f, x, t);
        fputc(')', f);
    }
    if (node && nl) {
        fprintf(f, " on node ");
        cli_put_text(f, node, nl);
    } else {
        fprintf(f, " on no node yet");
    }
    fprintf(f, "; the CSI plugin answers now: ");
    put_answer(f, &c->now_ans);
    fprintf(f, ".");
}

static void text_next(FILE *f, const ex *x, const ex_dm *c)
{
    int64_t pt;
    fprintf(f, "Next: %s", action_words(c->dec.action));
    if (c->dec.when == VELSTATUS_DM_WHEN_AT) {
        fprintf(f, " at ");
        put_t(f, x, c->dec.at_ns);
    } else if (c->dec.when == VELSTATUS_DM_WHEN_NOW) {
        fprintf(f, " now");
        if (c->dec.has_at) {
            fprintf(f, " (due since ");
            put_t(f, x, c->dec.at_ns);
            fprintf(f, ")");
        }
    }
    if (c->dec.action == VELSTATUS_DM_ACTION_WAIT_EXPOSE &&
        velstatus_dm_prepare_timeout_default(x->major, x->minor, &pt, NULL) == VELSTATUS_OK) {
        char d[VELSTATUS_DURATION_BUFSIZE];
        if (velstatus_duration_format(d, sizeof d, pt, NULL) == VELSTATUS_OK)
            fprintf(f, " (the node-agent's --data-mover-prepare-timeout, %s by default, counts from the accept)", d);
    }
    if (c->dec.message_set) {
        fprintf(f, " with \"");
        cli_put_text(f, c->dec.message, c->dec.message_len);
        fprintf(f, "\"");
    }
    fprintf(f, "; its phase then: %s.", velstatus_dm_phase_to_string(c->dec.phase_after));
}

static void text_pass(FILE *f, const ex *x, const ex_dm *c)
{
    const velstatus_op *op;
    size_t i, ne, el;
    const char *e;
    fprintf(f, "The CSI plugin then answers: ");
    put_answer(f, &c->then_ans);
    fprintf(f, ".");
    if (!c->has_pass)
        return;
    if (c->left) {
        fprintf(f, " By then the %s is already %s (see the timeline).",
                x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore", velstatus_phase_to_string(c->left_phase));
        return;
    }
    op = velstatus_oplist_at(c->pass_list, c->op);
    fprintf(f, " At the operations controller's pass at ");
    put_t(f, x, c->pass_at);
    fprintf(f, " its record is %s", velstatus_op_phase_to_string(velstatus_op_phase_value(op)));
    e = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &el);
    if (e && el) {
        fprintf(f, " (\"");
        cli_put_text(f, e, el);
        fprintf(f, "\")");
    }
    fprintf(f, " and the %s moves to %s", x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore",
            velstatus_phase_to_string(velstatus_reconcile_result_phase(c->pass)));
    ne = velstatus_reconcile_result_error_count(c->pass);
    for (i = 0; i < ne; i++) {
        e = velstatus_reconcile_result_error(c->pass, i, &el);
        fprintf(f, "%s", i ? "; " : ", with the error: ");
        cli_put_text(f, e, el);
    }
    fprintf(f, ".");
}

void ex_dm_text(const ex *x)
{
    size_t i;
    if (!x->objs.have_dm)
        return;
    printf("\nData mover (from %s):\n", x->o.kind == VELSTATUS_KIND_BACKUP ? "--datauploads" : "--datadownloads");
    if (x->ndm == 0)
        printf("  No running operation has its object in the list.\n");
    for (i = 0; i < x->ndm; i++) {
        for (size_t k = 0; k < 3; k++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (!f)
                return;
            if (k == 0)
                text_head(f, x, &x->dm[i]);
            else if (k == 1)
                text_next(f, x, &x->dm[i]);
            else if (x->dm[i].has_then)
                text_pass(f, x, &x->dm[i]);
            if (fclose(f) == 0 && len > 0) {
                if (k == 0)
                    fputs(" ", stdout); /* "  DataUpload ...", continued under its state */
                ex_prose_at("      ", k == 0 ? 1 : 0, buf);
            }
            free(buf);
        }
    }
}

/* What the object's phase means, and what to look at (Velero's
 * csi-snapshot-data-movement.md and the issues users hit). */
static const char *phase_check(velstatus_dm_phase ph)
{
    switch (ph) {
    case VELSTATUS_DM_PHASE_NEW:
        return "New: no node-agent has accepted it: is the node-agent daemonset running (`kubectl get pods -n velero "
               "-l name=node-agent`)? Its loadConcurrency may hold it back.";
    case VELSTATUS_DM_PHASE_ACCEPTED:
        return "Accepted: a node-agent took it, but the exposer's pod (the backupPod / restorePod named like the "
               "object) runs on no node yet: check that pod's events (Pending: the node selector or loadAffinity of "
               "the node-agent-config, no node-agent on the node it lands on, the volume not provisioned; velero "
               "#8576, #8316); --data-mover-prepare-timeout fails it.";
    case VELSTATUS_DM_PHASE_PREPARED:
        return "Prepared: the exposer's pod runs and the volume is mounted, but the node-agent of status.node has not "
               "started the data path: is that node's node-agent running, and under its loadConcurrency (velero "
               "#7261, #8971)?";
    case VELSTATUS_DM_PHASE_IN_PROGRESS:
        return "InProgress: data is moving; its bytesDone and the node-agent's log on status.node tell the rate "
               "(velero #8454, #7402).";
    case VELSTATUS_DM_PHASE_CANCELING:
        return "Canceling: spec.cancel was set (the item operation timed out, or a restart); the node-agent stops "
               "the data path.";
    default: break;
    }
    return NULL;
}

void ex_dm_checks(const ex *x, int *n)
{
    size_t i;
    for (i = 0; i < x->ndm; i++) {
        const char *t = phase_check(velstatus_dm_list_phase(x->objs.dm, x->dm[i].obj));
        if (!t)
            continue;
        char line[1024];
        size_t nl;
        const char *name = velstatus_dm_list_text(x->objs.dm, x->dm[i].obj, VELSTATUS_DM_TEXT_NAME, &nl);
        int w = printf("  %d.", ++*n);
        snprintf(line, sizeof line, "%.*s is %s", (int)(nl > 253 ? 253 : nl), name ? name : "", t);
        ex_prose_at("     ", w > 0 ? (size_t)w : 0, line);
    }
}

static void j_time_ns(int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_time_format(t, sizeof t, ns, 1, NULL) == VELSTATUS_OK)
        printf("\"%s\"", t);
    else
        printf("null");
}

static void j_dm(const velstatus_dm_list *l, size_t i, velstatus_dm_text f)
{
    size_t n;
    const char *s = velstatus_dm_list_text(l, i, f, &n);
    if (s)
        cli_json_str(stdout, s, n);
    else
        printf("null");
}

static void j_answer(const velstatus_op_progress *p)
{
    static const char *const reports[] = {"progress", "progressError", "lookupError"};
    printf("{\"report\":\"%s\",\"completed\":%s,\"nCompleted\":%lld,\"nTotal\":%lld,\"description\":",
           p->report < 3 ? reports[p->report] : "", p->completed ? "true" : "false", (long long)p->n_completed,
           (long long)p->n_total);
    cli_json_str(stdout, p->description ? p->description : "", p->description_len);
    printf(",\"operationUnits\":");
    cli_json_str(stdout, p->operation_units ? p->operation_units : "", p->operation_units_len);
    printf(",\"err\":");
    cli_json_str(stdout, p->err ? p->err : "", p->err_len);
    printf("}");
}

static void j_pass(const ex *x, const ex_dm *c)
{
    size_t i, ne, el;
    const velstatus_op *op;
    if (!c->has_pass)
        return;
    printf(",\"pass\":{\"at\":");
    j_time_ns(c->pass_at);
    if (c->left) {
        printf(",\"alreadyLeft\":\"%s\"}", velstatus_phase_to_string(c->left_phase));
        return;
    }
    op = velstatus_oplist_at(c->pass_list, c->op);
    printf(",\"operationPhase\":\"%s\",\"operationError\":",
           velstatus_op_phase_to_string(velstatus_op_phase_value(op)));
    {
        const char *e = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &el);
        cli_json_str(stdout, e ? e : "", el);
    }
    printf(",\"phase\":\"%s\",\"errors\":[", velstatus_phase_to_string(velstatus_reconcile_result_phase(c->pass)));
    ne = velstatus_reconcile_result_error_count(c->pass);
    for (i = 0; i < ne; i++) {
        const char *e = velstatus_reconcile_result_error(c->pass, i, &el);
        printf("%s", i ? "," : "");
        cli_json_str(stdout, e, el);
    }
    printf("]}");
    (void)x;
}

static void j_chain(const ex *x, const ex_dm *c)
{
    const velstatus_dm_list *l = x->objs.dm;
    printf("{\"operationID\":");
    ex_json_field(velstatus_oplist_at(x->ops, c->op), VELSTATUS_OP_FIELD_OPERATION_ID);
    printf(",\"kind\":\"%s\",\"namespace\":",
           velstatus_dm_list_kind(l, c->obj) == VELSTATUS_DM_UPLOAD ? "DataUpload" : "DataDownload");
    j_dm(l, c->obj, VELSTATUS_DM_TEXT_NAMESPACE);
    printf(",\"name\":");
    j_dm(l, c->obj, VELSTATUS_DM_TEXT_NAME);
    printf(",\"phase\":\"%s\",\"node\":", velstatus_dm_phase_to_string(velstatus_dm_list_phase(l, c->obj)));
    j_dm(l, c->obj, VELSTATUS_DM_TEXT_NODE);
    printf(",\"answerNow\":");
    j_answer(&c->now_ans);
    printf(",\"next\":{\"action\":\"%s\",\"when\":\"%s\",\"at\":", velstatus_dm_action_to_string(c->dec.action),
           velstatus_dm_when_to_string(c->dec.when));
    if (c->dec.has_at)
        j_time_ns(c->dec.at_ns);
    else
        printf("null");
    printf(",\"phaseAfter\":\"%s\",\"message\":", velstatus_dm_phase_to_string(c->dec.phase_after));
    if (c->dec.message_set)
        cli_json_str(stdout, c->dec.message, c->dec.message_len);
    else
        printf("null");
    printf("}");
    if (c->has_then) {
        printf(",\"answerThen\":");
        j_answer(&c->then_ans);
        j_pass(x, c);
    }
    printf("}");
}

void ex_dm_json(const ex *x)
{
    size_t i;
    if (!x->objs.have_dm)
        return;
    printf(",\"dataMover\":[");
    for (i = 0; i < x->ndm; i++) {
        if (i)
            printf(",");
        j_chain(x, &x->dm[i]);
    }
    printf("]");
}
