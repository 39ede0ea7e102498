/* SPDX-License-Identifier: Apache-2.0 */
/* The snapshot area's internals (snapshot.h): the decoded objects, which the
 * plugin's answers read. Not installed. */
#ifndef VELSTATUS_SNAPSHOT_PRIVATE_H
#define VELSTATUS_SNAPSHOT_PRIVATE_H

#include "operations/private.h"
#include "phase/private.h"
#include "common/util_pool.h"
#include "velstatus/snapshot.h"
#include "velstatus/watch.h"

/* The text fields are the first values of velstatus_snapshot_field, the
 * times the next ones. */
enum {
    VS_SNAP_NTEXT = VELSTATUS_SNAPSHOT_FIELD_REF_NAMESPACE + 1,
    VS_SNAP_FIRST_TIME = VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP,
    VS_SNAP_NTIME = VELSTATUS_SNAPSHOT_FIELD_ERROR_TIME - VELSTATUS_SNAPSHOT_FIELD_CREATION_TIMESTAMP + 1,
    VS_SNAP_NFIELD = VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE + 1
};

typedef struct vs_text {
    const char *s; /* NULL: absent; in the list's pool */
    size_t len;
} vs_text;

/* One VolumeSnapshot or VolumeSnapshotContent. */
typedef struct vs_snap {
    velstatus_snapshot_kind kind;
    vs_text text[VS_SNAP_NTEXT];
    int has_time[VS_SNAP_NTIME];
    int64_t time[VS_SNAP_NTIME];
    int has_status, has_error, has_ready, ready, has_size, has_ctime;
    int64_t size, ctime; /* a VSC's status.restoreSize and status.creationTime */
} vs_snap;

typedef struct velstatus_snapshot_list vs_snap_list;
struct velstatus_snapshot_list {
    velstatus__pool pool;
    vs_snap *items;
    size_t n, cap, skipped;
};

/* A piece of a text (not NUL-terminated). */
typedef struct vs_part {
    const char *s;
    size_t n;
} vs_part;

/* Go's time.Parse(time.RFC3339, s[0..n)): 0 when Go accepts it, else 1
 * with Go's ParseError text appended to b (go_time_error.c). */
int velstatus__go_rfc3339_error(velstatus__buf *b, const char *s, size_t n);

/* The i-th object, or NULL. */
const vs_snap *velstatus__snapshot_at(const vs_snap_list *l, size_t i);

#endif /* VELSTATUS_SNAPSHOT_PRIVATE_H */
