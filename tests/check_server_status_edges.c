/* SPDX-License-Identifier: Apache-2.0 */
/* Edges of the server-status area: the publish retries of the controller
 * step with every host slot set (classify, sleep, random, now), the BSL
 * setters' argument checks, token parsers, and the tracker's hash table
 * when entries are deleted out of order or its events replay an order. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_host.h"
#include "failalloc.h"
#include "harness.h"
#include "server_status/private.h"

/* The fake host with every retry slot and no read_status (each step publishes). */
static velstatus_server_status_host slots_vtable(vs_fake_host *sh)
{
    velstatus_server_status_host h = vs_fake_step_host(sh);
    h.read_status = NULL;
    h.retry = vs_fake_retry_host(&sh->retry);
    h.retry.attempt = NULL; /* an attempt is one publish */
    return h;
}

START_TEST(step_publish_retries_use_every_host_slot)
{
    /* Hardened preset with classification on: each failed publish is
     * classified ("publish returned -11"), each sleep is the hardened
     * schedule's minus the jitter the host's random number gives
     * (100 ms and 200 ms, minus 0.5 * 0.1 of each), and the deadline is
     * measured on the host's clock. */
    velstatus_ctx *ctx = NULL;
    vs_fake_host sh;
    velstatus_server_status_options o;
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_server_verdict *v = NULL;
    int published = -1;
    ctx = vs_test_ctx();
    vs_fake_host_init(&sh);
    sh.fail_first = 2;
    vs_fake_retry_classify_all(&sh.retry, VELSTATUS_RETRY_CLASS_TRANSIENT);
    velstatus_server_status_host h = slots_vtable(&sh);
    pol.retry_classify_errors = 1;
    velstatus_server_status_options_init(&o, sizeof(o));
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, &o, &pol, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    ck_assert_int_eq(sh.publishes, 3);
    ck_assert_int_eq(sh.retry.classifies, 2);
    ck_assert_uint_eq(sh.retry.classify_attempts[0], 1);
    ck_assert_uint_eq(sh.retry.classify_attempts[1], 2);
    ck_assert_str_eq(sh.retry.classify_text[0], "publish returned -11");
    ck_assert_int_eq(sh.retry.nsleeps, 2);
    ck_assert_int_eq(sh.retry.sleeps[0], INT64_C(95000000));
    ck_assert_int_eq(sh.retry.sleeps[1], INT64_C(190000000));
    ck_assert_int_ge(sh.retry.randoms, 2);
    ck_assert_int_ge(sh.retry.nows, 1);
    ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_PARTIALLY_READY);
    velstatus_server_verdict_free(v);

    /* A terminal classification stops at the first attempt: E_HOST with
     * the publish's code, nothing slept. */
    vs_fake_host_init(&sh);
    sh.fail_first = 100;
    vs_fake_retry_classify_all(&sh.retry, VELSTATUS_RETRY_CLASS_TERMINAL);
    velstatus_error err;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, &o, &pol, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -11);
    ck_assert_int_eq(published, 0);
    ck_assert_int_eq(sh.publishes, 1);
    ck_assert_int_eq(sh.retry.nsleeps, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

static int null_text_list(void *ud, velstatus_bsls_reply *reply)
{
    (void)ud;
    velstatus_bsls_reply_set_json(reply, NULL, 12, NULL); /* refused: the step's result */
    return 0;
}

START_TEST(step_rejects_null_text_with_a_length)
{
    velstatus_ctx *ctx = NULL;
    vs_fake_host sh;
    velstatus_error err;
    int published = -1;
    ctx = vs_test_ctx();
    vs_fake_host_init(&sh);
    velstatus_server_status_host h = slots_vtable(&sh);
    h.list_bsls = null_text_list;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "NULL"));
    ck_assert_int_eq(published, 0);
    ck_assert_int_eq(sh.publishes, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(bsl_set_add_checks_its_texts)
{
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "a", 1, "Avail\0ble", 9, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "phase of BSL \"a\" contains a NUL byte");
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 0);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "a", 1, "Available", 9, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_OK);
    ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "a");
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 0), "Available");
    ck_assert_str_eq(velstatus_bsl_set_message(set, 0), "");
    ck_assert_ptr_null(velstatus_bsl_set_name(set, 1));
    ck_assert_ptr_null(velstatus_bsl_set_phase(set, 1));
    ck_assert_ptr_null(velstatus_bsl_set_message(set, 1));
    ck_assert_ptr_null(velstatus_bsl_set_name(NULL, 0));
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(status_and_reason_parsers_reject_null_text)
{
    velstatus_server_status s = VELSTATUS_SERVER_READY;
    velstatus_server_reason r = VELSTATUS_SERVER_REASON_STALE;
    velstatus_error err;
    ck_assert_int_eq(velstatus_server_status_from_string(&s, NULL, 5, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_status_from_string(NULL, "Ready", 5, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_reason_from_string(&r, NULL, 5, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_reason_from_string(NULL, "stale", 5, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(s, VELSTATUS_SERVER_READY);
    ck_assert_int_eq(r, VELSTATUS_SERVER_REASON_STALE);
    ck_assert_ptr_null(velstatus_server_reason_to_string((velstatus_server_reason)(1u << 20)));
}
END_TEST

START_TEST(tracker_deletes_in_any_order_keep_every_name_findable)
{
    /* Open addressing with backward-shift deletion: after removing names
     * in an order unrelated to insertion, every remaining name is still
     * found (an upsert of it changes nothing) and the counts are exact. */
    enum { N = 200 };
    velstatus_ctx *ctx = NULL;
    velstatus_server_tracker *t = NULL;
    char name[32];
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof(name), "bsl-%d", i);
        ck_assert_int_eq(vs_test_upsert(t, NULL, name, (size_t)n, "Available", 9, i == 0, VELSTATUS_BSL_READ_WRITE, 1,
                                        i, 0, 0, NULL),
                         VELSTATUS_OK);
    }
    for (int i = 1; i < N; i += 3) { /* delete every third, then re-find the rest */
        int n = snprintf(name, sizeof(name), "bsl-%d", (i * 7) % N);
        ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, name, (size_t)n, NULL), VELSTATUS_OK);
    }
    size_t left = velstatus_server_tracker_count(t);
    velstatus_server_verdict *v = NULL;
    ck_assert_int_eq(velstatus_server_tracker_verdict(&v, t, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_verdict_total(v), left);
    ck_assert_uint_lt(left, N);
    velstatus_server_verdict_free(v);
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof(name), "bsl-%d", i);
        int changed = -1;
        ck_assert_int_eq(vs_test_upsert(t, &changed, name, (size_t)n, "Available", 9, i == 0, VELSTATUS_BSL_READ_WRITE,
                                        1, i, 0, 0, NULL),
                         VELSTATUS_OK);
    }
    /* Every deleted name came back, none was duplicated. */
    ck_assert_uint_eq(velstatus_server_tracker_count(t), N);
    ck_assert_int_eq(velstatus_server_tracker_status(t), VELSTATUS_SERVER_READY);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

/* One decode that must fail: the status, the message (path first), and the
 * value it points at (`at` is a unique substring starting at that value). */
typedef struct bad_bsls {
    const char *json;
    velstatus_status st;
    const char *msg;
    const char *at;
} bad_bsls;

static const bad_bsls bad_cases[] = {
    {"{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"default\":\"yes\"}}]}", VELSTATUS_E_SCHEMA,
     "items[0].spec.default: expected a boolean, got a string", "\"yes\""},
    {"[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"accessMode\":5}}]", VELSTATUS_E_SCHEMA,
     "[0].spec.accessMode: expected a string, got a number", "5}"},
    {"[{\"metadata\":{\"name\":\"a\"},\"status\":[]}]", VELSTATUS_E_SCHEMA,
     "[0].status: expected an object, got an array", "[]"},
    {"[{\"metadata\":{\"name\":\"a\"}}, true]", VELSTATUS_E_SCHEMA,
     "[1]: expected a BackupStorageLocation object, got a boolean", "true"},
    {"[{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}]", VELSTATUS_E_SCHEMA,
     "[0].kind: expected \"BackupStorageLocation\", got \"Pod\"", "\"Pod\""},
    {"{\"kind\":\"PodList\",\"items\":[]}", VELSTATUS_E_SCHEMA,
     "kind: expected \"List\" or \"BackupStorageLocationList\", got \"PodList\"", "\"PodList\""},
    {"{\"kind\":\"List\",\"items\":{}}", VELSTATUS_E_SCHEMA, "items: expected an array, got an object", "{}"},
    /* The quoted value ends where the JSON string ends (it is not read as a
     * C string running on into the rest of the input). */
    {"[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"accessMode\":\"RO\",\"x\":1}}]", VELSTATUS_E_SCHEMA,
     "[0].spec.accessMode: expected \"ReadOnly\" or \"ReadWrite\", got \"RO\"", "\"RO\""},
    {"[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"a\",\"uid\":\"u\"}}]", VELSTATUS_E_SCHEMA,
     "[1].metadata.name: duplicate name \"a\"", "\"a\",\"uid"},
    {"{\"kind\":\"Pods\",\"items\":[],\"x\":\"y\"}", VELSTATUS_E_SCHEMA,
     "kind: expected \"List\" or \"BackupStorageLocationList\", got \"Pods\"", "\"Pods\""},
    {"\"text\"", VELSTATUS_E_SCHEMA, "(top level): expected a List, an array or a BackupStorageLocation, got a string",
     "\"text\""},
    {"null", VELSTATUS_E_SCHEMA, "(top level): expected a List, an array or a BackupStorageLocation, got null", "null"},
    {"[{\"metadata\":{\"name\":\"a\"}},null]", VELSTATUS_E_SCHEMA,
     "[1]: expected a BackupStorageLocation object, got null", "null]"},
    {"{\"items\": null}", VELSTATUS_E_SCHEMA, "items: expected an array, got null", "null}"},
    /* The position is found past whitespace of every kind, scalar, string
     * (with escaped quotes), object and array siblings. */
    {"{\r\n\t\"apiVersion\" : \"v\\\"1\", \"n\": -1.5e3, \"meta\": {\"a\": [1, {\"b\": \"]\"}]},\r\n"
     "\t\"items\" : [ {\"metadata\": {\"name\": \"a\"}} ,\n  {\"metadata\" : {\"name\":\"b\"}, \"x\": null,"
     " \"spec\" :\t{\"default\": 1}} ]}",
     VELSTATUS_E_SCHEMA, "items[1].spec.default: expected a boolean, got a number", "1}} ]}"},
};

START_TEST(bsl_decode_errors_name_the_path_and_position)
{
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        const bad_bsls *c = &bad_cases[i];
        velstatus_bsl_set *set = (velstatus_bsl_set *)ctx; /* must become NULL */
        velstatus_error err;
        memset(&err, 0, sizeof(err));
        velstatus_status st = velstatus_bsl_set_from_json(&set, ctx, c->json, strlen(c->json), &err);
        ck_assert_msg(st == c->st, "case %zu: status %s", i, velstatus_status_name(st));
        ck_assert_ptr_null(set);
        ck_assert_msg(strcmp(err.message, c->msg) == 0, "case %zu: message \"%s\"", i, err.message);
        const char *at = strstr(c->json, c->at);
        ck_assert_ptr_nonnull(at);
        size_t off = (size_t)(at - c->json);
        uint32_t line = 1, col = 1;
        for (size_t k = 0; k < off; k++) {
            if (c->json[k] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        ck_assert_msg(err.offset == off && err.line == line && err.column == col,
                      "case %zu: at %llu (%u:%u), want %zu (%u:%u)", i, (unsigned long long)err.offset, err.line,
                      err.column, off, line, col);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(bsl_decode_null_members_are_absent_and_one_object_is_a_set)
{
    static const char one[] = "{\"metadata\":{\"name\":\"solo\",\"creationTimestamp\":null},"
                              "\"spec\":{\"default\":null,\"accessMode\":null},\"status\":null}";
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, one, sizeof(one) - 1, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "solo");
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 0), "");
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
    /* Never validated, not a default: pending, so Waiting. */
    ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_WAITING);
    ck_assert_uint_eq(velstatus_server_verdict_pending(v), 1);
    ck_assert_ptr_null(velstatus_server_verdict_default(v));
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(messages_quote_at_most_64_bytes_of_a_name)
{
    char name[100], token[100];
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    velstatus_server_status st;
    velstatus_server_reason r;
    memset(name, 'n', sizeof(name));
    memset(token, 't', sizeof(token));
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    const char *quoted64 = "\"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn\"";
    ck_assert_int_eq(
        velstatus_bsl_set_add(set, name, sizeof(name), NULL, 3, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
        VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, quoted64));
    ck_assert_int_eq(
        velstatus_bsl_set_add(set, name, sizeof(name), "A\0", 2, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
        VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, quoted64));
    ck_assert_int_eq(
        velstatus_bsl_set_add(set, name, sizeof(name), "", 0, 0, (velstatus_bsl_access)9, 0, 0, 0, 0, &err),
        VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, quoted64));
    ck_assert_ptr_nonnull(strstr(err.message, "is 9"));
    ck_assert_int_eq(
        velstatus_bsl_set_add(set, name, sizeof(name), "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(
        velstatus_bsl_set_add(set, name, sizeof(name), "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
        VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, quoted64));
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_int_eq(velstatus_server_status_from_string(&st, token, sizeof(token), &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "\"tttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt\""));
    ck_assert_int_eq(velstatus_server_reason_from_string(&r, token, sizeof(token), &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "\"tttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt\""));
    ck_assert_ptr_null(velstatus_bsl_set_phase(NULL, 0));
    ck_assert_ptr_null(velstatus_bsl_set_message(NULL, 0));
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(tracker_and_verdict_argument_checks)
{
    velstatus_ctx *ctx = NULL;
    velstatus_server_tracker *t = NULL;
    velstatus_server_verdict *v = NULL;
    velstatus_error err;
    int changed = -1;
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_server_tracker_new(&t, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &changed, NULL, 3, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &changed, NULL, 0, &err), VELSTATUS_OK);
    ck_assert_int_eq(changed, 0);
    ck_assert_int_eq(velstatus_server_tracker_verdict(NULL, t, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_verdict(&v, t, &err), VELSTATUS_OK);
    /* Not exactly one reason flag, or an index past the list: nothing. */
    ck_assert_uint_eq(velstatus_server_verdict_name_count(v, VELSTATUS_SERVER_REASON_NO_BSL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_name_count(NULL, VELSTATUS_SERVER_REASON_NO_BSL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_name_count(v, (velstatus_server_reason)3), 0);
    ck_assert_ptr_null(velstatus_server_verdict_name(v, (velstatus_server_reason)3, 0));
    ck_assert_ptr_null(velstatus_server_verdict_name(NULL, VELSTATUS_SERVER_REASON_NO_BSL, 0));
    ck_assert_ptr_null(velstatus_server_verdict_name(v, VELSTATUS_SERVER_REASON_NO_BSL, 0));
    velstatus_server_verdict_free(v);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The model's best default: the newest creationTimestamp, then the
 * byte-wise smallest name; -1 when none. */
static int model_default(const int *present, const int *is_default, const int *created, char names[][40], int pool)
{
    int best = -1;
    for (int i = 0; i < pool; i++)
        if (present[i] && is_default[i] &&
            (best < 0 || created[i] > created[best] ||
             (created[i] == created[best] && strcmp(names[i], names[best]) < 0)))
            best = i;
    return best;
}

/* A model check of the tracker's table: random upserts and deletes of names
 * drawn from a small pool (so slots collide and wrap around the table, and
 * entries move as the table grows and as deletions shift them back), each
 * checked against a plain presence array; in the last two passes the names
 * are too long to be kept inside an entry (16 bytes or more), and random
 * BSLs are defaults with random creation times: the verdict's default must
 * be the model's best one whatever moved (the default heap keeps table
 * indexes). */
START_TEST(tracker_matches_a_model_under_random_upserts_and_deletes)
{
    enum { POOL = 97 };
    velstatus_ctx *ctx = NULL;
    ctx = vs_test_ctx();
    uint32_t x = 12345;
    long rounds = vs_test_iterations(20000);
    static char names[POOL][40];
    for (int pass = 0; pass < 4; pass++) {
        velstatus_server_tracker *t = NULL;
        int present[POOL] = {0}, is_default[POOL] = {0}, created[POOL] = {0};
        size_t n = 0;
        for (int i = 0; i < POOL; i++)
            snprintf(names[i], sizeof(names[i]), pass < 2 ? "b%d" : "backup-storage-location-%d", i);
        ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
        for (long k = 0; k < rounds; k++) {
            x = x * 1103515245u + 12345u;
            int i = (int)((x >> 8) % POOL);
            size_t len = strlen(names[i]);
            int del = (x >> 4) % (pass % 2 ? 3 : 2) == 0;
            if (del) {
                ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, names[i], len, NULL), VELSTATUS_OK);
                n -= (size_t)present[i];
                present[i] = 0;
            } else {
                is_default[i] = pass >= 2 && (x >> 20) % 4 == 0;
                created[i] = (int)((x >> 24) % 8);
                ck_assert_int_eq(vs_test_upsert(t, NULL, names[i], len, "Available", 9, is_default[i],
                                                VELSTATUS_BSL_READ_WRITE, 1, (int64_t)created[i] * 1000000000, 0, 0,
                                                NULL),
                                 VELSTATUS_OK);
                n += (size_t)!present[i];
                present[i] = 1;
            }
            ck_assert_uint_eq(velstatus_server_tracker_count(t), n);
            if (pass >= 2 && k % 61 == 0) {
                velstatus_server_verdict *v = NULL;
                int want = model_default(present, is_default, created, names, POOL);
                const char *got;
                ck_assert_int_eq(velstatus_server_tracker_verdict(&v, t, NULL), VELSTATUS_OK);
                got = velstatus_server_verdict_default(v);
                if (want < 0)
                    ck_assert_ptr_null(got);
                else
                    ck_assert_str_eq(got, names[want]);
                velstatus_server_verdict_free(v);
            }
        }
        velstatus_server_tracker_free(t);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* One event of the replay check: name k of the pool upserted (a default
 * with a creation time when `dflt`) or deleted, the model kept beside it. */
static void replay_event(velstatus_server_tracker *t, int k, int del, int dflt, int *present, int *is_default,
                         int *created, char names[][40], size_t *n)
{
    size_t len = strlen(names[k]);
    if (del) {
        ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, names[k], len, NULL), VELSTATUS_OK);
        *n -= (size_t)present[k];
        present[k] = 0;
        return;
    }
    is_default[k] = dflt;
    created[k] = (k * 7) % 11;
    ck_assert_int_eq(vs_test_upsert(t, NULL, names[k], len, "Available", 9, dflt, VELSTATUS_BSL_READ_WRITE, 1,
                                    (int64_t)created[k] * 1000000000, 0, 0, NULL),
                     VELSTATUS_OK);
    *n += (size_t)!present[k];
    present[k] = 1;
}

/* The tracker learns the order of its events to fetch the next BSL ahead
 * and looks where it guesses before probing (server_status.c, vs_order). A
 * guess is a table index that the table's growth, deletions (an entry
 * shifted back) and a changed order make stale: the pool is replayed in
 * one order, then in another, with names deleted out of turn in the
 * middle of each pass (a deleted BSL's slot keeps its old bytes, and the
 * guess for its next turn points there), names short and long, while
 * the table grows from empty to 600 names. Each count is the model's, the
 * verdict's default the model's best, and every name the model holds is
 * found at the end (each deletion drops the count by one). */
START_TEST(tracker_replayed_orders_match_a_model)
{
    enum { POOL = 600, PASSES = 12 };
    static char names[POOL][40];
    static int present[POOL], is_default[POOL], created[POOL];
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    uint32_t x = 777;
    size_t n = 0;
    for (int i = 0; i < POOL; i++)
        snprintf(names[i], sizeof(names[i]), i % 3 ? "b%d" : "backup-storage-location-%d", i);
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    for (int pass = 0; pass < PASSES; pass++) {
        int size = pass < 3 ? 200 * (pass + 1) : POOL; /* grows in the first passes */
        for (int j = 0; j < size; j++) {
            int k = pass % 4 == 3 ? size - 1 - j : j; /* every fourth pass backwards */
            x = x * 1103515245u + 12345u;
            replay_event(t, k, 0, (x >> 16) % 9 == 0, present, is_default, created, names, &n);
            if (pass >= 3 && (x >> 8) % 13 == 0) /* another name deleted: its slot keeps its bytes */
                replay_event(t, (int)((x >> 20) % POOL), 1, 0, present, is_default, created, names, &n);
            ck_assert_uint_eq(velstatus_server_tracker_count(t), n);
        }
        velstatus_server_verdict *v = NULL;
        int want = model_default(present, is_default, created, names, POOL);
        ck_assert_int_eq(velstatus_server_tracker_verdict(&v, t, NULL), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_server_verdict_total(v), n);
        if (want < 0)
            ck_assert_ptr_null(velstatus_server_verdict_default(v));
        else
            ck_assert_str_eq(velstatus_server_verdict_default(v), names[want]);
        velstatus_server_verdict_free(v);
    }
    for (int k = 0; k < POOL; k++) {
        replay_event(t, k, 1, 0, present, is_default, created, names, &n);
        ck_assert_uint_eq(velstatus_server_tracker_count(t), n);
    }
    ck_assert_uint_eq(n, 0);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

/* An upsert of a tracked name rewrites its entry in place, whatever the
 * length of its new texts (the tracker keeps none but the name); an
 * allocation failure (the default heap's room) leaves the tracker as it was. */
START_TEST(tracker_upsert_in_place_or_grown_fails_cleanly)
{
    static const struct {
        const char *phase;
        int is_default;
        velstatus_server_status want;
    } up[] = {
        {"Available", 1, VELSTATUS_SERVER_PARTIALLY_READY},      /* in place, the heap grows */
        {"Unavailable-and-longer", 1, VELSTATUS_SERVER_WAITING}, /* a longer phase: in place too */
        {"Available", 0, VELSTATUS_SERVER_PARTIALLY_READY},      /* nothing to allocate */
    };
    for (size_t k = 0; k < sizeof(up) / sizeof(up[0]); k++) {
        velstatus_status st;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_server_tracker *t = NULL;
            velstatus_server_status before;
            int ch = 0;
            VS_FAILALLOC_PAUSE(fa);
            ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
            ck_assert_int_eq(
                vs_test_upsert(t, NULL, "b", 1, "Unknown", 7, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                VELSTATUS_OK);
            ck_assert_int_eq(
                vs_test_upsert(t, NULL, "a", 1, "Unavailable", 11, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                VELSTATUS_OK);
            before = velstatus_server_tracker_status(t);
            ck_assert_int_eq(before, VELSTATUS_SERVER_WAITING);
            VS_FAILALLOC_RESUME(fa);
            st = vs_test_upsert(t, &ch, "a", 1, up[k].phase, strlen(up[k].phase), up[k].is_default,
                                VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL);
            VS_FAILALLOC_PAUSE_AGAIN(fa);
            ck_assert_uint_eq(velstatus_server_tracker_count(t), 2);
            if (st == VELSTATUS_OK) {
                ck_assert_int_eq(velstatus_server_tracker_status(t), up[k].want);
                if (up[k].want != before)
                    ck_assert_int_eq(ch, 1); /* (the reasons may change too) */
                /* the rewritten entry is still found by its name */
                ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, "a", 1, NULL), VELSTATUS_OK);
                ck_assert_uint_eq(velstatus_server_tracker_count(t), 1);
            } else {
                ck_assert_int_eq(velstatus_server_tracker_status(t), before);
                ck_assert_int_eq(ch, 0);
            }
            velstatus_server_tracker_free(t);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
}
END_TEST

static int empty_list(void *ud, velstatus_bsls_reply *reply)
{
    (void)ud;
    (void)reply; /* unanswered: reads as the empty text */
    return 0;
}

START_TEST(step_without_publish_or_outputs)
{
    velstatus_ctx *ctx = NULL;
    vs_fake_host sh;
    velstatus_error err;
    ctx = vs_test_ctx();
    vs_fake_host_init(&sh);
    velstatus_server_status_host h = slots_vtable(&sh);
    h.publish = NULL;
    ck_assert_int_eq(velstatus_server_status_step(NULL, NULL, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    h = slots_vtable(&sh);
    /* No output wanted: the step still publishes. */
    ck_assert_int_eq(velstatus_server_status_step(NULL, NULL, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(sh.publishes, 1);
    /* A publish that keeps failing, with no error struct. */
    sh.fail_first = 1000;
    vs_fake_retry_classify_all(&sh.retry, VELSTATUS_RETRY_CLASS_TERMINAL);
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
    pol.retry_classify_errors = 1;
    velstatus_server_status_options o;
    velstatus_server_status_options_init(&o, sizeof(o));
    ck_assert_int_eq(velstatus_server_status_step(NULL, NULL, ctx, &h, &o, &pol, NULL), VELSTATUS_E_HOST);
    /* An unanswered list_bsls reads as the empty text: not JSON. */
    h.list_bsls = empty_list;
    ck_assert_int_eq(velstatus_server_status_step(NULL, NULL, ctx, &h, NULL, NULL, &err), VELSTATUS_E_PARSE);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(bsl_decode_refuses_text_after_the_value_and_ignores_long_keys)
{
    static const char nul_after[] = "[]\0";
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    char json[512], key[200];
    ctx = vs_test_ctx();
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, "[] x", 4, &err), VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.offset, 3);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, nul_after, 3, &err), VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.offset, 2);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, NULL, 2, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(set);
    /* A key longer than any the decoder knows is an unknown key, ignored. */
    memset(key, 'k', 150);
    key[150] = '\0';
    snprintf(json, sizeof(json), "[{\"%s\":1,\"metadata\":{\"name\":\"a\",\"%s\":2}}]", key, key);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, json, strlen(json), &err), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "a");
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("server_status_edges");
    TCase *tc = tcase_create("server_status_edges");
    tcase_add_test(tc, step_publish_retries_use_every_host_slot);
    tcase_add_test(tc, step_rejects_null_text_with_a_length);
    tcase_add_test(tc, bsl_set_add_checks_its_texts);
    tcase_add_test(tc, status_and_reason_parsers_reject_null_text);
    tcase_add_test(tc, tracker_deletes_in_any_order_keep_every_name_findable);
    tcase_add_test(tc, bsl_decode_errors_name_the_path_and_position);
    tcase_add_test(tc, bsl_decode_null_members_are_absent_and_one_object_is_a_set);
    tcase_add_test(tc, messages_quote_at_most_64_bytes_of_a_name);
    tcase_add_test(tc, tracker_and_verdict_argument_checks);
    tcase_add_test(tc, tracker_matches_a_model_under_random_upserts_and_deletes);
    tcase_add_test(tc, tracker_upsert_in_place_or_grown_fails_cleanly);
    tcase_add_test(tc, tracker_replayed_orders_match_a_model);
    tcase_add_test(tc, step_without_publish_or_outputs);
    tcase_add_test(tc, bsl_decode_refuses_text_after_the_value_and_ignores_long_keys);
    suite_add_tcase(s, tc);
    return s;
}
