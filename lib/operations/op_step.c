/* SPDX-License-Identifier: Apache-2.0 */
/* The per-operation step (op_step.h; doc/velero-behaviour.md §2.4): one
 * operation, what its plugin reported and `now` in, the updated record and
 * what happened out. Pure: `now` is an argument. The machinery is in
 * step_core.h, which the whole-list pass (reconcile.c) shares. */
#include "operations/step_core.h"

velstatus_status velstatus_op_wrap_error(char **out, size_t *out_len, velstatus_ctx *ctx, const char *msg,
                                         size_t msg_len, const char *plugin, size_t plugin_len, velstatus_error *err)
{
    velstatus__buf b;
    msg_len = velstatus__text_len(msg, msg_len);
    plugin_len = velstatus__text_len(plugin, plugin_len);
    if (!out || !ctx)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !out ? "out" : "ctx");
    if (!msg && msg_len > 0)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "msg is NULL with length %zu", msg_len);
    velstatus__buf_init(&b, ctx);
    wrap_into(&b, msg, msg_len, NULL, plugin, plugin ? plugin_len : 0);
    return velstatus__buf_finish(&b, out, out_len, err);
}

void velstatus_op_progress_init(velstatus_op_progress *progress, size_t struct_size)
{
    velstatus__sized_init(progress, struct_size, NULL, sizeof(*progress));
}

/* A policy or report of another struct size (or an invalid one): copied
 * into *pol / *r, of this library's size, and *policy / *report pointed at
 * them. Kept out of line: the common path validates in place. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static velstatus_status
step_load(velstatus_policy *pol, velstatus_op_progress *r, const velstatus_policy **policy,
          const velstatus_op_progress **report, const velstatus_oplist *list, size_t index, velstatus_error *err)
{
    velstatus_status st;
    const velstatus_op *op = &list->ops[index];
    if (!*policy || (*policy)->struct_size != sizeof(*pol)) {
        st = velstatus__policy_load(pol, *policy, err);
        if (st != VELSTATUS_OK)
            return st;
        *policy = pol;
    }
    if (!*report && velstatus__op_phase_running((velstatus_op_phase)op->h.phase))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "report is NULL but operation %zu is %s and needs one",
                                    index, vs__op_text(op, VELSTATUS_OP_FIELD_PHASE)->p);
    if (*report && !report_ok(*report)) {
        st = load_report(r, *report, err);
        if (st != VELSTATUS_OK)
            return st;
        *report = r;
    }
    return VELSTATUS_OK;
}

velstatus_status velstatus_oplist_step(uint32_t *flags, char **message, size_t *message_len, velstatus_oplist *list,
                                       size_t index, const velstatus_op_progress *report, int64_t now_ns,
                                       int64_t timeout_ns, const velstatus_policy *policy, velstatus_error *err)
{
    static const velstatus_op_progress missing; /* marks a NULL report that is needed */
    velstatus_policy pol;
    velstatus_op_progress r;
    velstatus__buf msg;
    velstatus_status st;
    uint32_t f = 0;
    const velstatus_op *op;
    if (!flags || !list)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !flags ? "flags" : "list");
    if (index >= list->n)
        return velstatus__error_set(err, VELSTATUS_E_RANGE, "index %zu is out of range (the list has %zu records)",
                                    index, list->n);
    op = &list->ops[index];
    if (!velstatus__op_phase_running((velstatus_op_phase)op->h.phase))
        report = NULL; /* not consulted, not checked */
    else if (!report)
        report = &missing; /* step_load() reports it, after the policy as before */
    msg.p = NULL;
    if (!policy || policy->struct_size != sizeof(*policy) || report == &missing || (report && !report_ok(report))) {
        if (report == &missing)
            report = NULL;
        st = step_load(&pol, &r, &policy, &report, list, index, err);
        if (st != VELSTATUS_OK)
            return st;
    }
    st = step_core(&f, &msg, list, index, report, now_ns, timeout_ns, policy, err);
    if (st != VELSTATUS_OK)
        return st;
    *flags = f;
    if (message) {
        *message = msg.p; /* NULL when no message */
        if (message_len)
            *message_len = msg.p ? msg.len : 0;
        return VELSTATUS_OK;
    }
    if (message_len)
        *message_len = msg.p ? msg.len : 0;
    if (msg.p)
        velstatus__buf_reset(&msg);
    return VELSTATUS_OK;
}
