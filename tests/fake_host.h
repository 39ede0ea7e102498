/* SPDX-License-Identifier: Apache-2.0 */
/* The fake hosts of the check suites. The server-status host lists BSL JSON,
 * reads and records the published status, fails the first N publishes, and
 * counts and records every retry slot (classify, sleep, random, now); the
 * plugin client answers and records Progress and Cancel calls. */
#ifndef VS_TEST_FAKE_HOST_H
#define VS_TEST_FAKE_HOST_H
#include <stdint.h>

#include <velstatus.h>

/* Two BSLs: "default" (spec.default, Available) and "secondary" (Unavailable). */
#define VS_FAKE_STEP_JSON                                                                                           \
    "{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"default\"},\"spec\":{\"default\":true},"              \
    "\"status\":{\"phase\":\"Available\"}},{\"metadata\":{\"name\":\"secondary\"},\"status\":{\"phase\":"         \
    "\"Unavailable\"}}]}"

typedef struct vs_fake_host {
    const char *json;                /* what list_bsls answers; NULL: VS_FAKE_STEP_JSON */
    int list_rc, read_rc, publish_rc; /* nonzero: the slot returns it */
    int fail_first;                  /* the first N publishes return -11 (after recording) */
    int has;                         /* read_status: a status was published */
    velstatus_server_status status;
    uint32_t reasons;
    int lists, reads, publishes;
    char published_json[2048];
    velstatus_retry_class cls;       /* what classify answers */
    int classifies, randoms, nows, nsleeps;
    uint64_t classify_attempts[8];
    char classify_text[8][64];
    int64_t sleeps[16];
    int64_t clock;                   /* the fake monotonic clock, advanced by sleep */
} vs_fake_host;

int vs_fake_list(void *ud, velstatus_bsls_reply *reply);
int vs_fake_read(void *ud, int *has, velstatus_server_status *status, uint32_t *reasons);
int vs_fake_publish(void *ud, velstatus_server_status status, uint32_t reasons, const char *json, size_t len);
int vs_fake_classify(void *ud, uint64_t attempt, const char *text, size_t len, velstatus_retry_class *cls,
                     int *interrupted);
int vs_fake_sleep(void *ud, int64_t ns);
int vs_fake_random(void *ud, double *r);
int vs_fake_now(void *ud, int64_t *ns);

/* A host over f with list_bsls, read_status and publish; no retry slot. */
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
