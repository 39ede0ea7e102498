/* SPDX-License-Identifier: Apache-2.0 */
/* The data mover's internals: the decoded DataUpload/DataDownload records
 * (decoder.c) that the CSI plugin's answers (plugin.c) and the host plugin
 * client (client.c) read. Not installed. */
#ifndef VELSTATUS_DATAMOVER_PRIVATE_H
#define VELSTATUS_DATAMOVER_PRIVATE_H

#include "common/private.h"
#include "common/util_pool.h"
#include "phase/private.h"
#include "velstatus/datamover.h"

enum {
    VS_DM_NTEXT = VELSTATUS_DM_TEXT_ACCEPTED_AT + 1,
    VS_DM_NTIME = VELSTATUS_DM_TIME_ACCEPTED + 1,
    VS_DM_NINT = VELSTATUS_DM_INT_CANCEL + 1
};

typedef struct vs_dm_text {
    const char *s; /* NULL: absent (in the pool) */
    size_t len;
} vs_dm_text;

/* One decoded object. */
typedef struct vs_dm {
    velstatus_dm_kind kind;
    velstatus_dm_phase phase;
    uint32_t has_time, has_int; /* bit i: field i is present */
    vs_dm_text text[VS_DM_NTEXT];
    int64_t time[VS_DM_NTIME];
    int64_t ints[VS_DM_NINT];
} vs_dm;

struct velstatus_dm_list {
    velstatus__pool pool;
    vs_dm *items;
    size_t n, cap, skipped;
};

/* The object the CSI PVC plugin of release `rel` (velstatus__release_index)
 * reads for an operation ID: *index when exactly one matches, SIZE_MAX
 * otherwise; *matches the number found. The arguments are checked by the
 * caller. */
void velstatus__dm_match(const velstatus_dm_list *l, velstatus_dm_kind kind, const char *id, size_t id_len,
                         const char *ns, size_t ns_len, int rel, size_t *index, size_t *matches);
/* The room the text of the plugin's lookup errors needs: the gRPC prefix,
 * the longest message and an operation ID, which is a label value (at most
 * 63 bytes), and the NUL. */
enum { VS_DM_ERROR_MAX = 160 };
/* Record i's kind and operation ID, when it is an operation of the CSI PVC
 * plugin of its list's kind (the data mover client's records; client.c). */
int velstatus__dm_csi_op(const velstatus_oplist *ops, size_t i, velstatus_dm_kind *kind, const char **id,
                         size_t *id_len);
/* Progress (index_out NULL) or Cancel for an operation, as
 * velstatus_dm_progress() and velstatus_dm_cancel() answer, without
 * allocating: the error text goes into buf (NUL-terminated, *text_len its
 * length; 0 when there is none). The arguments are checked here. */
velstatus_status velstatus__dm_answer(velstatus_op_progress *out, size_t *index_out, char *buf, size_t *text_len,
                                      const velstatus_dm_list *l, velstatus_dm_kind kind, const char *id, size_t id_len,
                                      const char *ns, size_t ns_len, int major, int minor, velstatus_error *err);
/* The checks of every call naming an operation: list and kind given, texts
 * resolved (a NULL namespace is "velero"), the release one with the data
 * mover; *rel its index. */
velstatus_status velstatus__dm_args(const velstatus_dm_list *l, velstatus_dm_kind kind, const char **id, size_t *id_len,
                                    const char **ns, size_t *ns_len, int major, int minor, int *rel,
                                    velstatus_error *err);

/* ---- the node-agent's decisions (node_agent.c) ---- */
#define VS_DM_OBJECT_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_object, accepted_ns)
#define VS_DM_CONFIG_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_config, resume_error_len)
#define VS_DM_DECISION_SIZE_V1 VS_SIZE_THROUGH(velstatus_dm_decision, message)
/* The fields velstatus_dm_decide() reads, from decoded object i (an index
 * the caller checked): the one reading of them, for velstatus_dm_next() and
 * the forecast's instants. Its texts are borrowed from the list. */
void velstatus__dm_object_of(const velstatus_dm_list *l, size_t i, velstatus_dm_object *o);
/* The most changes velstatus_dm_timeline() finds for one object (New,
 * Accepted, a cancel, Canceling, Canceled, two restarts: far fewer); a
 * longer chain is a bug (E_INTERNAL). */
enum { VS_DM_TIMELINE_MAX = 16 };
/* A copy of list l that the forecast changes (velstatus_dm_list_free frees
 * it): its objects' texts are borrowed from l, which outlives it. */
velstatus_status velstatus__dm_list_clone(velstatus_dm_list **out, const velstatus_dm_list *l, velstatus_error *err);
/* Writes decision d, due at `at`, into object i of a clone as release
 * major.minor's controller writes it: status.phase, spec.cancel,
 * status.message when set, and on an accept the accept instant the release
 * reads. */
velstatus_status velstatus__dm_list_apply(velstatus_dm_list *l, size_t i, const velstatus_dm_decision *d, int64_t at,
                                          int major, int minor, velstatus_error *err);
/* Sets spec.cancel on object i of a clone (the CSI plugin's Cancel). */
void velstatus__dm_list_set_cancel(velstatus_dm_list *l, size_t i);

#endif /* VELSTATUS_DATAMOVER_PRIVATE_H */
