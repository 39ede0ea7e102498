/* SPDX-License-Identifier: Apache-2.0 */
/* The host plugin client of the data mover (datamover.h): answers the
 * operations of Velero's CSI PVC plugins from a decoded DataUpload /
 * DataDownload list (plugin.c's answers) and hands every other operation
 * to the host's own client, so hosts chain their clients. */
#include "datamover/private.h"

#include <string.h>

struct velstatus_dm_client {
    velstatus_ctx *ctx;
    const velstatus_dm_list *list;
    char *ns; /* Velero's namespace (a copy) */
    size_t ns_len;
    int major, minor;
    velstatus_plugin_client fallback; /* struct_size 0: none */
};

/* The names the CSI PVC plugins are registered under, the same from 1.12
 * (velero-plugin-for-csi main.go) to 1.18 (pkg/cmd/server/plugin/plugin.go). */
static const char backupper[] = "velero.io/csi-pvc-backupper";
static const char restorer[] = "velero.io/csi-pvc-restorer";

/* Whether the record's item action names the CSI PVC plugin of its kind, as
 * Velero's plugin manager resolves a name (sanitizeName: a name without '/'
 * is prefixed with "velero.io/"). */
static int is_csi_pvc(const char *a, size_t n, velstatus_dm_kind kind)
{
    const char *want = kind == VELSTATUS_DM_UPLOAD ? backupper : restorer;
    size_t wn = strlen(want), pre = 10; /* "velero.io/" */
    if (!a)
        return 0;
    if (!memchr(a, '/', n))
        return n == wn - pre && memcmp(a, want + pre, n) == 0;
    return n == wn && memcmp(a, want, n) == 0;
}

int velstatus__dm_csi_op(const velstatus_oplist *ops, size_t i, velstatus_dm_kind *kind, const char **id,
                         size_t *id_len)
{
    const velstatus_op *op = velstatus_oplist_at(ops, i);
    size_t n;
    const char *a = velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &n);
    *kind = velstatus_oplist_kind(ops) == VELSTATUS_KIND_RESTORE ? VELSTATUS_DM_DOWNLOAD : VELSTATUS_DM_UPLOAD;
    *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, id_len);
    return op && is_csi_pvc(a, n, *kind);
}

static int dm_progress(void *userdata, const velstatus_oplist *ops, size_t i, velstatus_op_reply *reply)
{
    velstatus_dm_client *c = userdata;
    velstatus_dm_kind kind;
    velstatus_op_progress p;
    const char *id;
    size_t id_len, n;
    char buf[VS_DM_ERROR_MAX];
    velstatus_status st;
    if (!velstatus__dm_csi_op(ops, i, &kind, &id, &id_len))
        return c->fallback.progress ? c->fallback.progress(c->fallback.userdata, ops, i, reply) : VELSTATUS_PASSTHROUGH;
    p.struct_size = sizeof(p);
    st = velstatus__dm_answer(&p, NULL, buf, &n, c->list, kind, id, id_len, c->ns, c->ns_len, c->major, c->minor, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_op_reply_set_progress(reply, &p, NULL); /* its E_NOMEM ends the pass with E_NOMEM */
    return st == VELSTATUS_OK ? 0 : -(int)st;
}

static int dm_cancel(void *userdata, const velstatus_oplist *ops, size_t i, velstatus_op_reply *reply)
{
    velstatus_dm_client *c = userdata;
    velstatus_dm_kind kind;
    const char *id;
    size_t id_len, index, n;
    char buf[VS_DM_ERROR_MAX];
    velstatus_status st;
    if (!velstatus__dm_csi_op(ops, i, &kind, &id, &id_len))
        return c->fallback.cancel ? c->fallback.cancel(c->fallback.userdata, ops, i, reply) : VELSTATUS_PASSTHROUGH;
    st = velstatus__dm_answer(NULL, &index, buf, &n, c->list, kind, id, id_len, c->ns, c->ns_len, c->major, c->minor,
                              NULL);
    if (st == VELSTATUS_OK && n)
        st = velstatus_op_reply_set_cancel_error(reply, buf, n, NULL);
    return st == VELSTATUS_OK ? 0 : -(int)st;
}

velstatus_status velstatus_dm_client_new(velstatus_dm_client **out, velstatus_ctx *ctx, const velstatus_dm_list *list,
                                         const char *velero_namespace, size_t ns_len, int major, int minor,
                                         const velstatus_plugin_client *fallback, velstatus_error *err)
{
    velstatus_dm_client *c;
    velstatus_status st = VELSTATUS_OK;
    int rel;
    const char *id = "";
    size_t id_len = 0;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    *out = NULL;
    VS_TRY(velstatus__dm_args(list, VELSTATUS_DM_UPLOAD, &id, &id_len, &velero_namespace, &ns_len, major, minor, &rel,
                              err));
    c = velstatus__calloc(ctx, 1, sizeof(*c));
    if (!c)
        return velstatus__error_nomem(err);
    if (fallback)
        st = velstatus__sized_copy(&c->fallback, sizeof(c->fallback), sizeof(c->fallback), fallback,
                                   "fallback plugin client", err);
    c->ns = st == VELSTATUS_OK ? velstatus__strndup(ctx, velero_namespace, ns_len) : NULL;
    if (!c->ns) {
        velstatus__free(ctx, c);
        return st != VELSTATUS_OK ? st : velstatus__error_nomem(err);
    }
    c->ctx = ctx;
    c->list = list;
    c->ns_len = ns_len;
    c->major = major;
    c->minor = minor;
    *out = c;
    return VELSTATUS_OK;
}

void velstatus_dm_client_free(velstatus_dm_client *client)
{
    if (client) {
        velstatus__free(client->ctx, client->ns);
        velstatus__free(client->ctx, client);
    }
}

velstatus_status velstatus_dm_client_init(velstatus_plugin_client *client, size_t struct_size, velstatus_dm_client *dm,
                                          velstatus_error *err)
{
    if (!client || !dm)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !client ? "client" : "dm");
    if (struct_size < sizeof(*client))
        return velstatus__error_set(err, VELSTATUS_E_ABI, "velstatus_plugin_client struct_size %zu is too small",
                                    struct_size);
    velstatus_plugin_client_init(client, struct_size);
    client->userdata = dm;
    client->progress = dm_progress;
    client->cancel = dm_cancel;
    return VELSTATUS_OK;
}
