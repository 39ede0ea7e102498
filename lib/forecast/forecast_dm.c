/* SPDX-License-Identifier: Apache-2.0 */
/* The instants at which the data-mover objects of an operation list change
 * on their own (include/velstatus/forecast.h, velstatus_forecast_dm_instants):
 * each running operation's DataUpload or DataDownload, found as the CSI
 * plugin finds it (velstatus_dm_list_find), and its timeline
 * (velstatus_dm_timeline). No decision is made here. */
#include <string.h>

#include "datamover/private.h"
#include "operations/private.h"
#include "velstatus/forecast.h"

/* Adds t to the sorted, distinct instants out[0..*n) (room for cap);
 * E_RANGE when it does not fit. */
static velstatus_status add_instant(int64_t *out, size_t cap, size_t *n, int64_t t, velstatus_error *err)
{
    size_t i = 0;
    while (i < *n && out[i] < t)
        i++;
    if (i < *n && out[i] == t)
        return VELSTATUS_OK;
    if (*n == cap)
        return velstatus__error_set(err, VELSTATUS_E_RANGE,
                                    "velstatus_forecast_dm_instants: more than %zu instants (%d per operation "
                                    "always suffice)",
                                    cap, (int)VS_DM_TIMELINE_MAX);
    memmove(out + i + 1, out + i, (*n - i) * sizeof(*out));
    out[i] = t;
    (*n)++;
    return VELSTATUS_OK;
}

/* The instants of the object operation op reads, if exactly one matches. */
static velstatus_status op_instants(const velstatus_op *op, const velstatus_dm_list *dms, velstatus_dm_kind kind,
                                    const char *ns, size_t ns_len, int64_t now, int major, int minor,
                                    const velstatus_dm_config *cfg, int64_t *out, size_t cap, size_t *n,
                                    velstatus_error *err)
{
    velstatus_dm_decision ev[VS_DM_TIMELINE_MAX];
    velstatus_dm_object o;
    size_t len, idx = SIZE_MAX, m = 0, k;
    const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &len);
    if (!velstatus__op_phase_running(velstatus_op_phase_value(op)) || !id)
        return VELSTATUS_OK;
    if (velstatus_dm_list_find(dms, kind, id, len, ns, ns_len, major, minor, &idx, NULL, NULL) != VELSTATUS_OK ||
        idx == SIZE_MAX)
        return VELSTATUS_OK; /* not a data-mover operation's ID, or no single object: nothing timed */
    velstatus__dm_object_of(dms, idx, &o);
    for (k = 0; k < VS_DM_TIMELINE_MAX; k++)
        VS_TRY(velstatus_dm_decision_init(&ev[k], sizeof(ev[k]), err));
    VS_TRY(velstatus_dm_timeline(&o, now, major, minor, cfg, ev, VS_DM_TIMELINE_MAX, &m, err));
    for (k = 0; k < m && k < VS_DM_TIMELINE_MAX; k++)
        VS_TRY(add_instant(out, cap, n, ev[k].at_ns, err));
    return VELSTATUS_OK;
}

velstatus_status velstatus_forecast_dm_instants(const velstatus_oplist *ops, const velstatus_dm_list *dms,
                                                const char *velero_namespace, size_t ns_len, int64_t now_ns, int major,
                                                int minor, const velstatus_dm_config *cfg, int64_t *instants,
                                                size_t cap, size_t *n, velstatus_error *err)
{
    velstatus_dm_kind kind;
    size_t i, count;
    int64_t timeout;
    if (!ops || !dms || !n || (!instants && cap > 0))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_forecast_dm_instants: %s is NULL",
                                    !ops   ? "ops"
                                    : !dms ? "dms"
                                    : !n   ? "n"
                                           : "instants");
    VS_TRY(velstatus__text_arg(velero_namespace, &ns_len, "velero_namespace", err));
    VS_TRY(velstatus_dm_prepare_timeout_default(major, minor, &timeout, err)); /* the release has a data mover */
    kind = velstatus_oplist_kind(ops) == VELSTATUS_KIND_RESTORE ? VELSTATUS_DM_DOWNLOAD : VELSTATUS_DM_UPLOAD;
    count = 0;
    for (i = 0; i < velstatus_oplist_count(ops); i++)
        VS_TRY(op_instants(velstatus_oplist_at(ops, i), dms, kind, velero_namespace, ns_len, now_ns, major, minor, cfg,
                           instants, cap, &count, err));
    *n = count;
    return VELSTATUS_OK;
}
