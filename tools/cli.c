/* SPDX-License-Identifier: Apache-2.0 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "velstatus";

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", cli_prog, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_BAD_INPUT;
}

int cli_fail_err(const char *cmd, const char *what, const velstatus_error *err)
{
    /* The library's messages never spell their position: it is printed here, once. */
    if (err->line)
        return cli_fail(cmd, "%s: %s (line %u, column %u, offset %llu)", what, err->message,
                        (unsigned)err->line, (unsigned)err->column, (unsigned long long)err->offset);
    return cli_fail(cmd, "%s: %s", what, err->message);
}

int cli_parse_phase(const char *cmd, const char *what, velstatus_kind kind, const char *s, velstatus_phase *out)
{
    if (velstatus_phase_from_string(out, s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "%s: unknown %s phase \"%s\"", what, velstatus_kind_to_string(kind), s);
    if (!velstatus_phase_valid(kind, *out))
        return cli_fail(cmd, "%s: a %s has no phase \"%s\"", what, velstatus_kind_to_string(kind), s);
    return 0;
}

char *cli_read_input(const char *cmd, const char *path, size_t *len)
{
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int is_stdin = path == NULL || strcmp(path, "-") == 0;
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        cli_fail(cmd, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (cap - n < 65536) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, ncap + 1);
            if (!p) {
                free(buf);
                if (!is_stdin)
                    fclose(f);
                cli_fail(cmd, "out of memory reading %s", is_stdin ? "stdin" : path);
                return NULL;
            }
            buf = p;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        if (!is_stdin)
            fclose(f);
        cli_fail(cmd, "cannot read %s", is_stdin ? "stdin" : path);
        return NULL;
    }
    if (!is_stdin)
        fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

int cli_parse_format(const char *cmd, const char *value, cli_format *out)
{
    if (strcmp(value, "text") == 0)
        *out = CLI_TEXT;
    else if (strcmp(value, "json") == 0)
        *out = CLI_JSON;
    else
        return cli_fail(cmd, "-o must be text or json, not \"%s\"", value);
    return 0;
}

int cli_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        cli_fail(cmd, "%s needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void cli_put_text(FILE *f, const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        const char *nul = memchr(s, '\0', (size_t)(end - s));
        fwrite(s, 1, (size_t)((nul ? nul : end) - s), f);
        if (nul == NULL)
            break;
        fputs(CLI_NUL_TEXT, f);
        s = nul + 1;
    }
}

void cli_print_line(const char *s, size_t n)
{
    cli_put_text(stdout, s, n);
    if (n == 0 || s[n - 1] != '\n')
        fputc('\n', stdout);
}
