/* SPDX-License-Identifier: Apache-2.0 */
/* The fake hosts of the check suites (tests/fake_host.h). */
#include "fake_host.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

void vs_fake_retry_init(vs_fake_retry *f)
{
    memset(f, 0, sizeof(*f));
    vs_fake_retry_classify_all(f, VELSTATUS_RETRY_CLASS_TRANSIENT);
}

void vs_fake_retry_classify_all(vs_fake_retry *f, velstatus_retry_class cls)
{
    for (size_t i = 0; i < VS_FAKE_RETRY_ATTEMPTS; i++)
        f->cls[i] = cls;
}

int vs_fake_retry_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply)
{
    vs_fake_retry *f = ud;
    f->attempts++;
    if (f->attempt_rc)
        return f->attempt_rc;
    f->clock += f->latency;
    if (attempt > f->fail_until)
        return 0;
    if (f->error)
        snprintf(f->text, sizeof(f->text), "%s", f->error);
    else
        snprintf(f->text, sizeof(f->text), "boom %llu", (unsigned long long)attempt);
    return velstatus_retry_reply_set_error(reply, f->text, strlen(f->text), NULL) == VELSTATUS_OK ? 0 : -1;
}

int vs_fake_retry_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                           int *interrupted)
{
    vs_fake_retry *f = ud;
    if (f->classifies < VS_FAKE_RETRY_TEXTS) {
        f->classify_attempts[f->classifies] = attempt;
        snprintf(f->classify_text[f->classifies], sizeof(f->classify_text[0]), "%.*s", (int)len, text);
    }
    f->classifies++;
    if (f->classify_rc)
        return f->classify_rc;
    if (attempt < VS_FAKE_RETRY_ATTEMPTS) {
        *cls = f->cls[attempt];
        *interrupted = f->interrupted[attempt];
    }
    return 0;
}

int vs_fake_retry_sleep(void *ud, int64_t ns)
{
    vs_fake_retry *f = ud;
    if (f->sleep_rc)
        return f->sleep_rc;
    ck_assert_int_ge(ns, 0);
    ck_assert_uint_lt(f->nsleeps, VS_FAKE_RETRY_SLEEPS);
    f->sleeps[f->nsleeps++] = ns;
    f->clock += ns;
    return 0;
}

int vs_fake_retry_random(void *ud, double *r)
{
    vs_fake_retry *f = ud;
    f->randoms++;
    if (f->random_rc)
        return f->random_rc;
    *r = f->r;
    return 0;
}

int vs_fake_retry_now(void *ud, int64_t *ns)
{
    vs_fake_retry *f = ud;
    if (f->nows++ >= f->now_answers && f->now_rc)
        return f->now_rc;
    *ns = f->clock_backwards ? -f->clock : f->clock;
    return 0;
}

velstatus_retry_host vs_fake_retry_host(vs_fake_retry *f)
{
    velstatus_retry_host h;
    velstatus_retry_host_init(&h, sizeof(h));
    h.userdata = f;
    h.attempt = vs_fake_retry_attempt;
    h.classify = vs_fake_retry_classify;
    h.sleep = vs_fake_retry_sleep;
    h.random = vs_fake_retry_random;
    h.now = vs_fake_retry_now;
    return h;
}

void vs_fake_host_init(vs_fake_host *f)
{
    memset(f, 0, sizeof(*f));
    vs_fake_retry_init(&f->retry);
    f->retry.r = 0.5;
}

int vs_fake_list(void *ud, velstatus_bsls_reply *reply)
{
    vs_fake_host *h = ud;
    char copy[2048];
    h->lists++;
    if (h->list_rc)
        return h->list_rc;
    /* The library decodes during the call: a buffer that dies with the
     * callback is fine (it is scribbled over before returning). */
    snprintf(copy, sizeof(copy), "%s", h->json ? h->json : VS_FAKE_STEP_JSON);
    if (velstatus_bsls_reply_set_json(reply, copy, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return 0; /* the decoding's failure is the step's result anyway */
    memset(copy, 'x', sizeof(copy));
    return 0;
}

int vs_fake_read(void *ud, int *has, velstatus_server_status *status, uint32_t *reasons)
{
    vs_fake_host *h = ud;
    h->reads++;
    if (h->read_rc)
        return h->read_rc;
    *has = h->has;
    *status = h->status;
    *reasons = h->reasons;
    return 0;
}

int vs_fake_publish(void *ud, velstatus_server_status status, uint32_t reasons, const char *json, size_t len)
{
    vs_fake_host *h = ud;
    h->publishes++;
    if (h->publish_rc)
        return h->publish_rc;
    ck_assert_uint_eq(strlen(json), len);
    ck_assert_uint_lt(len, sizeof(h->published_json));
    memcpy(h->published_json, json, len + 1);
    h->has = 1;
    h->status = status;
    h->reasons = reasons;
    return h->publishes <= h->fail_first ? -11 : 0;
}

velstatus_server_status_host vs_fake_step_host(vs_fake_host *f)
{
    velstatus_server_status_host h;
    velstatus_server_status_host_init(&h, sizeof(h));
    h.userdata = f;
    h.list_bsls = vs_fake_list;
    h.read_status = vs_fake_read;
    h.publish = vs_fake_publish;
    return h;
}

void vs_fake_plugin_init(vs_fake_plugin *f)
{
    memset(f, 0, sizeof(*f));
    for (int i = 0; i < 16; i++)
        velstatus_op_progress_init(&f->ans[i], sizeof(f->ans[i]));
}

int vs_fake_progress(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    vs_fake_plugin *f = ud;
    ck_assert_ptr_nonnull(velstatus_oplist_at(list, i));
    f->calls[f->ncalls++] = i;
    if (f->rc[i] != 0)
        return f->rc[i];
    if (f->silent[i])
        return 0;
    return velstatus_op_reply_set_progress(reply, &f->ans[i], NULL) == VELSTATUS_OK ? 0 : -1;
}

int vs_fake_cancel(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    vs_fake_plugin *f = ud;
    (void)list;
    f->cancels[f->ncancels++] = i;
    if (f->cancel_rc != 0)
        return f->cancel_rc;
    if (f->cancel_err[i])
        return velstatus_op_reply_set_cancel_error(reply, f->cancel_err[i], strlen(f->cancel_err[i]), NULL) ==
                       VELSTATUS_OK
                   ? 0
                   : -1;
    return 0;
}

velstatus_plugin_client vs_fake_plugin_client(vs_fake_plugin *f)
{
    velstatus_plugin_client c;
    velstatus_plugin_client_init(&c, sizeof(c));
    c.userdata = f;
    c.progress = vs_fake_progress;
    c.cancel = vs_fake_cancel;
    return c;
}
