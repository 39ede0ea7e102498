/* SPDX-License-Identifier: Apache-2.0 */
/* A private re-implementation of Go's text/tabwriter (flags = 0), used to
 * render Velero's `describe` text byte-exactly. Not installed.
 *
 * Semantics reproduced (Go src/text/tabwriter/tabwriter.go):
 * - the input is split into cells terminated by '\t' or '\v' (column cells)
 *   and by '\n' or '\f' (the last cell of a line); terminators are not
 *   copied, '\f' is written as '\n';
 * - a cell's width is its length in runes as utf8.RuneCount counts them
 *   (every byte of an invalid or truncated sequence is one rune);
 * - tab-terminated cells at the same index in consecutive lines form a
 *   column block; its width is max(minwidth, widest cell + padding); every
 *   column cell is padded to its block's width (leading empty cells too),
 *   the last cell of a line never is;
 * - '\f' ends every open block after its line (Go flushes);
 * - a 0xff byte (tabwriter.Escape) opens an escaped segment that runs to the
 *   next 0xff: tabs and line breaks inside it are text, both 0xff bytes are
 *   copied, and its width excludes them; an escape left open at the end is
 *   closed there;
 * - with padchar '\t', padding is done with tabs as Go does (cell width
 *   rounded up to a multiple of tabwidth; nothing when tabwidth is 0).
 * Flags other than 0 (AlignRight, DiscardEmptyColumns, TabIndent,
 * FilterHTML, StripEscape, Debug) are not implemented: Velero uses none.
 *
 * The algorithm is iterative (Go's is recursive per column), so deeply
 * nested columns cannot exhaust the stack. */
#ifndef VELSTATUS_TABWRITER_H
#define VELSTATUS_TABWRITER_H

#include <stddef.h>

#include "common/private.h"

typedef struct velstatus__tw_opts {
    size_t minwidth; /* minimal column width, padding included */
    size_t tabwidth; /* width of a tab when padchar is '\t' */
    size_t padding;  /* added to the widest cell of a column */
    char padchar;    /* ' ' (Velero) or '\t' */
    size_t max_out;  /* refuse (E_RANGE) output longer than this; 0 = no limit */
} velstatus__tw_opts;

/* The options of Velero's Describer: Init(buf, 0, 8, 2, ' ', 0). */
void velstatus__tw_opts_velero(velstatus__tw_opts *o);

/* utf8.RuneCount exactly as Go counts. */
size_t velstatus__tw_runecount(const char *s, size_t len);

/* Formats `len` bytes of `text` and appends the result to `out`.
 * Returns VELSTATUS_OK, VELSTATUS_E_NOMEM (scratch or output allocation
 * failed; `out` is then marked failed) or VELSTATUS_E_RANGE (the result
 * would exceed o->max_out or SIZE_MAX; nothing is appended). */
velstatus_status velstatus__tw_format(velstatus__buf *out, const char *text, size_t len, const velstatus__tw_opts *o,
                                      velstatus_error *err);

#endif /* VELSTATUS_TABWRITER_H */
