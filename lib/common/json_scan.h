/* SPDX-License-Identifier: Apache-2.0 */
/* The JSON scanner and decoder of the library's decoders (internal, not
 * installed).
 *
 * velstatus__json_scan() finds where the one JSON value starting at s[0]
 * ends, and validates it exactly as jansson 2.14's json_loadb() with
 * JSON_DECODE_ANY | JSON_ALLOW_NUL accepts or rejects it, with one
 * deliberate difference: a raw NUL byte is rejected everywhere, while jansson
 * skips one that follows a number or a literal (its stream un-gets the NUL
 * and then reads past it, and its error position comes out one byte short:
 * issue 10, defect 1). The grammar is RFC 8259's, as jansson applies it:
 * strict UTF-8 (no overlong forms, no encoded surrogates, nothing above
 * U+10FFFF), no raw control characters in strings, escapes `\" \\ \/ \b \f
 * \n \r \t \uXXXX` with lone or mismatched surrogates rejected, `\u0000`
 * allowed in strings but not in object keys, integers that fit int64,
 * reals whose magnitude rounds below infinity, at most
 * VELSTATUS__JSON_MAX_DEPTH nested arrays/objects. Duplicate keys are
 * accepted (jansson without JSON_REJECT_DUPLICATES; Go takes the last).
 * velstatus__json_unescape() and velstatus__json_int() then give the
 * strings and integers of accepted text as jansson would decode them.
 *
 * The three decoders of untrusted text (itemoperations, BSLs, plugin
 * answers) use only this module: jansson's parser is not called, because
 * when one of its allocations fails it drops a byte of the token it is
 * reading and returns wrong text, or reads and writes past its buffer
 * (lex_save ignores strbuffer_append_byte's failure; see
 * doc/json-decoding.md). The walkers below run only over accepted text.
 *
 * No allocation, no recursion (the nesting is kept in a bit stack). */
#ifndef VELSTATUS_JSON_SCAN_H
#define VELSTATUS_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/private.h"

/* jansson's JSON_PARSER_MAX_DEPTH: 2048 levels pass, 2049 fail. */
#define VELSTATUS__JSON_MAX_DEPTH 2048

typedef struct velstatus__json_scan_err {
    size_t off;            /* offset (from s) of the byte where the value went wrong */
    velstatus_status code; /* VELSTATUS_E_PARSE, or VELSTATUS_E_RANGE for a number jansson cannot hold */
    const char *reason;    /* static English text, e.g. "raw NUL byte outside a string" */
    int more;              /* 1 when the text ran out where the error was found: the same bytes followed
                            * by more text could scan differently (a prefix of a value that may continue);
                            * 0 when no continuation can change the verdict (the streaming decoder waits
                            * for more text only on 1) */
} velstatus__json_scan_err;

/* Where the values of a scanned text end, recorded by the scan so that the
 * walkers below need not look for them again: entry k is a key or a value
 * (containers included) starting at offset start[k] (from the scanned s)
 * and ending just before end[k] (0: not recorded, the walker then finds
 * it), in the order of the text. At most VELSTATUS__JSON_TAPE entries and
 * containers nested at most VELSTATUS__JSON_TAPE_DEPTH deep are recorded;
 * a text with more has only its first entries on the tape. */
#define VELSTATUS__JSON_TAPE 256
#define VELSTATUS__JSON_TAPE_DEPTH 16
typedef struct velstatus__json_tape {
    size_t base;                               /* the offset of the scanned s in the text the walker walks */
    uint32_t n, cur;                           /* entries; the walker's cursor */
    int active;                                /* 1 once a scan accepted the text: the walkers use it only then */
    uint32_t open[VELSTATUS__JSON_TAPE_DEPTH]; /* entries of the open containers (scan) */
    uint32_t start[VELSTATUS__JSON_TAPE], end[VELSTATUS__JSON_TAPE];
} velstatus__json_tape;

/* Scans the value starting at s[0] (leading whitespace is an error: skip it
 * first with velstatus__json_ws). Returns 1 with *end the offset just past
 * the value (a number or literal ends at the first byte that cannot
 * continue it; nothing after the value is looked at otherwise), or 0 with
 * *e filled. s may be NULL when len is 0. */
int velstatus__json_scan(const char *s, size_t len, size_t *end, velstatus__json_scan_err *e);
/* velstatus__json_scan(), recording the ends of the keys and values into
 * *tape (with tape->base = base) when it accepts the text; tape->active
 * is 0 when it does not, or when s is longer than 4 GiB. */
int velstatus__json_scan_tape(const char *s, size_t len, size_t *end, velstatus__json_scan_err *e,
                              velstatus__json_tape *tape, size_t base);

/* The first offset >= i (and <= n) that is not JSON whitespace. */
size_t velstatus__json_ws(const char *s, size_t i, size_t n);

/* ---- walking text that velstatus__json_scan() accepted ---- */

/* A cursor over the members of an object or the elements of an array. */
typedef struct velstatus__json_iter {
    const char *p;
    size_t i, n;
    velstatus__json_tape *tape; /* the ends the scan recorded, or NULL */
} velstatus__json_iter;

/* p[start] is '{' or '['; end is just past the matching '}' or ']'. */
void velstatus__json_iter_init(velstatus__json_iter *it, const char *p, size_t start, size_t end);
/* The same, the ends of values taken from `tape` (filled by the scan of the
 * text that holds this container, velstatus__json_scan_tape) when it has
 * them. */
void velstatus__json_iter_init_tape(velstatus__json_iter *it, const char *p, size_t start, size_t end,
                                    velstatus__json_tape *tape);
/* Next member: the key's span with its quotes [*ks, *ke) and the value's
 * span [*vs, *ve). Returns 0 after the last. */
int velstatus__json_next_member(velstatus__json_iter *it, size_t *ks, size_t *ke, size_t *vs, size_t *ve);
/* Next element's span. Returns 0 after the last. */
int velstatus__json_next_element(velstatus__json_iter *it, size_t *vs, size_t *ve);

/* The text of the accepted string whose contents (between the quotes) are
 * s[0..n): escapes decoded as jansson decodes them (a surrogate pair to one
 * 4-byte UTF-8 sequence, \u0000 to a NUL byte). out has room for n bytes
 * (the text never grows) and may be s itself. Returns its length. */
size_t velstatus__json_unescape(char *out, const char *s, size_t n);
/* The text of the accepted string text[vs..ve) (with its quotes): its own
 * bytes when it has no escape, else decoded into buf (valid until buf's
 * next use). Returns 0 when buf cannot grow. */
int velstatus__json_string_text(velstatus__buf *buf, const char *text, size_t vs, size_t ve, const char **s, size_t *n);
/* The value of an accepted integer (no fraction or exponent): it fits. */
int64_t velstatus__json_int(const char *s, size_t n);

/* How Go's encoding/json matches a key to a field name: 2 for the exact
 * bytes, 1 when equal under bytes.EqualFold (ASCII case, plus U+017F LONG
 * S ~ 's' and U+212A KELVIN SIGN ~ 'k', the only non-ASCII runes that
 * fold to an ASCII letter), else 0. `name` is ASCII. */
int velstatus__json_key_match(const char *key, size_t klen, const char *name);
/* The field of names[0..n) that key selects, Go's way (an exact match
 * first, else the first case-folded match), or -1. With `hint` (or NULL),
 * names[*hint] is tried first and *hint becomes the index after an exact
 * match: keys written in the order of the names (as Go writes a struct's
 * fields) are each found at the first try. The names are distinct. */
int velstatus__json_key_find(const char *key, size_t klen, const char *const *names, size_t n, size_t *hint);

/* ---- positions and errors (one place for both codecs) ---- */

/* 1-based line and column (in UTF-8 characters) of byte offset off. */
void velstatus__json_pos(const char *p, size_t off, uint32_t *line, uint32_t *col);
/* Moves the line and column of p[0] (*line, *col) past p[0..n): the
 * position counting of velstatus__json_pos() from any starting point, so a
 * text read in pieces keeps the positions of the whole. */
void velstatus__json_advance(const char *p, size_t n, uint64_t *line, uint64_t *col);
/* The offset in text of byte `inner` of the contents of the accepted string
 * text[vs..ve) (with its quotes): vs + 1 + inner when the string has no
 * escape (its bytes are its text), else vs (the string itself). */
size_t velstatus__json_string_byte(const char *text, size_t vs, size_t ve, uint64_t inner);
/* E_PARSE / E_RANGE from a scan error of the value at text[base]:
 * "<what>: <reason>" (the reason alone when what is NULL), with the position in err's line, column and offset.
 * No message of the decoders spells its position: err carries it, and
 * whoever prints the error prints it once (see doc/json-decoding.md). */
velstatus_status velstatus__json_scan_error(velstatus_error *err, const velstatus__json_scan_err *e, const char *text,
                                            size_t base, const char *what);
#endif /* VELSTATUS_JSON_SCAN_H */
