/* SPDX-License-Identifier: Apache-2.0 */
/* The two policy presets (doc/design.md §2). Each knob's value is explained in
 * include/velstatus/policy.h with the section of doc/velero-behaviour.md
 * behind it. */
#include "phase/private.h"

#include <string.h>

/* ---- Velero releases (doc/velero-releases.md) ----
 * The supported minor releases of Velero 1, oldest first; the last is the
 * current release, the one the Velero preset decides as. */
enum { VS_RELEASE_MAJOR = 1 };
static const int release_minor[] = {11, 12, 13, 14, 15, 16, 17, 18};
_Static_assert(VS_N(release_minor) == VS_RELEASE_COUNT, "VS_RELEASE_COUNT (phase/private.h): one per release");

/* The release knobs: one line per field of velstatus_policy whose value is
 * a Velero release's (include/velstatus/policy.h names each with its
 * evidence), X(type, field, its value in each release above, 1.11 first).
 * The per-knob value arrays, the check that each has one value per release
 * and the copy into a policy are all generated from this list: a new knob is
 * its field in policy.h and one line here; a new release is one more entry
 * in release_minor and one more value on every line (CONTRIBUTING.md). */
#define H(n) (INT64_C(3600000000000) * (n))
#define VS_RELEASE_KNOBS(X)                                                                       \
    X(int, partial_failure_when_done, 1, 0, 0, 0, 0, 0, 0, 0)                                     \
    X(int, restore_readonly_bsl_fails, 1, 0, 0, 0, 0, 0, 0, 0)                                    \
    X(int, restore_finalizing, 0, 0, 0, 1, 1, 1, 1, 1)                                            \
    X(int, backup_error_plugin_suffix, 0, 0, 1, 1, 1, 1, 1, 1)                                    \
    X(int, first_pass_errors_as_index, 1, 1, 1, 0, 0, 0, 0, 0)                                    \
    X(int, first_pass_restore_errors_uncounted, 1, 0, 0, 0, 0, 0, 0, 0)                           \
    X(int64_t, default_item_operation_timeout_ns, H(1), H(4), H(4), H(4), H(4), H(4), H(4), H(4)) \
    X(int, status_patch_retries, 0, 0, 0, 0, 1, 1, 1, 1)                                          \
    X(int, backup_queue, 0, 0, 0, 0, 0, 0, 0, 1)                                                  \
    X(int, validation_texts_quoted, 1, 1, 1, 1, 0, 0, 0, 0)                                       \
    X(int, validation_bsl_available, 0, 0, 0, 0, 0, 0, 1, 1)                                      \
    X(int, quote_unicode_13, 1, 1, 0, 0, 0, 0, 0, 0)                                              \
    X(int, invalid_operation_id_text_1_11, 1, 0, 0, 0, 0, 0, 0, 0)

VS_KNOB_TABLES(VS_RELEASE_KNOBS)
_Static_assert(VS_N(release_minor) == VS_RELEASE_COUNT, "one minor per release");
#undef H

/* The release knobs of *p set to release i's values. */
static void set_release(velstatus_policy *p, size_t i)
{
#define VS_KNOB_SET(type, field, ...) p->field = knob_##field[i];
    VS_RELEASE_KNOBS(VS_KNOB_SET)
#undef VS_KNOB_SET
}

#define RANGE_FMT "(supported: %d.%d to %d.%d)"
#define RANGE_ARGS VS_RELEASE_MAJOR, release_minor[0], VS_RELEASE_MAJOR, release_minor[VS_N(release_minor) - 1]

/* The Velero preset at the current release, at this library's size. */
static void fill_velero(velstatus_policy *p)
{
    memset(p, 0, sizeof(*p));
    p->struct_size = sizeof(*p);
    p->preset = VELSTATUS_PRESET_VELERO;
    p->zero_timeout_expires = 1;
    set_release(p, VS_N(release_minor) - 1);
}

/* The Velero preset with each knob at its hardened value (policy.h gives
 * both values of every knob). Where releases differ it keeps the current
 * release's behaviour, as the Velero preset has it: those knobs are not
 * quirks. */
static void fill_hardened(velstatus_policy *p)
{
    fill_velero(p);
    p->preset = VELSTATUS_PRESET_HARDENED;
    p->requeue_ready_to_start_on_restart = 1;
    p->zero_timeout_expires = 0;
    p->level_triggered_partial_failure = 1;
    p->unknown_phase_fails = 1;
    p->progress_error_grace_ns = INT64_C(60000000000);
    p->restore_error_plugin_suffix = 1;
    p->compare_times_by_instant = 1;
    p->unix_epoch_is_unknown = 1;
    p->report_cancel_results = 1;
    p->retry_classify_errors = 1;
    p->retry_forgotten_patches = 1;
}

static velstatus_status fill_preset(velstatus_policy *p, velstatus_preset preset, velstatus_error *err)
{
    switch (preset) {
    case VELSTATUS_PRESET_VELERO: fill_velero(p); return VELSTATUS_OK;
    case VELSTATUS_PRESET_HARDENED: fill_hardened(p); return VELSTATUS_OK;
    }
    return velstatus__error_set(err, VELSTATUS_E_INVALID, "unknown preset %d", (int)preset);
}

/* The one body of every policy init: the caller's struct_size bytes of p
 * from `filled` (a policy of this library's size). */
static velstatus_status init_from(velstatus_policy *p, size_t struct_size, const velstatus_policy *filled,
                                  velstatus_error *err)
{
    if (!p)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "policy is NULL");
    if (struct_size < VS_POLICY_SIZE_V1)
        return velstatus__error_set(err, VELSTATUS_E_ABI, "policy struct_size is %zu, smaller than %zu", struct_size,
                                    (size_t)VS_POLICY_SIZE_V1);
    velstatus__sized_init(p, struct_size, filled, sizeof(*filled));
    return VELSTATUS_OK;
}

velstatus_status velstatus_policy_init(velstatus_policy *p, size_t struct_size, velstatus_preset preset,
                                       velstatus_error *err)
{
    velstatus_policy d;
    VS_TRY(fill_preset(&d, preset, err));
    return init_from(p, struct_size, &d, err);
}

static const char *const preset_names[] = {"velero", "hardened"};

VS_ENUM_TOKENS(preset, velstatus_preset, preset_names, "preset")

/* Copies a caller's policy (NULL = hardened) into *out, checking its size. */
velstatus_status velstatus__policy_load(velstatus_policy *out, const velstatus_policy *in, velstatus_error *err)
{
    if (!in) {
        fill_hardened(out);
        return VELSTATUS_OK;
    }
    return velstatus__sized_copy(out, sizeof(*out), VS_POLICY_SIZE_V1, in, "policy", err);
}

int velstatus__release_index(int major, int minor, velstatus_error *err)
{
    for (size_t i = 0; i < VS_N(release_minor); i++)
        if (major == VS_RELEASE_MAJOR && release_minor[i] == minor)
            return (int)i;
    velstatus__error_set(err, VELSTATUS_E_INVALID, "Velero %d.%d is not supported " RANGE_FMT, major, minor,
                         RANGE_ARGS);
    return -1;
}

/* The Velero preset of release major.minor, at this library's size. */
static velstatus_status fill_release(velstatus_policy *p, int major, int minor, velstatus_error *err)
{
    int i = velstatus__release_index(major, minor, err);
    if (i < 0)
        return VELSTATUS_E_INVALID;
    fill_velero(p);
    set_release(p, (size_t)i);
    return VELSTATUS_OK;
}

velstatus_status velstatus_policy_init_release(velstatus_policy *p, size_t struct_size, int major, int minor,
                                               velstatus_error *err)
{
    velstatus_policy d;
    if (!p)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "policy is NULL");
    VS_TRY(fill_release(&d, major, minor, err));
    return init_from(p, struct_size, &d, err);
}

/* Digits at s[*i..n) as an int below 100000; 0 when there are none. */
static int version_number(const char *s, size_t n, size_t *i, int *out)
{
    size_t start = *i;
    int v = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - start < 5)
        v = v * 10 + (s[(*i)++] - '0');
    *out = v;
    return *i > start && (*i == n || s[*i] < '0' || s[*i] > '9');
}

/* The Velero preset of the release `s` names (1.14, v1.14, 1.14.2). */
static velstatus_status fill_version(velstatus_policy *p, int *ma, int *mi, const char *s, size_t n,
                                     velstatus_error *err)
{
    size_t i = 0;
    int patch = 0, ok;
    if (i < n && s[i] == 'v')
        i++;
    ok = version_number(s, n, &i, ma) && i < n && s[i++] == '.' && version_number(s, n, &i, mi);
    if (ok && i < n)
        ok = s[i++] == '.' && version_number(s, n, &i, &patch) && i == n;
    if (!ok)
        return velstatus__error_set(err, VELSTATUS_E_INVALID,
                                    "Velero version \"%.*s\" is not MAJOR.MINOR (such as 1.14) or MAJOR.MINOR.PATCH",
                                    n > 64 ? 64 : (int)n, s);
    if (fill_release(p, *ma, *mi, NULL) != VELSTATUS_OK)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "Velero %.*s is not supported " RANGE_FMT, (int)n, s,
                                    RANGE_ARGS); /* n <= 18: three numbers of at most 5 digits */
    return VELSTATUS_OK;
}

velstatus_status velstatus_policy_init_version(velstatus_policy *p, size_t struct_size, int *major, int *minor,
                                               const char *s, size_t len, velstatus_error *err)
{
    velstatus_policy d;
    int ma = 0, mi = 0;
    size_t n = velstatus__text_len(s, len);
    if (!p || (!s && n))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "Velero version: NULL argument");
    VS_TRY(fill_version(&d, &ma, &mi, s, n, err));
    VS_TRY(init_from(p, struct_size, &d, err));
    if (major)
        *major = ma;
    if (minor)
        *minor = mi;
    return VELSTATUS_OK;
}

/* ---- the deprecated forms (policy.h says why): each is its init twin at
 * this library's own size ---- */

velstatus_policy velstatus_policy_velero(void)
{
    velstatus_policy p;
    fill_velero(&p);
    return p;
}

velstatus_policy velstatus_policy_hardened(void)
{
    velstatus_policy p;
    fill_hardened(&p);
    return p;
}

velstatus_status velstatus_policy_preset(velstatus_policy *out, velstatus_preset preset, velstatus_error *err)
{
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    return velstatus_policy_init(out, sizeof(*out), preset, err);
}

velstatus_status velstatus_policy_velero_release(velstatus_policy *out, int major, int minor, velstatus_error *err)
{
    if (!out)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out is NULL");
    return velstatus_policy_init_release(out, sizeof(*out), major, minor, err);
}

velstatus_status velstatus_policy_velero_version(velstatus_policy *out, int *major, int *minor, const char *s,
                                                 size_t len, velstatus_error *err)
{
    return velstatus_policy_init_version(out, sizeof(*out), major, minor, s, len, err);
}

size_t velstatus_velero_release_count(void)
{
    return VS_N(release_minor);
}

velstatus_status velstatus_velero_release_at(int *major, int *minor, size_t index, velstatus_error *err)
{
    if (!major || !minor)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "%s is NULL", !major ? "major" : "minor");
    if (index >= VS_N(release_minor))
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "release index %zu out of range (%zu releases)", index,
                                    VS_N(release_minor));
    *major = VS_RELEASE_MAJOR;
    *minor = release_minor[index];
    return VELSTATUS_OK;
}
