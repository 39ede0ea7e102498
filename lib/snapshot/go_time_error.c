/* SPDX-License-Identifier: Apache-2.0 */
/* The error text of Go's `time.Parse(time.RFC3339, value)` (time/format.go:
 * parse, ParseError.Error and its quote), which the VolumeSnapshot plugin
 * returns for an operation ID whose third part is not a time. The chunks of
 * the layout "2006-01-02T15:04:05Z07:00" are walked as Go walks them, with
 * the same leniency (a one-digit hour, a fraction Go reads though the layout
 * has none, offsets up to 24:60) and the same first error. */
#include "snapshot/private.h"
#include "vsx_utf8.h"

#include <string.h>

#define RFC3339_LAYOUT "2006-01-02T15:04:05Z07:00"

/* The chunks of the layout: the literal before each element, and the element. */
enum { E_YEAR, E_MONTH, E_DAY, E_HOUR, E_MIN, E_SEC, E_ZONE, E_END };
static const char *const prefixes[] = {"", "-", "-", "T", ":", ":", "", ""};
static const char *const elements[] = {"2006", "01", "02", "15", "04", "05", "Z07:00", ""};

/* Go time's quote(): printable ASCII as is (`"` and `\` escaped), every
 * other byte of a rune (a control, non-ASCII, an invalid byte) as \xHH. */
static void go_time_quote(velstatus__buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    velstatus__buf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t w;
        if (c >= ' ' && c < 0x80) {
            if (c == '"' || c == '\\')
                velstatus__buf_putc(b, '\\');
            velstatus__buf_putc(b, (char)c);
            i++;
            continue;
        }
        w = vsx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        for (size_t j = 0, k = w ? w : 1; j < k; j++) {
            unsigned char x = (unsigned char)s[i + j];
            velstatus__buf_putc(b, '\\');
            velstatus__buf_putc(b, 'x');
            velstatus__buf_putc(b, hex[x >> 4]);
            velstatus__buf_putc(b, hex[x & 15]);
        }
        i += w ? w : 1;
    }
    velstatus__buf_putc(b, '"');
}

static int digit_at(vs_part v, size_t i)
{
    return i < v.n && v.s[i] >= '0' && v.s[i] <= '9';
}

/* Go's getnum: one or two digits (two when fixed); -1 when none. */
static int getnum(vs_part *v, int fixed)
{
    int x;
    if (!digit_at(*v, 0))
        return -1;
    if (!digit_at(*v, 1)) {
        if (fixed)
            return -1;
        x = v->s[0] - '0';
        v->s++;
        v->n--;
        return x;
    }
    x = (v->s[0] - '0') * 10 + (v->s[1] - '0');
    v->s += 2;
    v->n -= 2;
    return x;
}

static void advance(vs_part *v, size_t k)
{
    v->s += k;
    v->n -= k;
}

/* The zone: 'Z' or "±hh:mm" (Go reads it at fixed places, then checks). */
static int parse_zone(vs_part *v, const char **range)
{
    int hr, mm = 0;
    char sign;
    vs_part h, m;
    if (v->n >= 1 && v->s[0] == 'Z') {
        advance(v, 1);
        return 0;
    }
    if (v->n < 6 || v->s[3] != ':')
        return -1;
    sign = v->s[0];
    h = (vs_part){v->s + 1, 2};
    m = (vs_part){v->s + 4, 2};
    advance(v, 6);
    hr = getnum(&h, 1);
    if (hr >= 0)
        mm = getnum(&m, 1);
    if (hr > 24)
        *range = "time zone offset hour";
    if (mm > 60)
        *range = "time zone offset minute";
    return hr < 0 || mm < 0 || (sign != '+' && sign != '-') ? -1 : 0;
}

/* Seconds, and the fraction Go reads after them though the layout has none. */
static int parse_seconds(vs_part *v, const char **range)
{
    int x = getnum(v, 1);
    size_t k = 2;
    if (x < 0)
        return -1;
    if (x >= 60) {
        *range = "second";
        return 0;
    }
    if (v->n >= 2 && (v->s[0] == '.' || v->s[0] == ',') && digit_at(*v, 1)) {
        while (digit_at(*v, k))
            k++;
        advance(v, k);
    }
    return 0;
}

/* One element at *v; -1 when it cannot be read (Go's errBad), *range set
 * when it is out of range. */
static int parse_element(int e, vs_part *v, const char **range)
{
    int x;
    switch (e) {
    case E_YEAR:
        if (v->n < 4 || !digit_at(*v, 0) || !digit_at(*v, 1) || !digit_at(*v, 2) || !digit_at(*v, 3))
            return -1;
        advance(v, 4);
        return 0;
    case E_MONTH:
        x = getnum(v, 1);
        if (x >= 0 && (x < 1 || x > 12))
            *range = "month";
        return x < 0 ? -1 : 0;
    case E_DAY: return getnum(v, 1) < 0 ? -1 : 0;
    case E_HOUR:
        x = getnum(v, 0);
        if (x >= 24)
            *range = "hour";
        return x < 0 ? -1 : 0;
    case E_MIN:
        x = getnum(v, 1);
        if (x >= 60)
            *range = "minute";
        return x < 0 ? -1 : 0;
    case E_SEC: return parse_seconds(v, range);
    default: return parse_zone(v, range);
    }
}

/* "parsing time <value>" then what follows. */
static void error_head(velstatus__buf *b, vs_part value)
{
    velstatus__buf_puts(b, "parsing time ");
    go_time_quote(b, value.s, value.n);
}

/* ParseError without a message: `... as "<layout>": cannot parse "<rest>" as "<element>"`. */
static void cannot_parse(velstatus__buf *b, vs_part value, vs_part rest, const char *element)
{
    error_head(b, value);
    velstatus__buf_puts(b, " as \"" RFC3339_LAYOUT "\": cannot parse ");
    go_time_quote(b, rest.s, rest.n);
    velstatus__buf_puts(b, " as ");
    go_time_quote(b, element, strlen(element));
}

int velstatus__go_rfc3339_error(velstatus__buf *b, const char *s, size_t n)
{
    vs_part value = {s, n}, v = value;
    for (int e = E_YEAR;; e++) {
        size_t plen = strlen(prefixes[e]);
        const char *range = NULL;
        vs_part hold;
        if (plen && (v.n < plen || memcmp(v.s, prefixes[e], plen) != 0)) {
            cannot_parse(b, value, v, prefixes[e]);
            return 1;
        }
        advance(&v, plen);
        if (e == E_END) {
            if (v.n == 0)
                break;
            error_head(b, value);
            velstatus__buf_puts(b, ": extra text: ");
            go_time_quote(b, v.s, v.n);
            return 1;
        }
        hold = v;
        if (parse_element(e, &v, &range) < 0 || range) {
            if (range) {
                error_head(b, value);
                velstatus__buf_printf(b, ": %s out of range", range);
            } else {
                cannot_parse(b, value, hold, elements[e]);
            }
            return 1;
        }
    }
    /* Every element read: what is left is the day in its month, which the
     * library's own parser checks with the same rules. */
    if (velstatus_time_parse_sec(&(int64_t){0}, &(int32_t){0}, s, n, NULL) == VELSTATUS_OK)
        return 0;
    error_head(b, value);
    velstatus__buf_puts(b, ": day out of range");
    return 1;
}
