/* SPDX-License-Identifier: Apache-2.0 */
/* The SVG writer of the CLI (svg.h). */
#include "svg.h"

#include "vsx_utf8.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define SVG_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* Whether the code point is written as itself: XML 1.0's Char production
 * (surrogates never decode), less DEL and the C1 controls it discourages. */
static int xml_char(uint32_t cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp < 0x7F) ||
           (cp > 0x9F && cp != 0xFFFE && cp != 0xFFFF);
}

/* The next character of s[i..n): its byte length in *len, 0 when it is
 * written as U+FFFD (one invalid byte, or a character XML forbids). */
static size_t next_char(const char *s, size_t n, size_t i, size_t *len)
{
    uint32_t cp = 0;
    size_t k = vsx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
    if (k == 0) {
        *len = 1;
        return 0;
    }
    *len = k;
    return xml_char(cp) ? k : 0;
}

size_t svg_chars(const char *s, size_t n)
{
    size_t i = 0, c = 0, len;
    while (i < n) {
        (void)next_char(s, n, i, &len);
        i += len;
        c++;
    }
    return c;
}

static void put_char(FILE *f, const char *s, size_t k)
{
    if (k == 0) {
        fputs(SVG_REPLACEMENT, f);
        return;
    }
    switch (s[0]) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default: fwrite(s, 1, k, f); break;
    }
}

int svg_put(FILE *f, const char *s, size_t n, size_t max)
{
    size_t i = 0, c = 0, len, k, total = svg_chars(s, n);
    if (total > max && max > 0)
        max--; /* room for the ellipsis */
    while (i < n && c < max) {
        k = next_char(s, n, i, &len);
        put_char(f, s + i, k);
        i += len;
        c++;
    }
    if (total > c) {
        fputs("\xE2\x80\xA6", f); /* … */
        return 1;
    }
    return 0;
}

void svg_begin(FILE *f, double w, double h)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
            "font-size=\"11\">\n",
            w, h, w, h);
}

void svg_end(FILE *f)
{
    fputs("</svg>\n", f);
}

void svg_title(FILE *f, const char *s, size_t n)
{
    fputs("<title>", f);
    (void)svg_put(f, s, n, SIZE_MAX);
    fputs("</title>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *attrs, const char *s, size_t n, size_t max)
{
    int whole = svg_chars(s, n) <= max;
    if (!whole) {
        fputs("<g>", f);
        svg_title(f, s, n);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, attrs && *attrs ? " " : "", attrs ? attrs : "");
    (void)svg_put(f, s, n, max);
    fputs("</text>\n", f);
    if (!whole)
        fputs("</g>\n", f);
}

void svg_words(FILE *f, double x, double y, const char *attrs, const char *s)
{
    svg_text(f, x, y, attrs, s, strlen(s), SIZE_MAX);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *attrs)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x, y, w < 0 ? 0 : w, h < 0 ? 0 : h,
            attrs);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *attrs)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", x1, y1, x2, y2, attrs);
}

void svg_marker(FILE *f, double x, double y, double size, const char *attrs)
{
    fprintf(f, "<path d=\"M%.1f %.1fh%.1fl%.1f %.1fz\" %s/>\n", x - size / 2, y, size, -size / 2, size, attrs);
}

static void span_open(svg_span *t, FILE *f, const char *tag, size_t max)
{
    t->f = f;
    t->tag = tag;
    t->left = max;
    t->cut = 0;
}

void svg_text_open(svg_span *t, FILE *f, double x, double y, const char *attrs, size_t max)
{
    span_open(t, f, "text", max);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, attrs && *attrs ? " " : "", attrs ? attrs : "");
}

void svg_title_open(svg_span *t, FILE *f)
{
    span_open(t, f, "title", SIZE_MAX);
    fputs("<title>", f);
}

void svg_span_put(svg_span *t, const char *s, size_t n)
{
    size_t c;
    if (t->cut || n == 0)
        return;
    c = svg_chars(s, n);
    if (c <= t->left) {
        (void)svg_put(t->f, s, n, c);
        t->left -= c;
        return;
    }
    (void)svg_put(t->f, s, n, t->left > 0 ? t->left : 1);
    t->left = 0;
    t->cut = 1;
}

void svg_span_printf(svg_span *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n > 0)
        svg_span_put(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

int svg_span_close(svg_span *t)
{
    fprintf(t->f, "</%s>\n", t->tag);
    return t->cut;
}
