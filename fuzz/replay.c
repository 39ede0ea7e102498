/* SPDX-License-Identifier: Apache-2.0 */
/* main() for the replay programs (fuzz/replay_<name>): runs a target's
 * LLVMFuzzerTestOneInput once over each file it is given (directories are
 * read in name order), naming each on stderr first, and prints one TAP line
 * for the lot. Without arguments it reads the target's seed corpus,
 * $VS_BUILDDIR/fuzz/seeds/<name> (the name from argv[0]), as `make check`
 * runs it. A finding aborts; no input at all fails. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int inputs;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path)
{
    static const uint8_t empty[1];
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    if (!f) {
        printf("not ok 1 - cannot open %s\n1..1\n", path);
        exit(1);
    }
    do {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    fprintf(stderr, "replaying %s\n", path);
    if (len > 0) { /* an exact-size copy, as libFuzzer passes it, so that ASan sees an over-read */
        uint8_t *exact = malloc(len);
        if (!exact)
            abort();
        memcpy(exact, buf, len);
        free(buf);
        buf = exact;
    }
    LLVMFuzzerTestOneInput(len ? buf : empty, len);
    inputs++;
    free(buf);
}

static void run_path(const char *path)
{
    struct stat sb;
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, i;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        run_file(path);
        return;
    }
    d = opendir(path);
    if (!d)
        abort();
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof(*names));
        if (!names || !(names[n] = malloc(strlen(path) + strlen(e->d_name) + 2)))
            abort();
        sprintf(names[n++], "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof(*names), cmp_names);
    for (i = 0; i < n; i++) {
        run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    int i;
    if (argc < 2) {
        const char *dir = getenv("VS_BUILDDIR"), *base = strrchr(argv[0], '/');
        const char *name = strstr(base ? base + 1 : argv[0], "replay_");
        char path[4096];
        if (!dir || !name) {
            fprintf(stderr, "usage: %s FILE|DIR... (or set VS_BUILDDIR and run as replay_<target>)\n", argv[0]);
            return 2;
        }
        snprintf(path, sizeof(path), "%s/fuzz/seeds/%s", dir, name + strlen("replay_"));
        run_path(path);
    }
    for (i = 1; i < argc; i++)
        run_path(argv[i]);
    printf("%s 1 - %d input(s) replayed, no finding\n1..1\n", inputs > 0 ? "ok" : "not ok", inputs);
    return 0;
}
