/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus server-status: the server status from `kubectl get bsl -o json`. */
#include "cli.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_usage usage = {
    "server-status", "[FILE|-]",
    "Classifies the BackupStorageLocations in FILE (or stdin), the output of\n"
    "`kubectl get backupstoragelocations -o json` (a List, an array or one BSL),\n"
    "as Ready, PartiallyReady, Waiting or NotReady, with the reasons (doc/server-status.md):\n"
    "one verdict per Velero namespace, each with its locations as `velero backup-location\n"
    "get` prints them and the message of every location that is not Available.\n"
    "--stale-after: an Available BSL validated longer ago than this, or never, counts as\n"
    "pending, and one never validated though created longer ago than this is flagged\n"
    "never_validated (Velero validates each BSL within seconds of its creation, then every\n"
    "1m by default). -o json: the verdict, \"namespace\" and \"locations\"; -o condition: the\n"
    "verdict as a Kubernetes metav1.Condition (lastTransitionTime: --now); -o prometheus:\n"
    "the Prometheus text format (velstatus_* gauges, with a namespace label); one line per\n"
    "namespace. --watch reads `kubectl get bsl -n velero --watch [--output-watch-events] -o\n"
    "json` and prints one line, with the time, each time a namespace's status or reasons\n"
    "change (-o json: the verdict plus \"observedAt\").\n"
    "\n"
    "Exit status: 0 whatever the status (with --exit-status, the status's code),\n"
    "2 bad input or usage, 3 a watch ERROR event (list again and restart).\n"};

typedef struct ss_args {
    const char *defloc, *now_s, *stale_s, *fmt_s, *path, *ns_s, *version_s;
    int three_state, watch, strict, exit_status, all_ns, utc;
} ss_args;

/* The options, checked; 1 when help was printed, -1 on a usage error. */
static int parse_args(const char *cmd, int argc, char **argv, ss_args *a)
{
    const cli_opt o[] = {
        CLI_VAL("--namespace", 'n', &a->ns_s, "NAMESPACE", "the Velero server of that namespace only"),
        CLI_FLAG("--all-namespaces", 'A', &a->all_ns,
                 "one verdict per namespace (what a list spanning several gives without -n)"),
        CLI_VAL("--default-location", 0, &a->defloc, "NAME",
                "the server's default-location setting (spec.default is then ignored)"),
        CLI_VAL("--stale-after", 0, &a->stale_s, "DURATION", "a validation older than this is pending (5m, 1h30m)"),
        CLI_OPT_NOW(&a->now_s),
        CLI_FLAG("--three-state", 0, &a->three_state, "report NotReady as Waiting"),
        CLI_OPT_VELERO_VERSION(&a->version_s),
        CLI_FLAG("--utc", 0, &a->utc, "LAST VALIDATED in UTC (default: the local time zone)"),
        CLI_FLAG("--exit-status", 0, &a->exit_status,
                 "exit with the status: 0 Ready, 1 PartiallyReady, 4 Waiting, 5 NotReady (the worst namespace's)"),
        CLI_FLAG("--watch", 0, &a->watch, "read a watch stream; a line each time a status changes"),
        CLI_FLAG("--strict", 0, &a->strict, "with --watch, a malformed event is fatal (exit 2)"),
        CLI_OPT_OUTPUT_OF(&a->fmt_s, "text|json|condition|prometheus")};
    int npos;
    velstatus_policy pol;
    a->fmt_s = "text";
    int r = cli_parse(&usage, argc, argv, o, sizeof(o) / sizeof(o[0]), &a->path, 1, &npos);
    if (r != 0)
        return r;
    if (a->ns_s && a->all_ns) {
        cli_fail(cmd, "-n/--namespace and -A/--all-namespaces exclude each other");
        return -1;
    }
    if (a->strict && !a->watch) {
        cli_fail(cmd, "--strict goes with --watch");
        return -1;
    }
    if (cli_policy(cmd, NULL, "velero", a->version_s, &pol, NULL, NULL) != 0)
        return -1;
    return 0;
}

/* The classification options from the arguments. */
static int load_opts(const char *cmd, const ss_args *a, velstatus_server_status_options *opts)
{
    velstatus_error err;
    velstatus_server_status_options_init(opts, sizeof(*opts));
    opts->three_state = a->three_state;
    if (a->defloc) {
        opts->default_location = a->defloc;
        opts->default_location_len = strlen(a->defloc);
    }
    if (!a->stale_s)
        return 0;
    opts->check_stale = 1;
    if (cli_now(cmd, a->now_s, &opts->now_ns) != 0)
        return -1;
    if (velstatus_duration_parse(&opts->stale_after_ns, a->stale_s, strlen(a->stale_s), &err) != VELSTATUS_OK) {
        cli_fail_err(cmd, "--stale-after", &err);
        return -1;
    }
    if (opts->stale_after_ns < 0) {
        cli_fail(cmd, "--stale-after must not be negative, not \"%s\"", a->stale_s);
        return -1;
    }
    return 0;
}

/* One namespace's verdict in the chosen format. */
static int print_namespace(const char *cmd, velstatus_ctx *ctx, const velstatus_bsl_set *set, const char *ns,
                           const velstatus_server_verdict *v, cli_format fmt, const ss_args *a, int multi)
{
    velstatus_error err;
    char *out = NULL, *locs = NULL;
    size_t out_len = 0, locs_len = 0;
    int64_t now;
    if (fmt == CLI_CONDITION)
        return cli_now(cmd, a->now_s, &now) != 0 ? CLI_BAD_INPUT
                                                 : cli_print_condition(cmd, ctx, v, now, multi ? ns : NULL);
    if (fmt == CLI_JSON) {
        if (velstatus_server_verdict_to_json(&out, &out_len, v, &err) != VELSTATUS_OK ||
            velstatus_bsl_set_locations_to_json(&locs, &locs_len, set, ns, VELSTATUS_NUL_TERMINATED, &err) !=
                VELSTATUS_OK) {
            velstatus_free(ctx, out);
            return cli_fail_err(cmd, "encode", &err);
        }
        fwrite(out, 1, out_len - 1, stdout); /* without its closing '}' */
        printf(",\"locations\":%s}\n", locs);
        velstatus_free(ctx, out);
        velstatus_free(ctx, locs);
        return CLI_OK;
    }
    if (multi)
        printf("%s%s: ", ns[0] ? "namespace " : "", ns[0] ? ns : "(no namespace)");
    printf("%s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
           velstatus_server_verdict_message(v));
    cli_print_bsl_table(set, ns, a->utc);
    return CLI_OK;
}

/* Classifies and prints each namespace asked for; *exit_rc the worst status's code. */
static int run(const char *cmd, velstatus_ctx *ctx, const velstatus_bsl_set *set, const ss_args *a, cli_format fmt,
               const velstatus_server_status_options *opts, int *exit_rc)
{
    size_t nns = velstatus_bsl_set_namespace_count(set), count = a->ns_s ? 1 : (nns ? nns : 1);
    int multi = a->all_ns || (!a->ns_s && nns > 1);
    velstatus_server_verdict **vs = calloc(count, sizeof(*vs));
    int rc = CLI_OK;
    *exit_rc = 0;
    if (!vs)
        return cli_fail(cmd, "out of memory");
    for (size_t k = 0; k < count && rc == CLI_OK; k++) {
        velstatus_error err;
        const char *ns = a->ns_s ? a->ns_s : nns ? velstatus_bsl_set_namespace_at(set, k) : "";
        if (velstatus_server_status_classify_namespace(&vs[k], set, ns, VELSTATUS_NUL_TERMINATED, opts, &err) !=
            VELSTATUS_OK) {
            rc = cli_fail_err(cmd, "classify", &err);
            break;
        }
        /* the exit codes 0, 1, 4, 5 grow with the severity: the worst namespace's */
        if (cli_status_exit(velstatus_server_verdict_status(vs[k])) > *exit_rc)
            *exit_rc = cli_status_exit(velstatus_server_verdict_status(vs[k]));
        if (fmt != CLI_PROMETHEUS) {
            if (fmt == CLI_TEXT && multi && k > 0)
                putchar('\n');
            rc = print_namespace(cmd, ctx, set, ns, vs[k], fmt, a, multi);
        }
    }
    if (rc == CLI_OK && fmt == CLI_PROMETHEUS)
        cli_print_prometheus((const velstatus_server_verdict *const *)vs, count, set);
    for (size_t k = 0; k < count; k++)
        velstatus_server_verdict_free(vs[k]);
    free(vs);
    return rc;
}

int cmd_server_status(int argc, char **argv)
{
    const char *cmd = "server-status";
    int rc = CLI_BAD_INPUT, exit_rc = 0;
    ss_args a = {0};
    cli_format fmt;
    velstatus_error err;
    velstatus_server_status_options opts;
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    char *input = NULL;
    size_t len = 0;

    {
        int r = parse_args(cmd, argc, argv, &a);
        if (r != 0) {
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
        }
    }
    if (cli_parse_format_more(cmd, a.fmt_s, 1, 1, &fmt) != 0 || load_opts(cmd, &a, &opts) != 0)
        return CLI_BAD_INPUT;
    if (fmt == CLI_PROMETHEUS && a.watch)
        return cli_fail(cmd, "-o prometheus is a snapshot (a textfile collector reads a file): not with --watch");
    if (a.watch)
        return cli_watch(cmd, a.path, &opts, a.now_s, fmt, a.strict, a.exit_status, a.ns_s, a.all_ns);
    cli_input_now = a.now_s; /* a table's ages count back from it (tools/text_in.h) */
    input = cli_read_input(cmd, a.path, &len);
    if (!input)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK) {
        rc = cli_fail_err(cmd, "context", &err);
        goto done;
    }
    if (velstatus_bsl_set_from_json(&set, ctx, input, len, &err) != VELSTATUS_OK) {
        rc = cli_fail_err(cmd, a.path && strcmp(a.path, "-") != 0 ? a.path : "stdin", &err);
        goto done;
    }
    rc = run(cmd, ctx, set, &a, fmt, &opts, &exit_rc);
    if (rc == CLI_OK && a.exit_status)
        rc = exit_rc;
done:
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
    free(input);
    return rc;
}
