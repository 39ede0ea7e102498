/* SPDX-License-Identifier: Apache-2.0 */
/* Tutorial: backup phases, legal transitions, and what to do with each phase
 * found when the server restarts. Built and run by `make check`. */
#include <velstatus.h>

#include <stdio.h>

int main(void)
{
    velstatus_error err;
    velstatus_phase from, to, next;
    velstatus_restart_action action;
    velstatus_policy velero;
    velstatus_policy_init(&velero, sizeof(velero), VELSTATUS_PRESET_VELERO, NULL);
    const char *who = NULL;
    int legal = 0;

    if (velstatus_phase_from_string(&from, "InProgress", VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK ||
        velstatus_phase_from_string(&to, "Finalizing", VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK ||
        velstatus_phase_transition(&legal, &who, VELSTATUS_KIND_BACKUP, from, to, NULL, &err) != VELSTATUS_OK) {
        fprintf(stderr, "%s: %s\n", velstatus_status_name(err.code), err.message);
        return 1;
    }
    printf("InProgress -> Finalizing: legal %d, made by the %s controller\n", legal, who);
    if (!legal || velstatus_phase_is_terminal(VELSTATUS_KIND_BACKUP, to))
        return 1;

    /* Restore has no Queued phase: the parser reads any phase, the kind's check is separate. */
    if (velstatus_phase_from_string(&to, "Queued", VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK ||
        velstatus_phase_valid(VELSTATUS_KIND_RESTORE, to))
        return 1;
    printf("restore \"Queued\": a restore has no such phase\n");

    /* After a restart an InProgress backup has lost its run: mark it Failed. */
    if (velstatus_phase_on_restart(&action, &next, VELSTATUS_KIND_BACKUP, from, &velero, &err) != VELSTATUS_OK)
        return 1;
    printf("on restart: %s -> %s\n", velstatus_restart_action_to_string(action), velstatus_phase_to_string(next));
    return action == VELSTATUS_RESTART_MARK_FAILED && next == VELSTATUS_PHASE_FAILED ? 0 : 1;
}
