/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain -o json: the same content for tools (explain.h;
 * doc/explain.md has the schema). */
#include "explain.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ---- -o json (schema: doc/explain.md) ---- */

static void j_time(int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_time_format(t, sizeof(t), ns, 1, NULL) == VELSTATUS_OK)
        printf("\"%s\"", t);
    else
        printf("null");
}

static void j_text(const char *s, size_t n)
{
    if (!s)
        printf("null");
    else
        cli_json_str(stdout, s, n);
}

void ex_json_field(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    const char *s = velstatus_op_string(op, f, &n);
    j_text(s, n);
}

static void j_op(const ex *x, size_t i)
{
    const velstatus_op *op = velstatus_oplist_at(x->ops, i);
    int64_t t;
    size_t e = velstatus_forecast_op_event(x->fc, i);
    printf("%s{\"operationID\":", i ? "," : "");
    ex_json_field(op, VELSTATUS_OP_FIELD_OPERATION_ID);
    printf(",\"itemAction\":");
    ex_json_field(op, VELSTATUS_OP_FIELD_ITEM_ACTION);
    printf(",\"phase\":");
    ex_json_field(op, VELSTATUS_OP_FIELD_PHASE);
    printf(",\"error\":");
    if (ex_has_str(op, VELSTATUS_OP_FIELD_ERROR))
        ex_json_field(op, VELSTATUS_OP_FIELD_ERROR);
    else
        printf("null");
    printf(",\"nCompleted\":%lld,\"nTotal\":%lld,\"fate\":", (long long)velstatus_op_n_completed(op),
           (long long)velstatus_op_n_total(op));
    if (x->fc)
        printf("\"%s\"", velstatus_forecast_fate_to_string(velstatus_forecast_op_fate(x->fc, i)));
    else
        printf("null");
    printf(",\"deadline\":");
    velstatus_forecast_op_deadline(x->fc, i, &t) ? j_time(t) : (void)printf("null");
    printf(",\"finish\":");
    velstatus_forecast_op_finish(x->fc, i, &t) ? j_time(t) : (void)printf("null");
    printf(",\"eta\":");
    if (x->fc)
        printf("\"%s\"", velstatus_forecast_eta_to_string(velstatus_forecast_op_eta(x->fc, i)));
    else
        printf("null");
    printf(",\"event\":");
    if (e != SIZE_MAX)
        printf("%zu", e);
    else
        printf("null");
    printf("}");
}

static void j_event(const ex *x, const velstatus_forecast *f, size_t k)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, k);
    int64_t at = 0;
    size_t i, n;
    (void)velstatus_forecast_event_time(f, k, &at);
    printf("%s{\"at\":", k ? "," : "");
    j_time(at);
    printf(",\"phase\":\"%s\",\"canceled\":[", velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
    for (i = 0; i < velstatus_reconcile_result_canceled_count(r); i++) {
        const char *s = velstatus_reconcile_result_canceled_id(r, i, &n);
        printf("%s", i ? "," : "");
        j_text(s, n);
    }
    printf("],\"errors\":[");
    for (i = 0; i < velstatus_reconcile_result_error_count(r); i++) {
        const char *s = velstatus_reconcile_result_error(r, i, &n);
        printf("%s", i ? "," : "");
        j_text(s, n);
    }
    printf("],\"persist\":\"%s\"", velstatus_persist_action_to_string(velstatus_reconcile_result_persist(r)));
    {
        velstatus_phase kept;
        int64_t pending, lost;
        if (ex_persist_failure(x, r, &kept, &pending, &lost) == VELSTATUS_OK)
            printf(",\"persistFails\":{\"write\":\"%s\",\"phaseKept\":\"%s\",\"pendingErrors\":%lld,"
                   "\"lostErrors\":%lld}",
                   x->persist_fails, velstatus_phase_to_string(kept), (long long)pending, (long long)lost);
    }
    printf("}");
}

static void j_timeline(const ex *x, const velstatus_forecast *f)
{
    size_t k;
    if (!f) {
        printf("null");
        return;
    }
    printf("{\"end\":\"%s\",\"finalPhase\":\"%s\",\"events\":[",
           velstatus_forecast_end_to_string(velstatus_forecast_end_kind(f)),
           velstatus_phase_to_string(velstatus_forecast_final_phase(f)));
    for (k = 0; k < velstatus_forecast_event_count(f); k++)
        j_event(x, f, k);
    printf("]}");
}

static void j_if(const ex *x, const velstatus_forecast *f)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, 0);
    size_t n;
    const char *s;
    if (!f || ex_same_timeline(x->if_available, f)) {
        printf("null");
        return;
    }
    s = velstatus_reconcile_result_error(r, velstatus_reconcile_result_error_count(r) - 1, &n);
    printf("{\"phase\":\"%s\",\"error\":", velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
    j_text(s, n);
    printf("}");
}

static void j_bsl(const ex *x)
{
    printf(",\"bsl\":{\"name\":");
    j_text(x->o.bsl, x->o.bsl_len);
    printf(",\"state\":");
    if (x->bsl_known)
        printf("\"%s\"", velstatus_bsl_state_to_string(x->bsl_state));
    else
        printf("null");
    printf(",\"serverStatus\":");
    if (x->verdict)
        printf("\"%s\"", velstatus_server_status_to_string(velstatus_server_verdict_status(x->verdict)));
    else
        printf("null");
    printf(",\"ifMissing\":");
    j_if(x, x->if_missing);
    printf(",\"ifReadOnly\":");
    j_if(x, x->if_readonly);
    printf("}");
}

static void j_patch(const ex *x, velstatus_phase from, velstatus_phase to, const char *who, int *first)
{
    int retried = 0;
    uint64_t attempts = 0;
    int64_t sleep = 0;
    (void)velstatus_retry_transition(&retried, x->o.kind, from, to, 0, &x->pol, NULL);
    printf("%s{\"from\":\"%s\",\"to\":\"%s\",\"controller\":\"%s\",\"retried\":%s,\"attempts\":", *first ? "" : ",",
           velstatus_phase_to_string(from), velstatus_phase_to_string(to), who, retried ? "true" : "false");
    *first = 0;
    if (retried && ex_budget(x, &attempts, &sleep))
        printf("%llu,\"backoffNs\":%lld}", (unsigned long long)attempts, (long long)sleep);
    else
        printf("null,\"backoffNs\":null}");
}

static void j_patches(const ex *x)
{
    velstatus_phase cur = x->phase;
    int first = 1;
    size_t k;
    printf(",\"patches\":[");
    for (k = 0; x->fc && k < velstatus_forecast_event_count(x->fc); k++) {
        velstatus_phase to = velstatus_reconcile_result_phase(velstatus_forecast_event_result(x->fc, k));
        if (to != cur)
            j_patch(x, cur, to, "operations", &first);
        cur = to;
    }
    if (x->phase_known && (cur == VELSTATUS_PHASE_FINALIZING || cur == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED))
        j_patch(x, cur,
                cur == VELSTATUS_PHASE_FINALIZING ? VELSTATUS_PHASE_COMPLETED : VELSTATUS_PHASE_PARTIALLY_FAILED,
                "finalizer", &first);
    printf("]");
}

void ex_print_json(const ex *x)
{
    size_t i;
    printf("{\"kind\":\"%s\",\"namespace\":", x->o.kind == VELSTATUS_KIND_BACKUP ? "Backup" : "Restore");
    j_text(x->o.ns, x->o.ns_len);
    printf(",\"name\":");
    j_text(x->o.name, x->o.name_len);
    printf(",\"phase\":");
    j_text(x->o.phase, x->o.phase_len);
    printf(",\"phaseKnown\":%s,\"policy\":\"%s\",\"veleroVersion\":", x->phase_known ? "true" : "false",
           velstatus_preset_to_string((velstatus_preset)x->pol.preset));
    if (x->pol.preset == VELSTATUS_PRESET_VELERO)
        printf("\"%d.%d\"", x->major, x->minor);
    else
        printf("null");
    printf(",\"now\":");
    j_time(x->now);
    printf(",\"itemOperationTimeout\":{\"ns\":%lld,\"source\":\"%s\"},\"errors\":", (long long)x->timeout,
           x->timeout_src);
    if (x->o.errors >= 0)
        printf("%lld", x->o.errors);
    else
        printf("null");
    printf(",\"operations\":");
    if (!x->ops)
        printf("null");
    else {
        printf("[");
        for (i = 0; i < velstatus_oplist_count(x->ops); i++)
            j_op(x, i);
        printf("]");
    }
    printf(",\"timeline\":");
    j_timeline(x, x->fc);
    printf(",\"otherPreset\":");
    if (!x->other)
        printf("null");
    else {
        printf("{\"policy\":\"%s\",\"same\":%s,\"timeline\":",
               velstatus_preset_to_string((velstatus_preset)x->other_pol.preset),
               ex_same_timeline(x->fc, x->other) ? "true" : "false");
        j_timeline(x, x->other);
        printf("}");
    }
    ex_dm_json(x);
    j_bsl(x);
    j_patches(x);
    printf(",\"undecided\":[");
    if (!x->ops)
        printf("\"operations\"%s", !x->bsls && x->o.kind == VELSTATUS_KIND_BACKUP ? "," : "");
    if (!x->bsls && x->o.kind == VELSTATUS_KIND_BACKUP)
        printf("\"bsl\"");
    printf("]}\n");
}
