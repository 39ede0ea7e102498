/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus server-status --watch: the server status kept current by the
 * library's tracker over a kubectl watch stream, one line per change of the
 * status or of the reason set (doc/cli.md, "server-status --watch"). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch_stream.h"

/* One namespace's tracker: the library's tracker keys by name, and each
 * Velero server reads its own namespace, so a stream over several
 * namespaces (kubectl get bsl -A --watch) keeps one per namespace. */
typedef struct ns_tracker {
    char *ns;
    velstatus_server_tracker *tr;
    int changed, printed;
} ns_tracker;

typedef struct watch {
    const char *cmd, *name;
    velstatus_ctx *ctx;
    const velstatus_server_status_options *opts;
    ns_tracker *trs;
    size_t ntr;
    const char *ns_s; /* -n, or NULL */
    int all_ns;
    cli_format fmt;
    int strict, rc;
    const char *now_s;
    int now_read; /* now_ns holds --now, read at the first event */
    int64_t now_ns;
    int check_stale, clock_set;
    int64_t stale_eval_ns; /* when staleness was last evaluated */
    uint64_t events, malformed;
    const vs_watch_split *sp;
    /* the event in hand: its clock (0 not yet read, 1 read, -1 failed) and
     * time, and the first failure of its BSLs' upserts */
    int ev_clock;
    int64_t ev_now;
    velstatus_status bsl_st;
    velstatus_error bsl_err;
} watch;

/* An event that cannot be applied: reported, fatal with --strict. */
static int bad_event(watch *w, vs_watch_pos at, const char *what, const char *msg)
{
    w->malformed++;
    fprintf(stderr, "%s: %s: %s: %s at byte %llu (line %llu): %s%s\n", cli_prog, w->cmd, w->name, what,
            (unsigned long long)at.offset, (unsigned long long)at.line, msg, w->strict ? "" : " (skipped)");
    if (w->strict) {
        w->rc = CLI_BAD_INPUT;
        return 1;
    }
    return 0;
}

static int on_malformed(void *ud, vs_watch_pos at, const char *reason)
{
    return bad_event(ud, at, "malformed event", reason);
}

/* The tracker of namespace ns, made (with the clock the others have) when
 * it is new; NULL when -n names another namespace, or on no memory (*st). */
static ns_tracker *tracker_of(watch *w, const char *ns, size_t ns_len, velstatus_status *st, velstatus_error *err)
{
    ns_tracker *grown, *t;
    *st = VELSTATUS_OK;
    if (!ns)
        ns = "";
    if (w->ns_s && (strlen(w->ns_s) != ns_len || memcmp(ns, w->ns_s, ns_len) != 0))
        return NULL;
    for (size_t k = 0; k < w->ntr; k++)
        if (strlen(w->trs[k].ns) == ns_len && memcmp(w->trs[k].ns, ns, ns_len) == 0)
            return &w->trs[k];
    grown = realloc(w->trs, (w->ntr + 1) * sizeof(*grown));
    if (grown)
        w->trs = grown;
    t = grown ? &w->trs[w->ntr] : NULL;
    if (t) {
        memset(t, 0, sizeof(*t));
        t->ns = strndup(ns, ns_len);
        *st = t->ns ? velstatus_server_tracker_new(&t->tr, w->ctx, w->opts, err) : VELSTATUS_E_NOMEM;
        if (*st == VELSTATUS_OK && w->clock_set)
            *st = velstatus_server_tracker_set_now(t->tr, NULL, w->stale_eval_ns, err);
        if (*st == VELSTATUS_OK) {
            w->ntr++;
            return t;
        }
        velstatus_server_tracker_free(t->tr);
        free(t->ns);
    }
    if (*st == VELSTATUS_OK)
        *st = VELSTATUS_E_NOMEM;
    return NULL;
}

/* Prints a Status text of the ERROR event, or nothing when it is absent. */
static void put_text(const char *t, size_t n)
{
    if (t)
        cli_put_text(stderr, t, n);
}

/* An ERROR event (a Status object): its reason and message, exit 3. */
static int watch_error(watch *w, const velstatus_watch_event *ev, vs_watch_pos at)
{
    size_t n;
    const char *t;
    int64_t code;
    fprintf(stderr, "%s: %s: %s: watch ERROR at byte %llu (line %llu): ", cli_prog, w->cmd, w->name,
            (unsigned long long)at.offset, (unsigned long long)at.line);
    t = velstatus_watch_event_reason(ev, &n);
    put_text(t, n);
    fputs(": ", stderr);
    t = velstatus_watch_event_message(ev, &n);
    put_text(t, n);
    if (velstatus_watch_event_code(ev, &code))
        fprintf(stderr, " (code %lld)", (long long)code);
    fputs("; list again and restart the watch\n", stderr);
    w->rc = CLI_WATCH_ERROR;
    return 1;
}

/* One line for a namespace's current status: text, or the verdict JSON
 * with its namespace and observedAt. */
static int print_status(watch *w, ns_tracker *nt, int64_t now)
{
    velstatus_server_verdict *v = NULL;
    velstatus_error err;
    char t[VELSTATUS_TIME_BUFSIZE], *out = NULL;
    size_t out_len = 0;
    int64_t transition_ns = now;
    int multi = w->all_ns || w->ntr > 1;
    if (velstatus_time_format(t, sizeof(t), now, 0, &err) != VELSTATUS_OK ||
        velstatus_server_tracker_verdict(&v, nt->tr, &err) != VELSTATUS_OK) {
        w->rc = cli_fail_err(w->cmd, "verdict", &err);
        return 1;
    }
    velstatus_server_tracker_last_transition(nt->tr, &transition_ns); /* set_clock has dated it */
    if (w->fmt == CLI_CONDITION) {
        if (cli_print_condition(w->cmd, w->ctx, v, transition_ns, multi ? nt->ns : NULL) != CLI_OK) {
            velstatus_server_verdict_free(v);
            w->rc = CLI_BAD_INPUT;
            return 1;
        }
    } else if (w->fmt == CLI_JSON) {
        if (velstatus_server_verdict_to_json(&out, &out_len, v, &err) != VELSTATUS_OK) {
            velstatus_server_verdict_free(v);
            w->rc = cli_fail_err(w->cmd, "encode", &err);
            return 1;
        }
        fwrite(out, 1, out_len - 1, stdout); /* without its closing '}' */
        fputs(",\"namespace\":", stdout);
        cli_json_str(stdout, nt->ns, strlen(nt->ns));
        printf(",\"observedAt\":\"%s\"}\n", t);
        velstatus_free(w->ctx, out);
    } else {
        printf("%s ", t);
        if (multi)
            printf("%s%s: ", nt->ns[0] ? "namespace " : "", nt->ns[0] ? nt->ns : "(no namespace)");
        printf("%s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
               velstatus_server_verdict_message(v));
    }
    fflush(stdout);
    nt->printed = 1;
    velstatus_server_verdict_free(v);
    return 0;
}

/* The whole second an instant falls in (floored, also before the epoch). */
static int64_t floor_second(int64_t ns)
{
    return ns / 1000000000 - (ns % 1000000000 < 0);
}

/* Gives the tracker the event's time before the event, so that a transition
 * is dated by it. With --check-stale that re-evaluates staleness, O(n), so
 * it is done at most once per second of the clock: within a second the
 * tracker keeps the second's first instant, which prints the same
 * (lastTransitionTime has whole seconds). */
static int set_clock(watch *w, int64_t now)
{
    velstatus_error err;
    if (w->check_stale && w->clock_set && floor_second(now) == floor_second(w->stale_eval_ns))
        return 0;
    for (size_t k = 0; k < w->ntr; k++) {
        int ch = 0;
        if (velstatus_server_tracker_set_now(w->trs[k].tr, &ch, now, &err) != VELSTATUS_OK) {
            w->rc = cli_fail_err(w->cmd, "clock", &err);
            return 1;
        }
        w->trs[k].changed |= ch;
    }
    w->stale_eval_ns = now;
    w->clock_set = 1;
    return 0;
}

/* Prints each namespace whose status changed (or not printed yet, after
 * an applied event); the flags are cleared. */
static int print_changes(watch *w, int64_t now, int applied)
{
    int stop = 0;
    for (size_t k = 0; k < w->ntr; k++) {
        ns_tracker *t = &w->trs[k];
        if (!stop && (t->changed || (applied && !t->printed)))
            stop = print_status(w, t, now);
        t->changed = 0;
    }
    return stop;
}

/* The event's time: --now (read once), or the clock. */
static int event_now(watch *w, int64_t *now)
{
    if (w->now_s && w->now_read) {
        *now = w->now_ns;
        return 0;
    }
    if (cli_now(w->cmd, w->now_s, now) != 0)
        return 1;
    w->now_ns = *now;
    w->now_read = 1;
    return 0;
}

/* The event's clock, read once before its first BSL is applied: 0, or 1
 * when it failed (w->rc says why). */
static int event_clock(watch *w)
{
    if (w->ev_clock == 0)
        w->ev_clock = event_now(w, &w->ev_now) != 0 || set_clock(w, w->ev_now) != 0 ? -1 : 1;
    if (w->ev_clock > 0)
        return 0;
    w->rc = CLI_BAD_INPUT;
    return 1;
}

/* Upserts (or deletes) one BSL of the event in hand in the tracker of its
 * namespace (velstatus_bsl_fn); the first failure stops the event. */
static int on_bsl(void *ud, const velstatus_watch_event *ev, const velstatus_bsl_record *rec)
{
    watch *w = ud;
    int ch = 0;
    ns_tracker *t;
    if (event_clock(w) != 0)
        return -1;
    t = tracker_of(w, rec->ns, rec->ns_len, &w->bsl_st, &w->bsl_err);
    if (t)
        w->bsl_st = velstatus_watch_event_type(ev) == VELSTATUS_WATCH_DELETED
                        ? velstatus_server_tracker_delete(t->tr, &ch, rec->name, rec->name_len, &w->bsl_err)
                        : velstatus_server_tracker_upsert(t->tr, &ch, rec, &w->bsl_err);
    if (t)
        t->changed |= ch;
    return w->bsl_st == VELSTATUS_OK ? 0 : -1;
}

/* Ends one event (not an ERROR or a BOOKMARK) whose BSLs on_bsl() applied:
 * st and err are the decoder's; prints what changed. An event with no BSL
 * applied still moves the clock. */
static int finish_event(watch *w, velstatus_status st, velstatus_error *err, vs_watch_pos at)
{
    if (event_clock(w) != 0)
        return 1;
    if (st == VELSTATUS_E_HOST) { /* on_bsl() stopped it: its own failure */
        st = w->bsl_st;
        err = &w->bsl_err;
    }
    if (st == VELSTATUS_E_NOMEM) {
        w->rc = cli_fail(w->cmd, "out of memory");
        return 1;
    }
    if (st != VELSTATUS_OK && bad_event(w, at, "event", err->message))
        return 1;
    /* a skipped event prints only what its clock changed */
    return print_changes(w, w->ev_now, st == VELSTATUS_OK);
}

/* One event, its object's BSLs applied as they are decoded (on_bsl()),
 * with one validation of the text: the splitter cuts the stream without
 * validating it (quick mode). */
static int on_object(void *ud, const char *text, size_t len, vs_watch_pos at)
{
    watch *w = ud;
    velstatus_watch_event *ev = NULL;
    velstatus_error err;
    velstatus_status st;
    velstatus_watch_type type;
    int r;
    w->ev_clock = 0;
    w->bsl_st = VELSTATUS_OK;
    st = velstatus_bsl_watch_event_foreach(&ev, w->ctx, text, len, on_bsl, w, &err);
    if (!ev && w->sp->unchecked && (st == VELSTATUS_E_PARSE || st == VELSTATUS_E_RANGE))
        return VS_WATCH_RECHECK; /* not JSON: the splitter's scanner reports it, or hands it out again */
    w->events++;
    if (!ev && st == VELSTATUS_E_NOMEM) {
        w->rc = cli_fail(w->cmd, "out of memory");
        return 1;
    }
    if (!ev)
        return bad_event(w, at, "event", err.message);
    type = velstatus_watch_event_type(ev);
    if (type == VELSTATUS_WATCH_ERROR)
        r = watch_error(w, ev, at);
    else
        r = type == VELSTATUS_WATCH_BOOKMARK ? 0 : finish_event(w, st, &err, at);
    velstatus_watch_event_free(ev);
    return r;
}

/* The exit status of a status with --exit-status (doc/cli.md). */
int cli_status_exit(velstatus_server_status s)
{
    switch (s) {
    case VELSTATUS_SERVER_READY: return 0;
    case VELSTATUS_SERVER_PARTIALLY_READY: return 1;
    case VELSTATUS_SERVER_WAITING: return 4;
    default: return 5;
    }
}

/* Feeds the stream through the splitter until it ends or an event stops
 * it, read straight into the splitter's buffer. */
static int pump(watch *w, cli_reader *r, vs_watch_split *sp)
{
    for (;;) {
        char *room = vs_watch_split_space(sp, 65536);
        long got;
        int fr;
        if (!room)
            return cli_fail(w->cmd, "out of memory");
        got = cli_reader_read(r, room, 65536);
        if (got < 0)
            return CLI_BAD_INPUT;
        fr = got == 0 ? vs_watch_split_end(sp) : vs_watch_split_commit(sp, (size_t)got);
        if (fr < 0)
            return cli_fail(w->cmd, "out of memory");
        if (fr > 0 || got == 0)
            return w->rc;
    }
}

/* --exit-status after a watch: the worst status of the namespaces (Waiting when none was seen). */
static int watch_exit(const watch *w)
{
    int rc = w->ntr ? 0 : cli_status_exit(VELSTATUS_SERVER_WAITING);
    for (size_t k = 0; k < w->ntr; k++) {
        int r = cli_status_exit(velstatus_server_tracker_status(w->trs[k].tr));
        rc = r > rc ? r : rc; /* the codes 0, 1, 4, 5 grow with the severity */
    }
    return rc;
}

static void watch_free(watch *w)
{
    for (size_t k = 0; k < w->ntr; k++) {
        velstatus_server_tracker_free(w->trs[k].tr);
        free(w->trs[k].ns);
    }
    free(w->trs);
    velstatus_ctx_free(w->ctx);
}

int cli_watch(const char *cmd, const char *path, const velstatus_server_status_options *opts, const char *now_s,
              cli_format fmt, int strict, int exit_status, const char *ns_s, int all_ns)
{
    watch w = {0};
    velstatus_error err;
    vs_watch_split sp;
    cli_reader *r;
    int rc;
    w.cmd = cmd;
    w.fmt = fmt;
    w.strict = strict;
    w.now_s = now_s;
    w.check_stale = w.clock_set = opts->check_stale; /* with it the tracker's clock starts at --now */
    w.stale_eval_ns = opts->now_ns;
    w.opts = opts;
    w.ns_s = ns_s;
    w.all_ns = all_ns;
    if (velstatus_ctx_new(&w.ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    r = cli_reader_open(cmd, path);
    rc = CLI_BAD_INPUT;
    if (r) {
        w.name = cli_reader_name(r);
        cli_reader_unbounded(r); /* the splitter bounds each object by --max-input instead */
        vs_watch_split_init(&sp, (size_t)(cli_max_input < SIZE_MAX ? cli_max_input : SIZE_MAX), on_object, on_malformed,
                            &w);
        sp.quick = 1; /* on_object validates each object as it decodes it */
        w.sp = &sp;
        rc = pump(&w, r, &sp);
        vs_watch_split_free(&sp);
        cli_reader_close(r);
        if (rc == CLI_OK && exit_status)
            rc = watch_exit(&w);
    }
    watch_free(&w);
    return rc;
}
