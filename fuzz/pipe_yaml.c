/* SPDX-License-Identifier: Apache-2.0 */
/* Pipeline: the tool's YAML-to-JSON converter (tools/yaml_json.c). TEXT is
 * the YAML. It is converted in both modes (one text; one text per
 * document), read whole and again through reads of sizes the tail chooses
 * (down to one byte) with output buffers the tail chooses: both runs must
 * succeed with the same JSON, or both fail. A conversion
 * that succeeds in the one-text mode must be one JSON value (jansson), or
 * nothing; an error must have a message, and a position inside the text's
 * lines. The alias bound keeps a billion-laughs input small. */
#define _GNU_SOURCE /* memmem */
#include "fuzz.h"

#include <string.h>

#include "yaml_json.h"

typedef struct src {
    vs_fuzz_in *in;
    size_t pos;
    int cut;
} src;

static long src_read(void *ud, char *buf, size_t n)
{
    src *s = ud;
    size_t k = s->in->text_len - s->pos;
    if (s->cut && k > 0) {
        size_t c = 1 + vs_fuzz_pick(s->in, 64);
        k = c < k ? c : k;
    }
    if (k > n)
        k = n;
    memcpy(buf, s->in->text + s->pos, k);
    s->pos += k;
    return (long)k;
}

/* Converts TEXT; the JSON (or the error, with its position) into *out. */
static void convert(vs_fuzz_env *env, vs_fuzz_in *in, vs_yaml_mode mode, int cut, vs_fuzz_buf *out, int *failed)
{
    src s = {in, 0, cut};
    char buf[4096];
    long got;
    vs_yaml *y = vs_yaml_new(src_read, &s, mode, UINT64_MAX);
    VS_FUZZ_CHECK(env, y != NULL);
    do {
        size_t n = cut ? 1 + vs_fuzz_pick(in, sizeof(buf)) : sizeof(buf);
        got = vs_yaml_read(y, buf, n);
        VS_FUZZ_CHECK(env, got <= (long)n);
        if (got > 0)
            vs_fuzz_buf_add(out, buf, (size_t)got);
    } while (got > 0);
    *failed = got < 0;
    if (got < 0) {
        unsigned long line, col, lines = 1;
        int from_source;
        const char *msg = vs_yaml_error(y, &line, &col, &from_source);
        for (size_t i = 0; i < in->text_len; i++)
            lines += in->text[i] == '\n' || in->text[i] == '\r';
        VS_FUZZ_CHECK(env, msg && msg[0] != '\0' && !from_source && line <= lines + 1);
        out->len = 0;
        vs_fuzz_buf_add(out, msg, strlen(msg));
        vs_fuzz_buf_add(out, &line, sizeof(line));
        vs_fuzz_buf_add(out, &col, sizeof(col));
    }
    vs_yaml_free(y);
}

void vs_pipe_yaml(vs_fuzz_env *env, vs_fuzz_in *in)
{
    for (int mode = 0; mode < 2; mode++) {
        vs_fuzz_buf whole = {0}, cut = {0};
        int failed_whole, failed_cut;
        convert(env, in, (vs_yaml_mode)mode, 0, &whole, &failed_whole);
        convert(env, in, (vs_yaml_mode)mode, 1, &cut, &failed_cut);
        /* With several errors in a text, which libyaml meets first depends on how much it has
         * loaded (its reader checks characters as it loads them): only success must agree. */
        if (failed_whole != failed_cut || (!failed_whole && !vs_fuzz_same(whole.p, whole.len, cut.p, cut.len)))
            vs_fuzz_fail(env, "the YAML read in pieces converts otherwise than read whole (mode %d)", mode);
        /* jansson takes no NUL in a key even with JSON_ALLOW_NUL: such a text goes unchecked */
        if (mode == VS_YAML_WHOLE && !failed_whole && whole.len > 0 && !memmem(whole.p, whole.len, "\\u0000", 6))
            vs_fuzz_valid_json(env, whole.p, whole.len, "the YAML converter");
        vs_fuzz_buf_free(&whole);
        vs_fuzz_buf_free(&cut);
    }
}
