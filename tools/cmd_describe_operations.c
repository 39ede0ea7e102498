/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus describe-operations. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const cli_usage usage = {"describe-operations", "[OPS.json|-]",
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
                                "Exit status: 0 success, 2 bad input.\n"};

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
        const cli_opt opts[] = {CLI_OPT_KIND(&kind_s), CLI_OPT_OUTPUT(&fmt_s),
                                CLI_FLAG("--details", 0, &details, "the header and one block per operation"),
                                CLI_FLAG("--utc", 0, &utc, "times in UTC (default: the local time zone, TZ respected)"),
                                CLI_OPT_VELERO_VERSION(&version_s)};
        int npos;
        r = cli_parse(&usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, 1, &npos);
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
