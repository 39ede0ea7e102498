/* SPDX-License-Identifier: Apache-2.0 */
/* YAML scalars resolved as go-yaml v2 (go.yaml.in/yaml/v2 resolve.go and
 * decode.go's scalar) resolves them under sigs.k8s.io/yaml, and numbers
 * written as Go writes them (doc/yaml.md, "Scalars"). */
#include "yaml_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PREFIX "tag:yaml.org,2002:"

static const char T_TIMESTAMP[] = "timestamp";

/* The go-yaml v2 tag a scalar carries ("str", "int", ...), "" when untagged,
 * NULL for a tag go-yaml does not resolve (a custom tag, "!"). */
static const char *short_tag(const char *tag)
{
    static const char *const known[] = {"str", "int", "float", "bool", "null", "timestamp", "binary"};
    if (!tag)
        return "";
    if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (strcmp(tag + strlen(TAG_PREFIX), known[i]) == 0)
            return known[i];
    return NULL;
}

static int one_of(const char *s, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, s, n) == 0)
            return 1;
    return 0;
}

/* go-yaml v2's resolve map: YAML 1.1 booleans, nulls, .inf and .nan. */
static const char *lookup(const char *s, size_t n, vs_yaml_value *v)
{
    static const char *const yes[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", NULL};
    static const char *const no[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", NULL};
    static const char *const nul[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const nan[] = {".nan", ".NaN", ".NAN", NULL};
    static const char *const pinf[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL};
    static const char *const ninf[] = {"-.inf", "-.Inf", "-.INF", NULL};
    memset(v, 0, sizeof(*v));
    if (one_of(s, n, yes) || one_of(s, n, no))
        return v->type = VS_YT_BOOL, v->b = one_of(s, n, yes), "bool";
    if (one_of(s, n, nul))
        return v->type = VS_YT_NULL, "null";
    if (one_of(s, n, nan) || one_of(s, n, pinf) || one_of(s, n, ninf))
        return v->type = VS_YT_FLOAT,
               v->f = one_of(s, n, nan)    ? NAN
                      : one_of(s, n, ninf) ? -INFINITY
                                           : INFINITY,
               "float";
    return NULL;
}

/* Go's strconv.ParseUint(s, 0, 64): 0x, 0o, 0b prefixes, a leading 0 octal. */
static int go_parse_uint(const char *s, size_t n, uint64_t *out)
{
    unsigned base = 10;
    uint64_t u = 0;
    if (n == 0)
        return 0;
    if (s[0] == '0') {
        char c = n >= 3 ? (char)(s[1] | 0x20) : 0;
        base = c == 'b' ? 2 : c == 'o' ? 8 : c == 'x' ? 16 : 8;
        s += c == 'b' || c == 'o' || c == 'x' ? 2 : 1;
        n -= c == 'b' || c == 'o' || c == 'x' ? 2 : 1;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'                     ? (unsigned)(c - '0')
                     : (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? (unsigned)((c | 0x20) - 'a' + 10)
                                                              : 99;
        if (d >= base || u > (UINT64_MAX - d) / base)
            return 0;
        u = u * base + d;
    }
    *out = u;
    return 1;
}

/* Go's strconv.ParseInt(s, 0, 64). */
static int go_parse_int(const char *s, size_t n, int64_t *out)
{
    int neg = n > 0 && s[0] == '-';
    uint64_t u;
    if (n > 0 && (s[0] == '+' || s[0] == '-'))
        s++, n--;
    if (!go_parse_uint(s, n, &u) || u > (uint64_t)INT64_MAX + (uint64_t)neg)
        return 0;
    *out = neg ? (int64_t)(0 - u) : (int64_t)u;
    return 1;
}

/* go-yaml v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static int yaml_style_float(const char *s, size_t n)
{
    size_t i = 0, d;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        ;
    if (i == d) { /* \.[0-9]+ */
        if (i >= n || s[i] != '.')
            return 0;
        for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    } else if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    }
    return i == n;
}

/* Go's strconv.ParseFloat(s, 64) on a yamlStyleFloat text: overflow is an
 * error there (the text stays a string), underflow is not. */
static int go_parse_float(const char *s, size_t n, double *out)
{
    char buf[512], *end;
    if (n >= sizeof(buf)) { /* a long float text: strtod needs it terminated */
        char *t = malloc(n + 1);
        int ok;
        if (!t)
            return 0;
        memcpy(t, s, n);
        t[n] = '\0';
        errno = 0;
        *out = strtod(t, &end);
        ok = end == t + n && !(errno == ERANGE && isinf(*out));
        free(t);
        return ok;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    *out = strtod(buf, &end);
    return end == buf + n && !(errno == ERANGE && isinf(*out));
}

/* A number as go-yaml v2 reads a plain scalar starting with a digit or a
 * sign: underscores dropped, then int64, uint64, float. 0: a string. */
static const char *number(const char *s, size_t n, vs_yaml_value *v)
{
    char small[128], *plain = n < sizeof(small) ? small : malloc(n + 1);
    size_t m = 0;
    const char *t = NULL;
    if (!plain)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '_')
            plain[m++] = s[i];
    if (go_parse_int(plain, m, &v->i))
        v->type = VS_YT_INT, t = "int";
    else if (m > 0 && plain[0] != '+' && plain[0] != '-' && go_parse_uint(plain, m, &v->u))
        v->type = VS_YT_UINT, t = "int";
    else if (yaml_style_float(plain, m) && go_parse_float(plain, m, &v->f))
        v->type = VS_YT_FLOAT, t = "float";
    if (plain != small)
        free(plain);
    return t;
}

/* "YYYY-" starts every timestamp go-yaml v2 recognises; the rest of its
 * check (time.Parse with four layouts) is loosened to a date's shape. */
static int looks_timestamp(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i == 4 && i < n && s[i] == '-' && n >= 8;
}

/* go-yaml v2's resolve() of a plain (or resolvably tagged) text: the type
 * it finds, or NULL for a string. */
static const char *resolve_plain(const char *s, size_t n, const char *tag, vs_yaml_value *v)
{
    char c = n ? s[0] : 'N';
    const char *t = lookup(s, n, v);
    if (t)
        return t;
    memset(v, 0, sizeof(*v));
    if (c == '.')
        return yaml_style_float(s, n) && go_parse_float(s, n, &v->f) ? (v->type = VS_YT_FLOAT, "float") : NULL;
    if (!((c >= '0' && c <= '9') || c == '+' || c == '-'))
        return NULL;
    if ((tag[0] == '\0' || strcmp(tag, T_TIMESTAMP) == 0) && looks_timestamp(s, n))
        return T_TIMESTAMP;
    return number(s, n, v);
}

int vs_yaml_resolve(const char *s, size_t n, const char *tag, int plain, vs_yaml_value *v, const char **why)
{
    const char *want = short_tag(tag), *got;
    memset(v, 0, sizeof(*v));
    if (!want || strcmp(want, "str") == 0 || (want[0] == '\0' && !plain))
        return 0; /* a custom tag, !!str, or a quoted or block scalar: a string */
    if (strcmp(want, "binary") == 0) {
        v->type = VS_YT_BINARY;
        return 0;
    }
    got = resolve_plain(s, n, want, v);
    if (want[0] == '\0' || (got && strcmp(got, want) == 0))
        goto done;
    if (strcmp(want, "float") == 0 && got && strcmp(got, "int") == 0 && v->type == VS_YT_INT) {
        v->type = VS_YT_FLOAT;
        v->f = (double)v->i;
        return 0;
    }
    *why = "the text does not fit its tag (go-yaml: cannot decode it as the tagged type)";
    return -1;
done:
    if (!got || got == T_TIMESTAMP) /* timestamps stay strings (decode.go, TODO(v3)) */
        v->type = VS_YT_STRING;
    return 0;
}

/* The shortest decimal digits that read back as f (as float when single):
 * digits in d (no point), the decimal exponent as Go's digs.dp. */
static int shortest(double f, int single, char *d, int *dp)
{
    char buf[40];
    for (int p = 1; p <= 17; p++) {
        int n = 0;
        char *e;
        snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
        if (single ? strtof(buf, NULL) != (float)f : strtod(buf, NULL) != f)
            continue;
        for (char *q = buf; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9')
                d[n++] = *q;
        while (n > 1 && d[n - 1] == '0')
            n--;
        d[n] = '\0';
        e = strchr(buf, 'e');
        *dp = atoi(e + 1) + 1;
        return n;
    }
    return 0;
}

/* Go's %e of the digits: d[.ddd]e±XX. */
static void fmt_e(char *out, size_t cap, int neg, const char *d, int nd, int dp)
{
    int x = dp - 1;
    snprintf(out, cap, "%s%c%s%.*se%c%02d", neg ? "-" : "", d[0], nd > 1 ? "." : "", nd - 1, d + 1, x < 0 ? '-' : '+',
             x < 0 ? -x : x);
}

/* Go's %f of the digits, with as many decimals as they need. */
static void fmt_f(char *out, size_t cap, int neg, const char *d, int nd, int dp)
{
    size_t o = 0;
    if (neg)
        out[o++] = '-';
    if (dp <= 0) {
        out[o++] = '0';
    } else {
        for (int i = 0; i < dp; i++)
            out[o++] = i < nd ? d[i] : '0';
    }
    if (nd > dp) {
        out[o++] = '.';
        for (int i = dp; i < nd; i++)
            out[o++] = i < 0 ? '0' : d[i];
    }
    out[o < cap ? o : cap - 1] = '\0';
}

int vs_yaml_json_float(char *out, size_t cap, double f)
{
    char d[24];
    int dp = 0, nd;
    double a = fabs(f);
    if (isnan(f) || isinf(f))
        return 0;
    if (f == 0) {
        snprintf(out, cap, "%s", signbit(f) ? "-0" : "0");
        return 1;
    }
    nd = shortest(a, 0, d, &dp);
    if (a < 1e-6 || a >= 1e21) {
        fmt_e(out, cap, f < 0, d, nd, dp);
        /* encoding/json: e-07 becomes e-7 */
        size_t n = strlen(out);
        if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
            out[n - 2] = out[n - 1];
            out[n - 1] = '\0';
        }
    } else {
        fmt_f(out, cap, f < 0, d, nd, dp);
    }
    return 1;
}

void vs_yaml_key_float(char *out, size_t cap, double f)
{
    char d[24];
    int dp = 0, nd;
    if (isnan(f) || isinf(f)) {
        snprintf(out, cap, "%s", isnan(f) ? ".nan" : f > 0 ? ".inf" : "-.inf");
        return;
    }
    if ((float)f == 0) {
        snprintf(out, cap, "%s", signbit(f) ? "-0" : "0");
        return;
    }
    if (isinf((float)f)) { /* beyond float32: FormatFloat(k, 'g', -1, 32) says +Inf */
        snprintf(out, cap, "%s", f > 0 ? ".inf" : "-.inf");
        return;
    }
    nd = shortest(fabs(f), 1, d, &dp);
    if (dp - 1 < -4 || dp - 1 >= 6) /* 'g' with the shortest digits decides at exponent 6 */
        fmt_e(out, cap, f < 0, d, nd, dp);
    else
        fmt_f(out, cap, f < 0, d, nd, dp);
}

static int b64_digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long vs_yaml_base64(unsigned char *out, const char *s, size_t n)
{
    unsigned acc = 0;
    int bits = 0, pad = 0;
    long o = 0;
    size_t q = 0; /* characters of the current quantum, padding included */
    for (size_t i = 0; i < n; i++) {
        int d;
        if (s[i] == '\r' || s[i] == '\n')
            continue;
        if (s[i] == '=') {
            if (q % 4 < 2)
                return -1;
            pad++, q++;
            continue;
        }
        d = b64_digit(s[i]);
        if (d < 0 || pad)
            return -1;
        acc = (acc << 6) | (unsigned)d;
        bits += 6, q++;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    /* StdEncoding is padded: whole quanta (the bits padding drops are not checked, as Go's
     * non-strict decoder does not) */
    if (q % 4 != 0)
        return -1;
    return o;
}
