/* SPDX-License-Identifier: Apache-2.0 */
/* The growable array (lib/common/util_array.h). */
#include "common/util_array.h"

void *velstatus__array_grow(velstatus_ctx *ctx, void *items, size_t *cap, size_t need, size_t elem, size_t initial)
{
    size_t ncap = *cap ? *cap : (initial ? initial : 1);
    void *p;
    if (elem == 0)
        return NULL;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    if (ncap > SIZE_MAX / elem)
        ncap = need;
    if (ncap > SIZE_MAX / elem)
        return NULL;
    p = velstatus__realloc(ctx, items, ncap * elem);
    if (!p)
        return NULL;
    *cap = ncap;
    return p;
}
