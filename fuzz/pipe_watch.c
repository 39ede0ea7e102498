/* SPDX-License-Identifier: Apache-2.0 */
/* Pipeline: the watch-stream splitter of server-status --watch
 * (tools/watch_stream.c). TEXT is the stream. It is fed whole, and again cut
 * at points the tail chooses (down to one byte at a time); both runs must
 * hand out the same objects and report the same malformed stretches at the
 * same positions, in the same order. Every object handed out must be one
 * JSON value the library's scanner accepts whole, starting with '{'; every
 * reported offset must lie inside the stream; the buffer must never hold
 * more than the object limit plus one feed.
 *
 * Each object handed out is then decoded as the CLI decodes it: as a watch
 * event (velstatus_watch_event_from_json), and the event's object as
 * Backups and Restores (velstatus_backup_list_from_json) with each one's
 * conditions. Where jansson (whose objects keep the last repeated key, with
 * keys unescaped and matched exactly) reads a non-null string `type` or
 * `status.phase`, the library must read the same. The event is also
 * decoded as BSLs in one call (velstatus_bsl_watch_event_foreach, whose
 * object's walk reads the event's scan): it must give what the two
 * decoders give in turn, status, error position and BSLs, and make no call
 * when it fails. */
#include "fuzz.h"

#include <jansson.h>
#include <string.h>

#include "common/json_scan.h"
#include "watch_stream.h"

typedef struct watch_log {
    vs_fuzz_env *env;
    vs_fuzz_buf text;
    size_t stream_len;
} watch_log;

/* jansson's string member `key` of o, or NULL. */
static const char *jstr(json_t *o, const char *key, size_t *n)
{
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (!json_is_string(v))
        return NULL;
    *n = json_string_length(v);
    return json_string_value(v);
}

static int jis(const char *s, size_t n, const char *lit)
{
    return s && n == strlen(lit) && memcmp(s, lit, n) == 0;
}

/* The one Backup or Restore of the object o (jansson's reading) against the list's. */
static void check_backup(vs_fuzz_env *env, const velstatus_backup_list *l, json_t *o)
{
    size_t n = 0, k = 0, got_n = 0;
    const char *kind = jstr(o, "kind", &k), *phase = jstr(json_object_get(o, "status"), "phase", &n), *got;
    velstatus_backup_conditions c;
    if (velstatus_backup_list_count(l) != 1 || !(jis(kind, k, "Backup") || jis(kind, k, "Restore")))
        return;
    VS_FUZZ_CHECK(env, velstatus_backup_list_kind(l, 0) ==
                           (jis(kind, k, "Backup") ? VELSTATUS_KIND_BACKUP : VELSTATUS_KIND_RESTORE));
    got = velstatus_backup_list_phase(l, 0, &got_n);
    if (phase)
        VS_FUZZ_CHECK(env, got && got_n == n && memcmp(got, phase, n) == 0);
    velstatus_backup_conditions_init(&c, sizeof(c));
    VS_FUZZ_CHECK(env, velstatus_backup_conditions_of(&c, velstatus_backup_list_kind(l, 0), got, got_n,
                                                      velstatus_backup_list_deletion_time(l, 0, NULL), NULL,
                                                      NULL) == VELSTATUS_OK);
    VS_FUZZ_CHECK(env, c.reason && (c.ready != VELSTATUS_CONDITION_TRUE || jis(got, got_n, "Completed")));
}

/* The object's span of an event, as Backups and Restores. */
static void decode_backups(vs_fuzz_env *env, const char *obj, size_t len, json_t *jobj)
{
    velstatus_backup_list *l = NULL;
    velstatus_status st = velstatus_backup_list_from_json(&l, env->ctx, obj, len, NULL);
    VS_FUZZ_CHECK(env, st == VELSTATUS_OK || st == VELSTATUS_E_SCHEMA || st == VELSTATUS_E_NOMEM);
    VS_FUZZ_CHECK(env, (st == VELSTATUS_OK) == (l != NULL));
    if (l)
        check_backup(env, l, jobj);
    velstatus_backup_list_free(l);
}

/* The BSLs velstatus_bsl_watch_event_foreach() hands out, added to a set. */
typedef struct bsl_sink {
    velstatus_bsl_set *set;
    size_t calls;
    int nomem;
} bsl_sink;

static int sink_bsl(void *ud, const velstatus_watch_event *ev, const velstatus_bsl_record *bsl)
{
    bsl_sink *k = ud;
    (void)ev;
    k->calls++;
    if (velstatus_bsl_set_add_record(k->set, bsl, NULL) == VELSTATUS_OK)
        return 0;
    k->nomem = 1; /* the allocation the oom run fails */
    return -1;
}

/* Two sets hold the same BSLs, in order (name, namespace and phase). */
static int same_bsls(const velstatus_bsl_set *a, const velstatus_bsl_set *b)
{
    size_t n = velstatus_bsl_set_count(a);
    if (n != velstatus_bsl_set_count(b))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(velstatus_bsl_set_name(a, i), velstatus_bsl_set_name(b, i)) != 0 ||
            strcmp(velstatus_bsl_set_namespace(a, i), velstatus_bsl_set_namespace(b, i)) != 0 ||
            strcmp(velstatus_bsl_set_phase(a, i), velstatus_bsl_set_phase(b, i)) != 0)
            return 0;
    return 1;
}

/* velstatus_bsl_watch_event_foreach() against the event's decoder (st, ev)
 * and then velstatus_bsl_set_from_json() on its object. */
static void check_bsl_event(vs_fuzz_env *env, const char *obj, size_t len, velstatus_status st,
                            const velstatus_watch_event *ev)
{
    velstatus_watch_event *ev2 = NULL;
    velstatus_bsl_set *set2 = NULL;
    bsl_sink k = {NULL, 0, 0};
    velstatus_error err, err2;
    velstatus_status st2 = velstatus_bsl_set_new(&k.set, env->ctx, &err), st3 = st;
    size_t off = 0, olen = ev ? velstatus_watch_event_object(ev, &off) : 0;
    velstatus_watch_type t = ev ? velstatus_watch_event_type(ev) : VELSTATUS_WATCH_INVALID;
    if (st2 == VELSTATUS_OK)
        st2 = velstatus_bsl_watch_event_foreach(&ev2, env->ctx, obj, len, sink_bsl, &k, &err);
    if (k.nomem)
        st2 = VELSTATUS_E_NOMEM;
    if (st == VELSTATUS_OK && t != VELSTATUS_WATCH_ERROR && t != VELSTATUS_WATCH_BOOKMARK)
        st3 = velstatus_bsl_set_from_json(&set2, env->ctx, obj + off, olen, &err2);
    if (st2 != VELSTATUS_E_NOMEM && st3 != VELSTATUS_E_NOMEM) {
        VS_FUZZ_CHECK(env, st2 == st3 && (st2 == VELSTATUS_OK || k.calls == 0));
        if (st2 != VELSTATUS_OK && st3 != st) /* the object's error, at the same byte */
            VS_FUZZ_CHECK(env, err.offset == err2.offset && strcmp(err.message, err2.message) == 0);
        if (st2 == VELSTATUS_OK && set2)
            VS_FUZZ_CHECK(env, same_bsls(k.set, set2));
        else if (st2 == VELSTATUS_OK)
            VS_FUZZ_CHECK(env, k.calls == 0);
    }
    velstatus_bsl_set_free(k.set);
    velstatus_bsl_set_free(set2);
    velstatus_watch_event_free(ev2);
}

/* A handed-out object as a watch event, checked against jansson's reading. */
static void decode_event(vs_fuzz_env *env, const char *obj, size_t len)
{
    static const char *const types[] = {"OBJECT", "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
    velstatus_watch_event *ev = NULL;
    velstatus_status st = velstatus_watch_event_from_json(&ev, env->ctx, obj, len, NULL);
    json_t *root = json_loadb(obj, len, JSON_ALLOW_NUL, NULL);
    size_t n = 0, off = 0, olen;
    const char *type = jstr(root, "type", &n);
    velstatus_watch_type t;
    VS_FUZZ_CHECK(env, st == VELSTATUS_OK || st == VELSTATUS_E_SCHEMA || st == VELSTATUS_E_NOMEM);
    if (st == VELSTATUS_OK) {
        t = velstatus_watch_event_type(ev);
        olen = velstatus_watch_event_object(ev, &off);
        VS_FUZZ_CHECK(env, off < len && olen <= len - off && obj[off] == '{');
        if (type)
            VS_FUZZ_CHECK(env, jis(type, n, types[t]));
        decode_backups(env, obj + off, olen, type ? json_object_get(root, "object") : root);
    }
    if (st != VELSTATUS_E_NOMEM)
        check_bsl_event(env, obj, len, st, ev);
    velstatus_watch_event_free(ev);
    json_decref(root);
}

static int on_object(void *ud, const char *obj, size_t len, vs_watch_pos at)
{
    watch_log *l = ud;
    size_t end = 0;
    velstatus__json_scan_err e;
    VS_FUZZ_CHECK(l->env, len > 0 && obj[0] == '{' && at.offset + len <= l->stream_len);
    VS_FUZZ_CHECK(l->env, velstatus__json_scan(obj, len, &end, &e) && end == len);
    decode_event(l->env, obj, len);
    vs_fuzz_buf_add(&l->text, "O", 1);
    vs_fuzz_buf_add(&l->text, &at, sizeof(at));
    vs_fuzz_buf_add(&l->text, &len, sizeof(len));
    return 0;
}

static int on_error(void *ud, vs_watch_pos at, const char *reason)
{
    watch_log *l = ud;
    VS_FUZZ_CHECK(l->env, at.offset <= l->stream_len && reason && reason[0] != '\0');
    vs_fuzz_buf_add(&l->text, "E", 1);
    vs_fuzz_buf_add(&l->text, &at, sizeof(at));
    vs_fuzz_buf_add(&l->text, reason, strlen(reason));
    return 0;
}

/* Feeds text in pieces of the sizes `piece` gives (0: whole). */
static void feed(vs_fuzz_env *env, vs_fuzz_in *in, watch_log *l, size_t max_object, int cut)
{
    vs_watch_split sp;
    size_t i = 0;
    vs_watch_split_init(&sp, max_object, on_object, on_error, l);
    while (i < in->text_len) {
        size_t n = cut ? 1 + vs_fuzz_pick(in, 64) : in->text_len - i;
        if (n > in->text_len - i)
            n = in->text_len - i;
        VS_FUZZ_CHECK(env, vs_watch_split_feed(&sp, in->text + i, n) == 0);
        VS_FUZZ_CHECK(env, sp.len <= max_object + n + 1);
        i += n;
    }
    VS_FUZZ_CHECK(env, vs_watch_split_end(&sp) == 0);
    VS_FUZZ_CHECK(env, sp.len == 0);
    vs_watch_split_free(&sp);
}

void vs_pipe_watch(vs_fuzz_env *env, vs_fuzz_in *in)
{
    watch_log whole = {env, {0}, in->text_len}, cut = {env, {0}, in->text_len};
    size_t max_object = 64 + vs_fuzz_pick(in, 4096);
    feed(env, in, &whole, max_object, 0);
    feed(env, in, &cut, max_object, 1);
    /* The object limit is checked per feed: a whole feed may let a larger
     * object through that pieces stop, so compare only when no object came
     * near the limit. */
    if (in->text_len <= max_object && !vs_fuzz_same(whole.text.p, whole.text.len, cut.text.p, cut.text.len))
        vs_fuzz_fail(env, "the pieces give other objects or errors than the whole stream");
    vs_fuzz_buf_free(&whole.text);
    vs_fuzz_buf_free(&cut.text);
}
