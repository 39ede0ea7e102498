/* SPDX-License-Identifier: Apache-2.0 */
/* The data-mover area's internals (include/velstatus/datamover.h). Not
 * installed. */
#ifndef VELSTATUS_DATAMOVER_PRIVATE_H
#define VELSTATUS_DATAMOVER_PRIVATE_H

#include "phase/private.h"
#include "velstatus/datamover.h"

#define VS_DM_OBJECT_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_object, accepted_ns)
#define VS_DM_CONFIG_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_config, resume_error_len)
#define VS_DM_DECISION_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_decision, message)

#endif /* VELSTATUS_DATAMOVER_PRIVATE_H */
