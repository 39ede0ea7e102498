/* SPDX-License-Identifier: Apache-2.0 */
/* A small SVG writer for the CLI (explain -o svg): elements written straight
 * to a stream, and the one place where text from input becomes XML. Text is
 * written as XML 1.0 character data: & < > " ' escaped, invalid UTF-8 and
 * every character XML 1.0 forbids or discourages (controls other than
 * tab, newline and return, DEL, C1; U+FFFE, U+FFFF) written as U+FFFD. No input text ever goes into an
 * attribute. Coordinates are written with one decimal, in the C locale's
 * format (the CLI never calls setlocale). */
#ifndef VS_SVG_H
#define VS_SVG_H

#include <stddef.h>
#include <stdio.h>

/* The average advance of the monospace font, in ems: the writer estimates
 * text widths with it to keep labels apart and to shorten long ones. */
#define SVG_CHAR_EM 0.62

/* The number of characters s[0..n) shows as (each invalid byte counts one:
 * it is written as one U+FFFD). */
size_t svg_chars(const char *s, size_t n);

/* Writes s[0..n) escaped, at most max characters of it: when it has more,
 * the first max - 1 and "…". Returns 1 when it was shortened. */
int svg_put(FILE *f, const char *s, size_t n, size_t max);

/* The prolog and the root element of a w x h picture (monospace, 11px); the
 * caller writes its <title> and background next. */
void svg_begin(FILE *f, double w, double h);
void svg_end(FILE *f);

/* <text x y ATTRS>s</text>, s escaped and shortened to max characters; a
 * shortened text carries the whole one in a <title> (a tooltip). attrs is
 * the program's own (font-size, anchor), never input. */
void svg_text(FILE *f, double x, double y, const char *attrs, const char *s, size_t n, size_t max);

/* The program's own NUL-terminated words as a <text> (escaped all the same). */
void svg_words(FILE *f, double x, double y, const char *attrs, const char *s);

/* <rect>, <line> and a small downward triangle (a deadline marker), with
 * the program's own presentation attributes. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *attrs);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *attrs);
void svg_marker(FILE *f, double x, double y, double size, const char *attrs);

/* <title>s</title> (escaped), for the element group it is the first child of. */
void svg_title(FILE *f, const char *s, size_t n);

/* An element's text written in pieces, shortened to max characters in all
 * (the last piece that does not fit ends with "…"; nothing after it). */
typedef struct svg_span {
    FILE *f;
    const char *tag;
    size_t left;
    int cut;
} svg_span;
/* <text x y ATTRS> ... */
void svg_text_open(svg_span *t, FILE *f, double x, double y, const char *attrs, size_t max);
/* <title> ... (never shortened) */
void svg_title_open(svg_span *t, FILE *f);
/* A piece from input, escaped; svg_span_printf for the program's own words. */
void svg_span_put(svg_span *t, const char *s, size_t n);
void svg_span_printf(svg_span *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The closing tag. Returns 1 when the text was shortened. */
int svg_span_close(svg_span *t);

#endif
