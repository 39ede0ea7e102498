/* SPDX-License-Identifier: Apache-2.0 */
/* The CLI's text readers (tools/text_in.h) on untrusted text:
 *  - describe: the operations section and the header of `velero describe`
 *    text; what they write must be JSON (jansson reads it), the library must
 *    decode the list without an internal error, and the library's describe
 *    text of that list must read back to as many operations (the byte-exact
 *    round trip is tests/cli-describe-in.sh's: a value holding a tab or a
 *    newline cannot come back, doc/cli.md);
 *  - table: a BSL table; its JSON must be JSON and decode or fail cleanly.
 * Both readers must name the line of any failure and never crash. */
#include "fuzz.h"
#include "text_in.h"

#include <jansson.h>
#include <string.h>

static void is_json(vs_fuzz_env *env, const cli_conv *c, const char *what)
{
    json_error_t je;
    json_t *j = json_loadb(c->json, c->len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!j)
        vs_fuzz_fail(env, "%s wrote text that is not JSON: %s (line %d): %.*s", what, je.text, je.line,
                     (int)(c->len > 400 ? 400 : c->len), c->json);
    json_decref(j);
}

/* Whether a value of the list holds what describe text cannot carry back (a
 * control character such as a tab, newline, vertical tab or form feed: the
 * tab writer turns them into layout; doc/cli.md, "Input forms"): its JSON
 * escapes them. */
static int holds_layout(vs_fuzz_env *env, const velstatus_oplist *ops)
{
    char *j = NULL;
    size_t n = 0;
    int r;
    if (velstatus_oplist_to_json(&j, &n, ops, NULL) != VELSTATUS_OK)
        return 1;
    /* Go's escaping writes \n \r \t by name and every other control
     * character as \u00XX */
    r = strstr(j, "\\n") || strstr(j, "\\r") || strstr(j, "\\t") || strstr(j, "\\u000") || strstr(j, "\\u001");
    velstatus_free(env->ctx, j);
    return r;
}

/* describe(list) → read → decode → describe: as many operations, unless a
 * value holds layout characters (the byte-exact round trip is
 * tests/cli-describe-in.sh's). */
static void round_trip(vs_fuzz_env *env, const velstatus_oplist *ops)
{
    char *a = NULL, *b = NULL;
    size_t an = 0, bn = 0;
    velstatus_error err;
    velstatus_oplist *back = NULL;
    cli_conv c;
    if (!vs_fuzz_must(env, velstatus_describe_operations(&a, &an, env->ctx, ops, 1, &err), &err, "describe"))
        return;
    if (an > 0 && cli_describe_ops(a, an, &c) == 0) {
        is_json(env, &c, "the operations reader");
        if (velstatus_oplist_from_json(&back, env->ctx, velstatus_oplist_kind(ops), c.json, c.len, &err) ==
                VELSTATUS_OK &&
            vs_fuzz_must(env, velstatus_describe_operations(&b, &bn, env->ctx, back, 1, &err), &err, "describe again"))
            VS_FUZZ_CHECK(env, holds_layout(env, ops) || velstatus_oplist_count(back) == velstatus_oplist_count(ops));
        cli_conv_free(&c);
    }
    velstatus_free(env->ctx, a);
    velstatus_free(env->ctx, b);
    velstatus_oplist_free(back);
}

void vs_pipe_describe_in(vs_fuzz_env *env, vs_fuzz_in *in)
{
    cli_conv c;
    velstatus_error err;
    velstatus_oplist *ops = NULL;
    if (cli_describe_ops(in->text, in->text_len, &c) == 0) {
        is_json(env, &c, "the operations reader");
        if (vs_fuzz_stage(env, velstatus_oplist_from_json(&ops, env->ctx, c.kind, c.json, c.len, &err),
                          "decode the list read"))
            round_trip(env, ops);
        velstatus_oplist_free(ops);
        cli_conv_free(&c);
    } else {
        VS_FUZZ_CHECK(env, c.msg[0] != '\0' && !c.json);
    }
    if (cli_describe_object(in->text, in->text_len, &c) == 0) {
        is_json(env, &c, "the header reader");
        cli_conv_free(&c);
    } else {
        VS_FUZZ_CHECK(env, c.msg[0] != '\0' && !c.json);
    }
}

void vs_pipe_table_in(vs_fuzz_env *env, vs_fuzz_in *in)
{
    cli_conv c;
    velstatus_error err;
    velstatus_bsl_set *set = NULL;
    static const int64_t nows[] = {0, INT64_C(1699630860) * 1000000000, INT64_MIN, INT64_MAX};
    int64_t now = vs_fuzz_int(in, nows, 4);
    if (cli_table_bsls(in->text, in->text_len, now, &c) != 0) {
        VS_FUZZ_CHECK(env, c.msg[0] != '\0' && !c.json);
        return;
    }
    is_json(env, &c, "the table reader");
    if (vs_fuzz_stage(env, velstatus_bsl_set_from_json(&set, env->ctx, c.json, c.len, &err), "decode the BSLs read"))
        velstatus_bsl_set_free(set);
    cli_conv_free(&c);
}
