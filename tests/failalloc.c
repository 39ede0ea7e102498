/* SPDX-License-Identifier: Apache-2.0 */
#include "failalloc.h"

#include <check.h>
#include <stdlib.h>

static void *fa_alloc(void *ud, size_t n)
{
    vs_failalloc *fa = ud;
    void *p;
    if (fa->fail_at >= 0 && fa->count++ == fa->fail_at) {
        fa->failed++;
        return NULL;
    }
    p = malloc(n);
    if (p)
        fa->live++;
    return p;
}

static void *fa_realloc(void *ud, void *ptr, size_t n)
{
    vs_failalloc *fa = ud;
    if (fa->fail_at >= 0 && fa->count++ == fa->fail_at) {
        fa->failed++;
        return NULL;
    }
    return realloc(ptr, n);
}

static void fa_free(void *ud, void *ptr)
{
    vs_failalloc *fa = ud;
    fa->live--;
    free(ptr);
}

void vs_failalloc_setup(velstatus_allocator *a, vs_failalloc *fa, long fail_at)
{
    fa->fail_at = fail_at;
    fa->count = 0;
    fa->live = 0;
    fa->failed = 0;
    velstatus_allocator_init(a, sizeof(*a));
    a->userdata = fa;
    a->alloc_fn = fa_alloc;
    a->realloc_fn = fa_realloc;
    a->free_fn = fa_free;
}

velstatus_ctx *vs_failalloc_ctx(vs_failalloc *fa, long fail_at)
{
    velstatus_allocator a;
    velstatus_ctx *ctx = NULL;
    vs_failalloc_setup(&a, fa, -1);
    ck_assert_int_eq(velstatus_ctx_new(&ctx, &a, NULL), VELSTATUS_OK);
    /* the ctx block itself does not count as a live block of the body */
    fa->live = 0;
    fa->count = 0;
    fa->fail_at = fail_at;
    return ctx;
}
