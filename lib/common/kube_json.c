/* SPDX-License-Identifier: Apache-2.0 */
/* The decoding helpers of the Kubernetes object decoders (kube_json.h). */
#include "common/kube_json.h"
#include "common/util_pool.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const velstatus__kspan velstatus__kabsent = {SIZE_MAX, SIZE_MAX};

static void path_text(const velstatus__kpath *p, char *buf, size_t cap)
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

velstatus_status velstatus__kdec_error(velstatus__kdec *d, size_t off, const char *fmt, ...)
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

void velstatus__kdec_push_key(velstatus__kdec *d, const char *key)
{
    d->path.s[d->path.n].key = key;
    d->path.s[d->path.n].idx = 0;
    d->path.n++;
}

void velstatus__kdec_push_idx(velstatus__kdec *d, size_t idx)
{
    d->path.s[d->path.n].key = NULL;
    d->path.s[d->path.n].idx = idx;
    d->path.n++;
}

const char *velstatus__kdec_type_name(char c)
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
static velstatus_status string_text(velstatus__kdec *d, velstatus__buf *buf, velstatus__kspan v, const char **s,
                                    size_t *n)
{
    return velstatus__json_string_text(buf, d->text, v.vs, v.ve, s, n) ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* The index of s[0..len) among names[0..n) (a NULL ends them early), or -1.
 * s holds no NUL byte when raw (a JSON string's own bytes cannot). */
static int find_name(const char *const *names, size_t n, const char *s, size_t len, int raw)
{
    for (size_t i = 0; i < n && names[i]; i++) {
        if (names[i][0] != s[0])
            continue;
        if (raw ? strncmp(names[i], s, len) == 0 && names[i][len] == '\0'
                : strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return (int)i;
    }
    return -1;
}

velstatus_status velstatus__kdec_key(velstatus__kdec *d, size_t ks, size_t ke, const char *const *names, size_t n,
                                     int *k)
{
    const char *key = d->text + ks + 1;
    size_t klen = ke - ks - 2;
    velstatus__kspan span = {ks, ke};
    /* a name has no backslash: a key that is one as it stands needs no decoding */
    *k = klen ? find_name(names, n, key, klen, 1) : -1;
    if (*k >= 0 || klen > 6 * 18 || !memchr(key, '\\', klen)) /* longer: no name here, even escaped */
        return VELSTATUS_OK;
    VS_TRY(string_text(d, &d->kbuf, span, &key, &klen));
    *k = klen ? find_name(names, n, key, klen, 0) : -1;
    return VELSTATUS_OK;
}

/* E_SCHEMA "<parent.key>: <what><arg>" at byte at (parent NULL: a top-level key). */
static velstatus_status field_error(velstatus__kdec *d, size_t at, const char *parent, const char *key,
                                    const char *what, const char *arg)
{
    velstatus_status st;
    if (parent)
        velstatus__kdec_push_key(d, parent);
    velstatus__kdec_push_key(d, key);
    st = velstatus__kdec_error(d, at, "%s%s", what, arg);
    d->path.n -= parent ? 2 : 1;
    return st;
}

velstatus_status velstatus__kdec_string(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                        int buf, const char **s, size_t *len)
{
    *s = NULL;
    *len = 0;
    if (v.vs == SIZE_MAX)
        return VELSTATUS_OK;
    if (d->text[v.vs] != '"')
        return field_error(d, v.vs, parent, key, "expected a string, got ", velstatus__kdec_type_name(d->text[v.vs]));
    return string_text(d, &d->vbuf[buf], v, s, len);
}

velstatus_status velstatus__kdec_time(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                      int *has, int64_t *ns)
{
    const char *s;
    size_t len;
    velstatus_error terr;
    velstatus_status st = velstatus__kdec_string(d, v, parent, key, VS_KBUF_TIME, &s, &len);
    *has = 0;
    *ns = 0;
    if (st != VELSTATUS_OK || !s)
        return st;
    st = velstatus_time_parse(ns, s, len, &terr);
    if (st != VELSTATUS_OK)
        return field_error(d, velstatus__json_string_byte(d->text, v.vs, v.ve, terr.offset), parent, key,
                           "not an RFC 3339 time: ", terr.message);
    *has = 1;
    return VELSTATUS_OK;
}

velstatus_status velstatus__kdec_int(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                     int *has, int64_t *out)
{
    const char *t;
    size_t n;
    *has = 0;
    *out = 0;
    if (v.vs == SIZE_MAX) /* absent: no pointer into the text is formed */
        return VELSTATUS_OK;
    t = d->text + v.vs;
    n = v.ve - v.vs;
    if (*t != '-' && (*t < '0' || *t > '9'))
        return field_error(d, v.vs, parent, key, "expected an integer, got ", velstatus__kdec_type_name(*t));
    if (memchr(t, '.', n) || memchr(t, 'e', n) || memchr(t, 'E', n))
        return field_error(d, v.vs, parent, key, "expected an integer, got ", "a number with a fraction or exponent");
    *has = 1;
    *out = velstatus__json_int(t, n); /* the scanner accepted it: it fits */
    return VELSTATUS_OK;
}

velstatus_status velstatus__kdec_bool(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                      int *has, int *out)
{
    *has = 0;
    *out = 0;
    if (v.vs == SIZE_MAX)
        return VELSTATUS_OK;
    if (d->text[v.vs] != 't' && d->text[v.vs] != 'f')
        return field_error(d, v.vs, parent, key, "expected a boolean, got ", velstatus__kdec_type_name(d->text[v.vs]));
    *has = 1;
    *out = d->text[v.vs] == 't';
    return VELSTATUS_OK;
}

int velstatus__kdec_is(const char *s, size_t len, const char *lit)
{
    return s && strlen(lit) == len && memcmp(s, lit, len) == 0;
}

velstatus_status velstatus__kdec_scan(const char *json, size_t len, velstatus__kspan *root, velstatus_error *err)
{
    return velstatus__kdec_scan_tape(json, len, root, NULL, err);
}

velstatus_status velstatus__kdec_scan_tape(const char *json, size_t len, velstatus__kspan *root,
                                           velstatus__json_tape *tape, velstatus_error *err)
{
    velstatus__json_scan_err e;
    size_t i = velstatus__json_ws(json, 0, len), end;
    if (!(tape ? velstatus__json_scan_tape(json + i, len - i, &end, &e, tape, i)
               : velstatus__json_scan(json + i, len - i, &end, &e)))
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

velstatus_status velstatus__kdec_args(const void *out, const velstatus_ctx *ctx, const char **json, size_t *len,
                                      velstatus_error *err)
{
    *len = velstatus__text_len(*json, *len);
    if (!out || !ctx || (!*json && *len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out, ctx or json is NULL");
    if (!*json)
        *json = "";
    return VELSTATUS_OK;
}

/* "\"A\"", "\"A\" or \"B\"", "\"A\", \"B\" or \"C\"": the list kinds. */
static void kinds_text(char *buf, size_t cap, const char *const *kinds, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        int w = snprintf(buf + len, cap - len, "%s\"%s\"", i == 0 ? "" : i + 1 == n ? " or " : ", ", kinds[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

/* The List's kind must be one of list_kinds (when it is set at all). */
static velstatus_status check_list_kind(velstatus__kdec *d, velstatus__kspan kind, const char *const *list_kinds,
                                        size_t n)
{
    const char *s;
    size_t len, i;
    char want[128];
    VS_TRY(velstatus__kdec_string(d, kind, NULL, "kind", VS_KBUF_TOKEN, &s, &len));
    for (i = 0; s && i < n; i++)
        if (velstatus__kdec_is(s, len, list_kinds[i]))
            return VELSTATUS_OK;
    if (!s)
        return VELSTATUS_OK;
    kinds_text(want, sizeof(want), list_kinds, n);
    velstatus__kdec_push_key(d, "kind");
    return velstatus__kdec_error(d, kind.vs, "expected %s, got \"%.*s\"", want, (int)(len > 64 ? 64 : len), s);
}

velstatus_status velstatus__kdec_items(velstatus__kdec *d, velstatus__kspan root, const char *const *list_kinds,
                                       size_t n, const char *single, velstatus__kspan *items)
{
    static const char *const list_keys[2] = {"kind", "items"};
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    velstatus__kspan kind = velstatus__kabsent;
    int present = 0;
    size_t items_at = root.vs; /* where the items value is, null included */
    *items = velstatus__kabsent;
    if (d->text[root.vs] == '[') {
        *items = root;
        return VELSTATUS_OK;
    }
    if (d->text[root.vs] != '{')
        return velstatus__kdec_error(d, root.vs, "expected a List, an array or %s, got %s", single,
                                     velstatus__kdec_type_name(d->text[root.vs]));
    velstatus__json_iter_init_tape(&it, d->text, root.vs, root.ve, d->tape);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, list_keys, 2, &k));
        if (k == 1) {
            present = 1;
            items_at = vs;
        }
        if (k >= 0 && d->text[vs] != 'n') {
            velstatus__kspan v = {vs, ve};
            if (k == 0)
                kind = v;
            else
                *items = v;
        }
    }
    if (!present)
        return VELSTATUS_OK;
    VS_TRY(check_list_kind(d, kind, list_kinds, n));
    velstatus__kdec_push_key(d, "items");
    if (items->vs == SIZE_MAX) /* items: null */
        return velstatus__kdec_error(d, items_at, "expected an array, got null");
    if (d->text[items->vs] != '[')
        return velstatus__kdec_error(d, items->vs, "expected an array, got %s",
                                     velstatus__kdec_type_name(d->text[items->vs]));
    return VELSTATUS_OK;
}

void velstatus__kdec_init(velstatus__kdec *d, velstatus_ctx *ctx, const char *json, size_t len, velstatus_error *err)
{
    d->text = json;
    d->len = len;
    d->err = err;
    d->path.n = 0; /* the path's segments are read only below n */
    d->tape = NULL;
    velstatus__buf_init(&d->kbuf, ctx);
    for (int k = 0; k < VS_KNBUF; k++)
        velstatus__buf_init(&d->vbuf[k], ctx);
}

void velstatus__kdec_release(velstatus__kdec *d)
{
    velstatus__buf_reset(&d->kbuf);
    for (int k = 0; k < VS_KNBUF; k++)
        velstatus__buf_reset(&d->vbuf[k]);
}

velstatus_status velstatus__kdec_each_item(velstatus__kdec *d, velstatus__kspan root, const char *const *list_kinds,
                                           size_t n, const char *single,
                                           velstatus_status (*one)(velstatus__kdec *, void *, velstatus__kspan),
                                           void *arg)
{
    velstatus__kspan items;
    velstatus__json_iter it;
    size_t i = 0, vs, ve;
    VS_TRY(velstatus__kdec_items(d, root, list_kinds, n, single, &items));
    if (items.vs == SIZE_MAX)
        return one(d, arg, root);
    velstatus__json_iter_init_tape(&it, d->text, items.vs, items.ve, d->tape);
    while (velstatus__json_next_element(&it, &vs, &ve)) {
        velstatus__kspan item = {vs, ve};
        int depth = d->path.n;
        velstatus__kdec_push_idx(d, i++);
        VS_TRY(one(d, arg, item));
        d->path.n = depth;
    }
    return VELSTATUS_OK;
}

/* An item of a List or array, or a bare object, for velstatus__kdec_each_item(). */
typedef struct kput {
    const velstatus__klist *t;
    void *list;
    int how;
} kput;

static velstatus_status put_item(velstatus__kdec *d, void *arg, velstatus__kspan item)
{
    const kput *p = arg;
    return p->t->put(d, p->list, item, p->how);
}

/* The objects of v (an object, a List or an array; else E_SCHEMA naming
 * what is expected), each put `how`. */
static velstatus_status put_items(velstatus__kdec *d, const velstatus__klist *t, void *list, velstatus__kspan v,
                                  int how)
{
    kput p = {t, list, how};
    return velstatus__kdec_each_item(d, v, t->list_kinds, t->nkinds, t->single, put_item, &p);
}

/* One value of a stream: a watch event, or a bare object, List or array
 * whose objects are later states. */
static velstatus_status stream_value(velstatus__kdec *d, const velstatus__klist *t, void *list, size_t *skipped,
                                     velstatus__kspan v)
{
    velstatus_watch_type type = VELSTATUS_WATCH_OBJECT;
    velstatus__kspan obj = v;
    int depth = d->path.n;
    if (d->text[v.vs] == '{')
        VS_TRY(velstatus__kdec_watch_event(d, v, &type, &obj));
    if (type == VELSTATUS_WATCH_OBJECT)
        return put_items(d, t, list, v, VS_KPUT_UPSERT);
    if (type == VELSTATUS_WATCH_ERROR) { /* the watch failed (a Status): not an object of the list */
        ++*skipped;
        return VELSTATUS_OK;
    }
    if (type == VELSTATUS_WATCH_BOOKMARK) /* only a resourceVersion */
        return VELSTATUS_OK;
    velstatus__kdec_push_key(d, "object");
    VS_TRY(t->put(d, list, obj, type == VELSTATUS_WATCH_DELETED ? VS_KPUT_DELETE : VS_KPUT_UPSERT));
    d->path.n = depth;
    return VELSTATUS_OK;
}

/* Whether the text is one value that is not a watch event: *root its span. */
static velstatus_status one_document(velstatus__kdec *d, velstatus__kspan *root, int *one)
{
    velstatus__json_scan_err e;
    size_t i = velstatus__json_ws(d->text, 0, d->len), end;
    velstatus_watch_type type = VELSTATUS_WATCH_OBJECT;
    *one = 0;
    if (i == d->len || !velstatus__json_scan(d->text + i, d->len - i, &end, &e) ||
        velstatus__json_ws(d->text, i + end, d->len) != d->len)
        return VELSTATUS_OK; /* the stream's loop reports a scanner error */
    root->vs = i;
    root->ve = i + end;
    if (d->text[i] == '{')
        VS_TRY(velstatus__kdec_watch_event(d, *root, &type, &(velstatus__kspan){0, 0}));
    *one = type == VELSTATUS_WATCH_OBJECT;
    return VELSTATUS_OK;
}

velstatus_status velstatus__kdec_document_or_stream(velstatus__kdec *d, const velstatus__klist *t, void *list,
                                                    size_t *skipped)
{
    velstatus__json_scan_err e;
    velstatus__kspan v;
    size_t i, end;
    int one;
    VS_TRY(one_document(d, &v, &one));
    if (one)
        return put_items(d, t, list, v, VS_KPUT_APPEND);
    for (i = velstatus__json_ws(d->text, 0, d->len); i < d->len; i = velstatus__json_ws(d->text, v.ve, d->len)) {
        if (!velstatus__json_scan(d->text + i, d->len - i, &end, &e))
            return velstatus__json_scan_error(d->err, &e, d->text, i, "invalid JSON");
        v.vs = i;
        v.ve = i + end;
        VS_TRY(stream_value(d, t, list, skipped, v));
    }
    return VELSTATUS_OK;
}

velstatus_status velstatus__kdec_list(const velstatus__klist *t, velstatus_ctx *ctx, const char *json, size_t len,
                                      velstatus_error *err, void **list)
{
    velstatus__kdec d;
    velstatus__kspan root = velstatus__kabsent;
    velstatus_status st;
    void *l;
    *list = NULL;
    if (t->whole || velstatus__json_ws(json, 0, len) == len) /* nothing: the scanner's error */
        VS_TRY(velstatus__kdec_scan(json, len, &root, err));
    l = velstatus__calloc(ctx, 1, t->size);
    if (!l)
        return velstatus__error_nomem(err);
    velstatus__pool_init((velstatus__pool *)((char *)l + t->pool_at), ctx);
    velstatus__kdec_init(&d, ctx, json, len, err);
    st = t->whole ? t->decode(&d, l, root)
                  : velstatus__kdec_document_or_stream(&d, t, l, (size_t *)((char *)l + t->skipped_at));
    velstatus__kdec_release(&d);
    if (st != VELSTATUS_OK) {
        t->free_list(l);
        return st;
    }
    *list = l;
    return VELSTATUS_OK;
}
