/* SPDX-License-Identifier: Apache-2.0 */
/* Internals of the server-status area, shared by server_status.c (sets,
 * classification, tracker), bsl_json.c (the codec) and server_status_step.c
 * (the controller step, above both). Not installed. */
#ifndef VELSTATUS_SERVER_STATUS_PRIVATE_H
#define VELSTATUS_SERVER_STATUS_PRIVATE_H

#include "retry/private.h"
#include "velstatus/server_status.h"

#define VS_SERVER_STATUS_OPTIONS_SIZE_V1 VS_SIZE_THROUGH(velstatus_server_status_options, retry_timeout_ns)
#define VS_SERVER_STATUS_HOST_SIZE_V1 VS_SIZE_THROUGH(velstatus_server_status_host, retry)
#define VS_BSL_RECORD_SIZE_V1 VS_SIZE_THROUGH(velstatus_bsl_record, message_len)

/* The phase class of a BSL, from its verbatim phase. */
enum { VS_PH_AVAILABLE = 0, VS_PH_UNAVAILABLE = 1, VS_PH_EMPTY = 2, VS_PH_UNKNOWN = 3 };
/* How a BSL is counted: A, U or P. */
enum { VS_CNT_A = 0, VS_CNT_U = 1, VS_CNT_P = 2 };
/* The number of reason flags; flag i is 1u << i. */
enum { VS_NREASONS = 12 };

/* Why a BSL counted pending is flagged: stale (an Available BSL validated
 * too long ago or never) or never_validated (an empty phase past the bound). */
enum { VS_STALE = 1, VS_NEVER_VALIDATED = 2 };

/* Names shorter than this are kept inside the entry. */
enum { VS_NAME_INLINE = 16 };

/* One BSL as the rule reads it, in one 64-byte cache line: at 100,000
 * BSLs an upsert's lookup misses the cache once, on this line
 * (bench/README.md, issue 25). A set keeps the
 * caller's whole record behind it (vs_bsl_rec() below); the
 * tracker keeps only this, inside its table, the names of 16 bytes or
 * more apart. Flags are 0 or 1, an absent time 0. */
typedef struct vs_bsl {
    uint64_t hash; /* FNV-1a of the name */
    int64_t created_ns, validated_ns;
    size_t name_len;
    union {
        char in[VS_NAME_INLINE]; /* name_len < VS_NAME_INLINE: the name, NUL-terminated */
        char *ext;               /* else: the name elsewhere (a set's texts, a tracker's copy) */
    } name;
    uint32_t heap_idx;  /* tracker: position in the default heap */
    uint32_t ahead;     /* tracker: the table index of the BSL upserted VS_AHEAD events after this one, last time */
    unsigned char used; /* tracker: the table slot holds a BSL */
    unsigned char is_default, access, has_created, has_validated;
    unsigned char pclass; /* VS_PH_* */
    unsigned char cnt;    /* VS_CNT_*: cached by the tracker */
    unsigned char stale;  /* VS_STALE_* bits, cached by the tracker */
} vs_bsl;
_Static_assert(sizeof(vs_bsl) <= 64, "a BSL's entry is one cache line");

/* The caller's record a set keeps behind each of its BSLs, its texts behind it. */
static inline const velstatus_bsl_record *vs_bsl_rec(const vs_bsl *b)
{
    return (const velstatus_bsl_record *)(const void *)(b + 1);
}

/* A slot of the name table: the BSL's name hash beside it, so that a probe
 * reads an entry only when the hashes match (at 100,000 BSLs each entry
 * read is a cache miss; bench/README.md). b == NULL: empty. */
typedef struct vs_slot {
    uint64_t hash;
    vs_bsl *b;
} vs_slot;

/* Name -> BSL hash table: open addressing, linear probing, load <= 1/2,
 * backward-shift deletion (no tombstones). */
typedef struct vs_nametab {
    vs_slot *slots;
    size_t cap; /* 0 or a power of two */
    size_t n;
} vs_nametab;

struct velstatus_bsl_set {
    velstatus_ctx *ctx;
    vs_bsl **items;
    size_t n, cap;
    vs_nametab tab;   /* by namespace and name; none while the set is small (server_status.c) */
    vs_nametab nstab; /* by namespace: the first BSL of each; the same */
    vs_bsl **nsfirst; /* the first BSL of each namespace, in order of appearance */
    size_t nns, nscap;
};

/* The allocator context a verdict was made with (the verdict itself is
 * opaque outside server_status.c: the codec uses the public getters). */
velstatus_ctx *velstatus__ss_verdict_ctx(const velstatus_server_verdict *v);

/* The server-status options, validated (velstatus__ss_load_opts). */
typedef struct vs_opts {
    const char *defloc; /* NULL: not given */
    size_t defloc_len;
    int check_stale;
    int64_t now_ns, stale_after_ns;
    int three_state;
    const velstatus_policy *policy; /* NULL: hardened */
    int64_t retry_timeout_ns;       /* 0: 10 minutes */
} vs_opts;
/* Copies and validates a caller's options (NULL: all defaults). */
velstatus_status velstatus__ss_load_opts(vs_opts *o, const velstatus_server_status_options *in, velstatus_error *err);

/* Appends the BSL of a record whose lengths are resolved (the JSON
 * decoder's entry point; the record's struct_size and flags are not read). */
velstatus_status velstatus__ss_set_add(velstatus_bsl_set *set, const velstatus_bsl_record *r, velstatus_error *err);
/* The context a tracker allocates with (for its JSON entry point). */
velstatus_ctx *velstatus__ss_tracker_ctx(const velstatus_server_tracker *t);
/* "True", "False" or "Unknown" (static strings, comparable by address). */
const char *velstatus__condition_status(velstatus_server_status s);
/* Whether the set holds a BSL of that name in that namespace. */
int velstatus__ss_set_has(const velstatus_bsl_set *set, const char *ns, size_t ns_len, const char *name,
                          size_t name_len);
/* The token of flag index i (0 .. VS_NREASONS-1). */
const char *velstatus__ss_reason_token(unsigned i);
/* Reason flag indexes in byte-wise order of their tokens (for sorted output). */
extern const unsigned char velstatus__ss_reason_sorted[VS_NREASONS];

#endif /* VELSTATUS_SERVER_STATUS_PRIVATE_H */
