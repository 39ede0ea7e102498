/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus.h
 * @brief libvelstatus: Velero's status decisions as a pure, I/O-free C library.
 *
 * The umbrella header: it includes every module header and nothing else.
 *
 * libvelstatus has no mutable global state and no global init or cleanup
 * function. Distinct ::velstatus_ctx objects may be used concurrently from
 * different threads. A single ctx, and anything obtained from it, must not
 * be used by two threads at once; libvelstatus does no locking. Objects
 * documented as immutable may be read concurrently. Errors come back in the
 * caller's ::velstatus_error and are never stored in thread-local state. Host
 * callbacks run synchronously on the calling thread, during the call.
 * The library links no other library than libm (it reads JSON with its own
 * scanner), so it has no third-party global state either.
 */
#ifndef VELSTATUS_H
#define VELSTATUS_H

#include "velstatus/common.h"
#include "velstatus/status.h"
#include "velstatus/version.h"
#include "velstatus/host.h"
#include "velstatus/time.h"
#include "velstatus/policy.h"
#include "velstatus/phase.h"
#include "velstatus/backup_object.h"
#include "velstatus/watch.h"
/* @AREA_HEADERS@ : each decision area adds its header below, in this order. */
#include "velstatus/server_status.h"
#include "velstatus/operations.h"
#include "velstatus/datamover.h"
#include "velstatus/forecast.h"
#include "velstatus/progress.h"
#include "velstatus/retry.h"
#include "velstatus/json.h"
#include "velstatus/decoder.h"
#include "velstatus/snapshot.h"

#endif /* VELSTATUS_H */
