/* SPDX-License-Identifier: Apache-2.0 */
/* Status names, errors, the context and its allocator, byte buffers. */
#include "common/private.h"
#include "common/util_array.h"
#include "common/util_swar.h"
#include "vsx_utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- status ---- */

const char *velstatus_status_name(velstatus_status status)
{
    switch (status) {
    case VELSTATUS_OK: return "VELSTATUS_OK";
    case VELSTATUS_E_NOMEM: return "VELSTATUS_E_NOMEM";
    case VELSTATUS_E_INVALID: return "VELSTATUS_E_INVALID";
    case VELSTATUS_E_PARSE: return "VELSTATUS_E_PARSE";
    case VELSTATUS_E_SCHEMA: return "VELSTATUS_E_SCHEMA";
    case VELSTATUS_E_HOST: return "VELSTATUS_E_HOST";
    case VELSTATUS_E_ABI: return "VELSTATUS_E_ABI";
    case VELSTATUS_E_RANGE: return "VELSTATUS_E_RANGE";
    case VELSTATUS_E_STATE: return "VELSTATUS_E_STATE";
    case VELSTATUS_PASSTHROUGH: return "VELSTATUS_PASSTHROUGH";
    case VELSTATUS_E_INTERNAL: return "VELSTATUS_E_INTERNAL";
    }
    return "VELSTATUS_E_UNKNOWN";
}

const char *velstatus_status_str(velstatus_status status)
{
    switch (status) {
    case VELSTATUS_OK: return "success";
    case VELSTATUS_E_NOMEM: return "out of memory";
    case VELSTATUS_E_INVALID: return "invalid argument";
    case VELSTATUS_E_PARSE: return "malformed input";
    case VELSTATUS_E_SCHEMA: return "input does not match the expected schema";
    case VELSTATUS_E_HOST: return "a host callback failed";
    case VELSTATUS_E_ABI: return "struct size mismatch between host and library";
    case VELSTATUS_E_RANGE: return "value out of range";
    case VELSTATUS_E_STATE: return "operation not allowed in the current state";
    case VELSTATUS_PASSTHROUGH: return "passthrough (callback declined)";
    case VELSTATUS_E_INTERNAL: return "internal error in libvelstatus";
    }
    return "unknown status";
}

void velstatus_error_clear(velstatus_error *err)
{
    if (err)
        memset(err, 0, sizeof(*err));
}

velstatus_status velstatus__error_setv(velstatus_error *err, velstatus_status code, const char *fmt, va_list ap)
{
    if (err) {
        memset(err, 0, sizeof(*err));
        err->code = code;
        vsnprintf(err->message, sizeof(err->message), fmt, ap);
    }
    return code;
}

velstatus_status velstatus__error_set(velstatus_error *err, velstatus_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    velstatus__error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

velstatus_status velstatus__error_set_pos(velstatus_error *err, velstatus_status code, uint32_t line, uint32_t column,
                                          uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    velstatus__error_setv(err, code, fmt, ap);
    va_end(ap);
    if (err) {
        err->line = line;
        err->column = column;
        err->offset = offset;
    }
    return code;
}

velstatus_status velstatus__error_nomem(velstatus_error *err)
{
    return velstatus__error_set(err, VELSTATUS_E_NOMEM, "out of memory");
}

velstatus_status velstatus__error_host(velstatus_error *err, int rc, const char *what)
{
    velstatus__error_set(err, VELSTATUS_E_HOST, "host callback %s failed with %d", what, rc);
    if (err)
        err->host_code = rc;
    return VELSTATUS_E_HOST;
}

velstatus_status velstatus__sized_copy(void *dst, size_t dst_size, size_t min_size, const void *src, const char *what,
                                       velstatus_error *err)
{
    uint32_t size;
    memcpy(&size, src, sizeof(size));
    if (size < min_size)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "%s.struct_size is %u, smaller than %zu", what,
                                    (unsigned)size, min_size);
    if (size > dst_size) {
        const unsigned char *tail = (const unsigned char *)src + dst_size;
        for (size_t i = 0; i < size - dst_size; i++)
            if (tail[i] != 0)
                return velstatus__error_set(err, VELSTATUS_E_ABI,
                                            "%s.struct_size is %u and byte %zu, unknown to this library, is not zero",
                                            what, (unsigned)size, dst_size + i);
    }
    memset(dst, 0, dst_size);
    memcpy(dst, src, size < dst_size ? size : dst_size);
    memcpy(dst, &(uint32_t){(uint32_t)dst_size}, sizeof(uint32_t));
    return VELSTATUS_OK;
}

void velstatus__sized_init(void *p, size_t struct_size, const void *defaults, size_t lib_size)
{
    uint32_t size = struct_size > UINT32_MAX ? UINT32_MAX : (uint32_t)struct_size;
    if (!p || struct_size < sizeof(size))
        return;
    memset(p, 0, struct_size);
    if (defaults)
        memcpy(p, defaults, struct_size < lib_size ? struct_size : lib_size);
    memcpy(p, &size, sizeof(size));
}

/* ---- token tables ---- */

const char *velstatus__token_of(const char *const *table, size_t n, int v)
{
    return v >= 0 && (size_t)v < n ? table[v] : NULL;
}

int velstatus__token_find(const char *const *table, size_t n, const char *s, size_t len)
{
    if (!s && len)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (strlen(table[i]) == len && (len == 0 || memcmp(table[i], s, len) == 0))
            return (int)i;
    return -1;
}

size_t velstatus__text_len(const char *s, size_t len)
{
    if (len != VELSTATUS_NUL_TERMINATED)
        return len;
    return s ? strlen(s) : 0;
}

velstatus_status velstatus__text_arg(const char *s, size_t *len, const char *name, velstatus_error *err)
{
    *len = velstatus__text_len(s, *len);
    if (!s && *len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL with length %zu", name, *len);
    return VELSTATUS_OK;
}

velstatus_status velstatus__obj_text_args(const void *obj, const char *obj_name, const char *s, size_t *len,
                                          const char *name, velstatus_error *err)
{
    if (!obj)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", obj_name);
    return velstatus__text_arg(s, len, name, err);
}

/* "a, b or c" from a token table, truncated to fit cap. */
static void want_list(char *buf, size_t cap, const char *const *table, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(buf + at, cap - at, "%s%s", sep, table[i][0] ? table[i] : "\"\"");
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

static velstatus_status token_unknown(const char *const *table, size_t n, const char *what, const char *s, size_t len,
                                      velstatus_error *err)
{
    char want[160];
    want_list(want, sizeof(want), table, n);
    return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown %s \"%.*s\" (want %s)", what,
                                (int)(len > 64 ? 64 : len), s ? s : "", want);
}

velstatus_status velstatus__token_parse(int *out, const char *const *table, size_t n, const char *what, const char *s,
                                        size_t len, velstatus_error *err)
{
    len = velstatus__text_len(s, len);
    if (!out || (!s && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: NULL argument", what);
    int i = velstatus__token_find(table, n, s, len);
    if (i < 0)
        return token_unknown(table, n, what, s, len, err);
    *out = i;
    return VELSTATUS_OK;
}

const char *velstatus__flag_token_of(const char *const *table, size_t n, uint32_t flag)
{
    if (flag == 0 || (flag & (flag - 1)) != 0)
        return NULL;
    for (size_t i = 0; i < n && i < 32; i++)
        if (flag == (UINT32_C(1) << i))
            return table[i];
    return NULL;
}

velstatus_status velstatus__flag_token_parse(uint32_t *out, const char *const *table, size_t n, const char *what,
                                             const char *s, size_t len, velstatus_error *err)
{
    int i = 0;
    velstatus_status st = velstatus__token_parse(out ? &i : NULL, table, n, what, s, len, err);
    if (st == VELSTATUS_OK)
        *out = UINT32_C(1) << i;
    return st;
}

/* ---- context and allocation ---- */

static void *libc_alloc(void *ud, size_t n)
{
    (void)ud;
    return malloc(n);
}
static void *libc_realloc(void *ud, void *p, size_t n)
{
    (void)ud;
    return realloc(p, n);
}
static void libc_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

void velstatus_allocator_init(velstatus_allocator *alloc, size_t struct_size)
{
    velstatus__sized_init(alloc, struct_size, NULL, sizeof(*alloc));
}

velstatus_status velstatus_ctx_new(velstatus_ctx **out, const velstatus_allocator *alloc, velstatus_error *err)
{
    velstatus_allocator a;
    velstatus_ctx *ctx;
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    *out = NULL;
    if (alloc) {
        velstatus_status st = velstatus__sized_copy(&a, sizeof(a), VS_ALLOCATOR_SIZE_V1, alloc, "allocator", err);
        if (st != VELSTATUS_OK)
            return st;
        if (a.flags != 0)
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "allocator.flags must be 0");
        if (!a.alloc_fn || !a.realloc_fn || !a.free_fn)
            return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                        "allocator.alloc_fn, realloc_fn and free_fn must all be set");
    } else {
        memset(&a, 0, sizeof(a));
        a.struct_size = sizeof(a);
        a.alloc_fn = libc_alloc;
        a.realloc_fn = libc_realloc;
        a.free_fn = libc_free;
    }
    ctx = a.alloc_fn(a.userdata, sizeof(*ctx));
    if (!ctx)
        return velstatus__error_nomem(err);
    ctx->alloc = a;
    *out = ctx;
    return VELSTATUS_OK;
}

void velstatus_ctx_free(velstatus_ctx *ctx)
{
    if (ctx)
        ctx->alloc.free_fn(ctx->alloc.userdata, ctx);
}

void velstatus_free(velstatus_ctx *ctx, void *p)
{
    if (ctx && p)
        ctx->alloc.free_fn(ctx->alloc.userdata, p);
}

void *velstatus__alloc(velstatus_ctx *ctx, size_t n)
{
    return ctx->alloc.alloc_fn(ctx->alloc.userdata, n ? n : 1);
}

void *velstatus__calloc(velstatus_ctx *ctx, size_t count, size_t size)
{
    void *p;
    if (size && count > SIZE_MAX / size)
        return NULL;
    p = velstatus__alloc(ctx, count * size);
    if (p)
        memset(p, 0, count * size > 0 ? count * size : 1);
    return p;
}

void *velstatus__realloc(velstatus_ctx *ctx, void *p, size_t n)
{
    if (!p)
        return velstatus__alloc(ctx, n);
    return ctx->alloc.realloc_fn(ctx->alloc.userdata, p, n ? n : 1);
}

void velstatus__free(velstatus_ctx *ctx, void *p)
{
    if (p)
        ctx->alloc.free_fn(ctx->alloc.userdata, p);
}

char *velstatus__strndup(velstatus_ctx *ctx, const char *s, size_t len)
{
    char *p;
    if (len == SIZE_MAX)
        return NULL;
    p = velstatus__alloc(ctx, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* ---- buffer ---- */

void velstatus__buf_init(velstatus__buf *b, velstatus_ctx *ctx)
{
    memset(b, 0, sizeof(*b));
    b->ctx = ctx;
}

void velstatus__buf_set_sink(velstatus__buf *b, int (*sink)(void *, const char *, size_t), void *userdata)
{
    b->sink = sink;
    b->sink_userdata = userdata;
}

static int buf_emit(velstatus__buf *b, const char *s, size_t len)
{
    int rc = len ? b->sink(b->sink_userdata, s, len) : 0;
    if (rc < 0) { /* doc/conventions.md §2: negative is failure */
        b->sink_rc = rc;
        b->failed = 1;
        return 0;
    }
    return 1;
}

int velstatus__buf_drain(velstatus__buf *b)
{
    if (b->failed || !buf_emit(b, b->p, b->len))
        return 0;
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
    return 1;
}

static int buf_reserve(velstatus__buf *b, size_t extra)
{
    char *p;
    if (b->failed)
        return 0;
    if (extra > SIZE_MAX - b->len - 1) {
        b->failed = 1;
        return 0;
    }
    if (b->sink && b->len + extra + 1 > b->cap && b->len + extra >= VELSTATUS__BUF_CHUNK && !velstatus__buf_drain(b))
        return 0; /* with a sink: hand over what is buffered rather than grow past a chunk */
    p = velstatus__array_reserve(b->ctx, b->p, &b->cap, b->len + extra + 1, 1, 64);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->p = p;
    return 1;
}

void velstatus__buf_append(velstatus__buf *b, const char *s, size_t len)
{
    if (len && len < b->cap - b->len && len < VELSTATUS__BUF_CHUNK && !b->failed) { /* it fits: no growth, no drain */
        memcpy(b->p + b->len, s, len);
        b->len += len;
        b->p[b->len] = '\0';
        return;
    }
    if (b->sink && len >= VELSTATUS__BUF_CHUNK) { /* a long run: straight to the sink, not copied */
        if (velstatus__buf_drain(b))
            buf_emit(b, s, len);
        return;
    }
    if (!buf_reserve(b, len))
        return;
    if (len)
        memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = '\0';
}

void velstatus__buf_puts(velstatus__buf *b, const char *s)
{
    velstatus__buf_append(b, s, strlen(s));
}


void velstatus__buf_put_int(velstatus__buf *b, int64_t v)
{
    char t[24];
    size_t i = sizeof(t);
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        t[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        t[--i] = '-';
    velstatus__buf_append(b, t + i, sizeof(t) - i);
}

void velstatus__buf_printf(velstatus__buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    char small[128];
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        velstatus__buf_append(b, small, (size_t)n);
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void velstatus__buf_reset(velstatus__buf *b)
{
    if (b->p) /* most buffers of a decoder never hold a byte */
        velstatus__free(b->ctx, b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

velstatus_status velstatus__buf_finish(velstatus__buf *b, char **out, size_t *out_len, velstatus_error *err)
{
    if (!b->failed)
        buf_reserve(b, 0); /* an empty buffer still gets its NUL */
    if (b->failed) {
        velstatus__buf_reset(b);
        return velstatus__error_nomem(err);
    }
    b->p[b->len] = '\0';
    *out = b->p;
    if (out_len)
        *out_len = b->len;
    b->p = NULL;
    b->len = b->cap = 0;
    return VELSTATUS_OK;
}

/* ---- JSON string writing, Go encoding/json rules ---- */

const char *velstatus__short_escape(unsigned char c, int go_quote)
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\a': return go_quote ? "\\a" : NULL;
    case '\b': return go_quote ? "\\b" : NULL;
    case '\f': return go_quote ? "\\f" : NULL;
    case '\v': return go_quote ? "\\v" : NULL;
    default: return NULL;
    }
}

/* The length of the run of bytes at u[0..len) that a JSON string holds as
 * they are (printable ASCII but '"' and '\\', and with html but < > &):
 * eight at a time, then one at a time. */
static uint64_t json_word_special(uint64_t w, int html)
{
    /* '<' (0x3C) and '>' (0x3E) are the bytes x with x | 2 == '>' */
    return velstatus__swar_json_special(w) |
           (html ? velstatus__swar_has(w | (VS__SWAR_ONES * 2), '>') | velstatus__swar_has(w, '&') : 0);
}

static size_t plain_json_run(const unsigned char *u, size_t len, int html)
{
    size_t i = 0;
    uint64_t w;
    for (; len - i >= 8; i += 8)
        if (json_word_special(velstatus__swar_load(u + i), html))
            break;
    if (i < len && len - i < 8) { /* the last bytes: as one word (padded with spaces, which are plain) */
        w = VS__SWAR_ONES * ' ';
        memcpy(&w, u + i, len - i);
        if (!json_word_special(w, html))
            return len;
    }
    for (; i < len; i++)
        if (u[i] < 0x20 || u[i] >= 0x80 || u[i] == '"' || u[i] == '\\' ||
            (html && (u[i] == '<' || u[i] == '>' || u[i] == '&')))
            break;
    return i;
}

void velstatus__json_write_string(velstatus__buf *b, const char *s, size_t len, int html)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = plain_json_run(u, len, html), start = 0;
    if (i == len && len + 2 < b->cap - b->len && len < VELSTATUS__BUF_CHUNK && !b->failed) { /* all plain, room */
        char *o = b->p + b->len;
        o[0] = '"';
        memcpy(o + 1, s, len);
        o[len + 1] = '"';
        o[len + 2] = '\0';
        b->len += len + 2;
        return;
    }
    velstatus__buf_putc(b, '"');
    while (i < len) {
        unsigned char c = u[i];
        if (c < 0x80) {
            int plain = c >= 0x20 && c != '"' && c != '\\' && !(html && (c == '<' || c == '>' || c == '&'));
            if (plain) {
                i += 1 + plain_json_run(u + i + 1, len - i - 1, html);
                continue;
            }
            const char *named = velstatus__short_escape(c, 0);
            velstatus__buf_append(b, s + start, i - start);
            if (named) {
                velstatus__buf_puts(b, named);
            } else {
                char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
                velstatus__buf_append(b, esc, 6);
            }
            i++;
            start = i;
            continue;
        }
        {
            uint32_t cp = 0;
            size_t n = vsx_utf8_decode(u + i, len - i, &cp);
            if (n == 0) {
                velstatus__buf_append(b, s + start, i - start);
                velstatus__buf_puts(b, "\\ufffd");
                i++;
                start = i;
                continue;
            }
            if (cp == 0x2028 || cp == 0x2029) {
                velstatus__buf_append(b, s + start, i - start);
                velstatus__buf_puts(b, cp == 0x2028 ? "\\u2028" : "\\u2029");
                i += n;
                start = i;
                continue;
            }
            i += n;
        }
    }
    velstatus__buf_append(b, s + start, i - start);
    velstatus__buf_putc(b, '"');
}
