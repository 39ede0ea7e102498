/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers of the velstatus command-line tool. The tool does the I/O
 * the library never does: reading files and stdin, writing stdout/stderr. */
#ifndef VS_CLI_H
#define VS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <velstatus.h>

/* Exit codes shared by every subcommand (doc/cli.md lists them all). */
enum { CLI_OK = 0, CLI_FALSE = 1, CLI_BAD_INPUT = 2, CLI_WATCH_ERROR = 3 };

/* Output format selected by -o. */
typedef enum { CLI_TEXT = 0, CLI_JSON = 1, CLI_CONDITION = 2, CLI_PROMETHEUS = 3, CLI_SVG = 4 } cli_format;

/* One option of a command: the one table its parser, its --help and its
 * bash completion (velstatus --complete) come from. A value option stores
 * its argument in *value; a flag (value NULL) sets *flag to 1. short_name is
 * the one-letter form ('o' for -o) or 0. arg names the value in the usage
 * ("FILE", "RFC3339"); a list "a|b|c" is also what completion offers, "FILE"
 * or a name ending in ".json" completes file names. help is one line. */
typedef struct cli_opt {
    const char *name;
    char short_name;
    const char **value;
    int *flag;
    const char *arg;
    const char *help;
} cli_opt;

#define CLI_VAL(name, short_name, ptr, arg, help)        \
    {                                                    \
        (name), (short_name), (ptr), NULL, (arg), (help) \
    }
#define CLI_FLAG(name, short_name, ptr, help)           \
    {                                                   \
        (name), (short_name), NULL, (ptr), NULL, (help) \
    }

/* -o / --output, which every command takes; formats is its "a|b" list. */
#define CLI_OPT_OUTPUT_OF(v, formats) CLI_VAL("--output", 'o', (v), (formats), "output format")
#define CLI_OPT_OUTPUT(v) CLI_OPT_OUTPUT_OF((v), "text|json")
/* --velero-version X.Y, which every command that decides takes. */
#define CLI_OPT_VELERO_VERSION(v) \
    CLI_VAL("--velero-version", 0, (v), "X.Y", "decide as that Velero release (default: the current one)")
/* --now, which every command that needs the present instant takes. */
#define CLI_OPT_NOW(v)                                                                                   \
    CLI_VAL("--now", 0, (v), "TIME",                                                                     \
            "the present instant: RFC 3339, or as Velero prints times (2023-11-10 16:40:35 +0100 CET); " \
            "default: the clock")

/* --kind of an itemoperations file's reader. */
#define CLI_OPT_KIND(v) \
    CLI_VAL("--kind", 0, (v), "backup|restore", "the file's kind (default: from backupName / restoreName)")

/* --item-operation-timeout, spec.itemOperationTimeout (one name everywhere). */
#define CLI_OPT_ITEM_OPERATION_TIMEOUT(v)                   \
    CLI_VAL("--item-operation-timeout", 0, (v), "DURATION", \
            "spec.itemOperationTimeout, a Go duration (1h, 90m; default: the release's server default)")

/* What a command's --help says besides its options: its name ("operations
 * reconcile"), its operands ("[FILE|-]", NULL for none) and the text after
 * the option list (paragraphs ending in "\n"). */
typedef struct cli_usage {
    const char *cmd;
    const char *operands;
    const char *about;
} cli_usage;

/* The one option parser of every command. argv[0] is the command.
 * Accepts "--name VALUE", "--name=VALUE", "-x VALUE", "-xVALUE", "-x=VALUE",
 * flags, "--max-input SIZE" (every command: it bounds cli_read_input),
 * "--input-form", "-h"/"--help", "--" (the rest are operands) and "-" (an
 * operand: stdin). Operands go to pos[0..max_pos). Returns 0 to go on, 1
 * after printing the help asked for (the usage generated from u and opts,
 * or with cli_completing the completion list; exit 0), -1 after printing a
 * usage error. */
int cli_parse(const cli_usage *u, int argc, char **argv, const cli_opt *opts, size_t nopts, const char **pos,
              int max_pos, int *npos);

/* Prints the usage generated from u and opts: "usage: velstatus CMD
 * [options] OPERANDS", the options with their values and help, the options
 * every command takes, then u->about. */
void cli_usage_print(FILE *f, const cli_usage *u, const cli_opt *opts, size_t nopts);

/* Set by `velstatus --complete CMD [SUB]`: --help then prints what bash
 * completion offers instead of the usage, one line each: a subcommand or
 * operand word, or an option ("--kind backup|restore", "-o text|json",
 * "--details"; its values after a space). */
extern int cli_completing;

/* A command's subcommands, dispatched by name from a table. */
typedef struct cli_sub {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cli_sub;

/* Runs the subcommand argv[1] of cmd from subs[0..n) with argv + 1. No
 * subcommand or -h prints the list (to stderr, exit 2, when none was
 * given); an unknown one is a usage error. */
int cli_dispatch(const char *cmd, int argc, char **argv, const cli_sub *subs, size_t n);

/* The policy a subcommand decides with (doc/velero-releases.md): with
 * --velero-version (version_s) the Velero-exact preset of that release
 * (velstatus_policy_velero_version; --policy, when given, must be velero);
 * otherwise --policy's preset (policy_s), or default_preset when neither is
 * given, at the current release. major and minor receive the release (may be
 * NULL). 0, or CLI_BAD_INPUT after printing (a bad or unsupported version
 * names the supported range). */
int cli_policy(const char *cmd, const char *policy_s, const char *default_preset, const char *version_s,
               velstatus_policy *out, int *major, int *minor);

/* "  1.11 ... 1.18 (current)": the supported releases, for `version`. */
void cli_print_releases(FILE *f, int json);

/* The present instant: --now's value when given (parsed), else the clock. */
int cli_now(const char *cmd, const char *now_s, int64_t *out);

/* Reads an itemoperations file chunk by chunk into the streaming decoder
 * (velstatus/decoder.h), so the text is never held whole: only its first
 * bytes (64 KiB at most), while they may be describe text (the reader has turned YAML into JSON). The kind is
 * --kind's value (kind_s) when given, else the decoder takes it from the
 * text (velstatus_oplist_decoder_new_detect). Returns CLI_OK, or
 * CLI_BAD_INPUT after printing. */
int cli_load_oplist(const char *cmd, const char *path, const char *kind_s, velstatus_ctx *ctx, velstatus_oplist **out);

/* The largest input cli_read_input accepts after decompression (--max-input;
 * default 512 MiB). */
extern uint64_t cli_max_input;
#define CLI_MAX_INPUT_DEFAULT (UINT64_C(512) << 20)

/* An input stream: a file or stdin, gzip decompressed transparently (found by
 * its magic bytes 1f 8b, not by the name), and YAML converted to JSON
 * (tools/yaml_json.h; found by its first bytes: JSON starts with `{"`, `{}`,
 * `[` and a JSON value, or `"`; anything else is read as YAML). */
typedef struct cli_reader cli_reader;
/* Opens FILE, or stdin for "-" or NULL. NULL after printing a message. */
cli_reader *cli_reader_open(const char *cmd, const char *path);
/* Reads at most n bytes as they arrive (a pipe's read returns what is there).
 * Returns the count, 0 at the end, -1 after printing a message (an OS error,
 * a corrupt or truncated gzip stream with its byte offset, --max-input). */
long cli_reader_read(cli_reader *r, char *buf, size_t n);
/* Lifts the --max-input bound of a stream whose total size is unbounded (a
 * watch); its consumer bounds each object instead (and a YAML document is
 * bounded by --max-input). YAML documents then come out as one JSON text
 * each, rather than one array of them (doc/yaml.md, "Several documents"). */
void cli_reader_unbounded(cli_reader *r);
/* The input's name for messages ("stdin" or the path). */
const char *cli_reader_name(const cli_reader *r);
void cli_reader_close(cli_reader *r);

/* The program name for messages ("velstatus"). */
extern const char *cli_prog;

/* Prints "velstatus: <cmd>: <message>" to stderr and returns CLI_BAD_INPUT. */
int cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints a library error: "velstatus: <cmd>: <what>: <message> (line L, column C)". */
int cli_fail_err(const char *cmd, const char *what, const velstatus_error *err);

/* Reads FILE, or stdin for "-" or NULL, into a malloc'ed NUL-terminated
 * buffer (gzip decompressed, YAML converted to JSON; at most cli_max_input
 * bytes read). On failure prints a message and returns NULL. */
char *cli_read_input(const char *cmd, const char *path, size_t *len);

/* Parses "-o text|json" values. Returns 0 on success. */
int cli_parse_format(const char *cmd, const char *value, cli_format *out);
/* The same for a command that also has -o condition (with_condition) and
 * -o prometheus (with_prometheus). */
int cli_parse_format_more(const char *cmd, const char *value, int with_condition, int with_prometheus, cli_format *out);

/* Parses a phase of `kind` (velstatus_phase_from_string, then
 * velstatus_phase_valid): "WHAT: unknown backup phase "X"" or "WHAT: a
 * restore has no phase "Queued"" on failure. 0 on success, else CLI_BAD_INPUT. */
int cli_parse_phase(const char *cmd, const char *what, velstatus_kind kind, const char *s, velstatus_phase *out);

/* True for "-h" and "--help". */
int cli_is_help(const char *arg);

/* Text output writes every string whole, with its length: a NUL byte inside
 * it is written as the six characters \u0000 (its JSON spelling); nothing else
 * is escaped. -o json is the exact form. */
#define CLI_NUL_TEXT "\\u0000"

/* Writes the n bytes of s to f, a NUL as CLI_NUL_TEXT. */
void cli_put_text(FILE *f, const char *s, size_t n);

/* cli_put_text() to stdout, then a newline if s does not end with one. */
void cli_print_line(const char *s, size_t n);

/* A describe time, "YYYY-MM-DD HH:MM:SS[.frac] +0000 UTC" (Go's time.Time.String()
 * in UTC, as the library writes it), in the local time zone (TZ respected) as
 * `velero describe` prints it: "... +0200 CEST". 0 when t is not such a time. */
int cli_local_time(char *out, size_t cap, const char *t, size_t n);
/* An instant as Go's time.Time.String(): in UTC with utc, else in the local
 * time zone. cap >= 96. */
void cli_format_time(char *out, size_t cap, int64_t ns, int utc);

/* Writes n bytes as a JSON string, Velero's escaping (< > & as \u00XX). */
void cli_json_str(FILE *f, const char *s, size_t n);

/* --exit-status: 0 Ready, 1 PartiallyReady, 4 Waiting, 5 NotReady. */
int cli_status_exit(velstatus_server_status s);

/* -o condition: the verdict as a metav1.Condition line (tools/verdict_out.c),
 * followed by "namespace": ns when ns is not NULL (several namespaces). */
int cli_print_condition(const char *cmd, velstatus_ctx *ctx, const velstatus_server_verdict *v,
                        int64_t last_transition_ns, const char *ns);
/* -o prometheus: the verdicts vs[0..n) (of classify_namespace) and their
 * namespaces' BSLs in the text exposition format, a namespace label on each series. */
void cli_print_prometheus(const velstatus_server_verdict *const *vs, size_t n, const velstatus_bsl_set *set);
/* The BSLs of namespace ns as `velero backup-location get` prints them, then
 * "NAME: MESSAGE" for each one not Available (tools/bsl_table.c). */
void cli_print_bsl_table(const velstatus_bsl_set *set, const char *ns, int utc);

/* server-status --watch over FILE or stdin (tools/cmd_watch.c): ns_s picks
 * one namespace (NULL: every namespace, prefixed when all_ns or several). */
int cli_watch(const char *cmd, const char *path, const velstatus_server_status_options *opts, const char *now_s,
              cli_format fmt, int strict, int exit_status, const char *ns_s, int all_ns);

/* Subcommands: each returns the process exit code. argv[0] is the
 * subcommand name. */
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_phase(int argc, char **argv);
int cmd_server_status(int argc, char **argv);
int cmd_operations(int argc, char **argv);
int cmd_progress(int argc, char **argv);
int cmd_describe_operations(int argc, char **argv);
int cmd_backoff(int argc, char **argv);
int cmd_backup_status(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_download_request(int argc, char **argv);

#endif
