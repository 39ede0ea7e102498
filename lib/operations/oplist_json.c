/* SPDX-License-Identifier: Apache-2.0 */
/* The itemoperations codec (json.h; Velero's pkg/itemoperation types;
 * doc/velero-behaviour.md §2.1, doc/design.md §9).
 *
 * Decoding never builds a DOM: the top-level array is walked here, and the
 * scanner (json_scan.h) validates each record and finds its end, and
 * every position comes from it. The record's members are then walked in
 * the order of the text, duplicates included, keys matched as Go's
 * encoding/json matches them; the scanner's decoders read the leaf values
 * (the library links no JSON parser: doc/json-decoding.md says why), and the record becomes a compact velstatus_op with
 * its strings in the list's pool.
 *
 * Unknown keys are kept with their value compacted (whitespace dropped) and
 * written back as Go writes a json.RawMessage: the HTML escaping is applied
 * when writing, so a kept value costs its own size.
 *
 * Encoding writes Go's encoding/json bytes straight into a velstatus__buf. */
#include <stdio.h>
#include <string.h>

#include "common/json_scan.h"
#include "operations/private.h"
#include "operations/decoder_private.h"
#include "common/util_array.h"

/* ------------------------------------------------------------------------ */
/* Raw values                                                                 */
/* ------------------------------------------------------------------------ */

/* Copies accepted JSON text p[0..n) into out without the whitespace
 * outside its strings (Go's json.Compact, minus the HTML escaping, which
 * put_raw() adds when the value is written: stored unexpanded, a value
 * costs at most its own size). Returns the length written. */
static size_t raw_compact(char *out, const char *p, size_t n)
{
    size_t i = 0, o = 0;
    while (i < n) {
        char c = p[i];
        if (c == '"') {
            size_t end;
            velstatus__json_scan_err e;
            if (!velstatus__json_scan(p + i, n - i, &end, &e))
                end = n - i; /* unreachable: the text was accepted */
            memcpy(out + o, p + i, end);
            o += end;
            i += end;
        } else {
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                out[o++] = c;
            i++;
        }
    }
    return o;
}

/* Writes a stored raw value as Go's json.Encoder writes a RawMessage: <, >,
 * & and U+2028/U+2029 escaped (in valid JSON they occur only in strings). */
static void put_raw(velstatus__buf *b, const char *p, size_t n)
{
    size_t i, start = 0;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '<' || c == '>' || c == '&') {
            char esc[6] = {'\\', 'u', '0', '0', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 0xF]};
            velstatus__buf_append(b, p + start, i - start);
            velstatus__buf_append(b, esc, 6);
            start = i + 1;
        } else if (c == 0xE2 && n - i > 2 && (unsigned char)p[i + 1] == 0x80 &&
                   ((unsigned char)p[i + 2] & 0xFE) == 0xA8) {
            velstatus__buf_append(b, p + start, i - start);
            velstatus__buf_puts(b, (unsigned char)p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
            i += 2;
            start = i + 1;
        }
    }
    velstatus__buf_append(b, p + start, n - start);
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                   */
/* ------------------------------------------------------------------------ */

static const char *const backup_keys[3] = {"backupName", "backupUID", "backupItemAction"};
static const char *const restore_keys[3] = {"restoreName", "restoreUID", "restoreItemAction"};
static const char *const rid_keys[4] = {"Group", "Resource", "Namespace", "Name"};
static const char *const time_keys[3] = {"created", "started", "updated"};
static const char *const record_keys[2] = {"spec", "status"};
/* spec: the kind's three names, then these (postOperationItems: backups only) */
static const char *const backup_spec_keys[6] = {"backupName",         "backupUID",   "backupItemAction",
                                                "resourceIdentifier", "operationID", "postOperationItems"};
static const char *const restore_spec_keys[5] = {"restoreName", "restoreUID", "restoreItemAction", "resourceIdentifier",
                                                 "operationID"};
enum { K_RID = 3, K_OPID = 4, K_POST = 5 };
static const char *const status_keys[10] = {
    "phase",       "error",   "nCompleted", "nTotal",  "operationUnits",
    "description", "created", "started",    "updated", "velstatusProgressErrorSince"};
enum { K_PHASE, K_ERROR, K_NCOMPLETED, K_NTOTAL, K_UNITS, K_DESCRIPTION, K_CREATED, K_ERR_SINCE = 9 };

/* Field paths for messages, built only when a message is written. */
static const char *const backup_paths[3] = {".spec.backupName", ".spec.backupUID", ".spec.backupItemAction"};
static const char *const restore_paths[3] = {".spec.restoreName", ".spec.restoreUID", ".spec.restoreItemAction"};
static const char *const rid_subpaths[4] = {".Group", ".Resource", ".Namespace", ".Name"};
static const char *const status_paths[10] = {".status.phase",          ".status.error",
                                             ".status.nCompleted",     ".status.nTotal",
                                             ".status.operationUnits", ".status.description",
                                             ".status.created",        ".status.started",
                                             ".status.updated",        ".status.velstatusProgressErrorSince"};

typedef vs__dec dec;

/* A field's path within its record: a, then "[k]" unless k is VS__NOIDX,
 * then b. Rendered only by fail(). */
typedef struct vs__path {
    const char *a;
    size_t k;
    const char *b;
} vs__path;

#define VS__NOIDX SIZE_MAX

/* The path of a member of .spec or .status: `a` set per member, no index. */
#define VS__MEMBER_PATH     \
    {                       \
        NULL, VS__NOIDX, "" \
    }

static velstatus_status fail_at(dec *d, velstatus_status code, size_t off, const vs__path *path, const char *what)
{
    uint32_t line, col;
    char ks[32] = "";
    if (path->k != VS__NOIDX)
        snprintf(ks, sizeof(ks), "[%zu]", path->k);
    velstatus__dec_pos(d, off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, d->base + off, "[%zu]%s%s%s: %s", d->idx, path->a, ks,
                                    path->b, what);
}

/* The same for a path without an index; off is the offending value's. */
static velstatus_status fail(dec *d, velstatus_status code, size_t off, const char *path, const char *what)
{
    vs__path pp;
    pp.a = path;
    pp.k = VS__NOIDX;
    pp.b = "";
    return fail_at(d, code, off, &pp, what);
}

/* The text of the accepted string [vs, ve): its own bytes when it has no
 * escape, else decoded into buf (valid until buf's next use). */
static velstatus_status string_text(dec *d, velstatus__buf *buf, size_t vs, size_t ve, const char **s, size_t *n)
{
    return velstatus__json_string_text(buf, d->p, vs, ve, s, n) ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* The longest key text that can name a field: 27 characters, each at most
 * a 6-byte escape. Longer keys are unknown without being decoded. */
#define VS__KEY_MATCH_MAX (2 + 6 * 27)

/* A member's key (valid until the next call); "" for one too long to match. */
static velstatus_status member_key(dec *d, size_t ks, size_t ke, const char **key, size_t *klen)
{
    if (ke - ks > VS__KEY_MATCH_MAX) {
        *key = "";
        *klen = 0;
        return VELSTATUS_OK;
    }
    return string_text(d, &d->kbuf, ks, ke, key, klen);
}

/* The accepted string [vs, ve) decoded straight into the list's pool. */
static velstatus_status pool_string(dec *d, size_t vs, size_t ve, const char **out, size_t *n)
{
    const char *in = d->p + vs + 1;
    size_t len = ve - vs - 2;
    char *p;
    if (!memchr(in, '\\', len)) {
        *n = len;
        *out = velstatus__pool_str(&d->l->pool, in, len);
        return *out ? VELSTATUS_OK : velstatus__error_nomem(d->err);
    }
    p = velstatus__pool_alloc(&d->l->pool, len + 1);
    if (!p)
        return velstatus__error_nomem(d->err);
    *n = velstatus__json_unescape(p, in, len);
    p[*n] = '\0';
    *out = p;
    return VELSTATUS_OK;
}

/* A string field; `shared` for the texts that repeat from record to record
 * (the list's shared copy when it has one, operations_private.h). */
static velstatus_status set_json_str(dec *d, vs__str *dst, size_t vs, size_t ve, const vs__path *path, int shared)
{
    const char *s;
    size_t n;
    velstatus_status st;
    if (d->p[vs] == 'n')
        return VELSTATUS_OK; /* Go: null leaves the value as it was */
    if (d->p[vs] != '"')
        return fail_at(d, VELSTATUS_E_SCHEMA, vs, path, "must be a string");
    if (ve - vs - 2 > UINT32_MAX && !memchr(d->p + vs + 1, '\\', ve - vs - 2))
        return fail_at(d, VELSTATUS_E_RANGE, vs, path, "string longer than 4 GiB");
    if (shared && ve - vs - 2 <= 6 * VS__SHARED_LEN) { /* short enough, escapes and all */
        const char *t;
        st = string_text(d, &d->vbuf, vs, ve, &t, &n);
        if (st == VELSTATUS_OK)
            st = velstatus__oplist_shared(d->l, t, n, &s, d->err);
        if (st != VELSTATUS_OK)
            return st;
        if (s) {
            dst->p = s;
            dst->len = (uint32_t)n;
            return VELSTATUS_OK;
        }
    }
    st = pool_string(d, vs, ve, &s, &n);
    if (st != VELSTATUS_OK)
        return st;
    if (n > UINT32_MAX)
        return fail_at(d, VELSTATUS_E_RANGE, vs, path, "string longer than 4 GiB");
    dst->p = s;
    dst->len = (uint32_t)n;
    return VELSTATUS_OK;
}

static velstatus_status set_json_int(dec *d, int64_t *dst, size_t vs, size_t ve, const vs__path *path)
{
    char c = d->p[vs];
    size_t i;
    if (c == 'n')
        return VELSTATUS_OK;
    if (c != '-' && (c < '0' || c > '9'))
        return fail_at(d, VELSTATUS_E_SCHEMA, vs, path, "must be an integer");
    for (i = vs; i < ve; i++)
        if (d->p[i] == '.' || d->p[i] == 'e' || d->p[i] == 'E')
            return fail_at(d, VELSTATUS_E_SCHEMA, vs, path, "must be an integer, not a fraction or exponent");
    *dst = velstatus__json_int(d->p + vs, ve - vs); /* the scanner checked it fits */
    return VELSTATUS_OK;
}

/* The string of a *metav1.Time member, read as metav1.Time.UnmarshalJSON
 * does (time.Parse(time.RFC3339)): exactly with `wide`, else into int64
 * nanoseconds at t[bit]. */
static velstatus_status read_json_time(dec *d, int64_t *t, const uint8_t *wide, int bit, size_t vs, size_t ve,
                                       const vs__path *path, int64_t *sec, int32_t *nsec)
{
    velstatus_error terr;
    velstatus_status st;
    const char *s;
    size_t n;
    char msg[VELSTATUS_ERROR_MESSAGE_SIZE + 32];
    st = string_text(d, &d->vbuf, vs, ve, &s, &n);
    if (st != VELSTATUS_OK)
        return st;
    if (wide)
        st = velstatus_time_parse_sec(sec, nsec, s, n, &terr);
    else
        st = velstatus_time_parse(&t[bit], s, n, &terr);
    if (st != VELSTATUS_OK) {
        snprintf(msg, sizeof(msg), "not a valid time: %s", terr.message);
        return fail_at(d, st == VELSTATUS_E_RANGE ? VELSTATUS_E_RANGE : VELSTATUS_E_SCHEMA,
                       velstatus__json_string_byte(d->p, vs, ve, terr.offset), path, msg);
    }
    return VELSTATUS_OK;
}

/* A *metav1.Time member: null or a time string. With `wide` (a record's
 * created, started, updated) every time Velero reads is kept, as t[bit] and
 * bit `bit` of *wide (vs__time_set_exact); without it (the library's own
 * error-since time) it must fit int64 nanoseconds. */
static velstatus_status set_json_time(dec *d, uint8_t *state, int64_t *t, uint8_t *wide, int bit, size_t vs, size_t ve,
                                      const vs__path *path)
{
    velstatus_status st;
    int64_t sec;
    int32_t nsec;
    if (d->p[vs] == 'n') {
        *state = VS__T_NULL;
        sec = 0;
        nsec = 0;
    } else if (d->p[vs] != '"') {
        return fail_at(d, VELSTATUS_E_SCHEMA, vs, path, "must be an RFC 3339 time string or null");
    } else {
        st = read_json_time(d, t, wide, bit, vs, ve, path, &sec, &nsec);
        if (st != VELSTATUS_OK)
            return st;
        *state = VS__T_LOCAL;
    }
    /* duplicates included: the last one wins, as in Go */
    if (wide)
        vs__time_set_exact(t, wide, bit, sec, nsec);
    else if (*state == VS__T_NULL)
        t[bit] = 0;
    return VELSTATUS_OK;
}

/* Keeps an unknown member [ks, ke): [vs, ve): its decoded key, and its
 * value compacted, both straight into the pool. */
static velstatus_status add_unknown(dec *d, uint32_t level, uint32_t item, size_t ks, size_t ke, size_t vs, size_t ve)
{
    vs__unknown *u = velstatus__array_reserve(d->l->ctx, d->unk, &d->capunk, d->nunk + 1, sizeof(*u), 8);
    const char *kp;
    char *vp;
    size_t klen, vlen;
    velstatus_status st;
    if (!u)
        return velstatus__error_nomem(d->err);
    d->unk = u;
    st = pool_string(d, ks, ke, &kp, &klen);
    if (st != VELSTATUS_OK)
        return st;
    vp = velstatus__pool_alloc(&d->l->pool, ve - vs + 1);
    if (!vp)
        return velstatus__error_nomem(d->err);
    vlen = raw_compact(vp, d->p + vs, ve - vs);
    vp[vlen] = '\0';
    if (klen > UINT32_MAX || vlen > UINT32_MAX)
        return fail(d, VELSTATUS_E_RANGE, ks, "", "unknown field larger than 4 GiB");
    u = &d->unk[d->nunk++];
    u->level = level;
    u->item = item;
    u->key.p = kp;
    u->key.len = (uint32_t)klen;
    u->value.p = vp;
    u->value.len = (uint32_t)vlen;
    return VELSTATUS_OK;
}

/* The members of the accepted object [rs, re), in the order of the text
 * (duplicates included: Go assigns them in order, so the last one wins and
 * a repeated object merges into the earlier one). `key`/`klen` is the
 * decoded key, [vs, ve) the value; `st` ends the loop when not OK. */
#define FOREACH_MEMBER(rs, re, key, klen, vs, ve, it, ks, ke, st)                                  \
    for (velstatus__json_iter_init_tape(&(it), d->p, (rs), (re), &d->tape);                        \
         (st) == VELSTATUS_OK && velstatus__json_next_member(&(it), &(ks), &(ke), &(vs), &(ve)) && \
         ((st) = member_key(d, (ks), (ke), &(key), &(klen))) == VELSTATUS_OK;)

/* A ResourceIdentifier object (or null) into f[4]; unknown keys at `level`. */
static velstatus_status decode_rid(dec *d, vs__str f[4], size_t rs, size_t re, uint32_t level, uint32_t item,
                                   const char *path, size_t pathk)
{
    velstatus__json_iter it;
    const char *key;
    size_t klen, ks, ke, vs, ve, hint = 0;
    velstatus_status st = VELSTATUS_OK;
    vs__path sub;
    sub.a = path;
    sub.k = pathk;
    sub.b = "";
    if (d->p[rs] == 'n')
        return VELSTATUS_OK;
    if (d->p[rs] != '{')
        return fail_at(d, VELSTATUS_E_SCHEMA, rs, &sub, "must be an object");
    FOREACH_MEMBER(rs, re, key, klen, vs, ve, it, ks, ke, st)
    {
        int i = velstatus__json_key_find(key, klen, rid_keys, 4, &hint);
        if (i >= 0) {
            sub.b = rid_subpaths[i];
            st = set_json_str(d, &f[i], vs, ve, &sub, i < 3);
        } else {
            st = add_unknown(d, level, item, ks, ke, vs, ve);
        }
    }
    return st;
}

/* A []ResourceIdentifier. A repeated key decodes into the earlier items, as
 * Go's decoder does (an item k both arrays have merges; the length is the
 * later array's); null resets it to nil. */
static velstatus_status decode_post(dec *d, velstatus_op *op, size_t rs, size_t re)
{
    velstatus__json_iter it;
    size_t n = 0, k, vs, ve;
    vs__rid *post;
    if (d->p[rs] == 'n') {
        op->c->npost = 0;
        op->c->post_null = 1;
        return VELSTATUS_OK;
    }
    if (d->p[rs] != '[')
        return fail(d, VELSTATUS_E_SCHEMA, rs, ".spec.postOperationItems", "must be an array or null");
    for (velstatus__json_iter_init_tape(&it, d->p, rs, re, &d->tape); velstatus__json_next_element(&it, &vs, &ve);)
        n++;
    if (n > UINT32_MAX - 1)
        return fail(d, VELSTATUS_E_RANGE, rs, ".spec.postOperationItems", "too many items");
    op->c->post_null = 0;
    post = n > 0 ? velstatus__pool_alloc(&d->l->pool, n * sizeof(*post)) : NULL;
    if (n > 0 && !post)
        return velstatus__error_nomem(d->err);
    for (k = 0; k < n; k++) {
        int i;
        for (i = 0; i < 4; i++) {
            post[k].f[i].p = k < op->c->npost ? op->c->post[k].f[i].p : velstatus__empty;
            post[k].f[i].len = k < op->c->npost ? op->c->post[k].f[i].len : 0;
        }
    }
    op->c->post = post;
    op->c->npost = (uint32_t)n;
    k = 0;
    for (velstatus__json_iter_init_tape(&it, d->p, rs, re, &d->tape); velstatus__json_next_element(&it, &vs, &ve);
         k++) {
        velstatus_status st =
            decode_rid(d, op->c->post[k].f, vs, ve, VS__U_POST, (uint32_t)k, ".spec.postOperationItems", k);
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

/* A value that should be an object and is not: null is nothing to decode
 * (Go leaves the struct as it was), anything else a schema error at `what`. */
static velstatus_status object_or_null(dec *d, size_t rs, const char *what)
{
    return d->p[rs] == 'n' ? VELSTATUS_OK : fail(d, VELSTATUS_E_SCHEMA, rs, what, "must be an object");
}

/* A decoder that takes the kind from the text (velstatus_oplist_decoder_new_detect)
 * settles it at the first spec key only one kind has: one of the kind's
 * three names, or postOperationItems (backups). Every key before that one
 * decodes the same for both kinds, so nothing decoded so far changes. */
static void settle_kind(dec *d, const char *key, size_t klen)
{
    int b = velstatus__json_key_find(key, klen, backup_spec_keys, 6, NULL);
    if ((b >= 0 && b < K_RID) || b == K_POST)
        d->l->kind = VELSTATUS_KIND_BACKUP;
    else if (velstatus__json_key_find(key, klen, restore_spec_keys, 3, NULL) >= 0)
        d->l->kind = VELSTATUS_KIND_RESTORE;
    else
        return;
    d->detect = 0;
}

static velstatus_status decode_spec(dec *d, velstatus_op *op, size_t rs, size_t re)
{
    velstatus__json_iter it;
    const char *key;
    size_t klen, ks, ke, vs, ve, hint = 0;
    velstatus_status st = VELSTATUS_OK;
    vs__path path = VS__MEMBER_PATH;
    if (d->p[rs] != '{')
        return object_or_null(d, rs, ".spec");
    FOREACH_MEMBER(rs, re, key, klen, vs, ve, it, ks, ke, st)
    {
        int restore, i;
        if (d->detect)
            settle_kind(d, key, klen);
        restore = d->l->kind == VELSTATUS_KIND_RESTORE;
        i = velstatus__json_key_find(key, klen, restore ? restore_spec_keys : backup_spec_keys, restore ? 5 : 6, &hint);
        if (i >= 0 && i < 3) {
            path.a = (restore ? restore_paths : backup_paths)[i];
            st = set_json_str(d, &op->c->s[i], vs, ve, &path, 1);
        } else if (i == K_RID) {
            st = decode_rid(d, &op->c->s[VELSTATUS_OP_FIELD_RESOURCE_GROUP], vs, ve, VS__U_RID, 0,
                            ".spec.resourceIdentifier", VS__NOIDX);
        } else if (i == K_OPID) {
            path.a = ".spec.operationID";
            st = set_json_str(d, &op->c->s[VELSTATUS_OP_FIELD_OPERATION_ID], vs, ve, &path, 0);
        } else if (i == K_POST) {
            st = decode_post(d, op, vs, ve);
        } else {
            st = add_unknown(d, VS__U_SPEC, 0, ks, ke, vs, ve);
        }
    }
    return st;
}

/* status.phase: a known phase by value, any other string kept as text. */
static velstatus_status decode_phase(dec *d, velstatus_op *op, size_t vs, size_t ve, const vs__path *path)
{
    velstatus_status st;
    if (d->p[vs] == '"') {
        const char *s;
        size_t n;
        velstatus_op_phase ph;
        st = string_text(d, &d->vbuf, vs, ve, &s, &n);
        if (st != VELSTATUS_OK)
            return st;
        ph = velstatus__op_phase_of(s, n);
        if (ph != VELSTATUS_OP_PHASE_UNKNOWN) {
            velstatus__op_set_phase(op, ph);
            return VELSTATUS_OK;
        }
    }
    st = set_json_str(d, &op->c->s[VELSTATUS_OP_FIELD_PHASE], vs, ve, path, 1);
    if (d->p[vs] != 'n')
        op->h.phase = VELSTATUS_OP_PHASE_UNKNOWN;
    return st;
}

/* Status fields by key index: the string ones, in status_keys order. */
static const int status_str_field[6] = {-1, VELSTATUS_OP_FIELD_ERROR,           -1,
                                        -1, VELSTATUS_OP_FIELD_OPERATION_UNITS, VELSTATUS_OP_FIELD_DESCRIPTION};

static velstatus_status decode_status(dec *d, velstatus_op *op, size_t rs, size_t re)
{
    velstatus__json_iter it;
    const char *key;
    size_t klen, ks, ke, vs, ve, hint = 0;
    velstatus_status st = VELSTATUS_OK;
    vs__path path = VS__MEMBER_PATH;
    if (d->p[rs] != '{')
        return object_or_null(d, rs, ".status");
    FOREACH_MEMBER(rs, re, key, klen, vs, ve, it, ks, ke, st)
    {
        int i = velstatus__json_key_find(key, klen, status_keys, 10, &hint);
        if (i >= 0)
            path.a = status_paths[i];
        if (i == K_PHASE) {
            st = decode_phase(d, op, vs, ve, &path);
        } else if (i == K_NCOMPLETED || i == K_NTOTAL) {
            st = set_json_int(d, i == K_NCOMPLETED ? &op->h.n_completed : &op->h.n_total, vs, ve, &path);
        } else if (i >= K_ERROR && i <= K_DESCRIPTION) {
            st = set_json_str(d, vs__op_str(op, status_str_field[i]), vs, ve, &path,
                              status_str_field[i] != VELSTATUS_OP_FIELD_ERROR);
        } else if (i >= K_CREATED && i < K_ERR_SINCE) {
            st = set_json_time(d, &op->h.tstate[i - K_CREATED], op->h.t, &op->h.twide, i - K_CREATED, vs, ve, &path);
        } else if (i == K_ERR_SINCE) {
            uint8_t state = VS__T_ABSENT;
            st = set_json_time(d, &state, &op->h.err_since, NULL, 0, vs, ve, &path);
            op->h.has_err_since = state == VS__T_LOCAL;
        } else {
            st = add_unknown(d, VS__U_STATUS, 0, ks, ke, vs, ve);
        }
    }
    return st;
}

velstatus_status velstatus__dec_record(vs__dec *d, size_t rs, size_t re)
{
    velstatus__json_iter it;
    const char *key;
    size_t klen, ks, ke, vs, ve, hint = 0;
    velstatus_op *op;
    velstatus_status st = VELSTATUS_OK;
    if (d->p[rs] != '{')
        return fail(d, VELSTATUS_E_SCHEMA, rs, "",
                    d->p[rs] == 'n' ? "a record must be an object, not null" : "a record must be an object");
    op = velstatus__oplist_push(d->l);
    if (!op)
        return velstatus__error_nomem(d->err);
    velstatus__op_set_phase(op, VELSTATUS_OP_PHASE_UNKNOWN); /* absent phase is "" */
    d->nunk = 0;
    FOREACH_MEMBER(rs, re, key, klen, vs, ve, it, ks, ke, st)
    {
        int i = velstatus__json_key_find(key, klen, record_keys, 2, &hint);
        if (i == 0)
            st = decode_spec(d, op, vs, ve);
        else if (i == 1)
            st = decode_status(d, op, vs, ve);
        else
            st = add_unknown(d, VS__U_RECORD, 0, ks, ke, vs, ve);
    }
    if (st != VELSTATUS_OK)
        return st;
    if (d->nunk > 0) {
        if (d->nunk > UINT32_MAX)
            return fail(d, VELSTATUS_E_RANGE, d->rec_off, "", "too many unknown fields");
        op->c->unk = velstatus__pool_alloc(&d->l->pool, d->nunk * sizeof(*op->c->unk));
        if (!op->c->unk)
            return velstatus__error_nomem(d->err);
        memcpy(op->c->unk, d->unk, d->nunk * sizeof(*op->c->unk));
        op->c->nunk = (uint32_t)d->nunk;
    }
    return VELSTATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                   */
/* ------------------------------------------------------------------------ */

static void put_str(velstatus__buf *b, const vs__str *s)
{
    velstatus__json_write_string(b, s->p, s->len, 1);
}

/* The last time text written in each of a record's time slots (created,
 * started, updated, the error-since time), by its minute: the records of
 * one list mostly have their neighbours' times to the minute, and
 * formatting a time is most of the cost of writing it. */
typedef struct vs__time_cache {
    int64_t minute[4]; /* floor(sec / 60) of the text */
    uint8_t len[4];    /* 0: empty */
    char text[4][VELSTATUS_TIME_BUFSIZE + 2];
} vs__time_cache;

/* A time as metav1.Time.MarshalJSON writes a non-zero one: whole seconds,
 * UTC, in quotes ("...T15:04:05Z"); slot k of the cache. In the minute of
 * the cached text only the seconds' two digits change. */
static void put_time(velstatus__buf *b, vs__time_cache *tc, int k, int64_t sec)
{
    int64_t s60 = sec % 60, minute = sec / 60 - (s60 < 0);
    char *t = tc->text[k];
    s60 += s60 < 0 ? 60 : 0;
    if (!tc->len[k] || tc->minute[k] != minute) {
        if (velstatus_time_format_sec(t + 1, VELSTATUS_TIME_BUFSIZE, sec, 0, 0, NULL) != VELSTATUS_OK) {
            b->failed = 1; /* cannot happen: every int64 second fits */
            return;
        }
        t[0] = '"';
        tc->len[k] = (uint8_t)(strlen(t) + 1);
        t[tc->len[k] - 1] = '"';
        tc->minute[k] = minute;
    }
    t[tc->len[k] - 4] = (char)('0' + s60 / 10); /* "SSZ" + the quote */
    t[tc->len[k] - 3] = (char)('0' + s60 % 10);
    velstatus__buf_append(b, t, tc->len[k]);
}

/* Writes the unknown members of one object; `first` says whether a comma is needed. */
static void put_unknown(velstatus__buf *b, const velstatus_op *op, uint32_t level, uint32_t item, int first)
{
    uint32_t k;
    for (k = 0; k < op->c->nunk; k++) {
        const vs__unknown *u = &op->c->unk[k];
        if (u->level != level || u->item != item)
            continue;
        if (!first)
            velstatus__buf_putc(b, ',');
        first = 0;
        put_str(b, &u->key);
        velstatus__buf_putc(b, ':');
        put_raw(b, u->value.p, u->value.len);
    }
}

static void put_key(velstatus__buf *b, int *first, const char *key);

static void put_rid(velstatus__buf *b, const vs__str f[4], const velstatus_op *op, uint32_t level, uint32_t item)
{
    int i, first = 1;
    velstatus__buf_putc(b, '{');
    for (i = 0; i < 4; i++) {
        put_key(b, &first, rid_keys[i]);
        put_str(b, &f[i]);
    }
    put_unknown(b, op, level, item, 0);
    velstatus__buf_putc(b, '}');
}

/* `"key":`, after a comma unless it is the object's first member. */
static void put_key(velstatus__buf *b, int *first, const char *key)
{
    size_t n = strlen(key);
    if (n + 4 < b->cap - b->len && !b->failed) { /* room: `,"key":` straight into the buffer */
        char *o = b->p + b->len;
        if (!*first)
            *o++ = ',';
        *o++ = '"';
        memcpy(o, key, n);
        o += n;
        *o++ = '"';
        *o++ = ':';
        *o = '\0';
        b->len = (size_t)(o - b->p);
        *first = 0;
        return;
    }
    if (!*first)
        velstatus__buf_putc(b, ',');
    *first = 0;
    velstatus__buf_putc(b, '"');
    velstatus__buf_append(b, key, n);
    velstatus__buf_append(b, "\":", 2);
}

/* A string member, omitted when empty (Go's omitempty). */
static void put_text_member(velstatus__buf *b, int *first, const char *key, const vs__str *s)
{
    if (s->len == 0)
        return;
    put_key(b, first, key);
    put_str(b, s);
}

/* An integer member, omitted when 0 (Go's omitempty). */
static void put_int_member(velstatus__buf *b, int *first, const char *key, int64_t v)
{
    if (v == 0)
        return;
    put_key(b, first, key);
    velstatus__buf_put_int(b, v);
}

/* The spec of a record: its kind's three names, the resource, the ID and,
 * for a backup, the post-operation items (null when nil). */
static void put_spec(velstatus__buf *b, velstatus_kind kind, const velstatus_op *op)
{
    const char *const *names = kind == VELSTATUS_KIND_RESTORE ? restore_keys : backup_keys;
    int i, first = 1;
    uint32_t k;
    velstatus__buf_puts(b, "\"spec\":{");
    for (i = 0; i < 3; i++) {
        put_key(b, &first, names[i]);
        put_str(b, &op->c->s[i]);
    }
    put_key(b, &first, "resourceIdentifier");
    put_rid(b, &op->c->s[VELSTATUS_OP_FIELD_RESOURCE_GROUP], op, VS__U_RID, 0);
    put_key(b, &first, "operationID");
    put_str(b, &op->c->s[VELSTATUS_OP_FIELD_OPERATION_ID]);
    if (kind == VELSTATUS_KIND_BACKUP) {
        put_key(b, &first, "postOperationItems");
        if (op->c->post_null && op->c->npost == 0) {
            velstatus__buf_puts(b, "null");
        } else {
            velstatus__buf_putc(b, '[');
            for (k = 0; k < op->c->npost; k++) {
                if (k > 0)
                    velstatus__buf_putc(b, ',');
                put_rid(b, op->c->post[k].f, op, VS__U_POST, k);
            }
            velstatus__buf_putc(b, ']');
        }
    }
    put_unknown(b, op, VS__U_SPEC, 0, 0);
    velstatus__buf_putc(b, '}');
}

/* The status of a record, every member omitted when empty, as Go's
 * omitempty does: an absent or null time (a nil *metav1.Time) is omitted, a
 * zero one a plugin reported (a non-nil pointer) is written as null. */
static void put_status(velstatus__buf *b, vs__time_cache *tc, const velstatus_op *op)
{
    int i, first = 1;
    velstatus__buf_puts(b, "\"status\":{");
    put_text_member(b, &first, "phase", vs__op_text(op, VELSTATUS_OP_FIELD_PHASE));
    put_text_member(b, &first, "error", &op->c->s[VELSTATUS_OP_FIELD_ERROR]);
    put_int_member(b, &first, "nCompleted", op->h.n_completed);
    put_int_member(b, &first, "nTotal", op->h.n_total);
    put_text_member(b, &first, "operationUnits", &op->h.units);
    put_text_member(b, &first, "description", &op->h.desc);
    for (i = 0; i < 3; i++) {
        if (op->h.tstate[i] == VS__T_ABSENT || op->h.tstate[i] == VS__T_NULL)
            continue;
        put_key(b, &first, time_keys[i]);
        if (op->h.tstate[i] == VS__T_ZERO) {
            velstatus__buf_puts(b, "null");
        } else {
            int64_t sec;
            int32_t nsec;
            vs__time_exact(op->h.t, op->h.twide, i, &sec, &nsec);
            put_time(b, tc, i, sec);
        }
    }
    if (op->h.has_err_since) {
        int64_t sec;
        int32_t nsec;
        vs__time_exact(&op->h.err_since, 0, 0, &sec, &nsec);
        put_key(b, &first, "velstatusProgressErrorSince");
        put_time(b, tc, 3, sec);
    }
    put_unknown(b, op, VS__U_STATUS, 0, first);
    velstatus__buf_putc(b, '}');
}

/* One record exactly as Go writes *BackupOperation / *RestoreOperation. */
static void put_record(velstatus__buf *b, vs__time_cache *tc, velstatus_kind kind, const velstatus_op *op)
{
    velstatus__buf_putc(b, '{');
    put_spec(b, kind, op);
    velstatus__buf_putc(b, ',');
    put_status(b, tc, op);
    put_unknown(b, op, VS__U_RECORD, 0, 0);
    velstatus__buf_putc(b, '}');
}

/* Shared with the CLI's JSON output through the public functions below. */
static void put_list(velstatus__buf *b, const velstatus_oplist *list)
{
    size_t i;
    vs__time_cache tc;
    memset(tc.len, 0, sizeof(tc.len));
    if (list->is_null && list->n == 0) {
        velstatus__buf_puts(b, "null\n");
        return;
    }
    velstatus__buf_putc(b, '[');
    for (i = 0; i < list->n && !b->failed; i++) {
        if (i > 0)
            velstatus__buf_putc(b, ',');
        put_record(b, &tc, list->kind, &list->ops[i]);
    }
    velstatus__buf_puts(b, "]\n");
}

velstatus_status velstatus_oplist_to_json(char **out, size_t *out_len, const velstatus_oplist *list,
                                          velstatus_error *err)
{
    velstatus__buf b;
    if (!out || !list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "list");
    velstatus__buf_init(&b, list->ctx);
    put_list(&b, list);
    return velstatus__buf_finish(&b, out, out_len, err);
}

velstatus_status velstatus_oplist_write_json(const velstatus_oplist *list, velstatus_write_fn write, void *userdata,
                                             velstatus_error *err)
{
    velstatus__buf b;
    velstatus_status st = VELSTATUS_OK;
    if (!list || !write)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !list ? "list" : "write");
    velstatus__buf_init(&b, list->ctx);
    velstatus__buf_set_sink(&b, write, userdata);
    put_list(&b, list);
    if (!velstatus__buf_drain(&b))
        st = b.sink_rc != 0 ? velstatus__error_host(err, b.sink_rc, "write") : velstatus__error_nomem(err);
    velstatus__buf_reset(&b);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Plugin answers by operation ID (velstatus_op_reports_from_json)            */
/* ------------------------------------------------------------------------ */

typedef struct rdec {
    velstatus_op_reports *r;
    velstatus_error *err;
    const char *p;
    size_t len;
    const char *id; /* current ID, for messages */
    size_t idlen;
    velstatus__buf kbuf, vbuf; /* decoded keys and strings with escapes */
} rdec;

/* E_SCHEMA / E_RANGE at the offending value, text[off]. */
static velstatus_status rfail(rdec *d, velstatus_status code, size_t off, const char *field, size_t flen,
                              const char *what)
{
    uint32_t line, col;
    int n = (int)(d->idlen > 120 ? 120 : d->idlen), fn = (int)(flen > 120 ? 120 : flen);
    velstatus__json_pos(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, (uint64_t)off, "[\"%.*s\"]%s%.*s: %s", n,
                                    d->id ? d->id : "", flen ? "." : "", fn, field, what);
}

/* The text of the accepted string [vs, ve): its bytes, or decoded into buf. */
static velstatus_status rtext(rdec *d, velstatus__buf *buf, size_t vs, size_t ve, const char **s, size_t *n)
{
    return velstatus__json_string_text(buf, d->p, vs, ve, s, n) ? VELSTATUS_OK : velstatus__error_nomem(d->err);
}

/* One member of an answer: its key, its value [vs, ve). */
typedef struct rmember {
    const char *key;
    size_t klen, vs, ve;
} rmember;

static velstatus_status rstr(rdec *d, const rmember *m, const char **p, size_t *n)
{
    const char *s;
    velstatus_status st;
    if (d->p[m->vs] != '"')
        return rfail(d, VELSTATUS_E_SCHEMA, m->vs, m->key, m->klen, "must be a string");
    st = rtext(d, &d->vbuf, m->vs, m->ve, &s, n);
    if (st != VELSTATUS_OK)
        return st;
    if (*n > UINT32_MAX)
        return rfail(d, VELSTATUS_E_RANGE, m->vs, m->key, m->klen, "string longer than 4 GiB");
    *p = velstatus__pool_str(&d->r->pool, s, *n);
    if (!*p)
        return velstatus__error_nomem(d->err);
    return VELSTATUS_OK;
}

/* A reported time (`started`, `updated`): null is Go's zero time; a text is
 * read over Go's whole range, into the nanosecond fields when it fits, else
 * exactly (has_started_sec and its twins). */
static velstatus_status rtime(rdec *d, const rmember *m, int *has, int64_t *ns, int *has_sec, int64_t *sec,
                              int32_t *nsec)
{
    velstatus_error terr;
    velstatus_status st;
    const char *s;
    size_t n;
    char msg[VELSTATUS_ERROR_MESSAGE_SIZE + 32];
    *has = *has_sec = 0;
    *ns = *sec = 0;
    *nsec = 0;
    if (d->p[m->vs] == 'n')
        return VELSTATUS_OK;
    if (d->p[m->vs] != '"')
        return rfail(d, VELSTATUS_E_SCHEMA, m->vs, m->key, m->klen, "must be an RFC 3339 time string or null");
    st = rtext(d, &d->vbuf, m->vs, m->ve, &s, &n);
    if (st != VELSTATUS_OK)
        return st;
    st = velstatus_time_parse_sec(sec, nsec, s, n, &terr);
    if (st != VELSTATUS_OK) {
        snprintf(msg, sizeof(msg), "not a valid time: %s", terr.message);
        return rfail(d, VELSTATUS_E_SCHEMA, velstatus__json_string_byte(d->p, m->vs, m->ve, terr.offset), m->key,
                     m->klen, msg);
    }
    if (velstatus__time_to_ns(*sec, *nsec, ns)) {
        *has = 1;
        *sec = 0;
        *nsec = 0;
    } else {
        *has_sec = 1;
        *ns = 0;
    }
    return VELSTATUS_OK;
}

static velstatus_status r_int(rdec *d, const rmember *m, int64_t *out)
{
    char c = d->p[m->vs];
    if ((c != '-' && (c < '0' || c > '9')) || memchr(d->p + m->vs, '.', m->ve - m->vs) ||
        memchr(d->p + m->vs, 'e', m->ve - m->vs) || memchr(d->p + m->vs, 'E', m->ve - m->vs))
        return rfail(d, VELSTATUS_E_SCHEMA, m->vs, m->key, m->klen, "must be an integer");
    *out = velstatus__json_int(d->p + m->vs, m->ve - m->vs);
    return VELSTATUS_OK;
}

#define ANSWER_KEYS 12
static const char *const answer_keys[ANSWER_KEYS] = {"completed",      "err",         "nCompleted",  "nTotal",
                                                     "operationUnits", "description", "started",     "updated",
                                                     "error",          "lookupError", "cancelError", "name"};
enum {
    A_COMPLETED,
    A_ERR,
    A_NCOMPLETED,
    A_NTOTAL,
    A_UNITS,
    A_DESC,
    A_STARTED,
    A_UPDATED,
    A_ERROR,
    A_LOOKUP,
    A_CANCEL,
    A_NAME
};

/* One known member into the entry (the key is answer_keys[k]). */
static velstatus_status rfield(rdec *d, vs__report_entry *e, int k, const rmember *m)
{
    const char *p = NULL;
    size_t n = 0;
    velstatus_status st = VELSTATUS_OK;
    switch (k) {
    case A_COMPLETED:
        if (d->p[m->vs] != 't' && d->p[m->vs] != 'f')
            return rfail(d, VELSTATUS_E_SCHEMA, m->vs, m->key, m->klen, "must be true or false");
        e->p.completed = d->p[m->vs] == 't';
        return VELSTATUS_OK;
    case A_NCOMPLETED: return r_int(d, m, &e->p.n_completed);
    case A_NTOTAL: return r_int(d, m, &e->p.n_total);
    case A_STARTED:
        return rtime(d, m, &e->p.has_started, &e->p.started_ns, &e->p.has_started_sec, &e->p.started_sec,
                     &e->p.started_nsec);
    case A_UPDATED:
        return rtime(d, m, &e->p.has_updated, &e->p.updated_ns, &e->p.has_updated_sec, &e->p.updated_sec,
                     &e->p.updated_nsec);
    default: st = rstr(d, m, &p, &n); break;
    }
    if (st != VELSTATUS_OK)
        return st;
    if (k == A_UNITS) {
        e->p.operation_units = p;
        e->p.operation_units_len = n;
    } else if (k == A_DESC) {
        e->p.description = p;
        e->p.description_len = n;
    } else if (k == A_NAME) {
        e->p.plugin_name = p; /* never NULL: "" is a plugin named "" */
        e->p.plugin_name_len = n;
    } else if (k == A_CANCEL) {
        e->cancel_err.p = p;
        e->cancel_err.len = (uint32_t)n;
        e->has_cancel_err = 1;
    } else {
        e->p.err = p;
        e->p.err_len = n;
        if (k != A_ERR)
            e->p.report = k == A_ERROR ? VELSTATUS_OP_REPORT_PROGRESS_ERROR : VELSTATUS_OP_REPORT_LOOKUP_ERROR;
    }
    return VELSTATUS_OK;
}

static velstatus_status rsyntax(rdec *d, size_t off, const char *what)
{
    uint32_t line, col;
    velstatus__json_pos(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_PARSE, line, col, (uint64_t)off, "%s", what);
}

/* An answer object: known keys only, each at most once (our own format, so strict). */
static velstatus_status rentry(rdec *d, vs__report_entry *e, size_t vs, size_t ve)
{
    velstatus__json_iter it;
    rmember m;
    size_t ks, ke;
    unsigned seen = 0;
    int progress_keys = 0, error_keys = 0;
    if (d->p[vs] != '{')
        return rfail(d, VELSTATUS_E_SCHEMA, vs, "", 0,
                     "must be an object (progress, {\"error\": ...} or {\"lookupError\": ...})");
    velstatus__json_iter_init(&it, d->p, vs, ve);
    while (velstatus__json_next_member(&it, &ks, &ke, &m.vs, &m.ve)) {
        int k = 0;
        velstatus_status st = rtext(d, &d->kbuf, ks, ke, &m.key, &m.klen);
        if (st != VELSTATUS_OK)
            return st;
        while (k < ANSWER_KEYS && !(strlen(answer_keys[k]) == m.klen && memcmp(answer_keys[k], m.key, m.klen) == 0))
            k++;
        if (k == ANSWER_KEYS)
            return rfail(d, VELSTATUS_E_SCHEMA, ks, m.key, m.klen,
                         "unknown key (expected completed, err, nCompleted, nTotal, operationUnits, description, "
                         "started, updated, error, lookupError, cancelError or name)");
        if (seen & (1u << k))
            return rsyntax(d, ks, "duplicate key in a progress object");
        seen |= 1u << k;
        if (k == A_ERROR || k == A_LOOKUP)
            error_keys++;
        else if (k != A_CANCEL && k != A_NAME)
            progress_keys++;
        st = rfield(d, e, k, &m);
        if (st != VELSTATUS_OK)
            return st;
    }
    if (error_keys > 1)
        return rfail(d, VELSTATUS_E_SCHEMA, vs, "", 0, "error and lookupError cannot both be given");
    if (error_keys && progress_keys)
        return rfail(d, VELSTATUS_E_SCHEMA, vs, "", 0, "error or lookupError cannot be mixed with progress fields");
    if ((seen & (1u << A_LOOKUP)) && (seen & (1u << A_NAME)))
        return rfail(d, VELSTATUS_E_SCHEMA, vs, "", 0,
                     "name cannot be given with lookupError (no plugin was obtained: Velero writes \"plugin: "
                     "unknown\")");
    return VELSTATUS_OK;
}

/* The scanner validates the value at p[i] and finds its end. */
static velstatus_status rscan(rdec *d, size_t i, size_t *end)
{
    velstatus__json_scan_err e;
    if (!velstatus__json_scan(d->p + i, d->len - i, end, &e))
        return velstatus__json_scan_error(d->err, &e, d->p, i, "invalid JSON");
    *end += i;
    return VELSTATUS_OK;
}

/* "id": {answer} at p[i]; *next is just past it. */
static velstatus_status rmember_at(rdec *d, size_t i, size_t *next)
{
    const char *p = d->p, *id, *s;
    size_t n = d->len, kend, vend, slen;
    vs__report_entry *e;
    velstatus_status st = rscan(d, i, &kend);
    if (st != VELSTATUS_OK)
        return st;
    st = rtext(d, &d->vbuf, i, kend, &s, &slen);
    if (st != VELSTATUS_OK)
        return st;
    if (slen > UINT32_MAX)
        return rsyntax(d, i, "operation ID longer than 4 GiB");
    e = velstatus__reports_push(d->r);
    id = e ? velstatus__pool_str(&d->r->pool, s, slen) : NULL;
    if (!id)
        return velstatus__error_nomem(d->err);
    e->id.p = id;
    e->id.len = (uint32_t)slen;
    d->id = e->id.p;
    d->idlen = e->id.len;
    i = velstatus__json_ws(p, kend, n);
    if (i >= n || p[i] != ':')
        return rsyntax(d, i, "expected ':' after an operation ID");
    i = velstatus__json_ws(p, i + 1, n);
    st = rscan(d, i, &vend);
    if (st == VELSTATUS_OK)
        st = rentry(d, e, i, vend);
    *next = vend;
    return st;
}

static velstatus_status rdecode(rdec *d)
{
    const char *p = d->p;
    size_t n = d->len, i = velstatus__json_ws(p, 0, n);
    if (i >= n || p[i] != '{')
        return rsyntax(d, i, "expected '{' (an object mapping operation IDs to progress)");
    i = velstatus__json_ws(p, i + 1, n);
    if (i < n && p[i] == '}')
        goto end;
    for (;;) {
        velstatus_status st;
        if (i >= n || p[i] != '"')
            return rsyntax(d, i, "expected an operation ID (a string)");
        st = rmember_at(d, i, &i);
        if (st != VELSTATUS_OK)
            return st;
        i = velstatus__json_ws(p, i, n);
        if (i < n && p[i] == ',') {
            i = velstatus__json_ws(p, i + 1, n);
            continue;
        }
        if (i < n && p[i] == '}')
            break;
        return rsyntax(d, i, "expected ',' or '}'");
    }
end:
    i = velstatus__json_ws(p, i + 1, n);
    if (i != n)
        return rsyntax(d, i, "unexpected text after the object");
    return velstatus__reports_finish(d->r, d->err);
}

velstatus_status velstatus_op_reports_from_json(velstatus_op_reports **out, velstatus_ctx *ctx, const char *p,
                                                size_t len, velstatus_error *err)
{
    rdec d;
    velstatus_status st;
    VS_TRY(velstatus__obj_text_args(out, "out", p, &len, "input", err));
    memset(&d, 0, sizeof(d));
    st = velstatus__reports_new(&d.r, ctx, err);
    if (st != VELSTATUS_OK)
        return st;
    d.err = err;
    d.p = p ? p : "";
    d.len = len;
    velstatus__buf_init(&d.kbuf, ctx);
    velstatus__buf_init(&d.vbuf, ctx);
    st = rdecode(&d);
    velstatus__buf_reset(&d.kbuf);
    velstatus__buf_reset(&d.vbuf);
    if (st != VELSTATUS_OK) {
        velstatus_op_reports_free(d.r);
        return st;
    }
    *out = d.r;
    return VELSTATUS_OK;
}
