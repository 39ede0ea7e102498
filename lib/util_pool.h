/* SPDX-License-Identifier: Apache-2.0 */
/* The string pool: a chunked bump allocator whose memory never moves and
 * goes all at once (as libgit2's git_pool). An operation list keeps its
 * record strings in one; a report set keeps its IDs and texts in another.
 * Blocks are 64 KiB; a request larger than that gets a block of its own,
 * placed behind the current one so that the current block's free space
 * stays usable. Not installed. */
#ifndef VELSTATUS_UTIL_POOL_H
#define VELSTATUS_UTIL_POOL_H

#include "velstatus_private.h"

typedef struct velstatus__pool_block {
    struct velstatus__pool_block *next;
    size_t cap;
    size_t used;
    /* data follows, 16-byte aligned */
} velstatus__pool_block;

typedef struct velstatus__pool {
    velstatus_ctx *ctx;
    velstatus__pool_block *head; /* the current block */
} velstatus__pool;

/* A point to roll back to (velstatus__pool_rewind). */
typedef struct velstatus__pool_mark {
    velstatus__pool_block *block;
    size_t used;
} velstatus__pool_mark;

/* The empty text every empty string field points at (never written). */
extern const char velstatus__empty[1];

void velstatus__pool_init(velstatus__pool *p, velstatus_ctx *ctx);
/* Frees every block; the pool is empty (and usable) again. */
void velstatus__pool_release(velstatus__pool *p);
/* n bytes, 8-aligned, or NULL (out of memory, or n too large). */
void *velstatus__pool_alloc(velstatus__pool *p, size_t n);
/* A NUL-terminated copy of s[0..len); velstatus__empty for len 0; NULL when
 * out of memory. */
const char *velstatus__pool_str(velstatus__pool *p, const char *s, size_t len);
velstatus__pool_mark velstatus__pool_mark_get(const velstatus__pool *p);
/* Gives back what was allocated since the mark when all of it went into the
 * block that was current at the mark (always, unless that block filled up);
 * otherwise keeps it until the pool is released. */
void velstatus__pool_rewind(velstatus__pool *p, velstatus__pool_mark m);

#endif /* VELSTATUS_UTIL_POOL_H */
