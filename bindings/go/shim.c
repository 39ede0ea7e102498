/* SPDX-License-Identifier: Apache-2.0 */
/* C trampolines for the Go binding (doc/conventions.md §8). A vtable's userdata is a
 * C-allocated uintptr_t cell holding a runtime/cgo.Handle; each trampoline
 * passes the handle's value to the //export function of callbacks.go. The
 * vtables are filled here, in C, so Go never handles C function pointers. */
#include <stdint.h>
#include <string.h>
#include <velstatus.h>
#include "_cgo_export.h"

#define VS_HANDLE(ud) (*(const uintptr_t *)(ud))

/* ---- server status step ---- */

static int vs_go_server_list_bsls(void *ud, velstatus_bsls_reply *reply)
{
    return vsGoServerListBSLs(VS_HANDLE(ud), reply);
}

static int vs_go_server_read_status(void *ud, int *has_status, velstatus_server_status *status, uint32_t *reasons)
{
    return vsGoServerReadStatus(VS_HANDLE(ud), has_status, status, reasons);
}

static int vs_go_server_publish(void *ud, velstatus_server_status status, uint32_t reasons, const char *json,
                                size_t json_len)
{
    return vsGoServerPublish(VS_HANDLE(ud), status, reasons, (char *)json, json_len);
}

/* ---- BSL watch events ---- */

/* The BSLs velstatus_bsl_watch_event_foreach() hands out, added to a set
 * (DecodeBSLWatchEvent): pure C, nothing crosses into Go per BSL. */
typedef struct vs_go_bsls {
    velstatus_bsl_set *set;
    velstatus_status st;
    velstatus_error err;
} vs_go_bsls;

static int vs_go_bsl_collect(void *ud, const velstatus_watch_event *event, const velstatus_bsl_record *bsl)
{
    vs_go_bsls *c = ud;
    (void)event;
    c->st = velstatus_bsl_set_add_record(c->set, bsl, &c->err);
    return c->st == VELSTATUS_OK ? 0 : -1;
}

velstatus_status vs_go_bsl_watch_event(velstatus_watch_event **event, velstatus_bsl_set *set, velstatus_ctx *ctx,
                                       const char *json, size_t len, velstatus_error *err);
velstatus_status vs_go_bsl_watch_event(velstatus_watch_event **event, velstatus_bsl_set *set, velstatus_ctx *ctx,
                                       const char *json, size_t len, velstatus_error *err)
{
    vs_go_bsls c;
    velstatus_status st;
    memset(&c, 0, sizeof(c));
    c.set = set;
    st = velstatus_bsl_watch_event_foreach(event, ctx, json, len, vs_go_bsl_collect, &c, err);
    if (st == VELSTATUS_E_HOST && c.st != VELSTATUS_OK) { /* the set's own failure (out of memory) */
        if (err)
            *err = c.err;
        st = c.st;
    }
    return st;
}

/* The retry hooks' trampolines, shared with the retry drivers below. */
static int vs_go_retry_classify(void *ud, uint64_t attempt, const char *err_text, size_t err_len,
                                velstatus_retry_class *cls, int *interrupted);
static int vs_go_retry_sleep(void *ud, int64_t ns);
static int vs_go_retry_random(void *ud, double *r);
static int vs_go_retry_now(void *ud, int64_t *ns);

void vs_go_server_host_setup(velstatus_server_status_host *host, void *userdata, int with_read, int with_classify);
void vs_go_server_host_setup(velstatus_server_status_host *host, void *userdata, int with_read, int with_classify)
{
    velstatus_server_status_host_init(host, sizeof(*host));
    host->userdata = userdata;
    host->list_bsls = vs_go_server_list_bsls;
    host->read_status = with_read ? vs_go_server_read_status : NULL;
    host->publish = vs_go_server_publish;
    host->retry.classify = with_classify ? vs_go_retry_classify : NULL;
    host->retry.sleep = vs_go_retry_sleep;
    host->retry.random = vs_go_retry_random;
    host->retry.now = vs_go_retry_now;
}

/* ---- retry drivers ---- */

static int vs_go_retry_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    return vsGoRetryAttempt(VS_HANDLE(ud), attempt, reply);
}

static int vs_go_retry_classify(void *ud, uint64_t attempt, const char *err_text, size_t err_len,
                                velstatus_retry_class *cls, int *interrupted)
{
    return vsGoRetryClassify(VS_HANDLE(ud), attempt, (char *)err_text, err_len, cls, interrupted);
}

static int vs_go_retry_sleep(void *ud, int64_t ns)
{
    return vsGoRetrySleep(VS_HANDLE(ud), ns);
}

static int vs_go_retry_random(void *ud, double *r)
{
    return vsGoRetryRandom(VS_HANDLE(ud), r);
}

static int vs_go_retry_now(void *ud, int64_t *ns)
{
    return vsGoRetryNow(VS_HANDLE(ud), ns);
}

void vs_go_retry_host_setup(velstatus_retry_host *host, void *userdata, int attempt, int classify, int sleep,
                            int random, int now);
void vs_go_retry_host_setup(velstatus_retry_host *host, void *userdata, int attempt, int classify, int sleep,
                            int random, int now)
{
    velstatus_retry_host_init(host, sizeof(*host));
    host->userdata = userdata;
    host->attempt = attempt ? vs_go_retry_attempt : NULL;
    host->classify = classify ? vs_go_retry_classify : NULL;
    host->sleep = sleep ? vs_go_retry_sleep : NULL;
    host->random = random ? vs_go_retry_random : NULL;
    host->now = now ? vs_go_retry_now : NULL;
}

/* ---- reconcile plugin client ---- */

static int vs_go_plugin_progress(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    return vsGoPluginProgress(VS_HANDLE(ud), (velstatus_oplist *)list, index, reply);
}

static int vs_go_plugin_cancel(void *ud, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    return vsGoPluginCancel(VS_HANDLE(ud), (velstatus_oplist *)list, index, reply);
}

void vs_go_plugin_client_setup(velstatus_plugin_client *client, void *userdata, int progress, int cancel);
void vs_go_plugin_client_setup(velstatus_plugin_client *client, void *userdata, int progress, int cancel)
{
    velstatus_plugin_client_init(client, sizeof(*client));
    client->userdata = userdata;
    client->progress = progress ? vs_go_plugin_progress : NULL;
    client->cancel = cancel ? vs_go_plugin_cancel : NULL;
}
