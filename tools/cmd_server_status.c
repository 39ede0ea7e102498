/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus server-status: the server status from `kubectl get bsl -o json`. */
#include "cli.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: velstatus server-status [--default-location NAME] [--stale-after DURATION [--now RFC3339]]\n"
               "                              [--three-state] [--exit-status] [--watch [--strict]]\n"
               "                              [-o text|json|condition|prometheus] [FILE|-]\n"
               "\n"
               "Classifies the BackupStorageLocations in FILE (or stdin), the output of\n"
               "`kubectl get backupstoragelocations -o json` (a List, an array or one BSL),\n"
               "as Ready, PartiallyReady, Waiting or NotReady, with the reasons (doc/design.md §3).\n"
               "\n"
               "  --default-location NAME  the server's default-location setting: the BSL NAME\n"
               "                           alone is the default (spec.default is ignored)\n"
               "  --now RFC3339            the present instant, for the staleness check (default:\n"
               "                           the current time)\n"
               "  --stale-after DURATION   a Go duration (5m, 1h30m): an Available BSL validated\n"
               "                           longer ago than this, or never, counts as pending\n"
               "  --three-state            report NotReady as Waiting\n"
               "  -o text|json|condition|prometheus\n"
               "                           one line for people (default), JSON, the verdict as a\n"
               "                           Kubernetes metav1.Condition (lastTransitionTime: --now),\n"
               "                           or the Prometheus text format (velstatus_* gauges)\n"
               "  --exit-status            exit with the status: 0 Ready, 1 PartiallyReady,\n"
               "                           4 Waiting, 5 NotReady (a readiness probe)\n"
               "  --watch                  read a watch stream (`kubectl get bsl -n velero --watch\n"
               "                           [--output-watch-events] -o json`) and print one line,\n"
               "                           with the time, each time the status or the reasons\n"
               "                           change (-o json: the verdict plus \"observedAt\")\n"
               "  --strict                 with --watch, a malformed event is fatal (exit 2)\n"
               "\n"
               "Exit status: 0 whatever the status (with --exit-status, the status's code),\n"
               "2 bad input or usage, 3 a watch ERROR event (list again and restart).\n");
}

int cmd_server_status(int argc, char **argv)
{
    const char *cmd = "server-status";
    const char *defloc = NULL, *now_s = NULL, *stale_s = NULL, *fmt_s = "text", *path = NULL;
    int three_state = 0, watch = 0, strict = 0, exit_status = 0, rc = CLI_BAD_INPUT;
    cli_format fmt;
    velstatus_error err;
    velstatus_server_status_options opts;
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    char *input = NULL, *out = NULL;
    size_t len = 0, out_len = 0;

    {
        const cli_opt o[] = {{"--default-location", 0, &defloc, NULL},
                             {"--now", 0, &now_s, NULL},
                             {"--stale-after", 0, &stale_s, NULL},
                             {"--three-state", 0, NULL, &three_state},
                             {"--watch", 0, NULL, &watch},
                             {"--strict", 0, NULL, &strict},
                             {"--exit-status", 0, NULL, &exit_status},
                             CLI_OPT_OUTPUT(&fmt_s)};
        int npos, r = cli_parse(cmd, argc, argv, o, sizeof(o) / sizeof(o[0]), &path, 1, &npos);
        if (r != 0) {
            if (r > 0)
                usage(stdout);
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
        }
    }
    if (cli_parse_format_more(cmd, fmt_s, 1, 1, &fmt) != 0)
        return CLI_BAD_INPUT;
    if (fmt == CLI_PROMETHEUS && watch)
        return cli_fail(cmd, "-o prometheus is a snapshot (a textfile collector reads a file): not with --watch");

    velstatus_server_status_options_init(&opts, sizeof(opts));
    opts.three_state = three_state;
    if (defloc) {
        opts.default_location = defloc;
        opts.default_location_len = strlen(defloc);
    }
    if (stale_s) {
        opts.check_stale = 1;
        if (cli_now(cmd, now_s, &opts.now_ns) != 0)
            return CLI_BAD_INPUT;
        if (velstatus_duration_parse(&opts.stale_after_ns, stale_s, strlen(stale_s), &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "--stale-after", &err);
        if (opts.stale_after_ns < 0)
            return cli_fail(cmd, "--stale-after must not be negative, not \"%s\"", stale_s);
    }

    if (strict && !watch)
        return cli_fail(cmd, "--strict goes with --watch");
    if (watch)
        return cli_watch(cmd, path, &opts, now_s, fmt, strict, exit_status);
    cli_input_now = now_s; /* a table's ages count back from it (tools/text_in.h) */
    input = cli_read_input(cmd, path, &len);
    if (!input)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK) {
        rc = cli_fail_err(cmd, "context", &err);
        goto done;
    }
    if (velstatus_bsl_set_from_json(&set, ctx, input, len, &err) != VELSTATUS_OK) {
        rc = cli_fail_err(cmd, path && strcmp(path, "-") != 0 ? path : "stdin", &err);
        goto done;
    }
    if (velstatus_server_status_classify(&v, set, &opts, &err) != VELSTATUS_OK) {
        rc = cli_fail_err(cmd, "classify", &err);
        goto done;
    }
    if (fmt == CLI_CONDITION) {
        int64_t now;
        if (cli_now(cmd, now_s, &now) != 0 || cli_print_condition(cmd, ctx, v, now) != CLI_OK)
            goto done;
    } else if (fmt == CLI_PROMETHEUS) {
        cli_print_prometheus(v, set);
    } else if (fmt == CLI_JSON) {
        if (velstatus_server_verdict_to_json(&out, &out_len, v, &err) != VELSTATUS_OK) {
            rc = cli_fail_err(cmd, "encode", &err);
            goto done;
        }
        cli_print_line(out, out_len);
    } else {
        printf("%s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
               velstatus_server_verdict_message(v));
    }
    rc = exit_status ? cli_status_exit(velstatus_server_verdict_status(v)) : CLI_OK;
done:
    velstatus_free(ctx, out);
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
    free(input);
    return rc;
}
