/* SPDX-License-Identifier: Apache-2.0 */
/* The string pool (lib/common/util_pool.h). */
#include <string.h>

#include "common/util_pool.h"

enum { VS__POOL_BLOCK = 64 * 1024 };

const char velstatus__empty[1] = "";

void velstatus__pool_init(velstatus__pool *p, velstatus_ctx *ctx)
{
    p->ctx = ctx;
    p->head = NULL;
}

void velstatus__pool_release(velstatus__pool *p)
{
    velstatus__pool_block *b, *next;
    for (b = p->head; b; b = next) {
        next = b->next;
        velstatus__free(p->ctx, b);
    }
    p->head = NULL;
}

void velstatus__pool_owner_free(velstatus__pool *p, void *items, void *self)
{
    velstatus_ctx *ctx = p->ctx;
    velstatus__pool_release(p);
    velstatus__free(ctx, items);
    velstatus__free(ctx, self);
}

/* A new block of at least `need` bytes, linked in. */
static velstatus__pool_block *pool_grow(velstatus__pool *p, size_t need)
{
    size_t cap = need > VS__POOL_BLOCK ? need : VS__POOL_BLOCK;
    velstatus__pool_block *b;
    if (cap > SIZE_MAX - VELSTATUS__POOL_HDR)
        return NULL;
    b = velstatus__alloc(p->ctx, VELSTATUS__POOL_HDR + cap);
    if (!b)
        return NULL;
    b->cap = cap;
    b->used = 0;
    if (cap > VS__POOL_BLOCK && p->head) {
        b->next = p->head->next;
        p->head->next = b;
    } else {
        b->next = p->head;
        p->head = b;
    }
    return b;
}

void *velstatus__pool_alloc_block(velstatus__pool *p, size_t need)
{
    velstatus__pool_block *b = pool_grow(p, need);
    char *q;
    if (!b)
        return NULL;
    q = (char *)b + VELSTATUS__POOL_HDR + b->used;
    b->used += need;
    return q;
}

const char *velstatus__pool_str(velstatus__pool *p, const char *s, size_t len)
{
    char *q;
    if (len == 0)
        return velstatus__empty;
    if (len >= SIZE_MAX)
        return NULL;
    q = velstatus__pool_alloc(p, len + 1);
    if (!q)
        return NULL;
    memcpy(q, s, len);
    q[len] = '\0';
    return q;
}
