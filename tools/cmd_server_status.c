/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus server-status: the server status from `kubectl get bsl -o json`. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: velstatus server-status [--default-location NAME] [--now RFC3339 --stale-after DURATION]\n"
               "                              [--three-state] [-o text|json] [FILE|-]\n"
               "\n"
               "Classifies the BackupStorageLocations in FILE (or stdin), the output of\n"
               "`kubectl get backupstoragelocations -o json` (a List, an array or one BSL),\n"
               "as Ready, PartiallyReady, Waiting or NotReady, with the reasons (doc/design.md §3).\n"
               "\n"
               "  --default-location NAME  the server's default-location setting: the BSL NAME\n"
               "                           alone is the default (spec.default is ignored)\n"
               "  --now RFC3339            the present instant, for the staleness check\n"
               "  --stale-after DURATION   a Go duration (5m, 1h30m): an Available BSL validated\n"
               "                           longer ago than this, or never, counts as pending\n"
               "  --three-state            report NotReady as Waiting\n"
               "  -o text|json             one line for people (default), or JSON\n"
               "\n"
               "Exit status: 0 whatever the status, 2 bad input or usage.\n");
}

int cmd_server_status(int argc, char **argv)
{
    const char *cmd = "server-status";
    const char *defloc = NULL, *now_s = NULL, *stale_s = NULL, *fmt_s = "text", *path = NULL;
    int three_state = 0, rc = CLI_BAD_INPUT;
    cli_format fmt;
    velstatus_error err;
    velstatus_server_status_options opts;
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    char *input = NULL, *out = NULL;
    size_t len = 0, out_len = 0;

    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return CLI_OK;
        }
        if ((r = cli_opt_value(cmd, argc, argv, &i, "--default-location", &defloc)) != 0 ||
            (r = cli_opt_value(cmd, argc, argv, &i, "--now", &now_s)) != 0 ||
            (r = cli_opt_value(cmd, argc, argv, &i, "--stale-after", &stale_s)) != 0 ||
            (r = cli_opt_value(cmd, argc, argv, &i, "-o", &fmt_s)) != 0) {
            if (r < 0)
                return CLI_BAD_INPUT;
            continue;
        }
        if (strcmp(argv[i], "--three-state") == 0) {
            three_state = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_fail(cmd, "unknown option \"%s\"", argv[i]);
        if (path)
            return cli_fail(cmd, "unexpected argument \"%s\" (one FILE at most)", argv[i]);
        path = argv[i];
    }
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0)
        return CLI_BAD_INPUT;
    if ((now_s == NULL) != (stale_s == NULL))
        return cli_fail(cmd, "--now and --stale-after go together");

    velstatus_server_status_options_init(&opts, sizeof(opts));
    opts.three_state = three_state;
    if (defloc) {
        opts.default_location = defloc;
        opts.default_location_len = strlen(defloc);
    }
    if (now_s) {
        opts.check_stale = 1;
        if (velstatus_time_parse(&opts.now_ns, now_s, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "--now", &err);
        if (velstatus_duration_parse(&opts.stale_after_ns, stale_s, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "--stale-after", &err);
        if (opts.stale_after_ns < 0)
            return cli_fail(cmd, "--stale-after must not be negative, not \"%s\"", stale_s);
    }

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
    if (fmt == CLI_JSON) {
        if (velstatus_server_verdict_to_json(&out, &out_len, v, &err) != VELSTATUS_OK) {
            rc = cli_fail_err(cmd, "encode", &err);
            goto done;
        }
        cli_print_line(out, out_len);
    } else {
        printf("%s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
               velstatus_server_verdict_message(v));
    }
    rc = CLI_OK;
done:
    velstatus_free(ctx, out);
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
    free(input);
    return rc;
}
