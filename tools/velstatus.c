/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus: the command-line face of libvelstatus. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const cli_sub commands[] = {
    {"help", cmd_help, "print this list, or a command's usage (help COMMAND)"},
    {"version", cmd_version, "print the tool's and the library's version"},
    {"phase", cmd_phase, "phase check: is a backup/restore phase transition legal"},
    {"server-status", cmd_server_status, "server status from `kubectl get bsl -o json`"},
    {"backup-status", cmd_backup_status, "Backup/Restore phase, kstatus conditions and Argo CD health"},
    {"operations", cmd_operations, "reconcile, format or check an itemoperations file"},
    {"progress", cmd_progress, "aggregate progress over an itemoperations file"},
    {"describe-operations", cmd_describe_operations, "print the operations section of `velero describe`"},
    {"backoff", cmd_backoff, "print a retry backoff schedule"},
    {"download-request", cmd_download_request, "the DownloadRequest manifest that fetches an itemoperations file"},
    {"explain", cmd_explain, "why a Backup/Restore is in its phase, what Velero does next, and when"},
};

static const size_t ncommands = sizeof(commands) / sizeof(commands[0]);

static void usage(FILE *f)
{
    fprintf(f, "usage: velstatus COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < ncommands; i++)
        fprintf(f, "  %-20s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun `velstatus help COMMAND` (or `velstatus COMMAND --help`) for a command's options.\n"
               "Every command takes -o text|json (also -ojson, -o=json, --output json, --output=json),\n"
               "reads FILE or, with - or no FILE, stdin (gzip decompressed; --max-input SIZE bounds it),\n"
               "as JSON, Velero's describe text or a BSL get table (found by the content;\n"
               "--input-form auto|json|describe|table forces one).\n"
               "Text output writes every string whole; a NUL byte inside one is written as\n"
               "\\u0000 (-o json is the exact form; describe-operations writes Velero's bytes).\n"
               "Exit status: 0 success, 1 a check answered no, 2 bad input or usage\n"
               "(server-status and backup-status have more; see velstatus(1)).\n");
}

static const cli_sub *find_command(const char *name)
{
    for (size_t i = 0; i < ncommands; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* velstatus --complete [CMD [SUB]]: what bash completion offers
 * (tools/completion/velstatus): the commands, or CMD's subcommands and
 * options, from the same tables --help prints. */
static int complete(int argc, char **argv)
{
    char help[] = "--help";
    char *sub[3];
    const cli_sub *c = argc >= 3 ? find_command(argv[2]) : NULL;
    if (argc < 3) {
        for (size_t i = 0; i < ncommands; i++)
            printf("%s\n", commands[i].name);
        printf("--help\n--version\n");
        return CLI_OK;
    }
    if (!c || argc > 4)
        return cli_fail("--complete", "usage: velstatus --complete [COMMAND [SUBCOMMAND]]");
    if (c->run == cmd_help) {
        for (size_t i = 0; i < ncommands; i++)
            printf("%s\n", commands[i].name);
        return CLI_OK;
    }
    cli_completing = 1;
    sub[0] = argv[2];
    sub[1] = argc == 4 ? argv[3] : help;
    sub[2] = help;
    return c->run(argc == 4 ? 3 : 2, sub);
}

int cmd_help(int argc, char **argv)
{
    char help[] = "--help";
    char *sub[3];
    if (argc < 2 || cli_is_help(argv[1])) {
        usage(stdout);
        return CLI_OK;
    }
    if (argc > 3)
        return cli_fail("help", "unexpected argument \"%s\"", argv[3]);
    const cli_sub *c = find_command(argv[1]);
    if (!c || c->run == cmd_help)
        return cli_fail("help", "unknown command \"%s\" (see velstatus help)", argv[1]);
    sub[0] = argv[1];
    sub[1] = argc == 3 ? argv[2] : help; /* help operations format: the subcommand's usage */
    sub[2] = help;
    return c->run(argc == 3 ? 3 : 2, sub);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(1, argv + 1);
    if (strcmp(argv[1], "--complete") == 0)
        return complete(argc, argv);
    const cli_sub *c = find_command(argv[1]);
    if (c)
        return c->run(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown command \"%s\" (see velstatus --help)\n", cli_prog, argv[1]);
    return CLI_BAD_INPUT;
}
