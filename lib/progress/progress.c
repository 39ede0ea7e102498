/* SPDX-License-Identifier: Apache-2.0 */
/* Progress aggregation over an operation list (doc/design.md §5, doc/velero-behaviour.md §3.4).
 * Definitions are in include/velstatus/progress.h; reasons in doc/progress.md. */
#include "progress/private.h"
#include "common/util_array.h"
#include "common/util_hash.h"

#include <stdlib.h>
#include <string.h>

/* ---- exact unsigned 128-bit arithmetic, for order-independent sums ---- */

typedef struct u128 {
    uint64_t hi, lo;
} u128;

static void u128_add64(u128 *a, uint64_t v)
{
    a->lo += v;
    if (a->lo < v)
        a->hi++;
}

static void u128_add(u128 *a, u128 b)
{
    u128_add64(a, b.lo);
    a->hi += b.hi;
}

static int u128_cmp(u128 a, u128 b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

static u128 u128_sub(u128 a, u128 b) /* a >= b */
{
    u128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo ? 1u : 0u);
    return r;
}

static u128 u128_shl1(u128 a)
{
    u128 r;
    r.hi = (a.hi << 1) | (a.lo >> 63);
    r.lo = a.lo << 1;
    return r;
}

static int u128_is_zero(u128 a)
{
    return a.hi == 0 && a.lo == 0;
}

static double u128_to_double(u128 a)
{
    return (double)a.hi * 18446744073709551616.0 + (double)a.lo;
}

/* floor(c * 10000 / t) for 0 < c < t (t < 2^127): binary long multiplication
 * with the remainder kept below t, so nothing overflows. */
static uint32_t pct_hundredths(u128 c, u128 t)
{
    u128 rem = {0, 0};
    uint32_t q = 0;
    int bit;
    for (bit = 13; bit >= 0; bit--) { /* 10000 < 2^14 */
        q *= 2;
        rem = u128_shl1(rem);
        if (u128_cmp(rem, t) >= 0) {
            rem = u128_sub(rem, t);
            q++;
        }
        if ((10000u >> bit) & 1u) {
            u128_add(&rem, c);
            while (u128_cmp(rem, t) >= 0) {
                rem = u128_sub(rem, t);
                q++;
            }
        }
    }
    return q;
}

uint32_t velstatus__pct_hundredths_u64(uint64_t c, uint64_t t)
{
    u128 cc = {0, c}, tt = {0, t};
    if (t == 0 || c == 0)
        return 0;
    if (c >= t)
        return 10000;
    return pct_hundredths(cc, tt);
}

/* A signed sum kept exactly as positive and negative magnitudes. */
typedef struct ssum {
    u128 pos, neg;
} ssum;

static void ssum_add(ssum *s, int64_t v)
{
    if (v >= 0)
        u128_add64(&s->pos, (uint64_t)v);
    else
        u128_add64(&s->neg, (uint64_t)(-(v + 1)) + 1u);
}

/* The exact value as sign and magnitude: returns -1, 0 or 1. */
static int ssum_value(const ssum *s, u128 *mag)
{
    int c = u128_cmp(s->pos, s->neg);
    if (c >= 0) {
        *mag = u128_sub(s->pos, s->neg);
        return u128_is_zero(*mag) ? 0 : 1;
    }
    *mag = u128_sub(s->neg, s->pos);
    return -1;
}

/* Clamped to int64; sets *saturated when clamping was needed. */
static int64_t ssum_clamp(const ssum *s, int *saturated)
{
    u128 mag;
    int sign = ssum_value(s, &mag);
    if (sign >= 0) {
        if (mag.hi != 0 || mag.lo > (uint64_t)INT64_MAX) {
            *saturated = 1;
            return INT64_MAX;
        }
        return (int64_t)mag.lo;
    }
    if (mag.hi != 0 || mag.lo > (uint64_t)INT64_MAX + 1u) {
        *saturated = 1;
        return INT64_MIN;
    }
    if (mag.lo == (uint64_t)INT64_MAX + 1u)
        return INT64_MIN;
    return -(int64_t)mag.lo;
}

/* ---- the report ---- */

typedef struct prog_group {
    char *unit;
    size_t unit_len;
    size_t operations;
    int64_t completed, total;
    uint32_t pct; /* hundredths of a percent */
    int has_rate, has_eta;
    uint64_t rate_milli; /* rate in thousandths of a unit per second */
    int64_t eta;
    uint32_t flags;
} prog_group;

struct velstatus_progress {
    velstatus_ctx *ctx;
    size_t counts[7];
    uint32_t flags;
    size_t ngroups;
    prog_group *groups;
};

#define MAX_ETA_SECONDS INT64_C(9223372036) /* floor(INT64_MAX ns / 1e9) */
#define RATE_INT_LIMIT 9007199254740992.0   /* 2^53 */

static int is_quantified(const velstatus__prog_op *op)
{
    return op->phase != VELSTATUS_OP_PHASE_UNKNOWN && op->n_total != 0;
}

/* Flags that depend on one record alone. */
static uint32_t op_value_flags(const velstatus__prog_op *op)
{
    uint32_t f = 0;
    if (op->n_completed < 0 || op->n_total < 0)
        f |= VELSTATUS_PROGRESS_F_NEGATIVE;
    if (op->n_completed > op->n_total)
        f |= VELSTATUS_PROGRESS_F_OVER_TOTAL;
    return f;
}

/* A unit group while the records are read (in list order). */
typedef struct prog_acc {
    const char *unit; /* borrowed from the input */
    size_t unit_len;
    uint64_t hash;
    size_t operations;
    ssum completed, total;
    u128 remaining;
    double rate;
    int rated;
    uint32_t flags;
} prog_acc;

static void acc_add(prog_acc *a, const velstatus__prog_op *op, int64_t now)
{
    a->operations++;
    a->flags |= op_value_flags(op);
    ssum_add(&a->completed, op->n_completed);
    ssum_add(&a->total, op->n_total);
    if (velstatus__op_phase_running((velstatus_op_phase)op->phase)) {
        uint64_t done = op->n_completed > 0 ? (uint64_t)op->n_completed : 0;
        if (op->n_total > 0 && (uint64_t)op->n_total > done)
            u128_add64(&a->remaining, (uint64_t)op->n_total - done);
    }
    if (op->phase == VELSTATUS_OP_PHASE_IN_PROGRESS) {
        int64_t end = op->has_updated ? op->updated : now;
        if (!op->has_started || end <= op->started || op->n_completed < 0) {
            a->flags |= VELSTATUS_PROGRESS_F_UNTIMED;
        } else {
            uint64_t elapsed = (uint64_t)end - (uint64_t)op->started;
            a->rate += (double)op->n_completed * 1e9 / (double)elapsed;
            a->rated = 1;
        }
    }
}

/* Turns an accumulated group into its reported values. */
static void acc_finish(prog_group *g, const prog_acc *a)
{
    u128 cmag, tmag;
    int sat = 0, cs, ts;
    g->operations = a->operations;
    g->flags = a->flags;
    g->completed = ssum_clamp(&a->completed, &sat);
    g->total = ssum_clamp(&a->total, &sat);
    cs = ssum_value(&a->completed, &cmag);
    ts = ssum_value(&a->total, &tmag);
    if (cs > 0 && ts > 0 && u128_cmp(cmag, tmag) > 0)
        g->flags |= VELSTATUS_PROGRESS_F_OVER_TOTAL;
    if (ts <= 0 || cs <= 0)
        g->pct = 0;
    else if (u128_cmp(cmag, tmag) >= 0)
        g->pct = 10000;
    else
        g->pct = pct_hundredths(cmag, tmag);
    if (a->rated) {
        g->has_rate = 1;
        if (a->rate * 1000.0 < 1e15) {
            g->rate_milli = (uint64_t)(a->rate * 1000.0 + 0.5);
        } else if (a->rate < RATE_INT_LIMIT) {
            g->rate_milli = (uint64_t)(a->rate + 0.5) * 1000u;
        } else {
            g->rate_milli = (uint64_t)RATE_INT_LIMIT * 1000u;
            sat = 1;
        }
        if (g->rate_milli > 0) {
            double eta = u128_to_double(a->remaining) / ((double)g->rate_milli / 1000.0);
            g->has_eta = 1;
            if (eta > (double)MAX_ETA_SECONDS) {
                g->eta = MAX_ETA_SECONDS;
                sat = 1;
            } else {
                g->eta = (int64_t)eta; /* ceil without libm */
                if ((double)g->eta < eta)
                    g->eta++;
            }
        }
    }
    if (sat)
        g->flags |= VELSTATUS_PROGRESS_F_SATURATED;
}

void velstatus_progress_free(velstatus_progress *report)
{
    size_t i;
    if (!report)
        return;
    for (i = 0; i < report->ngroups; i++)
        velstatus__free(report->ctx, report->groups[i].unit);
    velstatus__free(report->ctx, report->groups);
    velstatus__free(report->ctx, report);
}

/* ---- grouping: a hash table of the distinct units, then a sort of those ---- */

typedef struct prog_groups {
    velstatus_ctx *ctx;
    prog_acc *accs;
    size_t n, cap;
    size_t *slots; /* acc index + 1; 0 = empty */
    size_t nslots; /* a power of two, > 2 * n */
} prog_groups;

static int same_unit(const prog_acc *a, const char *s, size_t len)
{
    return a->unit_len == len && (len == 0 || memcmp(a->unit, s, len) == 0);
}

static void slot_put(size_t *slots, size_t nslots, uint64_t h, size_t value)
{
    size_t i = (size_t)h & (nslots - 1);
    while (slots[i])
        i = (i + 1) & (nslots - 1);
    slots[i] = value;
}

/* The accumulator of a unit, created on first sight; NULL when out of memory. */
static prog_acc *group_of(prog_groups *t, const char *s, size_t len)
{
    uint64_t h = velstatus__hash_fnv1a(s, len);
    size_t i, k;
    prog_acc *a;
    if (t->nslots) {
        for (i = (size_t)h & (t->nslots - 1); t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
            a = &t->accs[t->slots[i] - 1];
            if (a->hash == h && same_unit(a, s, len))
                return a;
        }
    }
    a = velstatus__array_reserve(t->ctx, t->accs, &t->cap, t->n + 1, sizeof(*a), 8);
    if (!a)
        return NULL;
    t->accs = a;
    if ((t->n + 1) * 2 >= t->nslots) {
        size_t nn = t->nslots ? t->nslots * 2 : 16;
        size_t *ns = velstatus__calloc(t->ctx, nn, sizeof(*ns));
        if (!ns)
            return NULL;
        for (k = 0; k < t->n; k++)
            slot_put(ns, nn, t->accs[k].hash, k + 1);
        velstatus__free(t->ctx, t->slots);
        t->slots = ns;
        t->nslots = nn;
    }
    a = &t->accs[t->n];
    memset(a, 0, sizeof(*a));
    a->unit = s;
    a->unit_len = len;
    a->hash = h;
    slot_put(t->slots, t->nslots, h, ++t->n);
    return a;
}

static int cmp_acc(const void *x, const void *y)
{
    const prog_acc *a = *(const prog_acc *const *)x, *b = *(const prog_acc *const *)y;
    size_t n = a->unit_len < b->unit_len ? a->unit_len : b->unit_len;
    int c = n ? memcmp(a->unit, b->unit, n) : 0;
    if (c != 0)
        return c;
    return a->unit_len < b->unit_len ? -1 : a->unit_len > b->unit_len; /* never equal: units are distinct */
}

/* Counts a record's phase; 0 when it is not New, InProgress, Completed or
 * Failed (then it is not aggregated). */
static int count_phase(velstatus_progress *r, const velstatus__prog_op *op)
{
    int k;
    switch (op->phase) {
    case VELSTATUS_OP_PHASE_NEW: k = VELSTATUS_PROGRESS_NEW; break;
    case VELSTATUS_OP_PHASE_IN_PROGRESS: k = VELSTATUS_PROGRESS_IN_PROGRESS; break;
    case VELSTATUS_OP_PHASE_COMPLETED: k = VELSTATUS_PROGRESS_COMPLETED; break;
    case VELSTATUS_OP_PHASE_FAILED: k = VELSTATUS_PROGRESS_FAILED; break;
    case VELSTATUS_OP_PHASE_UNKNOWN:
    default:
        r->counts[VELSTATUS_PROGRESS_UNKNOWN_PHASE]++;
        r->flags |= VELSTATUS_PROGRESS_F_UNKNOWN_PHASE;
        return 0;
    }
    r->counts[k]++;
    return 1;
}

/* Where the build reads its records: an array (velstatus__progress_build,
 * the tests), or an oplist read one record at a time into a local, so that
 * velstatus_progress_new() copies nothing per record. */
typedef struct prog_src {
    const velstatus__prog_op *ops;
    const velstatus_oplist *list;
} prog_src;

/* What the aggregation reads of a record, through its getters. */
static const velstatus__prog_op *prog_op_of(velstatus__prog_op *tmp, const velstatus_op *op)
{
    tmp->phase = velstatus_op_phase_value(op);
    tmp->n_completed = velstatus_op_n_completed(op);
    tmp->n_total = velstatus_op_n_total(op);
    tmp->units = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &tmp->units_len);
    if (!tmp->units)
        tmp->units_len = 0;
    tmp->has_started = velstatus_op_time_value(op, VELSTATUS_OP_TIME_STARTED, &tmp->started);
    tmp->has_updated = velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &tmp->updated);
    return tmp;
}

static const velstatus__prog_op *src_at(const prog_src *src, size_t i, velstatus__prog_op *tmp)
{
    if (src->ops)
        return &src->ops[i];
    return prog_op_of(tmp, velstatus_oplist_at(src->list, i));
}

/* One pass in list order: phase counts, then each quantified record into
 * its unit's accumulator (the previous record's unit is tried first).
 * 0, or -1 when out of memory. */
static int accumulate(velstatus_progress *r, prog_groups *t, const prog_src *src, size_t n, int64_t now_ns)
{
    prog_acc *last = NULL;
    velstatus__prog_op tmp;
    size_t i;
    for (i = 0; i < n; i++) {
        const velstatus__prog_op *op = src_at(src, i, &tmp);
        if (!count_phase(r, op))
            continue;
        if (!is_quantified(op)) {
            r->counts[VELSTATUS_PROGRESS_UNQUANTIFIED]++;
            r->flags |= op_value_flags(op);
            continue;
        }
        if (!last || !same_unit(last, op->units, op->units_len)) {
            last = group_of(t, op->units, op->units_len);
            if (!last)
                return -1;
        }
        acc_add(last, op, now_ns);
    }
    return 0;
}

/* The unit groups, sorted by unit, each finished from its accumulator.
 * 0, or -1 when out of memory (r->ngroups counts the groups to free). */
static int finish_groups(velstatus_progress *r, const prog_groups *t)
{
    prog_acc **order;
    size_t i;
    if (!t->n)
        return 0;
    order = velstatus__calloc(r->ctx, t->n, sizeof(*order));
    r->groups = velstatus__calloc(r->ctx, t->n, sizeof(*r->groups));
    if (!order || !r->groups) {
        velstatus__free(r->ctx, order);
        return -1;
    }
    for (i = 0; i < t->n; i++)
        order[i] = &t->accs[i];
    qsort(order, t->n, sizeof(*order), cmp_acc);
    for (i = 0; i < t->n; i++) {
        prog_group *g = &r->groups[i];
        g->unit = velstatus__strndup(r->ctx, order[i]->unit, order[i]->unit_len);
        if (!g->unit)
            break;
        r->ngroups = i + 1;
        g->unit_len = order[i]->unit_len;
        acc_finish(g, order[i]);
        r->flags |= g->flags;
    }
    velstatus__free(r->ctx, order);
    return i == t->n ? 0 : -1;
}

static velstatus_status build(velstatus_progress **out, velstatus_ctx *ctx, const prog_src *src, size_t n,
                              int64_t now_ns, velstatus_error *err)
{
    velstatus_progress *r;
    prog_groups t;
    int rc;
    memset(&t, 0, sizeof(t));
    t.ctx = ctx;
    r = velstatus__calloc(ctx, 1, sizeof(*r));
    if (!r)
        return velstatus__error_nomem(err);
    r->ctx = ctx;
    r->counts[VELSTATUS_PROGRESS_ATTEMPTED] = n;
    rc = accumulate(r, &t, src, n, now_ns);
    if (rc == 0)
        rc = finish_groups(r, &t);
    velstatus__free(ctx, t.slots);
    velstatus__free(ctx, t.accs);
    if (rc != 0) {
        velstatus_progress_free(r);
        return velstatus__error_nomem(err);
    }
    *out = r;
    return VELSTATUS_OK;
}

velstatus_status velstatus__progress_build(velstatus_progress **out, velstatus_ctx *ctx, const velstatus__prog_op *ops,
                                           size_t n, int64_t now_ns, velstatus_error *err)
{
    prog_src src = {ops, NULL};
    return build(out, ctx, &src, n, now_ns, err);
}

int velstatus__progress_op_eta(const velstatus_op *op, int64_t now_ns, int64_t *seconds)
{
    velstatus__prog_op tmp;
    prog_acc a;
    prog_group g;
    memset(&a, 0, sizeof(a));
    memset(&g, 0, sizeof(g));
    *seconds = 0;
    if (!is_quantified(prog_op_of(&tmp, op)))
        return 0;
    acc_add(&a, &tmp, now_ns);
    acc_finish(&g, &a);
    *seconds = g.eta;
    return g.has_eta;
}

velstatus_status velstatus_progress_new(velstatus_progress **out, velstatus_ctx *ctx, const velstatus_oplist *ops,
                                        int64_t now_ns, velstatus_error *err)
{
    prog_src src = {NULL, ops};
    if (!out || !ctx || !ops)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_progress_new: %s is NULL",
                                    !out   ? "out"
                                    : !ctx ? "ctx"
                                           : "ops");
    return build(out, ctx, &src, velstatus_oplist_count(ops), now_ns, err);
}

/* ---- tokens ---- */

static const char *const counter_names[] = {"attempted", "new",           "in_progress", "completed",
                                            "failed",    "unknown_phase", "unquantified"};
_Static_assert(VS_N(counter_names) == VELSTATUS_PROGRESS_UNQUANTIFIED + 1, "progress counter token table");
/* table[i] is the token of flag 1 << i. */
static const char *const flag_names[] = {"unknown_phase", "over_total", "negative", "saturated", "untimed"};
_Static_assert(VELSTATUS_PROGRESS_F_UNTIMED == 1 << (VS_N(flag_names) - 1), "progress flag token table");

VS_ENUM_TOKENS(progress_counter, velstatus_progress_counter, counter_names, "progress counter")

VS_FLAG_TOKENS(progress_flag, velstatus_progress_flag, flag_names, "progress flag")

/* ---- getters ---- */

size_t velstatus_progress_count(const velstatus_progress *report, velstatus_progress_counter which)
{
    if (!report || (int)which < 0 || (size_t)which >= sizeof(report->counts) / sizeof(report->counts[0]))
        return 0;
    return report->counts[which];
}

uint32_t velstatus_progress_flags(const velstatus_progress *report)
{
    return report ? report->flags : 0;
}

size_t velstatus_progress_unit_count(const velstatus_progress *report)
{
    return report ? report->ngroups : 0;
}

static const prog_group *group_at(const velstatus_progress *report, size_t index)
{
    if (!report || index >= report->ngroups)
        return NULL;
    return &report->groups[index];
}

const char *velstatus_progress_unit_name(const velstatus_progress *report, size_t index, size_t *len)
{
    const prog_group *g = group_at(report, index);
    if (len)
        *len = g ? g->unit_len : 0;
    return g ? g->unit : NULL;
}

size_t velstatus_progress_unit_operations(const velstatus_progress *report, size_t index)
{
    const prog_group *g = group_at(report, index);
    return g ? g->operations : 0;
}

int64_t velstatus_progress_unit_completed(const velstatus_progress *report, size_t index)
{
    const prog_group *g = group_at(report, index);
    return g ? g->completed : 0;
}

int64_t velstatus_progress_unit_total(const velstatus_progress *report, size_t index)
{
    const prog_group *g = group_at(report, index);
    return g ? g->total : 0;
}

double velstatus_progress_unit_percent(const velstatus_progress *report, size_t index)
{
    const prog_group *g = group_at(report, index);
    return g ? (double)g->pct / 100.0 : 0.0;
}

static double rate_value(const prog_group *g)
{
    if (g->rate_milli % 1000u == 0)
        return (double)(g->rate_milli / 1000u);
    return (double)g->rate_milli / 1000.0;
}

int velstatus_progress_unit_rate(const velstatus_progress *report, size_t index, double *per_second)
{
    const prog_group *g = group_at(report, index);
    int known = g && g->has_rate;
    if (per_second)
        *per_second = known ? rate_value(g) : 0.0;
    return known;
}

int velstatus_progress_unit_eta(const velstatus_progress *report, size_t index, int64_t *seconds)
{
    const prog_group *g = group_at(report, index);
    return velstatus__i64_out(seconds, g && g->has_eta, g ? g->eta : 0);
}

uint32_t velstatus_progress_unit_flags(const velstatus_progress *report, size_t index)
{
    const prog_group *g = group_at(report, index);
    return g ? g->flags : 0;
}

/* ---- number formatting ---- */

size_t velstatus__fmt_u64(char *buf, uint64_t v)
{
    char tmp[VELSTATUS__I64_BUFSIZE];
    size_t n = 0, i;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

size_t velstatus__fmt_i64(char *buf, int64_t v)
{
    if (v < 0) {
        buf[0] = '-';
        return 1 + velstatus__fmt_u64(buf + 1, (uint64_t)(-(v + 1)) + 1u);
    }
    return velstatus__fmt_u64(buf, (uint64_t)v);
}

void velstatus__fmt_fixed(velstatus__buf *b, uint64_t scaled, unsigned decimals)
{
    char num[VELSTATUS__I64_BUFSIZE], frac[VELSTATUS__I64_BUFSIZE];
    uint64_t div = 1;
    unsigned i;
    size_t n;
    for (i = 0; i < decimals; i++)
        div *= 10u;
    n = velstatus__fmt_u64(num, scaled / div);
    velstatus__buf_append(b, num, n);
    if (decimals == 0 || scaled % div == 0)
        return;
    {
        uint64_t f = scaled % div;
        for (i = decimals; i > 0; i--) {
            frac[i - 1] = (char)('0' + (int)(f % 10u));
            f /= 10u;
        }
        n = decimals;
        while (n > 0 && frac[n - 1] == '0')
            n--;
        velstatus__buf_putc(b, '.');
        velstatus__buf_append(b, frac, n);
    }
}

void velstatus__fmt_iec(velstatus__buf *b, int64_t bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    uint64_t v, d = 1024u, tenths;
    char num[VELSTATUS__I64_BUFSIZE];
    size_t n;
    int k = 0;
    if (bytes < 0) {
        velstatus__buf_putc(b, '-');
        v = (uint64_t)(-(bytes + 1)) + 1u;
    } else {
        v = (uint64_t)bytes;
    }
    if (v < 1024u) {
        n = velstatus__fmt_u64(num, v);
        velstatus__buf_append(b, num, n);
        velstatus__buf_puts(b, " B");
        return;
    }
    while (k < 5 && v / d >= 1024u) {
        d *= 1024u;
        k++;
    }
    tenths = v / d * 10u + v % d * 10u / d; /* v % d < 2^60: no overflow */
    velstatus__fmt_fixed(b, tenths / 10u, 0);
    velstatus__buf_putc(b, '.');
    velstatus__buf_putc(b, (char)('0' + (int)(tenths % 10u)));
    velstatus__buf_putc(b, ' ');
    velstatus__buf_puts(b, units[k]);
}

/* ---- the one-line summary and the JSON ---- */

static int is_bytes_unit(const char *s, size_t len)
{
    static const char want[] = "bytes";
    size_t i;
    if (len != 5)
        return 0;
    for (i = 0; i < 5; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != want[i])
            return 0;
    }
    return 1;
}

static void put_i64(velstatus__buf *b, int64_t v)
{
    char num[VELSTATUS__I64_BUFSIZE];
    size_t n = velstatus__fmt_i64(num, v);
    velstatus__buf_append(b, num, n);
}

static void put_size(velstatus__buf *b, size_t v)
{
    char num[VELSTATUS__I64_BUFSIZE];
    size_t n = velstatus__fmt_u64(num, (uint64_t)v);
    velstatus__buf_append(b, num, n);
}

/* A group's amount: in IEC units (KiB, MiB, ...) for a byte unit. */
static void put_amount(velstatus__buf *b, int bytes, int64_t v)
{
    if (bytes)
        velstatus__fmt_iec(b, v);
    else
        put_i64(b, v);
}

/* One count of the summary: sep, n, then what n counts. */
static void put_count(velstatus__buf *b, const char *sep, size_t n, const char *what)
{
    velstatus__buf_puts(b, sep);
    put_size(b, n);
    velstatus__buf_puts(b, what);
}

static void write_summary(velstatus__buf *b, const velstatus_progress *r)
{
    /* the counts named after "N failed" when they are not 0 */
    static const struct {
        velstatus_progress_counter count;
        const char *what;
    } optional[] = {{VELSTATUS_PROGRESS_IN_PROGRESS, " in progress"},
                    {VELSTATUS_PROGRESS_NEW, " new"},
                    {VELSTATUS_PROGRESS_UNKNOWN_PHASE, " with unknown phase"}};
    const size_t *c = r->counts;
    size_t i;
    if (c[VELSTATUS_PROGRESS_ATTEMPTED] == 0) {
        velstatus__buf_puts(b, "no operations");
        return;
    }
    put_count(b, "", c[VELSTATUS_PROGRESS_COMPLETED] + c[VELSTATUS_PROGRESS_FAILED], " of ");
    put_count(b, "", c[VELSTATUS_PROGRESS_ATTEMPTED],
              c[VELSTATUS_PROGRESS_ATTEMPTED] == 1 ? " operation done (" : " operations done (");
    put_count(b, "", c[VELSTATUS_PROGRESS_FAILED], " failed");
    for (i = 0; i < VS_N(optional); i++)
        if (c[optional[i].count])
            put_count(b, ", ", c[optional[i].count], optional[i].what);
    velstatus__buf_putc(b, ')');
    for (i = 0; i < r->ngroups; i++) {
        const prog_group *g = &r->groups[i];
        int bytes = is_bytes_unit(g->unit, g->unit_len);
        velstatus__buf_puts(b, "; ");
        if (g->unit_len)
            velstatus__buf_append(b, g->unit, g->unit_len);
        else
            velstatus__buf_puts(b, "(no unit)");
        velstatus__buf_puts(b, ": ");
        put_amount(b, bytes, g->completed);
        velstatus__buf_puts(b, " of ");
        put_amount(b, bytes, g->total);
        velstatus__buf_puts(b, " (");
        put_size(b, g->pct / 100u);
        velstatus__buf_puts(b, "%)");
        if (g->has_eta) {
            char dur[VELSTATUS_DURATION_BUFSIZE];
            velstatus__buf_puts(b, ", ETA ");
            if (velstatus_duration_format(dur, sizeof(dur), g->eta * INT64_C(1000000000), NULL) == VELSTATUS_OK)
                velstatus__buf_puts(b, dur);
        }
    }
    if (c[VELSTATUS_PROGRESS_UNQUANTIFIED])
        put_count(b, "; ", c[VELSTATUS_PROGRESS_UNQUANTIFIED], " without a total");
}

velstatus_status velstatus_progress_summary(char **out, size_t *out_len, const velstatus_progress *report,
                                            velstatus_error *err)
{
    velstatus__buf b;
    if (!out || !report)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_progress_summary: %s is NULL",
                                    !out ? "out" : "report");
    velstatus__buf_init(&b, report->ctx);
    write_summary(&b, report);
    return velstatus__buf_finish(&b, out, out_len, err);
}

static void json_key_count(velstatus__buf *b, const char *key, size_t v)
{
    velstatus__buf_puts(b, key);
    put_size(b, v);
}

velstatus_status velstatus_progress_to_json(char **out, size_t *out_len, const velstatus_progress *report,
                                            velstatus_error *err)
{
    velstatus__buf b, s;
    const size_t *c;
    size_t i;
    if (!out || !report)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_progress_to_json: %s is NULL",
                                    !out ? "out" : "report");
    c = report->counts;
    velstatus__buf_init(&b, report->ctx);
    velstatus__buf_init(&s, report->ctx);
    json_key_count(&b, "{\"attempted\":", c[VELSTATUS_PROGRESS_ATTEMPTED]);
    json_key_count(&b, ",\"new\":", c[VELSTATUS_PROGRESS_NEW]);
    json_key_count(&b, ",\"inProgress\":", c[VELSTATUS_PROGRESS_IN_PROGRESS]);
    json_key_count(&b, ",\"completed\":", c[VELSTATUS_PROGRESS_COMPLETED]);
    json_key_count(&b, ",\"failed\":", c[VELSTATUS_PROGRESS_FAILED]);
    json_key_count(&b, ",\"unquantified\":", c[VELSTATUS_PROGRESS_UNQUANTIFIED]);
    velstatus__buf_puts(&b, ",\"units\":[");
    for (i = 0; i < report->ngroups; i++) {
        const prog_group *g = &report->groups[i];
        velstatus__buf_puts(&b, i ? ",{\"units\":" : "{\"units\":");
        velstatus__json_write_string(&b, g->unit, g->unit_len, 1);
        json_key_count(&b, ",\"operations\":", g->operations);
        velstatus__buf_puts(&b, ",\"completed\":");
        put_i64(&b, g->completed);
        velstatus__buf_puts(&b, ",\"total\":");
        put_i64(&b, g->total);
        velstatus__buf_puts(&b, ",\"percent\":");
        velstatus__fmt_fixed(&b, g->pct, 2);
        velstatus__buf_puts(&b, ",\"ratePerSecond\":");
        if (g->has_rate)
            velstatus__fmt_fixed(&b, g->rate_milli, 3);
        else
            velstatus__buf_puts(&b, "null");
        velstatus__buf_puts(&b, ",\"etaSeconds\":");
        if (g->has_eta)
            put_i64(&b, g->eta);
        else
            velstatus__buf_puts(&b, "null");
        velstatus__buf_putc(&b, '}');
    }
    velstatus__buf_puts(&b, "],\"summary\":");
    write_summary(&s, report);
    if (s.failed) {
        velstatus__buf_reset(&s);
        velstatus__buf_reset(&b);
        return velstatus__error_nomem(err);
    }
    velstatus__json_write_string(&b, s.p ? s.p : "", s.len, 1);
    velstatus__buf_reset(&s);
    velstatus__buf_putc(&b, '}');
    return velstatus__buf_finish(&b, out, out_len, err);
}
