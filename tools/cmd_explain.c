/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain: why a Backup or Restore is in its phase, what Velero
 * will do next and when (issue 14, doc/explain.md). Every decision comes
 * from the library: the forecast (velstatus_forecast_new, which steps the
 * reconcile), the phase tables, the BSL classification and the retry
 * schedule of the status patch; this file reads the inputs and words it. */
#include "cli.h"
#include "explain_svg.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "explain";

static const cli_usage usage = {
    "explain", "OBJECT",
    "Explains a Backup or Restore (`kubectl get backup NAME -o json`): what its phase means, why it\n"
    "is in it (the operations still running, those that failed and with what error, whether\n"
    "errors already make it PartiallyFailed), the timeline of what Velero will do next and when\n"
    "if every plugin keeps reporting the progress recorded, the state of its BSL and what a\n"
    "missing or read-only one would do, whether the next status patch is retried and for how\n"
    "long, and what to check, in order. What an input does not tell is said, never guessed.\n"
    "-o json has the same content for tools (doc/explain.md has the schema); -o svg draws the\n"
    "timeline as one self-contained SVG picture.\n"
    "\n"
    "OBJECT, OPS and BSLS are files or - (stdin, one of them), JSON or gzip.\n"
    "Exit status: 0 success, 2 bad input or usage.\n"};

/* ---- the inputs ---- */

typedef struct ex_obj {
    velstatus_kind kind;
    char *name, *ns, *phase, *bsl, *timeout, *backup;
    size_t name_len, ns_len, phase_len, bsl_len;
    long long errors, completed, failed;
} ex_obj;

typedef struct ex {
    int utc;
    cli_format fmt;
    velstatus_ctx *ctx;
    ex_obj o;
    velstatus_phase phase;
    int phase_known;
    velstatus_policy pol, other_pol;
    int64_t now, timeout, resource_timeout;
    int release_given, major, minor; /* --velero-version, and the release decided for */
    const char *timeout_src;
    velstatus_oplist *ops;
    velstatus_bsl_set *bsls;
    velstatus_server_verdict *verdict;
    int bsl_known; /* --bsls given and the BSL name known */
    velstatus_bsl_state bsl_state;
    velstatus_forecast *fc, *other, *if_available, *if_missing, *if_readonly;
    const char *persist_fails; /* --persist-fails upload|patch, or NULL */
} ex;

static void ex_free(ex *x)
{
    free(x->o.name);
    free(x->o.ns);
    free(x->o.phase);
    free(x->o.bsl);
    free(x->o.timeout);
    free(x->o.backup);
    velstatus_forecast_free(x->fc);
    velstatus_forecast_free(x->other);
    velstatus_forecast_free(x->if_available);
    velstatus_forecast_free(x->if_missing);
    velstatus_forecast_free(x->if_readonly);
    velstatus_server_verdict_free(x->verdict);
    velstatus_bsl_set_free(x->bsls);
    velstatus_oplist_free(x->ops);
    velstatus_ctx_free(x->ctx);
}

/* A malloc'ed NUL-terminated copy of s[0..n), or NULL for NULL (or out of memory). */
static char *dup_text(const char *s, size_t n)
{
    char *t = s ? malloc(n + 1) : NULL;
    if (t) {
        memcpy(t, s, n);
        t[n] = '\0';
    }
    return t;
}

/* An optional integer of the i-th object (a list getter) as -1 when absent. */
static long long opt_int(int (*get)(const velstatus_backup_list *, size_t, int64_t *), const velstatus_backup_list *l)
{
    int64_t v = 0;
    return get(l, 0, &v) ? (long long)v : -1;
}

/* The fields of the one Backup or Restore the library decoded. */
static void copy_object(ex_obj *o, const velstatus_backup_list *l)
{
    const char *s;
    size_t n;
    o->kind = velstatus_backup_list_kind(l, 0);
    s = velstatus_backup_list_name(l, 0, &o->name_len);
    o->name = dup_text(s, o->name_len);
    s = velstatus_backup_list_namespace(l, 0, &o->ns_len);
    o->ns = dup_text(s, o->ns_len);
    s = velstatus_backup_list_storage_location(l, 0, &o->bsl_len);
    o->bsl = dup_text(s, o->bsl_len);
    s = velstatus_backup_list_item_operation_timeout(l, 0, &n);
    o->timeout = dup_text(s, n);
    s = velstatus_backup_list_backup_name(l, 0, &n);
    o->backup = dup_text(s, n);
    s = velstatus_backup_list_phase(l, 0, &o->phase_len);
    o->phase = dup_text(s, o->phase_len);
    o->errors = opt_int(velstatus_backup_list_errors, l);
    o->completed = opt_int(velstatus_backup_list_item_operations_completed, l);
    o->failed = opt_int(velstatus_backup_list_item_operations_failed, l);
}

static int read_object(ex *x, const char *path)
{
    size_t len;
    char *t = cli_read_input(CMD, path, &len);
    const char *name = path && strcmp(path, "-") != 0 ? path : "stdin";
    velstatus_backup_list *l = NULL;
    velstatus_error err;
    ex_obj *o = &x->o;
    if (!t)
        return CLI_BAD_INPUT;
    if (velstatus_backup_list_from_json(&l, x->ctx, t, len, &err) != VELSTATUS_OK) {
        free(t);
        return cli_fail_err(CMD, name, &err);
    }
    free(t);
    if (velstatus_backup_list_count(l) != 1 || velstatus_backup_list_skipped(l) != 0) {
        velstatus_backup_list_free(l);
        return cli_fail(CMD, "%s: OBJECT must be a Backup or a Restore (`kubectl get backup NAME -o json`)", name);
    }
    copy_object(o, l);
    velstatus_backup_list_free(l);
    x->phase_known = velstatus_phase_from_string(&x->phase, o->phase ? o->phase : "", o->phase ? o->phase_len : 0,
                                                 NULL) == VELSTATUS_OK &&
                     velstatus_phase_valid(o->kind, x->phase);
    return CLI_OK;
}

static int parse_duration(const char *what, const char *s, int64_t *out)
{
    velstatus_error err;
    if (velstatus_duration_parse(out, s, VELSTATUS_NUL_TERMINATED, &err) != VELSTATUS_OK)
        return cli_fail_err(CMD, what, &err);
    return CLI_OK;
}

/* spec.itemOperationTimeout, else the flag, else the server's default
 * (Velero's --default-item-operation-timeout: 4h; 1h in 1.11). */
static int pick_timeout(ex *x, const char *flag)
{
    x->timeout = x->pol.default_item_operation_timeout_ns;
    x->timeout_src = "Velero's default";
    if (x->o.timeout) {
        x->timeout_src = "spec.itemOperationTimeout";
        return parse_duration("OBJECT spec.itemOperationTimeout", x->o.timeout, &x->timeout);
    }
    if (flag) {
        x->timeout_src = "--item-operation-timeout";
        return parse_duration("--item-operation-timeout", flag, &x->timeout);
    }
    return CLI_OK;
}

/* The BSL the object names (the default one when spec.storageLocation is
 * empty), looked up in --bsls: missing, read-only or available. */
static int read_bsls(ex *x, const char *path)
{
    size_t len, i, n;
    velstatus_error err;
    velstatus_bsl_record rec;
    char *t = cli_read_input(CMD, path, &len);
    if (!t)
        return CLI_BAD_INPUT;
    if (velstatus_bsl_set_from_json(&x->bsls, x->ctx, t, len, &err) != VELSTATUS_OK ||
        velstatus_server_status_classify(&x->verdict, x->bsls, NULL, &err) != VELSTATUS_OK) {
        free(t);
        return cli_fail_err(CMD, "--bsls", &err);
    }
    free(t);
    if (x->o.kind == VELSTATUS_KIND_RESTORE)
        return CLI_OK; /* its BSL is its backup's: not in the Restore */
    x->bsl_known = 1;
    x->bsl_state = VELSTATUS_BSL_MISSING;
    n = velstatus_bsl_set_count(x->bsls);
    for (i = 0; i < n; i++) {
        velstatus_bsl_record_init(&rec, sizeof(rec));
        (void)velstatus_bsl_set_get(x->bsls, i, &rec, NULL);
        if (x->o.bsl && x->o.bsl_len > 0
                ? (rec.name_len == x->o.bsl_len && memcmp(rec.name, x->o.bsl, rec.name_len) == 0)
                : rec.is_default) {
            x->bsl_state = rec.access == VELSTATUS_BSL_READ_ONLY ? VELSTATUS_BSL_READONLY : VELSTATUS_BSL_AVAILABLE;
            if (!x->o.bsl || x->o.bsl_len == 0) {
                free(x->o.bsl);
                x->o.bsl = strdup(rec.name);
                x->o.bsl_len = rec.name_len;
            }
            break;
        }
    }
    return CLI_OK;
}

static int is_waiting(velstatus_phase ph)
{
    return ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS ||
           ph == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED;
}

static size_t count_phase(const velstatus_oplist *l, velstatus_op_phase ph)
{
    size_t i, n = 0;
    for (i = 0; i < velstatus_oplist_count(l); i++)
        n += velstatus_op_phase_value(velstatus_oplist_at(l, i)) == ph;
    return n;
}

static int forecast(ex *x, velstatus_forecast **out, const velstatus_policy *pol, velstatus_bsl_state bsl)
{
    velstatus_reconcile_options o;
    velstatus_error err;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.phase = x->phase;
    o.bsl = bsl;
    o.now_ns = x->now;
    o.timeout_ns = x->timeout;
    o.bsl_name = x->o.bsl;
    o.bsl_name_len = x->o.bsl ? x->o.bsl_len : 0;
    o.completed_before =
        x->o.completed >= 0 ? x->o.completed : (long long)count_phase(x->ops, VELSTATUS_OP_PHASE_COMPLETED);
    o.failed_before = x->o.failed >= 0 ? x->o.failed : (long long)count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED);
    if (velstatus_forecast_new(out, x->ops, &o, pol, &err) != VELSTATUS_OK)
        return cli_fail_err(CMD, "forecast", &err);
    return CLI_OK;
}

/* The forecasts: the chosen preset, the other one, and (backups) a missing
 * and a read-only BSL at the next pass. */
static int forecasts(ex *x)
{
    velstatus_bsl_state bsl = x->bsl_known ? x->bsl_state : VELSTATUS_BSL_AVAILABLE;
    if (!x->ops || !x->phase_known || !is_waiting(x->phase))
        return CLI_OK;
    if (forecast(x, &x->fc, &x->pol, bsl) != CLI_OK || forecast(x, &x->other, &x->other_pol, bsl) != CLI_OK ||
        forecast(x, &x->if_available, &x->pol, VELSTATUS_BSL_AVAILABLE) != CLI_OK ||
        forecast(x, &x->if_missing, &x->pol, VELSTATUS_BSL_MISSING) != CLI_OK ||
        forecast(x, &x->if_readonly, &x->pol, VELSTATUS_BSL_READONLY) != CLI_OK)
        return CLI_BAD_INPUT;
    return CLI_OK;
}

/* ---- words ---- */

/* Prose, wrapped at 100 columns after `indent`. */
static void prose(const char *indent, const char *text)
{
    size_t col = 0, ind = strlen(indent);
    const char *p = text;
    while (*p != '\0') {
        size_t w = strcspn(p, " ");
        if (col == 0) {
            fputs(indent, stdout);
            col = ind;
        } else if (col + 1 + w > 100) {
            printf("\n%s", indent);
            col = ind;
        } else {
            putchar(' ');
            col++;
        }
        fwrite(p, 1, w, stdout);
        col += w;
        p += w;
        while (*p == ' ')
            p++;
    }
    putchar('\n');
}

static const char *meaning(velstatus_kind kind, velstatus_phase ph)
{
    int b = kind == VELSTATUS_KIND_BACKUP;
    switch (ph) {
    case VELSTATUS_PHASE_NEW:
        return b ? "Created; the backup queue has not picked it up yet."
                 : "Created; the restore controller has not started it yet.";
    case VELSTATUS_PHASE_QUEUED:
        return "Waiting in the backup queue (status.queuePosition) for a free worker, or for an earlier backup of the "
               "same namespaces.";
    case VELSTATUS_PHASE_READY_TO_START: return "Dequeued; the backup controller starts it next.";
    case VELSTATUS_PHASE_FAILED_VALIDATION:
        return "Terminal: the spec did not validate (status.validationErrors); nothing was done.";
    case VELSTATUS_PHASE_IN_PROGRESS: return "The main run is going, in the server's memory.";
    case VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS:
        return "The main run has ended without errors; operations started by plugins (data movement, snapshots) are "
               "still running. The operations controller polls them every 10s.";
    case VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED:
        return "The main run has ended and errors are already recorded; operations started by plugins are still "
               "running. The operations controller polls them every 10s; it will end PartiallyFailed.";
    case VELSTATUS_PHASE_FINALIZING:
        return "Every operation has ended; the finalizer controller writes the final files, then sets Completed.";
    case VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED:
        return "Every operation has ended, with errors; the finalizer controller finishes, then sets PartiallyFailed.";
    case VELSTATUS_PHASE_COMPLETED: return "Terminal: done without errors.";
    case VELSTATUS_PHASE_PARTIALLY_FAILED:
        return "Terminal: done, with errors (status.errors; `velero backup logs` lists them).";
    case VELSTATUS_PHASE_FAILED: return "Terminal: failed (status.failureReason).";
    case VELSTATUS_PHASE_DELETING: return "Being deleted by the backup deletion controller.";
    case VELSTATUS_PHASE_INVALID: break;
    }
    return "";
}

static void put_time(const ex *x, int64_t ns)
{
    char buf[128];
    cli_format_time(buf, sizeof(buf), ns, x->utc);
    fputs(buf, stdout);
}

static void put_duration(int64_t ns)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    if (velstatus_duration_format(buf, sizeof(buf), ns, NULL) == VELSTATUS_OK)
        fputs(buf, stdout);
    else
        printf("%lldns", (long long)ns);
}

static void put_str(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    const char *s = velstatus_op_string(op, f, &n);
    cli_put_text(stdout, s, n);
}

static int has_str(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    return velstatus_op_string(op, f, &n) && n > 0;
}

/* "du-1 (velero.io/csi-pvc-backupper, persistentvolumeclaims app/data-0)" */
static void put_op(const velstatus_op *op)
{
    put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
    printf(" (");
    put_str(op, VELSTATUS_OP_FIELD_ITEM_ACTION);
    if (has_str(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE)) {
        printf(", ");
        put_str(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE);
        if (has_str(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP)) {
            putchar('.');
            put_str(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP);
        }
        putchar(' ');
        if (has_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE)) {
            put_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE);
            putchar('/');
        }
        put_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAME);
    }
    putchar(')');
}

static const char *restart_words(const ex *x, velstatus_phase ph)
{
    velstatus_restart_action a = VELSTATUS_RESTART_NONE;
    (void)velstatus_phase_on_restart(&a, NULL, x->o.kind, ph, &x->pol, NULL);
    return a == VELSTATUS_RESTART_MARK_FAILED ? "a server restart marks it Failed (its run is lost)"
           : a == VELSTATUS_RESTART_REQUEUE   ? "a server restart requeues it in this phase"
                                              : "a server restart does nothing to it";
}

static void text_phase(const ex *x)
{
    const char *kind = x->o.kind == VELSTATUS_KIND_BACKUP ? "Backup" : "Restore";
    printf("%s ", kind);
    if (x->o.ns) {
        cli_put_text(stdout, x->o.ns, x->o.ns_len);
        putchar('/');
    }
    if (x->o.name)
        cli_put_text(stdout, x->o.name, x->o.name_len);
    else
        printf("(no name)");
    printf("\nPhase: ");
    if (!x->o.phase) {
        printf("(none): no controller has written a status yet.\n");
        return;
    }
    cli_put_text(stdout, x->o.phase, x->o.phase_len);
    if (!x->phase_known) {
        printf(" (not a %s phase this version knows: nothing below is decided)\n",
               x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore");
        return;
    }
    printf("\n");
    prose("  ", meaning(x->o.kind, x->phase));
    if (!velstatus_phase_is_terminal(x->o.kind, x->phase))
        printf("  At any time, %s.\n", restart_words(x, x->phase));
}

/* Progress as Velero's describe words it, and the percentage. */
static void put_progress(const velstatus_op *op)
{
    int64_t c = velstatus_op_n_completed(op), t = velstatus_op_n_total(op);
    if (t <= 0 && c <= 0)
        return;
    printf(", %lld of %lld complete", (long long)c, (long long)t);
    if (has_str(op, VELSTATUS_OP_FIELD_OPERATION_UNITS)) {
        printf(" (");
        put_str(op, VELSTATUS_OP_FIELD_OPERATION_UNITS);
        putchar(')');
    }
    if (t > 0 && c >= 0)
        printf(", %d%%", c >= t ? 100 : (int)((double)c * 100.0 / (double)t));
}

/* The deadline and ETA of a running operation. */
static void text_running_detail(const ex *x, size_t i)
{
    const velstatus_op *op = velstatus_oplist_at(x->ops, i);
    int64_t created = 0, deadline = 0, finish = 0;
    velstatus_forecast_fate fate = velstatus_forecast_op_fate(x->fc, i);
    if (velstatus_forecast_op_deadline(x->fc, i, &deadline)) {
        (void)velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, &created);
        printf("      created ");
        put_time(x, created);
        printf("; its timeout (");
        put_duration(x->timeout);
        printf(") passes at ");
        put_time(x, deadline);
        printf("\n");
    } else if (fate == VELSTATUS_FORECAST_FATE_NO_CREATED) {
        printf("      no created time: it never times out (Velero's controller dereferences the nil time)\n");
    } else if (fate == VELSTATUS_FORECAST_FATE_NO_TIMEOUT) {
        printf("      the timeout is ");
        put_duration(x->timeout);
        printf(", which this policy reads as \"no timeout\"\n");
    }
    if (!velstatus_forecast_op_finish(x->fc, i, &finish)) {
        printf("      no ETA: its started/updated times and counts give no rate\n");
        return;
    }
    printf("      at its current rate it finishes at ");
    put_time(x, finish);
    if (finish > x->now) {
        printf(" (in ");
        put_duration(finish - x->now);
        printf(")");
    }
    switch (velstatus_forecast_op_eta(x->fc, i)) {
    case VELSTATUS_FORECAST_ETA_AFTER:
        printf(", ");
        put_duration(finish - deadline);
        printf(" after its timeout: ");
        if (velstatus_forecast_event_time(x->fc, velstatus_forecast_op_event(x->fc, i), &finish)) {
            printf("it will be canceled at ");
            put_time(x, finish);
            printf("\n");
        } else {
            printf("it will time out first\n");
        }
        break;
    case VELSTATUS_FORECAST_ETA_BEFORE:
        printf(", ");
        put_duration(deadline - finish);
        printf(" before its timeout\n");
        break;
    default: printf("\n"); break;
    }
}

static void text_ops(const ex *x)
{
    size_t i, n = velstatus_oplist_count(x->ops);
    size_t run = count_phase(x->ops, VELSTATUS_OP_PHASE_NEW) + count_phase(x->ops, VELSTATUS_OP_PHASE_IN_PROGRESS);
    size_t done = count_phase(x->ops, VELSTATUS_OP_PHASE_COMPLETED),
           failed = count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED);
    printf("  %zu operation%s: %zu running, %zu completed, %zu failed", n, n == 1 ? "" : "s", run, done, failed);
    if (n > run + done + failed)
        printf(", %zu with an unknown phase", n - run - done - failed);
    printf(".\n");
    for (i = 0; i < n; i++) {
        const velstatus_op *op = velstatus_oplist_at(x->ops, i);
        velstatus_op_phase ph = velstatus_op_phase_value(op);
        printf("  %s ", ph == VELSTATUS_OP_PHASE_COMPLETED ? "completed:"
                        : ph == VELSTATUS_OP_PHASE_FAILED  ? "failed:   "
                        : ph == VELSTATUS_OP_PHASE_UNKNOWN ? "unknown:  "
                                                           : "running:  ");
        put_op(op);
        printf("\n      phase ");
        put_str(op, VELSTATUS_OP_FIELD_PHASE);
        put_progress(op);
        if (has_str(op, VELSTATUS_OP_FIELD_ERROR)) {
            printf("\n      error: ");
            put_str(op, VELSTATUS_OP_FIELD_ERROR);
        }
        printf("\n");
        if ((ph == VELSTATUS_OP_PHASE_NEW || ph == VELSTATUS_OP_PHASE_IN_PROGRESS) && x->fc)
            text_running_detail(x, i);
    }
}

/* Whether errors already decide a partial failure. */
static void text_decided(const ex *x, size_t failed)
{
    char buf[512];
    if (x->phase == VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED ||
        x->phase == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED) {
        snprintf(buf, sizeof(buf),
                 "Already decided: errors are recorded (status.errors %lld); it ends PartiallyFailed whatever the "
                 "running operations do.",
                 x->o.errors < 0 ? 0 : x->o.errors);
        prose("  ", buf);
        return;
    }
    if (failed == 0 || !is_waiting(x->phase))
        return;
    snprintf(buf, sizeof(buf), "Already decided: %zu operation%s failed, yet the phase is not ...PartiallyFailed: %s",
             failed, failed == 1 ? "" : "s",
             x->pol.level_triggered_partial_failure
                 ? "this policy counts a failed operation at every pass, so the next pass records it."
                 : "Velero counts a failure only in the pass that records it (pkg/controller/"
                   "backup_operations_controller.go), so this failure alone does not make it PartiallyFailed.");
    prose("  ", buf);
}

static void text_why(const ex *x)
{
    printf("\nWhy:\n");
    if (!x->ops) {
        printf("  Not decided: which operations run, and when they time out. Give --operations (the\n"
               "  <name>-itemoperations.json.gz in the BSL; `velero %s describe --details` shows the same).\n",
               x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore");
        if (x->o.errors > 0)
            printf("  status.errors is %lld.\n", x->o.errors);
        return;
    }
    text_ops(x);
    text_decided(x, count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED));
}

/* ---- the timeline ---- */

static velstatus_phase phase_before(const velstatus_forecast *f, size_t k)
{
    return k == 0 ? velstatus_forecast_phase(f)
                  : velstatus_reconcile_result_phase(velstatus_forecast_event_result(f, k - 1));
}

static void text_cause(const ex *x, size_t k)
{
    size_t i;
    for (i = 0; i < velstatus_forecast_op_count(x->fc); i++) {
        const velstatus_op *op = velstatus_oplist_at(x->ops, i);
        if (velstatus_forecast_op_event(x->fc, i) != k)
            continue;
        printf("      ");
        put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
        switch (velstatus_forecast_op_fate(x->fc, i)) {
        case VELSTATUS_FORECAST_FATE_TIMES_OUT:
            printf(" times out: Velero calls its plugin's Cancel%s\n",
                   x->pol.report_cancel_results ? "" : " (and ignores the answer)");
            break;
        case VELSTATUS_FORECAST_FATE_ERROR_FAILS:
            printf(" fails with its Progress error (%s)\n", x->pol.progress_error_grace_ns > 0
                                                                ? "its grace period has ended"
                                                                : "no grace period: at the first error");
            break;
        default:
            printf(" has the unknown phase \"");
            put_str(op, VELSTATUS_OP_FIELD_PHASE);
            printf("\": it fails\n");
            break;
        }
    }
}

static const char *persist_words(velstatus_kind kind, velstatus_persist_action a)
{
    if (a == VELSTATUS_PERSIST_UPLOAD_AND_PATCH)
        return kind == VELSTATUS_KIND_BACKUP
                   ? "uploads velero-backup.json and the itemoperations file, then patches the Backup"
                   : "uploads the itemoperations file, then patches the Restore";
    if (a == VELSTATUS_PERSIST_PATCH)
        return kind == VELSTATUS_KIND_BACKUP ? "patches the Backup's status" : "patches the Restore's status";
    return "writes nothing (a phase change without errors or new counts stays in memory)";
}

/* --persist-fails: what the library says stays when this pass's write fails
 * (VELSTATUS_E_STATE: the pass writes no such thing). */
static velstatus_status persist_failure(const ex *x, const velstatus_reconcile_result *r, velstatus_phase *kept,
                                        int64_t *pending, int64_t *lost)
{
    velstatus_persist_failure f = x->persist_fails && strcmp(x->persist_fails, "upload") == 0
                                      ? VELSTATUS_PERSIST_FAILED_UPLOAD
                                      : VELSTATUS_PERSIST_FAILED_PATCH;
    if (!x->persist_fails)
        return VELSTATUS_E_STATE;
    return velstatus_reconcile_result_after_persist_failure(r, f, kept, pending, lost, NULL);
}

/* One pass of the timeline; 1 when its write fails (--persist-fails): every
 * later pass decides the same again, so the timeline ends there. */
static int text_event(const ex *x, size_t k)
{
    velstatus_phase kept;
    int64_t pending, lost;
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(x->fc, k);
    velstatus_phase from = phase_before(x->fc, k), to = velstatus_reconcile_result_phase(r);
    int64_t at = 0;
    size_t e;
    (void)velstatus_forecast_event_time(x->fc, k, &at);
    printf("  ");
    put_time(x, at);
    printf(at == x->now ? " (the next pass):\n" : " (the first pass from then on):\n");
    text_cause(x, k);
    for (e = 0; e < velstatus_reconcile_result_error_count(r); e++) {
        size_t n;
        const char *s = velstatus_reconcile_result_error(r, e, &n);
        printf("      error: ");
        cli_put_text(stdout, s, n);
        putchar('\n');
    }
    if (to != from)
        printf("      phase: %s -> %s\n", velstatus_phase_to_string(from), velstatus_phase_to_string(to));
    if (persist_failure(x, r, &kept, &pending, &lost) != VELSTATUS_OK) {
        printf("      then it %s\n", persist_words(x->o.kind, velstatus_reconcile_result_persist(r)));
        return 0;
    }
    {
        char buf[512];
        snprintf(buf, sizeof(buf),
                 "then it %s, but the %s fails (--persist-fails): the %s stays %s (%lld error(s) kept pending, %lld "
                 "lost from status.errors) and Velero requeues it; while the writes fail, every pass decides this "
                 "again, past every timeout.",
                 persist_words(x->o.kind, velstatus_reconcile_result_persist(r)), x->persist_fails,
                 velstatus_kind_to_string(x->o.kind), velstatus_phase_to_string(kept), (long long)pending,
                 (long long)lost);
        prose("      ", buf);
    }
    return 1;
}

/* Whether error e of two results has the same text (absent counts as different). */
static int same_error_text(const velstatus_reconcile_result *a, const velstatus_reconcile_result *b, size_t e)
{
    size_t na, nb;
    const char *sa = velstatus_reconcile_result_error(a, e, &na), *sb = velstatus_reconcile_result_error(b, e, &nb);
    return sa && sb && na == nb && memcmp(sa, sb, na) == 0;
}

/* The other preset's timeline, when it differs: the same passes, phases,
 * cancels and error texts (a preset that differs only in its texts, as the
 * restore messages' `, plugin: NAME`, does not decide the same). */
static int same_timeline_texts(const velstatus_forecast *a, const velstatus_forecast *b, int texts)
{
    size_t k, n = velstatus_forecast_event_count(a);
    if (n != velstatus_forecast_event_count(b) || velstatus_forecast_end_kind(a) != velstatus_forecast_end_kind(b))
        return 0;
    for (k = 0; k < n; k++) {
        int64_t ta, tb;
        const velstatus_reconcile_result *ra = velstatus_forecast_event_result(a, k),
                                         *rb = velstatus_forecast_event_result(b, k);
        (void)velstatus_forecast_event_time(a, k, &ta);
        (void)velstatus_forecast_event_time(b, k, &tb);
        if (ta != tb || velstatus_reconcile_result_phase(ra) != velstatus_reconcile_result_phase(rb) ||
            velstatus_reconcile_result_canceled_count(ra) != velstatus_reconcile_result_canceled_count(rb) ||
            velstatus_reconcile_result_error_count(ra) != velstatus_reconcile_result_error_count(rb))
            return 0;
        for (size_t e = 0; texts && e < velstatus_reconcile_result_error_count(ra); e++)
            if (!same_error_text(ra, rb, e))
                return 0;
    }
    return 1;
}

static int same_timeline(const velstatus_forecast *a, const velstatus_forecast *b)
{
    return same_timeline_texts(a, b, 1);
}

/* The other preset's error texts of event k that differ from this one's. */
static void text_other_errors(const ex *x, size_t k)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(x->other, k), *here = NULL;
    int64_t ta = 0, tb = 1;
    (void)velstatus_forecast_event_time(x->other, k, &ta);
    if (k < velstatus_forecast_event_count(x->fc) && velstatus_forecast_event_time(x->fc, k, &tb) && ta == tb)
        here = velstatus_forecast_event_result(x->fc, k); /* the same pass here */
    for (size_t e = 0; e < velstatus_reconcile_result_error_count(r); e++) {
        size_t n, hn;
        const char *s = velstatus_reconcile_result_error(r, e, &n);
        const char *h = here ? velstatus_reconcile_result_error(here, e, &hn) : NULL;
        if (here && same_error_text(r, here, e))
            continue;
        printf("      error: ");
        cli_put_text(stdout, s, n);
        if (h) {
            printf(" (here: ");
            cli_put_text(stdout, h, hn);
            putchar(')');
        }
        putchar('\n');
    }
}

static void text_other(const ex *x)
{
    const char *name = velstatus_preset_to_string((velstatus_preset)x->other_pol.preset);
    size_t k, n = velstatus_forecast_event_count(x->other);
    if (same_timeline(x->fc, x->other)) {
        printf("  The %s preset (--policy %s) decides the same.\n", name, name);
        return;
    }
    if (same_timeline_texts(x->fc, x->other, 0)) {
        printf("  The %s preset (--policy %s) decides the same, with other error texts:\n", name, name);
        for (k = 0; k < n; k++)
            text_other_errors(x, k);
        return;
    }
    printf("  The %s preset (--policy %s) decides differently:\n", name, name);
    for (k = 0; k < n; k++) {
        const velstatus_reconcile_result *r = velstatus_forecast_event_result(x->other, k);
        int64_t at = 0;
        (void)velstatus_forecast_event_time(x->other, k, &at);
        printf("    ");
        put_time(x, at);
        printf(": %s, %zu canceled, %zu error%s\n", velstatus_phase_to_string(velstatus_reconcile_result_phase(r)),
               velstatus_reconcile_result_canceled_count(r), velstatus_reconcile_result_error_count(r),
               velstatus_reconcile_result_error_count(r) == 1 ? "" : "s");
        text_other_errors(x, k);
    }
    if (velstatus_forecast_end_kind(x->other) == VELSTATUS_FORECAST_END_STALLED)
        printf("    then operations keep running with no deadline\n");
    for (k = 0; k < velstatus_forecast_op_count(x->other); k++)
        if (velstatus_forecast_op_fate(x->other, k) != velstatus_forecast_op_fate(x->fc, k)) {
            printf("    ");
            put_str(velstatus_oplist_at(x->ops, k), VELSTATUS_OP_FIELD_OPERATION_ID);
            printf(": %s there, %s here\n", velstatus_forecast_fate_to_string(velstatus_forecast_op_fate(x->other, k)),
                   velstatus_forecast_fate_to_string(velstatus_forecast_op_fate(x->fc, k)));
        }
}

static void text_end(const ex *x)
{
    velstatus_phase fin = velstatus_forecast_final_phase(x->fc);
    size_t i;
    if (velstatus_forecast_end_kind(x->fc) == VELSTATUS_FORECAST_END_STALLED) {
        printf("  %s nothing more is decided: these operations have no deadline and run until their plugin\n"
               "  reports them done:",
               velstatus_forecast_event_count(x->fc) ? "Then" : "At the coming passes");
        for (i = 0; i < velstatus_forecast_op_count(x->fc); i++) {
            velstatus_forecast_fate f = velstatus_forecast_op_fate(x->fc, i);
            if (f == VELSTATUS_FORECAST_FATE_NO_CREATED || f == VELSTATUS_FORECAST_FATE_NO_TIMEOUT ||
                f == VELSTATUS_FORECAST_FATE_NOT_REACHED) {
                putchar(' ');
                put_str(velstatus_oplist_at(x->ops, i), VELSTATUS_OP_FIELD_OPERATION_ID);
            }
        }
        printf("\n");
    } else if (fin == VELSTATUS_PHASE_FINALIZING || fin == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED) {
        printf("  Then the finalizer controller sets %s.\n",
               fin == VELSTATUS_PHASE_FINALIZING ? "Completed" : "PartiallyFailed");
    }
}

static void text_timeline(const ex *x)
{
    size_t k;
    printf("\nTimeline:");
    if (!x->fc) {
        printf("\n");
        if (!x->phase_known)
            printf("  Not decided: the phase is unknown.\n");
        else if (velstatus_phase_is_terminal(x->o.kind, x->phase))
            printf("  Nothing more happens: the phase is terminal.\n");
        else if (x->phase == VELSTATUS_PHASE_FINALIZING || x->phase == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED)
            printf("  Next: the finalizer controller sets %s.\n",
                   x->phase == VELSTATUS_PHASE_FINALIZING ? "Completed" : "PartiallyFailed");
        else if (x->phase == VELSTATUS_PHASE_IN_PROGRESS)
            printf("  Not decided: the operations are first evaluated when the main run ends, which no input tells.\n");
        else if (is_waiting(x->phase))
            printf("  Not decided without --operations.\n");
        else
            printf("  Not decided by the operations: it is before the main run.\n");
        return;
    }
    {
        char d[VELSTATUS_DURATION_BUFSIZE], buf[512];
        if (velstatus_duration_format(d, sizeof(d), x->timeout, NULL) != VELSTATUS_OK)
            snprintf(d, sizeof(d), "%lldns", (long long)x->timeout);
        char rel[32] = "";
        if (x->release_given)
            snprintf(rel, sizeof(rel), ", Velero %d.%d", x->major, x->minor);
        snprintf(buf, sizeof(buf),
                 "(policy %s%s; item operation timeout %s from %s; if every plugin keeps reporting the progress "
                 "recorded%s):",
                 velstatus_preset_to_string((velstatus_preset)x->pol.preset), rel, d, x->timeout_src,
                 x->bsl_known ? "" : "; the BSL assumed available");
        printf("\n");
        prose("  ", buf);
    }
    if (velstatus_forecast_event_count(x->fc) == 0)
        printf("  The next passes decide nothing.\n");
    for (k = 0; k < velstatus_forecast_event_count(x->fc); k++)
        if (text_event(x, k))
            break;
    if (k == velstatus_forecast_event_count(x->fc))
        text_end(x);
    text_other(x);
}

/* ---- the BSL ---- */

/* What the next pass does with a missing or read-only BSL: the first event
 * of that forecast, when it differs from the forecast with the BSL available. */
static void text_bsl_if(const ex *x, const char *what, const velstatus_forecast *f)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, 0);
    size_t n;
    const char *err;
    if (same_timeline(x->if_available, f)) {
        printf("  Were it %s, the next pass would run as usual%s.\n", what,
               x->o.kind == VELSTATUS_KIND_RESTORE ? " (a restore reads from a read-only BSL)" : "");
        return;
    }
    printf("  Were it %s, the next pass would move it to %s", what,
           velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
    if (x->o.kind == VELSTATUS_KIND_RESTORE) {
        printf(" (the error names its backup's BSL).\n");
        return;
    }
    err = velstatus_reconcile_result_error(r, velstatus_reconcile_result_error_count(r) - 1, &n);
    printf(" with the error: ");
    cli_put_text(stdout, err, n);
    putchar('\n');
}

static void text_bsl_state(const ex *x)
{
    size_t i, n = velstatus_bsl_set_count(x->bsls);
    for (i = 0; i < n; i++) {
        velstatus_bsl_record rec;
        velstatus_bsl_record_init(&rec, sizeof(rec));
        (void)velstatus_bsl_set_get(x->bsls, i, &rec, NULL);
        if (!x->o.bsl || rec.name_len != x->o.bsl_len || memcmp(rec.name, x->o.bsl, rec.name_len) != 0)
            continue;
        printf("%s, %s", rec.phase_len ? rec.phase : "(never validated)", velstatus_bsl_access_to_string(rec.access));
        if (rec.message_len > 0) {
            printf(": ");
            cli_put_text(stdout, rec.message, rec.message_len);
        }
        return;
    }
    printf("not in --bsls: the next pass does not find it");
}

static void text_bsl(const ex *x)
{
    printf("\nBackup storage location:\n");
    if (x->o.kind == VELSTATUS_KIND_RESTORE) {
        printf("  A Restore's BSL is its backup's (%s): not in the Restore object.\n",
               x->o.backup ? x->o.backup : "spec.backupName");
    } else if (!x->o.bsl) {
        printf("  Not decided: the Backup names no spec.storageLocation; give --bsls to find the default one.\n");
    } else {
        printf("  \"");
        cli_put_text(stdout, x->o.bsl, x->o.bsl_len);
        printf("\": ");
        if (!x->bsls)
            printf("not decided: give --bsls (`kubectl get backupstoragelocations -n velero -o json`).\n");
        else {
            text_bsl_state(x);
            printf("\n");
        }
    }
    if (x->verdict)
        printf("  Server status: %s: %s\n",
               velstatus_server_status_to_string(velstatus_server_verdict_status(x->verdict)),
               velstatus_server_verdict_message(x->verdict));
    if (x->if_missing && !(x->bsl_known && x->bsl_state == VELSTATUS_BSL_MISSING))
        text_bsl_if(x, "missing", x->if_missing);
    if (x->if_readonly && !(x->bsl_known && x->bsl_state == VELSTATUS_BSL_READONLY))
        text_bsl_if(x, "read-only", x->if_readonly);
}

/* ---- the status patch ---- */

static int fail_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    (void)ud;
    (void)attempt;
    return velstatus_retry_reply_set_error(reply, "patch failed", VELSTATUS_NUL_TERMINATED, NULL) == VELSTATUS_OK ? 0
                                                                                                                  : -1;
}

/* The retry budget of a patch Velero retries: a dry run of the policy's
 * retry in which every attempt fails (no jitter). */
static int budget(const ex *x, uint64_t *attempts, int64_t *sleep)
{
    velstatus_retry_host h;
    velstatus_retry_result *r = NULL;
    int ok;
    velstatus_retry_host_init(&h, sizeof(h));
    h.attempt = fail_attempt;
    if (velstatus_retry_run(&r, x->ctx, x->resource_timeout, &h, &x->pol, NULL) != VELSTATUS_OK)
        return 0;
    *attempts = velstatus_retry_result_attempts(r);
    ok = velstatus_retry_result_total_sleep(sleep, r);
    velstatus_retry_result_free(r);
    return ok;
}

static void text_patch(const ex *x, velstatus_phase from, velstatus_phase to, const char *who)
{
    int retried = 0;
    uint64_t attempts = 0;
    int64_t sleep = 0;
    (void)velstatus_retry_transition(&retried, x->o.kind, from, to, 0, &x->pol, NULL);
    printf("  %s -> %s (%s): ", velstatus_phase_to_string(from), velstatus_phase_to_string(to), who);
    if (!retried) {
        printf("sent once; Velero does not retry it%s.\n", is_waiting(from) ? ": the next 10s poll decides again" : "");
        return;
    }
    if (!budget(x, &attempts, &sleep)) {
        printf("retried for ever (--resource-timeout <= 0).\n");
        return;
    }
    printf("retried");
    if (x->pol.preset == VELSTATUS_PRESET_VELERO) {
        printf(" with CapBackoff(--resource-timeout ");
        put_duration(x->resource_timeout);
        printf(")");
    }
    printf(": %llu attempts over ", (unsigned long long)attempts);
    put_duration(sleep);
    printf(" of backoff; if all fail, it stays %s and %s.\n", velstatus_phase_to_string(from), restart_words(x, from));
}

static void text_patches(const ex *x)
{
    velstatus_phase cur = x->phase, fin;
    size_t k;
    if (!x->phase_known)
        return;
    printf("\nStatus patches:\n");
    if (x->fc) {
        for (k = 0; k < velstatus_forecast_event_count(x->fc); k++) {
            velstatus_phase to = velstatus_reconcile_result_phase(velstatus_forecast_event_result(x->fc, k));
            if (to != cur)
                text_patch(x, cur, to, "operations controller");
            cur = to;
        }
    }
    fin = cur;
    if (fin == VELSTATUS_PHASE_FINALIZING || fin == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED)
        text_patch(x, fin,
                   fin == VELSTATUS_PHASE_FINALIZING ? VELSTATUS_PHASE_COMPLETED : VELSTATUS_PHASE_PARTIALLY_FAILED,
                   "finalizer controller");
    else if (!x->fc)
        printf("  None foreseen from this input.\n");
}

/* ---- what to check ---- */

static int any_fate(const ex *x, velstatus_forecast_fate f)
{
    size_t i;
    for (i = 0; i < velstatus_forecast_op_count(x->fc); i++)
        if (velstatus_forecast_op_fate(x->fc, i) == f)
            return 1;
    return 0;
}

static void text_check_failed(const ex *x, int *n)
{
    size_t i;
    for (i = 0; i < velstatus_oplist_count(x->ops); i++) {
        const velstatus_op *op = velstatus_oplist_at(x->ops, i);
        if (velstatus_op_phase_value(op) != VELSTATUS_OP_PHASE_FAILED || !has_str(op, VELSTATUS_OP_FIELD_ERROR))
            continue;
        size_t len;
        const char *e = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len);
        printf("  %d. Why ", ++*n);
        put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
        if (len >= 17 && memcmp(e, "unable to get val", 17) == 0)
            printf(" failed: its plugin was not registered when Velero asked (`velero plugin get`;\n"
                   "     a plugin or node-agent that restarted, velero #6913).\n");
        else
            printf(" failed: its plugin's own object tells why it reported \"%.*s\".\n", (int)(len > 60 ? 60 : len), e);
    }
}

/* The object each running operation's plugin works on (its post-operation
 * items, e.g. a DataUpload). */
static void text_check_running(const ex *x, int *n)
{
    size_t i, j;
    for (i = 0; i < velstatus_oplist_count(x->ops); i++) {
        const velstatus_op *op = velstatus_oplist_at(x->ops, i);
        velstatus_op_phase ph = velstatus_op_phase_value(op);
        if (ph != VELSTATUS_OP_PHASE_NEW && ph != VELSTATUS_OP_PHASE_IN_PROGRESS)
            continue;
        if (velstatus_op_post_item_count(op) == 0 && x->o.kind == VELSTATUS_KIND_RESTORE) {
            printf(
                "  %d. What the plugin's own object says: for the data mover, `kubectl get datadownloads.velero.io -A\n"
                "     -l velero.io/async-operation-id=",
                ++*n);
            put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
            printf(" -o yaml` (a DataDownload stuck in Accepted or Prepared, velero #6813).\n");
        }
        for (j = 0; j < velstatus_op_post_item_count(op); j++) {
            size_t rl, gl, nl, sl;
            const char *res = velstatus_op_post_item(op, j, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &rl);
            const char *grp = velstatus_op_post_item(op, j, VELSTATUS_OP_FIELD_RESOURCE_GROUP, &gl);
            const char *ns = velstatus_op_post_item(op, j, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &sl);
            const char *name = velstatus_op_post_item(op, j, VELSTATUS_OP_FIELD_RESOURCE_NAME, &nl);
            printf("  %d. What the plugin's own object says: `kubectl get %.*s%s%.*s -n %.*s %.*s -o yaml`\n"
                   "     (its phase, progress and message; velero #8576).\n",
                   ++*n, (int)rl, res, gl ? "." : "", (int)gl, grp, (int)sl, ns, (int)nl, name);
        }
    }
}

static void text_checks(const ex *x)
{
    int n = 0;
    printf("\nCheck, in order:\n");
    if (x->bsl_known && x->bsl_state != VELSTATUS_BSL_AVAILABLE)
        printf("  %d. The BSL: `kubectl get backupstoragelocations -n velero -o yaml`; the next pass fails the %s "
               "without it.\n",
               ++n, x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore");
    if (x->ops) {
        text_check_failed(x, &n);
        text_check_running(x, &n);
    }
    if (x->fc) {
        size_t i;
        for (i = 0; i < velstatus_forecast_op_count(x->fc); i++)
            if (velstatus_forecast_op_eta(x->fc, i) == VELSTATUS_FORECAST_ETA_AFTER) {
                printf("  %d. The timeout: at its rate ", ++n);
                put_str(velstatus_oplist_at(x->ops, i), VELSTATUS_OP_FIELD_OPERATION_ID);
                printf(" needs more than ");
                put_duration(x->timeout);
                printf("; give the next %s a larger\n     spec.itemOperationTimeout (`--item-operation-timeout`; large "
                       "volumes, velero #8454).\n",
                       x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore");
                break;
            }
        if (any_fate(x, VELSTATUS_FORECAST_FATE_NO_CREATED) || any_fate(x, VELSTATUS_FORECAST_FATE_NO_TIMEOUT))
            printf("  %d. The operations without a deadline: nothing ends them but their plugin; delete the %s if it\n"
                   "     cannot finish them.\n",
                   ++n, x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore");
    }
    printf("  %d. The server log: `kubectl logs -n velero deploy/velero | grep ", ++n);
    if (x->o.name)
        cli_put_text(stdout, x->o.name, x->o.name_len);
    printf("`.\n");
}

static void text_undecided(const ex *x)
{
    if (x->ops && (x->bsls || x->o.kind == VELSTATUS_KIND_RESTORE))
        return;
    printf("\nNot decided by this input:\n");
    if (!x->ops) /* the file is in the bucket: doc/operations.md gives the whole recipe */
        printf("  - the operations and the timeline: give --operations OPS (`velstatus download-request %s %.*s | "
               "kubectl create -f -`, then fetch its status.downloadURL)\n",
               x->o.kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore", (int)(x->o.name ? x->o.name_len : 4),
               x->o.name ? x->o.name : "NAME");
    if (!x->bsls && x->o.kind == VELSTATUS_KIND_BACKUP)
        printf("  - whether the next pass finds the BSL: give --bsls BSLS\n");
}

static void print_text(const ex *x)
{
    text_phase(x);
    text_why(x);
    text_timeline(x);
    text_bsl(x);
    text_patches(x);
    text_checks(x);
    text_undecided(x);
}

/* ---- -o json (schema: doc/explain.md) ---- */

static void j_time(int64_t ns)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    if (velstatus_time_format(t, sizeof(t), ns, 1, NULL) == VELSTATUS_OK)
        printf("\"%s\"", t);
    else
        printf("null");
}

static void j_text(const char *s, size_t n)
{
    if (!s)
        printf("null");
    else
        cli_json_str(stdout, s, n);
}

static void j_field(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    const char *s = velstatus_op_string(op, f, &n);
    j_text(s, n);
}

static void j_op(const ex *x, size_t i)
{
    const velstatus_op *op = velstatus_oplist_at(x->ops, i);
    int64_t t;
    size_t e = velstatus_forecast_op_event(x->fc, i);
    printf("%s{\"operationID\":", i ? "," : "");
    j_field(op, VELSTATUS_OP_FIELD_OPERATION_ID);
    printf(",\"itemAction\":");
    j_field(op, VELSTATUS_OP_FIELD_ITEM_ACTION);
    printf(",\"phase\":");
    j_field(op, VELSTATUS_OP_FIELD_PHASE);
    printf(",\"error\":");
    if (has_str(op, VELSTATUS_OP_FIELD_ERROR))
        j_field(op, VELSTATUS_OP_FIELD_ERROR);
    else
        printf("null");
    printf(",\"nCompleted\":%lld,\"nTotal\":%lld,\"fate\":", (long long)velstatus_op_n_completed(op),
           (long long)velstatus_op_n_total(op));
    if (x->fc)
        printf("\"%s\"", velstatus_forecast_fate_to_string(velstatus_forecast_op_fate(x->fc, i)));
    else
        printf("null");
    printf(",\"deadline\":");
    velstatus_forecast_op_deadline(x->fc, i, &t) ? j_time(t) : (void)printf("null");
    printf(",\"finish\":");
    velstatus_forecast_op_finish(x->fc, i, &t) ? j_time(t) : (void)printf("null");
    printf(",\"eta\":");
    if (x->fc)
        printf("\"%s\"", velstatus_forecast_eta_to_string(velstatus_forecast_op_eta(x->fc, i)));
    else
        printf("null");
    printf(",\"event\":");
    if (e != SIZE_MAX)
        printf("%zu", e);
    else
        printf("null");
    printf("}");
}

static void j_event(const ex *x, const velstatus_forecast *f, size_t k)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, k);
    int64_t at = 0;
    size_t i, n;
    (void)velstatus_forecast_event_time(f, k, &at);
    printf("%s{\"at\":", k ? "," : "");
    j_time(at);
    printf(",\"phase\":\"%s\",\"canceled\":[", velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
    for (i = 0; i < velstatus_reconcile_result_canceled_count(r); i++) {
        const char *s = velstatus_reconcile_result_canceled_id(r, i, &n);
        printf("%s", i ? "," : "");
        j_text(s, n);
    }
    printf("],\"errors\":[");
    for (i = 0; i < velstatus_reconcile_result_error_count(r); i++) {
        const char *s = velstatus_reconcile_result_error(r, i, &n);
        printf("%s", i ? "," : "");
        j_text(s, n);
    }
    printf("],\"persist\":\"%s\"", velstatus_persist_action_to_string(velstatus_reconcile_result_persist(r)));
    {
        velstatus_phase kept;
        int64_t pending, lost;
        if (persist_failure(x, r, &kept, &pending, &lost) == VELSTATUS_OK)
            printf(",\"persistFails\":{\"write\":\"%s\",\"phaseKept\":\"%s\",\"pendingErrors\":%lld,"
                   "\"lostErrors\":%lld}",
                   x->persist_fails, velstatus_phase_to_string(kept), (long long)pending, (long long)lost);
    }
    printf("}");
}

static void j_timeline(const ex *x, const velstatus_forecast *f)
{
    size_t k;
    if (!f) {
        printf("null");
        return;
    }
    printf("{\"end\":\"%s\",\"finalPhase\":\"%s\",\"events\":[",
           velstatus_forecast_end_to_string(velstatus_forecast_end_kind(f)),
           velstatus_phase_to_string(velstatus_forecast_final_phase(f)));
    for (k = 0; k < velstatus_forecast_event_count(f); k++)
        j_event(x, f, k);
    printf("]}");
}

static void j_if(const ex *x, const velstatus_forecast *f)
{
    const velstatus_reconcile_result *r = velstatus_forecast_event_result(f, 0);
    size_t n;
    const char *s;
    if (!f || same_timeline(x->if_available, f)) {
        printf("null");
        return;
    }
    s = velstatus_reconcile_result_error(r, velstatus_reconcile_result_error_count(r) - 1, &n);
    printf("{\"phase\":\"%s\",\"error\":", velstatus_phase_to_string(velstatus_reconcile_result_phase(r)));
    j_text(s, n);
    printf("}");
}

static void j_bsl(const ex *x)
{
    printf(",\"bsl\":{\"name\":");
    j_text(x->o.bsl, x->o.bsl_len);
    printf(",\"state\":");
    if (x->bsl_known)
        printf("\"%s\"", velstatus_bsl_state_to_string(x->bsl_state));
    else
        printf("null");
    printf(",\"serverStatus\":");
    if (x->verdict)
        printf("\"%s\"", velstatus_server_status_to_string(velstatus_server_verdict_status(x->verdict)));
    else
        printf("null");
    printf(",\"ifMissing\":");
    j_if(x, x->if_missing);
    printf(",\"ifReadOnly\":");
    j_if(x, x->if_readonly);
    printf("}");
}

static void j_patch(const ex *x, velstatus_phase from, velstatus_phase to, const char *who, int *first)
{
    int retried = 0;
    uint64_t attempts = 0;
    int64_t sleep = 0;
    (void)velstatus_retry_transition(&retried, x->o.kind, from, to, 0, &x->pol, NULL);
    printf("%s{\"from\":\"%s\",\"to\":\"%s\",\"controller\":\"%s\",\"retried\":%s,\"attempts\":", *first ? "" : ",",
           velstatus_phase_to_string(from), velstatus_phase_to_string(to), who, retried ? "true" : "false");
    *first = 0;
    if (retried && budget(x, &attempts, &sleep))
        printf("%llu,\"backoffNs\":%lld}", (unsigned long long)attempts, (long long)sleep);
    else
        printf("null,\"backoffNs\":null}");
}

static void j_patches(const ex *x)
{
    velstatus_phase cur = x->phase;
    int first = 1;
    size_t k;
    printf(",\"patches\":[");
    for (k = 0; x->fc && k < velstatus_forecast_event_count(x->fc); k++) {
        velstatus_phase to = velstatus_reconcile_result_phase(velstatus_forecast_event_result(x->fc, k));
        if (to != cur)
            j_patch(x, cur, to, "operations", &first);
        cur = to;
    }
    if (x->phase_known && (cur == VELSTATUS_PHASE_FINALIZING || cur == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED))
        j_patch(x, cur,
                cur == VELSTATUS_PHASE_FINALIZING ? VELSTATUS_PHASE_COMPLETED : VELSTATUS_PHASE_PARTIALLY_FAILED,
                "finalizer", &first);
    printf("]");
}

static void print_json(const ex *x)
{
    size_t i;
    printf("{\"kind\":\"%s\",\"namespace\":", x->o.kind == VELSTATUS_KIND_BACKUP ? "Backup" : "Restore");
    j_text(x->o.ns, x->o.ns_len);
    printf(",\"name\":");
    j_text(x->o.name, x->o.name_len);
    printf(",\"phase\":");
    j_text(x->o.phase, x->o.phase_len);
    printf(",\"phaseKnown\":%s,\"policy\":\"%s\",\"veleroVersion\":", x->phase_known ? "true" : "false",
           velstatus_preset_to_string((velstatus_preset)x->pol.preset));
    if (x->pol.preset == VELSTATUS_PRESET_VELERO)
        printf("\"%d.%d\"", x->major, x->minor);
    else
        printf("null");
    printf(",\"now\":");
    j_time(x->now);
    printf(",\"itemOperationTimeout\":{\"ns\":%lld,\"source\":\"%s\"},\"errors\":", (long long)x->timeout,
           x->timeout_src);
    if (x->o.errors >= 0)
        printf("%lld", x->o.errors);
    else
        printf("null");
    printf(",\"operations\":");
    if (!x->ops)
        printf("null");
    else {
        printf("[");
        for (i = 0; i < velstatus_oplist_count(x->ops); i++)
            j_op(x, i);
        printf("]");
    }
    printf(",\"timeline\":");
    j_timeline(x, x->fc);
    printf(",\"otherPreset\":");
    if (!x->other)
        printf("null");
    else {
        printf("{\"policy\":\"%s\",\"same\":%s,\"timeline\":",
               velstatus_preset_to_string((velstatus_preset)x->other_pol.preset),
               same_timeline(x->fc, x->other) ? "true" : "false");
        j_timeline(x, x->other);
        printf("}");
    }
    j_bsl(x);
    j_patches(x);
    printf(",\"undecided\":[");
    if (!x->ops)
        printf("\"operations\"%s", !x->bsls && x->o.kind == VELSTATUS_KIND_BACKUP ? "," : "");
    if (!x->bsls && x->o.kind == VELSTATUS_KIND_BACKUP)
        printf("\"bsl\"");
    printf("]}\n");
}

/* ---- -o svg (tools/explain_svg.c draws the same forecast) ---- */

static int print_svg(const ex *x)
{
    explain_svg_in in = {.kind = x->o.kind,
                         .ns = x->o.ns,
                         .ns_len = x->o.ns_len,
                         .name = x->o.name,
                         .name_len = x->o.name_len,
                         .phase = x->o.phase,
                         .phase_len = x->o.phase_len,
                         .phase_known = x->phase_known,
                         .phase_value = x->phase,
                         .utc = x->utc,
                         .now = x->now,
                         .timeout_ns = x->timeout,
                         .timeout_src = x->timeout_src,
                         .ops = x->ops,
                         .fc = x->fc};
    in.policy = velstatus_preset_to_string((velstatus_preset)x->pol.preset);
    if (x->pol.preset == VELSTATUS_PRESET_VELERO) {
        in.major = x->major;
        in.minor = x->minor;
    }
    return explain_svg(stdout, &in);
}

/* ---- the command ---- */

int cmd_explain(int argc, char **argv)
{
    const char *ops_s = NULL, *bsls_s = NULL, *timeout_s = NULL, *rt_s = NULL, *policy_s = NULL, *now_s = NULL;
    const char *fmt_s = "text", *path = NULL, *version_s = NULL;
    velstatus_error err;
    ex x;
    int rc;
    memset(&x, 0, sizeof(x));
    {
        const cli_opt opts[] = {
            CLI_VAL("--operations", 0, &ops_s, "OPS", "the <name>-itemoperations.json(.gz) of the backup or restore"),
            CLI_VAL("--bsls", 0, &bsls_s, "BSLS", "`kubectl get backupstoragelocations -n velero -o json`"),
            CLI_OPT_ITEM_OPERATION_TIMEOUT(&timeout_s),
            CLI_VAL("--resource-timeout", 0, &rt_s, "DURATION",
                    "the server's --resource-timeout (default 10m): bounds a status patch's retries"),
            CLI_VAL("--policy", 0, &policy_s, "velero|hardened", "the preset (default: velero, what Velero does)"),
            CLI_OPT_VELERO_VERSION(&version_s),
            CLI_OPT_NOW(&now_s),
            CLI_FLAG("--utc", 0, &x.utc, "times in UTC (default: the local time zone, TZ respected)"),
            CLI_VAL("--persist-fails", 0, &x.persist_fails, "upload|patch",
                    "the upload or the status patch of every pass fails: what stays, instead of the phase changes"),
            CLI_OPT_OUTPUT_OF(&fmt_s, "text|json|svg")};
        int npos = 0, r = cli_parse(&usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path, 1, &npos);
        if (r != 0)
            return r > 0 ? CLI_OK : CLI_BAD_INPUT;
        if (npos == 0)
            return cli_fail(CMD, "OBJECT is required (a Backup or Restore as JSON, or - for stdin)");
    }
    if (strcmp(fmt_s, "svg") == 0)
        x.fmt = CLI_SVG;
    else if (strcmp(fmt_s, "text") != 0 && strcmp(fmt_s, "json") != 0)
        return cli_fail(CMD, "-o must be text, json or svg, not \"%s\"", fmt_s);
    if ((x.fmt != CLI_SVG && cli_parse_format(CMD, fmt_s, &x.fmt) != 0) || cli_now(CMD, now_s, &x.now) != 0)
        return CLI_BAD_INPUT;
    if (cli_policy(CMD, policy_s, "velero", version_s, &x.pol, &x.major, &x.minor) != 0)
        return CLI_BAD_INPUT;
    if (x.persist_fails && strcmp(x.persist_fails, "upload") != 0 && strcmp(x.persist_fails, "patch") != 0)
        return cli_fail(CMD, "--persist-fails must be upload or patch, not \"%s\"", x.persist_fails);
    x.release_given = version_s != NULL;
    velstatus_policy_init(&x.other_pol, sizeof(x.other_pol),
                          x.pol.preset == VELSTATUS_PRESET_VELERO ? VELSTATUS_PRESET_HARDENED : VELSTATUS_PRESET_VELERO,
                          NULL);
    x.resource_timeout = INT64_C(600) * 1000000000;
    if (rt_s && parse_duration("--resource-timeout", rt_s, &x.resource_timeout) != CLI_OK)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&x.ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(CMD, "context", &err);
    cli_input_now = now_s; /* a table's ages count back from it */
    rc = read_object(&x, path);
    if (rc == CLI_OK)
        rc = pick_timeout(&x, timeout_s);
    if (rc == CLI_OK && ops_s)
        rc = cli_load_oplist(CMD, ops_s, velstatus_kind_to_string(x.o.kind), x.ctx, &x.ops);
    else if (rc == CLI_OK) /* a describe --details OBJECT lists its own operations */
        rc = cli_describe_take_ops(CMD, x.ctx, x.o.kind, &x.ops);
    if (rc == CLI_OK && bsls_s)
        rc = read_bsls(&x, bsls_s);
    if (rc == CLI_OK)
        rc = forecasts(&x);
    if (rc == CLI_OK && x.fmt == CLI_SVG)
        rc = print_svg(&x);
    else if (rc == CLI_OK)
        x.fmt == CLI_JSON ? print_json(&x) : print_text(&x);
    ex_free(&x);
    return rc;
}
