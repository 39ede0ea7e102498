/* SPDX-License-Identifier: Apache-2.0 */
/* The whole-list driver (reconcile.h; doc/velero-behaviour.md §2.5-§2.7):
 * the plugin client's replies, the pass over a list (each operation through
 * the step of step_core.h, inlined), its result and the next phase. Pure:
 * `now` is an argument, the plugins are reached through the host's vtable. */
#include "operations/step_core.h"

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
    rp->roomy = 0;
}

/* memcpy(d, s, len), a text of up to 16 bytes without the call: a plugin's
 * units and description ("Bytes", "InProgress") are answered for every
 * running operation of every pass (bench/README.md, issue 25). Two copies
 * that may overlap read and write only within [0, len). */
static inline void copy_short(char *d, const char *s, size_t len)
{
    if (len >= 8 && len <= 16) {
        memcpy(d, s, 8);
        memcpy(d + len - 8, s + len - 8, 8);
    } else if (len >= 4 && len < 8) {
        memcpy(d, s, 4);
        memcpy(d + len - 4, s + len - 4, 4);
    } else if (len > 0) {
        memcpy(d, s, len);
    }
}

/* Copies s into a text slot that has room for it and the NUL. */
static inline const char *slot_text(char *t, const char *s, size_t len)
{
    copy_short(t, s, len);
    t[len] = '\0';
    return t;
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
    return slot_text(rp->text[k], s, len);
}

/* The usual answer, taken without the general path's frame and checks: a
 * report of this library's size, valid (report_ok()'s checks, in the order
 * of the struct's fields), nanosecond times, no plugin name, texts of at
 * most 16 bytes, into text slots that already have room (every answer
 * after a pass's first; bench/README.md, issue 25). 0: take the general
 * path, nothing written. */
static inline int reply_set_usual(velstatus_op_reply *rp, const velstatus_op_progress *p)
{
    size_t el = p->err_len, ul = p->operation_units_len, dl = p->description_len;
    if (!rp->roomy || p->struct_size != sizeof(*p) || p->flags != 0 || p->report > VELSTATUS_OP_REPORT_LOOKUP_ERROR ||
        (el | ul | dl) > 16 || (!p->err && el) || (!p->operation_units && ul) || (!p->description && dl) ||
        ((uintptr_t)p->plugin_name | p->plugin_name_len) != 0 || (p->has_started_sec | p->has_updated_sec) != 0)
        return 0;
    /* the copy first, then each text from it: few values live at once */
    rp->p = *p;
    rp->p.err = slot_text(rp->text[0], rp->p.err, rp->p.err_len);
    rp->p.operation_units = slot_text(rp->text[1], rp->p.operation_units, rp->p.operation_units_len);
    rp->p.description = slot_text(rp->text[2], rp->p.description, rp->p.description_len);
    rp->set = 1;
    return 1;
}

/* Any other answer: checked (a report of another size copied first), each
 * text into its slot, grown as needed. Out of line: the usual answer's call
 * keeps a leaf's frame. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static velstatus_status
reply_set_checked(velstatus_op_reply *reply, const velstatus_op_progress *progress, velstatus_error *err)
{
    velstatus_op_progress r;
    velstatus_status st;
    const char *t0, *t1, *t2, *t3;
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
    reply->roomy = reply->cap[0] > 16 && reply->cap[1] > 16 && reply->cap[2] > 16;
    reply->p = *progress;
    reply->p.err = t0;
    reply->p.operation_units = t1;
    reply->p.description = t2;
    reply->p.plugin_name = t3; /* NULL stays NULL: the registered name */
    reply->set = 1;
    return VELSTATUS_OK;
}

velstatus_status velstatus_op_reply_set_progress(velstatus_op_reply *reply, const velstatus_op_progress *progress,
                                                 velstatus_error *err)
{
    if (!reply || !progress)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !reply ? "reply" : "progress");
    if (reply->is_cancel)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "this is a cancel reply: use velstatus_op_reply_set_cancel_error()");
    if (reply_set_usual(reply, progress))
        return VELSTATUS_OK;
    return reply_set_checked(reply, progress, err);
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
