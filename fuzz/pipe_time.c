/* SPDX-License-Identifier: Apache-2.0 */
/* RFC 3339 timestamps and Go durations: parse → format → parse must give the
 * same value back, for the input text and for any int64 the input spells. */
#include "fuzz.h"

#include <string.h>

#define NS_PER_S 1000000000

/* format(ns) → parse → ns, with the fraction; whole seconds read back as the
 * floor of ns, saturated to INT64_MIN for the first second of the range
 * (time.h: the one text that saturates). */
static void time_round_trip(vs_fuzz_env *env, int64_t ns)
{
    char buf[VELSTATUS_TIME_BUFSIZE], small[VELSTATUS_TIME_BUFSIZE];
    velstatus_error err;
    velstatus_status st;
    int64_t back = 0, rem = ns % NS_PER_S;
    size_t len;
    if (rem < 0)
        rem += NS_PER_S;
    VS_FUZZ_CHECK(env, velstatus_time_format(buf, sizeof(buf), ns, 1, &err) == VELSTATUS_OK);
    len = strlen(buf);
    st = velstatus_time_parse(&back, buf, len, &err);
    if (st != VELSTATUS_OK || back != ns)
        vs_fuzz_fail(env, "time %lld formats as %s, which reads back as %s %lld (%s)", (long long)ns, buf,
                     velstatus_status_name(st), (long long)back, st ? err.message : "");
    VS_FUZZ_CHECK(env, velstatus_time_format(small, len, ns, 1, &err) == VELSTATUS_E_RANGE && small[0] == '\0');

    VS_FUZZ_CHECK(env, velstatus_time_format(buf, sizeof(buf), ns, 0, &err) == VELSTATUS_OK);
    st = velstatus_time_parse(&back, buf, strlen(buf), &err);
    if (st != VELSTATUS_OK || back != (ns < INT64_MIN + rem ? INT64_MIN : ns - rem)) {
        vs_fuzz_fail(env, "time %lld formats to the second as %s, which reads back as %s %lld (%s)", (long long)ns, buf,
                     velstatus_status_name(st), (long long)back, st ? err.message : "");
    }
    VS_FUZZ_CHECK(env, velstatus_time_format_go(buf, sizeof(buf), ns, &err) == VELSTATUS_OK && buf[0] != '\0');
}

/* The exact parser agrees with the nanosecond one (same text accepted,
 * same instant where it fits, E_RANGE only where it does not), and what
 * velstatus_time_format_sec() writes for a year 0000-9999 reads back. */
static void exact_agrees(vs_fuzz_env *env, const char *s, size_t len)
{
    velstatus_error err;
    int64_t sec = 0, ns = 0, back_sec = 0;
    int32_t nsec = 0, back_nsec = 0;
    char buf[VELSTATUS_TIME_BUFSIZE];
    velstatus_status st = velstatus_time_parse_sec(&sec, &nsec, s, len, &err);
    velstatus_status st_ns = velstatus_time_parse(&ns, s, len, &err);
    if (st != VELSTATUS_OK) {
        VS_FUZZ_CHECK(env, st == VELSTATUS_E_PARSE && st_ns == VELSTATUS_E_PARSE);
        return;
    }
    VS_FUZZ_CHECK(env, nsec >= 0 && nsec < NS_PER_S);
    VS_FUZZ_CHECK(env, st_ns == VELSTATUS_OK || st_ns == VELSTATUS_E_RANGE);
    if (st_ns == VELSTATUS_OK && !(ns == INT64_MIN && nsec == 0)) {
        int64_t r = ns % NS_PER_S; /* floor division without overflow */
        VS_FUZZ_CHECK(env, sec == ns / NS_PER_S - (r < 0) && nsec == (int32_t)(r < 0 ? r + NS_PER_S : r));
    }
    VS_FUZZ_CHECK(env, velstatus_time_format_sec(buf, sizeof(buf), sec, nsec, 1, &err) == VELSTATUS_OK);
    if (sec >= INT64_C(-62167219200) && sec < INT64_C(253402300800)) { /* years 0000-9999 */
        st = velstatus_time_parse_sec(&back_sec, &back_nsec, buf, strlen(buf), &err);
        if (st != VELSTATUS_OK || back_sec != sec || back_nsec != nsec)
            vs_fuzz_fail(env, "exact time %lld.%09d formats as %s, which reads back as %s %lld.%09d", (long long)sec,
                         (int)nsec, buf, velstatus_status_name(st), (long long)back_sec, (int)back_nsec);
    }
}

static void duration_round_trip(vs_fuzz_env *env, int64_t d)
{
    char buf[VELSTATUS_DURATION_BUFSIZE], small[VELSTATUS_DURATION_BUFSIZE];
    velstatus_error err;
    velstatus_status st;
    int64_t back = 0;
    size_t len;
    VS_FUZZ_CHECK(env, velstatus_duration_format(buf, sizeof(buf), d, &err) == VELSTATUS_OK);
    len = strlen(buf);
    st = velstatus_duration_parse(&back, buf, len, &err);
    if (st != VELSTATUS_OK || back != d)
        vs_fuzz_fail(env, "duration %lld formats as %s, which reads back as %s %lld (%s)", (long long)d, buf,
                     velstatus_status_name(st), (long long)back, st ? err.message : "");
    VS_FUZZ_CHECK(env, velstatus_duration_format(small, len, d, &err) == VELSTATUS_E_RANGE && small[0] == '\0');
}

static void parse_error(vs_fuzz_env *env, velstatus_status st, const velstatus_error *err, size_t len)
{
    VS_FUZZ_CHECK(env, st == VELSTATUS_E_PARSE || st == VELSTATUS_E_RANGE);
    VS_FUZZ_CHECK(env, err->code == st && err->message[0] != '\0');
    if (st == VELSTATUS_E_PARSE)
        VS_FUZZ_CHECK(env, err->offset <= len);
}

void vs_pipe_time(vs_fuzz_env *env, vs_fuzz_in *in)
{
    velstatus_error err;
    velstatus_status st;
    int64_t v = 0;
    uint64_t raw = 0;
    size_t i;
    st = velstatus_time_parse(&v, in->text, in->text_len, &err);
    if (st == VELSTATUS_OK)
        time_round_trip(env, v);
    else
        parse_error(env, st, &err, in->text_len);
    exact_agrees(env, in->text, in->text_len);
    st = velstatus_duration_parse(&v, in->text, in->text_len, &err);
    if (st == VELSTATUS_OK)
        duration_round_trip(env, v);
    else
        parse_error(env, st, &err, in->text_len);
    /* any int64: the input's first 8 bytes, then 8 more from the tail or stream */
    for (i = 0; i < 8; i++)
        raw = raw << 8 | (i < in->text_len ? (uint8_t)in->text[i] : 0);
    time_round_trip(env, (int64_t)raw);
    duration_round_trip(env, (int64_t)raw);
    for (i = 0, raw = 0; i < 8; i++)
        raw = raw << 8 | vs_fuzz_byte(in);
    time_round_trip(env, (int64_t)raw);
    duration_round_trip(env, (int64_t)raw);
}
