/* SPDX-License-Identifier: Apache-2.0 */
/* The BSL codec: `kubectl get backupstoragelocations -o json` in, verdicts
 * out (json.h). The scanner (json_scan.h) validates the text; the decoder
 * then walks it, so every error knows the exact position of its value.
 * Keys are case-sensitive (as Kubernetes' decoder reads them); a repeated
 * key is assigned in order: the last non-null one wins, and a repeated
 * metadata/spec/status object merges into the earlier one. */
#include "common/kube_json.h"
#include "server_status/private.h"
#include "velstatus/watch.h"

#include <string.h>

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
    velstatus__kspan f[F_N];
    size_t meta_at;  /* the last metadata object, or SIZE_MAX */
    size_t items_at; /* an "items" member (the object is a List), or SIZE_MAX */
    size_t bad_at;   /* the first metadata, spec, status or spec.objectStorage that is no object, or SIZE_MAX */
    int bad_key;     /* which: its index in top_keys, or 0 for spec.objectStorage */
} bsl_fields;

static const char *const top_keys[5] = {"kind", "metadata", "spec", "status", "items"};
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

/* Notes the first member that should be an object and is not (bad_key as in bsl_fields). */
static void note_bad(bsl_fields *f, size_t at, int key)
{
    if (f->bad_at == SIZE_MAX) {
        f->bad_at = at;
        f->bad_key = key;
    }
}

/* The members of metadata (g 0), spec (1), status (2) or spec.objectStorage (3) into f. */
static velstatus_status collect_sub(velstatus__kdec *d, int g, size_t vs, size_t ve, bsl_fields *f)
{
    velstatus__json_iter it;
    size_t ks, ke, ss, se;
    velstatus__json_iter_init_tape(&it, d->text, vs, ve, d->tape);
    while (velstatus__json_next_member(&it, &ks, &ke, &ss, &se)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, sub_keys[g], 4, &k));
        if (k < 0 || d->text[ss] == 'n')
            continue;
        if (sub_field[g][k] == -2) {
            if (d->text[ss] != '{')
                note_bad(f, ss, 0);
            else
                VS_TRY(collect_sub(d, 3, ss, se, f));
            continue;
        }
        f->f[sub_field[g][k]].vs = ss;
        f->f[sub_field[g][k]].ve = se;
    }
    return VELSTATUS_OK;
}

/* The members of one object into f, in one walk: a member of the wrong type
 * is noted (the first one), not reported, so that a List's "items" further
 * on is still seen. */
static velstatus_status collect(velstatus__kdec *d, velstatus__kspan item, bsl_fields *f)
{
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    int i;
    for (i = 0; i < F_N; i++)
        f->f[i] = velstatus__kabsent;
    f->meta_at = f->items_at = f->bad_at = SIZE_MAX;
    velstatus__json_iter_init_tape(&it, d->text, item.vs, item.ve, d->tape);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, top_keys, 5, &k));
        if (k == 4)
            f->items_at = vs;
        if (k < 0 || k == 4 || d->text[vs] == 'n')
            continue;
        if (k == 0) {
            f->f[F_KIND].vs = vs;
            f->f[F_KIND].ve = ve;
        } else if (d->text[vs] != '{') {
            note_bad(f, vs, k);
        } else {
            if (k == 1)
                f->meta_at = vs;
            VS_TRY(collect_sub(d, k - 1, vs, ve, f));
        }
    }
    return VELSTATUS_OK;
}

/* The member collect() noted, as the error it is. */
static velstatus_status bad_member(velstatus__kdec *d, const bsl_fields *f)
{
    velstatus__kdec_push_key(d, f->bad_key ? top_keys[f->bad_key] : "spec");
    if (!f->bad_key)
        velstatus__kdec_push_key(d, "objectStorage");
    return velstatus__kdec_error(d, f->bad_at, "expected an object, got %s",
                                 velstatus__kdec_type_name(d->text[f->bad_at]));
}

/* metadata.namespace: a string without a NUL character, or absent. */
static velstatus_status decode_ns(velstatus__kdec *d, const bsl_fields *f, const char **ns, size_t *ns_len)
{
    VS_TRY(velstatus__kdec_string(d, f->f[F_NS], "metadata", "namespace", VS_KBUF_NS, ns, ns_len));
    if (*ns && memchr(*ns, '\0', *ns_len)) {
        velstatus__kdec_push_key(d, "metadata");
        velstatus__kdec_push_key(d, "namespace");
        return velstatus__kdec_error(d, f->f[F_NS].vs, "contains a NUL character");
    }
    return VELSTATUS_OK;
}

/* metadata: present, with a usable name (not in `set` in its namespace,
 * when a set is given) and namespace; both into r. */
static velstatus_status decode_name(velstatus__kdec *d, const velstatus_bsl_set *set, velstatus__kspan item,
                                    const bsl_fields *f, velstatus_bsl_record *r)
{
    velstatus__kspan at = f->f[F_NAME];
    const char **name = &r->name;
    size_t *name_len = &r->name_len;
    if (f->meta_at == SIZE_MAX) {
        velstatus__kdec_push_key(d, "metadata");
        return velstatus__kdec_error(d, item.vs, "missing (every BSL needs metadata.name)");
    }
    VS_TRY(decode_ns(d, f, &r->ns, &r->ns_len));
    VS_TRY(velstatus__kdec_string(d, at, "metadata", "name", VS_KBUF_NAME, name, name_len));
    velstatus__kdec_push_key(d, "metadata");
    velstatus__kdec_push_key(d, "name");
    if (!*name)
        return velstatus__kdec_error(d, f->meta_at, "missing");
    if (*name_len == 0)
        return velstatus__kdec_error(d, at.vs, "empty name");
    if (memchr(*name, '\0', *name_len))
        return velstatus__kdec_error(d, at.vs, "contains a NUL character");
    if (set && velstatus__ss_set_has(set, r->ns, r->ns_len, *name, *name_len))
        return velstatus__kdec_error(d, at.vs, "duplicate name \"%.*s\"%s%.*s%s",
                                     (int)(*name_len > 64 ? 64 : *name_len), *name, r->ns_len ? " in namespace \"" : "",
                                     (int)(r->ns_len > 64 ? 64 : r->ns_len), r->ns_len ? r->ns : "",
                                     r->ns_len ? "\"" : "");
    d->path.n -= 2;
    return VELSTATUS_OK;
}

/* A string member of spec.objectStorage, as velstatus__kdec_string reads it. */
static velstatus_status get_storage(velstatus__kdec *d, velstatus__kspan v, const char *key, int buf, const char **s,
                                    size_t *len)
{
    velstatus_status st;
    velstatus__kdec_push_key(d, "spec");
    st = velstatus__kdec_string(d, v, "objectStorage", key, buf, s, len);
    d->path.n--;
    return st;
}

static velstatus_status decode_spec(velstatus__kdec *d, const bsl_fields *f, velstatus_bsl_record *r)
{
    int *is_default = &r->is_default;
    velstatus_bsl_access *access = &r->access;
    velstatus__kspan v = f->f[F_DEFAULT];
    const char *mode;
    size_t mode_len;
    if (v.vs != SIZE_MAX) {
        if (d->text[v.vs] != 't' && d->text[v.vs] != 'f') {
            velstatus__kdec_push_key(d, "spec");
            velstatus__kdec_push_key(d, "default");
            return velstatus__kdec_error(d, v.vs, "expected a boolean, got %s",
                                         velstatus__kdec_type_name(d->text[v.vs]));
        }
        *is_default = d->text[v.vs] == 't';
    }
    VS_TRY(velstatus__kdec_string(d, f->f[F_MODE], "spec", "accessMode", VS_KBUF_TOKEN, &mode, &mode_len));
    VS_TRY(velstatus__kdec_string(d, f->f[F_PROVIDER], "spec", "provider", VS_KBUF_PROVIDER, &r->provider,
                                  &r->provider_len));
    VS_TRY(get_storage(d, f->f[F_BUCKET], "bucket", VS_KBUF_BUCKET, &r->bucket, &r->bucket_len));
    VS_TRY(get_storage(d, f->f[F_PREFIX], "prefix", VS_KBUF_PREFIX, &r->prefix, &r->prefix_len));
    if (velstatus__kdec_is(mode, mode_len, "ReadOnly")) {
        *access = VELSTATUS_BSL_READ_ONLY;
    } else if (mode && mode_len && !velstatus__kdec_is(mode, mode_len, "ReadWrite")) {
        velstatus__kdec_push_key(d, "spec");
        velstatus__kdec_push_key(d, "accessMode");
        return velstatus__kdec_error(d, f->f[F_MODE].vs, "expected \"ReadOnly\" or \"ReadWrite\", got \"%.*s\"",
                                     (int)(mode_len > 64 ? 64 : mode_len), mode);
    }
    return VELSTATUS_OK;
}

/* The fields collect() found into r (its texts in the text or in d's
 * buffers, valid until the next BSL); `set`, when given, is where its name
 * must be new. */
static velstatus_status decode_fields(velstatus__kdec *d, const velstatus_bsl_set *set, velstatus__kspan item,
                                      const bsl_fields *f, velstatus_bsl_record *r)
{
    const char *kind;
    size_t kind_len;

    if (f->bad_at != SIZE_MAX)
        return bad_member(d, f);
    VS_TRY(velstatus__kdec_string(d, f->f[F_KIND], NULL, "kind", VS_KBUF_TOKEN, &kind, &kind_len));
    if (kind && !velstatus__kdec_is(kind, kind_len, "BackupStorageLocation")) {
        velstatus__kdec_push_key(d, "kind");
        return velstatus__kdec_error(d, f->f[F_KIND].vs, "expected \"BackupStorageLocation\", got \"%.*s\"",
                                     (int)(kind_len > 64 ? 64 : kind_len), kind);
    }
    velstatus_bsl_record_init(r, sizeof(*r));
    VS_TRY(decode_name(d, set, item, f, r));
    VS_TRY(velstatus__kdec_time(d, f->f[F_CREATED], "metadata", "creationTimestamp", &r->has_created, &r->created_ns));
    VS_TRY(decode_spec(d, f, r));
    VS_TRY(velstatus__kdec_string(d, f->f[F_PHASE], "status", "phase", VS_KBUF_TOKEN, &r->phase, &r->phase_len));
    if (r->phase && memchr(r->phase, '\0', r->phase_len)) {
        velstatus__kdec_push_key(d, "status");
        velstatus__kdec_push_key(d, "phase");
        return velstatus__kdec_error(d, f->f[F_PHASE].vs, "contains a NUL character");
    }
    /* the times share one buffer: each is converted before the next is read */
    VS_TRY(velstatus__kdec_time(d, f->f[F_VALIDATED], "status", "lastValidationTime", &r->has_validated,
                                &r->validated_ns));
    return velstatus__kdec_string(d, f->f[F_MESSAGE], "status", "message", VS_KBUF_MESSAGE, &r->message,
                                  &r->message_len);
}

/* One BSL object into r, as decode_fields() says. */
static velstatus_status decode_record(velstatus__kdec *d, const velstatus_bsl_set *set, velstatus__kspan item,
                                      velstatus_bsl_record *r)
{
    bsl_fields f;
    if (d->text[item.vs] != '{')
        return velstatus__kdec_error(d, item.vs, "expected a BackupStorageLocation object, got %s",
                                     velstatus__kdec_type_name(d->text[item.vs]));
    VS_TRY(collect(d, item, &f));
    return decode_fields(d, set, item, &f, r);
}

static velstatus_status decode_bsl(velstatus__kdec *d, void *set, velstatus__kspan item)
{
    velstatus_bsl_record r;
    VS_TRY(decode_record(d, set, item, &r));
    /* the name checks above leave only E_NOMEM */
    return velstatus__ss_set_add(set, &r, d->err);
}


/* The BSLs of the value root of a text already validated, into a new set. */
static velstatus_status set_decode(velstatus_bsl_set **out, velstatus_ctx *ctx, const char *json, size_t len,
                                   velstatus__kspan root, velstatus__json_tape *tape, velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    velstatus_status st;
    velstatus__kdec d;
    static const char *const list_kinds[2] = {"List", "BackupStorageLocationList"};

    VS_TRY(velstatus_bsl_set_new(&set, ctx, err));
    velstatus__kdec_init(&d, ctx, json, len, err);
    d.tape = tape;
    st = velstatus__kdec_each_item(&d, root, list_kinds, 2, "a BackupStorageLocation", decode_bsl, set);
    velstatus__kdec_release(&d);
    if (st != VELSTATUS_OK) {
        velstatus_bsl_set_free(set);
        return st;
    }
    *out = set;
    return VELSTATUS_OK;
}

velstatus_status velstatus_bsl_set_from_json(velstatus_bsl_set **out, velstatus_ctx *ctx, const char *json, size_t len,
                                             velstatus_error *err)
{
    velstatus__kspan root = velstatus__kabsent;

    VS_TRY(velstatus__kdec_args(out, ctx, &json, &len, err));
    *out = NULL;
    VS_TRY(velstatus__kdec_scan(json, len, &root, err));
    return set_decode(out, ctx, json, len, root, NULL, err);
}

/* Each BSL of the List obj (of a text already validated) to fn, through a
 * set: every one is decoded, and the names checked, before the first call. */
static velstatus_status foreach_listed(velstatus_ctx *ctx, const char *json, velstatus__kspan obj,
                                       velstatus__json_tape *tape, const velstatus_watch_event *ev, velstatus_bsl_fn fn,
                                       void *userdata, velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    velstatus_status st = set_decode(&set, ctx, json, obj.ve, obj, tape, err);
    for (size_t i = 0; st == VELSTATUS_OK && i < velstatus_bsl_set_count(set); i++) {
        velstatus_bsl_record r;
        int rc;
        velstatus_bsl_record_init(&r, sizeof(r));
        st = velstatus_bsl_set_get(set, i, &r, err);
        rc = st == VELSTATUS_OK ? fn(userdata, ev, &r) : 0;
        if (rc < 0)
            st = velstatus__error_host(err, rc, "bsl");
    }
    velstatus_bsl_set_free(set);
    return st;
}

velstatus_status velstatus_bsl_watch_event_foreach(velstatus_watch_event **event, velstatus_ctx *ctx, const char *json,
                                                   size_t len, velstatus_bsl_fn fn, void *userdata,
                                                   velstatus_error *err)
{
    velstatus__kspan obj = velstatus__kabsent;
    velstatus__json_tape tape;
    velstatus__kdec d;
    velstatus_bsl_record r;
    velstatus_status st;
    bsl_fields f;
    size_t off = 0;
    int rc;
    if (!fn)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "fn is NULL");
    VS_TRY(velstatus__watch_event_decode(event, ctx, json, len, &tape, err));
    if (velstatus_watch_event_type(*event) == VELSTATUS_WATCH_ERROR ||
        velstatus_watch_event_type(*event) == VELSTATUS_WATCH_BOOKMARK)
        return VELSTATUS_OK;
    /* the object is part of the text the event's decoder validated: not
     * scanned again, nor walked for its values' ends (the tape's offsets,
     * from json, taken from json + off: unsigned, modulo) */
    obj.vs = 0;
    obj.ve = velstatus_watch_event_object(*event, &off);
    tape.base -= off;
    velstatus__kdec_init(&d, ctx, json + off, obj.ve, err);
    d.tape = &tape;
    st = collect(&d, obj, &f);
    if (st == VELSTATUS_OK && f.items_at != SIZE_MAX) { /* a List: rare in a watch */
        velstatus__kdec_release(&d);
        return foreach_listed(ctx, json + off, obj, &tape, *event, fn, userdata, err);
    }
    if (st == VELSTATUS_OK)
        st = decode_fields(&d, NULL, obj, &f, &r);
    rc = st == VELSTATUS_OK ? fn(userdata, *event, &r) : 0;
    if (rc < 0)
        st = velstatus__error_host(err, rc, "bsl");
    velstatus__kdec_release(&d);
    return st;
}

velstatus_status velstatus_server_tracker_upsert_json(velstatus_server_tracker *tracker, int *changed, const char *json,
                                                      size_t len, velstatus_error *err)
{
    velstatus_bsl_record r;
    velstatus_status st;
    velstatus__kdec d;
    velstatus__kspan root = velstatus__kabsent;
    len = velstatus__text_len(json, len);

    if (changed)
        *changed = 0;
    if (!tracker || (!json && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "tracker or json is NULL");
    if (!json)
        json = "";
    VS_TRY(velstatus__kdec_scan(json, len, &root, err));
    velstatus__kdec_init(&d, velstatus__ss_tracker_ctx(tracker), json, len, err);
    st = decode_record(&d, NULL, root, &r);
    if (st == VELSTATUS_OK)
        st = velstatus_server_tracker_upsert(tracker, changed, &r, err);
    velstatus__kdec_release(&d);
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
        const velstatus_bsl_record *r = vs_bsl_rec(set->items[i]);
        if (ns && (r->ns_len != ns_len || memcmp(r->ns, ns, ns_len) != 0))
            continue;
        if (any++)
            velstatus__buf_putc(&b, ',');
        put_location(&b, r);
    }
    velstatus__buf_putc(&b, ']');
    return velstatus__buf_finish(&b, out, out_len, err);
}
