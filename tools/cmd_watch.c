/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus server-status --watch: the server status kept current by the
 * library's tracker over a kubectl watch stream, one line per change of the
 * status or of the reason set (doc/cli.md, "server-status --watch"). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch_stream.h"

typedef struct watch {
    const char *cmd, *name;
    velstatus_ctx *ctx;
    velstatus_server_tracker *tr;
    cli_format fmt;
    int strict, rc, printed;
    const char *now_s;
    int check_stale, clock_set;
    int64_t stale_eval_ns; /* when staleness was last evaluated */
    uint64_t events, malformed;
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

/* Upserts each BSL of obj (one object, or a List) as the decoder reads it,
 * each decoded BSL passed to the tracker as a record. */
static velstatus_status upsert(watch *w, const char *obj, size_t len, int *changed, velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    velstatus_status st = velstatus_bsl_set_from_json(&set, w->ctx, obj, len, err);
    *changed = 0;
    for (size_t i = 0; st == VELSTATUS_OK && i < velstatus_bsl_set_count(set); i++) {
        int ch = 0;
        velstatus_bsl_record rec;
        velstatus_bsl_record_init(&rec, sizeof(rec));
        st = velstatus_bsl_set_get(set, i, &rec, err);
        if (st == VELSTATUS_OK)
            st = velstatus_server_tracker_upsert(w->tr, &ch, &rec, err);
        *changed |= ch;
    }
    velstatus_bsl_set_free(set);
    return st;
}

static velstatus_status delete_bsl(watch *w, const char *obj, size_t len, int *changed, velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    velstatus_status st = velstatus_bsl_set_from_json(&set, w->ctx, obj, len, err);
    *changed = 0;
    for (size_t i = 0; st == VELSTATUS_OK && i < velstatus_bsl_set_count(set); i++) {
        const char *name = velstatus_bsl_set_name(set, i);
        int ch = 0;
        st = velstatus_server_tracker_delete(w->tr, &ch, name, strlen(name), err);
        *changed |= ch;
    }
    velstatus_bsl_set_free(set);
    return st;
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

/* One line for the current status: text, or the verdict JSON with observedAt. */
static int print_status(watch *w, int64_t now)
{
    velstatus_server_verdict *v = NULL;
    velstatus_error err;
    char t[VELSTATUS_TIME_BUFSIZE], *out = NULL;
    size_t out_len = 0;
    int64_t transition_ns = now;
    if (velstatus_time_format(t, sizeof(t), now, 0, &err) != VELSTATUS_OK ||
        velstatus_server_tracker_verdict(&v, w->tr, &err) != VELSTATUS_OK) {
        w->rc = cli_fail_err(w->cmd, "verdict", &err);
        return 1;
    }
    velstatus_server_tracker_last_transition(w->tr, &transition_ns); /* set_clock has dated it */
    if (w->fmt == CLI_CONDITION) {
        if (cli_print_condition(w->cmd, w->ctx, v, transition_ns) != CLI_OK) {
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
        printf(",\"observedAt\":\"%s\"}\n", t);
        velstatus_free(w->ctx, out);
    } else {
        printf("%s %s: %s\n", t, velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
               velstatus_server_verdict_message(v));
    }
    fflush(stdout);
    w->printed = 1;
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
static int set_clock(watch *w, int64_t now, int *changed)
{
    velstatus_error err;
    int ch = 0;
    if (w->check_stale && w->clock_set && floor_second(now) == floor_second(w->stale_eval_ns))
        return 0;
    if (velstatus_server_tracker_set_now(w->tr, &ch, now, &err) != VELSTATUS_OK) {
        w->rc = cli_fail_err(w->cmd, "clock", &err);
        return 1;
    }
    w->stale_eval_ns = now;
    w->clock_set = 1;
    *changed |= ch;
    return 0;
}

/* Applies one decoded event (not an ERROR or a BOOKMARK) to the tracker. */
static int apply(watch *w, const char *obj, size_t olen, int is_delete, vs_watch_pos at)
{
    int changed = 0, ticked = 0;
    int64_t now;
    velstatus_error err;
    velstatus_status st;
    if (cli_now(w->cmd, w->now_s, &now) != 0 || set_clock(w, now, &ticked) != 0) {
        w->rc = CLI_BAD_INPUT;
        return 1;
    }
    st = is_delete ? delete_bsl(w, obj, olen, &changed, &err) : upsert(w, obj, olen, &changed, &err);
    if (st == VELSTATUS_E_NOMEM) {
        w->rc = cli_fail(w->cmd, "out of memory");
        return 1;
    }
    if (st != VELSTATUS_OK && bad_event(w, at, "event", err.message))
        return 1;
    /* a skipped event prints only when its clock changed the status */
    if (st != VELSTATUS_OK ? ticked : changed || ticked || !w->printed)
        return print_status(w, now);
    return 0;
}

static int on_object(void *ud, const char *text, size_t len, vs_watch_pos at)
{
    watch *w = ud;
    velstatus_watch_event *ev = NULL;
    velstatus_error err;
    velstatus_status st;
    velstatus_watch_type type;
    size_t off = 0, olen;
    int r;
    w->events++;
    st = velstatus_watch_event_from_json(&ev, w->ctx, text, len, &err);
    if (st == VELSTATUS_E_NOMEM) {
        w->rc = cli_fail(w->cmd, "out of memory");
        return 1;
    }
    if (st != VELSTATUS_OK)
        return bad_event(w, at, "event", err.message);
    type = velstatus_watch_event_type(ev);
    olen = velstatus_watch_event_object(ev, &off);
    if (type == VELSTATUS_WATCH_ERROR)
        r = watch_error(w, ev, at);
    else
        r = type == VELSTATUS_WATCH_BOOKMARK ? 0 : apply(w, text + off, olen, type == VELSTATUS_WATCH_DELETED, at);
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

/* Feeds the stream through the splitter until it ends or an event stops it. */
static int pump(watch *w, cli_reader *r, vs_watch_split *sp)
{
    static char chunk[65536];
    for (;;) {
        long got = cli_reader_read(r, chunk, sizeof(chunk));
        int fr;
        if (got < 0)
            return CLI_BAD_INPUT;
        fr = got == 0 ? vs_watch_split_end(sp) : vs_watch_split_feed(sp, chunk, (size_t)got);
        if (fr < 0)
            return cli_fail(w->cmd, "out of memory");
        if (fr > 0 || got == 0)
            return w->rc;
    }
}

int cli_watch(const char *cmd, const char *path, const velstatus_server_status_options *opts, const char *now_s,
              cli_format fmt, int strict, int exit_status)
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
    if (velstatus_ctx_new(&w.ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    if (velstatus_server_tracker_new(&w.tr, w.ctx, opts, &err) != VELSTATUS_OK) {
        velstatus_ctx_free(w.ctx);
        return cli_fail_err(cmd, "tracker", &err);
    }
    r = cli_reader_open(cmd, path);
    rc = CLI_BAD_INPUT;
    if (r) {
        w.name = cli_reader_name(r);
        cli_reader_unbounded(r); /* the splitter bounds each object by --max-input instead */
        vs_watch_split_init(&sp, (size_t)(cli_max_input < SIZE_MAX ? cli_max_input : SIZE_MAX), on_object, on_malformed,
                            &w);
        rc = pump(&w, r, &sp);
        vs_watch_split_free(&sp);
        cli_reader_close(r);
        if (rc == CLI_OK && exit_status)
            rc = cli_status_exit(velstatus_server_tracker_status(w.tr));
    }
    velstatus_server_tracker_free(w.tr);
    velstatus_ctx_free(w.ctx);
    return rc;
}
