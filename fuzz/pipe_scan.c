/* SPDX-License-Identifier: Apache-2.0 */
/* Differential target: the library's JSON scanner (lib/common/json_scan.h, internal)
 * against jansson on every input: the same accept or reject, the same end of
 * the value, and at every depth each member and element span the walkers
 * give parses on its own to the value jansson's tree holds there. The one
 * documented difference: a raw NUL byte, which the scanner rejects
 * everywhere and jansson skips after a number or a literal. */
#include "fuzz.h"

#include <jansson.h>
#include <string.h>

#include "common/json_scan.h"

#define FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL)
/* spans deeper than this are checked for structure only, to keep runs fast */
#define REPARSE_DEPTH 32

static json_t *load_exact(const char *s, size_t n, json_error_t *jerr)
{
    return json_loadb(s, n, FLAGS, jerr);
}

static void walk(vs_fuzz_env *env, const char *p, size_t vs, size_t ve, const json_t *v, int depth);

/* Each member's key span is a JSON string, the distinct keys are jansson's,
 * and the last value of each key is jansson's value for it. */
static void walk_object(vs_fuzz_env *env, const char *p, size_t vs, size_t ve, const json_t *v, int depth)
{
    velstatus__json_iter it;
    json_error_t jerr;
    json_t *last = json_object(); /* key -> index of its last member */
    size_t ks, ke, a, b, k;
    for (int round = 0; round < 2; round++) {
        velstatus__json_iter_init(&it, p, vs, ve);
        for (k = 0; velstatus__json_next_member(&it, &ks, &ke, &a, &b); k++) {
            json_t *key = load_exact(p + ks, ke - ks, &jerr), *mine = NULL;
            const json_t *want;
            VS_FUZZ_CHECK(env, ks > vs && ke <= a && a < b && b < ve && json_is_string(key));
            if (round == 0) {
                json_object_setn_new(last, json_string_value(key), json_string_length(key),
                                     json_integer((json_int_t)k));
            } else {
                want = json_object_getn(v, json_string_value(key), json_string_length(key));
                VS_FUZZ_CHECK(env, want != NULL);
                if ((size_t)json_integer_value(
                        json_object_getn(last, json_string_value(key), json_string_length(key))) != k)
                    want = mine = load_exact(p + a, b - a, &jerr); /* an earlier duplicate: its own value */
                VS_FUZZ_CHECK(env, want != NULL);
                walk(env, p, a, b, want, depth + 1);
                json_decref(mine);
            }
            json_decref(key);
        }
    }
    VS_FUZZ_CHECK(env, json_object_size(last) == json_object_size(v));
    json_decref(last);
}

static void walk(vs_fuzz_env *env, const char *p, size_t vs, size_t ve, const json_t *v, int depth)
{
    velstatus__json_iter it;
    json_error_t jerr;
    size_t a, b, k = 0;
    if (depth <= REPARSE_DEPTH) {
        json_t *span = load_exact(p + vs, ve - vs, &jerr);
        if (!span || !json_equal(span, v))
            vs_fuzz_fail(env, "the span [%zu, %zu) at depth %d %s: %.*s", vs, ve, depth,
                         span ? "parses to another value than jansson's tree holds" : "does not parse alone",
                         (int)(ve - vs > 200 ? 200 : ve - vs), p + vs);
        json_decref(span);
    }
    VS_FUZZ_CHECK(env, (p[vs] == '[') == json_is_array(v) && (p[vs] == '{') == json_is_object(v));
    if (json_is_array(v)) {
        velstatus__json_iter_init(&it, p, vs, ve);
        for (; velstatus__json_next_element(&it, &a, &b); k++) {
            const json_t *e = json_array_get(v, k);
            VS_FUZZ_CHECK(env, e && a > vs && a < b && b < ve);
            walk(env, p, a, b, e, depth + 1);
        }
        VS_FUZZ_CHECK(env, k == json_array_size(v));
    } else if (json_is_object(v)) {
        walk_object(env, p, vs, ve, v, depth);
    }
}

/* The walk with the ends the scan recorded (velstatus__json_iter_init_tape)
 * gives the very spans of the walk that finds them itself, at every depth
 * (whether the tape holds the entry or has overflowed). */
static void walk_tape(vs_fuzz_env *env, const char *p, size_t vs, size_t ve, velstatus__json_tape *t, int depth)
{
    velstatus__json_iter plain, taped;
    size_t ks[2], ke[2], a[2], b[2];
    int obj = p[vs] == '{', more;
    if ((p[vs] != '{' && p[vs] != '[') || depth > 2 * VELSTATUS__JSON_TAPE_DEPTH)
        return;
    velstatus__json_iter_init(&plain, p, vs, ve);
    velstatus__json_iter_init_tape(&taped, p, vs, ve, t);
    do {
        more = obj ? velstatus__json_next_member(&plain, &ks[0], &ke[0], &a[0], &b[0])
                   : velstatus__json_next_element(&plain, &a[0], &b[0]);
        if (more != (obj ? velstatus__json_next_member(&taped, &ks[1], &ke[1], &a[1], &b[1])
                         : velstatus__json_next_element(&taped, &a[1], &b[1])))
            vs_fuzz_fail(env, "the taped walk of [%zu, %zu) ends elsewhere", vs, ve);
        if (more && (a[0] != a[1] || b[0] != b[1] || (obj && (ks[0] != ks[1] || ke[0] != ke[1]))))
            vs_fuzz_fail(env, "the taped walk gives [%zu, %zu) for [%zu, %zu)", a[1], b[1], a[0], b[0]);
        if (more)
            walk_tape(env, p, a[0], b[0], t, depth + 1);
    } while (more);
}

/* The scan with a tape accepts the same text with the same end; the tape
 * is active and its walk is the plain walk. */
static void check_tape(vs_fuzz_env *env, const char *s, size_t i, size_t end)
{
    static velstatus__json_tape t;
    velstatus__json_scan_err e;
    size_t tend = 0;
    VS_FUZZ_CHECK(env, velstatus__json_scan_tape(s + i, end, &tend, &e, &t, i) && tend == end && t.active);
    walk_tape(env, s, i, i + end, &t, 0);
}

/* Go's key matching against the ASCII rule it reduces to for ASCII keys. */
static void check_keys(vs_fuzz_env *env, const char *s, size_t n)
{
    static const char *const names[] = {"operationID", "spec", "status", "phase", "kind"};
    size_t i, k, len = n < 16 ? n : 16;
    int ascii = 1;
    for (i = 0; i < len; i++)
        ascii = ascii && (unsigned char)s[i] < 0x80;
    for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        const char *name = names[k];
        int got = velstatus__json_key_match(s, len, name), want = 0;
        VS_FUZZ_CHECK(env, velstatus__json_key_match(name, strlen(name), name) == 2);
        if (!ascii)
            continue;
        if (len == strlen(name) && memcmp(s, name, len) == 0)
            want = 2;
        else if (len == strlen(name)) {
            want = 1;
            for (i = 0; i < len; i++) {
                unsigned char x = (unsigned char)s[i], y = (unsigned char)name[i];
                if (x != y && !((x | 0x20) == (y | 0x20) && (y | 0x20) >= 'a' && (y | 0x20) <= 'z'))
                    want = 0;
            }
        }
        if (got != want)
            vs_fuzz_fail(env, "key \"%.*s\" against %s: %d, want %d", (int)len, s, name, got, want);
    }
}

void vs_pipe_scan(vs_fuzz_env *env, vs_fuzz_in *in)
{
    const char *s = in->text;
    size_t n = in->text_len, i = velstatus__json_ws(s, 0, n), end = 0;
    velstatus__json_scan_err e;
    json_error_t jerr, werr; /* werr: jansson on the whole input */
    json_t *whole = json_loadb(s, n, FLAGS | JSON_DISABLE_EOF_CHECK, &werr), *alone;
    memset(&e, 0, sizeof(e));
    check_keys(env, s, n);
    if (!velstatus__json_scan(s + i, n - i, &end, &e)) {
        VS_FUZZ_CHECK(env, (e.code == VELSTATUS_E_PARSE || e.code == VELSTATUS_E_RANGE) && e.reason);
        VS_FUZZ_CHECK(env, e.off <= n - i);
        if (whole && !(e.off < n - i && s[i + e.off] == '\0'))
            vs_fuzz_fail(env, "the scanner rejects what jansson accepts (%zu bytes): %s at %zu", (size_t)werr.position,
                         e.reason, i + e.off);
        json_decref(whole);
        return;
    }
    VS_FUZZ_CHECK(env, end > 0 && end <= n - i);
    alone = load_exact(s + i, end, &jerr);
    if (!alone)
        vs_fuzz_fail(env, "the scanner accepts [%zu, %zu), jansson rejects it alone: %s at %d", i, i + end, jerr.text,
                     jerr.position);
    if (!whole) {
        /* jansson reads on past a number or a literal (one character, or a run of
         * letters): only what follows the value may make it fail */
        int scalar = s[i] != '[' && s[i] != '{' && s[i] != '"';
        if (!scalar || (size_t)werr.position < i + end)
            vs_fuzz_fail(env, "the scanner accepts [%zu, %zu), jansson rejects the input: %s at %d", i, i + end,
                         werr.text, werr.position);
    } else if ((size_t)werr.position != i + end || !json_equal(whole, alone)) {
        vs_fuzz_fail(env, "the value ends at %zu for the scanner, at %d for jansson", i + end, werr.position);
    }
    walk(env, s, i, i + end, alone, 0);
    check_tape(env, s, i, end);
    json_decref(alone);
    json_decref(whole);
}
