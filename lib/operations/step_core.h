/* SPDX-License-Identifier: Apache-2.0 */
/* The per-operation step's machinery (doc/velero-behaviour.md §2.4), shared
 * by the two sources that run it: op_step.c (velstatus_oplist_step, one
 * operation) and reconcile.c (the whole-list pass, which inlines the step
 * into its loop: the steady loop is memory-bound and a call per operation
 * would cost it). Everything here is static inline. Not installed. */
#ifndef VELSTATUS_OPERATIONS_STEP_CORE_H
#define VELSTATUS_OPERATIONS_STEP_CORE_H

#include <string.h>

#include "common/util_arith.h"
#include "common/util_array.h"
#include "operations/private.h"

static const char timed_out[] = "Asynchronous action timed out";

#if defined(__GNUC__)
#define VS__ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define VS__ALWAYS_INLINE inline
#endif

/* ------------------------------------------------------------------------ */
/* Small helpers                                                              */
/* ------------------------------------------------------------------------ */

static inline int64_t floor_sec(int64_t ns)
{
    int64_t s = ns / 1000000000;
    if (ns % 1000000000 < 0)
        s--;
    return s;
}

/* wrapErrMsg: `msg, plugin: NAME` (`plugin: NAME` for an empty msg); NAME is
 * prefix (or nothing) then plugin, or "unknown" for a NULL plugin. */
static inline void wrap_into(velstatus__buf *b, const char *msg, size_t msg_len, const char *prefix, const char *plugin,
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
static inline velstatus_status load_report(velstatus_op_progress *dst, const velstatus_op_progress *src,
                                           velstatus_error *err)
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
static inline int time_update_exact(const velstatus_policy *pol, uint8_t *state, int64_t *t, uint8_t *wide, int i,
                                    int64_t sec, int32_t nsec)
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

static inline void plan_str(plan *pl, vs__str *dst, const char *src, size_t len)
{
    pend *p = &pl->strs[pl->nstrs++];
    p->dst = dst;
    p->src = src;
    p->len = len;
    p->fresh = NULL;
}

/* Allocates what the plan needs; the record is still untouched. */
static inline velstatus_status plan_alloc(velstatus_oplist *l, plan *pl, velstatus_error *err)
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

static inline void plan_commit(velstatus_oplist *l, plan *pl)
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
static inline void plan_message(plan *pl, velstatus_ctx *ctx, velstatus_kind kind, const velstatus_policy *pol,
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

enum { VS__NO_MOVE = 0xff };

/* One step's decision: taken in the record's hot part itself, with a copy
 * of it, made before the first write (step_touch()), that step_commit()
 * puts back when what the decision needs cannot be allocated (the strings
 * and the message are applied only after that). Working in place, not on a
 * copy written back, spares the write-back's wide loads of fields just
 * stored one by one (a store-forwarding stall: first pass 60 -> 30 ns per
 * operation, bench/README.md); a steady step writes nothing and copies
 * nothing. */
typedef struct step_work {
    vs__op_hot *h;    /* the record's hot part, as decided so far */
    vs__op_hot saved; /* the hot part as the step found it (when touched) */
    int touched;      /* saved holds it: the hot part may have been written */
    uint8_t next;     /* the phase to move to, or VS__NO_MOVE */
    uint32_t flags;
    const char *fail_text; /* non-NULL: the operation fails with this error */
    size_t fail_len;
    int fail_lookup; /* the plugin was not found: no plugin name in the message */
    int completed;   /* the plugin reported completion without an error */
    plan pl;
} step_work;

/* Before the step's first write to the record's hot part. */
static VS__ALWAYS_INLINE void step_touch(step_work *w)
{
    if (!w->touched) {
        w->saved = *w->h;
        w->touched = 1;
    }
}

/* Step 4 for started (i = VELSTATUS_OP_TIME_STARTED) or updated, in whichever
 * form the report gives it. */
static VS__ALWAYS_INLINE int report_time(step_work *w, const velstatus_policy *pol, int i, int has, int64_t ns,
                                         int has_sec, int64_t sec, int32_t nsec)
{
    vs__op_hot *h = w->h;
    /* The steady answer, the UTC time the record holds reported again:
     * unchanged under either comparison of time_update() (ns != 0: not the
     * Unix epoch, which unix_epoch_is_unknown reads as no time). */
    if (!has_sec && has && h->tstate[i] == VS__T_UTC && h->t[i] == ns && ns != 0 && !(h->twide >> i & 1))
        return 0;
    step_touch(w);
    if (has_sec)
        return time_update_exact(pol, &h->tstate[i], h->t, &h->twide, i, sec, nsec);
    return time_update(pol, &h->tstate[i], h->t, &h->twide, i, has, ns);
}

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
    w->touched = 0;
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
        step_touch(w);
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
        step_touch(w);
        w->h->has_err_since = 0;
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    }
    if (w->h->n_completed != r->n_completed || w->h->n_total != r->n_total) {
        step_touch(w);
        w->h->n_completed = r->n_completed;
        w->h->n_total = r->n_total;
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    }
    step_copy_text(w, &op->h.units, r->operation_units, r->operation_units_len);
    step_copy_text(w, &op->h.desc, r->description, r->description_len);
    if (report_time(w, pol, VELSTATUS_OP_TIME_STARTED, r->has_started, r->started_ns, r->has_started_sec,
                    r->started_sec, r->started_nsec))
        w->flags |= VELSTATUS_OP_STEP_CHANGED;
    if (report_time(w, pol, VELSTATUS_OP_TIME_UPDATED, r->has_updated, r->updated_ns, r->has_updated_sec,
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
    int kind;
    if (w->fail_text || w->completed)
        return;
    kind = velstatus__op_deadline_kind(t_has(w->h->tstate[VELSTATUS_OP_TIME_CREATED]), timeout, pol);
    if (kind == VS__DEADLINE_NO_CREATED) {
        w->flags |= VELSTATUS_OP_STEP_MISSING_CREATED;
        return;
    }
    if (kind == VS__DEADLINE &&
        velstatus__op_times_out_at(w->h->t, w->h->twide, VELSTATUS_OP_TIME_CREATED, timeout, now)) {
        w->fail_text = timed_out;
        w->fail_len = sizeof(timed_out) - 1;
        w->flags |= VELSTATUS_OP_STEP_CANCEL;
        w->flags &= ~(uint32_t)VELSTATUS_OP_STEP_ERROR_DEFERRED;
        step_touch(w);
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
static inline velstatus_status step_commit(step_work *w, velstatus_oplist *l, velstatus_op *op, velstatus_error *err)
{
    velstatus_status st = plan_alloc(l, &w->pl, err);
    if (st != VELSTATUS_OK) {
        if (w->touched)
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


#endif /* VELSTATUS_OPERATIONS_STEP_CORE_H */
