/* SPDX-License-Identifier: Apache-2.0 */
/* A server-status verdict as a Kubernetes metav1.Condition (json.h,
 * velstatus_server_verdict_to_condition_json; the mapping is in doc/cli.md). */
#include <string.h>

#include "server_status/private.h"

/* metav1.Condition's message limit (its kubebuilder MaxLength). */
#define CONDITION_MESSAGE_MAX 32768
#define TRUNCATED " ... (truncated)"

/* The reason of each flag, most severe first: the condition's one reason is
 * the first whose flag holds. CamelCase, matching the API's pattern
 * ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$. */
static const struct {
    uint32_t flag;
    const char *reason;
} reasons[] = {
    {VELSTATUS_SERVER_REASON_NO_BSL, "NoLocations"},
    {VELSTATUS_SERVER_REASON_ALL_UNAVAILABLE, "AllLocationsUnavailable"},
    {VELSTATUS_SERVER_REASON_NEVER_VALIDATED, "LocationsNeverValidated"},
    {VELSTATUS_SERVER_REASON_PENDING, "LocationsPending"},
    {VELSTATUS_SERVER_REASON_DEFAULT_NOT_AVAILABLE, "DefaultLocationUnavailable"},
    {VELSTATUS_SERVER_REASON_NO_DEFAULT, "NoDefaultLocation"},
    {VELSTATUS_SERVER_REASON_MULTIPLE_DEFAULTS, "MultipleDefaultLocations"},
    {VELSTATUS_SERVER_REASON_DEFAULT_READONLY, "DefaultLocationReadOnly"},
    {VELSTATUS_SERVER_REASON_SOME_UNAVAILABLE, "SomeLocationsUnavailable"},
    {VELSTATUS_SERVER_REASON_STALE, "LocationsNotRevalidated"},
    {VELSTATUS_SERVER_REASON_SOME_PENDING, "SomeLocationsPending"},
    {VELSTATUS_SERVER_REASON_UNKNOWN_PHASE, "UnknownLocationPhase"},
};

const char *velstatus_server_condition_reason(uint32_t flags)
{
    for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
        if (flags & reasons[i].flag)
            return reasons[i].reason;
    return "AllLocationsAvailable";
}

/* The condition status of a server status; the tracker's transition time
 * follows it too (lib/server_status/server_status.c). */
const char *velstatus__condition_status(velstatus_server_status s)
{
    switch (s) {
    case VELSTATUS_SERVER_READY:
    case VELSTATUS_SERVER_PARTIALLY_READY: return "True";
    case VELSTATUS_SERVER_NOT_READY: return "False";
    default: return "Unknown";
    }
}

/* The length of msg cut to fit with TRUNCATED in the limit, at a UTF-8
 * character boundary. */
static size_t cut_message(const char *msg, size_t n)
{
    size_t keep = CONDITION_MESSAGE_MAX - (sizeof(TRUNCATED) - 1);
    if (n <= CONDITION_MESSAGE_MAX)
        return n;
    while (keep > 0 && ((unsigned char)msg[keep] & 0xC0) == 0x80)
        keep--;
    return keep;
}

velstatus_status velstatus_server_verdict_to_condition_json(char **out, size_t *out_len,
                                                            const velstatus_server_verdict *v,
                                                            int64_t last_transition_ns, int64_t observed_generation,
                                                            velstatus_error *err)
{
    velstatus__buf b;
    char t[VELSTATUS_TIME_BUFSIZE];
    const char *msg;
    size_t n, keep;
    if (!out || !v)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "out or verdict is NULL");
    if (observed_generation < -1)
        return velstatus__error_set(err, VELSTATUS_E_INVALID, "observed_generation is %lld: -1 (absent) or >= 0",
                                    (long long)observed_generation);
    *out = NULL;
    if (out_len)
        *out_len = 0;
    VS_TRY(velstatus_time_format(t, sizeof(t), last_transition_ns, 0, err));
    msg = velstatus_server_verdict_message(v);
    n = strlen(msg);
    keep = cut_message(msg, n);
    velstatus__buf_init(&b, velstatus__ss_verdict_ctx(v));
    velstatus__buf_printf(&b, "{\"type\":\"Ready\",\"status\":\"%s\"",
                          velstatus__condition_status(velstatus_server_verdict_status(v)));
    if (observed_generation >= 0)
        velstatus__buf_printf(&b, ",\"observedGeneration\":%lld", (long long)observed_generation);
    velstatus__buf_printf(&b, ",\"lastTransitionTime\":\"%s\",\"reason\":\"%s\",\"message\":", t,
                          velstatus_server_condition_reason(velstatus_server_verdict_reasons(v)));
    if (keep == n) {
        velstatus__json_write_string(&b, msg, n, 0);
    } else {
        /* the cut text and the marker as one JSON string */
        velstatus__json_write_string(&b, msg, keep, 0);
        if (!b.failed && b.len > 0)
            b.len--; /* reopen the string: drop its closing quote */
        velstatus__buf_puts(&b, TRUNCATED "\"");
    }
    velstatus__buf_putc(&b, '}');
    return velstatus__buf_finish(&b, out, out_len, err);
}
