/* SPDX-License-Identifier: Apache-2.0 */
/* The tables of backup storage locations as input (doc/cli.md, "Input
 * forms"), read back into a BackupStorageLocationList:
 *  - `velero backup-location get`: NAME PROVIDER BUCKET/PREFIX PHASE
 *    LAST VALIDATED ACCESS MODE DEFAULT, the same columns in every release
 *    1.11 to 1.18 (pkg/cmd/util/output/backup_storage_location_printer.go:
 *    an empty phase and a missing validation time print as "Unknown", an
 *    empty access mode as ReadWrite, DEFAULT is "true" or empty, LAST
 *    VALIDATED is Go's time.Time.String() in the client's zone);
 *  - `kubectl get backupstoragelocations`: NAME PHASE LAST VALIDATED AGE
 *    DEFAULT, the CRD's additionalPrinterColumns (config/crd/v1/bases/
 *    velero.io_backupstoragelocations.yaml), where LAST VALIDATED and AGE are
 *    ages as kubectl prints them (5m, 3h4m, 2d): the time is now − age as
 *    printed, the youngest the age can mean (kubectl rounds down). With -A a
 *    NAMESPACE column comes first.
 * Cells are cut at the header's column starts (the printers align them). */
#include "cli.h"
#include "describe_in.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_NAMESPACE, C_NAME, C_PROVIDER, C_BUCKET, C_PHASE, C_VALIDATED, C_ACCESS, C_DEFAULT, C_AGE, C_N };
static const char *const col_name[C_N] = {
    "NAMESPACE", "NAME", "PROVIDER", "BUCKET/PREFIX", "PHASE", "LAST VALIDATED", "ACCESS MODE", "DEFAULT", "AGE"};

typedef struct table {
    size_t start[C_N + 1];
    int col[C_N + 1]; /* the column at each start, in order */
    int at[C_N];      /* the index of each column, -1 when absent */
    size_t ncol;
} table;

/* The header's columns; 0, or -1 when the line is not a BSL table's header. */
static int header(const din_line *l, table *t)
{
    size_t i = 0;
    for (int c = 0; c < C_N; c++)
        t->at[c] = -1;
    t->ncol = 0;
    while (i < l->n) {
        int found = -1;
        for (int c = 0; c < C_N && found < 0; c++) {
            size_t m = strlen(col_name[c]);
            if (l->n - i >= m && memcmp(l->s + i, col_name[c], m) == 0 && (i + m == l->n || l->s[i + m] == ' '))
                found = c;
        }
        /* not a column's name, or a column again (so ncol never passes C_N;
         * the last test states that bound of the arrays where they are written) */
        if (found < 0 || t->at[found] >= 0 || t->ncol >= C_N)
            return -1;
        t->at[found] = (int)t->ncol;
        t->col[t->ncol] = found;
        t->start[t->ncol++] = i;
        i += strlen(col_name[found]);
        while (i < l->n && l->s[i] == ' ')
            i++;
    }
    return t->at[C_NAME] >= 0 && t->at[C_PHASE] >= 0 && t->at[C_DEFAULT] >= 0 &&
                   (t->at[C_PROVIDER] >= 0 || t->at[C_AGE] >= 0)
               ? 0
               : -1;
}

int cli_table_is(const char *p, size_t n)
{
    din_line *v;
    size_t count, k = 0;
    table t;
    int r = 0;
    if (din_lines(p, n, &v, &count) != 0)
        return 0;
    while (k < count && v[k].n == 0)
        k++;
    if (k < count && v[k].ind == 0)
        r = header(&v[k], &t) == 0;
    free(v);
    return r;
}

/* Cell c of the row: between its column start and the next one, trimmed. */
static void cell(const din_line *l, const table *t, int c, const char **s, size_t *n)
{
    size_t j, a, b;
    if (t->at[c] < 0) { /* a column this table does not have: an empty cell */
        *s = l->s;
        *n = 0;
        return;
    }
    j = (size_t)t->at[c];
    a = t->start[j];
    b = j + 1 < t->ncol ? t->start[j + 1] : l->n;
    if (b > l->n)
        b = l->n;
    if (a > b) /* a row shorter than the header: the cell is empty */
        a = b;
    while (a < b && l->s[a] == ' ')
        a++;
    while (b > a && l->s[b - 1] == ' ')
        b--;
    *s = l->s + a;
    *n = b - a;
}

/* kubectl's age (duration.HumanDuration: 10s, 5m30s, 3h, 2d4h, 1y30d) in
 * seconds; -1 when it is not one. */
static long long age_seconds(const char *s, size_t n)
{
    static const struct {
        char u;
        long long sec;
    } units[] = {{'y', 365LL * 86400}, {'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}};
    long long total = 0;
    size_t i = 0, u = 0;
    if (n == 0)
        return -1;
    while (i < n) {
        long long v = 0;
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9' && v < 1000000000)
            v = v * 10 + (s[i++] - '0');
        if (i == d || i == n)
            return -1;
        while (u < 5 && units[u].u != s[i])
            u++;
        if (u == 5)
            return -1;
        if (__builtin_mul_overflow(v, units[u].sec, &v) || __builtin_add_overflow(total, v, &total))
            return -1;
        u++;
        i++;
    }
    return total;
}

static void member(FILE *f, int *first, const char *key, const char *s, size_t n)
{
    fprintf(f, "%s\"%s\":", *first ? "" : ",", key);
    cli_json_str(f, s, n);
    *first = 0;
}

/* A time cell: Go's Time.String() (velero) or an age (kubectl), as RFC 3339. */
static int time_cell(const din_line *l, const table *t, int c, int64_t now_ns, char *iso, size_t cap)
{
    const char *s;
    size_t n;
    long long age;
    cell(l, t, c, &s, &n);
    iso[0] = '\0';
    if (n == 0 || (n == 7 && memcmp(s, "Unknown", 7) == 0) || (n == 9 && memcmp(s, "<unknown>", 9) == 0) ||
        (n == 9 && memcmp(s, "<invalid>", 9) == 0) || (n == 6 && memcmp(s, "<none>", 6) == 0))
        return 0;
    if (cli_go_time_rfc3339(iso, cap, s, n) == 0)
        return 0;
    age = age_seconds(s, n);
    /* an age beyond the int64 nanosecond range of now is an error, never wrapped */
    if (age < 0 || __builtin_mul_overflow(age, 1000000000LL, &age) || __builtin_sub_overflow(now_ns, age, &now_ns) ||
        velstatus_time_format(iso, cap, now_ns, 0, NULL) != VELSTATUS_OK)
        return -1;
    return 0;
}

static void put_spec(FILE *f, const din_line *l, const table *t)
{
    const char *s, *sl;
    size_t n;
    int first = 1;
    fputs(",\"spec\":{", f);
    if (t->at[C_PROVIDER] >= 0) {
        cell(l, t, C_PROVIDER, &s, &n);
        member(f, &first, "provider", s, n);
    }
    if (t->at[C_BUCKET] >= 0) {
        int of = 1;
        cell(l, t, C_BUCKET, &s, &n);
        sl = memchr(s, '/', n);
        fprintf(f, "%s\"objectStorage\":{", first ? "" : ",");
        first = 0;
        member(f, &of, "bucket", s, sl ? (size_t)(sl - s) : n);
        if (sl)
            member(f, &of, "prefix", sl + 1, n - (size_t)(sl + 1 - s));
        fputc('}', f);
    }
    if (t->at[C_ACCESS] >= 0) {
        cell(l, t, C_ACCESS, &s, &n);
        member(f, &first, "accessMode", s, n);
    }
    cell(l, t, C_DEFAULT, &s, &n);
    fprintf(f, "%s\"default\":%s}", first ? "" : ",", n == 4 && memcmp(s, "true", 4) == 0 ? "true" : "false");
}

static int put_row(FILE *f, const din_line *l, const table *t, int64_t now_ns, size_t line, cli_conv *out)
{
    const char *s;
    size_t n;
    int first = 1;
    char validated[64], created[64];
    if (time_cell(l, t, C_VALIDATED, now_ns, validated, sizeof(validated)) != 0 ||
        (t->at[C_AGE] >= 0 && time_cell(l, t, C_AGE, now_ns, created, sizeof(created)) != 0))
        return snprintf(out->msg, sizeof(out->msg), "table, line %zu: LAST VALIDATED or AGE is not a time or an age",
                        line + 1),
               -1;
    fputs("{\"apiVersion\":\"velero.io/v1\",\"kind\":\"BackupStorageLocation\",\"metadata\":{", f);
    cell(l, t, C_NAME, &s, &n);
    member(f, &first, "name", s, n);
    if (t->at[C_NAMESPACE] >= 0) {
        cell(l, t, C_NAMESPACE, &s, &n);
        member(f, &first, "namespace", s, n);
    }
    if (t->at[C_AGE] >= 0 && created[0])
        member(f, &first, "creationTimestamp", created, strlen(created));
    fputc('}', f);
    put_spec(f, l, t);
    fputs(",\"status\":{", f);
    first = 1;
    cell(l, t, C_PHASE, &s, &n);
    if (n > 0 && !(t->at[C_PROVIDER] >= 0 && n == 7 && memcmp(s, "Unknown", 7) == 0))
        member(f, &first, "phase", s, n);
    if (validated[0])
        member(f, &first, "lastValidationTime", validated, strlen(validated));
    fputs("}}", f);
    return 0;
}

static int rows(FILE *f, const din_line *v, size_t count, size_t k, const table *t, int64_t now_ns, cli_conv *out)
{
    size_t rows_ = 0;
    fputs("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[", f);
    for (k++; k < count; k++) {
        if (v[k].n == v[k].ind)
            continue;
        if (rows_++)
            fputc(',', f);
        if (put_row(f, &v[k], t, now_ns, k, out) != 0)
            return -1;
    }
    fputs("]}\n", f);
    out->ops = rows_;
    return 0;
}

int cli_table_bsls(const char *p, size_t n, int64_t now_ns, cli_conv *out)
{
    din_line *v;
    size_t count, k = 0, memn = 0;
    char *mem = NULL;
    table t;
    FILE *f;
    int rc = -1;
    memset(out, 0, sizeof(*out));
    if (din_lines(p, n, &v, &count) != 0)
        return snprintf(out->msg, sizeof(out->msg), "out of memory"), -1;
    while (k < count && v[k].n == 0)
        k++;
    if (k == count || header(&v[k], &t) != 0) {
        snprintf(out->msg, sizeof(out->msg),
                 "table: the first line is not the header of `velero backup-location get` "
                 "or `kubectl get backupstoragelocations`");
    } else if ((f = open_memstream(&mem, &memn)) != NULL) {
        rc = rows(f, v, count, k, &t, now_ns, out);
        if (fclose(f) != 0)
            rc = -1;
    }
    free(v);
    if (din_conv_finish(out, mem, memn, rc) != 0)
        return -1;
    snprintf(out->notes, sizeof(out->notes), "not in the table: status.message%s",
             t.at[C_AGE] >= 0 ? "; the times are --now minus the ages kubectl printed (rounded down by kubectl)"
                              : ", metadata.creationTimestamp");
    return 0;
}
