/* SPDX-License-Identifier: Apache-2.0 */
/* The string pool: a chunked bump allocator whose memory never moves and
 * goes all at once (as libgit2's git_pool). An operation list keeps its
 * record strings in one; a report set keeps its IDs and texts in another.
 * Blocks are 64 KiB; a request larger than that gets a block of its own,
 * placed behind the current one so that the current block's free space
 * stays usable. Not installed. */
#ifndef VELSTATUS_UTIL_POOL_H
#define VELSTATUS_UTIL_POOL_H

#include "common/private.h"

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

/* The empty text every empty string field points at (never written). */
extern const char velstatus__empty[1];

void velstatus__pool_init(velstatus__pool *p, velstatus_ctx *ctx);
/* Frees every block; the pool is empty (and usable) again. */
void velstatus__pool_release(velstatus__pool *p);
/* Frees an object whose memory is a pool, one heap array and the object
 * itself (an operation list, a reports map): the destructor's whole body. */
void velstatus__pool_owner_free(velstatus__pool *p, void *items, void *self);
/* Out of line: a request the current block cannot serve. */
void *velstatus__pool_alloc_block(velstatus__pool *p, size_t need);

/* Where a block's data starts: the header rounded up to 16 bytes. */
#define VELSTATUS__POOL_HDR (((sizeof(velstatus__pool_block) + 15) / 16) * 16)

/* n bytes, 8-aligned, or NULL (out of memory, or n too large). Inline: the
 * decoders call it for every string. */
static inline void *velstatus__pool_alloc(velstatus__pool *p, size_t n)
{
    velstatus__pool_block *b = p->head;
    size_t need = (n + 7u) & ~(size_t)7u;
    char *q;
    if (need < n)
        return NULL;
    if (!b || b->cap - b->used < need)
        return velstatus__pool_alloc_block(p, need);
    q = (char *)b + VELSTATUS__POOL_HDR + b->used;
    b->used += need;
    return q;
}
/* A NUL-terminated copy of s[0..len); velstatus__empty for len 0; NULL when
 * out of memory. */
const char *velstatus__pool_str(velstatus__pool *p, const char *s, size_t len);

#endif /* VELSTATUS_UTIL_POOL_H */
