/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus progress. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const cli_usage usage = {"progress", "[OPS.json|-]",
                                "Aggregates the progress of an itemoperations file (<name>-itemoperations.json,\n"
                                "or the .json.gz Velero stores): operations by phase, and per unit string the\n"
                                "completed and total sums, percent, rate and ETA, measured at --now (default:\n"
                                "the current time). Text output is one summary line; -o json prints attempted,\n"
                                "new, inProgress, completed, failed, unquantified, units[] and summary. Without\n"
                                "--kind the kind is taken from the file (backupName / restoreName); it only\n"
                                "selects the spec key names.\n"
                                "\n"
                                "Exit status: 0 success, 2 bad input.\n"};

int cmd_progress(int argc, char **argv)
{
    const char *cmd = "progress";
    const char *now_s = NULL, *kind_s = NULL, *fmt_s = "text", *path = NULL;
    cli_format fmt;
    int64_t now = 0;
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_progress *report = NULL;
    char *out = NULL;
    size_t out_len = 0;
    int rc = CLI_BAD_INPUT, r;
    velstatus_status st;

    {
        const cli_opt opts[] = {CLI_OPT_KIND(&kind_s), CLI_OPT_OUTPUT(&fmt_s), CLI_OPT_NOW(&now_s)};
        int npos;
        r = cli_parse(&usage, argc, argv, opts, 3, &path, 1, &npos);
    }
    if (r != 0)
        return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    if (cli_now(cmd, now_s, &now) != 0 || cli_parse_format(cmd, fmt_s, &fmt) != 0)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    if (cli_load_oplist(cmd, path, kind_s, ctx, &ops) == CLI_OK) {
        st = velstatus_progress_new(&report, ctx, ops, now, &err);
        if (st == VELSTATUS_OK)
            st = fmt == CLI_JSON ? velstatus_progress_to_json(&out, &out_len, report, &err)
                                 : velstatus_progress_summary(&out, &out_len, report, &err);
        if (st == VELSTATUS_OK) {
            cli_print_line(out, out_len);
            rc = CLI_OK;
        } else {
            rc = cli_fail_err(cmd, "progress", &err);
        }
    }
    velstatus_free(ctx, out);
    velstatus_progress_free(report);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
    return rc;
}
