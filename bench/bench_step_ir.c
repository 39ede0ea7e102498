/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction counts of the steady decision loop, for callgrind (doc/design.md §9).
 *
 *   valgrind --tool=callgrind --toggle-collect=steady_steps bench_step_ir FILE
 *   valgrind --tool=callgrind --toggle-collect=steady_reconcile bench_step_ir FILE
 *
 * Decodes FILE, runs one velstatus_oplist_step pass (the changes), then one
 * steady pass of velstatus_oplist_step (steady_steps) and one steady
 * velstatus_oplist_reconcile with a host client answering from memory
 * (steady_reconcile), with the fake plugin of bench/fake_plugin.h. Callgrind's
 * instruction count of each function divided by the number of records is
 * the cost per operation: exact and repeatable on a loaded machine, where
 * times are not. `make bench-ir` does both on a 10,000-record file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <velstatus.h>

#include "fake_plugin.h"

static void pass(velstatus_oplist *l, const velstatus_op_progress *p, const velstatus_policy *pol)
{
    size_t i, n = velstatus_oplist_count(l);
    uint32_t f;
    for (i = 0; i < n; i++)
        velstatus_oplist_step(&f, NULL, NULL, l, i, p, vs_bench_now, vs_bench_timeout, pol, NULL);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
void steady_steps(velstatus_oplist *l, const velstatus_op_progress *p, const velstatus_policy *pol);
void steady_steps(velstatus_oplist *l, const velstatus_op_progress *p, const velstatus_policy *pol)
{
    pass(l, p, pol);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
void steady_reconcile(velstatus_oplist *l, const velstatus_plugin_client *c, const velstatus_reconcile_options *o,
                      const velstatus_policy *pol);
void steady_reconcile(velstatus_oplist *l, const velstatus_plugin_client *c, const velstatus_reconcile_options *o,
                      const velstatus_policy *pol)
{
    velstatus_reconcile_result *r = NULL;
    if (velstatus_oplist_reconcile(&r, l, c, o, pol, NULL) != VELSTATUS_OK)
        exit(2);
    velstatus_reconcile_result_free(r);
}

int main(int argc, char **argv)
{
    FILE *f;
    long n;
    char *in;
    velstatus_ctx *ctx;
    velstatus_oplist *l;
    velstatus_op_progress p;
    velstatus_policy pol;
    velstatus_policy_init(&pol, sizeof(pol), VELSTATUS_PRESET_VELERO, NULL);
    velstatus_plugin_client c;
    velstatus_reconcile_options o;
    if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
        fprintf(stderr, "usage: bench_step_ir ITEMOPERATIONS.json\n");
        return 2;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    in = malloc((size_t)n + 1);
    if (!in || fread(in, 1, (size_t)n, f) != (size_t)n)
        return 2;
    fclose(f);
    velstatus_ctx_new(&ctx, NULL, NULL);
    if (velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, in, (size_t)n, NULL) != VELSTATUS_OK)
        return 2;
    p = vs_bench_answer();
    vs_bench_client(&c, &o, &p);
    pass(l, &p, &pol); /* the first pass: the changes */
    steady_steps(l, &p, &pol);
    steady_reconcile(l, &c, &o, &pol);
    printf("%zu records\n", velstatus_oplist_count(l));
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
    free(in);
    return 0;
}
