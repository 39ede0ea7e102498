/* SPDX-License-Identifier: Apache-2.0 */
/* Plugin answers by operation ID (`velstatus operations reconcile
 * --progress FILE`): decode the answers; when the input has a tail, decode
 * it as the itemoperations file, reconcile it with the client that serves
 * the answers, and write and read the result back. */
#include "fuzz.h"
#include <velstatus/experimental.h>

#include <string.h>

static void lookups(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_op_reports *r)
{
    velstatus_op_progress p, small;
    const char *id;
    size_t len;
    int k;
    for (k = 0; k < 4; k++) {
        vs_fuzz_text(in, &id, &len);
        velstatus_op_progress_init(&p, sizeof(p));
        if (velstatus_op_reports_get(&p, r, id, len)) {
            VS_FUZZ_CHECK(env, p.struct_size == sizeof(p) && p.report <= VELSTATUS_OP_REPORT_LOOKUP_ERROR);
            VS_FUZZ_CHECK(env, (p.err || p.err_len == 0) && (p.description || p.description_len == 0));
        }
    }
    velstatus_op_progress_init(&small, sizeof(small));
    small.struct_size = 4;
    VS_FUZZ_CHECK(env, velstatus_op_reports_get(&small, r, "", 0) == 0);
}

static void reconcile(vs_fuzz_env *env, const velstatus_op_reports *r, velstatus_oplist *list)
{
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_op_reports_client(&client, r, &err);
    if (!vs_fuzz_must(env, st, &err, "velstatus_op_reports_client"))
        return;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = 1714561200000000000; /* 2024-05-01T11:00:00Z, an hour into the examples */
    st = velstatus_oplist_reconcile(&res, list, &client, &o, NULL, &err);
    if (vs_fuzz_stage(env, st, "velstatus_oplist_reconcile")) {
        velstatus_reconcile_result_free(res);
        vs_fuzz_roundtrip(env, list, 1);
    }
}

void vs_pipe_reports(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_op_reports *r = (velstatus_op_reports *)vs_fuzz_sentinel;
    velstatus_oplist *list = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_op_reports_from_json(&r, env->ctx, in->text, in->text_len, &err);
    if (st != VELSTATUS_OK) {
        vs_fuzz_out_untouched(env, r, vs_fuzz_sentinel, "velstatus_op_reports_from_json");
        if (vs_fuzz_checks(env))
            VS_FUZZ_CHECK(env, err.code == st && err.message[0] != '\0');
    }
    if (!vs_fuzz_stage(env, st, "velstatus_op_reports_from_json"))
        return;
    if (vs_fuzz_checks(env))
        lookups(env, in, r);
    if (in->tail_len > 0) {
        int ok;
        st = vs_fuzz_decode_list(env, VELSTATUS_KIND_BACKUP, (const char *)in->tail, in->tail_len, &list);
        ok = vs_fuzz_stage(env, st, "velstatus_oplist_from_json (backup)");
        if (!ok && !env->nomem_seen) { /* not a backup list: perhaps a restore one */
            st = vs_fuzz_decode_list(env, VELSTATUS_KIND_RESTORE, (const char *)in->tail, in->tail_len, &list);
            ok = vs_fuzz_stage(env, st, "velstatus_oplist_from_json (restore)");
        }
        if (ok)
            reconcile(env, r, list);
        velstatus_oplist_free(list);
    }
    velstatus_op_reports_free(r);
}
