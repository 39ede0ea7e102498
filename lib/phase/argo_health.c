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

/* ---- the kstatus-style conditions (backup_object.h) ---- */

static const char *const condition_names[] = {"False", "True", "Unknown"};
VS_ENUM_TOKENS(condition_status, velstatus_condition_status, condition_names, "condition status")

void velstatus_backup_conditions_init(velstatus_backup_conditions *c, size_t struct_size)
{
    velstatus__sized_init(c, struct_size, NULL, sizeof(*c));
}

/* Whether the phase is valid for the kind, and in the policy's release. */
static velstatus_status phase_known(velstatus_backup_conditions *c, velstatus_kind kind, const char *phase, size_t len,
                                    const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_phase ph;
    c->phase_valid = 1;
    c->phase_in_release = 1;
    if (!phase)
        return VELSTATUS_OK;
    c->phase_valid =
        velstatus_phase_from_string(&ph, phase, len, NULL) == VELSTATUS_OK && velstatus_phase_valid(kind, ph);
    return c->phase_valid ? velstatus_phase_exists(&c->phase_in_release, kind, ph, policy, err) : VELSTATUS_OK;
}

/* Ready, Reconciling and Stalled, and their reason. */
static void conditions(velstatus_backup_conditions *c, const char *phase, size_t len, int deleting)
{
    static const char *const stalled[] = {"Failed", "FailedValidation", "PartiallyFailed"};
    c->ready = c->stalled = VELSTATUS_CONDITION_FALSE;
    c->reconciling = VELSTATUS_CONDITION_TRUE;
    c->reason = !phase ? "NoStatus" : len == 0 ? "New" : phase;
    if (deleting) {
        c->reason = "Deleting";
        return;
    }
    if (phase && !(c->phase_valid && c->phase_in_release)) {
        c->ready = c->reconciling = c->stalled = VELSTATUS_CONDITION_UNKNOWN;
        c->reason = "UnknownPhase";
        return;
    }
    if (phase && is(phase, len, "Completed")) {
        c->ready = VELSTATUS_CONDITION_TRUE;
        c->reconciling = VELSTATUS_CONDITION_FALSE;
    }
    for (size_t i = 0; phase && i < VS_N(stalled); i++) {
        if (is(phase, len, stalled[i])) {
            c->reconciling = VELSTATUS_CONDITION_FALSE;
            c->stalled = VELSTATUS_CONDITION_TRUE;
        }
    }
}

velstatus_status velstatus_backup_conditions_of(velstatus_backup_conditions *out, velstatus_kind kind,
                                                const char *phase, size_t phase_len, int deleting,
                                                const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_backup_conditions c;
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind is %d: backup or restore", (int)kind);
    VS_TRY(velstatus__sized_copy(&c, sizeof(c), VS_BACKUP_CONDITIONS_SIZE_V1, out, "backup_conditions", err));
    phase_len = velstatus__text_len(phase, phase_len);
    VS_TRY(phase_known(&c, kind, phase, phase_len, policy, err));
    conditions(&c, phase, phase_len, deleting);
    c.reason_len = c.reason == phase ? phase_len : strlen(c.reason);
    c.struct_size = out->struct_size;
    c.flags = out->flags;
    memcpy(out, &c, out->struct_size < sizeof(c) ? out->struct_size : sizeof(c));
    return VELSTATUS_OK;
}
