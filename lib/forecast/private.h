/* SPDX-License-Identifier: Apache-2.0 */
/* The forecast's internals: the data mover's objects a forecast steps
 * (velstatus_forecast_new_dm, forecast_dm.c) beside the operations
 * (forecast.c). Not installed. */
#ifndef VELSTATUS_FORECAST_PRIVATE_H
#define VELSTATUS_FORECAST_PRIVATE_H

#include "datamover/private.h"
#include "operations/private.h"
#include "velstatus/forecast.h"

/* A private copy of the caller's DataUploads/DataDownloads, stepped with
 * the node-agent's decisions, and the plugin client answering from it. */
typedef struct vs_fc_dm {
    velstatus_dm_list *objs;
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
/* The node-agent's decisions due at `at`, written into the copy. */
velstatus_status velstatus__fc_dm_agent(vs_fc_dm *dm, int64_t at, velstatus_error *err);
/* spec.cancel set on the objects of the operations pass r canceled (the
 * CSI plugin's Cancel), then the node-agent's decisions due at `at`. */
velstatus_status velstatus__fc_dm_cancels(vs_fc_dm *dm, const velstatus_reconcile_result *r, int64_t at,
                                          velstatus_error *err);
/* The earliest instant after `after` at which an object's next decision
 * falls due, if any (*found). */
velstatus_status velstatus__fc_dm_next(vs_fc_dm *dm, int64_t after, int64_t *at, int *found, velstatus_error *err);

#endif /* VELSTATUS_FORECAST_PRIVATE_H */
