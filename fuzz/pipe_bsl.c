/* SPDX-License-Identifier: Apache-2.0 */
/* `kubectl get backupstoragelocations -o json` → classify → verdict JSON,
 * as `velstatus server-status` and a host's status controller run it. */
#include "fuzz.h"

#include <jansson.h>
#include <string.h>

static const velstatus_server_reason reasons[] = {
    VELSTATUS_SERVER_REASON_NO_BSL,
    VELSTATUS_SERVER_REASON_PENDING,
    VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE,
    VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE,
    VELSTATUS_SERVER_REASON_SOME_PENDING,
    VELSTATUS_SERVER_REASON_NO_DEFAULT,
    VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS,
    VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE,
    VELSTATUS_SERVER_REASON_DEFAULT_READONLY,
    VELSTATUS_SERVER_REASON_STALE,
    VELSTATUS_SERVER_REASON_UNKNOWN_PHASE,
};

/* The rules of server_status.h that follow from the counts alone. */
static void check_rules(vs_fuzz_env *env, const velstatus_server_verdict *v, size_t n, int three_state)
{
    size_t a = velstatus_server_verdict_available(v), u = velstatus_server_verdict_unavailable(v);
    size_t p = velstatus_server_verdict_pending(v), r, i;
    uint32_t why = velstatus_server_verdict_reasons(v);
    velstatus_server_status s = velstatus_server_verdict_status(v);
    VS_FUZZ_CHECK(env, velstatus_server_verdict_total(v) == n && a + u + p == n);
    VS_FUZZ_CHECK(env, !(why & VELSTATUS_SERVER_REASON_NO_BSL) == (n != 0));
    VS_FUZZ_CHECK(env, !(why & VELSTATUS_SERVER_REASON_PENDING) == !(a == 0 && p > 0));
    VS_FUZZ_CHECK(env, !(why & VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE) == !(n > 0 && u == n));
    VS_FUZZ_CHECK(env, !(why & VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE) == !(u > 0 && u < n));
    VS_FUZZ_CHECK(env, !(why & VELSTATUS_SERVER_REASON_SOME_PENDING) == !(p > 0 && p < n));
    if (n == 0 || (a == 0 && p > 0))
        VS_FUZZ_CHECK(env, s == VELSTATUS_SERVER_WAITING);
    else if (a == 0)
        VS_FUZZ_CHECK(env, s == (three_state ? VELSTATUS_SERVER_WAITING : VELSTATUS_SERVER_NOT_READY));
    else
        VS_FUZZ_CHECK(env, s == VELSTATUS_SERVER_READY || s == VELSTATUS_SERVER_PARTIALLY_READY);
    if (s == VELSTATUS_SERVER_READY)
        VS_FUZZ_CHECK(env, a == n && velstatus_server_verdict_default(v));
    for (r = 0; r < sizeof(reasons) / sizeof(reasons[0]); r++) {
        size_t c = velstatus_server_verdict_name_count(v, reasons[r]);
        const char *prev = NULL;
        VS_FUZZ_CHECK(env, c <= n && (c == 0 || (why & reasons[r])));
        if (reasons[r] & (VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE | VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE))
            VS_FUZZ_CHECK(env, !(why & reasons[r]) || c == u);
        if (reasons[r] & (VELSTATUS_SERVER_REASON_PENDING | VELSTATUS_SERVER_REASON_SOME_PENDING))
            VS_FUZZ_CHECK(env, !(why & reasons[r]) || c == p);
        for (i = 0; i < c; i++) {
            const char *name = velstatus_server_verdict_name(v, reasons[r], i);
            VS_FUZZ_CHECK(env, name && (!prev || strcmp(prev, name) <= 0));
            prev = name;
        }
        VS_FUZZ_CHECK(env, !velstatus_server_verdict_name(v, reasons[r], c));
    }
    VS_FUZZ_CHECK(env, velstatus_server_verdict_message(v) != NULL);
}

/* The verdict's JSON is JSON, and its counts and status are the verdict's. */
static void check_json(vs_fuzz_env *env, const velstatus_server_verdict *v, const char *p, size_t len)
{
    json_error_t jerr;
    json_t *root;
    const char *status = NULL;
    json_int_t total = -1;
    vs_fuzz_valid_json(env, p, len, "velstatus_server_verdict_to_json");
    if (!vs_fuzz_checks(env))
        return;
    root = json_loadb(p, len, JSON_ALLOW_NUL, &jerr);
    VS_FUZZ_CHECK(env, root != NULL);
    VS_FUZZ_CHECK(env, json_unpack(root, "{s:s, s:{s:I}}", "status", &status, "counts", "total", &total) == 0);
    VS_FUZZ_CHECK(env, (size_t)total == velstatus_server_verdict_total(v));
    VS_FUZZ_CHECK(env, strcmp(status, velstatus_server_status_to_string(velstatus_server_verdict_status(v))) == 0);
    json_decref(root);
}

static void options(vs_fuzz_in *in, const velstatus_bsl_set *set, velstatus_server_status_options *o)
{
    static const int64_t instants[] = {0,         1714557600000000000, 1714557600000000000 + 3600000000000,
                                       INT64_MAX, INT64_MIN,           -1};
    static const int64_t bounds[] = {0, 1, 60000000000, 3600000000000, INT64_MAX, -1};
    size_t n = velstatus_bsl_set_count(set);
    velstatus_server_status_options_init(o, sizeof(*o));
    switch (vs_fuzz_pick(in, 3)) {
    case 0: break;
    case 1:
        if (n > 0) {
            o->default_location = velstatus_bsl_set_name(set, vs_fuzz_pick(in, n));
            o->default_location_len = strlen(o->default_location);
        }
        break;
    default: vs_fuzz_text(in, &o->default_location, &o->default_location_len); break;
    }
    o->check_stale = vs_fuzz_byte(in) & 1;
    o->three_state = vs_fuzz_byte(in) & 1;
    o->now_ns = vs_fuzz_int(in, instants, sizeof(instants) / sizeof(instants[0]));
    o->stale_after_ns = vs_fuzz_int(in, bounds, sizeof(bounds) / sizeof(bounds[0]));
}

static void classify(vs_fuzz_env *env, const velstatus_bsl_set *set, const velstatus_server_status_options *o)
{
    velstatus_server_verdict *v = (velstatus_server_verdict *)vs_fuzz_sentinel;
    velstatus_error err;
    char *json = vs_fuzz_sentinel;
    size_t len = 0;
    velstatus_status st = velstatus_server_status_classify(&v, set, o, &err);
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, v, vs_fuzz_sentinel, "velstatus_server_status_classify");
    if (!vs_fuzz_stage(env, st, "velstatus_server_status_classify"))
        return;
    if (vs_fuzz_checks(env))
        check_rules(env, v, velstatus_bsl_set_count(set), o && o->three_state);
    st = velstatus_server_verdict_to_json(&json, &len, v, &err);
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, json, vs_fuzz_sentinel, "velstatus_server_verdict_to_json");
    if (vs_fuzz_must(env, st, &err, "velstatus_server_verdict_to_json")) {
        check_json(env, v, json, len);
        velstatus_free(env->ctx, json);
    }
    velstatus_server_verdict_free(v);
}

void vs_pipe_bsl(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_bsl_set *set = (velstatus_bsl_set *)vs_fuzz_sentinel;
    velstatus_server_status_options o;
    velstatus_error err;
    velstatus_status st;
    size_t i;
    st = velstatus_bsl_set_from_json(&set, env->ctx, in->text, in->text_len, &err);
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, set, vs_fuzz_sentinel, "velstatus_bsl_set_from_json");
    if (!vs_fuzz_stage(env, st, "velstatus_bsl_set_from_json"))
        return;
    for (i = 0; i < velstatus_bsl_set_count(set); i++)
        VS_FUZZ_CHECK(env, velstatus_bsl_set_name(set, i)[0] != '\0' && velstatus_bsl_set_phase(set, i) &&
                               velstatus_bsl_set_message(set, i) != NULL);
    classify(env, set, NULL);
    options(in, set, &o);
    classify(env, set, &o);
    vs_track_bsls(env, in, set, &o);
    velstatus_bsl_set_free(set);
}
