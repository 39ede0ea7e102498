/* SPDX-License-Identifier: Apache-2.0 */
/* The host plugin client of the CSI snapshot actions (snapshot.h): answers
 * the records of `velero.io/csi-volumesnapshot-backupper` and `-restorer`
 * with velstatus_snapshot_progress(), those of
 * `velero.io/csi-volumesnapshotcontent-backupper` with
 * velstatus_snapshot_content_progress(), and hands every other one to the
 * fallback client. */
#include "snapshot/private.h"

#include <string.h>

#define VS_SNAPSHOT_CLIENT_CONFIG_SIZE_V1 VS_SIZE_THROUGH(velstatus_snapshot_client_config, fallback)

void velstatus_snapshot_client_config_init(velstatus_snapshot_client_config *config, size_t struct_size)
{
    if (!config)
        return;
    memset(config, 0, struct_size);
    config->struct_size = (uint32_t)struct_size;
}

/* Whether action name a (len bytes) is `want`, named as the plugin manager
 * names it (a name without '/' is "velero.io/<name>"). */
static int names(const char *a, size_t len, const char *want)
{
    size_t wl = strlen(want), pl = strlen("velero.io/");
    if (!velstatus__plugin_name_prefix(a, len))
        return len == pl + wl && memcmp(a, "velero.io/", pl) == 0 && memcmp(a + pl, want, wl) == 0;
    return len == wl && memcmp(a, want, wl) == 0;
}

/* Which of the answered actions record i names: 0 none, 1 the
 * VolumeSnapshot plugin's, 2 the VolumeSnapshotContent backup action's. */
static int whose(const velstatus_oplist *list, size_t i)
{
    size_t len;
    const char *a = velstatus_op_string(velstatus_oplist_at(list, i), VELSTATUS_OP_FIELD_ITEM_ACTION, &len);
    if (!a)
        return 0;
    if (velstatus_oplist_kind(list) == VELSTATUS_KIND_RESTORE)
        return names(a, len, "csi-volumesnapshot-restorer");
    if (names(a, len, "csi-volumesnapshot-backupper"))
        return 1;
    return names(a, len, "csi-volumesnapshotcontent-backupper") ? 2 : 0;
}

static int snapshot_progress_cb(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const velstatus_snapshot_client_config *cfg = userdata;
    const velstatus_plugin_client *fb = cfg->fallback;
    velstatus_op_progress p;
    char *text = NULL;
    size_t len;
    const char *id;
    velstatus_status st;
    int who = whose(list, index);
    if (!who)
        return fb && fb->progress ? fb->progress(fb->userdata, list, index, reply) : VELSTATUS_PASSTHROUGH;
    id = velstatus_op_string(velstatus_oplist_at(list, index), VELSTATUS_OP_FIELD_OPERATION_ID, &len);
    velstatus_op_progress_init(&p, sizeof(p));
    if (who == 2)
        st = velstatus_snapshot_content_progress(&p, &text, cfg->snapshots, id, len, cfg->major, cfg->minor, NULL);
    else
        st = velstatus_snapshot_progress(&p, &text, cfg->snapshots, velstatus_oplist_kind(list), id, len, cfg->now_ns,
                                         cfg->major, cfg->minor, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_op_reply_set_progress(reply, &p, NULL);
    velstatus_free(cfg->snapshots->pool.ctx, text);
    if (st == VELSTATUS_E_NOMEM)
        reply->oom = 1; /* the pass ends with E_NOMEM, not a host error */
    return (int)st;
}

static int snapshot_cancel_cb(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    const velstatus_snapshot_client_config *cfg = userdata;
    const velstatus_plugin_client *fb = cfg->fallback;
    if (whose(list, index))
        return 0; /* the CSI specification cannot cancel a snapshot: Cancel returns nil */
    return fb && fb->cancel ? fb->cancel(fb->userdata, list, index, reply) : VELSTATUS_PASSTHROUGH;
}

/* The configuration's checks. */
static velstatus_status check_config(const velstatus_snapshot_client_config *cfg, velstatus_error *err)
{
    velstatus_snapshot_client_config c;
    velstatus_plugin_client fb;
    VS_TRY(velstatus__sized_copy(&c, sizeof(c), VS_SNAPSHOT_CLIENT_CONFIG_SIZE_V1, cfg, "config", err));
    if (c.flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "config.flags must be 0");
    if (!c.snapshots)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "config.snapshots is NULL");
    if (velstatus__release_index(c.major, c.minor, err) < 0)
        return VELSTATUS_E_INVALID;
    if (!c.fallback)
        return VELSTATUS_OK;
    VS_TRY(velstatus__sized_copy(&fb, sizeof(fb), VS_PLUGIN_CLIENT_SIZE_V1, c.fallback, "config.fallback", err));
    return fb.flags == 0 ? VELSTATUS_OK
                         : velstatus__error_set(err, VELSTATUS_E_INVALID, "config.fallback.flags must be 0");
}

velstatus_status velstatus_snapshot_client_init(velstatus_plugin_client *client, size_t client_size,
                                                const velstatus_snapshot_client_config *config, velstatus_error *err)
{
    velstatus_plugin_client c;
    if (!client || !config)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "client or config is NULL");
    if (client_size < VS_PLUGIN_CLIENT_SIZE_V1)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "client_size %zu is below the first layout", client_size);
    VS_TRY(check_config(config, err));
    velstatus_plugin_client_init(&c, sizeof(c));
    c.userdata = (void *)(uintptr_t)config;
    c.progress = snapshot_progress_cb;
    c.cancel = snapshot_cancel_cb;
    velstatus_plugin_client_init(client, client_size);
    memcpy(client, &c, client_size < sizeof(c) ? client_size : sizeof(c));
    client->struct_size = (uint32_t)client_size;
    return VELSTATUS_OK;
}
