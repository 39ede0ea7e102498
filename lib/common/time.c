/* SPDX-License-Identifier: Apache-2.0 */
/* RFC 3339 timestamps and Go duration strings, by integer arithmetic.
 *
 * Everything here mirrors Go's `time` package (format.go) behaviour, not its
 * code: time.Parse(time.RFC3339Nano, s), Time.Format(time.RFC3339[Nano]),
 * Time.String(), time.ParseDuration and Duration.String(). Calendar maths is
 * proleptic Gregorian on days since 1970-01-01 (H. Hinnant's days_from_civil
 * / civil_from_days algorithms), so no libc time, TZ or locale is involved.
 */
#include "common/private.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define VS_NS_PER_SEC INT64_C(1000000000)

/* The int64 instant range, split into floor seconds and nanoseconds. */
#define VS_MIN_SEC INT64_C(-9223372037) /* floor(INT64_MIN / 1e9) */
#define VS_MIN_NSEC 145224192
#define VS_MAX_SEC INT64_C(9223372036)
#define VS_MAX_NSEC 854775807

/* Longest part of the input quoted in an error message (bytes). */
#define VS_QUOTE_MAX 64

/* ------------------------------------------------------------------ */
/* calendar                                                            */

static int is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

/* Days since 1970-01-01 of y-m-d (m 1..12, d 1..31); exact for any year an
 * int64 instant can reach and far beyond. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;                                   /* [0, 399] */
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* [0, 365] */
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

/* The inverse: y-m-d of a day number. */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;                                      /* [0, 146096] */
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* [0, 365] */
    mp = (5 * doy + 2) / 153;                                    /* [0, 11] */
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* Splits an instant into floor seconds and a non-negative nanosecond part. */
static void split_ns(int64_t ns, int64_t *sec, int32_t *nsec)
{
    int64_t s = ns / VS_NS_PER_SEC, r = ns % VS_NS_PER_SEC;
    if (r < 0) {
        r += VS_NS_PER_SEC;
        s -= 1;
    }
    *sec = s;
    *nsec = (int32_t)r;
}

/* ------------------------------------------------------------------ */
/* error messages                                                      */

/* Quotes s as Go's time package does (its private quote()): `"` and `\`
 * backslash-escaped, every byte < 0x20 or >= 0x80 as \xNN. Input longer than
 * VS_QUOTE_MAX bytes is cut there and `...` follows the closing quote.
 * out must hold 4 * VS_QUOTE_MAX + 6 bytes. */
static void quote(char *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = len > VS_QUOTE_MAX ? VS_QUOTE_MAX : len, i;
    char *p = out;
    *p++ = '"';
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x80) {
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            if (c == '"' || c == '\\')
                *p++ = '\\';
            *p++ = (char)c;
        }
    }
    *p++ = '"';
    if (n < len) {
        memcpy(p, "...", 3);
        p += 3;
    }
    *p = '\0';
}

#define VS_QUOTE_BUF (4 * VS_QUOTE_MAX + 6)

static velstatus_status time_error(velstatus_error *err, velstatus_status code, const char *s, size_t len, size_t pos,
                                   const char *what)
{
    char q[VS_QUOTE_BUF];
    if (!err)
        return code;
    quote(q, s, len);
    return velstatus__error_set_pos(err, code, 1, (uint32_t)(pos + 1 > UINT32_MAX ? UINT32_MAX : pos + 1),
                                    (uint64_t)pos, "invalid RFC 3339 timestamp %s: %s", q, what);
}

/* ------------------------------------------------------------------ */
/* RFC 3339 parsing                                                    */

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Exactly n digits at s[*pos]; advances. */
static int take_digits(const char *s, size_t len, size_t *pos, int n, int *out)
{
    int v = 0, i;
    if (len - *pos < (size_t)n)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[*pos + (size_t)i];
        if (!is_digit(c))
            return 0;
        v = v * 10 + (c - '0');
    }
    *pos += (size_t)n;
    *out = v;
    return 1;
}

static int take_char(const char *s, size_t len, size_t *pos, char c)
{
    if (*pos < len && s[*pos] == c) {
        (*pos)++;
        return 1;
    }
    return 0;
}

/* A timestamp as read: its fields, and where reading stopped or failed. */
typedef struct vs_rfc3339 {
    const char *s;
    size_t len, pos;
    size_t bad;       /* the error's byte offset, when what != NULL */
    const char *what; /* the error */
    int year, month, day, hour, min, sec, oh, om;
    int32_t nsec;
    int64_t off; /* seconds east of UTC */
    char sep;    /* between date and clock: 'T', or ' ' in Go's Time.String() */
} vs_rfc3339;

/* Records an error at byte p; returns 0. */
static int tp_fail(vs_rfc3339 *t, size_t p, const char *what)
{
    t->bad = p;
    t->what = what;
    return 0;
}

/* Exactly n digits into *v, else the error `expected`. */
static int tp_digits(vs_rfc3339 *t, int n, int *v, const char *expected)
{
    return take_digits(t->s, t->len, &t->pos, n, v) || tp_fail(t, t->pos, expected);
}

static int tp_char(vs_rfc3339 *t, char c, const char *expected)
{
    return take_char(t->s, t->len, &t->pos, c) || tp_fail(t, t->pos, expected);
}

/* n digits into *v, below `limit` (else `range`, at the digits). */
static int tp_below(vs_rfc3339 *t, int n, int *v, int limit, const char *expected, const char *range)
{
    size_t start = t->pos;
    if (!tp_digits(t, n, v, expected))
        return 0;
    return *v < limit || tp_fail(t, start, range);
}

/* "YYYY-MM-DDT" (or "YYYY-MM-DD " for Go's form; the day is checked against the month at the end). */
static int parse_date(vs_rfc3339 *t)
{
    size_t start;
    if (!tp_digits(t, 4, &t->year, "expected a 4-digit year") || !tp_char(t, '-', "expected '-'"))
        return 0;
    start = t->pos;
    if (!tp_digits(t, 2, &t->month, "expected a 2-digit month"))
        return 0;
    if (t->month < 1 || t->month > 12)
        return tp_fail(t, start, "month out of range");
    return tp_char(t, '-', "expected '-'") && tp_digits(t, 2, &t->day, "expected a 2-digit day") &&
           tp_char(t, t->sep, t->sep == 'T' ? "expected 'T'" : "expected ' '");
}

/* "hh:mm:ss"; Go reads the hour with one or two digits (time.Parse's "15"). */
static int parse_clock(vs_rfc3339 *t)
{
    size_t start = t->pos;
    if (t->pos >= t->len || !is_digit(t->s[t->pos]))
        return tp_fail(t, t->pos, "expected an hour");
    t->hour = t->s[t->pos++] - '0';
    if (t->pos < t->len && is_digit(t->s[t->pos]))
        t->hour = t->hour * 10 + (t->s[t->pos++] - '0');
    if (t->hour >= 24)
        return tp_fail(t, start, "hour out of range");
    return tp_char(t, ':', "expected ':'") &&
           tp_below(t, 2, &t->min, 60, "expected 2-digit minutes", "minute out of range") &&
           tp_char(t, ':', "expected ':'") &&
           tp_below(t, 2, &t->sec, 60, "expected 2-digit seconds", "second out of range");
}

/* Fraction: '.' or ',' then any number of digits; digits past the ninth
 * are read but ignored (truncated), as time.Parse does for a layout without
 * a fraction (time.RFC3339, what metav1.Time reads with). */
static void parse_fraction(vs_rfc3339 *t)
{
    const char *s = t->s;
    int ndig = 0;
    if (!(t->len - t->pos >= 2 && (s[t->pos] == '.' || s[t->pos] == ',') && is_digit(s[t->pos + 1])))
        return;
    for (t->pos++; t->pos < t->len && is_digit(s[t->pos]); t->pos++) {
        if (ndig < 9) {
            t->nsec = t->nsec * 10 + (s[t->pos] - '0');
            ndig++;
        }
    }
    for (; ndig < 9; ndig++)
        t->nsec *= 10;
}

/* 'Z' or "+hh:mm" / "-hh:mm". Go tests offsets with > rather than >=
 * (24:00 and xx:60 pass). */
static int parse_zone(vs_rfc3339 *t)
{
    int neg;
    if (take_char(t->s, t->len, &t->pos, 'Z'))
        return 1;
    if (t->pos >= t->len || (t->s[t->pos] != '+' && t->s[t->pos] != '-'))
        return tp_fail(t, t->pos, "expected 'Z' or a '+HH:MM'/'-HH:MM' offset");
    neg = t->s[t->pos++] == '-';
    if (!tp_below(t, 2, &t->oh, 25, "expected a 2-digit offset hour", "time zone offset hour out of range") ||
        !tp_char(t, ':', "expected ':' in the offset") ||
        !tp_below(t, 2, &t->om, 61, "expected 2-digit offset minutes", "time zone offset minute out of range"))
        return 0;
    t->off = (int64_t)(t->oh * 60 + t->om) * 60;
    if (neg)
        t->off = -t->off;
    return 1;
}

/* Nothing after the zone, and the day exists in its month. */
static int parse_end(vs_rfc3339 *t)
{
    if (t->pos != t->len)
        return tp_fail(t, t->pos, "extra text");
    if (t->day < 1 || t->day > days_in_month(t->year, t->month))
        return tp_fail(t, 8, "day out of range");
    return 1;
}

/* The exact instant of a timestamp read whole: every 4-digit year at any
 * offset is within a few hundred billion seconds of the epoch. */
static void rfc3339_exact(const vs_rfc3339 *t, int64_t *sec, int32_t *nsec)
{
    *sec = days_from_civil(t->year, t->month, t->day) * 86400 + t->hour * 3600 + t->min * 60 + t->sec - t->off;
    *nsec = t->nsec;
}

int velstatus__time_to_ns(int64_t sec, int32_t nsec, int64_t *ns)
{
    if (sec < VS_MIN_SEC || (sec == VS_MIN_SEC && nsec < VS_MIN_NSEC)) {
        *ns = INT64_MIN;
        return 0;
    }
    if (sec > VS_MAX_SEC || (sec == VS_MAX_SEC && nsec > VS_MAX_NSEC)) {
        *ns = INT64_MAX;
        return 0;
    }
    /* sec * 1e9 + nsec without overflow: for negative seconds fold one
     * second into the (then non-positive) nanosecond part. */
    if (sec < 0)
        *ns = (sec + 1) * VS_NS_PER_SEC + (nsec - VS_NS_PER_SEC);
    else
        *ns = sec * VS_NS_PER_SEC + nsec;
    return 1;
}

/* Reads a whole timestamp into t, or fails with E_PARSE naming the byte. */
static velstatus_status rfc3339_read(vs_rfc3339 *t, const char *fn, const char *s, size_t len, velstatus_error *err)
{
    if (!s && len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: s is NULL", fn);
    memset(t, 0, sizeof(*t));
    t->s = s ? s : "";
    t->len = len;
    t->sep = 'T';
    if (!parse_date(t) || !parse_clock(t))
        return time_error(err, VELSTATUS_E_PARSE, t->s, len, t->bad, t->what);
    parse_fraction(t);
    if (!parse_zone(t) || !parse_end(t))
        return time_error(err, VELSTATUS_E_PARSE, t->s, len, t->bad, t->what);
    return VELSTATUS_OK;
}

VELSTATUS_API velstatus_status velstatus_time_parse(int64_t *out_ns, const char *s, size_t len, velstatus_error *err)
{
    vs_rfc3339 t;
    velstatus_status st;
    int64_t sec, ns;
    int32_t nsec;
    len = velstatus__text_len(s, len);
    if (!out_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse: out_ns is NULL");
    st = rfc3339_read(&t, "velstatus_time_parse", s, len, err);
    if (st != VELSTATUS_OK)
        return st;
    rfc3339_exact(&t, &sec, &nsec);
    if (!velstatus__time_to_ns(sec, nsec, &ns) && !(sec == VS_MIN_SEC && nsec == 0)) {
        /* The earliest second written whole is the exception that
         * saturates: what velstatus_time_format() writes for every instant
         * in it (it floors), so what the library writes it reads back. */
        char q[VS_QUOTE_BUF];
        quote(q, t.s, t.len);
        return velstatus__error_set(err, VELSTATUS_E_RANGE,
                                    "RFC 3339 timestamp %s is outside the int64 nanosecond range "
                                    "(1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z)",
                                    q);
    }
    *out_ns = ns;
    return VELSTATUS_OK;
}

VELSTATUS_API velstatus_status velstatus_time_parse_sec(int64_t *out_sec, int32_t *out_nsec, const char *s, size_t len,
                                                        velstatus_error *err)
{
    vs_rfc3339 t;
    velstatus_status st;
    len = velstatus__text_len(s, len);
    if (!out_sec || !out_nsec)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse_sec: an output is NULL");
    st = rfc3339_read(&t, "velstatus_time_parse_sec", s, len, err);
    if (st == VELSTATUS_OK)
        rfc3339_exact(&t, out_sec, out_nsec);
    return st;
}

/* Go's "-0700" offset of Time.String(): " +hhmm" (Go checks it with > too). */
static int go_zone(vs_rfc3339 *t)
{
    int neg;
    if (!tp_char(t, ' ', "expected ' ' before the offset"))
        return 0;
    if (t->pos >= t->len || (t->s[t->pos] != '+' && t->s[t->pos] != '-'))
        return tp_fail(t, t->pos, "expected a '+hhmm'/'-hhmm' offset");
    neg = t->s[t->pos++] == '-';
    if (!tp_below(t, 2, &t->oh, 25, "expected a 2-digit offset hour", "time zone offset hour out of range") ||
        !tp_below(t, 2, &t->om, 61, "expected 2-digit offset minutes", "time zone offset minute out of range"))
        return 0;
    t->off = (int64_t)(t->oh * 60 + t->om) * 60 * (neg ? -1 : 1);
    return 1;
}

/* What may follow the offset: " ABBR" (the zone's abbreviation, "CET",
 * "IST", "-03": printable, no space; ignored, the offset decides), then Go's
 * monotonic clock reading " m=+1.000000001" (ignored). */
static int go_tail(vs_rfc3339 *t)
{
    const char *s = t->s;
    size_t start;
    if (t->pos < t->len && !(t->len - t->pos >= 3 && memcmp(s + t->pos, " m=", 3) == 0)) {
        start = ++t->pos;
        while (t->pos < t->len && s[t->pos] > ' ' && s[t->pos] < 0x7f)
            t->pos++;
        if (t->pos == start || s[start - 1] != ' ')
            return tp_fail(t, start - 1, "expected ' ' and the zone's abbreviation");
    }
    if (t->len - t->pos >= 3 && memcmp(s + t->pos, " m=", 3) == 0) {
        t->pos += 3;
        if (t->pos < t->len && (s[t->pos] == '+' || s[t->pos] == '-'))
            t->pos++;
        start = t->pos;
        while (t->pos < t->len && (is_digit(s[t->pos]) || s[t->pos] == '.'))
            t->pos++;
        if (t->pos == start)
            return tp_fail(t, start, "expected the monotonic reading's seconds");
    }
    return 1;
}

/* Reads Go's Time.String() form whole into t. */
static velstatus_status go_read(vs_rfc3339 *t, const char *s, size_t len, velstatus_error *err)
{
    char q[VS_QUOTE_BUF];
    memset(t, 0, sizeof(*t));
    t->s = s ? s : "";
    t->len = len;
    t->sep = ' ';
    if (parse_date(t) &&
        (len > 12 && is_digit(t->s[12]) ? parse_clock(t) : tp_fail(t, 11, "expected a 2-digit hour"))) {
        if (t->pos < t->len && t->s[t->pos] == '.')
            parse_fraction(t);
        if (go_zone(t) && go_tail(t) && parse_end(t))
            return VELSTATUS_OK;
    }
    if (!err)
        return VELSTATUS_E_PARSE;
    quote(q, t->s, len);
    return velstatus__error_set_pos(
        err, VELSTATUS_E_PARSE, 1, (uint32_t)(t->bad + 1 > UINT32_MAX ? UINT32_MAX : t->bad + 1), (uint64_t)t->bad,
        "invalid time %s (Go's Time.String(): 2023-11-10 16:40:35 +0100 CET): %s", q, t->what);
}

VELSTATUS_API velstatus_status velstatus_time_parse_go_string(int64_t *out_sec, int32_t *out_nsec, const char *s,
                                                              size_t len, velstatus_error *err)
{
    vs_rfc3339 t;
    velstatus_status st;
    len = velstatus__text_len(s, len);
    if (!out_sec || !out_nsec)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse_go_string: an output is NULL");
    if (!s && len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse_go_string: s is NULL");
    st = go_read(&t, s, len, err);
    if (st == VELSTATUS_OK)
        rfc3339_exact(&t, out_sec, out_nsec);
    return st;
}

/* t.Add(d).Before(now) for any operands: seconds and nanoseconds apart. */
static int add_before_split(int64_t sec, int32_t nsec, int64_t add_ns, int64_t now_ns)
{
    int64_t as = add_ns / VS_NS_PER_SEC, ns_s = now_ns / VS_NS_PER_SEC;
    int64_t an = add_ns % VS_NS_PER_SEC, nn = now_ns % VS_NS_PER_SEC;
    int64_t n = nsec + an; /* in (-1e9, 2e9) */
    /* |sec| < 2^39 for every time a record holds, |as| < 2^34: no overflow */
    sec += as;
    if (n >= VS_NS_PER_SEC) {
        n -= VS_NS_PER_SEC;
        sec++;
    } else if (n < 0) {
        n += VS_NS_PER_SEC;
        sec--;
    }
    if (nn < 0) {
        nn += VS_NS_PER_SEC;
        ns_s--;
    }
    return sec < ns_s || (sec == ns_s && n < nn);
}

/* Within these, sec * 1e9 + nsec + add_ns cannot overflow (|sum| < 8.1e18,
 * int64 holds 9.2e18): years 1843 to 2096, timeouts up to 126 years. */
#define VS_ADD_BEFORE_SEC INT64_C(4000000000)
#define VS_ADD_BEFORE_NS INT64_C(4000000000000000000)

int velstatus__time_add_before(int64_t sec, int32_t nsec, int64_t add_ns, int64_t now_ns)
{
    /* the common case in one sum: no division (the decision loop asks
     * once per running operation and pass, bench/README.md, issue 25) */
    if (sec >= -VS_ADD_BEFORE_SEC && sec <= VS_ADD_BEFORE_SEC && add_ns >= -VS_ADD_BEFORE_NS &&
        add_ns <= VS_ADD_BEFORE_NS)
        return sec * VS_NS_PER_SEC + nsec + add_ns < now_ns;
    return add_before_split(sec, nsec, add_ns, now_ns);
}

/* ------------------------------------------------------------------ */
/* formatting                                                          */

/* Writes ".fffffffff" with trailing zeros trimmed (nothing for 0); returns
 * the length written into out (at least 11 bytes). */
static int fmt_fraction(char *out, int32_t nsec)
{
    int n = 9;
    if (nsec == 0) {
        out[0] = '\0';
        return 0;
    }
    while (nsec % 10 == 0) {
        nsec /= 10;
        n--;
    }
    return snprintf(out, 11, ".%0*d", n, (int)nsec);
}

static velstatus_status put(char *buf, size_t cap, const char *text, int n, const char *fn, velstatus_error *err)
{
    if (n < 0 || (size_t)n >= cap) {
        if (cap > 0)
            buf[0] = '\0';
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "%s: buffer of %zu bytes too small (need %d)", fn, cap,
                                    n + 1);
    }
    memcpy(buf, text, (size_t)n + 1);
    return VELSTATUS_OK;
}

/* The calendar fields of an instant (UTC). */
typedef struct vs_civil {
    int64_t year;
    int month, day, hour, min, sec;
    int32_t nsec;
} vs_civil;

static void to_civil(int64_t secs, int32_t nsec, vs_civil *c)
{
    int64_t days, rem;
    c->nsec = nsec;
    days = secs / 86400;
    rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    civil_from_days(days, &c->year, &c->month, &c->day);
    c->hour = (int)(rem / 3600);
    c->min = (int)(rem / 60 % 60);
    c->sec = (int)(rem % 60);
}

/* Time.Format in UTC with one of two layouts: RFC3339[Nano] (go == 0:
 * "2006-01-02T15:04:05Z", the fraction only when asked) or Time.String's
 * (go != 0: "2006-01-02 15:04:05.999999999 +0000 UTC", always with the
 * trimmed fraction). The year is Go's appendInt(year, 4): at least four
 * digits, a '-' before a negative one ("-0001"), as many as it has past
 * 9999 ("10000"). */
static velstatus_status format_layout(char *buf, size_t cap, int64_t sec, int32_t nsec, int fraction, int go,
                                      const char *fn, velstatus_error *err)
{
    char text[64], frac[16];
    vs_civil c;
    int n;
    if (!buf)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: buf is NULL", fn);
    to_civil(sec, nsec, &c);
    if (fraction || go)
        fmt_fraction(frac, c.nsec);
    else
        frac[0] = '\0';
    n = snprintf(text, sizeof(text), "%s%04lld-%02d-%02d%c%02d:%02d:%02d%s%s", c.year < 0 ? "-" : "",
                 (long long)(c.year < 0 ? -c.year : c.year), c.month, c.day, go ? ' ' : 'T', c.hour, c.min, c.sec, frac,
                 go ? " +0000 UTC" : "Z");
    return put(buf, cap, text, n, fn, err);
}

VELSTATUS_API velstatus_status velstatus_time_format(char *buf, size_t cap, int64_t ns, int fraction,
                                                     velstatus_error *err)
{
    int64_t sec;
    int32_t nsec;
    split_ns(ns, &sec, &nsec);
    return format_layout(buf, cap, sec, nsec, fraction, 0, "velstatus_time_format", err);
}

VELSTATUS_API velstatus_status velstatus_time_format_sec(char *buf, size_t cap, int64_t sec, int32_t nsec, int fraction,
                                                         velstatus_error *err)
{
    if (nsec < 0 || nsec >= VS_NS_PER_SEC)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "velstatus_time_format_sec: nsec %ld is outside [0, 999999999]", (long)nsec);
    return format_layout(buf, cap, sec, nsec, fraction, 0, "velstatus_time_format_sec", err);
}

velstatus_status velstatus__time_format_go_sec(char *buf, size_t cap, int64_t sec, int32_t nsec, const char *fn,
                                               velstatus_error *err)
{
    return format_layout(buf, cap, sec, nsec, 1, 1, fn, err);
}

VELSTATUS_API velstatus_status velstatus_time_format_go(char *buf, size_t cap, int64_t ns, velstatus_error *err)
{
    int64_t sec;
    int32_t nsec;
    split_ns(ns, &sec, &nsec);
    return velstatus__time_format_go_sec(buf, cap, sec, nsec, "velstatus_time_format_go", err);
}

/* ------------------------------------------------------------------ */
/* durations                                                           */

#define VS_U63 (UINT64_C(1) << 63)

static velstatus_status dur_error(velstatus_error *err, velstatus_status code, const char *what, const char *s,
                                  size_t len)
{
    char q[VS_QUOTE_BUF];
    if (!err)
        return code;
    quote(q, s, len);
    return velstatus__error_set(err, code, "time: %s %s", what, q);
}

/* The units of time.ParseDuration, in nanoseconds; 0 for an unknown unit. */
static uint64_t dur_unit(const char *u, size_t n)
{
    static const struct {
        const char *name;
        size_t len;
        uint64_t ns;
    } units[] = {
        {"ns", 2, 1},
        {"us", 2, 1000},
        {"\xc2\xb5s", 3, 1000}, /* U+00B5 micro sign */
        {"\xce\xbcs", 3, 1000}, /* U+03BC Greek small mu */
        {"ms", 2, 1000000},
        {"s", 1, UINT64_C(1000000000)},
        {"m", 1, UINT64_C(60000000000)},
        {"h", 1, UINT64_C(3600000000000)},
    };
    size_t k;
    for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (units[k].len == n && memcmp(units[k].name, u, n) == 0)
            return units[k].ns;
    return 0;
}

/* [0-9]* into *v; 0 when it passes 2^63 (an error for Go). */
static int dur_int(const char *s, size_t len, size_t *pos, uint64_t *v)
{
    for (; *pos < len && is_digit(s[*pos]); (*pos)++) {
        if (*v > VS_U63 / 10)
            return 0;
        *v = *v * 10 + (uint64_t)(s[*pos] - '0');
        if (*v > VS_U63)
            return 0;
    }
    return 1;
}

/* (\.[0-9]*)? into *f / *scale: digits past int64 precision are skipped,
 * not an error. Returns whether there was a digit. */
static int dur_frac(const char *s, size_t len, size_t *pos, uint64_t *f, double *scale)
{
    size_t p0;
    int overflow = 0;
    if (*pos >= len || s[*pos] != '.')
        return 0;
    p0 = ++*pos;
    for (; *pos < len && is_digit(s[*pos]); (*pos)++) {
        uint64_t y;
        if (overflow)
            continue;
        if (*f > (VS_U63 - 1) / 10) {
            overflow = 1;
            continue;
        }
        y = *f * 10 + (uint64_t)(s[*pos] - '0');
        if (y > VS_U63) {
            overflow = 1;
            continue;
        }
        *f = y;
        *scale *= 10;
    }
    return *pos != p0;
}

/* v units plus the fraction f / scale of a unit, as Go computes it:
 * float64(f) * (float64(unit) / scale), truncated, in the same order (the
 * other order, or exact decimal maths, differs in the last nanosecond; the
 * tests pin cases). With SSE2 / any FLT_EVAL_METHOD 0 target this is
 * bit-identical; on x87 (FLT_EVAL_METHOD 2) C11 rounds each assignment to
 * double, but a rare double rounding may remain. 0 past 2^63. */
static int dur_scale(uint64_t *out, uint64_t v, uint64_t f, double scale, uint64_t unit)
{
    if (v > VS_U63 / unit)
        return 0;
    v *= unit;
    if (f > 0) {
        double fu = (double)unit / scale;
        double prod = (double)f * fu;
        v += (uint64_t)prod;
        if (v > VS_U63)
            return 0;
    }
    *out = v;
    return 1;
}

/* One term of time.ParseDuration's loop, "[0-9]*(\.[0-9]*)?unit", added to *d. */
static velstatus_status dur_term(uint64_t *d, const char *s, size_t len, size_t *pos, velstatus_error *err)
{
    uint64_t v = 0, f = 0, unit;
    double scale = 1;
    size_t p0 = *pos, ui;
    int pre, post;
    if (!(s[*pos] == '.' || is_digit(s[*pos])))
        return dur_error(err, VELSTATUS_E_PARSE, "invalid duration", s, len);
    if (!dur_int(s, len, pos, &v))
        return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
    pre = *pos != p0;
    post = dur_frac(s, len, pos, &f, &scale);
    if (!pre && !post)
        return dur_error(err, VELSTATUS_E_PARSE, "invalid duration", s, len);
    /* unit: everything up to the next '.' or digit */
    for (ui = *pos; *pos < len && !(s[*pos] == '.' || is_digit(s[*pos])); (*pos)++)
        ;
    if (*pos == ui)
        return dur_error(err, VELSTATUS_E_PARSE, "missing unit in duration", s, len);
    unit = dur_unit(s + ui, *pos - ui);
    if (!unit) {
        if (err) {
            char qu[VS_QUOTE_BUF], qs[VS_QUOTE_BUF];
            quote(qu, s + ui, *pos - ui);
            quote(qs, s, len);
            velstatus__error_set(err, VELSTATUS_E_PARSE, "time: unknown unit %s in duration %s", qu, qs);
        }
        return VELSTATUS_E_PARSE;
    }
    if (!dur_scale(&v, v, f, scale, unit))
        return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
    *d += v; /* uint64, as Go's: 2^63 + 2^63 wraps to 0 there too */
    if (*d > VS_U63)
        return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
    return VELSTATUS_OK;
}

VELSTATUS_API velstatus_status velstatus_duration_parse(int64_t *out_ns, const char *s, size_t len,
                                                        velstatus_error *err)
{
    size_t pos = 0;
    uint64_t d = 0;
    int neg = 0;
    len = velstatus__text_len(s, len);
    if (!out_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_duration_parse: out_ns is NULL");
    if (!s && len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_duration_parse: s is NULL");
    if (!s)
        s = "";
    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        pos = 1;
    }
    if (len - pos == 1 && s[pos] == '0') {
        *out_ns = 0;
        return VELSTATUS_OK;
    }
    if (pos == len)
        return dur_error(err, VELSTATUS_E_PARSE, "invalid duration", s, len);
    while (pos < len) {
        velstatus_status st = dur_term(&d, s, len, &pos, err);
        if (st != VELSTATUS_OK)
            return st;
    }
    if (neg) {
        /* d <= 2^63: -d fits, including INT64_MIN itself */
        *out_ns = d == VS_U63 ? INT64_MIN : -(int64_t)d;
        return VELSTATUS_OK;
    }
    if (d > VS_U63 - 1)
        return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
    *out_ns = (int64_t)d;
    return VELSTATUS_OK;
}

/* Go's fmtFrac: writes v % 10^prec as a fraction ending at buf[w] (trailing
 * zeros and a bare '.' omitted); returns the new start, leaves v / 10^prec. */
static size_t fmt_frac(char *buf, size_t w, uint64_t *v, int prec)
{
    int i, print = 0;
    for (i = 0; i < prec; i++) {
        unsigned digit = (unsigned)(*v % 10);
        print = print || digit != 0;
        if (print)
            buf[--w] = (char)('0' + digit);
        *v /= 10;
    }
    if (print)
        buf[--w] = '.';
    return w;
}

static size_t fmt_int(char *buf, size_t w, uint64_t v)
{
    if (v == 0) {
        buf[--w] = '0';
        return w;
    }
    while (v > 0) {
        buf[--w] = (char)('0' + v % 10);
        v /= 10;
    }
    return w;
}

VELSTATUS_API velstatus_status velstatus_duration_format(char *buf, size_t cap, int64_t ns, velstatus_error *err)
{
    char tmp[32];
    size_t w = sizeof(tmp) - 1;
    uint64_t u = (uint64_t)ns;
    int neg = ns < 0;

    if (!buf)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_duration_format: buf is NULL");
    if (neg)
        u = 0 - u;
    tmp[w] = '\0';
    if (u < UINT64_C(1000000000)) {
        int prec;
        tmp[--w] = 's';
        if (u == 0) {
            tmp[--w] = '0';
            return put(buf, cap, tmp + w, (int)(sizeof(tmp) - 1 - w), "velstatus_duration_format", err);
        } else if (u < 1000) {
            prec = 0;
            tmp[--w] = 'n';
        } else if (u < 1000000) {
            prec = 3;
            tmp[--w] = '\xb5'; /* U+00B5 micro sign, as Go prints */
            tmp[--w] = '\xc2';
        } else {
            prec = 6;
            tmp[--w] = 'm';
        }
        w = fmt_frac(tmp, w, &u, prec);
        w = fmt_int(tmp, w, u);
    } else {
        tmp[--w] = 's';
        w = fmt_frac(tmp, w, &u, 9);
        w = fmt_int(tmp, w, u % 60);
        u /= 60;
        if (u > 0) {
            tmp[--w] = 'm';
            w = fmt_int(tmp, w, u % 60);
            u /= 60;
            if (u > 0) {
                tmp[--w] = 'h';
                w = fmt_int(tmp, w, u);
            }
        }
    }
    if (neg)
        tmp[--w] = '-';
    return put(buf, cap, tmp + w, (int)(sizeof(tmp) - 1 - w), "velstatus_duration_format", err);
}
