/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain: the model — the object, operations and BSLs read, the
 * timeout picked and the forecasts the library makes (explain.h). */
#include "explain.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ex_free(ex *x)
{
    free(x->o.name);
    free(x->o.ns);
    free(x->o.phase);
    free(x->o.bsl);
    free(x->o.timeout);
    free(x->o.backup);
    velstatus_forecast_free(x->fc);
    velstatus_forecast_free(x->other);
    velstatus_forecast_free(x->if_available);
    velstatus_forecast_free(x->if_missing);
    velstatus_forecast_free(x->if_readonly);
    ex_dm_free(x);
    velstatus_server_verdict_free(x->verdict);
    velstatus_bsl_set_free(x->bsls);
    velstatus_oplist_free(x->ops);
    velstatus_ctx_free(x->ctx);
}

/* A malloc'ed NUL-terminated copy of s[0..n), or NULL for NULL (or out of memory). */
static char *dup_text(const char *s, size_t n)
{
    char *t = s ? malloc(n + 1) : NULL;
    if (t) {
        memcpy(t, s, n);
        t[n] = '\0';
    }
    return t;
}

/* An optional integer of the i-th object (a list getter) as -1 when absent. */
static long long opt_int(int (*get)(const velstatus_backup_list *, size_t, int64_t *), const velstatus_backup_list *l)
{
    int64_t v = 0;
    return get(l, 0, &v) ? (long long)v : -1;
}

/* The fields of the one Backup or Restore the library decoded. */
static void copy_object(ex_obj *o, const velstatus_backup_list *l)
{
    const char *s;
    size_t n;
    o->kind = velstatus_backup_list_kind(l, 0);
    s = velstatus_backup_list_name(l, 0, &o->name_len);
    o->name = dup_text(s, o->name_len);
    s = velstatus_backup_list_namespace(l, 0, &o->ns_len);
    o->ns = dup_text(s, o->ns_len);
    s = velstatus_backup_list_storage_location(l, 0, &o->bsl_len);
    o->bsl = dup_text(s, o->bsl_len);
    s = velstatus_backup_list_item_operation_timeout(l, 0, &n);
    o->timeout = dup_text(s, n);
    s = velstatus_backup_list_backup_name(l, 0, &n);
    o->backup = dup_text(s, n);
    s = velstatus_backup_list_phase(l, 0, &o->phase_len);
    o->phase = dup_text(s, o->phase_len);
    o->errors = opt_int(velstatus_backup_list_errors, l);
    o->completed = opt_int(velstatus_backup_list_item_operations_completed, l);
    o->failed = opt_int(velstatus_backup_list_item_operations_failed, l);
}

int ex_read_object(ex *x, const char *path)
{
    size_t len;
    char *t = cli_read_input(EX_CMD, path, &len);
    const char *name = path && strcmp(path, "-") != 0 ? path : "stdin";
    velstatus_backup_list *l = NULL;
    velstatus_error err;
    ex_obj *o = &x->o;
    if (!t)
        return CLI_BAD_INPUT;
    if (velstatus_backup_list_from_json(&l, x->ctx, t, len, &err) != VELSTATUS_OK) {
        free(t);
        return cli_fail_err(EX_CMD, name, &err);
    }
    free(t);
    if (velstatus_backup_list_count(l) != 1 || velstatus_backup_list_skipped(l) != 0) {
        velstatus_backup_list_free(l);
        return cli_fail(EX_CMD, "%s: OBJECT must be a Backup or a Restore (`kubectl get backup NAME -o json`)", name);
    }
    copy_object(o, l);
    velstatus_backup_list_free(l);
    x->phase_known = velstatus_phase_from_string(&x->phase, o->phase ? o->phase : "", o->phase ? o->phase_len : 0,
                                                 NULL) == VELSTATUS_OK &&
                     velstatus_phase_valid(o->kind, x->phase);
    return CLI_OK;
}

int ex_parse_duration(const char *what, const char *s, int64_t *out)
{
    velstatus_error err;
    if (velstatus_duration_parse(out, s, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
        return cli_fail_err(EX_CMD, what, &err);
    return CLI_OK;
}

/* spec.itemOperationTimeout, else the flag, else the server's default
 * (Velero's --default-item-operation-timeout: 4h; 1h in 1.11). */
int ex_pick_timeout(ex *x, const char *flag)
{
    x->timeout = x->pol.default_item_operation_timeout_ns;
    x->timeout_src = "Velero's default";
    if (x->o.timeout) {
        x->timeout_src = "spec.itemOperationTimeout";
        return ex_parse_duration("OBJECT spec.itemOperationTimeout", x->o.timeout, &x->timeout);
    }
    if (flag) {
        x->timeout_src = "--item-operation-timeout";
        return ex_parse_duration("--item-operation-timeout", flag, &x->timeout);
    }
    return CLI_OK;
}

/* The BSL the object names (the default one when spec.storageLocation is
 * empty), looked up in --bsls: missing, read-only or available. */
int ex_read_bsls(ex *x, const char *path)
{
    size_t len, i, n;
    velstatus_error err;
    velstatus_bsl_record rec;
    char *t = cli_read_input(EX_CMD, path, &len);
    if (!t)
        return CLI_BAD_INPUT;
    if (velstatus_bsl_set_from_json(&x->bsls, x->ctx, t, len, &err) != VELSTATUS_OK ||
        velstatus_server_status_classify(&x->verdict, x->bsls, NULL, &err) != VELSTATUS_OK) {
        free(t);
        return cli_fail_err(EX_CMD, "--bsls", &err);
    }
    free(t);
    if (x->o.kind == VELSTATUS_KIND_RESTORE)
        return CLI_OK; /* its BSL is its backup's: not in the Restore */
    x->bsl_known = 1;
    x->bsl_state = VELSTATUS_BSL_MISSING;
    n = velstatus_bsl_set_count(x->bsls);
    for (i = 0; i < n; i++) {
        velstatus_bsl_record_init(&rec, sizeof(rec));
        (void)velstatus_bsl_set_get(x->bsls, i, &rec, NULL);
        if (x->o.bsl && x->o.bsl_len > 0
                ? (rec.name_len == x->o.bsl_len && memcmp(rec.name, x->o.bsl, rec.name_len) == 0)
                : rec.is_default) {
            x->bsl_state = rec.access == VELSTATUS_BSL_READ_ONLY ? VELSTATUS_BSL_READONLY : VELSTATUS_BSL_AVAILABLE;
            if (!x->o.bsl || x->o.bsl_len == 0) {
                free(x->o.bsl);
                x->o.bsl = strdup(rec.name);
                x->o.bsl_len = rec.name_len;
            }
            break;
        }
    }
    return CLI_OK;
}

int ex_is_waiting(velstatus_phase ph)
{
    return ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ||
           ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
}

size_t ex_count_phase(const velstatus_oplist *l, velstatus_op_phase ph)
{
    size_t i, n = 0;
    for (i = 0; i < velstatus_oplist_count(l); i++)
        n += velstatus_op_phase_value(velstatus_oplist_at(l, i)) == ph;
    return n;
}

/* The inputs of the next pass, as the object and the flags give them. */
void ex_options(const ex *x, velstatus_reconcile_options *o, velstatus_bsl_state bsl)
{
    velstatus_reconcile_options_init(o, sizeof(*o));
    o->phase = x->phase;
    o->bsl = bsl;
    o->now_ns = x->now;
    o->timeout_ns = x->timeout;
    o->bsl_name = x->o.bsl;
    o->bsl_name_len = x->o.bsl ? x->o.bsl_len : 0;
    o->completed_before =
        x->o.completed >= 0 ? x->o.completed : (long long)ex_count_phase(x->ops, VELSTATUS_OP_PHASE_COMPLETED);
    o->failed_before = x->o.failed >= 0 ? x->o.failed : (long long)ex_count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED);
}

int ex_forecast(ex *x, velstatus_forecast **out, const velstatus_policy *pol, velstatus_bsl_state bsl)
{
    velstatus_reconcile_options o;
    velstatus_error err;
    velstatus_status st;
    ex_options(x, &o, bsl);
    if (x->objs.dm || x->objs.snap) /* Velero's own CSI plugins answered from their objects */
        st = velstatus_forecast_new_dm(out, x->ops, &o, pol, x->objs.dm, x->objs.snap, x->o.ns,
                                       x->o.ns ? x->o.ns_len : 0, x->major, x->minor, NULL, &err);
    else
        st = velstatus_forecast_new(out, x->ops, &o, pol, &err);
    if (st != VELSTATUS_OK)
        return cli_fail_err(EX_CMD, "forecast", &err);
    return CLI_OK;
}

/* The forecasts: the chosen preset, the other one, and (backups) a missing
 * and a read-only BSL at the next pass. */
int ex_forecasts(ex *x)
{
    velstatus_bsl_state bsl = x->bsl_known ? x->bsl_state : VELSTATUS_BSL_AVAILABLE;
    if (!x->ops || !x->phase_known || !ex_is_waiting(x->phase))
        return CLI_OK;
    if (ex_forecast(x, &x->fc, &x->pol, bsl) != CLI_OK || ex_forecast(x, &x->other, &x->other_pol, bsl) != CLI_OK ||
        ex_forecast(x, &x->if_available, &x->pol, VELSTATUS_BSL_AVAILABLE) != CLI_OK ||
        ex_forecast(x, &x->if_missing, &x->pol, VELSTATUS_BSL_MISSING) != CLI_OK ||
        ex_forecast(x, &x->if_readonly, &x->pol, VELSTATUS_BSL_READONLY) != CLI_OK)
        return CLI_BAD_INPUT;
    return CLI_OK;
}
