/* SPDX-License-Identifier: Apache-2.0 */
/* The instants at which the data-mover objects of an operation list change
 * on their own (include/velstatus/forecast.h, velstatus_forecast_dm_instants):
 * each running operation's DataUpload or DataDownload, found as the CSI
 * plugin finds it (velstatus_dm_list_find), and its timeline
 * (velstatus_dm_timeline); and the forecast that steps a copy of those
 * objects with the node-agent's decisions (velstatus_dm_next), answers the
 * CSI PVC plugin's operations from it (velstatus_dm_client_init) and the
 * VolumeSnapshot plugin's from the snapshot list, which nothing changes
 * (velstatus_snapshot_client_init). No decision is made here. */
#include <string.h>

#include "forecast/private.h"

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
        (void)velstatus_dm_decision_init(&ev[k], sizeof(ev[k]), NULL); /* cannot fail: its own size */
    VS_TRY(velstatus_dm_timeline(&o, now, major, minor, cfg, ev, VS_DM_TIMELINE_MAX, &m, err));
    for (k = 0; k < m; k++) /* m <= VS_DM_TIMELINE_MAX, the cap given */
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

/* ---- the forecast over the operations and their objects ---- */

/* Object i's config: the caller's, with the instant the controller saw
 * spec.cancel when the forecast set it. */
static void object_config(const vs_fc_dm *dm, size_t i, velstatus_dm_config *c)
{
    *c = dm->cfg;
    if (dm->has_seen[i])
        c->has_cancel_seen = 1, c->cancel_seen_ns = dm->seen[i];
}

/* Notes `at` as the instant spec.cancel is written on object i, unless it
 * is set already (a cancel already in the object has the caller's
 * instant) or the caller gave one. */
static void saw_cancel(vs_fc_dm *dm, size_t i, int64_t at)
{
    int64_t cancel = 0;
    if (velstatus_dm_list_int(dm->objs, i, VELSTATUS_DM_INT_CANCEL, &cancel) && cancel != 0)
        return; /* written before */
    if (!dm->has_seen[i] && !dm->cfg.has_cancel_seen)
        dm->has_seen[i] = 1, dm->seen[i] = at;
}

/* Whether decision d, due now, changes object o (phase, cancel, message). */
static int changes(const vs_fc_dm *dm, size_t i, const velstatus_dm_decision *d)
{
    velstatus_dm_object o;
    size_t n = 0;
    const char *m = velstatus_dm_list_text(dm->objs, i, VELSTATUS_DM_TEXT_MESSAGE, &n);
    velstatus__dm_object_of(dm->objs, i, &o);
    return d->when == VELSTATUS_DM_WHEN_NOW &&
           (o.phase != d->phase_after || o.cancel != d->cancel_after ||
            (d->message_set && (n != d->message_len || (n > 0 && memcmp(m, d->message, n) != 0))));
}

/* Object i's decisions due at `at`, one after another (at most a
 * timeline's length). */
static velstatus_status agent_one(vs_fc_dm *dm, size_t i, int64_t at, velstatus_error *err)
{
    velstatus_dm_config c;
    velstatus_dm_decision d;
    int round;
    for (round = 0; round < VS_DM_TIMELINE_MAX; round++) {
        object_config(dm, i, &c);
        (void)velstatus_dm_decision_init(&d, sizeof(d), NULL); /* cannot fail: its own size */
        VS_TRY(velstatus_dm_next(dm->objs, i, at, dm->major, dm->minor, &c, &d, err));
        if (!changes(dm, i, &d))
            return VELSTATUS_OK;
        if (d.cancel_after)
            saw_cancel(dm, i, at);
        VS_TRY(velstatus__dm_list_apply(dm->objs, i, &d, at, dm->major, dm->minor, err));
    }
    return velstatus__error_set(err, VELSTATUS_E_INTERNAL, "forecast: object %zu changes more than %d times at once", i,
                                (int)VS_DM_TIMELINE_MAX);
}

velstatus_status velstatus__fc_dm_agent(vs_fc_dm *dm, int64_t at, velstatus_error *err)
{
    size_t i;
    dm->snap_cfg.now_ns = at; /* the snapshot client reads its config at every call */
    for (i = 0; i < velstatus_dm_list_count(dm->objs); i++)
        VS_TRY(agent_one(dm, i, at, err));
    return VELSTATUS_OK;
}

velstatus_status velstatus__fc_dm_cancels(vs_fc_dm *dm, const velstatus_oplist *sim,
                                          const velstatus_reconcile_result *r, int64_t at, velstatus_error *err)
{
    char buf[VS_DM_ERROR_MAX];
    size_t k, idx, len, tl;
    velstatus_dm_kind kind;
    const char *id;
    if (!dm->objs)
        return VELSTATUS_OK; /* the snapshot plugin's Cancel does nothing */
    for (k = 0; k < velstatus_reconcile_result_canceled_count(r); k++) {
        if (!velstatus__dm_csi_op(sim, velstatus_reconcile_result_canceled_index(r, k), &kind, &id, &len))
            continue; /* another plugin's Cancel: nothing the data mover's objects show */
        VS_TRY(velstatus__dm_answer(NULL, &idx, buf, &tl, dm->objs, dm->kind, id, id ? len : 0, dm->ns, dm->ns_len,
                                    dm->major, dm->minor, err));
        if (idx == SIZE_MAX)
            continue; /* Cancel returned an error: nothing patched */
        saw_cancel(dm, idx, at);
        velstatus__dm_list_set_cancel(dm->objs, idx);
    }
    return velstatus__fc_dm_agent(dm, at, err);
}

velstatus_status velstatus__fc_dm_next(vs_fc_dm *dm, int64_t after, int64_t *at, int *found, velstatus_error *err)
{
    velstatus_dm_config c;
    velstatus_dm_decision d;
    size_t i;
    *found = 0;
    for (i = 0; i < velstatus_dm_list_count(dm->objs); i++) {
        object_config(dm, i, &c);
        (void)velstatus_dm_decision_init(&d, sizeof(d), NULL); /* cannot fail: its own size */
        VS_TRY(velstatus_dm_next(dm->objs, i, after, dm->major, dm->minor, &c, &d, err));
        if (d.when == VELSTATUS_DM_WHEN_AT && d.has_at && d.at_ns > after && (!*found || d.at_ns < *at))
            *at = d.at_ns, *found = 1;
    }
    return VELSTATUS_OK;
}

static void dm_release(velstatus_ctx *ctx, vs_fc_dm *dm)
{
    velstatus_dm_client_free(dm->client);
    velstatus_dm_list_free(dm->objs);
    velstatus__free(ctx, dm->seen);
    velstatus__free(ctx, dm->has_seen);
}

/* dm's copy of the objects and its checked inputs: the release has a data
 * mover when DataUploads are given, a VolumeSnapshot plugin when snapshots
 * are (the snapshot client's checks). */
static velstatus_status dm_load(vs_fc_dm *dm, const velstatus_oplist *list, const velstatus_dm_list *dms,
                                const velstatus_dm_config *cfg, velstatus_error *err)
{
    size_t n = velstatus_dm_list_count(dms) > 0 ? velstatus_dm_list_count(dms) : 1;
    int64_t timeout;
    if (dms) /* the release has a data mover */
        VS_TRY(velstatus_dm_prepare_timeout_default(dm->major, dm->minor, &timeout, err));
    (void)velstatus_dm_config_init(&dm->cfg, sizeof(dm->cfg), NULL); /* cannot fail: its own size */
    if (cfg)
        VS_TRY(velstatus__sized_copy(&dm->cfg, sizeof(dm->cfg), VS_DM_CONFIG_SIZE_V1, cfg, "dm config", err));
    if (dm->snaps) { /* its fallback, the recorded progress, is set when the passes start */
        velstatus_snapshot_client_config_init(&dm->snap_cfg, sizeof(dm->snap_cfg));
        dm->snap_cfg.snapshots = dm->snaps, dm->snap_cfg.major = dm->major, dm->snap_cfg.minor = dm->minor;
        VS_TRY(velstatus_snapshot_client_init(&dm->snap_client, sizeof(dm->snap_client), &dm->snap_cfg, err));
    }
    if (!dms)
        return VELSTATUS_OK;
    dm->kind = velstatus_oplist_kind(list) == VELSTATUS_KIND_RESTORE ? VELSTATUS_DM_DOWNLOAD : VELSTATUS_DM_UPLOAD;
    dm->seen = velstatus__calloc(list->ctx, n, sizeof(*dm->seen));
    dm->has_seen = velstatus__calloc(list->ctx, n, sizeof(*dm->has_seen));
    if (!dm->seen || !dm->has_seen)
        return velstatus__error_nomem(err);
    return velstatus__dm_list_clone(&dm->objs, dms, err);
}

velstatus_status velstatus_forecast_new_dm(velstatus_forecast **out, const velstatus_oplist *list,
                                           const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                           const velstatus_dm_list *dms, const velstatus_snapshot_list *snapshots,
                                           const char *velero_namespace, size_t ns_len, int major, int minor,
                                           const velstatus_dm_config *cfg, velstatus_error *err)
{
    vs_fc_dm dm;
    velstatus_status st;
    if (!list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_forecast_new_dm: list is NULL");
    if (!dms && !snapshots)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "velstatus_forecast_new_dm: dms and snapshots are both NULL (give at least one; "
                                    "velstatus_forecast_new() forecasts without objects)");
    VS_TRY(velstatus__text_arg(velero_namespace, &ns_len, "velero_namespace", err));
    memset(&dm, 0, sizeof(dm));
    dm.snaps = snapshots;
    dm.ns = velero_namespace, dm.ns_len = ns_len, dm.major = major, dm.minor = minor;
    st = dm_load(&dm, list, dms, cfg, err);
    if (st == VELSTATUS_OK)
        st = velstatus__forecast_run(out, list, opts, policy, &dm, err);
    dm_release(list->ctx, &dm);
    return st;
}
