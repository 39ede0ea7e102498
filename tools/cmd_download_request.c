/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus download-request backup|restore NAME: the DownloadRequest
 * manifest Velero's own CLI creates to fetch a backup's or restore's
 * itemoperations file (pkg/cmd/util/downloadrequest/downloadrequest.go,
 * getDownloadURL; doc/operations.md, "Getting the itemoperations file"). */
#include "cli.h"
#include "yaml_json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

static const cli_usage usage = {
    "download-request", "backup|restore NAME",
    "Prints the DownloadRequest Velero's CLI creates for the itemoperations file of\n"
    "backup or restore NAME (target kind BackupItemOperations / RestoreItemOperations),\n"
    "in namespace NAMESPACE (default velero). Its name is NAME-<random UUID>, as\n"
    "Velero names it, so that it never collides with an earlier request; --name\n"
    "gives it a fixed name instead. The whole recipe:\n"
    "\n"
    "  velstatus download-request backup NAME | kubectl create -f -\n"
    "  kubectl get downloadrequest -n velero REQUEST -o jsonpath='{.status.downloadURL}'\n"
    "  curl -s \"$URL\" | velstatus explain --operations - BACKUP.json   (the file is gzip'ed JSON)\n"
    "\n"
    "Exit status: 0, or 2 on a usage error.\n"};

/* A random version 4 UUID, as github.com/google/uuid's NewRandom writes it. */
static int random_uuid(char out[37])
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof(b)) {
        ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
        if (n < 0 && errno != EINTR)
            return -1;
        if (n > 0)
            got += (size_t)n;
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 0;
}

/* A Kubernetes object name (a DNS subdomain: lowercase letters, digits, '-'
 * and '.', starting and ending with a letter or digit, at most 253). */
static int dns_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 253 || s[0] == '-' || s[0] == '.' || s[n - 1] == '-' || s[n - 1] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '.'))
            return 0;
    return 1;
}

/* A name as a YAML scalar: plain, unless a plain scalar would read as
 * something else than a string (a name like 0777 or yes), then quoted. */
static void yaml_name(const char *s)
{
    vs_yaml_value v;
    const char *why = NULL;
    if (vs_yaml_resolve(s, strlen(s), NULL, 1, &v, &why) == 0 && v.type == VS_YT_STRING)
        fputs(s, stdout);
    else
        printf("\"%s\"", s);
}

static void print_manifest(int json, const char *req, const char *ns, const char *kind, const char *name)
{
    if (json) {
        printf("{\"apiVersion\":\"velero.io/v1\",\"kind\":\"DownloadRequest\",\"metadata\":{\"name\":\"%s\","
               "\"namespace\":\"%s\"},\"spec\":{\"target\":{\"kind\":\"%s\",\"name\":\"%s\"}}}\n",
               req, ns, kind, name);
        return;
    }
    printf("apiVersion: velero.io/v1\nkind: DownloadRequest\nmetadata:\n  name: ");
    yaml_name(req);
    printf("\n  namespace: ");
    yaml_name(ns);
    printf("\nspec:\n  target:\n    kind: %s\n    name: ", kind);
    yaml_name(name);
    printf("\n");
}

int cmd_download_request(int argc, char **argv)
{
    const char *cmd = "download-request", *ns = "velero", *req_s = NULL, *fmt_s = "yaml", *pos[2];
    char req[300], uuid[37];
    int npos = 0, json;
    {
        const cli_opt o[] = {CLI_VAL("--namespace", 'n', &ns, "NAMESPACE", "Velero's namespace (default velero)"),
                             CLI_VAL("--name", 0, &req_s, "REQUEST", "the request's name (default NAME-<random UUID>)"),
                             CLI_OPT_OUTPUT_OF(&fmt_s, "yaml|json")};
        int r = cli_parse(&usage, argc, argv, o, sizeof(o) / sizeof(o[0]), pos, 2, &npos);
        if (r != 0)
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (npos != 2 || (strcmp(pos[0], "backup") != 0 && strcmp(pos[0], "restore") != 0)) {
        fprintf(stderr, "usage: velstatus %s [options] %s (see velstatus help %s)\n", usage.cmd, usage.operands, cmd);
        return CLI_BAD_INPUT;
    }
    if (strcmp(fmt_s, "yaml") != 0 && strcmp(fmt_s, "json") != 0)
        return cli_fail(cmd, "-o must be yaml or json, not \"%s\"", fmt_s);
    json = strcmp(fmt_s, "json") == 0;
    if (!dns_name(pos[1]) || strlen(pos[1]) > 253 - 37)
        return cli_fail(cmd, "NAME must be a Kubernetes object name (lowercase letters, digits, '-', '.'), not \"%s\"",
                        pos[1]);
    if (!dns_name(ns))
        return cli_fail(cmd, "--namespace must be a Kubernetes namespace name, not \"%s\"", ns);
    if (req_s && !dns_name(req_s))
        return cli_fail(cmd, "--name must be a Kubernetes object name, not \"%s\"", req_s);
    if (!req_s && random_uuid(uuid) != 0)
        return cli_fail(cmd, "cannot read random bytes: %s", strerror(errno));
    snprintf(req, sizeof(req), "%s%s%s", req_s ? req_s : pos[1], req_s ? "" : "-", req_s ? "" : uuid);
    print_manifest(json, req, ns, strcmp(pos[0], "backup") == 0 ? "BackupItemOperations" : "RestoreItemOperations",
                   pos[1]);
    return CLI_OK;
}
