/* SPDX-License-Identifier: Apache-2.0 */
/* The node-agent's decisions on a DataUpload or DataDownload
 * (include/velstatus/datamover.h, doc/data-mover.md "The node-agent's
 * decisions"): the data-mover controllers of Velero 1.12 to 1.18
 * (pkg/controller/data_upload_controller.go, data_download_controller.go,
 * Reconcile, AttemptDataUploadResume, CancelAcceptedDataupload,
 * onPrepareTimeout) and the server's start (pkg/cmd/server/server.go,
 * markDataUploadsCancel, markDataDownloadsCancel), as one pure function of
 * the object, `now`, the release and what the caller knows. No allocation. */
#include <stdio.h>
#include <string.h>

#include "common/util_arith.h"
#include "datamover/private.h"

#define MIN(x) ((int64_t)(x)*INT64_C(60000000000))

/* What differs between releases, one column per release from 1.11 (no data
 * mover) to 1.18. accept_time: where the prepare timeout counts from
 * (1 status.startTimestamp, 2 the velero.io/accepted-at annotation, 3
 * status.acceptedTimestamp). restart_rules: the node-agent's start (1
 * cancels its Accepted objects by the accepted-by label and its InProgress
 * ones; 2 resumes its InProgress ones and cancels every Accepted one; 3 only
 * resumes). server_text / deletion_text: the message wording (1 before
 * 1.15, 2 after). */
#define VS_DM_KNOBS(X)                                                                               \
    X(int, has_data_mover, 0, 1, 1, 1, 1, 1, 1, 1)                                                   \
    X(int64_t, prepare_timeout_ns, 0, MIN(30), MIN(30), MIN(30), MIN(30), MIN(30), MIN(30), MIN(30)) \
    X(int, accept_time, 0, 1, 1, 1, 2, 3, 3, 3)                                                      \
    X(int, accepted_cancel_now, 0, 1, 1, 1, 1, 1, 0, 0)                                              \
    X(int, accepted_cancel_clears_message, 0, 0, 0, 1, 0, 0, 0, 0)                                   \
    X(int, forced_cancel, 0, 0, 0, 0, 0, 0, 1, 1)                                                    \
    X(int, restart_rules, 0, 1, 1, 1, 2, 2, 3, 3)                                                    \
    X(int, server_text, 0, 1, 1, 1, 2, 2, 2, 2)                                                      \
    X(int, server_skips_canceled, 0, 0, 0, 0, 1, 1, 1, 1)                                            \
    X(int, deletion_text, 0, 1, 1, 1, 2, 2, 2, 2)

VS_KNOB_TABLES(VS_DM_KNOBS)

typedef struct dm_knobs {
    VS_DM_KNOBS(VS_KNOB_FIELD)
} dm_knobs;

/* The delays after which 1.17 and later cancel an object whose cancel was
 * not handled: an hour InProgress, five minutes in any other phase
 * (cancelDelayInProgress, cancelDelayOthers). */
#define CANCEL_DELAY_IN_PROGRESS MIN(60)
#define CANCEL_DELAY_OTHERS MIN(5)

static const char *const action_names[] = {"none", "wait_expose", "wait_data_path", "accept",   "start",
                                           "fail", "set_cancel",  "canceling",      "canceled", "resume"};
_Static_assert(VS_N(action_names) == VELSTATUS_DM_ACTION_RESUME + 1, "dm action token table");
static const char *const when_names[] = {"never", "now", "at"};
_Static_assert(VS_N(when_names) == VELSTATUS_DM_WHEN_AT + 1, "dm when token table");

VS_ENUM_TOKENS(dm_action, velstatus_dm_action, action_names, "data-mover action")
VS_ENUM_TOKENS(dm_when, velstatus_dm_when, when_names, "data-mover when")

/* Everything one decision reads, validated: texts resolved, the release's
 * knobs, the config at this library's size. */
typedef struct dm_in {
    velstatus_dm_object o;
    velstatus_dm_config c;
    dm_knobs k;
    int64_t now;
    int upload;
} dm_in;

/* The body of the three inits: E_INVALID for NULL, E_ABI below the first
 * version's size, else every field zero and struct_size set. */
static velstatus_status dm_init(void *p, size_t struct_size, size_t min, size_t lib_size, const char *what,
                                velstatus_error *err)
{
    if (!p)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_%s_init: the struct is NULL", what);
    if (struct_size < min)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "%s struct_size is %zu, smaller than %zu", what, struct_size,
                                    min);
    velstatus__sized_init(p, struct_size, NULL, lib_size);
    return VELSTATUS_OK;
}

velstatus_status velstatus_dm_object_init(velstatus_dm_object *obj, size_t struct_size, velstatus_error *err)
{
    return dm_init(obj, struct_size, VS_DM_OBJECT_SIZE_V1, sizeof(*obj), "dm_object", err);
}

velstatus_status velstatus_dm_config_init(velstatus_dm_config *cfg, size_t struct_size, velstatus_error *err)
{
    return dm_init(cfg, struct_size, VS_DM_CONFIG_SIZE_V1, sizeof(*cfg), "dm_config", err);
}

velstatus_status velstatus_dm_decision_init(velstatus_dm_decision *d, size_t struct_size, velstatus_error *err)
{
    return dm_init(d, struct_size, VS_DM_DECISION_SIZE_V1, sizeof(*d), "dm_decision", err);
}

/* The knobs of release major.minor; E_INVALID for a release outside the
 * table and for 1.11. */
static velstatus_status load_knobs(dm_knobs *k, int major, int minor, velstatus_error *err)
{
    int i = velstatus__release_index(major, minor, err);
    if (i < 0)
        return VELSTATUS_E_INVALID;
#define VS_DM_KNOB_SET(type, field, ...) k->field = knob_##field[i];
    VS_DM_KNOBS(VS_DM_KNOB_SET)
#undef VS_DM_KNOB_SET
    if (!k->has_data_mover)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "Velero %d.%d has no data mover (DataUpload and DataDownload come with 1.12)",
                                    major, minor);
    return VELSTATUS_OK;
}

velstatus_status velstatus_dm_prepare_timeout_default(int major, int minor, int64_t *out_ns, velstatus_error *err)
{
    dm_knobs k;
    if (!out_ns)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_dm_prepare_timeout_default: out_ns is NULL");
    VS_TRY(load_knobs(&k, major, minor, err));
    *out_ns = k.prepare_timeout_ns;
    return VELSTATUS_OK;
}

/* The phase a status.phase text names (velstatus_dm_phase_from_string: ""
 * is New), UNKNOWN for any other text. */
static velstatus_dm_phase phase_of_text(const char *s, size_t n)
{
    velstatus_dm_phase p = VELSTATUS_DM_PHASE_UNKNOWN;
    (void)velstatus_dm_phase_from_string(&p, s, n, NULL);
    return p;
}

/* The object's texts resolved and checked: the kind and phase in their
 * enums; phase_text, when set, gives the phase. */
static velstatus_status check_object(velstatus_dm_object *o, velstatus_error *err)
{
    if (o->kind != VELSTATUS_DM_UPLOAD && o->kind != VELSTATUS_DM_DOWNLOAD)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "object kind is %d: upload (0) or download (1)",
                                    (int)o->kind);
    VS_TRY(velstatus__text_arg(o->phase_text, &o->phase_text_len, "object phase_text", err));
    if (o->phase_text)
        o->phase = phase_of_text(o->phase_text, o->phase_text_len);
    if ((int)o->phase < VELSTATUS_DM_PHASE_NEW || o->phase > VELSTATUS_DM_PHASE_UNKNOWN)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "object phase is %d: not a data-mover phase",
                                    (int)o->phase);
    VS_TRY(velstatus__text_arg(o->ns, &o->ns_len, "object ns", err));
    VS_TRY(velstatus__text_arg(o->name, &o->name_len, "object name", err));
    VS_TRY(velstatus__text_arg(o->node, &o->node_len, "object node", err));
    VS_TRY(velstatus__text_arg(o->accepted_by_label, &o->accepted_by_label_len, "object accepted_by_label", err));
    VS_TRY(velstatus__text_arg(o->accepted_at_annotation, &o->accepted_at_annotation_len,
                               "object accepted_at_annotation", err));
    return VELSTATUS_OK;
}

static velstatus_status check_config(velstatus_dm_config *c, const dm_knobs *k, velstatus_error *err)
{
    VS_TRY(velstatus__text_arg(c->restart_node, &c->restart_node_len, "config restart_node", err));
    VS_TRY(velstatus__text_arg(c->resume_error, &c->resume_error_len, "config resume_error", err));
    if (c->prepare_timeout_ns < 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "config prepare_timeout_ns is negative (%lld)",
                                    (long long)c->prepare_timeout_ns);
    if (c->prepare_timeout_ns == 0)
        c->prepare_timeout_ns = k->prepare_timeout_ns;
    if (c->has_node_restart && c->restart_node_len == 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "config has_node_restart without a restart_node");
    return VELSTATUS_OK;
}

static velstatus_status load_in(dm_in *in, const velstatus_dm_object *obj, int64_t now, int major, int minor,
                                const velstatus_dm_config *cfg, velstatus_error *err)
{
    memset(in, 0, sizeof(*in));
    VS_TRY(load_knobs(&in->k, major, minor, err));
    VS_TRY(velstatus__sized_copy(&in->o, sizeof(in->o), VS_DM_OBJECT_SIZE_V1, obj, "dm_object", err));
    VS_TRY(check_object(&in->o, err));
    if (cfg)
        VS_TRY(velstatus__sized_copy(&in->c, sizeof(in->c), VS_DM_CONFIG_SIZE_V1, cfg, "dm_config", err));
    else
        velstatus__sized_init(&in->c, sizeof(in->c), NULL, sizeof(in->c));
    VS_TRY(check_config(&in->c, &in->k, err));
    in->now = now;
    in->upload = in->o.kind == VELSTATUS_DM_UPLOAD;
    return VELSTATUS_OK;
}

/* ---- the decision being built ---- */

static void set_action(velstatus_dm_decision *d, velstatus_dm_action a, velstatus_dm_phase after, int cancel)
{
    d->action = a;
    d->phase_after = after;
    d->cancel_after = cancel;
}

/* status.message becomes the printf of fmt; E_RANGE when it does not fit. */
static velstatus_status set_message(velstatus_dm_decision *d, velstatus_error *err, const char *fmt, ...)
    VS__PRINTF(3, 4);
static velstatus_status set_message(velstatus_dm_decision *d, velstatus_error *err, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(d->message, sizeof(d->message), fmt, ap);
    va_end(ap);
    if ((size_t)n >= sizeof(d->message)) { /* a negative n (an encoding error) is huge as a size_t */
        d->message[0] = '\0';
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "the decision's message would be %d bytes, more than %d", n,
                                    VELSTATUS_DM_MESSAGE_MAX - 1);
    }
    d->message_len = (size_t)n;
    d->message_set = 1;
    return VELSTATUS_OK;
}

/* The phase as the object writes it ("" and "New" both are NEW). */
static const char *phase_written(const dm_in *in, size_t *len)
{
    if (in->o.phase_text) {
        *len = in->o.phase_text_len;
        return in->o.phase_text;
    }
    *len = strlen(velstatus_dm_phase_to_string(in->o.phase));
    return velstatus_dm_phase_to_string(in->o.phase);
}

/* "dataupload" / "datadownload", capitalised or not, as the messages name the kind. */
static const char *kind_word(const dm_in *in, int capital)
{
    if (capital)
        return in->upload ? "Dataupload" : "Datadownload";
    return in->upload ? "dataupload" : "datadownload";
}

/* ---- timed rules: an instant, and whether the rule holds for the object ---- */

/* Where the prepare timeout counts from, per release: 0 when the object has
 * no such instant (the timeout never fires). */
static int accept_instant(const dm_in *in, int64_t *at)
{
    switch (in->k.accept_time) {
    case 1: *at = in->o.start_ns; return in->o.has_start;
    case 2:
        /* time.Parse(time.RFC3339, ...); a text that does not parse is skipped */
        return in->o.accepted_at_annotation_len > 0 &&
               velstatus_time_parse(at, in->o.accepted_at_annotation, in->o.accepted_at_annotation_len, NULL) ==
                   VELSTATUS_OK;
    default: *at = in->o.accepted_ns; return in->o.has_accepted;
    }
}

/* `time.Since(accepted) >= preparingTimeout`: due at accepted + timeout. */
static int prepare_timeout_at(const dm_in *in, int64_t *at)
{
    int64_t from;
    if (in->o.phase != VELSTATUS_DM_PHASE_ACCEPTED || (in->o.cancel && in->k.accepted_cancel_now))
        return 0;
    if (!accept_instant(in, &from))
        return 0;
    return !velstatus__add_overflow_i64(at, from, in->c.prepare_timeout_ns);
}

/* 1.17+: `time.Since(spotted) > delay`, strictly: due 1 ns after
 * spotted + delay. */
static int forced_cancel_at(const dm_in *in, int64_t *at)
{
    int64_t delay = in->o.phase == VELSTATUS_DM_PHASE_IN_PROGRESS ? CANCEL_DELAY_IN_PROGRESS : CANCEL_DELAY_OTHERS;
    if (!in->k.forced_cancel || !in->o.cancel || !in->c.has_cancel_seen)
        return 0;
    return !velstatus__add_overflow_i64(at, in->c.cancel_seen_ns, delay + 1);
}

static int is_final(velstatus_dm_phase p)
{
    return p == VELSTATUS_DM_PHASE_COMPLETED || p == VELSTATUS_DM_PHASE_FAILED || p == VELSTATUS_DM_PHASE_CANCELED;
}

/* b is the config's restart_node, never empty (check_config), so an equal
 * length is a non-empty a: no empty case to guard. */
static int text_eq(const char *a, size_t an, const char *b, size_t bn)
{
    return an == bn && memcmp(a, b, an) == 0;
}

/* The Velero server's start cancels the objects of an InProgress backup
 * (restore) in "", New, Accepted, Prepared or InProgress. */
static velstatus_status server_restart_rule(const dm_in *in, velstatus_dm_decision *d, int *hit, velstatus_error *err)
{
    size_t n;
    const char *ph = phase_written(in, &n);
    *hit = 0;
    if (in->o.phase > VELSTATUS_DM_PHASE_IN_PROGRESS || (in->o.cancel && in->k.server_skips_canceled))
        return VELSTATUS_OK;
    *hit = 1;
    set_action(d, VELSTATUS_DM_ACTION_SET_CANCEL, in->o.phase, 1);
    if (in->k.server_text == 1)
        return set_message(d, err,
                           "found a %s with status \"%.*s\" during the velero server starting, mark it as cancel",
                           kind_word(in, 0), (int)n, ph);
    return set_message(d, err, "%s is in status \"%.*s\" during the velero server starting, mark it as cancel",
                       kind_word(in, 1), (int)n, ph);
}

/* 1.12 to 1.14: AttemptDataUploadResume cancels the InProgress objects whose
 * pod runs on the node (status.node) and CancelAcceptedDataupload the
 * Accepted ones its label names. */
static velstatus_status restart_rules_1(const dm_in *in, velstatus_dm_decision *d, int *hit, velstatus_error *err)
{
    const velstatus_dm_object *o = &in->o;
    const velstatus_dm_config *c = &in->c;
    if (o->phase == VELSTATUS_DM_PHASE_IN_PROGRESS &&
        text_eq(o->node, o->node_len, c->restart_node, c->restart_node_len))
        *hit = 1;
    else if (o->phase == VELSTATUS_DM_PHASE_ACCEPTED && !o->cancel &&
             text_eq(o->accepted_by_label, o->accepted_by_label_len, c->restart_node, c->restart_node_len))
        *hit = 1;
    if (!*hit)
        return VELSTATUS_OK;
    set_action(d, VELSTATUS_DM_ACTION_SET_CANCEL, o->phase, 1);
    return set_message(d, err, "found a %s with status \"%s\" during the node-agent starting, mark it as cancel",
                       kind_word(in, 0), velstatus_dm_phase_to_string(o->phase));
}

/* 1.15 and later: the node's InProgress objects are resumed (or canceled
 * when resuming fails); 1.15 and 1.16 also cancel every Accepted object,
 * whichever node accepted it. */
static velstatus_status restart_rules_2(const dm_in *in, velstatus_dm_decision *d, int *hit, velstatus_error *err)
{
    const velstatus_dm_object *o = &in->o;
    const velstatus_dm_config *c = &in->c;
    if (o->phase == VELSTATUS_DM_PHASE_IN_PROGRESS &&
        text_eq(o->node, o->node_len, c->restart_node, c->restart_node_len)) {
        *hit = 1;
        if (c->resume_error_len == 0 || o->cancel) {
            set_action(d, VELSTATUS_DM_ACTION_RESUME, o->phase, o->cancel);
            return VELSTATUS_OK;
        }
        set_action(d, VELSTATUS_DM_ACTION_SET_CANCEL, o->phase, 1);
        return set_message(d, err, "Resume InProgress %s failed with error %.*s, mark it as cancel", kind_word(in, 0),
                           (int)c->resume_error_len, c->resume_error);
    }
    if (o->phase == VELSTATUS_DM_PHASE_ACCEPTED && !o->cancel && in->k.restart_rules == 2) {
        *hit = 1;
        set_action(d, VELSTATUS_DM_ACTION_SET_CANCEL, o->phase, 1);
        return set_message(d, err, "%s is in Accepted status during the node-agent starting, mark it as cancel",
                           kind_word(in, 1));
    }
    return VELSTATUS_OK;
}

static velstatus_status node_restart_rule(const dm_in *in, velstatus_dm_decision *d, int *hit, velstatus_error *err)
{
    *hit = 0;
    if (in->k.restart_rules == 1)
        return restart_rules_1(in, d, hit, err);
    return restart_rules_2(in, d, hit, err);
}

/* ---- one pass of the controller's Reconcile at `now` ---- */

/* The Accepted branch: cancel (at once before 1.17), else the prepare
 * timeout when due. */
static velstatus_status pass_accepted(const dm_in *in, velstatus_dm_decision *d, velstatus_error *err)
{
    int64_t at;
    if (in->o.cancel && in->k.accepted_cancel_now) {
        set_action(d, VELSTATUS_DM_ACTION_CANCELED, VELSTATUS_DM_PHASE_CANCELED, 1);
        if (in->k.accepted_cancel_clears_message)
            return set_message(d, err, "%s", "");
        return VELSTATUS_OK;
    }
    if (prepare_timeout_at(in, &at) && at <= in->now) {
        set_action(d, VELSTATUS_DM_ACTION_FAIL, VELSTATUS_DM_PHASE_FAILED, in->o.cancel);
        d->has_at = 1;
        d->at_ns = at;
        return set_message(d, err, "timeout on preparing data %s", in->upload ? "upload" : "download");
    }
    return VELSTATUS_OK;
}

/* The branch of each phase, in Reconcile's order; leaves d->action NONE
 * when the pass changes nothing now. */
static velstatus_status pass_phase(const dm_in *in, velstatus_dm_decision *d, velstatus_error *err)
{
    const velstatus_dm_object *o = &in->o;
    switch (o->phase) {
    case VELSTATUS_DM_PHASE_NEW:
        if (o->cancel)
            set_action(d, VELSTATUS_DM_ACTION_CANCELED, VELSTATUS_DM_PHASE_CANCELED, 1);
        else
            set_action(d, VELSTATUS_DM_ACTION_ACCEPT, VELSTATUS_DM_PHASE_ACCEPTED, 0);
        return VELSTATUS_OK;
    case VELSTATUS_DM_PHASE_ACCEPTED: return pass_accepted(in, d, err);
    case VELSTATUS_DM_PHASE_PREPARED:
        if (o->cancel)
            set_action(d, VELSTATUS_DM_ACTION_CANCELED, VELSTATUS_DM_PHASE_CANCELED, 1);
        else
            set_action(d, VELSTATUS_DM_ACTION_START, VELSTATUS_DM_PHASE_IN_PROGRESS, 0);
        return VELSTATUS_OK;
    case VELSTATUS_DM_PHASE_IN_PROGRESS:
        if (o->cancel)
            set_action(d, VELSTATUS_DM_ACTION_CANCELING, VELSTATUS_DM_PHASE_CANCELING, 1);
        return VELSTATUS_OK;
    default: return VELSTATUS_OK;
    }
}

/* The pass: deletion first (spec.cancel set with a message), then 1.17's
 * forced cancel when due, then the phase's branch. */
static velstatus_status pass(const dm_in *in, velstatus_dm_decision *d, velstatus_error *err)
{
    const velstatus_dm_object *o = &in->o;
    int64_t at;
    if (o->deleting && !o->cancel) {
        set_action(d, VELSTATUS_DM_ACTION_SET_CANCEL, o->phase, 1);
        if (in->k.deletion_text == 1)
            return set_message(d, err, "found a %s %.*s/%.*s is being deleted, mark it as cancel", kind_word(in, 0),
                               (int)o->ns_len, o->ns, (int)o->name_len, o->name);
        return set_message(d, err, "Cancel %s because it is being deleted", kind_word(in, 0));
    }
    if (forced_cancel_at(in, &at) && at <= in->now) {
        set_action(d, VELSTATUS_DM_ACTION_CANCELED, VELSTATUS_DM_PHASE_CANCELED, 1);
        d->has_at = 1;
        d->at_ns = at;
        return VELSTATUS_OK;
    }
    if (o->phase == VELSTATUS_DM_PHASE_UNKNOWN)
        return VELSTATUS_OK;
    return pass_phase(in, d, err);
}

/* ---- restarts: one-shot events at their instant ---- */

typedef velstatus_status (*restart_fn)(const dm_in *, velstatus_dm_decision *, int *, velstatus_error *);

/* The restart (the server's, then the node-agent's) whose instant is the
 * earliest at or after now and no later than `limit`, among those whose
 * rule holds for the object; *hit when there is one. Restarts are one-shot:
 * one before now is already in the object. */
static velstatus_status restart_at(const dm_in *in, velstatus_dm_decision *d, int64_t limit, int *hit,
                                   velstatus_error *err)
{
    const int has[2] = {in->c.has_server_restart, in->c.has_node_restart};
    const int64_t when[2] = {in->c.server_restart_ns, in->c.node_restart_ns};
    const restart_fn fn[2] = {server_restart_rule, node_restart_rule};
    velstatus_dm_decision base = *d, cand;
    int k, h;
    *hit = 0;
    for (k = 0; k < 2; k++) {
        if (!has[k] || when[k] < in->now || when[k] > limit || (*hit && when[k] >= d->at_ns))
            continue;
        cand = base;
        VS_TRY(fn[k](in, &cand, &h, err));
        if (!h)
            continue;
        *d = cand;
        d->has_at = 1;
        d->at_ns = when[k];
        *hit = 1;
    }
    return VELSTATUS_OK;
}

/* The earliest timed rule of the pass after now (forced cancel before the
 * prepare timeout at the same instant, as the pass checks them). */
static int next_timer(const dm_in *in, int64_t *at, int *which)
{
    int64_t t;
    int found = 0;
    if (forced_cancel_at(in, &t) && t > in->now) {
        *at = t;
        *which = 0;
        found = 1;
    }
    if (prepare_timeout_at(in, &t) && t > in->now && (!found || t < *at)) {
        *at = t;
        *which = 1;
        found = 1;
    }
    return found;
}

/* What the pass decides at the timer's instant: the same rule, due. */
static velstatus_status timer_decision(const dm_in *in, int64_t at, velstatus_dm_decision *d, velstatus_error *err)
{
    dm_in later = *in;
    later.now = at;
    VS_TRY(pass(&later, d, err));
    d->when = VELSTATUS_DM_WHEN_AT;
    return VELSTATUS_OK;
}

/* Nothing is timed: what the object waits on. */
static void waiting(const dm_in *in, velstatus_dm_decision *d)
{
    velstatus_dm_phase p = in->o.phase;
    d->when = VELSTATUS_DM_WHEN_NEVER;
    if (p == VELSTATUS_DM_PHASE_ACCEPTED)
        set_action(d, VELSTATUS_DM_ACTION_WAIT_EXPOSE, p, in->o.cancel);
    else if (p == VELSTATUS_DM_PHASE_IN_PROGRESS || p == VELSTATUS_DM_PHASE_CANCELING)
        set_action(d, VELSTATUS_DM_ACTION_WAIT_DATA_PATH, p, in->o.cancel);
    else
        set_action(d, VELSTATUS_DM_ACTION_NONE, p, in->o.cancel);
}

/* Restarts due now, then the pass, then the earliest later instant: a
 * restart or a timer, whichever comes first (a restart at a timer's
 * instant first). */
static velstatus_status decide(const dm_in *in, velstatus_dm_decision *d, velstatus_error *err)
{
    int hit, which = 0, timed;
    int64_t at = INT64_MAX;
    if (is_final(in->o.phase)) {
        waiting(in, d);
        return VELSTATUS_OK;
    }
    VS_TRY(restart_at(in, d, in->now, &hit, err));
    if (hit) {
        d->when = VELSTATUS_DM_WHEN_NOW;
        return VELSTATUS_OK;
    }
    VS_TRY(pass(in, d, err));
    if (d->action != VELSTATUS_DM_ACTION_NONE) {
        d->when = VELSTATUS_DM_WHEN_NOW;
        return VELSTATUS_OK;
    }
    timed = next_timer(in, &at, &which);
    VS_TRY(restart_at(in, d, at, &hit, err));
    if (hit) {
        d->when = VELSTATUS_DM_WHEN_AT;
        return VELSTATUS_OK;
    }
    if (timed)
        return timer_decision(in, at, d, err);
    waiting(in, d);
    return VELSTATUS_OK;
}

velstatus_status velstatus_dm_decide(const velstatus_dm_object *obj, int64_t now_ns, int major, int minor,
                                     const velstatus_dm_config *cfg, velstatus_dm_decision *out, velstatus_error *err)
{
    dm_in in;
    velstatus_dm_decision d;
    if (!obj || !out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_dm_decide: %s is NULL", obj ? "out" : "obj");
    VS_TRY(load_in(&in, obj, now_ns, major, minor, cfg, err));
    VS_TRY(velstatus__sized_copy(&d, sizeof(d), VS_DM_DECISION_SIZE_V1, out, "dm_decision", err));
    memset(&d, 0, sizeof(d));
    d.phase_after = in.o.phase;
    d.cancel_after = in.o.cancel;
    VS_TRY(decide(&in, &d, err));
    d.struct_size = out->struct_size;
    memcpy(out, &d, out->struct_size < sizeof(d) ? out->struct_size : sizeof(d));
    return VELSTATUS_OK;
}

/* A text field of object i into (*p, *n); absent stays NULL. */
static void list_text(const velstatus_dm_list *l, size_t i, velstatus_dm_text f, const char **p, size_t *n)
{
    *p = velstatus_dm_list_text(l, i, f, n);
}

void velstatus__dm_object_of(const velstatus_dm_list *l, size_t i, velstatus_dm_object *o)
{
    int64_t cancel = 0, deleted;
    velstatus__sized_init(o, sizeof(*o), NULL, sizeof(*o));
    o->kind = velstatus_dm_list_kind(l, i);
    o->phase = velstatus_dm_list_phase(l, i);
    list_text(l, i, VELSTATUS_DM_TEXT_PHASE, &o->phase_text, &o->phase_text_len);
    o->cancel = velstatus_dm_list_int(l, i, VELSTATUS_DM_INT_CANCEL, &cancel) && cancel != 0;
    o->deleting = velstatus_dm_list_time(l, i, VELSTATUS_DM_TIME_DELETED, &deleted);
    list_text(l, i, VELSTATUS_DM_TEXT_NAMESPACE, &o->ns, &o->ns_len);
    list_text(l, i, VELSTATUS_DM_TEXT_NAME, &o->name, &o->name_len);
    list_text(l, i, VELSTATUS_DM_TEXT_NODE, &o->node, &o->node_len);
    list_text(l, i, VELSTATUS_DM_TEXT_ACCEPTED_BY, &o->accepted_by_label, &o->accepted_by_label_len);
    list_text(l, i, VELSTATUS_DM_TEXT_ACCEPTED_AT, &o->accepted_at_annotation, &o->accepted_at_annotation_len);
    o->has_start = velstatus_dm_list_time(l, i, VELSTATUS_DM_TIME_STARTED, &o->start_ns);
    o->has_accepted = velstatus_dm_list_time(l, i, VELSTATUS_DM_TIME_ACCEPTED, &o->accepted_ns);
}

velstatus_status velstatus_dm_next(const velstatus_dm_list *list, size_t i, int64_t now_ns, int major, int minor,
                                   const velstatus_dm_config *cfg, velstatus_dm_decision *out, velstatus_error *err)
{
    velstatus_dm_object o;
    if (!list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_dm_next: list is NULL");
    if (i >= velstatus_dm_list_count(list))
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "velstatus_dm_next: index %zu is out of range (%zu objects)", i,
                                    velstatus_dm_list_count(list));
    velstatus__dm_object_of(list, i, &o);
    return velstatus_dm_decide(&o, now_ns, major, minor, cfg, out, err);
}

/* ---- the timeline: the decisions one after another ---- */

/* The object and config after the controller applies decision d at `at`
 * (what it writes that a later decision reads); buf holds 1.15's
 * accepted-at annotation. */
static velstatus_status apply(dm_in *in, const velstatus_dm_decision *d, int64_t at, char *buf, size_t cap,
                              velstatus_error *err)
{
    velstatus_dm_object *o = &in->o;
    int restart = d->has_at && (d->action == VELSTATUS_DM_ACTION_SET_CANCEL || d->action == VELSTATUS_DM_ACTION_RESUME);
    if (restart && in->c.has_server_restart && in->c.server_restart_ns == d->at_ns)
        in->c.has_server_restart = 0; /* a restart happens once */
    else if (restart && in->c.has_node_restart && in->c.node_restart_ns == d->at_ns)
        in->c.has_node_restart = 0;
    o->phase = d->phase_after;
    o->phase_text = NULL;
    o->phase_text_len = 0;
    if (d->cancel_after && !o->cancel && !in->c.has_cancel_seen) {
        in->c.has_cancel_seen = 1; /* the controller sees the cancel when it is written */
        in->c.cancel_seen_ns = at;
    }
    o->cancel = d->cancel_after;
    if (d->action != VELSTATUS_DM_ACTION_ACCEPT)
        return VELSTATUS_OK;
    if (in->k.accept_time == 1)
        o->has_start = 1, o->start_ns = at;
    else if (in->k.accept_time == 3)
        o->has_accepted = 1, o->accepted_ns = at;
    else {
        VS_TRY(velstatus_time_format(buf, cap, at, 0, err)); /* time.RFC3339: whole seconds */
        o->accepted_at_annotation = buf;
        o->accepted_at_annotation_len = strlen(buf);
    }
    return VELSTATUS_OK;
}


/* Stores decision d (the change at instant `at`) in events[k] when k < cap,
 * at the caller's struct size. */
static void store_event(velstatus_dm_decision *events, size_t cap, size_t k, velstatus_dm_decision d, int64_t at)
{
    if (k >= cap)
        return;
    d.has_at = 1;
    d.at_ns = at;
    d.struct_size = events[k].struct_size;
    memcpy(&events[k], &d, events[k].struct_size < sizeof(d) ? events[k].struct_size : sizeof(d));
}

velstatus_status velstatus_dm_timeline(const velstatus_dm_object *obj, int64_t now_ns, int major, int minor,
                                       const velstatus_dm_config *cfg, velstatus_dm_decision *events, size_t cap,
                                       size_t *n, velstatus_error *err)
{
    dm_in in;
    velstatus_dm_decision d;
    char buf[VELSTATUS_TIME_BUFSIZE];
    size_t k;
    if (!obj || !n || (!events && cap > 0))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_dm_timeline: %s is NULL",
                                    !obj ? "obj"
                                    : !n ? "n"
                                         : "events");
    VS_TRY(load_in(&in, obj, now_ns, major, minor, cfg, err));
    for (k = 0; k < cap; k++)
        VS_TRY(velstatus__sized_copy(&d, sizeof(d), VS_DM_DECISION_SIZE_V1, &events[k], "dm_decision", err));
    for (k = 0; k <= VS_DM_TIMELINE_MAX; k++) {
        memset(&d, 0, sizeof(d));
        d.phase_after = in.o.phase;
        d.cancel_after = in.o.cancel;
        VS_TRY(decide(&in, &d, err));
        if (d.when == VELSTATUS_DM_WHEN_NEVER) {
            *n = k;
            return VELSTATUS_OK;
        }
        if (d.when == VELSTATUS_DM_WHEN_AT)
            in.now = d.at_ns;
        VS_TRY(apply(&in, &d, in.now, buf, sizeof(buf), err));
        store_event(events, cap, k, d, in.now);
    }
    return velstatus__error_set(err, VELSTATUS_E_INTERNAL, "velstatus_dm_timeline: more than %d changes",
                                VS_DM_TIMELINE_MAX);
}

/* ---- a copy of a list the forecast changes (lib/forecast/forecast_dm.c) ---- */

velstatus_status velstatus__dm_list_clone(velstatus_dm_list **out, const velstatus_dm_list *l, velstatus_error *err)
{
    velstatus_dm_list *c = velstatus__calloc(l->pool.ctx, 1, sizeof(*c));
    if (!c)
        return velstatus__error_nomem(err);
    velstatus__pool_init(&c->pool, l->pool.ctx);
    c->n = c->cap = l->n;
    c->skipped = l->skipped;
    c->items = velstatus__calloc(l->pool.ctx, l->n > 0 ? l->n : 1, sizeof(*c->items));
    if (!c->items) {
        velstatus_dm_list_free(c);
        return velstatus__error_nomem(err);
    }
    if (l->n > 0)
        memcpy(c->items, l->items, l->n * sizeof(*c->items));
    *out = c;
    return VELSTATUS_OK;
}

static void set_text(vs_dm *o, velstatus_dm_text f, const char *s, size_t len)
{
    o->text[f].s = s;
    o->text[f].len = len;
}

void velstatus__dm_list_set_cancel(velstatus_dm_list *l, size_t i)
{
    l->items[i].ints[VELSTATUS_DM_INT_CANCEL] = 1;
    l->items[i].has_int |= UINT32_C(1) << VELSTATUS_DM_INT_CANCEL;
}

/* The accept instant the release reads, written as its controller writes it. */
static velstatus_status write_accept(velstatus_dm_list *l, vs_dm *o, int accept_time, int64_t at, velstatus_error *err)
{
    char buf[VELSTATUS_TIME_BUFSIZE];
    const char *s;
    int f = accept_time == 1 ? VELSTATUS_DM_TIME_STARTED : VELSTATUS_DM_TIME_ACCEPTED;
    if (accept_time != 2) {
        o->time[f] = at;
        o->has_time |= UINT32_C(1) << f;
        return VELSTATUS_OK;
    }
    VS_TRY(velstatus_time_format(buf, sizeof(buf), at, 0, err)); /* time.RFC3339: whole seconds */
    s = velstatus__pool_str(&l->pool, buf, strlen(buf));
    if (!s)
        return velstatus__error_nomem(err);
    set_text(o, VELSTATUS_DM_TEXT_ACCEPTED_AT, s, strlen(buf));
    return VELSTATUS_OK;
}

velstatus_status velstatus__dm_list_apply(velstatus_dm_list *l, size_t i, const velstatus_dm_decision *d, int64_t at,
                                          int major, int minor, velstatus_error *err)
{
    vs_dm *o = &l->items[i];
    const char *phase = velstatus_dm_phase_to_string(d->phase_after);
    dm_knobs k;
    VS_TRY(load_knobs(&k, major, minor, err));
    if (d->message_set) {
        const char *m = velstatus__pool_str(&l->pool, d->message, d->message_len);
        if (!m)
            return velstatus__error_nomem(err);
        set_text(o, VELSTATUS_DM_TEXT_MESSAGE, m, d->message_len);
    }
    if (d->action == VELSTATUS_DM_ACTION_ACCEPT)
        VS_TRY(write_accept(l, o, k.accept_time, at, err));
    o->phase = d->phase_after;
    set_text(o, VELSTATUS_DM_TEXT_PHASE, phase, strlen(phase));
    o->ints[VELSTATUS_DM_INT_CANCEL] = d->cancel_after;
    o->has_int |= UINT32_C(1) << VELSTATUS_DM_INT_CANCEL;
    return VELSTATUS_OK;
}
