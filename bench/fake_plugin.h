/* SPDX-License-Identifier: Apache-2.0 */
/* The in-process fake plugin every benchmark of the decision loop uses
 * (bench/bench_operations.c, bench/bench_step_ir.c), and the Go peer's twin
 * (bench/go-peer/main.go, fakeAction): every operation is answered with the
 * same progress, 1 of 2 Bytes, "InProgress", started 2024-05-01T10:00:00Z,
 * updated 10:30:00Z, not completed, no error. "Now" is 11:00:00Z and the
 * timeout 4 hours, so no operation of bench/gen_itemops times out. */
#ifndef VS_BENCH_FAKE_PLUGIN_H
#define VS_BENCH_FAKE_PLUGIN_H

#include <stdint.h>
#include <velstatus.h>

static const int64_t vs_bench_now = INT64_C(1714563600) * 1000000000;
static const int64_t vs_bench_timeout = INT64_C(4) * 3600 * 1000000000;

static inline velstatus_op_progress vs_bench_answer(void)
{
    velstatus_op_progress p;
    velstatus_op_progress_init(&p, sizeof(p));
    p.n_completed = 1;
    p.n_total = 2;
    p.operation_units = "Bytes";
    p.operation_units_len = 5;
    p.description = "InProgress";
    p.description_len = 10;
    p.has_started = 1;
    p.started_ns = INT64_C(1714561200) * 1000000000;
    p.has_updated = 1;
    p.updated_ns = INT64_C(1714563000) * 1000000000;
    return p;
}

/* The plugin client's progress callback: userdata is the answer. */
static inline int vs_bench_progress(void *ud, const velstatus_oplist *list, size_t i, velstatus_op_reply *reply)
{
    (void)list;
    (void)i;
    return velstatus_op_reply_set_progress(reply, (const velstatus_op_progress *)ud, NULL) == VELSTATUS_OK ? 0 : -1;
}

/* A client and options answering with *p, "now" and the timeout above. */
static inline void vs_bench_client(velstatus_plugin_client *c, velstatus_reconcile_options *o, velstatus_op_progress *p)
{
    velstatus_plugin_client_init(c, sizeof(*c));
    c->userdata = p;
    c->progress = vs_bench_progress;
    velstatus_reconcile_options_init(o, sizeof(*o));
    o->now_ns = vs_bench_now;
    o->timeout_ns = vs_bench_timeout;
}

#endif
