/* SPDX-License-Identifier: Apache-2.0 */
/* The operations controller's pass as a host runs it: decode the
 * itemoperations file, apply a few host edits (append and setters), run two
 * reconcile passes against a fake plugin client whose every answer comes
 * from the input, then encode → decode: what the library writes, it reads back. */
#include "fuzz.h"

#include <string.h>

#define S 1000000000LL

typedef struct fake {
    vs_fuzz_env *env;
    vs_fuzz_in *in;
    int64_t base; /* the first record's created time, or a fixed instant */
} fake;

/* base + d, saturated: a created time read from Go's zero time or year 9999
 * is INT64_MIN or INT64_MAX. */
static int64_t at(int64_t base, int64_t d)
{
    int64_t r;
    if (__builtin_add_overflow(base, d, &r))
        return d < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

static int64_t instant(fake *f)
{
    const int64_t b = f->base;
    const int64_t t[] = {b,         at(b, S), at(b, 3600 * S), at(b, 4 * 3600 * S),   at(b, 4 * 3600 * S + S),
                         at(b, -S), 0,        INT64_MIN,       INT64_MIN + 100000000, INT64_MAX,
                         -1};
    return vs_fuzz_int(f->in, t, sizeof(t) / sizeof(t[0]));
}

static void report(fake *f, velstatus_op_progress *p, const velstatus_op *op)
{
    const int64_t counts[] = {0, 1, 100, -1, INT64_MAX, INT64_MIN, velstatus_op_n_total(op)};
    velstatus_op_progress_init(p, sizeof(*p));
    p->report = (uint32_t)vs_fuzz_pick(f->in, 8) % 4; /* 3: not a report kind */
    p->completed = vs_fuzz_byte(f->in) & 1;
    p->n_completed = vs_fuzz_int(f->in, counts, sizeof(counts) / sizeof(counts[0]));
    p->n_total = vs_fuzz_int(f->in, counts, sizeof(counts) / sizeof(counts[0]));
    vs_fuzz_text(f->in, &p->err, &p->err_len);
    vs_fuzz_text(f->in, &p->operation_units, &p->operation_units_len);
    vs_fuzz_text(f->in, &p->description, &p->description_len);
    p->has_started = vs_fuzz_byte(f->in) & 1;
    p->started_ns = instant(f);
    p->has_updated = vs_fuzz_byte(f->in) & 1;
    p->updated_ns = instant(f);
}

static int fake_progress(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    fake *f = ud;
    const velstatus_op *op = velstatus_oplist_at(list, index);
    velstatus_op_progress p;
    velstatus_status st;
    size_t idlen;
    VS_FUZZ_CHECK(f->env, op && velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &idlen));
    switch (vs_fuzz_pick(f->in, 16)) {
    case 0: return VELSTATUS_PASSTHROUGH;
    case 1: return -77; /* the host failed */
    case 2: return 0;   /* returns without answering */
    default:
        report(f, &p, op);
        st = velstatus_op_reply_set_progress(reply, &p, NULL);
        return st == VELSTATUS_E_NOMEM ? (int)st : 0; /* an invalid report stays unanswered */
    }
}

static int fake_cancel(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    fake *f = ud;
    const char *s;
    size_t len;
    VS_FUZZ_CHECK(f->env, velstatus_oplist_at(list, index) != NULL);
    switch (vs_fuzz_pick(f->in, 8)) {
    case 0: return VELSTATUS_PASSTHROUGH;
    case 1: return -78;
    case 2:
    case 3: return 0; /* Cancel returned nil */
    default:
        vs_fuzz_text(f->in, &s, &len);
        return velstatus_op_reply_set_cancel_error(reply, s, len, NULL) == VELSTATUS_E_NOMEM ? -1 : 0;
    }
}

/* One host edit; on a failure the record must be as it was. */
static int edit(fake *f, velstatus_oplist *list)
{
    vs_fuzz_env *env = f->env;
    size_t n = velstatus_oplist_count(list), i = vs_fuzz_pick(f->in, n + 1);
    const int64_t counts[] = {0, 1, -1, INT64_MAX, INT64_MIN};
    vs_fuzz_buf before = {0}, after = {0};
    const char *s;
    size_t len;
    velstatus_status st;
    if (i < n)
        vs_fuzz_op_print(&before, list, i);
    switch (vs_fuzz_pick(f->in, 5)) {
    case 0:
        st = velstatus_oplist_append(NULL, list, NULL);
        vs_fuzz_buf_free(&before); /* a failed append must leave the count alone, checked below */
        i = n;
        break;
    case 1:
        vs_fuzz_text(f->in, &s, &len);
        st = velstatus_oplist_set_string(list, i, (velstatus_op_field)vs_fuzz_pick(f->in, 13), s, len, NULL);
        break;
    case 2:
        st = velstatus_oplist_set_counts(list, i, vs_fuzz_int(f->in, counts, 5), vs_fuzz_int(f->in, counts, 5), NULL);
        break;
    case 3:
        st = velstatus_oplist_set_time(list, i, (velstatus_op_time)vs_fuzz_pick(f->in, 3), vs_fuzz_byte(f->in) & 1,
                                       instant(f), NULL);
        break;
    default:
        vs_fuzz_text(f->in, &s, &len);
        st = velstatus_oplist_add_post_item(list, i, "", 0, s, len, "ns", 2, s, len, NULL);
        break;
    }
    if (st != VELSTATUS_OK) {
        VS_FUZZ_CHECK(env, velstatus_oplist_count(list) == n);
        if (i < n)
            vs_fuzz_op_print(&after, list, i);
        VS_FUZZ_CHECK(env, vs_fuzz_same(before.p, before.len, after.p, after.len));
    }
    vs_fuzz_buf_free(&before);
    vs_fuzz_buf_free(&after);
    return vs_fuzz_stage(env, st, "a host edit") || !env->nomem_seen;
}

static void options(fake *f, velstatus_reconcile_options *o, velstatus_policy *pol)
{
    static const velstatus_phase phases[] = {
        VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS, VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED,
        VELSTATUS_PHASE_IN_PROGRESS, VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS, VELSTATUS_PHASE_COMPLETED};
    const int64_t timeouts[] = {4 * 3600 * S, 0, -1, 1, 3600 * S, INT64_MAX, INT64_MIN};
    const int64_t small[] = {0, 0, 1, 3, INT64_MAX, -1};
    const int64_t grace[] = {0, 60 * S, 1, INT64_MAX, -1};
    uint8_t knobs = vs_fuzz_byte(f->in);
    velstatus_reconcile_options_init(o, sizeof(*o));
    {
        uint8_t preset = vs_fuzz_byte(f->in);
        velstatus_policy_init(pol, sizeof(*pol), preset & 1 ? VELSTATUS_PRESET_VELERO : VELSTATUS_PRESET_HARDENED,
                              NULL);
        if ((preset & 1) && (preset & 2)) /* a Velero release's preset, 1.11 to 1.18 (doc/velero-releases.md) */
            velstatus_policy_init_release(pol, sizeof(*pol), 1, 11 + (preset >> 2) % 8, NULL);
    }
    if (knobs & 1) { /* flip single knobs away from the preset */
        pol->zero_timeout_expires ^= (knobs >> 1) & 1;
        pol->level_triggered_partial_failure ^= (knobs >> 2) & 1;
        pol->unknown_phase_fails ^= (knobs >> 3) & 1;
        pol->restore_error_plugin_suffix ^= (knobs >> 4) & 1;
        pol->compare_times_by_instant ^= (knobs >> 5) & 1;
        pol->unix_epoch_is_unknown ^= (knobs >> 6) & 1;
        pol->report_cancel_results ^= (knobs >> 7) & 1;
        pol->progress_error_grace_ns = vs_fuzz_int(f->in, grace, sizeof(grace) / sizeof(grace[0]));
    }
    o->phase = phases[vs_fuzz_pick(f->in, sizeof(phases) / sizeof(phases[0]))];
    o->bsl = (velstatus_bsl_state)(vs_fuzz_pick(f->in, 8) % 4); /* 3: not a state */
    if (o->bsl != VELSTATUS_BSL_AVAILABLE)
        vs_fuzz_text(f->in, &o->bsl_name, &o->bsl_name_len);
    o->now_ns = instant(f);
    o->timeout_ns = vs_fuzz_int(f->in, timeouts, sizeof(timeouts) / sizeof(timeouts[0]));
    o->errors = vs_fuzz_int(f->in, small, sizeof(small) / sizeof(small[0]));
    o->completed_before = vs_fuzz_int(f->in, small, sizeof(small) / sizeof(small[0]));
    o->failed_before = vs_fuzz_int(f->in, small, sizeof(small) / sizeof(small[0]));
}

/* What a result says, against the list it came from. */
static void check_result(vs_fuzz_env *env, const velstatus_reconcile_result *r, const velstatus_oplist *list)
{
    size_t n = velstatus_oplist_count(list), i, len, idlen, prev = 0;
    size_t done = velstatus_reconcile_result_completed(r) + velstatus_reconcile_result_failed(r);
    VS_FUZZ_CHECK(env, done + velstatus_reconcile_result_in_progress(r) <= n);
    VS_FUZZ_CHECK(env,
                  velstatus_reconcile_result_still_in_progress(r) == (velstatus_reconcile_result_in_progress(r) > 0));
    VS_FUZZ_CHECK(env, velstatus_phase_valid(velstatus_oplist_kind(list), velstatus_reconcile_result_phase(r)));
    VS_FUZZ_CHECK(env, velstatus_reconcile_result_persist(r) <= VELSTATUS_PERSIST_UPLOAD_AND_PATCH);
    for (i = 0; i < velstatus_reconcile_result_error_count(r); i++)
        VS_FUZZ_CHECK(env, velstatus_reconcile_result_error(r, i, &len) != NULL);
    VS_FUZZ_CHECK(env, !velstatus_reconcile_result_error(r, i, &len));
    VS_FUZZ_CHECK(env, velstatus_reconcile_result_canceled_count(r) <= n);
    for (i = 0; i < velstatus_reconcile_result_canceled_count(r); i++) {
        size_t at = velstatus_reconcile_result_canceled_index(r, i);
        const char *id = velstatus_reconcile_result_canceled_id(r, i, &len);
        const char *want = velstatus_op_string(velstatus_oplist_at(list, at), VELSTATUS_OP_FIELD_OPERATION_ID, &idlen);
        VS_FUZZ_CHECK(env, at < n && (i == 0 || at > prev) && id);
        VS_FUZZ_CHECK(env, vs_fuzz_same(id, len, want, idlen));
        velstatus_reconcile_result_cancel_error(r, i, &len);
        prev = at;
    }
    VS_FUZZ_CHECK(env, velstatus_reconcile_result_canceled_index(r, i) == SIZE_MAX);
}

/* After a failed pass each record is as it was or as the reference run's pass
 * left it, the stepped ones first (`memo` holds the reference's records). */
static void check_prefix(vs_fuzz_env *env, const velstatus_oplist *list, const vs_fuzz_buf *before,
                         const vs_fuzz_buf *memo)
{
    size_t i, off_b = 0, off_m = 0, n = velstatus_oplist_count(list);
    int stepped = 1;
    for (i = 0; i < n; i++) {
        vs_fuzz_buf now = {0};
        size_t lb, lm;
        vs_fuzz_op_print(&now, list, i);
        VS_FUZZ_CHECK(env, off_b + sizeof(lb) <= before->len && off_m + sizeof(lm) <= memo->len);
        memcpy(&lb, before->p + off_b, sizeof(lb));
        memcpy(&lm, memo->p + off_m, sizeof(lm));
        off_b += sizeof(lb);
        off_m += sizeof(lm);
        if (!(stepped && vs_fuzz_same(now.p, now.len, memo->p + off_m, lm))) {
            stepped = 0;
            if (!vs_fuzz_same(now.p, now.len, before->p + off_b, lb))
                vs_fuzz_fail(env, "record %zu is neither as it was nor as the pass left it", i);
        }
        off_b += lb;
        off_m += lm;
        vs_fuzz_buf_free(&now);
    }
}

static void print_records(vs_fuzz_buf *b, const velstatus_oplist *list)
{
    size_t i;
    b->len = 0;
    for (i = 0; i < velstatus_oplist_count(list); i++) {
        vs_fuzz_buf one = {0};
        vs_fuzz_op_print(&one, list, i);
        vs_fuzz_buf_add(b, &one.len, sizeof(one.len));
        vs_fuzz_buf_add(b, one.p, one.len);
        vs_fuzz_buf_free(&one);
    }
}

static int pass(fake *f, velstatus_oplist *list, int k)
{
    vs_fuzz_env *env = f->env;
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_policy pol;
    velstatus_reconcile_result *r = (velstatus_reconcile_result *)vs_fuzz_sentinel;
    velstatus_status st;
    vs_fuzz_buf before = {0};
    velstatus_plugin_client_init(&client, sizeof(client));
    client.userdata = f;
    client.progress = vs_fuzz_byte(f->in) % 8 ? fake_progress : NULL;
    client.cancel = vs_fuzz_byte(f->in) % 8 ? fake_cancel : NULL;
    options(f, &o, &pol);
    if (env->mode != VS_FUZZ_PLAIN)
        print_records(&before, list);
    st = velstatus_oplist_reconcile(&r, list, &client, &o, &pol, NULL);
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, r, vs_fuzz_sentinel, "velstatus_oplist_reconcile");
    if (env->mode == VS_FUZZ_OOM_REF)
        print_records(&env->memo[k], list);
    if (env->mode == VS_FUZZ_OOM_FAIL && st == VELSTATUS_E_NOMEM)
        check_prefix(env, list, &before, &env->memo[k]);
    vs_fuzz_buf_free(&before);
    if (!vs_fuzz_stage(env, st, "velstatus_oplist_reconcile"))
        return !env->nomem_seen;
    if (vs_fuzz_checks(env))
        check_result(env, r, list);
    velstatus_reconcile_result_free(r);
    return 1;
}

void vs_pipe_reconcile(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_kind kind = vs_fuzz_byte(in) & 1 ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    velstatus_oplist *list;
    fake f;
    int k, edits;
    f.env = env;
    f.in = in;
    if (!vs_fuzz_stage(env, vs_fuzz_decode_list(env, kind, in->text, in->text_len, &list),
                       "velstatus_oplist_from_json"))
        return;
    if (!velstatus_op_time_value(velstatus_oplist_at(list, 0), VELSTATUS_OP_TIME_CREATED, &f.base))
        f.base = 1714557600 * S; /* 2024-05-01T10:00:00Z */
    for (edits = (int)vs_fuzz_pick(in, 4), k = 0; k < edits; k++)
        if (!edit(&f, list))
            goto done;
    for (k = 0; k < 2; k++)
        if (!pass(&f, list, k))
            goto done;
    vs_fuzz_roundtrip(env, list, 1);
done:
    velstatus_oplist_free(list);
}
