/* SPDX-License-Identifier: Apache-2.0 */
/* The line helpers the describe readers share (tools/describe_in.c reads the
 * operations section, tools/describe_hdr.c the header). */
#ifndef VS_DESCRIBE_IN_H
#define VS_DESCRIBE_IN_H

#include "text_in.h"

#include <stddef.h>

/* One line: s[0..n) without its newline (nor a CR before it); ind is the
 * count of its leading blanks. */
typedef struct din_line {
    const char *s;
    size_t n, ind;
} din_line;

/* The lines of p[0..n), malloc'ed. 0, or -1 when memory ran out. */
int din_lines(const char *p, size_t n, din_line **out, size_t *count);
/* Whether the line, without its indentation, is the label followed by a
 * blank or the end. */
int din_has_label(const din_line *l, const char *label);
/* The value after a label of label_len bytes, its padding skipped. */
void din_value(const din_line *l, size_t label_len, const char **v, size_t *vn);
/* The operations title line and its kind (restore 1); n when there is none. */
size_t din_title(const din_line *v, size_t n, int *restore);
/* Ends a conversion: on rc 0 the JSON written to mem is out's; otherwise
 * it is freed (out->msg says why; out of memory when it says nothing). */
int din_conv_finish(cli_conv *out, char *mem, size_t memn, int rc);
/* Whether the lines are a describe text: an operations title, an operation,
 * or a header (Name: and Phase:). */
int din_is_describe(const din_line *v, size_t n);
/* The Name: of the header (colours stripped), or NULL. */
const char *din_header_name(const din_line *v, size_t n, size_t *len);
/* The kind the header shows; 0, or -1 with out->msg when it shows none. */
int din_header_kind(const din_line *v, size_t n, cli_conv *out);

#endif
