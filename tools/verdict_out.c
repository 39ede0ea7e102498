/* SPDX-License-Identifier: Apache-2.0 */
/* server-status -o condition and -o prometheus (doc/cli.md, "Kubernetes
 * conditions and Prometheus"). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cli_print_condition(const char *cmd, velstatus_ctx *ctx, const velstatus_server_verdict *v,
                        int64_t last_transition_ns)
{
    velstatus_error err;
    char *out = NULL;
    size_t len = 0;
    if (velstatus_server_verdict_to_condition_json(&out, &len, v, last_transition_ns, -1, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "condition", &err);
    cli_print_line(out, len);
    velstatus_free(ctx, out);
    return CLI_OK;
}

/* A label value in the exposition format: \ " and newline escaped. */
static void label_value(const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            printf("\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
}

static void family(const char *name, const char *help)
{
    printf("# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

void cli_print_prometheus(const velstatus_server_verdict *v, const velstatus_bsl_set *set)
{
    static const velstatus_server_status statuses[] = {VELSTATUS_SERVER_READY, VELSTATUS_SERVER_PARTIALLY_READY,
                                                       VELSTATUS_SERVER_WAITING, VELSTATUS_SERVER_NOT_READY};
    velstatus_server_status st = velstatus_server_verdict_status(v);
    uint32_t reasons = velstatus_server_verdict_reasons(v);
    family("velstatus_server_status", "The server status from the backup storage locations: 1 for the current one.");
    for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
        printf("velstatus_server_status{status=\"%s\"} %d\n", velstatus_server_status_to_string(statuses[i]),
               statuses[i] == st);
    family("velstatus_server_reason", "Whether each reason flag of the server status holds.");
    for (uint32_t f = 1; f <= VELSTATUS_SERVER_REASON_UNKNOWN_PHASE; f <<= 1)
        printf("velstatus_server_reason{reason=\"%s\"} %d\n",
               velstatus_server_reason_to_string((velstatus_server_reason)f), (reasons & f) != 0);
    family("velstatus_backup_locations",
           "Backup storage locations by how the status counts them (pending: never validated, stale or an "
           "unknown phase).");
    printf("velstatus_backup_locations{phase=\"Available\"} %zu\n", velstatus_server_verdict_available(v));
    printf("velstatus_backup_locations{phase=\"Unavailable\"} %zu\n", velstatus_server_verdict_unavailable(v));
    printf("velstatus_backup_locations{phase=\"Pending\"} %zu\n", velstatus_server_verdict_pending(v));
    family("velstatus_backup_location_available",
           "1 when the backup storage location's phase is Available, as velero_backup_location_status_gauge.");
    for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
        fputs("velstatus_backup_location_available{backup_location_name=\"", stdout);
        label_value(velstatus_bsl_set_name(set, i));
        printf("\"} %d\n", strcmp(velstatus_bsl_set_phase(set, i), "Available") == 0);
    }
}
