/* SPDX-License-Identifier: Apache-2.0 */
/* Which form an input is, and the hooks that hand a describe text or a
 * table to its reader where commands read input (doc/cli.md, "Input
 * forms"). The readers turn the text into the JSON the library's decoders
 * read, so the library decides exactly as it does for the JSON form. */
#include "cli.h"
#include "describe_in.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cli_form cli_input_form = CLI_FORM_AUTO;
const char *cli_input_now = NULL;

/* The operations list of the last describe OBJECT (explain). */
static char *stash;
static size_t stash_len;

int cli_form_parse(const char *s, cli_form *out)
{
    static const char *const names[] = {"auto", "json", "describe", "table"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            return *out = (cli_form)i, 0;
    return -1;
}

static size_t first_byte(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

int cli_form_maybe_text(const char *p, size_t n)
{
    size_t i = first_byte(p, n);
    return cli_input_form == CLI_FORM_DESCRIBE ||
           (cli_input_form == CLI_FORM_AUTO && i < n && ((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z')));
}

cli_form cli_form_detect(const char *p, size_t n)
{
    din_line *v;
    size_t count;
    int d;
    if (!cli_form_maybe_text(p, n))
        return CLI_FORM_JSON;
    if (cli_table_is(p, n))
        return CLI_FORM_TABLE;
    if (din_lines(p, n, &v, &count) != 0)
        return CLI_FORM_JSON;
    d = din_is_describe(v, count);
    free(v);
    return d ? CLI_FORM_DESCRIBE : CLI_FORM_JSON;
}

int cli_form_raw(const char *p, size_t n)
{
    if (cli_input_form == CLI_FORM_DESCRIBE || cli_input_form == CLI_FORM_TABLE)
        return 1;
    return cli_input_form == CLI_FORM_AUTO && cli_form_detect(p, n) != CLI_FORM_JSON;
}

static cli_form form_of(const char *p, size_t n)
{
    return cli_input_form != CLI_FORM_AUTO ? cli_input_form : cli_form_detect(p, n);
}

static void take(cli_conv *c, const char *cmd, const char *name, char **buf, size_t *n)
{
    free(*buf);
    *buf = c->json;
    *n = c->len;
    c->json = NULL;
    if (c->notes[0])
        fprintf(stderr, "%s: %s: %s: note: %s\n", cli_prog, cmd, name, c->notes);
}

/* The operations list of a describe OBJECT, kept for explain when the text
 * lists operations (a title followed by them, or an operation block). */
static int stash_ops(const char *cmd, const char *name, const char *p, size_t n)
{
    din_line *v;
    size_t count, t;
    int restore, listed = 0;
    cli_conv c;
    free(stash);
    stash = NULL;
    if (din_lines(p, n, &v, &count) != 0)
        return cli_fail(cmd, "out of memory reading %s", name);
    t = din_title(v, count, &restore);
    listed = t < count ? v[t].n - v[t].ind == strlen(restore ? "Restore Item Operations:" : "Backup Item Operations:")
                       : cli_form_detect(p, n) == CLI_FORM_DESCRIBE && strstr(p, "Operation for ") != NULL;
    free(v);
    if (!listed)
        return 0;
    if (cli_describe_ops(p, n, &c) != 0)
        return cli_fail(cmd, "%s: %s", name, c.msg);
    stash = c.json;
    stash_len = c.len;
    return 0;
}

int cli_adapt_object(const char *cmd, const char *name, char **buf, size_t *n)
{
    cli_form f = *buf ? form_of(*buf, *n) : CLI_FORM_JSON;
    cli_conv c;
    int64_t now;
    if (f == CLI_FORM_JSON || f == CLI_FORM_AUTO)
        return 0;
    if (f == CLI_FORM_TABLE) {
        if (cli_now(cmd, cli_input_now, &now) != 0)
            return CLI_BAD_INPUT;
        if (cli_table_bsls(*buf, *n, now, &c) != 0)
            return cli_fail(cmd, "%s: %s", name, c.msg);
    } else {
        if (stash_ops(cmd, name, *buf, *n) != 0)
            return CLI_BAD_INPUT;
        if (cli_describe_object(*buf, *n, &c) != 0)
            return cli_fail(cmd, "%s: %s", name, c.msg);
    }
    take(&c, cmd, name, buf, n);
    return 0;
}

int cli_adapt_oplist(const char *cmd, const char *name, const char **kind_s, char **buf, size_t *n)
{
    cli_form f = *buf ? form_of(*buf, *n) : CLI_FORM_JSON;
    cli_conv c;
    const char *k;
    if (f == CLI_FORM_JSON || f == CLI_FORM_AUTO)
        return 0;
    if (f == CLI_FORM_TABLE)
        return cli_fail(cmd, "%s: a table of backup storage locations is not an operations list", name);
    if (cli_describe_ops(*buf, *n, &c) != 0)
        return cli_fail(cmd, "%s: %s", name, c.msg);
    k = velstatus_kind_to_string(c.kind);
    if (*kind_s && strcmp(*kind_s, k) != 0) {
        cli_conv_free(&c);
        return cli_fail(cmd, "%s: the describe text lists %s operations, not %s ones", name, k, *kind_s);
    }
    *kind_s = k;
    take(&c, cmd, name, buf, n);
    return 0;
}

int cli_describe_take_ops(const char *cmd, velstatus_ctx *ctx, velstatus_kind kind, velstatus_oplist **out)
{
    velstatus_error err;
    velstatus_status st;
    *out = NULL;
    if (!stash)
        return CLI_OK;
    st = velstatus_oplist_from_json(out, ctx, kind, stash, stash_len, &err);
    free(stash);
    stash = NULL;
    return st == VELSTATUS_OK ? CLI_OK : cli_fail_err(cmd, "the operations of the describe text", &err);
}
