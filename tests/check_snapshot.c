/* SPDX-License-Identifier: Apache-2.0 */
/* snapshot.h: the VolumeSnapshot / VolumeSnapshotContent decoder (fields,
 * Lists, arrays, watch streams, Go's pointer semantics, errors with their
 * position), the VolumeSnapshot plugin's Progress per release (the rows of
 * tests/data/releases/csi-volumesnapshot-progress.txt), the
 * VolumeSnapshotContent action's (csi-volumesnapshotcontent-progress.txt; Go's time.Parse
 * errors of go-rfc3339-errors.txt), the plugin client in a reconcile pass,
 * and every allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <velstatus.h>

#include "failalloc.h"
#include "harness.h"


#define NOW_TEXT "2024-05-01T12:00:00Z"

static velstatus_snapshot_list *decode(const char *json)
{
    velstatus_snapshot_list *l = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_snapshot_list_from_json(&l, vs_tctx, json, VELSTATUS_NUL_TERMINATED, &err);
    ck_assert_msg(st == VELSTATUS_OK, "%s: %s", json, err.message);
    return l;
}

static int text_is(const velstatus_snapshot_list *l, size_t i, velstatus_snapshot_field f, const char *want)
{
    size_t len = 0;
    const char *s = velstatus_snapshot_list_text(l, i, f, &len);
    if (!want)
        return !s;
    return s && len == strlen(want) && memcmp(s, want, len) == 0;
}

/* ---- the decoder ---- */

static const char vs_json[] =
    "{\"apiVersion\":\"snapshot.storage.k8s.io/v1\",\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"velero-"
    "data-0-x7k2p\",\"namespace\":\"app\",\"creationTimestamp\":\"2024-05-01T10:00:00Z\",\"labels\":{\"velero.io/"
    "backup-name\":\"nightly\"}},\"spec\":{\"source\":{\"persistentVolumeClaimName\":\"data-0\"},"
    "\"volumeSnapshotClassName\":\"csi-hostpath\"},\"status\":{\"boundVolumeSnapshotContentName\":\"snapcontent-1\","
    "\"creationTime\":\"2024-05-01T10:00:01Z\",\"readyToUse\":false,\"restoreSize\":\"10Gi\",\"error\":{\"message\":"
    "\"failed to take snapshot\",\"time\":\"2024-05-01T10:00:02Z\"}}}";

START_TEST(every_field_of_both_kinds)
{
    static const char vsc_json[] =
        "{\"apiVersion\":\"snapshot.storage.k8s.io/v1beta1\",\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":"
        "\"snapcontent-1\"},\"spec\":{\"deletionPolicy\":\"Retain\",\"driver\":\"hostpath.csi.k8s.io\",\"source\":{"
        "\"volumeHandle\":\"v1\"},\"volumeSnapshotClassName\":\"csi-hostpath\",\"volumeSnapshotRef\":{\"name\":"
        "\"velero-data-0-x7k2p\",\"namespace\":\"app\"}},\"status\":{\"creationTime\":1714557601000000000,"
        "\"readyToUse\":true,\"restoreSize\":10737418240,\"snapshotHandle\":\"snap-7\"}}";
    char buf[4096];
    velstatus_snapshot_list *l;
    int64_t v;
    int b;
    snprintf(buf, sizeof(buf), "[%s,%s]", vs_json, vsc_json);
    l = decode(buf);
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 2);
    ck_assert_int_eq(velstatus_snapshot_list_kind(l, 0), VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT);
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAME, "velero-data-0-x7k2p"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAMESPACE, "app"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_BACKUP_NAME_LABEL, "nightly"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_SOURCE_PVC, "data-0"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_CLASS_NAME, "csi-hostpath"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT, "snapcontent-1"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, "10Gi"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE, "failed to take snapshot"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_DRIVER, NULL));
    ck_assert(velstatus_snapshot_list_has_status(l, 0) && velstatus_snapshot_list_has_error(l, 0));
    ck_assert(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b) && !b);
    ck_assert(velstatus_snapshot_list_time(l, 0, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v));
    ck_assert_int_eq(v, vs_test_ns("2024-05-01T10:00:01Z"));
    ck_assert(velstatus_snapshot_list_time(l, 0, VELSTATUS_SNAPSHOT_FIELD_ERROR_TIME, &v));
    ck_assert_int_eq(v, vs_test_ns("2024-05-01T10:00:02Z"));
    ck_assert(velstatus_snapshot_list_time(l, 0, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP, &v));
    ck_assert(!velstatus_snapshot_list_time(l, 0, VELSTATUS_SNAPSHOT_FIELD_DELETION_TIMESTAMP, &v) && v == 0);
    ck_assert(!velstatus_snapshot_list_int(l, 0, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, &v));
    /* the content */
    ck_assert_int_eq(velstatus_snapshot_list_kind(l, 1), VELSTATUS_SNAPSHOT_KIND_CONTENT);
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_API_VERSION, "snapshot.storage.k8s.io/v1beta1"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_DRIVER, "hostpath.csi.k8s.io"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_DELETION_POLICY, "Retain"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_SNAPSHOT_HANDLE, "snap-7"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_REF_NAME, "velero-data-0-x7k2p"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_REF_NAMESPACE, "app"));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_NAMESPACE, NULL));
    ck_assert(text_is(l, 1, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, NULL));
    ck_assert(velstatus_snapshot_list_int(l, 1, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, &v) && v == 10737418240);
    ck_assert(velstatus_snapshot_list_int(l, 1, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v));
    ck_assert_int_eq(v, 1714557601000000000);
    ck_assert(velstatus_snapshot_list_time(l, 1, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v));
    ck_assert_int_eq(v, vs_test_ns("2024-05-01T10:00:01Z"));
    ck_assert(velstatus_snapshot_list_bool(l, 1, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b) && b);
    ck_assert(!velstatus_snapshot_list_has_error(l, 1));
    /* out of range, NULL, a field of another type */
    ck_assert_int_eq(velstatus_snapshot_list_kind(l, 2), VELSTATUS_SNAPSHOT_KIND_INVALID);
    ck_assert(!velstatus_snapshot_list_text(l, 2, VELSTATUS_SNAPSHOT_FIELD_NAME, NULL));
    ck_assert(!velstatus_snapshot_list_text(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    ck_assert(!velstatus_snapshot_list_text(l, 0, (velstatus_snapshot_field)-1, NULL));
    ck_assert(!velstatus_snapshot_list_time(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAME, NULL));
    ck_assert(!velstatus_snapshot_list_bool(NULL, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b) && !b);
    ck_assert_uint_eq(velstatus_snapshot_list_count(NULL), 0);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* Go's decoder: a later null resets a pointer field (status, error,
 * readyToUse...), not a string; a repeated status merges. */
START_TEST(null_resets_pointers_as_go_does)
{
    velstatus_snapshot_list *l = decode(
        "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\",\"name\":null,\"namespace\":\"ns\"},"
        "\"status\":{\"readyToUse\":true,\"error\":{\"message\":\"x\"}},\"status\":{\"boundVolumeSnapshotContentName\":"
        "\"c\",\"error\":null,\"readyToUse\":null}}");
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAME, "a"));
    ck_assert(velstatus_snapshot_list_has_status(l, 0));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT, "c"));
    ck_assert(!velstatus_snapshot_list_has_error(l, 0));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE, NULL));
    ck_assert(!velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    velstatus_snapshot_list_free(l);
    l = decode("{\"kind\":\"VolumeSnapshot\",\"status\":{\"readyToUse\":true},\"status\":null}");
    ck_assert(!velstatus_snapshot_list_has_status(l, 0));
    ck_assert(!velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    velstatus_snapshot_list_free(l);
    /* an empty status is a status; keys are case-sensitive and unescaped */
    l = decode("{\"kind\":\"VolumeSnapshot\",\"status\":{\"ReadyToUse\":true,\"\\u0065rror\":{}}}");
    ck_assert(velstatus_snapshot_list_has_status(l, 0) && velstatus_snapshot_list_has_error(l, 0));
    ck_assert(!velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    velstatus_snapshot_list_free(l);
}
END_TEST

START_TEST(lists_arrays_and_skipped_kinds)
{
    static const char *const texts[] = {
        "{\"kind\":\"VolumeSnapshotList\",\"items\":[{\"kind\":\"VolumeSnapshot\"},{\"kind\":\"Pod\"},3]}",
        "{\"kind\":\"List\",\"items\":[{\"kind\":\"VolumeSnapshotContent\"},{\"kind\":\"Backup\"},null]}",
        "[{\"kind\":\"VolumeSnapshot\"},{\"kind\":\"volumesnapshot\"},\"x\"]",
        "{\"items\":[{\"kind\":\"VolumeSnapshot\"},{}, []]}",
    };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        velstatus_snapshot_list *l = decode(texts[i]);
        ck_assert_msg(velstatus_snapshot_list_count(l) == 1 && velstatus_snapshot_list_skipped(l) == 2, "%s", texts[i]);
        velstatus_snapshot_list_free(l);
    }
}
END_TEST

START_TEST(watch_streams)
{
    velstatus_snapshot_list *l;
    size_t i;
    /* kubectl get -w -o json: objects one after another; the last state wins in place */
    l = decode("{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\",\"namespace\":\"n\"}}\n"
               "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"b\",\"namespace\":\"n\"}}\n"
               "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\",\"namespace\":\"n\"},\"status\":{"
               "\"readyToUse\":true}}");
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 2);
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAME, "a"));
    ck_assert(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    velstatus_snapshot_list_free(l);
    /* --output-watch-events: DELETED removes, a BOOKMARK changes nothing, an ERROR is skipped */
    l = decode(
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\",\"namespace\":"
        "\"n\"}}}{\"type\":\"ADDED\",\"object\":{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":\"a\"}}}"
        "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"resourceVersion\":\"9\"}}}"
        "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":\"a\"},"
        "\"status\":{\"readyToUse\":true}}}"
        "{\"type\":\"DELETED\",\"object\":{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\",\"namespace\":"
        "\"n\"}}}{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}");
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 1);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(l), 1);
    ck_assert(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_CONTENT, "ignored", VELSTATUS_NUL_TERMINATED, "a",
                                           VELSTATUS_NUL_TERMINATED, &i) &&
              i == 0);
    ck_assert(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    ck_assert(!velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "n", 1, "a", 1, NULL));
    velstatus_snapshot_list_free(l);
    /* `kubectl get vs -A -o json; kubectl get vsc -o json`, then a later state: a
     * List or an array in a stream is its objects (as the data mover decoder reads it) */
    l = decode(
        "{\"kind\":\"VolumeSnapshotList\",\"items\":[{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\","
        "\"namespace\":\"n\"}}]}\n{\"kind\":\"List\",\"items\":[{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{"
        "\"name\":\"c\"}},{\"kind\":\"Pod\"}]}\n[{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\","
        "\"namespace\":\"n\"},\"status\":{\"readyToUse\":true}}]");
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 2);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(l), 1);
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_NAME, "a"));
    ck_assert(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    ck_assert_int_eq(velstatus_snapshot_list_kind(l, 1), VELSTATUS_SNAPSHOT_KIND_CONTENT);
    velstatus_snapshot_list_free(l);
    /* an ERROR event's Status is not read: a malformed one is skipped like any other */
    l = decode("{\"kind\":\"VolumeSnapshot\"}{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":\"410\"}}");
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 1);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(l), 1);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* Bad input: a clear status, the field's path, the position. */
START_TEST(errors_name_the_field_and_position)
{
    static const struct {
        const char *json, *at, *msg;
        velstatus_status st;
    } cases[] = {
        {"[{\"kind\":\"VolumeSnapshot\"},{\"kind\":\"VolumeSnapshot\",\"status\":{\"readyToUse\":\"true\"}}]",
         "\"true\"", "[1].status.readyToUse: expected a boolean, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"status\":{\"error\":{\"message\":7}}}", "7",
         "status.error.message: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"status\":{\"creationTime\":\"yesterday\"}}", "yesterday\"",
         "status.creationTime: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshotContent\",\"status\":{\"restoreSize\":\"10Gi\"}}", "\"10Gi\"",
         "status.restoreSize: expected an integer, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"metadata\":[]}", "[]", "metadata: expected an object, got an array",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"labels\":{\"velero.io/backup-name\":1}}}", "1}",
         "metadata.labels.velero.io/backup-name: expected a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\"}\n{\"type\":\"ADDED\",\"object\":{\"kind\":\"VolumeSnapshot\",\"status\":{"
         "\"readyToUse\":1}}}",
         "1}}}", "object.status.readyToUse: expected a boolean, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\"}\n{\"type\":\"ADDED\"}", "{\"type\":\"ADDED\"}", "", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\"} [7, {\"kind\":\"VolumeSnapshot\",\"metadata\":[]}]", "[]}]",
         "[1].metadata: expected an object, got an array", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"creationTimestamp\":\"x\"}}", "x\"",
         "metadata.creationTimestamp: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"deletionTimestamp\":\"x\"}}", "x\"",
         "metadata.deletionTimestamp: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"status\":{\"error\":{\"time\":\"x\"}}}", "x\"",
         "status.error.time: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshotContent\",\"status\":{\"creationTime\":\"x\"}}", "\"x\"",
         "status.creationTime: expected an integer, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":1}", "1}", "kind: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"[{\"kind\":1}]", "1}]", "[0].kind: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\",\"status\":{\"error\":[]}}", "[]",
         "status.error: expected an object, got an array", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\"} 7", "7",
         "expected a List, an array or a VolumeSnapshot or VolumeSnapshotContent, got a number", VELSTATUS_E_SCHEMA},
        {"\"VolumeSnapshot\"", "\"VolumeSnapshot\"", "expected a List, an array or a VolumeSnapshot",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"VolumeSnapshot\"} {\"kind\":", "", "", VELSTATUS_E_PARSE},
        {"", "", "", VELSTATUS_E_PARSE},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_snapshot_list *l = (velstatus_snapshot_list *)&l;
        velstatus_error err;
        velstatus_status st =
            velstatus_snapshot_list_from_json(&l, vs_tctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err);
        ck_assert_msg(st == cases[i].st, "case %zu: status %s (%s)", i, velstatus_status_name(st), err.message);
        ck_assert_msg(!l, "case %zu: a list on failure", i);
        ck_assert_msg(strstr(err.message, cases[i].msg), "case %zu: message \"%s\"", i, err.message);
        if (cases[i].at[0])
            vs_test_assert_position(&err, cases[i].json, strstr(cases[i].json, cases[i].at));
    }
    ck_assert_int_eq(velstatus_snapshot_list_from_json(NULL, vs_tctx, "[]", 2, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_list_from_json((velstatus_snapshot_list **)&vs_tctx, NULL, "[]", 2, NULL),
                     VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(enum_tokens)
{
    velstatus_snapshot_field f;
    velstatus_snapshot_kind k;
    for (int i = 0; i <= VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE; i++) {
        const char *t = velstatus_snapshot_field_to_string((velstatus_snapshot_field)i);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_eq(velstatus_snapshot_field_from_string(&f, t, VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
        ck_assert_int_eq(f, i);
    }
    ck_assert_str_eq(velstatus_snapshot_field_to_string(VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT), "bound_content");
    ck_assert_ptr_null(velstatus_snapshot_field_to_string((velstatus_snapshot_field)19));
    ck_assert_str_eq(velstatus_snapshot_kind_to_string(VELSTATUS_SNAPSHOT_KIND_CONTENT), "volume_snapshot_content");
    ck_assert_int_eq(velstatus_snapshot_kind_from_string(&k, "volume_snapshot", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(k, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT);
    ck_assert_int_eq(velstatus_snapshot_kind_from_string(&k, "VolumeSnapshot", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_snapshot_kind_to_string(VELSTATUS_SNAPSHOT_KIND_INVALID));
}
END_TEST


/* kubectl's own output during a backup: a List of both kinds, and a
 * v1beta1 watch with events. The second VolumeSnapshot's error is the
 * CSI driver's quota error, which 1.14+ treats as temporary (#9674). */
START_TEST(kubectl_outputs)
{
    size_t len, i;
    char *text = vs_test_read_data("snapshot/volumesnapshots-during-backup.json", &len);
    velstatus_snapshot_list *l = NULL;
    velstatus_op_progress p;
    char *msg = NULL;
    ck_assert_int_eq(velstatus_snapshot_list_from_json(&l, vs_tctx, text, len, NULL), VELSTATUS_OK);
    free(text);
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 4);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(l), 0);
    ck_assert(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_CONTENT, NULL, 0,
                                           "snapcontent-3b5a8f0c-9c1e-4f7e-8b0a-2d6c1e4f9a10", VELSTATUS_NUL_TERMINATED,
                                           &i));
    ck_assert_uint_eq(i, 2);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &msg, l, VELSTATUS_KIND_BACKUP,
                                                 "app/velero-data-0-x7k2p/2024-05-01T10:00:04Z",
                                                 VELSTATUS_NUL_TERMINATED, vs_test_ns(NOW_TEXT), 1, 16, NULL),
                     VELSTATUS_OK);
    ck_assert(p.report == VELSTATUS_OP_REPORT_PROGRESS && p.completed && p.err_len == 0 && p.has_updated);
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &msg, l, VELSTATUS_KIND_BACKUP,
                                                 "app/velero-data-1-q9w4z/2024-05-01T10:00:06Z",
                                                 VELSTATUS_NUL_TERMINATED, vs_test_ns(NOW_TEXT), 1, 16, NULL),
                     VELSTATUS_OK);
    ck_assert(p.report == VELSTATUS_OP_REPORT_PROGRESS && !p.completed && !p.has_updated);
    velstatus_snapshot_list_free(l);
    text = vs_test_read_data("snapshot/volumesnapshots-v1beta1-watch.json", &len);
    ck_assert_int_eq(velstatus_snapshot_list_from_json(&l, vs_tctx, text, len, NULL), VELSTATUS_OK);
    free(text);
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 1);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(l), 0); /* its BOOKMARK changes nothing */
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_API_VERSION, "snapshot.storage.k8s.io/v1beta1"));
    ck_assert(text_is(l, 0, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, "1Gi"));
    ck_assert(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL));
    velstatus_snapshot_list_free(l);
}
END_TEST

/* ---- the plugin's answers, per release: the data rows ---- */

enum { C_NAME, C_RELEASES, C_KIND, C_OBJECTS, C_ID, C_ANSWER, C_CONTRAST, NCOLS };

typedef struct prow {
    int line;
    char *col[NCOLS];
} prow;

/* "\n" in a fail= text is a newline. */
static void unescape(char *s)
{
    char *w = s;
    for (; *s; s++) {
        if (s[0] == '\\' && s[1] == 'n') {
            *w++ = '\n';
            s++;
        } else {
            *w++ = *s;
        }
    }
    *w = '\0';
}

/* The two answers the rows test: the VolumeSnapshot plugin's and the
 * VolumeSnapshotContent backup action's. */
typedef enum row_action { ROW_VS, ROW_VSC } row_action;

/* Whether Started is the ID's time in an answer that is not an error. */
static int parses_started(row_action action, velstatus_kind kind, int minor)
{
    if (action == ROW_VSC)
        return minor == 12 || minor == 13;
    return kind == VELSTATUS_KIND_BACKUP && minor >= 12;
}

/* Whether the answer of row r in release 1.minor is what the row says
 * (why not in *why). */
static int row_holds(const prow *r, row_action action, int minor, char *why, size_t cap)
{
    velstatus_snapshot_list *l = decode(r->col[C_OBJECTS]);
    velstatus_kind kind = strcmp(r->col[C_KIND], "restore") == 0 ? VELSTATUS_KIND_RESTORE : VELSTATUS_KIND_BACKUP;
    velstatus_op_progress p;
    char *text = NULL, want[1024];
    const char *at = strstr(r->col[C_ANSWER], "@now");
    int64_t now = vs_test_ns(NOW_TEXT);
    int ok, is_error = strncmp(r->col[C_ANSWER], "error=", 6) == 0, completed, started_ok, updated_ok;
    velstatus_status st;
    velstatus_op_progress_init(&p, sizeof(p));
    if (action == ROW_VSC) {
        ck_assert_int_eq(kind, VELSTATUS_KIND_BACKUP);
        st = velstatus_snapshot_content_progress(&p, &text, l, r->col[C_ID], VELSTATUS_NUL_TERMINATED, 1, minor, NULL);
    } else {
        st = velstatus_snapshot_progress(&p, &text, l, kind, r->col[C_ID], VELSTATUS_NUL_TERMINATED, now, 1, minor,
                                         NULL);
    }
    ck_assert_int_eq(st, VELSTATUS_OK);
    snprintf(want, sizeof(want), "%.*s", (int)(at ? (size_t)(at - r->col[C_ANSWER]) : strlen(r->col[C_ANSWER])),
             r->col[C_ANSWER]);
    unescape(want);
    completed = strcmp(want, "done") == 0 || strncmp(want, "fail=", 5) == 0;
    if (is_error) {
        ok = p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && p.err_len == strlen(want + 6) &&
             memcmp(p.err, want + 6, p.err_len) == 0 && !p.has_started && !p.has_updated;
    } else {
        const char *msg = strncmp(want, "fail=", 5) == 0 ? want + 5 : "";
        int64_t sec = 0;
        int32_t nsec = 0;
        const char *slash = strrchr(r->col[C_ID], '/');
        /* an ID without a time (a contrast release reading it) cannot give Started */
        int parse = parses_started(action, kind, minor),
            has_time = slash &&
                       velstatus_time_parse_sec(&sec, &nsec, slash + 1, VELSTATUS_NUL_TERMINATED, NULL) == VELSTATUS_OK;
        started_ok = parse ? has_time && p.has_started_sec && p.started_sec == sec && p.started_nsec == nsec
                           : !p.has_started && !p.has_started_sec;
        updated_ok = at ? p.has_updated && p.updated_ns == now : !p.has_updated;
        ok = p.report == VELSTATUS_OP_REPORT_PROGRESS && p.completed == completed && p.err_len == strlen(msg) &&
             (p.err_len == 0 || memcmp(p.err, msg, p.err_len) == 0) && started_ok && updated_ok && p.n_total == 0 &&
             p.operation_units_len == 0 && p.description_len == 0;
    }
    snprintf(why, cap, "report %u completed %d err \"%.*s\" started %d updated %d", p.report, p.completed,
             (int)p.err_len, p.err ? p.err : "", p.has_started_sec, p.has_updated);
    velstatus_free(vs_tctx, text);
    velstatus_snapshot_list_free(l);
    return ok;
}

/* Runs every row of releases/<file> with `action`; returns the row count. */
static size_t run_rows(const char *file, row_action action)
{
    size_t len, nrows = 0;
    char *buf = vs_test_read_data(file, &len), *save = NULL, *line;
    int lineno = 0;
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        prow r = {0};
        char why[1400];
        lineno++;
        if (line[0] == '#' || vs_test_trim(line)[0] == '\0')
            continue;
        r.line = lineno;
        vs_test_split_row(line, r.col, NCOLS, lineno);
        if (strcmp(r.col[C_ID], "\"\"") == 0)
            r.col[C_ID][0] = '\0';
        for (int minor = 11; minor <= 18; minor++) {
            if (!vs_test_in_releases(r.col[C_RELEASES], minor))
                continue;
            ck_assert_msg(row_holds(&r, action, minor, why, sizeof(why)), "%s line %d \"%s\" in 1.%d: %s", file, r.line,
                          r.col[C_NAME], minor, why);
        }
        if (strcmp(r.col[C_CONTRAST], "-") != 0) {
            int c = 0;
            ck_assert(sscanf(r.col[C_CONTRAST], "1.%d", &c) == 1);
            ck_assert_msg(!row_holds(&r, action, c, why, sizeof(why)), "%s line %d \"%s\": holds in contrast 1.%d too",
                          file, r.line, r.col[C_NAME], c);
        }
        nrows++;
    }
    free(buf);
    return nrows;
}

START_TEST(progress_per_release_rows)
{
    ck_assert_uint_ge(run_rows("releases/csi-volumesnapshot-progress.txt", ROW_VS), 35);
}
END_TEST

/* The VolumeSnapshotContent action's rows (each names a contrast release). */
START_TEST(content_progress_per_release_rows)
{
    ck_assert_uint_ge(run_rows("releases/csi-volumesnapshotcontent-progress.txt", ROW_VSC), 26);
}
END_TEST

static int hexval(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* Go's time.Parse(time.RFC3339, …) answers, through the operation ID. */
START_TEST(go_time_parse_vectors)
{
    size_t len, n = 0;
    char *buf = vs_test_read_data("releases/go-rfc3339-errors.txt", &len), *save = NULL, *line;
    velstatus_snapshot_list *none = decode("[]"),
                            *one = decode(
                                "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"n\",\"namespace\":\"s\"}}");
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char id[256] = "s/n/", *tab = strchr(line, '\t'), *answer, *end;
        size_t k = 4;
        velstatus_op_progress p;
        char *text = NULL;
        if (line[0] == '#')
            continue;
        ck_assert_ptr_nonnull(tab);
        for (char *h = line; h < tab; h += 2)
            id[k++] = (char)(hexval(h[0]) * 16 + hexval(h[1]));
        answer = tab + 1;
        end = strchr(answer, '\t');
        ck_assert_ptr_nonnull(end);
        *end = '\0';
        velstatus_op_progress_init(&p, sizeof(p));
        ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, strncmp(answer, "OK ", 3) == 0 ? one : none,
                                                     VELSTATUS_KIND_BACKUP, id, k, 0, 1, 18, NULL),
                         VELSTATUS_OK);
        if (strncmp(answer, "OK ", 3) == 0) {
            int64_t sec;
            int32_t nsec;
            ck_assert_int_eq(velstatus_time_parse_sec(&sec, &nsec, answer + 3, VELSTATUS_NUL_TERMINATED, NULL),
                             VELSTATUS_OK);
            ck_assert_msg(p.report == VELSTATUS_OP_REPORT_PROGRESS && p.has_started_sec && p.started_sec == sec &&
                              p.started_nsec == nsec,
                          "%s: report %u started %d", end + 1, p.report, p.has_started_sec);
        } else {
            char want[600];
            snprintf(want, sizeof(want), "rpc error: code = Unknown desc = %s", answer);
            ck_assert_msg(p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && p.err_len == strlen(want) &&
                              memcmp(p.err, want, p.err_len) == 0,
                          "%s: got \"%.*s\", want \"%s\"", end + 1, (int)p.err_len, p.err ? p.err : "", want);
        }
        velstatus_free(vs_tctx, text);
        n++;
    }
    ck_assert_uint_ge(n, 50);
    velstatus_snapshot_list_free(none);
    velstatus_snapshot_list_free(one);
    free(buf);
}
END_TEST

START_TEST(progress_arguments)
{
    velstatus_snapshot_list *l = decode("[]");
    velstatus_op_progress p;
    velstatus_error err;
    char *text = (char *)&text;
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_BACKUP, "x", 1, 0, 1, 10, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.10 is not supported (supported: 1.11 to 1.18)");
    ck_assert_ptr_null(text);
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_BACKUP, "x", 1, 0, 2, 12, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, NULL, VELSTATUS_KIND_BACKUP, "x", 1, 0, 1, 12, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_progress(NULL, &text, l, VELSTATUS_KIND_BACKUP, "x", 1, 0, 1, 12, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_INVALID, "x", 1, 0, 1, 12, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_BACKUP, NULL, 3, 0, 1, 12, NULL),
                     VELSTATUS_E_INVALID);
    p.struct_size = 8;
    ck_assert_int_eq(velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_BACKUP, "x", 1, 0, 1, 12, NULL),
                     VELSTATUS_E_ABI);
    /* the VolumeSnapshotContent action's answer checks the same */
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, l, "x", 1, 1, 12, &err), VELSTATUS_E_ABI);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, l, "x", 1, 1, 19, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.19 is not supported (supported: 1.11 to 1.18)");
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, NULL, "x", 1, 1, 12, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, NULL, l, "x", 1, 1, 12, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, l, NULL, 3, 1, 12, NULL), VELSTATUS_E_INVALID);
    /* NULL with no length is "": an invalid ID in 1.12, an empty progress in 1.14 */
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, l, NULL, 0, 1, 12, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS_ERROR);
    ck_assert_str_eq(text, "rpc error: code = Unknown desc = operation ID  is invalid");
    velstatus_free(vs_tctx, text);
    ck_assert_int_eq(velstatus_snapshot_content_progress(&p, &text, l, NULL, 0, 1, 14, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS);
    ck_assert_ptr_null(text);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* The getters without an object (NULL list, index past the end), with a
 * field of another type, and find's comparisons of kind, name and namespace. */
START_TEST(getters_and_find_edges)
{
    velstatus_snapshot_list *l =
        decode("[{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"vs-1\",\"namespace\":\"app\",\"labels\":null}},"
               "{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":\"c-1\"},\"status\":{\"readyToUse\":true,"
               "\"restoreSize\":5,\"creationTime\":7}},"
               "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"namespace\":\"ab\"}},"
               "{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"x\"}}]");
    velstatus_snapshot_field f = VELSTATUS_SNAPSHOT_FIELD_NAME;
    int64_t v = 9;
    int b = 9;
    size_t idx = 99, n = 9;
    ck_assert_int_eq(velstatus_snapshot_field_from_string(NULL, "name", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_snapshot_field_from_string(&f, "nope", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(f, VELSTATUS_SNAPSHOT_FIELD_NAME);
    ck_assert_int_eq(velstatus_snapshot_kind_from_string(NULL, "volume_snapshot", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_uint_eq(velstatus_snapshot_list_skipped(NULL), 0);
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 4);
    ck_assert_ptr_null(velstatus_snapshot_list_text(l, 0, VELSTATUS_SNAPSHOT_FIELD_BACKUP_NAME_LABEL, &n));
    /* has_status / has_error */
    ck_assert_int_eq(velstatus_snapshot_list_has_status(NULL, 0), 0);
    ck_assert_int_eq(velstatus_snapshot_list_has_status(l, 4), 0);
    ck_assert_int_eq(velstatus_snapshot_list_has_status(l, 0), 0);
    ck_assert_int_eq(velstatus_snapshot_list_has_status(l, 1), 1);
    ck_assert_int_eq(velstatus_snapshot_list_has_error(NULL, 0), 0);
    ck_assert_int_eq(velstatus_snapshot_list_has_error(l, 1), 0);
    /* time: fields before and after the times, no object */
    ck_assert_int_eq(velstatus_snapshot_list_time(l, 1, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v), 1);
    ck_assert_int_eq(v, 7);
    ck_assert_int_eq(velstatus_snapshot_list_time(l, 1, VELSTATUS_SNAPSHOT_FIELD_NAME, &v), 0);
    ck_assert_int_eq(velstatus_snapshot_list_time(l, 1, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &v), 0);
    ck_assert_int_eq(velstatus_snapshot_list_time(NULL, 1, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v), 0);
    /* int: both fields, another field, no object */
    ck_assert_int_eq(velstatus_snapshot_list_int(l, 1, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, &v), 1);
    ck_assert_int_eq(v, 5);
    ck_assert_int_eq(velstatus_snapshot_list_int(l, 1, VELSTATUS_SNAPSHOT_FIELD_CREATION_TIME, &v), 1);
    ck_assert_int_eq(v, 7);
    ck_assert_int_eq(velstatus_snapshot_list_int(l, 1, VELSTATUS_SNAPSHOT_FIELD_NAME, &v), 0);
    ck_assert_int_eq(velstatus_snapshot_list_int(NULL, 1, VELSTATUS_SNAPSHOT_FIELD_RESTORE_SIZE, &v), 0);
    /* bool: the field, another field, no readyToUse, no object */
    ck_assert_int_eq(velstatus_snapshot_list_bool(l, 1, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b), 1);
    ck_assert_int_eq(b, 1);
    ck_assert_int_eq(velstatus_snapshot_list_bool(l, 1, VELSTATUS_SNAPSHOT_FIELD_NAME, &b), 0);
    ck_assert_int_eq(b, 0);
    ck_assert_int_eq(velstatus_snapshot_list_bool(l, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, NULL), 0);
    ck_assert_int_eq(velstatus_snapshot_list_bool(NULL, 0, VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE, &b), 0);
    /* find */
    ck_assert_int_eq(
        velstatus_snapshot_list_find(NULL, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "app", 3, "vs-1", 4, &idx), 0);
    ck_assert_int_eq(
        velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "app", 3, "vs-1", 4, NULL), 1);
    ck_assert_int_eq(
        velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "apx", 3, "vs-1", 4, &idx), 0);
    ck_assert_int_eq(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "ap", 2, "vs-1", 4, &idx),
                     0);
    ck_assert_int_eq(
        velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "app", 3, "vs-2", 4, &idx), 0);
    ck_assert_int_eq(
        velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "app", 3, "vs-10", 5, &idx), 0);
    ck_assert_int_eq(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "ab", 2, "", 0, &idx), 1);
    ck_assert_uint_eq(idx, 2);
    ck_assert_int_eq(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, "", 0, "x", 1, &idx), 1);
    ck_assert_uint_eq(idx, 3);
    ck_assert_int_eq(velstatus_snapshot_list_find(l, VELSTATUS_SNAPSHOT_KIND_CONTENT, "", 0, "c-1", 3, &idx), 1);
    ck_assert_uint_eq(idx, 1);
    velstatus_snapshot_list_free(l);
    /* a DELETED event of an object never seen changes nothing */
    l = decode("{\"type\":\"DELETED\",\"object\":{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"zz\"}}}\n"
               "{\"type\":\"ADDED\",\"object\":{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"a\"}}}");
    ck_assert_uint_eq(velstatus_snapshot_list_count(l), 1);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* ---- the plugin client in a reconcile pass ---- */

static const char ops_json[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-volumesnapshot-"
    "backupper\",\"resourceIdentifier\":{\"Group\":\"snapshot.storage.k8s.io\",\"Resource\":\"volumesnapshots\","
    "\"Namespace\":\"app\",\"Name\":\"vs-1\"},\"operationID\":\"app/vs-1/2024-05-01T10:00:00Z\"},\"status\":{"
    "\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-volumesnapshot-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"snapshot.storage.k8s.io\",\"Resource\":\"volumesnapshots\",\"Namespace\":"
    "\"app\",\"Name\":\"vs-2\"},\"operationID\":\"app/vs-2/2024-05-01T10:00:00Z\"},\"status\":{\"phase\":"
    "\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"example.io/other\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"app\",\"Name\":\"p\"},"
    "\"operationID\":\"op-3\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]";

static const char cluster_json[] =
    "{\"kind\":\"List\",\"items\":[{\"kind\":\"VolumeSnapshot\",\"metadata\":{\"name\":\"vs-1\",\"namespace\":\"app\"},"
    "\"status\":{\"readyToUse\":true,\"boundVolumeSnapshotContentName\":\"c-1\"}},{\"kind\":\"VolumeSnapshotContent\","
    "\"metadata\":{\"name\":\"c-1\"},\"status\":{\"readyToUse\":true}},{\"kind\":\"VolumeSnapshot\",\"metadata\":{"
    "\"name\":\"vs-2\",\"namespace\":\"app\"},\"status\":{\"readyToUse\":true,\"boundVolumeSnapshotContentName\":"
    "\"c-2\"}},{\"kind\":\"VolumeSnapshotContent\",\"metadata\":{\"name\":\"c-2\"},\"status\":{\"error\":{"
    "\"message\":\"snapshot quota exceeded\"}}}]}";

/* The host's own client behind the snapshot client: op-3 is done. */
static int other_progress(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    velstatus_op_progress p;
    (void)list;
    (void)index;
    ++*(int *)userdata;
    velstatus_op_progress_init(&p, sizeof(p));
    p.completed = 1;
    return (int)velstatus_op_reply_set_progress(reply, &p, NULL);
}

/* The VolumeSnapshotContent action's records, under both spellings: c-1 is
 * ready, c-2 has an error (cluster_json). */
static const char content_ops_json[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/"
    "csi-volumesnapshotcontent-backupper\",\"resourceIdentifier\":{\"Group\":\"snapshot.storage.k8s.io\","
    "\"Resource\":\"volumesnapshotcontents\",\"Name\":\"c-1\"},\"operationID\":\"c-1/2024-05-01T10:00:00Z\"},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-volumesnapshotcontent-"
    "backupper\",\"resourceIdentifier\":{\"Group\":\"snapshot.storage.k8s.io\",\"Resource\":"
    "\"volumesnapshotcontents\",\"Name\":\"c-2\"},\"operationID\":\"c-2/2024-05-01T10:00:00Z\"},\"status\":{"
    "\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]";

/* One pass at 1.minor over the records `ops_text` with the snapshot client
 * (and a fallback or none). */
static velstatus_status pass_ops(velstatus_ctx *ctx, const char *ops_text, int minor, int with_fallback,
                                 velstatus_reconcile_result **res, int *calls)
{
    velstatus_oplist *ops = NULL;
    velstatus_snapshot_list *snaps = NULL;
    velstatus_plugin_client fb, client;
    velstatus_snapshot_client_config cfg;
    velstatus_reconcile_options o;
    velstatus_policy pol;
    velstatus_status st;
    *res = NULL;
    velstatus_plugin_client_init(&fb, sizeof(fb));
    fb.userdata = calls;
    fb.progress = other_progress;
    st = velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, ops_text, VELSTATUS_NUL_TERMINATED, NULL);
    if (st == VELSTATUS_OK)
        st = velstatus_snapshot_list_from_json(&snaps, ctx, cluster_json, VELSTATUS_NUL_TERMINATED, NULL);
    if (st == VELSTATUS_OK) {
        velstatus_snapshot_client_config_init(&cfg, sizeof(cfg));
        cfg.snapshots = snaps;
        cfg.major = 1;
        cfg.minor = minor;
        cfg.now_ns = vs_test_ns(NOW_TEXT);
        cfg.fallback = with_fallback ? &fb : NULL;
        ck_assert_int_eq(velstatus_snapshot_client_init(&client, sizeof(client), &cfg, NULL), VELSTATUS_OK);
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.now_ns = cfg.now_ns;
        ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, minor, NULL), VELSTATUS_OK);
        st = velstatus_oplist_reconcile(res, ops, &client, &o, &pol, NULL);
    }
    velstatus_snapshot_list_free(snaps);
    velstatus_oplist_free(ops);
    return st;
}

/* One pass at 1.minor over ops_json. */
static velstatus_status pass(velstatus_ctx *ctx, int minor, int with_fallback, velstatus_reconcile_result **res,
                             int *calls)
{
    return pass_ops(ctx, ops_json, minor, with_fallback, res, calls);
}

static int has_error(const velstatus_reconcile_result *r, const char *want)
{
    for (size_t i = 0; i < velstatus_reconcile_result_error_count(r); i++) {
        size_t len;
        const char *e = velstatus_reconcile_result_error(r, i, &len);
        if (len == strlen(want) && memcmp(e, want, len) == 0)
            return 1;
    }
    return 0;
}

START_TEST(reconcile_with_the_client)
{
    velstatus_reconcile_result *r;
    int calls = 0;
    /* 1.14 reads the contents: vs-1 completes, vs-2 completes with the content's error */
    ck_assert_int_eq(pass(vs_tctx, 14, 1, &r, &calls), VELSTATUS_OK);
    ck_assert_int_eq(calls, 1);
    ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 2);
    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1);
    ck_assert(has_error(r, "snapshot quota exceeded, plugin: velero.io/csi-volumesnapshot-backupper"));
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    velstatus_reconcile_result_free(r);
    /* 1.13 reads the VolumeSnapshots only: all three complete */
    ck_assert_int_eq(pass(vs_tctx, 13, 1, &r, &calls), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 3);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING);
    velstatus_reconcile_result_free(r);
    /* 1.11: the plugin has no asynchronous operations: both fail with Velero's own text */
    ck_assert_int_eq(pass(vs_tctx, 11, 1, &r, &calls), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 2);
    ck_assert(has_error(r, "Plugin does not support asynchronous operations"));
    velstatus_reconcile_result_free(r);
    /* without a fallback the other operation's plugin cannot be obtained */
    ck_assert_int_eq(pass(vs_tctx, 18, 0, &r, &calls), VELSTATUS_OK);
    ck_assert(has_error(r, "unable to get valid BackupItemActionV2 for \"example.io/other\", plugin: unknown"));
    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 2);
    velstatus_reconcile_result_free(r);
}
END_TEST

/* The VolumeSnapshotContent action's operations in a pass: answered in
 * 1.12 and 1.13 from the contents, left in progress from 1.14 (an empty
 * progress), Velero's own error in 1.11; the fallback is never asked. */
START_TEST(reconcile_content_operations)
{
    velstatus_reconcile_result *r;
    int calls = 0;
    for (int minor = 12; minor <= 13; minor++) {
        ck_assert_int_eq(pass_ops(vs_tctx, content_ops_json, minor, 1, &r, &calls), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 1);
        ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 1);
        /* the content's message as Err; 1.13's backup_operations_controller.go names the plugin (wrapErrMsg) */
        ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 1);
        ck_assert(has_error(r, minor == 12
                                   ? "snapshot quota exceeded"
                                   : "snapshot quota exceeded, plugin: velero.io/csi-volumesnapshotcontent-backupper"));
        ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
        velstatus_reconcile_result_free(r);
    }
    for (int minor = 14; minor <= 18; minor++) {
        ck_assert_int_eq(pass_ops(vs_tctx, content_ops_json, minor, 1, &r, &calls), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 0);
        ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), 2);
        ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 0);
        ck_assert_int_eq(velstatus_reconcile_result_still_in_progress(r), 1);
        velstatus_reconcile_result_free(r);
    }
    ck_assert_int_eq(pass_ops(vs_tctx, content_ops_json, 11, 1, &r, &calls), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 2);
    ck_assert(has_error(r, "Plugin does not support asynchronous operations"));
    velstatus_reconcile_result_free(r);
    ck_assert_int_eq(calls, 0);
}
END_TEST

START_TEST(client_arguments)
{
    velstatus_plugin_client c;
    velstatus_snapshot_client_config cfg;
    velstatus_snapshot_list *l = decode("[]");
    velstatus_error err;
    velstatus_snapshot_client_config_init(&cfg, sizeof(cfg));
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "config.snapshots is NULL");
    cfg.snapshots = l;
    cfg.major = 1;
    cfg.minor = 19;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.19 is not supported (supported: 1.11 to 1.18)");
    cfg.minor = 18;
    cfg.flags = 1;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_E_INVALID);
    cfg.flags = 0;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, 4, &cfg, NULL), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_snapshot_client_init(NULL, sizeof(c), &cfg, NULL), VELSTATUS_E_INVALID);
    cfg.struct_size = 4;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_E_ABI);
    cfg.struct_size = sizeof(cfg);
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_OK);
    ck_assert_ptr_eq(c.userdata, &cfg);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* A restore's records: the restorer under both spellings, then names that
 * are not the plugin's (the backupper, a wrong last letter with and
 * without "velero.io/", another prefix of the same length, the
 * VolumeSnapshotContent backupper). */
static const char restore_ops_json[] = "[{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"velero.io/csi-volumesnapshot-restorer\",\"operationID\":\"app/vs-1/t\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"csi-volumesnapshot-restorer\",\"operationID\":\"app/vs-2/t\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"velero.io/csi-volumesnapshot-backupper\",\"operationID\":\"op-3\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"csi-volumesnapshot-restorex\",\"operationID\":\"op-4\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"velero.io/csi-volumesnapshot-restorex\",\"operationID\":\"op-5\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"veleroXio/csi-volumesnapshot-restorer\",\"operationID\":\"op-6\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"csi-volumesnapshot-backupper\",\"operationID\":\"op-7\"}},"
                                       "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
                                       "\"velero.io/csi-volumesnapshotcontent-backupper\",\"operationID\":\"op-8\"}}]";

/* The fallback's Cancel: counts its calls, answers 7. */
static int other_cancel(void *userdata, const velstatus_oplist *list, size_t index, velstatus_op_reply *reply)
{
    (void)list;
    (void)index;
    (void)reply;
    ++*(int *)userdata;
    return 7;
}

/* Cancel of the snapshot client: 0 for the plugin's records (the CSI
 * specification cannot cancel), the fallback's answer (or pass-through)
 * for the others, and a record past the list's end is not the plugin's. */
START_TEST(client_cancel_and_names)
{
    velstatus_oplist *ops = NULL;
    velstatus_snapshot_list *l = decode("[]");
    velstatus_plugin_client c, fb;
    velstatus_snapshot_client_config cfg;
    int calls = 0;
    static const int ours[] = {1, 1, 0, 0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(velstatus_oplist_from_json(&ops, vs_tctx, VELSTATUS_KIND_RESTORE, restore_ops_json,
                                                VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_count(ops), 8);
    velstatus_snapshot_client_config_init(&cfg, sizeof(cfg));
    cfg.snapshots = l;
    cfg.major = 1;
    cfg.minor = 18;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < 9; i++)
        ck_assert_int_eq(c.cancel(c.userdata, ops, i, NULL), ours[i] ? 0 : VELSTATUS_PASSTHROUGH);
    /* a fallback without callbacks passes through too */
    velstatus_plugin_client_init(&fb, sizeof(fb));
    fb.userdata = &calls;
    cfg.fallback = &fb;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_OK);
    ck_assert_int_eq(c.cancel(c.userdata, ops, 2, NULL), VELSTATUS_PASSTHROUGH);
    ck_assert_int_eq(c.progress(c.userdata, ops, 2, NULL), VELSTATUS_PASSTHROUGH);
    fb.cancel = other_cancel;
    for (size_t i = 0; i < 9; i++)
        ck_assert_int_eq(c.cancel(c.userdata, ops, i, NULL), ours[i] ? 0 : 7);
    ck_assert_int_eq(calls, 7);
    velstatus_oplist_free(ops);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* A backup's records for the names: the two actions under both spellings,
 * then names that are neither (a restorer, a longer and a shorter name,
 * another plugin's prefix). */
static const char *const backup_actions[] = {"velero.io/csi-volumesnapshot-backupper",
                                             "csi-volumesnapshot-backupper",
                                             "velero.io/csi-volumesnapshotcontent-backupper",
                                             "csi-volumesnapshotcontent-backupper",
                                             "velero.io/csi-volumesnapshotcontent-restorer",
                                             "velero.io/csi-volumesnapshotcontent-backupperx",
                                             "csi-volumesnapshotcontent-backuppe",
                                             "example.io/csi-volumesnapshotcontent-backupper"};

/* Cancel of the snapshot client in a backup: 0 for both actions' records,
 * the fallback's answer for the others. */
START_TEST(backup_cancel_and_names)
{
    velstatus_oplist *ops = NULL;
    velstatus_snapshot_list *l = decode("[]");
    velstatus_plugin_client c, fb;
    velstatus_snapshot_client_config cfg;
    char json[2048];
    size_t at = 0;
    int calls = 0;
    at += (size_t)snprintf(json, sizeof(json), "[");
    for (size_t i = 0; i < sizeof(backup_actions) / sizeof(backup_actions[0]); i++)
        at += (size_t)snprintf(json + at, sizeof(json) - at,
                               "%s{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"%s\",\"operationID\":\"x\"}}",
                               i ? "," : "", backup_actions[i]);
    snprintf(json + at, sizeof(json) - at, "]");
    ck_assert_int_eq(
        velstatus_oplist_from_json(&ops, vs_tctx, VELSTATUS_KIND_BACKUP, json, VELSTATUS_NUL_TERMINATED, NULL),
        VELSTATUS_OK);
    velstatus_snapshot_client_config_init(&cfg, sizeof(cfg));
    cfg.snapshots = l;
    cfg.major = 1;
    cfg.minor = 12;
    velstatus_plugin_client_init(&fb, sizeof(fb));
    fb.userdata = &calls;
    fb.cancel = other_cancel;
    cfg.fallback = &fb;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < sizeof(backup_actions) / sizeof(backup_actions[0]); i++)
        ck_assert_int_eq(c.cancel(c.userdata, ops, i, NULL), i < 4 ? 0 : 7);
    ck_assert_int_eq(calls, 4);
    velstatus_oplist_free(ops);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* The fallback's layout and flags are checked, NULLs are refused. */
START_TEST(client_fallback_arguments)
{
    velstatus_plugin_client c, fb;
    velstatus_snapshot_client_config cfg;
    velstatus_snapshot_list *l = decode("[]");
    velstatus_error err;
    velstatus_snapshot_client_config_init(NULL, sizeof(cfg)); /* nothing to do */
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "client or config is NULL");
    velstatus_snapshot_client_config_init(&cfg, sizeof(cfg));
    cfg.snapshots = l;
    cfg.major = 1;
    cfg.minor = 18;
    memset(&fb, 0, sizeof(fb));
    fb.struct_size = 4;
    cfg.fallback = &fb;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_nonnull(strstr(err.message, "config.fallback"));
    velstatus_plugin_client_init(&fb, sizeof(fb));
    fb.flags = 1;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "config.fallback.flags must be 0");
    fb.flags = 0;
    ck_assert_int_eq(velstatus_snapshot_client_init(&c, sizeof(c), &cfg, &err), VELSTATUS_OK);
    velstatus_snapshot_list_free(l);
}
END_TEST

/* ---- every allocation failure ---- */

START_TEST(failalloc_decoder)
{
    char buf[2048];
    snprintf(buf, sizeof(buf),
             "%s\n{\"type\":\"MODIFIED\",\"object\":%s}{\"kind\":\"VolumeSnapshot\",\"metadata\":{"
             "\"name\":\"\\u0062\",\"namespace\":\"n\"}}",
             vs_json, vs_json);
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_snapshot_list *l = NULL;
        st = velstatus_snapshot_list_from_json(&l, ctx, buf, VELSTATUS_NUL_TERMINATED, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_uint_eq(velstatus_snapshot_list_count(l), 2);
        else
            ck_assert_ptr_null(l);
        velstatus_snapshot_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st)
}
END_TEST

/* An escaped key of an array's item: its unescaping is the key buffer's
 * first allocation, made while the item's kind is looked for. */
START_TEST(failalloc_escaped_key)
{
    static const char json[] = "[{\"\\u0061piVersion\":\"snapshot.storage.k8s.io/v1\",\"kind\":\"VolumeSnapshot\"}]";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_snapshot_list *l = NULL;
        size_t n = 0;
        st = velstatus_snapshot_list_from_json(&l, ctx, json, VELSTATUS_NUL_TERMINATED, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(velstatus_snapshot_list_count(l), 1);
            ck_assert_str_eq(velstatus_snapshot_list_text(l, 0, VELSTATUS_SNAPSHOT_FIELD_API_VERSION, &n),
                             "snapshot.storage.k8s.io/v1");
        } else {
            ck_assert_int_eq(st, VELSTATUS_E_NOMEM);
            ck_assert_ptr_null(l);
        }
        velstatus_snapshot_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st)
}
END_TEST

/* Every error text of both answers: the VolumeSnapshot plugin's (1.18) and
 * the VolumeSnapshotContent action's (1.12): a bad ID, a bad time, a name
 * refused, not found. */
START_TEST(failalloc_progress)
{
    static const struct {
        row_action action;
        const char *id;
    } cases[] = {{ROW_VS, "bad"},
                 {ROW_VS, "ns/name/invalid"},
                 {ROW_VS, "../n/2024-05-01T10:00:00Z"},
                 {ROW_VS, "ns/name/2024-05-01T10:00:00Z"},
                 {ROW_VSC, "bad"},
                 {ROW_VSC, "vsc/invalid"},
                 {ROW_VSC, "../2024-05-01T10:00:00Z"},
                 {ROW_VSC, "vsc/2024-05-01T10:00:00Z"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_status st;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_snapshot_list *l = NULL;
            velstatus_op_progress p;
            char *text = NULL;
            st = velstatus_snapshot_list_from_json(&l, ctx, "[]", 2, NULL);
            velstatus_op_progress_init(&p, sizeof(p));
            if (st == VELSTATUS_OK && cases[i].action == ROW_VS)
                st = velstatus_snapshot_progress(&p, &text, l, VELSTATUS_KIND_BACKUP, cases[i].id,
                                                 VELSTATUS_NUL_TERMINATED, 0, 1, 18, NULL);
            else if (st == VELSTATUS_OK)
                st = velstatus_snapshot_content_progress(&p, &text, l, cases[i].id, VELSTATUS_NUL_TERMINATED, 1, 12,
                                                         NULL);
            if (st == VELSTATUS_OK)
                ck_assert(p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR && text && p.err == text);
            velstatus_free(ctx, text);
            velstatus_snapshot_list_free(l);
        }
        VS_FAILALLOC_END(fa, ctx, st)
    }
}
END_TEST

START_TEST(failalloc_reconcile)
{
    /* 1.18 answers from the objects; 1.11's answers are texts the client allocates */
    static const int minors[] = {18, 11};
    for (size_t i = 0; i < sizeof(minors) / sizeof(minors[0]); i++) {
        velstatus_status st;
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_reconcile_result *r = NULL;
            int calls = 0;
            st = pass(ctx, minors[i], 1, &r, &calls);
            if (st == VELSTATUS_OK)
                ck_assert_uint_eq(velstatus_reconcile_result_failed(r), minors[i] == 11 ? 2 : 1);
            velstatus_reconcile_result_free(r);
        }
        VS_FAILALLOC_END(fa, ctx, st)
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("snapshot");
    TCase *tc = tcase_create("snapshot");
    tcase_add_checked_fixture(tc, vs_test_ctx_setup, vs_test_ctx_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_field_of_both_kinds);
    tcase_add_test(tc, null_resets_pointers_as_go_does);
    tcase_add_test(tc, lists_arrays_and_skipped_kinds);
    tcase_add_test(tc, watch_streams);
    tcase_add_test(tc, errors_name_the_field_and_position);
    tcase_add_test(tc, enum_tokens);
    tcase_add_test(tc, getters_and_find_edges);
    tcase_add_test(tc, kubectl_outputs);
    tcase_add_test(tc, progress_per_release_rows);
    tcase_add_test(tc, content_progress_per_release_rows);
    tcase_add_test(tc, go_time_parse_vectors);
    tcase_add_test(tc, progress_arguments);
    tcase_add_test(tc, reconcile_with_the_client);
    tcase_add_test(tc, reconcile_content_operations);
    tcase_add_test(tc, backup_cancel_and_names);
    tcase_add_test(tc, client_arguments);
    tcase_add_test(tc, client_cancel_and_names);
    tcase_add_test(tc, client_fallback_arguments);
    tcase_add_test(tc, failalloc_decoder);
    tcase_add_test(tc, failalloc_escaped_key);
    tcase_add_test(tc, failalloc_progress);
    tcase_add_test(tc, failalloc_reconcile);
    suite_add_tcase(s, tc);
    return s;
}
