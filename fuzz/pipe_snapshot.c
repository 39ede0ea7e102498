/* SPDX-License-Identifier: Apache-2.0 */
/* Pipeline: VolumeSnapshots and VolumeSnapshotContents (snapshot.h). TEXT
 * is decoded (an object, a List, an array or a watch stream); every getter
 * of every object is read, and each object must be found again by its kind,
 * namespace and name. Then the VolumeSnapshot plugin's Progress is asked,
 * in a release and for a kind the tail chooses, for an operation ID of an
 * object of the list (or of the tail) with a time the tail writes: the
 * answer must be a progress or a Progress error with a text; Started must
 * be set exactly when a 1.12+ backup's answer is not an error; and the
 * plugin's port of Go's time.Parse must agree with the library's own RFC
 * 3339 reader on which times are times (an error "parsing time" exactly
 * when the library refuses the third part). The VolumeSnapshotContent
 * action's Progress is asked the same way for "<content>/<time>": 1.11 is
 * Velero's v1 text, 1.14 and later an empty progress, and in 1.12 and 1.13
 * a two-part ID's time is refused ("fail to parse StartedTime: parsing
 * time") exactly when the library refuses it, else Started is that time,
 * and a completed answer names a content that is ready or in error. */
#include "fuzz.h"

#include <string.h>

/* The text before every Progress error of the plugin (its gRPC hop). */
#define GRPC "rpc error: code = Unknown desc = "
/* Velero's own answer for a v1 plugin (1.11). */
#define V1_TEXT "Plugin does not support asynchronous operations"

/* Reads every getter of object i; the texts must be consistent. */
static void read_object(vs_fuzz_env *env, const velstatus_snapshot_list *l, size_t i)
{
    size_t len, idx;
    const char *ns, *name;
    int64_t v;
    int b;
    for (int f = 0; f <= VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE; f++) {
        const char *t = velstatus_snapshot_list_text(l, i, (velstatus_snapshot_field)f, &len);
        VS_FUZZ_CHECK(env, t ? t[len] == '\0' : len == 0);
        (void)velstatus_snapshot_list_time(l, i, (velstatus_snapshot_field)f, &v);
        (void)velstatus_snapshot_list_int(l, i, (velstatus_snapshot_field)f, &v);
        VS_FUZZ_CHECK(env, velstatus_snapshot_list_bool(l, i, (velstatus_snapshot_field)f, &b) || b == 0);
    }
    VS_FUZZ_CHECK(env, !velstatus_snapshot_list_has_error(l, i) || velstatus_snapshot_list_has_status(l, i));
    ns = velstatus_snapshot_list_text(l, i, VELSTATUS_SNAPSHOT_FIELD_NAMESPACE, &len);
    name = velstatus_snapshot_list_text(l, i, VELSTATUS_SNAPSHOT_FIELD_NAME, &idx);
    VS_FUZZ_CHECK(env, velstatus_snapshot_list_find(l, velstatus_snapshot_list_kind(l, i), ns, ns ? len : 0, name,
                                                    name ? idx : 0, &idx));
    VS_FUZZ_CHECK(env, velstatus_snapshot_list_kind(l, idx) == velstatus_snapshot_list_kind(l, i));
}

/* An operation ID: "<ns>/<name>/<time>" of an object (or the tail's texts). */
static void make_id(vs_fuzz_in *in, const velstatus_snapshot_list *l, vs_fuzz_buf *id, const char **t, size_t *tn)
{
    static const char *const times[] = {"2024-04-11T18:49:00+08:00", "2024-04-31T00:00:00Z", "2024-04-11T8:49:00Z",
                                        "9999-12-31T23:59:59-24:60", "0001-01-01T00:00:00Z", "2024-04-11T18:49:00"};
    size_t n = velstatus_snapshot_list_count(l), len = 0;
    const char *s;
    if (n && vs_fuzz_pick(in, 4) != 0) {
        size_t i = vs_fuzz_pick(in, n);
        s = velstatus_snapshot_list_text(l, i, VELSTATUS_SNAPSHOT_FIELD_NAMESPACE, &len);
        vs_fuzz_buf_add(id, s, len);
        vs_fuzz_buf_add(id, "/", 1);
        s = velstatus_snapshot_list_text(l, i, VELSTATUS_SNAPSHOT_FIELD_NAME, &len);
        vs_fuzz_buf_add(id, s, len);
        vs_fuzz_buf_add(id, "/", 1);
    } else {
        vs_fuzz_text(in, &s, &len);
        vs_fuzz_buf_add(id, s, len);
    }
    if (vs_fuzz_pick(in, 2)) {
        size_t k = vs_fuzz_pick(in, sizeof(times) / sizeof(times[0]));
        *t = times[k];
        *tn = strlen(times[k]);
    } else {
        vs_fuzz_text(in, t, tn);
    }
    vs_fuzz_buf_add(id, *t, *tn);
}

static int count_slashes(const char *s, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '/';
    return k;
}

/* One Progress answer, checked. */
static void progress(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_snapshot_list *l)
{
    vs_fuzz_buf id = {0};
    velstatus_op_progress p;
    const char *t = NULL;
    size_t tn = 0;
    char *text = vs_fuzz_sentinel;
    int minor = 11 + (int)vs_fuzz_pick(in, 8), backup = vs_fuzz_pick(in, 2) == 0, three;
    int64_t sec;
    int32_t nsec;
    make_id(in, l, &id, &t, &tn);
    velstatus_op_progress_init(&p, sizeof(p));
    if (!vs_fuzz_stage(env,
                       velstatus_snapshot_progress(&p, &text, l,
                                                   backup ? VELSTATUS_KIND_BACKUP : VELSTATUS_KIND_RESTORE, id.p,
                                                   id.len, 0, 1, minor, NULL),
                       "velstatus_snapshot_progress")) {
        VS_FUZZ_CHECK(env, !text);
        vs_fuzz_buf_free(&id);
        return;
    }
    VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS || p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS || (p.err_len > 0 && p.err == text));
    VS_FUZZ_CHECK(env, !p.completed || p.report == VELSTATUS_OP_REPORT_PROGRESS);
    three = id.len > 0 && count_slashes(id.p, id.len) == 2;
    if (backup && minor >= 12 && three) {
        size_t k = id.len;
        int parsed, time_error;
        while (id.p[k - 1] != '/')
            k--;
        parsed = velstatus_time_parse_sec(&sec, &nsec, id.p + k, id.len - k, NULL) == VELSTATUS_OK;
        time_error = p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && p.err_len > 46 &&
                     memcmp(p.err, GRPC "parsing time ", 46) == 0;
        VS_FUZZ_CHECK(env, parsed == !time_error);
        VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR ||
                               (p.has_started_sec && p.started_sec == sec && p.started_nsec == nsec));
    } else if (p.report == VELSTATUS_OP_REPORT_PROGRESS) {
        VS_FUZZ_CHECK(env, !p.has_started_sec && !p.completed);
    }
    velstatus_free(env->ctx, text);
    vs_fuzz_buf_free(&id);
}

/* "<content name>/<time>" of an object of the list (or the tail's text). */
static void make_content_id(vs_fuzz_in *in, const velstatus_snapshot_list *l, vs_fuzz_buf *id)
{
    size_t n = velstatus_snapshot_list_count(l), len = 0, tn;
    const char *s, *t;
    if (n && vs_fuzz_pick(in, 4) != 0) {
        s = velstatus_snapshot_list_text(l, vs_fuzz_pick(in, n), VELSTATUS_SNAPSHOT_FIELD_NAME, &len);
        vs_fuzz_buf_add(id, s, len);
        vs_fuzz_buf_add(id, "/", 1);
    }
    if (vs_fuzz_pick(in, 2)) {
        t = vs_fuzz_pick(in, 2) ? "2024-04-11T18:49:00+08:00" : "2024-04-11T18:49:00";
        tn = strlen(t);
    } else {
        vs_fuzz_text(in, &t, &tn);
    }
    vs_fuzz_buf_add(id, t, tn);
}

/* What a 1.12/1.13 answer must agree with for the two-part ID id[0..n). */
static void check_content_answer(vs_fuzz_env *env, const velstatus_snapshot_list *l, const velstatus_op_progress *p,
                                 const char *id, size_t n)
{
    static const char prefix[] = GRPC "fail to parse StartedTime: parsing time ";
    size_t k = n, idx;
    int64_t sec;
    int32_t nsec;
    int parsed, time_error, ready;
    while (id[k - 1] != '/')
        k--;
    parsed = velstatus_time_parse_sec(&sec, &nsec, id + k, n - k, NULL) == VELSTATUS_OK;
    time_error = p->report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && p->err_len > sizeof(prefix) - 1 &&
                 memcmp(p->err, prefix, sizeof(prefix) - 1) == 0;
    VS_FUZZ_CHECK(env, parsed == !time_error);
    if (p->report != VELSTATUS_OP_REPORT_PROGRESS)
        return;
    VS_FUZZ_CHECK(env, p->has_started_sec && p->started_sec == sec && p->started_nsec == nsec && !p->has_updated);
    VS_FUZZ_CHECK(env, velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_CONTENT, NULL, 0, id, k - 1, &idx));
    if (p->completed)
        VS_FUZZ_CHECK(env,
                      (velstatus_snapshot_list_bool(l, idx, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &ready) && ready) ||
                          velstatus_snapshot_list_has_error(l, idx));
}

/* One answer of the VolumeSnapshotContent action, checked. */
static void content_progress(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_snapshot_list *l)
{
    vs_fuzz_buf id = {0};
    velstatus_op_progress p;
    char *text = vs_fuzz_sentinel;
    int minor = 11 + (int)vs_fuzz_pick(in, 8);
    make_content_id(in, l, &id);
    velstatus_op_progress_init(&p, sizeof(p));
    if (!vs_fuzz_stage(env, velstatus_snapshot_content_progress(&p, &text, l, id.p, id.len, 1, minor, NULL),
                       "velstatus_snapshot_content_progress")) {
        VS_FUZZ_CHECK(env, !text);
        vs_fuzz_buf_free(&id);
        return;
    }
    VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS || (p.err_len > 0 && p.err == text));
    if (minor == 11)
        VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && p.err_len == strlen(V1_TEXT) &&
                               memcmp(p.err, V1_TEXT, p.err_len) == 0);
    else if (minor >= 14)
        VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS && !p.completed && !p.has_started_sec && !text);
    else if (id.len > 0 && count_slashes(id.p, id.len) == 1)
        check_content_answer(env, l, &p, id.p, id.len);
    else
        VS_FUZZ_CHECK(env, p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    velstatus_free(env->ctx, text);
    vs_fuzz_buf_free(&id);
}

void vs_pipe_snapshot(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_snapshot_list *l = (velstatus_snapshot_list *)vs_fuzz_sentinel;
    velstatus_status st = velstatus_snapshot_list_from_json(&l, env->ctx, in->text, in->text_len, NULL);
    if (!vs_fuzz_stage(env, st, "velstatus_snapshot_list_from_json")) {
        vs_fuzz_out_untouched(env, l, NULL, "velstatus_snapshot_list_from_json");
        return;
    }
    for (size_t i = 0; i < velstatus_snapshot_list_count(l); i++)
        read_object(env, l, i);
    for (int k = 0; k < 3; k++)
        progress(env, in, l);
    for (int k = 0; k < 2; k++)
        content_progress(env, in, l);
    velstatus_snapshot_list_free(l);
}
