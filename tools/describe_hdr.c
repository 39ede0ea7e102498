/* SPDX-License-Identifier: Apache-2.0 */
/* The header of `velero backup|restore describe` as a Backup or Restore
 * object (doc/cli.md, "Input forms"): what Velero's DescribeBackup /
 * DescribeRestore print at the outer level (pkg/cmd/util/output/
 * backup_describer.go, restore_describer.go: the metadata, Phase with its
 * notes, Errors / Warnings, Storage Location or Backup, ItemOperationTimeout,
 * Started / Completed, the item counts, the operations summary and the hook
 * counts). Only lines at the header's own indentation are read, so the
 * nested `Started:` of an operation or `Name:` of a resource policy never
 * count. */
#include "cli.h"
#include "describe_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    H_NAME,
    H_NS,
    H_PHASE,
    H_QUEUE,
    H_ERRORS,
    H_WARNINGS,
    H_LOCATION,
    H_BACKUP,
    H_TIMEOUT,
    H_STARTED,
    H_COMPLETED,
    H_TOTAL,
    H_TOTAL_EST,
    H_DONE_B,
    H_DONE_B_SO_FAR,
    H_DONE_R,
    H_DONE_R_SO_FAR,
    H_TOTAL_R,
    H_TOTAL_R_EST,
    H_HOOKS_A,
    H_HOOKS_F,
    H_FORMAT,
    H_RESTORE_PVS,
    H_N
};
static const char *const hdr_label[H_N] = {"Name:",
                                           "Namespace:",
                                           "Phase:",
                                           "Queue position:",
                                           "Errors:",
                                           "Warnings:",
                                           "Storage Location:",
                                           "Backup:",
                                           "ItemOperationTimeout:",
                                           "Started:",
                                           "Completed:",
                                           "Total items to be backed up:",
                                           "Estimated total items to be backed up:",
                                           "Items backed up:",
                                           "Items backed up so far:",
                                           "Items restored:",
                                           "Items restored so far:",
                                           "Total items to be restored:",
                                           "Estimated total items to be restored:",
                                           "HooksAttempted:",
                                           "HooksFailed:",
                                           "Backup Format Version:",
                                           "Restore PVs:"};

typedef struct hdr {
    const din_line *v;
    size_t n, base;
    const char *val[H_N];
    size_t len[H_N], line[H_N];
    int seen[H_N];
    long long ops[3]; /* attempted, completed, failed from the summary line */
    int restore, kind_known;
} hdr;

/* Fatih/color's escapes around a value (Name in bold, Phase in colour). */
static void strip_colour(const char **s, size_t *n)
{
    while (*n >= 3 && (*s)[0] == '\033' && (*s)[1] == '[') {
        size_t i = 2;
        while (i < *n && (*s)[i] != 'm')
            i++;
        if (i == *n)
            return;
        *s += i + 1, *n -= i + 1;
    }
    for (size_t i = 0; i + 1 < *n; i++)
        if ((*s)[i] == '\033' && (*s)[i + 1] == '[') {
            *n = i;
            return;
        }
}

static void read_lines(hdr *h)
{
    size_t k = 0;
    while (k < h->n && h->v[k].n == h->v[k].ind)
        k++;
    h->base = k < h->n ? h->v[k].ind : 0;
    h->ops[0] = h->ops[1] = h->ops[2] = -1;
    for (; k < h->n; k++) {
        int restore;
        if (h->v[k].ind != h->base)
            continue;
        for (int t = 0; t < H_N; t++)
            if (!h->seen[t] && din_has_label(&h->v[k], hdr_label[t])) {
                din_value(&h->v[k], strlen(hdr_label[t]), &h->val[t], &h->len[t]);
                strip_colour(&h->val[t], &h->len[t]);
                h->seen[t] = 1;
                h->line[t] = k;
            }
        if (!h->kind_known && din_title(&h->v[k], 1, &restore) == 0) {
            const char *v;
            size_t vn;
            char buf[96];
            h->kind_known = 1, h->restore = restore;
            din_value(&h->v[k], restore ? 24 : 23, &v, &vn);
            snprintf(buf, sizeof(buf), "%.*s", (int)(vn < 95 ? vn : 95), v);
            if (sscanf(buf, "%lld of %lld completed successfully, %lld failed", &h->ops[1], &h->ops[0], &h->ops[2]) !=
                3)
                h->ops[0] = h->ops[1] = h->ops[2] = -1;
        }
    }
}

const char *din_header_name(const din_line *v, size_t n, size_t *len)
{
    hdr h;
    memset(&h, 0, sizeof(h));
    h.v = v, h.n = n;
    read_lines(&h);
    *len = h.len[H_NAME];
    return h.seen[H_NAME] ? h.val[H_NAME] : NULL;
}

static int find(const char *s, size_t n, const char *what)
{
    size_t m = strlen(what);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, what, m) == 0)
            return 1;
    return 0;
}

/* The kind: the operations title, else what only one of the two prints. */
static int header_kind(hdr *h)
{
    int b = h->seen[H_LOCATION] || h->seen[H_FORMAT] || h->seen[H_TOTAL] || h->seen[H_TOTAL_EST] ||
            (h->seen[H_PHASE] && find(h->val[H_PHASE], h->len[H_PHASE], "velero backup logs"));
    int r = h->seen[H_BACKUP] || h->seen[H_RESTORE_PVS] || h->seen[H_TOTAL_R] || h->seen[H_TOTAL_R_EST] ||
            (h->seen[H_PHASE] && find(h->val[H_PHASE], h->len[H_PHASE], "velero restore logs"));
    if (h->kind_known)
        return 0;
    if (b == r)
        return -1;
    h->restore = r;
    h->kind_known = 1;
    return 0;
}

int din_header_kind(const din_line *v, size_t n, cli_conv *out)
{
    hdr h;
    memset(&h, 0, sizeof(h));
    h.v = v, h.n = n;
    read_lines(&h);
    if (header_kind(&h) != 0)
        return snprintf(out->msg, sizeof(out->msg),
                        "describe text: cannot tell a backup's from a restore's (no operations title, no Storage "
                        "Location: or Backup: line)"),
               -1;
    out->kind = h.restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    out->kind_known = 1;
    return 0;
}

/* A count Velero prints with %d; -1 when the value is not one. */
static long long count(const char *s, size_t n)
{
    long long v = 0;
    if (n == 0 || n > 18)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* The messages of an "Errors:" / "Warnings:" list (describeResult): the
 * lines under it that hold a message, not "<none>" nor a bare label. */
static long long listed(const hdr *h, int t)
{
    long long c = 0;
    for (size_t k = h->line[t] + 1; k < h->n && h->v[k].ind > h->base && h->v[k].n > h->v[k].ind; k++) {
        const din_line *l = &h->v[k];
        const char *colon = memchr(l->s + l->ind, ':', l->n - l->ind);
        size_t rest = colon ? l->n - (size_t)(colon + 1 - l->s) : 0;
        const char *r = colon ? colon + 1 : NULL;
        while (rest > 0 && *r == ' ')
            r++, rest--;
        if (colon && (rest == 0 || (rest == 6 && memcmp(r, "<none>", 6) == 0)))
            continue;
        c++;
    }
    return c;
}

static void put_member(FILE *f, int *first, const char *key, const char *s, size_t n)
{
    fprintf(f, "%s\"%s\":", *first ? "" : ",", key);
    cli_json_str(f, s, n);
    *first = 0;
}

static void put_int(FILE *f, int *first, const char *key, long long v)
{
    if (v < 0)
        return;
    fprintf(f, "%s\"%s\":%lld", *first ? "" : ",", key, v);
    *first = 0;
}

/* Phase without Velero's note: " (run `velero backup logs X` ...)",
 * " (Deleting)" for a restore. */
static size_t phase_len(const hdr *h)
{
    const char *s = h->val[H_PHASE];
    size_t n = h->len[H_PHASE];
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' && i + 1 < n && s[i + 1] == '(')
            return i;
    return n;
}

static int put_time(FILE *f, int *first, const hdr *h, int t, const char *key, cli_conv *out)
{
    char iso[64];
    if (!h->seen[t] || (h->len[t] == 5 && memcmp(h->val[t], "<n/a>", 5) == 0))
        return 0;
    if (cli_go_time_rfc3339(iso, sizeof(iso), h->val[t], h->len[t]) != 0)
        return snprintf(out->msg, sizeof(out->msg),
                        "describe text, line %zu: %s is not a time as Velero prints it (2023-11-10 16:40:35 +0100 CET)",
                        h->line[t] + 1, hdr_label[t]),
               -1;
    put_member(f, first, key, iso, strlen(iso));
    return 0;
}

/* Errors: / Warnings: as a count: "Errors:  N", or the number of messages
 * listed under it; -1 (and a note) when Velero could not read them. */
static long long result_count(const hdr *h, int t, cli_conv *out)
{
    long long c;
    if (!h->seen[t])
        return h->seen[H_PHASE] ? 0 : -1; /* Velero prints neither when both are 0 */
    c = count(h->val[t], h->len[t]);
    if (c >= 0)
        return c;
    if (h->len[t] == 0) {
        c = listed(h, t);
        snprintf(out->notes + strlen(out->notes), sizeof(out->notes) - strlen(out->notes),
                 "%sstatus.%s is taken as the %lld message(s) listed (Velero lists them, not the count)",
                 out->notes[0] ? "; " : "", t == H_ERRORS ? "errors" : "warnings", c);
        return c;
    }
    snprintf(out->notes + strlen(out->notes), sizeof(out->notes) - strlen(out->notes),
             "%sstatus.%s is not in the text (Velero could not read the results)", out->notes[0] ? "; " : "",
             t == H_ERRORS ? "errors" : "warnings");
    return -1;
}

static void put_progress(FILE *f, int *first, const hdr *h)
{
    int r = h->restore, pf = 1;
    int tot = r ? (h->seen[H_TOTAL_R] ? H_TOTAL_R : H_TOTAL_R_EST) : (h->seen[H_TOTAL] ? H_TOTAL : H_TOTAL_EST);
    int done = r ? (h->seen[H_DONE_R] ? H_DONE_R : H_DONE_R_SO_FAR) : (h->seen[H_DONE_B] ? H_DONE_B : H_DONE_B_SO_FAR);
    if (!h->seen[tot] && !h->seen[done])
        return;
    fprintf(f, "%s\"progress\":{", *first ? "" : ",");
    *first = 0;
    put_int(f, &pf, "totalItems", h->seen[tot] ? count(h->val[tot], h->len[tot]) : -1);
    put_int(f, &pf, r ? "itemsRestored" : "itemsBackedUp", h->seen[done] ? count(h->val[done], h->len[done]) : -1);
    fputc('}', f);
}

static int put_status(FILE *f, const hdr *h, cli_conv *out)
{
    int first = 1, hf = 1;
    const char *k = h->restore ? "restore" : "backup";
    char key[64];
    fputs(",\"status\":{", f);
    if (h->seen[H_PHASE])
        put_member(f, &first, "phase", h->val[H_PHASE], phase_len(h));
    if (h->seen[H_QUEUE])
        put_int(f, &first, "queuePosition", count(h->val[H_QUEUE], h->len[H_QUEUE]));
    put_int(f, &first, "errors", result_count(h, H_ERRORS, out));
    put_int(f, &first, "warnings", result_count(h, H_WARNINGS, out));
    if (put_time(f, &first, h, H_STARTED, "startTimestamp", out) != 0 ||
        put_time(f, &first, h, H_COMPLETED, "completionTimestamp", out) != 0)
        return -1;
    put_progress(f, &first, h);
    for (int i = 0; i < 3; i++) {
        static const char *const what[3] = {"Attempted", "Completed", "Failed"};
        snprintf(key, sizeof(key), "%sItemOperations%s", k, what[i]);
        put_int(f, &first, key, h->ops[i]);
    }
    if (h->seen[H_HOOKS_A] || h->seen[H_HOOKS_F]) {
        fprintf(f, "%s\"hookStatus\":{", first ? "" : ",");
        first = 0;
        put_int(f, &hf, "hooksAttempted", h->seen[H_HOOKS_A] ? count(h->val[H_HOOKS_A], h->len[H_HOOKS_A]) : -1);
        put_int(f, &hf, "hooksFailed", h->seen[H_HOOKS_F] ? count(h->val[H_HOOKS_F], h->len[H_HOOKS_F]) : -1);
        fputc('}', f);
    }
    fputs("}}\n", f);
    return 0;
}

static int put_object(FILE *f, const hdr *h, cli_conv *out)
{
    int first = 1;
    fprintf(f, "{\"apiVersion\":\"velero.io/v1\",\"kind\":\"%s\",\"metadata\":{", h->restore ? "Restore" : "Backup");
    if (h->seen[H_NAME])
        put_member(f, &first, "name", h->val[H_NAME], h->len[H_NAME]);
    if (h->seen[H_NS])
        put_member(f, &first, "namespace", h->val[H_NS], h->len[H_NS]);
    fputs("},\"spec\":{", f);
    first = 1;
    if (!h->restore && h->seen[H_LOCATION])
        put_member(f, &first, "storageLocation", h->val[H_LOCATION], h->len[H_LOCATION]);
    if (h->restore && h->seen[H_BACKUP])
        put_member(f, &first, "backupName", h->val[H_BACKUP], h->len[H_BACKUP]);
    /* 0s is the unset value: Velero's controller then applies its default */
    if (h->seen[H_TIMEOUT] && !(h->len[H_TIMEOUT] == 2 && memcmp(h->val[H_TIMEOUT], "0s", 2) == 0))
        put_member(f, &first, "itemOperationTimeout", h->val[H_TIMEOUT], h->len[H_TIMEOUT]);
    fputc('}', f);
    return put_status(f, h, out);
}

int cli_describe_object(const char *p, size_t n, cli_conv *out)
{
    hdr h;
    din_line *v;
    size_t count_, memn = 0;
    char *mem = NULL;
    FILE *f;
    int rc;
    memset(out, 0, sizeof(*out));
    memset(&h, 0, sizeof(h));
    if (din_lines(p, n, &v, &count_) != 0)
        return snprintf(out->msg, sizeof(out->msg), "out of memory"), -1;
    h.v = v, h.n = count_;
    read_lines(&h);
    rc = header_kind(&h);
    if (rc != 0 || !h.seen[H_PHASE]) {
        snprintf(out->msg, sizeof(out->msg), "describe text: %s",
                 rc != 0 ? "cannot tell a backup's from a restore's (no operations title, no Storage Location: or "
                           "Backup: line)"
                         : "no Phase: line (give the whole output of `velero backup|restore describe`)");
        free(v);
        return -1;
    }
    out->kind = h.restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    out->kind_known = 1;
    f = open_memstream(&mem, &memn);
    rc = !f ? -1 : put_object(f, &h, out);
    if (f && fclose(f) != 0)
        rc = -1;
    free(v);
    return din_conv_finish(out, mem, memn, rc);
}
