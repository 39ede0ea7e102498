/* The itemoperations codec (SPEC-velero §2.1, DESIGN §9).
 *
 * Decoding never builds a whole-file DOM: the top-level array is walked
 * here, and each record is parsed on its own with json_loadb(...,
 * JSON_DISABLE_EOF_CHECK) from its first byte; jansson's error position
 * tells where the record ended. The record's DOM is converted into a
 * compact velstatus_op (strings in the list's pool) and released at once.
 *
 * Unknown keys are kept as raw text: the members of a jansson object come
 * in the order of the text (insertion order, duplicates rejected), so the
 * raw text is walked in step with the DOM and the i-th raw member is the
 * i-th DOM member. The value is stored as Go writes a json.RawMessage:
 * compacted, with HTML-sensitive characters escaped.
 *
 * Encoding writes Go's encoding/json bytes straight into a velstatus__buf. */
#include <string.h>

#include <jansson.h>

#include "operations_private.h"

/* ------------------------------------------------------------------------ */
/* Raw JSON walking (input already validated by jansson)                      */
/* ------------------------------------------------------------------------ */

static size_t rw_ws(const char *p, size_t i, size_t n)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

/* p[i] == '"': the index just after the closing quote. A quote closes the
 * string unless an odd number of backslashes precedes it (memchr finds the
 * candidates: most of a record's bytes are inside strings). */
static size_t rw_str_end(const char *p, size_t i, size_t n)
{
    size_t open = i;
    for (i++; i < n;) {
        const char *q = memchr(p + i, '"', n - i);
        size_t j, k;
        if (q == NULL)
            return n;
        j = (size_t)(q - p);
        for (k = j; k > open + 1 && p[k - 1] == '\\'; k--)
            ;
        if (((j - k) & 1) == 0)
            return j + 1;
        i = j + 1;
    }
    return n;
}

/* The index just after the value starting at p[i]. */
static size_t rw_value_end(const char *p, size_t i, size_t n)
{
    int depth = 0;
    while (i < n) {
        char c = p[i];
        if (c == '"') {
            i = rw_str_end(p, i, n);
            if (depth == 0)
                return i;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            depth--;
            if (depth == 0)
                return i + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            return i;
        }
        i++;
    }
    return n;
}

/* A cursor over the members of a raw object or the elements of a raw array. */
typedef struct rw_iter {
    const char *p;
    size_t i, n;
} rw_iter;

static void rw_open(rw_iter *it, const char *p, size_t start, size_t end)
{
    it->p = p;
    it->n = end;
    it->i = rw_ws(p, start, end) + 1; /* past '{' or '[' */
}

/* Next object member: its value span. Returns 0 at the end. */
static int rw_next_member(rw_iter *it, size_t *vstart, size_t *vend)
{
    size_t i = rw_ws(it->p, it->i, it->n);
    if (i < it->n && it->p[i] == ',')
        i = rw_ws(it->p, i + 1, it->n);
    if (i >= it->n || it->p[i] != '"')
        return 0;
    i = rw_str_end(it->p, i, it->n);
    i = rw_ws(it->p, i, it->n) + 1; /* ':' */
    i = rw_ws(it->p, i, it->n);
    *vstart = i;
    *vend = rw_value_end(it->p, i, it->n);
    it->i = *vend;
    return 1;
}

static int rw_next_element(rw_iter *it, size_t *vstart, size_t *vend)
{
    size_t i = rw_ws(it->p, it->i, it->n);
    if (i < it->n && it->p[i] == ',')
        i = rw_ws(it->p, i + 1, it->n);
    if (i >= it->n || it->p[i] == ']')
        return 0;
    *vstart = i;
    *vend = rw_value_end(it->p, i, it->n);
    it->i = *vend;
    return 1;
}

/* Appends the raw value compacted as Go's json.Compact with HTML escaping
 * (what json.Encoder does with a RawMessage). */
static void raw_compact(velstatus__buf *b, const char *p, size_t n)
{
    size_t i = 0, start = 0;
    int in_str = 0;
    while (i < n) {
        unsigned char c = (unsigned char)p[i];
        if (in_str) {
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '"') {
                in_str = 0;
                i++;
                continue;
            }
            if (c == '<' || c == '>' || c == '&') {
                char esc[6] = {'\\', 'u', '0', '0', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 0xF]};
                velstatus__buf_append(b, p + start, i - start);
                velstatus__buf_append(b, esc, 6);
                start = ++i;
                continue;
            }
            if (c == 0xE2 && i + 2 < n && (unsigned char)p[i + 1] == 0x80 &&
                ((unsigned char)p[i + 2] & 0xFE) == 0xA8) {
                velstatus__buf_append(b, p + start, i - start);
                velstatus__buf_puts(b, (unsigned char)p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
                i += 3;
                start = i;
                continue;
            }
            i++;
            continue;
        }
        if (c == '"') {
            in_str = 1;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            velstatus__buf_append(b, p + start, i - start);
            start = ++i;
            continue;
        }
        i++;
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

/* Field paths for messages, built only when a message is written. */
static const char *const backup_paths[3] = {".spec.backupName", ".spec.backupUID", ".spec.backupItemAction"};
static const char *const restore_paths[3] = {".spec.restoreName", ".spec.restoreUID", ".spec.restoreItemAction"};
static const char *const rid_subpaths[4] = {".Group", ".Resource", ".Namespace", ".Name"};
static const char *const time_paths[3] = {".status.created", ".status.started", ".status.updated"};

const char *velstatus__op_spec_key(velstatus_kind kind, int field)
{
    if (field < 0 || field > 2)
        return NULL;
    return kind == VELSTATUS_KIND_RESTORE ? restore_keys[field] : backup_keys[field];
}

typedef struct dec {
    velstatus_oplist *l;
    velstatus_error *err;
    const char *p; /* whole input */
    size_t len;
    size_t rec_off; /* offset of the current record */
    size_t idx;     /* its index */
    int raw;            /* walk the raw text too (only when a record has unknown keys) */
    velstatus__buf tmp; /* scratch for unknown values */
    vs__unknown *unk;   /* scratch unknown list of the current record */
    size_t nunk, capunk;
} dec;

/* Internal: a record must be decoded again with the raw walk. */
#define VS__NEED_RAW ((velstatus_status)1)

static void pos_of(const char *p, size_t off, uint32_t *line, uint32_t *col)
{
    size_t i, ln = 1, c = 1;
    for (i = 0; i < off; i++) {
        if (p[i] == '\n') {
            ln++;
            c = 1;
        } else if (((unsigned char)p[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t)ln;
    *col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* A field's path within its record: a, then "[k]" unless k is VS__NOIDX,
 * then b. Rendered only by fail(). */
typedef struct vs__path {
    const char *a;
    size_t k;
    const char *b;
} vs__path;

#define VS__NOIDX SIZE_MAX

static velstatus_status fail_at(dec *d, velstatus_status code, size_t off, const vs__path *path, const char *what)
{
    uint32_t line, col;
    char ks[32] = "";
    if (path->k != VS__NOIDX)
        snprintf(ks, sizeof ks, "[%zu]", path->k);
    pos_of(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, (uint64_t)off, "[%zu]%s%s%s: %s (line %u, column %u)",
                                    d->idx, path->a, ks, path->b, what, (unsigned)line, (unsigned)col);
}

static velstatus_status fail_p(dec *d, velstatus_status code, const vs__path *path, const char *what)
{
    return fail_at(d, code, d->rec_off, path, what);
}

static velstatus_status fail(dec *d, velstatus_status code, const char *path, const char *what)
{
    vs__path pp;
    pp.a = path;
    pp.k = VS__NOIDX;
    pp.b = "";
    return fail_at(d, code, d->rec_off, &pp, what);
}

static velstatus_status set_json_str(dec *d, vs__str *dst, const json_t *v, const vs__path *path)
{
    const char *s;
    size_t n;
    if (json_is_null(v))
        return VELSTATUS_OK; /* Go: null leaves the zero value */
    if (!json_is_string(v))
        return fail_p(d, VELSTATUS_E_SCHEMA, path, "must be a string");
    s = json_string_value(v);
    n = json_string_length(v);
    if (n > UINT32_MAX)
        return fail_p(d, VELSTATUS_E_RANGE, path, "string longer than 4 GiB");
    dst->p = velstatus__oplist_pool_str(d->l, s, n);
    if (dst->p == NULL)
        return velstatus__error_nomem(d->err);
    dst->len = (uint32_t)n;
    return VELSTATUS_OK;
}

static velstatus_status set_json_int(dec *d, int64_t *dst, const json_t *v, const vs__path *path)
{
    if (json_is_null(v))
        return VELSTATUS_OK;
    if (!json_is_integer(v))
        return fail_p(d, VELSTATUS_E_SCHEMA, path, json_is_real(v) ? "must be an integer, not a fraction or exponent"
                                                                 : "must be an integer");
    *dst = (int64_t)json_integer_value(v);
    return VELSTATUS_OK;
}

/* A *metav1.Time: null, or an RFC 3339 string. */
static velstatus_status set_json_time(dec *d, uint8_t *state, int64_t *dst, const json_t *v, const vs__path *path)
{
    velstatus_error terr;
    velstatus_status st;
    char msg[VELSTATUS_ERROR_MESSAGE_SIZE + 32];
    if (json_is_null(v)) {
        *state = VS__T_NULL;
        *dst = 0;
        return VELSTATUS_OK;
    }
    if (!json_is_string(v))
        return fail_p(d, VELSTATUS_E_SCHEMA, path, "must be an RFC 3339 time string or null");
    st = velstatus_time_parse(dst, json_string_value(v), json_string_length(v), &terr);
    if (st == VELSTATUS_E_NOMEM)
        return velstatus__error_nomem(d->err);
    if (st != VELSTATUS_OK) {
        snprintf(msg, sizeof msg, "not a valid time: %s", terr.message);
        return fail_p(d, st == VELSTATUS_E_RANGE ? VELSTATUS_E_RANGE : VELSTATUS_E_SCHEMA, path, msg);
    }
    *state = VS__T_LOCAL;
    return VELSTATUS_OK;
}

static velstatus_status add_unknown(dec *d, uint32_t level, uint32_t item, const char *key, size_t keylen,
                                    size_t vstart, size_t vend)
{
    vs__unknown *u;
    const char *kp, *vp;
    size_t vlen;
    if (!d->raw)
        return VS__NEED_RAW;
    if (d->nunk == d->capunk) {
        size_t cap = d->capunk ? d->capunk * 2 : 8;
        vs__unknown *n = velstatus__realloc(d->l->ctx, d->unk, cap * sizeof *n);
        if (n == NULL)
            return velstatus__error_nomem(d->err);
        d->unk = n;
        d->capunk = cap;
    }
    d->tmp.len = 0;
    raw_compact(&d->tmp, d->p + vstart, vend - vstart);
    if (d->tmp.failed)
        return velstatus__error_nomem(d->err);
    vlen = d->tmp.len;
    if (keylen > UINT32_MAX || vlen > UINT32_MAX)
        return fail(d, VELSTATUS_E_RANGE, "", "unknown field larger than 4 GiB");
    kp = velstatus__oplist_pool_str(d->l, key, keylen);
    vp = velstatus__oplist_pool_str(d->l, d->tmp.p, vlen);
    if (kp == NULL || vp == NULL)
        return velstatus__error_nomem(d->err);
    u = &d->unk[d->nunk++];
    u->level = level;
    u->item = item;
    u->key.p = kp;
    u->key.len = (uint32_t)keylen;
    u->value.p = vp;
    u->value.len = (uint32_t)vlen;
    return VELSTATUS_OK;
}

/* Member iteration; with d->raw, in step with the raw text: DOM member k <->
 * raw member k. Without it the raw spans are 0 and add_unknown() asks for a
 * second, raw-walking decode of the record (records with unknown keys are
 * rare, and walking the raw text costs as much as a tenth of the decode). */
#define FOREACH_MEMBER(obj, rawstart, rawend, key, klen, val, vs, ve, it, jit)                                \
    for ((vs) = (ve) = 0, rw_open(&(it), d->p, (rawstart), (rawend)),                                        \
        (jit) = json_object_iter(obj);                                                                      \
         (jit) != NULL && (!d->raw || rw_next_member(&(it), &(vs), &(ve))) &&                              \
         ((key) = json_object_iter_key(jit), (klen) = json_object_iter_key_len(jit),                       \
          (val) = json_object_iter_value(jit), 1);                                                          \
         (jit) = json_object_iter_next((obj), (jit)))

static int key_is(const char *key, size_t klen, const char *name)
{
    size_t n = strlen(name);
    return klen == n && memcmp(key, name, n) == 0;
}

/* A ResourceIdentifier object (or null) into f[4]; unknown keys at `level`. */
static velstatus_status decode_rid(dec *d, vs__str f[4], json_t *obj, size_t rs, size_t re, uint32_t level,
                                   uint32_t item, const char *path, size_t pathk)
{
    rw_iter it;
    void *jit;
    const char *key;
    size_t klen, vs, ve;
    json_t *val;
    vs__path sub;
    int i;
    sub.a = path;
    sub.k = pathk;
    sub.b = "";
    if (json_is_null(obj))
        return VELSTATUS_OK;
    if (!json_is_object(obj))
        return fail_p(d, VELSTATUS_E_SCHEMA, &sub, "must be an object");
    FOREACH_MEMBER(obj, rs, re, key, klen, val, vs, ve, it, jit) {
        velstatus_status st = VELSTATUS_OK;
        for (i = 0; i < 4; i++)
            if (key_is(key, klen, rid_keys[i]))
                break;
        if (i < 4) {
            sub.b = rid_subpaths[i];
            st = set_json_str(d, &f[i], val, &sub);
        } else {
            st = add_unknown(d, level, item, key, klen, vs, ve);
        }
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

static velstatus_status decode_post(dec *d, velstatus_op *op, json_t *arr, size_t rs, size_t re)
{
    rw_iter it;
    size_t n, k, vs, ve;
    if (json_is_null(arr))
        return VELSTATUS_OK; /* nil */
    if (!json_is_array(arr))
        return fail(d, VELSTATUS_E_SCHEMA, ".spec.postOperationItems", "must be an array or null");
    n = json_array_size(arr);
    if (n > UINT32_MAX - 1)
        return fail(d, VELSTATUS_E_RANGE, ".spec.postOperationItems", "too many items");
    op->post_null = 0;
    if (n == 0)
        return VELSTATUS_OK;
    op->post = velstatus__oplist_pool_alloc(d->l, n * sizeof *op->post);
    if (op->post == NULL)
        return velstatus__error_nomem(d->err);
    vs = ve = 0;
    rw_open(&it, d->p, rs, re);
    for (k = 0; k < n && (!d->raw || rw_next_element(&it, &vs, &ve)); k++) {
        int i;
        velstatus_status st;
        for (i = 0; i < 4; i++) {
            op->post[k].f[i].p = velstatus__empty;
            op->post[k].f[i].len = 0;
        }
        op->npost = (uint32_t)(k + 1);
        st = decode_rid(d, op->post[k].f, json_array_get(arr, k), vs, ve, VS__U_POST, (uint32_t)k,
                        ".spec.postOperationItems", k);
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

static velstatus_status decode_spec(dec *d, velstatus_op *op, json_t *obj, size_t rs, size_t re)
{
    rw_iter it;
    void *jit;
    const char *key;
    size_t klen, vs, ve;
    json_t *val;
    const char *const *names = d->l->kind == VELSTATUS_KIND_RESTORE ? restore_keys : backup_keys;
    const char *const *paths = d->l->kind == VELSTATUS_KIND_RESTORE ? restore_paths : backup_paths;
    vs__path path;
    path.k = VS__NOIDX;
    path.b = "";
    if (json_is_null(obj))
        return VELSTATUS_OK;
    if (!json_is_object(obj))
        return fail(d, VELSTATUS_E_SCHEMA, ".spec", "must be an object");
    FOREACH_MEMBER(obj, rs, re, key, klen, val, vs, ve, it, jit) {
        velstatus_status st;
        int i;
        for (i = 0; i < 3; i++)
            if (key_is(key, klen, names[i]))
                break;
        if (i < 3) {
            path.a = paths[i];
            st = set_json_str(d, &op->s[i], val, &path);
        } else if (key_is(key, klen, "resourceIdentifier")) {
            st = decode_rid(d, &op->s[VELSTATUS_OP_FIELD_RESOURCE_GROUP], val, vs, ve, VS__U_RID, 0,
                            ".spec.resourceIdentifier", VS__NOIDX);
        } else if (key_is(key, klen, "operationID")) {
            path.a = ".spec.operationID";
            st = set_json_str(d, &op->s[VELSTATUS_OP_FIELD_OPERATION_ID], val, &path);
        } else if (d->l->kind == VELSTATUS_KIND_BACKUP && key_is(key, klen, "postOperationItems")) {
            st = decode_post(d, op, val, vs, ve);
        } else {
            st = add_unknown(d, VS__U_SPEC, 0, key, klen, vs, ve);
        }
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

static velstatus_status decode_status(dec *d, velstatus_op *op, json_t *obj, size_t rs, size_t re)
{
    rw_iter it;
    void *jit;
    const char *key;
    size_t klen, vs, ve;
    json_t *val;
    vs__path path;
    path.k = VS__NOIDX;
    path.b = "";
    if (json_is_null(obj))
        return VELSTATUS_OK;
    if (!json_is_object(obj))
        return fail(d, VELSTATUS_E_SCHEMA, ".status", "must be an object");
    FOREACH_MEMBER(obj, rs, re, key, klen, val, vs, ve, it, jit) {
        velstatus_status st = VELSTATUS_OK;
        int i;
        if (key_is(key, klen, "phase")) {
            if (json_is_string(val)) {
                velstatus_op_phase ph = velstatus__op_phase_of(json_string_value(val), json_string_length(val));
                if (ph != VELSTATUS_OP_PHASE_UNKNOWN) {
                    velstatus__op_set_phase(op, ph);
                    continue;
                }
            }
            path.a = ".status.phase";
            st = set_json_str(d, &op->s[VELSTATUS_OP_FIELD_PHASE], val, &path);
            op->phase = VELSTATUS_OP_PHASE_UNKNOWN;
        } else if (key_is(key, klen, "error")) {
            path.a = ".status.error";
            st = set_json_str(d, &op->s[VELSTATUS_OP_FIELD_ERROR], val, &path);
        } else if (key_is(key, klen, "nCompleted")) {
            path.a = ".status.nCompleted";
            st = set_json_int(d, &op->n_completed, val, &path);
        } else if (key_is(key, klen, "nTotal")) {
            path.a = ".status.nTotal";
            st = set_json_int(d, &op->n_total, val, &path);
        } else if (key_is(key, klen, "operationUnits")) {
            path.a = ".status.operationUnits";
            st = set_json_str(d, &op->s[VELSTATUS_OP_FIELD_OPERATION_UNITS], val, &path);
        } else if (key_is(key, klen, "description")) {
            path.a = ".status.description";
            st = set_json_str(d, &op->s[VELSTATUS_OP_FIELD_DESCRIPTION], val, &path);
        } else if (key_is(key, klen, "velstatusProgressErrorSince")) {
            uint8_t state = VS__T_ABSENT;
            path.a = ".status.velstatusProgressErrorSince";
            st = set_json_time(d, &state, &op->err_since, val, &path);
            op->has_err_since = state == VS__T_LOCAL;
        } else {
            for (i = 0; i < 3; i++)
                if (key_is(key, klen, time_keys[i]))
                    break;
            if (i < 3) {
                path.a = time_paths[i];
                st = set_json_time(d, &op->tstate[i], &op->t[i], val, &path);
            } else {
                st = add_unknown(d, VS__U_STATUS, 0, key, klen, vs, ve);
            }
        }
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

static velstatus_status decode_record(dec *d, json_t *rec, size_t rs, size_t re)
{
    rw_iter it;
    void *jit;
    const char *key;
    size_t klen, vs, ve;
    json_t *val;
    velstatus_op *op;
    velstatus_status st;
    vs__pool_block *blk;
    size_t used;
    if (!json_is_object(rec))
        return fail(d, VELSTATUS_E_SCHEMA, "", json_is_null(rec) ? "a record must be an object, not null"
                                                                  : "a record must be an object");
    blk = d->l->pool;
    used = blk != NULL ? blk->used : 0;
    op = velstatus__oplist_push(d->l);
    if (op == NULL)
        return velstatus__error_nomem(d->err);
    for (d->raw = 0;; d->raw = 1) {
        velstatus__op_set_phase(op, VELSTATUS_OP_PHASE_UNKNOWN); /* absent phase is "" */
        d->nunk = 0;
        st = VELSTATUS_OK;
        FOREACH_MEMBER(rec, rs, re, key, klen, val, vs, ve, it, jit) {
            if (key_is(key, klen, "spec"))
                st = decode_spec(d, op, val, vs, ve);
            else if (key_is(key, klen, "status"))
                st = decode_status(d, op, val, vs, ve);
            else
                st = add_unknown(d, VS__U_RECORD, 0, key, klen, vs, ve);
            if (st != VELSTATUS_OK)
                break;
        }
        if (st != VS__NEED_RAW)
            break;
        /* Start the record again. Its strings are given back to the pool
         * when they all went into the block that was current before it
         * (always, unless the record filled that block). */
        if (blk != NULL && d->l->pool == blk)
            blk->used = used;
        d->l->n--;
        op = velstatus__oplist_push(d->l);
    }
    if (st != VELSTATUS_OK)
        return st;
    if (d->nunk > 0) {
        if (d->nunk > UINT32_MAX)
            return fail(d, VELSTATUS_E_RANGE, "", "too many unknown fields");
        op->unk = velstatus__oplist_pool_alloc(d->l, d->nunk * sizeof *op->unk);
        if (op->unk == NULL)
            return velstatus__error_nomem(d->err);
        memcpy(op->unk, d->unk, d->nunk * sizeof *op->unk);
        op->nunk = (uint32_t)d->nunk;
    }
    return VELSTATUS_OK;
}

static velstatus_status jansson_fail(dec *d, const json_error_t *jerr, size_t base, const char *what)
{
    size_t off = base + (size_t)jerr->position;
    uint32_t line, col;
    velstatus_status code = VELSTATUS_E_PARSE;
#if JANSSON_VERSION_HEX >= 0x020b00
    if (json_error_code(jerr) == json_error_numeric_overflow)
        code = VELSTATUS_E_RANGE;
    if (json_error_code(jerr) == json_error_out_of_memory)
        return velstatus__error_nomem(d->err);
#endif
    if (off > d->len)
        off = d->len;
    pos_of(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, (uint64_t)off, "%s (line %u, column %u): %s", what,
                                    (unsigned)line, (unsigned)col, jerr->text);
}

static velstatus_status syntax_at(dec *d, size_t off, const char *what)
{
    uint32_t line, col;
    pos_of(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_PARSE, line, col, (uint64_t)off,
                                    "%s at line %u, column %u", what, (unsigned)line, (unsigned)col);
}

static velstatus_status decode_list(dec *d)
{
    const char *p = d->p;
    size_t n = d->len, i = rw_ws(p, 0, n);
    if (i == n)
        return syntax_at(d, i, "empty input: expected an array of operations or null");
    if (n - i >= 4 && memcmp(p + i, "null", 4) == 0) {
        i = rw_ws(p, i + 4, n);
        if (i != n)
            return syntax_at(d, i, "unexpected text after null");
        d->l->is_null = 1;
        return VELSTATUS_OK;
    }
    if (p[i] != '[')
        return syntax_at(d, i, "expected '[' (an array of operations) or null");
    i = rw_ws(p, i + 1, n);
    if (i < n && p[i] == ']') {
        i = rw_ws(p, i + 1, n);
        return i == n ? VELSTATUS_OK : syntax_at(d, i, "unexpected text after the array");
    }
    for (d->idx = 0;; d->idx++) {
        json_error_t jerr;
        json_t *rec;
        velstatus_status st;
        size_t end;
        if (i >= n)
            return syntax_at(d, i, "unexpected end of input inside the array");
        d->rec_off = i;
        rec = json_loadb(p + i, n - i, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
        if (rec == NULL) {
            char what[48];
            snprintf(what, sizeof what, "[%zu]: invalid JSON", d->idx);
            return jansson_fail(d, &jerr, i, what);
        }
        end = i + (size_t)jerr.position;
        st = decode_record(d, rec, i, end);
        json_decref(rec);
        if (st != VELSTATUS_OK)
            return st;
        if (d->idx == SIZE_MAX - 1)
            return syntax_at(d, end, "too many records");
        i = rw_ws(p, end, n);
        if (i < n && p[i] == ',') {
            i = rw_ws(p, i + 1, n);
            continue;
        }
        if (i < n && p[i] == ']') {
            i = rw_ws(p, i + 1, n);
            return i == n ? VELSTATUS_OK : syntax_at(d, i, "unexpected text after the array");
        }
        return syntax_at(d, i, i < n ? "expected ',' or ']' after a record" : "unexpected end of input inside the array");
    }
}

velstatus_status velstatus_oplist_from_json(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                            const char *p, size_t len, velstatus_error *err)
{
    dec d;
    velstatus_status st;
    len = velstatus__text_len(p, len);
    if (out == NULL)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    if (p == NULL && len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "input is NULL with length %zu", len);
    memset(&d, 0, sizeof d);
    st = velstatus__oplist_new(&d.l, ctx, kind, err);
    if (st != VELSTATUS_OK)
        return st;
    d.err = err;
    d.p = p != NULL ? p : "";
    d.len = len;
    velstatus__buf_init(&d.tmp, ctx);
    st = decode_list(&d);
    velstatus__buf_reset(&d.tmp);
    velstatus__free(ctx, d.unk);
    if (st != VELSTATUS_OK) {
        velstatus_oplist_free(d.l);
        return st;
    }
    *out = d.l;
    return VELSTATUS_OK;
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                   */
/* ------------------------------------------------------------------------ */

static void put_str(velstatus__buf *b, const vs__str *s)
{
    velstatus__json_write_string(b, s->p, s->len, 1);
}

static void put_time(velstatus__buf *b, int64_t ns)
{
    char tb[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_time_format(tb, sizeof tb, ns, 0, NULL) != VELSTATUS_OK) {
        b->failed = 1; /* cannot happen: every int64 instant fits */
        return;
    }
    velstatus__buf_putc(b, '"');
    velstatus__buf_puts(b, tb);
    velstatus__buf_putc(b, '"');
}

/* Writes the unknown members of one object; `first` says whether a comma is needed. */
static void put_unknown(velstatus__buf *b, const velstatus_op *op, uint32_t level, uint32_t item, int first)
{
    uint32_t k;
    for (k = 0; k < op->nunk; k++) {
        const vs__unknown *u = &op->unk[k];
        if (u->level != level || u->item != item)
            continue;
        if (!first)
            velstatus__buf_putc(b, ',');
        first = 0;
        put_str(b, &u->key);
        velstatus__buf_putc(b, ':');
        velstatus__buf_append(b, u->value.p, u->value.len);
    }
}

static void put_rid(velstatus__buf *b, const vs__str f[4], const velstatus_op *op, uint32_t level, uint32_t item)
{
    int i;
    velstatus__buf_putc(b, '{');
    for (i = 0; i < 4; i++) {
        if (i > 0)
            velstatus__buf_putc(b, ',');
        velstatus__buf_putc(b, '"');
        velstatus__buf_puts(b, rid_keys[i]);
        velstatus__buf_puts(b, "\":");
        put_str(b, &f[i]);
    }
    put_unknown(b, op, level, item, 0);
    velstatus__buf_putc(b, '}');
}

/* One record exactly as Go writes *BackupOperation / *RestoreOperation. */
static void put_record(velstatus__buf *b, velstatus_kind kind, const velstatus_op *op)
{
    const char *const *names = kind == VELSTATUS_KIND_RESTORE ? restore_keys : backup_keys;
    int i, first;
    velstatus__buf_puts(b, "{\"spec\":{");
    for (i = 0; i < 3; i++) {
        if (i > 0)
            velstatus__buf_putc(b, ',');
        velstatus__buf_putc(b, '"');
        velstatus__buf_puts(b, names[i]);
        velstatus__buf_puts(b, "\":");
        put_str(b, &op->s[i]);
    }
    velstatus__buf_puts(b, ",\"resourceIdentifier\":");
    put_rid(b, &op->s[VELSTATUS_OP_FIELD_RESOURCE_GROUP], op, VS__U_RID, 0);
    velstatus__buf_puts(b, ",\"operationID\":");
    put_str(b, &op->s[VELSTATUS_OP_FIELD_OPERATION_ID]);
    if (kind == VELSTATUS_KIND_BACKUP) {
        velstatus__buf_puts(b, ",\"postOperationItems\":");
        if (op->post_null && op->npost == 0) {
            velstatus__buf_puts(b, "null");
        } else {
            uint32_t k;
            velstatus__buf_putc(b, '[');
            for (k = 0; k < op->npost; k++) {
                if (k > 0)
                    velstatus__buf_putc(b, ',');
                put_rid(b, op->post[k].f, op, VS__U_POST, k);
            }
            velstatus__buf_putc(b, ']');
        }
    }
    put_unknown(b, op, VS__U_SPEC, 0, 0);
    velstatus__buf_puts(b, "},\"status\":{");
    first = 1;
#define SEP() do { if (!first) velstatus__buf_putc(b, ','); first = 0; } while (0)
    if (op->s[VELSTATUS_OP_FIELD_PHASE].len > 0) {
        SEP();
        velstatus__buf_puts(b, "\"phase\":");
        put_str(b, &op->s[VELSTATUS_OP_FIELD_PHASE]);
    }
    if (op->s[VELSTATUS_OP_FIELD_ERROR].len > 0) {
        SEP();
        velstatus__buf_puts(b, "\"error\":");
        put_str(b, &op->s[VELSTATUS_OP_FIELD_ERROR]);
    }
    if (op->n_completed != 0) {
        SEP();
        velstatus__buf_printf(b, "\"nCompleted\":%lld", (long long)op->n_completed);
    }
    if (op->n_total != 0) {
        SEP();
        velstatus__buf_printf(b, "\"nTotal\":%lld", (long long)op->n_total);
    }
    if (op->s[VELSTATUS_OP_FIELD_OPERATION_UNITS].len > 0) {
        SEP();
        velstatus__buf_puts(b, "\"operationUnits\":");
        put_str(b, &op->s[VELSTATUS_OP_FIELD_OPERATION_UNITS]);
    }
    if (op->s[VELSTATUS_OP_FIELD_DESCRIPTION].len > 0) {
        SEP();
        velstatus__buf_puts(b, "\"description\":");
        put_str(b, &op->s[VELSTATUS_OP_FIELD_DESCRIPTION]);
    }
    for (i = 0; i < 3; i++) {
        if (op->tstate[i] == VS__T_ABSENT)
            continue;
        SEP();
        velstatus__buf_putc(b, '"');
        velstatus__buf_puts(b, time_keys[i]);
        velstatus__buf_puts(b, "\":");
        if (op->tstate[i] == VS__T_NULL || op->tstate[i] == VS__T_ZERO)
            velstatus__buf_puts(b, "null");
        else
            put_time(b, op->t[i]);
    }
    if (op->has_err_since) {
        SEP();
        velstatus__buf_puts(b, "\"velstatusProgressErrorSince\":");
        put_time(b, op->err_since);
    }
#undef SEP
    put_unknown(b, op, VS__U_STATUS, 0, first);
    velstatus__buf_putc(b, '}');
    put_unknown(b, op, VS__U_RECORD, 0, 0);
    velstatus__buf_putc(b, '}');
}

/* Shared with the CLI's JSON output through the public function below. */
static void put_list(velstatus__buf *b, const velstatus_oplist *list)
{
    size_t i;
    if (list->is_null && list->n == 0) {
        velstatus__buf_puts(b, "null");
        return;
    }
    velstatus__buf_putc(b, '[');
    for (i = 0; i < list->n; i++) {
        if (i > 0)
            velstatus__buf_putc(b, ',');
        put_record(b, list->kind, &list->ops[i]);
    }
    velstatus__buf_putc(b, ']');
}

velstatus_status velstatus_oplist_to_json(char **out, size_t *out_len, const velstatus_oplist *list,
                                          velstatus_error *err)
{
    velstatus__buf b;
    if (out == NULL || list == NULL)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", out == NULL ? "out" : "list");
    velstatus__buf_init(&b, list->ctx);
    put_list(&b, list);
    velstatus__buf_putc(&b, '\n');
    return velstatus__buf_finish(&b, out, out_len, err);
}

/* ------------------------------------------------------------------------ */
/* Plugin answers by operation ID (velstatus_op_reports_from_json)            */
/* ------------------------------------------------------------------------ */

typedef struct rdec {
    velstatus_op_reports *r;
    velstatus_error *err;
    const char *p;
    size_t len;
    size_t off;      /* offset of the current value */
    const char *id;  /* current ID, for messages */
    size_t idlen;
} rdec;

static velstatus_status rfail(rdec *d, velstatus_status code, const char *field, const char *what)
{
    uint32_t line, col;
    int n = (int)(d->idlen > 120 ? 120 : d->idlen);
    pos_of(d->p, d->off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, (uint64_t)d->off,
                                    "[\"%.*s\"]%s%s: %s (line %u, column %u)", n, d->id != NULL ? d->id : "",
                                    field[0] ? "." : "", field, what, (unsigned)line, (unsigned)col);
}

static velstatus_status rstr(rdec *d, const json_t *v, const char *field, const char **p, size_t *n)
{
    if (!json_is_string(v))
        return rfail(d, VELSTATUS_E_SCHEMA, field, "must be a string");
    if (json_string_length(v) > UINT32_MAX)
        return rfail(d, VELSTATUS_E_RANGE, field, "string longer than 4 GiB");
    *n = json_string_length(v);
    *p = velstatus__oplist_pool_str(d->r->pool, json_string_value(v), *n);
    if (*p == NULL)
        return velstatus__error_nomem(d->err);
    return VELSTATUS_OK;
}

static velstatus_status rtime(rdec *d, const json_t *v, const char *field, int *has, int64_t *ns)
{
    velstatus_error terr;
    velstatus_status st;
    char msg[VELSTATUS_ERROR_MESSAGE_SIZE + 32];
    if (json_is_null(v)) {
        *has = 0;
        *ns = 0;
        return VELSTATUS_OK;
    }
    if (!json_is_string(v))
        return rfail(d, VELSTATUS_E_SCHEMA, field, "must be an RFC 3339 time string or null");
    st = velstatus_time_parse(ns, json_string_value(v), json_string_length(v), &terr);
    if (st != VELSTATUS_OK) {
        snprintf(msg, sizeof msg, "not a valid time: %s", terr.message);
        return rfail(d, st == VELSTATUS_E_RANGE ? VELSTATUS_E_RANGE : VELSTATUS_E_SCHEMA, field, msg);
    }
    *has = 1;
    return VELSTATUS_OK;
}

static velstatus_status r_int(rdec *d, const json_t *v, const char *field, int64_t *out)
{
    if (!json_is_integer(v))
        return rfail(d, VELSTATUS_E_SCHEMA, field, "must be an integer");
    *out = (int64_t)json_integer_value(v);
    return VELSTATUS_OK;
}

static velstatus_status rentry(rdec *d, vs__report_entry *e, json_t *obj)
{
    const char *key;
    json_t *v;
    int progress_keys = 0, error_keys = 0;
    velstatus_status st = VELSTATUS_OK;
    if (!json_is_object(obj))
        return rfail(d, VELSTATUS_E_SCHEMA, "", "must be an object (progress, {\"error\": ...} or {\"lookupError\": ...})");
    json_object_foreach(obj, key, v) {
        const char *p = NULL;
        size_t n = 0;
        if (strcmp(key, "completed") == 0) {
            if (!json_is_boolean(v))
                return rfail(d, VELSTATUS_E_SCHEMA, key, "must be true or false");
            e->p.completed = json_is_true(v);
            progress_keys++;
        } else if (strcmp(key, "err") == 0) {
            st = rstr(d, v, key, &p, &n);
            e->p.err = p;
            e->p.err_len = n;
            progress_keys++;
        } else if (strcmp(key, "nCompleted") == 0) {
            st = r_int(d, v, key, &e->p.n_completed);
            progress_keys++;
        } else if (strcmp(key, "nTotal") == 0) {
            st = r_int(d, v, key, &e->p.n_total);
            progress_keys++;
        } else if (strcmp(key, "operationUnits") == 0) {
            st = rstr(d, v, key, &p, &n);
            e->p.operation_units = p;
            e->p.operation_units_len = n;
            progress_keys++;
        } else if (strcmp(key, "description") == 0) {
            st = rstr(d, v, key, &p, &n);
            e->p.description = p;
            e->p.description_len = n;
            progress_keys++;
        } else if (strcmp(key, "started") == 0) {
            st = rtime(d, v, key, &e->p.has_started, &e->p.started_ns);
            progress_keys++;
        } else if (strcmp(key, "updated") == 0) {
            st = rtime(d, v, key, &e->p.has_updated, &e->p.updated_ns);
            progress_keys++;
        } else if (strcmp(key, "error") == 0 || strcmp(key, "lookupError") == 0) {
            st = rstr(d, v, key, &p, &n);
            e->p.err = p;
            e->p.err_len = n;
            e->p.report = key[0] == 'e' ? VELSTATUS_OP_REPORT_PROGRESS_ERROR : VELSTATUS_OP_REPORT_LOOKUP_ERROR;
            error_keys++;
        } else if (strcmp(key, "cancelError") == 0) {
            st = rstr(d, v, key, &p, &n);
            e->cancel_err.p = p;
            e->cancel_err.len = (uint32_t)n;
            e->has_cancel_err = 1;
        } else {
            return rfail(d, VELSTATUS_E_SCHEMA, key,
                         "unknown key (expected completed, err, nCompleted, nTotal, operationUnits, description, "
                         "started, updated, error, lookupError or cancelError)");
        }
        if (st != VELSTATUS_OK)
            return st;
    }
    if (error_keys > 1)
        return rfail(d, VELSTATUS_E_SCHEMA, "", "error and lookupError cannot both be given");
    if (error_keys && progress_keys)
        return rfail(d, VELSTATUS_E_SCHEMA, "", "error or lookupError cannot be mixed with progress fields");
    return VELSTATUS_OK;
}

static velstatus_status rsyntax(rdec *d, size_t off, const char *what)
{
    uint32_t line, col;
    pos_of(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, VELSTATUS_E_PARSE, line, col, (uint64_t)off, "%s at line %u, column %u",
                                    what, (unsigned)line, (unsigned)col);
}

static velstatus_status rjansson(rdec *d, const json_error_t *jerr, size_t base)
{
    size_t off = base + (size_t)jerr->position;
    uint32_t line, col;
    velstatus_status code = VELSTATUS_E_PARSE;
    if (json_error_code(jerr) == json_error_out_of_memory)
        return velstatus__error_nomem(d->err);
    if (json_error_code(jerr) == json_error_numeric_overflow)
        code = VELSTATUS_E_RANGE;
    if (off > d->len)
        off = d->len;
    pos_of(d->p, off, &line, &col);
    return velstatus__error_set_pos(d->err, code, line, col, (uint64_t)off, "invalid JSON (line %u, column %u): %s",
                                    (unsigned)line, (unsigned)col, jerr->text);
}

static velstatus_status rdecode(rdec *d)
{
    const char *p = d->p;
    size_t n = d->len, i = rw_ws(p, 0, n);
    if (i >= n || p[i] != '{')
        return rsyntax(d, i, "expected '{' (an object mapping operation IDs to progress)");
    i = rw_ws(p, i + 1, n);
    if (i < n && p[i] == '}')
        goto end;
    for (;;) {
        json_error_t jerr;
        json_t *k, *v;
        size_t kend;
        vs__report_entry *e;
        velstatus_status st;
        const char *id;
        if (i >= n || p[i] != '"')
            return rsyntax(d, i, "expected an operation ID (a string)");
        kend = rw_str_end(p, i, n);
        k = json_loadb(p + i, kend - i, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
        if (k == NULL)
            return rjansson(d, &jerr, i);
        if (json_string_length(k) > UINT32_MAX) {
            json_decref(k);
            return rsyntax(d, i, "operation ID longer than 4 GiB");
        }
        e = velstatus__reports_push(d->r);
        id = e != NULL ? velstatus__oplist_pool_str(d->r->pool, json_string_value(k), json_string_length(k)) : NULL;
        if (id == NULL) {
            json_decref(k);
            return velstatus__error_nomem(d->err);
        }
        e->id.p = id;
        e->id.len = (uint32_t)json_string_length(k);
        json_decref(k);
        d->id = e->id.p;
        d->idlen = e->id.len;
        i = rw_ws(p, kend, n);
        if (i >= n || p[i] != ':')
            return rsyntax(d, i, "expected ':' after an operation ID");
        i = rw_ws(p, i + 1, n);
        d->off = i;
        v = json_loadb(p + i, n - i, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
        if (v == NULL)
            return rjansson(d, &jerr, i);
        st = rentry(d, e, v);
        json_decref(v);
        if (st != VELSTATUS_OK)
            return st;
        i = rw_ws(p, i + (size_t)jerr.position, n);
        if (i < n && p[i] == ',') {
            i = rw_ws(p, i + 1, n);
            continue;
        }
        if (i < n && p[i] == '}')
            break;
        return rsyntax(d, i, "expected ',' or '}'");
    }
end:
    i = rw_ws(p, i + 1, n);
    if (i != n)
        return rsyntax(d, i, "unexpected text after the object");
    return velstatus__reports_finish(d->r, d->err);
}

velstatus_status velstatus_op_reports_from_json(velstatus_op_reports **out, velstatus_ctx *ctx, const char *p,
                                                size_t len, velstatus_error *err)
{
    rdec d;
    velstatus_status st;
    len = velstatus__text_len(p, len);
    if (out == NULL)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    if (p == NULL && len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "input is NULL with length %zu", len);
    memset(&d, 0, sizeof d);
    st = velstatus__reports_new(&d.r, ctx, err);
    if (st != VELSTATUS_OK)
        return st;
    d.err = err;
    d.p = p != NULL ? p : "";
    d.len = len;
    st = rdecode(&d);
    if (st != VELSTATUS_OK) {
        velstatus_op_reports_free(d.r);
        return st;
    }
    *out = d.r;
    return VELSTATUS_OK;
}
