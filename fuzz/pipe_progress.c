/* SPDX-License-Identifier: Apache-2.0 */
/* `velstatus progress` and `velstatus describe-operations`: decode the
 * itemoperations file, aggregate it, write the summary and the JSON report,
 * and Velero's describe text with and without details. */
#include "fuzz.h"

#include <jansson.h>

#define S 1000000000LL

/* The counting rules of progress.h, and the JSON report against the getters. */
static void check_report(vs_fuzz_env *env, const velstatus_progress *r, const velstatus_oplist *list, const char *json,
                         size_t len)
{
    size_t n = velstatus_oplist_count(list), i, groups = 0;
    json_error_t jerr;
    json_t *root;
    json_int_t attempted = -1;
    VS_FUZZ_CHECK(env, velstatus_progress_count(r, VELSTATUS_PROGRESS_ATTEMPTED) == n);
    VS_FUZZ_CHECK(env, velstatus_progress_count(r, VELSTATUS_PROGRESS_NEW) +
                               velstatus_progress_count(r, VELSTATUS_PROGRESS_IN_PROGRESS) +
                               velstatus_progress_count(r, VELSTATUS_PROGRESS_COMPLETED) +
                               velstatus_progress_count(r, VELSTATUS_PROGRESS_FAILED) +
                               velstatus_progress_count(r, VELSTATUS_PROGRESS_UNKNOWN_PHASE) ==
                           n);
    VS_FUZZ_CHECK(env, !(velstatus_progress_flags(r) & VELSTATUS_PROGRESS_F_UNKNOWN_PHASE) ==
                           (velstatus_progress_count(r, VELSTATUS_PROGRESS_UNKNOWN_PHASE) == 0));
    for (i = 0; i < velstatus_progress_unit_count(r); i++) {
        double pct = velstatus_progress_unit_percent(r, i), rate = -1;
        int64_t eta = -1;
        VS_FUZZ_CHECK(env, velstatus_progress_unit_name(r, i, NULL) != NULL);
        VS_FUZZ_CHECK(env, pct >= 0 && pct <= 100);
        VS_FUZZ_CHECK(env, velstatus_progress_unit_rate(r, i, &rate) ? rate == rate : rate == 0);
        VS_FUZZ_CHECK(env, velstatus_progress_unit_eta(r, i, &eta) ? eta >= 0 && eta <= 9223372036 : eta == 0);
        VS_FUZZ_CHECK(env, !(velstatus_progress_unit_flags(r, i) & VELSTATUS_PROGRESS_F_UNKNOWN_PHASE));
        groups += velstatus_progress_unit_operations(r, i);
    }
    VS_FUZZ_CHECK(env, !velstatus_progress_unit_name(r, i, NULL));
    VS_FUZZ_CHECK(env, groups + velstatus_progress_count(r, VELSTATUS_PROGRESS_UNQUANTIFIED) +
                               velstatus_progress_count(r, VELSTATUS_PROGRESS_UNKNOWN_PHASE) ==
                           n);
    vs_fuzz_valid_json(env, json, len, "velstatus_progress_to_json");
    root = json_loadb(json, len, JSON_ALLOW_NUL, &jerr);
    VS_FUZZ_CHECK(env, root && json_unpack(root, "{s:I}", "attempted", &attempted) == 0);
    VS_FUZZ_CHECK(env, (size_t)attempted == n);
    json_decref(root);
}

/* Runs one producer of text; a failure must not hand text to the caller. */
#define VS_TEXT_STAGE(env, call, what, out, len)                           \
    do {                                                                   \
        velstatus_status st_;                                              \
        (out) = vs_fuzz_sentinel;                                          \
        st_ = (call);                                                      \
        if (st_ != VELSTATUS_OK) {                                         \
            vs_fuzz_out_untouched((env), (out), vs_fuzz_sentinel, (what)); \
            (out) = NULL;                                                  \
        }                                                                  \
        if (!vs_fuzz_must((env), st_, NULL, (what)))                       \
            goto done;                                                     \
    } while (0)

static void report(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_oplist *list)
{
    const int64_t nows[] = {1714561200 * S, 0, INT64_MAX, INT64_MIN, 1714557600 * S};
    velstatus_progress *r = (velstatus_progress *)vs_fuzz_sentinel;
    char *summary = NULL, *json = NULL, *text = NULL;
    size_t slen = 0, jlen = 0, tlen = 0;
    velstatus_status st = velstatus_progress_new(&r, env->ctx, list, vs_fuzz_int(in, nows, 5), NULL);
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, r, vs_fuzz_sentinel, "velstatus_progress_new");
    if (!vs_fuzz_must(env, st, NULL, "velstatus_progress_new"))
        return;
    VS_TEXT_STAGE(env, velstatus_progress_summary(&summary, &slen, r, NULL), "velstatus_progress_summary", summary,
                  slen);
    VS_TEXT_STAGE(env, velstatus_progress_to_json(&json, &jlen, r, NULL), "velstatus_progress_to_json", json, jlen);
    if (vs_fuzz_checks(env))
        check_report(env, r, list, json, jlen);
    VS_TEXT_STAGE(env, velstatus_describe_operations(&text, &tlen, env->ctx, list, 0, NULL),
                  "velstatus_describe_operations", text, tlen);
    velstatus_free(env->ctx, text);
    VS_TEXT_STAGE(env, velstatus_describe_operations(&text, &tlen, env->ctx, list, 1, NULL),
                  "velstatus_describe_operations --details", text, tlen);
done:
    velstatus_free(env->ctx, summary);
    velstatus_free(env->ctx, json);
    velstatus_free(env->ctx, text);
    velstatus_progress_free(r);
}

void vs_pipe_progress(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_kind kind = vs_fuzz_byte(in) & 1 ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    velstatus_oplist *list;
    vs_fuzz_buf before = {0}, after = {0};
    if (!vs_fuzz_stage(env, vs_fuzz_decode_list(env, kind, in->text, in->text_len, &list),
                       "velstatus_oplist_from_json"))
        return;
    if (env->mode != VS_FUZZ_PLAIN)
        vs_fuzz_list_json(env, &before, list);
    report(env, in, list);
    if (env->mode != VS_FUZZ_PLAIN) { /* the producers only read the list, even when they fail */
        vs_fuzz_list_json(env, &after, list);
        VS_FUZZ_CHECK(env, vs_fuzz_same(before.p, before.len, after.p, after.len));
    }
    vs_fuzz_buf_free(&before);
    vs_fuzz_buf_free(&after);
    velstatus_oplist_free(list);
}
