/* SPDX-License-Identifier: Apache-2.0 */
/* yaml2json [--stream] [--max-doc N] < YAML > JSON: the tool's YAML converter
 * (tools/yaml_json.h) alone, for tests/cli-yaml.sh's scalar table and
 * layout checks. Exits 2 with "line L, column C: message" on an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yaml_json.h"

static long from_stdin(void *ud, char *buf, size_t n)
{
    (void)ud;
    return (long)fread(buf, 1, n, stdin);
}

int main(int argc, char **argv)
{
    vs_yaml_mode mode = VS_YAML_WHOLE;
    uint64_t max_doc = UINT64_MAX;
    vs_yaml *y;
    char out[4096];
    long got;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stream") == 0)
            mode = VS_YAML_STREAM;
        else if (strcmp(argv[i], "--max-doc") == 0 && i + 1 < argc)
            max_doc = strtoull(argv[++i], NULL, 10);
        else
            return fprintf(stderr, "usage: yaml2json [--stream] [--max-doc N]\n"), 2;
    }
    if (!(y = vs_yaml_new(from_stdin, NULL, mode, max_doc)))
        return fprintf(stderr, "out of memory\n"), 2;
    while ((got = vs_yaml_read(y, out, sizeof(out))) > 0)
        fwrite(out, 1, (size_t)got, stdout);
    if (got < 0) {
        unsigned long line, col;
        int src;
        const char *msg = vs_yaml_error(y, &line, &col, &src);
        fprintf(stderr, "line %lu, column %lu: %s\n", line, col, msg);
    }
    vs_yaml_free(y);
    return got < 0 ? 2 : 0;
}
