/* SPDX-License-Identifier: Apache-2.0 */
/* The operations section of `velero backup describe` / `velero restore
 * describe`, byte-exact (doc/velero-behaviour.md §3.2, §3.3).
 *
 * Velero's Describer prints with fmt.Fprintf into a text/tabwriter
 * (minwidth 0, tabwidth 8, padding 2, padchar ' ', flags 0). We build the
 * same byte stream Fprintf would produce (Go's %s of a string is its bytes,
 * %d / %v of an int64 is its decimal digits, a ResourceIdentifier prints
 * through GroupResource.String()) and align it with the private tabwriter. */
#include "progress/private.h"
#include "common/tabwriter.h"

#include <string.h>

enum { DESCRIBE_MAX_OUTPUT = 1 << 30 };

static void put_str(velstatus__buf *b, const char *s, size_t len)
{
    if (s && len)
        velstatus__buf_append(b, s, len);
}

static void put_i64(velstatus__buf *b, int64_t v)
{
    char num[VELSTATUS__I64_BUFSIZE];
    size_t n = velstatus__fmt_i64(num, v);
    velstatus__buf_append(b, num, n);
}

/* GroupResource.String(): "resource" or "resource.group". */
static void put_group_resource(velstatus__buf *b, const char *group, size_t glen, const char *res, size_t rlen)
{
    put_str(b, res, rlen);
    if (glen) {
        velstatus__buf_putc(b, '.');
        put_str(b, group, glen);
    }
}

/* "\t\t<label>:\t<text>\n" */
static void line(velstatus__buf *b, const char *label, const char *s, size_t len)
{
    velstatus__buf_puts(b, "\t\t");
    velstatus__buf_puts(b, label);
    velstatus__buf_puts(b, ":\t");
    put_str(b, s, len);
    velstatus__buf_putc(b, '\n');
}

/* "\t\t<label>:\t<metav1.Time.String()>\n" when the time is present. */
static velstatus_status time_line(velstatus__buf *b, const char *label, const velstatus_op *op, velstatus_op_time which,
                                  velstatus_error *err)
{
    char t[VELSTATUS_TIME_BUFSIZE];
    velstatus_status st;
    int64_t sec = 0;
    int32_t nsec = 0;
    if (!velstatus_op_time_sec(op, which, &sec, &nsec))
        return VELSTATUS_OK;
    st = velstatus__time_format_go_sec(t, sizeof(t), sec, nsec, "describe", err);
    if (st != VELSTATUS_OK)
        return st;
    line(b, label, t, strlen(t));
    return VELSTATUS_OK;
}

/* BD:describeBackupItemOperation / RD:describeRestoreItemOperation. */
static velstatus_status describe_one(velstatus__buf *b, const velstatus_op *op, velstatus_kind kind,
                                     velstatus_error *err)
{
    const char *s, *g, *r;
    size_t len, glen, rlen;
    int64_t nc = velstatus_op_n_completed(op), nt = velstatus_op_n_total(op);
    velstatus_status st;

    g = velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_GROUP, &glen);
    r = velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &rlen);
    velstatus__buf_puts(b, "\tOperation for ");
    put_group_resource(b, g, glen, r, rlen);
    velstatus__buf_putc(b, ' ');
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &len);
    put_str(b, s, len);
    velstatus__buf_putc(b, '/');
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAME, &len);
    put_str(b, s, len);
    velstatus__buf_puts(b, ":\n");

    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_ITEM_ACTION, &len);
    line(b, kind == VELSTATUS_KIND_RESTORE ? "Restore Item Action Plugin" : "Backup Item Action Plugin", s, len);
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &len);
    line(b, "Operation ID", s, len);
    if (kind == VELSTATUS_KIND_BACKUP) {
        size_t i, n = velstatus_op_post_item_count(op);
        if (n > 0)
            velstatus__buf_puts(b, "\t\tItems to Update:\n");
        for (i = 0; i < n; i++) {
            g = velstatus_op_post_item(op, i, VELSTATUS_OP_FIELD_RESOURCE_GROUP, &glen);
            r = velstatus_op_post_item(op, i, VELSTATUS_OP_FIELD_RESOURCE_RESOURCE, &rlen);
            velstatus__buf_puts(b, "\t\t\t");
            put_group_resource(b, g, glen, r, rlen);
            velstatus__buf_putc(b, ' ');
            s = velstatus_op_post_item(op, i, VELSTATUS_OP_FIELD_RESOURCE_NAMESPACE, &len);
            put_str(b, s, len);
            velstatus__buf_putc(b, '/');
            s = velstatus_op_post_item(op, i, VELSTATUS_OP_FIELD_RESOURCE_NAME, &len);
            put_str(b, s, len);
            velstatus__buf_putc(b, '\n');
        }
    }
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_PHASE, &len);
    line(b, "Phase", s, len);
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_ERROR, &len);
    if (s && len)
        line(b, "Operation Error", s, len);
    if (nt > 0 || nc > 0) {
        velstatus__buf_puts(b, "\t\tProgress:\t");
        put_i64(b, nc);
        velstatus__buf_puts(b, " of ");
        put_i64(b, nt);
        velstatus__buf_puts(b, " complete (");
        s = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_UNITS, &len);
        put_str(b, s, len);
        velstatus__buf_puts(b, ")\n");
    }
    s = velstatus_op_string(op, VELSTATUS_OP_FIELD_DESCRIPTION, &len);
    if (s && len)
        line(b, "Progress description", s, len);
    st = time_line(b, "Created", op, VELSTATUS_OP_TIME_CREATED, err);
    if (st == VELSTATUS_OK)
        st = time_line(b, "Started", op, VELSTATUS_OP_TIME_STARTED, err);
    if (st == VELSTATUS_OK)
        st = time_line(b, "Updated", op, VELSTATUS_OP_TIME_UPDATED, err);
    return st;
}

velstatus_status velstatus_describe_operations(char **out, size_t *out_len, velstatus_ctx *ctx,
                                               const velstatus_oplist *ops, int details, velstatus_error *err)
{
    velstatus__buf raw, res;
    velstatus__tw_opts o;
    velstatus_status st = VELSTATUS_OK;
    velstatus_kind kind;
    const char *title;
    size_t i, n;
    if (!out || !ctx || !ops)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "velstatus_describe_operations: %s is NULL",
                                    !out   ? "out"
                                    : !ctx ? "ctx"
                                           : "ops");
    kind = velstatus_oplist_kind(ops);
    title = kind == VELSTATUS_KIND_RESTORE ? "Restore Item Operations:" : "Backup Item Operations:";
    n = velstatus_oplist_count(ops);
    velstatus__buf_init(&raw, ctx);
    velstatus__buf_init(&res, ctx);
    if (n > 0 && !details) {
        size_t completed = 0, failed = 0;
        for (i = 0; i < n; i++) {
            velstatus_op_phase ph = velstatus_op_phase_value(velstatus_oplist_at(ops, i));
            completed += ph == VELSTATUS_OP_PHASE_COMPLETED;
            failed += ph == VELSTATUS_OP_PHASE_FAILED;
        }
        velstatus__buf_puts(&raw, title);
        velstatus__buf_putc(&raw, '\t');
        put_i64(&raw, (int64_t)completed);
        velstatus__buf_puts(&raw, " of ");
        put_i64(&raw, (int64_t)n);
        velstatus__buf_puts(&raw, " completed successfully, ");
        put_i64(&raw, (int64_t)failed);
        velstatus__buf_puts(&raw, " failed (specify --details for more information)\n");
    } else if (n > 0) {
        velstatus__buf_puts(&raw, title);
        velstatus__buf_putc(&raw, '\n');
        for (i = 0; i < n && st == VELSTATUS_OK; i++)
            st = describe_one(&raw, velstatus_oplist_at(ops, i), kind, err);
    }
    if (st == VELSTATUS_OK && raw.failed)
        st = velstatus__error_nomem(err);
    if (st == VELSTATUS_OK) {
        velstatus__tw_opts_velero(&o);
        o.max_out = DESCRIBE_MAX_OUTPUT;
        st = velstatus__tw_format(&res, raw.p ? raw.p : "", raw.len, &o, err);
    }
    velstatus__buf_reset(&raw);
    if (st != VELSTATUS_OK) {
        velstatus__buf_reset(&res);
        return st;
    }
    return velstatus__buf_finish(&res, out, out_len, err);
}
