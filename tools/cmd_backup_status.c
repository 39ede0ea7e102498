/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus backup-status: a Backup's or Restore's phase, the kstatus-style
 * conditions it should carry (Velero sets none: velero #3664, #4069) and
 * its Argo CD health exactly as Argo CD's velero.io/Backup and
 * velero.io/Restore health checks compute it (doc/cli.md, "backup-status"). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_scan.h"
#include "watch_stream.h"

enum { H_HEALTHY = 0, H_DEGRADED = 1, H_PROGRESSING = 4 }; /* the --exit-status codes */

typedef struct bs {
    const char *cmd, *name, *now_s;
    cli_format fmt;
    int rc, health, any;
    velstatus_policy pol; /* --velero-version: which phases exist */
    int major, minor;
} bs;

/* What is read of one object. Strings are malloc'ed (NULL when absent). */
typedef struct obj {
    int restore, deleting, has_status;
    char *name, *phase, *failure, *finalizers;
    size_t name_len, phase_len, failure_len;
    long long errors, warnings, generation;
} obj;

static void obj_free(obj *o)
{
    free(o->name);
    free(o->phase);
    free(o->failure);
    free(o->finalizers);
}

/* "a, b" from an array of strings (metadata.finalizers). */
static char *join_strings(const char *t, size_t vs, size_t ve)
{
    velstatus__json_iter it;
    size_t a, b, n = 0;
    char *out = malloc(ve - vs + 1);
    if (!out || t[vs] != '[')
        return free(out), NULL;
    velstatus__json_iter_init(&it, t, vs, ve);
    while (velstatus__json_next_element(&it, &a, &b)) {
        if (t[a] != '"')
            continue;
        if (n) {
            memcpy(out + n, ", ", 2);
            n += 2;
        }
        n += velstatus__json_unescape(out + n, t + a + 1, b - a - 2);
    }
    out[n] = '\0';
    return out;
}

/* Reads one object; 0 when it is not a Backup or Restore. */
static int read_obj(const char *t, size_t s, size_t e, obj *o)
{
    size_t ms, me, ss, se, vs, ve;
    char *kind = cli_json_string(t, s, e, "\"kind\"", NULL);
    memset(o, 0, sizeof(*o));
    o->generation = -1;
    if (!kind || (strcmp(kind, "Backup") != 0 && strcmp(kind, "Restore") != 0))
        return free(kind), 0;
    o->restore = strcmp(kind, "Restore") == 0;
    free(kind);
    if (cli_json_object(t, s, e, "\"metadata\"", &ms, &me)) {
        o->name = cli_json_string(t, ms, me, "\"name\"", &o->name_len);
        o->deleting = cli_json_member(t, ms, me, "\"deletionTimestamp\"", &vs, &ve) && t[vs] != 'n';
        if (cli_json_member(t, ms, me, "\"finalizers\"", &vs, &ve))
            o->finalizers = join_strings(t, vs, ve);
        o->generation = cli_json_int(t, ms, me, "\"generation\"");
    }
    if (cli_json_object(t, s, e, "\"status\"", &ss, &se)) {
        o->has_status = 1;
        o->phase = cli_json_string(t, ss, se, "\"phase\"", &o->phase_len);
        o->failure = cli_json_string(t, ss, se, "\"failureReason\"", &o->failure_len);
        o->errors = cli_json_int(t, ss, se, "\"errors\"");
        o->warnings = cli_json_int(t, ss, se, "\"warnings\"");
    }
    return 1;
}

static int is(const obj *o, const char *phase)
{
    return o->phase && strcmp(o->phase, phase) == 0;
}

/* The library's velstatus_argo_health_of() (Argo CD's health.lua checks)
 * as the --exit-status code; *pending_deletion when Argo appends the
 * finalizers. */
static int argo_health(const obj *o, const char **msg, size_t *len, int *pending_deletion)
{
    velstatus_argo_health h = VELSTATUS_ARGO_PROGRESSING;
    *msg = "";
    *len = 0;
    (void)velstatus_argo_health_of(&h, msg, len, o->restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, o->phase,
                                   o->phase_len, o->failure, o->failure_len, o->deleting, NULL);
    *pending_deletion = !o->restore && o->deleting;
    return h == VELSTATUS_ARGO_HEALTHY ? H_HEALTHY : h == VELSTATUS_ARGO_DEGRADED ? H_DEGRADED : H_PROGRESSING;
}

static const char *health_name(int h)
{
    return h == H_HEALTHY ? "Healthy" : h == H_DEGRADED ? "Degraded" : "Progressing";
}

/* The kstatus-style conditions: Ready, Reconciling, Stalled (doc/cli.md). */
typedef struct conds {
    const char *ready, *reconciling, *stalled, *reason;
} conds;

static conds conditions_of(const obj *o, int known)
{
    conds c = {"False", "True", "False", NULL};
    c.reason = !o->phase ? "NoStatus" : o->phase[0] == '\0' ? "New" : o->phase;
    if (o->deleting) {
        c.reason = "Deleting";
    } else if (o->phase && !known) {
        c.ready = c.reconciling = c.stalled = "Unknown";
        c.reason = "UnknownPhase";
    } else if (is(o, "Completed")) {
        c.ready = "True";
        c.reconciling = "False";
    } else if (is(o, "Failed") || is(o, "FailedValidation") || is(o, "PartiallyFailed")) {
        c.reconciling = "False";
        c.stalled = "True";
    }
    return c;
}

static void put_cond(const char *type, const char *status, const char *reason, const char *msg, size_t msg_len,
                     const char *t, long long gen, int first)
{
    printf("%s{\"type\":\"%s\",\"status\":\"%s\"", first ? "" : ",", type, status);
    if (gen >= 0)
        printf(",\"observedGeneration\":%lld", gen);
    printf(",\"lastTransitionTime\":\"%s\",\"reason\":", t);
    cli_json_str(stdout, reason, strlen(reason));
    printf(",\"message\":");
    cli_json_str(stdout, msg, msg_len);
    putchar('}');
}

static void print_json(bs *b, const obj *o, int known, int h, const char *msg, size_t len, const conds *c,
                       const char *t)
{
    const char *cm = o->failure ? o->failure : msg;
    size_t cl = o->failure ? o->failure_len : len;
    if (b->fmt == CLI_CONDITION) {
        put_cond("Ready", c->ready, c->reason, cm, cl, t, o->generation, 1);
        putchar('\n');
        return;
    }
    printf("{\"kind\":\"%s\",\"name\":", o->restore ? "Restore" : "Backup");
    if (o->name)
        cli_json_str(stdout, o->name, o->name_len);
    else
        fputs("null", stdout);
    printf(",\"phase\":");
    if (o->phase)
        cli_json_str(stdout, o->phase, o->phase_len);
    else
        fputs("null", stdout);
    printf(",\"phaseKnown\":%s,\"errors\":%lld,\"warnings\":%lld,\"health\":{\"status\":\"%s\",\"message\":",
           known ? "true" : "false", o->errors < 0 ? 0 : o->errors, o->warnings < 0 ? 0 : o->warnings, health_name(h));
    cli_json_str(stdout, msg, len);
    printf("},\"conditions\":[");
    put_cond("Ready", c->ready, c->reason, cm, cl, t, o->generation, 1);
    put_cond("Reconciling", c->reconciling, c->reason, cm, cl, t, o->generation, 0);
    put_cond("Stalled", c->stalled, c->reason, cm, cl, t, o->generation, 0);
    printf("]}\n");
}

/* One Backup or Restore at text[s..e). */
static int report(bs *b, const char *text, size_t s, size_t e, vs_watch_pos at)
{
    obj o;
    velstatus_phase ph;
    int known, in_release = 1, h, pend;
    const char *msg;
    size_t len;
    int64_t now;
    char t[VELSTATUS_TIME_BUFSIZE];
    conds c;
    if (!read_obj(text, s, e, &o)) {
        obj_free(&o);
        fprintf(stderr, "%s: %s: %s: object at byte %llu (line %llu) is not a Backup or Restore (skipped)\n", cli_prog,
                b->cmd, b->name, (unsigned long long)at.offset, (unsigned long long)at.line);
        return 0;
    }
    known = !o.phase || (velstatus_phase_from_string(&ph, o.phase, o.phase_len, NULL) == VELSTATUS_OK &&
                         velstatus_phase_valid(o.restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, ph));
    /* A phase the kind has, but not in the --velero-version release (Queued
     * before 1.18, a restore's Finalizing before 1.14): flagged as such. */
    if (known && o.phase)
        velstatus_phase_exists(&in_release, o.restore ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP, ph, &b->pol,
                               NULL);
    known = known && in_release;
    h = argo_health(&o, &msg, &len, &pend);
    c = conditions_of(&o, known);
    if (cli_now(b->cmd, b->now_s, &now) != 0 || velstatus_time_format(t, sizeof(t), now, 0, NULL) != VELSTATUS_OK) {
        obj_free(&o);
        b->rc = CLI_BAD_INPUT;
        return 1;
    }
    if (b->fmt != CLI_TEXT) {
        print_json(b, &o, known, h, msg, len, &c, t);
    } else {
        printf("%s ", o.restore ? "Restore" : "Backup");
        cli_put_text(stdout, o.name ? o.name : "(no name)", o.name ? o.name_len : 9);
        printf(": phase %s", o.phase ? (o.phase[0] ? o.phase : "New") : "(none)");
        if (!in_release)
            printf(" (not a phase of Velero %d.%d)", b->major, b->minor);
        else if (!known)
            printf(" (unknown to this version)");
        printf("; Argo CD health %s: ", health_name(h));
        cli_put_text(stdout, msg, len);
        if (pend && o.finalizers && o.finalizers[0])
            printf("; blocked by finalizers: %s", o.finalizers);
        printf("; Ready=%s Reconciling=%s Stalled=%s (%s)\n", c.ready, c.reconciling, c.stalled, c.reason);
    }
    b->health = h;
    b->any = 1;
    obj_free(&o);
    return 0;
}

static int on_object(void *ud, const char *text, size_t len, vs_watch_pos at)
{
    bs *b = ud;
    size_t vs, ve, a, e;
    velstatus__json_iter it;
    if (cli_json_member(text, 0, len, "\"type\"", &vs, &ve)) { /* a watch event */
        size_t os, oe;
        if (ve - vs == 7 && memcmp(text + vs, "\"ERROR\"", 7) == 0) {
            fprintf(stderr, "%s: %s: %s: watch ERROR at byte %llu (line %llu); list again and restart the watch\n",
                    cli_prog, b->cmd, b->name, (unsigned long long)at.offset, (unsigned long long)at.line);
            b->rc = CLI_WATCH_ERROR;
            return 1;
        }
        if ((ve - vs == 10 && memcmp(text + vs, "\"BOOKMARK\"", 10) == 0) ||
            (ve - vs == 9 && memcmp(text + vs, "\"DELETED\"", 9) == 0) ||
            !cli_json_object(text, 0, len, "\"object\"", &os, &oe))
            return 0;
        return report(b, text, os, oe, at);
    }
    if (cli_json_member(text, 0, len, "\"items\"", &vs, &ve) && text[vs] == '[') { /* a List */
        velstatus__json_iter_init(&it, text, vs, ve);
        while (velstatus__json_next_element(&it, &a, &e))
            if (text[a] == '{' && report(b, text, a, e, at) != 0)
                return 1;
        return 0;
    }
    return report(b, text, 0, len, at);
}

static int on_malformed(void *ud, vs_watch_pos at, const char *reason)
{
    bs *b = ud;
    fprintf(stderr, "%s: %s: %s: malformed JSON at byte %llu (line %llu): %s\n", cli_prog, b->cmd, b->name,
            (unsigned long long)at.offset, (unsigned long long)at.line, reason);
    b->rc = CLI_BAD_INPUT;
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: velstatus backup-status [--now RFC3339] [--exit-status] [--velero-version X.Y]\n"
               "                               [-o text|json|condition] [FILE|-]\n"
               "\n"
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
               "  --exit-status   exit with the last object's health: 0 Healthy, 1 Degraded,\n"
               "                  4 Progressing\n"
               "\n"
               "Exit status: 0 success, 2 bad input or usage, 3 a watch ERROR event.\n");
}

int cmd_backup_status(int argc, char **argv)
{
    const char *cmd = "backup-status", *fmt_s = "text", *path = NULL, *version_s = NULL;
    bs b = {0};
    int exit_status = 0, npos, r;
    static char chunk[65536];
    vs_watch_split sp;
    cli_reader *rd;
    const cli_opt opts[] = {{"--now", 0, &b.now_s, NULL},
                            {"--exit-status", 0, NULL, &exit_status},
                            CLI_OPT_OUTPUT(&fmt_s),
                            CLI_OPT_VELERO_VERSION(&version_s)};
    r = cli_parse(cmd, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, 1, &npos);
    if (r != 0) {
        if (r > 0)
            usage(stdout);
        return r > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (cli_parse_format_more(cmd, fmt_s, 1, 0, &b.fmt) != 0 ||
        cli_policy(cmd, NULL, "velero", version_s, &b.pol, &b.major, &b.minor) != 0 ||
        !(rd = cli_reader_open(cmd, path)))
        return CLI_BAD_INPUT;
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
    if (b.rc == CLI_OK && !b.any)
        return cli_fail(cmd, "%s: no Backup or Restore object", b.name);
    return b.rc == CLI_OK && exit_status ? b.health : b.rc;
}
