/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus backup-status: a Backup's or Restore's phase, the kstatus-style
 * conditions it should carry (Velero sets none: velero #3664, #4069) and
 * its Argo CD health exactly as Argo CD's velero.io/Backup and
 * velero.io/Restore health checks compute it (doc/cli.md, "backup-status"). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch_stream.h"

enum { H_HEALTHY = 0, H_DEGRADED = 1, H_PROGRESSING = 4 }; /* the --exit-status codes */

typedef struct bs {
    const char *cmd, *name, *now_s;
    cli_format fmt;
    int rc, health, any;
    velstatus_ctx *ctx;
    velstatus_policy pol; /* --velero-version: which phases exist */
    int major, minor;
} bs;

/* What is printed of the i-th object of a decoded list: the library
 * decides its health and its conditions. */
typedef struct obj {
    velstatus_kind kind;
    const char *name, *phase, *failure;
    size_t name_len, phase_len, failure_len;
    int deleting;
    int64_t errors, warnings, generation;
    int has_generation;
    velstatus_argo_health health;
    const char *msg; /* Argo's message */
    size_t msg_len;
    velstatus_backup_conditions c;
} obj;

static int read_obj(const bs *b, const velstatus_backup_list *l, size_t i, obj *o)
{
    velstatus_error err;
    memset(o, 0, sizeof(*o));
    o->kind = velstatus_backup_list_kind(l, i);
    o->name = velstatus_backup_list_name(l, i, &o->name_len);
    o->phase = velstatus_backup_list_phase(l, i, &o->phase_len);
    o->failure = velstatus_backup_list_failure_reason(l, i, &o->failure_len);
    o->deleting = velstatus_backup_list_deletion_time(l, i, NULL);
    o->has_generation = velstatus_backup_list_generation(l, i, &o->generation);
    velstatus_backup_list_errors(l, i, &o->errors);
    velstatus_backup_list_warnings(l, i, &o->warnings);
    velstatus_backup_conditions_init(&o->c, sizeof(o->c));
    if (velstatus_argo_health_of(&o->health, &o->msg, &o->msg_len, o->kind, o->phase, o->phase_len, o->failure,
                                 o->failure_len, o->deleting, &err) != VELSTATUS_OK ||
        velstatus_backup_conditions_of(&o->c, o->kind, o->phase, o->phase_len, o->deleting, &b->pol, &err) !=
            VELSTATUS_OK)
        return cli_fail_err(b->cmd, "object", &err);
    return CLI_OK;
}

/* Argo's health as the --exit-status code. */
static int health_code(velstatus_argo_health h)
{
    return h == VELSTATUS_ARGO_HEALTHY ? H_HEALTHY : h == VELSTATUS_ARGO_DEGRADED ? H_DEGRADED : H_PROGRESSING;
}

static const char *health_name(velstatus_argo_health h)
{
    return h == VELSTATUS_ARGO_HEALTHY ? "Healthy" : h == VELSTATUS_ARGO_DEGRADED ? "Degraded" : "Progressing";
}

static const char *cond(velstatus_condition_status s)
{
    return velstatus_condition_status_to_string(s);
}

static void put_cond(const char *type, velstatus_condition_status status, const obj *o, const char *t, int first)
{
    const char *cm = o->failure ? o->failure : o->msg;
    size_t cl = o->failure ? o->failure_len : o->msg_len;
    printf("%s{\"type\":\"%s\",\"status\":\"%s\"", first ? "" : ",", type, cond(status));
    if (o->has_generation && o->generation >= 0)
        printf(",\"observedGeneration\":%lld", (long long)o->generation);
    printf(",\"lastTransitionTime\":\"%s\",\"reason\":", t);
    cli_json_str(stdout, o->c.reason, o->c.reason_len);
    printf(",\"message\":");
    cli_json_str(stdout, cm, cl);
    putchar('}');
}

/* A text as a JSON string, or null when absent. */
static void put_json_text(const char *s, size_t n)
{
    if (s)
        cli_json_str(stdout, s, n);
    else
        fputs("null", stdout);
}

static void print_json(const bs *b, const obj *o, int known, const char *t)
{
    if (b->fmt == CLI_CONDITION) {
        put_cond("Ready", o->c.ready, o, t, 1);
        putchar('\n');
        return;
    }
    printf("{\"kind\":\"%s\",\"name\":", o->kind == VELSTATUS_KIND_RESTORE ? "Restore" : "Backup");
    put_json_text(o->name, o->name_len);
    printf(",\"phase\":");
    put_json_text(o->phase, o->phase_len);
    printf(",\"phaseKnown\":%s,\"errors\":%lld,\"warnings\":%lld,\"health\":{\"status\":\"%s\",\"message\":",
           known ? "true" : "false", (long long)(o->errors < 0 ? 0 : o->errors),
           (long long)(o->warnings < 0 ? 0 : o->warnings), health_name(o->health));
    cli_json_str(stdout, o->msg, o->msg_len);
    printf("},\"conditions\":[");
    put_cond("Ready", o->c.ready, o, t, 1);
    put_cond("Reconciling", o->c.reconciling, o, t, 0);
    put_cond("Stalled", o->c.stalled, o, t, 0);
    printf("]}\n");
}

/* "a, b": the finalizers Argo appends to a Backup pending deletion. */
static void put_finalizers(const velstatus_backup_list *l, size_t i)
{
    size_t n = velstatus_backup_list_finalizer_count(l, i), len = 0;
    if (n == 0 || (n == 1 && velstatus_backup_list_finalizer(l, i, 0, &len) && len == 0))
        return; /* nothing to name */
    printf("; blocked by finalizers: ");
    for (size_t j = 0; j < n; j++) {
        const char *f = velstatus_backup_list_finalizer(l, i, j, &len);
        if (j)
            printf(", ");
        cli_put_text(stdout, f, len);
    }
}

static void print_text(const bs *b, const velstatus_backup_list *l, size_t i, const obj *o)
{
    printf("%s ", o->kind == VELSTATUS_KIND_RESTORE ? "Restore" : "Backup");
    cli_put_text(stdout, o->name ? o->name : "(no name)", o->name ? o->name_len : 9);
    printf(": phase ");
    if (o->phase)
        cli_put_text(stdout, o->phase_len ? o->phase : "New", o->phase_len ? o->phase_len : 3);
    else
        printf("(none)");
    if (!o->c.phase_in_release)
        printf(" (not a phase of Velero %d.%d)", b->major, b->minor);
    else if (!o->c.phase_valid)
        printf(" (unknown to this version)");
    printf("; Argo CD health %s: ", health_name(o->health));
    cli_put_text(stdout, o->msg, o->msg_len);
    if (o->kind == VELSTATUS_KIND_BACKUP && o->deleting)
        put_finalizers(l, i);
    printf("; Ready=%s Reconciling=%s Stalled=%s (", cond(o->c.ready), cond(o->c.reconciling), cond(o->c.stalled));
    cli_put_text(stdout, o->c.reason, o->c.reason_len);
    printf(")\n");
}

/* The i-th Backup or Restore of a decoded list. */
static int report(bs *b, const velstatus_backup_list *l, size_t i)
{
    obj o;
    int64_t now;
    char t[VELSTATUS_TIME_BUFSIZE];
    if (read_obj(b, l, i, &o) != CLI_OK || cli_now(b->cmd, b->now_s, &now) != 0 ||
        velstatus_time_format(t, sizeof(t), now, 0, NULL) != VELSTATUS_OK) {
        b->rc = CLI_BAD_INPUT;
        return 1;
    }
    if (b->fmt != CLI_TEXT)
        print_json(b, &o, o.c.phase_valid && o.c.phase_in_release, t);
    else
        print_text(b, l, i, &o);
    b->health = health_code(o.health);
    b->any = 1;
    return 0;
}

/* The position of byte `off` of the object at `at` (text from there). */
static vs_watch_pos pos_in(vs_watch_pos at, const char *text, size_t off)
{
    for (size_t k = 0; k < off; k++)
        at.line += text[k] == '\n';
    at.offset += off;
    return at;
}

/* A decoding error of the object text[0..]: named with its position. */
static int decode_error(bs *b, const char *text, vs_watch_pos at, const velstatus_error *err)
{
    vs_watch_pos p = pos_in(at, text, (size_t)err->offset);
    if (err->code == VELSTATUS_E_NOMEM) {
        b->rc = cli_fail(b->cmd, "out of memory");
        return 1;
    }
    fprintf(stderr, "%s: %s: %s: object at byte %llu (line %llu): %s\n", cli_prog, b->cmd, b->name,
            (unsigned long long)p.offset, (unsigned long long)p.line, err->message);
    b->rc = CLI_BAD_INPUT;
    return 1;
}

/* Every Backup and Restore of the object text[0..len) (one, or a List). */
static int report_all(bs *b, const char *text, size_t len, vs_watch_pos at)
{
    velstatus_backup_list *l = NULL;
    velstatus_error err;
    size_t n, skipped;
    if (velstatus_backup_list_from_json(&l, b->ctx, text, len, &err) != VELSTATUS_OK)
        return decode_error(b, text, at, &err);
    n = velstatus_backup_list_count(l);
    skipped = velstatus_backup_list_skipped(l);
    if (skipped)
        fprintf(stderr, "%s: %s: %s: object at byte %llu (line %llu) %s not a Backup or Restore (skipped)\n", cli_prog,
                b->cmd, b->name, (unsigned long long)at.offset, (unsigned long long)at.line,
                n == 0 && skipped == 1 ? "is" : "holds items that are");
    for (size_t i = 0; i < n; i++) {
        if (report(b, l, i) != 0) {
            velstatus_backup_list_free(l);
            return 1;
        }
    }
    velstatus_backup_list_free(l);
    return 0;
}

/* One object of the stream: a watch event, a List or one object. */
static int on_object(void *ud, const char *text, size_t len, vs_watch_pos at)
{
    bs *b = ud;
    velstatus_watch_event *ev = NULL;
    velstatus_error err;
    size_t off = 0, olen;
    velstatus_watch_type type;
    if (velstatus_watch_event_from_json(&ev, b->ctx, text, len, &err) != VELSTATUS_OK)
        return decode_error(b, text, at, &err);
    type = velstatus_watch_event_type(ev);
    olen = velstatus_watch_event_object(ev, &off);
    velstatus_watch_event_free(ev);
    if (type == VELSTATUS_WATCH_ERROR) {
        fprintf(stderr, "%s: %s: %s: watch ERROR at byte %llu (line %llu); list again and restart the watch\n",
                cli_prog, b->cmd, b->name, (unsigned long long)at.offset, (unsigned long long)at.line);
        b->rc = CLI_WATCH_ERROR;
        return 1;
    }
    if (type == VELSTATUS_WATCH_BOOKMARK || type == VELSTATUS_WATCH_DELETED)
        return 0;
    return report_all(b, text + off, olen, pos_in(at, text, off));
}

static int on_malformed(void *ud, vs_watch_pos at, const char *reason)
{
    bs *b = ud;
    fprintf(stderr, "%s: %s: %s: malformed JSON at byte %llu (line %llu): %s\n", cli_prog, b->cmd, b->name,
            (unsigned long long)at.offset, (unsigned long long)at.line, reason);
    b->rc = CLI_BAD_INPUT;
    return 1;
}

static const cli_usage usage = {"backup-status", "[FILE|-]",
                                "Reads Backup or Restore objects (`kubectl get backup NAME -o json`, a List, or a\n"
                                "`--watch [--output-watch-events]` stream) and prints for each its phase, the\n"
                                "kstatus-style conditions it should carry (Ready, Reconciling, Stalled; Velero sets\n"
                                "none) and its Argo CD health exactly as Argo CD's velero.io/Backup and\n"
                                "velero.io/Restore health checks compute it. A phase unknown to this version is\n"
                                "flagged, never guessed; so is, with --velero-version X.Y (default: the current\n"
                                "release), a phase that Velero release did not have (Queued and ReadyToStart\n"
                                "before 1.18, a restore's Finalizing phases before 1.14; doc/velero-releases.md).\n"
                                "-o condition prints the Ready condition alone\n"
                                "(lastTransitionTime: --now, default the current time).\n"
                                "\n"
                                "Exit status: 0 success, 2 bad input or usage, 3 a watch ERROR event.\n"};

int cmd_backup_status(int argc, char **argv)
{
    const char *cmd = "backup-status", *fmt_s = "text", *path = NULL, *version_s = NULL;
    bs b = {0};
    int exit_status = 0, npos, r;
    static char chunk[65536];
    vs_watch_split sp;
    cli_reader *rd;
    const cli_opt opts[] = {CLI_OPT_NOW(&b.now_s),
                            CLI_FLAG("--exit-status", 0, &exit_status,
                                     "exit with the last object's health: 0 Healthy, 1 Degraded, 4 Progressing"),
                            CLI_OPT_OUTPUT_OF(&fmt_s, "text|json|condition"), CLI_OPT_VELERO_VERSION(&version_s)};
    r = cli_parse(&usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, 1, &npos);
    if (r != 0)
        return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    if (cli_parse_format_more(cmd, fmt_s, 1, 0, &b.fmt) != 0 ||
        cli_policy(cmd, NULL, "velero", version_s, &b.pol, &b.major, &b.minor) != 0 ||
        !(rd = cli_reader_open(cmd, path)))
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&b.ctx, NULL, NULL) != VELSTATUS_OK) {
        cli_reader_close(rd);
        return cli_fail(cmd, "out of memory");
    }
    b.cmd = cmd;
    b.name = cli_reader_name(rd);
    cli_reader_unbounded(rd);
    vs_watch_split_init(&sp, (size_t)(cli_max_input < SIZE_MAX ? cli_max_input : SIZE_MAX), on_object, on_malformed,
                        &b);
    for (;;) {
        long got = cli_reader_read(rd, chunk, sizeof(chunk));
        int fr = got < 0 ? 1 : got == 0 ? vs_watch_split_end(&sp) : vs_watch_split_feed(&sp, chunk, (size_t)got);
        if (got < 0)
            b.rc = CLI_BAD_INPUT;
        else if (fr < 0)
            b.rc = cli_fail(cmd, "out of memory");
        if (fr != 0 || got <= 0)
            break;
    }
    vs_watch_split_free(&sp);
    cli_reader_close(rd);
    velstatus_ctx_free(b.ctx);
    if (b.rc == CLI_OK && !b.any)
        return cli_fail(cmd, "%s: no Backup or Restore object", b.name);
    return b.rc == CLI_OK && exit_status ? b.health : b.rc;
}
