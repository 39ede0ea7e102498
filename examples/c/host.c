/* SPDX-License-Identifier: Apache-2.0 */
/*
 * c-host: a small controller-shaped host of libvelstatus in C, written to be copied.
 *
 *   c-host BSL-LIST.json ITEMOPERATIONS.json PLUGIN-ANSWERS.json NOW
 *
 * 1. Server status. BSL-LIST.json is what `kubectl get backupstoragelocations -o json`
 *    prints, standing in for the controller's informer: every BSL is an event fed to a
 *    server-status tracker. Once the list is in, and whenever an event changes the status
 *    or its reasons, the verdict is published through the retry driver with a fake
 *    status-patch client (the first publish fails twice with retriable errors, then
 *    succeeds). A replayed event changes nothing and publishes nothing; deleting the BSLs
 *    that are not Available publishes again.
 * 2. Item operations. ITEMOPERATIONS.json (a <backup>-itemoperations.json) is reconciled
 *    once at NOW (RFC 3339) with a plugin client written here: Progress() answers from
 *    PLUGIN-ANSWERS.json (the `velstatus operations reconcile --progress` format), and
 *    the progress is printed.
 *
 * The host does every bit of I/O: files, the "API server", the clock, sleeping,
 * randomness. The library only decides. Build it with pkg-config (see Makefile):
 *   cc host.c -o c-host $(pkg-config --cflags libvelstatus) $(pkg-config --static --libs libvelstatus)
 * The library decodes the BSL list, and each decoded BSL goes to the tracker as a
 * velstatus_bsl_record: no JSON parser of the host's own. A host that receives one
 * BSL object per watch event passes its text to velstatus_server_tracker_upsert_json().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <velstatus.h>
#include <velstatus/experimental.h>

static const char *prog = "c-host";

/* ---- small helpers ---- */

static int fail(const char *what, const velstatus_error *err)
{
    fprintf(stderr, "%s: %s: %s: %s", prog, what, velstatus_status_name(err->code), err->message);
    if (err->line) /* a position in the input: the message never spells it */
        fprintf(stderr, " (line %u, column %u)", (unsigned)err->line, (unsigned)err->column);
    fputc('\n', stderr);
    return 1;
}

/* Reads a whole file into a malloc'ed buffer (the library never opens a file). */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (!f) {
        perror(path);
        return NULL;
    }
    do {
        if (cap - n < 4096) {
            char *p = realloc(buf, cap + 65536);
            if (!p) {
                free(buf);
                fclose(f);
                fprintf(stderr, "%s: out of memory reading %s\n", prog, path);
                return NULL;
            }
            buf = p;
            cap += 65536;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        perror(path);
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Library strings come with a length and may hold NUL bytes: write them whole. */
static void put(const char *before, const char *s, size_t n, const char *after)
{
    fputs(before, stdout);
    fwrite(s, 1, n, stdout);
    fputs(after, stdout);
}

static void print_duration(int64_t ns)
{
    char buf[VELSTATUS_DURATION_BUFSIZE];
    if (velstatus_duration_format(buf, sizeof(buf), ns, NULL) == VELSTATUS_OK)
        fputs(buf, stdout);
}

static void print_reasons(uint32_t reasons)
{
    const char *sep = "";
    putchar('[');
    for (uint32_t bit = 1; bit <= VELSTATUS_SERVER_REASON_UNKNOWN_PHASE; bit <<= 1) {
        if (reasons & bit) {
            printf("%s%s", sep, velstatus_server_reason_to_string((velstatus_server_reason)bit));
            sep = " ";
        }
    }
    putchar(']');
}

/* ---- 1. the server status: tracker, then publish through the retry driver ---- */

/* The fake status-patch client: the "API server" refuses the first two patches. */
typedef struct patch_client {
    int calls;          /* patches sent so far, over every publish */
    int64_t clock_ns;   /* a fake monotonic clock: sleeping advances it */
    const char *status; /* the verdict JSON being patched in */
} patch_client;

static int patch_attempt(void *userdata, uint64_t attempt, velstatus_retry_reply *reply)
{
    static const char conflict[] = "Operation cannot be fulfilled on servers.example.io \"velero\": "
                                   "the object has been modified; please apply your changes to the "
                                   "latest version and try again";
    static const char timeout[] = "etcdserver: request timed out";
    patch_client *pc = userdata;
    const char *e = NULL;
    size_t n = 0;
    pc->calls++;
    if (pc->calls == 1)
        e = conflict, n = sizeof(conflict) - 1;
    else if (pc->calls == 2)
        e = timeout, n = sizeof(timeout) - 1;
    if (e) {
        if (velstatus_retry_reply_set_error(reply, e, n, NULL) != VELSTATUS_OK)
            return -1;
        printf("  attempt %" PRIu64 ": %s\n", attempt, e);
    } else {
        printf("  attempt %" PRIu64 ": patched status %s\n", attempt, pc->status);
    }
    return 0;
}

/* Which errors are worth retrying: what a Kubernetes client knows from the status code. */
static int patch_classify(void *userdata, uint64_t attempt, const char *err_text, size_t err_len,
                          velstatus_retry_class *cls, int *interrupted)
{
    (void)userdata, (void)attempt, (void)err_len, (void)interrupted;
    if (strstr(err_text, "the object has been modified"))
        *cls = VELSTATUS_RETRY_CLASS_CONFLICT; /* 409: re-read, then patch again */
    else if (strstr(err_text, "timed out"))
        *cls = VELSTATUS_RETRY_CLASS_TRANSIENT; /* 504, etcd timeouts: back off */
    else
        *cls = VELSTATUS_RETRY_CLASS_TERMINAL; /* 403, 404, 422: give up at once */
    return 0;
}

static int patch_sleep(void *userdata, int64_t ns)
{
    patch_client *pc = userdata;
    printf("  sleep ");
    print_duration(ns);
    putchar('\n');
    pc->clock_ns += ns; /* a real host would nanosleep() here */
    return 0;
}

static int patch_random(void *userdata, double *r)
{
    (void)userdata;
    *r = 0.5; /* a real host returns a uniform draw in [0, 1) */
    return 0;
}

static int patch_now(void *userdata, int64_t *ns)
{
    *ns = ((patch_client *)userdata)->clock_ns;
    return 0;
}

/* Publishes the tracker's verdict through the retry driver (hardened policy). */
static int publish(velstatus_ctx *ctx, const velstatus_server_tracker *tracker, patch_client *pc)
{
    velstatus_policy policy;
    velstatus_policy_init(&policy, sizeof(policy), VELSTATUS_PRESET_HARDENED, NULL);
    velstatus_server_verdict *v = NULL;
    velstatus_retry_host host;
    velstatus_retry_result *res = NULL;
    velstatus_error err;
    char *json = NULL;
    int rc = 1;

    if (velstatus_server_tracker_verdict(&v, tracker, &err) != VELSTATUS_OK ||
        velstatus_server_verdict_to_json(&json, NULL, v, &err) != VELSTATUS_OK) {
        rc = fail("verdict", &err);
        goto done;
    }
    printf("publish %s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
           velstatus_server_verdict_message(v));
    pc->status = json;
    velstatus_retry_host_init(&host, sizeof(host));
    host.userdata = pc;
    host.attempt = patch_attempt;
    host.classify = patch_classify;
    host.sleep = patch_sleep;
    host.random = patch_random;
    host.now = patch_now;
    if (velstatus_retry_run(&res, ctx, 0 /* --resource-timeout: default 10m */, &host, &policy, &err) != VELSTATUS_OK) {
        rc = fail("retry", &err);
        goto done;
    }
    printf("  %s after %" PRIu64 " attempts, %zu sleeps\n",
           velstatus_retry_outcome_to_string(velstatus_retry_result_outcome(res)), velstatus_retry_result_attempts(res),
           velstatus_retry_result_sleep_count(res));
    rc = velstatus_retry_result_outcome(res) == VELSTATUS_RETRY_OUTCOME_SUCCEEDED ? 0 : 1;
    if (rc != 0) { /* the retries ended with the patch still failing: requeue, try later */
        const char *last = NULL;
        size_t last_len = 0;
        velstatus_retry_result_error(&last, &last_len, res);
        fprintf(stderr, "%s: publish failed: %.*s\n", prog, (int)last_len, last ? last : "");
    }
done:
    velstatus_retry_result_free(res);
    velstatus_free(ctx, json);
    velstatus_server_verdict_free(v);
    return rc;
}

/* One informer event: the i-th BSL of the list added or updated. Sets *changed as the tracker says. */
static int upsert_bsl(velstatus_server_tracker *tracker, const velstatus_bsl_set *bsls, size_t i, int *changed)
{
    velstatus_bsl_record bsl;
    velstatus_error err;

    velstatus_bsl_record_init(&bsl, sizeof(bsl));
    if (velstatus_bsl_set_get(bsls, i, &bsl, &err) != VELSTATUS_OK ||
        velstatus_server_tracker_upsert(tracker, changed, &bsl, &err) != VELSTATUS_OK)
        return fail("upsert", &err);
    put("upsert ", bsl.name, bsl.name_len, ": ");
    fputs(velstatus_server_status_to_string(velstatus_server_tracker_status(tracker)), stdout);
    putchar(' ');
    print_reasons(velstatus_server_tracker_reasons(tracker));
    puts(*changed ? " (changed)" : "");
    return 0;
}

/* The file name without its directory, so that the output does not depend on where it runs. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Deletes the BSLs that are not Available, publishing after each change. */
static int delete_unavailable(velstatus_ctx *ctx, velstatus_server_tracker *tracker, const velstatus_bsl_set *bsls,
                              patch_client *pc)
{
    velstatus_error err;
    int changed;
    for (size_t i = 0; i < velstatus_bsl_set_count(bsls); i++) {
        const char *name = velstatus_bsl_set_name(bsls, i);
        if (strcmp(velstatus_bsl_set_phase(bsls, i), "Available") == 0)
            continue;
        if (velstatus_server_tracker_delete(tracker, &changed, name, strlen(name), &err) != VELSTATUS_OK)
            return fail("delete", &err);
        printf("delete %s: %s ", name, velstatus_server_status_to_string(velstatus_server_tracker_status(tracker)));
        print_reasons(velstatus_server_tracker_reasons(tracker));
        puts(changed ? " (changed)" : "");
        if (changed && publish(ctx, tracker, pc) != 0)
            return 1;
    }
    return 0;
}

/* The controller's life, from the BSL list: the informer's initial list, one
 * publish once it has synced, a resync that changes nothing, then deletions. */
static int server_status(velstatus_ctx *ctx, const char *path)
{
    velstatus_server_tracker *tracker = NULL;
    velstatus_bsl_set *bsls = NULL;
    patch_client pc = {0, 0, NULL};
    velstatus_error err;
    size_t len = 0, n;
    int changed = 0, synced_change = 0, rc = 1;
    char *text = read_file(path, &len);

    if (!text)
        return 1;
    if (velstatus_bsl_set_from_json(&bsls, ctx, text, len, &err) != VELSTATUS_OK) {
        rc = fail(path, &err);
        goto done;
    }
    if (velstatus_server_tracker_new(&tracker, ctx, NULL, &err) != VELSTATUS_OK) {
        rc = fail("tracker", &err);
        goto done;
    }
    n = velstatus_bsl_set_count(bsls);
    printf("== server status: %zu BSLs from %s\n", n, base_name(path));
    for (size_t i = 0; i < n; i++) {
        if (upsert_bsl(tracker, bsls, i, &changed) != 0)
            goto done;
        synced_change |= changed;
    }
    /* Publish once the informer has synced, not for every event of the initial list. */
    if (synced_change && publish(ctx, tracker, &pc) != 0)
        goto done;
    /* A resync replays an event: nothing changes, so nothing is published. */
    if (n > 0 && (upsert_bsl(tracker, bsls, n - 1, &changed) != 0 || (changed && publish(ctx, tracker, &pc) != 0)))
        goto done;
    if (delete_unavailable(ctx, tracker, bsls, &pc) != 0)
        goto done;
    printf("the fake clock advanced ");
    print_duration(pc.clock_ns);
    printf(" over %d patches\n", pc.calls);
    rc = 0;
done:
    velstatus_server_tracker_free(tracker);
    velstatus_bsl_set_free(bsls);
    free(text);
    return rc;
}

/* ---- 2. item operations: a plugin client vtable, one reconcile pass, progress ---- */

typedef struct plugin {
    const velstatus_op_reports *answers; /* what the fake plugin says, by operation ID */
    velstatus_plugin_client recorded;    /* the library's client over the same answers, for Cancel() */
} plugin;

/* The plugin's Progress() for one operation. A real host makes the gRPC call here. */
static int plugin_progress(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    plugin *p = userdata;
    size_t id_len, action_len;
    const velstatus_op *op = velstatus_oplist_at(list, index);
    const char *id = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &id_len);
    const char *action = velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &action_len);
    velstatus_op_progress answer;
    char invalid[256];

    put("  Progress(", id, id_len, ") -> ");
    put("", action, action_len, "\n");
    velstatus_op_progress_init(&answer, sizeof(answer));
    if (!velstatus_op_reports_get(&answer, p->answers, id, id_len)) {
        /* What a plugin answers for an ID it does not know (Velero's text). */
        int n = snprintf(invalid, sizeof(invalid), "operation ID %.*s is invalid", (int)id_len, id);
        answer.report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
        answer.err = invalid;
        answer.err_len = n < 0 ? 0 : (size_t)n < sizeof(invalid) ? (size_t)n : sizeof(invalid) - 1;
    }
    /* The reply copies the answer: `invalid` may go out of scope after this. */
    return velstatus_op_reply_set_progress(reply, &answer, NULL) == VELSTATUS_OK ? 0 : -1;
}

/* The plugin's Cancel() for an operation that timed out. */
static int plugin_cancel(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    plugin *p = userdata;
    size_t id_len;
    const char *id = velstatus_op_string(velstatus_oplist_at(list, index), VELSTATUS_OP_FIELD_OPERATION_ID, &id_len);
    put("  Cancel(", id, id_len, ")\n");
    /* The answers file also says how Cancel() fails: ask the library's client for it. */
    return p->recorded.cancel(p->recorded.userdata, list, index, reply);
}

static void print_result(const velstatus_reconcile_result *res)
{
    size_t n, len;
    printf("  next phase %s (completed %zu, failed %zu, in progress %zu)\n",
           velstatus_phase_to_string(velstatus_reconcile_result_phase(res)), velstatus_reconcile_result_completed(res),
           velstatus_reconcile_result_failed(res), velstatus_reconcile_result_in_progress(res));
    n = velstatus_reconcile_result_error_count(res);
    for (size_t i = 0; i < n; i++) {
        const char *e = velstatus_reconcile_result_error(res, i, &len);
        put("  error: ", e, len, "\n");
    }
    n = velstatus_reconcile_result_canceled_count(res);
    for (size_t i = 0; i < n; i++) {
        size_t elen = 0;
        const char *id = velstatus_reconcile_result_canceled_id(res, i, &len);
        const char *e = velstatus_reconcile_result_cancel_error(res, i, &elen);
        put("  canceled: ", id, len, " (Cancel: ");
        put("", e ? e : "ok", e ? elen : 2, ")\n");
    }
}

static int print_progress(velstatus_ctx *ctx, const velstatus_oplist *ops, int64_t now)
{
    velstatus_progress *report = NULL;
    velstatus_error err;
    char *summary = NULL, *describe = NULL;
    size_t len = 0;
    int rc = 0;
    if (velstatus_progress_new(&report, ctx, ops, now, &err) != VELSTATUS_OK ||
        velstatus_progress_summary(&summary, NULL, report, &err) != VELSTATUS_OK ||
        velstatus_describe_operations(&describe, &len, ctx, ops, 0, &err) != VELSTATUS_OK) {
        rc = fail("progress", &err);
    } else {
        printf("== progress\n  %s\n", summary);
        put("  ", describe, len, "");
    }
    velstatus_free(ctx, describe);
    velstatus_free(ctx, summary);
    velstatus_progress_free(report);
    return rc;
}

static int reconcile(velstatus_ctx *ctx, const char *ops_path, const char *answers_path, const char *now_text)
{
    velstatus_policy policy;
    velstatus_policy_init(&policy, sizeof(policy), VELSTATUS_PRESET_HARDENED, NULL);
    velstatus_oplist *ops = NULL;
    velstatus_op_reports *answers = NULL;
    velstatus_reconcile_result *res = NULL;
    velstatus_reconcile_options opts;
    velstatus_plugin_client client;
    velstatus_error err;
    plugin p;
    size_t ops_len = 0, answers_len = 0;
    char *ops_text = read_file(ops_path, &ops_len), *answers_text = read_file(answers_path, &answers_len);
    int rc = 1;

    velstatus_reconcile_options_init(&opts, sizeof(opts));
    if (!ops_text || !answers_text)
        goto done;
    if (velstatus_time_parse(&opts.now_ns, now_text, strlen(now_text), &err) != VELSTATUS_OK) {
        rc = fail("NOW", &err);
        goto done;
    }
    if (velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, ops_text, ops_len, &err) != VELSTATUS_OK) {
        rc = fail(ops_path, &err);
        goto done;
    }
    if (velstatus_op_reports_from_json(&answers, ctx, answers_text, answers_len, &err) != VELSTATUS_OK ||
        velstatus_op_reports_client(&p.recorded, answers, &err) != VELSTATUS_OK) {
        rc = fail(answers_path, &err);
        goto done;
    }
    p.answers = answers;
    velstatus_plugin_client_init(&client, sizeof(client));
    client.userdata = &p;
    client.progress = plugin_progress;
    client.cancel = plugin_cancel;
    opts.phase = VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS;
    printf("== reconcile: %zu operations from %s at %s (timeout 4h, hardened policy)\n", velstatus_oplist_count(ops),
           base_name(ops_path), now_text);
    if (velstatus_oplist_reconcile(&res, ops, &client, &opts, &policy, &err) != VELSTATUS_OK) {
        rc = fail("reconcile", &err);
        goto done;
    }
    print_result(res);
    rc = print_progress(ctx, ops, opts.now_ns);
done:
    velstatus_reconcile_result_free(res);
    velstatus_op_reports_free(answers);
    velstatus_oplist_free(ops);
    free(answers_text);
    free(ops_text);
    return rc;
}

int main(int argc, char **argv)
{
    velstatus_ctx *ctx = NULL;
    velstatus_error err;
    int rc;
    if (argc != 5) {
        fprintf(stderr, "usage: %s BSL-LIST.json ITEMOPERATIONS.json PLUGIN-ANSWERS.json NOW\n", prog);
        return 2;
    }
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        return fail("context", &err);
    printf("libvelstatus %s\n", velstatus_version_string());
    rc = server_status(ctx, argv[1]);
    if (rc == 0)
        rc = reconcile(ctx, argv[2], argv[3], argv[4]);
    velstatus_ctx_free(ctx);
    return rc;
}
