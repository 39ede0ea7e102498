/* RFC 3339 timestamps and Go duration strings, by integer arithmetic.
 *
 * Everything here mirrors Go's `time` package (format.go) behaviour, not its
 * code: time.Parse(time.RFC3339Nano, s), Time.Format(time.RFC3339[Nano]),
 * Time.String(), time.ParseDuration and Duration.String(). Calendar maths is
 * proleptic Gregorian on days since 1970-01-01 (H. Hinnant's days_from_civil
 * / civil_from_days algorithms), so no libc time, TZ or locale is involved.
 */
#include "velstatus_private.h"

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
    yoe = y - era * 400;                                  /* [0, 399] */
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* [0, 365] */
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;          /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

/* The inverse: y-m-d of a day number. */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;                                       /* [0, 146096] */
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                /* [0, 365] */
    mp = (5 * doy + 2) / 153;                                     /* [0, 11] */
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

static velstatus_status time_error(velstatus_error *err, velstatus_status code, const char *s, size_t len,
                                   size_t pos, const char *what)
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

VELSTATUS_API velstatus_status velstatus_time_parse(int64_t *out_ns, const char *s, size_t len,
                                                    velstatus_error *err)
{
    size_t pos = 0, start, frac_start = 0, frac_digits = 0;
    int year, month, day, hour, min, sec, oh = 0, om = 0, comma = 0, hour_digits = 1;
    int32_t nsec = 0;
    int64_t secs, off = 0;

    if (!out_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse: out_ns is NULL");
    if (!s && len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_parse: s is NULL");
    if (!s)
        s = "";

#define VS_BAD(p, what) return time_error(err, VELSTATUS_E_PARSE, s, len, (p), (what))

    if (!take_digits(s, len, &pos, 4, &year))
        VS_BAD(pos, "expected a 4-digit year");
    if (!take_char(s, len, &pos, '-'))
        VS_BAD(pos, "expected '-'");
    start = pos;
    if (!take_digits(s, len, &pos, 2, &month))
        VS_BAD(pos, "expected a 2-digit month");
    if (month < 1 || month > 12)
        VS_BAD(start, "month out of range");
    if (!take_char(s, len, &pos, '-'))
        VS_BAD(pos, "expected '-'");
    start = pos;
    if (!take_digits(s, len, &pos, 2, &day))
        VS_BAD(pos, "expected a 2-digit day");
    if (!take_char(s, len, &pos, 'T'))
        VS_BAD(pos, "expected 'T'");
    /* Go reads the hour with one or two digits (time.Parse's "15"). */
    start = pos;
    if (pos < len && is_digit(s[pos])) {
        hour = s[pos++] - '0';
        if (pos < len && is_digit(s[pos])) {
            hour = hour * 10 + (s[pos++] - '0');
            hour_digits = 2;
        }
    } else {
        VS_BAD(pos, "expected an hour");
    }
    if (hour >= 24)
        VS_BAD(start, "hour out of range");
    if (!take_char(s, len, &pos, ':'))
        VS_BAD(pos, "expected ':'");
    start = pos;
    if (!take_digits(s, len, &pos, 2, &min))
        VS_BAD(pos, "expected 2-digit minutes");
    if (min >= 60)
        VS_BAD(start, "minute out of range");
    if (!take_char(s, len, &pos, ':'))
        VS_BAD(pos, "expected ':'");
    start = pos;
    if (!take_digits(s, len, &pos, 2, &sec))
        VS_BAD(pos, "expected 2-digit seconds");
    if (sec >= 60)
        VS_BAD(start, "second out of range");
    /* Fraction: '.' or ',' then digits. Digits past the ninth are read but
     * ignored (truncated); see the strict-form check below. */
    if (len - pos >= 2 && (s[pos] == '.' || s[pos] == ',') && is_digit(s[pos + 1])) {
        int ndig = 0;
        comma = s[pos] == ',';
        pos++;
        frac_start = pos;
        while (pos < len && is_digit(s[pos])) {
            if (ndig < 9) {
                nsec = nsec * 10 + (s[pos] - '0');
                ndig++;
            }
            pos++;
        }
        frac_digits = pos - frac_start;
        for (; ndig < 9; ndig++)
            nsec *= 10;
    }
    if (take_char(s, len, &pos, 'Z')) {
        off = 0;
    } else if (pos < len && (s[pos] == '+' || s[pos] == '-')) {
        int neg = s[pos] == '-';
        pos++;
        start = pos;
        if (!take_digits(s, len, &pos, 2, &oh))
            VS_BAD(pos, "expected a 2-digit offset hour");
        /* Go tests offsets with > rather than >= (24:00 and xx:60 pass). */
        if (oh > 24)
            VS_BAD(start, "time zone offset hour out of range");
        if (!take_char(s, len, &pos, ':'))
            VS_BAD(pos, "expected ':' in the offset");
        start = pos;
        if (!take_digits(s, len, &pos, 2, &om))
            VS_BAD(pos, "expected 2-digit offset minutes");
        if (om > 60)
            VS_BAD(start, "time zone offset minute out of range");
        off = (int64_t)(oh * 60 + om) * 60;
        if (neg)
            off = -off;
    } else {
        VS_BAD(pos, "expected 'Z' or a '+HH:MM'/'-HH:MM' offset");
    }
    if (pos != len)
        VS_BAD(pos, "extra text");
    /* Go 1.20+ tries a strict RFC 3339 reader first, which takes any number
     * of fraction digits; its general layout reader (which alone accepts ','
     * a one-digit hour and offsets up to 24:60) takes at most nine. */
    if (frac_digits > 9 && (comma || hour_digits != 2 || oh > 23 || om > 59))
        VS_BAD(frac_start + 9, "more than 9 fraction digits");
    if (day < 1 || day > days_in_month(year, month))
        VS_BAD(8, "day out of range");
#undef VS_BAD

    secs = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - off;
    if (secs == VS_MIN_SEC && nsec == 0) {
        /* The earliest second, written whole: what velstatus_time_format()
         * writes for every instant in it (it floors). Saturate, so that what
         * the library writes it reads back. */
        *out_ns = INT64_MIN;
        return VELSTATUS_OK;
    }
    if (secs < VS_MIN_SEC || secs > VS_MAX_SEC || (secs == VS_MIN_SEC && nsec < VS_MIN_NSEC) ||
        (secs == VS_MAX_SEC && nsec > VS_MAX_NSEC)) {
        char q[VS_QUOTE_BUF];
        quote(q, s, len);
        return velstatus__error_set(err, VELSTATUS_E_RANGE,
                                    "RFC 3339 timestamp %s is outside the int64 nanosecond range "
                                    "(1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z)",
                                    q);
    }
    /* secs * 1e9 + nsec without overflow: for negative seconds fold one
     * second into the (then non-positive) nanosecond part. */
    if (secs < 0)
        *out_ns = (secs + 1) * VS_NS_PER_SEC + (nsec - VS_NS_PER_SEC);
    else
        *out_ns = secs * VS_NS_PER_SEC + nsec;
    return VELSTATUS_OK;
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
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "%s: buffer of %zu bytes too small (need %d)", fn,
                                    cap, n + 1);
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

static void to_civil(int64_t ns, vs_civil *c)
{
    int64_t secs, days, rem;
    split_ns(ns, &secs, &c->nsec);
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

VELSTATUS_API velstatus_status velstatus_time_format(char *buf, size_t cap, int64_t ns, int fraction,
                                                     velstatus_error *err)
{
    char text[64], frac[16];
    vs_civil c;
    int n;
    if (!buf)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_format: buf is NULL");
    to_civil(ns, &c);
    if (fraction)
        fmt_fraction(frac, c.nsec);
    else
        frac[0] = '\0';
    n = snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d%sZ", (int)c.year, c.month, c.day, c.hour,
                 c.min, c.sec, frac);
    return put(buf, cap, text, n, "velstatus_time_format", err);
}

VELSTATUS_API velstatus_status velstatus_time_format_go(char *buf, size_t cap, int64_t ns, velstatus_error *err)
{
    char text[64], frac[16];
    vs_civil c;
    int n;
    if (!buf)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_time_format_go: buf is NULL");
    to_civil(ns, &c);
    fmt_fraction(frac, c.nsec);
    n = snprintf(text, sizeof(text), "%04d-%02d-%02d %02d:%02d:%02d%s +0000 UTC", (int)c.year, c.month, c.day,
                 c.hour, c.min, c.sec, frac);
    return put(buf, cap, text, n, "velstatus_time_format_go", err);
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

VELSTATUS_API velstatus_status velstatus_duration_parse(int64_t *out_ns, const char *s, size_t len,
                                                        velstatus_error *err)
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
    size_t pos = 0;
    uint64_t d = 0;
    int neg = 0;

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
        uint64_t v = 0, f = 0, unit = 0;
        double scale = 1;
        int pre, post = 0, overflow = 0;
        size_t p0, ui, k;

        if (!(s[pos] == '.' || is_digit(s[pos])))
            return dur_error(err, VELSTATUS_E_PARSE, "invalid duration", s, len);
        /* [0-9]* : an overflowing integer part is an error */
        p0 = pos;
        for (; pos < len && is_digit(s[pos]); pos++) {
            if (v > VS_U63 / 10)
                return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
            v = v * 10 + (uint64_t)(s[pos] - '0');
            if (v > VS_U63)
                return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
        }
        pre = pos != p0;
        /* (\.[0-9]*)? : digits past int64 precision are skipped, not an error */
        if (pos < len && s[pos] == '.') {
            pos++;
            p0 = pos;
            for (; pos < len && is_digit(s[pos]); pos++) {
                uint64_t y;
                if (overflow)
                    continue;
                if (f > (VS_U63 - 1) / 10) {
                    overflow = 1;
                    continue;
                }
                y = f * 10 + (uint64_t)(s[pos] - '0');
                if (y > VS_U63) {
                    overflow = 1;
                    continue;
                }
                f = y;
                scale *= 10;
            }
            post = pos != p0;
        }
        if (!pre && !post)
            return dur_error(err, VELSTATUS_E_PARSE, "invalid duration", s, len);
        /* unit: everything up to the next '.' or digit */
        ui = pos;
        while (pos < len && !(s[pos] == '.' || is_digit(s[pos])))
            pos++;
        if (pos == ui)
            return dur_error(err, VELSTATUS_E_PARSE, "missing unit in duration", s, len);
        for (k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
            if (units[k].len == pos - ui && memcmp(units[k].name, s + ui, pos - ui) == 0) {
                unit = units[k].ns;
                break;
            }
        }
        if (!unit) {
            if (err) {
                char qu[VS_QUOTE_BUF], qs[VS_QUOTE_BUF];
                quote(qu, s + ui, pos - ui);
                quote(qs, s, len);
                velstatus__error_set(err, VELSTATUS_E_PARSE, "time: unknown unit %s in duration %s", qu, qs);
            }
            return VELSTATUS_E_PARSE;
        }
        if (v > VS_U63 / unit)
            return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
        v *= unit;
        if (f > 0) {
            /* Go computes float64(f) * (float64(unit) / scale) and
             * truncates; so do we, in the same order (the other order, or
             * exact decimal maths, differs in the last nanosecond; the tests
             * pin cases). With SSE2 / any FLT_EVAL_METHOD 0 target this is
             * bit-identical; on x87 (FLT_EVAL_METHOD 2) C11 rounds each
             * assignment to double, but a rare double rounding may remain. */
            double fu = (double)unit / scale;
            double prod = (double)f * fu;
            v += (uint64_t)prod;
            if (v > VS_U63)
                return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
        }
        d += v;
        if (d > VS_U63)
            return dur_error(err, VELSTATUS_E_RANGE, "invalid duration", s, len);
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
