/* SPDX-License-Identifier: Apache-2.0 */
/* What Velero's VolumeSnapshot plugin answers for its asynchronous operation
 * (snapshot.h), per release: velero-plugin-for-csi's
 * internal/backup/volumesnapshot_action.go Progress (v0.6 for 1.12, v0.7 for
 * 1.13), Velero's pkg/backup/actions/csi/volumesnapshot_action.go Progress
 * (1.14 to 1.18), and the restore actions' Progress; and what its
 * VolumeSnapshotContent backup action answers (the same files' siblings,
 * volumesnapshotcontent_action.go); doc/data-mover.md. */
#include "snapshot/private.h"

#include <string.h>

/* The release knobs of the plugin, X(field, its value in 1.11 … 1.18), in
 * the order of velstatus__release_index(). */
#define VS_SNAPSHOT_KNOBS(X)                     \
    X(v2_plugin, 1, 1, 1, 1, 1, 1, 1, 1)         \
    X(async, 0, 1, 1, 1, 1, 1, 1, 1)             \
    X(reads_content, 0, 0, 0, 1, 1, 1, 1, 1)     \
    X(restore_checks_id, 0, 1, 1, 0, 0, 0, 0, 0) \
    X(content_op, 0, 1, 1, 0, 0, 0, 0, 0)
#define VS_SNAP_KNOB_VALUES(field, ...) static const int knob_##field[] = {__VA_ARGS__};
VS_SNAPSHOT_KNOBS(VS_SNAP_KNOB_VALUES)
#undef VS_SNAP_KNOB_VALUES

typedef struct snap_release {
#define VS_SNAP_KNOB_FIELD(field, ...) int field;
    VS_SNAPSHOT_KNOBS(VS_SNAP_KNOB_FIELD)
#undef VS_SNAP_KNOB_FIELD
    velstatus_policy pol; /* the release's policy: the Unicode of Go's %q */
} snap_release;

static velstatus_status load_release(snap_release *r, int major, int minor, velstatus_error *err)
{
    int i = velstatus__release_index(major, minor, err);
    if (i < 0)
        return VELSTATUS_E_INVALID;
#define VS_SNAP_KNOB_SET(field, ...)                                           \
    _Static_assert(VS_N(knob_##field) == 8, #field ": one value per release"); \
    r->field = knob_##field[i];
    VS_SNAPSHOT_KNOBS(VS_SNAP_KNOB_SET)
#undef VS_SNAP_KNOB_SET
    return velstatus_policy_init_release(&r->pol, sizeof(r->pol), major, minor, err);
}

/* Go's strings.Split(id, "/") into exactly `parts` parts, else 0. */
static int split_parts(const char *id, size_t n, vs_part *p, size_t parts)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && id[i] != '/')
            continue;
        if (k == parts)
            return 0;
        p[k].s = id + start;
        p[k].n = i - start;
        k++;
        start = i + 1;
    }
    return k == parts;
}

/* client-go's check of a path segment (IsValidPathSegmentName), as the
 * request builder writes it: "" when valid. */
static const char *path_segment_problem(const vs_part *s)
{
    if (s->n == 1 && s->s[0] == '.')
        return "[may not be '.']";
    if (s->n == 2 && s->s[0] == '.' && s->s[1] == '.')
        return "[may not be '..']";
    if (memchr(s->s, '%', s->n))
        return "[may not contain '%']";
    return "";
}

/* The error of getting an object that `list` does not hold, or that the
 * request builder refuses (client-go rest.Request Namespace and Name), as
 * the plugin's Get returns it. ns NULL: cluster-scoped. */
static void get_error(velstatus__buf *b, const char *resource, const vs_part *ns, const vs_part *name,
                      const velstatus_policy *pol)
{
    if (ns && *path_segment_problem(ns)) {
        velstatus__buf_puts(b, "invalid namespace ");
        velstatus__go_quote_pol(b, NULL, ns->s, ns->n, pol);
        velstatus__buf_printf(b, ": %s", path_segment_problem(ns));
    } else if (name->n == 0) {
        velstatus__buf_puts(b, "resource name may not be empty");
    } else if (*path_segment_problem(name)) {
        velstatus__buf_puts(b, "invalid resource name ");
        velstatus__go_quote_pol(b, NULL, name->s, name->n, pol);
        velstatus__buf_printf(b, ": %s", path_segment_problem(name));
    } else {
        velstatus__buf_printf(b, "%s.snapshot.storage.k8s.io ", resource);
        velstatus__go_quote_pol(b, NULL, name->s, name->n, pol);
        velstatus__buf_puts(b, " not found");
    }
}

/* The per-call state: the answer, and the text it may point to. */
typedef struct snap_call {
    velstatus_op_progress *out;
    velstatus__buf text;
    const vs_snap_list *list;
    const snap_release *rel;
    int64_t now_ns;
} snap_call;

/* A Progress error: the text after the plugin's gRPC hop (server side
 * common.NewGRPCError, codes.Unknown; client side FromGRPCError keeps the
 * status error, whose text is grpc's "rpc error: code = Unknown desc = …"). */
static void grpc_prefix(snap_call *c)
{
    velstatus__buf_puts(&c->text, "rpc error: code = Unknown desc = ");
    c->out->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
}

static void invalid_id(snap_call *c, const char *id, size_t n)
{
    grpc_prefix(c);
    velstatus__buf_puts(&c->text, "operation ID ");
    velstatus__buf_append(&c->text, id, n);
    velstatus__buf_puts(&c->text, " is invalid");
}

/* Started from the ID's last part (Go's time.Parse(time.RFC3339, …)); a
 * parse error is Go's text after `prefix`. */
static int started_from(snap_call *c, const vs_part *t, const char *prefix)
{
    int64_t sec;
    int32_t nsec;
    velstatus__buf scratch;
    velstatus__buf_init(&scratch, c->text.ctx);
    if (velstatus__go_rfc3339_error(&scratch, t->s, t->n)) {
        grpc_prefix(c);
        velstatus__buf_puts(&c->text, prefix);
        velstatus__buf_append(&c->text, scratch.p, scratch.len);
        c->text.failed |= scratch.failed;
        velstatus__buf_reset(&scratch);
        return 0;
    }
    velstatus__buf_reset(&scratch);
    velstatus_time_parse_sec(&sec, &nsec, t->s, t->n, NULL);
    c->out->has_started_sec = 1;
    c->out->started_sec = sec;
    c->out->started_nsec = nsec;
    c->out->has_started = 1;
    velstatus__time_to_ns(sec, nsec, &c->out->started_ns);
    return 1;
}

/* The VolumeSnapshotContent `name` as the plugin's Get returns it, or NULL
 * with the Get error in the answer. */
static const vs_snap *get_content(snap_call *c, const vs_part *name)
{
    size_t i;
    if (name->n == 0 || *path_segment_problem(name) ||
        !velstatus_snapshot_list_find(c->list, VELSTATUS_SNAPSHOT_KIND_CONTENT, NULL, 0, name->s, name->n, &i)) {
        grpc_prefix(c);
        get_error(&c->text, "volumesnapshotcontents", NULL, name, &c->rel->pol);
        return NULL;
    }
    return velstatus__snapshot_at(c->list, i);
}

/* A VolumeSnapshotContent's status decides: completed when ready to use or
 * in error (its message is Err); Updated is now when `updated`. */
static void content_decides(snap_call *c, const vs_snap *vsc, int updated)
{
    if (!vsc->has_status)
        return;
    if (vsc->has_ready && vsc->ready) {
        c->out->completed = 1;
    } else if (vsc->has_error) {
        const vs_text *m = &vsc->text[VELSTATUS_SNAPSHOT_FIELD_ERROR_MESSAGE];
        c->out->completed = 1;
        c->out->err = m->s;
        c->out->err_len = m->s ? m->len : 0;
    } else {
        return;
    }
    c->out->has_updated = updated;
    c->out->updated_ns = updated ? c->now_ns : 0;
}

/* 1.14 to 1.18: the bound VolumeSnapshotContent decides. */
static void from_content(snap_call *c, const vs_snap *vs)
{
    const vs_text *bound = &vs->text[VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT];
    vs_part name = {bound->s, bound->len};
    const vs_snap *vsc;
    if (!bound->s)
        return;
    vsc = get_content(c, &name);
    if (vsc)
        content_decides(c, vsc, 1);
}

/* The VolumeSnapshotContent action's backup operation, 1.12 and 1.13: the
 * ID is `<content name>/<started, RFC 3339>`; no Updated. */
static void content_progress(snap_call *c, const char *id, size_t n)
{
    vs_part p[2];
    const vs_snap *vsc;
    if (n == 0 || !split_parts(id, n, p, 2)) {
        invalid_id(c, id, n);
        return;
    }
    if (!started_from(c, &p[1], "fail to parse StartedTime: "))
        return;
    vsc = get_content(c, &p[0]);
    if (vsc)
        content_decides(c, vsc, 0);
}

/* A backup operation of release 1.12 and later. */
static void backup_progress(snap_call *c, const char *id, size_t n)
{
    vs_part p[3];
    const vs_snap *vs;
    size_t i;
    if (n == 0 || !split_parts(id, n, p, 3)) {
        invalid_id(c, id, n);
        return;
    }
    if (!started_from(c, &p[2], ""))
        return;
    if (*path_segment_problem(&p[0]) || p[1].n == 0 || *path_segment_problem(&p[1]) ||
        !velstatus_snapshot_list_find(c->list, VELSTATUS_SNAPSHOT_KIND_VOLUME_SNAPSHOT, p[0].s, p[0].n, p[1].s, p[1].n,
                                      &i)) {
        grpc_prefix(c);
        get_error(&c->text, "volumesnapshots", &p[0], &p[1], &c->rel->pol);
        return;
    }
    vs = velstatus__snapshot_at(c->list, i);
    if (!vs->has_status)
        return;
    if (!c->rel->reads_content) {
        c->out->completed = vs->has_ready && vs->ready;
        return;
    }
    if (!(vs->has_ready && vs->ready) && vs->has_error)
        return; /* a temporary error: the snapshot controller retries (#9674) */
    from_content(c, vs);
}

/* The two actions answered: the VolumeSnapshot plugin's (a backup or a
 * restore) and the VolumeSnapshotContent backup action's. */
typedef enum snap_action { SNAP_ACTION_VS, SNAP_ACTION_VSC } snap_action;

/* The answer itself, by action, kind and release. */
static void answer(snap_call *c, snap_action action, velstatus_kind kind, const char *id, size_t n)
{
    if (!c->rel->async) {
        c->out->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
        velstatus__buf_puts(&c->text, "Plugin does not support asynchronous operations");
    } else if (action == SNAP_ACTION_VSC) {
        if (c->rel->content_op)
            content_progress(c, id, n); /* 1.14 and later: an empty progress, whatever the ID */
    } else if (kind == VELSTATUS_KIND_BACKUP) {
        backup_progress(c, id, n);
    } else if (c->rel->restore_checks_id && n == 0) {
        invalid_id(c, id, n);
    }
}

/* Either public answer: the arguments checked, then answer(). */
static velstatus_status snap_answer(velstatus_op_progress *out, char **text, const velstatus_snapshot_list *list,
                                    snap_action action, velstatus_kind kind, const char *operation_id, size_t id_len,
                                    int64_t now_ns, int major, int minor, velstatus_error *err)
{
    snap_release rel;
    snap_call c;
    size_t tlen;
    if (text)
        *text = NULL;
    if (!out || !text || !list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out, text or list is NULL");
    if (out->struct_size < VS_OP_PROGRESS_SIZE_V1)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "out.struct_size %u is below the first layout",
                                    (unsigned)out->struct_size);
    if (kind != VELSTATUS_KIND_BACKUP && kind != VELSTATUS_KIND_RESTORE)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "kind must be backup or restore");
    VS_TRY(velstatus__text_arg(operation_id, &id_len, "operation_id", err));
    VS_TRY(load_release(&rel, major, minor, err));
    velstatus_op_progress_init(out, out->struct_size);
    c = (snap_call){out, {0}, list, &rel, now_ns};
    velstatus__buf_init(&c.text, list->pool.ctx);
    answer(&c, action, kind, operation_id ? operation_id : "", id_len);
    if (out->report == VELSTATUS_OP_REPORT_PROGRESS_ERROR) {
        /* the plugin's server answers an error alone: what Progress set
         * before it (Started) never reaches the controller */
        velstatus_op_progress_init(out, out->struct_size);
        out->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
    }
    if (c.text.len == 0 && !c.text.failed)
        return VELSTATUS_OK;
    VS_TRY(velstatus__buf_finish(&c.text, text, &tlen, err));
    out->err = *text;
    out->err_len = tlen;
    return VELSTATUS_OK;
}

velstatus_status velstatus_snapshot_progress(velstatus_op_progress *out, char **text,
                                             const velstatus_snapshot_list *list, velstatus_kind kind,
                                             const char *operation_id, size_t id_len, int64_t now_ns, int major,
                                             int minor, velstatus_error *err)
{
    return snap_answer(out, text, list, SNAP_ACTION_VS, kind, operation_id, id_len, now_ns, major, minor, err);
}

velstatus_status velstatus_snapshot_content_progress(velstatus_op_progress *out, char **text,
                                                     const velstatus_snapshot_list *list, const char *operation_id,
                                                     size_t id_len, int major, int minor, velstatus_error *err)
{
    return snap_answer(out, text, list, SNAP_ACTION_VSC, VELSTATUS_KIND_BACKUP, operation_id, id_len, 0, major, minor,
                       err);
}
