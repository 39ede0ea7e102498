/* Internal entry points of the retry area (include/velstatus/retry.h), for
 * other modules of the library (the server-status publisher). Not installed. */
#ifndef VELSTATUS_RETRY_PRIVATE_H
#define VELSTATUS_RETRY_PRIVATE_H

#include "velstatus_private.h"

/* Retries one status write as an already loaded policy says (the body of
 * velstatus_retry_run()): Velero preset -> OnError v0.36.0 over
 * CapBackoff(resource_timeout_ns); hardened -> the hardened schedule with
 * that deadline. `host` is a caller's vtable (checked and copied here).
 * `out` may be NULL when the caller only needs the status; then *succeeded
 * (may be NULL) tells whether the write finally went through, and on a
 * failed write the returned error's text is put into `err` as
 * VELSTATUS_E_HOST ... no: the status stays VELSTATUS_OK and *succeeded is 0;
 * use `out` to read the error. */
velstatus_status velstatus__retry_run(velstatus_retry_result **out, int *succeeded, velstatus_ctx *ctx,
                                      const velstatus_policy *policy, int64_t resource_timeout_ns,
                                      const velstatus_retry_host *host, velstatus_error *err);

/* The amd64 float64 -> int64 conversion (CVTTSD2SI): truncation toward zero
 * for values in [-2^63, 2^63), INT64_MIN for everything else and NaN. */
int64_t velstatus__retry_f2i(double x);

#endif /* VELSTATUS_RETRY_PRIVATE_H */
