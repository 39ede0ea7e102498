/* SPDX-License-Identifier: Apache-2.0 */
/* Tutorial: aggregate progress over an operation list and print Velero's
 * describe lines. Built and run by `make check`. */
#include <velstatus.h>

#include <stdio.h>
#include <string.h>

static const char itemoperations[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"app\","
    "\"Name\":\"data-0\"},\"operationID\":\"op-1\",\"postOperationItems\":null},"
    "\"status\":{\"phase\":\"InProgress\",\"nCompleted\":250,\"nTotal\":1000,\"operationUnits\":\"Bytes\","
    "\"created\":\"2024-05-01T10:00:00Z\",\"started\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"app\","
    "\"Name\":\"data-1\"},\"operationID\":\"op-2\",\"postOperationItems\":null},"
    "\"status\":{\"phase\":\"Completed\",\"nCompleted\":1000,\"nTotal\":1000,\"operationUnits\":\"Bytes\","
    "\"created\":\"2024-05-01T10:00:00Z\"}}]";

int main(void)
{
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_progress *report = NULL;
    char *summary = NULL, *describe = NULL;
    size_t summary_len = 0, describe_len = 0;
    int64_t now;
    int ok = 0;

    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK ||
        velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, itemoperations, sizeof(itemoperations) - 1,
                                   &err) != VELSTATUS_OK ||
        velstatus_time_parse(&now, "2024-05-01T10:01:00Z", 20, &err) != VELSTATUS_OK ||
        velstatus_progress_new(&report, ctx, ops, now, &err) != VELSTATUS_OK)
        goto fail;
    /* One unit group, "Bytes": 1250 of 2000. */
    printf("%zu attempted, %zu in progress; %s: %lld of %lld (%.1f%%)\n",
           velstatus_progress_count(report, VELSTATUS_PROGRESS_ATTEMPTED),
           velstatus_progress_count(report, VELSTATUS_PROGRESS_IN_PROGRESS),
           velstatus_progress_unit_name(report, 0, NULL), (long long)velstatus_progress_unit_completed(report, 0),
           (long long)velstatus_progress_unit_total(report, 0), velstatus_progress_unit_percent(report, 0));
    if (velstatus_progress_unit_count(report) != 1 || velstatus_progress_unit_completed(report, 0) != 1250 ||
        velstatus_progress_unit_total(report, 0) != 2000)
        goto done;
    if (velstatus_progress_summary(&summary, &summary_len, report, &err) != VELSTATUS_OK ||
        velstatus_describe_operations(&describe, &describe_len, ctx, ops, 0, &err) != VELSTATUS_OK)
        goto fail;
    printf("%.*s\n%.*s", (int)summary_len, summary, (int)describe_len, describe);
    /* Velero's line: "Backup Item Operations:  1 of 2 completed successfully, 0 failed (...)". */
    ok = strstr(describe, "1 of 2 completed successfully, 0 failed") != NULL;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", velstatus_status_name(err.code), err.message);
done:
    velstatus_free(ctx, describe);
    velstatus_free(ctx, summary);
    velstatus_progress_free(report);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
    return ok ? 0 : 1;
}
