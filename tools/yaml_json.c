/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming YAML to JSON converter (yaml_json.h, doc/yaml.md). */
#include "yaml_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

typedef struct key_ent {
    uint64_t hash;
    size_t off, len; /* in the key arena */
} key_ent;

typedef struct frame {
    int map, want_key;
    size_t count;  /* elements, or pairs */
    long anchor;   /* the anchor recording this node, or -1 */
    int merged;    /* whole mode: a document's root sequence, its elements go to the one array */
    key_ent *keys; /* a mapping's keys: open addressing, kcap a power of two */
    size_t nkeys, kcap;
    size_t arena_mark;
} frame;

typedef struct anchor {
    char *name;
    int done, scalar;
    /* a scalar: its text, tag and style, resolved again where the alias stands (key or value) */
    char *text, *tag;
    size_t len;
    int plain;
    size_t start, end; /* a collection: its JSON in the tape */
} anchor;

struct vs_yaml {
    yaml_parser_t parser;
    vs_yaml_read_fn read;
    void *ud;
    vs_yaml_mode mode;
    uint64_t max_doc, doc_in;
    buf out, tape, arena;
    size_t out_pos;
    int hold;          /* whole mode: the first document is held until the next one or the end shows */
    size_t hold_start; /* where in out */
    int array_open;    /* whole mode: the one array is open */
    size_t array_count;
    frame *st;
    size_t depth, st_cap;
    anchor *an;
    size_t nan, an_cap;
    int recording;
    int in_alias;
    uint64_t direct_out, alias_out;
    unsigned long out_line, out_col;
    int any_out, ended, failed, source_failed, nomem;
    char msg[256];
    unsigned long err_line, err_col;
};

static int fail_at(vs_yaml *y, yaml_mark_t m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail_at(vs_yaml *y, yaml_mark_t m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(y->msg, sizeof(y->msg), fmt, ap);
    va_end(ap);
    y->err_line = (unsigned long)m.line + 1;
    y->err_col = (unsigned long)m.column + 1;
    return -1;
}

static int nomem(vs_yaml *y)
{
    snprintf(y->msg, sizeof(y->msg), "out of memory converting YAML");
    y->err_line = y->err_col = 0;
    return -1;
}

static int buf_add(buf *b, const char *s, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;
        while (cap - b->len < n)
            cap *= 2;
        p = realloc(b->p, cap);
        if (!p)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

/* Output: a JSON token, also recorded while an anchored collection is open. */
static int emit(vs_yaml *y, const char *s, size_t n)
{
    if (buf_add(&y->out, s, n) != 0 || (y->recording && buf_add(&y->tape, s, n) != 0))
        return nomem(y);
    y->any_out = 1;
    y->out_col += (unsigned long)n;
    if (y->in_alias)
        y->alias_out += n;
    else
        y->direct_out += n;
    return 0;
}

/* Layout: newlines up to the YAML line, spaces up to the column where the
 * JSON has not run ahead. Nested tokens never start a line in column 1 (the
 * watch splitter resumes at "\n{"). */
static int place(vs_yaml *y, yaml_mark_t m, long shift)
{
    unsigned long line = (unsigned long)m.line + 1;
    long col = (long)m.column + 1 - shift;
    if (y->depth > 0 && col < 2)
        col = 2;
    if (!y->any_out) { /* the text starts with its first token (some readers want no leading space) */
        y->out_line = line;
        return 0;
    }
    while (y->out_line < line) {
        if (buf_add(&y->out, "\n", 1) != 0)
            return nomem(y);
        y->out_line++;
        y->out_col = 1;
    }
    while ((long)y->out_col < col) {
        if (buf_add(&y->out, " ", 1) != 0)
            return nomem(y);
        y->out_col++;
    }
    return 0;
}

static long source(void *data, unsigned char *b, size_t size, size_t *got)
{
    vs_yaml *y = data;
    long n = y->read(y->ud, (char *)b, size);
    if (n < 0) {
        y->source_failed = 1;
        return 0;
    }
    y->doc_in += (uint64_t)n;
    if (y->doc_in > y->max_doc) {
        snprintf(y->msg, sizeof(y->msg), "a YAML document is larger than --max-input (%llu bytes)",
                 (unsigned long long)y->max_doc);
        y->source_failed = -1;
        return 0;
    }
    *got = (size_t)n;
    return 1;
}

static int handler(void *data, unsigned char *b, size_t size, size_t *got)
{
    return (int)source(data, b, size, got);
}

vs_yaml *vs_yaml_new(vs_yaml_read_fn fn, void *ud, vs_yaml_mode mode, uint64_t max_doc)
{
    vs_yaml *y = calloc(1, sizeof(*y));
    if (!y)
        return NULL;
    if (!yaml_parser_initialize(&y->parser)) {
        free(y);
        return NULL;
    }
    yaml_parser_set_input(&y->parser, handler, y);
    y->read = fn;
    y->ud = ud;
    y->mode = mode;
    y->max_doc = max_doc;
    y->out_line = y->out_col = 1;
    return y;
}

static void drop_anchors(vs_yaml *y)
{
    for (size_t i = 0; i < y->nan; i++) {
        free(y->an[i].name);
        free(y->an[i].text);
        free(y->an[i].tag);
    }
    y->nan = 0;
    y->tape.len = 0;
    y->recording = 0;
}

void vs_yaml_free(vs_yaml *y)
{
    if (!y)
        return;
    yaml_parser_delete(&y->parser);
    drop_anchors(y);
    while (y->depth > 0)
        free(y->st[--y->depth].keys);
    free(y->st);
    free(y->an);
    free(y->out.p);
    free(y->tape.p);
    free(y->arena.p);
    free(y);
}

const char *vs_yaml_error(const vs_yaml *y, unsigned long *line, unsigned long *column, int *from_source)
{
    *line = y->err_line;
    *column = y->err_col;
    *from_source = y->source_failed == 1;
    return y->msg;
}


/* ---- keys: the open mappings' keys, for duplicates ---- */

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return h;
}

static int key_grow(vs_yaml *y, frame *f)
{
    size_t cap = f->kcap ? f->kcap * 2 : 8;
    key_ent *t = malloc(cap * sizeof(*t));
    if (!t)
        return nomem(y);
    for (size_t i = 0; i < cap; i++)
        t[i].off = SIZE_MAX;
    for (size_t i = 0; i < f->kcap; i++) {
        size_t j;
        if (f->keys[i].off == SIZE_MAX)
            continue;
        for (j = f->keys[i].hash & (cap - 1); t[j].off != SIZE_MAX; j = (j + 1) & (cap - 1))
            ;
        t[j] = f->keys[i];
    }
    free(f->keys);
    f->keys = t;
    f->kcap = cap;
    return 0;
}

/* A key of the mapping f: a duplicate is an error (doc/yaml.md, "Duplicate keys"). */
static int key_add(vs_yaml *y, frame *f, const char *s, size_t n, yaml_mark_t m)
{
    uint64_t h = hash_bytes(s, n);
    size_t j;
    if ((f->nkeys + 1) * 2 > f->kcap && key_grow(y, f) != 0)
        return -1;
    for (j = h & (f->kcap - 1); f->keys[j].off != SIZE_MAX; j = (j + 1) & (f->kcap - 1)) {
        key_ent *k = &f->keys[j];
        /* an empty key has no bytes in the arena, which may not be allocated yet */
        if (k->hash == h && k->len == n && (n == 0 || memcmp(y->arena.p + k->off, s, n) == 0)) {
            char shown[64];
            snprintf(shown, sizeof(shown), "%.*s%s", n > 48 ? 48 : (int)n, s, n > 48 ? "..." : "");
            for (char *c = shown; *c; c++)
                if ((unsigned char)*c < 0x20)
                    *c = '?';
            return fail_at(y, m,
                           "duplicate key \"%s\" in a mapping (YAML forbids it: go-yaml's strict mode and "
                           "kubectl's strict field validation reject it)",
                           shown);
        }
    }
    f->keys[j].hash = h;
    f->keys[j].off = y->arena.len;
    f->keys[j].len = n;
    f->nkeys++;
    return buf_add(&y->arena, s, n) != 0 ? nomem(y) : 0;
}

/* ---- strings ---- */

/* The length of the valid UTF-8 sequence at s (Go's utf8.DecodeRune), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0], cp;
    size_t len = c < 0x80                 ? 1
                 : c >= 0xc2 && c <= 0xdf ? 2
                 : c >= 0xe0 && c <= 0xef ? 3
                 : c >= 0xf0 && c <= 0xf4 ? 4
                                          : 0;
    if (len == 0 || len > n)
        return 0;
    cp = len == 1 ? c : c & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

/* s as a JSON string; invalid UTF-8 (only a !!binary holds it) as U+FFFD, as encoding/json writes it. */
static int emit_string(vs_yaml *y, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0;
    if (emit(y, "\"", 1) != 0)
        return -1;
    while (i < n) {
        size_t len = u[i] >= 0x20 && u[i] != '"' && u[i] != '\\' ? utf8_len(u + i, n - i) : 0;
        char esc[8];
        if (len > 0) {
            i += len;
            continue;
        }
        if (emit(y, s + run, i - run) != 0)
            return -1;
        if (u[i] == '"' || u[i] == '\\')
            snprintf(esc, sizeof(esc), "\\%c", u[i]);
        else if (u[i] == '\n' || u[i] == '\t')
            snprintf(esc, sizeof(esc), "\\%c", u[i] == '\n' ? 'n' : 't');
        else if (u[i] < 0x20)
            snprintf(esc, sizeof(esc), "\\u00%c%c", hex[u[i] >> 4], hex[u[i] & 15]);
        else
            snprintf(esc, sizeof(esc), "\\ufffd");
        if (emit(y, esc, strlen(esc)) != 0)
            return -1;
        run = ++i;
    }
    return emit(y, s + run, n - run) != 0 || emit(y, "\"", 1) != 0 ? -1 : 0;
}

/* ---- nodes ---- */

static frame *top(vs_yaml *y)
{
    return y->depth ? &y->st[y->depth - 1] : NULL;
}

/* Before a value: the comma between elements. */
static int before_value(vs_yaml *y)
{
    frame *p = top(y);
    return p && !p->map && p->count > 0 ? emit(y, ",", 1) : 0;
}

static void after_value(vs_yaml *y)
{
    frame *p = top(y);
    if (!p)
        return;
    p->count++;
    if (p->map)
        p->want_key = 1;
}

/* Whole mode, at a document's root node: the array the documents go to.
 * 1 when a root sequence's elements join it, 0 otherwise, -1 on error. */
static int begin_root(vs_yaml *y, int is_seq)
{
    if (y->mode != VS_YAML_WHOLE)
        return 0;
    if (!y->array_open && !y->hold) { /* the first document */
        if (!is_seq) {
            y->hold = 1;
            y->hold_start = y->out.len;
            return 0;
        }
        y->array_open = 1;
        return emit(y, "[", 1) != 0 ? -1 : 1;
    }
    if (y->hold) { /* a second document: the held first one becomes the array's first element */
        if (buf_add(&y->out, " ", 1) != 0)
            return nomem(y);
        memmove(y->out.p + y->hold_start + 1, y->out.p + y->hold_start, y->out.len - 1 - y->hold_start);
        y->out.p[y->hold_start] = '[';
        y->hold = 0;
        y->array_open = 1;
        y->array_count = 1;
    }
    if (is_seq)
        return 1;
    if (y->array_count++ > 0 && emit(y, ",", 1) != 0)
        return -1;
    return 0;
}

static int check_aliases(vs_yaml *y, yaml_mark_t m)
{
    char lim[64];
    uint64_t bound = VS_YAML_ALIAS_FLOOR + VS_YAML_ALIAS_RATIO * y->direct_out;
    if (y->alias_out <= bound)
        return 0;
    snprintf(lim, sizeof(lim), "%llu", (unsigned long long)bound);
    return fail_at(y, m,
                   "the aliases of this YAML document expand to more than %s bytes of JSON (1 MiB plus 4 times "
                   "the document's own): refused as a \"billion laughs\" expansion",
                   lim);
}

/* A scalar value: resolved, placed and written. */
static int put_value(vs_yaml *y, const char *s, size_t n, const char *tag, int plain, yaml_mark_t m)
{
    vs_yaml_value v;
    const char *why = NULL;
    char num[40];
    int rc;
    if (vs_yaml_resolve(s, n, tag, plain, &v, &why) != 0)
        return fail_at(y, m, "%s", why);
    if (before_value(y) != 0 || place(y, m, plain && v.type == VS_YT_STRING) != 0)
        return -1;
    switch (v.type) {
    case VS_YT_NULL: rc = emit(y, "null", 4); break;
    case VS_YT_BOOL: rc = emit(y, v.b ? "true" : "false", v.b ? 4 : 5); break;
    case VS_YT_INT:
    case VS_YT_UINT:
        if (v.type == VS_YT_INT)
            snprintf(num, sizeof(num), "%lld", (long long)v.i);
        else
            snprintf(num, sizeof(num), "%llu", (unsigned long long)v.u);
        rc = emit(y, num, strlen(num));
        break;
    case VS_YT_FLOAT:
        if (!vs_yaml_json_float(num, sizeof(num), v.f))
            return fail_at(y, m, "%s has no JSON form (sigs.k8s.io/yaml fails: json: unsupported value)",
                           v.f != v.f ? "NaN (.nan)" : "an infinity (.inf)");
        rc = emit(y, num, strlen(num));
        break;
    case VS_YT_BINARY: {
        unsigned char *d = malloc(n + 1);
        long dn = d ? vs_yaml_base64(d, s, n) : -2;
        rc = dn == -2 ? nomem(y)
             : dn < 0 ? fail_at(y, m, "a !!binary value that is not base64 (go-yaml: %s)", "invalid base64 data")
                      : emit_string(y, (const char *)d, (size_t)dn);
        free(d);
        break;
    }
    default: rc = emit_string(y, s, n);
    }
    if (rc == 0)
        after_value(y);
    return rc;
}

/* The text of a key as sigs.k8s.io/yaml converts it; *tmp is malloc'ed when used. */
static int key_text(vs_yaml *y, const char *s, size_t n, const char *tag, int plain, yaml_mark_t m, const char **ks,
                    size_t *kn, char **tmp, char num[40])
{
    vs_yaml_value v;
    const char *why = NULL;
    if ((plain && n == 2 && memcmp(s, "<<", 2) == 0) || (tag && strcmp(tag, "tag:yaml.org,2002:merge") == 0))
        return fail_at(y, m, "merge keys (<<) are not supported%s: write the keys out", "");
    if (vs_yaml_resolve(s, n, tag, plain, &v, &why) != 0)
        return fail_at(y, m, "%s", why);
    *ks = num;
    if (v.type == VS_YT_STRING)
        *ks = s, *kn = n;
    else if (v.type == VS_YT_BOOL)
        snprintf(num, 40, "%s", v.b ? "true" : "false");
    else if (v.type == VS_YT_INT)
        snprintf(num, 40, "%lld", (long long)v.i);
    else if (v.type == VS_YT_FLOAT)
        vs_yaml_key_float(num, 40, v.f);
    else if (v.type == VS_YT_BINARY) {
        long dn;
        if (!(*tmp = malloc(n + 1)))
            return nomem(y);
        if ((dn = vs_yaml_base64((unsigned char *)*tmp, s, n)) < 0)
            return fail_at(y, m, "a !!binary key that is not base64%s", "");
        *ks = *tmp, *kn = (size_t)dn;
    } else {
        return fail_at(y, m, "a %s mapping key has no JSON form (sigs.k8s.io/yaml: unsupported map key)",
                       v.type == VS_YT_NULL ? "null" : "uint64");
    }
    if (*ks == num)
        *kn = strlen(num);
    return 0;
}

static int put_key(vs_yaml *y, const char *s, size_t n, const char *tag, int plain, yaml_mark_t m)
{
    frame *f = top(y);
    const char *ks = NULL;
    size_t kn = 0;
    char num[40], *tmp = NULL;
    int rc = key_text(y, s, n, tag, plain, m, &ks, &kn, &tmp, num);
    if (rc == 0)
        rc = key_add(y, f, ks, kn, m);
    if (rc == 0 && f->count > 0)
        rc = emit(y, ",", 1);
    if (rc == 0)
        rc = place(y, m, !tag && plain);
    if (rc == 0)
        rc = emit_string(y, ks, kn);
    if (rc == 0)
        rc = emit(y, ":", 1);
    f->want_key = 0;
    free(tmp);
    return rc;
}

static anchor *anchor_new(vs_yaml *y, const char *name)
{
    anchor *a;
    if (y->nan == y->an_cap) {
        size_t cap = y->an_cap ? y->an_cap * 2 : 8;
        anchor *p = realloc(y->an, cap * sizeof(*p));
        if (!p)
            return NULL;
        y->an = p;
        y->an_cap = cap;
    }
    a = &y->an[y->nan];
    memset(a, 0, sizeof(*a));
    if (!(a->name = strdup(name)))
        return NULL;
    y->nan++;
    return a;
}

static int on_scalar(vs_yaml *y, yaml_event_t *e)
{
    const char *s = (const char *)e->data.scalar.value, *tag = (const char *)e->data.scalar.tag;
    size_t n = e->data.scalar.length;
    int plain = e->data.scalar.plain_implicit && !tag;
    frame *f = top(y);
    if (e->data.scalar.anchor) {
        anchor *a = anchor_new(y, (const char *)e->data.scalar.anchor);
        if (!a || !(a->text = malloc(n + 1)) || (tag && !(a->tag = strdup(tag))))
            return nomem(y);
        memcpy(a->text, s, n);
        a->len = n;
        a->plain = plain;
        a->scalar = a->done = 1;
    }
    if (f && f->map && f->want_key)
        return put_key(y, s, n, tag, plain, e->start_mark);
    if (!f) { /* a document that is one scalar: skipped when null, as kubectl skips it */
        vs_yaml_value v;
        const char *why = NULL;
        if (vs_yaml_resolve(s, n, tag, plain, &v, &why) == 0 && v.type == VS_YT_NULL)
            return 0;
        if (begin_root(y, 0) < 0)
            return -1;
    }
    return put_value(y, s, n, tag, plain, e->start_mark);
}

static int on_alias(vs_yaml *y, yaml_event_t *e)
{
    const char *name = (const char *)e->data.alias.anchor;
    frame *f = top(y);
    anchor *a = NULL;
    int rc;
    for (size_t i = y->nan; i-- > 0 && !a;)
        if (strcmp(y->an[i].name, name) == 0)
            a = &y->an[i];
    if (!a)
        return fail_at(y, e->start_mark, "the alias *%s names no anchor before it in this document", name);
    if (!a->done)
        return fail_at(y, e->start_mark, "the alias *%s stands inside the node it names (a recursive node)", name);
    y->in_alias++;
    if (a->scalar && f && f->map && f->want_key)
        rc = put_key(y, a->text, a->len, a->tag, a->plain, e->start_mark);
    else if (a->scalar)
        rc = put_value(y, a->text, a->len, a->tag, a->plain, e->start_mark);
    else if (f && f->map && f->want_key)
        rc = fail_at(y, e->start_mark, "the alias *%s, a mapping or sequence, as a mapping key has no JSON form", name);
    else if ((rc = before_value(y)) == 0 && (rc = place(y, e->start_mark, 0)) == 0) {
        size_t len = a->end - a->start;
        char *copy = malloc(len ? len : 1);
        rc = copy ? 0 : nomem(y);
        if (copy) {
            memcpy(copy, y->tape.p + a->start, len);
            rc = emit(y, copy, len);
            free(copy);
        }
        if (rc == 0)
            after_value(y);
    }
    y->in_alias--;
    return rc != 0 ? rc : check_aliases(y, e->start_mark);
}

static int on_start(vs_yaml *y, yaml_event_t *e, int map)
{
    frame *p = top(y), *f;
    const char *an = (const char *)(map ? e->data.mapping_start.anchor : e->data.sequence_start.anchor);
    int flow = map ? e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                   : e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    int merged = 0;
    if (p && p->map && p->want_key)
        return fail_at(y, e->start_mark, "a mapping or sequence as a mapping key has no JSON form%s", "");
    if (y->depth >= VS_YAML_MAX_DEPTH)
        return fail_at(y, e->start_mark, "the YAML nests deeper than 2048 levels%s", "");
    if (!p && (merged = begin_root(y, !map)) < 0)
        return -1;
    if (before_value(y) != 0 || place(y, e->start_mark, map && !flow ? 2 : 0) != 0)
        return -1;
    if (y->depth == y->st_cap) {
        size_t cap = y->st_cap ? y->st_cap * 2 : 16;
        frame *s = realloc(y->st, cap * sizeof(*s));
        if (!s)
            return nomem(y);
        y->st = s;
        y->st_cap = cap;
    }
    f = &y->st[y->depth];
    memset(f, 0, sizeof(*f));
    f->map = f->want_key = map;
    f->merged = merged;
    f->count = merged ? y->array_count : 0;
    f->anchor = -1;
    f->arena_mark = y->arena.len;
    y->depth++;
    if (an) {
        anchor *a = anchor_new(y, an);
        if (!a)
            return nomem(y);
        a->start = y->tape.len;
        f->anchor = (long)(y->nan - 1);
        y->recording++;
    }
    return merged ? 0 : emit(y, map ? "{" : "[", 1);
}

static int on_end(vs_yaml *y)
{
    frame f = y->st[--y->depth];
    int rc = 0;
    if (f.merged)
        y->array_count = f.count;
    else
        rc = emit(y, f.map ? "}" : "]", 1);
    if (f.anchor >= 0) {
        y->an[f.anchor].end = y->tape.len;
        y->an[f.anchor].done = 1;
        y->recording--;
    }
    free(f.keys);
    y->arena.len = f.arena_mark;
    after_value(y);
    return rc;
}

static int parse_error(vs_yaml *y)
{
    yaml_parser_t *p = &y->parser;
    if (y->source_failed)
        return -1; /* reported by the callback, or the --max-input message is set */
    if (p->error == YAML_MEMORY_ERROR)
        return nomem(y);
    if (p->error == YAML_READER_ERROR) {
        snprintf(y->msg, sizeof(y->msg), "%s at byte %zu of the YAML", p->problem ? p->problem : "unreadable input",
                 p->problem_offset);
        y->err_line = y->err_col = 0;
        return -1;
    }
    if (p->context)
        snprintf(y->msg, sizeof(y->msg), "%s (%s at line %lu, column %lu)", p->problem ? p->problem : "invalid YAML",
                 p->context, (unsigned long)p->context_mark.line + 1, (unsigned long)p->context_mark.column + 1);
    else
        snprintf(y->msg, sizeof(y->msg), "%s", p->problem ? p->problem : "invalid YAML");
    y->err_line = (unsigned long)p->problem_mark.line + 1;
    y->err_col = (unsigned long)p->problem_mark.column + 1;
    return -1;
}

static int on_doc(vs_yaml *y, int start)
{
    if (start) {
        y->direct_out = y->alias_out = 0;
        return 0;
    }
    drop_anchors(y);
    y->doc_in = 0;
    return 0;
}

static int on_stream_end(vs_yaml *y)
{
    y->ended = 1;
    if (y->array_open && emit(y, "]", 1) != 0)
        return -1;
    return y->out.len > 0 || y->hold ? emit(y, "\n", 1) : 0;
}

/* One event of the parser. */
static int vs_yaml_step(vs_yaml *y)
{
    yaml_event_t e;
    int rc = 0;
    if (!yaml_parser_parse(&y->parser, &e))
        return parse_error(y);
    switch (e.type) {
    case YAML_SCALAR_EVENT: rc = on_scalar(y, &e); break;
    case YAML_ALIAS_EVENT: rc = on_alias(y, &e); break;
    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT: rc = on_start(y, &e, e.type == YAML_MAPPING_START_EVENT); break;
    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT: rc = on_end(y); break;
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT: rc = on_doc(y, e.type == YAML_DOCUMENT_START_EVENT); break;
    case YAML_STREAM_END_EVENT: rc = on_stream_end(y); break;
    default: break;
    }
    yaml_event_delete(&e);
    return rc;
}

long vs_yaml_read(vs_yaml *y, char *out, size_t n)
{
    size_t avail;
    for (;;) {
        size_t lim = y->hold ? y->hold_start : y->out.len;
        avail = lim - y->out_pos;
        if (avail > 0 || y->failed)
            break;
        if (y->ended) {
            if (y->hold) { /* one document: it is the text */
                y->hold = 0;
                continue;
            }
            return 0;
        }
        if (!y->hold)
            y->out.len = y->out_pos = 0;
        if (vs_yaml_step(y) != 0)
            y->failed = 1;
    }
    if (y->failed)
        return -1;
    if (avail > n)
        avail = n;
    memcpy(out, y->out.p + y->out_pos, avail);
    y->out_pos += avail;
    return (long)avail;
}
