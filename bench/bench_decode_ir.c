/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction counts of decoding, for callgrind (doc/design.md §9).
 *
 *   valgrind --tool=callgrind --toggle-collect=decode_dom bench_decode_ir FILE dom
 *   valgrind --tool=callgrind --toggle-collect=decode_ours bench_decode_ir FILE
 *
 * Reads FILE, then decodes it once: as one jansson DOM (json_loadb, the
 * reference of doc/design.md §9) or with velstatus_oplist_from_json. Callgrind's
 * instruction count of the function divided by the number of records is the
 * cost per record: exact and repeatable on a loaded machine, where times are
 * not. `make bench-ir` does both on a 10,000-record file. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <velstatus.h>

#if defined(__GNUC__)
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE
#endif

BENCH_NOINLINE size_t decode_dom(const char *p, size_t n);
size_t decode_dom(const char *p, size_t n)
{
    json_error_t jerr;
    json_t *v = json_loadb(p, n, JSON_REJECT_DUPLICATES, &jerr);
    size_t count;
    if (!v)
        return 0;
    count = json_array_size(v);
    json_decref(v);
    return count;
}

BENCH_NOINLINE size_t decode_ours(velstatus_ctx *ctx, const char *p, size_t n);
size_t decode_ours(velstatus_ctx *ctx, const char *p, size_t n)
{
    velstatus_oplist *l;
    size_t count;
    if (velstatus_oplist_from_json(&l, ctx, VELSTATUS_KIND_BACKUP, p, n, NULL) != VELSTATUS_OK)
        return 0;
    count = velstatus_oplist_count(l);
    velstatus_oplist_free(l);
    return count;
}

int main(int argc, char **argv)
{
    FILE *f;
    char *buf;
    velstatus_ctx *ctx;
    long n;
    size_t count;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_decode_ir FILE [dom]\n");
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        perror(argv[1]);
        return 2;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    if (velstatus_ctx_new(&ctx, NULL, NULL) != VELSTATUS_OK)
        return 2;
    count = argc > 2 && strcmp(argv[2], "dom") == 0 ? decode_dom(buf, (size_t)n) : decode_ours(ctx, buf, (size_t)n);
    printf("%zu records\n", count);
    velstatus_ctx_free(ctx);
    free(buf);
    return count > 0 ? 0 : 1;
}
