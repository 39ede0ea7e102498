/* SPDX-License-Identifier: Apache-2.0 */
/* Internal layout of operation lists, shared by lib/operations/oplist.c (storage,
 * getters, setters), lib/operations/oplist_json.c (codec) and lib/operations/operations.c (step,
 * driver). Not installed. */
#ifndef VELSTATUS_OPERATIONS_PRIVATE_H
#define VELSTATUS_OPERATIONS_PRIVATE_H

#include <string.h>

#include "phase/private.h"
#include "velstatus/experimental.h"
#include "velstatus/operations.h"
#include "common/util_arith.h"
#include "common/util_pool.h"

#define VS_OP_PROGRESS_SIZE_V1 VS_SIZE_THROUGH(velstatus_op_progress, updated_ns)
#define VS_PLUGIN_CLIENT_SIZE_V1 VS_SIZE_THROUGH(velstatus_plugin_client, cancel)
#define VS_RECONCILE_OPTIONS_SIZE_V1 VS_SIZE_THROUGH(velstatus_reconcile_options, failed_before)

/* Whether an operation in this phase is still running (New or InProgress):
 * the operations Velero polls, whose timeout counts, whose remaining units
 * the progress area adds up. */
static inline int velstatus__op_phase_running(velstatus_op_phase phase)
{
    return phase == VELSTATUS_OP_PHASE_NEW || phase == VELSTATUS_OP_PHASE_IN_PROGRESS;
}

/* A string in the list's pool: NUL-terminated, len bytes before the NUL. */
typedef struct vs__str {
    const char *p;
    uint32_t len;
} vs__str;

/* Number of string fields (velstatus_op_field values 0..11). */
enum { VS__OP_NFIELDS = 12 };

/* The state of one *metav1.Time field. Velero's semantics need more than
 * "has a value": a JSON null and a zero time are written as `null` but a
 * nil pointer is omitted, a zero time the plugin reported is non-nil (step
 * 7 then sees "started"), and Go struct equality (step 4) tells a time read
 * from JSON (Local zone) from one a plugin reported (UTC). */
enum vs__tstate {
    VS__T_ABSENT = 0, /* nil pointer: key omitted */
    VS__T_NULL = 1,   /* JSON null read: nil, omitted when written (omitempty) */
    VS__T_ZERO = 2,   /* non-nil zero time (from a plugin): written as null */
    VS__T_LOCAL = 3,  /* a time read from JSON (Velero: .Local()) */
    VS__T_UTC = 4     /* a time set from a plugin's report or a setter */
};

/* Where an unknown key was found. */
enum vs__unk_level {
    VS__U_RECORD = 0,
    VS__U_SPEC = 1,
    VS__U_STATUS = 2,
    VS__U_RID = 3, /* spec.resourceIdentifier */
    VS__U_POST = 4 /* spec.postOperationItems[item] */
};

/* An unknown key and its value, re-serialised as compact JSON. */
typedef struct vs__unknown {
    uint32_t level; /* enum vs__unk_level */
    uint32_t item;  /* post item index for VS__U_POST */
    vs__str key;    /* decoded key text */
    vs__str value;  /* JSON text of the value */
} vs__unknown;

/* A resource identifier (post-operation item). */
typedef struct vs__rid {
    vs__str f[4]; /* Group, Resource, Namespace, Name */
} vs__rid;

/* The fields the step reads and writes (lib/operations/operations.c step_*): the
 * counts, the three times with their states and exact-time flags, the
 * Progress-error time, the phase enum and the two texts the steady step
 * compares with a report. Kept apart from the rest of the record so that
 * the decision loop walks one dense array (88 bytes a record, beside a
 * pointer to its cold part) instead of 272-byte records
 * (bench/README.md); the step, its commit and the simulation's copy move
 * it as one struct. */
typedef struct vs__op_hot {
    int64_t n_completed;
    int64_t n_total;
    int64_t t[3];
    int64_t err_since; /* valid when has_err_since */
    vs__str units;     /* VELSTATUS_OP_FIELD_OPERATION_UNITS */
    vs__str desc;      /* VELSTATUS_OP_FIELD_DESCRIPTION */
    uint8_t tstate[3]; /* enum vs__tstate */
    uint8_t phase;     /* velstatus_op_phase */
    uint8_t has_err_since;
    uint8_t twide; /* bit i: t[i] is whole seconds (see vs__time_exact) */
} vs__op_hot;

/* The string fields kept cold: velstatus_op_field 0..9 (the hot part has
 * the last two). */
enum { VS__OP_NCOLD = 10 };

/* What the step does not read: the other texts, post-operation items and
 * unknown keys; the list keeps these in an array parallel to its records. */
typedef struct vs__op_cold {
    vs__str s[VS__OP_NCOLD];
    vs__rid *post;
    vs__unknown *unk;
    uint32_t npost;
    uint32_t nunk;
    uint8_t post_null; /* postOperationItems is nil */
} vs__op_cold;

struct velstatus_op {
    vs__op_hot h;
    vs__op_cold *c; /* &list->cold[index] */
};

/* String field f (velstatus_op_field) of a record, hot or cold. Like
 * strchr() it takes a const record and gives a writable slot: callers that
 * write own the list. */
static inline vs__str *vs__op_str(const velstatus_op *op, int f)
{
    velstatus_op *w = (velstatus_op *)(uintptr_t)op;
    if (f == VELSTATUS_OP_FIELD_OPERATION_UNITS)
        return &w->h.units;
    if (f == VELSTATUS_OP_FIELD_DESCRIPTION)
        return &w->h.desc;
    return &w->c->s[f];
}

/* The text of each known phase, by velstatus_op_phase (1..4; 0 is ""). */
extern const vs__str velstatus__op_phase_text[5];

/* The text of string field f, to read: a known phase's is its name (the
 * record's phase slot holds the other phase texts only, so that a phase
 * change writes the hot part alone). */
static inline const vs__str *vs__op_text(const velstatus_op *op, int f)
{
    if (f == VELSTATUS_OP_FIELD_PHASE && op->h.phase >= VELSTATUS_OP_PHASE_NEW &&
        op->h.phase <= VELSTATUS_OP_PHASE_FAILED)
        return &velstatus__op_phase_text[op->h.phase];
    return vs__op_str(op, f);
}

/* A record's time i is t[i] nanoseconds since the epoch, or, when bit i of
 * `wide` is set, t[i] whole seconds: an instant Velero's files can hold
 * (any year 0000-9999, Go's zero time included) but int64 nanoseconds
 * cannot. Such a time keeps its whole second only, which is all a file
 * keeps (metav1.Time writes whole seconds). Read and write times through
 * these four; the step works on copies (t[3], wide) of the record's. */
static inline int64_t vs__time_ns(const int64_t *t, uint8_t wide, int i)
{
    if (!(wide >> i & 1))
        return t[i];
    return t[i] < 0 ? INT64_MIN : INT64_MAX;
}

static inline void vs__time_exact(const int64_t *t, uint8_t wide, int i, int64_t *sec, int32_t *nsec)
{
    int64_t s = t[i] / 1000000000, r = t[i] % 1000000000;
    if (wide >> i & 1) {
        *sec = t[i];
        *nsec = 0;
        return;
    }
    if (r < 0) {
        r += 1000000000;
        s--;
    }
    *sec = s;
    *nsec = (int32_t)r;
}

static inline void vs__time_set_ns(int64_t *t, uint8_t *wide, int i, int64_t ns)
{
    t[i] = ns;
    *wide &= (uint8_t) ~(1u << i);
}

static inline void vs__time_set_exact(int64_t *t, uint8_t *wide, int i, int64_t sec, int32_t nsec)
{
    int64_t ns;
    if (velstatus__time_to_ns(sec, nsec, &ns)) {
        vs__time_set_ns(t, wide, i, ns);
        return;
    }
    t[i] = sec;
    *wide |= (uint8_t)(1u << i);
}


/* The shared texts of a list: one copy (in the pool) of each short text
 * that repeats from record to record (units, descriptions, the backup's
 * names, resources), found by hash; at most VS__SHARED_MAX of them. A
 * shared copy is never written in place (velstatus__oplist_set_str). The
 * steady step compares a record's units and description with the report's:
 * with one copy per list that comparison reads memory already in cache
 * instead of a copy per record (bench/README.md). */
enum { VS__SHARED_SLOTS = 64, VS__SHARED_MAX = 48, VS__SHARED_LEN = 32 };

struct velstatus_oplist {
    velstatus_ctx *ctx;
    velstatus_kind kind;
    int is_null;
    velstatus_op *ops;
    vs__op_cold *cold; /* cold[i] is ops[i].c */
    size_t n;
    size_t cap, capcold;
    velstatus__pool pool; /* the records' strings and arrays */
    vs__str shared[VS__SHARED_SLOTS];
    size_t nshared;
};

/* Whether a time state holds an instant (a time read from JSON or reported). */
static inline int velstatus__t_has(uint8_t s)
{
    return s == VS__T_LOCAL || s == VS__T_UTC;
}

/* The step's timeout rule (doc/velero-behaviour.md §2.4 step 6), shared by
 * the step (lib/operations/operations.c step_timeout) and the forecast (lib/forecast/forecast.c):
 * a running record with `created` = (sec, nsec) (vs__time_exact) times out at
 * the first pass with created + timeout < now, strictly, Go's
 * Created.Add(timeout).Before(now) on the exact instant
 * (velstatus__op_times_out). velstatus__op_deadline says whether the rule
 * applies and, when `deadline` is not NULL, stores created + timeout in
 * nanoseconds, clamped to the int64 range (the forecast checks each instant
 * it derives from it with velstatus__op_times_out). */
enum vs__deadline_kind {
    VS__DEADLINE = 0,            /* the timeout applies */
    VS__DEADLINE_NO_CREATED = 1, /* no `created`: never times out (Velero dereferences nil) */
    VS__DEADLINE_NONE = 2        /* a timeout <= 0 means "no timeout" under the policy */
};
static inline int velstatus__op_deadline_kind(int has_created, int64_t timeout, const velstatus_policy *pol)
{
    if (!has_created)
        return VS__DEADLINE_NO_CREATED;
    if (!(timeout > 0 || pol->zero_timeout_expires))
        return VS__DEADLINE_NONE;
    return VS__DEADLINE;
}

static inline int velstatus__op_deadline(int has_created, int64_t sec, int32_t nsec, int64_t timeout,
                                         const velstatus_policy *pol, int64_t *deadline)
{
    int64_t ns;
    int kind = velstatus__op_deadline_kind(has_created, timeout, pol);
    if (kind != VS__DEADLINE)
        return kind;
    if (deadline) {
        (void)velstatus__time_to_ns(sec, nsec, &ns); /* saturates outside the int64 range */
        *deadline = velstatus__sat_add_i64(ns, timeout);
    }
    return VS__DEADLINE;
}

static inline int velstatus__op_times_out(int64_t sec, int32_t nsec, int64_t timeout, int64_t now)
{
    return velstatus__time_add_before(sec, nsec, timeout, now);
}

/* velstatus__op_times_out for a record's time i (t, wide as vs__time_exact):
 * a time held in nanoseconds whose sum with the timeout stays in the int64
 * range is the exact instant, decided by one addition (the steady pass asks
 * once per running operation, bench/README.md, issue 25); any other takes
 * the split above. */
static inline int velstatus__op_times_out_at(const int64_t *t, uint8_t wide, int i, int64_t timeout, int64_t now)
{
    int64_t sum, sec;
    int32_t nsec;
    if (!(wide >> i & 1) && !velstatus__add_overflow_i64(&sum, t[i], timeout))
        return sum < now;
    vs__time_exact(t, wide, i, &sec, &nsec);
    return velstatus__op_times_out(sec, nsec, timeout, now);
}

/* The Progress-error grace rule (doc/velero-behaviour.md §6.4), shared by the
 * step and the forecast: errors first seen at `since` fail the operation at
 * the first pass with now - since >= grace. */
static inline int velstatus__grace_over(int64_t now, int64_t since, int64_t grace)
{
    return velstatus__sat_sub_i64(now, since) >= grace;
}

/* When the record's Progress errors were first seen (the grace period's
 * start, `velstatusProgressErrorSince`): 1 and *since when it has one. */
static inline int velstatus__op_error_since(const velstatus_op *op, int64_t *since)
{
    *since = op->h.has_err_since ? op->h.err_since : 0;
    return op->h.has_err_since != 0;
}

/* ---- lib/operations/oplist.c ---- */
/* A copy of a list with everything the step and the reconcile read (texts,
 * counts, times and their states, phases, the Progress-error time), for a
 * simulation: post-operation items and unknown keys are not copied. */
velstatus_status velstatus__oplist_clone_state(velstatus_oplist **out, const velstatus_oplist *l, velstatus_error *err);
/* Replace a string field: reuses the old bytes when the new text fits
 * (and they are not shared). */
velstatus_status velstatus__oplist_set_str(velstatus_oplist *l, vs__str *dst, const char *s, size_t len,
                                           velstatus_error *err);
/* The list's shared copy of s[0..len) (made now if there is room), or NULL
 * when the text is empty, longer than VS__SHARED_LEN or the table is full;
 * E_NOMEM when the copy cannot be made. */
velstatus_status velstatus__oplist_shared(velstatus_oplist *l, const char *s, size_t len, const char **out,
                                          velstatus_error *err);
/* Whether t points at one of the list's shared copies. */
int velstatus__oplist_is_shared(const velstatus_oplist *l, const vs__str *t);
velstatus_status velstatus__oplist_new(velstatus_oplist **out, velstatus_ctx *ctx, velstatus_kind kind,
                                       velstatus_error *err);
/* Appends a zeroed slot (phase "New", nil post items); returns its pointer or NULL. */
velstatus_op *velstatus__oplist_push(velstatus_oplist *l);
/* Sets the phase enum (and, for a phase that is not one of the four, an empty phase text). */
void velstatus__op_set_phase(velstatus_op *op, velstatus_op_phase phase);
/* The enum of a record's phase text: one of the four, else UNKNOWN (never an error). */
velstatus_op_phase velstatus__op_phase_of(const char *s, size_t len);

/* ---- lib/operations/operations.c ---- */
/* Go's %q (strconv.Quote) for ASCII control bytes, quotes and backslashes;
 * other bytes are copied. */

/* The out-object a callback answers through. */
struct velstatus_op_reply {
    velstatus_ctx *ctx;
    int is_cancel;
    int set;
    int oom;                 /* a setter (or the library's own client) ran out of memory */
    velstatus_op_progress p; /* texts point into `text` */
    char *text[4];           /* err, units, description, plugin name: owned, reused across calls */
    size_t cap[4];
    int roomy; /* text[0..2] each have room for 16 bytes and the NUL */
};

/* ---- lib/operations/reports.c ---- */
typedef struct vs__report_entry {
    vs__str id;
    velstatus_op_progress p; /* texts point into the pool */
    vs__str cancel_err;
    int has_cancel_err;
} vs__report_entry;

struct velstatus_op_reports {
    velstatus_ctx *ctx;
    velstatus__pool pool; /* the entries' IDs and texts */
    vs__report_entry *e;
    size_t n, cap;
    int invalid_id_1_11; /* velstatus_policy::invalid_operation_id_text_1_11 */
};
/* Adds an entry slot (zeroed, struct_size set) or returns NULL. */
vs__report_entry *velstatus__reports_push(velstatus_op_reports *r);
velstatus_status velstatus__reports_new(velstatus_op_reports **out, velstatus_ctx *ctx, velstatus_error *err);
/* Sorts by ID; E_PARSE naming a duplicate ID. */
velstatus_status velstatus__reports_finish(velstatus_op_reports *r, velstatus_error *err);

/* The arguments every whole-list pass needs (velstatus_oplist_reconcile(),
 * velstatus_forecast_new()): E_INVALID naming the first that is NULL. */
velstatus_status velstatus__list_pass_args(const void *out, const velstatus_oplist *list, const void *opts,
                                           velstatus_error *err);

/* The plugin manager's name for an action: sanitizeName of
 * pkg/plugin/clientmgmt/manager.go (1.11 to 1.18) prefixes a name without a
 * `/` with "velero.io/". The prefix to write before the name, or NULL. */
static inline const char *velstatus__plugin_name_prefix(const char *name, size_t len)
{
    return len > 0 && memchr(name, '/', len) ? NULL : "velero.io/";
}

/* velstatus__go_quote() with the Unicode version of the policy's release
 * (NULL: the current release's). */
static inline void velstatus__go_quote_pol(velstatus__buf *b, const char *prefix, const char *s, size_t len,
                                           const velstatus_policy *pol)
{
    velstatus__go_quote(b, prefix, s, len, pol && pol->quote_unicode_13);
}

#endif /* VELSTATUS_OPERATIONS_PRIVATE_H */
