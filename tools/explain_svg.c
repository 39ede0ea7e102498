/* SPDX-License-Identifier: Apache-2.0 */
/* explain -o svg (explain_svg.h, doc/explain.md): the forecast drawn as a
 * timeline. A time axis from the earliest `created` to the last event (or a
 * horizon when the forecast stalls); one row per operation (created -> now
 * filled to its progress, the ETA at its rate, the timeout deadline, its
 * fate in colour and in words); a marker for now and for each event, with
 * the phase change and the Cancel calls; the events listed in full. Past
 * ROW_LIMIT operations, one row per fate and plugin with a count, each
 * operation a tick in it. Every decision is the forecast's. */
#include "explain_svg.h"

#include "cli.h"
#include "svg.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH 1200.0
#define MARGIN 20.0
#define ROW_H 30.0
#define ROW_LIMIT 40   /* more operations than this: one row per fate and plugin */
#define EVENT_LIMIT 40 /* more events than this: some listed, the rest summed up, their markers faint */
#define LANES 4        /* label lanes above the rows for the event markers */
#define LANE_H 14.0
#define LINE_H 15.0
#define ARROW "\xE2\x86\x92" /* → */
#define SEP " \xC2\xB7 "     /* · */
/* A white outline under a row's text, so the lines it crosses do not hide it. */
#define HALO "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\""

/* What the picture says becomes of an operation: colour, pattern and word. */
enum { CAT_COMPLETES, CAT_TIMES_OUT, CAT_FAILED, CAT_NO_TIMEOUT, CAT_UNKNOWN, CAT_N };

static const struct {
    const char *word, *fill, *ink, *legend;
} CATS[CAT_N] = {
    {"completes", "#7cb342", "#33691e", "completes / completed"},
    {"times out", "url(#vs-timeout)", "#b71c1c", "times out " ARROW " Cancel"},
    {"failed", "#212121", "#212121", "failed / fails"},
    {"no timeout", "url(#vs-notimeout)", "#0d47a1", "no timeout"},
    {"unknown", "#bdbdbd", "#616161", "unknown"},
};

/* One operation as drawn. */
typedef struct opv {
    int cat, running, has_finish, has_deadline;
    int64_t start, end, finish, deadline, done, total;
} opv;

/* A row: one operation, or (grouped) every operation of a fate and plugin. */
typedef struct row {
    int cat;
    size_t op, count; /* the first operation, and how many */
    const char *plugin;
    size_t plugin_len;
} row;

typedef struct sv {
    FILE *f;
    const explain_svg_in *in;
    size_t nops, nev, nrows;
    row *rows;
    int grouped; /* 0: a row per operation; 1: per fate and plugin; 2: per fate */
    double t0, t1, L, R;
    int *lane; /* per event: its label lane, -1 for none */
    int *lane_short;
    int nlanes;
} sv;

/* ---- times ---- */

static void full_time(const sv *s, char *out, size_t cap, int64_t ns)
{
    cli_format_time(out, cap, ns, s->in->utc);
}

/* "14:00:00.000000001": the clock of the full time, without date or zone. */
static void clock_time(const sv *s, char *out, size_t cap, int64_t ns)
{
    char buf[128];
    size_t n;
    full_time(s, buf, sizeof(buf), ns);
    n = strlen(buf) > 11 ? strcspn(buf + 11, " ") : 0;
    snprintf(out, cap, "%.*s", (int)n, n ? buf + 11 : buf);
}

/* The zone's offset in seconds at ns and its words ("+0200 CEST"). */
static long zone_offset(const sv *s, int64_t ns, char *zone, size_t cap)
{
    char buf[128];
    const char *z;
    long off;
    full_time(s, buf, sizeof(buf), ns);
    z = strlen(buf) > 19 ? strchr(buf + 19, ' ') : NULL;
    if (!z || (z[1] != '+' && z[1] != '-') || strlen(z) < 6) {
        snprintf(zone, cap, "UTC");
        return 0;
    }
    snprintf(zone, cap, "%s", z + 1);
    off = ((z[2] - '0') * 10 + (z[3] - '0')) * 3600L + ((z[4] - '0') * 10 + (z[5] - '0')) * 60L;
    return z[1] == '-' ? -off : off;
}

static double text_w(size_t chars, double size)
{
    return (double)chars * size * SVG_CHAR_EM;
}

static double xat(const sv *s, double t)
{
    double x = s->L + (t - s->t0) / (s->t1 - s->t0) * (s->R - s->L);
    return x < s->L ? s->L : x > s->R ? s->R : x;
}

static int64_t event_time(const sv *s, size_t k)
{
    int64_t t = 0;
    (void)velstatus_forecast_event_time(s->in->fc, k, &t);
    return t;
}

/* ---- the operations ---- */

static int is_running(velstatus_op_phase ph)
{
    return ph == VELSTATUS_OP_PHASE_NEW || ph == VELSTATUS_OP_PHASE_IN_PROGRESS;
}

static int category(const sv *s, size_t i, const velstatus_op *op)
{
    velstatus_op_phase ph = velstatus_op_phase_value(op);
    if (ph == VELSTATUS_OP_PHASE_COMPLETED)
        return CAT_COMPLETES;
    if (ph == VELSTATUS_OP_PHASE_FAILED)
        return CAT_FAILED;
    switch (velstatus_forecast_op_fate(s->in->fc, i)) {
    case VELSTATUS_FORECAST_FATE_TIMES_OUT:
        return velstatus_forecast_op_eta(s->in->fc, i) == VELSTATUS_FORECAST_ETA_BEFORE ? CAT_COMPLETES : CAT_TIMES_OUT;
    case VELSTATUS_FORECAST_FATE_ERROR_FAILS:
    case VELSTATUS_FORECAST_FATE_UNKNOWN_FAILS: return CAT_FAILED;
    case VELSTATUS_FORECAST_FATE_NO_CREATED:
    case VELSTATUS_FORECAST_FATE_NO_TIMEOUT: return CAT_NO_TIMEOUT;
    default: return CAT_UNKNOWN;
    }
}

static void op_view(const sv *s, size_t i, opv *v)
{
    const velstatus_op *op = velstatus_oplist_at(s->in->ops, i);
    int64_t created = 0, updated = 0;
    int has_created = velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &created);
    int has_updated = velstatus_op_time_value(op, VELSTATUS_OP_TIME_UPDATED, &updated);
    memset(v, 0, sizeof(*v));
    v->cat = category(s, i, op);
    v->running = is_running(velstatus_op_phase_value(op));
    v->end = v->running ? s->in->now : has_updated ? updated : has_created ? created : s->in->now;
    v->start = has_created ? created : v->end;
    if (v->end < v->start)
        v->end = v->start;
    v->done = velstatus_op_n_completed(op);
    v->total = velstatus_op_n_total(op);
    if (velstatus_op_phase_value(op) == VELSTATUS_OP_PHASE_COMPLETED && v->total <= 0)
        v->done = v->total = 1;
    v->has_finish = v->running && velstatus_forecast_op_finish(s->in->fc, i, &v->finish);
    v->has_deadline = velstatus_forecast_op_deadline(s->in->fc, i, &v->deadline);
}

static const char *plugin_of(const sv *s, size_t i, size_t *n)
{
    const char *p = velstatus_op_string(velstatus_oplist_at(s->in->ops, i), VELSTATUS_OP_FIELD_ITEM_ACTION, n);
    if (!p)
        *n = 0;
    return p ? p : "";
}

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->cat != y->cat)
        return x->cat < y->cat ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

/* The rows of grouping g (1: fate and plugin, 2: fate); 0 when there are
 * more than ROW_LIMIT of them. */
static size_t group(sv *s, int g)
{
    size_t i, r, n = 0, pn;
    for (i = 0; i < s->nops; i++) {
        opv v;
        const char *p = plugin_of(s, i, &pn);
        op_view(s, i, &v);
        for (r = 0; r < n; r++)
            if (s->rows[r].cat == v.cat &&
                (g == 2 || (s->rows[r].plugin_len == pn && memcmp(s->rows[r].plugin, p, pn) == 0)))
                break;
        if (r == n) {
            if (n == ROW_LIMIT)
                return 0;
            s->rows[n++] = (row){v.cat, i, 0, g == 2 ? NULL : p, g == 2 ? 0 : pn};
        }
        s->rows[r].count++;
    }
    qsort(s->rows, n, sizeof(*s->rows), row_cmp);
    return n;
}

static int make_rows(sv *s)
{
    size_t i;
    s->rows = calloc(s->nops > ROW_LIMIT ? s->nops : ROW_LIMIT, sizeof(*s->rows));
    if (!s->rows)
        return 0;
    if (s->nops <= ROW_LIMIT) {
        for (i = 0; i < s->nops; i++) {
            opv v;
            op_view(s, i, &v);
            s->rows[i] = (row){v.cat, i, 1, NULL, 0};
        }
        s->nrows = s->nops;
        return 1;
    }
    s->grouped = 1;
    s->nrows = group(s, 1);
    if (s->nrows == 0) {
        s->grouped = 2;
        s->nrows = group(s, 2);
    }
    return 1;
}

static int in_row(const sv *s, const row *r, size_t i)
{
    opv v;
    size_t pn;
    const char *p;
    if (!s->grouped)
        return i == r->op;
    op_view(s, i, &v);
    if (v.cat != r->cat)
        return 0;
    p = plugin_of(s, i, &pn);
    return s->grouped == 2 || (pn == r->plugin_len && memcmp(p, r->plugin, pn) == 0);
}

/* The row's operations drawn as one: the earliest start, the latest end,
 * finish and deadline, the progress summed. */
static void row_view(const sv *s, const row *r, opv *out)
{
    size_t i;
    int first = 1;
    for (i = r->op; i < s->nops; i++) {
        opv v;
        if (!in_row(s, r, i))
            continue;
        op_view(s, i, &v);
        if (first) {
            *out = v;
            first = 0;
            continue;
        }
        out->start = v.start < out->start ? v.start : out->start;
        out->end = v.end > out->end ? v.end : out->end;
        out->running |= v.running;
        if (v.has_finish && (!out->has_finish || v.finish > out->finish))
            out->finish = v.finish, out->has_finish = 1;
        if (v.has_deadline && (!out->has_deadline || v.deadline > out->deadline))
            out->deadline = v.deadline, out->has_deadline = 1;
        if (v.total > 0 && v.done >= 0 && out->total < INT64_MAX / 2 && v.total < INT64_MAX / 2) {
            out->done = (out->total > 0 ? out->done : 0) + (v.done > v.total ? v.total : v.done);
            out->total = (out->total > 0 ? out->total : 0) + v.total;
        }
    }
}

/* ---- the axis ---- */

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* From the earliest created to the last event (and now); deadlines and
 * ETAs beyond that stretch it at most to twice its span. A stalled
 * forecast, or none, gets a quarter of the span beyond now as its horizon. */
static void horizon(sv *s)
{
    size_t i;
    double base = (double)s->in->now, want, span;
    s->t0 = base;
    for (i = 0; i < s->nops; i++) {
        opv v;
        op_view(s, i, &v);
        s->t0 = (double)v.start < s->t0 ? (double)v.start : s->t0;
    }
    if (s->nev > 0)
        base = dmax(base, (double)event_time(s, s->nev - 1));
    span = dmax(base - s->t0, 600e9);
    want = base;
    for (i = 0; i < s->nops; i++) {
        opv v;
        op_view(s, i, &v);
        if (v.has_finish)
            want = dmax(want, (double)v.finish);
        if (v.has_deadline)
            want = dmax(want, (double)v.deadline);
    }
    want = want > base + span ? base + span : want;
    if (want <= base)
        want = base + span * (s->nev == 0 || velstatus_forecast_end_kind(s->in->fc) == VELSTATUS_FORECAST_END_STALLED
                                  ? 0.25
                                  : 0.05);
    s->t1 = want + (want - s->t0) * 0.03;
    s->t1 = s->t1 > 9.2e18 ? 9.2e18 : s->t1;
    s->t0 = s->t0 < -9.2e18 ? -9.2e18 : s->t0;
    s->L = MARGIN;
    s->R = WIDTH - MARGIN;
}

static const long long STEPS[] = {1,   2,    5,    10,   15,    30,    60,    120,   300,    600,
                                  900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800};

static long long tick_step(const sv *s)
{
    double span = (s->t1 - s->t0) / 1e9;
    size_t i;
    for (i = 0; i < sizeof(STEPS) / sizeof(STEPS[0]); i++)
        if (span / (double)STEPS[i] <= 8)
            return STEPS[i];
    return ((long long)(span / 8 / 86400) + 1) * 86400;
}

/* A tick label's anchor: its middle, but none may pass an edge. */
static const char *tick_anchor(const sv *s, double x)
{
    return x - text_w(5, 11) < s->L - MARGIN ? "start" : x + text_w(5, 11) > s->R + MARGIN ? "end" : "middle";
}

/* Tick labels (the clock; the date under the first and where it changes)
 * at y, and the grid lines from y0 to y1 (y0 == y1: none). */
static void ticks(const sv *s, double y, double y0, double y1)
{
    char zone[64], buf[128], date[16] = "";
    long long step = tick_step(s), t;
    long off = zone_offset(s, (int64_t)s->t0, zone, sizeof(zone));
    long long first = (long long)(s->t0 / 1e9) + off, q = first / step;
    q += q * step < first;
    for (t = q * step - off; (double)t * 1e9 <= s->t1; t += step) {
        double x = xat(s, (double)t * 1e9);
        if ((double)t * 1e9 < s->t0)
            continue;
        if (y1 > y0)
            svg_line(s->f, x, y0, x, y1, "stroke=\"#e0e0e0\" stroke-width=\"1\"");
        full_time(s, buf, sizeof(buf), (int64_t)t * 1000000000);
        if (strlen(buf) < 19)
            continue;
        fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#424242\">%.*s</text>\n", x, y,
                tick_anchor(s, x),
                step < 60      ? 8
                : step < 86400 ? 5
                               : 10,
                step < 86400 ? buf + 11 : buf);
        if (step < 86400 && strncmp(date, buf, 10) != 0) {
            snprintf(date, sizeof(date), "%.10s", buf);
            fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#757575\">%s</text>\n", x, y + 11,
                    tick_anchor(s, x), date);
        }
    }
}

/* ---- the events ---- */

static velstatus_phase phase_before(const velstatus_forecast *f, size_t k)
{
    return k == 0 ? velstatus_forecast_phase(f)
                  : velstatus_reconcile_result_phase(velstatus_forecast_event_result(f, k - 1));
}

/* The marker's label, "E1 → FinalizingPartiallyFailed · Cancel ID": the
 * program's words in buf, the one canceled operation's ID (input, at most
 * 40 characters shown) in *id. Returns its width in characters. */
static size_t lane_label(const sv *s, size_t k, int brief, char *buf, size_t cap, const char **id, size_t *idn)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(s->in->fc, k);
    velstatus_phase to = velstatus_reconcile_result_phase(r);
    size_t nc = velstatus_reconcile_result_canceled_count(r), ne = velstatus_reconcile_result_error_count(r), n;
    *id = NULL;
    *idn = 0;
    n = (size_t)snprintf(buf, cap, "E%zu", k + 1);
    if (!brief && to != phase_before(s->in->fc, k))
        n += (size_t)snprintf(buf + n, cap - n, " " ARROW " %s", velstatus_phase_to_string(to));
    if (!brief && nc == 1) {
        n += (size_t)snprintf(buf + n, cap - n, SEP "Cancel ");
        *id = velstatus_reconcile_result_canceled_id(r, 0, idn);
    } else if (!brief && nc > 1) {
        n += (size_t)snprintf(buf + n, cap - n, SEP "Cancel \xC3\x97%zu", nc);
    } else if (!brief && to == phase_before(s->in->fc, k) && ne > 0) {
        n += (size_t)snprintf(buf + n, cap - n, SEP "%zu error%s", ne, ne == 1 ? "" : "s");
    }
    n = svg_chars(buf, n);
    if (*id)
        n += svg_chars(*id, *idn) < 40 ? svg_chars(*id, *idn) : 40;
    return n;
}

/* The lane of a label of `chars` characters at x: the first whose labels
 * end left of it; -1 when none. It is written from x rightwards, or
 * leftwards when it would pass the right edge. */
static int take_lane(const sv *s, double *ends, double x, size_t chars)
{
    double w = text_w(chars, 11), left = x + 3 + w <= s->R ? x + 3 : x - 3 - w;
    int l;
    for (l = 0; l < LANES; l++)
        if (ends[l] + 8 <= left) {
            ends[l] = left + w;
            return l;
        }
    return -1;
}

/* Lanes for "now" (lane 0) and for each event's label, in time order: the
 * full label where it fits, else "Ek", else none (the list has it). */
static void place_labels(sv *s)
{
    double ends[LANES];
    size_t k, n, idn;
    char buf[160];
    const char *id;
    int l;
    for (l = 0; l < LANES; l++)
        ends[l] = -1e9;
    s->nlanes = 1;
    (void)take_lane(s, ends, xat(s, (double)s->in->now), 12);
    for (k = 0; k < s->nev; k++) {
        double x = xat(s, (double)event_time(s, k));
        s->lane_short[k] = 0;
        n = lane_label(s, k, 0, buf, sizeof(buf), &id, &idn);
        s->lane[k] = take_lane(s, ends, x, n);
        if (s->lane[k] < 0) {
            s->lane_short[k] = 1;
            s->lane[k] = take_lane(s, ends, x, lane_label(s, k, 1, buf, sizeof(buf), &id, &idn));
        }
        if (s->lane[k] + 1 > s->nlanes)
            s->nlanes = s->lane[k] + 1;
    }
}

static const char *persist_words(velstatus_persist_action a)
{
    return a == VELSTATUS_PERSIST_UPLOAD_AND_PATCH ? "uploads and patches"
           : a == VELSTATUS_PERSIST_PATCH          ? "patches the status"
                                                   : "writes nothing";
}

/* "E1 <time>: From → To · Cancel a, b · error: ... · uploads and patches". */
static void event_words(svg_span *t, const sv *s, size_t k)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(s->in->fc, k);
    velstatus_phase from = phase_before(s->in->fc, k), to = velstatus_reconcile_result_phase(r);
    size_t i, n, nc = velstatus_reconcile_result_canceled_count(r), ne = velstatus_reconcile_result_error_count(r);
    char at[128];
    const char *p;
    full_time(s, at, sizeof(at), event_time(s, k));
    svg_span_printf(t, "E%zu %s: ", k + 1, at);
    if (to != from)
        svg_span_printf(t, "%s " ARROW " %s", velstatus_phase_to_string(from), velstatus_phase_to_string(to));
    else
        svg_span_printf(t, "stays %s", velstatus_phase_to_string(to));
    for (i = 0; i < nc; i++) {
        p = velstatus_reconcile_result_canceled_id(r, i, &n);
        svg_span_printf(t, i == 0 ? SEP "Cancel " : ", ");
        svg_span_put(t, p, n);
    }
    for (i = 0; i < ne; i++) {
        p = velstatus_reconcile_result_error(r, i, &n);
        svg_span_printf(t, i == 0 ? SEP "error: " : "; ");
        svg_span_put(t, p, n);
    }
    svg_span_printf(t, SEP "%s", persist_words(velstatus_reconcile_result_persist(r)));
}

/* The marker of event k from y0 to y1, its tooltip the event in full, its
 * label in its lane (lanes from y_lanes). */
static void event_marker(const sv *s, size_t k, double y_lanes, double y0, double y1)
{
    double x = xat(s, (double)event_time(s, k)), w;
    char buf[160], attrs[96];
    const char *id;
    size_t idn, n;
    svg_span t;
    fputs("<g>", s->f);
    svg_title_open(&t, s->f);
    event_words(&t, s, k);
    (void)svg_span_close(&t);
    svg_line(s->f, x, y0, x, y1,
             s->nev > EVENT_LIMIT ? "stroke=\"#6a1b9a\" stroke-width=\"0.5\" stroke-opacity=\"0.35\""
                                  : "stroke=\"#6a1b9a\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"");
    if (s->lane[k] >= 0) {
        n = lane_label(s, k, s->lane_short[k], buf, sizeof(buf), &id, &idn);
        w = text_w(n, 11);
        snprintf(attrs, sizeof(attrs), "fill=\"#4a148c\"%s", x + 3 + w <= s->R ? "" : " text-anchor=\"end\"");
        svg_text_open(&t, s->f, x + 3 + w <= s->R ? x + 3 : x - 3, y_lanes + LANE_H * s->lane[k] + 11, attrs, n);
        svg_span_put(&t, buf, strlen(buf));
        if (id)
            svg_span_put(&t, id, idn);
        (void)svg_span_close(&t);
        svg_line(s->f, x, y_lanes + LANE_H * s->lane[k] + 13, x, y0, "stroke=\"#6a1b9a\" stroke-width=\"0.6\"");
    }
    fputs("</g>\n", s->f);
}

/* ---- the rows ---- */

static size_t event_of(const sv *s, size_t i)
{
    return velstatus_forecast_op_event(s->in->fc, i);
}

/* The fate of operation i in the program's words: "times out: Cancel at E1 14:00:00". */
static void op_fate(const sv *s, size_t i, const opv *v, char *out, size_t cap)
{
    char a[64] = "", b[64] = "";
    size_t e = event_of(s, i);
    velstatus_forecast_fate fate = velstatus_forecast_op_fate(s->in->fc, i);
    if (e != SIZE_MAX)
        clock_time(s, a, sizeof(a), event_time(s, e));
    if (v->cat == CAT_COMPLETES && v->running) {
        clock_time(s, a, sizeof(a), v->finish);
        clock_time(s, b, sizeof(b), v->deadline);
        snprintf(out, cap, "completes at its rate at %s, before its timeout %s", a, b);
    } else if (v->cat == CAT_TIMES_OUT) {
        snprintf(out, cap, "times out: Cancel at E%zu %s", e + 1, a);
    } else if (v->cat == CAT_FAILED && v->running) {
        snprintf(out, cap, "fails at E%zu %s", e + 1, a);
    } else if (v->cat == CAT_NO_TIMEOUT) {
        snprintf(out, cap, "no timeout: %s",
                 fate == VELSTATUS_FORECAST_FATE_NO_CREATED ? "no created time" : "a timeout <= 0");
    } else if (v->cat == CAT_UNKNOWN) {
        snprintf(out, cap, "unknown: %s",
                 !s->in->fc                                        ? "not forecast"
                 : fate == VELSTATUS_FORECAST_FATE_UNKNOWN_SKIPPED ? "an unknown phase, skipped"
                                                                   : "still running when the timeline ends");
    } else {
        snprintf(out, cap, "%s", v->cat == CAT_COMPLETES ? "completed" : "failed");
    }
}

/* A group's fate: "times out: Cancel at E1 … E480". */
static void row_fate(const sv *s, const row *r, char *out, size_t cap)
{
    size_t i, lo = SIZE_MAX, hi = 0, e;
    for (i = r->op; i < s->nops; i++)
        if (in_row(s, r, i) && (e = event_of(s, i)) != SIZE_MAX) {
            lo = e < lo ? e : lo;
            hi = e > hi ? e : hi;
        }
    if (r->cat == CAT_COMPLETES)
        snprintf(out, cap, "%s", "completes / completed");
    else if (lo == SIZE_MAX)
        snprintf(out, cap, "%s", CATS[r->cat].word);
    else if (lo == hi)
        snprintf(out, cap, "%s at E%zu", CATS[r->cat].word, lo + 1);
    else
        snprintf(out, cap, "%s at E%zu \xE2\x80\xA6 E%zu", CATS[r->cat].word, lo + 1, hi + 1);
}

static void put_field(svg_span *t, const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    const char *p = velstatus_op_string(op, f, &n);
    if (p)
        svg_span_put(t, p, n);
}

/* "ID · plugin · persistentvolumeclaims ns/name". */
static void op_words(svg_span *t, const velstatus_op *op)
{
    size_t n;
    put_field(t, op, VELSTATUS_OP_FIELD_OPERATION_ID);
    svg_span_printf(t, SEP);
    put_field(t, op, VELSTATUS_OP_FIELD_ITEM_ACTION);
    if (velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &n) && n > 0) {
        svg_span_printf(t, SEP);
        put_field(t, op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE);
        svg_span_printf(t, " ");
        if (velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &n) && n > 0) {
            put_field(t, op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE);
            svg_span_printf(t, "/");
        }
        put_field(t, op, VELSTATUS_OP_FIELD_RESOURCE_NAME);
    }
}

static int pct(const opv *v)
{
    if (v->total <= 0 || v->done < 0)
        return -1;
    return v->done >= v->total ? 100 : (int)((double)v->done * 100.0 / (double)v->total);
}

/* The tooltip of operation i: everything the row shows, in full. */
static void op_title(const sv *s, size_t i, const opv *v)
{
    const velstatus_op *op = velstatus_oplist_at(s->in->ops, i);
    char fate[160], t[128];
    svg_span sp;
    op_fate(s, i, v, fate, sizeof(fate));
    svg_title_open(&sp, s->f);
    op_words(&sp, op);
    svg_span_printf(&sp, SEP "phase ");
    put_field(&sp, op, VELSTATUS_OP_FIELD_PHASE);
    if (v->total > 0)
        svg_span_printf(&sp, SEP "%lld of %lld", (long long)v->done, (long long)v->total);
    full_time(s, t, sizeof(t), v->start);
    svg_span_printf(&sp, SEP "from %s", t);
    if (v->has_deadline) {
        full_time(s, t, sizeof(t), v->deadline);
        svg_span_printf(&sp, SEP "timeout passes at %s", t);
    }
    if (v->has_finish) {
        full_time(s, t, sizeof(t), v->finish);
        svg_span_printf(&sp, SEP "at its rate done at %s", t);
    }
    svg_span_printf(&sp, SEP "%s", fate);
    (void)svg_span_close(&sp);
}

/* The bar of v with its top at y: created -> end filled to its progress, the
 * ETA beyond, the deadline marker. */
static void bar(const sv *s, const opv *v, double y)
{
    double x0 = xat(s, (double)v->start), x1 = xat(s, (double)v->end), w = x1 - x0 < 4 ? 4 : x1 - x0;
    int p = pct(v);
    char attrs[96];
    if (v->has_finish && v->finish > v->end && !(v->has_deadline && (double)v->deadline > s->t1)) {
        double xf = xat(s, (double)v->finish);
        snprintf(attrs, sizeof(attrs), "fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\" stroke-dasharray=\"3 2\"",
                 CATS[v->cat].fill, CATS[v->cat].ink);
        svg_rect(s->f, x0 + w, y + 1, xf - x0 - w, 8, attrs);
        if ((double)v->finish > s->t1)
            svg_words(s->f, s->R + 2, y + 9, "fill=\"#424242\"", "\xE2\x96\xB8");
    }
    svg_rect(s->f, x0, y, w, 10, "fill=\"#ffffff\" stroke=\"#424242\"");
    snprintf(attrs, sizeof(attrs), "fill=\"%s\"", CATS[v->cat].fill);
    if (p >= 0)
        svg_rect(s->f, x0, y, w * p / 100.0, 10, attrs);
    else if (!v->running)
        svg_rect(s->f, x0, y, w, 10, attrs);
    if (v->has_deadline && (double)v->deadline > s->t1) {
        svg_words(s->f, s->R + 2, y + 9, "fill=\"#000000\"", "\xE2\x96\xB8"); /* later than the axis shows */
    } else if (v->has_deadline) {
        double xd = xat(s, (double)v->deadline);
        svg_line(s->f, xd, y - 3, xd, y + 13, "stroke=\"#000000\" stroke-width=\"2\"");
        svg_marker(s->f, xd, y - 5, 7, "fill=\"#000000\"");
    }
}

static void op_row(const sv *s, size_t i, double y)
{
    const velstatus_op *op = velstatus_oplist_at(s->in->ops, i);
    char fate[160], attrs[192];
    size_t all = (size_t)((s->R - s->L) / text_w(1, 11)), fl;
    svg_span t;
    opv v;
    int p;
    op_view(s, i, &v);
    op_fate(s, i, &v, fate, sizeof(fate));
    fl = svg_chars(fate, strlen(fate));
    fputs("<g>", s->f);
    op_title(s, i, &v);
    svg_text_open(&t, s->f, s->L, y + 11, HALO, all > fl + 3 ? all - fl - 3 : 1);
    op_words(&t, op);
    if ((p = pct(&v)) >= 0)
        svg_span_printf(&t, SEP "%d%%", p);
    (void)svg_span_close(&t);
    snprintf(attrs, sizeof(attrs), "text-anchor=\"end\" font-weight=\"bold\" fill=\"%s\" " HALO, CATS[v.cat].ink);
    svg_text(s->f, s->R, y + 11, attrs, fate, strlen(fate), fl);
    bar(s, &v, y + 16);
    fputs("</g>\n", s->f);
}

/* A group: its count, plugin and summed progress, one bar spanning them,
 * and a tick per operation at its deadline (else its ETA, else its end)
 * whose tooltip is that operation. */
static void group_row(const sv *s, const row *r, double y)
{
    char fate[160], attrs[192];
    size_t i;
    svg_span t;
    opv v;
    int p;
    row_view(s, r, &v);
    v.has_deadline = 0;
    row_fate(s, r, fate, sizeof(fate));
    snprintf(attrs, sizeof(attrs), "text-anchor=\"end\" font-weight=\"bold\" fill=\"%s\" " HALO, CATS[r->cat].ink);
    svg_text(s->f, s->R, y + 11, attrs, fate, strlen(fate), 60);
    svg_text_open(&t, s->f, s->L, y + 11, HALO, 100);
    svg_span_printf(&t, "%zu operation%s" SEP, r->count, r->count == 1 ? "" : "s");
    if (s->grouped == 1)
        svg_span_put(&t, r->plugin, r->plugin_len);
    else
        svg_span_printf(&t, "every plugin");
    if ((p = pct(&v)) >= 0)
        svg_span_printf(&t, SEP "%d%% of their total", p);
    (void)svg_span_close(&t);
    bar(s, &v, y + 16);
    for (i = r->op; i < s->nops; i++) {
        opv o;
        if (!in_row(s, r, i))
            continue;
        op_view(s, i, &o);
        fputs("<g>", s->f);
        op_title(s, i, &o);
        svg_rect(s->f,
                 xat(s, (double)(o.has_deadline ? o.deadline
                                 : o.has_finish ? o.finish
                                                : o.end)) -
                     0.5,
                 y + 13, 1, 16, "fill=\"#000000\" fill-opacity=\"0.6\"");
        fputs("</g>\n", s->f);
    }
}

/* ---- the frame ---- */

static void put_object(svg_span *t, const explain_svg_in *in)
{
    svg_span_printf(t, "%s ", in->kind == VELSTATUS_KIND_BACKUP ? "Backup" : "Restore");
    if (in->ns) {
        svg_span_put(t, in->ns, in->ns_len);
        svg_span_printf(t, "/");
    }
    if (in->name)
        svg_span_put(t, in->name, in->name_len);
    else
        svg_span_printf(t, "(no name)");
    svg_span_printf(t, SEP);
    if (in->phase)
        svg_span_put(t, in->phase, in->phase_len);
    else
        svg_span_printf(t, "(no phase)");
}

/* Why there is no timeline, in the text form's words. */
static const char *no_timeline(const explain_svg_in *in)
{
    if (!in->phase_known)
        return "No timeline: the phase is unknown.";
    if (velstatus_phase_is_terminal(in->kind, in->phase_value))
        return "No timeline: the phase is terminal; nothing more happens.";
    if (in->phase_value == VELSTATUS_PHASE_IN_PROGRESS)
        return "No timeline: the operations are first evaluated when the main run ends, which no input tells.";
    if (!in->ops)
        return "No timeline without --operations (the <name>-itemoperations.json.gz in the BSL).";
    return "No timeline: only the WaitingForPluginOperations phases are forecast.";
}

static void header(const sv *s, double h)
{
    const explain_svg_in *in = s->in;
    char d[VELSTATUS_DURATION_BUFSIZE], now[128], zone[64], rel[32] = "";
    svg_span t;
    svg_title_open(&t, s->f);
    svg_span_printf(&t, "velstatus explain: ");
    put_object(&t, in);
    (void)svg_span_close(&t);
    svg_rect(s->f, 0, 0, WIDTH, h, "fill=\"#ffffff\"");
    svg_text_open(&t, s->f, s->L, 24, "font-size=\"16\" font-weight=\"bold\"", (size_t)((s->R - s->L) / text_w(1, 16)));
    put_object(&t, in);
    (void)svg_span_close(&t);
    if (velstatus_duration_format(d, sizeof(d), in->timeout_ns, NULL) != VELSTATUS_OK)
        snprintf(d, sizeof(d), "%lldns", (long long)in->timeout_ns);
    if (in->major > 0)
        snprintf(rel, sizeof(rel), ", Velero %d.%d", in->major, in->minor);
    full_time(s, now, sizeof(now), in->now);
    (void)zone_offset(s, in->now, zone, sizeof(zone));
    svg_text_open(&t, s->f, s->L, 42, "fill=\"#424242\"", 200);
    svg_span_printf(&t, "policy %s%s" SEP "item operation timeout %s from %s" SEP "now %s", in->policy, rel, d,
                    in->timeout_src, now);
    (void)svg_span_close(&t);
    svg_text_open(&t, s->f, s->L, 58, "fill=\"#424242\"", 200);
    if (in->fc)
        svg_span_printf(&t,
                        "if every plugin keeps reporting the progress recorded" SEP "ends %s (%s)" SEP "times in %s",
                        velstatus_phase_to_string(velstatus_forecast_final_phase(in->fc)),
                        velstatus_forecast_end_to_string(velstatus_forecast_end_kind(in->fc)), zone);
    else
        svg_span_printf(&t, "%s", no_timeline(in));
    (void)svg_span_close(&t);
}

/* A legend's words at x; the x after them. */
static double legend_words(const sv *s, double x, double y, const char *words)
{
    svg_words(s->f, x, y, "", words);
    return x + text_w(svg_chars(words, strlen(words)), 11) + 24;
}

static void legend(const sv *s, double y)
{
    double x = s->L;
    char attrs[64];
    int c;
    for (c = 0; c < CAT_N; c++) {
        snprintf(attrs, sizeof(attrs), "fill=\"%s\" stroke=\"#424242\"", CATS[c].fill);
        svg_rect(s->f, x, y - 9, 22, 10, attrs);
        x = legend_words(s, x + 28, y, CATS[c].legend);
    }
    y += 16;
    x = s->L;
    svg_rect(s->f, x, y - 9, 22, 10, "fill=\"#ffffff\" stroke=\"#424242\"");
    svg_rect(s->f, x, y - 9, 9, 10, "fill=\"#9e9e9e\"");
    x = legend_words(s, x + 28, y, "created " ARROW " now, filled to its progress");
    svg_rect(s->f, x, y - 8, 22, 8,
             "fill=\"#9e9e9e\" fill-opacity=\"0.3\" stroke=\"#424242\" stroke-dasharray=\"3 2\"");
    x = legend_words(s, x + 28, y, "ETA at its current rate");
    svg_marker(s->f, x + 11, y - 11, 7, "fill=\"#000000\"");
    svg_line(s->f, x + 11, y - 9, x + 11, y + 3, "stroke=\"#000000\" stroke-width=\"2\"");
    x = legend_words(s, x + 22, y, "timeout deadline");
    svg_line(s->f, x + 11, y - 11, x + 11, y + 3, "stroke=\"#000000\" stroke-width=\"1.5\"");
    x = legend_words(s, x + 22, y, "now");
    svg_line(s->f, x + 11, y - 11, x + 11, y + 3, "stroke=\"#6a1b9a\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"");
    (void)legend_words(s, x + 22, y, "forecast event Ek (listed below)");
}

static void defs(FILE *f)
{
    fputs("<defs>\n"
          "<pattern id=\"vs-timeout\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
          "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#c62828\"/>"
          "<rect width=\"2\" height=\"6\" fill=\"#ffcdd2\"/></pattern>\n"
          "<pattern id=\"vs-notimeout\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
          "<rect width=\"6\" height=\"6\" fill=\"#90caf9\"/><circle cx=\"3\" cy=\"3\" r=\"1.3\" fill=\"#0d47a1\"/>"
          "</pattern>\n"
          "</defs>\n",
          f);
}

/* The events in full, one a line (past EVENT_LIMIT the first ones and the
 * last, the rest summed up); then how the timeline ends. Returns the y
 * after it. */
static double event_list(const sv *s, double y)
{
    size_t k, all = (size_t)((s->R - s->L) / text_w(1, 11));
    char a[128], b[128];
    svg_span t;
    svg_words(s->f, s->L, y, "font-weight=\"bold\"", "Forecast events");
    if (s->nev == 0)
        svg_words(s->f, s->L + 140, y, "", s->in->fc ? "none: the next passes decide nothing" : "none: not forecast");
    for (k = 0; k < s->nev; k++) {
        if (s->nev > EVENT_LIMIT && k == EVENT_LIMIT - 2) {
            full_time(s, a, sizeof(a), event_time(s, k));
            full_time(s, b, sizeof(b), event_time(s, s->nev - 2));
            y += LINE_H;
            svg_text_open(&t, s->f, s->L, y, "fill=\"#616161\"", all);
            svg_span_printf(&t, "E%zu \xE2\x80\xA6 E%zu: %zu more, from %s to %s (each marker's tooltip has it)", k + 1,
                            s->nev - 1, s->nev - k - 1, a, b);
            (void)svg_span_close(&t);
            k = s->nev - 2;
            continue;
        }
        y += LINE_H;
        svg_text_open(&t, s->f, s->L, y, "fill=\"#4a148c\"", all);
        event_words(&t, s, k);
        (void)svg_span_close(&t);
    }
    return y;
}

static double end_line(const sv *s, double y)
{
    size_t i, n = 0;
    char buf[200];
    if (!s->in->fc)
        return y;
    for (i = 0; i < s->nops; i++)
        n += velstatus_forecast_op_fate(s->in->fc, i) == VELSTATUS_FORECAST_FATE_NO_CREATED ||
             velstatus_forecast_op_fate(s->in->fc, i) == VELSTATUS_FORECAST_FATE_NO_TIMEOUT ||
             velstatus_forecast_op_fate(s->in->fc, i) == VELSTATUS_FORECAST_FATE_NOT_REACHED;
    if (velstatus_forecast_end_kind(s->in->fc) == VELSTATUS_FORECAST_END_STALLED)
        snprintf(buf, sizeof(buf),
                 "Then nothing more is decided: %zu operation%s without a deadline run until their "
                 "plugin reports them done.",
                 n, n == 1 ? "" : "s");
    else if (velstatus_forecast_final_phase(s->in->fc) == VELSTATUS_PHASE_FINALIZING ||
             velstatus_forecast_final_phase(s->in->fc) == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED)
        snprintf(buf, sizeof(buf), "Then the finalizer controller sets %s.",
                 velstatus_forecast_final_phase(s->in->fc) == VELSTATUS_PHASE_FINALIZING ? "Completed"
                                                                                         : "PartiallyFailed");
    else
        snprintf(buf, sizeof(buf), "Then it is %s: nothing more happens.",
                 velstatus_phase_to_string(velstatus_forecast_final_phase(s->in->fc)));
    y += LINE_H;
    svg_text(s->f, s->L, y, "", buf, strlen(buf), 200);
    return y;
}

/* ---- the picture ---- */

/* The vertical positions, computed before anything is written (the root
 * element carries the height). */
typedef struct layout {
    double lanes, axis, rows, bottom, list, height;
} layout;

static void lay_out(const sv *s, layout *y)
{
    size_t nlist = s->nev > EVENT_LIMIT ? EVENT_LIMIT : s->nev;
    y->lanes = 116 + (s->grouped ? LINE_H : 0);
    y->axis = y->lanes + LANE_H * s->nlanes + 14;
    y->rows = y->axis + 20;
    y->bottom = y->rows + ROW_H * (double)s->nrows + 14;
    y->list = y->bottom + 36;
    y->height = y->list + LINE_H * (double)(nlist + 2) + 24;
}

static void now_marker(const sv *s, const layout *y)
{
    double x = xat(s, (double)s->in->now);
    char c[64], label[80];
    clock_time(s, c, sizeof(c), s->in->now);
    snprintf(label, sizeof(label), "now %s", c);
    svg_line(s->f, x, y->lanes + 13, x, y->bottom - 10, "stroke=\"#000000\" stroke-width=\"1.5\"");
    svg_text(s->f, x + 3 + text_w(strlen(label), 11) <= s->R ? x + 3 : x - 3, y->lanes + 11,
             x + 3 + text_w(strlen(label), 11) <= s->R ? "font-weight=\"bold\""
                                                       : "font-weight=\"bold\" text-anchor=\"end\"",
             label, strlen(label), 80);
}

static void chart(const sv *s, const layout *y)
{
    size_t r, k;
    char buf[160];
    if (s->grouped) {
        snprintf(buf, sizeof(buf), "%zu operations: one row per fate%s, a tick per operation (its tooltip names it)",
                 s->nops, s->grouped == 1 ? " and plugin" : "");
        svg_text(s->f, s->L, y->lanes - 6, "fill=\"#424242\"", buf, strlen(buf), 160);
    }
    ticks(s, y->axis, y->axis + 6, y->bottom - 10);
    now_marker(s, y);
    for (k = 0; k < s->nev; k++)
        event_marker(s, k, y->lanes, y->axis + 6, y->bottom - 10);
    for (r = 0; r < s->nrows; r++)
        s->grouped ? group_row(s, &s->rows[r], y->rows + ROW_H * (double)r)
                   : op_row(s, s->rows[r].op, y->rows + ROW_H * (double)r);
    ticks(s, y->bottom + 4, 0, 0);
}

static void sv_free(sv *s)
{
    free(s->rows);
    free(s->lane);
    free(s->lane_short);
}

int explain_svg(FILE *f, const explain_svg_in *in)
{
    sv s;
    layout y;
    memset(&s, 0, sizeof(s));
    s.f = f;
    s.in = in;
    s.nops = in->ops ? velstatus_oplist_count(in->ops) : 0;
    s.nev = velstatus_forecast_event_count(in->fc);
    s.lane = calloc(s.nev + 1, sizeof(*s.lane));
    s.lane_short = calloc(s.nev + 1, sizeof(*s.lane_short));
    if (!s.lane || !s.lane_short || !make_rows(&s)) {
        sv_free(&s);
        return cli_fail("explain", "out of memory");
    }
    horizon(&s);
    place_labels(&s);
    lay_out(&s, &y);
    svg_begin(f, WIDTH, y.height);
    header(&s, y.height);
    defs(f);
    legend(&s, 84);
    chart(&s, &y);
    y.list = event_list(&s, y.list);
    (void)end_line(&s, y.list);
    svg_end(f);
    sv_free(&s);
    return CLI_OK;
}
