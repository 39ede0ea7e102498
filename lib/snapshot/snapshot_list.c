/* SPDX-License-Identifier: Apache-2.0 */
/* The VolumeSnapshot and VolumeSnapshotContent decoder (snapshot.h): an
 * object, a List, an array or a watch stream into the fields the
 * VolumeSnapshot plugin reads. Keys are read as apimachinery's decoder reads
 * them (kube_json.h); the pointer fields of the snapshot API are reset by a
 * later null, as Go's decoder resets a pointer (doc/data-mover.md). */
#include "snapshot/private.h"
#include "common/kube_json.h"
#include "common/util_array.h"

#include <stddef.h>
#include <string.h>

static const char *const kind_names[] = {"volume_snapshot", "volume_snapshot_content"};
VS_ENUM_TOKENS(snapshot_kind, velstatus_snapshot_kind, kind_names, "snapshot kind")

static const char *const field_names[VS_SNAP_NFIELD] = {
    "api_version",   "name",          "namespace",          "backup_name_label",
    "source_pvc",    "class_name",    "bound_content",      "restore_size",
    "error_message", "driver",        "deletion_policy",    "snapshot_handle",
    "ref_name",      "ref_namespace", "creation_timestamp", "deletion_timestamp",
    "creation_time", "error_time",    "ready_to_use"};
VS_ENUM_TOKENS(snapshot_field, velstatus_snapshot_field, field_names, "snapshot field")

/* The spans collected from one object: a slot per field read, and one for
 * each object whose presence counts (status, status.error). */
enum {
    S_KIND,
    S_API,
    S_NAME,
    S_NS,
    S_CTS,
    S_DTS,
    S_LABEL,
    S_SRC_PVC,
    S_CLASS,
    S_DRIVER,
    S_DELPOL,
    S_REF_NAME,
    S_REF_NS,
    S_STATUS,
    S_BOUND,
    S_READY,
    S_RSIZE,
    S_CTIME,
    S_HANDLE,
    S_ERROR,
    S_ERR_MSG,
    S_ERR_TIME,
    S_N
};

/* A key of the object tree: a leaf (sub NULL) or an object; `reset`: a
 * null resets it and everything under it (a Go pointer or map), else a null
 * leaves it as it was (a Go string or struct). */
typedef struct knode {
    const char *key;
    int slot; /* the leaf's slot, or the object's presence slot; -1 none */
    int reset;
    const struct knode *sub;
    size_t nsub;
} knode;

#define LEAF(k, s, r)    \
    {                    \
        k, s, r, NULL, 0 \
    }
#define OBJ(k, s, r, sub)       \
    {                           \
        k, s, r, sub, VS_N(sub) \
    }
static const knode labels_keys[] = {LEAF("velero.io/backup-name", S_LABEL, 0)};
static const knode meta_keys[] = {LEAF("name", S_NAME, 0), LEAF("namespace", S_NS, 0),
                                  LEAF("creationTimestamp", S_CTS, 1), LEAF("deletionTimestamp", S_DTS, 1),
                                  OBJ("labels", -1, 1, labels_keys)};
static const knode source_keys[] = {LEAF("persistentVolumeClaimName", S_SRC_PVC, 1)};
static const knode ref_keys[] = {LEAF("name", S_REF_NAME, 0), LEAF("namespace", S_REF_NS, 0)};
static const knode spec_keys[] = {OBJ("source", -1, 0, source_keys), LEAF("volumeSnapshotClassName", S_CLASS, 1),
                                  LEAF("driver", S_DRIVER, 0), LEAF("deletionPolicy", S_DELPOL, 0),
                                  OBJ("volumeSnapshotRef", -1, 0, ref_keys)};
static const knode error_keys[] = {LEAF("message", S_ERR_MSG, 1), LEAF("time", S_ERR_TIME, 1)};
static const knode status_keys[] = {LEAF("boundVolumeSnapshotContentName", S_BOUND, 1),
                                    LEAF("readyToUse", S_READY, 1),
                                    LEAF("restoreSize", S_RSIZE, 1),
                                    LEAF("creationTime", S_CTIME, 1),
                                    LEAF("snapshotHandle", S_HANDLE, 1),
                                    OBJ("error", S_ERROR, 1, error_keys)};
static const knode top_keys[] = {LEAF("kind", S_KIND, 0), LEAF("apiVersion", S_API, 0),
                                 OBJ("metadata", -1, 0, meta_keys), OBJ("spec", -1, 0, spec_keys),
                                 OBJ("status", S_STATUS, 1, status_keys)};
enum { VS_MAXKEYS = 8 };

/* Everything under node nd absent (a null for a pointer or map). */
static void clear(const knode *nd, velstatus__kspan *f)
{
    if (nd->slot >= 0)
        f[nd->slot] = velstatus__kabsent;
    for (size_t i = 0; i < nd->nsub; i++)
        clear(&nd->sub[i], f);
}

/* The members of the object obj that the nodes name, into f. */
static velstatus_status walk(velstatus__kdec *d, velstatus__kspan obj, const knode *nodes, size_t n,
                             velstatus__kspan *f)
{
    const char *names[VS_MAXKEYS];
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    for (size_t i = 0; i < n; i++)
        names[i] = nodes[i].key;
    velstatus__json_iter_init(&it, d->text, obj.vs, obj.ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        const knode *nd;
        velstatus__kspan v = {vs, ve};
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, names, n, &k));
        if (k < 0)
            continue;
        nd = &nodes[k];
        if (d->text[vs] == 'n') {
            if (nd->reset)
                clear(nd, f);
            continue;
        }
        if (nd->slot >= 0)
            f[nd->slot] = v;
        if (!nd->sub)
            continue;
        velstatus__kdec_push_key(d, nd->key);
        if (d->text[vs] != '{')
            return velstatus__kdec_error(d, vs, "expected an object, got %s", velstatus__kdec_type_name(d->text[vs]));
        VS_TRY(walk(d, v, nd->sub, nd->nsub, f));
        d->path.n--;
    }
    return VELSTATUS_OK;
}

/* Where each slot sits, for messages: outer.parent.key (outer, parent may be NULL). */
typedef struct slot_path {
    const char *outer, *parent, *key;
} slot_path;
static const slot_path slot_paths[S_N] = {
    [S_KIND] = {NULL, NULL, "kind"},
    [S_API] = {NULL, NULL, "apiVersion"},
    [S_NAME] = {NULL, "metadata", "name"},
    [S_NS] = {NULL, "metadata", "namespace"},
    [S_CTS] = {NULL, "metadata", "creationTimestamp"},
    [S_DTS] = {NULL, "metadata", "deletionTimestamp"},
    [S_LABEL] = {"metadata", "labels", "velero.io/backup-name"},
    [S_SRC_PVC] = {"spec", "source", "persistentVolumeClaimName"},
    [S_CLASS] = {NULL, "spec", "volumeSnapshotClassName"},
    [S_DRIVER] = {NULL, "spec", "driver"},
    [S_DELPOL] = {NULL, "spec", "deletionPolicy"},
    [S_REF_NAME] = {"spec", "volumeSnapshotRef", "name"},
    [S_REF_NS] = {"spec", "volumeSnapshotRef", "namespace"},
    [S_STATUS] = {NULL, NULL, "status"},
    [S_BOUND] = {NULL, "status", "boundVolumeSnapshotContentName"},
    [S_READY] = {NULL, "status", "readyToUse"},
    [S_RSIZE] = {NULL, "status", "restoreSize"},
    [S_CTIME] = {NULL, "status", "creationTime"},
    [S_HANDLE] = {NULL, "status", "snapshotHandle"},
    [S_ERROR] = {NULL, "status", "error"},
    [S_ERR_MSG] = {"status", "error", "message"},
    [S_ERR_TIME] = {"status", "error", "time"},
};

/* The text field of slot s into the object's field fld (kept in the pool). */
static velstatus_status text_slot(velstatus__kdec *d, vs_snap_list *l, const velstatus__kspan *f, int s, vs_snap *o,
                                  velstatus_snapshot_field fld)
{
    const slot_path *p = &slot_paths[s];
    const char *t;
    size_t len;
    int depth = d->path.n;
    if (p->outer)
        velstatus__kdec_push_key(d, p->outer);
    VS_TRY(velstatus__kdec_string(d, f[s], p->parent, p->key, VS_KBUF_MESSAGE, &t, &len));
    d->path.n = depth;
    if (!t)
        return VELSTATUS_OK;
    o->text[fld].s = velstatus__pool_str(&l->pool, t, len);
    o->text[fld].len = len;
    return o->text[fld].s ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* The RFC 3339 time of slot s into time field fld. */
static velstatus_status time_slot(velstatus__kdec *d, const velstatus__kspan *f, int s, vs_snap *o,
                                  velstatus_snapshot_field fld)
{
    const slot_path *p = &slot_paths[s];
    int depth = d->path.n, i = (int)fld - VS_SNAP_FIRST_TIME;
    if (p->outer)
        velstatus__kdec_push_key(d, p->outer);
    VS_TRY(velstatus__kdec_time(d, f[s], p->parent, p->key, &o->has_time[i], &o->time[i]));
    d->path.n = depth;
    return VELSTATUS_OK;
}

/* status.readyToUse: a boolean. */
static velstatus_status ready_slot(velstatus__kdec *d, const velstatus__kspan *f, vs_snap *o)
{
    char c;
    if (f[S_READY].vs == SIZE_MAX)
        return VELSTATUS_OK;
    c = d->text[f[S_READY].vs];
    if (c != 't' && c != 'f') {
        velstatus__kdec_push_key(d, "status");
        velstatus__kdec_push_key(d, "readyToUse");
        return velstatus__kdec_error(d, f[S_READY].vs, "expected a boolean, got %s", velstatus__kdec_type_name(c));
    }
    o->has_ready = 1;
    o->ready = c == 't';
    return VELSTATUS_OK;
}

/* The text fields each kind has, slot and field. */
typedef struct text_map {
    int slot;
    velstatus_snapshot_field fld;
    unsigned kinds; /* 1: VS, 2: VSC */
} text_map;
static const text_map texts[] = {
    {S_API, VELSTATUS_SNAPSHOT_FIELD_API_VERSION, 3},        {S_NAME, VELSTATUS_SNAPSHOT_FIELD_NAME, 3},
    {S_NS, VELSTATUS_SNAPSHOT_FIELD_NAMESPACE, 1},           {S_LABEL, VELSTATUS_SNAPSHOT_FIELD_BACKUP_NAME_LABEL, 3},
    {S_SRC_PVC, VELSTATUS_SNAPSHOT_FIELD_SOURCE_PVC, 1},     {S_CLASS, VELSTATUS_SNAPSHOT_FIELD_CLASS_NAME, 3},
    {S_BOUND, VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT, 1},    {S_RSIZE, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, 1},
    {S_ERR_MSG, VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE, 3},  {S_DRIVER, VELSTATUS_SNAPSHOT_FIELD_DRIVER, 2},
    {S_DELPOL, VELSTATUS_SNAPSHOT_FIELD_DELETION_POLICY, 2}, {S_HANDLE, VELSTATUS_SNAPSHOT_FIELD_SNAPSHOT_HANDLE, 2},
    {S_REF_NAME, VELSTATUS_SNAPSHOT_FIELD_REF_NAME, 2},      {S_REF_NS, VELSTATUS_SNAPSHOT_FIELD_REF_NAMESPACE, 2},
};

/* A VSC's integer slot (restoreSize, creationTime). */
static velstatus_status int_slot(velstatus__kdec *d, const velstatus__kspan *f, int s, int *has, int64_t *v)
{
    return velstatus__kdec_int(d, f[s], slot_paths[s].parent, slot_paths[s].key, has, v);
}

/* The fields of a VolumeSnapshot or VolumeSnapshotContent into o. */
static velstatus_status decode_fields(velstatus__kdec *d, vs_snap_list *l, const velstatus__kspan *f, vs_snap *o)
{
    unsigned bit = o->kind == VELSTATUS_SNAPSHOT_KIND_CONTENT ? 2u : 1u;
    for (size_t i = 0; i < VS_N(texts); i++)
        if (texts[i].kinds & bit)
            VS_TRY(text_slot(d, l, f, texts[i].slot, o, texts[i].fld));
    VS_TRY(time_slot(d, f, S_CTS, o, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP));
    VS_TRY(time_slot(d, f, S_DTS, o, VELSTATUS_SNAPSHOT_FIELD_DELETION_TIMESTAMP));
    VS_TRY(time_slot(d, f, S_ERR_TIME, o, VELSTATUS_SNAPSHOT_FIELD_ERROR_TIME));
    VS_TRY(ready_slot(d, f, o));
    o->has_status = f[S_STATUS].vs != SIZE_MAX;
    o->has_error = f[S_ERROR].vs != SIZE_MAX;
    if (bit == 1)
        return time_slot(d, f, S_CTIME, o, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME);
    VS_TRY(int_slot(d, f, S_RSIZE, &o->has_size, &o->size));
    VS_TRY(int_slot(d, f, S_CTIME, &o->has_ctime, &o->ctime));
    o->has_time[VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME - VS_SNAP_FIRST_TIME] = o->has_ctime;
    o->time[VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME - VS_SNAP_FIRST_TIME] = o->ctime;
    return VELSTATUS_OK;
}

/* The object `item` decoded into *o; o->kind INVALID when it is of another kind. */
static velstatus_status decode_one(velstatus__kdec *d, vs_snap_list *l, velstatus__kspan item, vs_snap *o)
{
    velstatus__kspan f[S_N];
    const char *kind;
    size_t kind_len;
    for (int i = 0; i < S_N; i++)
        f[i] = velstatus__kabsent;
    memset(o, 0, sizeof(*o));
    o->kind = VELSTATUS_SNAPSHOT_KIND_INVALID;
    if (d->text[item.vs] != '{')
        return VELSTATUS_OK;
    VS_TRY(walk(d, item, top_keys, 1, f));
    VS_TRY(velstatus__kdec_string(d, f[S_KIND], NULL, "kind", VS_KBUF_TOKEN, &kind, &kind_len));
    o->kind = velstatus__kdec_is(kind, kind_len, "VolumeSnapshot")          ? VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT
              : velstatus__kdec_is(kind, kind_len, "VolumeSnapshotContent") ? VELSTATUS_SNAPSHOT_KIND_CONTENT
                                                                            : VELSTATUS_SNAPSHOT_KIND_INVALID;
    if (o->kind == VELSTATUS_SNAPSHOT_KIND_INVALID)
        return VELSTATUS_OK;
    VS_TRY(walk(d, item, top_keys, VS_N(top_keys), f));
    return decode_fields(d, l, f, o);
}

/* The index of the object with o's kind, namespace and name, or -1 (from the end). */
static long find_same(const vs_snap_list *l, const vs_snap *o)
{
    const vs_text *ns = &o->text[VELSTATUS_SNAPSHOT_FIELD_NAMESPACE], *nm = &o->text[VELSTATUS_SNAPSHOT_FIELD_NAME];
    size_t idx;
    if (!velstatus_snapshot_list_find(l, o->kind, ns->s, ns->len, nm->s, nm->len, &idx))
        return -1;
    return (long)idx;
}

/* Removes the object o is the last state of (a DELETED event). */
static void remove_same(vs_snap_list *l, const vs_snap *o)
{
    long at = find_same(l, o);
    if (at < 0)
        return;
    memmove(&l->items[at], &l->items[at + 1], (l->n - (size_t)at - 1) * sizeof(*l->items));
    l->n--;
}

/* The object item applied to the list `how` (VS_KPUT_*); skipped when of another kind. */
static velstatus_status put(velstatus__kdec *d, void *list, velstatus__kspan item, int how)
{
    vs_snap_list *l = list;
    vs_snap o;
    long at;
    VS_TRY(decode_one(d, l, item, &o));
    if (o.kind == VELSTATUS_SNAPSHOT_KIND_INVALID) {
        l->skipped++;
        return VELSTATUS_OK;
    }
    if (how == VS_KPUT_DELETE) {
        remove_same(l, &o);
        return VELSTATUS_OK;
    }
    at = how == VS_KPUT_UPSERT ? find_same(l, &o) : -1;
    if (at >= 0) {
        l->items[at] = o;
        return VELSTATUS_OK;
    }
    if (VS_ARRAY_RESERVE(l->pool.ctx, l->items, l->cap, l->n + 1, 8))
        return velstatus__error_nomem(d->err);
    l->items[l->n++] = o;
    return VELSTATUS_OK;
}

static void free_list(void *list)
{
    velstatus_snapshot_list_free(list);
}

static const char *const list_kinds[3] = {"List", "VolumeSnapshotList", "VolumeSnapshotContentList"};

/* The text: one document or a watch stream (velstatus__kdec_document_or_stream()). */
static const velstatus__klist snap_list = {sizeof(vs_snap_list),
                                           offsetof(vs_snap_list, pool),
                                           offsetof(vs_snap_list, skipped),
                                           0,
                                           list_kinds,
                                           3,
                                           "a VolumeSnapshot or VolumeSnapshotContent",
                                           put,
                                           NULL,
                                           free_list};

velstatus_status velstatus_snapshot_list_from_json(velstatus_snapshot_list **out, velstatus_ctx *ctx, const char *json,
                                                   size_t len, velstatus_error *err)
{
    void *l;
    VS_TRY(velstatus__kdec_args(out, ctx, &json, &len, err));
    *out = NULL;
    VS_TRY(velstatus__kdec_list(&snap_list, ctx, json, len, err, &l));
    *out = l;
    return VELSTATUS_OK;
}

void velstatus_snapshot_list_free(velstatus_snapshot_list *list)
{
    if (list)
        velstatus__pool_owner_free(&list->pool, list->items, list);
}

VS_GETTER(velstatus_snapshot_list, velstatus_snapshot_list_count, size_t, n, 0)
VS_GETTER(velstatus_snapshot_list, velstatus_snapshot_list_skipped, size_t, skipped, 0)

const vs_snap *velstatus__snapshot_at(const vs_snap_list *l, size_t i)
{
    return l && i < l->n ? &l->items[i] : NULL;
}

velstatus_snapshot_kind velstatus_snapshot_list_kind(const velstatus_snapshot_list *list, size_t i)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    return o ? o->kind : VELSTATUS_SNAPSHOT_KIND_INVALID;
}

int velstatus_snapshot_list_has_status(const velstatus_snapshot_list *list, size_t i)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    return o && o->has_status;
}

int velstatus_snapshot_list_has_error(const velstatus_snapshot_list *list, size_t i)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    return o && o->has_error;
}

const char *velstatus_snapshot_list_text(const velstatus_snapshot_list *list, size_t i, velstatus_snapshot_field field,
                                         size_t *len)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    int ok = o && (int)field >= 0 && (int)field < VS_SNAP_NTEXT;
    return velstatus__text_out(ok ? o->text[field].s : NULL, ok ? o->text[field].len : 0, len);
}

int velstatus_snapshot_list_time(const velstatus_snapshot_list *list, size_t i, velstatus_snapshot_field field,
                                 int64_t *ns)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    int t = (int)field - VS_SNAP_FIRST_TIME;
    int ok = o && t >= 0 && t < VS_SNAP_NTIME && o->has_time[t];
    return velstatus__i64_out(ns, ok, ok ? o->time[t] : 0);
}

int velstatus_snapshot_list_int(const velstatus_snapshot_list *list, size_t i, velstatus_snapshot_field field,
                                int64_t *out)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    if (o && field == VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE)
        return velstatus__i64_out(out, o->has_size, o->size);
    if (o && field == VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME)
        return velstatus__i64_out(out, o->has_ctime, o->ctime);
    return velstatus__i64_out(out, 0, 0);
}

int velstatus_snapshot_list_bool(const velstatus_snapshot_list *list, size_t i, velstatus_snapshot_field field,
                                 int *out)
{
    const vs_snap *o = velstatus__snapshot_at(list, i);
    int ok = o && field == VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE && o->has_ready;
    if (out)
        *out = ok && o->ready;
    return ok;
}

int velstatus_snapshot_list_find(const velstatus_snapshot_list *list, velstatus_snapshot_kind kind, const char *ns,
                                 size_t ns_len, const char *name, size_t name_len, size_t *index)
{
    ns_len = velstatus__text_len(ns, ns_len);
    name_len = velstatus__text_len(name, name_len);
    for (size_t i = list ? list->n : 0; i-- > 0;) {
        const vs_snap *o = &list->items[i];
        const vs_text *n = &o->text[VELSTATUS_SNAPSHOT_FIELD_NAME], *s = &o->text[VELSTATUS_SNAPSHOT_FIELD_NAMESPACE];
        if (o->kind != kind || n->len != name_len || (name_len && memcmp(n->s, name, name_len) != 0))
            continue;
        if (kind == VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT &&
            (s->len != ns_len || (ns_len && memcmp(s->s, ns, ns_len) != 0)))
            continue;
        if (index)
            *index = i;
        return 1;
    }
    return 0;
}
