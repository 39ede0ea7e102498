/* SPDX-License-Identifier: Apache-2.0 */
/* The floors under the decode and the encode in `make bench`'s codec table
 * (bench/bench_compare.c): what one pass over the bytes costs on this
 * machine, with nothing decided.
 *
 *   bench_floor memchr FILE   memchr() for every '"' of the file (a decoder
 *                             reads each byte at least once)
 *   bench_floor memcpy FILE   the file copied with memcpy() into a fresh
 *                             buffer of its size (an encoder writes each
 *                             byte at least once, into memory it allocates)
 *
 * "key value" lines: the CPU time of that pass alone (the file is read
 * before the clock starts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The process's CPU time (ISO C clock(): user + system on glibc). */
static double cpu_s(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* The whole file, or NULL. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    char *p = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (p = malloc((size_t)n + 1)) != NULL && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    if (f)
        fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return p;
}

int main(int argc, char **argv)
{
    size_t n, quotes = 0;
    char *p, *q;
    double t0, t1;
    if (argc != 3 || (strcmp(argv[1], "memchr") != 0 && strcmp(argv[1], "memcpy") != 0)) {
        fputs("usage: bench_floor memchr|memcpy FILE\n", stderr);
        return 2;
    }
    p = read_all(argv[2], &n);
    if (!p) {
        fprintf(stderr, "bench_floor: cannot read %s\n", argv[2]);
        return 2;
    }
    if (strcmp(argv[1], "memchr") == 0) {
        const char *s = p, *end = p + n;
        t0 = cpu_s();
        while ((s = memchr(s, '"', (size_t)(end - s))) != NULL) {
            quotes++;
            s++;
        }
        t1 = cpu_s();
        printf("memchr_s %.6f\nquotes %zu\n", t1 - t0, quotes);
    } else {
        t0 = cpu_s();
        q = malloc(n);
        if (q)
            memcpy(q, p, n);
        t1 = cpu_s();
        printf("memcpy_s %.6f\nidentical %d\n", t1 - t0, q && memcmp(p, q, n) == 0);
        free(q);
    }
    free(p);
    return 0;
}
