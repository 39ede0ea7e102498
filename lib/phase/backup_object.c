/* SPDX-License-Identifier: Apache-2.0 */
/* The Backup and Restore decoder (backup_object.h): `kubectl get backup -o
 * json` (an object, a List or an array) into a list of the fields the
 * health and the conditions read. The scanner validates the text; the
 * walk reads keys as apimachinery's decoder does (kube_json.h): unescaped,
 * case-sensitive, the last non-null repeated value wins. */
#include "common/kube_json.h"
#include "phase/private.h"
#include "common/util_array.h"
#include "common/util_pool.h"

#include <stddef.h>
#include <string.h>

typedef struct vs_text {
    const char *s; /* NULL: absent */
    size_t len;
} vs_text;

typedef struct vs_bobj {
    velstatus_kind kind;
    vs_text name, ns, phase, failure, bsl, timeout, backup;
    int deleting, has_gen, has_errors, has_warnings, has_done, has_failed;
    int64_t deletion_ns, generation, errors, warnings, ops_done, ops_failed;
    vs_text *fins; /* in the pool */
    size_t nfin;
} vs_bobj;

struct velstatus_backup_list {
    velstatus__pool pool;
    vs_bobj *items;
    size_t n, cap, skipped;
};

/* The fields of one object: for each, the span of its last non-null value. */
enum {
    F_KIND,
    F_NAME,
    F_NS,
    F_DELETION,
    F_FINALIZERS,
    F_GENERATION,
    F_BSL,
    F_TIMEOUT,
    F_BACKUP,
    F_PHASE,
    F_FAILURE,
    F_ERRORS,
    F_WARNINGS,
    F_BOPS_DONE,
    F_BOPS_FAILED,
    F_ROPS_DONE,
    F_ROPS_FAILED,
    F_N
};

enum { NSUB = 8 };
static const char *const top_keys[4] = {"kind", "metadata", "spec", "status"};
static const char *const sub_keys[3][NSUB] = {
    {"name", "namespace", "deletionTimestamp", "finalizers", "generation", NULL},
    {"storageLocation", "itemOperationTimeout", "backupName", NULL},
    {"phase", "failureReason", "errors", "warnings", "backupItemOperationsCompleted", "backupItemOperationsFailed",
     "restoreItemOperationsCompleted", "restoreItemOperationsFailed"}};
static const int sub_field[3][NSUB] = {
    {F_NAME, F_NS, F_DELETION, F_FINALIZERS, F_GENERATION, -1, -1, -1},
    {F_BSL, F_TIMEOUT, F_BACKUP, -1, -1, -1, -1, -1},
    {F_PHASE, F_FAILURE, F_ERRORS, F_WARNINGS, F_BOPS_DONE, F_BOPS_FAILED, F_ROPS_DONE, F_ROPS_FAILED}};

/* The members of metadata (g 0), spec (1) or status (2) into f. */
static velstatus_status collect_sub(velstatus__kdec *d, int g, size_t vs, size_t ve, velstatus__kspan *f)
{
    velstatus__json_iter it;
    size_t ks, ke, ss, se;
    velstatus__json_iter_init(&it, d->text, vs, ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &ss, &se)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, sub_keys[g], NSUB, &k));
        if (k >= 0 && d->text[ss] != 'n') {
            f[sub_field[g][k]].vs = ss;
            f[sub_field[g][k]].ve = se;
        }
    }
    return VELSTATUS_OK;
}

/* Every field of the object `item`; `kind_only` stops after the kind (an
 * object is checked only once it is known to be a Backup or Restore). */
static velstatus_status collect(velstatus__kdec *d, velstatus__kspan item, velstatus__kspan *f, int kind_only)
{
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    velstatus__json_iter_init(&it, d->text, item.vs, item.ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, top_keys, kind_only ? 1 : 4, &k));
        if (k < 0 || d->text[vs] == 'n')
            continue;
        if (k == 0) {
            f[F_KIND].vs = vs;
            f[F_KIND].ve = ve;
        } else if (d->text[vs] != '{') {
            velstatus__kdec_push_key(d, top_keys[k]);
            return velstatus__kdec_error(d, vs, "expected an object, got %s", velstatus__kdec_type_name(d->text[vs]));
        } else {
            VS_TRY(collect_sub(d, k - 1, vs, ve, f));
        }
    }
    return VELSTATUS_OK;
}

/* A pool copy of a decoded string (NULL stays NULL). */
static velstatus_status keep(velstatus__kdec *d, velstatus_backup_list *l, const char *s, size_t len, vs_text *out)
{
    out->s = NULL;
    out->len = 0;
    if (!s)
        return VELSTATUS_OK;
    out->s = velstatus__pool_str(&l->pool, s, len);
    out->len = len;
    return out->s ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* A string field, kept in the list. */
static velstatus_status keep_string(velstatus__kdec *d, velstatus_backup_list *l, velstatus__kspan v,
                                    const char *parent, const char *key, vs_text *out)
{
    const char *s;
    size_t len;
    VS_TRY(velstatus__kdec_string(d, v, parent, key, VS_KBUF_MESSAGE, &s, &len));
    return keep(d, l, s, len, out);
}

/* metadata.finalizers: an array of strings (a null element is ""). */
static velstatus_status finalizers(velstatus__kdec *d, velstatus_backup_list *l, velstatus__kspan v, vs_bobj *o)
{
    velstatus__json_iter it;
    size_t a, b, n = 0;
    if (v.vs == SIZE_MAX)
        return VELSTATUS_OK;
    if (d->text[v.vs] != '[') {
        velstatus__kdec_push_key(d, "metadata");
        velstatus__kdec_push_key(d, "finalizers");
        return velstatus__kdec_error(d, v.vs, "expected an array, got %s", velstatus__kdec_type_name(d->text[v.vs]));
    }
    velstatus__json_iter_init(&it, d->text, v.vs, v.ve);
    while (velstatus__json_next_element(&it, &a, &b))
        n++;
    if (n > SIZE_MAX / sizeof(*o->fins))
        return velstatus__error_nomem(d->err);
    o->fins = n ? velstatus__pool_alloc(&l->pool, n * sizeof(*o->fins)) : NULL;
    if (n && !o->fins)
        return velstatus__error_nomem(d->err);
    velstatus__json_iter_init(&it, d->text, v.vs, v.ve);
    for (o->nfin = 0; velstatus__json_next_element(&it, &a, &b); o->nfin++) {
        velstatus__kspan e = {a, b};
        int depth = d->path.n;
        velstatus__kdec_push_key(d, "metadata");
        velstatus__kdec_push_key(d, "finalizers");
        velstatus__kdec_push_idx(d, o->nfin);
        if (d->text[a] == 'n')
            e = velstatus__kabsent;
        else if (d->text[a] != '"')
            return velstatus__kdec_error(d, a, "expected a string, got %s", velstatus__kdec_type_name(d->text[a]));
        d->path.n = depth;
        VS_TRY(keep_string(d, l, e, "metadata", "finalizers", &o->fins[o->nfin]));
        if (!o->fins[o->nfin].s)
            o->fins[o->nfin].s = velstatus__empty;
    }
    return VELSTATUS_OK;
}

/* The fields of a Backup or Restore into o. */
static velstatus_status decode_fields(velstatus__kdec *d, velstatus_backup_list *l, const velstatus__kspan *f,
                                      vs_bobj *o)
{
    VS_TRY(keep_string(d, l, f[F_NAME], "metadata", "name", &o->name));
    VS_TRY(keep_string(d, l, f[F_NS], "metadata", "namespace", &o->ns));
    VS_TRY(velstatus__kdec_time(d, f[F_DELETION], "metadata", "deletionTimestamp", &o->deleting, &o->deletion_ns));
    VS_TRY(finalizers(d, l, f[F_FINALIZERS], o));
    VS_TRY(velstatus__kdec_int(d, f[F_GENERATION], "metadata", "generation", &o->has_gen, &o->generation));
    VS_TRY(keep_string(d, l, f[F_BSL], "spec", "storageLocation", &o->bsl));
    VS_TRY(keep_string(d, l, f[F_TIMEOUT], "spec", "itemOperationTimeout", &o->timeout));
    if (o->kind == VELSTATUS_KIND_RESTORE)
        VS_TRY(keep_string(d, l, f[F_BACKUP], "spec", "backupName", &o->backup));
    VS_TRY(keep_string(d, l, f[F_PHASE], "status", "phase", &o->phase));
    VS_TRY(keep_string(d, l, f[F_FAILURE], "status", "failureReason", &o->failure));
    VS_TRY(velstatus__kdec_int(d, f[F_ERRORS], "status", "errors", &o->has_errors, &o->errors));
    VS_TRY(velstatus__kdec_int(d, f[F_WARNINGS], "status", "warnings", &o->has_warnings, &o->warnings));
    if (o->kind == VELSTATUS_KIND_RESTORE) {
        VS_TRY(velstatus__kdec_int(d, f[F_ROPS_DONE], "status", sub_keys[2][6], &o->has_done, &o->ops_done));
        return velstatus__kdec_int(d, f[F_ROPS_FAILED], "status", sub_keys[2][7], &o->has_failed, &o->ops_failed);
    }
    VS_TRY(velstatus__kdec_int(d, f[F_BOPS_DONE], "status", sub_keys[2][4], &o->has_done, &o->ops_done));
    return velstatus__kdec_int(d, f[F_BOPS_FAILED], "status", sub_keys[2][5], &o->has_failed, &o->ops_failed);
}

/* One object: appended when it is a Backup or Restore, else counted skipped. */
static velstatus_status decode_object(velstatus__kdec *d, void *arg, velstatus__kspan item)
{
    velstatus_backup_list *l = arg;
    velstatus__kspan f[F_N];
    const char *kind;
    size_t kind_len;
    vs_bobj o;
    for (int i = 0; i < F_N; i++)
        f[i] = velstatus__kabsent;
    if (d->text[item.vs] == '{')
        VS_TRY(collect(d, item, f, 1));
    VS_TRY(velstatus__kdec_string(d, f[F_KIND], NULL, "kind", VS_KBUF_TOKEN, &kind, &kind_len));
    memset(&o, 0, sizeof(o));
    o.kind = velstatus__kdec_is(kind, kind_len, "Backup")    ? VELSTATUS_KIND_BACKUP
             : velstatus__kdec_is(kind, kind_len, "Restore") ? VELSTATUS_KIND_RESTORE
                                                             : VELSTATUS_KIND_INVALID;
    if (o.kind == VELSTATUS_KIND_INVALID) {
        l->skipped++;
        return VELSTATUS_OK;
    }
    VS_TRY(collect(d, item, f, 0));
    VS_TRY(decode_fields(d, l, f, &o));
    if (VS_ARRAY_RESERVE(l->pool.ctx, l->items, l->cap, l->n + 1, 8))
        return velstatus__error_nomem(d->err);
    l->items[l->n++] = o;
    return VELSTATUS_OK;
}


static void free_list(void *list)
{
    velstatus_backup_list_free(list);
}

static velstatus_status decode_list(velstatus__kdec *d, void *list, velstatus__kspan root)
{
    static const char *const list_kinds[3] = {"List", "BackupList", "RestoreList"};
    return velstatus__kdec_each_item(d, root, list_kinds, 3, "a Backup or Restore", decode_object, list);
}

/* The text: one value, an object, a List or an array. */
static const velstatus__klist backup_list = {sizeof(velstatus_backup_list),
                                             offsetof(velstatus_backup_list, pool),
                                             offsetof(velstatus_backup_list, skipped),
                                             1,
                                             NULL,
                                             0,
                                             NULL,
                                             NULL,
                                             decode_list,
                                             free_list};

velstatus_status velstatus_backup_list_from_json(velstatus_backup_list **out, velstatus_ctx *ctx, const char *json,
                                                 size_t len, velstatus_error *err)
{
    void *l;
    VS_TRY(velstatus__kdec_args(out, ctx, &json, &len, err));
    *out = NULL;
    VS_TRY(velstatus__kdec_list(&backup_list, ctx, json, len, err, &l));
    *out = l;
    return VELSTATUS_OK;
}

void velstatus_backup_list_free(velstatus_backup_list *list)
{
    if (list)
        velstatus__pool_owner_free(&list->pool, list->items, list);
}

VS_GETTER(velstatus_backup_list, velstatus_backup_list_count, size_t, n, 0)
VS_GETTER(velstatus_backup_list, velstatus_backup_list_skipped, size_t, skipped, 0)

/* The i-th object, or NULL. */
static const vs_bobj *at(const velstatus_backup_list *l, size_t i)
{
    return l && i < l->n ? &l->items[i] : NULL;
}

velstatus_kind velstatus_backup_list_kind(const velstatus_backup_list *list, size_t i)
{
    const vs_bobj *o = at(list, i);
    return o ? o->kind : VELSTATUS_KIND_INVALID;
}

/* The getters of a text field. */
#define VS_BOBJ_TEXT(fn, field)                                                       \
    const char *fn(const velstatus_backup_list *list, size_t i, size_t *len)          \
    {                                                                                 \
        const vs_bobj *o = at(list, i);                                               \
        return velstatus__text_out(o ? o->field.s : NULL, o ? o->field.len : 0, len); \
    }
VS_BOBJ_TEXT(velstatus_backup_list_name, name)
VS_BOBJ_TEXT(velstatus_backup_list_namespace, ns)
VS_BOBJ_TEXT(velstatus_backup_list_phase, phase)
VS_BOBJ_TEXT(velstatus_backup_list_failure_reason, failure)
VS_BOBJ_TEXT(velstatus_backup_list_storage_location, bsl)
VS_BOBJ_TEXT(velstatus_backup_list_item_operation_timeout, timeout)
VS_BOBJ_TEXT(velstatus_backup_list_backup_name, backup)

/* The getters of an optional integer field. */
#define VS_BOBJ_I64(fn, has, field)                                    \
    int fn(const velstatus_backup_list *list, size_t i, int64_t *out)  \
    {                                                                  \
        const vs_bobj *o = at(list, i);                                \
        return velstatus__i64_out(out, o && o->has, o ? o->field : 0); \
    }
VS_BOBJ_I64(velstatus_backup_list_deletion_time, deleting, deletion_ns)
VS_BOBJ_I64(velstatus_backup_list_generation, has_gen, generation)
VS_BOBJ_I64(velstatus_backup_list_errors, has_errors, errors)
VS_BOBJ_I64(velstatus_backup_list_warnings, has_warnings, warnings)
VS_BOBJ_I64(velstatus_backup_list_item_operations_completed, has_done, ops_done)
VS_BOBJ_I64(velstatus_backup_list_item_operations_failed, has_failed, ops_failed)

size_t velstatus_backup_list_finalizer_count(const velstatus_backup_list *list, size_t i)
{
    const vs_bobj *o = at(list, i);
    return o ? o->nfin : 0;
}

const char *velstatus_backup_list_finalizer(const velstatus_backup_list *list, size_t i, size_t j, size_t *len)
{
    const vs_bobj *o = at(list, i);
    const vs_text *t = o && j < o->nfin ? &o->fins[j] : NULL;
    return velstatus__text_out(t ? t->s : NULL, t ? t->len : 0, len);
}

/* ---- the kstatus-style conditions (backup_object.h) ---- */

static const char *const condition_names[] = {"False", "True", "Unknown"};
VS_ENUM_TOKENS(condition_status, velstatus_condition_status, condition_names, "condition status")

void velstatus_backup_conditions_init(velstatus_backup_conditions *c, size_t struct_size)
{
    velstatus__sized_init(c, struct_size, NULL, sizeof(*c));
}

/* Whether the phase is valid for the kind, and in the policy's release. */
static velstatus_status phase_known(velstatus_backup_conditions *c, velstatus_kind kind, const char *phase, size_t len,
                                    const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_phase ph;
    c->phase_valid = 1;
    c->phase_in_release = 1;
    if (!phase)
        return VELSTATUS_OK;
    c->phase_valid =
        velstatus_phase_from_string(&ph, phase, len, NULL) == VELSTATUS_OK && velstatus_phase_valid(kind, ph);
    return c->phase_valid ? velstatus_phase_exists(&c->phase_in_release, kind, ph, policy, err) : VELSTATUS_OK;
}

/* Ready, Reconciling and Stalled, and their reason. */
static void conditions(velstatus_backup_conditions *c, const char *phase, size_t len, int deleting)
{
    static const char *const stalled[] = {"Failed", "FailedValidation", "PartiallyFailed"};
    c->ready = c->stalled = VELSTATUS_CONDITION_FALSE;
    c->reconciling = VELSTATUS_CONDITION_TRUE;
    c->reason = !phase ? "NoStatus" : len == 0 ? "New" : phase;
    if (deleting) {
        c->reason = "Deleting";
        return;
    }
    if (phase && !(c->phase_valid && c->phase_in_release)) {
        c->ready = c->reconciling = c->stalled = VELSTATUS_CONDITION_UNKNOWN;
        c->reason = "UnknownPhase";
        return;
    }
    if (phase && velstatus__kdec_is(phase, len, "Completed")) {
        c->ready = VELSTATUS_CONDITION_TRUE;
        c->reconciling = VELSTATUS_CONDITION_FALSE;
    }
    for (size_t i = 0; phase && i < VS_N(stalled); i++) {
        if (velstatus__kdec_is(phase, len, stalled[i])) {
            c->reconciling = VELSTATUS_CONDITION_FALSE;
            c->stalled = VELSTATUS_CONDITION_TRUE;
        }
    }
}

velstatus_status velstatus_backup_conditions_of(velstatus_backup_conditions *out, velstatus_kind kind,
                                                const char *phase, size_t phase_len, int deleting,
                                                const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_backup_conditions c;
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind is %d: backup or restore", (int)kind);
    VS_TRY(velstatus__sized_copy(&c, sizeof(c), VS_BACKUP_CONDITIONS_SIZE_V1, out, "backup_conditions", err));
    phase_len = velstatus__text_len(phase, phase_len);
    VS_TRY(phase_known(&c, kind, phase, phase_len, policy, err));
    conditions(&c, phase, phase_len, deleting);
    c.reason_len = c.reason == phase ? phase_len : strlen(c.reason);
    c.struct_size = out->struct_size;
    c.flags = out->flags;
    memcpy(out, &c, out->struct_size < sizeof(c) ? out->struct_size : sizeof(c));
    return VELSTATUS_OK;
}
