/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus progress; velstatus describe-operations. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress_usage(FILE *f)
{
    fprintf(f, "usage: velstatus progress --now RFC3339 [--kind backup|restore] [-o text|json] OPS.json|-\n"
               "\n"
               "Aggregates the progress of an itemoperations file (the uncompressed\n"
               "<name>-itemoperations.json): operations by phase, and per unit string the\n"
               "completed and total sums, percent, rate and ETA, measured at --now.\n"
               "Text output is one summary line; -o json prints attempted, new, inProgress,\n"
               "completed, failed, unquantified, units[] and summary. --kind (default backup)\n"
               "only selects the spec key names; the status fields are the same.\n"
               "\n"
               "Exit status: 0 success, 2 bad input.\n");
}

static void describe_usage(FILE *f)
{
    fprintf(f, "usage: velstatus describe-operations --kind backup|restore [--details] OPS.json|-\n"
               "\n"
               "Prints the operations section of `velero backup describe` / `velero restore\n"
               "describe` for an itemoperations file, byte for byte as Velero prints it\n"
               "(times in UTC): the summary line, or with --details the header and one block\n"
               "per operation. An empty list prints nothing. A NUL byte inside a string is\n"
               "written as the raw byte, as Velero writes it.\n"
               "\n"
               "Exit status: 0 success, 2 bad input.\n");
}

/* Reads and decodes the list; prints the error and returns NULL on failure. */
static velstatus_oplist *load_ops(const char *cmd, velstatus_ctx *ctx, velstatus_kind kind, const char *path)
{
    velstatus_oplist *ops = NULL;
    velstatus_error err;
    size_t len = 0;
    char *text = cli_read_input(cmd, path, &len);
    if (!text)
        return NULL;
    if (velstatus_oplist_from_json(&ops, ctx, kind, text, len, &err) != VELSTATUS_OK) {
        cli_fail_err(cmd, path ? path : "-", &err);
        ops = NULL;
    }
    free(text);
    return ops;
}

int cmd_progress(int argc, char **argv)
{
    const char *cmd = "progress";
    const char *now_s = NULL, *kind_s = "backup", *fmt_s = "text", *path = NULL;
    velstatus_kind kind;
    cli_format fmt;
    int64_t now = 0;
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_progress *report = NULL;
    char *out = NULL;
    size_t out_len = 0;
    int rc = CLI_BAD_INPUT;
    velstatus_status st;

    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            progress_usage(stdout);
            return CLI_OK;
        }
        if ((r = cli_opt_value(cmd, argc, argv, &i, "--now", &now_s)) != 0 ||
            (r = cli_opt_value(cmd, argc, argv, &i, "--kind", &kind_s)) != 0 ||
            (r = cli_opt_value(cmd, argc, argv, &i, "-o", &fmt_s)) != 0) {
            if (r < 0)
                return CLI_BAD_INPUT;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_fail(cmd, "unknown option \"%s\"", argv[i]);
        if (path)
            return cli_fail(cmd, "unexpected argument \"%s\"", argv[i]);
        path = argv[i];
    }
    if (argc < 2) {
        progress_usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (!now_s)
        return cli_fail(cmd, "--now RFC3339 is required (the library never reads a clock)");
    if (velstatus_time_parse(&now, now_s, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "--now", &err);
    if (velstatus_kind_from_string(&kind, kind_s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "--kind must be backup or restore, not \"%s\"", kind_s);
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0)
        return CLI_BAD_INPUT;
    if (!path)
        return cli_fail(cmd, "needs OPS.json (or - for stdin)");
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    ops = load_ops(cmd, ctx, kind, path);
    if (ops) {
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

int cmd_describe_operations(int argc, char **argv)
{
    const char *cmd = "describe-operations";
    const char *kind_s = NULL, *path = NULL;
    int details = 0, rc = CLI_BAD_INPUT;
    velstatus_kind kind;
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    char *out = NULL;
    size_t len = 0;

    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            describe_usage(stdout);
            return CLI_OK;
        }
        if ((r = cli_opt_value(cmd, argc, argv, &i, "--kind", &kind_s)) != 0) {
            if (r < 0)
                return CLI_BAD_INPUT;
            continue;
        }
        if (strcmp(argv[i], "--details") == 0) {
            details = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_fail(cmd, "unknown option \"%s\"", argv[i]);
        if (path)
            return cli_fail(cmd, "unexpected argument \"%s\"", argv[i]);
        path = argv[i];
    }
    if (argc < 2) {
        describe_usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (!kind_s)
        return cli_fail(cmd, "--kind backup|restore is required");
    if (velstatus_kind_from_string(&kind, kind_s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "--kind must be backup or restore, not \"%s\"", kind_s);
    if (!path)
        return cli_fail(cmd, "needs OPS.json (or - for stdin)");
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    ops = load_ops(cmd, ctx, kind, path);
    if (ops) {
        if (velstatus_describe_operations(&out, &len, ctx, ops, details, &err) == VELSTATUS_OK) {
            if (len > 0 && fwrite(out, 1, len, stdout) != len)
                rc = cli_fail(cmd, "cannot write the output");
            else
                rc = CLI_OK;
        } else {
            rc = cli_fail_err(cmd, "describe", &err);
        }
    }
    velstatus_free(ctx, out);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
    return rc;
}
