/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus operations reconcile|format|check: the item-operation state
 * machine over an itemoperations file (doc/design.md §4, doc/velero-behaviour.md §2). */
#include "cli.h"
#include "plugin_objects.h"
#include <velstatus/experimental.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_usage reconcile_usage = {
    "operations reconcile", "[OPS.json|-]",
    "Runs one pass of Velero's operations controller over an itemoperations file\n"
    "(doc/velero-behaviour.md §2.4-2.6): PHASE is WaitingForPluginOperations or\n"
    "WaitingForPluginOperationsPartiallyFailed, or InProgress for the first evaluation\n"
    "at the end of the main run (§2.7; --errors N gives the errors the run logged\n"
    "before; with a Waiting phase, the errors still pending from earlier passes). Any\n"
    "other PHASE is not an error: Velero's controllers skip it, so reconcile prints\n"
    "\"nothing to do\" and exits 0. --policy defaults to hardened. --velero-version X.Y\n"
    "decides as that Velero release does (doc/velero-releases.md). The timeout\n"
    "(spec.itemOperationTimeout; --timeout is kept as an alias) defaults to the\n"
    "release's server default: 1h in Velero 1.11, 4h from 1.12. Prints the next phase,\n"
    "the counts, the new errors, the canceled operations and the updated records\n"
    "(Velero's format with -o json), and a note when status.errors grows by another\n"
    "number than the errors listed. --bsl-error TEXT: getting the BSL failed with\n"
    "another error than NotFound; --backup-error TEXT (restores): getting the\n"
    "restore's Backup NAME in NS (default velero) failed; Velero then requeues\n"
    "(\"requeue: true\"). --persist-fails says what stays when the upload or the\n"
    "status patch after the pass fails. Times in the --progress file are RFC 3339\n"
    "text, years 0000 to 9999 (0001-01-01T00:00:00Z is Go's zero time).\n"
    "\n"
    "The --progress file is a JSON object (or YAML) keyed by operation ID, what each\n"
    "plugin's Progress() call answers; each value is one of:\n"
    "  a progress   {\"completed\": true|false, \"err\": \"...\", \"nCompleted\": N, \"nTotal\": N,\n"
    "                \"operationUnits\": \"...\", \"description\": \"...\",\n"
    "                \"started\": RFC3339, \"updated\": RFC3339}  (every key optional)\n"
    "  {\"error\": \"...\"}        Progress() itself failed\n"
    "  {\"lookupError\": \"...\"}  no plugin answers for the operation\n"
    "An ID absent from it fails with \"operation ID <id> is invalid\" (1.11: \"Operation ID\n"
    "<id> is invalid.\"). Example:\n"
    "  {\"snap-1\": {\"completed\": false, \"nCompleted\": 40, \"nTotal\": 100,\n"
    "              \"operationUnits\": \"GiB\"},\n"
    "   \"snap-2\": {\"error\": \"rpc error: code = Unavailable\"}}\n"
    "\n"
    "--datauploads, --datadownloads, --volumesnapshots and --volumesnapshotcontents (kubectl get -o\n"
    "json or YAML: an object, a List or a watch stream; - for stdin) answer the operations of\n"
    "Velero's CSI plugins as that release's plugin does from those objects (doc/data-mover.md), in\n"
    "place of --progress; --progress (then optional) answers every other operation. An operation\n"
    "nothing answers gets the answer for an ID absent from --progress and is listed as\n"
    "\"unanswered\". -n is Velero's namespace, where the plugin looks for the objects.\n"
    "--volumesnapshotcontents alone answers the VolumeSnapshotContent action's operations\n"
    "(velero.io/csi-volumesnapshotcontent-backupper, Velero 1.12 and 1.13).\n"
    "\n"
    "Exit status: 0 success, 2 bad input or usage.\n"};

static const cli_usage format_usage = {
    "operations format", "[OPS.json|-]",
    "Decodes and re-encodes an itemoperations file exactly as Velero writes it (a file\n"
    "Velero wrote comes back byte-identical); JSON whatever -o says. OPS.json may be\n"
    "gzip-compressed (the .json.gz Velero stores); - or no file reads stdin.\n"
    "\n"
    "Exit status: 0 success, 2 bad input or usage.\n"};

static const cli_usage check_usage = {"operations check", "[OPS.json|-]",
                                      "Validates an itemoperations file and lists every problem with its JSON path.\n"
                                      "\n"
                                      "Exit status: 0 no problem, 1 problems found, 2 bad input or usage.\n"};

/* ---- helpers ---- */

/* Parses with opts; 1 (usage printed) or -1 (error printed) to return, 0 to go on. */
static int parse_args(const cli_usage *u, int argc, char **argv, const cli_opt *opts, size_t nopts, const char **path)
{
    int npos = 0;
    return cli_parse(u, argc, argv, opts, nopts, path, 1, &npos);
}

/* ---- format ---- */

/* The sink of velstatus_oplist_write_json(): the text goes out as it is
 * encoded, so format holds 64 KiB of it, not the whole output. */
static int write_stdout(void *userdata, const char *data, size_t len)
{
    (void)userdata;
    return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

static int ops_format(int argc, char **argv)
{
    const char *cmd = "operations format", *kind_s = NULL, *path = NULL, *fmt_s = "text";
    cli_format fmt;
    velstatus_ctx *ctx;
    velstatus_oplist *list = NULL;
    velstatus_error err;
    int rc;
    {
        const cli_opt opts[] = {CLI_OPT_KIND(&kind_s), CLI_OPT_OUTPUT(&fmt_s)};
        if ((rc = parse_args(&format_usage, argc, argv, opts, 2, &path)) != 0)
            return rc > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0) /* text and json print the same: the file is JSON */
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    rc = cli_load_oplist(cmd, path, kind_s, ctx, &list);
    if (rc == CLI_OK) {
        velstatus_status st = velstatus_oplist_write_json(list, write_stdout, NULL, &err);
        if (st == VELSTATUS_E_HOST)
            rc = cli_fail(cmd, "writing the output failed");
        else if (st != VELSTATUS_OK)
            rc = cli_fail_err(cmd, "encode", &err);
    }
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
    return rc;
}

/* ---- check ---- */

/* The problems of one record: at most one per field (the checks below are
 * exclusive per path), so a record has at most PROBLEMS_MAX. The problems
 * are printed record by record as they are found: nothing is kept per
 * problem, only the duplicate-ID table (8 bytes per record and qsort's
 * scratch while it is built, 16 bytes per duplicate after). */
#define PROBLEMS_MAX 8

/* A value quoted in a problem message: its first EXCERPT_MAX bytes, a NUL as
 * CLI_NUL_TEXT (the text output's spelling; a message is text in -o json too). */
#define EXCERPT_MAX 100
typedef struct excerpt {
    char text[EXCERPT_MAX * (sizeof(CLI_NUL_TEXT) - 1) + 1];
} excerpt;
#define MESSAGE_MAX (sizeof(excerpt) + 512)

typedef struct problem {
    char path[96];
    char message[MESSAGE_MAX];
} problem;

typedef struct record_problems {
    problem v[PROBLEMS_MAX];
    size_t n;
} record_problems;

static void add_problem(record_problems *ps, const char *section, size_t idx, const char *field, const char *msg_fmt,
                        ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static const char *excerpt_of(excerpt *x, const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && i < EXCERPT_MAX; i++) {
        if (s[i] == '\0') {
            memcpy(x->text + k, CLI_NUL_TEXT, sizeof(CLI_NUL_TEXT) - 1);
            k += sizeof(CLI_NUL_TEXT) - 1;
        } else {
            x->text[k++] = s[i];
        }
    }
    x->text[k] = '\0';
    return x->text;
}

static void add_problem(record_problems *ps, const char *section, size_t idx, const char *field, const char *msg_fmt,
                        ...)
{
    va_list ap;
    problem *p = &ps->v[ps->n++];
    snprintf(p->path, sizeof(p->path), "[%zu].%s.%s", idx, section, field);
    va_start(ap, msg_fmt);
    vsnprintf(p->message, sizeof(p->message), msg_fmt, ap);
    va_end(ap);
}

/* A record whose operation ID an earlier record has: its index, and the
 * index of the nearest earlier record with that ID. */
typedef struct dup_ref {
    size_t index, earlier;
} dup_ref;

typedef struct dup_table {
    dup_ref *v;
    size_t n;
} dup_table;

/* The list cmp_by_id() reads: qsort() takes no context argument. */
static const velstatus_oplist *sort_list;

/* Record indices by operation ID, then by index. */
static int cmp_by_id(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b, ni, nj;
    const char *x = velstatus_op_string(velstatus_oplist_at(sort_list, i), VELSTATUS_OP_FIELD_OPERATION_ID, &ni);
    const char *y = velstatus_op_string(velstatus_oplist_at(sort_list, j), VELSTATUS_OP_FIELD_OPERATION_ID, &nj);
    int c = ni && nj ? memcmp(x, y, ni < nj ? ni : nj) : 0;
    if (c != 0)
        return c;
    if (ni != nj)
        return ni < nj ? -1 : 1;
    return i < j ? -1 : i > j;
}

static int cmp_dup(const void *a, const void *b)
{
    const dup_ref *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Whether records i and j have the same non-empty operation ID. */
static int same_id(const velstatus_oplist *list, size_t i, size_t j)
{
    size_t ni, nj;
    const char *x = velstatus_op_string(velstatus_oplist_at(list, i), VELSTATUS_OP_FIELD_OPERATION_ID, &ni);
    const char *y = velstatus_op_string(velstatus_oplist_at(list, j), VELSTATUS_OP_FIELD_OPERATION_ID, &nj);
    return ni != 0 && ni == nj && memcmp(x, y, ni) == 0;
}

/* The records whose non-empty operation ID an earlier record has, in index
 * order: the indices sorted by ID (8 bytes per record, and qsort's own
 * scratch), then the duplicates' pairs. 0, or -1 when out of memory. */
static int find_duplicates(const velstatus_oplist *list, dup_table *dups)
{
    size_t n = velstatus_oplist_count(list), k = 0;
    size_t *order;
    dups->v = NULL;
    dups->n = 0;
    if (n < 2)
        return 0;
    if (!(order = malloc(n * sizeof(*order))))
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_list = list;
    qsort(order, n, sizeof(*order), cmp_by_id);
    for (size_t i = 1; i < n; i++)
        dups->n += (size_t)same_id(list, order[i], order[i - 1]);
    if (dups->n != 0 && !(dups->v = malloc(dups->n * sizeof(*dups->v)))) {
        free(order);
        return -1;
    }
    for (size_t i = 1; i < n; i++) {
        if (same_id(list, order[i], order[i - 1])) {
            dups->v[k].index = order[i];
            dups->v[k++].earlier = order[i - 1];
        }
    }
    free(order);
    if (dups->n > 1)
        qsort(dups->v, dups->n, sizeof(*dups->v), cmp_dup);
    return 0;
}

static int cmp_problem(const void *a, const void *b)
{
    return strcmp(((const problem *)a)->path, ((const problem *)b)->path);
}

/* The semantic checks of record i (the codec already checked syntax and
 * types), sorted by path; *dup is the next entry of the duplicate table and
 * moves past the one for record i. */
static void record_check(const velstatus_oplist *list, size_t i, const dup_ref **dup, const dup_ref *dup_end,
                         record_problems *ps)
{
    const velstatus_op *op = velstatus_oplist_at(list, i);
    const char *action_key =
        velstatus_oplist_kind(list) == VELSTATUS_KIND_RESTORE ? "restoreItemAction" : "backupItemAction";
    size_t len, plen, idlen;
    const char *ph = velstatus_op_string(op, VELSTATUS_OP_FIELD_PHASE, &plen),
               *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &idlen);
    velstatus_op_phase phase = velstatus_op_phase_value(op);
    int64_t nc = velstatus_op_n_completed(op), nt = velstatus_op_n_total(op);
    excerpt x;
    ps->n = 0;
    if (phase == VELSTATUS_OP_PHASE_UNKNOWN)
        add_problem(ps, "status", i, "phase",
                    "phase \"%s\" is not New, InProgress, Completed or Failed (Velero skips the "
                    "operation: not counted, not waited for)",
                    excerpt_of(&x, ph, plen));
    if (!velstatus_op_time_value(op, VELSTATUS_OP_TIME_CREATED, NULL))
        add_problem(ps, "status", i, "created", "missing: the timeout cannot be evaluated (Velero would crash on it)");
    if (idlen == 0)
        add_problem(ps, "spec", i, "operationID", "empty: the plugin cannot be asked for progress");
    velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &len);
    if (len == 0)
        add_problem(ps, "spec", i, action_key, "empty: no plugin can be looked up");
    if (nc < 0)
        add_problem(ps, "status", i, "nCompleted", "negative (%lld)", (long long)nc);
    if (nt < 0)
        add_problem(ps, "status", i, "nTotal", "negative (%lld)", (long long)nt);
    if (nt > 0 && nc > nt)
        add_problem(ps, "status", i, "nCompleted", "%lld is more than nTotal %lld", (long long)nc, (long long)nt);
    if (phase == VELSTATUS_OP_PHASE_FAILED && (velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len), len == 0))
        add_problem(ps, "status", i, "error", "empty on a Failed operation");
    if (*dup != dup_end && (*dup)->index == i) {
        add_problem(ps, "spec", i, "operationID", "\"%s\" is also the ID of operation [%zu]", excerpt_of(&x, id, idlen),
                    (*dup)->earlier);
        (*dup)++;
    }
    if (ps->n > 1)
        qsort(ps->v, ps->n, sizeof(*ps->v), cmp_problem);
}

/* Whether any record has a problem (stops at the first). */
static int any_problem(const velstatus_oplist *list, const dup_table *dups)
{
    size_t n = velstatus_oplist_count(list);
    const dup_ref *d = dups->v;
    record_problems ps;
    if (dups->n != 0)
        return 1;
    for (size_t i = 0; i < n; i++) {
        record_check(list, i, &d, d, &ps);
        if (ps.n != 0)
            return 1;
    }
    return 0;
}

/* Prints every problem, record by record; returns how many. */
static size_t print_problems(const velstatus_oplist *list, const dup_table *dups, cli_format fmt)
{
    size_t n = velstatus_oplist_count(list), total = 0;
    const dup_ref *d = dups->v;
    record_problems ps;
    for (size_t i = 0; i < n; i++) {
        record_check(list, i, &d, dups->v + dups->n, &ps);
        for (size_t k = 0; k < ps.n; k++, total++) {
            if (fmt == CLI_JSON) {
                printf("%s{\"path\":", total ? "," : "");
                cli_json_str(stdout, ps.v[k].path, strlen(ps.v[k].path));
                printf(",\"message\":");
                cli_json_str(stdout, ps.v[k].message, strlen(ps.v[k].message));
                printf("}");
            } else {
                printf("%s: %s\n", ps.v[k].path, ps.v[k].message);
            }
        }
    }
    return total;
}

static int ops_check(int argc, char **argv)
{
    const char *cmd = "operations check", *kind_s = NULL, *path = NULL, *fmt_s = "text";
    cli_format fmt;
    velstatus_ctx *ctx;
    velstatus_oplist *list = NULL;
    velstatus_error err;
    dup_table dups;
    int rc;
    {
        const cli_opt opts[] = {CLI_OPT_KIND(&kind_s), CLI_OPT_OUTPUT(&fmt_s)};
        if ((rc = parse_args(&check_usage, argc, argv, opts, 2, &path)) != 0)
            return rc > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0)
        return CLI_BAD_INPUT;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    rc = cli_load_oplist(cmd, path, kind_s, ctx, &list);
    if (rc != CLI_OK) {
        velstatus_ctx_free(ctx);
        return rc;
    }
    if (find_duplicates(list, &dups) != 0) {
        rc = cli_fail(cmd, "out of memory");
    } else {
        size_t n = velstatus_oplist_count(list), np;
        const char *kind = velstatus_kind_to_string(velstatus_oplist_kind(list));
        if (fmt == CLI_JSON)
            printf("{\"kind\":\"%s\",\"valid\":%s,\"operations\":%zu,\"problems\":[", kind,
                   any_problem(list, &dups) ? "false" : "true", n);
        np = print_problems(list, &dups, fmt);
        if (fmt == CLI_JSON)
            printf("]}\n");
        else
            printf("%s: %zu %s operation%s, %zu problem%s\n", path && strcmp(path, "-") != 0 ? path : "stdin", n, kind,
                   n == 1 ? "" : "s", np, np == 1 ? "" : "s");
        rc = np == 0 ? CLI_OK : CLI_FALSE;
        free(dups.v);
    }
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
    return rc;
}

/* ---- reconcile ---- */

static int parse_errors(const char *cmd, const char *s, int64_t *out)
{
    char *end;
    long long v;
    if (s[0] < '0' || s[0] > '9')
        return cli_fail(cmd, "--errors must be a non-negative integer, not \"%s\"", s);
    v = strtoll(s, &end, 10);
    if (*end != '\0' || v < 0)
        return cli_fail(cmd, "--errors must be a non-negative integer, not \"%s\"", s);
    *out = (int64_t)v;
    return 0;
}

/* --persist-fails: what the library says stays when that write fails. */
typedef struct persist_fail {
    const char *which; /* NULL: not asked */
    velstatus_status st;
    velstatus_error why;
    velstatus_phase kept;
    int64_t pending, lost;
} persist_fail;

static void persist_fail_run(persist_fail *pf, const velstatus_reconcile_result *res)
{
    velstatus_persist_failure f =
        strcmp(pf->which, "upload") == 0 ? VELSTATUS_PERSIST_FAILED_UPLOAD : VELSTATUS_PERSIST_FAILED_PATCH;
    pf->st = velstatus_reconcile_result_after_persist_failure(res, f, &pf->kept, &pf->pending, &pf->lost, &pf->why);
}

static void print_persist_failure(const persist_fail *pf, cli_format fmt)
{
    if (!pf->which)
        return;
    if (fmt == CLI_JSON && pf->st != VELSTATUS_OK) {
        printf("\"persistFails\":{\"write\":\"%s\",\"nothingToFail\":", pf->which);
        cli_json_str(stdout, pf->why.message, strlen(pf->why.message));
        printf("},");
    } else if (fmt == CLI_JSON) {
        printf("\"persistFails\":{\"write\":\"%s\",\"phaseKept\":\"%s\",\"pendingErrors\":%lld,"
               "\"lostErrors\":%lld,\"requeue\":true},",
               pf->which, velstatus_phase_to_string(pf->kept), (long long)pf->pending, (long long)pf->lost);
    } else if (pf->st != VELSTATUS_OK) {
        printf("persist fails (%s): nothing to fail: %s\n", pf->which, pf->why.message);
    } else {
        printf("persist fails (%s): the phase stays %s, %lld error(s) stay pending, %lld lost from status.errors; "
               "requeue: true\n",
               pf->which, velstatus_phase_to_string(pf->kept), (long long)pf->pending, (long long)pf->lost);
    }
}

/* The fallback every operation no CSI plugin object answers reaches: the
 * --progress map (empty without --progress), wrapped to name the records it
 * has no entry for; they get the map's answer for an absent ID, as before. */
typedef struct unanswered {
    velstatus_plugin_client inner;
    const velstatus_op_reports *reports;
    size_t *idx, n, cap;
} unanswered;

static int unanswered_progress(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    unanswered *u = ud;
    velstatus_op_progress p;
    size_t il;
    const char *id = velstatus_op_string(velstatus_oplist_at(list, index), VELSTATUS_OP_FIELD_OPERATION_ID, &il);
    velstatus_op_progress_init(&p, sizeof p);
    if (!velstatus_op_reports_get(&p, u->reports, id ? id : "", il)) {
        if (u->n == u->cap) {
            size_t cap = u->cap ? 2 * u->cap : 8, *grown = realloc(u->idx, cap * sizeof *grown);
            if (!grown)
                return -1;
            u->idx = grown, u->cap = cap;
        }
        u->idx[u->n++] = index;
    }
    return u->inner.progress(u->inner.userdata, list, index, reply);
}

static int unanswered_cancel(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    unanswered *u = ud;
    return u->inner.cancel(u->inner.userdata, list, index, reply);
}

static void print_unanswered(const velstatus_oplist *list, const unanswered *u, cli_format fmt)
{
    if (u->n == 0)
        return;
    if (fmt == CLI_JSON)
        printf("\"unanswered\":[");
    else
        printf("unanswered: %zu (no answer in --progress or the plugin objects given; Velero's answer for an "
               "unknown operation ID was used)\n",
               u->n);
    for (size_t i = 0; i < u->n; i++) {
        const velstatus_op *op = velstatus_oplist_at(list, u->idx[i]);
        size_t il, al;
        const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &il);
        const char *ac = velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &al);
        if (fmt == CLI_JSON) {
            if (i)
                fputc(',', stdout);
            cli_json_str(stdout, id ? id : "", il);
            continue;
        }
        fputs("  ", stdout);
        cli_put_text(stdout, id ? id : "", il);
        fputs(" (", stdout);
        cli_put_text(stdout, ac ? ac : "", al);
        fputs(")\n", stdout);
    }
    if (fmt == CLI_JSON)
        printf("],");
}

static void print_text(const velstatus_oplist *list, const velstatus_reconcile_result *res, const persist_fail *pf,
                       const unanswered *unans)
{
    size_t n = velstatus_oplist_count(list), ne = velstatus_reconcile_result_error_count(res);
    size_t nc = velstatus_reconcile_result_canceled_count(res);
    size_t missing = velstatus_reconcile_result_count(res, VELSTATUS_OP_STEP_MISSING_CREATED);
    size_t deferred = velstatus_reconcile_result_count(res, VELSTATUS_OP_STEP_ERROR_DEFERRED);
    size_t unknown = velstatus_reconcile_result_count(res, VELSTATUS_OP_STEP_UNKNOWN_PHASE);
    printf("phase: %s\n", velstatus_phase_to_string(velstatus_reconcile_result_phase(res)));
    printf("stillInProgress: %s\n", velstatus_reconcile_result_still_in_progress(res) ? "true" : "false");
    printf("changes: %s\n", velstatus_reconcile_result_changes(res) ? "true" : "false");
    printf("persist: %s\nrequeue: %s\n", velstatus_persist_action_to_string(velstatus_reconcile_result_persist(res)),
           velstatus_reconcile_result_requeue(res) ? "true" : "false");
    printf("completed: %zu\nfailed: %zu\ninProgress: %zu\n", velstatus_reconcile_result_completed(res),
           velstatus_reconcile_result_failed(res), velstatus_reconcile_result_in_progress(res));
    printf("errors: %zu\n", ne);
    for (size_t i = 0; i < ne; i++) {
        size_t len;
        const char *e = velstatus_reconcile_result_error(res, i, &len);
        fputs("  ", stdout);
        cli_put_text(stdout, e, len);
        fputc('\n', stdout);
    }
    printf("canceled: %zu\n", nc);
    for (size_t i = 0; i < nc; i++) {
        size_t len, elen;
        const char *id = velstatus_reconcile_result_canceled_id(res, i, &len);
        const char *ce = velstatus_reconcile_result_cancel_error(res, i, &elen);
        fputs("  ", stdout);
        cli_put_text(stdout, id, len);
        if (ce) {
            fputs(" (Cancel failed: ", stdout);
            cli_put_text(stdout, ce, elen);
            fputc(')', stdout);
        }
        fputc('\n', stdout);
    }
    if (velstatus_reconcile_result_errors_added(res) != (int64_t)ne) /* pending ones, or errors Velero logs only */
        printf("note: status.errors grows by %lld, not by the %zu error(s) listed\n",
               (long long)velstatus_reconcile_result_errors_added(res), ne);
    print_persist_failure(pf, CLI_TEXT);
    if (unknown)
        printf("note: %zu operation(s) with an unknown phase\n", unknown);
    if (missing)
        printf("note: %zu running operation(s) without created: timeout not evaluated\n", missing);
    if (deferred)
        printf("note: %zu operation(s) with a Progress error inside the grace period\n", deferred);
    print_unanswered(list, unans, CLI_TEXT);
    printf("operations: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        const velstatus_op *op = velstatus_oplist_at(list, i);
        size_t il, pl, ul, el;
        const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &il);
        const char *ph = velstatus_op_string(op, VELSTATUS_OP_FIELD_PHASE, &pl);
        const char *un = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &ul);
        const char *er = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &el);
        fputs("  ", stdout);
        cli_put_text(stdout, id, il);
        fputc(' ', stdout);
        cli_put_text(stdout, pl ? ph : "\"\"", pl ? pl : 2);
        printf(" %lld/%lld", (long long)velstatus_op_n_completed(op), (long long)velstatus_op_n_total(op));
        if (ul) {
            fputc(' ', stdout);
            cli_put_text(stdout, un, ul);
        }
        if (el) {
            fputs(" error: ", stdout); /* last on the line: no quoting needed */
            cli_put_text(stdout, er, el);
        }
        fputc('\n', stdout);
    }
}

static int print_json(const velstatus_oplist *list, const velstatus_reconcile_result *res, const persist_fail *pf,
                      const unanswered *un, velstatus_ctx *ctx, velstatus_error *err)
{
    size_t ne = velstatus_reconcile_result_error_count(res), nc = velstatus_reconcile_result_canceled_count(res);
    char *ops;
    size_t ops_len;
    if (velstatus_oplist_to_json(&ops, &ops_len, list, err) != VELSTATUS_OK)
        return -1;
    if (ops_len > 0 && ops[ops_len - 1] == '\n')
        ops_len--;
    printf("{\"phase\":\"%s\",\"stillInProgress\":%s,\"changes\":%s,\"completed\":%zu,\"failed\":%zu,"
           "\"inProgress\":%zu,\"persist\":\"%s\",\"requeue\":%s,\"errors\":[",
           velstatus_phase_to_string(velstatus_reconcile_result_phase(res)),
           velstatus_reconcile_result_still_in_progress(res) ? "true" : "false",
           velstatus_reconcile_result_changes(res) ? "true" : "false", velstatus_reconcile_result_completed(res),
           velstatus_reconcile_result_failed(res), velstatus_reconcile_result_in_progress(res),
           velstatus_persist_action_to_string(velstatus_reconcile_result_persist(res)),
           velstatus_reconcile_result_requeue(res) ? "true" : "false");
    for (size_t i = 0; i < ne; i++) {
        size_t len;
        const char *e = velstatus_reconcile_result_error(res, i, &len);
        if (i)
            fputc(',', stdout);
        cli_json_str(stdout, e, len);
    }
    printf("],\"canceled\":[");
    for (size_t i = 0; i < nc; i++) {
        size_t len;
        const char *id = velstatus_reconcile_result_canceled_id(res, i, &len);
        if (i)
            fputc(',', stdout);
        cli_json_str(stdout, id, len);
    }
    printf("],");
    print_persist_failure(pf, CLI_JSON);
    print_unanswered(list, un, CLI_JSON);
    printf("\"operations\":");
    fwrite(ops, 1, ops_len, stdout);
    printf("}\n");
    velstatus_free(ctx, ops);
    return 0;
}

/* A phase the library says no controller reconciles (VELSTATUS_E_STATE):
 * Velero's operations controller skips it, so the pass does nothing. */
static void print_nothing_to_do(velstatus_phase phase, const velstatus_error *why, cli_format fmt)
{
    if (fmt == CLI_JSON) {
        printf("{\"phase\":\"%s\",\"nothingToDo\":true,\"reason\":", velstatus_phase_to_string(phase));
        cli_json_str(stdout, why->message, strlen(why->message));
        printf("}\n");
    } else {
        printf("phase: %s\nnothing to do: %s\n", velstatus_phase_to_string(phase), why->message);
    }
}

/* The --progress map (or an empty one) and the client that asks the plugin
 * objects first (plugin_objects.h), then the map. */
static int reconcile_client(const char *cmd, velstatus_ctx *ctx, const char *progress_s, const velstatus_policy *pol,
                            velstatus_op_reports **reports, unanswered *u, cli_objects *objs, const char *ns, int major,
                            int minor, int64_t now_ns, velstatus_plugin_client *client)
{
    velstatus_plugin_client fb;
    velstatus_error err;
    size_t plen = 2;
    char *pbuf = progress_s ? cli_read_input(cmd, progress_s, &plen) : strdup("{}");
    if (!pbuf)
        return CLI_BAD_INPUT;
    if (velstatus_op_reports_from_json(reports, ctx, pbuf, plen, &err) != VELSTATUS_OK) {
        free(pbuf);
        return cli_fail_err(cmd, progress_s, &err);
    }
    free(pbuf);
    velstatus_op_reports_set_policy(*reports, pol, NULL);
    velstatus_op_reports_client(&u->inner, *reports, NULL);
    u->reports = *reports;
    velstatus_plugin_client_init(&fb, sizeof fb);
    fb.userdata = u, fb.progress = unanswered_progress, fb.cancel = unanswered_cancel;
    if (!objs->have_dm && !objs->have_snap) {
        *client = fb;
        return CLI_OK;
    }
    return cli_objects_client(cmd, ctx, objs, ns, major, minor, now_ns, &fb, client);
}

static int ops_reconcile(int argc, char **argv)
{
    const char *cmd = "operations reconcile";
    const char *kind_s = NULL, *phase_s = NULL, *now_s = NULL, *timeout_s = NULL, *policy_s = NULL, *version_s = NULL;
    const char *bsl_s = "available", *bsl_name = "default", *errors_s = NULL, *progress_s = NULL, *fmt_s = "text";
    const char *path = NULL, *bsl_error = NULL, *backup_error = NULL, *backup_name = NULL, *ns = NULL;
    persist_fail pf = {NULL, VELSTATUS_OK, {0}, VELSTATUS_PHASE_INVALID, 0, 0};
    velstatus_phase phase;
    velstatus_policy pol;
    velstatus_reconcile_options o;
    velstatus_plugin_client client;
    cli_objects_paths paths = {NULL, NULL, NULL, NULL};
    cli_objects objs;
    unanswered un;
    velstatus_reconcile_result *res = NULL;
    velstatus_op_reports *reports = NULL;
    velstatus_oplist *list = NULL;
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    cli_format fmt;
    int64_t now_ns, timeout_ns, errors = 0;
    velstatus_status st;
    int rc, major, minor;

    {
        const cli_opt opts[] = {
            CLI_OPT_KIND(&kind_s),
            CLI_VAL("--phase", 0, &phase_s, "PHASE", "the Backup's or Restore's phase (required)"),
            CLI_VAL("--progress", 0, &progress_s, "PROGRESS.json",
                    "what each plugin's Progress() answers (required without the plugin objects below)"),
            CLI_OPT_PLUGIN_OBJECTS(&paths),
            CLI_OPT_NOW(&now_s),
            CLI_OPT_ITEM_OPERATION_TIMEOUT(&timeout_s),
            CLI_VAL("--timeout", 0, &timeout_s, "DURATION", "alias of --item-operation-timeout"),
            CLI_VAL("--policy", 0, &policy_s, "velero|hardened", "the preset (default: hardened)"),
            CLI_OPT_VELERO_VERSION(&version_s),
            CLI_VAL("--bsl", 0, &bsl_s, "available|missing|readonly",
                    "the backup storage location (default: available)"),
            CLI_VAL("--bsl-name", 0, &bsl_name, "NAME", "its name (default: default)"),
            CLI_VAL("--errors", 0, &errors_s, "N", "errors counted before this pass (default 0)"),
            CLI_VAL("--bsl-error", 0, &bsl_error, "TEXT", "getting the BSL failed with this error (not NotFound)"),
            CLI_VAL("--backup-error", 0, &backup_error, "TEXT",
                    "restores: getting the restore's Backup failed with this error"),
            CLI_VAL("--backup-name", 0, &backup_name, "NAME", "the restore's Backup, for --backup-error"),
            CLI_VAL("--namespace", 'n', &ns, "NS", "Velero's namespace, for --backup-error (default: velero)"),
            CLI_VAL("--persist-fails", 0, &pf.which, "upload|patch",
                    "the upload or the status patch after the pass fails: what stays"),
            CLI_OPT_OUTPUT(&fmt_s)};
        if ((rc = parse_args(&reconcile_usage, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), &path)) != 0)
            return rc > 0 ? CLI_OK : CLI_BAD_INPUT;
    }
    if (!phase_s || (!progress_s && !cli_objects_given(&paths)))
        return cli_fail(cmd, "missing %s",
                        !phase_s ? "--phase" : "--progress (or --datauploads, --datadownloads, --volumesnapshots)");
    if (cli_parse_format(cmd, fmt_s, &fmt) != 0 || cli_now(cmd, now_s, &now_ns) != 0 ||
        cli_policy(cmd, policy_s, "hardened", version_s, &pol, &major, &minor) != 0)
        return CLI_BAD_INPUT;
    timeout_ns = pol.default_item_operation_timeout_ns;
    if (timeout_s && velstatus_duration_parse(&timeout_ns, timeout_s, strlen(timeout_s), &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "--item-operation-timeout", &err);
    if (errors_s && parse_errors(cmd, errors_s, &errors) != 0)
        return CLI_BAD_INPUT;
    velstatus_reconcile_options_init(&o, sizeof(o));
    if (strcmp(bsl_s, "available") == 0)
        o.bsl = VELSTATUS_BSL_AVAILABLE;
    else if (strcmp(bsl_s, "missing") == 0)
        o.bsl = VELSTATUS_BSL_MISSING;
    else if (strcmp(bsl_s, "readonly") == 0)
        o.bsl = VELSTATUS_BSL_READONLY;
    else
        return cli_fail(cmd, "--bsl must be available, missing or readonly, not \"%s\"", bsl_s);
    o.now_ns = now_ns;
    o.timeout_ns = timeout_ns;
    o.errors = errors;
    o.bsl_name = bsl_name;
    o.bsl_name_len = strlen(bsl_name);
    o.bsl_error = bsl_error, o.backup_error = backup_error, o.backup_name = backup_name, o.velero_namespace = ns;
    o.bsl_error_len = o.backup_error_len = o.backup_name_len = o.velero_namespace_len = VELSTATUS_NUL_TERMINATED;
    if (pf.which && strcmp(pf.which, "upload") != 0 && strcmp(pf.which, "patch") != 0)
        return cli_fail(cmd, "--persist-fails must be upload or patch, not \"%s\"", pf.which);

    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return cli_fail_err(cmd, "context", &err);
    memset(&un, 0, sizeof un);
    rc = cli_objects_load(cmd, ctx, &paths, &objs);
    if (rc == CLI_OK)
        rc = reconcile_client(cmd, ctx, progress_s, &pol, &reports, &un, &objs, ns, major, minor, now_ns, &client);
    if (rc == CLI_OK)
        rc = cli_load_oplist(cmd, path, kind_s, ctx, &list);
    if (rc == CLI_OK && cli_parse_phase(cmd, "--phase", velstatus_oplist_kind(list), phase_s, &phase) != 0)
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK) {
        o.phase = phase;
        st = velstatus_oplist_reconcile(&res, list, &client, &o, &pol, &err);
        if (st == VELSTATUS_OK && pf.which)
            persist_fail_run(&pf, res);
        if (st == VELSTATUS_E_STATE) { /* Velero's controllers skip this phase: not an error */
            print_nothing_to_do(phase, &err, fmt);
        } else if (st != VELSTATUS_OK) {
            rc = cli_fail_err(cmd, "reconcile", &err);
        } else if (fmt == CLI_JSON) {
            if (print_json(list, res, &pf, &un, ctx, &err) != 0)
                rc = cli_fail_err(cmd, "encode", &err);
        } else {
            print_text(list, res, &pf, &un);
        }
    }
    free(un.idx);
    cli_objects_free(&objs);
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    velstatus_op_reports_free(reports);
    velstatus_ctx_free(ctx);
    return rc;
}

int cmd_operations(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"reconcile", ops_reconcile, "one pass of Velero's operations controller over an itemoperations file"},
        {"format", ops_format, "decode and re-encode a file exactly as Velero writes it"},
        {"check", ops_check, "validate a file and list every problem with its JSON path"}};
    return cli_dispatch("operations", argc, argv, subs, sizeof(subs) / sizeof(subs[0]));
}
