/* SPDX-License-Identifier: Apache-2.0 */
/* server-status -o condition and -o prometheus (doc/cli.md, "Kubernetes
 * conditions and Prometheus"). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cli_print_condition(const char *cmd, velstatus_ctx *ctx, const velstatus_server_verdict *v,
                        int64_t last_transition_ns, const char *ns)
{
    velstatus_error err;
    char *out = NULL;
    size_t len = 0;
    if (velstatus_server_verdict_to_condition_json(&out, &len, v, last_transition_ns, -1, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "condition", &err);
    if (ns && len > 0 && out[len - 1] == '}') {
        fwrite(out, 1, len - 1, stdout); /* the condition, then which namespace it is of */
        fputs(",\"namespace\":", stdout);
        cli_json_str(stdout, ns, strlen(ns));
        puts("}");
    } else {
        cli_print_line(out, len);
    }
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

/* `{namespace="NS"` — the label every series starts with. */
static void ns_label(const velstatus_server_verdict *v)
{
    fputs("{namespace=\"", stdout);
    label_value(velstatus_server_verdict_namespace(v) ? velstatus_server_verdict_namespace(v) : "");
    putchar('"');
}

void cli_print_prometheus(const velstatus_server_verdict *const *vs, size_t n, const velstatus_bsl_set *set)
{
    static const velstatus_server_status statuses[] = {VELSTATUS_SERVER_READY, VELSTATUS_SERVER_PARTIALLY_READY,
                                                       VELSTATUS_SERVER_WAITING, VELSTATUS_SERVER_NOT_READY};
    static const char *const phases[] = {"Available", "Unavailable", "Pending"};
    family("velstatus_server_status", "The server status from the backup storage locations: 1 for the current one.");
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
            fputs("velstatus_server_status", stdout);
            ns_label(vs[k]);
            printf(",status=\"%s\"} %d\n", velstatus_server_status_to_string(statuses[i]),
                   statuses[i] == velstatus_server_verdict_status(vs[k]));
        }
    family("velstatus_server_reason", "Whether each reason flag of the server status holds.");
    for (size_t k = 0; k < n; k++)
        for (uint32_t f = 1; velstatus_server_reason_to_string((velstatus_server_reason)f); f <<= 1) {
            fputs("velstatus_server_reason", stdout);
            ns_label(vs[k]);
            printf(",reason=\"%s\"} %d\n", velstatus_server_reason_to_string((velstatus_server_reason)f),
                   (velstatus_server_verdict_reasons(vs[k]) & f) != 0);
        }
    family("velstatus_backup_locations",
           "Backup storage locations by how the status counts them (pending: never validated, stale or an "
           "unknown phase).");
    for (size_t k = 0; k < n; k++) {
        size_t count[3] = {velstatus_server_verdict_available(vs[k]), velstatus_server_verdict_unavailable(vs[k]),
                           velstatus_server_verdict_pending(vs[k])};
        for (int i = 0; i < 3; i++) {
            fputs("velstatus_backup_locations", stdout);
            ns_label(vs[k]);
            printf(",phase=\"%s\"} %zu\n", phases[i], count[i]);
        }
    }
    family("velstatus_backup_location_available",
           "1 when the backup storage location's phase is Available, as velero_backup_location_status_gauge.");
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
            if (strcmp(velstatus_bsl_set_namespace(set, i), velstatus_server_verdict_namespace(vs[k])) != 0)
                continue;
            fputs("velstatus_backup_location_available", stdout);
            ns_label(vs[k]);
            fputs(",backup_location_name=\"", stdout);
            label_value(velstatus_bsl_set_name(set, i));
            printf("\"} %d\n", strcmp(velstatus_bsl_set_phase(set, i), "Available") == 0);
        }
}
