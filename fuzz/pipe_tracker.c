/* SPDX-License-Identifier: Apache-2.0 */
/* The decoded BSLs fed to a tracker as an informer feeds them: the list, a
 * relist in the same order, one in the other order, one in the first again
 * (the tracker learns the order of its events and looks ahead: a guess
 * must never find a wrong entry), the clock moved,
 * then every name deleted. After each step the tracker's O(1) status and
 * reasons are those of its own full verdict; with distinct names, its
 * verdict is the classification of the set, byte for byte. */
#include "fuzz.h"

#include <string.h>

/* Distinct names, compared pairwise up to this many BSLs (fuzz inputs are small). */
#define VS_TRACK_DISTINCT_MAX 64

static int distinct_names(const velstatus_bsl_set *set, size_t n)
{
    size_t i, j;
    if (n > VS_TRACK_DISTINCT_MAX)
        return 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (strcmp(velstatus_bsl_set_name(set, i), velstatus_bsl_set_name(set, j)) == 0)
                return 0;
    return 1;
}

/* The verdict's JSON, or NULL when an allocation failed (the stage says so). */
static char *verdict_json(vs_fuzz_env *env, velstatus_server_verdict *v, size_t *len, const char *what)
{
    velstatus_error err;
    char *json = NULL;
    velstatus_status st = velstatus_server_verdict_to_json(&json, len, v, &err);
    velstatus_server_verdict_free(v);
    return vs_fuzz_must(env, st, &err, what) ? json : NULL;
}

/* The tracker's O(1) status and reasons equal its full verdict's; with
 * `set` (distinct names, all tracked), the verdict equals classify's. */
static int agree(vs_fuzz_env *env, const velstatus_server_tracker *t, const velstatus_bsl_set *set,
                 const velstatus_server_status_options *o)
{
    velstatus_server_verdict *v = NULL, *c = NULL;
    velstatus_error err;
    char *a, *b;
    size_t alen = 0, blen = 0;
    if (!vs_fuzz_must(env, velstatus_server_tracker_verdict(&v, t, &err), &err, "velstatus_server_tracker_verdict"))
        return 0;
    VS_FUZZ_CHECK(env, velstatus_server_verdict_status(v) == velstatus_server_tracker_status(t) &&
                           velstatus_server_verdict_reasons(v) == velstatus_server_tracker_reasons(t) &&
                           velstatus_server_verdict_total(v) == velstatus_server_tracker_count(t));
    if (!set) {
        velstatus_server_verdict_free(v);
        return 1;
    }
    a = verdict_json(env, v, &alen, "velstatus_server_verdict_to_json (tracker)");
    if (!a || !vs_fuzz_must(env, velstatus_server_status_classify(&c, set, o, &err), &err,
                            "velstatus_server_status_classify (tracker)")) {
        velstatus_free(env->ctx, a);
        return 0;
    }
    b = verdict_json(env, c, &blen, "velstatus_server_verdict_to_json (set)");
    if (b && vs_fuzz_checks(env) && !vs_fuzz_same(a, alen, b, blen))
        vs_fuzz_fail(env, "the tracker's verdict %.*s differs from the set's %.*s", (int)alen, a, (int)blen, b);
    velstatus_free(env->ctx, a);
    velstatus_free(env->ctx, b);
    return b != NULL;
}

/* Upserts every BSL, in list order or the reverse. */
static int feed(vs_fuzz_env *env, velstatus_server_tracker *t, const velstatus_bsl_set *set, int reverse)
{
    size_t n = velstatus_bsl_set_count(set), k;
    velstatus_bsl_record r;
    velstatus_error err;
    for (k = 0; k < n; k++) {
        velstatus_bsl_record_init(&r, sizeof r);
        if (!vs_fuzz_must(env, velstatus_bsl_set_get(set, reverse ? n - 1 - k : k, &r, &err), &err,
                          "velstatus_bsl_set_get") ||
            !vs_fuzz_stage(env, velstatus_server_tracker_upsert(t, NULL, &r, &err), "velstatus_server_tracker_upsert"))
            return 0;
    }
    return 1;
}

/* Deletes every name, from a picked one on, and ends empty. */
static void drain(vs_fuzz_env *env, vs_fuzz_in *in, velstatus_server_tracker *t, const velstatus_bsl_set *set)
{
    size_t n = velstatus_bsl_set_count(set), start = n ? vs_fuzz_pick(in, n) : 0, k;
    velstatus_error err;
    for (k = 0; k < n; k++) {
        const char *name = velstatus_bsl_set_name(set, (start + k) % n);
        VS_FUZZ_CHECK(env, velstatus_server_tracker_delete(t, NULL, name, strlen(name), &err) == VELSTATUS_OK);
        if (k == n / 2 && !agree(env, t, NULL, NULL))
            return;
    }
    VS_FUZZ_CHECK(env, velstatus_server_tracker_count(t) == 0 &&
                           (velstatus_server_tracker_reasons(t) & VELSTATUS_SERVER_REASON_NO_BSL));
}

void vs_track_bsls(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_bsl_set *set,
                   const velstatus_server_status_options *o)
{
    velstatus_server_tracker *t = NULL;
    const velstatus_bsl_set *same = distinct_names(set, velstatus_bsl_set_count(set)) ? set : NULL;
    velstatus_error err;
    size_t count, pass;
    if (!vs_fuzz_stage(env, velstatus_server_tracker_new(&t, env->ctx, o, &err), "velstatus_server_tracker_new"))
        return;
    if (!feed(env, t, set, 0) || !agree(env, t, same, o))
        goto done;
    count = velstatus_server_tracker_count(t);
    VS_FUZZ_CHECK(env, count <= velstatus_bsl_set_count(set) && (!same || count == velstatus_bsl_set_count(set)));
    for (pass = 0; pass < 3; pass++) { /* relists: in the same order, in the other, in the first again */
        if (!feed(env, t, set, pass == 1) || !agree(env, t, same, o))
            goto done;
        VS_FUZZ_CHECK(env, velstatus_server_tracker_count(t) == count);
    }
    VS_FUZZ_CHECK(env,
                  velstatus_server_tracker_set_now(t, NULL, o->now_ns + (o->now_ns < INT64_MAX), &err) == VELSTATUS_OK);
    if (!agree(env, t, NULL, NULL))
        goto done;
    drain(env, in, t, set);
done:
    velstatus_server_tracker_free(t);
}
