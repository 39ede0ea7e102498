/* SPDX-License-Identifier: Apache-2.0 */
/* Go's text/tabwriter (flags = 0), iteratively. See tabwriter.h. */
#include "common/tabwriter.h"
#include "common/util_array.h"
#include "vsx_utf8.h"

#include <stdint.h>
#include <string.h>

void velstatus__tw_opts_velero(velstatus__tw_opts *o)
{
    o->minwidth = 0;
    o->tabwidth = 8;
    o->padding = 2;
    o->padchar = ' ';
    o->max_out = 0;
}

size_t velstatus__tw_runecount(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, n = 0;
    while (i < len) {
        uint32_t cp;
        size_t size = vsx_utf8_decode(p + i, len - i, &cp);
        i += size ? size : 1; /* invalid or short: one rune per byte */
        n++;
    }
    return n;
}

typedef struct tw_cell {
    size_t off, len;
    int64_t width; /* runes; only the last cell of a line can be negative */
    size_t run;    /* column-block index, for column cells */
} tw_cell;

typedef struct tw_line {
    size_t first, n; /* cells[first .. first+n) */
    int nl;          /* ended by '\n' or '\f' (a '\n' is written after it) */
    int ff;          /* ended by '\f' (ends every open column block) */
} tw_line;

typedef struct tw_state {
    velstatus_ctx *ctx;
    tw_cell *cells;
    size_t ncells, capcells;
    tw_line *lines;
    size_t nlines, caplines;
    size_t *runs_w; /* width of each column block */
    size_t nruns, capruns;
    size_t *open; /* open[j]: block of column j, j < nopen */
    size_t capopen;
} tw_state;

static int push_cell(tw_state *s, size_t off, size_t len, int64_t width)
{
    if (VS_ARRAY_RESERVE(s->ctx, s->cells, s->capcells, s->ncells + 1, 16))
        return -1;
    s->cells[s->ncells++] = (tw_cell){.off = off, .len = len, .width = width};
    return 0;
}

static int push_line(tw_state *s, size_t first, int nl, int ff)
{
    if (VS_ARRAY_RESERVE(s->ctx, s->lines, s->caplines, s->nlines + 1, 16))
        return -1;
    s->lines[s->nlines++] = (tw_line){.first = first, .n = s->ncells - first, .nl = nl, .ff = ff};
    return 0;
}

/* Splits text into cells and lines, computing widths at the same points
 * Go's Writer calls updateWidth. */
static int split(tw_state *s, const char *text, size_t len)
{
    size_t i, cell_start = 0, upd = 0, line_first = 0;
    int64_t w = 0;
    int esc = 0;
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (esc) {
            if (ch == 0xFF) {
                w += (int64_t)velstatus__tw_runecount(text + upd, i + 1 - upd) - 2;
                upd = i + 1;
                esc = 0;
            }
            continue;
        }
        if (ch == '\t' || ch == '\v' || ch == '\n' || ch == '\f') {
            w += (int64_t)velstatus__tw_runecount(text + upd, i - upd);
            upd = i + 1;
            if (push_cell(s, cell_start, i - cell_start, w))
                return -1;
            w = 0;
            cell_start = i + 1;
            if (ch == '\n' || ch == '\f') {
                if (push_line(s, line_first, 1, ch == '\f'))
                    return -1;
                line_first = s->ncells;
            }
        } else if (ch == 0xFF) {
            w += (int64_t)velstatus__tw_runecount(text + upd, i - upd);
            upd = i;
            esc = 1;
        }
    }
    /* Flush: a non-empty trailing cell is terminated; an open escape is
     * closed first (its width is then counted; otherwise the trailing
     * cell's width is left as is, which cannot matter: it is a last cell). */
    if (cell_start < len) {
        if (esc)
            w += (int64_t)velstatus__tw_runecount(text + upd, len - upd) - 2;
        if (push_cell(s, cell_start, len - cell_start, w))
            return -1;
    }
    return push_line(s, line_first, 0, 0);
}

/* Assigns every column cell to its column block and computes block widths. */
static int columns(tw_state *s, const velstatus__tw_opts *o)
{
    size_t li, nopen = 0;
    for (li = 0; li < s->nlines; li++) {
        const tw_line *l = &s->lines[li];
        size_t c = l->n > 0 ? l->n - 1 : 0, j;
        if (c > nopen && VS_ARRAY_RESERVE(s->ctx, s->open, s->capopen, c, 16))
            return -1;
        for (j = 0; j < c; j++) {
            tw_cell *cell = &s->cells[l->first + j];
            size_t w = (size_t)(cell->width > 0 ? cell->width : 0);
            w = w > SIZE_MAX - o->padding ? SIZE_MAX : w + o->padding;
            if (j >= nopen) {
                if (VS_ARRAY_RESERVE(s->ctx, s->runs_w, s->capruns, s->nruns + 1, 16))
                    return -1;
                s->open[j] = s->nruns;
                s->runs_w[s->nruns++] = o->minwidth;
            }
            cell->run = s->open[j];
            if (w > s->runs_w[cell->run])
                s->runs_w[cell->run] = w;
        }
        nopen = l->ff ? 0 : c;
    }
    return 0;
}

/* Bytes of padding after a column cell, as Go's writePadding. */
static size_t pad_len(const velstatus__tw_opts *o, size_t textw, size_t cellw)
{
    if (o->padchar == '\t') {
        size_t n;
        if (o->tabwidth == 0)
            return 0;
        cellw = (cellw + o->tabwidth - 1) / o->tabwidth * o->tabwidth;
        n = cellw - textw;
        return (n + o->tabwidth - 1) / o->tabwidth;
    }
    return cellw - textw;
}

static void add_sat(size_t *acc, size_t n)
{
    *acc = n > SIZE_MAX - *acc ? SIZE_MAX : *acc + n;
}

static void tw_free(tw_state *s)
{
    velstatus__free(s->ctx, s->cells);
    velstatus__free(s->ctx, s->lines);
    velstatus__free(s->ctx, s->runs_w);
    velstatus__free(s->ctx, s->open);
}

velstatus_status velstatus__tw_format(velstatus__buf *out, const char *text, size_t len, const velstatus__tw_opts *o,
                                      velstatus_error *err)
{
    tw_state s;
    size_t li, total = 0, limit = o->max_out ? o->max_out : SIZE_MAX - 1;
    static const char spaces[] = "                                ";
    memset(&s, 0, sizeof(s));
    s.ctx = out->ctx;
    if (out->failed || split(&s, text, len) || columns(&s, o)) {
        tw_free(&s);
        out->failed = 1;
        return velstatus__error_nomem(err);
    }
    /* Size the result first: pathological input (many lines sharing a very
     * wide column) can ask for far more output than it has input. */
    for (li = 0; li < s.nlines; li++) {
        const tw_line *l = &s.lines[li];
        size_t j;
        for (j = 0; j < l->n; j++) {
            const tw_cell *c = &s.cells[l->first + j];
            add_sat(&total, c->len);
            if (j + 1 < l->n)
                add_sat(&total, pad_len(o, (size_t)c->width, s.runs_w[c->run]));
        }
        if (l->nl)
            add_sat(&total, 1);
    }
    if (total > limit) {
        tw_free(&s);
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "aligned text would be %zu bytes, over the %zu-byte limit",
                                    total, limit);
    }
    for (li = 0; li < s.nlines; li++) {
        const tw_line *l = &s.lines[li];
        size_t j;
        for (j = 0; j < l->n; j++) {
            const tw_cell *c = &s.cells[l->first + j];
            velstatus__buf_append(out, text + c->off, c->len);
            if (j + 1 < l->n) {
                size_t n = pad_len(o, (size_t)c->width, s.runs_w[c->run]);
                if (o->padchar == '\t') {
                    for (; n > 0; n--)
                        velstatus__buf_putc(out, '\t');
                } else if (o->padchar == ' ') {
                    for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
                        velstatus__buf_append(out, spaces, sizeof(spaces) - 1);
                    velstatus__buf_append(out, spaces, n);
                } else {
                    for (; n > 0; n--)
                        velstatus__buf_putc(out, o->padchar);
                }
            }
        }
        if (l->nl)
            velstatus__buf_putc(out, '\n');
    }
    tw_free(&s);
    if (out->failed)
        return velstatus__error_nomem(err);
    return VELSTATUS_OK;
}
