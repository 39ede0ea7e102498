/* SPDX-License-Identifier: Apache-2.0 */
/* Pipeline: `kubectl get datauploads,datadownloads -o json` (or a -w stream)
 * → the data mover decoder → every getter → the CSI PVC plugin's Progress and
 * Cancel for each object's operation ID (and one the tail chooses) under a
 * release the tail picks → a reconcile pass of a backup and a restore whose
 * operations are those IDs, answered by the data mover client. Checked:
 * the getters agree with each other and, where jansson reads a lone
 * object's non-null string status.phase, with it; Progress and Cancel find
 * what velstatus_dm_list_find() finds, a Progress error is gRPC-wrapped, a
 * found object's progress is its phase and bytes. */
#include "fuzz.h"

#include <jansson.h>
#include <string.h>

static const char grpc[] = "rpc error: code = Unknown desc = ";

/* The getters of object i: kinds and phases in range, the phase enum the
 * phase text's, absent fields read as absent. */
static void check_object(vs_fuzz_env *env, const velstatus_dm_list *l, size_t i)
{
    size_t n = 99;
    const char *ph = velstatus_dm_list_text(l, i, VELSTATUS_DM_TEXT_PHASE, &n);
    velstatus_dm_phase p = velstatus_dm_list_phase(l, i);
    velstatus_dm_phase q;
    int64_t v;
    VS_FUZZ_CHECK(env, velstatus_dm_list_kind(l, i) == VELSTATUS_DM_UPLOAD ||
                           velstatus_dm_list_kind(l, i) == VELSTATUS_DM_DOWNLOAD);
    VS_FUZZ_CHECK(env, p >= VELSTATUS_DM_PHASE_NEW && p <= VELSTATUS_DM_PHASE_UNKNOWN);
    if (!ph || n == 0)
        VS_FUZZ_CHECK(env, p == VELSTATUS_DM_PHASE_NEW && (ph || n == 0));
    else if (velstatus_dm_phase_from_string(&q, ph, n, NULL) == VELSTATUS_OK && q != VELSTATUS_DM_PHASE_UNKNOWN)
        VS_FUZZ_CHECK(env, p == q);
    else
        VS_FUZZ_CHECK(env, p == VELSTATUS_DM_PHASE_UNKNOWN);
    for (int f = 0; f <= VELSTATUS_DM_TEXT_TARGET_NAMESPACE; f++) {
        const char *s = velstatus_dm_list_text(l, i, (velstatus_dm_text)f, &n);
        VS_FUZZ_CHECK(env, s ? s[n] == '\0' : n == 0);
    }
    for (int f = 0; f <= VELSTATUS_DM_TIME_ACCEPTED; f++)
        VS_FUZZ_CHECK(env, velstatus_dm_list_time(l, i, (velstatus_dm_time)f, &v) || v == 0);
    for (int f = 0; f <= VELSTATUS_DM_INT_CANCEL; f++)
        VS_FUZZ_CHECK(env, velstatus_dm_list_int(l, i, (velstatus_dm_int)f, &v) || v == 0);
    VS_FUZZ_CHECK(env, !velstatus_dm_list_int(l, i, VELSTATUS_DM_INT_CANCEL, &v) || v == 0 || v == 1);
}

/* Where jansson reads one object with a non-null string status.phase (the
 * last repeated key, as Go), the library reads the same. */
static void check_jansson(vs_fuzz_env *env, const vs_fuzz_in *in, const velstatus_dm_list *l)
{
    json_error_t jerr;
    json_t *root, *phase;
    const char *kind = NULL;
    size_t n;
    const char *got;
    if (!vs_fuzz_checks(env) || velstatus_dm_list_count(l) != 1)
        return;
    root = json_loadb(in->text, in->text_len, JSON_ALLOW_NUL, &jerr);
    if (!root)
        return;
    phase = json_object_get(json_object_get(root, "status"), "phase");
    if (json_is_object(root) && json_unpack(root, "{s:s}", "kind", &kind) == 0 && json_is_string(phase) &&
        (strcmp(kind, "DataUpload") == 0 || strcmp(kind, "DataDownload") == 0)) {
        got = velstatus_dm_list_text(l, 0, VELSTATUS_DM_TEXT_PHASE, &n);
        VS_FUZZ_CHECK(env, got && vs_fuzz_same(got, n, json_string_value(phase), json_string_length(phase)));
    }
    json_decref(root);
}

/* Progress and Cancel of one operation ID under release 1.minor. */
static int answer(vs_fuzz_env *env, const velstatus_dm_list *l, velstatus_dm_kind kind, const char *id, size_t idn,
                  int minor)
{
    velstatus_op_progress p;
    char *text = NULL, *ctext = NULL;
    size_t index = 0, matches = 0, cindex = 0, cn = 0;
    velstatus_status fst = velstatus_dm_list_find(l, kind, id, idn, NULL, 0, 1, minor, &index, &matches, NULL);
    velstatus_status st;
    velstatus_op_progress_init(&p, sizeof(p));
    st = velstatus_dm_progress(&p, &text, env->ctx, l, kind, id, idn, NULL, 0, 1, minor, NULL);
    if (minor < 12 || minor > 18 || fst != VELSTATUS_OK) {
        VS_FUZZ_CHECK(env, st == VELSTATUS_E_INVALID && fst == VELSTATUS_E_INVALID && !text);
        return 1;
    }
    if (!vs_fuzz_stage(env, st, "velstatus_dm_progress"))
        return 0;
    VS_FUZZ_CHECK(env, (matches == 1) == (index != SIZE_MAX));
    if (p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR) {
        VS_FUZZ_CHECK(env, text && p.err == text && index == SIZE_MAX && strncmp(text, grpc, sizeof(grpc) - 1) == 0);
    } else {
        size_t n;
        const char *ph = velstatus_dm_list_text(l, index, VELSTATUS_DM_TEXT_PHASE, &n);
        VS_FUZZ_CHECK(env, !text && index != SIZE_MAX && p.report == VELSTATUS_OP_REPORT_PROGRESS);
        if (velstatus_dm_list_phase(l, index) != VELSTATUS_DM_PHASE_NEW)
            VS_FUZZ_CHECK(env, vs_fuzz_same(p.description, p.description_len, ph, n) && p.operation_units_len == 5);
        else
            VS_FUZZ_CHECK(env, !p.description_len && !p.completed && !p.err_len);
    }
    velstatus_free(env->ctx, text);
    st = velstatus_dm_cancel(&cindex, &ctext, &cn, env->ctx, l, kind, id, idn, NULL, 0, 1, minor, NULL);
    if (!vs_fuzz_stage(env, st, "velstatus_dm_cancel"))
        return 0;
    VS_FUZZ_CHECK(env, cindex == index && (ctext != NULL) == (index == SIZE_MAX));
    velstatus_free(env->ctx, ctext);
    return 1;
}

static void add(vs_fuzz_buf *b, const char *s)
{
    vs_fuzz_buf_add(b, s, strlen(s));
}

/* A backup's (or restore's) itemoperations JSON with one CSI PVC operation per ID. */
static void ops_json(vs_fuzz_buf *b, const velstatus_dm_list *l, velstatus_kind kind)
{
    const char *act = kind == VELSTATUS_KIND_BACKUP ? "\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-"
                                                      "backupper\""
                                                    : "\"restoreName\":\"r\",\"restoreItemAction\":\"velero.io/csi-pvc-"
                                                      "restorer\"";
    vs_fuzz_buf_add(b, "[", 1);
    for (size_t i = 0; i < velstatus_dm_list_count(l) && i < 8; i++) {
        size_t n;
        const char *id = velstatus_dm_list_text(l, i, VELSTATUS_DM_TEXT_OPERATION_ID, &n);
        if (i)
            vs_fuzz_buf_add(b, ",", 1);
        add(b, "{\"spec\":{");
        add(b, act);
        add(b, ",\"operationID\":\"");
        for (size_t k = 0; id && k < n; k++) /* only the bytes a JSON string takes as they are */
            if ((unsigned char)id[k] >= 0x20 && id[k] != '"' && id[k] != '\\' && (unsigned char)id[k] < 0x80)
                vs_fuzz_buf_add(b, &id[k], 1);
        add(b, "\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}");
    }
    vs_fuzz_buf_add(b, "]", 1);
}

/* One reconcile pass of `kind` over those operations, through the client. */
static int reconcile(vs_fuzz_env *env, const velstatus_dm_list *l, velstatus_kind kind, int minor)
{
    vs_fuzz_buf b = {0};
    velstatus_oplist *ops = NULL;
    velstatus_dm_client *dm = NULL;
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_status st;
    int go = 1;
    ops_json(&b, l, kind);
    st = velstatus_oplist_from_json(&ops, env->ctx, kind, b.p, b.len, NULL);
    vs_fuzz_buf_free(&b);
    if (!vs_fuzz_stage(env, st, "velstatus_oplist_from_json"))
        return 0;
    st = velstatus_dm_client_new(&dm, env->ctx, l, NULL, 0, 1, minor, NULL, NULL);
    if ((go = vs_fuzz_stage(env, st, "velstatus_dm_client_new")) != 0) {
        VS_FUZZ_CHECK(env, velstatus_dm_client_init(&c, sizeof(c), dm, NULL) == VELSTATUS_OK);
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = INT64_C(1714557600000000000) + INT64_C(3600000000000); /* 11:00, an hour after created */
        st = velstatus_oplist_reconcile(&r, ops, &c, &o, NULL, NULL);
        /* an operation ID that is no label value fails the pass (the client's E_HOST) */
        if (st != VELSTATUS_E_HOST)
            go = vs_fuzz_stage(env, st, "velstatus_oplist_reconcile");
        velstatus_reconcile_result_free(r);
        velstatus_dm_client_free(dm);
    }
    velstatus_oplist_free(ops);
    return go;
}

void vs_pipe_datamover(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_dm_list *l = (velstatus_dm_list *)vs_fuzz_sentinel;
    velstatus_status st = velstatus_dm_list_from_json(&l, env->ctx, in->text, in->text_len, NULL);
    int minor = 11 + (int)vs_fuzz_pick(in, 9); /* 1.11 (no data mover) to 1.19 (not supported) */
    const char *id;
    size_t idn;
    if (st != VELSTATUS_OK)
        vs_fuzz_out_untouched(env, l, vs_fuzz_sentinel, "velstatus_dm_list_from_json");
    if (!vs_fuzz_stage(env, st, "velstatus_dm_list_from_json"))
        return;
    for (size_t i = 0; i < velstatus_dm_list_count(l); i++)
        check_object(env, l, i);
    check_jansson(env, in, l);
    for (size_t i = 0; i < velstatus_dm_list_count(l) && i < 8; i++) {
        id = velstatus_dm_list_text(l, i, VELSTATUS_DM_TEXT_OPERATION_ID, &idn);
        if (!answer(env, l, velstatus_dm_list_kind(l, i), id ? id : "", id ? idn : 0, minor))
            goto done;
    }
    vs_fuzz_text(in, &id, &idn);
    if (!answer(env, l, (velstatus_dm_kind)vs_fuzz_pick(in, 2), id, idn, minor))
        goto done;
    if (minor >= 12 && minor <= 18 && reconcile(env, l, VELSTATUS_KIND_BACKUP, minor))
        reconcile(env, l, VELSTATUS_KIND_RESTORE, minor);
done:
    velstatus_dm_list_free(l);
}
