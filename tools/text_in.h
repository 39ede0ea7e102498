/* SPDX-License-Identifier: Apache-2.0 */
/* The CLI's text input forms (doc/cli.md, "Input forms"): Velero's describe
 * text (tools/describe_in.c) and the `get` tables of backup storage
 * locations (tools/table_in.c). Each reader only rewrites text into the JSON
 * a public library decoder reads (the itemoperations list, a Backup or
 * Restore object, a BSL list); every decision stays in the library. */
#ifndef VS_TEXT_IN_H
#define VS_TEXT_IN_H

#include <stddef.h>
#include <stdint.h>
#include <velstatus.h>

/* What an input is: found by its content, or forced by --input-form. */
typedef enum { CLI_FORM_AUTO = 0, CLI_FORM_JSON, CLI_FORM_DESCRIBE, CLI_FORM_TABLE } cli_form;

/* --input-form (every command; CLI_FORM_AUTO by default). */
extern cli_form cli_input_form;
/* The --now of the command that reads (NULL: the clock): a table's ages are
 * counted back from it. */
extern const char *cli_input_now;

/* Parses --input-form's value; 0, or -1 when it is not auto|json|describe|table. */
int cli_form_parse(const char *s, cli_form *out);
/* The form of p[0..n) by its content: JSON (or anything else, such as YAML),
 * Velero's describe text, or a `get` table. */
cli_form cli_form_detect(const char *p, size_t n);

/* A conversion: the JSON text (malloc'ed, NUL-terminated), the kind the text
 * showed, and on failure a message naming the line. `notes` says what the
 * text does not carry. */
typedef struct cli_conv {
    char *json;
    size_t len;
    velstatus_kind kind;
    int kind_known;
    size_t ops; /* operations read */
    char msg[320];
    char notes[480];
} cli_conv;

/* The operations section of `velero backup|restore describe --details` (with
 * or without its title line, anywhere in the text) as the itemoperations
 * list JSON Velero writes. 0, or -1 with out->msg. */
int cli_describe_ops(const char *p, size_t n, cli_conv *out);
/* The header of a describe text (name, namespace, phase, timeout, times,
 * counts, errors and warnings) as a Backup or Restore object JSON. */
int cli_describe_object(const char *p, size_t n, cli_conv *out);
/* `velero backup-location get` or `kubectl get backupstoragelocations` as a
 * BackupStorageLocationList JSON; ages are counted back from now_ns. */
int cli_table_bsls(const char *p, size_t n, int64_t now_ns, cli_conv *out);
void cli_conv_free(cli_conv *c);
/* Whether p[0..n) starts with a BSL table's header line. */
int cli_table_is(const char *p, size_t n);

/* Go's time.Time.String() ("2023-11-10 16:40:35 +0100 CET", read by
 * velstatus_time_parse_go_string: the offset decides) as RFC 3339 in UTC
 * ("2023-11-10T15:40:35Z", the fraction kept). 0, or -1 when it is not that
 * form. cap >= VELSTATUS_TIME_BUFSIZE. */
int cli_go_time_rfc3339(char *out, size_t cap, const char *s, size_t n);

/* The hooks where commands read input (tools/cli.c, tools/cmd_explain.c).
 * cli_adapt_object: a describe text or a table in *buf becomes the JSON of
 * an object or a BSL list; cli_adapt_oplist: a describe text becomes the
 * itemoperations list and *kind_s its kind when it was NULL. Both leave
 * other input alone. 0, or CLI_BAD_INPUT after printing. */
int cli_adapt_object(const char *cmd, const char *name, char **buf, size_t *n);
int cli_adapt_oplist(const char *cmd, const char *name, const char **kind_s, char **buf, size_t *n);
/* Whether the reader must pass p[0..n) (an input's first bytes) on as it is,
 * not convert it from YAML: --input-form describe or table, or (auto) text
 * that cli_form_detect() finds to be describe text or a table. */
int cli_form_raw(const char *p, size_t n);
/* Whether cli_load_oplist must read the whole input before deciding (it may
 * be text: its first non-blank byte is a letter), from its first bytes. */
int cli_form_maybe_text(const char *p, size_t n);
/* The operations of the last describe text cli_adapt_object read (explain's
 * OBJECT), decoded; *out stays NULL when that text had no operations list.
 * CLI_OK, or CLI_BAD_INPUT after printing. */
int cli_describe_take_ops(const char *cmd, velstatus_ctx *ctx, velstatus_kind kind, velstatus_oplist **out);

#endif
