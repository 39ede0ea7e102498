/* SPDX-License-Identifier: Apache-2.0 */
/* The watch-stream splitter (watch_stream.h). */
#include "watch_stream.h"

#include <stdlib.h>
#include <string.h>

#include <velstatus.h>

void vs_watch_split_init(vs_watch_split *s, size_t max_object, vs_watch_object_fn on_object, vs_watch_error_fn on_error,
                         void *ud)
{
    memset(s, 0, sizeof(*s));
    s->max_object = max_object;
    s->pos.line = 1;
    s->prev_newline = 1;
    s->on_object = on_object;
    s->on_error = on_error;
    s->ud = ud;
    s->realloc_fn = realloc;
}

void vs_watch_split_free(vs_watch_split *s)
{
    free(s->mem);
    s->mem = s->buf = NULL;
    s->len = s->cap = 0;
}

/* The first offset >= i (and <= n) that is not JSON whitespace. */
static size_t skip_ws(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* The position of buf[i]. */
static vs_watch_pos pos_at(const vs_watch_split *s, size_t i)
{
    vs_watch_pos p = s->pos;
    const char *q = s->buf, *end = s->buf + i;
    if (i == 0)
        return p;
    while ((q = memchr(q, '\n', (size_t)(end - q)))) {
        p.line++;
        q++;
    }
    p.offset += i;
    return p;
}

/* Drops buf[0..n). */
static void drop(vs_watch_split *s, size_t n)
{
    if (n == 0)
        return;
    s->pos = pos_at(s, n);
    s->prev_newline = s->buf[n - 1] == '\n';
    s->buf += n; /* feed() moves what is left to the front */
    s->len -= n;
    s->tried = 0;
}

/* The offset of the first resumption point (a '{' right after a '\n') at
 * or after `from`, or len when there is none in the buffer. */
static size_t resume_point(const vs_watch_split *s, size_t from)
{
    if (from == 0 && s->len > 0 && s->buf[0] == '{' && s->prev_newline)
        return 0;
    for (size_t i = from ? from : 1; i < s->len; i++) {
        const char *q = memchr(s->buf + i, '{', s->len - i);
        if (!q)
            break;
        i = (size_t)(q - s->buf);
        if (s->buf[i - 1] == '\n')
            return i;
    }
    return s->len;
}

/* Reports a malformed stretch at buf[at] and skips to the next resumption
 * point after buf[0]: a kubectl object never holds "\n{", so one before
 * `at` starts the next object (the bad one was cut short there). */
static int malformed(vs_watch_split *s, size_t at, const char *reason)
{
    int r = s->on_error ? s->on_error(s->ud, pos_at(s, at), reason) : 0;
    size_t next = resume_point(s, 1);
    drop(s, next);
    s->skipping = s->len == 0;
    return r;
}

/* Where the object at buf[0] (a '{') ends if its brackets close within
 * the buffer, strings skipped; 0 when they do not. Nothing is validated. */
static size_t quick_end(const char *b, size_t n)
{
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '"') {
            size_t k;
            do { /* the closing quote: one not escaped by an odd run of backslashes */
                const char *q = memchr(b + i + 1, '"', n - i - 1);
                if (!q)
                    return 0;
                i = (size_t)(q - b);
                for (k = i; b[k - 1] == '\\'; k--)
                    ;
            } while ((i - k) % 2 == 1);
        } else if (b[i] == '{' || b[i] == '[') {
            depth++;
        } else if ((b[i] == '}' || b[i] == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

/* Where the object at buf[0] ends if it is laid out as a watch stream lays
 * one out; 0 when it does not look so. Compact, the object is the whole of
 * its line (the line, trailing blanks apart, ends with '}'); indented as
 * kubectl writes it, it ends at the first '}' in column 0 (every nested
 * value is indented, and a JSON string holds no raw newline). The
 * callback's validation decides whether the cut is one object, and one
 * that is not goes back to the scanner (VS_WATCH_RECHECK), which cuts the
 * first object there. An object is self-delimiting, so a cut that
 * validates as one object is where the scanner would have cut it. */
static size_t line_end(const char *b, size_t n)
{
    const char *nl = memchr(b, '\n', n);
    size_t e;
    if (!nl)
        return 0;
    for (e = (size_t)(nl - b); e > 0 && (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == '\r'); e--)
        ;
    if (e > 0 && b[e - 1] == '}')
        return e;
    /* the first '}' right after a newline: an object has a few '}', and far more lines */
    for (const char *q = nl + 1; (q = memchr(q, '}', n - (size_t)(q - b))) != NULL; q++)
        if (q[-1] == '\n')
            return (size_t)(q - b) + 1;
    return 0;
}

/* Quick mode: hands out the object at buf[0], unchecked, cut where its
 * layout ends it (line_end) or else where its brackets close (quick_end).
 * Returns 0 when it went (*r the callback's answer), 1 when the scanner
 * must cut it (no end found, or the callback asked for a recheck). */
static int quick_object(vs_watch_split *s, int *r)
{
    size_t end = 0;
    if (s->quick && s->on_object && (end = line_end(s->buf, s->len)) == 0)
        end = quick_end(s->buf, s->len);
    if (end == 0)
        return 1;
    s->unchecked = 1;
    *r = s->on_object(s->ud, s->buf, end, s->pos);
    s->unchecked = 0;
    if (*r == VS_WATCH_RECHECK)
        return 1;
    s->objects++;
    drop(s, end);
    return 0;
}

/* Hands out every whole object in the buffer. */
static int split(vs_watch_split *s, int at_end)
{
    for (;;) {
        size_t i, end = 0, e_off;
        velstatus_error e;
        int r, incomplete = 0;
        if (s->skipping) {
            size_t next = resume_point(s, 0);
            drop(s, next);
            if (s->len == 0)
                return 0;
            s->skipping = 0;
        }
        drop(s, skip_ws(s->buf, 0, s->len));
        if (s->len == 0)
            return 0;
        if (s->buf[0] != '{') {
            if ((r = malformed(s, 0, "a JSON object ('{') expected")) != 0)
                return r;
            continue;
        }
        /* An object can only end at a '}': scan again only when one came. */
        if (!at_end && !memchr(s->buf + s->tried, '}', s->len - s->tried)) {
            s->tried = s->len;
            if (s->len <= s->max_object)
                return 0;
            if ((r = malformed(s, 0, "an object larger than the limit (--max-input)")) != 0)
                return r;
            continue;
        }
        if (quick_object(s, &r) == 0) {
            if (r)
                return r;
            continue;
        }
        if (velstatus_json_value_end(&end, &incomplete, s->buf, s->len, &e) == VELSTATUS_OK) {
            r = s->on_object ? s->on_object(s->ud, s->buf, end, s->pos) : 0;
            s->objects++;
            drop(s, end);
            if (r)
                return r;
            continue;
        }
        /* No continuation can mend it (or none comes): malformed now. An
         * object cut short by the next one is reported at its own start. */
        e_off = (size_t)e.offset;
        i = resume_point(s, 1);
        if (!incomplete || at_end) {
            if (i < s->len && i <= e_off)
                r = malformed(s, 0, "an object cut short: the next one starts on a later line");
            else
                r = malformed(s, e_off < s->len ? e_off : s->len,
                              at_end && e_off >= s->len ? "the stream ends inside an object" : e.message);
            if (r)
                return r;
            continue;
        }
        s->tried = s->len; /* the object may still be arriving */
        if (s->len <= s->max_object)
            return 0;
        if ((r = malformed(s, 0, "an object larger than the limit (--max-input)")) != 0)
            return r;
    }
}

char *vs_watch_split_space(vs_watch_split *s, size_t n)
{
    if (s->buf != s->mem && s->len > 0)
        memmove(s->mem, s->buf, s->len);
    s->buf = s->mem;
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        char *p;
        while (cap < s->len + n)
            cap *= 2;
        p = s->realloc_fn(s->mem, cap);
        if (!p)
            return NULL;
        s->mem = s->buf = p;
        s->cap = cap;
    }
    return s->buf + s->len;
}

int vs_watch_split_commit(vs_watch_split *s, size_t n)
{
    s->len += n;
    return split(s, 0);
}

int vs_watch_split_feed(vs_watch_split *s, const char *data, size_t n)
{
    char *room = n ? vs_watch_split_space(s, n) : NULL;
    if (n && !room)
        return -1;
    if (n)
        memcpy(room, data, n);
    return vs_watch_split_commit(s, n);
}

int vs_watch_split_end(vs_watch_split *s)
{
    return split(s, 1);
}
