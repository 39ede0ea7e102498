/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus progress; velstatus describe-operations. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void progress_usage(FILE *f)
{
    fprintf(f, "usage: velstatus progress [--now RFC3339] [--kind backup|restore] [-o text|json] [OPS.json|-]\n"
               "\n"
               "Aggregates the progress of an itemoperations file (<name>-itemoperations.json,\n"
               "or the .json.gz Velero stores): operations by phase, and per unit string the\n"
               "completed and total sums, percent, rate and ETA, measured at --now (default:\n"
               "the current time). Text output is one summary line; -o json prints attempted,\n"
               "new, inProgress, completed, failed, unquantified, units[] and summary. Without\n"
               "--kind the kind is taken from the file (backupName / restoreName); it only\n"
               "selects the spec key names.\n"
               "\n"
               "Exit status: 0 success, 2 bad input.\n");
}

static void describe_usage(FILE *f)
{
    fprintf(f, "usage: velstatus describe-operations [--kind backup|restore] [--details] [--utc] [-o text|json]\n"
               "                                    [--velero-version X.Y] [OPS.json|-]\n"
               "\n"
               "Prints the operations section of `velero backup describe` / `velero restore\n"
               "describe` for an itemoperations file, byte for byte as Velero prints it, with\n"
               "times in the local time zone (TZ respected) as velero does, or in UTC with\n"
               "--utc: the summary line, or with --details the header and one block\n"
               "per operation. An empty list prints nothing. A NUL byte inside a string is\n"
               "written as the raw byte, as Velero writes it. -o json prints the operations\n"
               "as Velero writes them (what `operations format` prints). Without --kind the\n"
               "kind is taken from the file (backupName / restoreName). --velero-version X.Y\n"
               "is checked like everywhere else (default: the current release); the operations\n"
               "section is the same in every supported release (doc/velero-releases.md).\n"
               "\n"
               "Exit status: 0 success, 2 bad input.\n");
}

/* Parses with opts; 1 (usage printed) or -1 (error printed) to return, 0 to go on. */
static int parse_ops_args(const char *cmd, int argc, char **argv, const cli_opt *opts, size_t nopts, const char **path,
                          void (*usage)(FILE *))
{
    int npos = 0, r = cli_parse(cmd, argc, argv, opts, nopts, path, 1, &npos);
    if (r > 0)
        usage(stdout);
    return r;
}

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
        const cli_opt opts[] = {{"--kind", 0, &kind_s, NULL}, CLI_OPT_OUTPUT(&fmt_s), {"--now", 0, &now_s, NULL}};
        r = parse_ops_args(cmd, argc, argv, opts, 3, &path, progress_usage);
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

/* Writes the describe text with the times of its Created:, Started: and
 * Updated: lines (the last column, after the tabwriter's padding) local. */
static void write_local(const char *s, size_t n)
{
    static const char *const labels[] = {"Created:", "Started:", "Updated:"};
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = (size_t)((nl ? nl + 1 : end) - s), i = 0, v;
        char buf[96];
        int done = 0;
        while (i < len && s[i] == ' ')
            i++;
        for (size_t k = 0; k < 3 && !done && nl; k++) {
            if (len - i < 8 || memcmp(s + i, labels[k], 8) != 0)
                continue;
            for (v = i + 8; v < len && s[v] == ' '; v++)
                ;
            if (v > i + 8 && cli_local_time(buf, sizeof(buf), s + v, len - v - 1)) {
                fwrite(s, 1, v, stdout);
                printf("%s\n", buf);
                done = 1;
            }
        }
        if (!done)
            fwrite(s, 1, len, stdout);
        s += len;
    }
}

int cmd_describe_operations(int argc, char **argv)
{
    const char *cmd = "describe-operations";
    const char *kind_s = NULL, *path = NULL, *fmt_s = "text", *version_s = NULL;
    int details = 0, utc = 0, rc = CLI_BAD_INPUT, r;
    velstatus_policy pol;
    cli_format fmt;
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_status st;
    char *out = NULL;
    size_t len = 0;

    {
        const cli_opt opts[] = {{"--kind", 0, &kind_s, NULL},
                                CLI_OPT_OUTPUT(&fmt_s),
                                {"--details", 0, NULL, &details},
                                {"--utc", 0, NULL, &utc},
                                CLI_OPT_VELERO_VERSION(&version_s)};
        r = parse_ops_args(cmd, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, describe_usage);
    }
    if (r != 0)
        return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0 || cli_policy(cmd, NULL, "velero", version_s, &pol, NULL, NULL) != 0)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    if (cli_load_oplist(cmd, path, kind_s, ctx, &ops) == CLI_OK) {
        st = fmt == CLI_JSON ? velstatus_oplist_to_json(&out, &len, ops, &err)
                             : velstatus_describe_operations(&out, &len, ctx, ops, details, &err);
        if (st != VELSTATUS_OK)
            rc = cli_fail_err(cmd, "describe", &err);
        else if (fmt == CLI_TEXT && !utc)
            write_local(out, len), rc = CLI_OK;
        else if (len > 0 && fwrite(out, 1, len, stdout) != len)
            rc = cli_fail(cmd, "cannot write the output");
        else
            rc = CLI_OK;
    }
    velstatus_free(ctx, out);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
    return rc;
}
