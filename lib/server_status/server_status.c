/* SPDX-License-Identifier: Apache-2.0 */
/* Server status from the BackupStorageLocations (doc/server-status.md):
 * BSL sets, the total rule, verdicts and the incremental tracker. The
 * controller step is in server_status_step.c, above this file and the
 * codec. */
#include "server_status/private.h"
#include "common/util_array.h"
#include "common/util_hash.h"

#include <stdlib.h>
#include <string.h>

/* A verdict: what classify decided, its name lists and message. */
struct velstatus_server_verdict {
    velstatus_ctx *ctx;
    velstatus_server_status status;
    uint32_t reasons;
    size_t available, unavailable, pending, total;
    const char *default_name;      /* into pool, or NULL */
    const char **names;            /* all the per-reason lists, concatenated */
    size_t start[VS_NREASONS + 1]; /* list of flag i: names[start[i] .. start[i+1]) */
    char *pool;                    /* the names' bytes */
    char *message;
    char *ns; /* classify_namespace's namespace, or NULL */
};

/* ---- tokens ---- */

static const char *const reason_tokens[VS_NREASONS] = {
    "no_bsl",           "pending",    "all_unavailable",   "some_unavailable",
    "some_pending",     "no_default", "multiple_defaults", "default_not_available",
    "default_readonly", "stale",      "unknown_phase",     "never_validated",
};

const unsigned char velstatus__ss_reason_sorted[VS_NREASONS] = {2, 7, 8, 6, 11, 0, 5, 1, 4, 3, 9, 10};

const char *velstatus__ss_reason_token(unsigned i)
{
    return i < VS_NREASONS ? reason_tokens[i] : NULL;
}

static const char *const status_tokens[] = {"Ready", "PartiallyReady", "Waiting", "NotReady"};

VS_ENUM_TOKENS(server_status, velstatus_server_status, status_tokens, "server status")

static const char *const access_tokens[] = {"ReadWrite", "ReadOnly"};

VS_ENUM_TOKENS(bsl_access, velstatus_bsl_access, access_tokens, "BSL access mode")

/* Index of a single flag, or -1. */
static int reason_index(uint32_t reason)
{
    if (reason == 0 || (reason & (reason - 1)) != 0 || reason >= (1u << VS_NREASONS))
        return -1;
    for (int i = 0; i < VS_NREASONS; i++)
        if (reason == (1u << i))
            return i;
    return -1;
}

VS_FLAG_TOKENS(server_reason, velstatus_server_reason, reason_tokens, "server-status reason")

/* ---- options ---- */

void velstatus_server_status_options_init(velstatus_server_status_options *opts, size_t struct_size)
{
    velstatus__sized_init(opts, struct_size, NULL, sizeof(*opts));
}

velstatus_status velstatus__ss_load_opts(vs_opts *o, const velstatus_server_status_options *in, velstatus_error *err)
{
    velstatus_server_status_options c;
    memset(o, 0, sizeof(*o));
    if (!in)
        return VELSTATUS_OK;
    VS_TRY(velstatus__sized_copy(&c, sizeof(c), VS_SERVER_STATUS_OPTIONS_SIZE_V1, in, "server_status_options", err));
    if (c.flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "server_status_options.flags must be 0");
    c.default_location_len = velstatus__text_len(c.default_location, c.default_location_len);
    if (!c.default_location && c.default_location_len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "server_status_options.default_location is NULL but its length is %zu",
                                    c.default_location_len);
    if (c.default_location_len && memchr(c.default_location, '\0', c.default_location_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "server_status_options.default_location contains a NUL byte");
    if (c.check_stale && c.stale_after_ns < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "server_status_options.stale_after_ns is negative (%lld)",
                                    (long long)c.stale_after_ns);
    o->defloc = c.default_location_len ? c.default_location : NULL;
    o->defloc_len = c.default_location_len;
    o->check_stale = c.check_stale != 0;
    o->now_ns = c.now_ns;
    o->stale_after_ns = c.stale_after_ns;
    o->three_state = c.three_state != 0;
    if (c.retry_timeout_ns < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "server_status_options.retry_timeout_ns is negative (%lld)",
                                    (long long)c.retry_timeout_ns);
    o->retry_timeout_ns = c.retry_timeout_ns;
    return VELSTATUS_OK;
}

/* ---- one BSL ---- */

/* The BSL's name, NUL-terminated. */
static const char *bsl_name(const vs_bsl *b)
{
    return b->name_len < VS_NAME_INLINE ? b->name.in : b->name.ext;
}

static int name_eq(const vs_bsl *b, const char *s, size_t len)
{
    return b->name_len == len && memcmp(bsl_name(b), s, len) == 0;
}

/* What a table lookup matches: the name (a tracker, which keys by name),
 * the namespace and the name (a set), or the namespace alone (a set's
 * namespace table). */
enum { VS_BY_NAME, VS_BY_NS_NAME, VS_BY_NS };

typedef struct vs_key {
    const char *name, *ns;
    size_t name_len, ns_len;
    int by; /* VS_BY_* */
} vs_key;

static int key_eq(const vs_bsl *b, const vs_key *k)
{
    const velstatus_bsl_record *r = k->by != VS_BY_NAME ? vs_bsl_rec(b) : NULL;
    if (r && (r->ns_len != k->ns_len || (k->ns_len && memcmp(r->ns, k->ns, k->ns_len) != 0)))
        return 0;
    return k->by == VS_BY_NS || name_eq(b, k->name, k->name_len);
}

/* The key's hash: of the name, or of the namespace for VS_BY_NS. */
static uint64_t key_hash(const vs_key *k)
{
    return k->by == VS_BY_NS ? velstatus__hash_fnv1a(k->ns, k->ns_len) : velstatus__hash_fnv1a(k->name, k->name_len);
}

static unsigned char phase_class(const char *p, size_t len)
{
    if (len == 0)
        return VS_PH_EMPTY;
    if (len == 9 && memcmp(p, "Available", 9) == 0)
        return VS_PH_AVAILABLE;
    if (len == 11 && memcmp(p, "Unavailable", 11) == 0)
        return VS_PH_UNAVAILABLE;
    return VS_PH_UNKNOWN;
}

/* The texts appended after 1.0: each may be NULL only when empty; the
 * namespace is a key, so it holds no NUL byte. */
static velstatus_status check_more_texts(const velstatus_bsl_record *r, velstatus_error *err)
{
    const char *const texts[4] = {r->ns, r->provider, r->bucket, r->prefix};
    const size_t lens[4] = {r->ns_len, r->provider_len, r->bucket_len, r->prefix_len};
    static const char *const what[4] = {"namespace", "provider", "bucket", "prefix"};
    for (int i = 0; i < 4; i++)
        if (!texts[i] && lens[i])
            return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL but its length is %zu", what[i], lens[i]);
    if (r->ns_len && memchr(r->ns, '\0', r->ns_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "namespace contains a NUL byte");
    return VELSTATUS_OK;
}

/* The checks every BSL passes (lengths resolved), naming the field. */
static velstatus_status check_bsl_args(const velstatus_bsl_record *r, velstatus_error *err)
{
    int shown = (int)(r->name_len > 64 ? 64 : r->name_len); /* of the name, in messages */
    if (!r->name)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "BSL name is NULL");
    if (r->name_len == 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "BSL name is empty");
    if (memchr(r->name, '\0', r->name_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "BSL name contains a NUL byte");
    if (!r->phase && r->phase_len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase of BSL \"%.*s\" is NULL but its length is %zu",
                                    shown, r->name, r->phase_len);
    if (r->phase_len && memchr(r->phase, '\0', r->phase_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "phase of BSL \"%.*s\" contains a NUL byte", shown,
                                    r->name);
    if (!r->message && r->message_len)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "message is NULL but its length is %zu", r->message_len);
    if (r->access != VELSTATUS_BSL_READ_WRITE && r->access != VELSTATUS_BSL_READ_ONLY)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "access mode of BSL \"%.*s\" is %d, not a velstatus_bsl_access", shown, r->name,
                                    (int)r->access);
    return check_more_texts(r, err);
}

/* Copies s[0..len) to *p, NUL-terminated (s may be NULL when len is 0),
 * moves *p past the NUL and returns where the copy starts: the packing of a
 * BSL's texts behind its struct and of a verdict's names into its pool. */
static char *pack_text(char **p, const char *s, size_t len)
{
    char *q = *p;
    if (len)
        memcpy(q, s, len);
    q[len] = '\0';
    *p = q + len + 1;
    return q;
}

/* The rule's fields of r into b: all but the hash, the name and the
 * tracker's caches. */
static void bsl_hot(vs_bsl *b, const velstatus_bsl_record *r)
{
    b->created_ns = r->has_created ? r->created_ns : 0;
    b->validated_ns = r->has_validated ? r->validated_ns : 0;
    b->is_default = r->is_default != 0;
    b->access = (unsigned char)r->access;
    b->has_created = r->has_created != 0;
    b->has_validated = r->has_validated != 0;
    b->pclass = phase_class(r->phase, r->phase_len);
}

/* b's name: a short one copied inside b, a long one at `ext` (which holds it). */
static void bsl_name_set(vs_bsl *b, const char *name, size_t len, char *ext)
{
    b->name_len = len;
    if (len < VS_NAME_INLINE) {
        memcpy(b->name.in, name, len);
        b->name.in[len] = '\0';
    } else {
        b->name.ext = ext;
    }
}

/* The bytes r's texts take behind a set's record (each NUL-terminated),
 * or SIZE_MAX when that cannot be allocated. */
static size_t bsl_room(const velstatus_bsl_record *r)
{
    const size_t lens[7] = {r->name_len,     r->phase_len,  r->message_len, r->ns_len,
                            r->provider_len, r->bucket_len, r->prefix_len};
    size_t room = 0;
    for (int i = 0; i < 7; i++) {
        if (lens[i] > SIZE_MAX / 8)
            return SIZE_MAX;
        room += lens[i] + 1;
    }
    return room;
}

/* A set's BSL in one allocation: the entry, the caller's record as the set
 * keeps it (lengths resolved, texts copied behind it, flags 0, booleans 0
 * or 1, an absent time 0), then its seven texts, each NUL-terminated. */
static vs_bsl *bsl_new(velstatus_ctx *ctx, const velstatus_bsl_record *r)
{
    vs_bsl *b;
    velstatus_bsl_record *rec;
    char *p, *name;
    size_t room = bsl_room(r);
    if (room == SIZE_MAX || !(b = velstatus__alloc(ctx, sizeof(*b) + sizeof(*rec) + room)))
        return NULL;
    memset(b, 0, sizeof(*b));
    rec = (velstatus_bsl_record *)(void *)(b + 1);
    p = (char *)(rec + 1);
    *rec = *r;
    rec->struct_size = (uint32_t)sizeof(*rec);
    rec->flags = 0;
    name = pack_text(&p, r->name, r->name_len);
    rec->name = name;
    rec->phase = pack_text(&p, r->phase, r->phase_len);
    rec->message = pack_text(&p, r->message, r->message_len);
    rec->ns = pack_text(&p, r->ns, r->ns_len);
    rec->provider = pack_text(&p, r->provider, r->provider_len);
    rec->bucket = pack_text(&p, r->bucket, r->bucket_len);
    rec->prefix = pack_text(&p, r->prefix, r->prefix_len);
    bsl_hot(b, r);
    rec->is_default = b->is_default;
    rec->has_created = b->has_created;
    rec->created_ns = b->created_ns;
    rec->has_validated = b->has_validated;
    rec->validated_ns = b->validated_ns;
    bsl_name_set(b, name, r->name_len, name);
    b->hash = velstatus__hash_fnv1a(r->name, r->name_len);
    return b;
}

/* now - then > bound, computed without overflow. */
static int older_than(const vs_opts *o, int64_t then)
{
    return then < o->now_ns && (uint64_t)o->now_ns - (uint64_t)then > (uint64_t)o->stale_after_ns;
}

/* How a BSL counts under the options: A, U or P; *stale has VS_STALE when
 * an Available BSL is counted pending because its validation is too old or
 * missing, VS_NEVER_VALIDATED when a BSL with an empty phase and no
 * validation was created longer ago than the bound. */
static unsigned char bsl_count(const vs_bsl *b, const vs_opts *o, unsigned char *stale)
{
    *stale = 0;
    switch (b->pclass) {
    case VS_PH_UNAVAILABLE: return VS_CNT_U;
    case VS_PH_EMPTY:
        if (o->check_stale && !b->has_validated && b->has_created && older_than(o, b->created_ns))
            *stale = VS_NEVER_VALIDATED;
        return VS_CNT_P;
    case VS_PH_UNKNOWN: return VS_CNT_P;
    default: break;
    }
    if (o->check_stale && (!b->has_validated || older_than(o, b->validated_ns)))
        *stale = VS_STALE;
    return *stale ? VS_CNT_P : VS_CNT_A;
}

/* Byte-wise name order, shorter prefix first. */
static int name_cmp(const vs_bsl *a, const vs_bsl *b)
{
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(bsl_name(a), bsl_name(b), n);
    if (c)
        return c;
    return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

/* Is a a better default than b? Newest creationTimestamp first (a missing
 * one ranks oldest, as Go's zero time), then the byte-wise smallest name
 * (doc/velero-behaviour.md §1.5 D2; the name replaces D2's list-order tie-break). */
static int default_better(const vs_bsl *a, const vs_bsl *b)
{
    if (a->has_created != b->has_created)
        return a->has_created;
    if (a->has_created && a->created_ns != b->created_ns)
        return a->created_ns > b->created_ns;
    return name_cmp(a, b) < 0;
}

/* ---- name table ---- */

static size_t tab_find(const vs_nametab *t, const vs_key *k)
{
    size_t mask, i;
    uint64_t h;
    if (t->cap == 0)
        return SIZE_MAX;
    h = key_hash(k);
    mask = t->cap - 1;
    for (i = (size_t)h & mask; t->slots[i].b; i = (i + 1) & mask)
        if (t->slots[i].hash == h && key_eq(t->slots[i].b, k))
            return i;
    return SIZE_MAX;
}

static void tab_place(vs_nametab *t, vs_bsl *b, uint64_t h)
{
    size_t mask = t->cap - 1, i;
    for (i = (size_t)h & mask; t->slots[i].b; i = (i + 1) & mask)
        ;
    t->slots[i].hash = h;
    t->slots[i].b = b;
}

/* Makes room for `want` entries at load <= 1/2. Leaves the table intact on failure. */
static int tab_reserve(velstatus_ctx *ctx, vs_nametab *t, size_t want)
{
    size_t cap = t->cap ? t->cap : 8;
    vs_slot *slots;
    if (want > SIZE_MAX / 4)
        return 0;
    while (cap < want * 2)
        cap *= 2;
    if (cap == t->cap)
        return 1;
    slots = velstatus__calloc(ctx, cap, sizeof(*slots));
    if (!slots)
        return 0;
    {
        vs_nametab nt = {slots, cap, t->n};
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].b)
                tab_place(&nt, t->slots[i].b, t->slots[i].hash);
        velstatus__free(ctx, t->slots);
        *t = nt;
    }
    return 1;
}

/* ---- sets ---- */

velstatus_status velstatus_bsl_set_new(velstatus_bsl_set **out, velstatus_ctx *ctx, velstatus_error *err)
{
    velstatus_bsl_set *s;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or ctx is NULL");
    *out = NULL;
    s = velstatus__calloc(ctx, 1, sizeof(*s));
    if (!s)
        return velstatus__error_nomem(err);
    s->ctx = ctx;
    *out = s;
    return VELSTATUS_OK;
}

void velstatus_bsl_set_free(velstatus_bsl_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        velstatus__free(set->ctx, set->items[i]);
    velstatus__free(set->ctx, set->items);
    velstatus__free(set->ctx, set->tab.slots);
    velstatus__free(set->ctx, set->nstab.slots);
    velstatus__free(set->ctx, set->nsfirst);
    velstatus__free(set->ctx, set);
}

/* The key of r's namespace and name in a set. */
static vs_key set_key(const velstatus_bsl_record *r, int by)
{
    vs_key k = {r->name, r->ns, r->name_len, r->ns_len, by};
    return k;
}

/* A set of up to this many BSLs (or namespaces) is searched in order, with
 * no table to allocate: a watch event's set holds one BSL. */
enum { VS_SET_SMALL = 8 };

/* The first of list[0..n) that k matches, through the table t once it is
 * built, else in order; NULL when none. */
static vs_bsl *set_lookup(const vs_nametab *t, vs_bsl *const *list, size_t n, const vs_key *k)
{
    size_t i;
    if (t->cap == 0) {
        for (i = 0; i < n; i++)
            if (key_eq(list[i], k))
                return list[i];
        return NULL;
    }
    i = tab_find(t, k);
    return i == SIZE_MAX ? NULL : t->slots[i].b;
}

/* The hash a table of `by` keys files b under. */
static uint64_t set_hash(const vs_bsl *b, int by)
{
    const velstatus_bsl_record *r = vs_bsl_rec(b);
    return by == VS_BY_NS ? velstatus__hash_fnv1a(r->ns, r->ns_len) : b->hash;
}

/* Room in t for `want` entries of list: past VS_SET_SMALL the table is
 * built (list[0..n) placed in it) and then grown; below, there is none. */
static int set_index(velstatus_ctx *ctx, vs_nametab *t, vs_bsl *const *list, size_t n, size_t want, int by)
{
    int fresh = t->cap == 0;
    if (fresh && want <= VS_SET_SMALL)
        return 1;
    if (!tab_reserve(ctx, t, want))
        return 0;
    for (size_t i = 0; fresh && i < n; i++, t->n++)
        tab_place(t, list[i], set_hash(list[i], by));
    return 1;
}

/* Files b in t when t is built. */
static void set_place(vs_nametab *t, vs_bsl *b, int by)
{
    if (t->cap == 0)
        return;
    tab_place(t, b, set_hash(b, by));
    t->n++;
}

/* Room for one more BSL and, when `new_ns`, one more namespace. */
static int set_reserve(velstatus_bsl_set *set, int new_ns)
{
    vs_bsl **items = velstatus__array_reserve(set->ctx, set->items, &set->cap, set->n + 1, sizeof(*items), 8);
    if (!items)
        return 0;
    set->items = items;
    if (!set_index(set->ctx, &set->tab, set->items, set->n, set->n + 1, VS_BY_NS_NAME))
        return 0;
    if (new_ns) {
        vs_bsl **f = velstatus__array_reserve(set->ctx, set->nsfirst, &set->nscap, set->nns + 1, sizeof(*f), 4);
        if (!f)
            return 0;
        set->nsfirst = f;
        if (!set_index(set->ctx, &set->nstab, set->nsfirst, set->nns, set->nns + 1, VS_BY_NS))
            return 0;
    }
    return 1;
}

velstatus_status velstatus__ss_set_add(velstatus_bsl_set *set, const velstatus_bsl_record *r, velstatus_error *err)
{
    vs_bsl *b;
    vs_key k = set_key(r, VS_BY_NS_NAME), kn = set_key(r, VS_BY_NS);
    int new_ns;
    if (!set)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "set is NULL");
    VS_TRY(check_bsl_args(r, err));
    if (set_lookup(&set->tab, set->items, set->n, &k))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "duplicate BSL name \"%.*s\"%s%.*s%s",
                                    (int)(r->name_len > 64 ? 64 : r->name_len), r->name,
                                    r->ns_len ? " in namespace \"" : "", (int)(r->ns_len > 64 ? 64 : r->ns_len),
                                    r->ns_len ? r->ns : "", r->ns_len ? "\"" : "");
    new_ns = !set_lookup(&set->nstab, set->nsfirst, set->nns, &kn);
    if (!set_reserve(set, new_ns))
        return velstatus__error_nomem(err);
    b = bsl_new(set->ctx, r);
    if (!b)
        return velstatus__error_nomem(err);
    set_place(&set->tab, b, VS_BY_NS_NAME);
    set->items[set->n++] = b;
    if (new_ns) {
        set_place(&set->nstab, b, VS_BY_NS);
        set->nsfirst[set->nns++] = b;
    }
    return VELSTATUS_OK;
}

/* A caller's record, copied by its size, its lengths resolved, flags 0. */
static velstatus_status load_record(velstatus_bsl_record *r, const velstatus_bsl_record *in, velstatus_error *err)
{
    VS_TRY(velstatus__sized_copy(r, sizeof(*r), VS_BSL_RECORD_SIZE_V1, in, "bsl_record", err));
    if (r->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "bsl_record.flags is %u, must be 0", (unsigned)r->flags);
    r->name_len = velstatus__text_len(r->name, r->name_len);
    r->phase_len = velstatus__text_len(r->phase, r->phase_len);
    r->message_len = velstatus__text_len(r->message, r->message_len);
    r->ns_len = velstatus__text_len(r->ns, r->ns_len);
    r->provider_len = velstatus__text_len(r->provider, r->provider_len);
    r->bucket_len = velstatus__text_len(r->bucket, r->bucket_len);
    r->prefix_len = velstatus__text_len(r->prefix, r->prefix_len);
    return VELSTATUS_OK;
}

velstatus_status velstatus_bsl_set_add_record(velstatus_bsl_set *set, const velstatus_bsl_record *bsl,
                                              velstatus_error *err)
{
    velstatus_bsl_record r;
    if (!set || !bsl)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "set or bsl is NULL");
    VS_TRY(load_record(&r, bsl, err));
    return velstatus__ss_set_add(set, &r, err);
}

velstatus_status velstatus_bsl_set_add(velstatus_bsl_set *set, const char *name, size_t name_len, const char *phase,
                                       size_t phase_len, int is_default, velstatus_bsl_access access, int has_created,
                                       int64_t created_ns, int has_validated, int64_t validated_ns,
                                       velstatus_error *err)
{
    velstatus_bsl_record r = {
        .name = name,
        .name_len = velstatus__text_len(name, name_len),
        .phase = phase,
        .phase_len = velstatus__text_len(phase, phase_len),
        .is_default = is_default,
        .access = access,
        .has_created = has_created,
        .created_ns = created_ns,
        .has_validated = has_validated,
        .validated_ns = validated_ns,
    };
    return velstatus__ss_set_add(set, &r, err);
}

int velstatus__ss_set_has(const velstatus_bsl_set *set, const char *ns, size_t ns_len, const char *name,
                          size_t name_len)
{
    vs_key k = {name, ns, name_len, ns_len, VS_BY_NS_NAME};
    return set_lookup(&set->tab, set->items, set->n, &k) != NULL;
}

VS_GETTER(velstatus_bsl_set, velstatus_bsl_set_count, size_t, n, 0)

const char *velstatus_bsl_set_name(const velstatus_bsl_set *set, size_t i)
{
    return set && i < set->n ? vs_bsl_rec(set->items[i])->name : NULL;
}

const char *velstatus_bsl_set_phase(const velstatus_bsl_set *set, size_t i)
{
    return set && i < set->n ? vs_bsl_rec(set->items[i])->phase : NULL;
}

const char *velstatus_bsl_set_message(const velstatus_bsl_set *set, size_t i)
{
    return set && i < set->n ? vs_bsl_rec(set->items[i])->message : NULL;
}

const char *velstatus_bsl_set_namespace(const velstatus_bsl_set *set, size_t i)
{
    return set && i < set->n ? vs_bsl_rec(set->items[i])->ns : NULL;
}

VS_GETTER(velstatus_bsl_set, velstatus_bsl_set_namespace_count, size_t, nns, 0)

const char *velstatus_bsl_set_namespace_at(const velstatus_bsl_set *set, size_t k)
{
    return set && k < set->nns ? vs_bsl_rec(set->nsfirst[k])->ns : NULL;
}

void velstatus_bsl_record_init(velstatus_bsl_record *bsl, size_t struct_size)
{
    velstatus__sized_init(bsl, struct_size, NULL, sizeof(*bsl));
}

velstatus_status velstatus_bsl_set_get(const velstatus_bsl_set *set, size_t i, velstatus_bsl_record *out,
                                       velstatus_error *err)
{
    velstatus_bsl_record r;
    if (!set || !out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "set or out is NULL");
    if (i >= set->n)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "index %zu is out of range (the set has %zu BSLs)", i,
                                    set->n);
    VS_TRY(velstatus__sized_copy(&r, sizeof(r), VS_BSL_RECORD_SIZE_V1, out, "bsl_record", err));
    r = *vs_bsl_rec(set->items[i]);
    /* the caller's struct_size and flags stay; a newer caller's tail is not touched */
    r.struct_size = out->struct_size;
    r.flags = out->flags;
    memcpy(out, &r, out->struct_size < sizeof(r) ? out->struct_size : sizeof(r));
    return VELSTATUS_OK;
}

/* ---- the rule ---- */

/* Everything the status and reasons depend on; the tracker keeps it
 * incrementally, a full classification counts it in one pass. */
typedef struct vs_summary {
    size_t n, a, u, p, stale, unknown, never_validated, ndefault;
    const vs_bsl *def; /* the resolved default, or NULL */
} vs_summary;

#define R(i) (1u << (i))

/* Adds a BSL counted `cnt` (VS_CNT_*), stale or not, to the counts of s:
 * d is 1, or (size_t)-1 to remove it (unsigned wrap-around subtracts). The
 * counting of a full classification and of the tracker's updates. */
static void summary_count(vs_summary *s, const vs_bsl *b, unsigned char cnt, unsigned char stale, size_t d)
{
    if (cnt == VS_CNT_A)
        s->a += d;
    else if (cnt == VS_CNT_U)
        s->u += d;
    else
        s->p += d;
    if (stale & VS_STALE)
        s->stale += d;
    if (stale & VS_NEVER_VALIDATED)
        s->never_validated += d;
    if (b->pclass == VS_PH_UNKNOWN)
        s->unknown += d;
}

static void decide(const vs_summary *s, const vs_opts *o, velstatus_server_status *status, uint32_t *reasons)
{
    uint32_t r = 0;
    velstatus_server_status st;
    int def_available = 0;
    if (s->def) {
        unsigned char stale;
        def_available = bsl_count(s->def, o, &stale) == VS_CNT_A;
    }
    if (s->n == 0)
        r |= VELSTATUS_SERVER_REASON_NO_BSL;
    if (s->a == 0 && s->p > 0)
        r |= VELSTATUS_SERVER_REASON_PENDING;
    if (s->n > 0 && s->u == s->n)
        r |= VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE;
    if (s->u > 0 && s->u < s->n)
        r |= VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE;
    if (s->p > 0 && s->p < s->n)
        r |= VELSTATUS_SERVER_REASON_SOME_PENDING;
    if (s->n > 0 && !s->def)
        r |= VELSTATUS_SERVER_REASON_NO_DEFAULT;
    if (!o->defloc && s->ndefault > 1)
        r |= VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS;
    if (s->def && !def_available)
        r |= VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE;
    if (s->def && s->def->access == VELSTATUS_BSL_READ_ONLY)
        r |= VELSTATUS_SERVER_REASON_DEFAULT_READONLY;
    if (s->stale > 0)
        r |= VELSTATUS_SERVER_REASON_STALE;
    if (s->unknown > 0)
        r |= VELSTATUS_SERVER_REASON_UNKNOWN_PHASE;
    if (s->never_validated > 0)
        r |= VELSTATUS_SERVER_REASON_NEVER_VALIDATED;

    if (s->n == 0)
        st = VELSTATUS_SERVER_WAITING;
    else if (s->a == 0 && s->p > 0)
        st = VELSTATUS_SERVER_WAITING;
    else if (s->a == 0)
        st = o->three_state ? VELSTATUS_SERVER_WAITING : VELSTATUS_SERVER_NOT_READY;
    else if (s->a == s->n && s->def && !(r & VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS) &&
             s->def->access == VELSTATUS_BSL_READ_WRITE)
        st = VELSTATUS_SERVER_READY;
    else
        st = VELSTATUS_SERVER_PARTIALLY_READY;
    *status = st;
    *reasons = r;
}

/* Whether BSL b stands behind reason flag i. */
static int behind(unsigned i, const vs_bsl *b, unsigned char cnt, unsigned char stale, const vs_summary *s)
{
    switch (i) {
    case 1: /* pending */
    case 4: /* some_pending */ return cnt == VS_CNT_P;
    case 2: /* all_unavailable */
    case 3: /* some_unavailable */ return cnt == VS_CNT_U;
    case 6: /* multiple_defaults */ return b->is_default;
    case 7: /* default_not_available */
    case 8: /* default_readonly */ return b == s->def;
    case 9: /* stale */ return (stale & VS_STALE) != 0;
    case 10: /* unknown_phase */ return b->pclass == VS_PH_UNKNOWN;
    case 11: /* never_validated */ return (stale & VS_NEVER_VALIDATED) != 0;
    default: /* no_bsl, no_default */ return 0;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* "(a, b, c, +2 more)" from flag i's sorted list. */
static void put_names(velstatus__buf *b, const velstatus_server_verdict *v, unsigned i)
{
    size_t n = v->start[i + 1] - v->start[i];
    velstatus__buf_puts(b, " (");
    for (size_t k = 0; k < n && k < 3; k++) {
        if (k)
            velstatus__buf_puts(b, ", ");
        velstatus__buf_puts(b, v->names[v->start[i] + k]);
    }
    if (n > 3)
        velstatus__buf_printf(b, ", +%zu more", n - 3);
    velstatus__buf_putc(b, ')');
}

static void clause(velstatus__buf *b, int *first)
{
    if (!*first)
        velstatus__buf_puts(b, "; ");
    *first = 0;
}

/* The clauses of the two reasons staleness checking sets. */
static void stale_clauses(velstatus__buf *b, const velstatus_server_verdict *v, const vs_opts *o, int *first)
{
    char d[VELSTATUS_DURATION_BUFSIZE];
    if (velstatus_duration_format(d, sizeof(d), o->stale_after_ns, NULL) != VELSTATUS_OK)
        d[0] = '\0';
    if (v->reasons & VELSTATUS_SERVER_REASON_STALE) {
        clause(b, first);
        velstatus__buf_printf(b, "last validation missing or older than %s", d);
        put_names(b, v, 9);
    }
    if (v->reasons & VELSTATUS_SERVER_REASON_NEVER_VALIDATED) {
        clause(b, first);
        velstatus__buf_printf(b, "never validated in the %s since creation", d);
        put_names(b, v, 11);
    }
}

static void build_message(velstatus__buf *b, const velstatus_server_verdict *v, const vs_opts *o)
{
    uint32_t r = v->reasons;
    size_t n = v->total;
    int first = 1;
    if (v->status == VELSTATUS_SERVER_READY) {
        velstatus__buf_printf(b, "all %zu backup storage location%s available; default: %s", n, plural(n),
                              v->default_name);
        return;
    }
    if (r & VELSTATUS_SERVER_REASON_NO_BSL) {
        clause(b, &first);
        velstatus__buf_puts(b, "no backup storage locations");
    }
    if (r & (VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE | VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE)) {
        clause(b, &first);
        velstatus__buf_printf(b, "%zu of %zu backup storage location%s unavailable", v->unavailable, n, plural(n));
        put_names(b, v, (r & VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE) ? 2 : 3);
    }
    if (r & (VELSTATUS_SERVER_REASON_PENDING | VELSTATUS_SERVER_REASON_SOME_PENDING)) {
        clause(b, &first);
        velstatus__buf_printf(b, "%zu of %zu backup storage location%s pending validation", v->pending, n, plural(n));
        put_names(b, v, (r & VELSTATUS_SERVER_REASON_PENDING) ? 1 : 4);
    }
    if (r & (VELSTATUS_SERVER_REASON_STALE | VELSTATUS_SERVER_REASON_NEVER_VALIDATED))
        stale_clauses(b, v, o, &first);
    if (r & VELSTATUS_SERVER_REASON_UNKNOWN_PHASE) {
        clause(b, &first);
        velstatus__buf_puts(b, "unknown phase");
        put_names(b, v, 10);
    }
    if (r & VELSTATUS_SERVER_REASON_NO_DEFAULT) {
        clause(b, &first);
        if (o->defloc)
            velstatus__buf_printf(b, "default location \"%.*s\" not found",
                                  (int)(o->defloc_len > 253 ? 253 : o->defloc_len), o->defloc);
        else
            velstatus__buf_puts(b, "no default backup storage location");
    }
    if (r & VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS) {
        clause(b, &first);
        velstatus__buf_printf(b, "%zu backup storage locations marked default", v->start[7] - v->start[6]);
        put_names(b, v, 6);
        velstatus__buf_printf(b, "; using the newest: %s", v->default_name);
    }
    if (r & VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE) {
        clause(b, &first);
        velstatus__buf_printf(b, "default not available (%s)", v->default_name);
    }
    if (r & VELSTATUS_SERVER_REASON_DEFAULT_READONLY) {
        clause(b, &first);
        velstatus__buf_printf(b, "default is read-only (%s)", v->default_name);
    }
}

void velstatus_server_verdict_free(velstatus_server_verdict *v)
{
    if (!v)
        return;
    velstatus__free(v->ctx, v->names);
    velstatus__free(v->ctx, v->pool);
    velstatus__free(v->ctx, v->message);
    velstatus__free(v->ctx, v->ns);
    velstatus__free(v->ctx, v);
}

/* Builds the verdict of the BSLs bs[0..n) under the summary s. */
static velstatus_status build_verdict(velstatus_server_verdict **out, velstatus_ctx *ctx, vs_bsl *const *bs, size_t n,
                                      const vs_summary *s, const vs_opts *o, velstatus_error *err)
{
    velstatus_server_verdict *v;
    size_t counts[VS_NREASONS] = {0}, total = 0, bytes = 0, pos[VS_NREASONS];
    char *pool;
    velstatus__buf mb;
    velstatus_status st;

    v = velstatus__calloc(ctx, 1, sizeof(*v));
    if (!v)
        return velstatus__error_nomem(err);
    v->ctx = ctx;
    decide(s, o, &v->status, &v->reasons);
    v->available = s->a;
    v->unavailable = s->u;
    v->pending = s->p;
    v->total = s->n;

    /* sizes */
    for (size_t k = 0; k < n; k++) {
        unsigned char stale, cnt = bsl_count(bs[k], o, &stale);
        for (unsigned i = 0; i < VS_NREASONS; i++)
            if ((v->reasons & R(i)) && behind(i, bs[k], cnt, stale, s)) {
                counts[i]++;
                total++;
                bytes += bs[k]->name_len + 1;
            }
    }
    if (s->def)
        bytes += s->def->name_len + 1;
    v->names = velstatus__calloc(ctx, total ? total : 1, sizeof(*v->names));
    v->pool = velstatus__alloc(ctx, bytes ? bytes : 1);
    if (!v->names || !v->pool) {
        velstatus_server_verdict_free(v);
        return velstatus__error_nomem(err);
    }
    pool = v->pool;
    v->start[0] = 0;
    for (unsigned i = 0; i < VS_NREASONS; i++) {
        v->start[i + 1] = v->start[i] + counts[i];
        pos[i] = v->start[i];
    }
    if (s->def)
        v->default_name = pack_text(&pool, bsl_name(s->def), s->def->name_len);
    /* each BSL's name is copied once per list it appears in; lists are short */
    for (size_t k = 0; k < n; k++) {
        unsigned char stale, cnt = bsl_count(bs[k], o, &stale);
        for (unsigned i = 0; i < VS_NREASONS; i++)
            if ((v->reasons & R(i)) && behind(i, bs[k], cnt, stale, s))
                v->names[pos[i]++] = pack_text(&pool, bsl_name(bs[k]), bs[k]->name_len);
    }
    for (unsigned i = 0; i < VS_NREASONS; i++)
        if (counts[i] > 1)
            qsort(v->names + v->start[i], counts[i], sizeof(*v->names), cmp_str);

    velstatus__buf_init(&mb, ctx);
    build_message(&mb, v, o);
    st = velstatus__buf_finish(&mb, &v->message, NULL, err);
    if (st != VELSTATUS_OK) {
        velstatus_server_verdict_free(v);
        return st;
    }
    *out = v;
    return VELSTATUS_OK;
}

/* The summary of the BSLs bs[0..n) of a set, in one pass; the default
 * named by the options is looked up by name, in namespace `ns` when given. */
static void set_summary(vs_summary *s, const velstatus_bsl_set *set, vs_bsl *const *bs, size_t n, const vs_opts *o,
                        const char *ns, size_t ns_len)
{
    memset(s, 0, sizeof(*s));
    s->n = n;
    for (size_t k = 0; k < n; k++) {
        const vs_bsl *b = bs[k];
        unsigned char stale, cnt = bsl_count(b, o, &stale);
        summary_count(s, b, cnt, stale, 1);
        if (b->is_default) {
            s->ndefault++;
            if (!o->defloc && (!s->def || default_better(b, s->def)))
                s->def = b;
        }
    }
    if (o->defloc) {
        vs_key k = {o->defloc, ns, o->defloc_len, ns_len, ns ? VS_BY_NS_NAME : VS_BY_NAME};
        s->def = set_lookup(&set->tab, set->items, set->n, &k);
    }
}

velstatus_status velstatus_server_status_classify(velstatus_server_verdict **out, const velstatus_bsl_set *set,
                                                  const velstatus_server_status_options *opts, velstatus_error *err)
{
    vs_opts o;
    vs_summary s;
    if (!out || !set)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or set is NULL");
    *out = NULL;
    VS_TRY(velstatus__ss_load_opts(&o, opts, err));
    set_summary(&s, set, (vs_bsl *const *)set->items, set->n, &o, NULL, 0);
    return build_verdict(out, set->ctx, (vs_bsl *const *)set->items, set->n, &s, &o, err);
}

velstatus_status velstatus_server_status_classify_namespace(velstatus_server_verdict **out,
                                                            const velstatus_bsl_set *set, const char *ns, size_t ns_len,
                                                            const velstatus_server_status_options *opts,
                                                            velstatus_error *err)
{
    vs_opts o;
    vs_summary s;
    vs_bsl **bs;
    size_t n = 0;
    velstatus_status st;
    vs_key k = {NULL, ns, 0, velstatus__text_len(ns, ns_len), VS_BY_NS};
    if (!out || !set || (!ns && k.ns_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out, set or ns is NULL");
    *out = NULL;
    if (!ns)
        k.ns = "";
    VS_TRY(velstatus__ss_load_opts(&o, opts, err));
    bs = velstatus__calloc(set->ctx, set->n ? set->n : 1, sizeof(*bs));
    if (!bs)
        return velstatus__error_nomem(err);
    for (size_t i = 0; i < set->n; i++)
        if (key_eq(set->items[i], &k))
            bs[n++] = set->items[i];
    set_summary(&s, set, bs, n, &o, k.ns, k.ns_len);
    st = build_verdict(out, set->ctx, bs, n, &s, &o, err);
    velstatus__free(set->ctx, bs);
    if (st == VELSTATUS_OK && !((*out)->ns = velstatus__strndup(set->ctx, k.ns, k.ns_len))) {
        velstatus_server_verdict_free(*out);
        *out = NULL;
        return velstatus__error_nomem(err);
    }
    return st;
}

/* ---- verdict getters ---- */

velstatus_ctx *velstatus__ss_verdict_ctx(const velstatus_server_verdict *v)
{
    return v->ctx;
}

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_status, velstatus_server_status, status,
          VELSTATUS_SERVER_INVALID)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_reasons, uint32_t, reasons, 0)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_available, size_t, available, 0)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_unavailable, size_t, unavailable, 0)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_pending, size_t, pending, 0)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_total, size_t, total, 0)

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_default, const char *, default_name, NULL)

size_t velstatus_server_verdict_name_count(const velstatus_server_verdict *v, velstatus_server_reason reason)
{
    int i = reason_index((uint32_t)reason);
    if (!v || i < 0)
        return 0;
    return v->start[i + 1] - v->start[i];
}

const char *velstatus_server_verdict_name(const velstatus_server_verdict *v, velstatus_server_reason reason, size_t k)
{
    int i = reason_index((uint32_t)reason);
    if (!v || i < 0 || k >= v->start[i + 1] - v->start[i])
        return NULL;
    return v->names[v->start[i] + k];
}

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_message, const char *, message, "")

VS_GETTER(velstatus_server_verdict, velstatus_server_verdict_namespace, const char *, ns, NULL)

/* ---- tracker ---- */

/* A relist replays the list in its order, every time: the BSL that came
 * VS_AHEAD events after this one last time (vs_bsl.ahead) is likely to come
 * VS_AHEAD events after it again. The tracker remembers the table indexes
 * of the last VS_AHEAD events (to teach each its successor) and the guess
 * for each of the next VS_AHEAD. While the guesses come true, it fetches
 * the guessed entry VS_AHEAD events before it is needed and looks there
 * before probing; once one fails, it neither fetches nor looks (a random
 * order costs no extra line) until a guess comes true again. A guess is
 * only a hint: a table index that an entry's move or the table's growth
 * made stale is checked as any other (bench/README.md, issue 25). */
enum { VS_AHEAD = 8 };
typedef struct vs_order {
    uint32_t recent[VS_AHEAD]; /* the table indexes of the last VS_AHEAD upserts, by event number mod VS_AHEAD */
    uint32_t guess[VS_AHEAD];  /* the table index guessed for each of the next VS_AHEAD upserts, the same */
    unsigned seq;              /* the event number, mod VS_AHEAD */
    int streak;                /* the last upsert's BSL was where it was guessed */
} vs_order;

/* The tracker's BSLs live in its table itself, one 64-byte line each
 * (vs_bsl): open addressing, linear probing, load <= 7/8, backward-shift
 * deletion. At 100,000 BSLs that is 8 MiB (16 at load <= 1/2): the one
 * line an upsert misses is found in fewer pages, and a longer probe reads
 * the lines that follow, which the hardware fetches ahead. The line is
 * asked for as soon as the name is hashed, while the record is checked;
 * in a replayed order, VS_AHEAD events before (vs_order above). An entry
 * moves when the table grows or a deletion shifts it; the default heap
 * holds table indexes, which a move keeps current, and so does the learned
 * order when the table grows (a deletion's shift leaves it a stale hint). */
struct velstatus_server_tracker {
    velstatus_ctx *ctx;
    vs_opts o;
    char *defloc; /* our copy of o.defloc */
    uint64_t defloc_hash;
    void *mem;    /* the table's allocation */
    vs_bsl *ents; /* cap entries in mem, aligned to 64 bytes */
    size_t cap;   /* 0 or a power of two */
    size_t n;
    /* Max-heap of the table indexes of the BSLs with spec.default, best
     * default (default_better) on top. */
    size_t *heap;
    size_t heap_n, heap_cap;
    vs_summary sum; /* its counts a, u, p, stale, unknown, kept by contribute */
    velstatus_server_status status;
    uint32_t reasons;
    int has_clock;         /* o.now_ns is a real instant: check_stale, or set_now called */
    int has_transition;    /* transition_ns is known */
    int64_t transition_ns; /* o.now_ns when the condition status last changed */
    vs_order order;        /* the order of the events, learned to fetch ahead */
};

static void heap_set(velstatus_server_tracker *t, size_t i, size_t e)
{
    t->heap[i] = e;
    t->ents[e].heap_idx = (uint32_t)i;
}

static int heap_better(const velstatus_server_tracker *t, size_t a, size_t b)
{
    return default_better(&t->ents[a], &t->ents[b]);
}

static void heap_up(velstatus_server_tracker *t, size_t i)
{
    size_t e = t->heap[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!heap_better(t, e, t->heap[parent]))
            break;
        heap_set(t, i, t->heap[parent]);
        i = parent;
    }
    heap_set(t, i, e);
}

static void heap_down(velstatus_server_tracker *t, size_t i)
{
    size_t e = t->heap[i];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, best = i, be = e;
        if (l < t->heap_n && heap_better(t, t->heap[l], be)) {
            best = l;
            be = t->heap[l];
        }
        if (r < t->heap_n && heap_better(t, t->heap[r], be))
            best = r;
        if (best == i)
            break;
        heap_set(t, i, t->heap[best]);
        i = best;
    }
    heap_set(t, i, e);
}

static void heap_push(velstatus_server_tracker *t, size_t e)
{
    heap_set(t, t->heap_n++, e);
    heap_up(t, t->heap_n - 1);
}

static void heap_remove(velstatus_server_tracker *t, size_t e)
{
    size_t i = t->ents[e].heap_idx, last = t->heap[--t->heap_n];
    if (i == t->heap_n)
        return;
    heap_set(t, i, last);
    heap_up(t, i);
    heap_down(t, t->ents[last].heap_idx);
}

static int heap_reserve(velstatus_server_tracker *t, size_t want)
{
    size_t *h = velstatus__array_reserve(t->ctx, t->heap, &t->heap_cap, want, sizeof(*h), 4);
    if (!h)
        return 0;
    t->heap = h;
    return 1;
}

/* The index of the BSL of that name (hash h), or SIZE_MAX. */
static size_t tt_find(const velstatus_server_tracker *t, const char *name, size_t len, uint64_t h)
{
    size_t mask = t->cap - 1, i;
    if (t->cap == 0)
        return SIZE_MAX;
    for (i = (size_t)h & mask; t->ents[i].used; i = (i + 1) & mask)
        if (t->ents[i].hash == h && name_eq(&t->ents[i], name, len))
            return i;
    return SIZE_MAX;
}

/* The free index where a BSL of hash h goes. */
static size_t tt_free_slot(const velstatus_server_tracker *t, uint64_t h)
{
    size_t mask = t->cap - 1, i;
    for (i = (size_t)h & mask; t->ents[i].used; i = (i + 1) & mask)
        ;
    return i;
}

/* Moves entry *e to index i, keeping the heap's index of it. */
static void tt_move(velstatus_server_tracker *t, size_t i, const vs_bsl *e)
{
    t->ents[i] = *e;
    if (e->is_default)
        t->heap[e->heap_idx] = i;
}

/* Index i of the table before it grew, as it is now (0: none). */
static uint32_t moved_to(const vs_bsl *old, size_t ocap, uint32_t i)
{
    return i < ocap && old[i].used ? old[i].heap_idx : 0;
}

/* The learned order carried into the grown table, whose entries' old
 * indexes went to where each entry now is (old[i].heap_idx): a relist
 * after the first list is guessed from its first event. */
static void order_moved(velstatus_server_tracker *t, const vs_bsl *old, size_t ocap)
{
    for (size_t j = 0; j < t->cap; j++)
        if (t->ents[j].used)
            t->ents[j].ahead = moved_to(old, ocap, t->ents[j].ahead);
    for (unsigned k = 0; k < VS_AHEAD; k++) {
        t->order.recent[k] = moved_to(old, ocap, t->order.recent[k]);
        t->order.guess[k] = moved_to(old, ocap, t->order.guess[k]);
    }
}

/* Makes room for `want` BSLs at load <= 7/8, so at least one slot stays
 * empty (positions in the heap are 32 bits). Leaves the tracker intact on
 * failure. */
static int tt_reserve(velstatus_server_tracker *t, size_t want)
{
    size_t cap = t->cap ? t->cap : 8, ocap = t->cap;
    vs_bsl *old = t->ents;
    char *mem;
    if (want > UINT32_MAX / 2 || want > SIZE_MAX / 4 / sizeof(*old))
        return 0;
    while (cap - cap / 8 < want)
        cap *= 2;
    if (cap == t->cap)
        return 1;
    mem = velstatus__calloc(t->ctx, cap + 1, sizeof(*old)); /* one more: room to align */
    if (!mem)
        return 0;
    t->ents = (vs_bsl *)(void *)(mem + (64 - (uintptr_t)mem % 64) % 64);
    t->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].used) {
            size_t j = tt_free_slot(t, old[i].hash);
            tt_move(t, j, &old[i]);
            old[i].heap_idx = (uint32_t)j; /* where it went, for the learned order */
        }
    order_moved(t, old, ocap);
    velstatus__free(t->ctx, t->mem);
    t->mem = mem;
    return 1;
}

/* Backward-shift deletion of index i: no tombstones. */
static void tt_remove_at(velstatus_server_tracker *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    for (;;) {
        size_t k;
        j = (j + 1) & mask;
        if (!t->ents[j].used)
            break;
        k = (size_t)t->ents[j].hash & mask;
        /* keep ents[j] where it is if its home k lies cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        tt_move(t, i, &t->ents[j]);
        i = j;
    }
    t->ents[i].used = 0;
    t->n--;
}

/* A new BSL of r's name (hash h) in the table, its fields still to fill;
 * *at receives its index. Everything is allocated first: a failure leaves
 * the tracker as it was. */
static velstatus_status tt_insert(velstatus_server_tracker *t, const velstatus_bsl_record *r, uint64_t h, size_t *at,
                                  velstatus_error *err)
{
    vs_bsl e;
    char *ext = NULL;
    if (r->name_len >= VS_NAME_INLINE && !(ext = velstatus__strndup(t->ctx, r->name, r->name_len)))
        return velstatus__error_nomem(err);
    if (!tt_reserve(t, t->n + 1) || (r->is_default && !heap_reserve(t, t->heap_n + 1))) {
        velstatus__free(t->ctx, ext);
        return velstatus__error_nomem(err);
    }
    memset(&e, 0, sizeof(e));
    bsl_name_set(&e, r->name, r->name_len, ext);
    e.hash = h;
    e.used = 1;
    *at = tt_free_slot(t, h);
    t->ents[*at] = e;
    t->n++;
    return VELSTATUS_OK;
}

#if defined(__GNUC__)
#define VS_PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define VS_PREFETCH_W(p) ((void)(p))
#endif

/* The table index of this upsert's BSL as the order guesses it, when the
 * guesses come true and that entry holds the name; else SIZE_MAX. */
static size_t order_guess(const velstatus_server_tracker *t, const char *name, size_t len, uint64_t h)
{
    size_t g = t->order.guess[t->order.seq];
    if (!t->order.streak || g >= t->cap || !t->ents[g].used || t->ents[g].hash != h || !name_eq(&t->ents[g], name, len))
        return SIZE_MAX;
    return g;
}

/* Learns that this upsert's BSL is at table index i: it is the successor
 * of the BSL VS_AHEAD events back, and its own successor, learned last
 * time, is the guess for VS_AHEAD events on, fetched now while guesses
 * come true. */
static void order_learn(velstatus_server_tracker *t, size_t i)
{
    vs_order *o = &t->order;
    unsigned k = o->seq;
    size_t back = o->recent[k], g;
    o->streak = o->guess[k] == i;
    if (back < t->cap)
        t->ents[back].ahead = (uint32_t)i;
    o->recent[k] = (uint32_t)i;
    g = o->guess[k] = t->ents[i].ahead;
    if (o->streak && g < t->cap)
        VS_PREFETCH_W(&t->ents[g]);
    o->seq = (k + 1) % VS_AHEAD;
}

/* Adds (sign 1) or removes (sign 0) a BSL's contribution to the counts,
 * using the classification cached in it. */
static void contribute(velstatus_server_tracker *t, const vs_bsl *b, int add)
{
    summary_count(&t->sum, b, b->cnt, b->stale, add ? 1 : (size_t)-1);
}

static void tracker_summary(const velstatus_server_tracker *t, vs_summary *s)
{
    *s = t->sum;
    s->n = t->n;
    s->ndefault = t->heap_n;
    if (t->o.defloc) {
        size_t i = tt_find(t, t->o.defloc, t->o.defloc_len, t->defloc_hash);
        s->def = i == SIZE_MAX ? NULL : &t->ents[i];
    } else {
        s->def = t->heap_n ? &t->ents[t->heap[0]] : NULL;
    }
}

static void tracker_update(velstatus_server_tracker *t, int *changed)
{
    vs_summary s;
    velstatus_server_status st;
    uint32_t r;
    tracker_summary(t, &s);
    decide(&s, &t->o, &st, &r);
    if (changed)
        *changed = st != t->status || r != t->reasons;
    if (velstatus__condition_status(st) != velstatus__condition_status(t->status)) {
        t->has_transition = t->has_clock;
        t->transition_ns = t->o.now_ns;
    }
    t->status = st;
    t->reasons = r;
}

velstatus_status velstatus_server_tracker_new(velstatus_server_tracker **out, velstatus_ctx *ctx,
                                              const velstatus_server_status_options *opts, velstatus_error *err)
{
    velstatus_server_tracker *t;
    vs_opts o;
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or ctx is NULL");
    *out = NULL;
    VS_TRY(velstatus__ss_load_opts(&o, opts, err));
    t = velstatus__calloc(ctx, 1, sizeof(*t));
    if (!t)
        return velstatus__error_nomem(err);
    t->ctx = ctx;
    t->o = o;
    if (o.defloc) {
        t->defloc = velstatus__strndup(ctx, o.defloc, o.defloc_len);
        if (!t->defloc) {
            velstatus__free(ctx, t);
            return velstatus__error_nomem(err);
        }
        t->o.defloc = t->defloc;
        t->defloc_hash = velstatus__hash_fnv1a(o.defloc, o.defloc_len);
    }
    t->has_clock = o.check_stale;
    tracker_update(t, NULL);
    t->has_transition = t->has_clock; /* the first status holds from creation */
    t->transition_ns = t->o.now_ns;
    *out = t;
    return VELSTATUS_OK;
}

/* A BSL's name kept apart from its entry (long names), or NULL. */
static char *tt_ext(const vs_bsl *b)
{
    return b->used && b->name_len >= VS_NAME_INLINE ? b->name.ext : NULL;
}

void velstatus_server_tracker_free(velstatus_server_tracker *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->cap; i++)
        velstatus__free(t->ctx, tt_ext(&t->ents[i]));
    velstatus__free(t->ctx, t->mem);
    velstatus__free(t->ctx, t->heap);
    velstatus__free(t->ctx, t->defloc);
    velstatus__free(t->ctx, t);
}

velstatus_ctx *velstatus__ss_tracker_ctx(const velstatus_server_tracker *t)
{
    return t->ctx;
}

velstatus_status velstatus_server_tracker_upsert(velstatus_server_tracker *t, int *changed,
                                                 const velstatus_bsl_record *bsl, velstatus_error *err)
{
    velstatus_bsl_record r;
    vs_bsl *b;
    size_t i;
    uint64_t h;
    if (changed)
        *changed = 0;
    if (!t || !bsl)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "tracker or bsl is NULL");
    VS_TRY(load_record(&r, bsl, err));
    h = r.name ? velstatus__hash_fnv1a(r.name, r.name_len) : 0;
    if (!t->order.streak && t->cap) /* the name's home line, fetched while the record is checked */
        VS_PREFETCH_W(&t->ents[(size_t)h & (t->cap - 1)]);
    VS_TRY(check_bsl_args(&r, err));
    i = order_guess(t, r.name, r.name_len, h);
    if (i == SIZE_MAX)
        i = tt_find(t, r.name, r.name_len, h);
    if (i == SIZE_MAX) {
        VS_TRY(tt_insert(t, &r, h, &i, err));
    } else {
        /* a tracked name: rewritten in place, nothing allocated or freed */
        if (r.is_default && !t->ents[i].is_default && !heap_reserve(t, t->heap_n + 1))
            return velstatus__error_nomem(err);
        contribute(t, &t->ents[i], 0);
        if (t->ents[i].is_default)
            heap_remove(t, i);
    }
    b = &t->ents[i];
    bsl_hot(b, &r);
    b->cnt = bsl_count(b, &t->o, &b->stale);
    contribute(t, b, 1);
    if (b->is_default)
        heap_push(t, i);
    order_learn(t, i);
    tracker_update(t, changed);
    return VELSTATUS_OK;
}

velstatus_status velstatus_server_tracker_delete(velstatus_server_tracker *t, int *changed, const char *name,
                                                 size_t name_len, velstatus_error *err)
{
    size_t slot;
    name_len = velstatus__text_len(name, name_len);
    if (changed)
        *changed = 0;
    if (!t || (!name && name_len))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "tracker or name is NULL");
    slot = tt_find(t, name ? name : "", name_len, velstatus__hash_fnv1a(name, name_len));
    if (slot == SIZE_MAX)
        return VELSTATUS_OK;
    contribute(t, &t->ents[slot], 0);
    if (t->ents[slot].is_default)
        heap_remove(t, slot);
    velstatus__free(t->ctx, tt_ext(&t->ents[slot]));
    tt_remove_at(t, slot);
    tracker_update(t, changed);
    return VELSTATUS_OK;
}

velstatus_status velstatus_server_tracker_set_now(velstatus_server_tracker *t, int *changed, int64_t now_ns,
                                                  velstatus_error *err)
{
    if (changed)
        *changed = 0;
    if (!t)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "tracker is NULL");
    t->o.now_ns = now_ns;
    t->has_clock = 1;
    if (!t->has_transition) { /* undated: dated now, as metav1.Condition allows */
        t->has_transition = 1;
        t->transition_ns = now_ns;
    }
    if (!t->o.check_stale)
        return VELSTATUS_OK; /* no staleness to re-evaluate: the clock only dates transitions */
    for (size_t i = 0; i < t->cap; i++) {
        vs_bsl *b = &t->ents[i];
        if (!b->used || (b->pclass != VS_PH_AVAILABLE && b->pclass != VS_PH_EMPTY))
            continue;
        contribute(t, b, 0);
        b->cnt = bsl_count(b, &t->o, &b->stale);
        contribute(t, b, 1);
    }
    tracker_update(t, changed);
    return VELSTATUS_OK;
}

VS_GETTER(velstatus_server_tracker, velstatus_server_tracker_status, velstatus_server_status, status,
          VELSTATUS_SERVER_INVALID)

VS_GETTER(velstatus_server_tracker, velstatus_server_tracker_reasons, uint32_t, reasons, 0)

int velstatus_server_tracker_last_transition(const velstatus_server_tracker *t, int64_t *ns)
{
    if (!t || !t->has_transition)
        return 0;
    if (ns)
        *ns = t->transition_ns;
    return 1;
}

VS_GETTER(velstatus_server_tracker, velstatus_server_tracker_count, size_t, n, 0)

velstatus_status velstatus_server_tracker_verdict(velstatus_server_verdict **out, const velstatus_server_tracker *t,
                                                  velstatus_error *err)
{
    vs_bsl **bs;
    size_t n = 0;
    vs_summary s;
    velstatus_status st;
    if (!out || !t)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or tracker is NULL");
    *out = NULL;
    bs = velstatus__calloc(t->ctx, t->n ? t->n : 1, sizeof(*bs));
    if (!bs)
        return velstatus__error_nomem(err);
    for (size_t i = 0; i < t->cap; i++)
        if (t->ents[i].used)
            bs[n++] = &t->ents[i];
    tracker_summary(t, &s);
    st = build_verdict(out, t->ctx, bs, n, &s, &t->o, err);
    velstatus__free(t->ctx, bs);
    return st;
}
