/* SPDX-License-Identifier: Apache-2.0 */
/* Argo CD's health of a Backup or Restore (phase.h,
 * velstatus_argo_health_of): Argo CD's own checks,
 * resource_customizations/velero.io/Backup/health.lua and
 * velero.io/Restore/health.lua, line for line. */
#include <string.h>

#include "phase/private.h"

static const char *const health_names[] = {"healthy", "progressing", "degraded"};
VS_ENUM_TOKENS(argo_health, velstatus_argo_health, health_names, "Argo CD health")

/* The phases both checks call Degraded. */
static const char *const degraded[] = {"FailedValidation", "Failed", "PartiallyFailed",
                                       "WaitingForPluginOperationsPartiallyFailed", "FinalizingPartiallyFailed"};

static int is(const char *s, size_t n, const char *lit)
{
    return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

velstatus_status velstatus_argo_health_of(velstatus_argo_health *health, const char **message, size_t *message_len,
                                          velstatus_kind kind, const char *phase, size_t phase_len,
                                          const char *failure_reason, size_t failure_reason_len, int deleting,
                                          velstatus_error *err)
{
    const char *msg;
    size_t n;
    if (!health || !message || !message_len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "health, message or message_len is NULL");
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind is %d: backup or restore", (int)kind);
    phase_len = velstatus__text_len(phase, phase_len);
    failure_reason_len = velstatus__text_len(failure_reason, failure_reason_len);
    *health = VELSTATUS_ARGO_PROGRESSING;
    if (kind == VELSTATUS_KIND_BACKUP && deleting) { /* the Backup check only */
        msg = "Pending deletion";
    } else if (!phase) {
        msg = kind == VELSTATUS_KIND_RESTORE ? "Waiting for restore to be processed"
                                             : "Waiting for backup to be processed";
    } else if (is(phase, phase_len, "Completed")) {
        *health = VELSTATUS_ARGO_HEALTHY;
        msg = kind == VELSTATUS_KIND_RESTORE ? "Restore completed" : "Backup completed";
    } else {
        *message = phase;
        *message_len = phase_len;
        for (size_t i = 0; i < VS_N(degraded); i++) {
            if (is(phase, phase_len, degraded[i])) {
                *health = VELSTATUS_ARGO_DEGRADED;
                if (failure_reason) { /* Lua's `or`: "" is a value */
                    *message = failure_reason;
                    *message_len = failure_reason_len;
                }
            }
        }
        return VELSTATUS_OK;
    }
    n = strlen(msg);
    *message = msg;
    *message_len = n;
    return VELSTATUS_OK;
}
