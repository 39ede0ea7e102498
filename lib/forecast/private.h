/* SPDX-License-Identifier: Apache-2.0 */
/* The forecast's internals: the objects Velero's own CSI plugins read, which
 * a forecast steps (the data mover's) or reads as they are (the snapshots)
 * beside the operations (velstatus_forecast_new_dm, forecast_dm.c;
 * forecast.c). Not installed. */
#ifndef VELSTATUS_FORECAST_PRIVATE_H
#define VELSTATUS_FORECAST_PRIVATE_H

#include "datamover/private.h"
#include "operations/private.h"
#include "velstatus/forecast.h"
#include "velstatus/snapshot.h"

/* A private copy of the caller's DataUploads/DataDownloads (objs, NULL when
 * none were given), stepped with the node-agent's decisions, the caller's
 * VolumeSnapshots and contents (snaps, NULL when none were given: nothing in
 * the forecast changes them), and the plugin clients answering from them:
 * the data mover's, then the snapshot plugin's, then the recorded progress. */
typedef struct vs_fc_dm {
    velstatus_dm_list *objs;
    const velstatus_snapshot_list *snaps;
    velstatus_snapshot_client_config snap_cfg; /* its now_ns is each pass's instant */
    velstatus_plugin_client snap_client;
    velstatus_dm_client *client;
    velstatus_dm_kind kind;
    const char *ns;
    size_t ns_len;
    int major, minor;
    velstatus_dm_config cfg; /* the caller's, of this library's size */
    int64_t *seen;           /* per object: when the controller saw spec.cancel (has_seen) */
    uint8_t *has_seen;
} vs_fc_dm;

/* The forecast of velstatus_forecast_new(), with dm (or NULL: every plugin
 * keeps reporting what its record holds). */
velstatus_status velstatus__forecast_run(velstatus_forecast **out, const velstatus_oplist *list,
                                         const velstatus_reconcile_options *opts, const velstatus_policy *policy,
                                         vs_fc_dm *dm, velstatus_error *err);
/* The node-agent's decisions due at `at`, written into the copy (none
 * without DataUploads); the snapshot plugin's clock set to `at`. */
velstatus_status velstatus__fc_dm_agent(vs_fc_dm *dm, int64_t at, velstatus_error *err);
/* spec.cancel set on the objects of the CSI PVC operations of sim that
 * pass r canceled (that plugin's Cancel), then the node-agent's decisions
 * due at `at`. */
velstatus_status velstatus__fc_dm_cancels(vs_fc_dm *dm, const velstatus_oplist *sim,
                                          const velstatus_reconcile_result *r, int64_t at, velstatus_error *err);
/* The earliest instant after `after` at which an object's next decision
 * falls due, if any (*found). */
velstatus_status velstatus__fc_dm_next(vs_fc_dm *dm, int64_t after, int64_t *at, int *found, velstatus_error *err);

#endif /* VELSTATUS_FORECAST_PRIVATE_H */
