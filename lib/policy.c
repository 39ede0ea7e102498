/* SPDX-License-Identifier: Apache-2.0 */
/* The two policy presets (doc/design.md §2). Each knob's value is explained in
 * include/velstatus/policy.h with the section of doc/velero-behaviour.md
 * behind it. */
#include "velstatus_private.h"

#include <string.h>

velstatus_policy velstatus_policy_velero(void)
{
    velstatus_policy p;
    memset(&p, 0, sizeof(p));
    p.struct_size = sizeof(p);
    p.preset = VELSTATUS_PRESET_VELERO;
    p.zero_timeout_expires = 1;
    return p;
}

/* The Velero preset with each knob at its hardened value (policy.h gives
 * both values of every knob). */
velstatus_policy velstatus_policy_hardened(void)
{
    velstatus_policy p = velstatus_policy_velero();
    p.preset = VELSTATUS_PRESET_HARDENED;
    p.requeue_ready_to_start_on_restart = 1;
    p.zero_timeout_expires = 0;
    p.level_triggered_partial_failure = 1;
    p.unknown_phase_fails = 1;
    p.progress_error_grace_ns = INT64_C(60000000000);
    p.restore_error_plugin_suffix = 1;
    p.compare_times_by_instant = 1;
    p.unix_epoch_is_unknown = 1;
    p.report_cancel_results = 1;
    p.retry_classify_errors = 1;
    p.retry_forgotten_patches = 1;
    return p;
}

velstatus_status velstatus_policy_preset(velstatus_policy *out, velstatus_preset preset, velstatus_error *err)
{
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    switch (preset) {
    case VELSTATUS_PRESET_VELERO: *out = velstatus_policy_velero(); return VELSTATUS_OK;
    case VELSTATUS_PRESET_HARDENED: *out = velstatus_policy_hardened(); return VELSTATUS_OK;
    }
    return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown preset %d", (int)preset);
}

static const char *const preset_names[] = {"velero", "hardened"};

VS_ENUM_TOKENS(preset, velstatus_preset, preset_names, "preset")

/* Copies a caller's policy (NULL = hardened) into *out, checking its size. */
velstatus_status velstatus__policy_load(velstatus_policy *out, const velstatus_policy *in, velstatus_error *err)
{
    if (!in) {
        *out = velstatus_policy_hardened();
        return VELSTATUS_OK;
    }
    return velstatus__sized_copy(out, sizeof(*out), VS_POLICY_SIZE_V1, in, "policy", err);
}
