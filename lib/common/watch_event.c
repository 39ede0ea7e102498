/* SPDX-License-Identifier: Apache-2.0 */
/* Watch events (watch.h): the type and object of one event of a
 * `kubectl get --watch -o json` stream, an ERROR's Status, and the public
 * face of the scanner that cuts such a stream into values. */
#include "common/kube_json.h"
#include "velstatus/watch.h"
#include "common/util_pool.h"

#include <string.h>

static const char *const type_names[] = {"OBJECT", "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
VS_ENUM_TOKENS(watch_type, velstatus_watch_type, type_names, "watch event type")

struct velstatus_watch_event {
    velstatus_ctx *ctx;
    velstatus_watch_type type;
    size_t obj_off, obj_len;
    char *reason, *message; /* one allocation each, or NULL */
    size_t reason_len, message_len;
    int has_code;
    int64_t code;
};

velstatus_status velstatus_json_value_end(size_t *end, int *incomplete, const char *json, size_t len,
                                          velstatus_error *err)
{
    velstatus__json_scan_err e;
    len = velstatus__text_len(json, len);
    if (incomplete)
        *incomplete = 0;
    if (!end || (!json && len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "end or json is NULL");
    if (velstatus__json_scan(json, len, end, &e))
        return VELSTATUS_OK;
    if (incomplete)
        *incomplete = e.more;
    return velstatus__json_scan_error(err, &e, json ? json : "", 0, NULL);
}

/* The last non-null value of each of names[0..n) among the members of obj. */
static velstatus_status members(velstatus__kdec *d, velstatus__kspan obj, const char *const *names, size_t n,
                                velstatus__kspan *out)
{
    velstatus__json_iter it;
    size_t ks, ke, vs, ve;
    for (size_t i = 0; i < n; i++)
        out[i] = velstatus__kabsent;
    velstatus__json_iter_init_tape(&it, d->text, obj.vs, obj.ve, d->tape);
    while (velstatus__json_next_member(&it, &ks, &ke, &vs, &ve)) {
        int k;
        VS_TRY(velstatus__kdec_key(d, ks, ke, names, n, &k));
        if (k >= 0 && d->text[vs] != 'n') {
            out[k].vs = vs;
            out[k].ve = ve;
        }
    }
    return VELSTATUS_OK;
}

/* A copy of a Status string field in the event's own memory. */
static velstatus_status status_text(velstatus__kdec *d, velstatus_watch_event *ev, velstatus__kspan v,
                                    const char *parent, const char *key, char **out, size_t *len)
{
    const char *s;
    VS_TRY(velstatus__kdec_string(d, v, parent, key, VS_KBUF_MESSAGE, &s, len));
    if (!s)
        return VELSTATUS_OK;
    *out = velstatus__strndup(ev->ctx, s, *len);
    return *out ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* An ERROR's Status: reason, message, code. Its fields are named under
 * "object" when an event holds it, bare when it is the whole value. */
static velstatus_status decode_status(velstatus__kdec *d, velstatus_watch_event *ev, velstatus__kspan obj, int bare)
{
    static const char *const keys[3] = {"reason", "message", "code"};
    velstatus__kspan f[3];
    const char *parent = bare ? NULL : "object";
    VS_TRY(members(d, obj, keys, 3, f));
    VS_TRY(status_text(d, ev, f[0], parent, "reason", &ev->reason, &ev->reason_len));
    VS_TRY(status_text(d, ev, f[1], parent, "message", &ev->message, &ev->message_len));
    return velstatus__kdec_int(d, f[2], parent, "code", &ev->has_code, &ev->code);
}

/* The event's type (or a bare object's) and its object's span. */
velstatus_status velstatus__kdec_watch_event(velstatus__kdec *d, velstatus__kspan root, velstatus_watch_type *type,
                                             velstatus__kspan *object)
{
    static const char *const keys[3] = {"type", "object", "kind"};
    velstatus__kspan f[3], obj = root;
    const char *s;
    size_t n;
    int t;
    if (d->text[root.vs] != '{')
        return velstatus__kdec_error(d, root.vs, "expected a watch event or an object, got %s",
                                     velstatus__kdec_type_name(d->text[root.vs]));
    VS_TRY(members(d, root, keys, 3, f));
    if (f[0].vs == SIZE_MAX) {
        VS_TRY(velstatus__kdec_string(d, f[2], NULL, "kind", VS_KBUF_TOKEN, &s, &n));
        *type = velstatus__kdec_is(s, n, "Status") ? VELSTATUS_WATCH_ERROR : VELSTATUS_WATCH_OBJECT;
    } else {
        int depth = d->path.n;
        VS_TRY(velstatus__kdec_string(d, f[0], NULL, "type", VS_KBUF_TOKEN, &s, &n));
        t = velstatus__token_find(type_names + 1, VS_N(type_names) - 1, s, n);
        velstatus__kdec_push_key(d, "type");
        if (t < 0)
            return velstatus__kdec_error(d, f[0].vs,
                                         "expected \"ADDED\", \"MODIFIED\", \"DELETED\", \"BOOKMARK\" or \"ERROR\", "
                                         "got \"%.*s\"",
                                         (int)(n > 64 ? 64 : n), s);
        d->path.n = depth;
        *type = (velstatus_watch_type)(t + 1);
        obj = f[1];
        velstatus__kdec_push_key(d, "object");
        if (obj.vs == SIZE_MAX)
            return velstatus__kdec_error(d, root.vs, "missing (an event holds its object)");
        if (d->text[obj.vs] != '{')
            return velstatus__kdec_error(d, obj.vs, "expected an object, got %s",
                                         velstatus__kdec_type_name(d->text[obj.vs]));
        d->path.n = depth;
    }
    *object = obj;
    return VELSTATUS_OK;
}

static velstatus_status decode_event(velstatus__kdec *d, velstatus_watch_event *ev, velstatus__kspan root)
{
    velstatus__kspan obj;
    VS_TRY(velstatus__kdec_watch_event(d, root, &ev->type, &obj));
    ev->obj_off = obj.vs;
    ev->obj_len = obj.ve - obj.vs;
    return ev->type == VELSTATUS_WATCH_ERROR ? decode_status(d, ev, obj, obj.vs == root.vs) : VELSTATUS_OK;
}

velstatus_status velstatus__watch_event_decode(velstatus_watch_event **out, velstatus_ctx *ctx, const char *json,
                                               size_t len, velstatus__json_tape *tape, velstatus_error *err)
{
    velstatus_watch_event *ev;
    velstatus__kdec d;
    velstatus__kspan root = velstatus__kabsent;
    velstatus_status st;
    VS_TRY(velstatus__kdec_args(out, ctx, &json, &len, err));
    *out = NULL;
    VS_TRY(velstatus__kdec_scan_tape(json, len, &root, tape, err));
    ev = velstatus__calloc(ctx, 1, sizeof(*ev));
    if (!ev)
        return velstatus__error_nomem(err);
    ev->ctx = ctx;
    velstatus__kdec_init(&d, ctx, json, len, err);
    d.tape = tape;
    st = decode_event(&d, ev, root);
    velstatus__kdec_release(&d);
    if (st != VELSTATUS_OK) {
        velstatus_watch_event_free(ev);
        return st;
    }
    *out = ev;
    return VELSTATUS_OK;
}

velstatus_status velstatus_watch_event_from_json(velstatus_watch_event **out, velstatus_ctx *ctx, const char *json,
                                                 size_t len, velstatus_error *err)
{
    return velstatus__watch_event_decode(out, ctx, json, len, NULL, err);
}

void velstatus_watch_event_free(velstatus_watch_event *event)
{
    if (!event)
        return;
    velstatus__free(event->ctx, event->reason);
    velstatus__free(event->ctx, event->message);
    velstatus__free(event->ctx, event);
}

VS_GETTER(velstatus_watch_event, velstatus_watch_event_type, velstatus_watch_type, type, VELSTATUS_WATCH_INVALID)

size_t velstatus_watch_event_object(const velstatus_watch_event *event, size_t *offset)
{
    if (offset)
        *offset = event ? event->obj_off : 0;
    return event ? event->obj_len : 0;
}

const char *velstatus_watch_event_reason(const velstatus_watch_event *event, size_t *len)
{
    return velstatus__text_out(event ? event->reason : NULL, event ? event->reason_len : 0, len);
}

const char *velstatus_watch_event_message(const velstatus_watch_event *event, size_t *len)
{
    return velstatus__text_out(event ? event->message : NULL, event ? event->message_len : 0, len);
}

int velstatus_watch_event_code(const velstatus_watch_event *event, int64_t *code)
{
    return velstatus__i64_out(code, event && event->has_code, event ? event->code : 0);
}
