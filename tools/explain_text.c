/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain: the words — the text form of the model (explain.h). */
#include "explain.h"
#include "text_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ---- words ---- */

/* Prose, wrapped at 100 columns after `indent`, from column `col` (0: a
 * new line, which starts with indent). */
void ex_prose_at(const char *indent, size_t col, const char *text)
{
    size_t ind = strlen(indent);
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

void ex_prose(const char *indent, const char *text)
{
    ex_prose_at(indent, 0, text);
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

void ex_put_duration(int64_t ns)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    if (velstatus_duration_format(buf, sizeof(buf), ns, NULL) == VELSTATUS_OK)
        fputs(buf, stdout);
    else
        printf("%lldns", (long long)ns);
}

void ex_put_str(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    const char *s = velstatus_op_string(op, f, &n);
    cli_put_text(stdout, s, n);
}

int ex_has_str(const velstatus_op *op, velstatus_op_field f)
{
    size_t n;
    return velstatus_op_string(op, f, &n) && n > 0;
}

/* "du-1 (velero.io/csi-pvc-backupper, persistentvolumeclaims app/data-0)" */
static void put_op(const velstatus_op *op)
{
    ex_put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
    printf(" (");
    ex_put_str(op, VELSTATUS_OP_FIELD_ITEM_ACTION);
    if (ex_has_str(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE)) {
        printf(", ");
        ex_put_str(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE);
        if (ex_has_str(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP)) {
            putchar('.');
            ex_put_str(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP);
        }
        putchar(' ');
        if (ex_has_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE)) {
            ex_put_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE);
            putchar('/');
        }
        ex_put_str(op, VELSTATUS_OP_FIELD_RESOURCE_NAME);
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
    ex_prose("  ", meaning(x->o.kind, x->phase));
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
    if (ex_has_str(op, VELSTATUS_OP_FIELD_OPERATION_UNITS)) {
        printf(" (");
        ex_put_str(op, VELSTATUS_OP_FIELD_OPERATION_UNITS);
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
        ex_put_duration(x->timeout);
        printf(") passes at ");
        put_time(x, deadline);
        printf("\n");
    } else if (fate == VELSTATUS_FORECAST_FATE_NO_CREATED) {
        printf("      no created time: it never times out (Velero's controller dereferences the nil time)\n");
    } else if (fate == VELSTATUS_FORECAST_FATE_NO_TIMEOUT) {
        printf("      the timeout is ");
        ex_put_duration(x->timeout);
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
        ex_put_duration(finish - x->now);
        printf(")");
    }
    switch (velstatus_forecast_op_eta(x->fc, i)) {
    case VELSTATUS_FORECAST_ETA_AFTER:
        printf(", ");
        ex_put_duration(finish - deadline);
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
        ex_put_duration(deadline - finish);
        printf(" before its timeout\n");
        break;
    default: printf("\n"); break;
    }
}

static void text_ops(const ex *x)
{
    size_t i, n = velstatus_oplist_count(x->ops);
    size_t run =
        ex_count_phase(x->ops, VELSTATUS_OP_PHASE_NEW) + ex_count_phase(x->ops, VELSTATUS_OP_PHASE_IN_PROGRESS);
    size_t done = ex_count_phase(x->ops, VELSTATUS_OP_PHASE_COMPLETED),
           failed = ex_count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED);
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
        ex_put_str(op, VELSTATUS_OP_FIELD_PHASE);
        put_progress(op);
        if (ex_has_str(op, VELSTATUS_OP_FIELD_ERROR)) {
            printf("\n      error: ");
            ex_put_str(op, VELSTATUS_OP_FIELD_ERROR);
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
        ex_prose("  ", buf);
        return;
    }
    if (failed == 0 || !ex_is_waiting(x->phase))
        return;
    snprintf(buf, sizeof(buf), "Already decided: %zu operation%s failed, yet the phase is not ...PartiallyFailed: %s",
             failed, failed == 1 ? "" : "s",
             x->pol.level_triggered_partial_failure
                 ? "this policy counts a failed operation at every pass, so the next pass records it."
                 : "Velero counts a failure only in the pass that records it (pkg/controller/"
                   "backup_operations_controller.go), so this failure alone does not make it PartiallyFailed.");
    ex_prose("  ", buf);
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
    text_decided(x, ex_count_phase(x->ops, VELSTATUS_OP_PHASE_FAILED));
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
        ex_put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
        switch (velstatus_forecast_op_fate(x->fc, i)) {
        case VELSTATUS_FORECAST_FATE_TIMES_OUT:
            printf(" times out: Velero calls its plugin's Cancel%s\n",
                   x->pol.report_cancel_results ? "" : " (and ignores the answer)");
            break;
        case VELSTATUS_FORECAST_FATE_ERROR_FAILS:
            if (x->objs.dm || x->objs.snap) { /* an object's answer may be a finished operation with an error */
                printf(" fails with the error its plugin reports\n");
                break;
            }
            printf(" fails with its Progress error (%s)\n", x->pol.progress_error_grace_ns > 0
                                                                ? "its grace period has ended"
                                                                : "no grace period: at the first error");
            break;
        default:
            printf(" has the unknown phase \"");
            ex_put_str(op, VELSTATUS_OP_FIELD_PHASE);
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
velstatus_status ex_persist_failure(const ex *x, const velstatus_reconcile_result *r, velstatus_phase *kept,
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
    if (ex_persist_failure(x, r, &kept, &pending, &lost) != VELSTATUS_OK) {
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
        ex_prose("      ", buf);
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

int ex_same_timeline(const velstatus_forecast *a, const velstatus_forecast *b)
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
    if (ex_same_timeline(x->fc, x->other)) {
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
            ex_put_str(velstatus_oplist_at(x->ops, k), VELSTATUS_OP_FIELD_OPERATION_ID);
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
                ex_put_str(velstatus_oplist_at(x->ops, i), VELSTATUS_OP_FIELD_OPERATION_ID);
            }
        }
        printf("\n");
    } else if (fin == VELSTATUS_PHASE_FINALIZING || fin == VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED) {
        printf("  Then the finalizer controller sets %s.\n",
               fin == VELSTATUS_PHASE_FINALIZING ? "Completed" : "PartiallyFailed");
    }
}

/* What the forecast takes the plugins to answer (the objects given). */
static const char *objects_answer(const ex *x)
{
    if (x->objs.dm && x->objs.snap)
        return "the CSI data mover's operations answered from its objects as the node-agent moves them, the CSI "
               "snapshot plugin's from the VolumeSnapshots and their contents as they are, every other plugin keeping "
               "to the progress recorded";
    if (x->objs.dm)
        return "the CSI data mover's operations answered from its objects as the node-agent moves them, every other "
               "plugin keeping to the progress recorded";
    if (x->objs.snap)
        return "the CSI snapshot plugin's operations answered from the VolumeSnapshots and their contents as they are, "
               "every other plugin keeping to the progress recorded";
    return "if every plugin keeps reporting the progress recorded";
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
        else if (ex_is_waiting(x->phase))
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
        snprintf(buf, sizeof(buf), "(policy %s%s; item operation timeout %s from %s; %s%s):",
                 velstatus_preset_to_string((velstatus_preset)x->pol.preset), rel, d, x->timeout_src, objects_answer(x),
                 x->bsl_known ? "" : "; the BSL assumed available");
        printf("\n");
        ex_prose("  ", buf);
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
    if (ex_same_timeline(x->if_available, f)) {
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
int ex_budget(const ex *x, uint64_t *attempts, int64_t *sleep)
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
        printf("sent once; Velero does not retry it%s.\n",
               ex_is_waiting(from) ? ": the next 10s poll decides again" : "");
        return;
    }
    if (!ex_budget(x, &attempts, &sleep)) {
        printf("retried for ever (--resource-timeout <= 0).\n");
        return;
    }
    printf("retried");
    if (x->pol.preset == VELSTATUS_PRESET_VELERO) {
        printf(" with CapBackoff(--resource-timeout ");
        ex_put_duration(x->resource_timeout);
        printf(")");
    }
    printf(": %llu attempts over ", (unsigned long long)attempts);
    ex_put_duration(sleep);
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
        if (velstatus_op_phase_value(op) != VELSTATUS_OP_PHASE_FAILED || !ex_has_str(op, VELSTATUS_OP_FIELD_ERROR))
            continue;
        size_t len;
        const char *e = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len);
        printf("  %d. Why ", ++*n);
        ex_put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
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
            ex_put_str(op, VELSTATUS_OP_FIELD_OPERATION_ID);
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
        ex_dm_checks(x, &n);
        text_check_running(x, &n);
    }
    if (x->fc) {
        size_t i;
        for (i = 0; i < velstatus_forecast_op_count(x->fc); i++)
            if (velstatus_forecast_op_eta(x->fc, i) == VELSTATUS_FORECAST_ETA_AFTER) {
                printf("  %d. The timeout: at its rate ", ++n);
                ex_put_str(velstatus_oplist_at(x->ops, i), VELSTATUS_OP_FIELD_OPERATION_ID);
                printf(" needs more than ");
                ex_put_duration(x->timeout);
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

void ex_print_text(const ex *x)
{
    text_phase(x);
    text_why(x);
    text_timeline(x);
    ex_dm_text(x);
    text_bsl(x);
    text_patches(x);
    text_checks(x);
    text_undecided(x);
}
