/* SPDX-License-Identifier: Apache-2.0 */
/* Internal entry points of the retry area (include/velstatus/retry.h), for
 * other modules of the library. Not installed. */
#ifndef VELSTATUS_RETRY_PRIVATE_H
#define VELSTATUS_RETRY_PRIVATE_H

#include "phase/private.h"
#include "velstatus/retry.h"

#define VS_BACKOFF_SIZE_V1 VS_SIZE_THROUGH(velstatus_backoff, cap_ns)
#define VS_RETRY_HOST_SIZE_V1 VS_SIZE_THROUGH(velstatus_retry_host, now)
#define VS_RETRY_SCHEDULE_SIZE_V1 VS_SIZE_THROUGH(velstatus_retry_schedule, deadline_ns)

/* Retries one status write as an already loaded policy says; the body of
 * velstatus_retry_run(), and the entry point the server-status publisher
 * uses. Velero preset -> client-go v0.36.0 OnError over
 * CapBackoff(resource_timeout_ns) (classify consulted only with
 * retry_classify_errors); hardened -> the hardened schedule (velstatus_retry_schedule_init())
 * with deadline_ns = resource_timeout_ns when > 0.
 *
 * `policy` must already be loaded (velstatus__policy_load); `host` is a
 * caller's vtable, checked and copied here (host->attempt publishes once).
 * `out` (may be NULL) receives the result; `*succeeded` (may be NULL) is 1
 * when the write went through (or, Velero with Steps <= 0, was never tried),
 * 0 when the retries ended with an error. A failed write is not a failed
 * call: the status is VELSTATUS_OK; E_HOST means a callback itself failed. */
velstatus_status velstatus__retry_run(velstatus_retry_result **out, int *succeeded, velstatus_ctx *ctx,
                                      const velstatus_policy *policy, int64_t resource_timeout_ns,
                                      const velstatus_retry_host *host, velstatus_error *err);

/* Go's float64 -> int64 conversion as amd64 does it (CVTTSD2SI), without C's
 * undefined behaviour: truncation toward zero inside [-2^63, 2^63), and
 * INT64_MIN (0x8000000000000000) for anything outside and for NaN. */
int64_t velstatus__retry_f2i(double x);

#endif /* VELSTATUS_RETRY_PRIVATE_H */
