/* SPDX-License-Identifier: Apache-2.0 */
/* The objects Velero's own CSI plugins read (issue 26): --datauploads,
 * --datadownloads, --volumesnapshots and --volumesnapshotcontents, read with
 * the CLI's one reader (cli_read_input: JSON, YAML, gzip, a List or a watch
 * stream) and decoded by the library, and the chained host plugin client
 * built from them (datamover.h's client, then snapshot.h's, then the
 * caller's fallback). The CLI decides nothing here: it reads and chains. */
#ifndef VS_PLUGIN_OBJECTS_H
#define VS_PLUGIN_OBJECTS_H

#include "cli.h"

#include <velstatus/datamover.h>
#include <velstatus/snapshot.h>

/* The four options' values (NULL when not given). */
typedef struct cli_objects_paths {
    const char *datauploads, *datadownloads, *volumesnapshots, *volumesnapshotcontents;
} cli_objects_paths;

/* The four options, for a command's option table. */
#define CLI_OPT_PLUGIN_OBJECTS(p)                                                                            \
    CLI_VAL("--datauploads", 0, &(p)->datauploads, "FILE",                                                   \
            "`kubectl get datauploads -n velero -o json` (or YAML, a watch): the CSI data mover's answers"), \
        CLI_VAL("--datadownloads", 0, &(p)->datadownloads, "FILE",                                           \
                "`kubectl get datadownloads -n velero -o json`: the CSI restorer's answers"),                \
        CLI_VAL("--volumesnapshots", 0, &(p)->volumesnapshots, "FILE",                                       \
                "`kubectl get volumesnapshots -A -o json`: the CSI snapshot plugin's answers"),              \
        CLI_VAL("--volumesnapshotcontents", 0, &(p)->volumesnapshotcontents, "FILE",                         \
                "`kubectl get volumesnapshotcontents -o json`: the contents (alone: 1.12-1.13's content action)")

typedef struct cli_objects {
    int have_dm, have_snap; /* which of the two lists was given */
    velstatus_dm_list *dm;  /* DataUploads and DataDownloads (NULL when none given) */
    char *dm_text;          /* their text, as one watch stream (a later value replaces an object) */
    size_t dm_text_len;
    velstatus_snapshot_list *snap; /* VolumeSnapshots and their contents (NULL when none given) */
    velstatus_dm_client *dm_state; /* the data mover client's state */
    velstatus_snapshot_client_config snap_cfg;
    velstatus_plugin_client snap_client;
} cli_objects;

/* Whether any of the four options was given. */
int cli_objects_given(const cli_objects_paths *p);
/* Reads and decodes the files given (each checked on its own, so an error
 * names its file and position). Returns CLI_OK or CLI_BAD_INPUT (printed). */
int cli_objects_load(const char *cmd, velstatus_ctx *ctx, const cli_objects_paths *p, cli_objects *out);
/* Fills *client: the data mover client (when DataUploads/DataDownloads were
 * given), then the snapshot client (when VolumeSnapshots were), then
 * fallback (NULL: answered as the reconcile answers a NULL client). now_ns is
 * the snapshot plugin's clock; ns Velero's namespace (NULL: velero). The
 * state lives in o; call again to move now_ns. */
int cli_objects_client(const char *cmd, velstatus_ctx *ctx, cli_objects *o, const char *ns, int major, int minor,
                       int64_t now_ns, const velstatus_plugin_client *fallback, velstatus_plugin_client *client);
void cli_objects_free(cli_objects *o);

#endif /* VS_PLUGIN_OBJECTS_H */
