/* SPDX-License-Identifier: Apache-2.0 */
/* The forecast of an operation list (include/velstatus/forecast.h,
 * doc/explain.md): the real reconcile (lib/operations/reconcile.c) stepped on a copy
 * of the list at the instants where its outcome changes. The instants come
 * from the step's own timeout and grace rules (velstatus__op_deadline,
 * velstatus__grace_over in operations_private.h), the ETAs from the progress
 * area's accumulation (velstatus__progress_op_eta): no decision is made
 * here. */
#include <string.h>

#include "forecast/private.h"
#include "progress/private.h"
#include "velstatus/forecast.h"
#include "common/util_array.h"

static const char *const fate_names[] = {"settled",         "times_out",  "error_fails", "unknown_fails",
                                         "unknown_skipped", "no_created", "no_timeout",  "not_reached"};
_Static_assert(VS_N(fate_names) == VELSTATUS_FORECAST_FATE_NOT_REACHED + 1, "forecast fate token table");
static const char *const eta_names[] = {"unknown", "before", "after", "no_deadline"};
_Static_assert(VS_N(eta_names) == VELSTATUS_FORECAST_ETA_NO_DEADLINE + 1, "forecast eta token table");
static const char *const end_names[] = {"final", "stalled"};
_Static_assert(VS_N(end_names) == VELSTATUS_FORECAST_END_STALLED + 1, "forecast end token table");

VS_ENUM_TOKENS(forecast_fate, velstatus_forecast_fate, fate_names, "forecast fate")
VS_ENUM_TOKENS(forecast_eta, velstatus_forecast_eta, eta_names, "forecast ETA comparison")
VS_ENUM_TOKENS(forecast_end, velstatus_forecast_end, end_names, "forecast end")

/* One instant at which a pass decides something, and that pass's result. */
typedef struct fc_event {
    int64_t at;
    velstatus_reconcile_result *r;
} fc_event;

/* What the forecast says of one record. */
typedef struct fc_op {
    size_t event; /* SIZE_MAX: no event changes it */
    int64_t deadline, finish;
    uint8_t fate, eta, has_deadline, has_finish;
} fc_op;

struct velstatus_forecast {
    velstatus_ctx *ctx;
    velstatus_phase phase, final_phase;
    velstatus_forecast_end end;
    fc_event *ev;
    size_t nev, capev;
    fc_op *ops;
    size_t nops;
};

/* Everything a forecast reads, validated and of this library's size. */
typedef struct fc_in {
    velstatus_reconcile_options o;
    velstatus_policy pol;
} fc_in;

void velstatus_forecast_free(velstatus_forecast *f)
{
    size_t i;
    if (!f)
        return;
    for (i = 0; i < f->nev; i++)
        velstatus_reconcile_result_free(f->ev[i].r);
    velstatus__free(f->ctx, f->ev);
    velstatus__free(f->ctx, f->ops);
    velstatus__free(f->ctx, f);
}

static int is_running(const velstatus_op *op)
{
    return velstatus__op_phase_running(velstatus_op_phase_value(op));
}

/* "The plugin returns the recorded progress unchanged": the record's counts,
 * units, description and times; a record in a Progress error's grace period
 * keeps getting an error (its text is not recorded: the record's error field,
 * normally empty, stands for it). */
static int echo_progress(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    const velstatus_op *op = velstatus_oplist_at(list, i);
    velstatus_op_progress p;
    int64_t since;
    (void)ud;
    velstatus_op_progress_init(&p, sizeof(p));
    if (velstatus__op_error_since(op, &since)) {
        p.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
        p.err = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &p.err_len);
    } else {
        p.n_completed = velstatus_op_n_completed(op);
        p.n_total = velstatus_op_n_total(op);
        p.operation_units = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &p.operation_units_len);
        p.description = velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &p.description_len);
        p.has_started = velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &p.started_ns);
        p.has_updated = velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &p.updated_ns);
    }
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

/* Whether a pass decided anything: a phase change, a Cancel, an error, or a
 * write. */
static int decided(const velstatus_reconcile_result *r, velstatus_phase before)
{
    return velstatus_reconcile_result_phase(r) != before || velstatus_reconcile_result_canceled_count(r) > 0 ||
           velstatus_reconcile_result_error_count(r) > 0 ||
           velstatus_reconcile_result_persist(r) != VELSTATUS_PERSIST_NONE;
}

static int was_canceled(const velstatus_reconcile_result *r, size_t i)
{
    size_t k, n = velstatus_reconcile_result_canceled_count(r);
    for (k = 0; k < n; k++)
        if (velstatus_reconcile_result_canceled_index(r, k) == i)
            return 1;
    return 0;
}

/* The records event k failed get their fate: timed out (canceled), an
 * unknown phase, or a Progress error whose grace period ended. */
static void mark_failed(velstatus_forecast *f, const velstatus_oplist *orig, const velstatus_oplist *sim, size_t k)
{
    const velstatus_reconcile_result *r = f->ev[k].r;
    size_t i;
    for (i = 0; i < f->nops; i++) {
        fc_op *o = &f->ops[i];
        if (o->event != SIZE_MAX || o->fate == VELSTATUS_FORECAST_FATE_SETTLED ||
            velstatus_op_phase_value(velstatus_oplist_at(sim, i)) != VELSTATUS_OP_PHASE_FAILED)
            continue;
        o->event = k;
        if (was_canceled(r, i))
            o->fate = VELSTATUS_FORECAST_FATE_TIMES_OUT;
        else if (velstatus_op_phase_value(velstatus_oplist_at(orig, i)) == VELSTATUS_OP_PHASE_UNKNOWN)
            o->fate = VELSTATUS_FORECAST_FATE_UNKNOWN_FAILS;
        else
            o->fate = VELSTATUS_FORECAST_FATE_ERROR_FAILS;
    }
}

/* One pass at `at`; an event when it decides anything. The next pass starts
 * from its phase and counts, with no pending errors (a pass that records
 * errors uploads and patches, which clears them). */
static velstatus_status fc_pass(velstatus_forecast *f, velstatus_oplist *sim, fc_in *in,
                                const velstatus_plugin_client *c, int64_t at, velstatus_error *err)
{
    velstatus_reconcile_result *r;
    velstatus_status st;
    in->o.now_ns = at;
    st = velstatus_oplist_reconcile(&r, sim, c, &in->o, &in->pol, err);
    if (st != VELSTATUS_OK)
        return st;
    in->o.errors = 0;
    in->o.completed_before = velstatus__size_to_i64(velstatus_reconcile_result_completed(r));
    in->o.failed_before = velstatus__size_to_i64(velstatus_reconcile_result_failed(r));
    if (!decided(r, in->o.phase)) {
        velstatus_reconcile_result_free(r);
        return VELSTATUS_OK;
    }
    in->o.phase = velstatus_reconcile_result_phase(r);
    if (VS_ARRAY_RESERVE(f->ctx, f->ev, f->capev, f->nev + 1, 4)) {
        velstatus_reconcile_result_free(r);
        return velstatus__error_nomem(err);
    }
    f->ev[f->nev].at = at;
    f->ev[f->nev].r = r;
    f->nev++;
    return VELSTATUS_OK;
}

static void consider(int64_t t, int *found, int64_t *at)
{
    if (!*found || t < *at)
        *at = t;
    *found = 1;
}

/* The earliest instant after the last pass at which a running record's
 * timeout or grace period ends: the first `now` with deadline < now, and
 * the first with now - since >= grace. 0 when there is none. */
static int next_instant(const velstatus_oplist *sim, const fc_in *in, int64_t *at)
{
    int64_t grace = in->pol.progress_error_grace_ns, sec, deadline, since, t;
    int32_t nsec;
    size_t i, n = velstatus_oplist_count(sim);
    int found = 0;
    for (i = 0; i < n; i++) {
        const velstatus_op *op = velstatus_oplist_at(sim, i);
        int has_created;
        if (!is_running(op))
            continue;
        has_created = velstatus_op_time_sec(op, VELSTATUS_OP_TIME_CREATED, &sec, &nsec);
        /* the first instant the step's rule holds: deadline + 1, checked with it */
        if (velstatus__op_deadline(has_created, sec, nsec, in->o.timeout_ns, &in->pol, &deadline) == VS__DEADLINE &&
            deadline < INT64_MAX && velstatus__op_times_out(sec, nsec, in->o.timeout_ns, deadline + 1))
            consider(deadline + 1, &found, at);
        if (grace > 0 && velstatus__op_error_since(op, &since)) {
            t = velstatus__sat_add_i64(since, grace);
            if (velstatus__grace_over(t, since, grace))
                consider(t, &found, at);
        }
    }
    return found;
}

static int is_waiting(velstatus_phase ph)
{
    return ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ||
           ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
}

/* The plugin client of the passes, as a host chains them: the data mover's
 * client over dm's copy (with DataUploads), then the snapshot plugin's (with
 * snapshots), then the recorded progress echoed. echo outlives the passes. */
static velstatus_status fc_client(velstatus_plugin_client *echo, velstatus_plugin_client *c, velstatus_ctx *ctx,
                                  vs_fc_dm *dm, velstatus_error *err)
{
    velstatus_plugin_client_init(echo, sizeof(*echo));
    echo->progress = echo_progress;
    *c = *echo;
    if (!dm)
        return VELSTATUS_OK;
    if (dm->snaps) {
        dm->snap_cfg.fallback = echo;
        *c = dm->snap_client;
    }
    if (!dm->objs)
        return VELSTATUS_OK;
    VS_TRY(velstatus_dm_client_new(&dm->client, ctx, dm->objs, dm->ns, dm->ns_len, dm->major, dm->minor, c, err));
    return velstatus_dm_client_init(c, sizeof(*c), dm->client, err);
}

/* One instant: the node-agent's decisions due, the pass, the Cancels it
 * patches. */
static velstatus_status fc_instant(velstatus_forecast *f, const velstatus_oplist *orig, velstatus_oplist *sim,
                                   fc_in *in, const velstatus_plugin_client *c, vs_fc_dm *dm, int64_t at,
                                   velstatus_error *err)
{
    size_t before = f->nev;
    if (dm)
        VS_TRY(velstatus__fc_dm_agent(dm, at, err));
    VS_TRY(fc_pass(f, sim, in, c, at, err));
    if (f->nev > before)
        mark_failed(f, orig, sim, before);
    if (dm && f->nev > before)
        VS_TRY(velstatus__fc_dm_cancels(dm, sim, f->ev[f->nev - 1].r, at, err));
    return VELSTATUS_OK;
}

/* The instant after `at` of the next pass with a data mover: a record's
 * rule or an object's decision, whichever comes first. */
static velstatus_status dm_next_instant(const velstatus_oplist *sim, const fc_in *in, vs_fc_dm *dm, int64_t *at,
                                        int *found, velstatus_error *err)
{
    int64_t t, d;
    int has_d;
    VS_TRY(velstatus__fc_dm_next(dm, *at, &d, &has_d, err));
    *found = next_instant(sim, in, &t) && t > *at;
    if (has_d && (!*found || d < t))
        t = d, *found = 1;
    if (*found)
        *at = t;
    return VELSTATUS_OK;
}

/* The timeline: the next pass, then a pass at each instant where a running
 * record's rule (or, with dm, an object's decision) changes its outcome,
 * until the phase leaves the Waiting phases or no such instant is left.
 * Without dm each event after the first fails at least one record, so there
 * are at most n + 1 of them; with dm each instant is later than the last and
 * every object's chain of decisions is finite. */
static velstatus_status timeline(velstatus_forecast *f, const velstatus_oplist *orig, velstatus_oplist *sim, fc_in *in,
                                 vs_fc_dm *dm, velstatus_error *err)
{
    velstatus_plugin_client echo, c;
    int64_t at = in->o.now_ns;
    size_t before;
    int first = 1, found;
    VS_TRY(fc_client(&echo, &c, f->ctx, dm, err));
    for (;;) {
        before = f->nev;
        VS_TRY(fc_instant(f, orig, sim, in, &c, dm, at, err));
        if (!is_waiting(in->o.phase)) {
            f->end = VELSTATUS_FORECAST_END_FINAL;
            break;
        }
        if (dm)
            VS_TRY(dm_next_instant(sim, in, dm, &at, &found, err));
        else /* a computed instant always fails a record; were it not to, the
              * same instant would come back: stop rather than loop */
            found = (first || f->nev > before) && next_instant(sim, in, &at);
        if (!found) {
            f->end = VELSTATUS_FORECAST_END_STALLED;
            break;
        }
        first = 0;
    }
    f->final_phase = in->o.phase;
    return VELSTATUS_OK;
}

/* Each record's fate if no event changes it, its deadline and its ETA. */
static void classify(fc_op *o, const velstatus_op *op, const fc_in *in)
{
    int64_t sec = 0, updated, secs;
    int32_t nsec = 0;
    int has_created = velstatus_op_time_sec(op, VELSTATUS_OP_TIME_CREATED, &sec, &nsec);
    int kind = velstatus__op_deadline(has_created, sec, nsec, in->o.timeout_ns, &in->pol, &o->deadline);
    velstatus_op_phase ph = velstatus_op_phase_value(op);
    o->event = SIZE_MAX;
    if (ph == VELSTATUS_OP_PHASE_COMPLETED || ph == VELSTATUS_OP_PHASE_FAILED) {
        o->fate = VELSTATUS_FORECAST_FATE_SETTLED;
        return;
    }
    if (ph == VELSTATUS_OP_PHASE_UNKNOWN) {
        o->fate =
            in->pol.unknown_phase_fails ? VELSTATUS_FORECAST_FATE_NOT_REACHED : VELSTATUS_FORECAST_FATE_UNKNOWN_SKIPPED;
        return;
    }
    o->has_deadline = kind == VS__DEADLINE;
    o->fate = kind == VS__DEADLINE_NO_CREATED ? VELSTATUS_FORECAST_FATE_NO_CREATED
              : kind == VS__DEADLINE_NONE     ? VELSTATUS_FORECAST_FATE_NO_TIMEOUT
                                              : VELSTATUS_FORECAST_FATE_NOT_REACHED;
    if (!o->has_deadline)
        o->deadline = 0;
    o->has_finish = (uint8_t)velstatus__progress_op_eta(op, in->o.now_ns, &secs);
    if (!velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &updated))
        updated = in->o.now_ns;
    o->finish = o->has_finish ? velstatus__sat_add_i64(updated, secs * INT64_C(1000000000)) : 0;
    o->eta = !o->has_finish             ? VELSTATUS_FORECAST_ETA_UNKNOWN
             : !o->has_deadline         ? VELSTATUS_FORECAST_ETA_NO_DEADLINE
             : o->finish <= o->deadline ? VELSTATUS_FORECAST_ETA_BEFORE
                                        : VELSTATUS_FORECAST_ETA_AFTER;
}

static velstatus_status fc_load(fc_in *in, const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                velstatus_error *err)
{
    velstatus_status st =
        velstatus__sized_copy(&in->o, sizeof(in->o), VS_RECONCILE_OPTIONS_SIZE_V1, opts, "options", err);
    if (st != VELSTATUS_OK)
        return st;
    st = velstatus__policy_load(&in->pol, policy, err);
    if (st != VELSTATUS_OK)
        return st;
    if (in->o.phase == VELSTATUS_PHASE_IN_PROGRESS)
        return velstatus__error_set(err, VELSTATUS_E_STATE,
                                    "phase InProgress: the operations are first evaluated when the main run ends, "
                                    "which no input tells; a forecast starts from a Waiting phase");
    return VELSTATUS_OK;
}

velstatus_status velstatus__forecast_run(velstatus_forecast **out, const velstatus_oplist *list,
                                         const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                         vs_fc_dm *dm, velstatus_error *err)
{
    fc_in in;
    velstatus_forecast *f;
    velstatus_oplist *sim = NULL;
    velstatus_status st;
    size_t i;
    VS_TRY(velstatus__list_pass_args(out, list, opts, err));
    VS_TRY(fc_load(&in, opts, policy, err));
    f = velstatus__calloc(list->ctx, 1, sizeof(*f));
    if (!f)
        return velstatus__error_nomem(err);
    f->ctx = list->ctx;
    f->phase = f->final_phase = in.o.phase;
    f->nops = velstatus_oplist_count(list);
    f->ops = velstatus__calloc(list->ctx, f->nops > 0 ? f->nops : 1, sizeof(*f->ops));
    st = !f->ops ? velstatus__error_nomem(err) : velstatus__oplist_clone_state(&sim, list, err);
    for (i = 0; st == VELSTATUS_OK && i < f->nops; i++)
        classify(&f->ops[i], velstatus_oplist_at(list, i), &in);
    if (st == VELSTATUS_OK)
        st = timeline(f, list, sim, &in, dm, err);
    velstatus_oplist_free(sim);
    if (st != VELSTATUS_OK) {
        velstatus_forecast_free(f);
        return st;
    }
    *out = f;
    return VELSTATUS_OK;
}

velstatus_status velstatus_forecast_new(velstatus_forecast **out, const velstatus_oplist *list,
                                        const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                        velstatus_error *err)
{
    return velstatus__forecast_run(out, list, opts, policy, NULL, err);
}

/* ---- getters ---- */

size_t velstatus_forecast_event_count(const velstatus_forecast *f)
{
    return f ? f->nev : 0;
}

int velstatus_forecast_event_time(const velstatus_forecast *f, size_t i, int64_t *ns)
{
    int ok = f && i < f->nev;
    return velstatus__i64_out(ns, ok, ok ? f->ev[i].at : 0);
}

const velstatus_reconcile_result *velstatus_forecast_event_result(const velstatus_forecast *f, size_t i)
{
    return f && i < f->nev ? f->ev[i].r : NULL;
}

velstatus_phase velstatus_forecast_phase(const velstatus_forecast *f)
{
    return f ? f->phase : VELSTATUS_PHASE_INVALID;
}

velstatus_phase velstatus_forecast_final_phase(const velstatus_forecast *f)
{
    return f ? f->final_phase : VELSTATUS_PHASE_INVALID;
}

velstatus_forecast_end velstatus_forecast_end_kind(const velstatus_forecast *f)
{
    return f ? f->end : VELSTATUS_FORECAST_END_INVALID;
}

size_t velstatus_forecast_op_count(const velstatus_forecast *f)
{
    return f ? f->nops : 0;
}

static const fc_op *op_at(const velstatus_forecast *f, size_t i)
{
    return f && i < f->nops ? &f->ops[i] : NULL;
}

velstatus_forecast_fate velstatus_forecast_op_fate(const velstatus_forecast *f, size_t i)
{
    const fc_op *o = op_at(f, i);
    return o ? (velstatus_forecast_fate)o->fate : VELSTATUS_FORECAST_FATE_INVALID;
}

size_t velstatus_forecast_op_event(const velstatus_forecast *f, size_t i)
{
    const fc_op *o = op_at(f, i);
    return o ? o->event : SIZE_MAX;
}

int velstatus_forecast_op_deadline(const velstatus_forecast *f, size_t i, int64_t *ns)
{
    const fc_op *o = op_at(f, i);
    return velstatus__i64_out(ns, o && o->has_deadline, o ? o->deadline : 0);
}

int velstatus_forecast_op_finish(const velstatus_forecast *f, size_t i, int64_t *ns)
{
    const fc_op *o = op_at(f, i);
    return velstatus__i64_out(ns, o && o->has_finish, o ? o->finish : 0);
}

velstatus_forecast_eta velstatus_forecast_op_eta(const velstatus_forecast *f, size_t i)
{
    const fc_op *o = op_at(f, i);
    return o ? (velstatus_forecast_eta)o->eta : VELSTATUS_FORECAST_ETA_INVALID;
}
