/* SPDX-License-Identifier: Apache-2.0 */
/* The input format, the plain and OOM runners, and the stage accounting. */
#include "fuzz.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char vs_fuzz_sentinel[1];

/* ---- input ---------------------------------------------------------------- */

uint64_t vs_fuzz_hash(const uint8_t *data, size_t size, uint64_t salt)
{
    uint64_t h = 14695981039346656037u ^ (salt * 0x9e3779b97f4a7c15u);
    size_t i;
    for (i = 0; i < size; i++) {
        h ^= data[i];
        h *= 1099511628211u;
    }
    return h;
}

void vs_fuzz_in_init(vs_fuzz_in *in, const uint8_t *data, size_t size)
{
    const size_t seplen = sizeof(VS_FUZZ_SEP) - 1;
    size_t i;
    memset(in, 0, sizeof(*in));
    in->text = (const char *)data;
    in->text_len = size;
    for (i = 0; i + seplen <= size; i++)
        if (data[i] == '\n' && memcmp(data + i, VS_FUZZ_SEP, seplen) == 0) {
            in->text_len = i;
            in->tail = data + i + seplen;
            in->tail_len = size - i - seplen;
            break;
        }
    in->rng = vs_fuzz_hash(data, size, 0) | 1;
}

uint8_t vs_fuzz_byte(vs_fuzz_in *in)
{
    if (in->pos < in->tail_len)
        return in->tail[in->pos++];
    in->rng ^= in->rng << 13;
    in->rng ^= in->rng >> 7;
    in->rng ^= in->rng << 17;
    return (uint8_t)(in->rng >> 24);
}

size_t vs_fuzz_pick(vs_fuzz_in *in, size_t n)
{
    size_t v = vs_fuzz_byte(in);
    if (n > 256)
        v = v << 8 | vs_fuzz_byte(in);
    return v % n;
}

int64_t vs_fuzz_int(vs_fuzz_in *in, const int64_t *table, size_t n)
{
    uint64_t v = 0;
    int i;
    if (vs_fuzz_pick(in, 4) != 0)
        return table[vs_fuzz_pick(in, n)];
    for (i = 0; i < 8; i++)
        v = v << 8 | vs_fuzz_byte(in);
    return (int64_t)v;
}

void vs_fuzz_text(vs_fuzz_in *in, const char **s, size_t *len)
{
    static const char long_text[300] = "long";
    static const struct {
        const char *p;
        size_t n;
    } texts[] = {
        {"", 0},
        {"Bytes", 5},
        {"boom", 4},
        {"\xff\xfe", 2},
        {"a\0b", 3},
        {"<&>\"\\", 5},
        {"\xe2\x80\xa8", 3},
        {"du-nightly-abcde", 16},
        {long_text, sizeof(long_text)},
    };
    size_t k;
    if (in->pos < in->tail_len) {
        size_t want = vs_fuzz_byte(in) % 64;
        size_t have = in->tail_len - in->pos;
        *s = (const char *)in->tail + in->pos;
        *len = want < have ? want : have;
        in->pos += *len;
        return;
    }
    k = vs_fuzz_pick(in, sizeof(texts) / sizeof(texts[0]));
    *s = texts[k].p;
    *len = texts[k].n;
}

/* ---- findings ---------------------------------------------------------------- */

void vs_fuzz_fail(const vs_fuzz_env *env, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "vs-fuzz finding (pipeline %s, stage %d", env ? env->pipeline : "?", env ? env->stage : -1);
    if (env && env->mode == VS_FUZZ_OOM_FAIL)
        fprintf(stderr, ", allocation #%ld failed", env->fail_at);
    fprintf(stderr, "): ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ---- stages ---------------------------------------------------------------- */

int vs_fuzz_stage(vs_fuzz_env *env, velstatus_status st, const char *what)
{
    int k = env->stage++;
    if (env->nomem_seen)
        return st == VELSTATUS_OK; /* the pipeline goes on after the failure: nothing more to compare */
    if (env->mode == VS_FUZZ_OOM_FAIL && env->fa.failed > 0) {
        if (st != VELSTATUS_E_NOMEM)
            vs_fuzz_fail(env, "%s returned %s after an allocation failed (want VELSTATUS_E_NOMEM)", what,
                         velstatus_status_name(st));
        env->nomem_seen = 1;
        return 0;
    }
    if (st == VELSTATUS_E_NOMEM || st == VELSTATUS_E_INTERNAL)
        vs_fuzz_fail(env, "%s returned %s and no allocation failed", what, velstatus_status_name(st));
    if (env->mode == VS_FUZZ_OOM_REF && k < VS_FUZZ_MAX_STAGES)
        env->ref[k] = st;
    if (env->mode == VS_FUZZ_OOM_FAIL && k < VS_FUZZ_MAX_STAGES && env->ref[k] != st)
        vs_fuzz_fail(env, "%s returned %s before the failing allocation, %s in the reference run", what,
                     velstatus_status_name(st), velstatus_status_name(env->ref[k]));
    return st == VELSTATUS_OK;
}

int vs_fuzz_must(vs_fuzz_env *env, velstatus_status st, const velstatus_error *err, const char *what)
{
    if (!(env->mode == VS_FUZZ_OOM_FAIL && env->fa.failed > 0) && !env->nomem_seen && st != VELSTATUS_OK)
        vs_fuzz_fail(env, "%s returned %s (%s), want VELSTATUS_OK", what, velstatus_status_name(st),
                     err ? err->message : "");
    return vs_fuzz_stage(env, st, what);
}

int vs_fuzz_checks(const vs_fuzz_env *env)
{
    return env->mode == VS_FUZZ_PLAIN;
}

void vs_fuzz_arm(vs_fuzz_env *env, int on)
{
    if (env->mode != VS_FUZZ_PLAIN)
        env->fa.fail_at = on ? env->fail_at : -1;
}

void vs_fuzz_out_untouched(const vs_fuzz_env *env, const void *out, const void *sentinel, const char *what)
{
    if (out != sentinel && out)
        vs_fuzz_fail(env, "%s failed but handed an object to the caller", what);
}

/* ---- runners ---------------------------------------------------------------- */

static void run_once(vs_fuzz_env *env, vs_fuzz_pipeline p, const uint8_t *data, size_t size)
{
    vs_fuzz_in in;
    vs_fuzz_in_init(&in, data, size);
    env->stage = 0;
    env->nomem_seen = 0;
    p(env, &in);
}

int vs_fuzz_run_plain(vs_fuzz_pipeline p, const char *name, const uint8_t *data, size_t size)
{
    vs_fuzz_env env;
    memset(&env, 0, sizeof(env));
    env.pipeline = name;
    if (velstatus_ctx_new(&env.ctx, NULL, NULL) != VELSTATUS_OK)
        abort();
    run_once(&env, p, data, size);
    velstatus_ctx_free(env.ctx);
    return 0;
}

/* jansson's allocator hooks, on the countdown of the run in progress. */
static velstatus_allocator jansson_alloc;

static void *jansson_malloc(size_t n)
{
    return jansson_alloc.alloc_fn ? jansson_alloc.alloc_fn(jansson_alloc.userdata, n) : malloc(n);
}

static void jansson_free(void *p)
{
    if (jansson_alloc.free_fn)
        jansson_alloc.free_fn(jansson_alloc.userdata, p);
    else
        free(p);
}

/* One run with a fresh failalloc ctx; jansson allocates on the same countdown. */
static void run_counted(vs_fuzz_env *env, vs_fuzz_pipeline p, const uint8_t *data, size_t size)
{
    vs_failalloc_setup(&jansson_alloc, &env->fa, -1);
    if (velstatus_ctx_new(&env->ctx, &jansson_alloc, NULL) != VELSTATUS_OK)
        abort();
    env->fa.live = 0; /* as vs_failalloc_ctx() does: the ctx block is not the pipeline's */
    env->fa.fail_at = env->fail_at;
    run_once(env, p, data, size);
    if (env->fa.live != 0)
        vs_fuzz_fail(env, "%ld block(s) of the context's or jansson's allocator leaked", env->fa.live);
    velstatus_ctx_free(env->ctx);
    env->ctx = NULL;
    memset(&jansson_alloc, 0, sizeof(jansson_alloc));
}

int vs_fuzz_run_oom(vs_fuzz_pipeline p, const char *name, const uint8_t *data, size_t size)
{
    static int hooked;
    vs_fuzz_env env;
    long total, n, k, tries;
    if (!hooked) {
        json_set_alloc_funcs(jansson_malloc, jansson_free);
        hooked = 1;
    }
    vs_fuzz_buf memo[VS_FUZZ_MEMOS];
    memset(&env, 0, sizeof(env));
    memset(memo, 0, sizeof(memo));
    env.memo = memo;
    env.pipeline = name;
    env.mode = VS_FUZZ_OOM_REF;
    env.fail_at = LONG_MAX;
    run_counted(&env, p, data, size);
    total = env.fa.count;
    /* every allocation when there are few, else four spread by the input's hash */
    tries = total <= 4 ? total : 4;
    for (k = 0; k < tries; k++) {
        n = total <= 4 ? k : (long)((vs_fuzz_hash(data, size, (uint64_t)k + 1) >> 1) % (uint64_t)total);
        env.mode = VS_FUZZ_OOM_FAIL;
        env.fail_at = n;
        run_counted(&env, p, data, size);
        if (env.fa.failed == 0 || !env.nomem_seen)
            vs_fuzz_fail(&env,
                         "allocation #%ld of %ld was not reached or its failure not reported (the "
                         "pipeline is not deterministic)",
                         n, total);
    }
    for (k = 0; k < VS_FUZZ_MEMOS; k++)
        vs_fuzz_buf_free(&memo[k]);
    return 0;
}

/* ---- helpers ---------------------------------------------------------------- */

void vs_fuzz_buf_add(vs_fuzz_buf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q)
            abort();
        b->p = q;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void vs_fuzz_buf_free(vs_fuzz_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

int vs_fuzz_same(const void *a, size_t alen, const void *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static void add_str(vs_fuzz_buf *b, const char *s, size_t n)
{
    vs_fuzz_buf_add(b, &n, sizeof(n));
    vs_fuzz_buf_add(b, s ? s : "", s ? n : 0);
}

void vs_fuzz_op_print(vs_fuzz_buf *b, const velstatus_oplist *list, size_t i)
{
    const velstatus_op *op = velstatus_oplist_at(list, i);
    int64_t v[5];
    int has[3];
    size_t f, k, n;
    const char *s;
    for (f = VELSTATUS_OP_FIELD_NAME; f <= VELSTATUS_OP_FIELD_DESCRIPTION; f++) {
        s = velstatus_op_string(op, (velstatus_op_field)f, &n);
        add_str(b, s, n);
    }
    for (k = 0; k < velstatus_op_post_item_count(op); k++)
        for (f = VELSTATUS_OP_FIELD_RESOURCE_GROUP; f <= VELSTATUS_OP_FIELD_RESOURCE_NAME; f++) {
            s = velstatus_op_post_item(op, k, (velstatus_op_field)f, &n);
            add_str(b, s, n);
        }
    memset(v, 0, sizeof(v));
    v[0] = velstatus_op_n_completed(op);
    v[1] = velstatus_op_n_total(op);
    has[0] = velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &v[2]);
    has[1] = velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &v[3]);
    has[2] = velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &v[4]);
    vs_fuzz_buf_add(b, v, sizeof(v));
    vs_fuzz_buf_add(b, has, sizeof(has));
    k = (size_t)velstatus_op_post_items_null(op) << 8 | (size_t)velstatus_op_phase_value(op);
    vs_fuzz_buf_add(b, &k, sizeof(k));
}

void vs_fuzz_list_json(vs_fuzz_env *env, vs_fuzz_buf *b, const velstatus_oplist *list)
{
    char *out = NULL;
    size_t len = 0;
    velstatus_status st;
    vs_fuzz_arm(env, 0);
    st = velstatus_oplist_to_json(&out, &len, list, NULL);
    vs_fuzz_arm(env, 1);
    if (st != VELSTATUS_OK)
        vs_fuzz_fail(env, "encoding a snapshot returned %s", velstatus_status_name(st));
    b->len = 0;
    vs_fuzz_buf_add(b, out, len);
    velstatus_free(env->ctx, out);
}

void vs_fuzz_valid_json(vs_fuzz_env *env, const char *p, size_t len, const char *what)
{
    json_error_t jerr;
    json_t *v;
    if (!vs_fuzz_checks(env))
        return;
    /* JSON sets no range on numbers; jansson's integers stop at int64, so every number
     * is read as a double (the YAML converter writes Go's 1e20 as 100000000000000000000) */
    v = json_loadb(p, len, JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &jerr);
    if (!v)
        vs_fuzz_fail(env, "%s wrote invalid JSON (%s at offset %d): %.*s", what, jerr.text, jerr.position,
                     (int)(len > 400 ? 400 : len), p);
    json_decref(v);
}

/* Encodes `list` (which must not change when the encode fails); *out gets the text. */
static int encode(vs_fuzz_env *env, const velstatus_oplist *list, char **out, size_t *len, const char *what)
{
    velstatus_error err;
    velstatus_status st;
    vs_fuzz_buf before = {0}, after = {0};
    if (env->mode != VS_FUZZ_PLAIN)
        vs_fuzz_list_json(env, &before, list);
    *out = vs_fuzz_sentinel;
    st = velstatus_oplist_to_json(out, len, list, &err);
    if (st != VELSTATUS_OK) {
        vs_fuzz_out_untouched(env, *out, vs_fuzz_sentinel, what);
        *out = NULL;
        if (env->mode != VS_FUZZ_PLAIN) {
            vs_fuzz_list_json(env, &after, list);
            if (!vs_fuzz_same(before.p, before.len, after.p, after.len))
                vs_fuzz_fail(env, "%s failed and changed the list", what);
        }
    }
    vs_fuzz_buf_free(&before);
    vs_fuzz_buf_free(&after);
    return vs_fuzz_must(env, st, &err, what);
}

/* Decodes text the library wrote; must succeed. */
static int decode_own(vs_fuzz_env *env, velstatus_kind kind, const char *p, size_t len, velstatus_oplist **out)
{
    velstatus_error err;
    velstatus_status st;
    *out = (velstatus_oplist *)vs_fuzz_sentinel;
    st = velstatus_oplist_from_json(out, env->ctx, kind, p, len, &err);
    if (st != VELSTATUS_OK) {
        vs_fuzz_out_untouched(env, *out, vs_fuzz_sentinel, "decoding the library's own output");
        *out = NULL;
        if (!(env->mode == VS_FUZZ_OOM_FAIL && env->fa.failed > 0))
            vs_fuzz_fail(env, "the library cannot read what it wrote: %s (%s): %.*s", velstatus_status_name(st),
                         err.message, (int)(len > 600 ? 600 : len), p);
    }
    return vs_fuzz_stage(env, st, "decoding the library's own output");
}

/* Whether a record holds a time outside the years 0000-9999 in UTC (an
 * offset reaches year -1 or 10000): written as metav1.Time writes it
 * ("-0001-...", "10000-..."), which Go cannot read back, nor the library. */
static int writes_unreadable_time(const velstatus_oplist *list)
{
    size_t i;
    int w;
    for (i = 0; i < velstatus_oplist_count(list); i++)
        for (w = VELSTATUS_OP_TIME_CREATED; w <= VELSTATUS_OP_TIME_UPDATED; w++) {
            int64_t sec = 0;
            if (velstatus_op_time_sec(velstatus_oplist_at(list, i), (velstatus_op_time)w, &sec, NULL) &&
                (sec < INT64_C(-62167219200) || sec >= INT64_C(253402300800)))
                return 1;
        }
    return 0;
}

void vs_fuzz_roundtrip(vs_fuzz_env *env, const velstatus_oplist *list, int settle)
{
    velstatus_kind kind = velstatus_oplist_kind(list);
    velstatus_oplist *l2 = NULL, *l3 = NULL;
    char *t1 = NULL, *t2 = NULL, *t3 = NULL;
    size_t n1 = 0, n2 = 0, n3 = 0;
    if (!encode(env, list, &t1, &n1, "encoding the list"))
        goto done;
    vs_fuzz_valid_json(env, t1, n1, "velstatus_oplist_to_json");
    if (writes_unreadable_time(list))
        goto done;
    if (!decode_own(env, kind, t1, n1, &l2) || !encode(env, l2, &t2, &n2, "re-encoding the list"))
        goto done;
    if (settle) {
        if (!decode_own(env, kind, t2, n2, &l3) || !encode(env, l3, &t3, &n3, "re-encoding the list again"))
            goto done;
        if (!vs_fuzz_same(t2, n2, t3, n3))
            vs_fuzz_fail(env, "decode + encode is not stable after one round:\n%s\n%s", t2, t3);
    } else if (!vs_fuzz_same(t1, n1, t2, n2)) {
        vs_fuzz_fail(env, "decode + encode does not give back the library's own text:\n%s\n%s", t1, t2);
    }
done:
    velstatus_free(env->ctx, t1);
    velstatus_free(env->ctx, t2);
    velstatus_free(env->ctx, t3);
    velstatus_oplist_free(l2);
    velstatus_oplist_free(l3);
}
