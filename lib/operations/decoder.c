/* SPDX-License-Identifier: Apache-2.0 */
/* The itemoperations file's top level, fed whole (velstatus_oplist_from_json)
 * or in chunks (decoder.h): one state machine for both, so both decode the
 * same records and give the same errors at the same positions.
 *
 * The array is walked here a token at a time; each record is found by the
 * scanner (json_scan.h), which also says whether a failure may only be the
 * text running out (`more`): then the record waits for the next chunk, and
 * the decoder keeps the bytes from the record's start on. A record is
 * scanned again only once the bytes held have doubled, so a record cut into
 * many small chunks costs linear time. Complete records are decoded by
 * lib/operations/oplist_json.c into the list. Positions stay those of the whole text: the
 * window held starts at a known offset, line and column. */
#include <string.h>

#include <velstatus/decoder.h>

#include "common/json_scan.h"
#include "operations/decoder_private.h"
#include "velstatus/decoder.h"
#include "common/util_array.h"

/* Where the walk of the top level is. */
enum {
    S_START,     /* before the value: '[' or null */
    S_NULL_TAIL, /* after null: whitespace only */
    S_FIRST,     /* after '[': ']' or the first record */
    S_RECORD,    /* a record is due */
    S_AFTER,     /* after a record: ',' or ']' */
    S_TAIL,      /* after ']': whitespace only */
    S_DONE,      /* finished: the list was handed over */
    S_FAILED     /* an error, replayed by every later call */
};

struct velstatus_oplist_decoder {
    velstatus_ctx *ctx;
    vs__dec d;
    int state;
    char *buf; /* the bytes held (from d.base on), when not empty */
    size_t blen, bcap;
    size_t retry_at; /* a cut record is scanned again when this many bytes are held */
    velstatus_status failed;
    velstatus_error error;
};

void velstatus__dec_pos(const vs__dec *d, size_t off, uint32_t *line, uint32_t *col)
{
    uint64_t ln = d->line, c = d->col;
    velstatus__json_advance(d->p, off, &ln, &c);
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static velstatus_status syntax_at(vs__dec *d, size_t off, const char *what)
{
    uint32_t line, col;
    velstatus__dec_pos(d, off, &line, &col);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_PARSE, line, col, d->base + off, "%s", what);
}

/* One record at p[i]: the scanner validates it and finds its end. *wait is
 * set instead when the text held may end inside it. */
static velstatus_status decode_one(vs__dec *d, size_t i, size_t *end, int final, int *wait)
{
    velstatus__json_scan_err e;
    uint32_t line, col;
    char c = d->p[i];
    d->rec_off = i;
    if (!velstatus__json_scan_tape(d->p + i, d->len - i, end, &e, &d->tape, i)) {
        if (e.more && !final) {
            *wait = 1;
            return VELSTATUS_OK;
        }
        velstatus__dec_pos(d, i + e.off, &line, &col);
        return velstatus__error_set_pos(d->err, e.code, line, col, d->base + i + e.off, "[%zu]: invalid JSON: %s",
                                        d->idx, e.reason);
    }
    *end += i;
    if (!final && *end == d->len && c != '{' && c != '[' && c != '"') {
        *wait = 1; /* a number or a literal the next chunk may continue */
        return VELSTATUS_OK;
    }
    return velstatus__dec_record(d, i, *end);
}

/* The whitespace-only tail after null or ']'. */
static velstatus_status tail(vs__dec *d, int state, size_t *i)
{
    *i = velstatus__json_ws(d->p, *i, d->len);
    if (*i == d->len)
        return VELSTATUS_OK;
    return syntax_at(d, *i, state == S_NULL_TAIL ? "unexpected text after null" : "unexpected text after the array");
}

/* The value's start: '[' or null (*i at its first byte; *wait when the
 * bytes held cannot tell yet). */
static velstatus_status start(vs__dec *d, int *state, size_t *i, int final, int *wait)
{
    const char *p = d->p;
    size_t n = d->len;
    *i = velstatus__json_ws(p, *i, n);
    if (*i == n) {
        *wait = !final;
        return final ? syntax_at(d, *i, "empty input: expected an array of operations or null") : VELSTATUS_OK;
    }
    if (p[*i] == 'n' && n - *i < 4 && !final && memcmp(p + *i, "null", n - *i) == 0) {
        *wait = 1;
        return VELSTATUS_OK;
    }
    if (n - *i >= 4 && memcmp(p + *i, "null", 4) == 0) {
        *i += 4;
        d->l->is_null = 1;
        *state = S_NULL_TAIL;
        return VELSTATUS_OK;
    }
    if (p[*i] != '[')
        return syntax_at(d, *i, "expected '[' (an array of operations) or null");
    (*i)++;
    *state = S_FIRST;
    return VELSTATUS_OK;
}

/* After a record: ',' and the next, or ']'. */
static velstatus_status after(vs__dec *d, int *state, size_t *i, int final, int *wait)
{
    const char *p = d->p;
    *i = velstatus__json_ws(p, *i, d->len);
    if (*i == d->len) {
        *wait = !final;
        return final ? syntax_at(d, *i, "unexpected end of input inside the array") : VELSTATUS_OK;
    }
    if (p[*i] == ',') {
        (*i)++;
        *state = S_RECORD;
        return VELSTATUS_OK;
    }
    if (p[*i] == ']') {
        (*i)++;
        *state = S_TAIL;
        return VELSTATUS_OK;
    }
    return syntax_at(d, *i, p[*i] == '\0' ? "raw NUL byte outside a string" : "expected ',' or ']' after a record");
}

/* A record is due at *i. */
static velstatus_status record(velstatus_oplist_decoder *dc, size_t *i, int final, int *wait)
{
    vs__dec *d = &dc->d;
    size_t end;
    velstatus_status st;
    *i = velstatus__json_ws(d->p, *i, d->len);
    if (*i == d->len || (!final && d->len - *i < dc->retry_at)) {
        *wait = !final;
        return final ? syntax_at(d, *i, "unexpected end of input inside the array") : VELSTATUS_OK;
    }
    st = decode_one(d, *i, &end, final, wait);
    if (*wait) {
        dc->retry_at = 2 * (d->len - *i);
        return VELSTATUS_OK;
    }
    if (st == VELSTATUS_OK) {
        *i = end;
        d->idx++;
        dc->retry_at = 0;
        dc->state = S_AFTER;
    }
    return st;
}

/* Walks the window d->p[0..len) as far as it can: *used is where the bytes
 * still needed start. `final`: the text ends with the window. */
static velstatus_status walk(velstatus_oplist_decoder *dc, int final, size_t *used)
{
    vs__dec *d = &dc->d;
    size_t i = 0;
    velstatus_status st = VELSTATUS_OK;
    int wait = 0;
    while (st == VELSTATUS_OK && !wait) {
        switch (dc->state) {
        case S_START: st = start(d, &dc->state, &i, final, &wait); break;
        case S_FIRST:
            i = velstatus__json_ws(d->p, i, d->len);
            if (i < d->len && d->p[i] == ']') {
                i++;
                dc->state = S_TAIL;
            } else if (i < d->len || final) {
                dc->state = S_RECORD;
            } else {
                wait = 1;
            }
            break;
        case S_RECORD: st = record(dc, &i, final, &wait); break;
        case S_AFTER: st = after(d, &dc->state, &i, final, &wait); break;
        default: /* S_NULL_TAIL, S_TAIL */
            st = tail(d, dc->state, &i);
            wait = 1;
            break;
        }
    }
    *used = i;
    return st;
}

/* Sets the decoder up (d.l a new list); a one-shot decoder lives on the stack. */
static velstatus_status init(velstatus_oplist_decoder *dc, velstatus_ctx *ctx, velstatus_kind kind,
                             velstatus_error *err)
{
    memset(dc, 0, sizeof(*dc));
    dc->ctx = ctx;
    dc->d.line = 1;
    dc->d.col = 1;
    dc->d.p = "";
    velstatus__buf_init(&dc->d.kbuf, ctx);
    velstatus__buf_init(&dc->d.vbuf, ctx);
    return velstatus__oplist_new(&dc->d.l, ctx, kind, err);
}

/* Frees what the decoder holds, and the list unless it was handed over. */
static void release(velstatus_oplist_decoder *dc)
{
    velstatus__buf_reset(&dc->d.kbuf);
    velstatus__buf_reset(&dc->d.vbuf);
    velstatus__free(dc->ctx, dc->d.unk);
    velstatus__free(dc->ctx, dc->buf);
    velstatus_oplist_free(dc->d.l);
    dc->d.unk = NULL;
    dc->buf = NULL;
    dc->d.l = NULL;
}

velstatus_status velstatus_oplist_from_json(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                            const char *p, size_t len, velstatus_error *err)
{
    velstatus_oplist_decoder dc;
    velstatus_status st;
    size_t used;
    VS_TRY(velstatus__obj_text_args(out, "out", p, &len, "input", err));
    st = init(&dc, ctx, kind, err);
    if (st != VELSTATUS_OK)
        return st;
    dc.d.err = err;
    dc.d.p = p ? p : "";
    dc.d.len = len;
    st = walk(&dc, 1, &used);
    if (st == VELSTATUS_OK) {
        *out = dc.d.l;
        dc.d.l = NULL;
    }
    release(&dc);
    return st;
}

/* ---- the streaming decoder (decoder.h) ---- */

velstatus_status velstatus_oplist_decoder_new(velstatus_oplist_decoder **out, velstatus_ctx *ctx, velstatus_kind kind,
                                              velstatus_error *err)
{
    velstatus_oplist_decoder *dc;
    velstatus_status st;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    dc = velstatus__alloc(ctx, sizeof(*dc));
    if (!dc)
        return velstatus__error_nomem(err);
    st = init(dc, ctx, kind, err);
    if (st != VELSTATUS_OK) {
        velstatus__free(ctx, dc);
        return st;
    }
    dc->d.err = &dc->error;
    *out = dc;
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_decoder_new_detect(velstatus_oplist_decoder **out, velstatus_ctx *ctx,
                                                     velstatus_error *err)
{
    VS_TRY(velstatus_oplist_decoder_new(out, ctx, VELSTATUS_KIND_BACKUP, err));
    (*out)->d.detect = 1;
    return VELSTATUS_OK;
}

void velstatus_oplist_decoder_free(velstatus_oplist_decoder *dc)
{
    if (!dc)
        return;
    release(dc);
    velstatus__free(dc->ctx, dc);
}

size_t velstatus_oplist_decoder_count(const velstatus_oplist_decoder *dc)
{
    return dc ? dc->d.idx : 0;
}

/* The decoder's first error, again (it ends the decoding). */
static velstatus_status replay(const velstatus_oplist_decoder *dc, velstatus_error *err)
{
    if (err)
        *err = dc->error;
    return dc->failed;
}

static velstatus_status fail(velstatus_oplist_decoder *dc, velstatus_status st, velstatus_error *err)
{
    dc->state = S_FAILED;
    dc->failed = st;
    return replay(dc, err);
}

/* Walks the window p[0..n) (the bytes held or, when none are, the chunk
 * itself), then moves the window's start past what was used. */
static velstatus_status walk_window(velstatus_oplist_decoder *dc, const char *p, size_t n, int final, size_t *used)
{
    velstatus_status st;
    dc->d.p = p;
    dc->d.len = n;
    st = walk(dc, final, used);
    velstatus__json_advance(p, *used, &dc->d.line, &dc->d.col);
    dc->d.base += *used;
    dc->d.p = "";
    dc->d.len = 0;
    return st;
}

/* Keeps p[0..n) after the bytes held. */
static int hold(velstatus_oplist_decoder *dc, const char *p, size_t n)
{
    char *b;
    if (n == 0) /* the chunk ended between two tokens: nothing to keep */
        return 1;
    b = velstatus__array_reserve(dc->ctx, dc->buf, &dc->bcap, dc->blen + n, 1, 4096);
    if (!b)
        return 0;
    dc->buf = b;
    memcpy(dc->buf + dc->blen, p, n);
    dc->blen += n;
    return 1;
}

/* While bytes are held (a record the last chunk cut), appends the chunk
 * *p to them a piece at a time (the held bytes and 4 KiB more) and walks
 * them, until the walk goes past the held bytes: what is left of the piece
 * is then let go and walked in place with the rest of the chunk (*p, *len
 * moved to it), so a chunk is not copied whole behind every cut record. */
static velstatus_status complete_held(velstatus_oplist_decoder *dc, const char **p, size_t *len)
{
    velstatus_status st = VELSTATUS_OK;
    while (st == VELSTATUS_OK && dc->blen > 0 && *len > 0) {
        size_t held = dc->blen, k = *len < held + 4096 ? *len : held + 4096, used;
        if (!hold(dc, *p, k))
            return velstatus__error_nomem(&dc->error);
        st = walk_window(dc, dc->buf, dc->blen, 0, &used);
        if (used >= held) { /* the rest of the piece is the chunk's: let it go */
            dc->blen = 0;
            *p += used - held;
            *len -= used - held;
        } else {
            memmove(dc->buf, dc->buf + used, dc->blen - used);
            dc->blen -= used;
            *p += k;
            *len -= k;
        }
    }
    return st;
}

/* The state a call needs, else E_INVALID or the replayed error. */
static velstatus_status check_live(velstatus_oplist_decoder *dc, velstatus_error *err)
{
    if (!dc)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "dec is NULL");
    if (dc->state == S_FAILED)
        return replay(dc, err);
    if (dc->state == S_DONE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "the decoder is finished");
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_decoder_feed(velstatus_oplist_decoder *dc, const char *p, size_t len,
                                               velstatus_error *err)
{
    velstatus_status st = check_live(dc, err);
    size_t used;
    if (st != VELSTATUS_OK)
        return st;
    VS_TRY(velstatus__text_arg(p, &len, "input", err));
    if (len == 0)
        return VELSTATUS_OK;
    st = complete_held(dc, &p, &len);
    if (st == VELSTATUS_OK && len > 0) { /* at a boundary: the chunk itself is the window */
        st = walk_window(dc, p, len, 0, &used);
        if (st == VELSTATUS_OK && !hold(dc, p + used, len - used))
            st = velstatus__error_nomem(&dc->error);
    }
    return st == VELSTATUS_OK ? VELSTATUS_OK : fail(dc, st, err);
}

velstatus_status velstatus_oplist_decoder_finish(velstatus_oplist **out, velstatus_oplist_decoder *dc,
                                                 velstatus_error *err)
{
    velstatus_status st = check_live(dc, err);
    size_t used;
    if (st != VELSTATUS_OK)
        return st;
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    st = walk_window(dc, dc->buf ? dc->buf : "", dc->blen, 1, &used);
    if (st != VELSTATUS_OK)
        return fail(dc, st, err);
    *out = dc->d.l;
    dc->d.l = NULL;
    dc->blen = 0;
    dc->state = S_DONE;
    return VELSTATUS_OK;
}
