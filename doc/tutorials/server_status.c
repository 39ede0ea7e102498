/* SPDX-License-Identifier: Apache-2.0 */
/* Tutorial: the server status from a `kubectl get bsl -o json` list, then kept
 * current by a tracker. Built and run by `make check`. */
#include <velstatus.h>

#include <stdio.h>
#include <string.h>

static const char bsl_list[] = "{\"items\":["
                               "{\"metadata\":{\"name\":\"default\"},\"spec\":{\"default\":true},"
                               "\"status\":{\"phase\":\"Available\"}},"
                               "{\"metadata\":{\"name\":\"dr-site\"},\"spec\":{},"
                               "\"status\":{\"phase\":\"Unavailable\"}}]}";

/* One object of a watch event: a second location, not yet validated. */
static const char event[] = "{\"metadata\":{\"name\":\"dr-site\"},\"status\":{\"phase\":\"\"}}";

int main(void)
{
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *verdict = NULL;
    velstatus_server_tracker *tracker = NULL;
    velstatus_server_status_options opts;
    velstatus_bsl_record bsl;
    int ok = 0, changed = 0;

    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK)
        goto fail;
    /* Decode the list; a bad document names the JSON path and position in err. */
    if (velstatus_bsl_set_from_json(&set, ctx, bsl_list, sizeof(bsl_list) - 1, &err) != VELSTATUS_OK)
        goto fail;
    velstatus_server_status_options_init(&opts, sizeof(opts)); /* no default-location flag, no staleness */
    if (velstatus_server_status_classify(&verdict, set, &opts, &err) != VELSTATUS_OK)
        goto fail;
    /* One Available default and one Unavailable location: PartiallyReady, some_unavailable. */
    printf("%s: %s\n", velstatus_server_status_to_string(velstatus_server_verdict_status(verdict)),
           velstatus_server_verdict_message(verdict));
    if (velstatus_server_verdict_status(verdict) != VELSTATUS_SERVER_PARTIALLY_READY ||
        !(velstatus_server_verdict_reasons(verdict) & VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE) ||
        strcmp(velstatus_server_verdict_default(verdict), "default") != 0)
        goto done;

    /* A controller feeds the same events one at a time and patches only on change:
     * here the first decoded BSL as a record, then a watch event's object as JSON. */
    velstatus_bsl_record_init(&bsl, sizeof(bsl));
    if (velstatus_server_tracker_new(&tracker, ctx, &opts, &err) != VELSTATUS_OK ||
        velstatus_bsl_set_get(set, 0, &bsl, &err) != VELSTATUS_OK ||
        velstatus_server_tracker_upsert(tracker, &changed, &bsl, &err) != VELSTATUS_OK)
        goto fail;
    printf("after the first upsert: %s (changed %d)\n",
           velstatus_server_status_to_string(velstatus_server_tracker_status(tracker)), changed);
    if (velstatus_server_tracker_status(tracker) != VELSTATUS_SERVER_READY || !changed)
        goto done;
    if (velstatus_server_tracker_upsert_json(tracker, &changed, event, sizeof(event) - 1, &err) != VELSTATUS_OK)
        goto fail;
    printf("after the event: %s (changed %d)\n",
           velstatus_server_status_to_string(velstatus_server_tracker_status(tracker)), changed);
    if (velstatus_server_tracker_status(tracker) != VELSTATUS_SERVER_PARTIALLY_READY || !changed)
        goto done;
    if (velstatus_server_tracker_delete(tracker, &changed, "default", 7, &err) != VELSTATUS_OK)
        goto fail;
    printf("after the delete: %s (changed %d)\n",
           velstatus_server_status_to_string(velstatus_server_tracker_status(tracker)), changed);
    /* the default gone, the pending dr-site left: Waiting */
    ok = velstatus_server_tracker_status(tracker) == VELSTATUS_SERVER_WAITING && changed;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", velstatus_status_name(err.code), err.message);
done:
    velstatus_server_tracker_free(tracker);
    velstatus_server_verdict_free(verdict);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
    return ok ? 0 : 1;
}
