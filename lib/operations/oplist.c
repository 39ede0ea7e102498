/* SPDX-License-Identifier: Apache-2.0 */
/* Operation lists: storage (records in one array, strings in a per-list
 * pool), getters and setters. The codec is in ops_json.c, the state machine
 * in op_step.c and reconcile.c. */
#include <string.h>

#include "operations/private.h"
#include "common/util_array.h"
#include "common/util_swar.h"

/* Static phase texts, shared by every record (never written into). */
static const char lit_new[] = "New", lit_inprogress[] = "InProgress", lit_completed[] = "Completed",
                  lit_failed[] = "Failed";

/* A record's slot never holds a phase name (vs__op_text gives those). */
static int is_static(const char *p)
{
    return !p || p == velstatus__empty;
}

const vs__str velstatus__op_phase_text[5] = {
    {velstatus__empty, 0}, {lit_new, 3}, {lit_inprogress, 10}, {lit_completed, 9}, {lit_failed, 6}};

/* A known phase's text is its name (vs__op_text): only the enum is written,
 * in the record's hot part. The phase slot holds the other texts. */
void velstatus__op_set_phase(velstatus_op *op, velstatus_op_phase phase)
{
    if (phase < VELSTATUS_OP_PHASE_NEW || phase > VELSTATUS_OP_PHASE_FAILED) {
        op->c->s[VELSTATUS_OP_FIELD_PHASE].p = velstatus__empty;
        op->c->s[VELSTATUS_OP_FIELD_PHASE].len = 0;
    }
    op->h.phase = (uint8_t)phase;
}

/* A hash of a short text, eight bytes at a time (a multiply and a shift
 * per word: the decoder hashes every shared text of every record; the
 * table compares the texts too, so this need only spread them). */
static size_t shared_hash(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    uint64_t h = n, w;
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        h = (h ^ velstatus__swar_load(u + i)) * UINT64_C(0x9E3779B97F4A7C15);
        h ^= h >> 29;
    }
    for (w = 0; i < n; i++)
        w = (w << 8) | u[i];
    h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ (h >> 32));
}

/* The slot holding s[0..n), or the free slot where it goes (the table is
 * never full: at most VS__SHARED_MAX of its VS__SHARED_SLOTS are used). */
static size_t shared_slot(const velstatus_oplist *l, const char *s, size_t n)
{
    size_t i = shared_hash(s, n) & (VS__SHARED_SLOTS - 1);
    while (l->shared[i].p && !(l->shared[i].len == n && memcmp(l->shared[i].p, s, n) == 0))
        i = (i + 1) & (VS__SHARED_SLOTS - 1);
    return i;
}

velstatus_status velstatus__oplist_shared(velstatus_oplist *l, const char *s, size_t len, const char **out,
                                          velstatus_error *err)
{
    size_t i;
    *out = NULL;
    if (len == 0 || len > VS__SHARED_LEN)
        return VELSTATUS_OK;
    i = shared_slot(l, s, len);
    if (!l->shared[i].p) {
        const char *p;
        if (l->nshared >= VS__SHARED_MAX)
            return VELSTATUS_OK;
        p = velstatus__pool_str(&l->pool, s, len);
        if (!p)
            return velstatus__error_nomem(err);
        l->shared[i].p = p;
        l->shared[i].len = (uint32_t)len;
        l->nshared++;
    }
    *out = l->shared[i].p;
    return VELSTATUS_OK;
}

int velstatus__oplist_is_shared(const velstatus_oplist *l, const vs__str *t)
{
    if (t->len == 0 || t->len > VS__SHARED_LEN || l->nshared == 0)
        return 0;
    return l->shared[shared_slot(l, t->p, t->len)].p == t->p;
}

velstatus_status velstatus__oplist_set_str(velstatus_oplist *l, vs__str *dst, const char *s, size_t len,
                                           velstatus_error *err)
{
    if (len > UINT32_MAX)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "text of %zu bytes is longer than 4 GiB", len);
    if (len == 0) {
        dst->p = velstatus__empty;
        dst->len = 0;
        return VELSTATUS_OK;
    }
    if (!is_static(dst->p) && len <= dst->len && !velstatus__oplist_is_shared(l, dst)) {
        char *w = (char *)(uintptr_t)dst->p; /* pool memory is ours */
        memmove(w, s, len);
        w[len] = '\0';
        dst->len = (uint32_t)len;
        return VELSTATUS_OK;
    }
    {
        const char *p = velstatus__pool_str(&l->pool, s, len);
        if (!p)
            return velstatus__error_nomem(err);
        dst->p = p;
        dst->len = (uint32_t)len;
    }
    return VELSTATUS_OK;
}

_Static_assert((int)VELSTATUS_OP_FIELD_OPERATION_UNITS == (int)VS__OP_NCOLD &&
                   (int)VELSTATUS_OP_FIELD_DESCRIPTION == (int)VS__OP_NCOLD + 1,
               "the hot part holds the last two string fields");

static void op_init(velstatus_op *op, vs__op_cold *cold)
{
    int i;
    memset(op, 0, sizeof(*op));
    memset(cold, 0, sizeof(*cold));
    op->c = cold;
    for (i = 0; i < VS__OP_NFIELDS; i++)
        vs__op_str(op, i)->p = velstatus__empty;
    cold->post_null = 1;
}

velstatus_op *velstatus__oplist_push(velstatus_oplist *l)
{
    velstatus_op *op, *ops;
    vs__op_cold *cold;
    size_t i;
    if (l->n >= UINT32_MAX)
        return NULL; /* indexes fit in 32 bits */
    cold = velstatus__array_reserve(l->ctx, l->cold, &l->capcold, l->n + 1, sizeof(*cold), 16);
    if (!cold)
        return NULL;
    if (cold != l->cold) {
        for (i = 0; i < l->n; i++)
            l->ops[i].c = &cold[i];
        l->cold = cold;
    }
    ops = velstatus__array_reserve(l->ctx, l->ops, &l->cap, l->n + 1, sizeof(*ops), 16);
    if (!ops)
        return NULL;
    l->ops = ops;
    op = &l->ops[l->n];
    op_init(op, &l->cold[l->n]);
    l->n++;
    return op;
}

velstatus_status velstatus__oplist_new(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                       velstatus_error *err)
{
    velstatus_oplist *l;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind %d is not backup (0) or restore (1)", (int)kind);
    l = velstatus__calloc(ctx, 1, sizeof(*l));
    if (!l)
        return velstatus__error_nomem(err);
    l->ctx = ctx;
    l->kind = kind;
    velstatus__pool_init(&l->pool, ctx);
    *out = l;
    return VELSTATUS_OK;
}

/* ---- public: lifecycle ---- */

velstatus_status velstatus_oplist_new(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                      velstatus_error *err)
{
    return velstatus__oplist_new(out, ctx, kind, err);
}

void velstatus_oplist_free(velstatus_oplist *list)
{
    if (list) {
        velstatus__free(list->ctx, list->cold);
        velstatus__pool_owner_free(&list->pool, list->ops, list);
    }
}

VS_GETTER(velstatus_oplist, velstatus_oplist_kind, velstatus_kind, kind, VELSTATUS_KIND_INVALID)

VS_GETTER(velstatus_oplist, velstatus_oplist_count, size_t, n, 0)

VS_GETTER(velstatus_oplist, velstatus_oplist_is_null, int, is_null, 0)

const velstatus_op *velstatus_oplist_at(const velstatus_oplist *list, size_t index)
{
    if (!list || index >= list->n)
        return NULL;
    return &list->ops[index];
}

/* ---- public: phases ---- */

/* Indexed by velstatus_op_phase; UNKNOWN (0) has no token of its own. */
static const char *const op_phase_names[] = {"", "New", "InProgress", "Completed", "Failed"};
_Static_assert(VELSTATUS_OP_PHASE_UNKNOWN == 0 && VELSTATUS_OP_PHASE_NEW == 1 && VELSTATUS_OP_PHASE_IN_PROGRESS == 2 &&
                   VELSTATUS_OP_PHASE_COMPLETED == 3 && VELSTATUS_OP_PHASE_FAILED == 4,
               "op phase token table");

const char *velstatus_op_phase_to_string(velstatus_op_phase phase)
{
    return phase == VELSTATUS_OP_PHASE_UNKNOWN ? NULL : velstatus__token_of(op_phase_names, 5, (int)phase);
}

velstatus_op_phase velstatus__op_phase_of(const char *s, size_t len)
{
    int i = velstatus__token_find(op_phase_names + 1, 4, s, len);
    return i < 0 ? VELSTATUS_OP_PHASE_UNKNOWN : (velstatus_op_phase)(i + 1);
}

velstatus_status velstatus_op_phase_from_string(velstatus_op_phase *out, const char *s, size_t len,
                                                velstatus_error *err)
{
    int i = 0;
    velstatus_status st =
        velstatus__token_parse(out ? &i : NULL, op_phase_names + 1, 4, "operation phase", s, len, err);
    if (out)
        *out = st == VELSTATUS_OK ? (velstatus_op_phase)(i + 1) : VELSTATUS_OP_PHASE_UNKNOWN;
    return st;
}

/* ---- public: the other operations enums ---- */

static const char *const op_field_names[] = {
    "name",          "uid",          "item_action", "resource_group", "resource_resource", "resource_namespace",
    "resource_name", "operation_id", "phase",       "error",          "operation_units",   "description",
};
_Static_assert(VS_N(op_field_names) == VELSTATUS_OP_FIELD_DESCRIPTION + 1, "op field token table");
static const char *const op_time_names[] = {"created", "started", "updated"};
_Static_assert(VS_N(op_time_names) == VELSTATUS_OP_TIME_UPDATED + 1, "op time token table");
static const char *const report_kind_names[] = {"progress", "progress_error", "lookup_error"};
_Static_assert(VS_N(report_kind_names) == VELSTATUS_OP_REPORT_LOOKUP_ERROR + 1, "report kind token table");
static const char *const bsl_state_names[] = {"available", "missing", "readonly"};
_Static_assert(VS_N(bsl_state_names) == VELSTATUS_BSL_READONLY + 1, "BSL state token table");
static const char *const persist_names[] = {"none", "patch", "upload_and_patch"};
_Static_assert(VS_N(persist_names) == VELSTATUS_PERSIST_UPLOAD_AND_PATCH + 1, "persist token table");
/* table[i] is the token of flag 1 << i. */
static const char *const step_flag_names[] = {
    "changed",      "cancel",      "failed_now",    "completed_now",   "count_completed",
    "count_failed", "in_progress", "unknown_phase", "missing_created", "error_deferred",
};
_Static_assert(VELSTATUS_OP_STEP_ERROR_DEFERRED == 1 << (VS_N(step_flag_names) - 1), "step flag token table");

VS_ENUM_TOKENS(op_field, velstatus_op_field, op_field_names, "operation field")

VS_ENUM_TOKENS(op_time, velstatus_op_time, op_time_names, "operation time")

VS_ENUM_TOKENS(op_report_kind, velstatus_op_report_kind, report_kind_names, "report kind")

VS_ENUM_TOKENS(bsl_state, velstatus_bsl_state, bsl_state_names, "BSL state")

VS_ENUM_TOKENS(persist_action, velstatus_persist_action, persist_names, "persist action")

VS_FLAG_TOKENS(op_step_flag, velstatus_op_step_flag, step_flag_names, "step flag")

/* ---- public: building ---- */

static velstatus_status check_index(const velstatus_oplist *list, size_t index, velstatus_error *err)
{
    if (!list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "list is NULL");
    if (index >= list->n)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "index %zu is out of range (the list has %zu records)",
                                    index, list->n);
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_append(size_t *index, velstatus_oplist *list, velstatus_error *err)
{
    velstatus_op *op;
    if (!list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "list is NULL");
    if (list->n >= UINT32_MAX)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "the list is full");
    op = velstatus__oplist_push(list);
    if (!op)
        return velstatus__error_nomem(err);
    velstatus__op_set_phase(op, VELSTATUS_OP_PHASE_NEW);
    list->is_null = 0;
    if (index)
        *index = list->n - 1;
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_set_string(velstatus_oplist *list, size_t index, velstatus_op_field field,
                                             const char *s, size_t len, velstatus_error *err)
{
    velstatus_status st = check_index(list, index, err);
    velstatus_op *op;
    len = velstatus__text_len(s, len);
    if (st != VELSTATUS_OK)
        return st;
    if ((int)field < 0 || (int)field >= VS__OP_NFIELDS)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown field %d", (int)field);
    if (!s && len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "text is NULL with length %zu", len);
    op = &list->ops[index];
    st = velstatus__oplist_set_str(list, vs__op_str(op, field), s, len, err);
    if (st == VELSTATUS_OK && field == VELSTATUS_OP_FIELD_PHASE)
        op->h.phase = (uint8_t)velstatus__op_phase_of(s, len);
    return st;
}

velstatus_status velstatus_oplist_set_counts(velstatus_oplist *list, size_t index, int64_t n_completed, int64_t n_total,
                                             velstatus_error *err)
{
    velstatus_status st = check_index(list, index, err);
    if (st != VELSTATUS_OK)
        return st;
    list->ops[index].h.n_completed = n_completed;
    list->ops[index].h.n_total = n_total;
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_set_time(velstatus_oplist *list, size_t index, velstatus_op_time which, int has,
                                           int64_t ns, velstatus_error *err)
{
    velstatus_status st = check_index(list, index, err);
    velstatus_op *op;
    if (st != VELSTATUS_OK)
        return st;
    if ((int)which < 0 || (int)which > 2)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown timestamp %d", (int)which);
    op = &list->ops[index];
    op->h.tstate[which] = has ? VS__T_UTC : VS__T_ABSENT;
    vs__time_set_ns(op->h.t, &op->h.twide, (int)which, has ? ns : 0);
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_add_post_item(velstatus_oplist *list, size_t index, const char *group,
                                                size_t group_len, const char *resource, size_t resource_len,
                                                const char *ns, size_t ns_len, const char *name, size_t name_len,
                                                velstatus_error *err)
{
    velstatus_status st = check_index(list, index, err);
    const char *in[4];
    size_t inlen[4];
    velstatus_op *op;
    vs__rid *items;
    int i;
    group_len = velstatus__text_len(group, group_len);
    resource_len = velstatus__text_len(resource, resource_len);
    ns_len = velstatus__text_len(ns, ns_len);
    name_len = velstatus__text_len(name, name_len);
    if (st != VELSTATUS_OK)
        return st;
    if (list->kind != VELSTATUS_KIND_BACKUP)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "restore operations have no post-operation items");
    in[0] = group;
    in[1] = resource;
    in[2] = ns;
    in[3] = name;
    inlen[0] = group_len;
    inlen[1] = resource_len;
    inlen[2] = ns_len;
    inlen[3] = name_len;
    for (i = 0; i < 4; i++) {
        if (!in[i] && inlen[i] > 0)
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "post-operation item text %d is NULL", i);
        if (inlen[i] > UINT32_MAX)
            return velstatus__error_set(err, VELSTATUS_E_RANGE, "post-operation item text %d is too long", i);
    }
    op = &list->ops[index];
    if (op->c->npost >= UINT32_MAX - 1)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "too many post-operation items");
    /* Pool memory never moves: build a new array, then switch to it. */
    items = velstatus__pool_alloc(&list->pool, ((size_t)op->c->npost + 1) * sizeof(*items));
    if (!items)
        return velstatus__error_nomem(err);
    if (op->c->npost > 0)
        memcpy(items, op->c->post, op->c->npost * sizeof(*items));
    for (i = 0; i < 4; i++) {
        const char *p = velstatus__pool_str(&list->pool, in[i], inlen[i]);
        if (!p)
            return velstatus__error_nomem(err);
        items[op->c->npost].f[i].p = p;
        items[op->c->npost].f[i].len = (uint32_t)inlen[i];
    }
    op->c->post = items;
    op->c->npost++;
    op->c->post_null = 0;
    return VELSTATUS_OK;
}

/* ---- public: getters ---- */

const char *velstatus_op_string(const velstatus_op *op, velstatus_op_field field, size_t *len)
{
    const vs__str *t;
    if (!op || (int)field < 0 || (int)field >= VS__OP_NFIELDS) {
        if (len)
            *len = 0;
        return NULL;
    }
    t = vs__op_text(op, field);
    if (len)
        *len = t->len;
    return t->p;
}


VS_GETTER(velstatus_op, velstatus_op_post_item_count, size_t, c->npost, 0)

int velstatus_op_post_items_null(const velstatus_op *op)
{
    return !op || op->c->post_null;
}

const char *velstatus_op_post_item(const velstatus_op *op, size_t item, velstatus_op_field field, size_t *len)
{
    int f = (int)field - (int)VELSTATUS_OP_FIELD_RESOURCE_GROUP;
    if (!op || item >= op->c->npost || f < 0 || f > 3) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = op->c->post[item].f[f].len;
    return op->c->post[item].f[f].p;
}

velstatus_op_phase velstatus_op_phase_value(const velstatus_op *op)
{
    return op ? (velstatus_op_phase)op->h.phase : VELSTATUS_OP_PHASE_INVALID;
}


VS_GETTER(velstatus_op, velstatus_op_n_completed, int64_t, h.n_completed, 0)

VS_GETTER(velstatus_op, velstatus_op_n_total, int64_t, h.n_total, 0)


int velstatus_op_time_value(const velstatus_op *op, velstatus_op_time which, int64_t *ns)
{
    int has;
    if (!op || (int)which < 0 || (int)which > 2) {
        if (ns)
            *ns = 0;
        return 0;
    }
    has = op->h.tstate[which] == VS__T_LOCAL || op->h.tstate[which] == VS__T_UTC;
    if (ns)
        *ns = has ? vs__time_ns(op->h.t, op->h.twide, (int)which) : 0;
    return has;
}

int velstatus_op_time_sec(const velstatus_op *op, velstatus_op_time which, int64_t *sec, int32_t *nsec)
{
    int64_t s = 0;
    int32_t n = 0;
    int has = op && (int)which >= 0 && (int)which <= 2 &&
              (op->h.tstate[which] == VS__T_LOCAL || op->h.tstate[which] == VS__T_UTC);
    if (has)
        vs__time_exact(op->h.t, op->h.twide, (int)which, &s, &n);
    if (sec)
        *sec = s;
    if (nsec)
        *nsec = n;
    return has;
}


/* ---- a copy for simulations (lib/forecast/forecast.c) ---- */

static const vs__str empty_str = {velstatus__empty, 0};

velstatus_status velstatus__oplist_clone_state(velstatus_oplist **out, const velstatus_oplist *l, velstatus_error *err)
{
    velstatus_oplist *c;
    size_t i;
    int f;
    velstatus_status st = velstatus__oplist_new(&c, l->ctx, l->kind, err);
    if (st != VELSTATUS_OK)
        return st;
    for (i = 0; i < l->n && st == VELSTATUS_OK; i++) {
        const velstatus_op *src = &l->ops[i];
        velstatus_op *dst = velstatus__oplist_push(c);
        if (!dst) {
            st = velstatus__error_nomem(err);
            break;
        }
        dst->h = src->h;
        /* the texts are the source's: copied into the clone's pool below */
        dst->h.units = dst->h.desc = empty_str;
        for (f = 0; f < VS__OP_NFIELDS && st == VELSTATUS_OK; f++)
            st =
                velstatus__oplist_set_str(c, vs__op_str(dst, f), vs__op_text(src, f)->p, vs__op_text(src, f)->len, err);
    }
    if (st != VELSTATUS_OK) {
        velstatus_oplist_free(c);
        return st;
    }
    *out = c;
    return VELSTATUS_OK;
}
