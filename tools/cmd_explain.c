/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain: why a Backup or Restore is in its phase, what Velero
 * will do next and when (issue 14, doc/explain.md). Every decision comes
 * from the library: the forecast (velstatus_forecast_new, which steps the
 * reconcile), the phase tables, the BSL classification and the retry
 * schedule of the status patch; this file reads the inputs and words it. */
#include "explain.h"
#include "explain_svg.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const cli_usage usage = {
    "explain", "OBJECT",
    "Explains a Backup or Restore (`kubectl get backup NAME -o json`): what its phase means, why it\n"
    "is in it (the operations still running, those that failed and with what error, whether\n"
    "errors already make it PartiallyFailed), the timeline of what Velero will do next and when\n"
    "if every plugin keeps reporting the progress recorded, the state of its BSL and what a\n"
    "missing or read-only one would do, whether the next status patch is retried and for how\n"
    "long, and what to check, in order. What an input does not tell is said, never guessed.\n"
    "-o json has the same content for tools (doc/explain.md has the schema); -o svg draws the\n"
    "timeline as one self-contained SVG picture.\n"
    "With --datauploads or --datadownloads (kubectl get -o json or YAML, a List or a watch), the\n"
    "timeline answers the CSI PVC plugin's operations from the objects as the node-agent moves\n"
    "them, and a \"Data mover\" section follows each running operation of Velero's CSI PVC plugin to its object:\n"
    "what the plugin answers now, what the node-agent does next and when, what the plugin then\n"
    "answers, and the operations controller's pass at that instant (doc/explain.md).\n"
    "\n"
    "OBJECT, OPS, BSLS and the objects' FILEs are files or - (stdin, one of them), JSON or gzip.\n"
    "Exit status: 0 success, 2 bad input or usage.\n"};

/* ---- -o svg (tools/explain_svg.c draws the same forecast) ---- */

static int print_svg(const ex *x)
{
    explain_svg_in in = {.kind = x->o.kind,
                         .ns = x->o.ns,
                         .ns_len = x->o.ns_len,
                         .name = x->o.name,
                         .name_len = x->o.name_len,
                         .phase = x->o.phase,
                         .phase_len = x->o.phase_len,
                         .phase_known = x->phase_known,
                         .phase_value = x->phase,
                         .utc = x->utc,
                         .now = x->now,
                         .timeout_ns = x->timeout,
                         .timeout_src = x->timeout_src,
                         .ops = x->ops,
                         .fc = x->fc};
    in.policy = velstatus_preset_to_string((velstatus_preset)x->pol.preset);
    if (x->pol.preset == VELSTATUS_PRESET_VELERO) {
        in.major = x->major;
        in.minor = x->minor;
    }
    return explain_svg(stdout, &in);
}

/* ---- the command ---- */

int cmd_explain(int argc, char **argv)
{
    const char *ops_s = NULL, *bsls_s = NULL, *timeout_s = NULL, *rt_s = NULL, *policy_s = NULL, *now_s = NULL;
    const char *fmt_s = "text", *path = NULL, *version_s = NULL;
    cli_objects_paths paths = {NULL, NULL, NULL, NULL};
    velstatus_error err;
    ex x;
    int rc;
    memset(&x, 0, sizeof(x));
    {
        const cli_opt opts[] = {
            CLI_VAL("--operations", 0, &ops_s, "OPS", "the <name>-itemoperations.json(.gz) of the backup or restore"),
            CLI_VAL("--bsls", 0, &bsls_s, "BSLS", "`kubectl get backupstoragelocations -n velero -o json`"),
            CLI_OPT_PLUGIN_OBJECTS(&paths),
            CLI_OPT_ITEM_OPERATION_TIMEOUT(&timeout_s),
            CLI_VAL("--resource-timeout", 0, &rt_s, "DURATION",
                    "the server's --resource-timeout (default 10m): bounds a status patch's retries"),
            CLI_VAL("--policy", 0, &policy_s, "velero|hardened", "the preset (default: velero, what Velero does)"),
            CLI_OPT_VELERO_VERSION(&version_s),
            CLI_OPT_NOW(&now_s),
            CLI_FLAG("--utc", 0, &x.utc, "times in UTC (default: the local time zone, TZ respected)"),
            CLI_VAL("--persist-fails", 0, &x.persist_fails, "upload|patch",
                    "the upload or the status patch of every pass fails: what stays, instead of the phase changes"),
            CLI_OPT_OUTPUT_OF(&fmt_s, "text|json|svg")};
        int npos = 0, r = cli_parse(&usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, 1, &npos);
        if (r != 0)
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
        if (npos == 0)
            return cli_fail(EX_CMD, "OBJECT is required (a Backup or Restore as JSON, or - for stdin)");
    }
    if (strcmp(fmt_s, "svg") == 0)
        x.fmt = CLI_SVG;
    else if (strcmp(fmt_s, "text") != 0 && strcmp(fmt_s, "json") != 0)
        return cli_fail(EX_CMD, "-o must be text, json or svg, not \"%s\"", fmt_s);
    if ((x.fmt != CLI_SVG && cli_parse_format(EX_CMD, fmt_s, &x.fmt) != 0) || cli_now(EX_CMD, now_s, &x.now) != 0)
        return CLI_BAD_INPUT;
    if (cli_policy(EX_CMD, policy_s, "velero", version_s, &x.pol, &x.major, &x.minor) != 0)
        return CLI_BAD_INPUT;
    if (x.persist_fails && strcmp(x.persist_fails, "upload") != 0 && strcmp(x.persist_fails, "patch") != 0)
        return cli_fail(EX_CMD, "--persist-fails must be upload or patch, not \"%s\"", x.persist_fails);
    x.release_given = version_s != NULL;
    velstatus_policy_init(&x.other_pol, sizeof(x.other_pol),
                          x.pol.preset == VELSTATUS_PRESET_VELERO ? VELSTATUS_PRESET_HARDENED : VELSTATUS_PRESET_VELERO,
                          NULL);
    x.resource_timeout = INT64_C(600) * 1000000000;
    if (rt_s && ex_parse_duration("--resource-timeout", rt_s, &x.resource_timeout) != CLI_OK)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&x.ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(EX_CMD, "context", &err);
    cli_input_now = now_s; /* a table's ages count back from it */
    rc = ex_read_object(&x, path);
    if (rc == CLI_OK)
        rc = ex_pick_timeout(&x, timeout_s);
    if (rc == CLI_OK && ops_s)
        rc = cli_load_oplist(EX_CMD, ops_s, velstatus_kind_to_string(x.o.kind), x.ctx, &x.ops);
    else if (rc == CLI_OK) /* a describe --details OBJECT lists its own operations */
        rc = cli_describe_take_ops(EX_CMD, x.ctx, x.o.kind, &x.ops);
    if (rc == CLI_OK && bsls_s)
        rc = ex_read_bsls(&x, bsls_s);
    if (rc == CLI_OK)
        rc = cli_objects_load(EX_CMD, x.ctx, &paths, &x.objs);
    if (rc == CLI_OK)
        rc = ex_forecasts(&x);
    if (rc == CLI_OK)
        rc = ex_dm_chains(&x);
    if (rc == CLI_OK && x.fmt == CLI_SVG)
        rc = print_svg(&x);
    else if (rc == CLI_OK)
        x.fmt == CLI_JSON ? ex_print_json(&x) : ex_print_text(&x);
    ex_free(&x);
    return rc;
}
