/* SPDX-License-Identifier: Apache-2.0 */
/* The fake server-status host (tests/fake_host.h). */
#include "fake_host.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

int vs_fake_list(void *ud, velstatus_bsls_reply *reply)
{
    vs_fake_host *h = ud;
    char copy[2048];
    h->lists++;
    if (h->list_rc)
        return h->list_rc;
    /* The library decodes during the call: a buffer that dies with the
     * callback is fine (it is scribbled over before returning). */
    snprintf(copy, sizeof copy, "%s", h->json ? h->json : VS_FAKE_STEP_JSON);
    if (velstatus_bsls_reply_set_json(reply, copy, VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK)
        return 0; /* the decoding's failure is the step's result anyway */
    memset(copy, 'x', sizeof copy);
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

int vs_fake_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                     int *interrupted)
{
    vs_fake_host *h = ud;
    (void)interrupted;
    if (h->classifies < 8) {
        h->classify_attempts[h->classifies] = attempt;
        snprintf(h->classify_text[h->classifies], sizeof h->classify_text[0], "%.*s", (int)len, text);
    }
    h->classifies++;
    *cls = h->cls;
    return 0;
}

int vs_fake_sleep(void *ud, int64_t ns)
{
    vs_fake_host *h = ud;
    if (h->nsleeps < 16)
        h->sleeps[h->nsleeps] = ns;
    h->nsleeps++;
    h->clock += ns;
    return 0;
}

int vs_fake_random(void *ud, double *r)
{
    vs_fake_host *h = ud;
    h->randoms++;
    *r = 0.5;
    return 0;
}

int vs_fake_now(void *ud, int64_t *ns)
{
    vs_fake_host *h = ud;
    h->nows++;
    *ns = h->clock;
    return 0;
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
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 16; i++)
        velstatus_op_progress_init(&f->ans[i], sizeof f->ans[i]);
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
    if (f->cancel_err[i] != NULL)
        return velstatus_op_reply_set_cancel_error(reply, f->cancel_err[i], strlen(f->cancel_err[i]), NULL) ==
                       VELSTATUS_OK
                   ? 0
                   : -1;
    return 0;
}

velstatus_plugin_client vs_fake_plugin_client(vs_fake_plugin *f)
{
    velstatus_plugin_client c;
    velstatus_plugin_client_init(&c, sizeof c);
    c.userdata = f;
    c.progress = vs_fake_progress;
    c.cancel = vs_fake_cancel;
    return c;
}
