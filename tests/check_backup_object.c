/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus_backup_list_from_json (Backups and Restores as Kubernetes'
 * decoder reads them: the last repeated key wins, keys unescaped and matched
 * case-sensitively, null leaves a field as it was; Lists, arrays, skipped
 * kinds; every field; errors with their position; allocation failures),
 * velstatus_backup_conditions_of (the kstatus-style rule, every phase) and
 * velstatus_watch_event_from_json / velstatus_json_value_end. */
#include <string.h>

#include <velstatus.h>

#include "failalloc.h"
#include "harness.h"


/* The one object of json, decoded (asserted OK, one object). */
static velstatus_backup_list *one(const char *json)
{
    velstatus_backup_list *l = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_backup_list_from_json(&l, vs_tctx, json, VELSTATUS_NUL_TERMINATED, &err);
    ck_assert_msg(st == VELSTATUS_OK, "%s: %s", json, err.message);
    ck_assert_uint_eq(velstatus_backup_list_count(l), 1);
    return l;
}

static void expect_phase(const char *json, const char *want)
{
    velstatus_backup_list *l = one(json);
    size_t len = 0;
    const char *p = velstatus_backup_list_phase(l, 0, &len);
    if (!want) {
        ck_assert_msg(!p, "%s: phase %s, want none", json, p);
    } else {
        ck_assert_msg(p && len == strlen(want) && memcmp(p, want, len) == 0, "%s: phase %s, want %s", json,
                      p ? p : "(none)", want);
    }
    velstatus_backup_list_free(l);
}

/* The three reproductions, and the rest of the key semantics. */
START_TEST(keys_as_kubernetes_reads_them)
{
    /* a repeated key: the last one wins (Go's decoder; kubectl and Velero read Completed) */
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":\"Failed\",\"phase\":\"Completed\"}}", "Completed");
    /* an escaped key is its unescaped text */
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"\\u0070hase\":\"Completed\"}}", "Completed");
    expect_phase("{\"\\u006bind\":\"Backup\",\"status\":{\"phase\":\"Completed\"}}", "Completed");
    /* null leaves the earlier value; a repeated status object merges into the earlier one */
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":\"Failed\",\"phase\":null}}", "Failed");
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":\"Failed\"},\"status\":{\"errors\":1}}", "Failed");
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":\"Failed\"},\"status\":null}", "Failed");
    /* case-sensitive (sigs.k8s.io/json): Phase is not phase */
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"Phase\":\"Completed\"}}", NULL);
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":null}}", NULL);
    expect_phase("{\"kind\":\"Backup\"}", NULL);
    expect_phase("{\"kind\":\"Backup\",\"status\":{\"phase\":\"\"}}", "");
}
END_TEST

START_TEST(every_field)
{
    const char *json =
        "{\"kind\":\"Restore\",\"metadata\":{\"name\":\"r\\u0000x\",\"namespace\":\"velero\","
        "\"deletionTimestamp\":\"2026-01-01T00:00:01Z\",\"finalizers\":[\"a\",null,\"c\"],\"generation\":7},"
        "\"spec\":{\"storageLocation\":\"default\",\"itemOperationTimeout\":\"4h0m0s\",\"backupName\":\"b\"},"
        "\"status\":{\"phase\":\"PartiallyFailed\",\"failureReason\":\"\",\"errors\":3,\"warnings\":-2,"
        "\"restoreItemOperationsCompleted\":5,\"restoreItemOperationsFailed\":1,\"backupItemOperationsFailed\":9}}";
    velstatus_backup_list *l = one(json);
    size_t len;
    int64_t v;
    ck_assert_int_eq(velstatus_backup_list_kind(l, 0), VELSTATUS_KIND_RESTORE);
    ck_assert_int_eq(memcmp(velstatus_backup_list_name(l, 0, &len), "r\0x", 3), 0);
    ck_assert_uint_eq(len, 3);
    ck_assert_str_eq(velstatus_backup_list_namespace(l, 0, NULL), "velero");
    ck_assert_int_eq(velstatus_backup_list_deletion_time(l, 0, &v), 1);
    ck_assert_int_eq(v, INT64_C(1767225601000000000));
    ck_assert_uint_eq(velstatus_backup_list_finalizer_count(l, 0), 3);
    ck_assert_str_eq(velstatus_backup_list_finalizer(l, 0, 1, &len), "");
    ck_assert_str_eq(velstatus_backup_list_finalizer(l, 0, 2, NULL), "c");
    ck_assert_ptr_null(velstatus_backup_list_finalizer(l, 0, 3, NULL));
    ck_assert_int_eq(velstatus_backup_list_generation(l, 0, &v), 1);
    ck_assert_int_eq(v, 7);
    ck_assert_str_eq(velstatus_backup_list_storage_location(l, 0, NULL), "default");
    ck_assert_str_eq(velstatus_backup_list_item_operation_timeout(l, 0, NULL), "4h0m0s");
    ck_assert_str_eq(velstatus_backup_list_backup_name(l, 0, NULL), "b");
    ck_assert_str_eq(velstatus_backup_list_failure_reason(l, 0, &len), "");
    ck_assert_int_eq(velstatus_backup_list_errors(l, 0, &v) && v == 3, 1);
    ck_assert_int_eq(velstatus_backup_list_warnings(l, 0, &v) && v == -2, 1);
    ck_assert_int_eq(velstatus_backup_list_item_operations_completed(l, 0, &v) && v == 5, 1);
    ck_assert_int_eq(velstatus_backup_list_item_operations_failed(l, 0, &v) && v == 1, 1); /* not backup's 9 */
    /* out of range and NULL */
    ck_assert_int_eq(velstatus_backup_list_kind(l, 1), VELSTATUS_KIND_INVALID);
    ck_assert_ptr_null(velstatus_backup_list_name(l, 1, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(velstatus_backup_list_generation(l, 1, &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_uint_eq(velstatus_backup_list_count(NULL), 0);
    velstatus_backup_list_free(l);
    velstatus_backup_list_free(NULL);
    /* absent fields */
    l = one("{\"kind\":\"Backup\",\"metadata\":{\"deletionTimestamp\":null},\"spec\":{\"backupName\":\"x\"}}");
    ck_assert_ptr_null(velstatus_backup_list_name(l, 0, NULL));
    ck_assert_ptr_null(velstatus_backup_list_backup_name(l, 0, NULL)); /* a Backup has none */
    ck_assert_int_eq(velstatus_backup_list_deletion_time(l, 0, NULL), 0);
    ck_assert_int_eq(velstatus_backup_list_errors(l, 0, NULL), 0);
    ck_assert_uint_eq(velstatus_backup_list_finalizer_count(l, 0), 0);
    velstatus_backup_list_free(l);
}
END_TEST

START_TEST(lists_arrays_and_skipped_kinds)
{
    static const struct {
        const char *json;
        size_t count, skipped;
    } cases[] = {
        {"{\"kind\":\"BackupList\",\"items\":[{\"kind\":\"Backup\"},{\"kind\":\"Restore\"}]}", 2, 0},
        {"{\"kind\":\"List\",\"items\":[{\"kind\":\"Backup\"},{\"kind\":\"Schedule\"},3,{}]}", 1, 3},
        {"{\"items\":[]}", 0, 0},
        {"{\"kind\":\"Backup\",\"metadata\":{\"finalizers\":[]}}", 1, 0},
        {"{\"kind\":\"Restore\",\"metadata\":{\"finalizers\":[null,\"a\"]}}", 1, 0},
        {"[{\"kind\":\"Restore\"},{\"kind\":\"backup\"}]", 1, 1},
        {"{\"kind\":\"Schedule\",\"status\":\"not checked\"}", 0, 1},
        {"{\"metadata\":{\"name\":\"x\"}}", 0, 1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_backup_list *l = NULL;
        velstatus_error err;
        ck_assert_msg(velstatus_backup_list_from_json(&l, vs_tctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err) ==
                          VELSTATUS_OK,
                      "%s: %s", cases[i].json, err.message);
        ck_assert_msg(velstatus_backup_list_count(l) == cases[i].count, "%s: count", cases[i].json);
        ck_assert_msg(velstatus_backup_list_skipped(l) == cases[i].skipped, "%s: skipped", cases[i].json);
        velstatus_backup_list_free(l);
    }
    {
        velstatus_backup_list *l = one("{\"kind\":\"Restore\",\"metadata\":{\"finalizers\":[null,\"a\"]}}");
        ck_assert_uint_eq(velstatus_backup_list_finalizer_count(l, 0), 2);
        ck_assert_str_eq(velstatus_backup_list_finalizer(l, 0, 0, NULL), "");
        ck_assert_str_eq(velstatus_backup_list_finalizer(l, 0, 1, NULL), "a");
        ck_assert_ptr_null(velstatus_backup_list_finalizer(l, 0, 2, NULL));
        ck_assert_uint_eq(velstatus_backup_list_finalizer_count(l, 1), 0);
        velstatus_backup_list_free(l);
        l = one("{\"kind\":\"Backup\",\"metadata\":{\"finalizers\":[]}}");
        ck_assert_uint_eq(velstatus_backup_list_finalizer_count(l, 0), 0);
        velstatus_backup_list_free(l);
    }
}
END_TEST

START_TEST(errors_name_the_field_and_position)
{
    static const struct {
        const char *json, *at, *msg;
        velstatus_status st;
    } cases[] = {
        {"{\"kind\":\"Backup\",\"status\":{\"phase\":5}}", "5}", "status.phase: expected a string, got a number",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":[]}", "[]", "status: expected an object, got an array", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"metadata\":{\"generation\":1.5}}", "1.5",
         "metadata.generation: expected an integer, got a number with a fraction or exponent", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"metadata\":{\"deletionTimestamp\":\"2026-13-01T00:00:00Z\"}}", "13-",
         "metadata.deletionTimestamp: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"items\":[{\"kind\":\"Backup\",\"metadata\":{\"finalizers\":[\"a\",1]}}]}", "1]",
         "items[0].metadata.finalizers[1]: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"metadata\":{\"namespace\":5}}", "5}",
         "metadata.namespace: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"metadata\":{\"finalizers\":\"f\"}}", "\"f\"",
         "metadata.finalizers: expected an array, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"spec\":{\"storageLocation\":true}}", "true", "spec.storageLocation: expected a string",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"spec\":{\"itemOperationTimeout\":[]}}", "[]",
         "spec.itemOperationTimeout: expected a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Restore\",\"spec\":{\"backupName\":{}}}", "{}}", "spec.backupName: expected a string",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"failureReason\":1}}", "1}", "status.failureReason: expected a string",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"errors\":\"x\"}}", "\"x\"",
         "status.errors: expected an integer, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"warnings\":true}}", "true", "status.warnings: expected an integer",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"backupItemOperationsCompleted\":1.5}}", "1.5",
         "status.backupItemOperationsCompleted: expected an integer", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"backupItemOperationsFailed\":1e3}}", "1e3",
         "status.backupItemOperationsFailed: expected an integer", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Restore\",\"status\":{\"restoreItemOperationsCompleted\":[]}}", "[]",
         "status.restoreItemOperationsCompleted: expected an integer", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Restore\",\"status\":{\"restoreItemOperationsFailed\":\"2\"}}", "\"2\"",
         "status.restoreItemOperationsFailed: expected an integer", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"PodList\",\"items\":[]}", "\"PodList\"", "kind: expected \"List\", \"BackupList\" or",
         VELSTATUS_E_SCHEMA},
        {"{\"items\":[{\"kind\":5}]}", "5}", "items[0].kind: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":[],\"items\":[]}", "[],", "kind: expected a string, got an array", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL\",\"items\":[]}",
         "\"LLL", "kind: expected \"List\", \"BackupList\" or", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",\"status\":{\"errors\":2E3}}", "2E3",
         "status.errors: expected an integer, got a number with a fraction or exponent", VELSTATUS_E_SCHEMA},
        {"{\"items\":null}", "null", "items: expected an array, got null", VELSTATUS_E_SCHEMA},
        {"\"Backup\"", "\"Backup\"", "expected a List, an array or a Backup or Restore", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"Backup\",} ", ",}", "invalid JSON", VELSTATUS_E_PARSE},
        {"{\"kind\":\"Backup\",\"status\":{\"errors\":1e999}}", "1e999", "invalid JSON", VELSTATUS_E_RANGE},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_backup_list *l = (velstatus_backup_list *)1;
        velstatus_error err;
        velstatus_status st =
            velstatus_backup_list_from_json(&l, vs_tctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err);
        const char *at = cases[i].json + (strstr(cases[i].json, cases[i].at) - cases[i].json);
        ck_assert_msg(st == cases[i].st, "%s: status %d", cases[i].json, (int)st);
        ck_assert_ptr_null(l);
        ck_assert_msg(strstr(err.message, cases[i].msg), "%s: message \"%s\"", cases[i].json, err.message);
        if (st == VELSTATUS_E_SCHEMA)
            vs_test_assert_position(&err, cases[i].json, at);
    }
    ck_assert_uint_eq(velstatus_backup_list_count(NULL), 0);
    ck_assert_uint_eq(velstatus_backup_list_skipped(NULL), 0);
    ck_assert_int_eq(velstatus_backup_list_from_json(NULL, vs_tctx, "{}", 2, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_backup_list_from_json((velstatus_backup_list **)&cases, NULL, "{}", 2, NULL),
                     VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(decoder_allocation_failures)
{
    const char *json = "{\"kind\":\"List\",\"items\":[{\"kind\":\"Backup\",\"metadata\":{\"name\":\"n\\u0041\","
                       "\"finalizers\":[\"f\\u0041\",\"g\"]},\"status\":{\"\\u0070hase\":\"Completed\","
                       "\"failureReason\":\"x\\ny\"}},{\"kind\":\"Restore\",\"metadata\":{\"name\":\"r\"}}]}";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_backup_list *l = NULL;
        st = velstatus_backup_list_from_json(&l, ctx, json, VELSTATUS_NUL_TERMINATED, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(velstatus_backup_list_count(l), 2);
            ck_assert_str_eq(velstatus_backup_list_name(l, 0, NULL), "nA");
            ck_assert_str_eq(velstatus_backup_list_finalizer(l, 0, 0, NULL), "fA");
            ck_assert_str_eq(velstatus_backup_list_phase(l, 0, NULL), "Completed");
        } else {
            ck_assert_ptr_null(l);
        }
        velstatus_backup_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* The conditions of every phase of both kinds (the table of doc/cli.md). */
START_TEST(conditions_every_phase)
{
    for (int k = 0; k < 2; k++) {
        velstatus_kind kind = k ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
        /* every phase token the library has, Backup's and Restore's alike */
        for (int i = 0; i <= (int)VELSTATUS_PHASE_DELETING; i++) {
            const char *p = velstatus_phase_to_string((velstatus_phase)i);
            velstatus_backup_conditions c;
            int valid = velstatus_phase_valid(kind, (velstatus_phase)i);
            int done = strcmp(p, "Completed") == 0;
            int stalled =
                strcmp(p, "Failed") == 0 || strcmp(p, "PartiallyFailed") == 0 || strcmp(p, "FailedValidation") == 0;
            velstatus_backup_conditions_init(&c, sizeof(c));
            ck_assert_int_eq(velstatus_backup_conditions_of(&c, kind, p, VELSTATUS_NUL_TERMINATED, 0, NULL, NULL),
                             VELSTATUS_OK);
            ck_assert_msg(c.phase_valid == valid && c.phase_in_release == 1, "%d %s: valid", k, p);
            if (!valid) {
                ck_assert_msg(c.ready == VELSTATUS_CONDITION_UNKNOWN && c.stalled == VELSTATUS_CONDITION_UNKNOWN &&
                                  strcmp(c.reason, "UnknownPhase") == 0,
                              "%d %s: unknown", k, p);
                continue;
            }
            ck_assert_msg(c.ready == (done ? VELSTATUS_CONDITION_TRUE : VELSTATUS_CONDITION_FALSE), "%d %s: ready", k,
                          p);
            ck_assert_msg(c.reconciling == (done || stalled ? VELSTATUS_CONDITION_FALSE : VELSTATUS_CONDITION_TRUE),
                          "%d %s: reconciling", k, p);
            ck_assert_msg(c.stalled == (stalled ? VELSTATUS_CONDITION_TRUE : VELSTATUS_CONDITION_FALSE),
                          "%d %s: stalled", k, p);
            ck_assert_msg(c.reason_len == strlen(p) && memcmp(c.reason, p, c.reason_len) == 0, "%d %s: reason", k, p);
        }
    }
}
END_TEST

START_TEST(conditions_reasons_release_and_arguments)
{
    velstatus_backup_conditions c;
    velstatus_policy pol;
    velstatus_error err;
    velstatus_backup_conditions_init(&c, sizeof(c));
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, NULL, 0, 0, NULL, NULL), VELSTATUS_OK);
    ck_assert_str_eq(c.reason, "NoStatus");
    ck_assert_int_eq(c.reconciling, VELSTATUS_CONDITION_TRUE);
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, "", 0, 0, NULL, NULL), VELSTATUS_OK);
    ck_assert_str_eq(c.reason, "New");
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, "Failed", 6, 1, NULL, NULL),
                     VELSTATUS_OK);
    ck_assert_str_eq(c.reason, "Deleting");
    ck_assert_int_eq(c.stalled, VELSTATUS_CONDITION_FALSE);
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, "Exploded", 8, 0, NULL, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(c.phase_valid, 0);
    ck_assert_str_eq(c.reason, "UnknownPhase");
    /* Queued is a backup phase from Velero 1.18 */
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, 17, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, "Queued", 6, 0, &pol, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(c.phase_valid, 1);
    ck_assert_int_eq(c.phase_in_release, 0);
    ck_assert_int_eq(c.ready, VELSTATUS_CONDITION_UNKNOWN);
    ck_assert_str_eq(velstatus_condition_status_to_string(VELSTATUS_CONDITION_UNKNOWN), "Unknown");
    ck_assert_ptr_null(velstatus_condition_status_to_string(VELSTATUS_CONDITION_INVALID));
    ck_assert_int_eq(velstatus_backup_conditions_of(NULL, VELSTATUS_KIND_BACKUP, NULL, 0, 0, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_INVALID, NULL, 0, 0, NULL, &err),
                     VELSTATUS_E_INVALID);
    c.struct_size = 4;
    ck_assert_int_eq(velstatus_backup_conditions_of(&c, VELSTATUS_KIND_BACKUP, NULL, 0, 0, NULL, &err),
                     VELSTATUS_E_ABI);
}
END_TEST

static velstatus_watch_event *event(const char *json)
{
    velstatus_watch_event *ev = NULL;
    velstatus_error err;
    ck_assert_msg(velstatus_watch_event_from_json(&ev, vs_tctx, json, VELSTATUS_NUL_TERMINATED, &err) == VELSTATUS_OK,
                  "%s: %s", json, err.message);
    return ev;
}

START_TEST(watch_events)
{
    const char *json = "{\"type\":\"ADDED\",\"object\":{\"a\":1},\"type\":\"DELETED\",\"object\":{\"b\":2}}";
    velstatus_watch_event *ev = event(json);
    size_t off, len;
    int64_t code;
    /* the last type and the last object (Go's decoder) */
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_DELETED);
    len = velstatus_watch_event_object(ev, &off);
    ck_assert_int_eq(strncmp(json + off, "{\"b\":2}", len), 0);
    ck_assert_uint_eq(len, 7);
    velstatus_watch_event_free(ev);
    ev = event("{\"\\u0074ype\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"reason\":\"Expired\",\"message\":"
               "\"too \\u003cold\",\"code\":410}}");
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_ERROR);
    ck_assert_str_eq(velstatus_watch_event_reason(ev, &len), "Expired");
    ck_assert_str_eq(velstatus_watch_event_message(ev, NULL), "too <old");
    ck_assert_int_eq(velstatus_watch_event_code(ev, &code), 1);
    ck_assert_int_eq(code, 410);
    velstatus_watch_event_free(ev);
    ev = event(" {\"kind\":\"Status\",\"message\":\"gone\"}");
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_ERROR);
    ck_assert_int_eq(velstatus_watch_event_code(ev, &code), 0);
    ck_assert_uint_eq(velstatus_watch_event_object(ev, &off), strlen("{\"kind\":\"Status\",\"message\":\"gone\"}"));
    ck_assert_uint_eq(off, 1);
    velstatus_watch_event_free(ev);
    ev = event("{\"kind\":\"Backup\",\"type\":null}");
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_OBJECT);
    ck_assert_ptr_null(velstatus_watch_event_reason(ev, NULL));
    velstatus_watch_event_free(ev);
    ck_assert_str_eq(velstatus_watch_type_to_string(VELSTATUS_WATCH_BOOKMARK), "BOOKMARK");
    ck_assert_int_eq(velstatus_watch_event_type(NULL), VELSTATUS_WATCH_INVALID);
}
END_TEST

START_TEST(watch_event_errors)
{
    static const struct {
        const char *json, *at, *msg;
    } cases[] = {
        {"{\"type\":\"SYNC\",\"object\":{}}", "\"SYNC\"", "type: expected \"ADDED\""},
        {"{\"type\":\"Added\",\"object\":{}}", "\"Added\"", "got \"Added\""},
        {"{\"type\":7}", "7}", "type: expected a string, got a number"},
        {"{\"type\":\"ADDED\"}", "{", "object: missing"},
        {"{\"type\":\"ADDED\",\"object\":[]}", "[]", "object: expected an object, got an array"},
        {"{\"type\":\"ERROR\",\"object\":{\"code\":\"410\"}}", "\"410\"", "object.code: expected an integer"},
        {"[]", "[]", "expected a watch event or an object, got an array"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_watch_event *ev = NULL;
        velstatus_error err;
        ck_assert_int_eq(velstatus_watch_event_from_json(&ev, vs_tctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err),
                         VELSTATUS_E_SCHEMA);
        ck_assert_ptr_null(ev);
        ck_assert_msg(strstr(err.message, cases[i].msg), "%s: message \"%s\"", cases[i].json, err.message);
        vs_test_assert_position(&err, cases[i].json, strstr(cases[i].json, cases[i].at));
    }
}
END_TEST

START_TEST(watch_event_allocation_failures)
{
    const char *json = "{\"type\":\"ERROR\",\"object\":{\"reason\":\"Expired\",\"message\":\"too old\"}}";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_watch_event *ev = NULL;
        st = velstatus_watch_event_from_json(&ev, ctx, json, VELSTATUS_NUL_TERMINATED, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_str_eq(velstatus_watch_event_message(ev, NULL), "too old");
        else
            ck_assert_ptr_null(ev);
        velstatus_watch_event_free(ev);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(value_end)
{
    size_t end = 0;
    int incomplete = -1;
    velstatus_error err;
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, "{\"a\":[1]} {", 11, &err), VELSTATUS_OK);
    ck_assert_uint_eq(end, 9);
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, "12x", 3, &err), VELSTATUS_OK);
    ck_assert_uint_eq(end, 2);
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, "{\"a\":\x01}", 7, &err), VELSTATUS_E_PARSE);
    ck_assert_uint_eq(err.offset, 5);
    ck_assert_int_eq(velstatus_json_value_end(&end, &incomplete, "{\"a\"", 4, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(incomplete, 1); /* more text may complete it */
    ck_assert_uint_eq(err.offset, 4);
    ck_assert_int_eq(velstatus_json_value_end(&end, &incomplete, "{\"a\":}", 6, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(incomplete, 0);                               /* no continuation mends it */
    ck_assert_int_ne(strncmp(err.message, "invalid JSON", 12), 0); /* the reason alone */
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, " 1", 2, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, "99999999999999999999", 20, &err), VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, NULL, 0, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_json_value_end(NULL, NULL, "1", 1, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_json_value_end(&end, NULL, NULL, 3, &err), VELSTATUS_E_INVALID);
}
END_TEST

/* Every getter answers for a NULL object, an index out of range and a NULL
 * output (doc/conventions.md §9.3: absent, never a crash); the tokens of the
 * two new enums both ways. */
typedef const char *(*text_getter)(const velstatus_backup_list *, size_t, size_t *);
typedef int (*int_getter)(const velstatus_backup_list *, size_t, int64_t *);

START_TEST(getters_without_an_object)
{
    static const text_getter texts[] = {velstatus_backup_list_name,
                                        velstatus_backup_list_namespace,
                                        velstatus_backup_list_phase,
                                        velstatus_backup_list_failure_reason,
                                        velstatus_backup_list_storage_location,
                                        velstatus_backup_list_item_operation_timeout,
                                        velstatus_backup_list_backup_name};
    static const int_getter ints[] = {velstatus_backup_list_deletion_time,
                                      velstatus_backup_list_generation,
                                      velstatus_backup_list_errors,
                                      velstatus_backup_list_warnings,
                                      velstatus_backup_list_item_operations_completed,
                                      velstatus_backup_list_item_operations_failed};
    velstatus_backup_list *l = NULL;
    velstatus_watch_type t = VELSTATUS_WATCH_INVALID;
    velstatus_condition_status cs = VELSTATUS_CONDITION_UNKNOWN;
    size_t len = 7, off = 7;
    int64_t v = 7;
    ck_assert_int_eq(
        velstatus_backup_list_from_json(&l, vs_tctx, "{\"kind\":\"Backup\"}", VELSTATUS_NUL_TERMINATED, NULL),
        VELSTATUS_OK);
    for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        len = 7;
        ck_assert_ptr_null(texts[k](NULL, 0, &len));
        ck_assert_uint_eq(len, 0);
        ck_assert_ptr_null(texts[k](l, 1, NULL)); /* out of range, no length wanted */
        (void)texts[k](l, 0, NULL);
    }
    for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
        v = 7;
        ck_assert_int_eq(ints[k](NULL, 0, &v), 0);
        ck_assert_int_eq(v, 0);
        ck_assert_int_eq(ints[k](l, 1, NULL), 0);
        ck_assert_int_eq(ints[k](l, 0, NULL), 0); /* absent in {"kind":"Backup"} */
    }
    ck_assert_uint_eq(velstatus_backup_list_finalizer_count(NULL, 0), 0);
    ck_assert_ptr_null(velstatus_backup_list_finalizer(NULL, 0, 0, &len));
    ck_assert_ptr_null(velstatus_backup_list_finalizer(l, 0, 0, NULL));
    velstatus_backup_list_free(l);
    ck_assert_uint_eq(velstatus_watch_event_object(NULL, &off), 0);
    ck_assert_uint_eq(off, 0);
    ck_assert_uint_eq(velstatus_watch_event_object(NULL, NULL), 0);
    ck_assert_ptr_null(velstatus_watch_event_reason(NULL, &len));
    ck_assert_ptr_null(velstatus_watch_event_message(NULL, NULL));
    ck_assert_int_eq(velstatus_watch_event_code(NULL, &v), 0);
    ck_assert_int_eq(velstatus_watch_event_type(NULL), VELSTATUS_WATCH_INVALID);
    ck_assert_str_eq(velstatus_watch_type_to_string(VELSTATUS_WATCH_ERROR), "ERROR");
    ck_assert_ptr_null(velstatus_watch_type_to_string((velstatus_watch_type)99));
    ck_assert_int_eq(velstatus_watch_type_from_string(&t, "DELETED", VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(t, VELSTATUS_WATCH_DELETED);
    ck_assert_int_eq(velstatus_watch_type_from_string(&t, "deleted", 7, NULL), VELSTATUS_E_INVALID);
    ck_assert_str_eq(velstatus_condition_status_to_string(VELSTATUS_CONDITION_TRUE), "True");
    ck_assert_int_eq(velstatus_condition_status_from_string(&cs, "False", 5, NULL), VELSTATUS_OK);
    ck_assert_int_eq(cs, VELSTATUS_CONDITION_FALSE);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("backup_object");
    TCase *tc = tcase_create("backup_object");
    tcase_add_checked_fixture(tc, vs_test_ctx_setup, vs_test_ctx_teardown);
    tcase_add_test(tc, keys_as_kubernetes_reads_them);
    tcase_add_test(tc, every_field);
    tcase_add_test(tc, lists_arrays_and_skipped_kinds);
    tcase_add_test(tc, errors_name_the_field_and_position);
    tcase_add_test(tc, decoder_allocation_failures);
    tcase_add_test(tc, conditions_every_phase);
    tcase_add_test(tc, conditions_reasons_release_and_arguments);
    tcase_add_test(tc, watch_events);
    tcase_add_test(tc, watch_event_errors);
    tcase_add_test(tc, watch_event_allocation_failures);
    tcase_add_test(tc, value_end);
    tcase_add_test(tc, getters_without_an_object);
    suite_add_tcase(s, tc);
    return s;
}
