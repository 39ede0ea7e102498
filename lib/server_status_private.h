/* Internals of the server-status area, shared by server_status.c (sets,
 * classification, tracker, step) and bsl_json.c (the codec). Not installed. */
#ifndef VELSTATUS_SERVER_STATUS_PRIVATE_H
#define VELSTATUS_SERVER_STATUS_PRIVATE_H

#include "velstatus_private.h"

/* The phase class of a BSL, from its verbatim phase. */
enum { VS_PH_AVAILABLE = 0, VS_PH_UNAVAILABLE = 1, VS_PH_EMPTY = 2, VS_PH_UNKNOWN = 3 };
/* How a BSL is counted: A, U or P. */
enum { VS_CNT_A = 0, VS_CNT_U = 1, VS_CNT_P = 2 };
/* The number of reason flags; flag i is 1u << i. */
enum { VS_NREASONS = 11 };

/* One BSL: the struct and its three strings in one allocation. */
typedef struct vs_bsl {
    const char *name;
    size_t name_len;
    const char *phase;
    size_t phase_len;
    const char *message;
    size_t message_len;
    int is_default;
    velstatus_bsl_access access;
    int has_created;
    int64_t created_ns;
    int has_validated;
    int64_t validated_ns;
    uint64_t hash;       /* FNV-1a of the name */
    unsigned char pclass; /* VS_PH_* */
    unsigned char cnt;    /* VS_CNT_*: cached by the tracker */
    unsigned char stale;  /* cached by the tracker */
    size_t heap_idx;      /* tracker: position in the default heap */
} vs_bsl;

/* Name -> BSL hash table: open addressing, linear probing, load <= 1/2,
 * backward-shift deletion (no tombstones). */
typedef struct vs_nametab {
    vs_bsl **slots;
    size_t cap; /* 0 or a power of two */
    size_t n;
} vs_nametab;

struct velstatus_bsl_set {
    velstatus_ctx *ctx;
    vs_bsl **items;
    size_t n, cap;
    vs_nametab tab;
};

struct velstatus_server_verdict {
    velstatus_ctx *ctx;
    velstatus_server_status status;
    uint32_t reasons;
    size_t available, unavailable, pending, total;
    const char *default_name;           /* into pool, or NULL */
    const char **names;                 /* all the per-reason lists, concatenated */
    size_t start[VS_NREASONS + 1];      /* list of flag i: names[start[i] .. start[i+1]) */
    char *pool;                         /* the names' bytes */
    char *message;
};

/* Appends a BSL with a status.message (the JSON decoder's entry point). */
velstatus_status velstatus__ss_set_add(velstatus_bsl_set *set, const char *name, size_t name_len, const char *phase,
                                       size_t phase_len, const char *message, size_t message_len, int is_default,
                                       velstatus_bsl_access access, int has_created, int64_t created_ns,
                                       int has_validated, int64_t validated_ns, velstatus_error *err);
/* The context a tracker allocates with (for its JSON entry point). */
velstatus_ctx *velstatus__ss_tracker_ctx(const velstatus_server_tracker *t);
/* Whether the set holds a BSL of that name. */
int velstatus__ss_set_has(const velstatus_bsl_set *set, const char *name, size_t name_len);
/* The token of flag index i (0 .. VS_NREASONS-1). */
const char *velstatus__ss_reason_token(unsigned i);
/* Reason flag indexes in byte-wise order of their tokens (for sorted output). */
extern const unsigned char velstatus__ss_reason_sorted[VS_NREASONS];

#endif /* VELSTATUS_SERVER_STATUS_PRIVATE_H */
