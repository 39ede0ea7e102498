/* SPDX-License-Identifier: Apache-2.0 */
/* Backup and restore phases: wire spelling, terminal set, legal transitions
 * (doc/velero-behaviour.md §5), the phase after the main run (§2.7), restart handling. */
#include "phase/private.h"

#include <string.h>

#define PHASE_LAST VELSTATUS_PHASE_DELETING

static const char *const phase_names[] = {
    "New",
    "Queued",
    "ReadyToStart",
    "FailedValidation",
    "InProgress",
    "WaitingForPluginOperations",
    "WaitingForPluginOperationsPartiallyFailed",
    "Finalizing",
    "FinalizingPartiallyFailed",
    "Completed",
    "PartiallyFailed",
    "Failed",
    "Deleting",
};
_Static_assert(sizeof(phase_names) / sizeof(phase_names[0]) == PHASE_LAST + 1, "phase table size");

static const char *const kind_names[] = {"backup", "restore"};

VS_ENUM_TOKENS(kind, velstatus_kind, kind_names, "kind")

const char *velstatus_phase_to_string(velstatus_phase phase)
{
    return velstatus__token_of(phase_names, PHASE_LAST + 1, (int)phase);
}

int velstatus_phase_valid(velstatus_kind kind, velstatus_phase phase)
{
    if ((unsigned)phase > (unsigned)PHASE_LAST)
        return 0;
    switch (kind) {
    case VELSTATUS_KIND_BACKUP: return 1;
    case VELSTATUS_KIND_RESTORE:
        return phase != VELSTATUS_PHASE_QUEUED && phase != VELSTATUS_PHASE_READY_TO_START &&
               phase != VELSTATUS_PHASE_DELETING;
    case VELSTATUS_KIND_INVALID: break;
    }
    return 0;
}

velstatus_status velstatus_phase_from_string(velstatus_phase *out, const char *s, size_t len, velstatus_error *err)
{
    len = velstatus__text_len(s, len);
    if (!out || (!s && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase: NULL argument");
    if (len == 0) {
        *out = VELSTATUS_PHASE_NEW; /* Velero shows "" as New (doc/velero-behaviour.md §3.2) */
        return VELSTATUS_OK;
    }
    int i = velstatus__token_find(phase_names, PHASE_LAST + 1, s, len);
    if (i < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase: unknown phase \"%.*s\"", len > 64 ? 64 : (int)len,
                                    s);
    *out = (velstatus_phase)i;
    return VELSTATUS_OK;
}

int velstatus_phase_is_terminal(velstatus_kind kind, velstatus_phase phase)
{
    if (!velstatus_phase_valid(kind, phase))
        return 0;
    switch (phase) {
    case VELSTATUS_PHASE_FAILED_VALIDATION:
    case VELSTATUS_PHASE_COMPLETED:
    case VELSTATUS_PHASE_PARTIALLY_FAILED:
    case VELSTATUS_PHASE_FAILED: return 1;
    default: return 0;
    }
}

/* ---- transitions (doc/velero-behaviour.md §5.2 backup, §5.3 restore) ---- */

#define P(x) VELSTATUS_PHASE_##x

/* Which releases a transition exists in (doc/velero-releases.md): always,
 * only with the backup queue (Velero 1.18+) or only without it, only with
 * restore Finalizing phases (1.14+) or only without them. QUEUE and
 * NO_QUEUE concern backups only, FIN and NO_FIN restores only: a row of the
 * other kind exists whatever the release. */
enum { ALL = 0, QUEUE = 1, NO_QUEUE = 2, FIN = 3, NO_FIN = 4 };

/* The kinds a row applies to. */
enum { B = 1, R = 2, BR = 3 };

/* The controller that makes a transition, by kind (doc/velero-behaviour.md §5.1). */
enum { RUN, RUN_STARTUP, OPS, FINALIZER, QUEUER, DELETION, N_ROLES };
static const char *const controllers[2][N_ROLES] = {
    {"backup", "backup, server-startup", "backup-operations", "backup-finalizer", "backup-queue", "backup-deletion"},
    {"restore", "restore, server-startup", "restore-operations", "restore-finalizer", "", ""},
};

typedef struct transition {
    unsigned char from, to, role, kinds, when;
} transition;

static const transition transitions[] = {
    {P(NEW), P(QUEUED), QUEUER, B, QUEUE},
    {P(QUEUED), P(READY_TO_START), QUEUER, B, QUEUE},
    {P(READY_TO_START), P(FAILED_VALIDATION), RUN, B, QUEUE},
    {P(READY_TO_START), P(IN_PROGRESS), RUN, B, QUEUE},
    /* Before the queue the backup controller took a New backup itself. */
    {P(NEW), P(FAILED_VALIDATION), RUN, BR, NO_QUEUE},
    {P(NEW), P(IN_PROGRESS), RUN, BR, NO_QUEUE},
    {P(IN_PROGRESS), P(FAILED), RUN_STARTUP, BR, ALL},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS), RUN, BR, ALL},
    {P(IN_PROGRESS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), RUN, BR, ALL},
    {P(IN_PROGRESS), P(FINALIZING), RUN, BR, FIN},
    {P(IN_PROGRESS), P(FINALIZING_PARTIALLY_FAILED), RUN, BR, FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), OPS, BR, ALL},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING), OPS, BR, FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(FINALIZING_PARTIALLY_FAILED), OPS, BR, FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(FINALIZING_PARTIALLY_FAILED), OPS, BR, FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), OPS, B, ALL},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(PARTIALLY_FAILED), OPS, B, ALL},
    {P(FINALIZING), P(COMPLETED), FINALIZER, BR, FIN},
    {P(FINALIZING), P(PARTIALLY_FAILED), FINALIZER, R, FIN},
    {P(FINALIZING_PARTIALLY_FAILED), P(PARTIALLY_FAILED), FINALIZER, BR, FIN},
    /* Before the restore finalizer (Velero 1.11-1.13) the run and the
     * operations controller ended a restore themselves, and a missing backup
     * or BSL (or, in 1.11, a read-only one) made it PartiallyFailed. */
    {P(IN_PROGRESS), P(COMPLETED), RUN, R, NO_FIN},
    {P(IN_PROGRESS), P(PARTIALLY_FAILED), RUN, R, NO_FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(COMPLETED), OPS, R, NO_FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(PARTIALLY_FAILED), OPS, R, NO_FIN},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(PARTIALLY_FAILED), OPS, R, NO_FIN},
    /* Backup deletion: any phase the in-memory tracker does not hold
     * (doc/velero-behaviour.md §5.2, last rows). InProgress is always
     * tracked; Waiting* and Finalizing* only until a restart. */
    {P(NEW), P(DELETING), DELETION, B, ALL},
    {P(QUEUED), P(DELETING), DELETION, B, QUEUE},
    {P(READY_TO_START), P(DELETING), DELETION, B, QUEUE},
    {P(FAILED_VALIDATION), P(DELETING), DELETION, B, ALL},
    {P(WAITING_FOR_PLUGIN_OPERATIONS), P(DELETING), DELETION, B, ALL},
    {P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED), P(DELETING), DELETION, B, ALL},
    {P(FINALIZING), P(DELETING), DELETION, B, ALL},
    {P(FINALIZING_PARTIALLY_FAILED), P(DELETING), DELETION, B, ALL},
    {P(COMPLETED), P(DELETING), DELETION, B, ALL},
    {P(PARTIALLY_FAILED), P(DELETING), DELETION, B, ALL},
    {P(FAILED), P(DELETING), DELETION, B, ALL},
};

static int transition_exists(const transition *t, velstatus_kind kind, const velstatus_policy *pol)
{
    int backup = kind == VELSTATUS_KIND_BACKUP;
    if (!(t->kinds & (backup ? B : R)))
        return 0;
    switch (t->when) {
    case QUEUE: return !backup || pol->backup_queue != 0;
    case NO_QUEUE: return !backup || pol->backup_queue == 0;
    case FIN: return backup || pol->restore_finalizing != 0;
    case NO_FIN: return backup || pol->restore_finalizing == 0;
    default: return 1;
    }
}

int velstatus__phase_in_release(velstatus_kind kind, velstatus_phase phase, const velstatus_policy *pol)
{
    if (!velstatus_phase_valid(kind, phase))
        return 0;
    if (phase == P(QUEUED) || phase == P(READY_TO_START))
        return pol->backup_queue != 0;
    if (kind == VELSTATUS_KIND_RESTORE && (phase == P(FINALIZING) || phase == P(FINALIZING_PARTIALLY_FAILED)))
        return pol->restore_finalizing != 0;
    return 1;
}

velstatus_status velstatus__phase_check(velstatus_kind kind, velstatus_phase phase, const velstatus_policy *pol,
                                        const char *field, velstatus_error *err)
{
    const char *k = velstatus_kind_to_string(kind), *name = velstatus_phase_to_string(phase);
    if (!name)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: unknown phase %d", field, (int)phase);
    if (!velstatus_phase_valid(kind, phase))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s: a %s has no phase \"%s\"", field, k, name);
    if (!velstatus__phase_in_release(kind, phase, pol))
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "%s: a %s has no phase \"%s\" in this Velero release (%s)", field, k, name,
                                    kind == VELSTATUS_KIND_RESTORE ? "restore Finalizing phases exist from Velero 1.14"
                                                                   : "Queued and ReadyToStart exist from Velero 1.18");
    return VELSTATUS_OK;
}

/* The kind and the caller's policy, loaded into *pol: the first arguments
 * of every phase call. */
static velstatus_status kind_and_policy(velstatus_policy *pol, velstatus_kind kind, const velstatus_policy *policy,
                                        velstatus_error *err)
{
    if (!velstatus_kind_to_string(kind))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind: unknown value %d", (int)kind);
    return velstatus__policy_load(pol, policy, err);
}

velstatus_status velstatus__transition_check(velstatus_kind kind, velstatus_phase from, velstatus_phase to,
                                             const velstatus_policy *pol, velstatus_error *err)
{
    VS_TRY(velstatus__phase_check(kind, from, pol, "from", err));
    return velstatus__phase_check(kind, to, pol, "to", err);
}

velstatus_status velstatus_phase_exists(int *exists, velstatus_kind kind, velstatus_phase phase,
                                        const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_policy pol;
    if (!exists)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "exists is NULL");
    VS_TRY(kind_and_policy(&pol, kind, policy, err));
    *exists = velstatus__phase_in_release(kind, phase, &pol);
    return VELSTATUS_OK;
}

velstatus_status velstatus_phase_transition(int *legal, const char **controller, velstatus_kind kind,
                                            velstatus_phase from, velstatus_phase to, const velstatus_policy *policy,
                                            velstatus_error *err)
{
    velstatus_policy pol;
    if (!legal)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "legal is NULL");
    VS_TRY(kind_and_policy(&pol, kind, policy, err));
    VS_TRY(velstatus__transition_check(kind, from, to, &pol, err));
    *legal = 0;
    if (controller)
        *controller = "";
    if (from == to) {
        *legal = 1;
        if (controller)
            *controller = "none";
        return VELSTATUS_OK;
    }
    for (size_t i = 0; i < VS_N(transitions); i++) {
        const transition *t = &transitions[i];
        if (t->from == from && t->to == to && transition_exists(t, kind, &pol)) {
            *legal = 1;
            if (controller)
                *controller = controllers[kind == VELSTATUS_KIND_BACKUP ? 0 : 1][t->role];
            break;
        }
    }
    return VELSTATUS_OK;
}

velstatus_phase velstatus_phase_after_run(velstatus_kind kind, int fatal, int64_t errors_logged, int in_progress)
{
    (void)kind; /* doc/velero-behaviour.md §2.7: the backup and restore controllers use the same table */
    if (fatal)
        return VELSTATUS_PHASE_FAILED;
    if (errors_logged > 0)
        return in_progress ? VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED
                           : VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED;
    return in_progress ? VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS : VELSTATUS_PHASE_FINALIZING;
}

velstatus_status velstatus_phase_on_restart(velstatus_restart_action *action, velstatus_phase *next,
                                            velstatus_kind kind, velstatus_phase phase, const velstatus_policy *policy,
                                            velstatus_error *err)
{
    velstatus_policy pol;
    velstatus_restart_action a;
    if (!action)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "action is NULL");
    VS_TRY(kind_and_policy(&pol, kind, policy, err));
    VS_TRY(velstatus__phase_check(kind, phase, &pol, "phase", err));
    switch (phase) {
    case P(IN_PROGRESS):
        /* SRV:markInProgressBackupsFailed / markInProgressRestoresFailed */
        a = VELSTATUS_RESTART_MARK_FAILED;
        break;
    case P(READY_TO_START):
        /* doc/velero-behaviour.md §6.17: BC's Create predicate is false and the tracker is lost */
        a = pol.requeue_ready_to_start_on_restart ? VELSTATUS_RESTART_REQUEUE : VELSTATUS_RESTART_NONE;
        break;
    case P(NEW):
    case P(QUEUED):
    case P(WAITING_FOR_PLUGIN_OPERATIONS):
    case P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED):
    case P(FINALIZING):
    case P(FINALIZING_PARTIALLY_FAILED):
    case P(DELETING): a = VELSTATUS_RESTART_REQUEUE; break;
    default:
        a = VELSTATUS_RESTART_NONE; /* terminal */
        break;
    }
    *action = a;
    if (next)
        *next = a == VELSTATUS_RESTART_MARK_FAILED ? P(FAILED) : phase;
    return VELSTATUS_OK;
}

static const char *const restart_names[] = {"none", "mark_failed", "requeue"};

VS_ENUM_TOKENS(restart_action, velstatus_restart_action, restart_names, "restart action")


/* ---- BSL validation texts (doc/velero-releases.md) ---- */

static const char *const bsl_validation_names[] = {"server_default_missing", "default_missing", "read_only",
                                                   "unavailable"};

VS_ENUM_TOKENS(bsl_validation, velstatus_bsl_validation, bsl_validation_names, "BSL validation problem")

/* prepareBackupRequest's texts; 1.11-1.14 quoted the name and wrote "wasn't"
 * (validation_texts_quoted), 1.15 changed them (#8245). */
static void validation_text(velstatus__buf *b, velstatus_kind kind, velstatus_bsl_validation problem, const char *bsl,
                            size_t bl, const char *cause, size_t cl, int quoted)
{
    const char *q = quoted ? "'" : "";
    if (kind == VELSTATUS_KIND_RESTORE) {
        velstatus__buf_printf(b, "The BSL %.*s is unavailable, cannot retrieve the backup", (int)bl, bsl);
        return;
    }
    switch (problem) {
    case VELSTATUS_BSL_VALIDATION_SERVER_DEFAULT_MISSING:
    case VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING:
        velstatus__buf_printf(b,
                              "an existing backup storage location %s specified at backup creation time and the %s%s",
                              quoted ? "wasn't" : "was not",
                              problem == VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING ? "" : "server ", "default ");
        velstatus__buf_printf(b,
                              "%s%.*s%s %s. Please address this issue (see `velero backup-location -h` for options) "
                              "and create a new backup. Error: %.*s",
                              q, (int)bl, bsl, q,
                              problem == VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING
                                  ? (quoted ? "wasn't found" : "was not found")
                                  : (quoted ? "doesn't exist" : "does not exist"),
                              (int)cl, cause ? cause : "");
        break;
    case VELSTATUS_BSL_VALIDATION_READ_ONLY:
        velstatus__buf_printf(b,
                              "backup can't be created because backup storage location %.*s is currently in "
                              "read-only mode",
                              (int)bl, bsl);
        break;
    default:
        velstatus__buf_printf(b, "backup can't be created because BackupStorageLocation %.*s is in Unavailable status.",
                              (int)bl, bsl);
        break;
    }
}

velstatus_status velstatus_bsl_validation_error(char **out, size_t *out_len, velstatus_ctx *ctx, velstatus_kind kind,
                                                velstatus_bsl_validation problem, const char *bsl, size_t bsl_len,
                                                const char *cause, size_t cause_len, const velstatus_policy *policy,
                                                velstatus_error *err)
{
    velstatus_policy pol;
    velstatus__buf b;
    size_t bl = velstatus__text_len(bsl, bsl_len), cl = velstatus__text_len(cause, cause_len), n;
    velstatus_status st;
    if (!out || !ctx || (!bsl && bl) || (!cause && cl))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "BSL validation: NULL argument");
    if (!velstatus_kind_to_string(kind) || !velstatus_bsl_validation_to_string(problem))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "BSL validation: unknown kind %d or problem %d",
                                    (int)kind, (int)problem);
    if (kind == VELSTATUS_KIND_RESTORE && problem != VELSTATUS_BSL_VALIDATION_UNAVAILABLE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "BSL validation: a restore is only checked for an unavailable BSL, not %s",
                                    velstatus_bsl_validation_to_string(problem));
    st = velstatus__policy_load(&pol, policy, err);
    if (st != VELSTATUS_OK)
        return st;
    *out = NULL;
    if (out_len)
        *out_len = 0;
    if (problem == VELSTATUS_BSL_VALIDATION_UNAVAILABLE && !pol.validation_bsl_available)
        return VELSTATUS_OK; /* before Velero 1.17 (#8976): no such check */
    velstatus__buf_init(&b, ctx);
    validation_text(&b, kind, problem, bsl, bl, cause, cl, pol.validation_texts_quoted);
    st = velstatus__buf_finish(&b, out, &n, err);
    if (st == VELSTATUS_OK && out_len)
        *out_len = n;
    return st;
}
