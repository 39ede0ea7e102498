/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus version; velstatus phase check. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_version(int argc, char **argv)
{
    const char *fmt_s = "text", *pos[1];
    const cli_opt opts[] = {CLI_OPT_OUTPUT(&fmt_s)};
    static const cli_usage u = {"version", NULL,
                                "Prints the tool's version, the linked library's version and the Velero releases\n"
                                "--velero-version accepts (the last is the current release, the default).\n"};
    cli_format fmt;
    int npos, r = cli_parse(&u, argc, argv, opts, 1, pos, 0, &npos);
    if (r != 0)
        return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    if (cli_parse_format("version", fmt_s, &fmt) != 0)
        return CLI_BAD_INPUT;
    if (fmt == CLI_JSON) {
        printf("{\"velstatus\":\"%s\",\"libvelstatus\":\"%s\",\"veleroReleases\":[", VELSTATUS_VERSION_STRING,
               velstatus_version_string());
        cli_print_releases(stdout, 1);
        printf("]}\n");
    } else {
        printf("velstatus %s (libvelstatus %s)\nVelero releases: ", VELSTATUS_VERSION_STRING,
               velstatus_version_string());
        cli_print_releases(stdout, 0);
        printf("\n");
    }
    return CLI_OK;
}

static const cli_usage phase_check_usage = {
    "phase check", "FROM TO",
    "Says whether Velero ever moves a backup or restore from phase FROM to phase TO\n"
    "(doc/velero-behaviour.md §5.2, §5.3) and which controller does. \"\" (an empty argument) is New.\n"
    "The JSON also says whether that controller's status patch is retried, as Velero\n"
    "does (retryVelero, doc/velero-behaviour.md §4.3) and with the hardened preset (retryHardened, §6.15).\n"
    "--velero-version X.Y answers for that Velero release (default: the current one;\n"
    "`velstatus version` lists them): a phase the release did not have is an error\n"
    "(Queued and ReadyToStart exist from 1.18, a restore's Finalizing phases from 1.14;\n"
    "doc/velero-releases.md).\n"
    "\n"
    "Exit status: 0 legal, 1 illegal, 2 bad input.\n"};

static int phase_check(int argc, char **argv)
{
    const char *cmd = "phase check";
    const char *kind_s = NULL, *fmt_s = "text", *version_s = NULL, *pos[2];
    velstatus_policy pol;
    int major, minor;
    int npos = 0, legal = 0, retry_velero = 0, retry_hardened = 0;
    velstatus_kind kind;
    velstatus_phase from, to;
    const char *controller = "";
    cli_format fmt;
    velstatus_error err;

    {
        const cli_opt opts[] = {CLI_VAL("--kind", 0, &kind_s, "backup|restore", "the object's kind (required)"),
                                CLI_OPT_OUTPUT(&fmt_s), CLI_OPT_VELERO_VERSION(&version_s)};
        int r = cli_parse(&phase_check_usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 2, &npos);
        if (r != 0)
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (!kind_s)
        return cli_fail(cmd, "--kind backup|restore is required");
    if (velstatus_kind_from_string(&kind, kind_s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "--kind must be backup or restore, not \"%s\"", kind_s);
    if (npos != 2)
        return cli_fail(cmd, "needs FROM and TO phases");
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0 ||
        cli_policy(cmd, NULL, "velero", version_s, &pol, &major, &minor) != 0)
        return CLI_BAD_INPUT;
    if (cli_parse_phase(cmd, "FROM", kind, pos[0], &from) != 0 || cli_parse_phase(cmd, "TO", kind, pos[1], &to) != 0)
        return CLI_BAD_INPUT;
    if (velstatus_phase_transition(&legal, &controller, kind, from, to, &pol, &err) != VELSTATUS_OK)
        return cli_fail(cmd, "Velero %d.%d: %s", major, minor, err.message);
    {
        velstatus_policy hardened;
        velstatus_policy_init(&hardened, sizeof(hardened), VELSTATUS_PRESET_HARDENED, NULL);
        if (velstatus_retry_transition(&retry_velero, kind, from, to, 0, &pol, &err) != VELSTATUS_OK ||
            velstatus_retry_transition(&retry_hardened, kind, from, to, 0, &hardened, &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "retry", &err);
    }

    if (fmt == CLI_JSON) {
        printf("{\"kind\":\"%s\",\"from\":\"%s\",\"to\":\"%s\",\"legal\":%s,\"controller\":",
               velstatus_kind_to_string(kind), velstatus_phase_to_string(from), velstatus_phase_to_string(to),
               legal ? "true" : "false");
        if (legal)
            printf("\"%s\"", controller);
        else
            printf("null");
        /* Whether the status patch is retried (doc/velero-behaviour.md §4.3; hardened adds §6.15). */
        printf(",\"retryVelero\":%s,\"retryHardened\":%s}\n", retry_velero ? "true" : "false",
               retry_hardened ? "true" : "false");
    } else if (legal) {
        printf("legal: %s %s -> %s (%s)\n", velstatus_kind_to_string(kind), velstatus_phase_to_string(from),
               velstatus_phase_to_string(to), controller);
    } else {
        printf("illegal: Velero never moves a %s from %s to %s\n", velstatus_kind_to_string(kind),
               velstatus_phase_to_string(from), velstatus_phase_to_string(to));
    }
    return legal ? CLI_OK : CLI_FALSE;
}

int cmd_phase(int argc, char **argv)
{
    static const cli_sub subs[] = {{"check", phase_check, "is a backup/restore phase transition legal"}};
    return cli_dispatch("phase", argc, argv, subs, sizeof(subs) / sizeof(subs[0]));
}
