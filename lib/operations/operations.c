/* SPDX-License-Identifier: Apache-2.0 */
/* The item-operation state machine: the per-operation step (doc/velero-behaviour.md
 * §2.4) and the whole-list driver (§2.5-§2.7). Pure: `now` is an argument,
 * the plugins are reached through the host's vtable. */
#include <string.h>

#include "operations/private.h"
#include "common/util_arith.h"
#include "common/util_array.h"

static const char timed_out[] = "Asynchronous action timed out";

/* ------------------------------------------------------------------------ */
/* Small helpers                                                              */
/* ------------------------------------------------------------------------ */

static int64_t floor_sec(int64_t ns)
{
    int64_t s = ns / 1000000000;
    if (ns % 1000000000 < 0)
        s--;
    return s;
}

/* wrapErrMsg: `msg, plugin: NAME` (`plugin: NAME` for an empty msg); NAME is
 * prefix (or nothing) then plugin, or "unknown" for a NULL plugin. */
static void wrap_into(velstatus__buf *b, const char *msg, size_t msg_len, const char *prefix, const char *plugin,
                      size_t plugin_len)
{
    if (msg_len > 0) {
        velstatus__buf_append(b, msg, msg_len);
        velstatus__buf_puts(b, ", ");
    }
    velstatus__buf_puts(b, "plugin: ");
    if (prefix)
        velstatus__buf_puts(b, prefix);
    if (!plugin)
        velstatus__buf_puts(b, "unknown");
    else
        velstatus__buf_append(b, plugin, plugin_len);
}

velstatus_status velstatus_op_wrap_error(char **out, size_t *out_len, velstatus_ctx *ctx, const char *msg,
                                         size_t msg_len, const char *plugin, size_t plugin_len, velstatus_error *err)
{
    velstatus__buf b;
    msg_len = velstatus__text_len(msg, msg_len);
    plugin_len = velstatus__text_len(plugin, plugin_len);
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    if (!msg && msg_len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "msg is NULL with length %zu", msg_len);
    velstatus__buf_init(&b, ctx);
    wrap_into(&b, msg, msg_len, NULL, plugin, plugin ? plugin_len : 0);
    return velstatus__buf_finish(&b, out, out_len, err);
}

void velstatus_op_progress_init(velstatus_op_progress *progress, size_t struct_size)
{
    velstatus__sized_init(progress, struct_size, NULL, sizeof(*progress));
}

void velstatus_plugin_client_init(velstatus_plugin_client *client, size_t struct_size)
{
    velstatus__sized_init(client, struct_size, NULL, sizeof(*client));
}

void velstatus_reconcile_options_init(velstatus_reconcile_options *opts, size_t struct_size)
{
    velstatus_reconcile_options d;
    memset(&d, 0, sizeof(d));
    d.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    d.bsl = VELSTATUS_BSL_AVAILABLE;
    d.timeout_ns = INT64_C(4) * 3600 * 1000000000;
    velstatus__sized_init(opts, struct_size, &d, sizeof(d));
}

/* An exact reported time (has_started_sec): nanoseconds in [0, 1e9), seconds
 * within what RFC 3339 text can say (0000-01-01T00:00:00+24:60 to
 * 9999-12-31T23:59:59-24:60, as velstatus_time_parse_sec() reads). */
#define EXACT_SEC_MIN INT64_C(-62167309200)
#define EXACT_SEC_MAX INT64_C(253402390799)
static inline int exact_ok(int has, int64_t sec, int32_t nsec)
{
    return !has || (nsec >= 0 && nsec < 1000000000 && sec >= EXACT_SEC_MIN && sec <= EXACT_SEC_MAX);
}

/* A report valid as it stands (this library's struct size), checked without
 * copying it: the common case. */
static inline int report_ok(const velstatus_op_progress *p)
{
    return p->struct_size == sizeof(*p) && p->flags == 0 && p->report <= VELSTATUS_OP_REPORT_LOOKUP_ERROR &&
           exact_ok(p->has_started_sec, p->started_sec, p->started_nsec) &&
           exact_ok(p->has_updated_sec, p->updated_sec, p->updated_nsec) && (p->err || p->err_len == 0) &&
           (p->operation_units || p->operation_units_len == 0) && (p->description || p->description_len == 0) &&
           (p->plugin_name || p->plugin_name_len == 0) && p->err_len <= UINT32_MAX &&
           p->operation_units_len <= UINT32_MAX && p->description_len <= UINT32_MAX && p->plugin_name_len <= UINT32_MAX;
}

/* A report is checked and copied into a local struct of this library's size. */
static velstatus_status load_report(velstatus_op_progress *dst, const velstatus_op_progress *src, velstatus_error *err)
{
    velstatus_status st = velstatus__sized_copy(dst, sizeof(*dst), VS_OP_PROGRESS_SIZE_V1, src, "progress", err);
    if (st != VELSTATUS_OK)
        return st;
    if (dst->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "progress.flags must be 0");
    if (dst->report > VELSTATUS_OP_REPORT_LOOKUP_ERROR)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "progress.report %u is not a velstatus_op_report_kind",
                                    (unsigned)dst->report);
    if ((!dst->err && dst->err_len > 0) || (!dst->operation_units && dst->operation_units_len > 0) ||
        (!dst->description && dst->description_len > 0) || (!dst->plugin_name && dst->plugin_name_len > 0))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "progress: a text is NULL with a non-zero length");
    if (dst->err_len > UINT32_MAX || dst->operation_units_len > UINT32_MAX || dst->description_len > UINT32_MAX ||
        dst->plugin_name_len > UINT32_MAX)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "progress: a text is longer than 4 GiB");
    if (!exact_ok(dst->has_started_sec, dst->started_sec, dst->started_nsec))
        return velstatus__error_set(err, VELSTATUS_E_RANGE,
                                    "progress.started_sec/started_nsec: not an instant of years 0000 to 9999");
    if (!exact_ok(dst->has_updated_sec, dst->updated_sec, dst->updated_nsec))
        return velstatus__error_set(err, VELSTATUS_E_RANGE,
                                    "progress.updated_sec/updated_nsec: not an instant of years 0000 to 9999");
    return VELSTATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* The step's pieces: times, texts and the plan it applies                 */
/* ------------------------------------------------------------------------ */

static inline int t_nonnil(uint8_t s)
{
    return s == VS__T_ZERO || s == VS__T_LOCAL || s == VS__T_UTC;
}

#define t_has velstatus__t_has

/* doc/velero-behaviour.md §2.4 step 4 for one of started/updated. */
static inline int time_update(const velstatus_policy *pol, uint8_t *state, int64_t *t, uint8_t *wide, int i, int has,
                              int64_t ns)
{
    if (has && ns == 0 && pol->unix_epoch_is_unknown)
        has = 0;
    if (pol->compare_times_by_instant) {
        int64_t sec;
        int32_t nsec;
        if (!has)
            return 0; /* zero after anything: ignored */
        vs__time_exact(t, *wide, i, &sec, &nsec);
        if (t_has(*state) && sec == floor_sec(ns))
            return 0;
    } else {
        int differs;
        if (!t_nonnil(*state)) {
            if (!has)
                return 0;
            differs = 1;
        } else if (*state == VS__T_ZERO) {
            differs = has;
        } else if (*state == VS__T_LOCAL) {
            differs = 1; /* Local zone vs UTC: Go struct inequality */
        } else {
            differs = !has || t[i] != ns; /* a UTC time is always nanoseconds */
        }
        if (!differs)
            return 0;
    }
    *state = has ? VS__T_UTC : VS__T_ZERO;
    vs__time_set_ns(t, wide, i, has ? ns : 0);
    return 1;
}

/* Go's zero time.Time, 0001-01-01T00:00:00Z, in seconds since the epoch. */
#define GO_ZERO_SEC INT64_C(-62135596800)

/* Step 4 for a time the plugin reported exactly (has_started_sec): inside
 * the nanosecond range it is the nanosecond case; outside, Go's zero time is
 * the zero time and any other instant is held as its whole second, so two
 * reports that differ only in their fraction there are the same time. */
static int time_update_exact(const velstatus_policy *pol, uint8_t *state, int64_t *t, uint8_t *wide, int i, int64_t sec,
                             int32_t nsec)
{
    int64_t ns, held;
    int32_t hnsec;
    if (velstatus__time_to_ns(sec, nsec, &ns))
        return time_update(pol, state, t, wide, i, 1, ns);
    if (sec == GO_ZERO_SEC && nsec == 0)
        return time_update(pol, state, t, wide, i, 0, 0);
    vs__time_exact(t, *wide, i, &held, &hnsec);
    if (pol->compare_times_by_instant ? t_has(*state) && held == sec
                                      : *state == VS__T_UTC && (*wide >> i & 1) && held == sec)
        return 0;
    *state = VS__T_UTC;
    vs__time_set_exact(t, wide, i, sec, nsec);
    return 1;
}

/* Step 4 for started (i = VELSTATUS_OP_TIME_STARTED) or updated, in whichever
 * form the report gives it. */
static inline int report_time(const velstatus_policy *pol, vs__op_hot *h, int i, int has, int64_t ns, int has_sec,
                              int64_t sec, int32_t nsec)
{
    if (has_sec)
        return time_update_exact(pol, &h->tstate[i], h->t, &h->twide, i, sec, nsec);
    return time_update(pol, &h->tstate[i], h->t, &h->twide, i, has, ns);
}

/* A pending string change: in place, or a fresh pool copy. */
typedef struct pend {
    vs__str *dst;
    const char *src;
    size_t len;
    const char *fresh; /* the list's shared copy, or a pool copy when the text does not fit in place */
} pend;

static inline uint64_t load64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint32_t load32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* memcmp(a, b, n) == 0 without a library call for the short texts of a
 * progress report (units, description): two overlapping loads cover 4..16
 * bytes, three byte reads 1..3. Never reads outside [p, p + n). */
static inline int bytes_eq(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        if (n > 16)
            return memcmp(a, b, n) == 0;
        return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
    }
    if (n >= 4)
        return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* Lengths first; then the same pointer (a host answering with the stored
 * text); the bytes last. */
static inline int str_eq(const vs__str *a, const char *p, size_t n)
{
    return a->len == n && (a->p == p || bytes_eq(a->p, p, n));
}

/* Everything the step decided, applied only once every allocation succeeded.
 * `msg` is initialised by plan_message() only (valid when has_msg): the
 * steady step never touches it. */
typedef struct plan {
    pend strs[3];
    int nstrs;
    velstatus__buf msg;
    int has_msg;
} plan;

static void plan_str(plan *pl, vs__str *dst, const char *src, size_t len)
{
    pend *p = &pl->strs[pl->nstrs++];
    p->dst = dst;
    p->src = src;
    p->len = len;
    p->fresh = NULL;
}

/* Allocates what the plan needs; the record is still untouched. */
static velstatus_status plan_alloc(velstatus_oplist *l, plan *pl, velstatus_error *err)
{
    int i;
    for (i = 0; i < pl->nstrs; i++) {
        pend *p = &pl->strs[i];
        velstatus_status st = velstatus__oplist_shared(l, p->src, p->len, &p->fresh, err);
        if (st != VELSTATUS_OK)
            return st;
        if (!p->fresh && p->len > 0 &&
            (p->len > p->dst->len || p->dst->p == velstatus__empty || velstatus__oplist_is_shared(l, p->dst))) {
            p->fresh = velstatus__pool_str(&l->pool, p->src, p->len);
            if (!p->fresh)
                return velstatus__error_nomem(err);
        }
    }
    if (pl->has_msg && pl->msg.failed)
        return velstatus__error_nomem(err);
    return VELSTATUS_OK;
}

static void plan_commit(velstatus_oplist *l, plan *pl)
{
    int i;
    for (i = 0; i < pl->nstrs; i++) {
        pend *p = &pl->strs[i];
        if (p->fresh) {
            p->dst->p = p->fresh;
            p->dst->len = (uint32_t)p->len;
        } else {
            /* fits in place (or empty): cannot fail */
            (void)velstatus__oplist_set_str(l, p->dst, p->src, p->len, NULL);
        }
    }
}

/* The message Velero records in `errs` for a newly failed operation. `name`
 * is the plugin's own Name() when the report gives one (NULL: the name the
 * plugin manager registered the record's action under). */
static void plan_message(plan *pl, velstatus_ctx *ctx, velstatus_kind kind, const velstatus_policy *pol,
                         const velstatus_op *op, const char *text, size_t len, int lookup,
                         const velstatus_op_progress *r)
{
    const vs__str *act = &op->c->s[VELSTATUS_OP_FIELD_ITEM_ACTION];
    pl->has_msg = 1;
    velstatus__buf_init(&pl->msg, ctx);
    if (kind == VELSTATUS_KIND_RESTORE ? !pol->restore_error_plugin_suffix : !pol->backup_error_plugin_suffix)
        velstatus__buf_append(&pl->msg, text, len);
    else if (lookup)
        wrap_into(&pl->msg, text, len, NULL, NULL, 0);
    else if (r && r->plugin_name) /* bia.Name() as the plugin answers it */
        wrap_into(&pl->msg, text, len, NULL, r->plugin_name, r->plugin_name_len);
    else /* bia.Name(): the name the plugin manager registered the action under */
        wrap_into(&pl->msg, text, len, velstatus__plugin_name_prefix(act->p, act->len), act->p, act->len);
    velstatus__buf_putc(&pl->msg, '\0'); /* ensures an allocation even for "" */
    pl->msg.len--;
}

/* ------------------------------------------------------------------------ */
/* The step, as named steps. Velero's getBackupItemOperationProgress
 * (pkg/controller/backup_operations_controller.go) and
 * getRestoreItemOperationProgress (restore_operations_controller.go) run
 * this for every operation of the list; each step_* function below is one
 * part of that loop body, named in its comment. The step functions are
 * inlined into step_core (and it into its two callers): a steady step
 * allocates nothing and calls nothing.                                       */
/* ------------------------------------------------------------------------ */

/* The reconcile loop is memory-bound: the step reads a record's hot part
 * (struct vs__op_hot, 96 bytes with the pointer to its cold part, one dense
 * array), and it asks for the record VS__PREFETCH_AHEAD places ahead (its
 * first and last bytes: every cache line it spans) while it decides this
 * one. 16 ahead measured best on 272-byte records (8 and 32 as good, 4
 * worse); on the hot array the prefetch still takes the steady pass from
 * 25.5 to 21 ns per operation on 100,000 records (bench/README.md). */
#define VS__PREFETCH_AHEAD 16
#if defined(__GNUC__)
#define VS__PREFETCH(p) __builtin_prefetch(p)
#else
#define VS__PREFETCH(p) ((void)(p))
#endif

#if defined(__GNUC__)
#define VS__ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define VS__ALWAYS_INLINE inline
#endif

enum { VS__NO_MOVE = 0xff };

/* One step's decision: taken in the record's hot part itself, with a copy
 * of it that step_commit() puts back when what the decision needs cannot
 * be allocated (the strings and the message are applied only after that).
 * Working in place, not on a copy written back, spares the write-back's
 * wide loads of fields just stored one by one (a store-forwarding stall:
 * first pass 60 -> 30 ns per operation, bench/README.md). */
typedef struct step_work {
    vs__op_hot *h;    /* the record's hot part, as decided so far */
    vs__op_hot saved; /* the hot part as the step found it */
    uint8_t next;     /* the phase to move to, or VS__NO_MOVE */
    uint32_t flags;
    const char *fail_text; /* non-NULL: the operation fails with this error */
    size_t fail_len;
    int fail_lookup; /* the plugin was not found: no plugin name in the message */
    int completed;   /* the plugin reported completion without an error */
    plan pl;
} step_work;

/* An unknown phase with unknown_phase_fails: the operation fails with
 * "unknown operation phase %q" (Velero skips it). */
static VS__ALWAYS_INLINE velstatus_status step_unknown_phase(uint32_t *flags_out, velstatus__buf *msg_out,
                                                             velstatus_oplist *l, velstatus_op *op,
                                                             const velstatus_policy *pol, velstatus_error *err)
{
    velstatus__buf t;
    const vs__str *ph = vs__op_text(op, VELSTATUS_OP_FIELD_PHASE);
    plan pl;
    velstatus_status st;
    pl.nstrs = 0;
    velstatus__buf_init(&t, l->ctx);
    velstatus__buf_puts(&t, "unknown operation phase ");
    velstatus__go_quote_pol(&t, NULL, ph->p, ph->len, pol);
    if (t.failed) {
        velstatus__buf_reset(&t);
        return velstatus__error_nomem(err);
    }
    plan_str(&pl, &op->c->s[VELSTATUS_OP_FIELD_ERROR], t.p, t.len);
    plan_message(&pl, l->ctx, l->kind, pol, op, t.p, t.len, 0, NULL);
    st = plan_alloc(l, &pl, err);
    if (st == VELSTATUS_OK)
        plan_commit(l, &pl);
    velstatus__buf_reset(&t);
    if (st != VELSTATUS_OK) {
        velstatus__buf_reset(&pl.msg);
        return st;
    }
    velstatus__op_set_phase(op, VELSTATUS_OP_PHASE_FAILED);
    *flags_out = VELSTATUS_OP_STEP_UNKNOWN_PHASE | VELSTATUS_OP_STEP_CHANGED | VELSTATUS_OP_STEP_FAILED_NOW |
                 VELSTATUS_OP_STEP_COUNT_FAILED;
    *msg_out = pl.msg;
    return VELSTATUS_OK;
}

/* A record that is not New or InProgress: Velero's `else if` branches count
 * Completed and Failed and skip anything else. */
static VS__ALWAYS_INLINE velstatus_status step_settled(uint32_t *flags_out, velstatus__buf *msg_out,
                                                       velstatus_oplist *l, velstatus_op *op,
                                                       const velstatus_policy *pol, velstatus_error *err)
{
    if (op->h.phase == VELSTATUS_OP_PHASE_COMPLETED) {
        *flags_out = VELSTATUS_OP_STEP_COUNT_COMPLETED;
        return VELSTATUS_OK;
    }
    if (op->h.phase == VELSTATUS_OP_PHASE_FAILED) {
        *flags_out = VELSTATUS_OP_STEP_COUNT_FAILED;
        return VELSTATUS_OK;
    }
    if (!pol->unknown_phase_fails) {
        *flags_out = VELSTATUS_OP_STEP_UNKNOWN_PHASE;
        return VELSTATUS_OK;
    }
    return step_unknown_phase(flags_out, msg_out, l, op, pol, err);
}

static VS__ALWAYS_INLINE void step_begin(step_work *w, velstatus_op *op)
{
    w->h = &op->h;
    w->saved = op->h;
    w->next = VS__NO_MOVE;
    w->flags = 0;
    w->fail_text = NULL;
    w->fail_len = 0;
    w->fail_lookup = 0;
    w->completed = 0;
    w->pl.nstrs = 0;
    w->pl.has_msg = 0;
}

/* GetBackupItemActionV2 / bia.Progress returned an error: Velero fails the
 * operation with err.Error(). progress_error_grace_ns > 0 defers that until
 * the errors have lasted that long. */
static VS__ALWAYS_INLINE void step_error_report(step_work *w, const velstatus_op_progress *r, int64_t now,
                                                const velstatus_policy *pol)
{
    int fail_now = 1;
    if (pol->progress_error_grace_ns > 0) {
        if (!w->h->has_err_since) {
            w->h->has_err_since = 1;
            w->h->err_since = now;
            w->flags |= VELSTATUS_OP_STEP_CHANGED;
        }
        fail_now = velstatus__grace_over(now, w->h->err_since, pol->progress_error_grace_ns);
        if (fail_now)
            w->h->has_err_since = 0;
    }
    if (!fail_now) {
        w->flags |= VELSTATUS_OP_STEP_ERROR_DEFERRED;
        return;
    }
    w->fail_text = r->err ? r->err : velstatus__empty;
    w->fail_len = r->err_len;
    w->fail_lookup = r->report == VELSTATUS_OP_REPORT_LOOKUP_ERROR;
}

/* A string field the report changes: planned, CHANGED. */
static VS__ALWAYS_INLINE void step_copy_text(step_work *w, vs__str *field, const char *s, size_t len)
{
    if (!str_eq(field, s, len)) {
        plan_str(&w->pl, field, s, len);
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    }
}

/* bia.Progress answered: Velero copies NCompleted, NTotal, OperationUnits,
 * Description, Started and Updated where they differ, then handles
 * operationProgress.Completed (failed with its Err, or completed). */
static VS__ALWAYS_INLINE void step_progress_report(step_work *w, velstatus_op *op, const velstatus_op_progress *r,
                                                   const velstatus_policy *pol)
{
    if (w->h->has_err_since) {
        w->h->has_err_since = 0;
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    }
    if (w->h->n_completed != r->n_completed || w->h->n_total != r->n_total) {
        w->h->n_completed = r->n_completed;
        w->h->n_total = r->n_total;
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    }
    step_copy_text(w, &op->h.units, r->operation_units, r->operation_units_len);
    step_copy_text(w, &op->h.desc, r->description, r->description_len);
    if (report_time(pol, w->h, VELSTATUS_OP_TIME_STARTED, r->has_started, r->started_ns, r->has_started_sec,
                    r->started_sec, r->started_nsec))
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    if (report_time(pol, w->h, VELSTATUS_OP_TIME_UPDATED, r->has_updated, r->updated_ns, r->has_updated_sec,
                    r->updated_sec, r->updated_nsec))
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    if (!r->completed)
        return;
    if (r->err_len > 0) {
        w->fail_text = r->err;
        w->fail_len = r->err_len;
    } else {
        w->completed = 1;
    }
}

/* "cancel operation if past timeout period": Created + ItemOperationTimeout
 * before now fails the operation with "Asynchronous action timed out" and
 * asks the plugin to cancel it. A record without Created never times out.
 * The sum is Go's Time.Add on the exact instant, so a created of Go's zero
 * time (year 1) times out at once, as in Velero. */
static VS__ALWAYS_INLINE void step_timeout(step_work *w, int64_t now, int64_t timeout, const velstatus_policy *pol)
{
    int64_t sec;
    int32_t nsec;
    int kind;
    if (w->fail_text || w->completed)
        return;
    vs__time_exact(w->h->t, w->h->twide, VELSTATUS_OP_TIME_CREATED, &sec, &nsec);
    kind = velstatus__op_deadline(t_has(w->h->tstate[VELSTATUS_OP_TIME_CREATED]), sec, nsec, timeout, pol, NULL);
    if (kind == VS__DEADLINE_NO_CREATED) {
        w->flags |= VELSTATUS_OP_STEP_MISSING_CREATED;
        return;
    }
    if (kind == VS__DEADLINE && velstatus__op_times_out(sec, nsec, timeout, now)) {
        w->fail_text = timed_out;
        w->fail_len = sizeof(timed_out) - 1;
        w->flags |= VELSTATUS_OP_STEP_CANCEL;
        w->flags &= ~(uint32_t)VELSTATUS_OP_STEP_ERROR_DEFERRED;
        w->h->has_err_since = 0;
    }
}

/* The next phase: Failed (with the error and the message Velero appends to
 * errs), Completed, or, for a New operation with Started after a progress
 * report, InProgress; "if we reach this point, the operation is still
 * running" otherwise. */
static VS__ALWAYS_INLINE void step_next_phase(step_work *w, velstatus_oplist *l, velstatus_op *op,
                                              const velstatus_op_progress *r, const velstatus_policy *pol)
{
    if (w->fail_text) {
        plan_str(&w->pl, &op->c->s[VELSTATUS_OP_FIELD_ERROR], w->fail_text, w->fail_len);
        plan_message(&w->pl, l->ctx, l->kind, pol, op, w->fail_text, w->fail_len, w->fail_lookup, r);
        w->flags |= VELSTATUS_OP_STEP_CHANGED | VELSTATUS_OP_STEP_FAILED_NOW | VELSTATUS_OP_STEP_COUNT_FAILED;
        w->next = VELSTATUS_OP_PHASE_FAILED;
    } else if (w->completed) {
        w->flags |= VELSTATUS_OP_STEP_CHANGED | VELSTATUS_OP_STEP_COMPLETED_NOW | VELSTATUS_OP_STEP_COUNT_COMPLETED;
        w->next = VELSTATUS_OP_PHASE_COMPLETED;
    } else {
        /* not after an error report: Velero has moved on by then */
        if (r->report == VELSTATUS_OP_REPORT_PROGRESS && w->h->phase == VELSTATUS_OP_PHASE_NEW &&
            t_nonnil(w->h->tstate[VELSTATUS_OP_TIME_STARTED])) {
            w->flags |= VELSTATUS_OP_STEP_CHANGED;
            w->next = VELSTATUS_OP_PHASE_IN_PROGRESS;
        }
        w->flags |= VELSTATUS_OP_STEP_IN_PROGRESS;
    }
}

/* Completes the decision (Velero's assignments to operation.Status) once
 * what it needs is allocated; on failure the record is as it was. */
static velstatus_status step_commit(step_work *w, velstatus_oplist *l, velstatus_op *op, velstatus_error *err)
{
    velstatus_status st = plan_alloc(l, &w->pl, err);
    if (st != VELSTATUS_OK) {
        op->h = w->saved;
        if (w->pl.has_msg)
            velstatus__buf_reset(&w->pl.msg);
        return st;
    }
    /* nothing below can fail */
    plan_commit(l, &w->pl);
    if (w->next != VS__NO_MOVE)
        velstatus__op_set_phase(op, (velstatus_op_phase)w->next);
    return VELSTATUS_OK;
}

/* The step on a validated report (NULL for records that need none). Inlined
 * into its two callers, velstatus_oplist_step and the reconcile loop: the
 * call itself (nine arguments, six saved registers) was a sixth of a steady
 * step. */
static VS__ALWAYS_INLINE velstatus_status step_core(uint32_t *flags_out, velstatus__buf *msg_out, velstatus_oplist *l,
                                                    size_t index, const velstatus_op_progress *r, int64_t now,
                                                    int64_t timeout, const velstatus_policy *pol, velstatus_error *err)
{
    velstatus_op *op = &l->ops[index];
    step_work w;
    velstatus_status st;
    if (!velstatus__op_phase_running((velstatus_op_phase)op->h.phase))
        return step_settled(flags_out, msg_out, l, op, pol, err);
    step_begin(&w, op);
    if (r->report != VELSTATUS_OP_REPORT_PROGRESS)
        step_error_report(&w, r, now, pol);
    else
        step_progress_report(&w, op, r, pol);
    step_timeout(&w, now, timeout, pol);
    step_next_phase(&w, l, op, r, pol);
    if (!(w.flags & VELSTATUS_OP_STEP_CHANGED)) {
        /* The steady state: nothing to allocate (a string or a message
         * always comes with CHANGED), `w` equals the record. */
        *flags_out = w.flags;
        return VELSTATUS_OK;
    }
    st = step_commit(&w, l, op, err);
    if (st != VELSTATUS_OK)
        return st;
    *flags_out = w.flags;
    if (w.pl.has_msg)
        *msg_out = w.pl.msg;
    return VELSTATUS_OK;
}

/* A policy or report of another struct size (or an invalid one): copied
 * into *pol / *r, of this library's size, and *policy / *report pointed at
 * them. Kept out of line: the common path validates in place. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static velstatus_status
step_load(velstatus_policy *pol, velstatus_op_progress *r, const velstatus_policy **policy,
          const velstatus_op_progress **report, const velstatus_oplist *list, size_t index, velstatus_error *err)
{
    velstatus_status st;
    const velstatus_op *op = &list->ops[index];
    if (!*policy || (*policy)->struct_size != sizeof(*pol)) {
        st = velstatus__policy_load(pol, *policy, err);
        if (st != VELSTATUS_OK)
            return st;
        *policy = pol;
    }
    if (!*report && velstatus__op_phase_running((velstatus_op_phase)op->h.phase))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "report is NULL but operation %zu is %s and needs one",
                                    index, vs__op_text(op, VELSTATUS_OP_FIELD_PHASE)->p);
    if (*report && !report_ok(*report)) {
        st = load_report(r, *report, err);
        if (st != VELSTATUS_OK)
            return st;
        *report = r;
    }
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_step(uint32_t *flags, char **message, size_t *message_len, velstatus_oplist *list,
                                       size_t index, const velstatus_op_progress *report, int64_t now_ns,
                                       int64_t timeout_ns, const velstatus_policy *policy, velstatus_error *err)
{
    static const velstatus_op_progress missing; /* marks a NULL report that is needed */
    velstatus_policy pol;
    velstatus_op_progress r;
    velstatus__buf msg;
    velstatus_status st;
    uint32_t f = 0;
    const velstatus_op *op;
    if (!flags || !list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !flags ? "flags" : "list");
    if (index >= list->n)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "index %zu is out of range (the list has %zu records)",
                                    index, list->n);
    op = &list->ops[index];
    if (!velstatus__op_phase_running((velstatus_op_phase)op->h.phase))
        report = NULL; /* not consulted, not checked */
    else if (!report)
        report = &missing; /* step_load() reports it, after the policy as before */
    msg.p = NULL;
    if (!policy || policy->struct_size != sizeof(*policy) || report == &missing || (report && !report_ok(report))) {
        if (report == &missing)
            report = NULL;
        st = step_load(&pol, &r, &policy, &report, list, index, err);
        if (st != VELSTATUS_OK)
            return st;
    }
    st = step_core(&f, &msg, list, index, report, now_ns, timeout_ns, policy, err);
    if (st != VELSTATUS_OK)
        return st;
    *flags = f;
    if (message) {
        *message = msg.p; /* NULL when no message */
        if (message_len)
            *message_len = msg.p ? msg.len : 0;
        return VELSTATUS_OK;
    }
    if (message_len)
        *message_len = msg.p ? msg.len : 0;
    if (msg.p)
        velstatus__buf_reset(&msg);
    return VELSTATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* Replies                                                                    */
/* ------------------------------------------------------------------------ */


/* Forgets the answer; keeps the text buffers for the next call. `p` is
 * read only when `set`, and both setters write all of it. */
static void reply_clear(velstatus_op_reply *rp)
{
    rp->set = 0;
    rp->oom = 0;
}

static void reply_release(velstatus_op_reply *rp)
{
    int i;
    for (i = 0; i < 4; i++) {
        velstatus__free(rp->ctx, rp->text[i]);
        rp->text[i] = NULL;
        rp->cap[i] = 0;
    }
}

/* Copies s into text slot k (growing it), NUL-terminated. */
static inline const char *reply_text(velstatus_op_reply *rp, int k, const char *s, size_t len)
{
    if (len + 1 > rp->cap[k]) {
        size_t cap = len + 1 < 64 ? 64 : len + 1;
        char *t = velstatus__realloc(rp->ctx, rp->text[k], cap);
        if (!t)
            return NULL;
        rp->text[k] = t;
        rp->cap[k] = cap;
    }
    if (len > 0)
        memcpy(rp->text[k], s, len);
    rp->text[k][len] = '\0';
    return rp->text[k];
}

velstatus_status velstatus_op_reply_set_progress(velstatus_op_reply *reply, const velstatus_op_progress *progress,
                                                 velstatus_error *err)
{
    velstatus_op_progress r;
    velstatus_status st;
    const char *t0, *t1, *t2, *t3;
    if (!reply || !progress)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !reply ? "reply" : "progress");
    if (reply->is_cancel)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "this is a cancel reply: use velstatus_op_reply_set_cancel_error()");
    if (!report_ok(progress)) { /* else the common case: used in place */
        st = load_report(&r, progress, err);
        if (st != VELSTATUS_OK)
            return st;
        progress = &r;
    }
    reply->set = 0; /* unanswered until every text is copied */
    t0 = reply_text(reply, 0, progress->err, progress->err_len);
    t1 = t0 ? reply_text(reply, 1, progress->operation_units, progress->operation_units_len) : NULL;
    t2 = t1 ? reply_text(reply, 2, progress->description, progress->description_len) : NULL;
    t3 = t2 && progress->plugin_name ? reply_text(reply, 3, progress->plugin_name, progress->plugin_name_len) : NULL;
    if (!t2 || (progress->plugin_name && !t3)) {
        reply->oom = 1;
        return velstatus__error_nomem(err);
    }
    reply->p = *progress;
    reply->p.err = t0;
    reply->p.operation_units = t1;
    reply->p.description = t2;
    reply->p.plugin_name = t3; /* NULL stays NULL: the registered name */
    reply->set = 1;
    return VELSTATUS_OK;
}

velstatus_status velstatus_op_reply_set_cancel_error(velstatus_op_reply *reply, const char *msg, size_t len,
                                                     velstatus_error *err)
{
    const char *t;
    VS_TRY(velstatus__obj_text_args(reply, "reply", msg, &len, "msg", err));
    if (!reply->is_cancel)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "this is a progress reply: use velstatus_op_reply_set_progress()");
    reply->set = 0;
    t = reply_text(reply, 0, msg, len);
    if (!t) {
        reply->oom = 1;
        return velstatus__error_nomem(err);
    }
    memset(&reply->p, 0, sizeof(reply->p));
    reply->p.err = t;
    reply->p.err_len = len;
    reply->set = 1;
    return VELSTATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct vs__canceled {
    size_t index;
    char *id;
    size_t id_len;
    char *cancel_err; /* NULL: nil, or not reported */
    size_t cancel_err_len;
} vs__canceled;

/* An error message the result owns. */
typedef struct vs__error_text {
    char *p;
    size_t len;
} vs__error_text;

enum { VS__NFLAGS = 10 };

struct velstatus_reconcile_result {
    velstatus_ctx *ctx;
    velstatus_phase phase;
    velstatus_persist_action persist;
    int64_t errors_added;
    int still;
    int changes;
    int requeue;
    /* What velstatus_reconcile_result_after_persist_failure() reads. */
    velstatus_kind kind;
    velstatus_phase phase_before;
    int64_t errors_before;
    int no_store; /* the BSL paths: Velero has no backup store */
    size_t nops;
    size_t completed, failed, in_progress;
    size_t counts[VS__NFLAGS];
    vs__error_text *errs;
    size_t nerr, caperr;
    vs__canceled *can;
    size_t ncan, capcan;
};

/* The texts a result owns: each new error, each canceled operation's ID and
 * Cancel() error. */
static void result_free_texts(velstatus_reconcile_result *r)
{
    for (size_t i = 0; i < r->nerr; i++)
        velstatus__free(r->ctx, r->errs[i].p);
    for (size_t i = 0; i < r->ncan; i++) {
        velstatus__free(r->ctx, r->can[i].id);
        velstatus__free(r->ctx, r->can[i].cancel_err);
    }
}

void velstatus_reconcile_result_free(velstatus_reconcile_result *r)
{
    if (!r)
        return;
    result_free_texts(r);
    velstatus__free(r->ctx, r->errs);
    velstatus__free(r->ctx, r->can);
    velstatus__free(r->ctx, r);
}

/* Takes ownership of s (freed on failure). */
static velstatus_status result_add_error(velstatus_reconcile_result *r, char *s, size_t len, velstatus_error *err)
{
    if (VS_ARRAY_RESERVE(r->ctx, r->errs, r->caperr, r->nerr + 1, 8)) {
        velstatus__free(r->ctx, s);
        return velstatus__error_nomem(err);
    }
    r->errs[r->nerr].p = s;
    r->errs[r->nerr].len = len;
    r->nerr++;
    return VELSTATUS_OK;
}

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_phase, velstatus_phase, phase, VELSTATUS_PHASE_INVALID)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_persist, velstatus_persist_action, persist,
          VELSTATUS_PERSIST_INVALID)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_errors_added, int64_t, errors_added, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_still_in_progress, int, still, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_changes, int, changes, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_requeue, int, requeue, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_completed, size_t, completed, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_failed, size_t, failed, 0)

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_in_progress, size_t, in_progress, 0)

size_t velstatus_reconcile_result_count(const velstatus_reconcile_result *r, velstatus_op_step_flag flag)
{
    unsigned f = (unsigned)flag;
    int bit;
    if (!r || f == 0 || (f & (f - 1)) != 0)
        return 0;
    for (bit = 0; bit < VS__NFLAGS; bit++)
        if (f == (1u << bit))
            return r->counts[bit];
    return 0;
}

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_error_count, size_t, nerr, 0)

const char *velstatus_reconcile_result_error(const velstatus_reconcile_result *r, size_t i, size_t *len)
{
    if (!r || i >= r->nerr)
        return velstatus__text_out(NULL, 0, len);
    return velstatus__text_out(r->errs[i].p, r->errs[i].len, len);
}

VS_GETTER(velstatus_reconcile_result, velstatus_reconcile_result_canceled_count, size_t, ncan, 0)

size_t velstatus_reconcile_result_canceled_index(const velstatus_reconcile_result *r, size_t i)
{
    return (r && i < r->ncan) ? r->can[i].index : SIZE_MAX;
}

const char *velstatus_reconcile_result_canceled_id(const velstatus_reconcile_result *r, size_t i, size_t *len)
{
    if (!r || i >= r->ncan)
        return velstatus__text_out(NULL, 0, len);
    return velstatus__text_out(r->can[i].id, r->can[i].id_len, len);
}

const char *velstatus_reconcile_result_cancel_error(const velstatus_reconcile_result *r, size_t i, size_t *len)
{
    if (!r || i >= r->ncan)
        return velstatus__text_out(NULL, 0, len);
    return velstatus__text_out(r->can[i].cancel_err, r->can[i].cancel_err_len, len);
}

/* ------------------------------------------------------------------------ */
/* The driver                                                                 */
/* ------------------------------------------------------------------------ */

/* Index of the lowest set bit of a non-zero f. */
static inline int low_bit(uint32_t f)
{
#if defined(__GNUC__)
    return __builtin_ctz(f);
#else
    int bit = 0;
    while (!(f & 1u)) {
        f >>= 1;
        bit++;
    }
    return bit;
#endif
}

/* Per operation: one increment per set flag (one or two in practice). */
static inline void count_flags(velstatus_reconcile_result *r, uint32_t f)
{
    f &= (1u << VS__NFLAGS) - 1;
    while (f != 0) {
        r->counts[low_bit(f)]++;
        f &= f - 1;
    }
}

/* The totals, from the per-flag counts, once per pass; `still` is
 * stillInProgress of getBackupItemOperationProgress. */
static void count_totals(velstatus_reconcile_result *r)
{
    r->completed = r->counts[low_bit(VELSTATUS_OP_STEP_COUNT_COMPLETED)];
    r->failed = r->counts[low_bit(VELSTATUS_OP_STEP_COUNT_FAILED)];
    r->in_progress = r->counts[low_bit(VELSTATUS_OP_STEP_IN_PROGRESS)];
    r->changes = r->counts[low_bit(VELSTATUS_OP_STEP_CHANGED)] > 0;
    r->still = r->in_progress > 0;
}

/* Velero's lookup error for a record whose plugin cannot be obtained. */
static velstatus_status lookup_text(velstatus__buf *b, velstatus_kind kind, const velstatus_op *op,
                                    const velstatus_policy *pol)
{
    const vs__str *a = &op->c->s[VELSTATUS_OP_FIELD_ITEM_ACTION];
    b->len = 0;
    velstatus__buf_puts(b, kind == VELSTATUS_KIND_RESTORE ? "unable to get valid RestoreItemActionV2 for "
                                                          : "unable to get valid BackupItemActionV2 for ");
    velstatus__go_quote_pol(b, velstatus__plugin_name_prefix(a->p, a->len), a->p, a->len, pol);
    return b->failed ? VELSTATUS_E_NOMEM : VELSTATUS_OK;
}

static velstatus_status record_cancel(velstatus_reconcile_result *r, const velstatus_oplist *l, size_t index,
                                      const velstatus_op_reply *rp, int report, velstatus_error *err)
{
    const vs__str *id = &l->ops[index].c->s[VELSTATUS_OP_FIELD_OPERATION_ID];
    vs__canceled *c = velstatus__array_reserve(r->ctx, r->can, &r->capcan, r->ncan + 1, sizeof(*c), 4);
    if (!c)
        return velstatus__error_nomem(err);
    r->can = c;
    c = &r->can[r->ncan];
    memset(c, 0, sizeof(*c));
    c->index = index;
    c->id = velstatus__strndup(r->ctx, id->p, id->len);
    if (!c->id)
        return velstatus__error_nomem(err);
    c->id_len = id->len;
    if (report && rp && rp->set) {
        c->cancel_err = velstatus__strndup(r->ctx, rp->p.err ? rp->p.err : "", rp->p.err_len);
        if (!c->cancel_err) {
            velstatus__free(r->ctx, c->id);
            return velstatus__error_nomem(err);
        }
        c->cancel_err_len = rp->p.err_len;
    }
    r->ncan++;
    return VELSTATUS_OK;
}

static velstatus_status bsl_error(velstatus_reconcile_result *r, const velstatus_reconcile_options *o,
                                  const velstatus_policy *pol, velstatus_error *err)
{
    velstatus__buf b;
    char *s;
    size_t n;
    velstatus_status st;
    velstatus__buf_init(&b, r->ctx);
    if (r->kind == VELSTATUS_KIND_RESTORE && o->backup_error) {
        /* fetchBackupInfoInternal: errors.Wrap(err, "can't find backup NS/NAME") */
        velstatus__buf_puts(&b, "can't find backup ");
        velstatus__buf_append(&b, o->velero_namespace ? o->velero_namespace : "velero",
                              o->velero_namespace ? o->velero_namespace_len : 6);
        velstatus__buf_puts(&b, "/");
        velstatus__buf_append(&b, o->backup_name, o->backup_name_len);
        velstatus__buf_puts(&b, ": ");
        velstatus__buf_append(&b, o->backup_error, o->backup_error_len);
    } else if (o->bsl_error) {
        velstatus__buf_append(&b, o->bsl_error, o->bsl_error_len); /* err.Error() as it is */
    } else if (o->bsl == VELSTATUS_BSL_READONLY) {
        velstatus__buf_puts(&b, "BSL is read-only");
    } else {
        velstatus__buf_puts(&b, "backupstoragelocations.velero.io ");
        if (o->bsl_name)
            velstatus__go_quote_pol(&b, NULL, o->bsl_name, o->bsl_name_len, pol);
        else
            velstatus__go_quote_pol(&b, NULL, "default", 7, pol);
        velstatus__buf_puts(&b, " not found");
    }
    st = velstatus__buf_finish(&b, &s, &n, err);
    if (st != VELSTATUS_OK)
        return st;
    return result_add_error(r, s, n, err);
}

/* The BSL-problem path: no plugin call, the list as it stands. */
static velstatus_status reconcile_bsl(velstatus_reconcile_result *r, const velstatus_oplist *l,
                                      const velstatus_reconcile_options *o, const velstatus_policy *pol,
                                      velstatus_error *err)
{
    size_t i;
    for (i = 0; i < l->n; i++) {
        uint32_t f = 0;
        switch (l->ops[i].h.phase) {
        case VELSTATUS_OP_PHASE_COMPLETED: f = VELSTATUS_OP_STEP_COUNT_COMPLETED; break;
        case VELSTATUS_OP_PHASE_FAILED: f = VELSTATUS_OP_STEP_COUNT_FAILED; break;
        case VELSTATUS_OP_PHASE_NEW:
        case VELSTATUS_OP_PHASE_IN_PROGRESS: f = VELSTATUS_OP_STEP_IN_PROGRESS; break;
        default:
            f = VELSTATUS_OP_STEP_UNKNOWN_PHASE | (pol->unknown_phase_fails ? VELSTATUS_OP_STEP_COUNT_FAILED : 0);
            break;
        }
        count_flags(r, f);
    }
    count_totals(r);
    /* A restore goes to the finalizer, which has the last word; before
     * Velero 1.14 (no restore Finalizing) it ended PartiallyFailed here. */
    r->phase = l->kind == VELSTATUS_KIND_RESTORE && pol->restore_finalizing
                   ? VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED
                   : VELSTATUS_PHASE_PARTIALLY_FAILED;
    r->persist = VELSTATUS_PERSIST_PATCH; /* no backup store on this path */
    r->no_store = 1;
    r->errors_added = 0; /* doc/velero-behaviour.md §6.7 */
    /* A failed Get returns its error from Reconcile; a read-only BSL returns nil. */
    r->requeue =
        (l->kind == VELSTATUS_KIND_RESTORE && o->backup_error) || o->bsl_error || o->bsl == VELSTATUS_BSL_MISSING;
    return bsl_error(r, o, pol, err);
}

/* ------------------------------------------------------------------------ */
/* The reconcile, as named steps. Velero's Reconcile of
 * pkg/controller/backup_operations_controller.go (and of
 * restore_operations_controller.go) for a WaitingForPluginOperations*
 * object, and the end of backup_controller.go runBackup / restore_
 * controller.go runValidatedRestore for an InProgress one: validate,
 * ask each plugin (getBackupItemOperationProgress), cancel what timed out,
 * then the next phase and what to persist.                                   */
/* ------------------------------------------------------------------------ */

/* Everything the reconcile reads, validated and of this library's size. */
typedef struct reconcile_in {
    velstatus_reconcile_options o;
    velstatus_plugin_client c;
    velstatus_policy pol;
} reconcile_in;

/* The texts of the options (NULL with a length is E_INVALID) and the lookup
 * errors against the kind, the phase and the BSL state. */
static velstatus_status reconcile_check_lookups(const velstatus_reconcile_options *o, velstatus_kind kind,
                                                velstatus_error *err)
{
    static const char *const names[] = {"bsl_name", "bsl_error", "backup_error", "backup_name", "velero_namespace"};
    const char *const p[] = {o->bsl_name, o->bsl_error, o->backup_error, o->backup_name, o->velero_namespace};
    const size_t n[] = {o->bsl_name_len, o->bsl_error_len, o->backup_error_len, o->backup_name_len,
                        o->velero_namespace_len};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!p[i] && n[i] > 0)
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "options.%s is NULL with a non-zero length",
                                        names[i]);
    if (o->bsl_error && o->bsl != VELSTATUS_BSL_AVAILABLE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "options.bsl_error needs options.bsl available: a failed Get has no %s",
                                    o->bsl == VELSTATUS_BSL_MISSING ? "second error" : "access mode");
    if (o->backup_error && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "options.backup_error is a restore's: a backup's operations never look up "
                                    "another Backup");
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS && (o->bsl_error || o->backup_error))
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "options.%s must be NULL with phase InProgress: a failed lookup fails "
                                    "validation before the run",
                                    o->bsl_error ? "bsl_error" : "backup_error");
    return VELSTATUS_OK;
}

/* The options against the list's kind and phase. */
static velstatus_status reconcile_check_options(const velstatus_reconcile_options *o, velstatus_kind kind,
                                                velstatus_error *err)
{
    if (!velstatus_phase_valid(kind, o->phase))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "options.phase %d is not a %s phase", (int)o->phase,
                                    velstatus_kind_to_string(kind));
    if (o->phase != VELSTATUS_PHASE_IN_PROGRESS && o->phase != VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS &&
        o->phase != VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED)
        return velstatus__error_set(err, VELSTATUS_E_STATE,
                                    "a %s in phase %s has no item operations to reconcile (only InProgress, "
                                    "WaitingForPluginOperations and WaitingForPluginOperationsPartiallyFailed do)",
                                    velstatus_kind_to_string(kind), velstatus_phase_to_string(o->phase));
    if ((int)o->bsl < 0 || (int)o->bsl > (int)VELSTATUS_BSL_READONLY)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "options.bsl %d is not a velstatus_bsl_state",
                                    (int)o->bsl);
    if (o->errors < 0 || o->completed_before < 0 || o->failed_before < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "options.%s is negative",
                                    o->errors < 0             ? "errors"
                                    : o->completed_before < 0 ? "completed_before"
                                                              : "failed_before");
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS && o->bsl != VELSTATUS_BSL_AVAILABLE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "options.bsl must be available with phase InProgress: a missing or read-only "
                                    "BSL fails validation before the run");
    return reconcile_check_lookups(o, kind, err);
}

/* Copies and validates the options, the policy and the client. */
static velstatus_status reconcile_load(reconcile_in *in, const velstatus_oplist *list,
                                       const velstatus_plugin_client *client, const velstatus_reconcile_options *opts,
                                       const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_status st =
        velstatus__sized_copy(&in->o, sizeof(in->o), VS_RECONCILE_OPTIONS_SIZE_V1, opts, "options", err);
    if (st != VELSTATUS_OK)
        return st;
    if (in->o.flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "options.flags must be 0");
    st = velstatus__policy_load(&in->pol, policy, err);
    if (st != VELSTATUS_OK)
        return st;
    in->o.bsl_name_len = velstatus__text_len(in->o.bsl_name, in->o.bsl_name_len);
    in->o.bsl_error_len = velstatus__text_len(in->o.bsl_error, in->o.bsl_error_len);
    in->o.backup_error_len = velstatus__text_len(in->o.backup_error, in->o.backup_error_len);
    in->o.backup_name_len = velstatus__text_len(in->o.backup_name, in->o.backup_name_len);
    in->o.velero_namespace_len = velstatus__text_len(in->o.velero_namespace, in->o.velero_namespace_len);
    st = reconcile_check_options(&in->o, list->kind, err);
    if (st != VELSTATUS_OK)
        return st;
    velstatus_plugin_client_init(&in->c, sizeof(in->c));
    if (!client)
        return VELSTATUS_OK;
    st = velstatus__sized_copy(&in->c, sizeof(in->c), VS_PLUGIN_CLIENT_SIZE_V1, client, "client", err);
    if (st != VELSTATUS_OK)
        return st;
    if (in->c.flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "client.flags must be 0");
    return VELSTATUS_OK;
}

/* Reconcile's BSL check: a missing BSL, or a read-only one for a backup,
 * stops before any plugin is asked (a restore reads from a read-only BSL,
 * except in Velero 1.11: restore_readonly_bsl_fails). */
static int reconcile_bsl_problem(const velstatus_reconcile_options *o, const velstatus_policy *pol, velstatus_kind kind)
{
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS)
        return 0;
    if ((kind == VELSTATUS_KIND_RESTORE && o->backup_error) || o->bsl_error)
        return 1; /* a failed Get, before any access mode is read */
    return o->bsl != VELSTATUS_BSL_AVAILABLE &&
           !(kind == VELSTATUS_KIND_RESTORE && o->bsl == VELSTATUS_BSL_READONLY && !pol->restore_readonly_bsl_fails);
}

/* The per-pass state of the plugin loop. */
typedef struct reconcile_loop {
    velstatus_op_reply reply; /* what the callbacks answer into, reused */
    velstatus__buf lookup;    /* the lookup error text, reused */
    velstatus_op_progress lookup_report;
    const velstatus_policy *pol;
} reconcile_loop;

/* pluginManager.GetBackupItemActionV2 + bia.Progress for operation i: the
 * host's progress callback answers, or (PASSTHROUGH, no plugin) Velero's
 * lookup error. *rep points at the answer. */
static VS__ALWAYS_INLINE velstatus_status reconcile_ask_plugin(const velstatus_op_progress **rep, reconcile_loop *lp,
                                                               const velstatus_plugin_client *c, velstatus_oplist *list,
                                                               size_t i, velstatus_error *err)
{
    int rc = VELSTATUS_PASSTHROUGH;
    reply_clear(&lp->reply);
    lp->reply.is_cancel = 0;
    if (c->progress)
        rc = c->progress(c->userdata, list, i, &lp->reply);
    if (rc == VELSTATUS_PASSTHROUGH) {
        if (lookup_text(&lp->lookup, list->kind, &list->ops[i], lp->pol) != VELSTATUS_OK)
            return velstatus__error_nomem(err);
        velstatus_op_progress_init(&lp->lookup_report, sizeof(lp->lookup_report));
        lp->lookup_report.report = VELSTATUS_OP_REPORT_LOOKUP_ERROR;
        lp->lookup_report.err = lp->lookup.p;
        lp->lookup_report.err_len = lp->lookup.len;
        *rep = &lp->lookup_report;
        return VELSTATUS_OK;
    }
    if (rc < 0 || (!lp->reply.set && lp->reply.oom))
        return lp->reply.oom ? velstatus__error_nomem(err)
                             : velstatus__error_host(err, rc, "plugin client progress callback");
    if (!lp->reply.set)
        return velstatus__error_set(err, VELSTATUS_E_HOST,
                                    "plugin client progress callback returned 0 without answering for "
                                    "operation %zu (call velstatus_op_reply_set_progress())",
                                    i);
    *rep = &lp->reply.p;
    return VELSTATUS_OK;
}

/* errs = append(errs, ...): the result takes the step's message. During the
 * restore run (runValidatedRestore) it is a restore error, prefixed. Before
 * Velero 1.14 the backup run logged `for err := range errs`, the index
 * (first_pass_errors_as_index), as 1.11's restore run did
 * (first_pass_restore_errors_uncounted). */
static velstatus_status reconcile_record_error(velstatus_reconcile_result *r, velstatus__buf *msg,
                                               const reconcile_in *in, velstatus_kind kind, velstatus_error *err)
{
    const velstatus_reconcile_options *o = &in->o;
    int as_index = kind == VELSTATUS_KIND_BACKUP ? in->pol.first_pass_errors_as_index
                                                 : in->pol.first_pass_restore_errors_uncounted;
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS && as_index) {
        velstatus__buf idx;
        char *s;
        size_t n;
        velstatus_status st;
        velstatus__buf_reset(msg);
        velstatus__buf_init(&idx, r->ctx);
        velstatus__buf_printf(&idx, "%zu", r->nerr);
        st = velstatus__buf_finish(&idx, &s, &n, err);
        return st != VELSTATUS_OK ? st : result_add_error(r, s, n, err);
    }
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS && kind == VELSTATUS_KIND_RESTORE) {
        velstatus__buf pre;
        velstatus_status st;
        velstatus__buf_init(&pre, r->ctx);
        velstatus__buf_puts(&pre, "error from restore item operation: ");
        velstatus__buf_append(&pre, msg->p, msg->len);
        velstatus__buf_reset(msg);
        st = velstatus__buf_finish(&pre, &msg->p, &msg->len, err);
        if (st != VELSTATUS_OK)
            return st;
    }
    return result_add_error(r, msg->p, msg->len, err);
}

/* `_ = bia.Cancel(operationID, backup)` for an operation that timed out:
 * the host's cancel callback, its answer recorded in the result. */
static velstatus_status reconcile_cancel(velstatus_reconcile_result *r, reconcile_loop *lp, const reconcile_in *in,
                                         velstatus_oplist *list, size_t i, velstatus_error *err)
{
    int rc = VELSTATUS_PASSTHROUGH;
    reply_clear(&lp->reply);
    lp->reply.is_cancel = 1;
    if (in->c.cancel)
        rc = in->c.cancel(in->c.userdata, list, i, &lp->reply);
    if (rc == VELSTATUS_PASSTHROUGH)
        reply_clear(&lp->reply);
    else if (rc < 0 || lp->reply.oom)
        return lp->reply.oom ? velstatus__error_nomem(err)
                             : velstatus__error_host(err, rc, "plugin client cancel callback");
    return record_cancel(r, list, i, &lp->reply, in->pol.report_cancel_results, err);
}

/* getBackupItemOperationProgress / getRestoreItemOperationProgress: the
 * step for every operation, asking the plugin of each running one. */
static velstatus_status reconcile_operations(velstatus_reconcile_result *r, velstatus_oplist *list,
                                             const reconcile_in *in, velstatus_error *err)
{
    reconcile_loop lp;
    velstatus_status st = VELSTATUS_OK;
    size_t i;
    memset(&lp.reply, 0, sizeof(lp.reply));
    lp.reply.ctx = list->ctx;
    velstatus__buf_init(&lp.lookup, list->ctx);
    lp.pol = &in->pol;
    for (i = 0; i < list->n && st == VELSTATUS_OK; i++) {
        const velstatus_op *op = &list->ops[i];
        const velstatus_op_progress *rep = NULL;
        velstatus__buf msg;
        uint32_t f = 0;
        if (i + VS__PREFETCH_AHEAD < list->n) {
            const velstatus_op *ahead = &list->ops[i + VS__PREFETCH_AHEAD];
            VS__PREFETCH(&ahead->h);
            VS__PREFETCH(&ahead->c);
        }
        if (velstatus__op_phase_running((velstatus_op_phase)op->h.phase)) {
            st = reconcile_ask_plugin(&rep, &lp, &in->c, list, i, err);
            if (st != VELSTATUS_OK)
                break;
        }
        msg.p = NULL; /* step_core sets all of it when it has a message */
        st = step_core(&f, &msg, list, i, rep, in->o.now_ns, in->o.timeout_ns, &in->pol, err);
        if (st != VELSTATUS_OK)
            break;
        count_flags(r, f);
        if (msg.p)
            st = reconcile_record_error(r, &msg, in, list->kind, err);
        if (st == VELSTATUS_OK && (f & VELSTATUS_OP_STEP_CANCEL))
            st = reconcile_cancel(r, &lp, in, list, i, err);
    }
    reply_release(&lp.reply);
    velstatus__buf_reset(&lp.lookup);
    return st;
}

/* Reconcile's phase change: during the run (phase InProgress), the run's
 * outcome with the errors logged so far (velstatus_phase_after_run); while
 * waiting, PartiallyFailed on any error, Finalizing* when nothing is still
 * in progress. level_triggered_partial_failure also counts failed
 * operations as errors. */
static velstatus_phase reconcile_next_phase(const velstatus_reconcile_result *r, const velstatus_reconcile_options *o,
                                            const velstatus_policy *pol, velstatus_kind kind, int64_t added)
{
    int level = pol->level_triggered_partial_failure && r->failed > 0;
    velstatus_phase ph = o->phase;
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS) {
        int64_t logged = velstatus__sat_add_i64(o->errors, added);
        if (level && logged == 0)
            logged = 1;
        ph = velstatus_phase_after_run(kind, 0, logged, r->still);
    } else {
        /* Velero 1.11 decided it only once nothing was running (partial_failure_when_done). */
        if ((o->errors > 0 || added > 0 || level) && !(pol->partial_failure_when_done && r->still))
            ph = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
        if (!r->still)
            ph = ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ? VELSTATUS_PHASE_FINALIZING
                                                                     : VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    }
    /* Before Velero 1.14 a restore had no Finalizing phases: it ended here. */
    if (kind == VELSTATUS_KIND_RESTORE && !pol->restore_finalizing && ph == VELSTATUS_PHASE_FINALIZING)
        ph = VELSTATUS_PHASE_COMPLETED;
    else if (kind == VELSTATUS_KIND_RESTORE && !pol->restore_finalizing &&
             ph == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED)
        ph = VELSTATUS_PHASE_PARTIALLY_FAILED;
    return ph;
}

/* What Reconcile writes: after the run, the upload and the patch; while
 * waiting, both when there are errors to record or the object is finished,
 * a patch when the completed/failed counts moved, else nothing (progress
 * alone stays in memory). */
static velstatus_persist_action reconcile_persist(const velstatus_reconcile_result *r,
                                                  const velstatus_reconcile_options *o)
{
    int finished = r->phase == VELSTATUS_PHASE_FINALIZING || r->phase == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    if (o->phase == VELSTATUS_PHASE_IN_PROGRESS)
        return VELSTATUS_PERSIST_UPLOAD_AND_PATCH;
    /* A backup's Completed/PartiallyFailed here is the BSL path; a restore's
     * is the end of a pass before Velero 1.14 (no restore Finalizing). */
    finished = finished || r->phase == VELSTATUS_PHASE_COMPLETED || r->phase == VELSTATUS_PHASE_PARTIALLY_FAILED;
    if (r->errors_added > 0 || finished)
        return VELSTATUS_PERSIST_UPLOAD_AND_PATCH;
    if ((uint64_t)o->completed_before != (uint64_t)r->completed || (uint64_t)o->failed_before != (uint64_t)r->failed)
        return VELSTATUS_PERSIST_PATCH;
    return VELSTATUS_PERSIST_NONE;
}

/* After the plugin loop: totals, the next phase, the errors to add (the
 * result's count, clamped once) and what to persist. */
static void reconcile_finish(velstatus_reconcile_result *r, const reconcile_in *in, velstatus_kind kind)
{
    int64_t added;
    count_totals(r);
    added = velstatus__size_to_i64(r->nerr);
    /* Velero 1.11's restore run logged its operation errors without counting them. */
    if (kind == VELSTATUS_KIND_RESTORE && in->o.phase == VELSTATUS_PHASE_IN_PROGRESS &&
        in->pol.first_pass_restore_errors_uncounted)
        added = 0;
    r->phase = reconcile_next_phase(r, &in->o, &in->pol, kind, added);
    r->errors_added = in->o.phase == VELSTATUS_PHASE_IN_PROGRESS ? added : velstatus__sat_add_i64(in->o.errors, added);
    r->persist = reconcile_persist(r, &in->o);
}

velstatus_status velstatus__list_pass_args(const void *out, const velstatus_oplist *list, const void *opts,
                                           velstatus_error *err)
{
    if (!out || !list || !opts)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : !list ? "list" : "opts");
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_reconcile(velstatus_reconcile_result **out, velstatus_oplist *list,
                                            const velstatus_plugin_client *client,
                                            const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                            velstatus_error *err)
{
    reconcile_in in;
    velstatus_reconcile_result *r;
    velstatus_status st;
    int bsl_problem;
    VS_TRY(velstatus__list_pass_args(out, list, opts, err));
    VS_TRY(reconcile_load(&in, list, client, opts, policy, err));
    r = velstatus__calloc(list->ctx, 1, sizeof(*r));
    if (!r)
        return velstatus__error_nomem(err);
    r->ctx = list->ctx;
    r->phase = in.o.phase;
    r->kind = list->kind;
    r->phase_before = in.o.phase;
    r->errors_before = in.o.errors;
    r->nops = list->n;
    bsl_problem = reconcile_bsl_problem(&in.o, &in.pol, list->kind);
    st = bsl_problem ? reconcile_bsl(r, list, &in.o, &in.pol, err) : reconcile_operations(r, list, &in, err);
    if (st != VELSTATUS_OK) {
        velstatus_reconcile_result_free(r);
        return st;
    }
    if (!bsl_problem)
        reconcile_finish(r, &in, list->kind);
    *out = r;
    return VELSTATUS_OK;
}

/* updateBackupAndOperationsJSON when a write fails: the CR keeps its phase;
 * an upload failure keeps the errors pending (the deferred Put), a patch
 * after an upload loses them (uploadProgress cleared ErrsSinceUpdate), a
 * patch alone is repeated. */
velstatus_status velstatus_reconcile_result_after_persist_failure(const velstatus_reconcile_result *r,
                                                                  velstatus_persist_failure failure,
                                                                  velstatus_phase *phase_kept, int64_t *pending_errors,
                                                                  int64_t *lost_errors, velstatus_error *err)
{
    int64_t pending = 0, lost = 0;
    if (!r)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "result is NULL");
    if (failure != VELSTATUS_PERSIST_FAILED_UPLOAD && failure != VELSTATUS_PERSIST_FAILED_PATCH)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "failure %d is not a velstatus_persist_failure",
                                    (int)failure);
    if (r->phase_before == VELSTATUS_PHASE_IN_PROGRESS)
        return velstatus__error_set(err, VELSTATUS_E_STATE,
                                    "the first evaluation's writes belong to the main run, not to this pass");
    if (r->persist == VELSTATUS_PERSIST_NONE)
        return velstatus__error_set(err, VELSTATUS_E_STATE, "nothing is written after this pass");
    if (failure == VELSTATUS_PERSIST_FAILED_UPLOAD &&
        (r->persist != VELSTATUS_PERSIST_UPLOAD_AND_PATCH || (r->kind == VELSTATUS_KIND_RESTORE && r->nops == 0)))
        return velstatus__error_set(err, VELSTATUS_E_STATE, "nothing is uploaded after this pass (%s)",
                                    r->no_store                             ? "no backup store on the BSL path"
                                    : r->persist == VELSTATUS_PERSIST_PATCH ? "the new counts are only patched"
                                                                            : "a restore's empty list is not uploaded");
    if (r->no_store)
        pending = r->errors_before; /* the map entry is untouched */
    else if (failure == VELSTATUS_PERSIST_FAILED_PATCH && r->persist == VELSTATUS_PERSIST_UPLOAD_AND_PATCH)
        lost = r->errors_added; /* uploadProgress cleared them, even with nothing to upload */
    else
        pending = r->errors_added;
    if (phase_kept)
        *phase_kept = r->phase_before;
    if (pending_errors)
        *pending_errors = pending;
    if (lost_errors)
        *lost_errors = lost;
    return VELSTATUS_OK;
}
