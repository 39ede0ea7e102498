/* SPDX-License-Identifier: Apache-2.0 */
#include "cli.h"
#include "vsx_utf8.h"

#include "text_in.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *cli_prog = "velstatus";

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", cli_prog, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_BAD_INPUT;
}

int cli_fail_err(const char *cmd, const char *what, const velstatus_error *err)
{
    /* The library's messages never spell their position: it is printed here, once. */
    if (err->line)
        return cli_fail(cmd, "%s: %s (line %u, column %u, offset %llu)", what, err->message, (unsigned)err->line,
                        (unsigned)err->column, (unsigned long long)err->offset);
    return cli_fail(cmd, "%s: %s", what, err->message);
}

uint64_t cli_max_input = CLI_MAX_INPUT_DEFAULT;

/* A size: digits with an optional K, M, G (powers of 1024; KiB, MiB, GiB too). */
static int parse_size(const char *cmd, const char *s, uint64_t *out)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {{"", 0}, {"K", 10}, {"KiB", 10}, {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    char *end;
    unsigned long long v;
    errno = 0;
    if (*s < '0' || *s > '9')
        return cli_fail(cmd, "--max-input must be a size (512M, 1G, 1048576), not \"%s\"", s);
    v = strtoull(s, &end, 10);
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(end, units[i].suffix) != 0)
            continue;
        if (errno == ERANGE || v > (UINT64_MAX >> units[i].shift))
            break;
        *out = (uint64_t)v << units[i].shift;
        return 0;
    }
    return cli_fail(cmd, "--max-input must be a size (512M, 1G, 1048576), not \"%s\"", s);
}

int cli_completing;

/* The options every command takes besides its own (take_opt reads them). */
static const char *max_input, *input_form;
static const cli_opt common_opts[] = {
    CLI_VAL("--max-input", 0, &max_input, "SIZE", "read at most SIZE bytes (512M, 1G; default 512M)"),
    CLI_VAL("--input-form", 0, &input_form, "auto|json|describe|table",
            "read the input as that form (default: found by the content)"),
    CLI_FLAG("--help", 'h', NULL, "print this help"),
};

static const cli_opt *find_opt(const cli_opt *opts, size_t nopts, const char *name, size_t len, char short_name)
{
    for (size_t k = 0; k < nopts; k++) {
        if (short_name ? opts[k].short_name == short_name
                       : strncmp(opts[k].name, name, len) == 0 && opts[k].name[len] == '\0')
            return &opts[k];
    }
    return NULL;
}

/* The option argv[*i] names (its inline value, if any, in *inline_v), or NULL. */
static const cli_opt *lookup_opt(const char *a, const cli_opt *opts, size_t nopts, const char **inline_v)
{
    const cli_opt *o;
    *inline_v = NULL;
    if (a[1] == '-') {
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        o = find_opt(opts, nopts, a, len, 0);
        if (!o)
            o = find_opt(common_opts, 2, a, len, 0);
        if (eq)
            *inline_v = eq + 1;
        return o;
    }
    o = find_opt(opts, nopts, NULL, 0, a[1]);
    if (o && a[2] != '\0')
        *inline_v = a[2] == '=' ? a + 3 : a + 2;
    return o && !o->value && a[2] != '\0' ? NULL : o;
}

/* Handles the option at argv[*i]; returns 0, or -1 after printing. */
static int take_opt(const char *cmd, int argc, char **argv, int *i, const cli_opt *opts, size_t nopts)
{
    const char *a = argv[*i], *inline_v;
    const cli_opt *o = lookup_opt(a, opts, nopts, &inline_v);
    if (!o)
        return cli_fail(cmd, "unknown option \"%s\" (see velstatus help %s)", a, cmd), -1;
    if (!o->value) {
        if (inline_v)
            return cli_fail(cmd, "%s takes no value", o->name), -1;
        *o->flag = 1;
        return 0;
    }
    if (!inline_v) {
        if (*i + 1 >= argc)
            return cli_fail(cmd, "%s needs a value", a), -1;
        inline_v = argv[++*i];
    }
    *o->value = inline_v;
    if (o == &common_opts[0] && parse_size(cmd, inline_v, &cli_max_input) != 0)
        return -1;
    if (o == &common_opts[1] && cli_form_parse(inline_v, &cli_input_form) != 0)
        return cli_fail(cmd, "--input-form must be auto, json, describe or table, not \"%s\"", inline_v), -1;
    return 0;
}

/* "-o, --output text|json" into buf. */
static const char *opt_spec(char *buf, size_t cap, const cli_opt *o)
{
    char sh[8] = "";
    if (o->short_name)
        snprintf(sh, sizeof(sh), "-%c, ", o->short_name);
    snprintf(buf, cap, "%s%s%s%s", sh, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    return buf;
}

static void print_opts(FILE *f, const cli_opt *opts, size_t n)
{
    char buf[128];
    for (size_t k = 0; k < n; k++) {
        opt_spec(buf, sizeof(buf), &opts[k]);
        if (strlen(buf) > 28)
            fprintf(f, "  %s\n  %-28s  %s\n", buf, "", opts[k].help);
        else
            fprintf(f, "  %-28s  %s\n", buf, opts[k].help);
    }
}

void cli_usage_print(FILE *f, const cli_usage *u, const cli_opt *opts, size_t nopts)
{
    fprintf(f, "usage: velstatus %s [options]%s%s\n\noptions:\n", u->cmd, u->operands ? " " : "",
            u->operands ? u->operands : "");
    print_opts(f, opts, nopts);
    fprintf(f, "\noptions every command takes:\n");
    print_opts(f, common_opts, sizeof(common_opts) / sizeof(common_opts[0]));
    if (u->about)
        fprintf(f, "\n%s", u->about);
}

/* One option per line for the bash completion: "-o text|json", "--kind
 * backup|restore", "--details"; --velero-version offers the releases. */
static void print_completion(const cli_opt *opts, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const cli_opt *o = &opts[k];
        const char *arg = o->arg ? o->arg : "";
        if (strcmp(o->name, "--velero-version") == 0) {
            size_t nr = velstatus_velero_release_count();
            printf("%s ", o->name);
            for (size_t i = 0; i < nr; i++) {
                int ma, mi;
                velstatus_velero_release_at(&ma, &mi, i, NULL);
                printf("%s%d.%d", i ? "|" : "", ma, mi);
            }
            printf("\n");
            continue;
        }
        if (o->short_name)
            printf("-%c%s%s\n", o->short_name, *arg ? " " : "", arg);
        printf("%s%s%s\n", o->name, *arg ? " " : "", arg);
    }
}

static int print_help(const cli_usage *u, const cli_opt *opts, size_t nopts)
{
    if (!cli_completing) {
        cli_usage_print(stdout, u, opts, nopts);
        return 1;
    }
    if (u->operands && strchr(u->operands, '|') && u->operands[0] >= 'a' && u->operands[0] <= 'z') {
        /* a first operand of words ("backup|restore NAME"): its words */
        for (const char *p = u->operands; *p && *p != ' ';) {
            size_t w = strcspn(p, "| ");
            printf("%.*s\n", (int)w, p);
            p += w + (p[w] == '|');
        }
    }
    print_completion(opts, nopts);
    print_completion(common_opts, sizeof(common_opts) / sizeof(common_opts[0]));
    return 1;
}

int cli_parse(const cli_usage *u, int argc, char **argv, const cli_opt *opts, size_t nopts, const char **pos,
              int max_pos, int *npos)
{
    const char *cmd = u->cmd;
    int operands_only = 0;
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!operands_only && cli_is_help(a))
            return print_help(u, opts, nopts);
        if (!operands_only && strcmp(a, "--") == 0) {
            operands_only = 1;
            continue;
        }
        if (!operands_only && a[0] == '-' && a[1] != '\0') {
            if (take_opt(cmd, argc, argv, &i, opts, nopts) != 0)
                return -1;
            continue;
        }
        if (*npos >= max_pos) {
            cli_fail(cmd, "unexpected argument \"%s\"%s", a, max_pos == 1 ? " (one FILE at most)" : "");
            return -1;
        }
        pos[(*npos)++] = a;
    }
    return 0;
}

int cli_dispatch(const char *cmd, int argc, char **argv, const cli_sub *subs, size_t n)
{
    if (argc >= 2 && !cli_is_help(argv[1])) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(argv[1], subs[i].name) == 0)
                return subs[i].run(argc - 1, argv + 1);
        return cli_fail(cmd, "unknown subcommand \"%s\" (see velstatus help %s)", argv[1], cmd);
    }
    if (cli_completing) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", subs[i].name);
        return CLI_OK;
    }
    FILE *f = argc < 2 ? stderr : stdout;
    fprintf(f, "usage: velstatus %s ", cmd);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? "|" : "", subs[i].name);
    fprintf(f, " [options] ...\n\nsubcommands:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-12s %s\n", subs[i].name, subs[i].summary);
    fprintf(f, "\nRun `velstatus help %s SUBCOMMAND` for a subcommand's options.\n", cmd);
    return argc < 2 ? CLI_BAD_INPUT : CLI_OK;
}

int cli_now(const char *cmd, const char *now_s, int64_t *out)
{
    velstatus_error err;
    struct timespec ts;
    if (now_s) {
        /* RFC 3339, or Go's Time.String() as Velero prints times (a space at 10) */
        int64_t sec;
        int32_t nsec;
        size_t n = strlen(now_s);
        if (n <= 10 || now_s[10] != ' ')
            return velstatus_time_parse(out, now_s, n, &err) == VELSTATUS_OK ? 0 : cli_fail_err(cmd, "--now", &err);
        if (velstatus_time_parse_go_string(&sec, &nsec, now_s, n, &err) != VELSTATUS_OK)
            return cli_fail_err(cmd, "--now", &err);
        if (sec < INT64_MIN / 1000000000 + 1 || sec > INT64_MAX / 1000000000 - 1)
            return cli_fail(cmd, "--now: \"%s\" is outside the years 1678 to 2261", now_s);
        *out = sec * 1000000000 + nsec;
        return 0;
    }
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return cli_fail(cmd, "cannot read the clock: %s", strerror(errno));
    *out = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return 0;
}

int cli_policy(const char *cmd, const char *policy_s, const char *default_preset, const char *version_s,
               velstatus_policy *out, int *major, int *minor)
{
    velstatus_preset preset;
    velstatus_error err;
    int ma, mi;
    size_t n = velstatus_velero_release_count();
    if (policy_s && velstatus_preset_from_string(&preset, policy_s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "--policy must be velero or hardened, not \"%s\"", policy_s);
    if (version_s) {
        if (policy_s && preset != VELSTATUS_PRESET_VELERO)
            return cli_fail(cmd,
                            "--velero-version decides as that Velero release does; it cannot be combined "
                            "with --policy %s",
                            policy_s);
        if (velstatus_policy_init_version(out, sizeof(*out), &ma, &mi, version_s, VELSTATUS_NUL_TERMINATED, &err) !=
            VELSTATUS_OK)
            return cli_fail_err(cmd, "--velero-version", &err);
    } else {
        if (!policy_s)
            velstatus_preset_from_string(&preset, default_preset, VELSTATUS_NUL_TERMINATED, NULL);
        velstatus_policy_init(out, sizeof(*out), preset, NULL);
        velstatus_velero_release_at(&ma, &mi, n - 1, NULL);
    }
    if (major)
        *major = ma;
    if (minor)
        *minor = mi;
    return 0;
}

void cli_print_releases(FILE *f, int json)
{
    size_t n = velstatus_velero_release_count();
    for (size_t i = 0; i < n; i++) {
        int ma, mi;
        velstatus_velero_release_at(&ma, &mi, i, NULL);
        if (json)
            fprintf(f, "%s\"%d.%d\"", i ? "," : "", ma, mi);
        else
            fprintf(f, "%s%d.%d%s", i ? " " : "", ma, mi, i + 1 == n ? " (current)" : "");
    }
}

int cli_parse_phase(const char *cmd, const char *what, velstatus_kind kind, const char *s, velstatus_phase *out)
{
    if (velstatus_phase_from_string(out, s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(cmd, "%s: unknown %s phase \"%s\"", what, velstatus_kind_to_string(kind), s);
    if (!velstatus_phase_valid(kind, *out))
        return cli_fail(cmd, "%s: a %s has no phase \"%s\"", what, velstatus_kind_to_string(kind), s);
    return 0;
}

char *cli_read_input(const char *cmd, const char *path, size_t *len)
{
    cli_reader *r = cli_reader_open(cmd, path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!r)
        return NULL;
    for (;;) {
        long got;
        if (cap - n < 65536) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, ncap + 1);
            if (!p) {
                cli_fail(cmd, "out of memory reading %s", cli_reader_name(r));
                goto fail;
            }
            buf = p;
            cap = ncap;
        }
        got = cli_reader_read(r, buf + n, cap - n);
        if (got < 0)
            goto fail;
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    if (cli_adapt_object(cmd, cli_reader_name(r), &buf, &n) != 0) /* describe text, tables: tools/text_in.c */
        goto fail;
    cli_reader_close(r);
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    cli_reader_close(r);
    free(buf);
    return NULL;
}

/* Reading an itemoperations file into the streaming decoder: the first
 * bytes (`head`) are kept only while they may be a text form (describe text,
 * which tools/text_in.c converts whole); YAML is JSON by then (the reader
 * converts it), and every later chunk goes to the decoder as it is read.
 * Without --kind the decoder takes the kind from the text. */
typedef struct oplist_load {
    const char *cmd, *kind_s;
    velstatus_ctx *ctx;
    velstatus_oplist_decoder *dec;
    char *head;
    size_t n, cap;
    velstatus_error err;
} oplist_load;


/* The head is complete, or the input ended: checks it, makes the decoder
 * (of --kind's kind, else one that takes it from the text) and feeds it the
 * head. 0, or CLI_BAD_INPUT after printing. */
static int load_start(oplist_load *ld, cli_reader *r)
{
    velstatus_kind kind;
    velstatus_status st;
    if (cli_adapt_oplist(ld->cmd, cli_reader_name(r), &ld->kind_s, &ld->head, &ld->n) != 0) /* tools/text_in.c */
        return CLI_BAD_INPUT;
    if (ld->kind_s && velstatus_kind_from_string(&kind, ld->kind_s, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return cli_fail(ld->cmd, "--kind must be backup or restore, not \"%s\"", ld->kind_s);
    st = ld->kind_s ? velstatus_oplist_decoder_new(&ld->dec, ld->ctx, kind, &ld->err)
                    : velstatus_oplist_decoder_new_detect(&ld->dec, ld->ctx, &ld->err);
    if (st != VELSTATUS_OK || velstatus_oplist_decoder_feed(ld->dec, ld->head, ld->n, &ld->err) != VELSTATUS_OK)
        return cli_fail_err(ld->cmd, cli_reader_name(r), &ld->err);
    free(ld->head);
    ld->head = NULL;
    return 0;
}

/* One chunk read (got bytes at buf; 0 at the end of the input). */
static int load_chunk(oplist_load *ld, cli_reader *r, const char *buf, size_t got)
{
    if (ld->dec)
        return velstatus_oplist_decoder_feed(ld->dec, buf, got, &ld->err) == VELSTATUS_OK
                   ? 0
                   : cli_fail_err(ld->cmd, cli_reader_name(r), &ld->err);
    if (ld->cap - ld->n < got) {
        char *p = realloc(ld->head, ld->n + got);
        if (!p)
            return cli_fail(ld->cmd, "out of memory reading %s", cli_reader_name(r));
        ld->head = p;
        ld->cap = ld->n + got;
    }
    if (got > 0)
        memcpy(ld->head + ld->n, buf, got);
    ld->n += got;
    /* a text form (describe text) is kept whole: tools/text_in.c converts it */
    if (got == 0 || !cli_form_maybe_text(ld->head, ld->n))
        return load_start(ld, r);
    return 0;
}

int cli_load_oplist(const char *cmd, const char *path, const char *kind_s, velstatus_ctx *ctx, velstatus_oplist **out)
{
    static char buf[65536];
    oplist_load ld;
    cli_reader *r = cli_reader_open(cmd, path);
    int rc = 0;
    long got;
    if (!r)
        return CLI_BAD_INPUT;
    memset(&ld, 0, sizeof(ld));
    ld.cmd = cmd;
    ld.kind_s = kind_s;
    ld.ctx = ctx;
    do {
        got = cli_reader_read(r, buf, sizeof(buf));
        rc = got < 0 ? CLI_BAD_INPUT : load_chunk(&ld, r, buf, (size_t)got);
    } while (rc == 0 && got > 0);
    if (rc == 0 && velstatus_oplist_decoder_finish(out, ld.dec, &ld.err) != VELSTATUS_OK)
        rc = cli_fail_err(cmd, cli_reader_name(r), &ld.err);
    velstatus_oplist_decoder_free(ld.dec);
    free(ld.head);
    cli_reader_close(r);
    return rc == 0 ? CLI_OK : CLI_BAD_INPUT;
}

int cli_parse_format_more(const char *cmd, const char *value, int with_condition, int with_prometheus, cli_format *out)
{
    if (strcmp(value, "text") == 0)
        *out = CLI_TEXT;
    else if (strcmp(value, "json") == 0)
        *out = CLI_JSON;
    else if (with_condition && strcmp(value, "condition") == 0)
        *out = CLI_CONDITION;
    else if (with_prometheus && strcmp(value, "prometheus") == 0)
        *out = CLI_PROMETHEUS;
    else
        return cli_fail(cmd, "-o must be text, json%s%s, not \"%s\"", with_condition ? ", condition" : "",
                        with_prometheus ? ", prometheus" : "", value);
    return 0;
}

int cli_parse_format(const char *cmd, const char *value, cli_format *out)
{
    if (strcmp(value, "text") != 0 && strcmp(value, "json") != 0)
        return cli_fail(cmd, "-o must be text or json, not \"%s\"", value);
    return cli_parse_format_more(cmd, value, 0, 0, out);
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void cli_put_text(FILE *f, const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        const char *nul = memchr(s, '\0', (size_t)(end - s));
        fwrite(s, 1, (size_t)((nul ? nul : end) - s), f);
        if (!nul)
            break;
        fputs(CLI_NUL_TEXT, f);
        s = nul + 1;
    }
}

void cli_print_line(const char *s, size_t n)
{
    cli_put_text(stdout, s, n);
    if (n == 0 || s[n - 1] != '\n')
        fputc('\n', stdout);
}

void cli_json_str(FILE *f, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            fprintf(f, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
        } else if (c < 0x80) {
            fputc(c, f);
        } else {
            uint32_t cp;
            size_t len = vsx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
            if (len == 0) { /* not UTF-8: U+FFFD, as Go's encoding/json writes it */
                fputs("\\ufffd", f);
                continue;
            }
            fwrite(s + i, 1, len, f);
            i += len - 1;
        }
    }
    fputc('"', f);
}

/* Velero's describe times: Go's time.Time.String() of the instant, in the
 * local time zone as the velero CLI prints it. */
int cli_local_time(char *out, size_t cap, const char *t, size_t n)
{
    struct tm tm = {0}, lt;
    const char *zone = n >= 10 ? t + n - 10 : NULL, *frac;
    time_t secs;
    char head[48], tail[64];
    int year, used = 0;
    long long ly;
    /* the year as Go writes it: 4 digits or more, '-' before a negative one */
    if (!zone || memcmp(zone, " +0000 UTC", 10) != 0 ||
        sscanf(t, "%d-%2d-%2d %2d:%2d:%2d%n", &year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
               &used) != 6 ||
        t + used > zone)
        return 0;
    frac = t + used;
    tm.tm_year = year - 1900;
    tm.tm_mon -= 1;
    secs = timegm(&tm);
    if (!localtime_r(&secs, &lt))
        return 0;
    ly = (long long)lt.tm_year + 1900;
    snprintf(head, sizeof(head), "%s%04lld", ly < 0 ? "-" : "", ly < 0 ? -ly : ly);
    if (strftime(head + strlen(head), sizeof(head) - strlen(head), "-%m-%d %H:%M:%S", &lt) == 0 ||
        strftime(tail, sizeof(tail), " %z %Z", &lt) == 0)
        return 0;
    return snprintf(out, cap, "%s%.*s%s", head, (int)(zone - frac), frac, tail) < (int)cap;
}

void cli_format_time(char *out, size_t cap, int64_t ns, int utc)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_time_format_go(t, sizeof(t), ns, NULL) != VELSTATUS_OK)
        snprintf(t, sizeof(t), "%lldns", (long long)ns);
    if (utc || !cli_local_time(out, cap, t, strlen(t)))
        snprintf(out, cap, "%s", t);
}
