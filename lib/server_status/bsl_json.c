/* SPDX-License-Identifier: Apache-2.0 */
/* The BSL codec: `kubectl get backupstoragelocations -o json` in, verdicts
 * out (json.h). The scanner (json_scan.h) validates the text; the decoder
 * then walks it, so every error knows the exact position of its value.
 * Keys are case-sensitive (as Kubernetes' decoder reads them); a repeated
 * key is assigned in order: the last non-null one wins, and a repeated
 * metadata/spec/status object merges into the earlier one. */
#include "common/json_scan.h"
#include "server_status/private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- paths (for messages) ---- */

typedef struct vs_seg {
    const char *key; /* NULL: an array index */
    size_t idx;
} vs_seg;

enum { VS_MAXSEG = 6 };

typedef struct vs_path {
    vs_seg s[VS_MAXSEG];
    int n;
} vs_path;

static void path_text(const vs_path *p, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->n && len < cap; i++) {
        int w;
        if (p->s[i].key)
            w = snprintf(buf + len, cap - len, "%s%s", len ? "." : "", p->s[i].key);
        else
            w = snprintf(buf + len, cap - len, "[%zu]", p->s[i].idx);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    if (buf[0] == '\0')
        snprintf(buf, cap, "(top level)");
}

/* An accepted value's span in the text; vs == SIZE_MAX: absent. */
typedef struct vs_span {
    size_t vs, ve;
} vs_span;

static const vs_span absent = {SIZE_MAX, SIZE_MAX};

enum {
    VS_BUF_NAME,
    VS_BUF_TOKEN,
    VS_BUF_MESSAGE,
    VS_BUF_TIME,
    VS_BUF_NS,
    VS_BUF_PROVIDER,
    VS_BUF_BUCKET,
    VS_BUF_PREFIX,
    VS_NBUF
};

typedef struct vs_dec {
    const char *text;
    size_t len;
    vs_path path;
    velstatus_error *err;
    /* decoded keys; string values with escapes: name, kind/accessMode/phase,
     * message, the times (each kept until the BSL is stored) */
    velstatus__buf kbuf, vbuf[VS_NBUF];
} vs_dec;

static velstatus_status schema_error(vs_dec *d, size_t off, const char *fmt, ...) VS__PRINTF(3, 4);

/* E_SCHEMA: "<path>: <message>", at byte off. */
static velstatus_status schema_error(vs_dec *d, size_t off, const char *fmt, ...)
{
    char where[160], msg[VELSTATUS_ERROR_MESSAGE_SIZE];
    uint32_t line, col;
    va_list ap;
    velstatus__json_pos(d->text, off, &line, &col);
    path_text(&d->path, where, sizeof(where));
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_SCHEMA, line, col, (uint64_t)off, "%s: %s", where, msg);
}

static void push_key(vs_dec *d, const char *key)
{
    d->path.s[d->path.n].key = key;
    d->path.s[d->path.n].idx = 0;
    d->path.n++;
}

static void push_idx(vs_dec *d, size_t idx)
{
    d->path.s[d->path.n].key = NULL;
    d->path.s[d->path.n].idx = idx;
    d->path.n++;
}

static char first(const vs_dec *d, vs_span v)
{
    return d->text[v.vs];
}

static const char *type_name(char c)
{
    switch (c) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return "a number";
    }
}

/* The text of the accepted string v: its own bytes, or decoded into buf. */
static velstatus_status string_text(vs_dec *d, velstatus__buf *buf, vs_span v, const char **s, size_t *n)
{
    return velstatus__json_string_text(buf, d->text, v.vs, v.ve, s, n) ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* The fields of one BSL, gathered in one pass over its text: for each, the
 * last non-null value (a null leaves a Go field as it was; a repeated
 * metadata/spec/status object merges into the earlier one). */
enum {
    F_KIND,
    F_NAME,
    F_CREATED,
    F_DEFAULT,
    F_MODE,
    F_PHASE,
    F_VALIDATED,
    F_MESSAGE,
    F_NS,
    F_PROVIDER,
    F_BUCKET,
    F_PREFIX,
    F_N
};

typedef struct bsl_fields {
    vs_span f[F_N];
    size_t meta_at; /* the last metadata object, or SIZE_MAX */
} bsl_fields;

static const char *const top_keys[4] = {"kind", "metadata", "spec", "status"};
/* metadata (g 0), spec (1), status (2) and spec.objectStorage (3); -2 marks
 * spec.objectStorage, an object whose members are read in turn. */
static const char *const sub_keys[4][4] = {{"name", "creationTimestamp", "namespace", NULL},
                                           {"default", "accessMode", "provider", "objectStorage"},
                                           {"phase", "lastValidationTime", "message", NULL},
                                           {"bucket", "prefix", NULL, NULL}};
static const int sub_field[4][4] = {{F_NAME, F_CREATED, F_NS, -1},
                                    {F_DEFAULT, F_MODE, F_PROVIDER, -2},
                                    {F_PHASE, F_VALIDATED, F_MESSAGE, -1},
                                    {F_BUCKET, F_PREFIX, -1, -1}};

/* The index of the member key [ks, ke) in names[0..n) (exact bytes, after
 * unescaping), or -1. */
static velstatus_status key_index(vs_dec *d, size_t ks, size_t ke, const char *const *names, size_t n, int *k)
{
    const char *key;
    size_t klen, i;
    vs_span span = {ks, ke};
    velstatus_status st;
    *k = -1;
    if (ke - ks > 2 + 6 * 18) /* longer than any name here, even escaped */
        return VELSTATUS_OK;
    st = string_text(d, &d->kbuf, span, &key, &klen);
    for (i = 0; st == VELSTATUS_OK && i < n && names[i]; i++)
        if (strlen(names[i]) == klen && memcmp(names[i], key, klen) == 0)
            *k = (int)i;
    return st;
}

/* The members of metadata (g 0), spec (1), status (2) or spec.objectStorage (3) into f. */
static velstatus_status collect_sub(vs_dec *d, int g, size_t vs, size_t ve, bsl_fields *f)
{
    velstatus__json_iter it;
    size_t ks, ke, ss, se;
    velstatus__json_iter_init(&it, d->text, vs, ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &ss, &se)) {
        int k;
        VS_TRY(key_index(d, ks, ke, sub_keys[g], 4, &k));
        if (k < 0 || d->text[ss] == 'n')
            continue;
        if (sub_field[g][k] == -2) {
            if (d->text[ss] != '{') {
                push_key(d, "spec");
                push_key(d, "objectStorage");
                return schema_error(d, ss, "expected an object, got %s", type_name(d->text[ss]));
            }
            VS_TRY(collect_sub(d, 3, ss, se, f));
            continue;
        }
        f->f[sub_field[g][k]].vs = ss;
        f->f[sub_field[g][k]].ve = se;
    }
    return VELSTATUS_OK;
}

static velstatus_status collect(vs_dec *d, vs_span item, bsl_fields *f)
{
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    int i;
    for (i = 0; i < F_N; i++)
        f->f[i] = absent;
    f->meta_at = SIZE_MAX;
    velstatus__json_iter_init(&it, d->text, item.vs, item.ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        velstatus_status st = key_index(d, ks, ke, top_keys, 4, &k);
        if (st != VELSTATUS_OK)
            return st;
        if (k < 0 || d->text[vs] == 'n')
            continue;
        if (k == 0) {
            f->f[F_KIND].vs = vs;
            f->f[F_KIND].ve = ve;
            continue;
        }
        if (d->text[vs] != '{') {
            push_key(d, top_keys[k]);
            return schema_error(d, vs, "expected an object, got %s", type_name(d->text[vs]));
        }
        if (k == 1)
            f->meta_at = vs;
        VS_TRY(collect_sub(d, k - 1, vs, ve, f));
    }
    return VELSTATUS_OK;
}

/* A string field (absent: *s NULL, *len 0); parent NULL for a top-level one. */
static velstatus_status get_string(vs_dec *d, vs_span v, const char *parent, const char *key, int buf, const char **s,
                                   size_t *len)
{
    velstatus_status st;
    *s = NULL;
    *len = 0;
    if (v.vs == SIZE_MAX)
        return VELSTATUS_OK;
    if (first(d, v) != '"') {
        if (parent)
            push_key(d, parent);
        push_key(d, key);
        st = schema_error(d, v.vs, "expected a string, got %s", type_name(first(d, v)));
        d->path.n -= parent ? 2 : 1;
        return st;
    }
    return string_text(d, &d->vbuf[buf], v, s, len);
}

static velstatus_status get_time(vs_dec *d, vs_span v, const char *parent, const char *key, int *has, int64_t *ns)
{
    const char *s;
    size_t len;
    velstatus_error terr;
    velstatus_status st = get_string(d, v, parent, key, VS_BUF_TIME, &s, &len);
    *has = 0;
    *ns = 0;
    if (st != VELSTATUS_OK || !s)
        return st;
    st = velstatus_time_parse(ns, s, len, &terr);
    if (st != VELSTATUS_OK) {
        push_key(d, parent);
        push_key(d, key);
        st = schema_error(d, velstatus__json_string_byte(d->text, v.vs, v.ve, terr.offset), "not an RFC 3339 time: %s",
                          terr.message);
        d->path.n -= 2;
        return st;
    }
    *has = 1;
    return VELSTATUS_OK;
}

static int str_is(const char *s, size_t len, const char *lit)
{
    return s && strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* metadata.namespace: a string without a NUL character, or absent. */
static velstatus_status decode_ns(vs_dec *d, const bsl_fields *f, const char **ns, size_t *ns_len)
{
    VS_TRY(get_string(d, f->f[F_NS], "metadata", "namespace", VS_BUF_NS, ns, ns_len));
    if (*ns && memchr(*ns, '\0', *ns_len)) {
        push_key(d, "metadata");
        push_key(d, "namespace");
        return schema_error(d, f->f[F_NS].vs, "contains a NUL character");
    }
    return VELSTATUS_OK;
}

/* metadata: present, with a usable name (not in `set` in its namespace,
 * when a set is given) and namespace; both into r. */
static velstatus_status decode_name(vs_dec *d, const velstatus_bsl_set *set, vs_span item, const bsl_fields *f,
                                    velstatus_bsl_record *r)
{
    vs_span at = f->f[F_NAME];
    const char **name = &r->name;
    size_t *name_len = &r->name_len;
    if (f->meta_at == SIZE_MAX) {
        push_key(d, "metadata");
        return schema_error(d, item.vs, "missing (every BSL needs metadata.name)");
    }
    VS_TRY(decode_ns(d, f, &r->ns, &r->ns_len));
    VS_TRY(get_string(d, at, "metadata", "name", VS_BUF_NAME, name, name_len));
    push_key(d, "metadata");
    push_key(d, "name");
    if (!*name)
        return schema_error(d, f->meta_at, "missing");
    if (*name_len == 0)
        return schema_error(d, at.vs, "empty name");
    if (memchr(*name, '\0', *name_len))
        return schema_error(d, at.vs, "contains a NUL character");
    if (set && velstatus__ss_set_has(set, r->ns, r->ns_len, *name, *name_len))
        return schema_error(d, at.vs, "duplicate name \"%.*s\"%s%.*s%s", (int)(*name_len > 64 ? 64 : *name_len), *name,
                            r->ns_len ? " in namespace \"" : "", (int)(r->ns_len > 64 ? 64 : r->ns_len),
                            r->ns_len ? r->ns : "", r->ns_len ? "\"" : "");
    d->path.n -= 2;
    return VELSTATUS_OK;
}

/* A string member of spec.objectStorage, as get_string reads it. */
static velstatus_status get_storage(vs_dec *d, vs_span v, const char *key, int buf, const char **s, size_t *len)
{
    velstatus_status st;
    push_key(d, "spec");
    st = get_string(d, v, "objectStorage", key, buf, s, len);
    d->path.n--;
    return st;
}

static velstatus_status decode_spec(vs_dec *d, const bsl_fields *f, velstatus_bsl_record *r)
{
    int *is_default = &r->is_default;
    velstatus_bsl_access *access = &r->access;
    vs_span v = f->f[F_DEFAULT];
    const char *mode;
    size_t mode_len;
    if (v.vs != SIZE_MAX) {
        if (first(d, v) != 't' && first(d, v) != 'f') {
            push_key(d, "spec");
            push_key(d, "default");
            return schema_error(d, v.vs, "expected a boolean, got %s", type_name(first(d, v)));
        }
        *is_default = first(d, v) == 't';
    }
    VS_TRY(get_string(d, f->f[F_MODE], "spec", "accessMode", VS_BUF_TOKEN, &mode, &mode_len));
    VS_TRY(get_string(d, f->f[F_PROVIDER], "spec", "provider", VS_BUF_PROVIDER, &r->provider, &r->provider_len));
    VS_TRY(get_storage(d, f->f[F_BUCKET], "bucket", VS_BUF_BUCKET, &r->bucket, &r->bucket_len));
    VS_TRY(get_storage(d, f->f[F_PREFIX], "prefix", VS_BUF_PREFIX, &r->prefix, &r->prefix_len));
    if (str_is(mode, mode_len, "ReadOnly")) {
        *access = VELSTATUS_BSL_READ_ONLY;
    } else if (mode && mode_len && !str_is(mode, mode_len, "ReadWrite")) {
        push_key(d, "spec");
        push_key(d, "accessMode");
        return schema_error(d, f->f[F_MODE].vs, "expected \"ReadOnly\" or \"ReadWrite\", got \"%.*s\"",
                            (int)(mode_len > 64 ? 64 : mode_len), mode);
    }
    return VELSTATUS_OK;
}

/* One BSL object into r (its texts in the text or in d's buffers, valid
 * until the next BSL); `set`, when given, is where its name must be new. */
static velstatus_status decode_record(vs_dec *d, const velstatus_bsl_set *set, vs_span item, velstatus_bsl_record *r)
{
    const char *kind;
    size_t kind_len;
    bsl_fields f;

    if (first(d, item) != '{')
        return schema_error(d, item.vs, "expected a BackupStorageLocation object, got %s", type_name(first(d, item)));
    VS_TRY(collect(d, item, &f));
    VS_TRY(get_string(d, f.f[F_KIND], NULL, "kind", VS_BUF_TOKEN, &kind, &kind_len));
    if (kind && !str_is(kind, kind_len, "BackupStorageLocation")) {
        push_key(d, "kind");
        return schema_error(d, f.f[F_KIND].vs, "expected \"BackupStorageLocation\", got \"%.*s\"",
                            (int)(kind_len > 64 ? 64 : kind_len), kind);
    }
    velstatus_bsl_record_init(r, sizeof(*r));
    VS_TRY(decode_name(d, set, item, &f, r));
    VS_TRY(get_time(d, f.f[F_CREATED], "metadata", "creationTimestamp", &r->has_created, &r->created_ns));
    VS_TRY(decode_spec(d, &f, r));
    VS_TRY(get_string(d, f.f[F_PHASE], "status", "phase", VS_BUF_TOKEN, &r->phase, &r->phase_len));
    if (r->phase && memchr(r->phase, '\0', r->phase_len)) {
        push_key(d, "status");
        push_key(d, "phase");
        return schema_error(d, f.f[F_PHASE].vs, "contains a NUL character");
    }
    /* the times share one buffer: each is converted before the next is read */
    VS_TRY(get_time(d, f.f[F_VALIDATED], "status", "lastValidationTime", &r->has_validated, &r->validated_ns));
    return get_string(d, f.f[F_MESSAGE], "status", "message", VS_BUF_MESSAGE, &r->message, &r->message_len);
}

static velstatus_status decode_bsl(vs_dec *d, velstatus_bsl_set *set, vs_span item)
{
    velstatus_bsl_record r;
    VS_TRY(decode_record(d, set, item, &r));
    /* the name checks above leave only E_NOMEM */
    return velstatus__ss_set_add(set, &r, d->err);
}

/* The whole input must be one JSON value (the scanner's rules: no raw NUL
 * anywhere, strict UTF-8, ...), with nothing but whitespace around it. */
static velstatus_status scan_input(const char *json, size_t len, vs_span *root, velstatus_error *err)
{
    velstatus__json_scan_err e;
    size_t i = velstatus__json_ws(json, 0, len), end;
    if (!velstatus__json_scan(json + i, len - i, &end, &e))
        return velstatus__json_scan_error(err, &e, json, i, "invalid JSON");
    root->vs = i;
    root->ve = i + end;
    end = velstatus__json_ws(json, i + end, len);
    if (end != len) {
        e.off = end;
        e.code = VELSTATUS_E_PARSE;
        e.reason = json[end] == '\0' ? "raw NUL byte outside a string" : "unexpected text after the value";
        return velstatus__json_scan_error(err, &e, json, 0, "invalid JSON");
    }
    return VELSTATUS_OK;
}

/* The array of BSLs the root holds (a List's items, or the root itself),
 * or absent for a single BSL. */
static velstatus_status find_items(vs_dec *d, vs_span root, vs_span *items)
{
    static const char *const list_keys[2] = {"kind", "items"};
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    vs_span kind = absent;
    int present = 0;
    size_t items_at = root.vs; /* where the items value is, null included */
    const char *ks_text;
    size_t kind_len;
    *items = absent;
    if (first(d, root) == '[') {
        *items = root;
        return VELSTATUS_OK;
    }
    if (first(d, root) != '{')
        return schema_error(d, root.vs, "expected a List, an array or a BackupStorageLocation, got %s",
                            type_name(first(d, root)));
    velstatus__json_iter_init(&it, d->text, root.vs, root.ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(key_index(d, ks, ke, list_keys, 2, &k));
        if (k == 1) {
            present = 1;
            items_at = vs;
        }
        if (k >= 0 && d->text[vs] != 'n') {
            vs_span v = {vs, ve};
            if (k == 0)
                kind = v;
            else
                *items = v;
        }
    }
    if (!present)
        return VELSTATUS_OK;
    VS_TRY(get_string(d, kind, NULL, "kind", 1, &ks_text, &kind_len));
    if (ks_text && !str_is(ks_text, kind_len, "List") && !str_is(ks_text, kind_len, "BackupStorageLocationList")) {
        push_key(d, "kind");
        return schema_error(d, kind.vs, "expected \"List\" or \"BackupStorageLocationList\", got \"%.*s\"",
                            (int)(kind_len > 64 ? 64 : kind_len), ks_text);
    }
    push_key(d, "items");
    if (items->vs == SIZE_MAX) /* items: null */
        return schema_error(d, items_at, "expected an array, got null");
    if (first(d, *items) != '[')
        return schema_error(d, items->vs, "expected an array, got %s", type_name(first(d, *items)));
    return VELSTATUS_OK;
}

static velstatus_status decode_all(vs_dec *d, velstatus_bsl_set *set, vs_span root)
{
    vs_span items;
    velstatus__json_iter it;
    size_t i = 0, vs, ve;
    VS_TRY(find_items(d, root, &items));
    if (items.vs == SIZE_MAX)
        return decode_bsl(d, set, root);
    velstatus__json_iter_init(&it, d->text, items.vs, items.ve);
    while (velstatus__json_next_element(&it, &vs, &ve)) {
        vs_span item = {vs, ve};
        int depth = d->path.n;
        push_idx(d, i++);
        VS_TRY(decode_bsl(d, set, item));
        d->path.n = depth;
    }
    return VELSTATUS_OK;
}

static void dec_init(vs_dec *d, velstatus_ctx *ctx, const char *json, size_t len, velstatus_error *err)
{
    memset(d, 0, sizeof(*d));
    d->text = json;
    d->len = len;
    d->err = err;
    velstatus__buf_init(&d->kbuf, ctx);
    for (int k = 0; k < VS_NBUF; k++)
        velstatus__buf_init(&d->vbuf[k], ctx);
}

static void dec_release(vs_dec *d)
{
    velstatus__buf_reset(&d->kbuf);
    for (int k = 0; k < VS_NBUF; k++)
        velstatus__buf_reset(&d->vbuf[k]);
}

velstatus_status velstatus_bsl_set_from_json(velstatus_bsl_set **out, velstatus_ctx *ctx, const char *json, size_t len,
                                             velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    velstatus_status st;
    vs_dec d;
    vs_span root = absent;
    len = velstatus__text_len(json, len);

    if (!out || !ctx || (!json && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out, ctx or json is NULL");
    *out = NULL;
    if (!json)
        json = "";
    VS_TRY(scan_input(json, len, &root, err));
    VS_TRY(velstatus_bsl_set_new(&set, ctx, err));
    dec_init(&d, ctx, json, len, err);
    st = decode_all(&d, set, root);
    dec_release(&d);
    if (st != VELSTATUS_OK) {
        velstatus_bsl_set_free(set);
        return st;
    }
    *out = set;
    return VELSTATUS_OK;
}

velstatus_status velstatus_server_tracker_upsert_json(velstatus_server_tracker *tracker, int *changed, const char *json,
                                                      size_t len, velstatus_error *err)
{
    velstatus_bsl_record r;
    velstatus_status st;
    vs_dec d;
    vs_span root = absent;
    len = velstatus__text_len(json, len);

    if (changed)
        *changed = 0;
    if (!tracker || (!json && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "tracker or json is NULL");
    if (!json)
        json = "";
    VS_TRY(scan_input(json, len, &root, err));
    dec_init(&d, velstatus__ss_tracker_ctx(tracker), json, len, err);
    st = decode_record(&d, NULL, root, &r);
    if (st == VELSTATUS_OK)
        st = velstatus_server_tracker_upsert(tracker, changed, &r, err);
    dec_release(&d);
    return st;
}

/* ---- verdict out ---- */

/* The reason tokens of a mask, in byte-wise order of the tokens: as a JSON
 * array ("reasons"), or with each reason's BSL names as an object ("bsls"). */
static void put_reasons(velstatus__buf *b, const velstatus_server_verdict *v, int with_names)
{
    uint32_t reasons = velstatus_server_verdict_reasons(v);
    int first = 1;
    velstatus__buf_putc(b, with_names ? '{' : '[');
    for (unsigned k = 0; k < VS_NREASONS; k++) {
        velstatus_server_reason r = (velstatus_server_reason)(1u << velstatus__ss_reason_sorted[k]);
        size_t n, j;
        if (!(reasons & (uint32_t)r))
            continue;
        if (!first)
            velstatus__buf_putc(b, ',');
        first = 0;
        velstatus__buf_printf(b, "\"%s\"", velstatus_server_reason_to_string(r));
        if (!with_names)
            continue;
        velstatus__buf_puts(b, ":[");
        n = velstatus_server_verdict_name_count(v, r);
        for (j = 0; j < n; j++) {
            const char *name = velstatus_server_verdict_name(v, r, j);
            if (j > 0)
                velstatus__buf_putc(b, ',');
            velstatus__json_write_string(b, name, strlen(name), 0);
        }
        velstatus__buf_putc(b, ']');
    }
    velstatus__buf_putc(b, with_names ? '}' : ']');
}

/* Written from the verdict's public getters only. */
velstatus_status velstatus_server_verdict_to_json(char **out, size_t *out_len, const velstatus_server_verdict *v,
                                                  velstatus_error *err)
{
    velstatus__buf b;
    const char *def, *msg;
    if (!out || !v)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or verdict is NULL");
    *out = NULL;
    if (out_len)
        *out_len = 0;
    velstatus__buf_init(&b, velstatus__ss_verdict_ctx(v));
    velstatus__buf_puts(&b, "{\"status\":\"");
    velstatus__buf_puts(&b, velstatus_server_status_to_string(velstatus_server_verdict_status(v)));
    velstatus__buf_puts(&b, "\",\"reasons\":");
    put_reasons(&b, v, 0);
    velstatus__buf_printf(&b, ",\"counts\":{\"available\":%zu,\"unavailable\":%zu,\"pending\":%zu,\"total\":%zu}",
                          velstatus_server_verdict_available(v), velstatus_server_verdict_unavailable(v),
                          velstatus_server_verdict_pending(v), velstatus_server_verdict_total(v));
    velstatus__buf_puts(&b, ",\"default\":");
    def = velstatus_server_verdict_default(v);
    if (def)
        velstatus__json_write_string(&b, def, strlen(def), 0);
    else
        velstatus__buf_puts(&b, "null");
    velstatus__buf_puts(&b, ",\"bsls\":");
    put_reasons(&b, v, 1);
    velstatus__buf_puts(&b, ",\"message\":");
    msg = velstatus_server_verdict_message(v);
    velstatus__json_write_string(&b, msg, strlen(msg), 0);
    msg = velstatus_server_verdict_namespace(v);
    if (msg) {
        velstatus__buf_puts(&b, ",\"namespace\":");
        velstatus__json_write_string(&b, msg, strlen(msg), 0);
    }
    velstatus__buf_putc(&b, '}');
    return velstatus__buf_finish(&b, out, out_len, err);
}

/* ---- locations out ---- */

static void put_text_member(velstatus__buf *b, const char *key, const char *s, size_t len)
{
    velstatus__buf_printf(b, ",\"%s\":", key);
    velstatus__json_write_string(b, s, len, 0);
}

static void put_time_member(velstatus__buf *b, const char *key, int has, int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    velstatus__buf_printf(b, ",\"%s\":", key);
    if (has && velstatus_time_format(t, sizeof(t), ns, 0, NULL) == VELSTATUS_OK)
        velstatus__buf_printf(b, "\"%s\"", t);
    else
        velstatus__buf_puts(b, "null");
}

/* One location object. */
static void put_location(velstatus__buf *b, const velstatus_bsl_record *r)
{
    velstatus__buf_puts(b, "{\"name\":");
    velstatus__json_write_string(b, r->name, r->name_len, 0);
    put_text_member(b, "namespace", r->ns, r->ns_len);
    put_text_member(b, "provider", r->provider, r->provider_len);
    put_text_member(b, "bucket", r->bucket, r->bucket_len);
    put_text_member(b, "prefix", r->prefix, r->prefix_len);
    velstatus__buf_printf(b, ",\"default\":%s,\"accessMode\":\"%s\"", r->is_default ? "true" : "false",
                          velstatus_bsl_access_to_string(r->access));
    put_time_member(b, "creationTimestamp", r->has_created, r->created_ns);
    put_text_member(b, "phase", r->phase, r->phase_len);
    put_time_member(b, "lastValidationTime", r->has_validated, r->validated_ns);
    put_text_member(b, "message", r->message, r->message_len);
    velstatus__buf_putc(b, '}');
}

velstatus_status velstatus_bsl_set_locations_to_json(char **out, size_t *out_len, const velstatus_bsl_set *set,
                                                     const char *ns, size_t ns_len, velstatus_error *err)
{
    velstatus__buf b;
    int any = 0;
    ns_len = velstatus__text_len(ns, ns_len);
    if (!out || !set)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or set is NULL");
    *out = NULL;
    if (out_len)
        *out_len = 0;
    velstatus__buf_init(&b, set->ctx);
    velstatus__buf_putc(&b, '[');
    for (size_t i = 0; i < set->n; i++) {
        const velstatus_bsl_record *r = &set->items[i]->rec;
        if (ns && (r->ns_len != ns_len || memcmp(r->ns, ns, ns_len) != 0))
            continue;
        if (any++)
            velstatus__buf_putc(&b, ',');
        put_location(&b, r);
    }
    velstatus__buf_putc(&b, ']');
    return velstatus__buf_finish(&b, out, out_len, err);
}
