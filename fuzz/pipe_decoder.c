/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming decoder (velstatus/decoder.h) against the one-shot decode:
 * the text is fed in chunks cut at places the input chooses (1 to 64 bytes
 * mostly, sometimes empty, sometimes the rest), as a backup and as a restore
 * list. Both must agree exactly: the same status; on success the same
 * records (every getter) and the same encoding; on failure the same message,
 * line, column and offset. After a failed feed, every later feed and the
 * finish must give that error again. */
#include "fuzz.h"

#include <string.h>

/* The size of the next chunk, at most `left`. */
static size_t chunk_size(vs_fuzz_in *in, size_t left)
{
    size_t k = vs_fuzz_pick(in, 16), n;
    if (k == 0)
        n = 0;
    else if (k == 1)
        n = left;
    else if (k < 12)
        n = 1 + vs_fuzz_pick(in, 8);
    else
        n = 1 + vs_fuzz_pick(in, 64);
    return n < left ? n : left;
}

static int same_error(const velstatus_error *a, const velstatus_error *b)
{
    return a->code == b->code && a->line == b->line && a->column == b->column && a->offset == b->offset &&
           strcmp(a->message, b->message) == 0;
}

/* Fed in chunks; returns the status of the first failing call or of finish. */
static velstatus_status chunked(vs_fuzz_env *env, vs_fuzz_in *in, velstatus_kind kind, velstatus_oplist **out,
                                velstatus_error *err)
{
    velstatus_oplist_decoder *d;
    velstatus_error again;
    velstatus_status st;
    size_t i = 0;
    *out = NULL;
    st = velstatus_oplist_decoder_new(&d, env->ctx, kind, err);
    VS_FUZZ_CHECK(env, st == VELSTATUS_OK);
    while (st == VELSTATUS_OK && i < in->text_len) {
        size_t n = chunk_size(in, in->text_len - i);
        st = velstatus_oplist_decoder_feed(d, in->text + i, n, err);
        i += n;
    }
    if (st != VELSTATUS_OK) { /* the error stays */
        VS_FUZZ_CHECK(env, velstatus_oplist_decoder_feed(d, "]", 1, &again) == st && same_error(err, &again));
        st = velstatus_oplist_decoder_finish(out, d, &again);
        VS_FUZZ_CHECK(env, !*out && same_error(err, &again));
    } else {
        st = velstatus_oplist_decoder_finish(out, d, err);
    }
    if (st == VELSTATUS_OK) {
        VS_FUZZ_CHECK(env, velstatus_oplist_decoder_count(d) == velstatus_oplist_count(*out));
        VS_FUZZ_CHECK(env, velstatus_oplist_decoder_finish(out, d, &again) == VELSTATUS_E_INVALID);
    }
    velstatus_oplist_decoder_free(d);
    return st;
}

static void compare_lists(vs_fuzz_env *env, const velstatus_oplist *a, const velstatus_oplist *b)
{
    vs_fuzz_buf ja = {0}, jb = {0};
    size_t i, n = velstatus_oplist_count(a);
    VS_FUZZ_CHECK(env, velstatus_oplist_count(b) == n);
    for (i = 0; i < n; i++) {
        vs_fuzz_buf pa = {0}, pb = {0};
        vs_fuzz_op_print(&pa, a, i);
        vs_fuzz_op_print(&pb, b, i);
        VS_FUZZ_CHECK(env, vs_fuzz_same(pa.p, pa.len, pb.p, pb.len));
        vs_fuzz_buf_free(&pa);
        vs_fuzz_buf_free(&pb);
    }
    vs_fuzz_list_json(env, &ja, a);
    vs_fuzz_list_json(env, &jb, b);
    VS_FUZZ_CHECK(env, vs_fuzz_same(ja.p, ja.len, jb.p, jb.len));
    vs_fuzz_buf_free(&ja);
    vs_fuzz_buf_free(&jb);
}

void vs_pipe_decoder(vs_fuzz_env *env, vs_fuzz_in *in)
{
    static const velstatus_kind kinds[] = {VELSTATUS_KIND_BACKUP, VELSTATUS_KIND_RESTORE};
    size_t k;
    for (k = 0; k < 2; k++) {
        velstatus_oplist *a = NULL, *b = NULL;
        velstatus_error ea, eb;
        velstatus_status sa = velstatus_oplist_from_json(&a, env->ctx, kinds[k], in->text, in->text_len, &ea);
        velstatus_status sb = chunked(env, in, kinds[k], &b, &eb);
        VS_FUZZ_CHECK(env, sa != VELSTATUS_E_NOMEM && sa != VELSTATUS_E_INTERNAL);
        VS_FUZZ_CHECK(env, sa == sb);
        if (sa == VELSTATUS_OK)
            compare_lists(env, a, b);
        else
            VS_FUZZ_CHECK(env, same_error(&ea, &eb));
        velstatus_oplist_free(a);
        velstatus_oplist_free(b);
    }
}
