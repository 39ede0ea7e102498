/* SPDX-License-Identifier: Apache-2.0 */
/* The splitter of a watch stream: `kubectl get ... --watch -o json` output,
 * with or without --output-watch-events, cut into its top-level JSON objects.
 * I/O-free: the caller feeds bytes as they arrive, split at any byte, and
 * gets each whole object through a callback; a host other than the tool can
 * reuse it as is (it needs the library's public scanner,
 * velstatus_json_value_end() in velstatus/watch.h, and malloc). doc/cli.md, "server-status --watch", gives the rules:
 *
 * - objects may be compact or indented, separated by whitespace or nothing;
 *   each object's end is found by the library's scanner, which also
 *   validates it exactly as the decoders will;
 * - a malformed object (or a byte that cannot start one) is reported with
 *   its byte offset and line, and splitting resumes at the next top-level
 *   `{` after its first byte: a `{` at the start of a line. kubectl writes
 *   every top-level object from column 0 and indents every nested one, and
 *   a JSON string cannot hold a raw newline, so "\n{" never occurs inside a
 *   well-formed object; one before the failing byte starts the next object
 *   (the bad one was cut short), and the bad one is reported at its start;
 * - a failed scan that more text could mend (the scanner's `more`) waits
 *   until the stream ends: until then the object may still be arriving.
 *   Buffered bytes never exceed max_object plus one feed;
 * - memory: one object and one feed, whatever the stream's length;
 * - quick (a host that validates each object itself, as the decoders do):
 *   an object is first cut at the end of its line when the line ends with
 *   '}' (compact: one object a line), else at the first '}' in column 0
 *   (indented as kubectl writes it), else where its brackets close, strings skipped, without validating it, and handed out with
 *   `unchecked` set; a callback that finds it invalid JSON returns
 *   VS_WATCH_RECHECK, and the object is then cut by the scanner as above
 *   (reported malformed, or handed out again, validated). Valid JSON
 *   closes its brackets where the scanner
 *   ends the value (and a line that is one valid object ends where the
 *   value does), so either way the same objects and errors come out, and
 *   a valid object is scanned once (by the host's decoder), not twice. */
#ifndef VS_WATCH_STREAM_H
#define VS_WATCH_STREAM_H

#include <stddef.h>
#include <stdint.h>

/* An object callback's answer to an unchecked object that is not valid JSON. */
#define VS_WATCH_RECHECK (-2)

/* A position in the stream: byte offset (0-based) and line (1-based). */
typedef struct vs_watch_pos {
    uint64_t offset;
    uint64_t line;
} vs_watch_pos;

/* A whole object, obj[0..len), valid during the call. Non-zero stops the
 * feed; VS_WATCH_RECHECK (only when the splitter's `unchecked` is set)
 * asks for the object to be cut again by the scanner. */
typedef int (*vs_watch_object_fn)(void *ud, const char *obj, size_t len, vs_watch_pos at);
/* A malformed stretch starting at `at`; reason is static text. Non-zero stops. */
typedef int (*vs_watch_error_fn)(void *ud, vs_watch_pos at, const char *reason);

typedef struct vs_watch_split {
    char *mem; /* the allocation, cap bytes */
    char *buf; /* the bytes not handed out yet: buf[0..len), inside mem */
    size_t len, cap;
    size_t tried; /* buf[0..tried) held no candidate end at the last failed scan */
    size_t max_object;
    vs_watch_pos pos;                    /* of buf[0] */
    int skipping;                        /* discarding bytes until a "\n{" */
    int prev_newline;                    /* the byte before buf[0] was '\n' (or nothing came before) */
    uint64_t objects;                    /* objects handed out */
    int quick;                           /* set by the host after init: see "quick" above */
    int unchecked;                       /* during on_object: the object was not validated */
    void *(*realloc_fn)(void *, size_t); /* realloc; a host or a test may replace it after init */
    vs_watch_object_fn on_object;
    vs_watch_error_fn on_error;
    void *ud;
} vs_watch_split;

/* Sets up an empty splitter. max_object bounds one object's size in bytes. */
void vs_watch_split_init(vs_watch_split *s, size_t max_object, vs_watch_object_fn on_object, vs_watch_error_fn on_error,
                         void *ud);
/* Feeds n bytes. Returns 0, a callback's non-zero value (the feed stopped
 * there; the rest of data is dropped), or -1 when memory ran out (nothing
 * fed is lost: the same data may be fed again). */
int vs_watch_split_feed(vs_watch_split *s, const char *data, size_t n);
/* The same without a copy: room for n > 0 more bytes after the buffered ones
 * (NULL when memory ran out; nothing is lost), which the caller fills (a
 * read) and then feeds with vs_watch_split_commit(s, got), got <= n. */
char *vs_watch_split_space(vs_watch_split *s, size_t n);
int vs_watch_split_commit(vs_watch_split *s, size_t n);
/* The end of the stream: what is buffered is reported malformed ("the
 * stream ends inside an object"). Returns 0 or the callback's value. */
int vs_watch_split_end(vs_watch_split *s);
void vs_watch_split_free(vs_watch_split *s);

#endif
