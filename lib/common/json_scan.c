/* SPDX-License-Identifier: Apache-2.0 */
/* The JSON scanner: value boundaries and validation as jansson 2.14 does
 * them, and the decoding of accepted strings and integers (json_scan.h).
 * The references are jansson's load.c (lex_scan, lex_scan_string,
 * lex_scan_number, parse_object, parse_value) and utf8.c. */
#include <stdio.h>
#include <string.h>

#include "common/json_scan.h"
#include "common/util_swar.h"
#include "vsx_utf8.h"

typedef struct scan {
    const char *s;
    size_t n;
    velstatus__json_scan_err *e;
    velstatus__json_tape *t; /* or NULL */
} scan;

/* ---- the tape (json_scan.h) ---- */

/* A new entry from offset `start` ending at `end` (0: not known yet); its
 * index, or UINT32_MAX when the tape is full. */
static uint32_t tape_put(velstatus__json_tape *t, size_t start, size_t end)
{
    if (!t || t->n == VELSTATUS__JSON_TAPE)
        return UINT32_MAX;
    t->start[t->n] = (uint32_t)start;
    t->end[t->n] = (uint32_t)end;
    return t->n++;
}

/* A container opened at `start`, `depth` levels deep (0 for the outermost). */
static void tape_open(velstatus__json_tape *t, size_t depth, size_t start)
{
    uint32_t k = tape_put(t, start, 0);
    if (t && depth < VELSTATUS__JSON_TAPE_DEPTH)
        t->open[depth] = k;
}

/* The container `depth` levels deep closed just before `end`. */
static void tape_close(velstatus__json_tape *t, size_t depth, size_t end)
{
    if (t && depth < VELSTATUS__JSON_TAPE_DEPTH && t->open[depth] != UINT32_MAX)
        t->end[t->open[depth]] = (uint32_t)end;
}

static int fail(scan *c, size_t off, velstatus_status code, const char *reason)
{
    c->e->off = off;
    c->e->code = code;
    c->e->reason = reason;
    c->e->more = 0;
    return 0;
}

/* fail() where the text ran out: more of it could change the verdict. */
static int fail_end(scan *c, size_t off, velstatus_status code, const char *reason)
{
    fail(c, off, code, reason);
    c->e->more = 1;
    return 0;
}

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t velstatus__json_ws(const char *s, size_t i, size_t n)
{
    while (i < n && is_ws((unsigned char)s[i]))
        i++;
    return i;
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* s[i] == '\\' and s[i+1] == 'u': the code unit, or -1 (bad hex digits). */
static long u_escape(const scan *c, size_t i)
{
    long v = 0;
    size_t k;
    if (c->n - i < 6)
        return -1;
    for (k = 2; k < 6; k++) {
        int h = hexval((unsigned char)c->s[i + k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* One \uXXXX escape (with its low surrogate) at s[*i]; advances *i. */
static int scan_u(scan *c, size_t *i, int key)
{
    long v = u_escape(c, *i);
    if (v < 0)
        return (c->n - *i < 6 ? fail_end : fail)(c, *i, VELSTATUS_E_PARSE,
                                                 "invalid \\u escape (four hex digits expected)");
    if (v >= 0xDC00 && v <= 0xDFFF)
        return fail(c, *i, VELSTATUS_E_PARSE, "lone low surrogate in a \\u escape");
    if (v >= 0xD800 && v <= 0xDBFF) {
        long lo;
        if (c->n - *i < 8 || c->s[*i + 6] != '\\' || c->s[*i + 7] != 'u')
            return (c->n - *i < 8 ? fail_end : fail)(c, *i, VELSTATUS_E_PARSE, "lone high surrogate in a \\u escape");
        lo = u_escape(c, *i + 6);
        if (lo < 0)
            return (c->n - *i < 12 ? fail_end : fail)(c, *i + 6, VELSTATUS_E_PARSE,
                                                      "invalid \\u escape (four hex digits expected)");
        if (lo < 0xDC00 || lo > 0xDFFF)
            return fail(c, *i, VELSTATUS_E_PARSE, "high surrogate not followed by a low surrogate");
        *i += 12;
        return 1;
    }
    if (v == 0 && key)
        return fail(c, *i, VELSTATUS_E_PARSE, "\\u0000 in an object key (not supported)");
    *i += 6;
    return 1;
}

/* Length of the strict UTF-8 sequence at s[i] (its first byte >= 0x80), or 0. */
static size_t utf8_len(const scan *c, size_t i)
{
    uint32_t cp;
    return vsx_utf8_decode((const unsigned char *)c->s + i, c->n - i, &cp);
}

/* The bytes a string holds as they are: printable ASCII but '"' and '\\'. */
static int plain_byte(unsigned char u)
{
    return u >= 0x20 && u < 0x80 && u != '"' && u != '\\';
}

/* Non-zero when some byte of the eight at s is not plain_byte(). */
static uint64_t word_not_plain(const unsigned char *s)
{
    return velstatus__swar_json_special(velstatus__swar_load(s));
}

/* The first offset >= i (and <= n) of s whose byte is not plain_byte(). */
static size_t plain_run(const unsigned char *s, size_t i, size_t n)
{
    while (n - i >= 8 && !word_not_plain(s + i))
        i += 8;
    while (i < n && plain_byte(s[i]))
        i++;
    return i;
}

/* The first offset >= i (and <= n) of s whose byte is '"' or '\\'. */
static size_t quote_or_backslash(const unsigned char *s, size_t i, size_t n)
{
    for (; n - i >= 8; i += 8) {
        uint64_t w = velstatus__swar_load(s + i);
        if (velstatus__swar_has(w, '"') | velstatus__swar_has(w, '\\'))
            break;
    }
    while (i < n && s[i] != '"' && s[i] != '\\')
        i++;
    return i;
}

/* s[*i] == '"': advances *i past the closing quote. */
static int scan_string(scan *c, size_t *pi, int key)
{
    size_t i = *pi + 1;
    for (;;) {
        unsigned char u;
        i = plain_run((const unsigned char *)c->s, i, c->n);
        if (i >= c->n)
            return fail_end(c, *pi, VELSTATUS_E_PARSE, "unterminated string");
        u = (unsigned char)c->s[i];
        if (u == '"') {
            *pi = i + 1;
            return 1;
        }
        if (u == 0)
            return fail(c, i, VELSTATUS_E_PARSE, "raw NUL byte in a string (JSON writes it as \\u0000)");
        if (u < 0x20)
            return fail(c, i, VELSTATUS_E_PARSE, "raw control character in a string");
        if (u >= 0x80) {
            size_t len = utf8_len(c, i);
            if (len == 0) /* a sequence cut short by the end may be valid with more text */
                return (c->n - i < 4 ? fail_end : fail)(c, i, VELSTATUS_E_PARSE, "invalid UTF-8");
            i += len;
            continue;
        }
        if (i + 1 >= c->n)
            return fail_end(c, *pi, VELSTATUS_E_PARSE, "unterminated string");
        u = (unsigned char)c->s[i + 1];
        if (u == 'u') {
            if (!scan_u(c, &i, key))
                return 0;
        } else if (u == '"' || u == '\\' || u == '/' || u == 'b' || u == 'f' || u == 'n' || u == 'r' || u == 't') {
            i += 2;
        } else {
            return fail(c, i, VELSTATUS_E_PARSE, "invalid escape");
        }
    }
}

/* 2^1024 - 2^970: the least magnitude strtod() rounds to infinity (ERANGE),
 * which jansson reports as "real number overflow". */
static const char dbl_limit[] =
    "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797758720709633028641"
    "66928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669"
    "59622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/* Does 0.S x 10^mag overflow, where S is the significant digits
 * d[0..nd) (d[0] != '0'; a '.' among them is skipped)? */
static int real_overflows(const char *d, size_t nd, int64_t mag)
{
    size_t lim = sizeof(dbl_limit) - 1, k, j = 0;
    if (mag != (int64_t)lim)
        return mag > (int64_t)lim;
    for (k = 0; k < nd && j < lim; k++) {
        if (d[k] == '.')
            continue;
        if (d[k] != dbl_limit[j])
            return d[k] > dbl_limit[j];
        j++;
    }
    while (j < lim && dbl_limit[j] == '0')
        j++;
    return j == lim; /* S >= the limit: strtod rounds it to infinity */
}

/* Does the integer text t[0..n) ('-'? digits, no leading zero) fit int64? */
static int int_fits(const char *t, size_t n)
{
    const char *lim = "9223372036854775807";
    int neg = t[0] == '-';
    size_t nd = n - (size_t)neg;
    if (nd != 19)
        return nd < 19;
    if (neg)
        lim = "9223372036854775808";
    return memcmp(t + neg, lim, 19) <= 0;
}

static size_t digits(const scan *c, size_t i)
{
    while (i < c->n && c->s[i] >= '0' && c->s[i] <= '9')
        i++;
    return i;
}

/* A number at s[*pi] ('-' or a digit), as lex_scan_number reads it. */
static int scan_number_text(scan *c, size_t *pi)
{
    size_t i = *pi, start = i, int_start, int_end, sig = SIZE_MAX;
    int64_t mag, x = 0;
    if (c->s[i] == '-')
        i++;
    int_start = i;
    if (i >= c->n || c->s[i] < '0' || c->s[i] > '9')
        return fail(c, start, VELSTATUS_E_PARSE, "invalid number ('-' without digits)");
    if (c->s[i] == '0') {
        i++;
        if (i < c->n && c->s[i] >= '0' && c->s[i] <= '9')
            return fail(c, start, VELSTATUS_E_PARSE, "invalid number (leading zero)");
    } else {
        i = digits(c, i);
    }
    int_end = i;
    if (i >= c->n || (c->s[i] != '.' && c->s[i] != 'e' && c->s[i] != 'E')) {
        *pi = i;
        if (!int_fits(c->s + start, i - start))
            return fail(c, start, VELSTATUS_E_RANGE, "integer out of the int64 range");
        return 1;
    }
    if (c->s[i] == '.') {
        size_t f = i + 1;
        i = digits(c, f);
        if (i == f)
            return fail(c, start, VELSTATUS_E_PARSE, "invalid number (no digit after '.')");
    }
    *pi = i; /* the significant digits end here */
    if (i < c->n && (c->s[i] == 'e' || c->s[i] == 'E')) {
        size_t ex = i + 1, ed;
        int neg = 0;
        if (ex < c->n && (c->s[ex] == '+' || c->s[ex] == '-'))
            neg = c->s[ex++] == '-';
        ed = digits(c, ex);
        if (ed == ex)
            return fail(c, start, VELSTATUS_E_PARSE, "invalid number (no digit in the exponent)");
        for (; ex < ed; ex++)
            if (x < 1000000000)
                x = x * 10 + (c->s[ex] - '0');
        if (neg)
            x = -x;
        i = ed;
    }
    for (size_t k = int_start; k < *pi; k++)
        if (c->s[k] != '0' && c->s[k] != '.') {
            sig = k;
            break;
        }
    if (sig != SIZE_MAX) {
        if (sig < int_end)
            mag = (int64_t)(int_end - sig) + x;
        else
            mag = x - (int64_t)(sig - int_end - 1);
        if (real_overflows(c->s + sig, *pi - sig, mag))
            return fail(c, start, VELSTATUS_E_RANGE, "real number overflow (beyond the double range)");
    }
    *pi = i;
    return 1;
}

/* scan_number_text(), and a failure is marked `more` when the characters a
 * number may hold run to the end of the text (more digits could change it). */
static int scan_number(scan *c, size_t *pi)
{
    size_t i = *pi;
    if (scan_number_text(c, pi))
        return 1;
    while (i < c->n && ((c->s[i] >= '0' && c->s[i] <= '9') || c->s[i] == '-' || c->s[i] == '+' || c->s[i] == '.' ||
                        c->s[i] == 'e' || c->s[i] == 'E'))
        i++;
    if (i == c->n)
        c->e->more = 1;
    return 0;
}

static int is_alpha(unsigned char u)
{
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

/* true, false or null: jansson reads the whole run of letters. */
static int scan_literal(scan *c, size_t *pi)
{
    size_t i = *pi, len;
    while (i < c->n && is_alpha((unsigned char)c->s[i]))
        i++;
    len = i - *pi;
    if (!((len == 4 && (memcmp(c->s + *pi, "true", 4) == 0 || memcmp(c->s + *pi, "null", 4) == 0)) ||
          (len == 5 && memcmp(c->s + *pi, "false", 5) == 0)))
        return (i == c->n ? fail_end : fail)(c, *pi, VELSTATUS_E_PARSE,
                                             "invalid literal (true, false or null expected)");
    *pi = i;
    return 1;
}

/* One scalar or an opening bracket at s[*pi]. *open gets '{', '[' or 0. */
static int scan_item(scan *c, size_t *pi, char *open)
{
    unsigned char u;
    *open = 0;
    if (*pi >= c->n)
        return fail_end(c, *pi, VELSTATUS_E_PARSE, "unexpected end of input (a value expected)");
    u = (unsigned char)c->s[*pi];
    if (u == '{' || u == '[') {
        *open = (char)u;
        (*pi)++;
        return 1;
    }
    if (u == '"' || u == '-' || (u >= '0' && u <= '9') || is_alpha(u)) {
        size_t start = *pi;
        int ok = u == '"' ? scan_string(c, pi, 0) : is_alpha(u) ? scan_literal(c, pi) : scan_number(c, pi);
        if (ok)
            tape_put(c->t, start, *pi);
        return ok;
    }
    if (u == 0)
        return fail(c, *pi, VELSTATUS_E_PARSE, "raw NUL byte outside a string");
    return fail(c, *pi, VELSTATUS_E_PARSE, "unexpected character (a value expected)");
}

/* s[*pi] should start a member: "key" ws ':' ws. */
static int scan_key(scan *c, size_t *pi)
{
    size_t i = *pi;
    if (i >= c->n)
        return fail_end(c, i, VELSTATUS_E_PARSE, "a string key expected");
    if (c->s[i] != '"')
        return fail(c, i, VELSTATUS_E_PARSE, c->s[i] == 0 ? "raw NUL byte outside a string" : "a string key expected");
    if (!scan_string(c, &i, 1))
        return 0;
    tape_put(c->t, *pi, i);
    i = velstatus__json_ws(c->s, i, c->n);
    if (i >= c->n)
        return fail_end(c, i, VELSTATUS_E_PARSE, "':' expected after a key");
    if (c->s[i] != ':')
        return fail(c, i, VELSTATUS_E_PARSE,
                    c->s[i] == 0 ? "raw NUL byte outside a string" : "':' expected after a key");
    *pi = velstatus__json_ws(c->s, i + 1, c->n);
    return 1;
}

static int scan_value(const scan *in, size_t *end);

int velstatus__json_scan(const char *s, size_t len, size_t *end, velstatus__json_scan_err *e)
{
    scan c;
    c.s = s;
    c.n = len;
    c.e = e;
    c.t = NULL;
    return scan_value(&c, end);
}

int velstatus__json_scan_tape(const char *s, size_t len, size_t *end, velstatus__json_scan_err *e,
                              velstatus__json_tape *tape, size_t base)
{
    scan c;
    int ok;
    c.s = s;
    c.n = len;
    c.e = e;
    c.t = len <= UINT32_MAX ? tape : NULL; /* its offsets are 32 bits */
    tape->base = base;
    tape->n = tape->cur = 0;
    tape->active = 0;
    ok = scan_value(&c, end);
    tape->active = ok && c.t;
    return ok;
}

/* The value at c->s[0] (velstatus__json_scan), its ends onto c->t if any. */
static int scan_value(const scan *in, size_t *end)
{
    unsigned char stack[VELSTATUS__JSON_MAX_DEPTH / 8] = {0}; /* bit set: an object */
    size_t depth = 0, i = 0, len = in->n;
    const char *s = in->s;
    scan c = *in;
    for (;;) {
        char open;
        if (!scan_item(&c, &i, &open))
            return 0;
        if (open) {
            if (depth == VELSTATUS__JSON_MAX_DEPTH)
                return fail(&c, i - 1, VELSTATUS_E_PARSE, "nesting deeper than 2048 levels");
            tape_open(c.t, depth, i - 1);
            if (open == '{')
                stack[depth / 8] |= (unsigned char)(1u << (depth % 8));
            else
                stack[depth / 8] &= (unsigned char)~(1u << (depth % 8));
            depth++;
            i = velstatus__json_ws(s, i, len);
            if (i < len && s[i] == (open == '{' ? '}' : ']')) {
                depth--;
                i++;
                tape_close(c.t, depth, i);
            } else {
                if (open == '{' && !scan_key(&c, &i))
                    return 0;
                continue;
            }
        }
        /* after a value: close brackets, or a comma and the next item */
        for (;;) {
            int obj;
            if (depth == 0) {
                *end = i;
                return 1;
            }
            obj = (stack[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1;
            i = velstatus__json_ws(s, i, len);
            if (i < len && s[i] == ',') {
                i = velstatus__json_ws(s, i + 1, len);
                if (obj && !scan_key(&c, &i))
                    return 0;
                break;
            }
            if (i < len && s[i] == (obj ? '}' : ']')) {
                depth--;
                i++;
                tape_close(c.t, depth, i);
                continue;
            }
            if (i >= len)
                return fail_end(&c, i, VELSTATUS_E_PARSE,
                                "unexpected end of input (',' or a closing bracket expected)");
            if (s[i] == 0)
                return fail(&c, i, VELSTATUS_E_PARSE, "raw NUL byte outside a string");
            return fail(&c, i, VELSTATUS_E_PARSE, obj ? "',' or '}' expected" : "',' or ']' expected");
        }
    }
}

/* ---- walkers over accepted text ---- */

void velstatus__json_iter_init(velstatus__json_iter *it, const char *p, size_t start, size_t end)
{
    it->p = p;
    it->n = end - 1; /* the closing bracket */
    it->i = start + 1;
    it->tape = NULL;
}

void velstatus__json_iter_init_tape(velstatus__json_iter *it, const char *p, size_t start, size_t end,
                                    velstatus__json_tape *tape)
{
    velstatus__json_iter_init(it, p, start, end);
    it->tape = tape && tape->active ? tape : NULL;
}

/* The end the tape recorded for the value at p[vs], or 0. The walk asks in
 * the order of the text, so the cursor moves forward; a walk that goes
 * back (an array counted, then decoded) searches. */
static size_t tape_end(velstatus__json_tape *t, size_t vs)
{
    size_t off = vs - t->base, lo = 0, hi = t->n;
    while (t->cur < t->n && t->start[t->cur] < off)
        t->cur++;
    if (t->cur < t->n && t->start[t->cur] == off)
        return t->end[t->cur] ? t->base + t->end[t->cur] : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->start[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == t->n || t->start[lo] != off || !t->end[lo])
        return 0;
    t->cur = (uint32_t)lo;
    return t->base + t->end[lo];
}

/* Just past the accepted string at p[i] (its opening quote), up to n. */
static size_t skip_string(const unsigned char *p, size_t i, size_t n)
{
    for (i++;;) {
        i = quote_or_backslash(p, i, n);
        if (i >= n || p[i] == '"')
            return i < n ? i + 1 : n;
        i += 2; /* an escape: the byte after the backslash is never its end */
    }
}

/* Just past the accepted value at p[vs], up to n: its text is known valid,
 * so only strings and brackets are followed (the walk checks nothing
 * again; the scan before it did). */
static size_t value_end(const velstatus__json_iter *it, size_t vs)
{
    const unsigned char *p = (const unsigned char *)it->p;
    size_t i = vs, n = it->n, depth = 0;
    if (it->tape && (i = tape_end(it->tape, vs)) != 0)
        return i;
    i = vs;
    if (p[i] == '"')
        return skip_string(p, i, n);
    if (p[i] != '{' && p[i] != '[') { /* a number or a literal: to the byte that cannot continue it */
        while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ':' && !is_ws(p[i]))
            i++;
        return i;
    }
    while (i < n) {
        unsigned char u = p[i];
        if (u == '"') {
            i = skip_string(p, i, n);
            continue;
        }
        if (u == '{' || u == '[')
            depth++;
        else if ((u == '}' || u == ']') && --depth == 0)
            return i + 1;
        i++;
    }
    return n; /* unreachable on accepted text */
}

static size_t iter_start(velstatus__json_iter *it)
{
    size_t i = velstatus__json_ws(it->p, it->i, it->n);
    if (i < it->n && it->p[i] == ',')
        i = velstatus__json_ws(it->p, i + 1, it->n);
    return i;
}

int velstatus__json_next_member(velstatus__json_iter *it, size_t *ks, size_t *ke, size_t *vs, size_t *ve)
{
    size_t i = iter_start(it);
    if (i >= it->n)
        return 0;
    *ks = i;
    *ke = value_end(it, i);
    i = velstatus__json_ws(it->p, *ke, it->n);
    *vs = velstatus__json_ws(it->p, i + 1, it->n); /* past ':' */
    *ve = value_end(it, *vs);
    it->i = *ve;
    return 1;
}

int velstatus__json_next_element(velstatus__json_iter *it, size_t *vs, size_t *ve)
{
    size_t i = iter_start(it);
    if (i >= it->n)
        return 0;
    *vs = i;
    *ve = value_end(it, i);
    it->i = *ve;
    return 1;
}

/* ---- decoding accepted strings and integers ---- */

static size_t put_utf8(char *out, uint32_t v)
{
    if (v < 0x80) {
        out[0] = (char)v;
        return 1;
    }
    if (v < 0x800) {
        out[0] = (char)(0xC0 | (v >> 6));
        out[1] = (char)(0x80 | (v & 0x3F));
        return 2;
    }
    if (v < 0x10000) {
        out[0] = (char)(0xE0 | (v >> 12));
        out[1] = (char)(0x80 | ((v >> 6) & 0x3F));
        out[2] = (char)(0x80 | (v & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (v >> 18));
    out[1] = (char)(0x80 | ((v >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((v >> 6) & 0x3F));
    out[3] = (char)(0x80 | (v & 0x3F));
    return 4;
}

size_t velstatus__json_unescape(char *out, const char *s, size_t n)
{
    size_t i = 0, o = 0;
    while (i < n) {
        const char *bs = memchr(s + i, '\\', n - i);
        size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
        memmove(out + o, s + i, run);
        o += run;
        i += run;
        if (i >= n)
            break;
        switch (s[i + 1]) {
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            uint32_t v = 0;
            int k;
            for (k = 2; k < 6; k++)
                v = v * 16 + (uint32_t)hexval((unsigned char)s[i + (size_t)k]);
            if (v >= 0xD800 && v <= 0xDBFF) { /* the scanner checked the low half follows */
                uint32_t lo = 0;
                for (k = 8; k < 12; k++)
                    lo = lo * 16 + (uint32_t)hexval((unsigned char)s[i + (size_t)k]);
                v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
            o += put_utf8(out + o, v);
            i += 4;
            break;
        }
        default: out[o++] = s[i + 1]; break; /* " \ / */
        }
        i += 2;
    }
    return o;
}

int velstatus__json_string_text(velstatus__buf *buf, const char *text, size_t vs, size_t ve, const char **s, size_t *n)
{
    const char *in = text + vs + 1;
    size_t len = ve - vs - 2;
    if (!memchr(in, '\\', len)) {
        *s = in;
        *n = len;
        return 1;
    }
    buf->len = 0;
    velstatus__buf_append(buf, in, len);
    if (buf->failed)
        return 0;
    *s = buf->p;
    *n = velstatus__json_unescape(buf->p, buf->p, len);
    return 1;
}

int64_t velstatus__json_int(const char *s, size_t n)
{
    size_t i = s[0] == '-';
    uint64_t v = 0;
    for (; i < n; i++)
        v = v * 10 + (uint64_t)(s[i] - '0');
    if (s[0] != '-')
        return (int64_t)v;
    return v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
}

/* ---- Go's key matching ---- */

static unsigned char upper(unsigned char u)
{
    return u >= 'a' && u <= 'z' ? (unsigned char)(u - 'a' + 'A') : u;
}

int velstatus__json_key_match(const char *key, size_t klen, const char *name)
{
    size_t i = 0, j = 0, n = strlen(name);
    if (klen == n && memcmp(key, name, n) == 0)
        return 2;
    for (; j < n; j++) {
        unsigned char want = upper((unsigned char)name[j]);
        if (i >= klen)
            return 0;
        if (upper((unsigned char)key[i]) == want) {
            i++;
        } else if (want == 'S' && klen - i >= 2 && memcmp(key + i, "\xC5\xBF", 2) == 0) {
            i += 2; /* U+017F LATIN SMALL LETTER LONG S */
        } else if (want == 'K' && klen - i >= 3 && memcmp(key + i, "\xE2\x84\xAA", 3) == 0) {
            i += 3; /* U+212A KELVIN SIGN */
        } else {
            return 0;
        }
    }
    return i == klen;
}

/* Is key[0..klen) the NUL-terminated name? (No strlen: most names differ
 * in their first byte; the name is read only up to its end.) */
static int is_name(const char *key, size_t klen, const char *name)
{
    size_t j = 0;
    while (j < klen && name[j] != '\0' && name[j] == key[j])
        j++;
    return j == klen && name[j] == '\0';
}

int velstatus__json_key_find(const char *key, size_t klen, const char *const *names, size_t n, size_t *hint)
{
    size_t k;
    int folded = -1;
    if (hint && *hint < n && is_name(key, klen, names[*hint])) /* the names are distinct: the one exact match */
        return (int)(*hint)++;
    for (k = 0; k < n; k++) /* the exact bytes first, without folding */
        if (is_name(key, klen, names[k])) {
            if (hint)
                *hint = k + 1;
            return (int)k;
        }
    for (k = 0; k < n; k++) {
        int m = velstatus__json_key_match(key, klen, names[k]);
        if (m == 2)
            return (int)k;
        if (m == 1 && folded < 0)
            folded = (int)k;
    }
    return folded;
}

/* ---- positions and errors ---- */

/* The characters of p[0..n): its bytes less its UTF-8 continuation bytes
 * (10xxxxxx), eight bytes at a time. A byte continues a sequence when its
 * top bit is set and the next is clear: `w & ~(w << 1)` has the top bit of
 * exactly those bytes (the shift moves each byte's bit 6 to its bit 7 and
 * its bit 7 out into the next byte's bit 0, which the mask drops); their
 * count is the sum of the eight bytes of that mask shifted to bit 0. */
static uint64_t utf8_chars(const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    uint64_t chars = n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = velstatus__swar_load(s + i);
        uint64_t cont = (w & ~(w << 1) & VS__SWAR_HIGHS) >> 7;
        chars -= (cont * VS__SWAR_ONES) >> 56;
    }
    for (; i < n; i++)
        chars -= (s[i] & 0xC0) == 0x80;
    return chars;
}

void velstatus__json_advance(const char *p, size_t n, uint64_t *line, uint64_t *col)
{
    const char *nl, *end = p + n;
    uint64_t c = *col;
    while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
        (*line)++;
        c = 1;
        p = nl + 1;
    }
    *col = c + utf8_chars(p, (size_t)(end - p));
}

void velstatus__json_pos(const char *p, size_t off, uint32_t *line, uint32_t *col)
{
    uint64_t ln = 1, c = 1;
    velstatus__json_advance(p, off, &ln, &c);
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

size_t velstatus__json_string_byte(const char *text, size_t vs, size_t ve, uint64_t inner)
{
    size_t n = ve - vs - 2;
    if (inner > n || memchr(text + vs + 1, '\\', n))
        return vs;
    return vs + 1 + (size_t)inner;
}

velstatus_status velstatus__json_scan_error(velstatus_error *err, const velstatus__json_scan_err *e, const char *text,
                                            size_t base, const char *what)
{
    uint32_t line, col;
    size_t off = base + e->off;
    velstatus__json_pos(text, off, &line, &col);
    if (!what) /* the reason alone */
        return velstatus__error_set_pos(err, e->code, line, col, (uint64_t)off, "%s", e->reason);
    return velstatus__error_set_pos(err, e->code, line, col, (uint64_t)off, "%s: %s", what, e->reason);
}
