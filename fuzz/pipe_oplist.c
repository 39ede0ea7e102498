/* SPDX-License-Identifier: Apache-2.0 */
/* `<name>-itemoperations.json` from object storage → decode → encode →
 * decode → encode, as `velstatus operations format` and every host that
 * reads and rewrites the file run it; the second encode must equal the first. */
#include "fuzz.h"

velstatus_status vs_fuzz_decode_list(vs_fuzz_env *env, velstatus_kind kind, const char *p, size_t len,
                                     velstatus_oplist **out)
{
    velstatus_error err;
    velstatus_status st;
    size_t i, n;
    *out = (velstatus_oplist *)vs_fuzz_sentinel;
    st = velstatus_oplist_from_json(out, env->ctx, kind, p, len, &err);
    if (st != VELSTATUS_OK) {
        vs_fuzz_out_untouched(env, *out, vs_fuzz_sentinel, "velstatus_oplist_from_json");
        *out = NULL;
        if (vs_fuzz_checks(env))
            VS_FUZZ_CHECK(env, err.code == st && err.message[0] != '\0' && err.offset <= len);
        return st;
    }
    n = velstatus_oplist_count(*out);
    VS_FUZZ_CHECK(env, velstatus_oplist_kind(*out) == kind);
    VS_FUZZ_CHECK(env, !velstatus_oplist_at(*out, n));
    for (i = 0; i < n && vs_fuzz_checks(env); i++) {
        const velstatus_op *op = velstatus_oplist_at(*out, i);
        vs_fuzz_buf b = {0};
        VS_FUZZ_CHECK(env, op != NULL);
        if (kind == VELSTATUS_KIND_RESTORE)
            VS_FUZZ_CHECK(env, velstatus_op_post_item_count(op) == 0);
        vs_fuzz_op_print(&b, *out, i);
        vs_fuzz_buf_free(&b);
    }
    return st;
}

void vs_pipe_oplist(vs_fuzz_env *env, vs_fuzz_in *in)
{
    static const velstatus_kind kinds[] = {VELSTATUS_KIND_BACKUP, VELSTATUS_KIND_RESTORE};
    size_t k;
    for (k = 0; k < 2; k++) {
        velstatus_oplist *list;
        velstatus_status st = vs_fuzz_decode_list(env, kinds[k], in->text, in->text_len, &list);
        if (vs_fuzz_stage(env, st, "velstatus_oplist_from_json"))
            vs_fuzz_roundtrip(env, list, 0);
        velstatus_oplist_free(list);
    }
}
