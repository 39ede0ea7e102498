/* SPDX-License-Identifier: Apache-2.0 */
/* The common private layer: what every area of the library shares
 * (allocation, errors, size-tagged structs, the byte buffer and Go's JSON
 * string writer, token tables, getters, text arguments, exact instants). Not
 * installed. It sees only the common public headers; each area's private
 * header (lib/<area>/private.h) adds that area's public header and
 * internals. Every non-static symbol here is named velstatus__<module>_<verb>. */
#ifndef VELSTATUS_PRIVATE_H
#define VELSTATUS_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "velstatus/common.h"
#include "velstatus/host.h"
#include "velstatus/status.h"
#include "velstatus/time.h"

#if defined(__GNUC__)
#define VS__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define VS__PRINTF(f, a)
#endif

struct velstatus_ctx {
    velstatus_allocator alloc;
};

/* ---- allocation (through the ctx allocator) ---- */
void *velstatus__alloc(velstatus_ctx *ctx, size_t n);
void *velstatus__calloc(velstatus_ctx *ctx, size_t count, size_t size); /* overflow-checked, zeroed */
void *velstatus__realloc(velstatus_ctx *ctx, void *p, size_t n);        /* p may be NULL */
void velstatus__free(velstatus_ctx *ctx, void *p);
char *velstatus__strndup(velstatus_ctx *ctx, const char *s, size_t len); /* NUL-terminates; s may be NULL if len 0 */

/* ---- errors ---- */
/* Overwrites *err (if non-NULL) with code and a formatted message; returns code. */
velstatus_status velstatus__error_set(velstatus_error *err, velstatus_status code, const char *fmt, ...)
    VS__PRINTF(3, 4);
velstatus_status velstatus__error_setv(velstatus_error *err, velstatus_status code, const char *fmt, va_list ap)
    VS__PRINTF(3, 0);
/* Same, with a JSON/text position (1-based line/column, byte offset). */
velstatus_status velstatus__error_set_pos(velstatus_error *err, velstatus_status code, uint32_t line, uint32_t column,
                                          uint64_t offset, const char *fmt, ...) VS__PRINTF(6, 7);
/* The standard out-of-memory error. */
velstatus_status velstatus__error_nomem(velstatus_error *err);
/* E_HOST with the callback's return value recorded in host_code. */
velstatus_status velstatus__error_host(velstatus_error *err, int rc, const char *what);

/* Returns the status of `expr` from the enclosing function unless it is
 * VELSTATUS_OK: the one way a step's failure is passed up (libgit2's
 * GIT_ERROR_CHECK_ERROR). */
#define VS_TRY(expr)                       \
    do {                                   \
        velstatus_status vs_try_ = (expr); \
        if (vs_try_ != VELSTATUS_OK)       \
            return vs_try_;                \
    } while (0)

/* ---- size-tagged struct copy (allocator, vtables, policy, options) ----
 * Copies src (whose first field is uint32_t struct_size) into dst of
 * dst_size bytes, zero-filling. src->struct_size < min_size, or a larger
 * size with a non-zero tail, gives E_ABI naming `what`. */
velstatus_status velstatus__sized_copy(void *dst, size_t dst_size, size_t min_size, const void *src, const char *what,
                                       velstatus_error *err);

/* Size-tagged structs: the size of a struct's first version is every field
 * through its last v1 field. A caller's struct_size must be at least that
 * (velstatus__sized_copy's min_size); appending a field never changes it.
 * Each constant is pinned in tests/check_abi.c; each area's private header
 * defines its own structs' constants. */
#define VS_SIZE_THROUGH(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define VS_ALLOCATOR_SIZE_V1 VS_SIZE_THROUGH(velstatus_allocator, free_fn)

/* The body of every public *_init(p, struct_size): zeroes all struct_size
 * bytes the caller has (a newer caller's tail included, so the library's
 * "unknown bytes are zero" check passes), then copies the first
 * min(struct_size, lib_size) bytes of `defaults` (a struct of this library's
 * size holding the default values; NULL for all-zero defaults) and stores
 * struct_size. A struct_size too small to hold struct_size itself writes
 * nothing. */
void velstatus__sized_init(void *p, size_t struct_size, const void *defaults, size_t lib_size);

/* ---- growable byte buffer ----
 * Appends never fail loudly: on allocation failure `failed` is set and all
 * later appends are no-ops; check it once at the end (velstatus__buf_finish).
 * With a sink (velstatus__buf_set_sink) the buffer does not grow past
 * VELSTATUS__BUF_CHUNK: it hands its contents to the sink instead, and an
 * append of at least that many bytes goes to the sink directly; a sink's
 * negative return is kept in sink_rc and sets `failed`. */
enum { VELSTATUS__BUF_CHUNK = 65536 };
typedef struct velstatus__buf {
    velstatus_ctx *ctx;
    char *p;
    size_t len, cap;
    int failed;
    int (*sink)(void *userdata, const char *data, size_t len);
    void *sink_userdata;
    int sink_rc;
} velstatus__buf;

void velstatus__buf_init(velstatus__buf *b, velstatus_ctx *ctx);
void velstatus__buf_append(velstatus__buf *b, const char *s, size_t len);
void velstatus__buf_puts(velstatus__buf *b, const char *s);
/* One byte: inline while the buffer has room (the codecs write many). */
static inline void velstatus__buf_putc(velstatus__buf *b, char c)
{
    if (b->cap - b->len > 1 && !b->failed) {
        b->p[b->len++] = c;
        b->p[b->len] = '\0';
        return;
    }
    velstatus__buf_append(b, &c, 1);
}
void velstatus__buf_printf(velstatus__buf *b, const char *fmt, ...) VS__PRINTF(2, 3);
/* The decimal digits of v (with '-' when negative), as "%lld" writes them. */
void velstatus__buf_put_int(velstatus__buf *b, int64_t v);
void velstatus__buf_reset(velstatus__buf *b); /* frees */
void velstatus__buf_set_sink(velstatus__buf *b, int (*sink)(void *, const char *, size_t), void *userdata);
/* Hands what is buffered to the sink; 0 when the buffer has failed (an
 * allocation, or the sink now or before). */
int velstatus__buf_drain(velstatus__buf *b);
/* Hands the NUL-terminated contents to the caller (*out, *out_len) or
 * returns E_NOMEM (and frees) if any append failed. */
velstatus_status velstatus__buf_finish(velstatus__buf *b, char **out, size_t *out_len, velstatus_error *err);

/* ---- JSON writing (Go's encoding/json escaping) ---- */
/* Writes s as a JSON string exactly as Go's encoding/json does: "\"" "\\"
 * escaped, \n \r \t, other control chars as \u00XX, and with html != 0 also
 * < > & as \u003c \u003e \u0026; U+2028/2029 as \u2028/\u2029; invalid UTF-8
 * bytes as \ufffd. */
void velstatus__json_write_string(velstatus__buf *b, const char *s, size_t len, int html);
/* The backslash escape Go writes by name for byte c: \" \\ \n \r \t, as
 * encoding/json and strconv.Quote (%q) both do, and with go_quote also \a
 * \b \f \v, as only strconv.Quote does; NULL for any other byte. */
const char *velstatus__short_escape(unsigned char c, int go_quote);
/* Go's %q (strconv.Quote) of prefix (printable ASCII without `"` or `\`, or
 * NULL) followed by s[0 .. len), appended to b, with the printable runes of
 * Unicode 13.0.0 (unicode_13 != 0: the Go releases that built Velero 1.11
 * and 1.12, velstatus_policy::quote_unicode_13) or 15.0.0 (the later ones).
 * lib/common/go_quote.c. */
void velstatus__go_quote(velstatus__buf *b, const char *prefix, const char *s, size_t len, int unicode_13);
/* unicode.IsPrint of that Unicode version: 13.0.0 or 15.0.0. */
int velstatus__go_is_print(uint32_t r, int unicode_13);

/* ---- token tables (enum <-> string) ----
 * table[v] is the token of enum value v (values 0..n-1). token_of gives NULL
 * outside the table; token_find matches exactly (case-sensitive, length
 * too), s may be NULL only with len 0, and returns the index or -1. */
#define VS_N(t) (sizeof(t) / sizeof((t)[0])) /* the entries of a static table */
const char *velstatus__token_of(const char *const *table, size_t n, int v);
int velstatus__token_find(const char *const *table, size_t n, const char *s, size_t len);
/* The one _from_string body: resolves len (VELSTATUS_NUL_TERMINATED), finds
 * s in table and stores its index in *out; otherwise E_INVALID with
 * "unknown <what> "<s>" (want a, b or c)" (or "<what>: NULL argument"). */
velstatus_status velstatus__token_parse(int *out, const char *const *table, size_t n, const char *what, const char *s,
                                        size_t len, velstatus_error *err);
/* Defines velstatus_<name>_to_string() and velstatus_<name>_from_string()
 * for an enum whose value v has the token table[v] (doc/conventions.md §9.2):
 * the one body of every token pair. */
#define VS_ENUM_TOKENS(name, type, table, what) \
    VS__TOKENS(name, type, table, what, int, velstatus__token_of, velstatus__token_parse)
/* The same for a bit-set enum whose flag 1 << i has the token table[i]. */
#define VS_FLAG_TOKENS(name, type, table, what) \
    VS__TOKENS(name, type, table, what, uint32_t, velstatus__flag_token_of, velstatus__flag_token_parse)
/* The body of both: `of(table, n, (itype)v)` gives the token of v and
 * `parse(&i, table, n, what, s, len, err)` finds the itype i of s. */
#define VS__TOKENS(name, type, table, what, itype, of, parse)                                                   \
    const char *velstatus_##name##_to_string(type v)                                                            \
    {                                                                                                           \
        return of(table, VS_N(table), (itype)v);                                                                \
    }                                                                                                           \
    velstatus_status velstatus_##name##_from_string(type *out, const char *s, size_t len, velstatus_error *err) \
    {                                                                                                           \
        itype i_ = 0;                                                                                           \
        velstatus_status st_ = parse(out ? &i_ : NULL, table, VS_N(table), what, s, len, err);                  \
        if (st_ == VELSTATUS_OK)                                                                                \
            *out = (type)i_;                                                                                    \
        return st_;                                                                                             \
    }
/* The same for a bit-set enum: table[i] is the token of flag 1 << i. */
const char *velstatus__flag_token_of(const char *const *table, size_t n, uint32_t flag);
velstatus_status velstatus__flag_token_parse(uint32_t *out, const char *const *table, size_t n, const char *what,
                                             const char *s, size_t len, velstatus_error *err);

/* ---- field getters ----
 * Defines the public getter `rtype fn(const otype *o)`: o->field, or `none`
 * when o is NULL (doc/conventions.md §9.3: a NULL object never reads as a
 * good result; its `none` is the *_INVALID value, 0 or NULL the header
 * documents). The one body of every getter that returns a stored field as it
 * is; a getter that indexes, computes or has an out-parameter is written
 * out. The header keeps each getter's declaration and documentation. */
#define VS_GETTER(otype, fn, rtype, field, none) \
    rtype fn(const otype *o_)                    \
    {                                            \
        return o_ ? o_->field : (none);          \
    }

/* The tail of every getter that hands out a borrowed (text, length) pair:
 * stores n in *len (when len is not NULL) and returns p; for a NULL p (no
 * such text) the length is 0. */
/* The tail of every getter that answers "is there a value" and hands the
 * int64 value out through an optional pointer: stores v (or 0 when !ok) in
 * *out when out is not NULL, and returns ok. Callers pass v already guarded
 * (`o ? o->x : 0`), as the object may be NULL. */
static inline int velstatus__i64_out(int64_t *out, int ok, int64_t v)
{
    if (out)
        *out = ok ? v : 0;
    return ok;
}

static inline const char *velstatus__text_out(const char *p, size_t n, size_t *len)
{
    if (len)
        *len = p ? n : 0;
    return p;
}

/* ---- text arguments ----
 * The length of a public (s, len) text argument: len itself, or strlen(s)
 * when len is VELSTATUS_NUL_TERMINATED (0 for a NULL s). Every public entry
 * point taking (s, len) resolves its lengths with this first. */
size_t velstatus__text_len(const char *s, size_t len);
/* Resolves *len (velstatus__text_len) and checks the text: E_INVALID
 * "NAME is NULL with length N" when s is NULL with a length. */
velstatus_status velstatus__text_arg(const char *s, size_t *len, const char *name, velstatus_error *err);
/* The checks of a call taking one object (or output) and one text: E_INVALID
 * "OBJ_NAME is NULL" when obj is NULL, then velstatus__text_arg(). */
velstatus_status velstatus__obj_text_args(const void *obj, const char *obj_name, const char *s, size_t *len,
                                          const char *name, velstatus_error *err);

/* ---- time (lib/common/time.c) ----
 * An exact instant is (sec, nsec): whole seconds since the epoch and
 * nanoseconds in [0, 1e9), which holds Go's whole range. */
/* sec/nsec as int64 nanoseconds: 1 when they fit; else 0 and *ns is
 * saturated (INT64_MIN below the range, INT64_MAX above). */
int velstatus__time_to_ns(int64_t sec, int32_t nsec, int64_t *ns);
/* Go's t.Add(add_ns).Before(now) for t = (sec, nsec), exactly (no
 * saturation is needed: |sec| stays far below 2^62). */
int velstatus__time_add_before(int64_t sec, int32_t nsec, int64_t add_ns, int64_t now_ns);
/* velstatus_time_format_go() of an exact instant (nsec in [0, 1e9)); fn
 * names the caller in errors. */
velstatus_status velstatus__time_format_go_sec(char *buf, size_t cap, int64_t sec, int32_t nsec, const char *fn,
                                               velstatus_error *err);

#endif /* VELSTATUS_PRIVATE_H */
