/* SPDX-License-Identifier: Apache-2.0 */
/* Pins the layout of every transparent public struct (doc/conventions.md §2): any
 * reordering, retyping or removal breaks the build here. Appending a field
 * means updating the size assertion deliberately, nothing else. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include "velstatus.h"

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

_Static_assert(sizeof(velstatus_policy) == 56, "policy size");

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
_Static_assert(sizeof(velstatus_op_progress) == 112, "velstatus_op_progress size");
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
_Static_assert(offsetof(velstatus_reconcile_options, policy) == 56, "velstatus_reconcile_options.policy");
_Static_assert(offsetof(velstatus_reconcile_options, completed_before) == 64, "velstatus_reconcile_options.completed_before");
_Static_assert(offsetof(velstatus_reconcile_options, failed_before) == 72, "velstatus_reconcile_options.failed_before");
_Static_assert(sizeof(velstatus_reconcile_options) == 80, "velstatus_reconcile_options size");
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

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("abi");
    TCase *tc = tcase_create("abi");
    tcase_add_test(tc, init_functions_fill_struct_size);
    suite_add_tcase(s, tc);
    return s;
}
