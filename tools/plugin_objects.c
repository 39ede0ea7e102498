/* SPDX-License-Identifier: Apache-2.0 */
/* --datauploads, --datadownloads, --volumesnapshots, --volumesnapshotcontents:
 * read, decoded by the library, and chained into one plugin client
 * (plugin_objects.h). */
#include "plugin_objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_objects_given(const cli_objects_paths *p)
{
    return p->datauploads || p->datadownloads || p->volumesnapshots || p->volumesnapshotcontents;
}

typedef velstatus_status (*decode_fn)(void **out, velstatus_ctx *ctx, const char *json, size_t len,
                                      velstatus_error *err);

static velstatus_status decode_dm(void **out, velstatus_ctx *ctx, const char *json, size_t len, velstatus_error *err)
{
    return velstatus_dm_list_from_json((velstatus_dm_list **)out, ctx, json, len, err);
}

static velstatus_status decode_snap(void **out, velstatus_ctx *ctx, const char *json, size_t len, velstatus_error *err)
{
    return velstatus_snapshot_list_from_json((velstatus_snapshot_list **)out, ctx, json, len, err);
}

static void free_dm(void *l)
{
    velstatus_dm_list_free(l);
}

static void free_snap(void *l)
{
    velstatus_snapshot_list_free(l);
}

/* Reads one file and checks that it decodes on its own (so an error names
 * it), appending its text to *all (the two files of a pair are then decoded
 * as one watch stream: values one after another). */
static int read_one(const char *cmd, velstatus_ctx *ctx, const char *flag, const char *path, decode_fn decode,
                    void (*release)(void *), char **all, size_t *all_len)
{
    velstatus_error err;
    void *list = NULL;
    size_t len;
    char *buf = cli_read_input(cmd, path, &len), *grown;
    if (!buf)
        return CLI_BAD_INPUT;
    if (decode(&list, ctx, buf, len, &err) != VELSTATUS_OK) {
        char what[256];
        snprintf(what, sizeof what, "%s %s", flag, strcmp(path, "-") == 0 ? "stdin" : path);
        free(buf);
        return cli_fail_err(cmd, what, &err);
    }
    release(list);
    grown = realloc(*all, *all_len + len + 2);
    if (!grown) {
        free(buf);
        return cli_fail(cmd, "%s: out of memory", flag);
    }
    memcpy(grown + *all_len, buf, len);
    grown[*all_len + len] = '\n';
    *all_len += len + 1;
    grown[*all_len] = '\0';
    *all = grown;
    free(buf);
    return CLI_OK;
}

/* Reads the pair of files of one decoder (either may be NULL) into *out. */
static int load_pair(const char *cmd, velstatus_ctx *ctx, const char *flag_a, const char *a, const char *flag_b,
                     const char *b, decode_fn decode, void (*release)(void *), void **out, char **text,
                     size_t *text_len)
{
    char *all = NULL;
    size_t len = 0;
    velstatus_error err;
    int rc = CLI_OK;
    if (a)
        rc = read_one(cmd, ctx, flag_a, a, decode, release, &all, &len);
    if (rc == CLI_OK && b)
        rc = read_one(cmd, ctx, flag_b, b, decode, release, &all, &len);
    if (rc == CLI_OK && decode(out, ctx, all, len, &err) != VELSTATUS_OK)
        rc = cli_fail_err(cmd, flag_a, &err);
    if (rc == CLI_OK && text) {
        *text = all, *text_len = len;
        return rc;
    }
    free(all);
    return rc;
}

int cli_objects_load(const char *cmd, velstatus_ctx *ctx, const cli_objects_paths *p, cli_objects *out)
{
    int rc = CLI_OK;
    memset(out, 0, sizeof *out);
    if (p->datauploads || p->datadownloads) {
        void *l = NULL;
        rc = load_pair(cmd, ctx, "--datauploads", p->datauploads, "--datadownloads", p->datadownloads, decode_dm,
                       free_dm, &l, &out->dm_text, &out->dm_text_len);
        out->dm = l;
        out->have_dm = rc == CLI_OK;
    }
    /* either alone is enough: the VolumeSnapshotContent action of 1.12 and
     * 1.13 reads only the contents */
    if (rc == CLI_OK && (p->volumesnapshots || p->volumesnapshotcontents)) {
        void *l = NULL;
        rc = load_pair(cmd, ctx, "--volumesnapshots", p->volumesnapshots, "--volumesnapshotcontents",
                       p->volumesnapshotcontents, decode_snap, free_snap, &l, NULL, NULL);
        out->snap = l;
        out->have_snap = rc == CLI_OK;
    }
    return rc;
}

int cli_objects_client(const char *cmd, velstatus_ctx *ctx, cli_objects *o, const char *ns, int major, int minor,
                       int64_t now_ns, const velstatus_plugin_client *fallback, velstatus_plugin_client *client)
{
    velstatus_error err;
    const velstatus_plugin_client *next = fallback;
    if (o->have_snap) {
        velstatus_snapshot_client_config_init(&o->snap_cfg, sizeof o->snap_cfg);
        o->snap_cfg.snapshots = o->snap;
        o->snap_cfg.major = major, o->snap_cfg.minor = minor, o->snap_cfg.now_ns = now_ns;
        o->snap_cfg.fallback = fallback;
        if (velstatus_snapshot_client_init(&o->snap_client, sizeof o->snap_client, &o->snap_cfg, &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "--volumesnapshots", &err);
        next = &o->snap_client;
    }
    if (!o->have_dm) {
        if (next)
            *client = *next;
        else
            velstatus_plugin_client_init(client, sizeof *client);
        return CLI_OK;
    }
    velstatus_dm_client_free(o->dm_state);
    o->dm_state = NULL;
    if (velstatus_dm_client_new(&o->dm_state, ctx, o->dm, ns, VELSTATUS_NUL_TERMINATED, major, minor, next, &err) !=
            VELSTATUS_OK ||
        velstatus_dm_client_init(client, sizeof *client, o->dm_state, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "--datauploads", &err);
    return CLI_OK;
}

void cli_objects_free(cli_objects *o)
{
    velstatus_dm_client_free(o->dm_state);
    velstatus_dm_list_free(o->dm);
    velstatus_snapshot_list_free(o->snap);
    free(o->dm_text);
    memset(o, 0, sizeof *o);
}
