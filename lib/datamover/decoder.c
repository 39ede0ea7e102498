/* SPDX-License-Identifier: Apache-2.0 */
/* The DataUpload/DataDownload decoder (datamover.h): `kubectl get
 * datauploads -o json` (an object, a List or an array) into the fields the
 * CSI plugin and the node-agent read. The scanner validates the text; the
 * walk reads keys as apimachinery's decoder does (kube_json.h): unescaped,
 * case-sensitive, the last non-null repeated value wins, a repeated object
 * merges into the earlier one. The fields are one table of paths. */
#include "common/kube_json.h"
#include "common/util_array.h"
#include "datamover/private.h"

#include <stddef.h>
#include <string.h>

/* Go's null: a string, integer or boolean keeps its value (no-op), a time
 * (a pointer or metav1.Time's UnmarshalJSON) becomes absent, the labels map
 * becomes nil (every label absent), a label's value the empty text. */
enum { T_TEXT, T_TIME, T_INT, T_BOOL, T_LABEL };
enum { K_UP = 1, K_DOWN = 2, K_BOTH = 3 };
enum { MAXDEPTH = 3 };

/* One field: its path (2 or 3 keys), type, getter index and the kinds that have it. */
typedef struct dm_field {
    const char *path[MAXDEPTH];
    unsigned char type, id, kinds;
} dm_field;

#define LBL(key, id)                                                                      \
    {                                                                                     \
        {"metadata", "labels", "velero.io/" key}, T_LABEL, VELSTATUS_DM_TEXT_##id, K_BOTH \
    }
static const dm_field fields[] = {
    {{"metadata", "name"}, T_TEXT, VELSTATUS_DM_TEXT_NAME, K_BOTH},
    {{"metadata", "namespace"}, T_TEXT, VELSTATUS_DM_TEXT_NAMESPACE, K_BOTH},
    {{"metadata", "uid"}, T_TEXT, VELSTATUS_DM_TEXT_UID, K_BOTH},
    {{"metadata", "creationTimestamp"}, T_TIME, VELSTATUS_DM_TIME_CREATED, K_BOTH},
    {{"metadata", "deletionTimestamp"}, T_TIME, VELSTATUS_DM_TIME_DELETED, K_BOTH},
    {{"metadata", "generation"}, T_INT, VELSTATUS_DM_INT_GENERATION, K_BOTH},
    LBL("async-operation-id", OPERATION_ID),
    LBL("backup-name", BACKUP_NAME),
    LBL("backup-uid", BACKUP_UID),
    LBL("restore-name", RESTORE_NAME),
    LBL("restore-uid", RESTORE_UID),
    LBL("pvc-uid", PVC_UID),
    LBL("accepted-by", ACCEPTED_BY),
    LBL("expose-on-going", EXPOSE_ON_GOING),
    {{"metadata", "annotations", "velero.io/accepted-at"}, T_LABEL, VELSTATUS_DM_TEXT_ACCEPTED_AT, K_BOTH},
    {{"spec", "backupStorageLocation"}, T_TEXT, VELSTATUS_DM_TEXT_BSL, K_BOTH},
    {{"spec", "datamover"}, T_TEXT, VELSTATUS_DM_TEXT_DATA_MOVER, K_BOTH},
    {{"spec", "sourceNamespace"}, T_TEXT, VELSTATUS_DM_TEXT_SOURCE_NAMESPACE, K_BOTH},
    {{"spec", "operationTimeout"}, T_TEXT, VELSTATUS_DM_TEXT_OPERATION_TIMEOUT, K_BOTH},
    {{"spec", "cancel"}, T_BOOL, VELSTATUS_DM_INT_CANCEL, K_BOTH},
    {{"spec", "snapshotType"}, T_TEXT, VELSTATUS_DM_TEXT_SNAPSHOT_TYPE, K_UP},
    {{"spec", "sourcePVC"}, T_TEXT, VELSTATUS_DM_TEXT_SOURCE_PVC, K_UP},
    {{"spec", "csiSnapshot", "volumeSnapshot"}, T_TEXT, VELSTATUS_DM_TEXT_VOLUME_SNAPSHOT, K_UP},
    {{"spec", "csiSnapshot", "storageClass"}, T_TEXT, VELSTATUS_DM_TEXT_STORAGE_CLASS, K_UP},
    {{"spec", "csiSnapshot", "snapshotClass"}, T_TEXT, VELSTATUS_DM_TEXT_SNAPSHOT_CLASS, K_UP},
    {{"spec", "csiSnapshot", "driver"}, T_TEXT, VELSTATUS_DM_TEXT_CSI_DRIVER, K_UP},
    {{"spec", "targetVolume", "pvc"}, T_TEXT, VELSTATUS_DM_TEXT_TARGET_PVC, K_DOWN},
    {{"spec", "targetVolume", "pv"}, T_TEXT, VELSTATUS_DM_TEXT_TARGET_PV, K_DOWN},
    {{"spec", "targetVolume", "namespace"}, T_TEXT, VELSTATUS_DM_TEXT_TARGET_NAMESPACE, K_DOWN},
    {{"spec", "snapshotID"}, T_TEXT, VELSTATUS_DM_TEXT_SNAPSHOT_ID, K_DOWN},
    {{"spec", "nodeOS"}, T_TEXT, VELSTATUS_DM_TEXT_NODE_OS, K_DOWN},
    {{"spec", "snapshotSize"}, T_INT, VELSTATUS_DM_INT_SNAPSHOT_SIZE, K_DOWN},
    {{"status", "phase"}, T_TEXT, VELSTATUS_DM_TEXT_PHASE, K_BOTH},
    {{"status", "message"}, T_TEXT, VELSTATUS_DM_TEXT_MESSAGE, K_BOTH},
    {{"status", "node"}, T_TEXT, VELSTATUS_DM_TEXT_NODE, K_BOTH},
    {{"status", "acceptedByNode"}, T_TEXT, VELSTATUS_DM_TEXT_ACCEPTED_BY_NODE, K_BOTH},
    {{"status", "startTimestamp"}, T_TIME, VELSTATUS_DM_TIME_STARTED, K_BOTH},
    {{"status", "completionTimestamp"}, T_TIME, VELSTATUS_DM_TIME_COMPLETED, K_BOTH},
    {{"status", "acceptedTimestamp"}, T_TIME, VELSTATUS_DM_TIME_ACCEPTED, K_BOTH},
    {{"status", "progress", "bytesDone"}, T_INT, VELSTATUS_DM_INT_BYTES_DONE, K_BOTH},
    {{"status", "progress", "totalBytes"}, T_INT, VELSTATUS_DM_INT_TOTAL_BYTES, K_BOTH},
    {{"status", "nodeOS"}, T_TEXT, VELSTATUS_DM_TEXT_NODE_OS, K_UP},
    {{"status", "snapshotID"}, T_TEXT, VELSTATUS_DM_TEXT_SNAPSHOT_ID, K_UP},
    {{"status", "path"}, T_TEXT, VELSTATUS_DM_TEXT_PATH, K_UP},
    {{"status", "incrementalBytes"}, T_INT, VELSTATUS_DM_INT_INCREMENTAL_BYTES, K_UP},
};
#undef LBL
enum { NF = VS_N(fields) };

/* The walk's state: the fields wanted (those of the object's kind) and the
 * span of each one's last non-null value. */
typedef struct dm_walk {
    velstatus__kdec *d;
    unsigned kinds;
    velstatus__kspan span[NF];
} dm_walk;

/* The distinct keys at `depth` of the candidate fields cand[0..n): names[]
 * (NULL-terminated) and, for each candidate, the index of its key. */
static size_t keys_at(const unsigned char *cand, size_t n, int depth, const char **names, int *key_of)
{
    size_t nk = 0;
    for (size_t c = 0; c < n; c++) {
        const char *k = fields[cand[c]].path[depth];
        size_t j = 0;
        while (j < nk && strcmp(names[j], k) != 0)
            j++;
        if (j == nk)
            names[nk++] = k;
        key_of[c] = (int)j;
    }
    names[nk] = NULL;
    return nk;
}

static velstatus_status walk(dm_walk *w, size_t vs, size_t ve, int depth, const unsigned char *cand, size_t n);

/* A null member (key k): a time or a label takes the null (decode_field()
 * reads it), a null labels map clears every label; anything else keeps its
 * value. */
static velstatus_status null_member(dm_walk *w, size_t vs, size_t ve, int depth, const unsigned char *cand, size_t n,
                                    const int *key_of, int k)
{
    for (size_t c = 0; c < n; c++) {
        const dm_field *f = &fields[cand[c]];
        int leaf = depth + 1 == MAXDEPTH || !f->path[depth + 1];
        if (key_of[c] != k)
            continue;
        if (leaf && (f->type == T_TIME || f->type == T_LABEL)) {
            w->span[cand[c]].vs = vs;
            w->span[cand[c]].ve = ve;
        } else if (f->type == T_LABEL && depth == 1) {
            w->span[cand[c]] = velstatus__kabsent;
        }
    }
    return VELSTATUS_OK;
}

/* The member (key k of names) with value [vs, ve): a leaf field takes the
 * span, an inner key is walked one level down. */
static velstatus_status member(dm_walk *w, size_t vs, size_t ve, int depth, const unsigned char *cand, size_t n,
                               const int *key_of, int k, const char *name)
{
    unsigned char sub[NF];
    size_t ns = 0;
    velstatus__kdec *d = w->d;
    if (d->text[vs] == 'n')
        return null_member(w, vs, ve, depth, cand, n, key_of, k);
    for (size_t c = 0; c < n; c++) {
        if (key_of[c] != k)
            continue;
        if (depth + 1 == MAXDEPTH || !fields[cand[c]].path[depth + 1]) {
            w->span[cand[c]].vs = vs;
            w->span[cand[c]].ve = ve;
        } else {
            sub[ns++] = cand[c];
        }
    }
    if (!ns)
        return VELSTATUS_OK;
    velstatus__kdec_push_key(d, name);
    if (d->text[vs] != '{')
        return velstatus__kdec_error(d, vs, "expected an object, got %s", velstatus__kdec_type_name(d->text[vs]));
    VS_TRY(walk(w, vs, ve, depth + 1, sub, ns));
    d->path.n--;
    return VELSTATUS_OK;
}

/* The members of the object [vs, ve) at `depth`, for the candidate fields. */
static velstatus_status walk(dm_walk *w, size_t vs, size_t ve, int depth, const unsigned char *cand, size_t n)
{
    const char *names[NF + 1];
    int key_of[NF];
    velstatus__json_iter it;
    size_t ks, ke, ms, me;
    keys_at(cand, n, depth, names, key_of);
    velstatus__json_iter_init(&it, w->d->text, vs, ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &ms, &me)) {
        int k;
        VS_TRY(velstatus__kdec_key(w->d, ks, ke, names, NF, &k));
        if (k >= 0)
            VS_TRY(member(w, ms, me, depth, cand, n, key_of, k, names[k]));
    }
    return VELSTATUS_OK;
}

/* A pool copy of a decoded string (NULL stays NULL). */
static velstatus_status keep(velstatus__kdec *d, velstatus_dm_list *l, const char *s, size_t len, vs_dm_text *out)
{
    out->s = NULL;
    out->len = 0;
    if (!s)
        return VELSTATUS_OK;
    out->s = velstatus__pool_str(&l->pool, s, len);
    out->len = len;
    return out->s ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* Field f's value (span v) into o. The path before its last two keys is
 * pushed for the messages. */
static velstatus_status decode_field(velstatus__kdec *d, velstatus_dm_list *l, const dm_field *f, velstatus__kspan v,
                                     vs_dm *o)
{
    int deep = f->path[2] != NULL, has = 0, b = 0;
    const char *parent = f->path[deep], *key = f->path[deep + 1], *s;
    size_t len;
    int64_t x = 0;
    velstatus_status st = VELSTATUS_OK;
    if (v.vs != SIZE_MAX && d->text[v.vs] == 'n') { /* a time or a label: null_member() */
        if (f->type == T_LABEL)
            o->text[f->id].s = velstatus__empty;
        return VELSTATUS_OK;
    }
    if (deep)
        velstatus__kdec_push_key(d, f->path[0]);
    switch (f->type) {
    case T_TEXT:
    case T_LABEL:
        st = velstatus__kdec_string(d, v, parent, key, VS_KBUF_MESSAGE, &s, &len);
        if (st == VELSTATUS_OK)
            st = keep(d, l, s, len, &o->text[f->id]);
        break;
    case T_TIME:
        st = velstatus__kdec_time(d, v, parent, key, &has, &x);
        o->time[f->id] = x;
        o->has_time |= (uint32_t)has << f->id;
        break;
    case T_INT:
        st = velstatus__kdec_int(d, v, parent, key, &has, &x);
        o->ints[f->id] = x;
        o->has_int |= (uint32_t)has << f->id;
        break;
    default:
        st = velstatus__kdec_bool(d, v, parent, key, &has, &b);
        o->ints[f->id] = b;
        o->has_int |= (uint32_t)has << f->id;
        break;
    }
    if (deep && st == VELSTATUS_OK)
        d->path.n--;
    return st;
}

static const char *const phase_names[] = {"New",      "Accepted",  "Prepared", "InProgress", "Canceling",
                                          "Canceled", "Completed", "Failed",   "Unknown"};

/* The phase Velero's controllers compare: absent and "" are New. */
static velstatus_dm_phase phase_of(const vs_dm_text *t)
{
    int i;
    if (!t->s || !t->len)
        return VELSTATUS_DM_PHASE_NEW;
    i = velstatus__token_find(phase_names, VS_N(phase_names) - 1, t->s, t->len);
    return i < 0 ? VELSTATUS_DM_PHASE_UNKNOWN : (velstatus_dm_phase)i;
}

/* The kind of the object item ("kind" only; -1 when another). */
static velstatus_status kind_of(velstatus__kdec *d, velstatus__kspan item, velstatus_dm_kind *kind)
{
    static const char *const top[] = {"kind"};
    velstatus__kspan v = velstatus__kabsent;
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    const char *s;
    size_t len;
    *kind = VELSTATUS_DM_KIND_INVALID;
    if (d->text[item.vs] != '{')
        return VELSTATUS_OK;
    velstatus__json_iter_init(&it, d->text, item.vs, item.ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, top, 1, &k));
        if (k == 0 && d->text[vs] != 'n') {
            v.vs = vs;
            v.ve = ve;
        }
    }
    VS_TRY(velstatus__kdec_string(d, v, NULL, "kind", VS_KBUF_TOKEN, &s, &len));
    if (velstatus__kdec_is(s, len, "DataUpload"))
        *kind = VELSTATUS_DM_UPLOAD;
    else if (velstatus__kdec_is(s, len, "DataDownload"))
        *kind = VELSTATUS_DM_DOWNLOAD;
    return VELSTATUS_OK;
}

/* The object item into *o (o->kind INVALID, and counted skipped, when it
 * is neither a DataUpload nor a DataDownload). */
static velstatus_status decode_one(velstatus__kdec *d, velstatus_dm_list *l, velstatus__kspan item, vs_dm *o)
{
    unsigned char cand[NF];
    size_t n = 0;
    dm_walk w;
    memset(o, 0, sizeof(*o));
    VS_TRY(kind_of(d, item, &o->kind));
    if (o->kind == VELSTATUS_DM_KIND_INVALID) {
        l->skipped++;
        return VELSTATUS_OK;
    }
    w.d = d;
    w.kinds = o->kind == VELSTATUS_DM_UPLOAD ? K_UP : K_DOWN;
    for (size_t f = 0; f < NF; f++) {
        w.span[f] = velstatus__kabsent;
        if (fields[f].kinds & w.kinds)
            cand[n++] = (unsigned char)f;
    }
    VS_TRY(walk(&w, item.vs, item.ve, 0, cand, n));
    for (size_t c = 0; c < n; c++)
        VS_TRY(decode_field(d, l, &fields[cand[c]], w.span[cand[c]], o));
    o->phase = phase_of(&o->text[VELSTATUS_DM_TEXT_PHASE]);
    return VELSTATUS_OK;
}

/* Whether two texts are equal (absent reads as ""). */
static int same_text(const vs_dm_text *a, const vs_dm_text *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
}

/* The index of the object of o's kind, namespace and name, or l->n. */
static size_t index_of(const velstatus_dm_list *l, const vs_dm *o)
{
    size_t i = 0;
    while (i < l->n &&
           !(l->items[i].kind == o->kind &&
             same_text(&l->items[i].text[VELSTATUS_DM_TEXT_NAMESPACE], &o->text[VELSTATUS_DM_TEXT_NAMESPACE]) &&
             same_text(&l->items[i].text[VELSTATUS_DM_TEXT_NAME], &o->text[VELSTATUS_DM_TEXT_NAME])))
        i++;
    return i;
}

/* The object item applied to the list `how` (VS_KPUT_*). */
static velstatus_status put(velstatus__kdec *d, void *list, velstatus__kspan item, int how)
{
    velstatus_dm_list *l = list;
    vs_dm o;
    size_t i;
    VS_TRY(decode_one(d, l, item, &o));
    if (o.kind == VELSTATUS_DM_KIND_INVALID)
        return VELSTATUS_OK;
    i = how == VS_KPUT_APPEND ? l->n : index_of(l, &o);
    if (how == VS_KPUT_DELETE) { /* a watch's DELETED: the object is gone */
        if (i < l->n) {
            memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof(*l->items));
            l->n--;
        }
        return VELSTATUS_OK;
    }
    if (i == l->n && VS_ARRAY_RESERVE(l->pool.ctx, l->items, l->cap, l->n + 1, 8))
        return velstatus__error_nomem(d->err);
    if (i == l->n)
        l->n++;
    l->items[i] = o;
    return VELSTATUS_OK;
}

static void free_list(void *list)
{
    velstatus_dm_list_free(list);
}

static const char *const list_kinds[3] = {"List", "DataUploadList", "DataDownloadList"};

/* The text: one document or a watch stream (velstatus__kdec_document_or_stream()). */
static const velstatus__klist dm_list = {sizeof(velstatus_dm_list),
                                         offsetof(velstatus_dm_list, pool),
                                         offsetof(velstatus_dm_list, skipped),
                                         0,
                                         list_kinds,
                                         3,
                                         "a DataUpload or DataDownload",
                                         put,
                                         NULL,
                                         free_list};

velstatus_status velstatus_dm_list_from_json(velstatus_dm_list **out, velstatus_ctx *ctx, const char *json, size_t len,
                                             velstatus_error *err)
{
    void *l;
    VS_TRY(velstatus__kdec_args(out, ctx, &json, &len, err));
    *out = NULL;
    VS_TRY(velstatus__kdec_list(&dm_list, ctx, json, len, err, &l));
    *out = l;
    return VELSTATUS_OK;
}

void velstatus_dm_list_free(velstatus_dm_list *list)
{
    if (list)
        velstatus__pool_owner_free(&list->pool, list->items, list);
}

VS_GETTER(velstatus_dm_list, velstatus_dm_list_count, size_t, n, 0)
VS_GETTER(velstatus_dm_list, velstatus_dm_list_skipped, size_t, skipped, 0)

/* The i-th object, or NULL. */
static const vs_dm *at(const velstatus_dm_list *l, size_t i)
{
    return l && i < l->n ? &l->items[i] : NULL;
}

velstatus_dm_kind velstatus_dm_list_kind(const velstatus_dm_list *list, size_t i)
{
    const vs_dm *o = at(list, i);
    return o ? o->kind : VELSTATUS_DM_KIND_INVALID;
}

velstatus_dm_phase velstatus_dm_list_phase(const velstatus_dm_list *list, size_t i)
{
    const vs_dm *o = at(list, i);
    return o ? o->phase : VELSTATUS_DM_PHASE_INVALID;
}

const char *velstatus_dm_list_text(const velstatus_dm_list *list, size_t i, velstatus_dm_text field, size_t *len)
{
    const vs_dm *o = at(list, i);
    const vs_dm_text *t = o && (unsigned)field < VS_DM_NTEXT ? &o->text[field] : NULL;
    return velstatus__text_out(t ? t->s : NULL, t ? t->len : 0, len);
}

int velstatus_dm_list_time(const velstatus_dm_list *list, size_t i, velstatus_dm_time which, int64_t *ns)
{
    const vs_dm *o = at(list, i);
    int ok = o && (unsigned)which < VS_DM_NTIME && (o->has_time >> which & 1u);
    return velstatus__i64_out(ns, ok, ok ? o->time[which] : 0);
}

int velstatus_dm_list_int(const velstatus_dm_list *list, size_t i, velstatus_dm_int which, int64_t *out)
{
    const vs_dm *o = at(list, i);
    int ok = o && (unsigned)which < VS_DM_NINT && (o->has_int >> which & 1u);
    return velstatus__i64_out(out, ok, ok ? o->ints[which] : 0);
}

/* ---- the enums' tokens ---- */

static const char *const kind_names[] = {"upload", "download"};
VS_ENUM_TOKENS(dm_kind, velstatus_dm_kind, kind_names, "data mover kind")

const char *velstatus_dm_phase_to_string(velstatus_dm_phase phase)
{
    return velstatus__token_of(phase_names, VS_N(phase_names), (int)phase);
}

velstatus_status velstatus_dm_phase_from_string(velstatus_dm_phase *out, const char *s, size_t len,
                                                velstatus_error *err)
{
    int i = 0;
    velstatus_status st;
    if (out && s && velstatus__text_len(s, len) == 0) { /* "": New, as the controllers read it */
        *out = VELSTATUS_DM_PHASE_NEW;
        return VELSTATUS_OK;
    }
    st = velstatus__token_parse(out ? &i : NULL, phase_names, VS_N(phase_names), "data mover phase", s, len, err);
    if (st == VELSTATUS_OK)
        *out = (velstatus_dm_phase)i;
    return st;
}
