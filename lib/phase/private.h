/* SPDX-License-Identifier: Apache-2.0 */
/* The phase layer's internals: the policy (its presets and the table of
 * Velero releases, static in lib/phase/policy.c) and the phase checks every deciding
 * area makes. Not installed. */
#ifndef VELSTATUS_PHASE_PRIVATE_H
#define VELSTATUS_PHASE_PRIVATE_H

#include "common/private.h"
#include "velstatus/backup_object.h"
#include "velstatus/phase.h"
#include "velstatus/policy.h"

#define VS_POLICY_SIZE_V1 VS_SIZE_THROUGH(velstatus_policy, validation_bsl_available)
#define VS_BACKUP_CONDITIONS_SIZE_V1 VS_SIZE_THROUGH(velstatus_backup_conditions, reason_len)
/* v2: quote_unicode_13, invalid_operation_id_text_1_11 appended (a v1 caller's
 * policy reads them as 0: the current release's values). */

/* ---- Velero releases ----
 * The number of supported minor releases (1.11 first, policy.c's table), and
 * the index in it of release major.minor (a patch release decides as its
 * minor): 0 for 1.11, VS_RELEASE_COUNT - 1 for the current one. -1 with
 * E_INVALID "Velero M.N is not supported (supported: ...)" (the message of
 * velstatus_policy_init_release()) for any other. A file whose decisions
 * differ by release keeps its own knob table, one value per index. */
enum { VS_RELEASE_COUNT = 8 };
int velstatus__release_index(int major, int minor, velstatus_error *err);

/* ---- policy ---- */
/* Copies a caller's policy (NULL = the hardened preset) into *out, checking
 * struct_size (E_ABI). Every function taking a policy calls this first. */
velstatus_status velstatus__policy_load(velstatus_policy *out, const velstatus_policy *in, velstatus_error *err);

/* Whether the kind has the phase in the release the policy models
 * (backup_queue, restore_finalizing); 0 for an invalid phase. */
int velstatus__phase_in_release(velstatus_kind kind, velstatus_phase phase, const velstatus_policy *pol);
/* E_INVALID naming `field` when the phase is not one of the kind's, or not
 * one of that release's. */
velstatus_status velstatus__phase_check(velstatus_kind kind, velstatus_phase phase, const velstatus_policy *pol,
                                        const char *field, velstatus_error *err);
/* The two phases of a transition of a valid kind, checked against the
 * policy's release (velstatus__phase_check, naming "from" and "to"). */
velstatus_status velstatus__transition_check(velstatus_kind kind, velstatus_phase from, velstatus_phase to,
                                             const velstatus_policy *pol, velstatus_error *err);

#endif /* VELSTATUS_PHASE_PRIVATE_H */
