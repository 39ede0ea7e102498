/* SPDX-License-Identifier: Apache-2.0 */
/* The forecast over a DataUpload list and a VolumeSnapshot list (issue 26):
 * placing passes only at the instants the library names
 * (velstatus_forecast_dm_instants() for the objects, each running record's
 * timeout for the operations controller) gives the same states, at the same
 * instants, as stepping the real reconcile (velstatus_oplist_reconcile()
 * with the data mover's client chained to the VolumeSnapshot plugin's) and
 * the real node-agent decision (velstatus_dm_next()) at every second.
 * Random objects and instants, deterministic seeds. */
#include "failalloc.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS INT64_C(1000000000)
#define T0 (INT64_C(1735718400) * NS) /* 2025-01-01T08:00:00Z */
#define MAX_DU 3
#define MAX_SNAP 2
#define MAX_OPS (MAX_DU + MAX_SNAP)
#define HORIZON (3 * 3600 * NS)

static uint64_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 7, rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

typedef struct du {
    char phase[16], message[VELSTATUS_DM_MESSAGE_MAX];
    int cancel, has_node;
    int64_t accepted;
} du;

/* A world: n data-mover operations (records 0..n-1) and their DataUploads,
 * then m VolumeSnapshot plugin operations (records n..n+m-1) and their
 * VolumeSnapshots and contents, which nothing changes. snap_only: no
 * DataUpload list at all (the forecast and the passes get none; 1.11 has
 * no data mover). */
typedef struct world {
    velstatus_ctx *ctx;
    int minor, snap_only;
    size_t n, m;
    du d[MAX_DU];
    int64_t created[MAX_OPS], timeout;
    velstatus_oplist *ops;
    velstatus_dm_list *dms;
    velstatus_snapshot_list *snaps;
    velstatus_policy pol;
    velstatus_phase phase;
    long long completed, failed;
} world;

static void put_time(FILE *f, const char *key, int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    ck_assert_int_eq(velstatus_time_format(t, sizeof t, ns, 0, NULL), VELSTATUS_OK);
    fprintf(f, "\"%s\":\"%s\"", key, t);
}

/* The objects as a List, written as every release writes the accept. */
static void rebuild(world *w)
{
    char *buf = NULL;
    size_t len = 0, i;
    velstatus_error e;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"kind\":\"List\",\"items\":[");
    for (i = 0; i < w->n; i++) {
        const du *d = &w->d[i];
        char t[VELSTATUS_TIME_BUFSIZE];
        ck_assert_int_eq(velstatus_time_format(t, sizeof t, d->accepted, 0, NULL), VELSTATUS_OK);
        fprintf(f,
                "%s{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b-%zu\",\"namespace\":\"velero\","
                "\"labels\":{\"velero.io/async-operation-id\":\"du-%zu\",\"velero.io/accepted-by\":\"node-1\"},"
                "\"annotations\":{\"velero.io/accepted-at\":\"%s\"}},\"spec\":{\"cancel\":%s},"
                "\"status\":{\"phase\":\"%s\",\"message\":\"%s\",",
                i ? "," : "", i, i, t, d->cancel ? "true" : "false", d->phase, d->message);
        if (d->has_node)
            fprintf(f, "\"node\":\"node-1\",");
        put_time(f, "acceptedTimestamp", d->accepted);
        fputc(',', f);
        put_time(f, "startTimestamp", d->accepted);
        fprintf(f, "}}");
    }
    fprintf(f, "]}");
    ck_assert_int_eq(fclose(f), 0);
    velstatus_dm_list_free(w->dms);
    w->dms = NULL;
    ck_assert_msg(velstatus_dm_list_from_json(&w->dms, w->ctx, buf, len, &e) == VELSTATUS_OK, "%s", e.message);
    free(buf);
}

/* One VolumeSnapshot plugin operation j (record n+j) and, into vs, its
 * VolumeSnapshot and bound content in one of the states the plugin tells
 * apart (snapshot.h): absent, no status, ready or not, an error on either,
 * no bound content; now and then an ID whose time Go refuses. The error
 * text is the CSI snapshotter's, as velero #7068 quotes a content's
 * status.error. */
static void snapshot_op(world *w, size_t j, FILE *ops, FILE *vs)
{
    /* the VolumeSnapshot's status: none, empty, then (bound to its content
     * for 2 to 4) not ready, ready, not ready with an error; 5: ready, not bound */
    static const char *const vs_status[] = {
        NULL,
        "{}",
        "{\"readyToUse\":false",
        "{\"readyToUse\":true",
        "{\"readyToUse\":false,\"error\":{\"message\":\"Failed to check and update snapshot content\"}",
        "{\"readyToUse\":true}"};
    /* the content's: none (absent), empty, ready, an error, not ready; 5: present without status */
    static const char *const vsc_status[] = {
        NULL, "{}", "{\"readyToUse\":true,\"snapshotHandle\":\"snap-0a1\"}",
        "{\"readyToUse\":false,\"error\":{\"message\":\"Failed to check and update snapshot content: failed to take "
        "snapshot of the volume vol-1: \\\"rpc error: code = Internal desc = "
        "SnapshotCreationPerVolumeRateExceeded\\\"\"}}",
        "{\"readyToUse\":false}"};
    char t[VELSTATUS_TIME_BUFSIZE];
    size_t a = rnd(7), b = rnd(6);
    w->created[w->n + j] = T0 - (int64_t)rnd(40 * 60) * NS;
    ck_assert_int_eq(velstatus_time_format(t, sizeof t, w->created[w->n + j], 0, NULL), VELSTATUS_OK);
    fprintf(ops,
            "%s{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-volumesnapshot-backupper\","
            "\"operationID\":\"app/snap-%zu/%s\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"%s\"}}",
            w->n + j ? "," : "", j, rnd(10) == 0 ? "invalid" : t, t);
    if (a < 6) { /* a == 6: no VolumeSnapshot (the API's NotFound) */
        fprintf(vs,
                "{\"apiVersion\":\"snapshot.storage.k8s.io/v1\",\"kind\":\"VolumeSnapshot\","
                "\"metadata\":{\"name\":\"snap-%zu\",\"namespace\":\"app\"}",
                j);
        if (a >= 2 && a <= 4)
            fprintf(vs, ",\"status\":%s,\"boundVolumeSnapshotContentName\":\"snapcontent-%zu\"}", vs_status[a], j);
        else if (vs_status[a])
            fprintf(vs, ",\"status\":%s", vs_status[a]);
        fprintf(vs, "}\n");
    }
    if (b == 0)
        return;
    fprintf(vs,
            "{\"apiVersion\":\"snapshot.storage.k8s.io/v1\",\"kind\":\"VolumeSnapshotContent\","
            "\"metadata\":{\"name\":\"snapcontent-%zu\"}",
            j);
    if (b < 5)
        fprintf(vs, ",\"status\":%s", vsc_status[b]);
    fprintf(vs, "}\n");
}

static void make_world(world *w, uint64_t seed)
{
    static const char *const phases[] = {"Accepted", "Prepared", "InProgress", "Canceling", "Completed", "Failed"};
    static const int64_t timeouts[] = {10 * 60, 30 * 60, 3600, 4 * 3600};
    char *buf = NULL, *vbuf = NULL;
    size_t len = 0, vlen = 0, i;
    velstatus_error e;
    FILE *f, *vf;
    memset(w, 0, sizeof *w);
    rnd_state = seed * 2654435761u + 88172645463325252u;
    w->ctx = vs_test_ctx();
    w->minor = 12 + (int)rnd(7);
    w->m = rnd(MAX_SNAP + 1);
    w->snap_only = w->m > 0 && rnd(4) == 0;
    if (w->snap_only && rnd(2) == 0)
        w->minor = 11; /* a v1 action: Velero answers its Progress itself */
    w->n = w->snap_only ? 0 : 1 + rnd(MAX_DU);
    w->timeout = timeouts[rnd(4)] * NS;
    ck_assert_int_eq(velstatus_policy_init_release(&w->pol, sizeof w->pol, 1, w->minor, &e), VELSTATUS_OK);
    f = open_memstream(&buf, &len);
    fprintf(f, "[");
    for (i = 0; i < w->n; i++) {
        char t[VELSTATUS_TIME_BUFSIZE];
        du *d = &w->d[i];
        snprintf(d->phase, sizeof d->phase, "%s", phases[rnd(6)]);
        d->cancel = rnd(4) == 0;
        d->has_node = strcmp(d->phase, "Accepted") != 0;
        d->accepted = T0 - (int64_t)rnd(40 * 60) * NS;
        w->created[i] = d->accepted - (int64_t)rnd(60) * NS;
        ck_assert_int_eq(velstatus_time_format(t, sizeof t, w->created[i], 0, NULL), VELSTATUS_OK);
        fprintf(f,
                "%s{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
                "\"operationID\":\"du-%zu\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"%s\"}}",
                i ? "," : "", i, t);
    }
    vf = open_memstream(&vbuf, &vlen);
    ck_assert_ptr_nonnull(vf);
    fprintf(vf, "[]\n"); /* a stream: an empty array, then the objects */
    for (i = 0; i < w->m; i++)
        snapshot_op(w, i, f, vf);
    fprintf(f, "]");
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(fclose(vf), 0);
    ck_assert_int_eq(velstatus_oplist_from_json(&w->ops, w->ctx, VELSTATUS_KIND_BACKUP, buf, len, &e), VELSTATUS_OK);
    ck_assert_msg(velstatus_snapshot_list_from_json(&w->snaps, w->ctx, vbuf, vlen, &e) == VELSTATUS_OK, "%s\n%s",
                  e.message, vbuf);
    free(buf);
    free(vbuf);
    w->phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    rebuild(w);
}

static void free_world(world *w)
{
    velstatus_snapshot_list_free(w->snaps);
    velstatus_dm_list_free(w->dms);
    velstatus_oplist_free(w->ops);
    velstatus_ctx_free(w->ctx);
}

/* The node-agent's decisions due at t, applied as the controller writes
 * them (phase, message, spec.cancel); 1 if an object changed. */
static int node_agent(world *w, int64_t t)
{
    int changed = 0;
    for (int round = 0; round < 8; round++) {
        int any = 0;
        for (size_t i = 0; i < w->n; i++) {
            velstatus_dm_decision d;
            velstatus_error e;
            du *o = &w->d[i];
            velstatus_dm_decision_init(&d, sizeof d, NULL);
            ck_assert_msg(velstatus_dm_next(w->dms, i, t, 1, w->minor, NULL, &d, &e) == VELSTATUS_OK, "%s", e.message);
            if (d.when != VELSTATUS_DM_WHEN_NOW)
                continue;
            if (strcmp(o->phase, velstatus_dm_phase_to_string(d.phase_after)) == 0 && o->cancel == d.cancel_after &&
                (!d.message_set || strcmp(o->message, d.message) == 0))
                continue;
            snprintf(o->phase, sizeof o->phase, "%s", velstatus_dm_phase_to_string(d.phase_after));
            o->cancel = d.cancel_after;
            if (d.message_set)
                snprintf(o->message, sizeof o->message, "%s", d.message);
            any = 1;
        }
        if (!any)
            break;
        changed = 1;
        rebuild(w);
    }
    return changed;
}

/* One pass of the operations controller at t with the data mover's client
 * (none in a snapshot-only world) chained to the VolumeSnapshot plugin's,
 * then the host's patch of spec.cancel for each operation it canceled. */
static void pass(world *w, int64_t t)
{
    velstatus_dm_client *dc = NULL;
    velstatus_snapshot_client_config sc;
    velstatus_plugin_client c, snap;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_error e;
    int patched = 0;
    velstatus_snapshot_client_config_init(&sc, sizeof sc);
    sc.snapshots = w->snaps, sc.major = 1, sc.minor = w->minor, sc.now_ns = t;
    ck_assert_int_eq(velstatus_snapshot_client_init(&snap, sizeof snap, &sc, &e), VELSTATUS_OK);
    c = snap;
    if (!w->snap_only) {
        ck_assert_int_eq(velstatus_dm_client_new(&dc, w->ctx, w->dms, NULL, 0, 1, w->minor, &snap, &e), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_dm_client_init(&c, sizeof c, dc, &e), VELSTATUS_OK);
    }
    velstatus_reconcile_options_init(&o, sizeof o);
    o.phase = w->phase, o.now_ns = t, o.timeout_ns = w->timeout;
    o.completed_before = w->completed, o.failed_before = w->failed;
    ck_assert_msg(velstatus_oplist_reconcile(&r, w->ops, &c, &o, &w->pol, &e) == VELSTATUS_OK, "%s", e.message);
    w->phase = velstatus_reconcile_result_phase(r);
    w->completed = (long long)velstatus_reconcile_result_completed(r);
    w->failed = (long long)velstatus_reconcile_result_failed(r);
    for (size_t k = 0; k < velstatus_reconcile_result_canceled_count(r); k++) {
        size_t il, idx = SIZE_MAX, tl;
        char *text = NULL;
        const char *id = velstatus_reconcile_result_canceled_id(r, k, &il);
        if (velstatus_reconcile_result_canceled_index(r, k) >= w->n)
            continue; /* the snapshot plugin's Cancel: nothing to patch */
        ck_assert_msg(velstatus_dm_cancel(&idx, &text, &tl, w->ctx, w->dms, VELSTATUS_DM_UPLOAD, id, il, NULL, 0, 1,
                                          w->minor, &e) == VELSTATUS_OK,
                      "%s", e.message);
        if (idx != SIZE_MAX && !w->d[idx].cancel)
            w->d[idx].cancel = 1, patched = 1;
        velstatus_free(w->ctx, text);
    }
    velstatus_reconcile_result_free(r);
    velstatus_dm_client_free(dc);
    if (patched)
        rebuild(w);
}

static int waiting(const world *w)
{
    return w->phase == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ||
           w->phase == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
}

/* The state a pass leaves: the backup's phase and counts, each record,
 * and the object of each running data-mover record. Once its record is
 * settled an object's changes reach no pass (the reconcile asks only the
 * running records), and velstatus_forecast_dm_instants() names only the
 * running records' instants: a world with a snapshot operation still
 * running keeps the backup waiting while such an object moves on. */
static void state(const world *w, char *out, size_t cap)
{
    size_t at =
        (size_t)snprintf(out, cap, "%s %lld/%lld", velstatus_phase_to_string(w->phase), w->completed, w->failed);
    for (size_t i = 0; i < w->n && at < cap; i++) {
        const velstatus_op *op = velstatus_oplist_at(w->ops, i);
        velstatus_op_phase ph = velstatus_op_phase_value(op);
        size_t el;
        const char *err = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &el);
        if (ph == VELSTATUS_OP_PHASE_NEW || ph == VELSTATUS_OP_PHASE_IN_PROGRESS)
            at += (size_t)snprintf(out + at, cap - at, " | %s %.*s ; %s %d %s", velstatus_op_phase_to_string(ph),
                                   (int)el, err ? err : "", w->d[i].phase, w->d[i].cancel, w->d[i].message);
        else
            at += (size_t)snprintf(out + at, cap - at, " | %s %.*s ; settled", velstatus_op_phase_to_string(ph),
                                   (int)el, err ? err : "");
    }
    for (size_t i = w->n; i < w->n + w->m && at < cap; i++) {
        const velstatus_op *op = velstatus_oplist_at(w->ops, i);
        size_t el;
        const char *err = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &el);
        at += (size_t)snprintf(out + at, cap - at, " | %s %.*s ; snapshot",
                               velstatus_op_phase_to_string(velstatus_op_phase_value(op)), (int)el, err ? err : "");
    }
}

static void step(world *w, int64_t t)
{
    node_agent(w, t);
    pass(w, t);
    node_agent(w, t); /* a cancel patched by the pass is seen at once */
}

typedef struct change {
    int64_t at;
    char state[2048];
} change;

/* Steps at every second from T0; the changes and their instants. */
static size_t by_second(uint64_t seed, change *out, size_t cap)
{
    world w;
    size_t n = 0;
    char last[2048] = "";
    make_world(&w, seed);
    for (int64_t t = T0; t <= T0 + HORIZON && waiting(&w); t += NS) {
        char s[2048];
        step(&w, t);
        state(&w, s, sizeof s);
        if (strcmp(s, last) != 0 && n < cap) {
            out[n].at = t;
            snprintf(out[n].state, sizeof out[n].state, "%s", s);
            snprintf(last, sizeof last, "%s", s);
            n++;
        }
    }
    free_world(&w);
    return n;
}

static int64_t ceil_second(int64_t t)
{
    return (t - T0 + NS - 1) / NS * NS + T0;
}

/* The next instant after t the library names: an object's (the forecast's
 * data-mover instants) or a running record's timeout (created + timeout,
 * passed strictly). *tie: another instant named falls in the same second
 * (stepping every second then sees both at once, in another order). */
static int next_instant(const world *w, int64_t t, int64_t *next, int *tie)
{
    int64_t at[16 * MAX_DU + MAX_OPS];
    size_t n = 0;
    velstatus_error e;
    int found = 0;
    if (!w->snap_only) /* the snapshot objects change on no instant of their own */
        ck_assert_msg(velstatus_forecast_dm_instants(w->ops, w->dms, NULL, 0, t, 1, w->minor, NULL, at, 16 * MAX_DU, &n,
                                                     &e) == VELSTATUS_OK,
                      "%s", e.message);
    for (size_t i = 0; i < w->n + w->m; i++) {
        velstatus_op_phase ph = velstatus_op_phase_value(velstatus_oplist_at(w->ops, i));
        if (ph == VELSTATUS_OP_PHASE_IN_PROGRESS || ph == VELSTATUS_OP_PHASE_NEW)
            at[n++] = w->created[i] + w->timeout + 1;
    }
    for (size_t i = 0; i < n; i++)
        if (at[i] > t && (!found || at[i] < *next))
            *next = at[i], found = 1;
    for (size_t i = 0; found && i < n; i++)
        *tie |= at[i] > t && at[i] != *next && ceil_second(at[i]) == ceil_second(*next);
    return found;
}

/* Steps only at the instants named; the changes and their instants. */
static size_t by_instants(uint64_t seed, change *out, size_t cap, int *tie)
{
    world w;
    size_t n = 0;
    char last[2048] = "";
    int64_t t = T0;
    make_world(&w, seed);
    for (;;) {
        char s[2048];
        step(&w, t);
        state(&w, s, sizeof s);
        if (strcmp(s, last) != 0 && n < cap) {
            out[n].at = t;
            snprintf(out[n].state, sizeof out[n].state, "%s", s);
            snprintf(last, sizeof last, "%s", s);
            n++;
        }
        if (!waiting(&w) || !next_instant(&w, t, &t, tie) || t > T0 + HORIZON)
            break;
    }
    free_world(&w);
    return n;
}


/* What the forecast tells and stepping shows: the backup's phase changes
 * and each record's failure, each with its instant (at a whole second). */
typedef struct mark {
    int64_t at;
    char what[64];
} mark;

static void add_mark(mark *m, size_t *n, size_t cap, int64_t at, const char *what)
{
    ck_assert_uint_lt(*n, cap);
    m[*n].at = at;
    snprintf(m[*n].what, sizeof m[*n].what, "%s", what);
    (*n)++;
}

/* The marks as one line, for a failure's message. */
static void marks_text(const mark *m, size_t n, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s at %lld s", i ? ", " : "", m[i].what,
                               (long long)((m[i].at - T0) / NS));
}

/* The marks of the states stepping every second gave. */
static size_t marks_of_states(const change *c, size_t nc, size_t nops, mark *m, size_t cap)
{
    char phase[64] = "WaitingForPluginOperations", what[64];
    int failed[MAX_OPS] = {0};
    size_t n = 0;
    for (size_t k = 0; k < nc; k++) {
        const char *p = c[k].state;
        size_t len = strcspn(p, " ");
        if (strncmp(phase, p, len) != 0 || phase[len] != '\0') {
            snprintf(phase, sizeof phase, "%.*s", (int)len, p);
            add_mark(m, &n, cap, c[k].at, phase);
        }
        for (size_t i = 0; i < nops && (p = strstr(p, " | ")) != NULL; i++) {
            p += 3;
            if (!failed[i] && strncmp(p, "Failed ", 7) == 0) {
                failed[i] = 1;
                snprintf(what, sizeof what, "op %zu fails", i);
                add_mark(m, &n, cap, c[k].at, what);
            }
        }
    }
    return n;
}

/* The forecast's marks up to the horizon, at the whole second stepping
 * sees them; 0 (and no marks) when two of its events fall in one second. */
static size_t marks_of_forecast(const velstatus_forecast *f, size_t nops, mark *m, size_t cap)
{
    velstatus_phase phase = velstatus_forecast_phase(f);
    size_t n = 0;
    int64_t last = INT64_MIN;
    for (size_t k = 0; k < velstatus_forecast_event_count(f); k++) {
        const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, k);
        int64_t at;
        char what[64];
        ck_assert(velstatus_forecast_event_time(f, k, &at));
        if (at > T0 + HORIZON)
            break;
        if (ceil_second(at) == last)
            return 0;
        last = ceil_second(at);
        if (velstatus_reconcile_result_phase(r) != phase) {
            phase = velstatus_reconcile_result_phase(r);
            add_mark(m, &n, cap, last, velstatus_phase_to_string(phase));
        }
        for (size_t i = 0; i < nops; i++)
            if (velstatus_forecast_op_event(f, i) == k) {
                snprintf(what, sizeof what, "op %zu fails", i);
                add_mark(m, &n, cap, last, what);
            }
    }
    return n;
}

/* The marks of velstatus_forecast_new_dm() over the world at T0; without
 * snaps, the forecast is given no snapshot list (velstatus_forecast_new()
 * in a snapshot-only world), as if the caller left it out. *m_out: the
 * world's number of snapshot operations. */
static size_t forecast_marks(uint64_t seed, int snaps, size_t *nops, size_t *m_out, mark *m, size_t cap)
{
    world w;
    velstatus_reconcile_options o;
    velstatus_forecast *f = NULL;
    velstatus_error e;
    velstatus_status st;
    size_t n;
    make_world(&w, seed);
    velstatus_reconcile_options_init(&o, sizeof o);
    o.phase = w.phase, o.now_ns = T0, o.timeout_ns = w.timeout;
    if (snaps || !w.snap_only)
        st = velstatus_forecast_new_dm(&f, w.ops, &o, &w.pol, w.snap_only ? NULL : w.dms, snaps ? w.snaps : NULL, NULL,
                                       0, 1, w.minor, NULL, &e);
    else
        st = velstatus_forecast_new(&f, w.ops, &o, &w.pol, &e);
    ck_assert_msg(st == VELSTATUS_OK, "seed %llu: %s", (unsigned long long)seed, e.message);
    *nops = w.n + w.m;
    *m_out = w.m;
    n = marks_of_forecast(f, *nops, m, cap);
    velstatus_forecast_free(f);
    free_world(&w);
    return n;
}

/* Seed s's marks: stepping every second (a, *na: room for 64) and the
 * forecast, with or without the snapshot list (b, returned: room for 64);
 * *m the world's number of snapshot operations. */
static size_t seed_marks(long s, int snaps, mark *a, size_t *na, mark *b, size_t *m)
{
    change c[32];
    size_t nops, nc = by_second((uint64_t)s, c, 32), nb = forecast_marks((uint64_t)s, snaps, &nops, m, b, 64);
    *na = marks_of_states(c, nc, nops, a, 64);
    return nb;
}

/* The forecast over the same world (velstatus_forecast_new_dm(), which
 * steps the objects itself) says what stepping every second shows: the
 * backup's phase changes and each record's failure, at the same second. */
START_TEST(test_forecast_equals_every_second)
{
    long trials = vs_test_iterations(60), compared = 0, failures = 0;
    /* past the trials (few under valgrind) until a failing record was compared */
    for (long s = 0; s < trials || (failures == 0 && s < 60); s++) {
        mark a[64], b[64];
        size_t m, na, nb = seed_marks(s, 1, a, &na, b, &m);
        if (nb == 0 && na > 0)
            continue; /* two events within one second: stepping every second merges them */
        if (na != nb) {
            char sa[1024], sb[1024];
            marks_text(a, na, sa, sizeof sa), marks_text(b, nb, sb, sizeof sb);
            ck_abort_msg("seed %ld: %zu marks stepping every second, %zu forecast\n  every second: %s\n  forecast: %s",
                         s, na, nb, sa, sb);
        }
        for (size_t i = 0; i < na; i++) {
            ck_assert_msg(a[i].at == b[i].at && strcmp(a[i].what, b[i].what) == 0,
                          "seed %ld mark %zu: every second %s at %lld s, forecast %s at %lld s", s, i, a[i].what,
                          (long long)((a[i].at - T0) / NS), b[i].what, (long long)((b[i].at - T0) / NS));
            failures += strstr(a[i].what, "fails") != NULL;
        }
        compared++;
    }
    ck_assert_msg(compared >= trials / 2, "only %ld of %ld trials compared", compared, trials);
    ck_assert_msg(failures > 0, "no trial has a record failing: the comparison saw no failure");
}
END_TEST

/* The snapshot list is needed: given only the DataUploads (or nothing, in a
 * snapshot-only world), the forecast keeps the snapshot operations on their
 * records, and in some worlds with snapshot operations its marks are not
 * those of stepping every second; with the list they always are (above). */
START_TEST(test_forecast_without_snapshots_differs)
{
    long trials = vs_test_iterations(60), with_snap = 0, differ = 0;
    for (long s = 0; s < trials || (differ == 0 && s < 60); s++) { /* as above: until one differs */
        mark a[64], b[64];
        size_t m, na, nb = seed_marks(s, 0, a, &na, b, &m);
        if (m == 0)
            continue;
        with_snap++;
        if (na != nb) {
            differ++;
            continue;
        }
        for (size_t i = 0; i < na; i++)
            if (a[i].at != b[i].at || strcmp(a[i].what, b[i].what) != 0) {
                differ++;
                break;
            }
    }
    ck_assert_msg(with_snap > 0, "no world has a snapshot operation");
    ck_assert_msg(differ > 0, "%ld worlds with snapshot operations, none told apart without the snapshot list",
                  with_snap);
}
END_TEST

START_TEST(test_instants_equal_every_second)
{
    long trials = vs_test_iterations(60), compared = 0, skipped = 0;
    for (long s = 0; s < trials; s++) {
        change a[32], b[32];
        int collide = 0;
        size_t na = by_second((uint64_t)s, a, 32), nb = by_instants((uint64_t)s, b, 32, &collide), i;
        for (i = 1; i < nb; i++)
            collide |= ceil_second(b[i].at) == ceil_second(b[i - 1].at);
        if (collide) { /* two changes within one second: the one-second steps merge them */
            skipped++;
            continue;
        }
        if (na != nb) {
            for (i = 0; i < na; i++)
                fprintf(stderr, "every second %lld s: %s\n", (long long)((a[i].at - T0) / NS), a[i].state);
            for (i = 0; i < nb; i++)
                fprintf(stderr, "instants %lld s: %s\n", (long long)((b[i].at - T0) / NS), b[i].state);
        }
        ck_assert_msg(na == nb, "seed %ld: %zu changes stepping every second, %zu at the instants named", s, na, nb);
        for (i = 0; i < na; i++) {
            ck_assert_msg(strcmp(a[i].state, b[i].state) == 0,
                          "seed %ld change %zu:\n  every second: %s\n  instants: %s", s, i, a[i].state, b[i].state);
            ck_assert_msg(a[i].at == ceil_second(b[i].at), "seed %ld change %zu: at %lld s, named %lld ns", s, i,
                          (long long)((a[i].at - T0) / NS), (long long)(b[i].at - T0));
        }
        compared++;
    }
    ck_assert_msg(compared >= trials / 2, "only %ld of %ld trials compared (%ld skipped)", compared, trials, skipped);
}
END_TEST

/* ---- one case by hand: doc/explain.md's read-only storage (tests/data/explain/readonly-*) ---- */

/* The CSI PVC operation, New, and its DataUpload, Accepted at 08:05:21 on
 * no node; ro_new_du: the same DataUpload before a node-agent took it. */
static const char ro_ops[] =
    "[{\"spec\":{\"backupName\":\"longhorn-backup-datamover\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"operationID\":\"du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx\"},\"status\":{\"phase\":\"New\","
    "\"description\":\"Accepted\",\"created\":\"2025-01-07T08:05:21Z\"}}]";
static const char ro_du[] =
    "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"longhorn-backup-datamover-lthkx\",\"namespace\":\"velero\","
    "\"labels\":{\"velero.io/async-operation-id\":\"du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx\"}},"
    "\"status\":{\"phase\":\"Accepted\",\"acceptedTimestamp\":\"2025-01-07T08:05:21Z\","
    "\"startTimestamp\":\"2025-01-07T08:05:21Z\"}}";
static const char ro_new_du[] =
    "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"longhorn-backup-datamover-lthkx\",\"namespace\":\"velero\","
    "\"labels\":{\"velero.io/async-operation-id\":\"du-d6edd1a9-af36-46e9-ad42-c0dc7291b5ed.lthkx\"}},"
    "\"status\":{\"phase\":\"\"}}";

static int64_t ro_time(const char *hms)
{
    char buf[32];
    int64_t ns;
    snprintf(buf, sizeof buf, "2025-01-07T%sZ", hms);
    ck_assert_int_eq(velstatus_time_parse(&ns, buf, strlen(buf), NULL), VELSTATUS_OK);
    return ns;
}

/* The case's inputs: its operation, du_json, a pass at 08:10:00 with the 4h timeout. */
static void ro_inputs(velstatus_ctx *ctx, const char *du_json, velstatus_oplist **ops, velstatus_dm_list **dms,
                      velstatus_reconcile_options *o)
{
    ck_assert_int_eq(velstatus_oplist_from_json(ops, ctx, VELSTATUS_KIND_BACKUP, ro_ops, strlen(ro_ops), NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_list_from_json(dms, ctx, du_json, strlen(du_json), NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(o, sizeof *o);
    o->phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS, o->now_ns = ro_time("08:10:00");
    o->timeout_ns = 4 * 3600 * NS;
}

static velstatus_status ro_forecast(velstatus_ctx *ctx, const char *du_json, int minor, velstatus_forecast **f,
                                    velstatus_error *e)
{
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_reconcile_options o;
    velstatus_policy pol;
    velstatus_status st;
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof pol, 1, minor < 12 ? 12 : minor, NULL), VELSTATUS_OK);
    ro_inputs(ctx, du_json, &ops, &dms, &o);
    st = velstatus_forecast_new_dm(f, ops, &o, &pol, dms, NULL, NULL, 0, 1, minor, NULL, e);
    velstatus_dm_list_free(dms);
    velstatus_oplist_free(ops);
    return st;
}

/* The forecast of the operation over du at release 1.minor: the event that
 * fails the operation (its instant, the operation's fate) and where the
 * forecast ends. */
static void check_fails(const char *du_json, int minor, velstatus_forecast_fate fate, const char *hms,
                        velstatus_phase final)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_error e;
    size_t k;
    int64_t at;
    ck_assert_msg(ro_forecast(ctx, du_json, minor, &f, &e) == VELSTATUS_OK, "%s", e.message);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), fate);
    k = velstatus_forecast_op_event(f, 0);
    ck_assert_uint_eq(k, velstatus_forecast_event_count(f) - 1);
    ck_assert(velstatus_forecast_event_time(f, k, &at));
    ck_assert_int_eq(at, ro_time(hms));
    ck_assert_uint_eq(velstatus_reconcile_result_failed(velstatus_forecast_event_result(f, k)), 1);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_FINAL);
    ck_assert_int_eq(velstatus_forecast_final_phase(f), final);
    velstatus_forecast_free(f);
    velstatus_ctx_free(ctx);
}

/* From 1.16 the prepare timeout counts from status.acceptedTimestamp: it
 * fails the DataUpload at 08:35:21, and that pass fails the operation with
 * the node-agent's message, hours before the operation's own 4h timeout.
 * 1.15 reads the velero.io/accepted-at annotation, which this object lacks:
 * no prepare timeout, the operation times out at 12:05:21 (+1 ns). 1.13
 * reads status.startTimestamp. */
START_TEST(test_prepare_timeout_fails_the_operation)
{
    const velstatus_phase fpf = VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    check_fails(ro_du, 18, VELSTATUS_FORECAST_FATE_ERROR_FAILS, "08:35:21", fpf);
    check_fails(ro_du, 16, VELSTATUS_FORECAST_FATE_ERROR_FAILS, "08:35:21", fpf);
    check_fails(ro_du, 13, VELSTATUS_FORECAST_FATE_ERROR_FAILS, "08:35:21", fpf);
    check_fails(ro_du, 15, VELSTATUS_FORECAST_FATE_TIMES_OUT, "12:05:21.000000001", fpf);
}
END_TEST

/* A New DataUpload: a node-agent accepts it at the first pass (08:10:00),
 * writing the accept instant where each release reads it (startTimestamp,
 * the accepted-at annotation, acceptedTimestamp), so the prepare timeout
 * fails it 30 minutes later in every release. */
START_TEST(test_accept_then_prepare_timeout)
{
    const velstatus_phase fpf = VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    for (int minor = 12; minor <= 18; minor++)
        check_fails(ro_new_du, minor, VELSTATUS_FORECAST_FATE_ERROR_FAILS, "08:40:00", fpf);
}
END_TEST

START_TEST(test_forecast_new_dm_refuses)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_reconcile_options o;
    velstatus_error e;
    ck_assert_int_eq(ro_forecast(ctx, ro_du, 11, &f, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(f);
    ck_assert_ptr_nonnull(strstr(e.message, "1.11 has no data mover"));
    ck_assert_int_eq(velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, ro_ops, strlen(ro_ops), NULL),
                     VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof o);
    o.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, ops, &o, NULL, NULL, NULL, NULL, 0, 1, 18, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_new_dm: dms and snapshots are both NULL (give at least one; "
                                "velstatus_forecast_new() forecasts without objects)");
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Two New operations whose DataUploads time out out of order (08:35:21,
 * then 08:30:00), a running operation without an ID and one whose
 * DataUpload is missing. */
static const char two_ops[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-a\"},"
    "\"status\":{\"phase\":\"New\",\"created\":\"2025-01-07T08:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-b\"},"
    "\"status\":{\"phase\":\"New\",\"created\":\"2025-01-07T08:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\"},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2025-01-07T08:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-z\"},"
    "\"status\":{\"phase\":\"New\",\"created\":\"2025-01-07T08:00:00Z\"}}]";
static const char two_dus[] = "{\"kind\":\"DataUploadList\",\"items\":["
                              "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\",\"namespace\":\"velero\","
                              "\"labels\":{\"velero.io/async-operation-id\":\"du-a\"}},"
                              "\"status\":{\"phase\":\"Accepted\",\"acceptedTimestamp\":\"2025-01-07T08:05:21Z\"}},"
                              "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\",\"namespace\":\"velero\","
                              "\"labels\":{\"velero.io/async-operation-id\":\"du-b\"}},"
                              "\"status\":{\"phase\":\"Accepted\",\"acceptedTimestamp\":\"2025-01-07T08:00:00Z\"}}]}";

static void instants_inputs(velstatus_ctx *ctx, velstatus_kind kind, velstatus_oplist **ops, velstatus_dm_list **dms)
{
    ck_assert_int_eq(velstatus_oplist_from_json(ops, ctx, kind, two_ops, strlen(two_ops), NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_list_from_json(dms, ctx, two_dus, strlen(two_dus), NULL), VELSTATUS_OK);
}

/* The instants come sorted whatever the operations' order; the operation
 * without an ID and the one without an object add none; a Restore's
 * operations read DataDownloads, so these DataUploads add none. */
START_TEST(test_instants_sorted_and_skipped)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_error e;
    int64_t at[4] = {0};
    size_t n = 9;
    instants_inputs(ctx, VELSTATUS_KIND_BACKUP, &ops, &dms);
    ck_assert_msg(velstatus_forecast_dm_instants(ops, dms, NULL, 0, ro_time("08:10:00"), 1, 18, NULL, at, 4, &n, &e) ==
                      VELSTATUS_OK,
                  "%s", e.message);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(at[0], ro_time("08:30:00"));
    ck_assert_int_eq(at[1], ro_time("08:35:21"));
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(dms);
    instants_inputs(ctx, VELSTATUS_KIND_RESTORE, &ops, &dms);
    n = 9;
    ck_assert_int_eq(
        velstatus_forecast_dm_instants(ops, dms, NULL, 0, ro_time("08:10:00"), 1, 18, NULL, NULL, 0, &n, &e),
        VELSTATUS_OK);
    ck_assert_uint_eq(n, 0);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(dms);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Each NULL argument is named; a NULL namespace with a length, a config the
 * node-agent refuses, no room: refused. */
START_TEST(test_instants_refuses)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_dm_config c;
    velstatus_error e;
    int64_t at[4], now = ro_time("08:10:00");
    size_t n = 0;
    instants_inputs(ctx, VELSTATUS_KIND_BACKUP, &ops, &dms);
    ck_assert_int_eq(velstatus_forecast_dm_instants(NULL, dms, NULL, 0, now, 1, 18, NULL, at, 4, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_dm_instants: ops is NULL");
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, NULL, NULL, 0, now, 1, 18, NULL, at, 4, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_dm_instants: dms is NULL");
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 18, NULL, at, 4, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_dm_instants: n is NULL");
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 18, NULL, NULL, 4, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_dm_instants: instants is NULL");
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 3, now, 1, 18, NULL, at, 4, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velero_namespace is NULL with length 3");
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 18, NULL, NULL, 0, &n, &e),
                     VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(e.message, "more than 0 instants"));
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.prepare_timeout_ns = -1;
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 18, &c, at, 4, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "config prepare_timeout_ns is negative (-1)");
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(dms);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The forecast's own refusals: a NULL list, a NULL namespace with a
 * length, a config too small or refused by the node-agent. */
START_TEST(test_forecast_new_dm_refuses_inputs)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_reconcile_options o;
    velstatus_dm_config c;
    velstatus_error e;
    ro_inputs(ctx, ro_du, &ops, &dms, &o);
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, NULL, &o, NULL, dms, NULL, NULL, 0, 1, 18, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velstatus_forecast_new_dm: list is NULL");
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, NULL, 2, 1, 18, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "velero_namespace is NULL with length 2");
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.struct_size = 4;
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, NULL, 0, 1, 18, &c, &e), VELSTATUS_E_ABI);
    ck_assert_ptr_nonnull(strstr(e.message, "dm config.struct_size is 4"));
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.prepare_timeout_ns = -1;
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, NULL, 0, 1, 18, &c, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(e.message, "config prepare_timeout_ns is negative (-1)");
    ck_assert_ptr_null(f);
    velstatus_dm_list_free(dms);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
}
END_TEST

/* No DataUpload at all: the plugin's Progress returns an error at the
 * first pass (08:10:00), which fails the operation. */
START_TEST(test_forecast_without_objects)
{
    static const char empty[] = "{\"kind\":\"DataUploadList\",\"items\":[]}";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_error e;
    int64_t at;
    ck_assert_msg(ro_forecast(ctx, empty, 18, &f, &e) == VELSTATUS_OK, "%s", e.message);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_ERROR_FAILS);
    ck_assert(velstatus_forecast_event_time(f, velstatus_forecast_op_event(f, 0), &at));
    ck_assert_int_eq(at, ro_time("08:10:00"));
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_FINAL);
    velstatus_forecast_free(f);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A node-agent restart at 08:20 on node-1 (1.16) cancels the Accepted
 * DataUpload then, whether or not the caller says when the controller saw a
 * cancel: the operation fails at that pass or later, never at the 4h timeout. */
START_TEST(test_forecast_node_restart_cancels)
{
    for (int seen = 0; seen <= 1; seen++) {
        velstatus_ctx *ctx = vs_test_ctx();
        velstatus_forecast *f = NULL;
        velstatus_oplist *ops = NULL;
        velstatus_dm_list *dms = NULL;
        velstatus_reconcile_options o;
        velstatus_dm_config c;
        velstatus_error e;
        size_t k;
        int64_t at;
        ro_inputs(ctx, ro_du, &ops, &dms, &o);
        velstatus_dm_config_init(&c, sizeof c, NULL);
        c.has_node_restart = 1, c.node_restart_ns = ro_time("08:20:00");
        c.restart_node = "node-1", c.restart_node_len = 6;
        c.has_cancel_seen = seen, c.cancel_seen_ns = ro_time("08:20:00");
        ck_assert_msg(velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, "velero", 6, 1, 16, &c, &e) ==
                          VELSTATUS_OK,
                      "%s", e.message);
        k = velstatus_forecast_op_event(f, 0);
        ck_assert(velstatus_forecast_event_time(f, k, &at));
        ck_assert_msg(at >= ro_time("08:20:00") && at < ro_time("12:00:00"), "seen %d: fails at %lld", seen,
                      (long long)at);
        ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_ERROR_FAILS);
        velstatus_forecast_free(f);
        velstatus_dm_list_free(dms);
        velstatus_oplist_free(ops);
        velstatus_ctx_free(ctx);
    }
}
END_TEST

/* Another plugin's operation keeps its record and times out at 12:05:21
 * (+1 ns); the cancel of that pass finds no DataUpload to patch. */
START_TEST(test_forecast_other_plugin_cancel)
{
    static const char other[] =
        "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"example.io/other\",\"operationID\":\"x-1\"},"
        "\"status\":{\"phase\":\"InProgress\",\"created\":\"2025-01-07T08:05:21Z\"}}]";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_oplist *ops = NULL, *ignored = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_reconcile_options o;
    velstatus_error e;
    int64_t at;
    ro_inputs(ctx, ro_du, &ignored, &dms, &o);
    velstatus_oplist_free(ignored);
    ck_assert_int_eq(velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, other, strlen(other), NULL),
                     VELSTATUS_OK);
    ck_assert_msg(velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, NULL, 0, 1, 18, NULL, &e) == VELSTATUS_OK,
                  "%s", e.message);
    ck_assert_int_eq(velstatus_forecast_op_fate(f, 0), VELSTATUS_FORECAST_FATE_TIMES_OUT);
    ck_assert(velstatus_forecast_event_time(f, velstatus_forecast_op_event(f, 0), &at));
    ck_assert_int_eq(at, ro_time("12:05:21.000000001"));
    velstatus_forecast_free(f);
    velstatus_dm_list_free(dms);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every allocation of a data-mover forecast fails in turn: E_NOMEM,
 * nothing leaked. */
START_TEST(test_every_allocation_failure)
{
    velstatus_status st = VELSTATUS_OK;
    int minor = 15; /* the accept writes the annotation: a pool copy, as the failure's message */
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *ops = NULL;
        velstatus_dm_list *dms = NULL;
        velstatus_forecast *f = NULL;
        velstatus_reconcile_options o;
        VS_FAILALLOC_PAUSE(fa);
        ro_inputs(ctx, ro_new_du, &ops, &dms, &o);
        VS_FAILALLOC_RESUME(fa);
        st = velstatus_forecast_new_dm(&f, ops, &o, NULL, dms, NULL, NULL, 0, 1, minor, NULL, NULL);
        VS_FAILALLOC_PAUSE_AGAIN(fa);
        if (st == VELSTATUS_OK)
            ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
        velstatus_forecast_free(f);
        velstatus_dm_list_free(dms);
        velstatus_oplist_free(ops);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* ---- the VolumeSnapshot plugin's operations, by hand, per release ---- */

/* One snapshot operation, cut at 08:05:21, and its VolumeSnapshot bound to
 * snapcontent-1; the pass at 08:10:00 (ro_time) with a 4h timeout. */
static const char snap_ops[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-volumesnapshot-backupper\","
    "\"operationID\":\"app/snap-1/2025-01-07T08:05:21Z\"},\"status\":{\"phase\":\"InProgress\","
    "\"created\":\"2025-01-07T08:05:21Z\"}}]";

typedef struct snap_case {
    const char *name, *vs_status, *vsc_status; /* NULL: no content */
    int minor;
    int completes;        /* at the first pass */
    const char *fails_at; /* hh:mm:ss[.ns], or NULL */
    velstatus_forecast_fate fate;
    const char *error; /* the failing pass's error, a prefix; or NULL */
    const char *ops;   /* the operation; NULL: snap_ops */
} snap_case;

static const char vsc_err[] = "Failed to check and update snapshot content: failed to take snapshot of the volume "
                              "vol-1: \\\"rpc error: code = Internal desc = SnapshotCreationPerVolumeRateExceeded\\\"";

/* The inputs of a snapshot case: its operation, its VolumeSnapshot (status
 * vs_status) and content (vsc_status; NULL: none), the read-only case's
 * DataUpload when give_dms, and the pass at 08:10:00 with a 4h timeout. */
typedef struct snap_in {
    velstatus_oplist *ops;
    velstatus_snapshot_list *snaps;
    velstatus_dm_list *dms;
    velstatus_reconcile_options o;
} snap_in;

static void snap_inputs_ops(velstatus_ctx *ctx, const char *ops, const char *vs_status, const char *vsc_status,
                            int give_dms, snap_in *in)
{
    char vs[1024];
    velstatus_error e;
    int n = snprintf(vs, sizeof vs,
                     "[{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"snap-1\",\"namespace\":\"app\"},"
                     "\"status\":%s}",
                     vs_status);
    if (vsc_status)
        n += snprintf(vs + n, sizeof vs - (size_t)n,
                      ",{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":\"snapcontent-1\"},\"status\":%s}",
                      vsc_status);
    snprintf(vs + n, sizeof vs - (size_t)n, "]");
    memset(in, 0, sizeof *in);
    ck_assert_int_eq(velstatus_oplist_from_json(&in->ops, ctx, VELSTATUS_KIND_BACKUP, ops, strlen(ops), NULL),
                     VELSTATUS_OK);
    ck_assert_msg(velstatus_snapshot_list_from_json(&in->snaps, ctx, vs, strlen(vs), &e) == VELSTATUS_OK, "%s",
                  e.message);
    if (give_dms)
        ck_assert_int_eq(velstatus_dm_list_from_json(&in->dms, ctx, ro_du, strlen(ro_du), NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&in->o, sizeof in->o);
    in->o.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS, in->o.now_ns = ro_time("08:10:00");
    in->o.timeout_ns = 4 * 3600 * NS;
}

static void snap_inputs(velstatus_ctx *ctx, const char *vs_status, const char *vsc_status, int give_dms, snap_in *in)
{
    snap_inputs_ops(ctx, snap_ops, vs_status, vsc_status, give_dms, in);
}

static void snap_free(snap_in *in)
{
    velstatus_dm_list_free(in->dms);
    velstatus_snapshot_list_free(in->snaps);
    velstatus_oplist_free(in->ops);
}

/* The forecast of case c's operation over its objects, with the release's policy. */
static velstatus_status snap_forecast(velstatus_ctx *ctx, const snap_case *c, int give_dms, velstatus_forecast **f,
                                      velstatus_error *e)
{
    snap_in in;
    velstatus_policy pol;
    velstatus_status st;
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof pol, 1, c->minor, NULL), VELSTATUS_OK);
    snap_inputs_ops(ctx, c->ops ? c->ops : snap_ops, c->vs_status, c->vsc_status, give_dms, &in);
    st = velstatus_forecast_new_dm(f, in.ops, &in.o, &pol, in.dms, in.snaps, NULL, 0, 1, c->minor, NULL, e);
    snap_free(&in);
    return st;
}

static void check_snap_case(const snap_case *c, int give_dms)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    velstatus_error e;
    const velstatus_reconcile_result *r;
    int64_t at;
    size_t k, len;
    ck_assert_msg(snap_forecast(ctx, c, give_dms, &f, &e) == VELSTATUS_OK, "%s: %s", c->name, e.message);
    ck_assert_int_eq(velstatus_forecast_end_kind(f), VELSTATUS_FORECAST_END_FINAL);
    if (c->completes) {
        r = velstatus_forecast_event_result(f, 0);
        ck_assert_msg(velstatus_forecast_event_count(f) == 1 && velstatus_reconcile_result_completed(r) == 1,
                      "%s: %zu events", c->name, velstatus_forecast_event_count(f));
        ck_assert(velstatus_forecast_event_time(f, 0, &at));
        ck_assert_int_eq(at, ro_time("08:10:00"));
        ck_assert_msg(velstatus_forecast_final_phase(f) == VELSTATUS_PHASE_FINALIZING, "%s", c->name);
        ck_assert_uint_eq(velstatus_forecast_op_event(f, 0), SIZE_MAX);
    } else {
        k = velstatus_forecast_op_event(f, 0);
        ck_assert_msg(velstatus_forecast_op_fate(f, 0) == c->fate, "%s: fate %d", c->name,
                      velstatus_forecast_op_fate(f, 0));
        ck_assert_msg(velstatus_forecast_event_time(f, k, &at) && at == ro_time(c->fails_at), "%s: fails at %lld",
                      c->name, (long long)at);
        r = velstatus_forecast_event_result(f, k);
        ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1);
        ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
        if (c->error) {
            const char *m = velstatus_reconcile_result_error(r, 0, &len);
            ck_assert_msg(m && strncmp(m, c->error, strlen(c->error)) == 0, "%s: error %s", c->name, m ? m : "(none)");
        }
    }
    velstatus_forecast_free(f);
    velstatus_ctx_free(ctx);
}

/* What each release's plugin answers, and what the reconcile does with it,
 * from the objects alone (doc/data-mover.md): from 1.14 the bound content
 * decides (ready: completed at the next pass; an error: failed at the next
 * pass with its message; a VolumeSnapshot error: not completed, so the
 * operation times out, velero #9674); 1.12 and 1.13 read only the
 * VolumeSnapshot's readyToUse; 1.11's v1 action is answered by Velero
 * itself with a Progress error, which fails the operation at once (no grace
 * period before 1.x's hardened preset). With the DataUpload list given too
 * (give_dms), the chain answers the same. */
START_TEST(test_snapshot_operations_by_release)
{
    char vsc_error_status[512], vs_error_status[256];
    const char *bound_ready = "{\"boundVolumeSnapshotContentName\":\"snapcontent-1\",\"readyToUse\":true}";
    const char *bound_not = "{\"boundVolumeSnapshotContentName\":\"snapcontent-1\",\"readyToUse\":false}";
    const char *timeout = "12:05:21.000000001";
    snprintf(vsc_error_status, sizeof vsc_error_status, "{\"readyToUse\":false,\"error\":{\"message\":\"%s\"}}",
             vsc_err);
    snprintf(vs_error_status, sizeof vs_error_status,
             "{\"boundVolumeSnapshotContentName\":\"snapcontent-1\",\"readyToUse\":false,"
             "\"error\":{\"message\":\"Failed to check and update snapshot content\"}}");
    for (int minor = 11; minor <= 18; minor++) {
        const int content = minor >= 14;
        const snap_case cases[] = {
            {"ready", bound_ready, "{\"readyToUse\":true}", minor, minor >= 12, minor >= 12 ? NULL : "08:10:00",
             VELSTATUS_FORECAST_FATE_ERROR_FAILS, "Plugin does not support asynchronous operations", NULL},
            {"content error", bound_not, vsc_error_status, minor, 0,
             minor == 11 ? "08:10:00"
             : content   ? "08:10:00"
                         : timeout,
             content || minor == 11 ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : VELSTATUS_FORECAST_FATE_TIMES_OUT,
             minor == 11 ? "Plugin does not support"
             : content   ? "Failed to check and update snapshot content: failed"
                         : NULL,
             NULL},
            {"snapshot error", vs_error_status, "{\"readyToUse\":true}", minor, 0, minor == 11 ? "08:10:00" : timeout,
             minor == 11 ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : VELSTATUS_FORECAST_FATE_TIMES_OUT, NULL, NULL},
            {"content not ready", bound_not, "{\"readyToUse\":false}", minor, 0, minor == 11 ? "08:10:00" : timeout,
             minor == 11 ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : VELSTATUS_FORECAST_FATE_TIMES_OUT, NULL, NULL},
            {"content missing", bound_ready, NULL, minor, minor == 12 || minor == 13, "08:10:00",
             VELSTATUS_FORECAST_FATE_ERROR_FAILS,
             minor == 11 ? "Plugin does not support"
                         : "rpc error: code = Unknown desc = volumesnapshotcontents.snapshot.storage.k8s.io "
                           "\"snapcontent-1\" not found",
             NULL},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            check_snap_case(&cases[i], 0);
            if (minor >= 12)
                check_snap_case(&cases[i], 1);
        }
    }
}
END_TEST

/* One operation of the VolumeSnapshotContent action, on snapcontent-1. */
static const char vsc_ops[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-volumesnapshotcontent-backupper\","
    "\"operationID\":\"snapcontent-1/2025-01-07T08:05:21Z\"},\"status\":{\"phase\":\"InProgress\","
    "\"created\":\"2025-01-07T08:05:21Z\"}}]";

/* The VolumeSnapshotContent action's operation (doc/data-mover.md): 1.12
 * and 1.13 complete it when the content is ready and fail it with the
 * content's error (velero #7356) or a NotFound at the next pass; 1.14 and
 * later answer an empty progress, so it times out; 1.11 fails it with
 * Velero's v1 text. The VolumeSnapshot plays no part. */
START_TEST(test_snapshot_content_operations_by_release)
{
    char vsc_error_status[512];
    const char *vs = "{\"boundVolumeSnapshotContentName\":\"snapcontent-1\",\"readyToUse\":false}";
    const char *timeout = "12:05:21.000000001";
    snprintf(vsc_error_status, sizeof vsc_error_status, "{\"readyToUse\":false,\"error\":{\"message\":\"%s\"}}",
             vsc_err);
    for (int minor = 11; minor <= 18; minor++) {
        const int answered = minor == 12 || minor == 13;
        const velstatus_forecast_fate late =
            minor == 11 ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : VELSTATUS_FORECAST_FATE_TIMES_OUT;
        const char *v1 = "Plugin does not support asynchronous operations";
        const snap_case cases[] = {
            {"ready", vs, "{\"readyToUse\":true}", minor, answered,
             answered      ? NULL
             : minor == 11 ? "08:10:00"
                           : timeout,
             late, minor == 11 ? v1 : NULL, vsc_ops},
            {"content error", vs, vsc_error_status, minor, 0, answered || minor == 11 ? "08:10:00" : timeout,
             answered ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : late,
             answered      ? "Failed to check and update snapshot content: failed"
             : minor == 11 ? v1
                           : NULL,
             vsc_ops},
            {"content not ready", vs, "{\"readyToUse\":false}", minor, 0, minor == 11 ? "08:10:00" : timeout, late,
             minor == 11 ? v1 : NULL, vsc_ops},
            {"content missing", vs, NULL, minor, 0, answered || minor == 11 ? "08:10:00" : timeout,
             answered ? VELSTATUS_FORECAST_FATE_ERROR_FAILS : late,
             answered      ? "rpc error: code = Unknown desc = volumesnapshotcontents.snapshot.storage.k8s.io "
                             "\"snapcontent-1\" not found"
             : minor == 11 ? v1
                           : NULL,
             vsc_ops},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            check_snap_case(&cases[i], 0);
            if (minor >= 12)
                check_snap_case(&cases[i], 1);
        }
    }
}
END_TEST

/* 1.11 with DataUploads: refused (no data mover), while the snapshots
 * alone are forecast (above); a release outside 1.11 to 1.18: refused by
 * the snapshot plugin's client. */
START_TEST(test_snapshot_forecast_refuses)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_forecast *f = NULL;
    snap_in in;
    velstatus_error e;
    const snap_case c = {"1.11 with dms", "{}", NULL, 11, 0, NULL, VELSTATUS_FORECAST_FATE_INVALID, NULL, NULL};
    ck_assert_int_eq(snap_forecast(ctx, &c, 1, &f, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "1.11 has no data mover"));
    ck_assert_ptr_null(f);
    snap_inputs(ctx, "{}", NULL, 0, &in);
    ck_assert_int_eq(velstatus_forecast_new_dm(&f, in.ops, &in.o, NULL, NULL, in.snaps, NULL, 0, 1, 10, NULL, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "1.10"));
    ck_assert_ptr_null(f);
    snap_free(&in);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every allocation of a forecast over the snapshots (and the DataUploads)
 * fails in turn: E_NOMEM, nothing leaked. The content's error is the
 * answer, so the reconcile copies its text. */
START_TEST(test_snapshot_every_allocation_failure)
{
    velstatus_status st = VELSTATUS_OK;
    char vsc_error_status[512];
    snprintf(vsc_error_status, sizeof vsc_error_status, "{\"readyToUse\":false,\"error\":{\"message\":\"%s\"}}",
             vsc_err);
    for (int give_dms = 0; give_dms <= 1; give_dms++) {
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            snap_in in;
            velstatus_forecast *f = NULL;
            VS_FAILALLOC_PAUSE(fa);
            snap_inputs(ctx, "{\"boundVolumeSnapshotContentName\":\"snapcontent-1\",\"readyToUse\":false}",
                        vsc_error_status, give_dms, &in);
            VS_FAILALLOC_RESUME(fa);
            st = velstatus_forecast_new_dm(&f, in.ops, &in.o, NULL, in.dms, in.snaps, NULL, 0, 1, 16, NULL, NULL);
            VS_FAILALLOC_PAUSE_AGAIN(fa);
            if (st == VELSTATUS_OK)
                ck_assert_int_eq(velstatus_forecast_final_phase(f), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
            velstatus_forecast_free(f);
            snap_free(&in);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("dm_forecast");
    TCase *tc = tcase_create("property");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_instants_equal_every_second);
    tcase_add_test(tc, test_forecast_equals_every_second);
    tcase_add_test(tc, test_forecast_without_snapshots_differs);
    suite_add_tcase(s, tc);
    tc = tcase_create("unit");
    tcase_add_test(tc, test_prepare_timeout_fails_the_operation);
    tcase_add_test(tc, test_accept_then_prepare_timeout);
    tcase_add_test(tc, test_forecast_new_dm_refuses);
    tcase_add_test(tc, test_instants_sorted_and_skipped);
    tcase_add_test(tc, test_instants_refuses);
    tcase_add_test(tc, test_forecast_new_dm_refuses_inputs);
    tcase_add_test(tc, test_forecast_without_objects);
    tcase_add_test(tc, test_forecast_node_restart_cancels);
    tcase_add_test(tc, test_forecast_other_plugin_cancel);
    tcase_add_test(tc, test_every_allocation_failure);
    tcase_add_test(tc, test_snapshot_operations_by_release);
    tcase_add_test(tc, test_snapshot_content_operations_by_release);
    tcase_add_test(tc, test_snapshot_forecast_refuses);
    tcase_add_test(tc, test_snapshot_every_allocation_failure);
    suite_add_tcase(s, tc);
    return s;
}
