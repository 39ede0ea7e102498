/* SPDX-License-Identifier: Apache-2.0 */
#include "harness.h"

#include <stdint.h>
#include <velstatus.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *vs_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = (size_t)n;
    return buf;
}

velstatus_ctx *vs_test_ctx(void)
{
    velstatus_ctx *ctx = NULL;
    ck_assert_int_eq(velstatus_ctx_new(&ctx, NULL, NULL), VELSTATUS_OK);
    return ctx;
}

velstatus_ctx *vs_tctx;

void vs_test_ctx_setup(void)
{
    vs_tctx = vs_test_ctx();
}

void vs_test_ctx_teardown(void)
{
    velstatus_ctx_free(vs_tctx);
    vs_tctx = NULL;
}

int64_t vs_test_ns(const char *rfc3339)
{
    int64_t ns = 0;
    ck_assert_int_eq(velstatus_time_parse(&ns, rfc3339, VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    return ns;
}

char *vs_test_read_data(const char *rel, size_t *len)
{
    const char *dir = getenv("VS_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data", rel);
    return vs_test_read_file(path, len);
}

long vs_test_iterations(long n)
{
    const char *vg = getenv("VALGRIND");
    if (vg && *vg)
        return n / 100 > 0 ? n / 100 : 1;
    return n;
}

int main(void)
{
    SRunner *sr = srunner_create(velstatus_test_suite());
    int failed;
    srunner_set_log(sr, NULL);
    srunner_set_tap(sr, "-");
    if (getenv("VALGRIND") || getenv("VS_NOFORK"))
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_SILENT);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void vs_test_assert_position(const velstatus_error *err, const char *text, const char *at)
{
    uint32_t line = 1, col = 1;
    ck_assert_ptr_nonnull(at);
    for (const char *q = text; q < at; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)*q & 0xC0) != 0x80) {
            col++;
        }
    }
    ck_assert_msg(err->offset == (uint64_t)(at - text) && err->line == line && err->column == col,
                  "%s: at offset %llu (line %u, column %u), want %td (line %u, column %u)", err->message,
                  (unsigned long long)err->offset, (unsigned)err->line, (unsigned)err->column, at - text,
                  (unsigned)line, (unsigned)col);
}

velstatus_status vs_test_upsert(velstatus_server_tracker *t, int *changed, const char *name, size_t name_len,
                                const char *phase, size_t phase_len, int is_default, velstatus_bsl_access access,
                                int has_created, int64_t created_ns, int has_validated, int64_t validated_ns,
                                velstatus_error *err)
{
    velstatus_bsl_record r;
    velstatus_bsl_record_init(&r, sizeof(r));
    r.name = name;
    r.name_len = name_len;
    r.phase = phase;
    r.phase_len = phase_len;
    r.is_default = is_default;
    r.access = access;
    r.has_created = has_created;
    r.created_ns = created_ns;
    r.has_validated = has_validated;
    r.validated_ns = validated_ns;
    return velstatus_server_tracker_upsert(t, changed, &r, err);
}

velstatus_policy vs_policy(velstatus_preset preset)
{
    velstatus_policy p;
    ck_assert_int_eq(velstatus_policy_init(&p, sizeof(p), preset, NULL), VELSTATUS_OK);
    return p;
}

velstatus_backoff vs_backoff(velstatus_backoff_kind kind, int64_t cap_ns)
{
    velstatus_backoff b;
    ck_assert_int_eq(velstatus_backoff_init_preset(&b, sizeof(b), kind, cap_ns, NULL), VELSTATUS_OK);
    return b;
}

velstatus_retry_schedule vs_schedule(void)
{
    velstatus_retry_schedule s;
    velstatus_retry_schedule_init(&s, sizeof(s));
    return s;
}

char *vs_test_trim(char *s)
{
    char *e;
    while (*s == ' ')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

void vs_test_split_row(char *line, char **col, int n, int lineno)
{
    int k = 0;
    char *p = line;
    while (k < n) {
        char *bar = strstr(p, " | ");
        if (bar)
            *bar = '\0';
        col[k++] = vs_test_trim(p);
        if (!bar)
            break;
        p = bar + 3;
    }
    ck_assert_msg(k == n, "line %d: %d columns, want %d", lineno, k, n);
}

int vs_test_in_releases(const char *spec, int minor)
{
    int lo = 0, hi = 0;
    char dash = 0;
    int k = sscanf(spec, "1.%d%c1.%d", &lo, &dash, &hi);
    if (k == 1)
        return minor == lo;
    if (k == 2 && dash == '-')
        return minor >= lo;
    ck_assert_msg(k == 3 && dash == '-', "bad releases \"%s\"", spec);
    return minor >= lo && minor <= hi;
}
