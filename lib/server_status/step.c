/* SPDX-License-Identifier: Apache-2.0 */
/* The server-status controller step (velstatus_server_status_step): list
 * the BSLs through the host, decode them (bsl_json.c), classify them
 * (server_status.c), and publish a changed status through the retry driver
 * (retry.c). It sits above the codec and the classifier, which do not call
 * it or each other's step; it reads a verdict through the public getters
 * only. */
#include "retry/private.h"
#include "server_status/private.h"

#include <stdio.h>
#include <string.h>

void velstatus_server_status_host_init(velstatus_server_status_host *host, size_t struct_size)
{
    velstatus__sized_init(host, struct_size, NULL, sizeof(*host));
    if (host && struct_size >= VS_SERVER_STATUS_HOST_SIZE_V1)
        velstatus_retry_host_init(&host->retry, sizeof(host->retry));
}

/* What list_bsls answered: the decoded set, or the decoding's failure. */
struct velstatus_bsls_reply {
    velstatus_ctx *ctx;
    velstatus_bsl_set *set; /* NULL: unanswered, or the decoding failed */
    velstatus_status st;    /* the last set_json's status */
    velstatus_error err;    /* its error */
};

velstatus_status velstatus_bsls_reply_set_json(velstatus_bsls_reply *reply, const char *json, size_t len,
                                               velstatus_error *err)
{
    velstatus_bsl_set *set = NULL;
    if (!reply)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "reply is NULL");
    velstatus_bsl_set_free(reply->set);
    reply->set = NULL;
    reply->st = velstatus_bsl_set_from_json(&set, reply->ctx, json, len, &reply->err);
    if (reply->st != VELSTATUS_OK) {
        if (err)
            *err = reply->err;
        return reply->st;
    }
    reply->set = set;
    return VELSTATUS_OK;
}

/* The single place a new status is published: one status write, retried
 * by the retry driver with the caller's policy. */
typedef struct publish_call {
    const velstatus_server_status_host *h;
    void *retry_ud; /* h->retry.userdata, or h->userdata */
    velstatus_server_status status;
    uint32_t reasons;
    const char *json;
    size_t len;
    int last_rc;
    int passthrough;
    char msg[48];
} publish_call;

static int publish_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    publish_call *pc = ud;
    int rc = pc->h->publish(pc->h->userdata, pc->status, pc->reasons, pc->json, pc->len);
    (void)attempt;
    if (rc == VELSTATUS_PASSTHROUGH) {
        pc->passthrough = 1;
        return -1; /* aborts the run; reported as E_INVALID below */
    }
    if (rc < 0) {
        pc->last_rc = rc;
        snprintf(pc->msg, sizeof(pc->msg), "publish returned %d", rc);
        return velstatus_retry_reply_set_error(reply, pc->msg, VELSTATUS_NUL_TERMINATED, NULL);
    }
    return 0;
}

static int publish_classify(void *ud, uint64_t attempt, const char *t, size_t n, velstatus_retry_class *cls,
                            int *interrupted)
{
    const publish_call *pc = ud;
    return pc->h->retry.classify(pc->retry_ud, attempt, t, n, cls, interrupted);
}

static int publish_sleep(void *ud, int64_t ns)
{
    const publish_call *pc = ud;
    return pc->h->retry.sleep(pc->retry_ud, ns);
}

static int publish_random(void *ud, double *r)
{
    const publish_call *pc = ud;
    return pc->h->retry.random(pc->retry_ud, r);
}

static int publish_now(void *ud, int64_t *ns)
{
    const publish_call *pc = ud;
    return pc->h->retry.now(pc->retry_ud, ns);
}

/* The retry host that routes each attempt to the host's publish. */
static void publish_retry_host(velstatus_retry_host *rh, publish_call *pc)
{
    velstatus_retry_host_init(rh, sizeof(*rh));
    rh->userdata = pc;
    rh->attempt = publish_attempt;
    rh->classify = pc->h->retry.classify ? publish_classify : NULL;
    rh->sleep = pc->h->retry.sleep ? publish_sleep : NULL;
    rh->random = pc->h->retry.random ? publish_random : NULL;
    rh->now = pc->h->retry.now ? publish_now : NULL;
}

/* The run's outcome as a status: PASSTHROUGH from publish is a misuse, and
 * retries that ended on a failing publish are E_HOST with its code. */
static velstatus_status publish_outcome(velstatus_status st, int succeeded, const publish_call *pc,
                                        const velstatus_retry_result *res, velstatus_error *err)
{
    if (pc->passthrough)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "host publish returned PASSTHROUGH, but publish is required");
    if (st == VELSTATUS_OK && !succeeded && pc->last_rc < 0) {
        velstatus__error_set(err, VELSTATUS_E_HOST, "host callback publish failed with %d after %llu attempt(s)",
                             pc->last_rc, (unsigned long long)velstatus_retry_result_attempts(res));
        if (err)
            err->host_code = pc->last_rc;
        return VELSTATUS_E_HOST;
    }
    return st;
}

static velstatus_status step_publish(velstatus_ctx *ctx, const velstatus_server_status_host *h,
                                     const velstatus_server_verdict *v, const vs_opts *o, velstatus_error *err)
{
    publish_call pc;
    velstatus_retry_host rh;
    velstatus_policy pol;
    velstatus_retry_result *res = NULL;
    int succeeded = 0;
    char *json = NULL;
    size_t len = 0;
    velstatus_status st = velstatus__policy_load(&pol, o->policy, err);
    if (st != VELSTATUS_OK)
        return st;
    VS_TRY(velstatus_server_verdict_to_json(&json, &len, v, err));
    memset(&pc, 0, sizeof(pc));
    pc.h = h;
    pc.retry_ud = h->retry.userdata ? h->retry.userdata : h->userdata;
    pc.status = velstatus_server_verdict_status(v);
    pc.reasons = velstatus_server_verdict_reasons(v);
    pc.json = json;
    pc.len = len;
    publish_retry_host(&rh, &pc);
    st = velstatus__retry_run(&res, &succeeded, ctx, &pol,
                              o->retry_timeout_ns ? o->retry_timeout_ns : INT64_C(600000000000), &rh, err);
    velstatus__free(ctx, json);
    st = publish_outcome(st, succeeded, &pc, res, err);
    velstatus_retry_result_free(res);
    return st;
}

/* The host copied and checked, and the options validated, before any
 * callback runs. */
static velstatus_status step_load(velstatus_server_status_host *h, vs_opts *o, const velstatus_server_status_host *host,
                                  const velstatus_server_status_options *opts, velstatus_error *err)
{
    velstatus_status st =
        velstatus__sized_copy(h, sizeof(*h), VS_SERVER_STATUS_HOST_SIZE_V1, host, "server_status_host", err);
    if (st != VELSTATUS_OK)
        return st;
    if (h->flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "server_status_host.flags must be 0");
    if (!h->list_bsls || !h->publish)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "server_status_host.list_bsls and publish are required");
    if (h->retry.attempt || h->retry.flags != 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "server_status_host.retry.attempt must be NULL and retry.flags 0");
    return velstatus__ss_load_opts(o, opts, err);
}

/* list_bsls, decoded and classified into a verdict. */
static velstatus_status step_classify(velstatus_server_verdict **v, velstatus_ctx *ctx,
                                      const velstatus_server_status_host *h,
                                      const velstatus_server_status_options *opts, velstatus_error *err)
{
    velstatus_bsls_reply reply;
    velstatus_status st;
    int rc;
    memset(&reply, 0, sizeof(reply));
    reply.ctx = ctx;
    rc = h->list_bsls(h->userdata, &reply);
    if (rc < 0 || reply.st != VELSTATUS_OK) {
        velstatus_bsl_set_free(reply.set);
        if (rc == VELSTATUS_PASSTHROUGH)
            return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                        "host list_bsls returned PASSTHROUGH, but list_bsls is required");
        if (reply.st != VELSTATUS_OK) {
            if (err)
                *err = reply.err;
            return reply.st;
        }
        return velstatus__error_host(err, rc, "list_bsls");
    }
    if (!reply.set && velstatus_bsls_reply_set_json(&reply, "", 0, err) != VELSTATUS_OK)
        return reply.st; /* unanswered: an empty text, as before */
    st = velstatus_server_status_classify(v, reply.set, opts, err);
    velstatus_bsl_set_free(reply.set);
    return st;
}

/* Whether the verdict differs from what read_status says is published
 * (always, without read_status or a published status). */
static velstatus_status step_must_publish(int *must, const velstatus_server_status_host *h,
                                          const velstatus_server_verdict *v, velstatus_error *err)
{
    velstatus_server_status cur = VELSTATUS_SERVER_WAITING;
    uint32_t cur_reasons = 0;
    int rc, has = 0;
    *must = 1;
    if (!h->read_status)
        return VELSTATUS_OK;
    rc = h->read_status(h->userdata, &has, &cur, &cur_reasons);
    if (rc < 0 && rc != VELSTATUS_PASSTHROUGH)
        return velstatus__error_host(err, rc, "read_status");
    if (rc != VELSTATUS_PASSTHROUGH && has)
        *must = cur != velstatus_server_verdict_status(v) || cur_reasons != velstatus_server_verdict_reasons(v);
    return VELSTATUS_OK;
}

velstatus_status velstatus_server_status_step(velstatus_server_verdict **out, int *published, velstatus_ctx *ctx,
                                              const velstatus_server_status_host *host,
                                              const velstatus_server_status_options *opts,
                                              const velstatus_policy *policy, velstatus_error *err)
{
    velstatus_server_status_host h;
    velstatus_server_verdict *v = NULL;
    velstatus_status st;
    vs_opts o;
    int must_publish = 1;
    if (out)
        *out = NULL;
    if (published)
        *published = 0;
    if (!ctx || !host)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "ctx or host is NULL");
    VS_TRY(step_load(&h, &o, host, opts, err));
    o.policy = policy;
    VS_TRY(step_classify(&v, ctx, &h, opts, err));
    st = step_must_publish(&must_publish, &h, v, err);
    if (st == VELSTATUS_OK && must_publish) {
        st = step_publish(ctx, &h, v, &o, err);
        if (st == VELSTATUS_OK && published)
            *published = 1;
    }
    if (st != VELSTATUS_OK || !out)
        velstatus_server_verdict_free(v);
    else
        *out = v;
    return st;
}
