/* SPDX-License-Identifier: Apache-2.0 */
/* Pins the layout of every transparent public struct (doc/conventions.md §2): any
 * reordering, retyping or removal breaks the build here. Appending a field
 * means updating the size assertion deliberately, nothing else. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_host.h"
#include "harness.h"
#include "velstatus.h"
#include "operations/private.h"
#include "datamover/private.h"
#include "server_status/private.h"

/* velstatus_error */
_Static_assert(offsetof(velstatus_error, code) == 0, "error.code");
_Static_assert(offsetof(velstatus_error, host_code) == 4, "error.host_code");
_Static_assert(offsetof(velstatus_error, line) == 8, "error.line");
_Static_assert(offsetof(velstatus_error, column) == 12, "error.column");
_Static_assert(offsetof(velstatus_error, offset) == 16, "error.offset");
_Static_assert(offsetof(velstatus_error, reserved) == 24, "error.reserved");
_Static_assert(offsetof(velstatus_error, message) == 40, "error.message");
_Static_assert(sizeof(velstatus_error) == 296, "error size");
_Static_assert(sizeof(((velstatus_error *)0)->message) == VELSTATUS_ERROR_MESSAGE_SIZE, "message size");

/* velstatus_allocator (v1) */
_Static_assert(offsetof(velstatus_allocator, struct_size) == 0, "alloc.struct_size");
_Static_assert(offsetof(velstatus_allocator, flags) == 4, "alloc.flags");
_Static_assert(offsetof(velstatus_allocator, userdata) == 8, "alloc.userdata");
_Static_assert(offsetof(velstatus_allocator, alloc_fn) == 8 + sizeof(void *), "alloc.alloc_fn");
_Static_assert(offsetof(velstatus_allocator, realloc_fn) == 8 + 2 * sizeof(void *), "alloc.realloc_fn");
_Static_assert(offsetof(velstatus_allocator, free_fn) == 8 + 3 * sizeof(void *), "alloc.free_fn");
_Static_assert(sizeof(velstatus_allocator) == 8 + 4 * sizeof(void *), "alloc size");

/* velstatus_policy (v1) */
_Static_assert(offsetof(velstatus_policy, struct_size) == 0, "policy.struct_size");
_Static_assert(offsetof(velstatus_policy, preset) == 4, "policy.preset");
_Static_assert(offsetof(velstatus_policy, requeue_ready_to_start_on_restart) == 8, "policy.requeue");
_Static_assert(offsetof(velstatus_policy, zero_timeout_expires) == 12, "policy.zero_timeout_expires");
_Static_assert(offsetof(velstatus_policy, level_triggered_partial_failure) == 16, "policy.level");
_Static_assert(offsetof(velstatus_policy, unknown_phase_fails) == 20, "policy.unknown_phase_fails");
_Static_assert(offsetof(velstatus_policy, progress_error_grace_ns) == 24, "policy.grace");
_Static_assert(offsetof(velstatus_policy, restore_error_plugin_suffix) == 32, "policy.suffix");
_Static_assert(offsetof(velstatus_policy, compare_times_by_instant) == 36, "policy.instant");
_Static_assert(offsetof(velstatus_policy, unix_epoch_is_unknown) == 40, "policy.epoch");
_Static_assert(offsetof(velstatus_policy, report_cancel_results) == 44, "policy.cancel");
_Static_assert(offsetof(velstatus_policy, retry_classify_errors) == 48, "policy.classify");
_Static_assert(offsetof(velstatus_policy, retry_forgotten_patches) == 52, "policy.forgotten");

/* The Velero-release knobs (doc/velero-releases.md), appended before 1.0. */
_Static_assert(offsetof(velstatus_policy, partial_failure_when_done) == 56, "policy.pf_done");
_Static_assert(offsetof(velstatus_policy, restore_readonly_bsl_fails) == 60, "policy.ro_restore");
_Static_assert(offsetof(velstatus_policy, restore_finalizing) == 64, "policy.restore_finalizing");
_Static_assert(offsetof(velstatus_policy, backup_error_plugin_suffix) == 68, "policy.backup_suffix");
_Static_assert(offsetof(velstatus_policy, first_pass_errors_as_index) == 72, "policy.first_pass_index");
_Static_assert(offsetof(velstatus_policy, first_pass_restore_errors_uncounted) == 76, "policy.first_pass_restore");
_Static_assert(offsetof(velstatus_policy, default_item_operation_timeout_ns) == 80, "policy.default_timeout");
_Static_assert(offsetof(velstatus_policy, status_patch_retries) == 88, "policy.patch_retries");
_Static_assert(offsetof(velstatus_policy, backup_queue) == 92, "policy.backup_queue");
_Static_assert(offsetof(velstatus_policy, validation_texts_quoted) == 96, "policy.validation_quoted");
_Static_assert(offsetof(velstatus_policy, validation_bsl_available) == 100, "policy.validation_available");
_Static_assert(offsetof(velstatus_policy, quote_unicode_13) == 104, "policy.quote_unicode_13");
_Static_assert(offsetof(velstatus_policy, invalid_operation_id_text_1_11) == 108, "policy.invalid_id_1_11");

_Static_assert(sizeof(velstatus_policy) == 112, "policy size"); /* v1 was 104 and stays accepted */

/* operations.h (LP64; the other areas pin theirs in their own suites:
 * check_server_status.c, check_retry.c) */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(velstatus_op_progress, struct_size) == 0, "velstatus_op_progress.struct_size");
_Static_assert(offsetof(velstatus_op_progress, flags) == 4, "velstatus_op_progress.flags");
_Static_assert(offsetof(velstatus_op_progress, report) == 8, "velstatus_op_progress.report");
_Static_assert(offsetof(velstatus_op_progress, completed) == 12, "velstatus_op_progress.completed");
_Static_assert(offsetof(velstatus_op_progress, n_completed) == 16, "velstatus_op_progress.n_completed");
_Static_assert(offsetof(velstatus_op_progress, n_total) == 24, "velstatus_op_progress.n_total");
_Static_assert(offsetof(velstatus_op_progress, err) == 32, "velstatus_op_progress.err");
_Static_assert(offsetof(velstatus_op_progress, err_len) == 40, "velstatus_op_progress.err_len");
_Static_assert(offsetof(velstatus_op_progress, operation_units) == 48, "velstatus_op_progress.operation_units");
_Static_assert(offsetof(velstatus_op_progress, operation_units_len) == 56, "velstatus_op_progress.operation_units_len");
_Static_assert(offsetof(velstatus_op_progress, description) == 64, "velstatus_op_progress.description");
_Static_assert(offsetof(velstatus_op_progress, description_len) == 72, "velstatus_op_progress.description_len");
_Static_assert(offsetof(velstatus_op_progress, has_started) == 80, "velstatus_op_progress.has_started");
_Static_assert(offsetof(velstatus_op_progress, started_ns) == 88, "velstatus_op_progress.started_ns");
_Static_assert(offsetof(velstatus_op_progress, has_updated) == 96, "velstatus_op_progress.has_updated");
_Static_assert(offsetof(velstatus_op_progress, updated_ns) == 104, "velstatus_op_progress.updated_ns");
_Static_assert(offsetof(velstatus_op_progress, plugin_name) == 112, "velstatus_op_progress.plugin_name");
_Static_assert(offsetof(velstatus_op_progress, plugin_name_len) == 120, "velstatus_op_progress.plugin_name_len");
_Static_assert(offsetof(velstatus_op_progress, has_started_sec) == 128, "velstatus_op_progress.has_started_sec");
_Static_assert(offsetof(velstatus_op_progress, started_nsec) == 132, "velstatus_op_progress.started_nsec");
_Static_assert(offsetof(velstatus_op_progress, started_sec) == 136, "velstatus_op_progress.started_sec");
_Static_assert(offsetof(velstatus_op_progress, has_updated_sec) == 144, "velstatus_op_progress.has_updated_sec");
_Static_assert(offsetof(velstatus_op_progress, updated_nsec) == 148, "velstatus_op_progress.updated_nsec");
_Static_assert(offsetof(velstatus_op_progress, updated_sec) == 152, "velstatus_op_progress.updated_sec");
_Static_assert(sizeof(velstatus_op_progress) == 160, "velstatus_op_progress size");
_Static_assert(offsetof(velstatus_plugin_client, struct_size) == 0, "velstatus_plugin_client.struct_size");
_Static_assert(offsetof(velstatus_plugin_client, flags) == 4, "velstatus_plugin_client.flags");
_Static_assert(offsetof(velstatus_plugin_client, userdata) == 8, "velstatus_plugin_client.userdata");
_Static_assert(offsetof(velstatus_plugin_client, progress) == 16, "velstatus_plugin_client.progress");
_Static_assert(offsetof(velstatus_plugin_client, cancel) == 24, "velstatus_plugin_client.cancel");
_Static_assert(sizeof(velstatus_plugin_client) == 32, "velstatus_plugin_client size");
_Static_assert(offsetof(velstatus_reconcile_options, struct_size) == 0, "velstatus_reconcile_options.struct_size");
_Static_assert(offsetof(velstatus_reconcile_options, flags) == 4, "velstatus_reconcile_options.flags");
_Static_assert(offsetof(velstatus_reconcile_options, phase) == 8, "velstatus_reconcile_options.phase");
_Static_assert(offsetof(velstatus_reconcile_options, bsl) == 12, "velstatus_reconcile_options.bsl");
_Static_assert(offsetof(velstatus_reconcile_options, now_ns) == 16, "velstatus_reconcile_options.now_ns");
_Static_assert(offsetof(velstatus_reconcile_options, timeout_ns) == 24, "velstatus_reconcile_options.timeout_ns");
_Static_assert(offsetof(velstatus_reconcile_options, errors) == 32, "velstatus_reconcile_options.errors");
_Static_assert(offsetof(velstatus_reconcile_options, bsl_name) == 40, "velstatus_reconcile_options.bsl_name");
_Static_assert(offsetof(velstatus_reconcile_options, bsl_name_len) == 48, "velstatus_reconcile_options.bsl_name_len");
_Static_assert(offsetof(velstatus_reconcile_options, completed_before) == 56,
               "velstatus_reconcile_options.completed_before");
_Static_assert(offsetof(velstatus_reconcile_options, failed_before) == 64, "velstatus_reconcile_options.failed_before");
_Static_assert(offsetof(velstatus_reconcile_options, bsl_error) == 72, "velstatus_reconcile_options.bsl_error");
_Static_assert(offsetof(velstatus_reconcile_options, bsl_error_len) == 80, "velstatus_reconcile_options.bsl_error_len");
_Static_assert(offsetof(velstatus_reconcile_options, backup_error) == 88, "velstatus_reconcile_options.backup_error");
_Static_assert(offsetof(velstatus_reconcile_options, backup_error_len) == 96,
               "velstatus_reconcile_options.backup_error_len");
_Static_assert(offsetof(velstatus_reconcile_options, backup_name) == 104, "velstatus_reconcile_options.backup_name");
_Static_assert(offsetof(velstatus_reconcile_options, backup_name_len) == 112,
               "velstatus_reconcile_options.backup_name_len");
_Static_assert(offsetof(velstatus_reconcile_options, velero_namespace) == 120,
               "velstatus_reconcile_options.velero_namespace");
_Static_assert(offsetof(velstatus_reconcile_options, velero_namespace_len) == 128,
               "velstatus_reconcile_options.velero_namespace_len");
_Static_assert(sizeof(velstatus_reconcile_options) == 136, "velstatus_reconcile_options size");
/* snapshot.h */
_Static_assert(offsetof(velstatus_snapshot_client_config, struct_size) == 0,
               "velstatus_snapshot_client_config.struct_size");
_Static_assert(offsetof(velstatus_snapshot_client_config, flags) == 4, "velstatus_snapshot_client_config.flags");
_Static_assert(offsetof(velstatus_snapshot_client_config, snapshots) == 8,
               "velstatus_snapshot_client_config.snapshots");
_Static_assert(offsetof(velstatus_snapshot_client_config, major) == 16, "velstatus_snapshot_client_config.major");
_Static_assert(offsetof(velstatus_snapshot_client_config, minor) == 20, "velstatus_snapshot_client_config.minor");
_Static_assert(offsetof(velstatus_snapshot_client_config, now_ns) == 24, "velstatus_snapshot_client_config.now_ns");
_Static_assert(offsetof(velstatus_snapshot_client_config, fallback) == 32, "velstatus_snapshot_client_config.fallback");
_Static_assert(sizeof(velstatus_snapshot_client_config) == 40, "velstatus_snapshot_client_config size");
_Static_assert(VELSTATUS_SNAPSHOT_KIND_INVALID == -1 && VELSTATUS_SNAPSHOT_KIND_CONTENT == 1,
               "velstatus_snapshot_kind");
_Static_assert(VELSTATUS_SNAPSHOT_FIELD_BOUND_CONTENT == 6 && VELSTATUS_SNAPSHOT_FIELD_READY_TO_USE == 18,
               "velstatus_snapshot_field");
#endif

/* Enum values are part of the ABI too. */
_Static_assert(VELSTATUS_PHASE_DELETING == 12, "phase values");
_Static_assert(VELSTATUS_KIND_RESTORE == 1, "kind values");
_Static_assert(VELSTATUS_PRESET_HARDENED == 1, "preset values");

START_TEST(init_functions_fill_struct_size)
{
    velstatus_allocator a;
    a.userdata = &a;
    velstatus_allocator_init(&a, sizeof(a));
    ck_assert_uint_eq(a.struct_size, sizeof(a));
    ck_assert_ptr_null(a.userdata);
    ck_assert_ptr_null(a.alloc_fn);
}
END_TEST


/* The first-version sizes: appending a field must never change them. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(VS_ALLOCATOR_SIZE_V1 == 40, "allocator v1");
_Static_assert(VS_POLICY_SIZE_V1 == 104, "policy v1"); /* moved from 56 before 1.0 (doc/api-changes-1.0.md) */
_Static_assert(VS_OP_PROGRESS_SIZE_V1 == 112, "op_progress v1");
_Static_assert(VS_PLUGIN_CLIENT_SIZE_V1 == 32, "plugin_client v1");
_Static_assert(VS_RECONCILE_OPTIONS_SIZE_V1 == 72, "reconcile_options v1");
_Static_assert(VS_BACKOFF_SIZE_V1 == 48, "backoff v1");
_Static_assert(VS_RETRY_HOST_SIZE_V1 == 56, "retry_host v1");
_Static_assert(VS_RETRY_SCHEDULE_SIZE_V1 == 56, "retry_schedule v1");
_Static_assert(VS_SERVER_STATUS_OPTIONS_SIZE_V1 == 56, "server_status_options v1");
_Static_assert(VS_SERVER_STATUS_HOST_SIZE_V1 == 96, "server_status_host v1");
_Static_assert(VS_BSL_RECORD_SIZE_V1 == 96, "bsl_record v1");
_Static_assert(VS_DM_OBJECT_SIZE_V1 == 152, "dm_object v1");
_Static_assert(VS_DM_CONFIG_SIZE_V1 == 96, "dm_config v1");
_Static_assert(VS_DM_DECISION_SIZE_V1 == 1072, "dm_decision v1");
#endif

/* The node-agent decision's structs (datamover.h), on LP64. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(velstatus_dm_object, struct_size) == 0, "velstatus_dm_object.struct_size");
_Static_assert(offsetof(velstatus_dm_object, kind) == 4, "velstatus_dm_object.kind");
_Static_assert(offsetof(velstatus_dm_object, phase) == 8, "velstatus_dm_object.phase");
_Static_assert(offsetof(velstatus_dm_object, phase_text) == 16, "velstatus_dm_object.phase_text");
_Static_assert(offsetof(velstatus_dm_object, phase_text_len) == 24, "velstatus_dm_object.phase_text_len");
_Static_assert(offsetof(velstatus_dm_object, cancel) == 32, "velstatus_dm_object.cancel");
_Static_assert(offsetof(velstatus_dm_object, deleting) == 36, "velstatus_dm_object.deleting");
_Static_assert(offsetof(velstatus_dm_object, ns) == 40, "velstatus_dm_object.ns");
_Static_assert(offsetof(velstatus_dm_object, ns_len) == 48, "velstatus_dm_object.ns_len");
_Static_assert(offsetof(velstatus_dm_object, name) == 56, "velstatus_dm_object.name");
_Static_assert(offsetof(velstatus_dm_object, name_len) == 64, "velstatus_dm_object.name_len");
_Static_assert(offsetof(velstatus_dm_object, node) == 72, "velstatus_dm_object.node");
_Static_assert(offsetof(velstatus_dm_object, node_len) == 80, "velstatus_dm_object.node_len");
_Static_assert(offsetof(velstatus_dm_object, accepted_by_label) == 88, "velstatus_dm_object.accepted_by_label");
_Static_assert(offsetof(velstatus_dm_object, accepted_by_label_len) == 96, "velstatus_dm_object.accepted_by_label_len");
_Static_assert(offsetof(velstatus_dm_object, accepted_at_annotation) == 104,
               "velstatus_dm_object.accepted_at_annotation");
_Static_assert(offsetof(velstatus_dm_object, accepted_at_annotation_len) == 112,
               "velstatus_dm_object.accepted_at_annotation_len");
_Static_assert(offsetof(velstatus_dm_object, has_start) == 120, "velstatus_dm_object.has_start");
_Static_assert(offsetof(velstatus_dm_object, start_ns) == 128, "velstatus_dm_object.start_ns");
_Static_assert(offsetof(velstatus_dm_object, has_accepted) == 136, "velstatus_dm_object.has_accepted");
_Static_assert(offsetof(velstatus_dm_object, accepted_ns) == 144, "velstatus_dm_object.accepted_ns");
_Static_assert(offsetof(velstatus_dm_config, struct_size) == 0, "velstatus_dm_config.struct_size");
_Static_assert(offsetof(velstatus_dm_config, prepare_timeout_ns) == 8, "velstatus_dm_config.prepare_timeout_ns");
_Static_assert(offsetof(velstatus_dm_config, has_node_restart) == 16, "velstatus_dm_config.has_node_restart");
_Static_assert(offsetof(velstatus_dm_config, node_restart_ns) == 24, "velstatus_dm_config.node_restart_ns");
_Static_assert(offsetof(velstatus_dm_config, restart_node) == 32, "velstatus_dm_config.restart_node");
_Static_assert(offsetof(velstatus_dm_config, restart_node_len) == 40, "velstatus_dm_config.restart_node_len");
_Static_assert(offsetof(velstatus_dm_config, has_server_restart) == 48, "velstatus_dm_config.has_server_restart");
_Static_assert(offsetof(velstatus_dm_config, server_restart_ns) == 56, "velstatus_dm_config.server_restart_ns");
_Static_assert(offsetof(velstatus_dm_config, has_cancel_seen) == 64, "velstatus_dm_config.has_cancel_seen");
_Static_assert(offsetof(velstatus_dm_config, cancel_seen_ns) == 72, "velstatus_dm_config.cancel_seen_ns");
_Static_assert(offsetof(velstatus_dm_config, resume_error) == 80, "velstatus_dm_config.resume_error");
_Static_assert(offsetof(velstatus_dm_config, resume_error_len) == 88, "velstatus_dm_config.resume_error_len");
_Static_assert(offsetof(velstatus_dm_decision, struct_size) == 0, "velstatus_dm_decision.struct_size");
_Static_assert(offsetof(velstatus_dm_decision, action) == 4, "velstatus_dm_decision.action");
_Static_assert(offsetof(velstatus_dm_decision, when) == 8, "velstatus_dm_decision.when");
_Static_assert(offsetof(velstatus_dm_decision, has_at) == 12, "velstatus_dm_decision.has_at");
_Static_assert(offsetof(velstatus_dm_decision, at_ns) == 16, "velstatus_dm_decision.at_ns");
_Static_assert(offsetof(velstatus_dm_decision, phase_after) == 24, "velstatus_dm_decision.phase_after");
_Static_assert(offsetof(velstatus_dm_decision, cancel_after) == 28, "velstatus_dm_decision.cancel_after");
_Static_assert(offsetof(velstatus_dm_decision, message_set) == 32, "velstatus_dm_decision.message_set");
_Static_assert(offsetof(velstatus_dm_decision, message_len) == 40, "velstatus_dm_decision.message_len");
_Static_assert(offsetof(velstatus_dm_decision, message) == 48, "velstatus_dm_decision.message");
#endif

/* Callers of two generations, for every size-tagged struct: an "older" one
 * compiled against the first version (struct_size = the v1 size) and a
 * "newer" one compiled against a header with 64 more bytes of fields this
 * library does not know (left zero by _init). Both must be accepted. Each
 * struct lives in a buffer pre-filled with 0xAA, so a byte _init forgets
 * shows up as a non-zero unknown byte (E_ABI) or a wrong default. */
#define NEWER_TAIL 64
typedef union abi_buf {
    max_align_t align;
    unsigned char b[512];
} abi_buf;

static void *dirty(abi_buf *u)
{
    memset(u->b, 0xAA, sizeof(u->b));
    return u->b;
}

static size_t gen_size(int newer, size_t v1, size_t lib)
{
    return newer ? lib + NEWER_TAIL : v1;
}

static void assert_zero_tail(const abi_buf *u, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        ck_assert_msg(u->b[i] == 0, "byte %zu left as %#x by _init", i, u->b[i]);
    ck_assert_uint_eq(u->b[to], 0xAA); /* and nothing past struct_size written */
}

static void *abi_alloc(void *ud, size_t n)
{
    (void)ud;
    return malloc(n);
}
static void *abi_realloc(void *ud, void *p, size_t n)
{
    (void)ud;
    return realloc(p, n);
}
static void abi_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

static const char ONE_OP[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupUID\":\"u\",\"backupItemAction\":\"velero.io/p\","
    "\"resourceIdentifier\":{\"Group\":\"\",\"Resource\":\"pvc\",\"Namespace\":\"ns\",\"Name\":\"n\"},"
    "\"operationID\":\"op-1\"},\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T10:00:00Z\"}}]";

static const char TWO_BSLS[] =
    "[{\"metadata\":{\"name\":\"default\"},\"spec\":{\"default\":true},\"status\":{\"phase\":\"Available\"}}]";

static velstatus_oplist *one_op(velstatus_ctx *ctx)
{
    velstatus_oplist *list = NULL;
    ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, ONE_OP, sizeof(ONE_OP) - 1, NULL),
                     VELSTATUS_OK);
    return list;
}

START_TEST(older_and_newer_callers)
{
    int newer = _i;
    abi_buf u;
    velstatus_error err;
    velstatus_ctx *ctx = NULL;
    size_t n;

    /* allocator */
    {
        velstatus_allocator *a = dirty(&u);
        n = gen_size(newer, VS_ALLOCATOR_SIZE_V1, sizeof(*a));
        velstatus_allocator_init(a, n);
        ck_assert_uint_eq(a->struct_size, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        a->alloc_fn = abi_alloc;
        a->realloc_fn = abi_realloc;
        a->free_fn = abi_free;
        ck_assert_int_eq(velstatus_ctx_new(&ctx, a, &err), VELSTATUS_OK);
    }
    /* policy, filled by velstatus_policy_init() */
    {
        velstatus_policy *p = dirty(&u);
        velstatus_restart_action action;
        n = gen_size(newer, VS_POLICY_SIZE_V1, sizeof(*p));
        ck_assert_int_eq(velstatus_policy_init(p, n, VELSTATUS_PRESET_VELERO, &err), VELSTATUS_OK);
        ck_assert_int_eq(
            velstatus_phase_on_restart(&action, NULL, VELSTATUS_KIND_BACKUP, VELSTATUS_PHASE_IN_PROGRESS, p, &err),
            VELSTATUS_OK);
    }
    /* op_progress, through the step */
    {
        velstatus_oplist *list = one_op(ctx);
        velstatus_op_progress *r = dirty(&u);
        uint32_t flags = 0;
        velstatus_policy pol = vs_policy(VELSTATUS_PRESET_HARDENED);
        n = gen_size(newer, VS_OP_PROGRESS_SIZE_V1, sizeof(*r));
        velstatus_op_progress_init(r, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        char *msg = NULL;
        r->completed = 1;
        r->err = "e";
        r->err_len = 1;
        r->has_started = 1;
        r->started_ns = 5;
        if (newer) { /* appended in 1.1: a v1 caller's plugin is named as the manager registered it */
            r->plugin_name = "mock";
            r->plugin_name_len = 4;
            r->has_started_sec = 1; /* and its started is exact, year 9999 */
            r->started_sec = INT64_C(253402300799);
        }
        ck_assert_int_eq(velstatus_oplist_step(&flags, &msg, NULL, list, 0, r, 0, 0, &pol, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(list, 0)), VELSTATUS_OP_PHASE_FAILED);
        ck_assert_str_eq(msg, newer ? "e, plugin: mock" : "e, plugin: velero.io/p");
        {
            int64_t sec = 0;
            int32_t nsec = 0;
            ck_assert_int_eq(
                velstatus_op_time_sec(velstatus_oplist_at(list, 0), VELSTATUS_OP_TIME_STARTED, &sec, &nsec), 1);
            ck_assert_int_eq(sec, newer ? INT64_C(253402300799) : 0); /* a v1 caller: started_ns, 5 ns */
            ck_assert_int_eq(nsec, newer ? 0 : 5);
        }
        velstatus_free(ctx, msg);
        velstatus_oplist_free(list);
    }
    /* plugin_client and reconcile_options, through the driver */
    {
        abi_buf uo;
        velstatus_oplist *list = one_op(ctx);
        velstatus_plugin_client *c = dirty(&u);
        velstatus_reconcile_options *o = dirty(&uo);
        velstatus_reconcile_result *res = NULL;
        vs_fake_plugin fp;
        vs_fake_plugin_init(&fp);
        fp.ans[0].completed = 1;
        n = gen_size(newer, VS_PLUGIN_CLIENT_SIZE_V1, sizeof(*c));
        velstatus_plugin_client_init(c, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        c->userdata = &fp;
        c->progress = vs_fake_progress;
        n = gen_size(newer, VS_RECONCILE_OPTIONS_SIZE_V1, sizeof(*o));
        velstatus_reconcile_options_init(o, n);
        ck_assert_int_eq(o->timeout_ns, INT64_C(4) * 3600 * 1000000000); /* the defaults reach a v1 caller */
        ck_assert_int_eq(o->phase, VELSTATUS_PHASE_WAITING_FOR_PLUGIN_OPERATIONS);
        assert_zero_tail(&uo, sizeof(velstatus_reconcile_options), n);
        ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, c, o, NULL, &err), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_reconcile_result_completed(res), 1);
        ck_assert_int_eq(velstatus_reconcile_result_requeue(res), 0); /* a v1 caller's lookups succeeded */
        velstatus_reconcile_result_free(res);
        if (newer) { /* appended in 1.1: a BSL Get failing otherwise than NotFound */
            o->bsl_error = "timeout";
            o->bsl_error_len = 7;
            ck_assert_int_eq(velstatus_oplist_reconcile(&res, list, c, o, NULL, &err), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_reconcile_result_requeue(res), 1);
            ck_assert_str_eq(velstatus_reconcile_result_error(res, 0, NULL), "timeout");
            velstatus_reconcile_result_free(res);
        }
        velstatus_oplist_free(list);
    }
    /* backoff */
    {
        velstatus_backoff *b = dirty(&u);
        int64_t sleep_ns = -1;
        n = gen_size(newer, VS_BACKOFF_SIZE_V1, sizeof(*b));
        velstatus_backoff_init(b, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        b->duration_ns = 10;
        b->factor = 2.0;
        b->steps = 3;
        ck_assert_int_eq(velstatus_backoff_step(&sleep_ns, b, 0.0, &err), VELSTATUS_OK);
        ck_assert_int_eq(sleep_ns, 10);
        ck_assert_int_eq(b->duration_ns, 20);
        ck_assert_uint_eq(b->struct_size, n); /* the caller's struct keeps its own size */
    }
    /* retry_host and retry_schedule */
    {
        abi_buf us;
        velstatus_retry_host *h = dirty(&u);
        velstatus_retry_schedule *sc = dirty(&us), hard = vs_schedule();
        velstatus_backoff b = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 0);
        velstatus_retry_result *res = NULL;
        vs_fake_retry fr;
        vs_fake_retry_init(&fr); /* every attempt succeeds */
        n = gen_size(newer, VS_RETRY_HOST_SIZE_V1, sizeof(*h));
        velstatus_retry_host_init(h, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        h->userdata = &fr;
        h->attempt = vs_fake_retry_attempt;
        ck_assert_int_eq(velstatus_retry_on_error(&res, ctx, &b, h, &err), VELSTATUS_OK);
        ck_assert_uint_eq(velstatus_retry_result_attempts(res), 1);
        ck_assert_int_eq(fr.attempts, 1);
        velstatus_retry_result_free(res);
        n = gen_size(newer, VS_RETRY_SCHEDULE_SIZE_V1, sizeof(*sc));
        velstatus_retry_schedule_init(sc, n);
        ck_assert_int_eq(sc->max_attempts, hard.max_attempts);
        assert_zero_tail(&us, sizeof(velstatus_retry_schedule), n);
        ck_assert_int_eq(velstatus_retry_hardened(&res, ctx, sc, h, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_retry_result_outcome(res), VELSTATUS_RETRY_OUTCOME_SUCCEEDED);
        velstatus_retry_result_free(res);
    }
    /* server_status_options and server_status_host, through the step */
    {
        abi_buf uo;
        velstatus_server_status_host *h = dirty(&u);
        velstatus_server_status_options *o = dirty(&uo);
        velstatus_server_verdict *v = NULL;
        int published = 0;
        vs_fake_host fh;
        n = gen_size(newer, VS_SERVER_STATUS_HOST_SIZE_V1, sizeof(*h));
        velstatus_server_status_host_init(h, n);
        /* all zero but the embedded retry host's struct_size */
        ck_assert_uint_eq(h->retry.struct_size, sizeof(velstatus_retry_host));
        h->retry.struct_size = 0;
        assert_zero_tail(&u, sizeof(uint32_t), n);
        h->retry.struct_size = sizeof(velstatus_retry_host);
        vs_fake_host_init(&fh);
        fh.json = TWO_BSLS;
        h->userdata = &fh;
        h->list_bsls = vs_fake_list;
        h->publish = vs_fake_publish;
        n = gen_size(newer, VS_SERVER_STATUS_OPTIONS_SIZE_V1, sizeof(*o));
        velstatus_server_status_options_init(o, n);
        assert_zero_tail(&uo, sizeof(uint32_t), n);
        ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, h, o, NULL, &err), VELSTATUS_OK);
        ck_assert_int_eq(published, 1);
        ck_assert_int_eq(fh.publishes, 1);
        ck_assert_int_eq(velstatus_server_verdict_status(v), VELSTATUS_SERVER_READY);
        velstatus_server_verdict_free(v);
    }
    /* bsl_record, into the tracker and out of a decoded set */
    {
        velstatus_bsl_record *r = dirty(&u);
        velstatus_server_tracker *t = NULL;
        velstatus_bsl_set *set = NULL;
        int changed = 0;
        n = gen_size(newer, VS_BSL_RECORD_SIZE_V1, sizeof(*r));
        velstatus_bsl_record_init(r, n);
        ck_assert_uint_eq(r->struct_size, n);
        assert_zero_tail(&u, sizeof(uint32_t), n);
        r->name = "default";
        r->name_len = 7;
        r->is_default = 1;
        r->phase = "Available";
        r->phase_len = 9;
        ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_tracker_upsert(t, &changed, r, &err), VELSTATUS_OK);
        ck_assert_int_eq(changed, 1);
        ck_assert_int_eq(velstatus_server_tracker_status(t), VELSTATUS_SERVER_READY);
        ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, TWO_BSLS, sizeof(TWO_BSLS) - 1, &err), VELSTATUS_OK);
        velstatus_bsl_record_init(r, n);
        ck_assert_int_eq(velstatus_bsl_set_get(set, 0, r, &err), VELSTATUS_OK);
        ck_assert_uint_eq(r->struct_size, n);
        ck_assert_str_eq(r->name, "default");
        assert_zero_tail(&u, sizeof(velstatus_bsl_record), n); /* a newer caller's tail is left alone */
        ck_assert_int_eq(velstatus_server_tracker_upsert(t, &changed, r, &err), VELSTATUS_OK);
        ck_assert_int_eq(changed, 0);
        velstatus_bsl_set_free(set);
        velstatus_server_tracker_free(t);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(too_small_and_dirty_tails_are_refused)
{
    abi_buf u;
    velstatus_error err;
    velstatus_backoff *b = dirty(&u);
    int64_t sleep_ns;
    velstatus_backoff_init(b, VS_BACKOFF_SIZE_V1 - 1);
    b->steps = 1;
    ck_assert_int_eq(velstatus_backoff_step(&sleep_ns, b, 0.0, &err), VELSTATUS_E_ABI);
    velstatus_backoff_init(b, sizeof(*b) + NEWER_TAIL);
    u.b[sizeof(*b) + 3] = 1; /* a newer field this library cannot honour */
    ck_assert_int_eq(velstatus_backoff_step(&sleep_ns, b, 0.0, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_nonnull(strstr(err.message, "is not zero"));
    /* an _init too small to hold struct_size writes nothing */
    dirty(&u);
    velstatus_backoff_init(b, 3);
    ck_assert_uint_eq(u.b[0], 0xAA);
}
END_TEST

/* Every entry point that fills a size-tagged struct from a preset or a
 * release, for an older and a newer caller: the caller's struct_size bytes
 * are written (the v1 prefix as this library's own fill has it, a newer
 * caller's tail zero) and not one byte past them; the struct is then accepted
 * by a function that takes it. */
static void assert_filled(const abi_buf *u, size_t n, const void *ref, size_t lib_size)
{
    size_t known = n < lib_size ? n : lib_size;
    uint32_t size;
    memcpy(&size, u->b, sizeof(size));
    ck_assert_uint_eq(size, n);
    ck_assert_int_eq(memcmp(u->b + sizeof(size), (const unsigned char *)ref + sizeof(size), known - sizeof(size)), 0);
    assert_zero_tail(u, known, n);
}

static void check_policy(const abi_buf *u, size_t n, const velstatus_policy *ref)
{
    velstatus_restart_action action;
    velstatus_error err;
    assert_filled(u, n, ref, sizeof(*ref));
    ck_assert_int_eq(velstatus_phase_on_restart(&action, NULL, VELSTATUS_KIND_BACKUP, VELSTATUS_PHASE_IN_PROGRESS,
                                                (const velstatus_policy *)u->b, &err),
                     VELSTATUS_OK);
}

START_TEST(preset_and_release_entry_points)
{
    int newer = _i, major = 0, minor = 0;
    abi_buf u;
    velstatus_error err;
    size_t n = gen_size(newer, VS_POLICY_SIZE_V1, sizeof(velstatus_policy));
    for (int preset = VELSTATUS_PRESET_VELERO; preset <= VELSTATUS_PRESET_HARDENED; preset++) {
        velstatus_policy ref = vs_policy((velstatus_preset)preset);
        ck_assert_int_eq(velstatus_policy_init(dirty(&u), n, (velstatus_preset)preset, &err), VELSTATUS_OK);
        check_policy(&u, n, &ref);
    }
    for (size_t i = 0; i < velstatus_velero_release_count(); i++) {
        velstatus_policy ref;
        char text[16];
        ck_assert_int_eq(velstatus_velero_release_at(&major, &minor, i, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_policy_init_release(&ref, sizeof(ref), major, minor, &err), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_policy_init_release(dirty(&u), n, major, minor, &err), VELSTATUS_OK);
        check_policy(&u, n, &ref);
        snprintf(text, sizeof(text), "v%d.%d.3", major, minor);
        ck_assert_int_eq(velstatus_policy_init_version(dirty(&u), n, NULL, NULL, text, VELSTATUS_NUL_TERMINATED, &err),
                         VELSTATUS_OK);
        check_policy(&u, n, &ref);
    }
    n = gen_size(newer, VS_BACKOFF_SIZE_V1, sizeof(velstatus_backoff));
    for (int k = VELSTATUS_BACKOFF_VELERO_CAP; k <= VELSTATUS_BACKOFF_DEFAULT_RETRY; k++) {
        velstatus_backoff ref = vs_backoff((velstatus_backoff_kind)k, 5), *b = dirty(&u);
        int64_t sleep_ns = -1;
        ck_assert_int_eq(velstatus_backoff_init_preset(b, n, (velstatus_backoff_kind)k, 5, &err), VELSTATUS_OK);
        assert_filled(&u, n, &ref, sizeof(ref));
        ck_assert_int_eq(velstatus_backoff_step(&sleep_ns, b, 0.0, &err), VELSTATUS_OK);
        ck_assert_int_ge(sleep_ns, 0);
    }
}
END_TEST

/* A struct too small for the first released layout is refused, and nothing
 * is written; so is a bad preset or release, before any byte is touched. */
START_TEST(preset_entry_points_refuse_without_writing)
{
    abi_buf u;
    velstatus_error err;
    ck_assert_int_eq(velstatus_policy_init(dirty(&u), VS_POLICY_SIZE_V1 - 1, VELSTATUS_PRESET_VELERO, &err),
                     VELSTATUS_E_ABI);
    ck_assert_uint_eq(u.b[0], 0xAA);
    ck_assert_int_eq(velstatus_policy_init_release(dirty(&u), 8, 1, 14, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_policy_init_version(dirty(&u), 8, NULL, NULL, "1.14", 4, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_policy_init_release(dirty(&u), sizeof(velstatus_policy), 1, 10, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_init(dirty(&u), sizeof(velstatus_policy), (velstatus_preset)9, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(
        velstatus_backoff_init_preset(dirty(&u), VS_BACKOFF_SIZE_V1 - 1, VELSTATUS_BACKOFF_VELERO_CAP, 0, &err),
        VELSTATUS_E_ABI);
    ck_assert_int_eq(
        velstatus_backoff_init_preset(NULL, sizeof(velstatus_backoff), VELSTATUS_BACKOFF_VELERO_CAP, 0, &err),
        VELSTATUS_E_INVALID);
    ck_assert_uint_eq(u.b[0], 0xAA);
}
END_TEST

/* The deprecated forms (they return or assign the whole struct at this
 * library's size) still answer exactly as their init twins at that size. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
START_TEST(deprecated_forms_equal_their_init_twins)
{
    velstatus_policy a, b;
    velstatus_backoff x, y;
    velstatus_retry_schedule s = velstatus_retry_schedule_hardened(), t = vs_schedule();
    velstatus_error err;
    int ma = 0, mi = 0;
    a = velstatus_policy_velero();
    b = vs_policy(VELSTATUS_PRESET_VELERO);
    ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
    a = velstatus_policy_hardened();
    b = vs_policy(VELSTATUS_PRESET_HARDENED);
    ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
    ck_assert_int_eq(velstatus_policy_preset(&a, VELSTATUS_PRESET_VELERO, &err), VELSTATUS_OK);
    b = vs_policy(VELSTATUS_PRESET_VELERO);
    ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
    ck_assert_int_eq(velstatus_policy_velero_release(&a, 1, 12, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_policy_init_release(&b, sizeof(b), 1, 12, &err), VELSTATUS_OK);
    ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
    ck_assert_int_eq(velstatus_policy_velero_version(&a, &ma, &mi, "1.12", 4, &err), VELSTATUS_OK);
    ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
    ck_assert_int_eq(ma * 100 + mi, 112);
    ck_assert_int_eq(velstatus_policy_preset(NULL, VELSTATUS_PRESET_VELERO, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_velero_release(NULL, 1, 12, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_velero_version(NULL, NULL, NULL, "1.12", 4, &err), VELSTATUS_E_INVALID);
    x = velstatus_backoff_velero_cap(-3);
    y = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, -3);
    ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
    ck_assert_int_eq(x.cap_ns, 0);
    x = velstatus_backoff_default_backoff();
    y = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_BACKOFF, 0);
    ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
    x = velstatus_backoff_default_retry();
    y = vs_backoff(VELSTATUS_BACKOFF_DEFAULT_RETRY, 0);
    ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
    ck_assert_int_eq(velstatus_backoff_preset(&x, VELSTATUS_BACKOFF_VELERO_CAP, 7, &err), VELSTATUS_OK);
    y = vs_backoff(VELSTATUS_BACKOFF_VELERO_CAP, 7);
    ck_assert_int_eq(memcmp(&x, &y, sizeof(x)), 0);
    ck_assert_int_eq(velstatus_backoff_preset(NULL, VELSTATUS_BACKOFF_VELERO_CAP, 7, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(memcmp(&s, &t, sizeof(s)), 0);
}
END_TEST
#pragma GCC diagnostic pop

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("abi");
    TCase *tc = tcase_create("abi");
    tcase_add_test(tc, init_functions_fill_struct_size);
    tcase_add_loop_test(tc, older_and_newer_callers, 0, 2);
    tcase_add_test(tc, too_small_and_dirty_tails_are_refused);
    tcase_add_loop_test(tc, preset_and_release_entry_points, 0, 2);
    tcase_add_test(tc, preset_entry_points_refuse_without_writing);
    tcase_add_test(tc, deprecated_forms_equal_their_init_twins);
    suite_add_tcase(s, tc);
    return s;
}
