/* SPDX-License-Identifier: Apache-2.0 */
/* Tutorial: Velero's status-patch retry, CapBackoff(10m) under retry.OnError,
 * with a host whose patch always fails and whose sleep only adds up. Built and
 * run by `make check`. */
#include <velstatus.h>

#include <stdio.h>

struct fake_host {
    int64_t slept_ns; /* a real host sleeps; this one records */
};

static int attempt(void *userdata, uint64_t n, velstatus_retry_reply *reply)
{
    (void)userdata;
    (void)n;
    /* the API server is rolling out: the attempt failed (the library copies the text) */
    return velstatus_retry_reply_set_error(reply, "connection refused", VELSTATUS_NUL_TERMINATED, NULL);
}

static int do_sleep(void *userdata, int64_t ns)
{
    ((struct fake_host *)userdata)->slept_ns += ns;
    return 0;
}

static int no_jitter(void *userdata, double *r)
{
    (void)userdata;
    *r = 0.0; /* a real host draws from its own random source */
    return 0;
}

int main(void)
{
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    velstatus_retry_result *res = NULL;
    velstatus_retry_host host;
    struct fake_host fake = {0};
    velstatus_backoff cap; /* --resource-timeout=10m */
    velstatus_backoff_init_preset(&cap, sizeof(cap), VELSTATUS_BACKOFF_VELERO_CAP, 600000000000LL, NULL);
    velstatus_phase from, to;
    int retried = 0, ok = 0;

    velstatus_retry_host_init(&host, sizeof(host));
    host.userdata = &fake;
    host.attempt = attempt;
    host.sleep = do_sleep;
    host.random = no_jitter;
    if (velstatus_ctx_new(&ctx, NULL, &err) != VELSTATUS_OK ||
        velstatus_retry_on_error(&res, ctx, &cap, &host, &err) != VELSTATUS_OK)
        goto fail;
    /* 7 attempts and 195.31 s of sleep: the cap ends the loop, it does not bound the time. */
    printf("%s after %llu attempts, %.2f s asleep\n",
           velstatus_retry_outcome_to_string(velstatus_retry_result_outcome(res)),
           (unsigned long long)velstatus_retry_result_attempts(res), (double)fake.slept_ns / 1e9);
    if (velstatus_retry_result_outcome(res) != VELSTATUS_RETRY_OUTCOME_EXHAUSTED ||
        velstatus_retry_result_attempts(res) != 7 || fake.slept_ns != 195310000000LL)
        goto done;

    /* Which patches Velero retries: InProgress -> Finalizing is, ReadyToStart -> InProgress is not. */
    velstatus_phase_from_string(&from, "InProgress", VELSTATUS_NUL_TERMINATED, NULL);
    velstatus_phase_from_string(&to, "Finalizing", VELSTATUS_NUL_TERMINATED, NULL);
    if (velstatus_retry_transition(&retried, VELSTATUS_KIND_BACKUP, from, to, 0, NULL, &err) != VELSTATUS_OK)
        goto fail;
    printf("InProgress -> Finalizing retried: %d\n", retried);
    ok = retried == 1;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", velstatus_status_name(err.code), err.message);
done:
    velstatus_retry_result_free(res);
    velstatus_ctx_free(ctx);
    return ok ? 0 : 1;
}
