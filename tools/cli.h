/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers of the velstatus command-line tool. The tool does the I/O
 * the library never does: reading files and stdin, writing stdout/stderr. */
#ifndef VS_CLI_H
#define VS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <velstatus.h>

/* Exit codes shared by every subcommand. */
enum { CLI_OK = 0, CLI_FALSE = 1, CLI_BAD_INPUT = 2 };

/* Output format selected by -o. */
typedef enum { CLI_TEXT = 0, CLI_JSON = 1 } cli_format;

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
 * buffer. On failure prints a message and returns NULL. */
char *cli_read_input(const char *cmd, const char *path, size_t *len);

/* Parses "-o text|json" values. Returns 0 on success. */
int cli_parse_format(const char *cmd, const char *value, cli_format *out);

/* Parses a phase of `kind` (velstatus_phase_from_string, then
 * velstatus_phase_valid): "WHAT: unknown backup phase "X"" or "WHAT: a
 * restore has no phase "Queued"" on failure. 0 on success, else CLI_BAD_INPUT. */
int cli_parse_phase(const char *cmd, const char *what, velstatus_kind kind, const char *s, velstatus_phase *out);

/* Option scanning without getopt state: if argv[*i] is `name` (e.g.
 * "--now"), stores the next argument in *value, advances *i and returns 1;
 * also accepts "--now=VALUE". Returns -1 (after printing) when the value is
 * missing, 0 when argv[*i] is another argument. */
int cli_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value);

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

/* Subcommands: each returns the process exit code. argv[0] is the
 * subcommand name. */
int cmd_version(int argc, char **argv);
int cmd_phase(int argc, char **argv);
int cmd_server_status(int argc, char **argv);
int cmd_operations(int argc, char **argv);
int cmd_progress(int argc, char **argv);
int cmd_describe_operations(int argc, char **argv);
int cmd_backoff(int argc, char **argv);

#endif
