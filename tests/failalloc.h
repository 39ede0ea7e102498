/* SPDX-License-Identifier: Apache-2.0 */
/* An allocator that fails the Nth allocation, and counts live blocks, for
 * the fail-every-allocation-in-turn loops (expat's alloc_tests). */
#ifndef VS_TEST_FAILALLOC_H
#define VS_TEST_FAILALLOC_H
#include <velstatus.h>

typedef struct vs_failalloc {
    long fail_at; /* 0-based index of the allocation to fail; -1 never */
    long count;   /* allocations (alloc + realloc) attempted so far */
    long live;    /* blocks currently allocated */
    long failed;  /* how many were failed */
} vs_failalloc;

/* Fills an allocator struct whose userdata is `fa`. */
void vs_failalloc_setup(velstatus_allocator *a, vs_failalloc *fa, long fail_at);

/* A ctx whose allocator fails allocation #fail_at (the ctx's own block is
 * allocated before counting starts). */
velstatus_ctx *vs_failalloc_ctx(vs_failalloc *fa, long fail_at);

/*
 * The loop every allocating entry point gets:
 *
 *   VS_FAILALLOC_LOOP(fa, ctx) {
 *       st = do_something(ctx, ...);
 *       if (st == VELSTATUS_E_NOMEM) { ck_assert(fa.failed > 0); continue-ish }
 *   } VS_FAILALLOC_END(fa, ctx, st);
 *
 * Runs the body with fail_at = 0, 1, 2 ... until the body returns OK with no
 * failed allocation; after each iteration checks that every block was freed
 * (the body must free what it got on success) and that a failure returned
 * E_NOMEM. `st` must be a velstatus_status variable set by the body.
 */
#define VS_FAILALLOC_LOOP(fa, ctx)                         \
    for (long vs__n = 0;; vs__n++) {                       \
        vs_failalloc fa;                                   \
        velstatus_ctx *ctx = vs_failalloc_ctx(&fa, vs__n); \
        do

#define VS_FAILALLOC_END(fa, ctx, st)                                                                       \
    while (0)                                                                                               \
        ;                                                                                                   \
    ck_assert_msg(fa.live == 0, "allocation #%ld failed: %ld block(s) leaked", vs__n, fa.live);             \
    velstatus_ctx_free(ctx);                                                                                \
    if (fa.failed == 0) {                                                                                   \
        ck_assert_msg((st) == VELSTATUS_OK, "no allocation failed but status %d", (int)(st));               \
        break;                                                                                              \
    }                                                                                                       \
    ck_assert_msg((st) == VELSTATUS_E_NOMEM, "allocation #%ld failed but status %d (%s)", vs__n, (int)(st), \
                  velstatus_status_name(st));                                                               \
    ck_assert_msg(vs__n < 100000, "failalloc loop did not terminate");                                      \
    }

/*
 * Inside a VS_FAILALLOC_LOOP body: allocations between VS_FAILALLOC_PAUSE(fa)
 * and VS_FAILALLOC_RESUME(fa) never fail and are not counted, for the setup a
 * body needs before the call under test (a list to reconcile, say); after the
 * call, VS_FAILALLOC_PAUSE_AGAIN(fa) stops failing for the checks. Use each
 * once per body.
 */
#define VS_FAILALLOC_PAUSE(fa)     \
    long vs__armed = (fa).fail_at; \
    (fa).fail_at = -1
#define VS_FAILALLOC_RESUME(fa) ((fa).fail_at = vs__armed)
#define VS_FAILALLOC_PAUSE_AGAIN(fa) ((fa).fail_at = -1)

#endif
