/* SPDX-License-Identifier: Apache-2.0 */
/* The one growable array: every site that appends to a heap array (records,
 * errors, canceled operations, sleeps, BSLs, table cells, bytes of a buffer)
 * reserves room through velstatus__array_reserve, which doubles the capacity
 * and checks every multiplication for overflow (as libgit2's git_array and
 * its GIT_ERROR_CHECK_ALLOC_MULTIPLY). The array itself stays a plain typed
 * pointer with a count and a capacity in the owner's struct. Not installed. */
#ifndef VELSTATUS_UTIL_ARRAY_H
#define VELSTATUS_UTIL_ARRAY_H

#include "common/private.h"

/* Out of line: the reallocation. */
void *velstatus__array_grow(velstatus_ctx *ctx, void *items, size_t *cap, size_t need, size_t elem, size_t initial);

/* Returns `items` (elem bytes each, *cap allocated) with room for at least
 * `need` elements: unchanged when it has that room already, else moved by
 * the allocator to a capacity that doubles from *cap (from `initial` when
 * *cap is 0) until it holds `need`, falling back to exactly `need` where
 * doubling would overflow. Returns NULL, leaving items and *cap as they were
 * (the caller still owns items), when need * elem overflows size_t or the
 * allocator fails. The caller stores the result back:
 *     p = velstatus__array_reserve(ctx, s->v, &s->cap, s->n + 1, sizeof *p, 8);
 *     if (p == NULL) return nomem;
 *     s->v = p; */
static inline void *velstatus__array_reserve(velstatus_ctx *ctx, void *items, size_t *cap, size_t need, size_t elem,
                                             size_t initial)
{
    if (need <= *cap && items)
        return items;
    return velstatus__array_grow(ctx, items, cap, need, elem, initial);
}

/* velstatus__array_reserve, but returning `items` itself where that fails,
 * so that storing the result back never loses the array. For
 * VS_ARRAY_RESERVE, which tells a failure by the capacity. */
static inline void *velstatus__array_reserve_keep(velstatus_ctx *ctx, void *items, size_t *cap, size_t need,
                                                  size_t elem, size_t initial)
{
    void *p = velstatus__array_reserve(ctx, items, cap, need, elem, initial);
    return p ? p : items;
}

/* The idiom of every site that grows an array it owns: makes room for
 * `need` (at least 1) elements in the typed heap array `arr`, of capacity
 * `cap`, both lvalues of the owner's struct, and stores the array back.
 * Evaluates to 0, or to -1 when out of memory, with arr and cap as they
 * were. The arguments are evaluated more than once: no side effects.
 *     if (VS_ARRAY_RESERVE(ctx, s->v, s->cap, s->n + 1, 8)) return nomem;
 *     s->v[s->n++] = x; */
#define VS_ARRAY_RESERVE(ctx, arr, cap, need, initial)                                               \
    ((arr) = velstatus__array_reserve_keep((ctx), (arr), &(cap), (need), sizeof(*(arr)), (initial)), \
     (cap) >= (need) ? 0 : -1)

#endif /* VELSTATUS_UTIL_ARRAY_H */
