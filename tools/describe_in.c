/* SPDX-License-Identifier: Apache-2.0 */
/* Velero's describe text as input (doc/cli.md, "Input forms"): the
 * operations section of `velero backup|restore describe --details`, read
 * back into the itemoperations list JSON Velero writes, and the header into
 * a Backup or Restore object. The inverse of what Velero prints in
 * pkg/cmd/util/output/backup_describer.go (describeBackupItemOperation) and
 * restore_describer.go (describeRestoreItemOperation), the same format
 * strings in every release 1.11 to 1.18, aligned by Go's text/tabwriter
 * (padding 2): inside one operation the values of a run of label lines
 * start two columns after the longest label of the run, which is how a
 * value's own leading spaces are told from the padding. */
#include "cli.h"
#include "describe_in.h"
#include "text_in.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines ---- */

/* The offset of the newline that ends the line starting at i, or n. */
static size_t line_end(const char *p, size_t n, size_t i)
{
    while (i < n && p[i] != '\n')
        i++;
    return i;
}

/* The end of the line p[i..e) without a CR before its newline. */
static size_t text_end(const char *p, size_t i, size_t e)
{
    return e > i && p[e - 1] == '\r' ? e - 1 : e;
}

/* The offset of the first byte of p[i..e) that is not a blank (space,
 * tab), or e. */
static size_t skip_blanks(const char *p, size_t i, size_t e)
{
    while (i < e && (p[i] == ' ' || p[i] == '\t'))
        i++;
    return i;
}

/* v with twice its capacity *cap; NULL (v freed) when memory ran out. */
static din_line *grow(din_line *v, size_t *cap)
{
    din_line *w = realloc(v, (*cap *= 2) * sizeof(*v));
    if (!w)
        free(v);
    return w;
}

int din_lines(const char *p, size_t n, din_line **out, size_t *count)
{
    size_t cap = 16, k = 0, i = 0;
    din_line *v = malloc(cap * sizeof(*v));
    if (!v)
        return -1;
    for (; i < n; k++) {
        size_t e = line_end(p, n, i), t = text_end(p, i, e);
        if (k == cap && !(v = grow(v, &cap)))
            return -1;
        v[k].s = p + i;
        v[k].n = t - i;
        v[k].ind = skip_blanks(p, i, t) - i;
        i = e + 1;
    }
    *out = v;
    *count = k;
    return 0;
}

/* The line without its indentation starts with the label, which ends the
 * text or is followed by a blank. */
int din_has_label(const din_line *l, const char *label)
{
    size_t m = strlen(label);
    return l->n - l->ind >= m && memcmp(l->s + l->ind, label, m) == 0 &&
           (l->n - l->ind == m || l->s[l->ind + m] == ' ' || l->s[l->ind + m] == '\t');
}

/* The value after a label: its padding skipped. */
void din_value(const din_line *l, size_t label_len, const char **v, size_t *vn)
{
    size_t i = l->ind + label_len;
    while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
        i++;
    *v = l->s + i;
    *vn = l->n - i;
}

/* ---- the operations section ---- */

enum {
    L_PLUGIN_B,
    L_PLUGIN_R,
    L_ID,
    L_ITEMS,
    L_PHASE,
    L_ERROR,
    L_PROGRESS,
    L_DESC,
    L_CREATED,
    L_STARTED,
    L_UPDATED,
    L_N
};
static const char *const op_label[L_N] = {"Backup Item Action Plugin:",
                                          "Restore Item Action Plugin:",
                                          "Operation ID:",
                                          "Items to Update:",
                                          "Phase:",
                                          "Operation Error:",
                                          "Progress:",
                                          "Progress description:",
                                          "Created:",
                                          "Started:",
                                          "Updated:"};
static const char *const time_key[3] = {"created", "started", "updated"};

enum { T_OTHER = -1, T_HEADER = -2, T_ITEM = -3, T_CONT = -4, T_END = -5, T_FAIL = -6 };

static int label_of(const din_line *l)
{
    for (int k = 0; k < L_N; k++)
        if (din_has_label(l, op_label[k]))
            return k == L_ITEMS && l->n - l->ind != strlen(op_label[k]) ? T_OTHER : k;
    return T_OTHER;
}

static int is_op_header(const din_line *l)
{
    static const char pre[] = "Operation for ";
    return l->n - l->ind > sizeof(pre) && memcmp(l->s + l->ind, pre, sizeof(pre) - 1) == 0 && l->s[l->n - 1] == ':';
}

/* An op header followed by a plugin line. */
static int op_starts(const din_line *v, size_t k, size_t n)
{
    int t = k + 1 < n ? label_of(&v[k + 1]) : T_OTHER;
    return is_op_header(&v[k]) && (t == L_PLUGIN_B || t == L_PLUGIN_R);
}

typedef struct opv {
    const char *v[L_N];
    size_t vn[L_N];
    size_t line[L_N];
    int seen[L_N];
    size_t items0, items1; /* the item lines */
    char *cont[L_N];       /* a value continued over more lines (a newline in it) */
} opv;

typedef struct rd {
    const din_line *v;
    size_t n, i; /* lines; the next one */
    cli_conv *c;
    FILE *f;
    const char *name;
    size_t name_len;
} rd;

static int fail(rd *r, size_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(rd *r, size_t line, const char *fmt, ...)
{
    va_list ap;
    size_t m;
    snprintf(r->c->msg, sizeof(r->c->msg), "describe text, line %zu: ", line + 1);
    m = strlen(r->c->msg);
    va_start(ap, fmt);
    vsnprintf(r->c->msg + m, sizeof(r->c->msg) - m, fmt, ap);
    va_end(ap);
    return -1;
}

/* "gr ns/name" (GroupResource.String(), namespace, name) as a ResourceIdentifier. */
static int put_ident(rd *r, size_t line, const char *s, size_t n)
{
    const char *sp = memchr(s, ' ', n), *sl, *dot;
    if (!sp || !(sl = memchr(sp, '/', n - (size_t)(sp - s))))
        return fail(r, line, "%s is not \"<resource[.group]> <namespace>/<name>\"", "the item");
    dot = memchr(s, '.', (size_t)(sp - s));
    fputs("{\"Group\":", r->f);
    cli_json_str(r->f, dot ? dot + 1 : "", dot ? (size_t)(sp - dot - 1) : 0);
    fputs(",\"Resource\":", r->f);
    cli_json_str(r->f, s, (size_t)((dot ? dot : sp) - s));
    fputs(",\"Namespace\":", r->f);
    cli_json_str(r->f, sp + 1, (size_t)(sl - sp - 1));
    fputs(",\"Name\":", r->f);
    cli_json_str(r->f, sl + 1, n - (size_t)(sl + 1 - s));
    fputc('}', r->f);
    return 0;
}

/* The start column of the values of the run of lines around line k: the
 * label column plus the longest label of the run plus tabwriter's padding 2. */
static size_t run_column(const rd *r, const int *type, size_t a, size_t b, size_t k, size_t *ind)
{
    size_t s = k, e = k, w = 0;
    while (s > a && (type[s - 1] >= 0 || type[s - 1] == T_ITEM) && type[s - 1] != L_ITEMS)
        s--;
    while (e + 1 < b && (type[e + 1] >= 0 || type[e + 1] == T_ITEM) && type[e + 1] != L_ITEMS)
        e++;
    *ind = SIZE_MAX;
    for (size_t j = s; j <= e; j++) {
        int t = type[j];
        if (t < 0)
            continue;
        if (strlen(op_label[t]) > w)
            w = strlen(op_label[t]);
        if (*ind == SIZE_MAX)
            *ind = r->v[j].ind;
    }
    return *ind == SIZE_MAX ? SIZE_MAX : *ind + w + 2;
}

/* The value of line k: from its run's column when the padding is exactly
 * there, else after the blanks that follow the label. */
static void exact_value(const rd *r, const int *type, size_t a, size_t b, size_t k, const char **v, size_t *vn)
{
    const din_line *l = &r->v[k];
    size_t ind, col = run_column(r, type, a, b, k, &ind), from = type[k] >= 0 ? l->ind + strlen(op_label[type[k]]) : 0;
    int ok = col != SIZE_MAX && col <= l->n && from <= col;
    for (size_t j = from; ok && j < col; j++)
        ok = l->s[j] == ' ';
    if (ok) {
        *v = l->s + col;
        *vn = l->n - col;
    } else if (type[k] >= 0) {
        din_value(l, strlen(op_label[type[k]]), v, vn);
    } else {
        *v = l->s + l->ind;
        *vn = l->n - l->ind;
    }
}

/* The label that the run of unlabelled lines from k leads to when the run
 * continues the value of label last (a newline inside a value: a later
 * label of this operation follows), else T_OTHER. */
static int cont_label(const rd *r, size_t k, int last)
{
    size_t j = k;
    int u = T_OTHER;
    while (j < r->n && (u = label_of(&r->v[j])) == T_OTHER && !is_op_header(&r->v[j]) && r->v[j].n > 0)
        j++;
    if (u <= last || last == L_ITEMS || last == L_PROGRESS || last >= L_CREATED || j == r->n)
        return T_OTHER;
    return u;
}

/* The type of line k of an operation whose last label so far is last:
 * a label, T_ITEM, T_CONT, T_END (the operation ended before it) or T_FAIL
 * (a label out of order: r's message set). One function per line, so that
 * an analyser joins its paths at the return (doc/proof.md). */
static int line_type(rd *r, size_t k, int last)
{
    int t = label_of(&r->v[k]);
    if (t == T_OTHER && last == L_ITEMS && r->v[k].n > r->v[k].ind)
        return T_ITEM;
    if (t == T_OTHER)
        return cont_label(r, k, last) == T_OTHER ? T_END : T_CONT;
    if (t <= last || (t == L_PLUGIN_R && last == L_PLUGIN_B))
        return fail(r, k, "\"%s\" is out of the order Velero prints an operation in", op_label[t]), T_FAIL;
    return t;
}

/* Lines a..b of one operation: their types; the end of the operation. */
static int classify(rd *r, size_t a, int *type, size_t *end)
{
    int last = -1;
    size_t k;
    type[a] = T_HEADER;
    for (k = a + 1; k < r->n; k++) {
        int t = line_type(r, k, last);
        if (t == T_FAIL)
            return -1;
        if (t == T_END)
            break;
        type[k] = t;
        if (t >= 0)
            last = t;
    }
    *end = k;
    return 0;
}

/* The value of label t continued over the T_CONT lines from k on: the
 * value and each of those lines after a newline, in one buffer
 * (o->cont[t]). */
static int continued(rd *r, const int *type, size_t k, size_t b, int t, opv *o)
{
    size_t j, len = o->vn[t];
    char *s;
    for (j = k; j < b && type[j] == T_CONT; j++)
        len += 1 + r->v[j].n;
    if (!(s = malloc(len)))
        return fail(r, k, "%s", "out of memory");
    memcpy(s, o->v[t], o->vn[t]);
    for (len = o->vn[t]; k < j; k++) {
        s[len++] = '\n';
        memcpy(s + len, r->v[k].s, r->v[k].n);
        len += r->v[k].n;
    }
    o->cont[t] = s;
    o->v[t] = s;
    o->vn[t] = len;
    return 0;
}

/* Line k of the operation of lines a..b into o: a label's value (with the
 * T_CONT lines after it, which always follow a label line), or the end of
 * the item list. */
static int gather_line(rd *r, const int *type, size_t a, size_t b, size_t k, opv *o)
{
    int t = type[k];
    if (t == T_ITEM)
        o->items1 = k + 1;
    if (t < 0)
        return 0;
    exact_value(r, type, a, b, k, &o->v[t], &o->vn[t]);
    o->seen[t] = 1;
    o->line[t] = k;
    if (t == L_ITEMS)
        o->items0 = o->items1 = k + 1;
    return k + 1 < b && type[k + 1] == T_CONT ? continued(r, type, k + 1, b, t, o) : 0;
}

/* Gathers the values of lines a..b into o (o->cont is freed by opv_free()
 * whatever the result). */
static int gather(rd *r, const int *type, size_t a, size_t b, opv *o)
{
    memset(o, 0, sizeof(*o));
    for (size_t k = a + 1; k < b; k++)
        if (gather_line(r, type, a, b, k, o) != 0)
            return -1;
    return 0;
}

static void put_str_member(rd *r, const char *key, const char *s, size_t n, int *first)
{
    fprintf(r->f, "%s\"%s\":", *first ? "" : ",", key);
    cli_json_str(r->f, s, n);
    *first = 0;
}

/* "N of M complete (units)" */
static int put_progress(rd *r, const opv *o)
{
    const char *s = o->v[L_PROGRESS], *p;
    size_t n = o->vn[L_PROGRESS];
    long long a, b;
    int used = 0, used2 = 0;
    char num[48];
    memcpy(num, s, n < sizeof(num) - 1 ? n : sizeof(num) - 1);
    num[n < sizeof(num) - 1 ? n : sizeof(num) - 1] = '\0';
    if (sscanf(num, "%lld of %n", &a, &used) != 1 || used == 0 || sscanf(num + used, "%lld%n", &b, &used2) != 1 ||
        n < (size_t)(used + used2) + 12 || memcmp(s + used + used2, " complete (", 11) != 0 || s[n - 1] != ')')
        return fail(r, o->line[L_PROGRESS], "\"%s\" is not \"N of M complete (units)\"", "Progress:");
    p = s + used + used2 + 11;
    fprintf(r->f, ",\"nCompleted\":%lld,\"nTotal\":%lld,\"operationUnits\":", a, b);
    cli_json_str(r->f, p, (size_t)(s + n - 1 - p));
    return 0;
}

static int put_status(rd *r, const opv *o)
{
    int first = 1;
    fputs("},\"status\":{", r->f);
    put_str_member(r, "phase", o->v[L_PHASE], o->vn[L_PHASE], &first);
    if (o->seen[L_ERROR])
        put_str_member(r, "error", o->v[L_ERROR], o->vn[L_ERROR], &first);
    if (o->seen[L_PROGRESS] && put_progress(r, o) != 0)
        return -1;
    if (o->seen[L_DESC])
        put_str_member(r, "description", o->v[L_DESC], o->vn[L_DESC], &first);
    for (int t = 0; t < 3; t++) {
        char iso[64];
        if (!o->seen[L_CREATED + t])
            continue;
        if (cli_go_time_rfc3339(iso, sizeof(iso), o->v[L_CREATED + t], o->vn[L_CREATED + t]) != 0)
            return fail(r, o->line[L_CREATED + t],
                        "\"%s\" is not a time as Velero prints it (2023-11-10 16:40:35 +0100 CET)",
                        op_label[L_CREATED + t]);
        fprintf(r->f, ",\"%s\":\"%s\"", time_key[t], iso);
    }
    fputs("}}", r->f);
    return 0;
}

/* One operation, lines a..b, as a record. */
static int put_op(rd *r, const int *type, size_t a, size_t b, const opv *o)
{
    int restore = o->seen[L_PLUGIN_R], first = 1;
    const char *k = restore ? "restore" : "backup";
    velstatus_kind kind = restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    char key[32];
    if (r->c->kind_known && r->c->kind != kind)
        return fail(r, a, "%s: one list cannot hold both backup and restore operations", "Item Action Plugin");
    if (!o->seen[L_ID] || !o->seen[L_PHASE])
        return fail(r, a, "the operation has no \"%s\" line (Velero prints one for every operation)",
                    o->seen[L_ID] ? "Phase:" : "Operation ID:");
    if (restore && o->seen[L_ITEMS])
        return fail(r, o->line[L_ITEMS], "%s: a restore operation has none", "Items to Update");
    r->c->kind = kind;
    r->c->kind_known = 1;
    fprintf(r->f, "%s{\"spec\":{", r->c->ops++ ? "," : "");
    if (r->name) {
        snprintf(key, sizeof(key), "%sName", k);
        put_str_member(r, key, r->name, r->name_len, &first);
    }
    snprintf(key, sizeof(key), "%sItemAction", k);
    put_str_member(r, key, o->v[restore ? L_PLUGIN_R : L_PLUGIN_B], o->vn[restore ? L_PLUGIN_R : L_PLUGIN_B], &first);
    fputs(",\"resourceIdentifier\":", r->f);
    if (put_ident(r, a, r->v[a].s + r->v[a].ind + 14, r->v[a].n - r->v[a].ind - 15) != 0)
        return -1;
    put_str_member(r, "operationID", o->v[L_ID], o->vn[L_ID], &first);
    if (o->seen[L_ITEMS]) {
        fputs(",\"postOperationItems\":[", r->f);
        for (size_t j = o->items0; j < o->items1; j++) {
            const char *v;
            size_t vn;
            exact_value(r, type, a, b, j, &v, &vn);
            if (j > o->items0)
                fputc(',', r->f);
            if (put_ident(r, j, v, vn) != 0)
                return -1;
        }
        fputc(']', r->f);
    }
    return put_status(r, o);
}

static void opv_free(opv *o)
{
    for (int k = 0; k < L_N; k++)
        free(o->cont[k]);
}

/* The operations from line a on; *end receives the line after them. */
static int read_ops(rd *r, size_t a, size_t *end)
{
    int *type = malloc((r->n + 1) * sizeof(*type)), rc = 0;
    *end = a;
    if (!type)
        return fail(r, a, "%s", "out of memory");
    while (rc == 0 && a < r->n && op_starts(r->v, a, r->n)) {
        size_t b = a + 1;
        opv o;
        rc = classify(r, a, type, &b);
        if (rc == 0) {
            rc = gather(r, type, a, b, &o);
            if (rc == 0)
                rc = put_op(r, type, a, b, &o);
            opv_free(&o);
        }
        a = b;
    }
    free(type);
    *end = a;
    return rc;
}

/* ---- where the section is ---- */

static const char *const titles[2] = {"Backup Item Operations:", "Restore Item Operations:"};

/* The title line ("Backup Item Operations:" alone, or with the summary or
 * an error after it): its index and kind; n when there is none. */
size_t din_title(const din_line *v, size_t n, int *restore)
{
    for (size_t k = 0; k < n; k++)
        for (int t = 0; t < 2; t++)
            if (din_has_label(&v[k], titles[t]))
                return *restore = t, k;
    return n;
}

static int no_list(rd *r, size_t k)
{
    const char *v;
    size_t vn;
    din_value(&r->v[k], strlen(titles[r->c->kind == VELSTATUS_KIND_RESTORE]), &v, &vn);
    if (vn > 0 && v[0] == '<')
        return fail(r, k, "Velero could not read the operations: %s", "the line says so; nothing to read");
    return fail(r, k,
                "%s the text has only the summary line; the operations are listed by `velero backup|restore describe "
                "NAME --details`",
                "no operations:");
}

/* After the section, no operation may follow (a blank line inside a paste). */
static int check_rest(rd *r, size_t from)
{
    for (size_t k = from; k < r->n; k++)
        if (op_starts(r->v, k, r->n))
            return fail(r, k, "%s: an operation after the end of the operations section", "Operation for");
    return 0;
}

static int ops_body(rd *r)
{
    int restore = 0;
    size_t t = din_title(r->v, r->n, &restore), a, end;
    if (t < r->n) {
        r->c->kind = restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
        r->c->kind_known = 1;
        if (r->v[t].n - r->v[t].ind != strlen(titles[restore]))
            return no_list(r, t);
        a = t + 1;
        if (a < r->n && !op_starts(r->v, a, r->n))
            return fail(r, a, "%s: the title is not followed by an operation", titles[restore]);
    } else {
        for (a = 0; a < r->n && !op_starts(r->v, a, r->n); a++)
            ;
    }
    if (read_ops(r, a, &end) != 0)
        return -1;
    return check_rest(r, end);
}

static int finish(rd *r, char **mem, size_t *memn, int rc)
{
    if (fclose(r->f) != 0 && rc == 0)
        rc = fail(r, 0, "%s", "out of memory");
    if (rc != 0) {
        free(*mem);
        return -1;
    }
    r->c->json = *mem;
    r->c->len = *memn;
    return 0;
}

int cli_describe_ops(const char *p, size_t n, cli_conv *out)
{
    rd r;
    din_line *v;
    size_t count, memn = 0;
    char *mem = NULL;
    int rc;
    memset(out, 0, sizeof(*out));
    memset(&r, 0, sizeof(r));
    r.c = out;
    if (din_lines(p, n, &v, &count) != 0)
        return snprintf(out->msg, sizeof(out->msg), "out of memory"), -1;
    r.v = v;
    r.n = count;
    r.name = din_header_name(v, count, &r.name_len);
    r.f = open_memstream(&mem, &memn);
    if (!r.f) {
        free(v);
        return snprintf(out->msg, sizeof(out->msg), "out of memory"), -1;
    }
    fputc('[', r.f);
    rc = ops_body(&r);
    fputs("]\n", r.f);
    rc = finish(&r, &mem, &memn, rc);
    if (rc == 0 && !out->kind_known && (rc = din_header_kind(v, count, out)) != 0)
        cli_conv_free(out); /* no operations and no kind: nothing read */
    free(v);
    snprintf(out->notes, sizeof(out->notes),
             "not in the text: the %s UID; an operation without a Progress: line reads as 0 of 0 with no units "
             "(Velero prints none when both are 0 or less)",
             out->kind == VELSTATUS_KIND_RESTORE ? "restore" : "backup");
    return rc;
}

int din_conv_finish(cli_conv *out, char *mem, size_t memn, int rc)
{
    if (rc != 0) {
        if (!out->msg[0])
            snprintf(out->msg, sizeof(out->msg), "out of memory");
        free(mem);
        return -1;
    }
    out->json = mem;
    out->len = memn;
    return 0;
}

void cli_conv_free(cli_conv *c)
{
    free(c->json);
    c->json = NULL;
}

/* ---- times ---- */

int cli_go_time_rfc3339(char *out, size_t cap, const char *s, size_t n)
{
    int64_t sec;
    int32_t nsec;
    if (velstatus_time_parse_go_string(&sec, &nsec, s, n, NULL) != VELSTATUS_OK ||
        velstatus_time_format_sec(out, cap, sec, nsec, 1, NULL) != VELSTATUS_OK)
        return -1;
    return 0;
}

int din_is_describe(const din_line *v, size_t n)
{
    int restore, name = 0, phase = 0;
    if (din_title(v, n, &restore) < n)
        return 1;
    for (size_t k = 0; k < n; k++) {
        if (op_starts(v, k, n))
            return 1;
        name |= din_has_label(&v[k], "Name:");
        phase |= din_has_label(&v[k], "Phase:");
    }
    return name && phase;
}
