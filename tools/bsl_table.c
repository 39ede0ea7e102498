/* SPDX-License-Identifier: Apache-2.0 */
/* server-status's table under each verdict line: the columns of
 * `velero backup-location get` (Velero's
 * pkg/cmd/util/output/backup_storage_location_printer.go, printed by the
 * Kubernetes table printer: a tabwriter with minimum width 6, padding 3,
 * spaces), then the message of every location that is not Available
 * (doc/server-status.md, "Why a location is not Available"). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NCOL = 7, MINWIDTH = 6, PADDING = 3 };

/* One row's cells, each NUL-terminated in its own buffer. */
typedef struct row {
    char cell[NCOL][512];
} row;

/* Width in runes, as Go's tabwriter counts it (a continuation byte is not one). */
static size_t runes(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The cells Velero's printer writes for one BSL. */
static void fill_row(row *w, const velstatus_bsl_record *r, int utc)
{
    snprintf(w->cell[0], sizeof(w->cell[0]), "%.*s", (int)r->name_len, r->name);
    snprintf(w->cell[1], sizeof(w->cell[1]), "%.*s", (int)r->provider_len, r->provider ? r->provider : "");
    snprintf(w->cell[2], sizeof(w->cell[2]), "%.*s%s%.*s", (int)r->bucket_len, r->bucket ? r->bucket : "",
             r->prefix_len ? "/" : "", (int)r->prefix_len, r->prefix ? r->prefix : "");
    snprintf(w->cell[3], sizeof(w->cell[3]), "%.*s", (int)r->phase_len, r->phase_len ? r->phase : "Unknown");
    if (r->has_validated)
        cli_format_time(w->cell[4], sizeof(w->cell[4]), r->validated_ns, utc);
    else
        snprintf(w->cell[4], sizeof(w->cell[4]), "Unknown");
    snprintf(w->cell[5], sizeof(w->cell[5]), "%s", velstatus_bsl_access_to_string(r->access));
    snprintf(w->cell[6], sizeof(w->cell[6]), "%s", r->is_default ? "true" : "");
}

static void put_row(const row *w, const size_t *width)
{
    for (int c = 0; c < NCOL; c++) {
        fputs(w->cell[c], stdout);
        if (c + 1 < NCOL)
            printf("%*s", (int)(width[c] - runes(w->cell[c])), "");
    }
    putchar('\n');
}

static const row header = {{"NAME", "PROVIDER", "BUCKET/PREFIX", "PHASE", "LAST VALIDATED", "ACCESS MODE", "DEFAULT"}};

/* The i-th BSL's record when it is in namespace ns. */
static int in_ns(const velstatus_bsl_set *set, size_t i, const char *ns, velstatus_bsl_record *r)
{
    velstatus_bsl_record_init(r, sizeof(*r));
    return strcmp(velstatus_bsl_set_namespace(set, i), ns) == 0 &&
           velstatus_bsl_set_get(set, i, r, NULL) == VELSTATUS_OK;
}

static void widen(size_t *width, const row *w)
{
    for (int c = 0; c < NCOL; c++) {
        size_t n = runes(w->cell[c]) + PADDING;
        if (n > width[c])
            width[c] = n < MINWIDTH ? MINWIDTH : n;
    }
}

/* "NAME: MESSAGE" for each BSL of ns whose phase is not Available. */
static void put_messages(const velstatus_bsl_set *set, const char *ns)
{
    for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
        velstatus_bsl_record r;
        if (!in_ns(set, i, ns, &r) || (r.phase_len == 9 && memcmp(r.phase, "Available", 9) == 0))
            continue;
        printf("%s: ", r.name);
        if (r.message_len)
            cli_put_text(stdout, r.message, r.message_len);
        else
            printf("no message (phase %s)", r.phase_len ? r.phase : "Unknown: never validated");
        putchar('\n');
    }
}

/* Two passes over the set, one row in memory: the column widths, then the rows. */
void cli_print_bsl_table(const velstatus_bsl_set *set, const char *ns, int utc)
{
    size_t width[NCOL] = {0}, n = 0;
    row w;
    widen(width, &header);
    for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
        velstatus_bsl_record r;
        if (!in_ns(set, i, ns, &r))
            continue;
        fill_row(&w, &r, utc);
        widen(width, &w);
        n++;
    }
    if (n == 0)
        return;
    put_row(&header, width);
    for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
        velstatus_bsl_record r;
        if (!in_ns(set, i, ns, &r))
            continue;
        fill_row(&w, &r, utc);
        put_row(&w, width);
    }
    put_messages(set, ns);
}
