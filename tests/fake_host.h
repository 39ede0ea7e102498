/* SPDX-License-Identifier: Apache-2.0 */
/* The fake hosts of the check suites. The retry host (vs_fake_retry) makes
 * attempts that fail up to a given one, classifies them per attempt, records
 * its sleeps on a monotonic clock and counts every call; the server-status
 * host lists BSL JSON, reads and records the published status, fails the
 * first N publishes and embeds a retry fake for its retry slots; the plugin
 * client answers and records Progress and Cancel calls. */
#ifndef VS_TEST_FAKE_HOST_H
#define VS_TEST_FAKE_HOST_H
#include <stdint.h>

#include <velstatus.h>

/* Two BSLs: "default" (spec.default, Available) and "secondary" (Unavailable). */
#define VS_FAKE_STEP_JSON                                                                                 \
    "{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"default\"},\"spec\":{\"default\":true},"     \
    "\"status\":{\"phase\":\"Available\"}},{\"metadata\":{\"name\":\"secondary\"},\"status\":{\"phase\":" \
    "\"Unavailable\"}}]}"

#define VS_FAKE_RETRY_ATTEMPTS 64 /* attempts 1..63 have a class of their own */
#define VS_FAKE_RETRY_SLEEPS 256  /* sleeps recorded; one more fails the test */
#define VS_FAKE_RETRY_TEXTS 8     /* classify calls whose attempt and text are recorded */

/* The fake retry host. vs_fake_retry_init() gives: every attempt succeeds,
 * every class transient and not interrupted, r = 0, the clock at 0 with no
 * latency, every slot answering (rc 0). A slot whose *_rc is non-zero
 * counts the call (classify records it too), then returns it
 * (VELSTATUS_PASSTHROUGH included) and does nothing else; nsleeps counts
 * the sleeps taken only. */
typedef struct vs_fake_retry {
    /* what the host does */
    uint64_t fail_until;                               /* attempts 1..fail_until fail (UINT64_MAX: all) */
    const char *error;                                 /* a failed attempt's text; NULL: "boom <attempt>" */
    velstatus_retry_class cls[VS_FAKE_RETRY_ATTEMPTS]; /* class of attempt i (index i); later ones transient */
    int interrupted[VS_FAKE_RETRY_ATTEMPTS];           /* classify's *interrupted for attempt i */
    int64_t latency;                                   /* each attempt advances the clock by this */
    double r;                                          /* what random answers */
    int attempt_rc, classify_rc, sleep_rc, random_rc, now_rc;
    int now_answers;     /* now answers this many calls before now_rc applies */
    int clock_backwards; /* now answers -clock */
    /* what the host saw */
    int64_t clock;                           /* the monotonic clock: advanced by each sleep and attempt */
    int attempts, classifies, randoms, nows; /* calls of each slot */
    int64_t sleeps[VS_FAKE_RETRY_SLEEPS];    /* the sleeps taken, in order */
    size_t nsleeps;
    uint64_t classify_attempts[VS_FAKE_RETRY_TEXTS]; /* the attempt of each classify call */
    char classify_text[VS_FAKE_RETRY_TEXTS][64];     /* and the text it was given */
    char text[64];                                   /* the last failed attempt's text */
} vs_fake_retry;

void vs_fake_retry_init(vs_fake_retry *f);
/* Gives every attempt class cls. */
void vs_fake_retry_classify_all(vs_fake_retry *f, velstatus_retry_class cls);
int vs_fake_retry_attempt(void *ud, uint64_t attempt, velstatus_retry_reply *reply);
int vs_fake_retry_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                           int *interrupted);
int vs_fake_retry_sleep(void *ud, int64_t ns);
int vs_fake_retry_random(void *ud, double *r);
int vs_fake_retry_now(void *ud, int64_t *ns);
/* A retry host over f with all five slots. */
velstatus_retry_host vs_fake_retry_host(vs_fake_retry *f);

/* The fake server-status host. Its retry fake comes first, so that a
 * retry slot given retry.userdata NULL (this struct's userdata, the
 * library's fallback) finds it there too. */
typedef struct vs_fake_host {
    vs_fake_retry retry;              /* the retry slots' state (r = 0.5) */
    const char *json;                 /* what list_bsls answers; NULL: VS_FAKE_STEP_JSON */
    int list_rc, read_rc, publish_rc; /* nonzero: the slot returns it */
    int fail_first;                   /* the first N publishes return -11 (after recording) */
    int has;                          /* read_status: a status was published */
    velstatus_server_status status;
    uint32_t reasons;
    int lists, reads, publishes;
    char published_json[2048];
} vs_fake_host;

/* Zeroes f, json NULL (VS_FAKE_STEP_JSON), retry initialised with r = 0.5. */
void vs_fake_host_init(vs_fake_host *f);
int vs_fake_list(void *ud, velstatus_bsls_reply *reply);
int vs_fake_read(void *ud, int *has, velstatus_server_status *status, uint32_t *reasons);
int vs_fake_publish(void *ud, velstatus_server_status status, uint32_t reasons, const char *json, size_t len);

/* A host over f with list_bsls, read_status and publish; no retry slot
 * (retry.userdata NULL: f, whose first member is f->retry). */
velstatus_server_status_host vs_fake_step_host(vs_fake_host *f);

/* The fake plugin client of the reconcile tests: operation i (< 16) answers
 * ans[i] (empty progress after init), or returns rc[i], or nothing if
 * silent[i]; cancel records the call and answers cancel_err[i] or cancel_rc. */
typedef struct vs_fake_plugin {
    velstatus_op_progress ans[16];
    int rc[16];
    int silent[16];
    const char *cancel_err[16];
    int cancel_rc;
    size_t calls[64], ncalls;
    size_t cancels[64], ncancels;
} vs_fake_plugin;

void vs_fake_plugin_init(vs_fake_plugin *f);
int vs_fake_progress(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply);
int vs_fake_cancel(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply);
/* A client over f with both slots. */
velstatus_plugin_client vs_fake_plugin_client(vs_fake_plugin *f);

#endif
