/* SPDX-License-Identifier: Apache-2.0 */
/* The data mover (datamover.h): the DataUpload/DataDownload decoder on
 * objects as users paste them (openshift/oadp-operator #1482) and on
 * Kubernetes' key semantics, lists and errors; the CSI PVC plugin's
 * Progress and Cancel per release from tests/data/releases/csi-pvc-plugin.txt
 * (the plugins' own unit tests and this project's cases); the host plugin
 * client under velstatus_oplist_reconcile(); allocation failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <velstatus.h>

#include "failalloc.h"
#include "harness.h"

#define N_CASES(a) (sizeof(a) / sizeof((a)[0]))
/* Returns the status of x from the enclosing function when it is not OK. */
#define TRY(x)                      \
    do {                            \
        velstatus_status st_ = (x); \
        if (st_ != VELSTATUS_OK)    \
            return st_;             \
    } while (0)


static velstatus_dm_list *decode(const char *json)
{
    velstatus_dm_list *l = NULL;
    velstatus_error err;
    velstatus_status st = velstatus_dm_list_from_json(&l, vs_tctx, json, VELSTATUS_NUL_TERMINATED, &err);
    ck_assert_msg(st == VELSTATUS_OK, "%s: %s", json, err.message);
    return l;
}

/* Text field f of object i is want (NULL: absent). */
static void expect_text(const velstatus_dm_list *l, size_t i, velstatus_dm_text f, const char *want)
{
    size_t len = 99;
    const char *s = velstatus_dm_list_text(l, i, f, &len);
    if (!want) {
        ck_assert_msg(!s && len == 0, "field %d: \"%s\", want absent", (int)f, s ? s : "");
        return;
    }
    ck_assert_msg(s && len == strlen(want) && memcmp(s, want, len) == 0, "field %d: \"%s\", want \"%s\"", (int)f,
                  s ? s : "(absent)", want);
}

static void expect_time(const velstatus_dm_list *l, size_t i, velstatus_dm_time w, const char *want)
{
    int64_t ns = 7;
    int has = velstatus_dm_list_time(l, i, w, &ns);
    if (!want) {
        ck_assert_msg(!has && ns == 0, "time %d present, want absent", (int)w);
        return;
    }
    ck_assert_msg(has, "time %d absent, want %s", (int)w, want);
    ck_assert_int_eq(ns, vs_test_ns(want));
}

static void expect_int(const velstatus_dm_list *l, size_t i, velstatus_dm_int w, int has, int64_t want)
{
    int64_t v = 7;
    ck_assert_int_eq(velstatus_dm_list_int(l, i, w, &v), has);
    ck_assert_int_eq(v, has ? want : 0);
}

/* The DataUpload and DataDownload pasted in openshift/oadp-operator #1482, every field. */
START_TEST(objects_as_users_paste_them)
{
    size_t n;
    char *text = vs_test_read_data("datamover/oadp-1482-list.json", &n);
    velstatus_dm_list *l = NULL;
    ck_assert_int_eq(velstatus_dm_list_from_json(&l, vs_tctx, text, n, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_dm_list_count(l), 2);
    ck_assert_uint_eq(velstatus_dm_list_skipped(l), 0);
    ck_assert_int_eq(velstatus_dm_list_kind(l, 0), VELSTATUS_DM_UPLOAD);
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_COMPLETED);
    expect_text(l, 0, VELSTATUS_DM_TEXT_NAME, "mongo-persistent-jfchd");
    expect_text(l, 0, VELSTATUS_DM_TEXT_NAMESPACE, "openshift-adp");
    expect_text(l, 0, VELSTATUS_DM_TEXT_UID, "74e46f91-36cb-4924-badc-b4a5b0501479");
    expect_text(l, 0, VELSTATUS_DM_TEXT_OPERATION_ID,
                "du-890610ca-26f9-451f-b855-a057d2950351.cc85de73-69bc-49c72363e");
    expect_text(l, 0, VELSTATUS_DM_TEXT_BACKUP_NAME, "mongo-persistent");
    expect_text(l, 0, VELSTATUS_DM_TEXT_BACKUP_UID, "890610ca-26f9-451f-b855-a057d2950351");
    expect_text(l, 0, VELSTATUS_DM_TEXT_PVC_UID, "cc85de73-69bc-49c1-ae4d-98e829e85545");
    expect_text(l, 0, VELSTATUS_DM_TEXT_ACCEPTED_BY, "10.241.0.6");
    expect_text(l, 0, VELSTATUS_DM_TEXT_RESTORE_NAME, NULL);
    expect_text(l, 0, VELSTATUS_DM_TEXT_BSL, "sample-dpa-1");
    expect_text(l, 0, VELSTATUS_DM_TEXT_VOLUME_SNAPSHOT, "velero-mongo-x64kh");
    expect_text(l, 0, VELSTATUS_DM_TEXT_STORAGE_CLASS, "ibmc-vpc-block-10iops-tier");
    expect_text(l, 0, VELSTATUS_DM_TEXT_SNAPSHOT_CLASS, "ibmc-vpcblock-snapshot");
    expect_text(l, 0, VELSTATUS_DM_TEXT_CSI_DRIVER, NULL);
    expect_text(l, 0, VELSTATUS_DM_TEXT_OPERATION_TIMEOUT, "10m0s");
    expect_text(l, 0, VELSTATUS_DM_TEXT_SNAPSHOT_TYPE, "CSI");
    expect_text(l, 0, VELSTATUS_DM_TEXT_SOURCE_NAMESPACE, "mongo-persistent");
    expect_text(l, 0, VELSTATUS_DM_TEXT_SOURCE_PVC, "mongo");
    expect_text(l, 0, VELSTATUS_DM_TEXT_NODE, "10.241.0.4");
    expect_text(l, 0, VELSTATUS_DM_TEXT_PATH,
                "/host_pods/4833cdb4-41e4-4818-bc4a-46fec660d570/volumeDevices/"
                "kubernetes.io~csi/pvc-ec1cc924-c30a-401f-b850-6ebeebb081f5");
    expect_text(l, 0, VELSTATUS_DM_TEXT_PHASE, "Completed");
    expect_text(l, 0, VELSTATUS_DM_TEXT_MESSAGE, NULL);
    expect_text(l, 0, VELSTATUS_DM_TEXT_TARGET_PVC, NULL); /* a DataDownload's field */
    expect_time(l, 0, VELSTATUS_DM_TIME_CREATED, "2024-08-13T17:22:02Z");
    expect_time(l, 0, VELSTATUS_DM_TIME_COMPLETED, "2024-08-13T17:24:11Z");
    expect_time(l, 0, VELSTATUS_DM_TIME_STARTED, NULL);
    expect_int(l, 0, VELSTATUS_DM_INT_GENERATION, 1, 11);
    expect_int(l, 0, VELSTATUS_DM_INT_CANCEL, 0, 0);

    ck_assert_int_eq(velstatus_dm_list_kind(l, 1), VELSTATUS_DM_DOWNLOAD);
    expect_text(l, 1, VELSTATUS_DM_TEXT_RESTORE_NAME, "mongo-persistent");
    expect_text(l, 1, VELSTATUS_DM_TEXT_RESTORE_UID, "bb5d38a5-6a30-4e2c-83b5-9a28f973fec7");
    expect_text(l, 1, VELSTATUS_DM_TEXT_SNAPSHOT_ID, "f40671a31902bf955b39ce0b90b54284");
    expect_text(l, 1, VELSTATUS_DM_TEXT_TARGET_PVC, "mongo");
    expect_text(l, 1, VELSTATUS_DM_TEXT_TARGET_PV, "");
    expect_text(l, 1, VELSTATUS_DM_TEXT_TARGET_NAMESPACE, "mongo-persistent");
    expect_text(l, 1, VELSTATUS_DM_TEXT_SOURCE_PVC, NULL); /* a DataUpload's field */
    expect_time(l, 1, VELSTATUS_DM_TIME_STARTED, "2024-08-13T17:35:04Z");
    expect_int(l, 1, VELSTATUS_DM_INT_BYTES_DONE, 1, INT64_C(10737418240));
    expect_int(l, 1, VELSTATUS_DM_INT_TOTAL_BYTES, 1, INT64_C(10737418240));
    velstatus_dm_list_free(l);
    free(text);

    /* kubectl writes one object as itself */
    text = vs_test_read_data("datamover/oadp-1482-datadownload.json", &n);
    ck_assert_int_eq(velstatus_dm_list_from_json(&l, vs_tctx, text, n, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_dm_list_count(l), 1);
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_COMPLETED);
    velstatus_dm_list_free(l);
    free(text);
}
END_TEST

static void expect_span(const char *name, const char *what, const char *t, size_t n, const char *want);

/* A DataUpload as Velero's builder makes it, written by encoding/json: the
 * nulls and empty strings of a Go struct's zero values. */
START_TEST(object_as_velero_builder_writes_it)
{
    size_t n;
    char *text = vs_test_read_data("datamover/velero-builder-dataupload.json", &n);
    velstatus_dm_list *l = NULL;
    velstatus_op_progress p;
    char *t = (char *)1;
    ck_assert_int_eq(velstatus_dm_list_from_json(&l, vs_tctx, text, n, NULL), VELSTATUS_OK);
    expect_time(l, 0, VELSTATUS_DM_TIME_CREATED, NULL);
    expect_text(l, 0, VELSTATUS_DM_TEXT_VOLUME_SNAPSHOT, NULL);
    expect_text(l, 0, VELSTATUS_DM_TEXT_SOURCE_PVC, "");
    expect_text(l, 0, VELSTATUS_DM_TEXT_OPERATION_TIMEOUT, "0s");
    expect_int(l, 0, VELSTATUS_DM_INT_CANCEL, 0, 0);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_dm_progress(&p, &t, vs_tctx, l, VELSTATUS_DM_UPLOAD, "du-1", 4, NULL, 0, 1, 18, NULL),
                     VELSTATUS_OK);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(p.report, VELSTATUS_OP_REPORT_PROGRESS);
    ck_assert(!p.completed && p.n_completed == 10 && p.n_total == 20 && p.has_started && !p.has_updated);
    ck_assert_int_eq(p.started_ns, vs_test_ns("2024-05-01T10:00:05Z"));
    expect_span("builder", "description", p.description, p.description_len, "InProgress");
    velstatus_dm_list_free(l);
    free(text);
}
END_TEST

/* The fields added in later releases, as Velero's types declare them. */
START_TEST(fields_of_later_releases)
{
    velstatus_dm_list *l =
        decode("[{\"kind\":\"DataUpload\",\"spec\":{\"cancel\":true,\"csiSnapshot\":{\"driver\":\"ebs.csi.aws.com\"}},"
               "\"status\":{\"nodeOS\":\"linux\",\"acceptedByNode\":\"n1\",\"acceptedTimestamp\":"
               "\"2025-01-06T10:00:00Z\",\"incrementalBytes\":4096,\"snapshotID\":\"s1\"}},"
               "{\"kind\":\"DataDownload\",\"spec\":{\"cancel\":false,\"nodeOS\":\"windows\",\"snapshotSize\":"
               "123,\"snapshotID\":\"s2\"},\"status\":{\"nodeOS\":\"ignored\",\"incrementalBytes\":1}}]");
    expect_int(l, 0, VELSTATUS_DM_INT_CANCEL, 1, 1);
    expect_text(l, 0, VELSTATUS_DM_TEXT_CSI_DRIVER, "ebs.csi.aws.com");
    expect_text(l, 0, VELSTATUS_DM_TEXT_NODE_OS, "linux");
    expect_text(l, 0, VELSTATUS_DM_TEXT_ACCEPTED_BY_NODE, "n1");
    expect_text(l, 0, VELSTATUS_DM_TEXT_SNAPSHOT_ID, "s1");
    expect_time(l, 0, VELSTATUS_DM_TIME_ACCEPTED, "2025-01-06T10:00:00Z");
    expect_int(l, 0, VELSTATUS_DM_INT_INCREMENTAL_BYTES, 1, 4096);
    expect_int(l, 1, VELSTATUS_DM_INT_CANCEL, 1, 0);
    expect_text(l, 1, VELSTATUS_DM_TEXT_NODE_OS, "windows"); /* a DataDownload's is in its spec */
    expect_text(l, 1, VELSTATUS_DM_TEXT_SNAPSHOT_ID, "s2");
    expect_int(l, 1, VELSTATUS_DM_INT_SNAPSHOT_SIZE, 1, 123);
    expect_int(l, 1, VELSTATUS_DM_INT_INCREMENTAL_BYTES, 0, 0);
    velstatus_dm_list_free(l);
}
END_TEST

/* Keys as sigs.k8s.io/json reads them, and Go's null for each field type. */
START_TEST(keys_and_nulls_as_kubernetes_reads_them)
{
    velstatus_dm_list *l = decode(
        "{\"kind\":\"DataUpload\",\"metadata\":{\"labels\":{\"velero.io/async-operation-id\":\"a\","
        "\"velero.io/async-operation-id\":\"b\",\"velero.io/backup-name\":\"x\"},\"labels\":{\"velero.io/backup-uid\":"
        "\"u\"},\"creationTimestamp\":\"2024-01-01T00:00:00Z\",\"creationTimestamp\":null},"
        "\"status\":{\"phase\":\"InProgress\",\"phase\":null,\"Message\":\"no\",\"\\u006dessage\":\"m\","
        "\"startTimestamp\":\"2024-01-01T00:00:00Z\",\"progress\":{\"bytesDone\":1},\"progress\":{\"totalBytes\":2},"
        "\"progress\":null}}");
    expect_text(l, 0, VELSTATUS_DM_TEXT_OPERATION_ID, "b"); /* the last one wins */
    expect_text(l, 0, VELSTATUS_DM_TEXT_BACKUP_NAME, "x");  /* a repeated map merges */
    expect_text(l, 0, VELSTATUS_DM_TEXT_BACKUP_UID, "u");
    expect_time(l, 0, VELSTATUS_DM_TIME_CREATED, NULL);       /* metav1.Time reads null as zero */
    expect_text(l, 0, VELSTATUS_DM_TEXT_PHASE, "InProgress"); /* a string keeps its value */
    expect_text(l, 0, VELSTATUS_DM_TEXT_MESSAGE, "m");        /* escaped key; case-sensitive */
    expect_time(l, 0, VELSTATUS_DM_TIME_STARTED, "2024-01-01T00:00:00Z");
    expect_int(l, 0, VELSTATUS_DM_INT_BYTES_DONE, 1, 1); /* a repeated struct merges, null keeps it */
    expect_int(l, 0, VELSTATUS_DM_INT_TOTAL_BYTES, 1, 2);
    velstatus_dm_list_free(l);

    l = decode("{\"kind\":\"DataDownload\",\"metadata\":{\"labels\":{\"velero.io/restore-name\":\"r\"},"
               "\"labels\":null,\"labels\":{\"velero.io/restore-uid\":null}},"
               "\"status\":{\"startTimestamp\":\"2024-01-01T00:00:00Z\",\"startTimestamp\":null}}");
    expect_text(l, 0, VELSTATUS_DM_TEXT_RESTORE_NAME, NULL); /* a null map is nil */
    expect_text(l, 0, VELSTATUS_DM_TEXT_RESTORE_UID, "");    /* a null map value is "" */
    expect_time(l, 0, VELSTATUS_DM_TIME_STARTED, NULL);      /* a null pointer is nil */
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_NEW);
    velstatus_dm_list_free(l);
}
END_TEST

START_TEST(lists_arrays_and_skipped_kinds)
{
    static const struct {
        const char *json;
        size_t count, skipped;
    } cases[] = {
        {"{\"kind\":\"DataUploadList\",\"items\":[{\"kind\":\"DataUpload\"},{\"kind\":\"DataUpload\"}]}", 2, 0},
        {"{\"kind\":\"DataDownloadList\",\"items\":[{\"kind\":\"DataDownload\"}]}", 1, 0},
        {"{\"items\":[{\"kind\":\"DataUpload\"},{\"kind\":\"PodVolumeBackup\"},7,null]}", 1, 3},
        {"[{\"kind\":\"DataDownload\"},{\"kind\":\"Backup\"}]", 1, 1},
        {"{\"kind\":\"Backup\",\"status\":{\"phase\":5}}", 0, 1},
        {"[]", 0, 0},
    };
    for (size_t i = 0; i < N_CASES(cases); i++) {
        velstatus_dm_list *l = decode(cases[i].json);
        ck_assert_msg(velstatus_dm_list_count(l) == cases[i].count, "%s: count", cases[i].json);
        ck_assert_msg(velstatus_dm_list_skipped(l) == cases[i].skipped, "%s: skipped", cases[i].json);
        velstatus_dm_list_free(l);
    }
}
END_TEST

/* `kubectl get datauploads -n velero -w -o json`: concatenated objects, the
 * last state of each wins; with --output-watch-events, events, DELETED
 * removes; a List in a stream is its objects. */
START_TEST(watch_streams)
{
    velstatus_dm_list *l =
        decode("{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"a\"}}\n"
               "{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"b\"},\"status\":{\"phase\":"
               "\"Accepted\"}}\n"
               "{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"a\"},\"status\":{\"phase\":"
               "\"InProgress\"}}\n"
               "{\"kind\":\"DataDownload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"a\"}}"
               "{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"other\",\"name\":\"a\"}}\n");
    ck_assert_uint_eq(velstatus_dm_list_count(l), 4); /* first-seen order, later states in place */
    expect_text(l, 0, VELSTATUS_DM_TEXT_NAME, "a");
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_IN_PROGRESS);
    ck_assert_int_eq(velstatus_dm_list_phase(l, 1), VELSTATUS_DM_PHASE_ACCEPTED);
    ck_assert_int_eq(velstatus_dm_list_kind(l, 2), VELSTATUS_DM_DOWNLOAD);
    expect_text(l, 3, VELSTATUS_DM_TEXT_NAMESPACE, "other");
    velstatus_dm_list_free(l);

    l = decode("{\"type\":\"ADDED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\"}}}"
               "{\"type\":\"ADDED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\"}}}"
               "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\"},"
               "\"status\":{\"phase\":\"Completed\"}}}"
               "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{}}}"
               "{\"type\":\"DELETED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\"}}}"
               "{\"type\":\"DELETED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"zz\"}}}"
               "{\"type\":\"ADDED\",\"object\":{\"kind\":\"PodVolumeBackup\"}}"
               "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}}");
    ck_assert_uint_eq(velstatus_dm_list_count(l), 1);
    ck_assert_uint_eq(velstatus_dm_list_skipped(l), 2);
    expect_text(l, 0, VELSTATUS_DM_TEXT_NAME, "a");
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_COMPLETED);
    velstatus_dm_list_free(l);

    /* one event alone; a List in a stream */
    l = decode("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"DataDownload\",\"metadata\":{\"name\":\"a\"}}}");
    ck_assert_int_eq(velstatus_dm_list_kind(l, 0), VELSTATUS_DM_DOWNLOAD);
    velstatus_dm_list_free(l);
    l = decode("{\"kind\":\"List\",\"items\":[{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\"}}]}"
               "[{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":\"Failed\"}}]");
    ck_assert_uint_eq(velstatus_dm_list_count(l), 1);
    ck_assert_int_eq(velstatus_dm_list_phase(l, 0), VELSTATUS_DM_PHASE_FAILED);
    velstatus_dm_list_free(l);
}
END_TEST

START_TEST(errors_name_the_field_and_position)
{
    static const struct {
        const char *json, *at, *msg;
        velstatus_status st;
    } cases[] = {
        {"{\"items\":[{\"kind\":5}]}", "5}", "items[0].kind: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"status\":{\"phase\":5}}", "5}", "status.phase: expected a string, got a number",
         VELSTATUS_E_SCHEMA},
        {"{\"items\":[{\"kind\":\"DataUpload\"},{\"kind\":\"DataUpload\",\"status\":{\"progress\":{\"bytesDone\":"
         "\"1\"}}}]}",
         "\"1\"", "items[1].status.progress.bytesDone: expected an integer, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"status\":{\"progress\":[]}}", "[]", "status.progress: expected an object",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"metadata\":[]}", "[]", "metadata: expected an object, got an array",
         VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"metadata\":{\"labels\":{\"velero.io/async-operation-id\":1}}}", "1}",
         "metadata.labels.velero.io/async-operation-id: expected a string, got a number", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataDownload\",\"spec\":{\"cancel\":\"true\"}}", "\"true\"",
         "spec.cancel: expected a boolean, got a string", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"status\":{\"startTimestamp\":\"2024-13-01T00:00:00Z\"}}", "13-",
         "status.startTimestamp: not an RFC 3339 time", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataDownload\",\"spec\":{\"targetVolume\":{\"pvc\":false}}}", "false}",
         "spec.targetVolume.pvc: expected a string, got a boolean", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",\"status\":{\"incrementalBytes\":1.5}}", "1.5",
         "status.incrementalBytes: expected an integer", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"PodList\",\"items\":[]}", "\"PodList\"", "kind: expected \"List\", \"DataUploadList\" or",
         VELSTATUS_E_SCHEMA},
        {"\"DataUpload\"", "\"DataUpload\"", "a DataUpload or DataDownload", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\",} ", ",}", "invalid JSON", VELSTATUS_E_PARSE},
        {"{\"kind\":\"DataUpload\",\"status\":{\"progress\":{\"totalBytes\":1e999}}}", "1e999", "invalid JSON",
         VELSTATUS_E_RANGE},
        {"{\"kind\":\"DataUpload\"} {\"type\":\"REPLACED\",\"object\":{}}", "\"REPLACED\"", "type: expected \"ADDED\"",
         VELSTATUS_E_SCHEMA},
        {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"DataUpload\",\"spec\":{\"cancel\":1}}}", "1}",
         "object.spec.cancel: expected a boolean", VELSTATUS_E_SCHEMA},
        {"{\"type\":\"ADDED\",\"object\":[]}", "[]", "object: expected an object", VELSTATUS_E_SCHEMA},
        {"{\"kind\":\"DataUpload\"} x", "x", "invalid JSON", VELSTATUS_E_PARSE},
        {" ", " ", "invalid JSON", VELSTATUS_E_PARSE},
    };
    for (size_t i = 0; i < N_CASES(cases); i++) {
        velstatus_dm_list *l = (velstatus_dm_list *)1;
        velstatus_error err;
        velstatus_status st = velstatus_dm_list_from_json(&l, vs_tctx, cases[i].json, VELSTATUS_NUL_TERMINATED, &err);
        ck_assert_msg(st == cases[i].st, "%s: status %d (%s)", cases[i].json, (int)st, err.message);
        ck_assert_ptr_null(l);
        ck_assert_msg(strstr(err.message, cases[i].msg), "%s: message \"%s\"", cases[i].json, err.message);
        if (st == VELSTATUS_E_SCHEMA)
            vs_test_assert_position(&err, cases[i].json, strstr(cases[i].json, cases[i].at));
    }
    {
        velstatus_dm_list *l = NULL;
        int64_t v = -1;
        ck_assert_int_eq(velstatus_dm_list_from_json(&l, vs_tctx,
                                                     "{\"kind\":\"DataUpload\",\"status\":{\"progress\":{"
                                                     "\"bytesDone\":5}}}",
                                                     VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(velstatus_dm_list_int(l, 0, VELSTATUS_DM_INT_BYTES_DONE, &v), 1);
        ck_assert_int_eq(v, 5);
        ck_assert_int_eq(velstatus_dm_list_int(l, 0, VELSTATUS_DM_INT_TOTAL_BYTES, &v), 0);
        ck_assert_int_eq(velstatus_dm_list_int(l, 0, (velstatus_dm_int)99, &v), 0);
        ck_assert_int_eq(velstatus_dm_list_int(l, 1, VELSTATUS_DM_INT_BYTES_DONE, &v), 0);
        ck_assert_int_eq(velstatus_dm_list_int(NULL, 0, VELSTATUS_DM_INT_BYTES_DONE, &v), 0);
        velstatus_dm_list_free(l);
    }
    ck_assert_int_eq(velstatus_dm_list_from_json(NULL, vs_tctx, "{}", 2, NULL), VELSTATUS_E_INVALID);
}
END_TEST

START_TEST(decoder_allocation_failures)
{
    size_t n;
    char *text = vs_test_read_data("datamover/oadp-1482-list.json", &n);
    static const char stream[] =
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\\u0041\"}}}"
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\"}}}"
        "{\"type\":\"DELETED\",\"object\":{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\"}}}";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_dm_list *l = NULL;
        st = velstatus_dm_list_from_json(&l, ctx, stream, VELSTATUS_NUL_TERMINATED, NULL);
        if (st == VELSTATUS_OK)
            ck_assert_str_eq(velstatus_dm_list_text(l, 0, VELSTATUS_DM_TEXT_NAME, NULL), "aA");
        else
            ck_assert_ptr_null(l);
        velstatus_dm_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_dm_list *l = NULL;
        st = velstatus_dm_list_from_json(&l, ctx, text, n, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(velstatus_dm_list_count(l), 2);
            ck_assert_str_eq(velstatus_dm_list_text(l, 1, VELSTATUS_DM_TEXT_TARGET_PVC, NULL), "mongo");
        } else {
            ck_assert_ptr_null(l);
        }
        velstatus_dm_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(text);
}
END_TEST

START_TEST(enums_and_getters_without_an_object)
{
    static const char *const phases[] = {"New",      "Accepted",  "Prepared", "InProgress", "Canceling",
                                         "Canceled", "Completed", "Failed",   "Unknown"};
    velstatus_dm_phase ph = VELSTATUS_DM_PHASE_FAILED;
    velstatus_dm_kind k = VELSTATUS_DM_UPLOAD;
    int64_t v = 5;
    size_t len = 5;
    for (int i = 0; i < 9; i++) {
        ck_assert_str_eq(velstatus_dm_phase_to_string((velstatus_dm_phase)i), phases[i]);
        ck_assert_int_eq(velstatus_dm_phase_from_string(&ph, phases[i], VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
        ck_assert_int_eq(ph, i);
    }
    ck_assert_int_eq(velstatus_dm_phase_from_string(&ph, "", 0, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ph, VELSTATUS_DM_PHASE_NEW);
    ck_assert_int_eq(velstatus_dm_phase_from_string(&ph, "inprogress", VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_dm_phase_to_string(VELSTATUS_DM_PHASE_INVALID));
    ck_assert_ptr_null(velstatus_dm_phase_to_string((velstatus_dm_phase)9));
    ck_assert_str_eq(velstatus_dm_kind_to_string(VELSTATUS_DM_DOWNLOAD), "download");
    ck_assert_int_eq(velstatus_dm_kind_from_string(&k, "download", VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(k, VELSTATUS_DM_DOWNLOAD);
    ck_assert_int_eq(velstatus_dm_kind_from_string(&k, "Upload", VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_dm_kind_to_string(VELSTATUS_DM_KIND_INVALID));
    ck_assert_uint_eq(velstatus_dm_list_count(NULL), 0);
    ck_assert_uint_eq(velstatus_dm_list_skipped(NULL), 0);
    ck_assert_int_eq(velstatus_dm_list_kind(NULL, 0), VELSTATUS_DM_KIND_INVALID);
    ck_assert_int_eq(velstatus_dm_list_phase(NULL, 0), VELSTATUS_DM_PHASE_INVALID);
    ck_assert_ptr_null(velstatus_dm_list_text(NULL, 0, VELSTATUS_DM_TEXT_NAME, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(velstatus_dm_list_time(NULL, 0, VELSTATUS_DM_TIME_CREATED, &v), 0);
    ck_assert_int_eq(v, 0);
    {
        velstatus_dm_list *l = decode("{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\"}}");
        ck_assert_int_eq(velstatus_dm_list_kind(l, 1), VELSTATUS_DM_KIND_INVALID);
        ck_assert_ptr_null(velstatus_dm_list_text(l, 0, (velstatus_dm_text)99, NULL));
        ck_assert_ptr_null(velstatus_dm_list_text(l, 0, (velstatus_dm_text)-1, NULL));
        ck_assert_int_eq(velstatus_dm_list_int(l, 0, (velstatus_dm_int)99, NULL), 0);
        ck_assert_int_eq(velstatus_dm_list_time(l, 0, (velstatus_dm_time)99, NULL), 0);
        ck_assert_str_eq(velstatus_dm_list_text(l, 0, VELSTATUS_DM_TEXT_NAME, NULL), "a");
        velstatus_dm_list_free(l);
    }
}
END_TEST

/* ---- the CSI PVC plugin's answers, per release ---- */

enum { NCOL = 8 };

static char *trim(char *s)
{
    char *e;
    while (*s == ' ')
        s++;
    e = s + strlen(s);
    while (e > s && e[-1] == ' ')
        *--e = '\0';
    return s;
}

/* "1.12-1.18", "1.14-", "1.13", joined by ",": whether minor is in it. */
static int in_releases(const char *spec, int minor)
{
    char buf[64], *save = NULL;
    ck_assert_uint_lt(strlen(spec), sizeof(buf));
    strcpy(buf, spec);
    for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int lo = 0, hi = 0, k;
        char dash = 0;
        k = sscanf(p, "1.%d%c1.%d", &lo, &dash, &hi);
        if ((k == 1 && minor == lo) || (k == 2 && dash == '-' && minor >= lo) || (k == 3 && minor >= lo && minor <= hi))
            return 1;
        ck_assert_msg(k >= 1, "bad releases \"%s\"", spec);
    }
    return 0;
}

/* The text t[0..n) is want (what the name names). */
static void expect_span(const char *name, const char *what, const char *t, size_t n, const char *want)
{
    ck_assert_msg(n == strlen(want) && (n == 0 || memcmp(t, want, n) == 0), "%s: %s \"%.*s\", want \"%s\"", name, what,
                  (int)n, t ? t : "", want);
}

static const char grpc[] = "rpc error: code = Unknown desc = ";

/* The expected text of an error the plugin returns: after the gRPC hop. */
static void expect_error(const char *name, const char *what, const char *t, size_t n, const char *bare)
{
    char want[1024];
    snprintf(want, sizeof(want), "%s%s", grpc, bare);
    expect_span(name, what, t, n, want);
}

/* One "k=v" of the Progress column against the answer. */
static void expect_field(const char *name, const velstatus_op_progress *p, const char *k, const char *v)
{
    if (strcmp(k, "desc") == 0)
        expect_span(name, "description", p->description, p->description_len, v);
    else if (strcmp(k, "units") == 0)
        expect_span(name, "units", p->operation_units, p->operation_units_len, v);
    else if (strcmp(k, "err") == 0)
        expect_span(name, "err", p->err, p->err_len, v);
    else if (strcmp(k, "done") == 0)
        ck_assert_msg(p->n_completed == strtoll(v, NULL, 10), "%s: nCompleted %lld", name, (long long)p->n_completed);
    else if (strcmp(k, "total") == 0)
        ck_assert_msg(p->n_total == strtoll(v, NULL, 10), "%s: nTotal %lld", name, (long long)p->n_total);
    else if (strcmp(k, "completed") == 0)
        ck_assert_msg(p->completed == atoi(v), "%s: completed %d", name, p->completed);
    else if (strcmp(k, "started") == 0)
        ck_assert_msg(p->has_started && p->started_ns == vs_test_ns(v), "%s: started", name);
    else if (strcmp(k, "updated") == 0)
        ck_assert_msg(p->has_updated && p->updated_ns == vs_test_ns(v), "%s: updated", name);
    else
        ck_abort_msg("%s: unknown field %s", name, k);
}

static void expect_progress(const char *name, const velstatus_op_progress *p, char *want)
{
    char *save = NULL;
    int started = 0, updated = 0;
    if (strncmp(want, "error=", 6) == 0) {
        ck_assert_msg(p->report == VELSTATUS_OP_REPORT_PROGRESS_ERROR, "%s: report %u", name, p->report);
        expect_error(name, "Progress error", p->err, p->err_len, want + 6);
        return;
    }
    ck_assert_msg(p->report == VELSTATUS_OP_REPORT_PROGRESS, "%s: report %u", name, p->report);
    if (strcmp(want, "empty") == 0) {
        ck_assert_msg(!p->completed && !p->n_completed && !p->n_total && !p->err_len && !p->description_len &&
                          !p->operation_units_len && !p->has_started && !p->has_updated,
                      "%s: not the empty OperationProgress", name);
        return;
    }
    for (char *kv = strtok_r(want, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert_ptr_nonnull(eq);
        *eq = '\0';
        started |= strcmp(kv, "started") == 0;
        updated |= strcmp(kv, "updated") == 0;
        expect_field(name, p, kv, eq + 1);
    }
    ck_assert_msg(started || !p->has_started, "%s: started set", name);
    ck_assert_msg(updated || !p->has_updated, "%s: updated set", name);
}

static void expect_cancel(const char *name, const velstatus_dm_list *l, size_t index, const char *t, size_t n,
                          const char *want)
{
    if (strcmp(want, "-") == 0)
        return;
    if (strncmp(want, "error=", 6) == 0) {
        ck_assert_msg(index == SIZE_MAX, "%s: Cancel patches", name);
        expect_error(name, "Cancel error", t, n, want + 6);
        return;
    }
    ck_assert_msg(strncmp(want, "patch=", 6) == 0, "%s: bad Cancel column", name);
    ck_assert_msg(index != SIZE_MAX && !t, "%s: Cancel returns \"%s\"", name, t ? t : "");
    {
        char got[256];
        snprintf(got, sizeof(got), "%s/%s", velstatus_dm_list_text(l, index, VELSTATUS_DM_TEXT_NAMESPACE, NULL),
                 velstatus_dm_list_text(l, index, VELSTATUS_DM_TEXT_NAME, NULL));
        ck_assert_msg(strcmp(got, want + 6) == 0, "%s: patches %s, want %s", name, got, want + 6);
    }
}

/* One row of the table under release 1.minor. */
static void run_row(char **c, int minor)
{
    char name[200], want[512];
    velstatus_dm_list *l = decode(c[5]);
    velstatus_dm_kind kind = strcmp(c[2], "upload") == 0 ? VELSTATUS_DM_UPLOAD : VELSTATUS_DM_DOWNLOAD;
    const char *id = strcmp(c[4], "-") == 0 ? "" : c[4];
    velstatus_op_progress p;
    velstatus_error err;
    char *text = (char *)1, *ctext = NULL;
    size_t index = 0, cn = 0;
    snprintf(name, sizeof(name), "%s (1.%d)", c[0], minor);
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_msg(velstatus_dm_progress(&p, &text, vs_tctx, l, kind, id, VELSTATUS_NUL_TERMINATED, c[3],
                                        VELSTATUS_NUL_TERMINATED, 1, minor, &err) == VELSTATUS_OK,
                  "%s: %s", name, err.message);
    ck_assert_msg(strlen(c[6]) < sizeof(want), "%s: column too long", name);
    strcpy(want, c[6]);
    expect_progress(name, &p, want);
    ck_assert_msg((text != NULL) == (p.report == VELSTATUS_OP_REPORT_PROGRESS_ERROR), "%s: text", name);
    velstatus_free(vs_tctx, text);
    ck_assert_int_eq(velstatus_dm_cancel(&index, &ctext, &cn, vs_tctx, l, kind, id, VELSTATUS_NUL_TERMINATED, c[3],
                                         VELSTATUS_NUL_TERMINATED, 1, minor, &err),
                     VELSTATUS_OK);
    expect_cancel(name, l, index, ctext, cn, c[7]);
    velstatus_free(vs_tctx, ctext);
    velstatus_dm_list_free(l);
}

START_TEST(plugin_answers_per_release)
{
    size_t len, rows = 0, runs = 0;
    char *buf = vs_test_read_data("releases/csi-pvc-plugin.txt", &len), *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c[NCOL], *p = line;
        int k = 0;
        if (line[0] == '#' || trim(line)[0] == '\0')
            continue;
        for (; k < NCOL && p; k++) {
            char *bar = strchr(p, '|');
            if (bar)
                *bar = '\0';
            c[k] = trim(p);
            p = bar ? bar + 1 : NULL;
        }
        ck_assert_msg(k == NCOL && !p, "row \"%s\": %d columns", c[0], k);
        rows++;
        for (int minor = 12; minor <= 18; minor++)
            if (in_releases(c[1], minor)) {
                run_row(c, minor);
                runs++;
            }
    }
    ck_assert_uint_ge(rows, 40);
    ck_assert_uint_ge(runs, 250);
    free(buf);
}
END_TEST

/* The hop's text in full, once, and the arguments each call refuses. */
START_TEST(plugin_arguments_and_releases)
{
    velstatus_dm_list *l = decode("[{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"a\","
                                  "\"labels\":{\"velero.io/async-operation-id\":\"du-1\"}}}]");
    velstatus_op_progress p;
    velstatus_error err;
    char *t = NULL;
    size_t index = 0, m = 0;
    velstatus_op_progress_init(&p, sizeof(p));
    ck_assert_int_eq(velstatus_dm_progress(&p, &t, vs_tctx, l, VELSTATUS_DM_UPLOAD, "du-2", 4, NULL, 0, 1, 14, &err),
                     VELSTATUS_OK);
    ck_assert_str_eq(p.err, "rpc error: code = Unknown desc = not found DataUpload for operationID du-2");
    velstatus_free(vs_tctx, t);
    /* release 1.11 has no data mover; 1.19 and 2.0 are not supported */
    ck_assert_int_eq(velstatus_dm_progress(&p, &t, vs_tctx, l, VELSTATUS_DM_UPLOAD, "du-1", 4, NULL, 0, 1, 11, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.11 has no data mover (DataUpload and DataDownload came in 1.12)");
    ck_assert_ptr_null(t);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "du-1", 4, NULL, 0, 1, 19, &index, &m, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.19 is not supported (supported: 1.11 to 1.18)");
    ck_assert_uint_eq(index, SIZE_MAX);
    ck_assert_int_eq(
        velstatus_dm_cancel(&index, &t, NULL, vs_tctx, l, VELSTATUS_DM_DOWNLOAD, "du-1", 4, NULL, 0, 2, 0, &err),
        VELSTATUS_E_INVALID);
    /* an ID the API server's selector refuses */
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "du-1,x", 6, NULL, 0, 1, 18, &index, &m, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "\"du-1,x\" is not a valid label value"), "%s", err.message);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "-du", 3, NULL, 0, 1, 18, NULL, NULL, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD,
                                            "a234567890123456789012345678901234567890123456789012345678901234", 64,
                                            NULL, 0, 1, 18, NULL, NULL, NULL),
                     VELSTATUS_E_INVALID);
    /* an empty ID matches nothing: the plugins refuse it before they list */
    {
        velstatus_dm_list *e = decode("{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\","
                                      "\"labels\":{\"velero.io/async-operation-id\":\"\"}}}");
        ck_assert_int_eq(velstatus_dm_list_find(e, VELSTATUS_DM_UPLOAD, "", 0, NULL, 0, 1, 14, &index, &m, &err),
                         VELSTATUS_OK);
        ck_assert_uint_eq(m, 0);
        ck_assert_uint_eq(index, SIZE_MAX);
        velstatus_dm_list_free(e);
    }
    /* found, in the default namespace "velero" */
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "du-1", VELSTATUS_NUL_TERMINATED, NULL, 0, 1, 12,
                                            &index, &m, &err),
                     VELSTATUS_OK);
    ck_assert_uint_eq(index, 0);
    ck_assert_uint_eq(m, 1);
    /* the NULL arguments */
    ck_assert_int_eq(velstatus_dm_list_find(NULL, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_list_find(l, (velstatus_dm_kind)2, "a", 1, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, NULL, 1, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_progress(NULL, &t, vs_tctx, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_progress(&p, &t, NULL, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_INVALID);
    p.struct_size = 8;
    ck_assert_int_eq(velstatus_dm_progress(&p, &t, vs_tctx, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_dm_cancel(NULL, &t, NULL, vs_tctx, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "index is NULL");
    ck_assert_int_eq(
        velstatus_dm_cancel(&index, NULL, NULL, vs_tctx, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
        VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "text is NULL");
    ck_assert_int_eq(velstatus_dm_cancel(&index, &t, NULL, NULL, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "ctx is NULL");
    ck_assert_int_eq(velstatus_dm_progress(&p, NULL, vs_tctx, l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 0, 1, 18, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "text is NULL");
    /* a NULL namespace with a length, and IDs that are no label value */
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "a", 1, NULL, 2, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "Velero namespace is NULL with length 2"));
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "-a", 2, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "operation ID \"-a\" is not a valid label value"));
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "a-", 2, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "a/b", 3, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_list_find(l, VELSTATUS_DM_UPLOAD, "a.b_c-d", 7, NULL, 0, 1, 18, NULL, NULL, &err),
                     VELSTATUS_OK);
    velstatus_dm_list_free(l);
}
END_TEST

START_TEST(plugin_allocation_failures)
{
    velstatus_status st;
    velstatus_dm_list *l = decode("[{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"name\":\"a\","
                                  "\"labels\":{\"velero.io/async-operation-id\":\"du-1\"}}}]");
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_op_progress p;
        char *t = NULL, *ct = NULL;
        size_t index = 0;
        velstatus_op_progress_init(&p, sizeof(p));
        st = velstatus_dm_progress(&p, &t, ctx, l, VELSTATUS_DM_UPLOAD, "du-2", 4, NULL, 0, 1, 18, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_dm_cancel(&index, &ct, NULL, ctx, l, VELSTATUS_DM_DOWNLOAD, "du-1", 4, NULL, 0, 1, 18, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_ptr_nonnull(t);
            ck_assert_str_eq(ct, "rpc error: code = Unknown desc = didn't find DataDownload");
        }
        velstatus_free(ctx, t);
        velstatus_free(ctx, ct);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    velstatus_dm_list_free(l);
}
END_TEST

/* ---- the host plugin client under the reconcile ---- */

/* The fallback: answers every operation Completed, counts its calls. */
typedef struct fallback {
    int progress, cancel;
} fallback;

static int fb_progress(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    velstatus_op_progress p;
    (void)list;
    (void)i;
    ((fallback *)ud)->progress++;
    velstatus_op_progress_init(&p, sizeof(p));
    p.completed = 1;
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

static int fb_cancel(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    (void)list;
    (void)i;
    (void)reply;
    ((fallback *)ud)->cancel++;
    return 0;
}

/* A backup's operations (Velero 1.14's itemoperations file): three of the
 * CSI PVC plugin, one of another plugin; created at 10:00, now is 12:00. */
static const char backup_ops[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":"
    "\"data-0\"},\"operationID\":\"du-a\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":"
    "\"data-1\"},\"operationID\":\"du-b\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-pvc-backupper\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":"
    "\"data-2\"},\"operationID\":\"du-c\"},\"status\":{\"phase\":\"New\",\"created\":\"2024-05-01T10:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"example.io/other\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pods\",\"Namespace\":\"app\",\"Name\":\"p\"},"
    "\"operationID\":\"x-1\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]";

/* The DataUploads: du-a Completed, du-b Failed, du-c none (or given). */
static const char uploads[] =
    "{\"kind\":\"DataUploadList\",\"items\":[{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\","
    "\"name\":\"b-1\",\"labels\":{\"velero.io/async-operation-id\":\"du-a\"}},\"status\":{\"phase\":\"Completed\","
    "\"progress\":{\"bytesDone\":10,\"totalBytes\":10},\"startTimestamp\":\"2024-05-01T10:00:05Z\","
    "\"completionTimestamp\":\"2024-05-01T10:03:00Z\"}},{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":"
    "\"velero\",\"name\":\"b-2\",\"labels\":{\"velero.io/async-operation-id\":\"du-b\"}},\"status\":{\"phase\":"
    "\"Failed\",\"message\":\"data path error\"}}]}";

/* One reconcile pass of the backup (WaitingForPluginOperations, 1.14) with the client. */
static velstatus_status pass(velstatus_ctx *ctx, const char *dus, const velstatus_plugin_client *fb,
                             velstatus_reconcile_result **r, velstatus_oplist **ops, velstatus_dm_list **l)
{
    velstatus_dm_client *dm = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_policy pol;
    velstatus_status st;
    *r = NULL;
    TRY(velstatus_oplist_from_json(ops, ctx, VELSTATUS_KIND_BACKUP, backup_ops, strlen(backup_ops), NULL));
    TRY(velstatus_dm_list_from_json(l, ctx, dus, VELSTATUS_NUL_TERMINATED, NULL));
    TRY(velstatus_dm_client_new(&dm, ctx, *l, "velero", VELSTATUS_NUL_TERMINATED, 1, 14, fb, NULL));
    ck_assert_int_eq(velstatus_dm_client_init(&client, sizeof(client), dm, NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = vs_test_ns("2024-05-01T12:00:00Z");
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, 14, NULL), VELSTATUS_OK);
    st = velstatus_oplist_reconcile(r, *ops, &client, &o, &pol, NULL);
    velstatus_dm_client_free(dm);
    return st;
}

/* The error of the i-th new error of r is want. */
static void expect_result_error(const velstatus_reconcile_result *r, size_t i, const char *want)
{
    size_t n = 0;
    const char *e = velstatus_reconcile_result_error(r, i, &n);
    expect_span("reconcile", "error", e, n, want);
}

/* The phase Velero 1.14 reaches: du-a Completed, du-b Failed with its
 * message, du-c (a name without "velero.io/") found nowhere: the plugin's
 * not-found error after the gRPC hop; the other plugin's operation goes to
 * the fallback. */
START_TEST(client_under_the_reconcile)
{
    fallback fb = {0, 0};
    velstatus_plugin_client fbc;
    velstatus_reconcile_result *r = NULL;
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *l = NULL;
    size_t n = 0;
    velstatus_plugin_client_init(&fbc, sizeof(fbc));
    fbc.userdata = &fb;
    fbc.progress = fb_progress;
    fbc.cancel = fb_cancel;
    ck_assert_int_eq(pass(vs_tctx, uploads, &fbc, &r, &ops, &l), VELSTATUS_OK);
    ck_assert_int_eq(fb.progress, 1);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_reconcile_result_completed(r), 2);
    ck_assert_uint_eq(velstatus_reconcile_result_failed(r), 2);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 2);
    expect_result_error(r, 0, "data path error, plugin: velero.io/csi-pvc-backupper");
    expect_result_error(r, 1,
                        "rpc error: code = Unknown desc = not found DataUpload for operationID du-c, plugin: "
                        "velero.io/csi-pvc-backupper");
    {
        const velstatus_op *op = velstatus_oplist_at(ops, 0);
        ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_COMPLETED);
        ck_assert_int_eq(velstatus_op_n_total(op), 10);
        ck_assert_str_eq(velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &n), "Completed");
        ck_assert_str_eq(velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &n), "Bytes");
    }
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(l);

    /* du-c New and du-b still InProgress: Velero waits; without a fallback the
     * other plugin's operation gets the manager's lookup error */
    ck_assert_int_eq(pass(vs_tctx,
                          "[{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"labels\":{"
                          "\"velero.io/async-operation-id\":\"du-b\"}},\"status\":{\"phase\":\"InProgress\"}},"
                          "{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"labels\":{"
                          "\"velero.io/async-operation-id\":\"du-c\"}},\"status\":{\"phase\":\"New\"}},"
                          "{\"kind\":\"DataUpload\",\"metadata\":{\"namespace\":\"velero\",\"labels\":{"
                          "\"velero.io/async-operation-id\":\"du-a\"}},\"status\":{\"phase\":\"Accepted\"}}]",
                          NULL, &r, &ops, &l),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r),
                     VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED);
    ck_assert_uint_eq(velstatus_reconcile_result_in_progress(r), 3);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 1);
    expect_result_error(r, 0, "unable to get valid BackupItemActionV2 for \"example.io/other\", plugin: unknown");
    ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(ops, 2)), VELSTATUS_OP_PHASE_NEW);
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(l);
}
END_TEST

/* A restore's operation past its timeout: Cancel is called; the client
 * answers it, the host learns which DataDownload to patch. */
START_TEST(client_cancels_a_timed_out_restore)
{
    static const char ops_json[] =
        "[{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
        "\"velero.io/csi-pvc-restorer\",\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":"
        "\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":\"d\"},\"operationID\":\"dd-1\"},"
        "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T00:00:00Z\"}},"
        "{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
        "\"velero.io/csi-pvc-restorer\",\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":"
        "\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":\"e\"},\"operationID\":\"dd-2\"},"
        "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T00:00:00Z\"}}]";
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *l =
        decode("[{\"kind\":\"DataDownload\",\"metadata\":{\"namespace\":\"velero\","
               "\"name\":\"r-1\",\"labels\":{\"velero.io/async-operation-id\":\"dd-1\"}},"
               "\"status\":{\"phase\":\"InProgress\",\"startTimestamp\":\"2024-05-01T00:00:10Z\"}}]");
    velstatus_dm_client *dm = NULL;
    velstatus_plugin_client client;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_policy pol;
    size_t index = 0;
    char *t = NULL;
    ck_assert_int_eq(
        velstatus_oplist_from_json(&ops, vs_tctx, VELSTATUS_KIND_RESTORE, ops_json, strlen(ops_json), NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 16, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_init(&client, sizeof(client), dm, NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = vs_test_ns("2024-05-01T05:00:00Z"); /* 5h after creation: the default 4h timeout has passed */
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, 16, NULL), VELSTATUS_OK);
    pol.report_cancel_results = 1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, ops, &client, &o, &pol, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
    /* dd-2 has no DataDownload: its Progress error fails it before the
     * timeout is looked at, so only dd-1 is canceled, and its Cancel patches */
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 1);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_index(r, 0), 0);
    ck_assert_ptr_null(velstatus_reconcile_result_cancel_error(r, 0, NULL));
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 2);
    /* a restore's errors are the texts as they are (no plugin suffix) */
    expect_result_error(r, 0, "Asynchronous action timed out");
    expect_result_error(r, 1, "rpc error: code = Unknown desc = didn't find DataDownload");
    ck_assert_int_eq(velstatus_dm_cancel(&index, &t, NULL, vs_tctx, l, VELSTATUS_DM_DOWNLOAD,
                                         velstatus_reconcile_result_canceled_id(r, 0, NULL), VELSTATUS_NUL_TERMINATED,
                                         NULL, 0, 1, 16, NULL),
                     VELSTATUS_OK);
    ck_assert_uint_eq(index, 0);
    ck_assert_ptr_null(t);
    velstatus_reconcile_result_free(r);
    velstatus_dm_client_free(dm);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(l);
}
END_TEST

START_TEST(client_arguments)
{
    velstatus_dm_list *l = decode("[]");
    velstatus_dm_client *dm = (velstatus_dm_client *)1;
    velstatus_plugin_client c, fb;
    velstatus_error err;
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 11, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(dm);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, NULL, NULL, 0, 1, 18, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, NULL, l, NULL, 0, 1, 18, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_client_new(NULL, vs_tctx, l, NULL, 0, 1, 18, NULL, &err), VELSTATUS_E_INVALID);
    memset(&fb, 0, sizeof(fb));
    fb.struct_size = 4;
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 18, &fb, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_null(dm);
    ck_assert_int_eq(velstatus_dm_client_init(&c, sizeof(c), NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, "ns", 2, 1, 18, NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_init(&c, 8, dm, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_dm_client_init(NULL, sizeof(c), dm, &err), VELSTATUS_E_INVALID);
    velstatus_dm_client_free(dm);
    velstatus_dm_client_free(NULL);
    velstatus_dm_list_free(l);
}
END_TEST

/* A backup's records: the CSI PVC backupper under both spellings (with an
 * operation ID that is no label value, so the answer fails with
 * E_INVALID), then names that are not the plugin's: a wrong last letter
 * and the restorer, without and with "velero.io/". */
static const char named_ops[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\","
    "\"operationID\":\"a/b\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-pvc-backupper\","
    "\"operationID\":\"a/b\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-pvc-backuppex\","
    "\"operationID\":\"x-1\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"csi-pvc-restorer\","
    "\"operationID\":\"x-2\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-backuppex\","
    "\"operationID\":\"x-3\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/csi-pvc-restorer\","
    "\"operationID\":\"x-4\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"operationID\":\"x-5\"}}]";

/* The client's callbacks called as the reconcile calls them: the plugin's
 * records get its answer (here the refused operation ID), the others (and
 * a record past the list's end) go to the fallback or pass through. */
START_TEST(client_names_and_fallback_cancel)
{
    static const int ours[] = {1, 1, 0, 0, 0, 0, 0, 0};
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *l = decode("[]");
    velstatus_dm_client *dm = NULL;
    velstatus_plugin_client c, fbc;
    fallback fb = {0, 0};
    ck_assert_int_eq(
        velstatus_oplist_from_json(&ops, vs_tctx, VELSTATUS_KIND_BACKUP, named_ops, VELSTATUS_NUL_TERMINATED, NULL),
        VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_oplist_count(ops), 7);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 18, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_init(&c, sizeof(c), dm, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < 8; i++) {
        int want = ours[i] ? -(int)VELSTATUS_E_INVALID : VELSTATUS_PASSTHROUGH;
        ck_assert_int_eq(c.progress(c.userdata, ops, i, NULL), want);
        ck_assert_int_eq(c.cancel(c.userdata, ops, i, NULL), want);
    }
    velstatus_dm_client_free(dm);
    velstatus_plugin_client_init(&fbc, sizeof(fbc));
    fbc.userdata = &fb;
    fbc.cancel = fb_cancel;
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 18, &fbc, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_init(&c, sizeof(c), dm, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < 8; i++)
        ck_assert_int_eq(c.cancel(c.userdata, ops, i, NULL), ours[i] ? -(int)VELSTATUS_E_INVALID : 0);
    ck_assert_int_eq(fb.cancel, 6);
    ck_assert_int_eq(c.progress(c.userdata, ops, 2, NULL), VELSTATUS_PASSTHROUGH);
    velstatus_dm_client_free(dm);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(l);
}
END_TEST

/* A host client whose Progress keeps every operation in progress and whose
 * Cancel is the data mover client's. */
static int still_running(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    velstatus_op_progress p;
    (void)ud;
    (void)list;
    (void)i;
    velstatus_op_progress_init(&p, sizeof(p));
    return velstatus_op_reply_set_progress(reply, &p, NULL) == VELSTATUS_OK ? 0 : -1;
}

static int dm_cancel_of(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    const velstatus_plugin_client *inner = ud;
    return inner->cancel(inner->userdata, list, i, reply);
}

/* Cancel of an operation whose DataDownload is gone: the client answers
 * the plugin's lookup error as the cancel error. */
START_TEST(client_cancel_error_when_not_found)
{
    static const char ops_json[] =
        "[{\"spec\":{\"restoreName\":\"r\",\"restoreUID\":\"u\",\"restoreItemAction\":"
        "\"velero.io/csi-pvc-restorer\",\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":"
        "\"persistentvolumeclaims\",\"Namespace\":\"app\",\"Name\":\"e\"},\"operationID\":\"dd-2\"},"
        "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T00:00:00Z\"}}]";
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *l = decode("[]");
    velstatus_dm_client *dm = NULL;
    velstatus_plugin_client inner, host;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_policy pol;
    size_t n = 0;
    const char *e;
    ck_assert_int_eq(
        velstatus_oplist_from_json(&ops, vs_tctx, VELSTATUS_KIND_RESTORE, ops_json, strlen(ops_json), NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_new(&dm, vs_tctx, l, NULL, 0, 1, 16, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_client_init(&inner, sizeof(inner), dm, NULL), VELSTATUS_OK);
    velstatus_plugin_client_init(&host, sizeof(host));
    host.userdata = &inner;
    host.progress = still_running;
    host.cancel = dm_cancel_of;
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.now_ns = vs_test_ns("2024-05-01T05:00:00Z");
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, 16, NULL), VELSTATUS_OK);
    pol.report_cancel_results = 1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, ops, &host, &o, &pol, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_canceled_count(r), 1);
    e = velstatus_reconcile_result_cancel_error(r, 0, &n);
    ck_assert_ptr_nonnull(e);
    expect_span("cancel", "error", e, n, "rpc error: code = Unknown desc = didn't find DataDownload");
    velstatus_reconcile_result_free(r);
    velstatus_dm_client_free(dm);
    velstatus_oplist_free(ops);
    velstatus_dm_list_free(l);
}
END_TEST

START_TEST(client_allocation_failures)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_reconcile_result *r = NULL;
        velstatus_oplist *ops = NULL;
        velstatus_dm_list *l = NULL;
        st = pass(ctx, uploads, NULL, &r, &ops, &l);
        if (st == VELSTATUS_OK)
            ck_assert_int_eq(velstatus_reconcile_result_phase(r), VELSTATUS_PHASE_FINALIZING_PARTIALLY_FAILED);
        else
            ck_assert_ptr_null(r);
        velstatus_reconcile_result_free(r);
        velstatus_oplist_free(ops);
        velstatus_dm_list_free(l);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("datamover");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, vs_test_ctx_setup, vs_test_ctx_teardown);
    tcase_add_test(tc, objects_as_users_paste_them);
    tcase_add_test(tc, object_as_velero_builder_writes_it);
    tcase_add_test(tc, fields_of_later_releases);
    tcase_add_test(tc, keys_and_nulls_as_kubernetes_reads_them);
    tcase_add_test(tc, lists_arrays_and_skipped_kinds);
    tcase_add_test(tc, watch_streams);
    tcase_add_test(tc, errors_name_the_field_and_position);
    tcase_add_test(tc, decoder_allocation_failures);
    tcase_add_test(tc, enums_and_getters_without_an_object);
    tcase_add_test(tc, plugin_answers_per_release);
    tcase_add_test(tc, plugin_arguments_and_releases);
    tcase_add_test(tc, plugin_allocation_failures);
    tcase_add_test(tc, client_under_the_reconcile);
    tcase_add_test(tc, client_cancels_a_timed_out_restore);
    tcase_add_test(tc, client_names_and_fallback_cancel);
    tcase_add_test(tc, client_cancel_error_when_not_found);
    tcase_add_test(tc, client_arguments);
    tcase_add_test(tc, client_allocation_failures);
    suite_add_tcase(s, tc);
    return s;
}
