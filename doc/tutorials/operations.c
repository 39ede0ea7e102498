/* SPDX-License-Identifier: Apache-2.0 */
/* Tutorial: one operations-controller pass over an itemoperations file, with a
 * plugin client that answers Progress() from a table. Built and run by
 * `make check`. */
#include <velstatus.h>

#include <stdio.h>
#include <string.h>

static const char itemoperations[] =
    "[{\"spec\":{\"backupName\":\"nightly\",\"backupUID\":\"u1\","
    "\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\","
    "\"Namespace\":\"app\",\"Name\":\"data-0\"},\"operationID\":\"du-1\",\"postOperationItems\":null},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]\n";

/* The host's plugin client: here every operation reports that it finished. */
static int progress(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    velstatus_op_progress p;
    (void)userdata;
    (void)list;
    (void)index;
    velstatus_op_progress_init(&p, sizeof(p));
    p.report = VELSTATUS_OP_REPORT_PROGRESS;
    p.completed = 1;
    p.n_completed = p.n_total = 1073741824;
    p.operation_units = "Bytes";
    p.operation_units_len = 5;
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

static int cancel(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    (void)userdata;
    (void)list;
    (void)index;
    (void)reply;
    return 0; /* a plugin that cannot cancel just returns */
}

int main(void)
{
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_reconcile_result *res = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options opts;
    char *json = NULL;
    size_t json_len = 0;
    int ok = 0;

    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK ||
        velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, itemoperations, sizeof(itemoperations) - 1,
                                   &err) != VELSTATUS_OK)
        goto fail;
    velstatus_plugin_client_init(&client, sizeof(client));
    client.progress = progress;
    client.cancel = cancel;
    velstatus_reconcile_options_init(&opts, sizeof(opts)); /* WaitingForPluginOperations, 4h timeout, hardened */
    if (velstatus_time_parse(&opts.now_ns, "2024-05-01T10:05:00Z", 20, &err) != VELSTATUS_OK)
        goto fail;
    if (velstatus_oplist_reconcile(&res, ops, &client, &opts, NULL, &err) != VELSTATUS_OK)
        goto fail;
    printf("next phase %s, %zu completed, %zu failed, still in progress %d\n",
           velstatus_phase_to_string(velstatus_reconcile_result_phase(res)), velstatus_reconcile_result_completed(res),
           velstatus_reconcile_result_failed(res), velstatus_reconcile_result_still_in_progress(res));
    if (velstatus_reconcile_result_phase(res) != VELSTATUS_PHASE_FINALIZING ||
        velstatus_reconcile_result_completed(res) != 1 ||
        velstatus_reconcile_result_persist(res) != VELSTATUS_PERSIST_UPLOAD_AND_PATCH)
        goto done;
    /* Write the list back exactly as Velero would (unknown fields are kept). */
    if (velstatus_oplist_to_json(&json, &json_len, ops, &err) != VELSTATUS_OK)
        goto fail;
    fwrite(json, 1, json_len, stdout);
    ok = strstr(json, "\"phase\":\"Completed\"") != NULL;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", velstatus_status_name(err.code), err.message);
done:
    velstatus_free(ctx, json);
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
    return ok ? 0 : 1;
}
