/* SPDX-License-Identifier: Apache-2.0 */
/* The answers of Velero's CSI PVC plugin for a data mover operation
 * (datamover.h, doc/data-mover.md "The CSI plugin's answers"): which
 * DataUpload or DataDownload it reads for an operation ID, the
 * OperationProgress it makes of it, and what its Cancel does; per release.
 * 1.12 and 1.13: velero-plugin-for-csi v0.6.x and v0.7.x,
 * internal/backup/pvc_action.go and internal/restore/pvc_action.go; from
 * 1.14: pkg/backup/actions/csi/pvc_action.go and
 * pkg/restore/actions/csi/pvc_action.go. */
#include "datamover/private.h"

#include <stdio.h>
#include <string.h>

/* The release knobs of the plugin: X(field, its value in 1.11 ... 1.18).
 * 1.11 has no data mover (refused before the table is read).
 * - upload_in_ns: getDataUpload lists in the Backup's namespace (v0.6.x;
 *   1.18.1, velero #9708, the 1.18 backport of #9704) rather than in every
 *   namespace (v0.7.x, 1.14 to 1.17, and still 1.18.0: 1.18 decides as
 *   1.18.1).
 * - download_in_ns: getDataDownload lists in the Restore's namespace; v0.7.x
 *   (1.13) takes the namespace argument but never passes it to List. */
#define VS_DM_PLUGIN_KNOBS(X)               \
    X(upload_in_ns, 0, 1, 0, 0, 0, 0, 0, 1) \
    X(download_in_ns, 0, 1, 0, 1, 1, 1, 1, 1)

#define VS_DM_KNOB(field, ...)                                 \
    static const unsigned char knob_##field[] = {__VA_ARGS__}; \
    _Static_assert(VS_N(knob_##field) == VS_RELEASE_COUNT, #field ": one value per release");
VS_DM_PLUGIN_KNOBS(VS_DM_KNOB)
#undef VS_DM_KNOB

/* What every error of the plugin becomes on its way to Velero: the plugin
 * server wraps it in a gRPC status of code Unknown
 * (pkg/plugin/framework/common/server_errors.go, NewGRPCError) and the
 * client hands that status error on (client_errors.go, FromGRPCError keeps
 * its text), so err.Error() is grpc-go's status text. The same in 1.12 to
 * 1.18: the CSI plugin runs in a plugin process in every release. */
static const char grpc_prefix[] = "rpc error: code = Unknown desc = ";

/* A label value as the API server's selector parser takes it
 * (k8s.io/apimachinery validation.IsValidLabelValue): at most 63 bytes,
 * empty or alphanumeric at both ends with '-', '_' or '.' inside. */
static int label_value_ok(const char *s, size_t n)
{
    if (n > 63)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && ((c != '-' && c != '_' && c != '.') || i == 0 || i == n - 1))
            return 0;
    }
    return 1;
}

velstatus_status velstatus__dm_args(const velstatus_dm_list *l, velstatus_dm_kind kind, const char **id, size_t *id_len,
                                    const char **ns, size_t *ns_len, int major, int minor, int *rel,
                                    velstatus_error *err)
{
    if (!l)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "data mover list is NULL");
    if (kind != VELSTATUS_DM_UPLOAD && kind != VELSTATUS_DM_DOWNLOAD)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "data mover kind %d is not upload or download",
                                    (int)kind);
    VS_TRY(velstatus__text_arg(*id, id_len, "operation ID", err));
    VS_TRY(velstatus__text_arg(*ns, ns_len, "Velero namespace", err));
    if (!*ns) {
        *ns = "velero";
        *ns_len = 6;
    }
    *rel = velstatus__release_index(major, minor, err);
    if (*rel < 0)
        return VELSTATUS_E_INVALID;
    if (*rel == 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "Velero %d.%d has no data mover (DataUpload and DataDownload came in 1.12)", major,
                                    minor);
    if (!label_value_ok(*id, *id_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "operation ID \"%.*s\" is not a valid label value: the API server refuses the "
                                    "plugin's label selector, so its List fails",
                                    *id_len > 64 ? 64 : (int)*id_len, *id);
    return VELSTATUS_OK;
}

/* Whether text t is s[0..n). */
static int text_is(const vs_dm_text *t, const char *s, size_t n)
{
    return t->s && t->len == n && memcmp(t->s, s, n) == 0;
}

void velstatus__dm_match(const velstatus_dm_list *l, velstatus_dm_kind kind, const char *id, size_t id_len,
                         const char *ns, size_t ns_len, int rel, size_t *index, size_t *matches)
{
    int in_ns = kind == VELSTATUS_DM_UPLOAD ? knob_upload_in_ns[rel] : knob_download_in_ns[rel];
    *index = SIZE_MAX;
    *matches = 0;
    for (size_t i = 0; i < l->n; i++) {
        const vs_dm *o = &l->items[i];
        if (o->kind != kind || !text_is(&o->text[VELSTATUS_DM_TEXT_OPERATION_ID], id, id_len))
            continue;
        if (in_ns && !text_is(&o->text[VELSTATUS_DM_TEXT_NAMESPACE], ns, ns_len))
            continue;
        if (++*matches == 1)
            *index = i;
    }
    if (*matches != 1)
        *index = SIZE_MAX;
}

velstatus_status velstatus_dm_list_find(const velstatus_dm_list *list, velstatus_dm_kind kind, const char *operation_id,
                                        size_t id_len, const char *velero_namespace, size_t ns_len, int major,
                                        int minor, size_t *index, size_t *matches, velstatus_error *err)
{
    size_t i, m;
    int rel;
    if (index)
        *index = SIZE_MAX;
    if (matches)
        *matches = 0;
    VS_TRY(velstatus__dm_args(list, kind, &operation_id, &id_len, &velero_namespace, &ns_len, major, minor, &rel, err));
    i = SIZE_MAX;
    m = 0;
    if (id_len) /* the plugins refuse an empty ID before they list (InvalidOperationIDError) */
        velstatus__dm_match(list, kind, operation_id, id_len, velero_namespace, ns_len, rel, &i, &m);
    if (index)
        *index = i;
    if (matches)
        *matches = m;
    return VELSTATUS_OK;
}

/* The error getDataUpload / getDataDownload returns for `matches` objects
 * (0 or more than one), or InvalidOperationIDError for an empty ID
 * (pkg/plugin/velero/backupitemaction/v2 and restoreitemaction/v2,
 * "operation ID %v is invalid", 1.12 to 1.18), after the gRPC hop, into
 * buf (VS_DM_ERROR_MAX bytes; the ID is at most 63). */
static size_t lookup_error(char *buf, velstatus_dm_kind kind, const char *id, size_t id_len, size_t matches)
{
    const char *msg;
    int n;
    if (!id_len)
        msg = "operation ID  is invalid";
    else if (kind == VELSTATUS_DM_UPLOAD)
        msg = matches ? "more than one DataUpload found operationID " : "not found DataUpload for operationID ";
    else
        msg = matches ? "find multiple DataDownloads" : "didn't find DataDownload";
    n = snprintf(buf, VS_DM_ERROR_MAX, "%s%s%.*s", grpc_prefix, msg, kind == VELSTATUS_DM_UPLOAD ? (int)id_len : 0,
                 id ? id : "");
    return n > 0 ? (size_t)n : 0;
}

/* Progress's mapping of a found object (both plugins, every release):
 * New or "" gives the empty OperationProgress (no update); otherwise the
 * phase is the description, the units are Bytes, the counts are the
 * progress's, Started and Updated the start and completion timestamps, and
 * Completed / Failed / Canceled finish it (Failed with status.message as
 * Err, Canceled with "DataUpload is canceled" / "DataDownload is canceled"). */
static void fill_progress(velstatus_op_progress *out, const vs_dm *o)
{
    const vs_dm_text *ph = &o->text[VELSTATUS_DM_TEXT_PHASE];
    if (o->phase == VELSTATUS_DM_PHASE_NEW) /* "New", "" or none */
        return;
    out->description = ph->s;
    out->description_len = ph->len;
    out->operation_units = "Bytes";
    out->operation_units_len = 5;
    out->n_completed = o->ints[VELSTATUS_DM_INT_BYTES_DONE];
    out->n_total = o->ints[VELSTATUS_DM_INT_TOTAL_BYTES];
    out->has_started = (int)(o->has_time >> VELSTATUS_DM_TIME_STARTED & 1u);
    out->started_ns = o->time[VELSTATUS_DM_TIME_STARTED];
    out->has_updated = (int)(o->has_time >> VELSTATUS_DM_TIME_COMPLETED & 1u);
    out->updated_ns = o->time[VELSTATUS_DM_TIME_COMPLETED];
    out->completed = o->phase == VELSTATUS_DM_PHASE_COMPLETED || o->phase == VELSTATUS_DM_PHASE_FAILED ||
                     o->phase == VELSTATUS_DM_PHASE_CANCELED;
    if (o->phase == VELSTATUS_DM_PHASE_FAILED) {
        out->err = o->text[VELSTATUS_DM_TEXT_MESSAGE].s;
        out->err_len = o->text[VELSTATUS_DM_TEXT_MESSAGE].len;
    } else if (o->phase == VELSTATUS_DM_PHASE_CANCELED) {
        out->err = o->kind == VELSTATUS_DM_UPLOAD ? "DataUpload is canceled" : "DataDownload is canceled";
        out->err_len = strlen(out->err);
    }
}

velstatus_status velstatus__dm_answer(velstatus_op_progress *out, size_t *index_out, char *buf, size_t *text_len,
                                      const velstatus_dm_list *l, velstatus_dm_kind kind, const char *id, size_t id_len,
                                      const char *ns, size_t ns_len, int major, int minor, velstatus_error *err)
{
    size_t index = SIZE_MAX, m = 0;
    int rel;
    *text_len = 0;
    buf[0] = '\0';
    if (index_out)
        *index_out = SIZE_MAX;
    VS_TRY(velstatus__dm_args(l, kind, &id, &id_len, &ns, &ns_len, major, minor, &rel, err));
    if (out)
        velstatus_op_progress_init(out, out->struct_size);
    if (id_len)
        velstatus__dm_match(l, kind, id, id_len, ns, ns_len, rel, &index, &m);
    if (index == SIZE_MAX) {
        *text_len = lookup_error(buf, kind, id, id_len, m);
        if (out) {
            out->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
            out->err = buf;
            out->err_len = *text_len;
        }
        return VELSTATUS_OK;
    }
    if (index_out)
        *index_out = index;
    if (out)
        fill_progress(out, &l->items[index]);
    return VELSTATUS_OK;
}

/* A copy of the error text (NULL when there is none). */
static velstatus_status keep_text(char **text, velstatus_ctx *ctx, const char *buf, size_t n, velstatus_error *err)
{
    *text = NULL;
    if (!n)
        return VELSTATUS_OK;
    *text = velstatus__strndup(ctx, buf, n);
    return *text ? VELSTATUS_OK : velstatus__error_nomem(err);
}

velstatus_status velstatus_dm_progress(velstatus_op_progress *out, char **text, velstatus_ctx *ctx,
                                       const velstatus_dm_list *list, velstatus_dm_kind kind, const char *operation_id,
                                       size_t id_len, const char *velero_namespace, size_t ns_len, int major, int minor,
                                       velstatus_error *err)
{
    char buf[VS_DM_ERROR_MAX];
    size_t n;
    if (!out || !text || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : !text ? "text" : "ctx");
    *text = NULL;
    if (out->struct_size < VS_SIZE_THROUGH(velstatus_op_progress, updated_ns))
        return velstatus__error_set(err, VELSTATUS_E_ABI, "velstatus_op_progress struct_size %u is too small",
                                    (unsigned)out->struct_size);
    VS_TRY(velstatus__dm_answer(out, NULL, buf, &n, list, kind, operation_id, id_len, velero_namespace, ns_len, major,
                                minor, err));
    VS_TRY(keep_text(text, ctx, buf, n, err));
    if (*text)
        out->err = *text;
    return VELSTATUS_OK;
}

velstatus_status velstatus_dm_cancel(size_t *index, char **text, size_t *text_len, velstatus_ctx *ctx,
                                     const velstatus_dm_list *list, velstatus_dm_kind kind, const char *operation_id,
                                     size_t id_len, const char *velero_namespace, size_t ns_len, int major, int minor,
                                     velstatus_error *err)
{
    char buf[VS_DM_ERROR_MAX];
    size_t n;
    if (text_len)
        *text_len = 0;
    if (!index || !text || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !index ? "index" : !text ? "text" : "ctx");
    *text = NULL;
    VS_TRY(velstatus__dm_answer(NULL, index, buf, &n, list, kind, operation_id, id_len, velero_namespace, ns_len, major,
                                minor, err));
    VS_TRY(keep_text(text, ctx, buf, n, err));
    if (text_len)
        *text_len = n;
    return VELSTATUS_OK;
}
