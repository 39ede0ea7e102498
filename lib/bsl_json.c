/* The BSL codec: `kubectl get backupstoragelocations -o json` in, verdicts
 * out (json.h). jansson parses; schema errors name the JSON path and, by
 * re-scanning the (already valid) text along that path, its position. */
#include "server_status_private.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- paths and positions ---- */

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

typedef struct vs_scan {
    const char *p;
    size_t len, i;
} vs_scan;

static void sc_ws(vs_scan *s)
{
    while (s->i < s->len && (s->p[s->i] == ' ' || s->p[s->i] == '\t' || s->p[s->i] == '\n' || s->p[s->i] == '\r'))
        s->i++;
}

static void sc_string(vs_scan *s) /* at '"' */
{
    s->i++;
    while (s->i < s->len && s->p[s->i] != '"')
        s->i += s->p[s->i] == '\\' ? 2 : 1;
    s->i++;
}

static void sc_value(vs_scan *s)
{
    size_t depth = 0;
    sc_ws(s);
    do {
        char c;
        if (s->i >= s->len)
            return;
        c = s->p[s->i];
        if (c == '"') {
            sc_string(s);
        } else if (c == '{' || c == '[') {
            depth++;
            s->i++;
        } else if (c == '}' || c == ']') {
            depth--;
            s->i++;
        } else if (depth == 0) {
            while (s->i < s->len && !strchr(",}] \t\r\n", s->p[s->i]))
                s->i++;
        } else {
            s->i++;
        }
    } while (depth > 0);
}

/* Byte offset of the value at path p in valid JSON text, or of its deepest
 * ancestor found (a key spelled with escapes is not matched). */
static size_t locate(const char *text, size_t len, const vs_path *p)
{
    vs_scan s = {text, len, 0};
    size_t found;
    sc_ws(&s);
    found = s.i;
    for (int k = 0; k < p->n; k++) {
        int ok = 0;
        sc_ws(&s);
        if (s.i >= len)
            break;
        if (p->s[k].key && text[s.i] == '{') {
            size_t klen = strlen(p->s[k].key);
            s.i++;
            for (;;) {
                size_t ks;
                sc_ws(&s);
                if (s.i >= len || text[s.i] != '"')
                    break;
                ks = s.i + 1;
                sc_string(&s);
                {
                    int match = s.i - 1 - ks == klen && memcmp(text + ks, p->s[k].key, klen) == 0;
                    sc_ws(&s);
                    s.i++; /* ':' */
                    sc_ws(&s);
                    if (match) {
                        ok = 1;
                        break;
                    }
                }
                sc_value(&s);
                sc_ws(&s);
                if (s.i < len && text[s.i] == ',')
                    s.i++;
                else
                    break;
            }
        } else if (!p->s[k].key && text[s.i] == '[') {
            s.i++;
            for (size_t j = 0;; j++) {
                sc_ws(&s);
                if (s.i >= len || text[s.i] == ']')
                    break;
                if (j == p->s[k].idx) {
                    ok = 1;
                    break;
                }
                sc_value(&s);
                sc_ws(&s);
                if (s.i < len && text[s.i] == ',')
                    s.i++;
                else
                    break;
            }
        }
        if (!ok)
            break;
        found = s.i;
    }
    return found;
}

typedef struct vs_dec {
    const char *text;
    size_t len;
    vs_path path;
    velstatus_error *err;
} vs_dec;

static velstatus_status schema_error(vs_dec *d, const char *fmt, ...) VS__PRINTF(2, 3);

/* E_SCHEMA: "<path>: <message>", with the position of the path's value. */
static velstatus_status schema_error(vs_dec *d, const char *fmt, ...)
{
    char where[160], msg[VELSTATUS_ERROR_MESSAGE_SIZE];
    size_t off = locate(d->text, d->len, &d->path), line = 1, col = 1;
    va_list ap;
    for (size_t i = 0; i < off; i++) {
        if (d->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    path_text(&d->path, where, sizeof(where));
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_SCHEMA, (uint32_t)line, (uint32_t)col, (uint64_t)off,
                                    "%s: %s", where, msg);
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

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* Optional member of an object: NULL when absent or null. */
static json_t *member(json_t *obj, const char *key)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return v && !json_is_null(v) ? v : NULL;
}

/* An optional string member: *s and *len stay NULL and 0 when absent or null. */
static velstatus_status get_string(vs_dec *d, json_t *obj, const char *key, const char **s, size_t *len)
{
    json_t *v = member(obj, key);
    *s = NULL;
    *len = 0;
    if (!v)
        return VELSTATUS_OK;
    if (!json_is_string(v)) {
        velstatus_status st;
        push_key(d, key);
        st = schema_error(d, "expected a string, got %s", type_name(v));
        d->path.n--;
        return st;
    }
    *s = json_string_value(v);
    *len = json_string_length(v);
    return VELSTATUS_OK;
}

static velstatus_status get_time(vs_dec *d, json_t *obj, const char *key, int *has, int64_t *ns)
{
    const char *s;
    size_t len;
    velstatus_error terr;
    velstatus_status st = get_string(d, obj, key, &s, &len);
    *has = 0;
    *ns = 0;
    if (st != VELSTATUS_OK || !s)
        return st;
    st = velstatus_time_parse(ns, s, len, &terr);
    if (st != VELSTATUS_OK) {
        push_key(d, key);
        st = schema_error(d, "not an RFC 3339 time: %s", terr.message);
        d->path.n--;
        return st;
    }
    *has = 1;
    return VELSTATUS_OK;
}

/* An optional object member: *out NULL when absent or null. */
static velstatus_status get_object(vs_dec *d, json_t *obj, const char *key, json_t **out)
{
    json_t *v = member(obj, key);
    *out = NULL;
    if (!v)
        return VELSTATUS_OK;
    if (!json_is_object(v)) {
        velstatus_status st;
        push_key(d, key);
        st = schema_error(d, "expected an object, got %s", type_name(v));
        d->path.n--;
        return st;
    }
    *out = v;
    return VELSTATUS_OK;
}

static int str_is(const char *s, size_t len, const char *lit)
{
    return s && strlen(lit) == len && memcmp(s, lit, len) == 0;
}

#define TRY(x)                                                                                                         \
    do {                                                                                                               \
        velstatus_status try_st_ = (x);                                                                                \
        if (try_st_ != VELSTATUS_OK)                                                                                   \
            return try_st_;                                                                                            \
    } while (0)

static velstatus_status decode_bsl(vs_dec *d, velstatus_bsl_set *set, json_t *item)
{
    json_t *meta, *spec, *status, *v;
    const char *kind, *name, *phase, *msg, *mode;
    size_t kind_len, name_len, phase_len, msg_len, mode_len;
    int is_default = 0, has_created, has_validated;
    int64_t created, validated;
    velstatus_bsl_access access = VELSTATUS_BSL_READ_WRITE;
    velstatus_status st;

    if (!json_is_object(item))
        return schema_error(d, "expected a BackupStorageLocation object, got %s", type_name(item));
    TRY(get_string(d, item, "kind", &kind, &kind_len));
    if (kind && !str_is(kind, kind_len, "BackupStorageLocation")) {
        push_key(d, "kind");
        return schema_error(d, "expected \"BackupStorageLocation\", got \"%.64s\"", kind);
    }
    TRY(get_object(d, item, "metadata", &meta));
    if (!meta) {
        push_key(d, "metadata");
        return schema_error(d, "missing (every BSL needs metadata.name)");
    }
    push_key(d, "metadata");
    TRY(get_string(d, meta, "name", &name, &name_len));
    push_key(d, "name");
    if (!name) {
        st = schema_error(d, "missing");
        return st;
    }
    if (name_len == 0)
        return schema_error(d, "empty name");
    if (velstatus__ss_set_has(set, name, name_len))
        return schema_error(d, "duplicate name \"%.64s\"", name);
    d->path.n--;
    TRY(get_time(d, meta, "creationTimestamp", &has_created, &created));
    d->path.n--;

    TRY(get_object(d, item, "spec", &spec));
    push_key(d, "spec");
    v = member(spec, "default");
    if (v) {
        if (!json_is_boolean(v)) {
            push_key(d, "default");
            return schema_error(d, "expected a boolean, got %s", type_name(v));
        }
        is_default = json_is_true(v);
    }
    TRY(get_string(d, spec, "accessMode", &mode, &mode_len));
    if (str_is(mode, mode_len, "ReadOnly")) {
        access = VELSTATUS_BSL_READ_ONLY;
    } else if (mode && mode_len && !str_is(mode, mode_len, "ReadWrite")) {
        push_key(d, "accessMode");
        return schema_error(d, "expected \"ReadOnly\" or \"ReadWrite\", got \"%.64s\"", mode);
    }
    d->path.n--;

    TRY(get_object(d, item, "status", &status));
    push_key(d, "status");
    TRY(get_string(d, status, "phase", &phase, &phase_len));
    if (phase && memchr(phase, '\0', phase_len)) {
        push_key(d, "phase");
        return schema_error(d, "contains a NUL character");
    }
    TRY(get_time(d, status, "lastValidationTime", &has_validated, &validated));
    TRY(get_string(d, status, "message", &msg, &msg_len));
    d->path.n--;

    st = velstatus__ss_set_add(set, name, name_len, phase, phase_len, msg, msg_len, is_default, access, has_created,
                               created, has_validated, validated, d->err);
    if (st == VELSTATUS_E_NOMEM)
        return st;
    if (st != VELSTATUS_OK) {
        /* name checks above make this unreachable; keep the path anyway */
        push_key(d, "metadata");
        push_key(d, "name");
        return schema_error(d, "rejected");
    }
    return VELSTATUS_OK;
}

velstatus_status velstatus_json_decode_bsls(velstatus_bsl_set **out, velstatus_ctx *ctx, const char *json,
                                            size_t len, velstatus_error *err)
{
    json_t *root, *items = NULL;
    json_error_t jerr;
    velstatus_bsl_set *set = NULL;
    velstatus_status st;
    vs_dec d;
    int single = 0;
    len = velstatus__text_len(json, len);

    if (!out || !ctx || (!json && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out, ctx or json is NULL");
    *out = NULL;
    root = json_loadb(json ? json : "", len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root)
        return velstatus__error_set_pos(err, VELSTATUS_E_PARSE, (uint32_t)(jerr.line > 0 ? jerr.line : 0),
                                        (uint32_t)(jerr.column > 0 ? jerr.column : 0),
                                        (uint64_t)(jerr.position > 0 ? jerr.position : 0),
                                        "invalid JSON: %s", jerr.text);
    memset(&d, 0, sizeof(d));
    d.text = json;
    d.len = len;
    d.err = err;

    if (json_is_array(root)) {
        items = root;
    } else if (json_is_object(root) && json_object_get(root, "items")) {
        const char *kind;
        size_t kind_len;
        st = get_string(&d, root, "kind", &kind, &kind_len);
        if (st == VELSTATUS_OK && kind && !str_is(kind, kind_len, "List") &&
            !str_is(kind, kind_len, "BackupStorageLocationList")) {
            push_key(&d, "kind");
            st = schema_error(&d, "expected \"List\" or \"BackupStorageLocationList\", got \"%.64s\"", kind);
        }
        if (st != VELSTATUS_OK)
            goto done_root;
        items = json_object_get(root, "items");
        push_key(&d, "items");
        if (!json_is_array(items)) {
            st = schema_error(&d, "expected an array, got %s", type_name(items));
            goto done_root;
        }
    } else if (json_is_object(root)) {
        single = 1;
    } else {
        st = schema_error(&d, "expected a List, an array or a BackupStorageLocation, got %s", type_name(root));
        goto done_root;
    }

    st = velstatus_bsl_set_new(&set, ctx, err);
    if (st != VELSTATUS_OK)
        goto done_root;
    if (single) {
        st = decode_bsl(&d, set, root);
    } else {
        size_t i;
        json_t *item;
        json_array_foreach(items, i, item) {
            int depth = d.path.n;
            push_idx(&d, i);
            st = decode_bsl(&d, set, item);
            d.path.n = depth;
            if (st != VELSTATUS_OK)
                break;
        }
    }
    if (st != VELSTATUS_OK) {
        velstatus_bsl_set_free(set);
        set = NULL;
    }
done_root:
    json_decref(root);
    if (st == VELSTATUS_OK)
        *out = set;
    return st;
}

/* ---- verdict out ---- */

velstatus_status velstatus_json_encode_server_verdict(char **out, size_t *out_len, const velstatus_server_verdict *v,
                                                      velstatus_error *err)
{
    velstatus__buf b;
    int first;
    if (!out || !v)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or verdict is NULL");
    *out = NULL;
    if (out_len)
        *out_len = 0;
    velstatus__buf_init(&b, v->ctx);
    velstatus__buf_puts(&b, "{\"status\":\"");
    velstatus__buf_puts(&b, velstatus_server_status_to_string(v->status));
    velstatus__buf_puts(&b, "\",\"reasons\":[");
    first = 1;
    for (unsigned k = 0; k < VS_NREASONS; k++) {
        unsigned i = velstatus__ss_reason_sorted[k];
        if (!(v->reasons & (1u << i)))
            continue;
        if (!first)
            velstatus__buf_putc(&b, ',');
        first = 0;
        velstatus__buf_printf(&b, "\"%s\"", velstatus__ss_reason_token(i));
    }
    velstatus__buf_printf(&b, "],\"counts\":{\"available\":%zu,\"unavailable\":%zu,\"pending\":%zu,\"total\":%zu}",
                          v->available, v->unavailable, v->pending, v->total);
    velstatus__buf_puts(&b, ",\"default\":");
    if (v->default_name)
        velstatus__json_write_string(&b, v->default_name, strlen(v->default_name), 0);
    else
        velstatus__buf_puts(&b, "null");
    velstatus__buf_puts(&b, ",\"bsls\":{");
    first = 1;
    for (unsigned k = 0; k < VS_NREASONS; k++) {
        unsigned i = velstatus__ss_reason_sorted[k];
        if (!(v->reasons & (1u << i)))
            continue;
        if (!first)
            velstatus__buf_putc(&b, ',');
        first = 0;
        velstatus__buf_printf(&b, "\"%s\":[", velstatus__ss_reason_token(i));
        for (size_t j = v->start[i]; j < v->start[i + 1]; j++) {
            if (j > v->start[i])
                velstatus__buf_putc(&b, ',');
            velstatus__json_write_string(&b, v->names[j], strlen(v->names[j]), 0);
        }
        velstatus__buf_putc(&b, ']');
    }
    velstatus__buf_puts(&b, "},\"message\":");
    velstatus__json_write_string(&b, v->message, strlen(v->message), 0);
    velstatus__buf_putc(&b, '}');
    return velstatus__buf_finish(&b, out, out_len, err);
}
