/* SPDX-License-Identifier: Apache-2.0 */
/* Server status (doc/design.md §3, doc/velero-behaviour.md §1, doc/server-status.md): tokens,
 * the total rule on every situation of doc/velero-behaviour.md §1.8, names and messages, the
 * tracker (unit + a 12,000-event property test against full classification),
 * the controller step over a fake host, the BSL JSON codec, the examples'
 * golden verdicts, and a failalloc loop on every allocating function. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <velstatus.h>

#include "failalloc.h"
#include "fake_host.h"
#include "harness.h"

/* Layout and values of this area's public structs and enums (doc/conventions.md §2),
 * pinned here for LP64; candidates for tests/check_abi.c. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(velstatus_server_status_options, struct_size) == 0, "opts.struct_size");
_Static_assert(offsetof(velstatus_server_status_options, flags) == 4, "opts.flags");
_Static_assert(offsetof(velstatus_server_status_options, default_location) == 8, "opts.default_location");
_Static_assert(offsetof(velstatus_server_status_options, default_location_len) == 16, "opts.default_location_len");
_Static_assert(offsetof(velstatus_server_status_options, now_ns) == 24, "opts.now_ns");
_Static_assert(offsetof(velstatus_server_status_options, stale_after_ns) == 32, "opts.stale_after_ns");
_Static_assert(offsetof(velstatus_server_status_options, check_stale) == 40, "opts.check_stale");
_Static_assert(offsetof(velstatus_server_status_options, three_state) == 44, "opts.three_state");
_Static_assert(offsetof(velstatus_server_status_options, retry_timeout_ns) == 48, "opts.retry_timeout_ns");
_Static_assert(sizeof(velstatus_server_status_options) == 56, "opts size");
_Static_assert(offsetof(velstatus_server_status_host, struct_size) == 0, "host.struct_size");
_Static_assert(offsetof(velstatus_server_status_host, flags) == 4, "host.flags");
_Static_assert(offsetof(velstatus_server_status_host, userdata) == 8, "host.userdata");
_Static_assert(offsetof(velstatus_server_status_host, list_bsls) == 16, "host.list_bsls");
_Static_assert(offsetof(velstatus_server_status_host, read_status) == 24, "host.read_status");
_Static_assert(offsetof(velstatus_server_status_host, publish) == 32, "host.publish");
_Static_assert(offsetof(velstatus_server_status_host, retry) == 40, "host.retry");
_Static_assert(sizeof(velstatus_server_status_host) == 40 + sizeof(velstatus_retry_host), "host size");
_Static_assert(offsetof(velstatus_bsl_record, name) == 8 && offsetof(velstatus_bsl_record, is_default) == 24 &&
                   offsetof(velstatus_bsl_record, access) == 28 && offsetof(velstatus_bsl_record, phase) == 32 &&
                   offsetof(velstatus_bsl_record, created_ns) == 56 &&
                   offsetof(velstatus_bsl_record, validated_ns) == 72 && offsetof(velstatus_bsl_record, message) == 80,
               "bsl_record layout");
_Static_assert(offsetof(velstatus_bsl_record, ns) == 96 && offsetof(velstatus_bsl_record, provider) == 112 &&
                   offsetof(velstatus_bsl_record, bucket) == 128 && offsetof(velstatus_bsl_record, prefix) == 144,
               "bsl_record layout, appended");
_Static_assert(sizeof(velstatus_bsl_record) == 160, "bsl_record size");
#endif
_Static_assert(VELSTATUS_SERVER_READY == 0 && VELSTATUS_SERVER_PARTIALLY_READY == 1 && VELSTATUS_SERVER_WAITING == 2 &&
                   VELSTATUS_SERVER_NOT_READY == 3,
               "status values");
_Static_assert(VELSTATUS_SERVER_REASON_NO_BSL == 1 && VELSTATUS_SERVER_REASON_UNKNOWN_PHASE == 1024 &&
                   VELSTATUS_SERVER_REASON_NEVER_VALIDATED == 2048,
               "reason values");
_Static_assert(VELSTATUS_BSL_READ_WRITE == 0 && VELSTATUS_BSL_READ_ONLY == 1, "access values");

#define RS(x) VELSTATUS_SERVER_REASON_##x
#define S_READY VELSTATUS_SERVER_READY
#define S_PARTIAL VELSTATUS_SERVER_PARTIALLY_READY
#define S_WAITING VELSTATUS_SERVER_WAITING
#define S_NOTREADY VELSTATUS_SERVER_NOT_READY

/* Macros, not const objects: the rules table below initialises statics with them. */
#define SEC INT64_C(1000000000)
#define T0 (INT64_C(1796043600) * SEC) /* 2026-11-30T13:00:00Z */

/* A BSL in a test table; name NULL ends the table. */
typedef struct tb {
    const char *name;
    const char *phase;
    int def;
    int ro;
    int has_created;
    int64_t created;
    int has_val;
    int64_t val;
} tb;

static velstatus_status add_all(velstatus_bsl_set *set, const tb *b)
{
    for (; b->name; b++) {
        velstatus_status st =
            velstatus_bsl_set_add(set, b->name, strlen(b->name), b->phase, b->phase ? strlen(b->phase) : 0, b->def,
                                  b->ro ? VELSTATUS_BSL_READ_ONLY : VELSTATUS_BSL_READ_WRITE, b->has_created,
                                  b->created, b->has_val, b->val, NULL);
        if (st != VELSTATUS_OK)
            return st;
    }
    return VELSTATUS_OK;
}

static char *encode(const velstatus_server_verdict *v)
{
    char *out = NULL;
    ck_assert_int_eq(velstatus_server_verdict_to_json(&out, NULL, v, NULL), VELSTATUS_OK);
    return out;
}

/* Renders reason flags as their tokens, for assertion messages. */
static const char *reasons_text(uint32_t r, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < 11; i++)
        if (r & (1u << i))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? "," : "",
                                    velstatus_server_reason_to_string((velstatus_server_reason)(1u << i)));
    return buf;
}

/* Classifies table b under opts, checks status and reasons, and checks that
 * a tracker fed the same BSLs gives the same verdict, byte for byte. */
static velstatus_server_verdict *expect_in(const char *label, velstatus_ctx *ctx, const tb *b,
                                           const velstatus_server_status_options *o, velstatus_server_status status,
                                           uint32_t reasons)
{
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL, *tv = NULL;
    velstatus_server_tracker *t = NULL;
    velstatus_error err;
    char got[256], want[256], *j1, *j2;
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(add_all(set, b), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, o, &err), VELSTATUS_OK);
    ck_assert_msg(velstatus_server_verdict_status(v) == status, "%s: status %s, want %s", label,
                  velstatus_server_status_to_string(velstatus_server_verdict_status(v)),
                  velstatus_server_status_to_string(status));
    ck_assert_msg(velstatus_server_verdict_reasons(v) == reasons, "%s: reasons [%s], want [%s]", label,
                  reasons_text(velstatus_server_verdict_reasons(v), got, sizeof(got)),
                  reasons_text(reasons, want, sizeof(want)));
    ck_assert_uint_eq(velstatus_server_verdict_available(v) + velstatus_server_verdict_unavailable(v) +
                          velstatus_server_verdict_pending(v),
                      velstatus_server_verdict_total(v));
    ck_assert_uint_eq(velstatus_server_verdict_total(v), velstatus_bsl_set_count(set));

    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, o, NULL), VELSTATUS_OK);
    for (const tb *p = b; p->name; p++)
        ck_assert_int_eq(vs_test_upsert(t, NULL, p->name, strlen(p->name), p->phase, p->phase ? strlen(p->phase) : 0,
                                        p->def, p->ro ? VELSTATUS_BSL_READ_ONLY : VELSTATUS_BSL_READ_WRITE,
                                        p->has_created, p->created, p->has_val, p->val, NULL),
                         VELSTATUS_OK);
    ck_assert_msg(velstatus_server_tracker_status(t) == status, "%s: tracker status", label);
    ck_assert_msg(velstatus_server_tracker_reasons(t) == reasons, "%s: tracker reasons", label);
    ck_assert_int_eq(velstatus_server_tracker_verdict(&tv, t, NULL), VELSTATUS_OK);
    j1 = encode(v);
    j2 = encode(tv);
    ck_assert_msg(strcmp(j1, j2) == 0, "%s: tracker verdict %s, want %s", label, j2, j1);
    velstatus_free(ctx, j1);
    velstatus_free(ctx, j2);
    velstatus_server_verdict_free(tv);
    velstatus_server_tracker_free(t);
    velstatus_bsl_set_free(set);
    return v;
}

static velstatus_server_verdict *expect(velstatus_ctx *ctx, const tb *b, const velstatus_server_status_options *o,
                                        velstatus_server_status status, uint32_t reasons)
{
    return expect_in("", ctx, b, o, status, reasons);
}

static void names_are_in(const char *label, const velstatus_server_verdict *v, velstatus_server_reason r,
                         const char *const *want)
{
    size_t n = 0;
    while (want[n])
        n++;
    ck_assert_msg(velstatus_server_verdict_name_count(v, r) == n, "%s: %zu names for %s, want %zu", label,
                  velstatus_server_verdict_name_count(v, r), velstatus_server_reason_to_string(r), n);
    for (size_t i = 0; i < n; i++) {
        const char *got = velstatus_server_verdict_name(v, r, i);
        ck_assert_msg(got && strcmp(got, want[i]) == 0, "%s: name %zu of %s is %s, want %s", label, i,
                      velstatus_server_reason_to_string(r), got ? got : "(null)", want[i]);
    }
    ck_assert_msg(!velstatus_server_verdict_name(v, r, n), "%s: extra name", label);
}

static void names_are(const velstatus_server_verdict *v, velstatus_server_reason r, const char *const *want)
{
    names_are_in("", v, r, want);
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NONE ((const char *const[]){NULL})

/* ---- tokens ---- */

START_TEST(tokens_status)
{
    const char *want[] = {"Ready", "PartiallyReady", "Waiting", "NotReady"};
    velstatus_error err;
    for (int i = 0; i < 4; i++) {
        velstatus_server_status s;
        ck_assert_str_eq(velstatus_server_status_to_string((velstatus_server_status)i), want[i]);
        ck_assert_int_eq(velstatus_server_status_from_string(&s, want[i], strlen(want[i]), NULL), VELSTATUS_OK);
        ck_assert_int_eq(s, i);
    }
    ck_assert_ptr_null(velstatus_server_status_to_string((velstatus_server_status)4));
    ck_assert_ptr_null(velstatus_server_status_to_string((velstatus_server_status)-1));
    {
        velstatus_server_status s = S_READY;
        ck_assert_int_eq(velstatus_server_status_from_string(&s, "ready", 5, &err), VELSTATUS_E_INVALID);
        ck_assert_ptr_nonnull(strstr(err.message, "\"ready\""));
        ck_assert_int_eq(velstatus_server_status_from_string(&s, "Partially Ready", 15, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_server_status_from_string(&s, "Ready", 4, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_server_status_from_string(&s, "", 0, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_server_status_from_string(NULL, "Ready", 5, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_server_status_from_string(&s, NULL, 3, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(s, S_READY);
    }
}
END_TEST

START_TEST(tokens_reasons)
{
    /* the issue's lower-case names, flag by flag */
    static const struct {
        velstatus_server_reason r;
        const char *tok;
    } t[] = {
        {RS(NO_BSL), "no_bsl"},
        {RS(PENDING), "pending"},
        {RS(ALL_UNAVAILABLE), "all_unavailable"},
        {RS(SOME_UNAVAILABLE), "some_unavailable"},
        {RS(SOME_PENDING), "some_pending"},
        {RS(NO_DEFAULT), "no_default"},
        {RS(MULTIPLE_DEFAULTS), "multiple_defaults"},
        {RS(DEFAULT_NOT_AVAILABLE), "default_not_available"},
        {RS(DEFAULT_READONLY), "default_readonly"},
        {RS(STALE), "stale"},
        {RS(UNKNOWN_PHASE), "unknown_phase"},
        {RS(NEVER_VALIDATED), "never_validated"},
    };
    uint32_t all = 0;
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        velstatus_server_reason r;
        ck_assert_uint_eq((uint32_t)t[i].r & all, 0);
        all |= (uint32_t)t[i].r;
        ck_assert_str_eq(velstatus_server_reason_to_string(t[i].r), t[i].tok);
        ck_assert_int_eq(velstatus_server_reason_from_string(&r, t[i].tok, strlen(t[i].tok), NULL), VELSTATUS_OK);
        ck_assert_int_eq(r, t[i].r);
    }
    ck_assert_uint_eq(all, 4095);
    ck_assert_ptr_null(velstatus_server_reason_to_string((velstatus_server_reason)0));
    ck_assert_ptr_null(velstatus_server_reason_to_string((velstatus_server_reason)3));
    ck_assert_ptr_null(velstatus_server_reason_to_string((velstatus_server_reason)4096));
    {
        velstatus_server_reason r = RS(STALE);
        velstatus_error err;
        ck_assert_int_eq(velstatus_server_reason_from_string(&r, "NO_BSL", 6, &err), VELSTATUS_E_INVALID);
        ck_assert_ptr_nonnull(strstr(err.message, "NO_BSL"));
        ck_assert_int_eq(velstatus_server_reason_from_string(&r, "stal", 4, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_server_reason_from_string(NULL, "stale", 5, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(r, RS(STALE));
    }
}
END_TEST

/* ---- doc/velero-behaviour.md §1.8: the rules table, one row per case ---- */

/* Options of a case: use = 0 passes NULL; else these fields over the defaults. */
typedef struct rule_opts {
    int use;
    int three_state;
    int check_stale;
    int64_t now_ns;
    int64_t stale_after_ns;
    const char *default_location;
} rule_opts;

/* The names one reason must list, in order. */
typedef struct rule_names {
    uint32_t reason;
    const char *const *names;
} rule_names;

/* One case of a row of §1.8 and what its verdict must say. A NULL def or msg,
 * a zero count or an empty names slot is not checked; NODEF wants no default. */
typedef struct rule_case {
    const char *row;
    const tb *bsls;
    rule_opts opts;
    velstatus_server_status status;
    uint32_t reasons;
    const char *def;
    const char *msg;
    rule_names names[2];
    size_t available, unavailable, pending;
} rule_case;

static const char NODEF[] = "(no default)";
#define BSLS(...) ((const tb[]){__VA_ARGS__, {NULL}})
#define AGO(s) (T0 - (s)*SEC)

static const rule_case rule_cases[] = {
    /* n = 0. #2488: Waiting. */
    {"row 1: no BSL",
     (const tb[]){{NULL}},
     {0},
     S_WAITING,
     RS(NO_BSL),
     NODEF,
     "no backup storage locations",
     {{RS(NO_BSL), NONE}}},
    /* all Available, exactly one default (ReadWrite). #2488: Ready. */
    {"row 2: all available, one default",
     BSLS({"primary", "Available", 1}, {"secondary", "Available", 0}),
     {0},
     S_READY,
     0,
     "primary",
     "all 2 backup storage locations available; default: primary",
     {{0}},
     2},
    /* n >= 2, all Available, no default. #2488 (b): Partially Ready. */
    {"row 3: all available, no default",
     BSLS({"primary", "Available"}, {"secondary", "Available"}),
     {0},
     S_PARTIAL,
     RS(NO_DEFAULT),
     NODEF,
     "no default backup storage location",
     {{RS(NO_DEFAULT), NONE}}},
    /* n = 1, Available, not default (undefined in #2488): PartiallyReady, no_default. */
    {"row 4: single available, not default", BSLS({"only", "Available"}), {0}, S_PARTIAL, RS(NO_DEFAULT)},
    /* n = 1, Unavailable, default or not (undefined in #2488): NotReady;
     * Waiting in three-state mode (the #4270 prose). */
    {"row 5: single unavailable default",
     BSLS({"only", "Unavailable", 1}),
     {0},
     S_NOTREADY,
     RS(ALL_UNAVAILABLE) | RS(DEFAULT_NOT_AVAILABLE),
     NULL,
     "1 of 1 backup storage location unavailable (only); default not available (only)",
     {{RS(ALL_UNAVAILABLE), NAMES("only")}, {RS(DEFAULT_NOT_AVAILABLE), NAMES("only")}}},
    {"row 5: single unavailable, not default",
     BSLS({"only", "Unavailable", 0}),
     {0},
     S_NOTREADY,
     RS(ALL_UNAVAILABLE) | RS(NO_DEFAULT)},
    {"row 5: single unavailable, three-state",
     BSLS({"only", "Unavailable", 1}),
     {1, 1},
     S_WAITING,
     RS(ALL_UNAVAILABLE) | RS(DEFAULT_NOT_AVAILABLE)},
    /* n >= 2, all Unavailable (undefined in #2488): NotReady. */
    {"row 6: all unavailable",
     BSLS({"primary", "Unavailable", 1}, {"secondary", "Unavailable"}),
     {0},
     S_NOTREADY,
     RS(ALL_UNAVAILABLE) | RS(DEFAULT_NOT_AVAILABLE),
     NULL,
     NULL,
     {{RS(ALL_UNAVAILABLE), NAMES("primary", "secondary")}},
     0,
     2},
    {"row 6: all unavailable, three-state",
     BSLS({"primary", "Unavailable", 1}, {"secondary", "Unavailable"}),
     {1, 1},
     S_WAITING,
     RS(ALL_UNAVAILABLE) | RS(DEFAULT_NOT_AVAILABLE)},
    /* n >= 2, at least one Available and one Unavailable (P allowed).
     * #2488 (a): Partially Ready; the message is the issue's own example line. */
    {"row 7: available and unavailable",
     BSLS({"default", "Available", 1}, {"secondary", "Unavailable"}, {"tertiary", "Available"}),
     {0},
     S_PARTIAL,
     RS(SOME_UNAVAILABLE),
     NULL,
     "1 of 3 backup storage locations unavailable (secondary)",
     {{RS(SOME_UNAVAILABLE), NAMES("secondary")}}},
    {"row 7: available, unavailable and pending",
     BSLS({"default", "Available", 1}, {"secondary", "Unavailable"}, {"new", ""}),
     {0},
     S_PARTIAL,
     RS(SOME_UNAVAILABLE) | RS(SOME_PENDING),
     NULL,
     NULL,
     {{RS(SOME_PENDING), NAMES("new")}}},
    /* all pending (empty phase). #2488: Waiting. */
    {"row 8: all pending",
     BSLS({"default", "", 1}, {"archive", NULL}),
     {0},
     S_WAITING,
     RS(PENDING) | RS(DEFAULT_NOT_AVAILABLE),
     NULL,
     NULL,
     {{RS(PENDING), NAMES("archive", "default")}},
     0,
     0,
     2},
    /* Available + pending, no Unavailable (undefined in #2488): PartiallyReady. */
    {"row 9: available and pending",
     BSLS({"default", "Available", 1}, {"new", ""}),
     {0},
     S_PARTIAL,
     RS(SOME_PENDING),
     NULL,
     "1 of 2 backup storage locations pending validation (new)"},
    /* Unavailable + pending, no Available (undefined in #2488): Waiting
     * (rule 2 comes before rule 3), every flag that holds reported. */
    {"row 10: unavailable and pending",
     BSLS({"default", "Unavailable", 1}, {"new", ""}),
     {0},
     S_WAITING,
     RS(PENDING) | RS(SOME_UNAVAILABLE) | RS(SOME_PENDING) | RS(DEFAULT_NOT_AVAILABLE)},
    /* the default is Unavailable, the others Available. #2488 (a): Partially Ready. */
    {"row 11: default unavailable",
     BSLS({"default", "Unavailable", 1}, {"secondary", "Available"}),
     {0},
     S_PARTIAL,
     RS(SOME_UNAVAILABLE) | RS(DEFAULT_NOT_AVAILABLE),
     NULL,
     NULL,
     {{RS(DEFAULT_NOT_AVAILABLE), NAMES("default")}}},
    /* the default is pending, the others Available (undefined): PartiallyReady. */
    {"row 12: default pending",
     BSLS({"default", "", 1}, {"secondary", "Available"}),
     {0},
     S_PARTIAL,
     RS(SOME_PENDING) | RS(DEFAULT_NOT_AVAILABLE)},
    /* several BSLs with spec.default (undefined): never Ready (doc/design.md §3;
     * D2 vs D3 in §1.5); the resolved default is D2's: newest creationTimestamp,
     * then the byte-wise smallest name; a missing creationTimestamp ranks below
     * any present one. */
    {"row 13: several defaults, newest wins",
     BSLS({"b-old", "Available", 1, 0, 1, AGO(100)}, {"a-new", "Available", 1, 0, 1, T0},
          {"c", "Available", 0, 0, 1, T0 + 50 * SEC}),
     {0},
     S_PARTIAL,
     RS(MULTIPLE_DEFAULTS),
     "a-new",
     "2 backup storage locations marked default (a-new, b-old); using the newest: a-new",
     {{RS(MULTIPLE_DEFAULTS), NAMES("a-new", "b-old")}}},
    {"row 13: several defaults, name breaks the tie",
     BSLS({"beta", "Available", 1, 0, 1, T0}, {"alpha", "Available", 1, 0, 1, T0},
          {"alphabet", "Available", 1, 0, 1, T0}),
     {0},
     S_PARTIAL,
     RS(MULTIPLE_DEFAULTS),
     "alpha"},
    {"row 13: several defaults, missing creation ranks last",
     BSLS({"a", "Available", 1, 0, 0, 0}, {"z", "Available", 1, 0, 1, INT64_MIN}),
     {0},
     S_PARTIAL,
     RS(MULTIPLE_DEFAULTS),
     "z"},
    /* all Available but the default is ReadOnly (backups fail validation, §1.3):
     * PartiallyReady, default_readonly; a ReadOnly non-default does not matter. */
    {"row 14: default read-only",
     BSLS({"default", "Available", 1, 1}, {"secondary", "Available"}),
     {0},
     S_PARTIAL,
     RS(DEFAULT_READONLY),
     NULL,
     "default is read-only (default)",
     {{RS(DEFAULT_READONLY), NAMES("default")}}},
    {"row 14: read-only non-default",
     BSLS({"default", "Available", 1, 0}, {"archive", "Available", 0, 1}),
     {0},
     S_READY,
     0},
    /* all Available but validation stale or never done (§1.4): Ready without
     * the check; with it (5m: "edge" is exactly 5m old, not stale, strict) the
     * stale ones count pending; extreme instants do not overflow. */
    {"row 15: stale validation, unchecked",
     BSLS({"default", "Available", 1, 0, 1, AGO(3600), 1, AGO(600)},
          {"fresh", "Available", 0, 0, 1, AGO(3600), 1, AGO(60)}, {"never", "Available", 0, 0, 1, AGO(3600), 0, 0},
          {"edge", "Available", 0, 0, 1, AGO(3600), 1, AGO(300)},
          {"future", "Available", 0, 0, 1, AGO(3600), 1, INT64_MAX}),
     {0},
     S_READY,
     0},
    {"row 15: stale validation, checked",
     BSLS({"default", "Available", 1, 0, 1, AGO(3600), 1, AGO(600)},
          {"fresh", "Available", 0, 0, 1, AGO(3600), 1, AGO(60)}, {"never", "Available", 0, 0, 1, AGO(3600), 0, 0},
          {"edge", "Available", 0, 0, 1, AGO(3600), 1, AGO(300)},
          {"future", "Available", 0, 0, 1, AGO(3600), 1, INT64_MAX}),
     {1, 0, 1, T0, 300 * SEC},
     S_PARTIAL,
     RS(SOME_PENDING) | RS(STALE) | RS(DEFAULT_NOT_AVAILABLE),
     NULL,
     "2 of 5 backup storage locations pending validation (default, never); last validation missing "
     "or older than 5m0s (default, never); default not available (default)",
     {{RS(STALE), NAMES("default", "never")}, {RS(SOME_PENDING), NAMES("default", "never")}},
     3,
     0,
     2},
    {"row 15: stale validation, extreme instants",
     BSLS({"x", "Available", 1, 0, 0, 0, 1, INT64_MIN}),
     {1, 0, 1, INT64_MAX, INT64_MAX},
     S_WAITING,
     RS(PENDING) | RS(STALE) | RS(DEFAULT_NOT_AVAILABLE)},
    /* the server's default-location name and spec.default disagree (§1.5 D1 vs
     * D2): the name alone decides, no fallback, no multiple_defaults; without
     * the name spec.default decides; an empty name is "not given", as Velero's
     * empty flag. */
    {"row 16: default location named",
     BSLS({"default", "Available", 0}, {"other", "Available", 1}, {"third", "Available", 1}),
     {1, 0, 0, 0, 0, "default"},
     S_READY,
     0,
     "default"},
    {"row 16: default location missing",
     BSLS({"other", "Available", 1}),
     {1, 0, 0, 0, 0, "default"},
     S_PARTIAL,
     RS(NO_DEFAULT),
     NODEF,
     "default location \"default\" not found"},
    {"row 16: no default location, spec.default decides",
     BSLS({"default", "Available", 0}, {"other", "Available", 1}, {"third", "Available", 1}),
     {0},
     S_PARTIAL,
     RS(MULTIPLE_DEFAULTS)},
    {"row 16: empty default location", BSLS({"other", "Available", 1}), {1, 0, 0, 0, 0, ""}, S_READY, 0},
    /* a phase outside the enum: pending, flagged (kept verbatim: see below). */
    {"row 17: unknown phase",
     BSLS({"default", "Available", 1}, {"odd", "Pending"}, {"lower", "available"}),
     {0},
     S_PARTIAL,
     RS(SOME_PENDING) | RS(UNKNOWN_PHASE),
     NULL,
     NULL,
     {{RS(UNKNOWN_PHASE), NAMES("lower", "odd")}}},
    {"row 17: unknown phase only",
     BSLS({"odd", "Pending", 1}),
     {0},
     S_WAITING,
     RS(PENDING) | RS(UNKNOWN_PHASE) | RS(DEFAULT_NOT_AVAILABLE)},
};

/* Checks what case c wants of verdict v beyond status and reasons. */
static void rule_case_check(const rule_case *c, const velstatus_server_verdict *v)
{
    const char *def = velstatus_server_verdict_default(v);
    const char *msg = velstatus_server_verdict_message(v);
    if (c->def == NODEF)
        ck_assert_msg(!def, "%s: default %s, want none", c->row, def);
    else if (c->def)
        ck_assert_msg(def && strcmp(def, c->def) == 0, "%s: default %s, want %s", c->row, def ? def : "(none)", c->def);
    if (c->msg)
        ck_assert_msg(msg && strcmp(msg, c->msg) == 0, "%s: message \"%s\", want \"%s\"", c->row, msg, c->msg);
    for (size_t i = 0; i < 2 && c->names[i].names; i++)
        names_are_in(c->row, v, (velstatus_server_reason)c->names[i].reason, c->names[i].names);
    if (c->available)
        ck_assert_msg(velstatus_server_verdict_available(v) == c->available, "%s: available", c->row);
    if (c->unavailable)
        ck_assert_msg(velstatus_server_verdict_unavailable(v) == c->unavailable, "%s: unavailable", c->row);
    if (c->pending)
        ck_assert_msg(velstatus_server_verdict_pending(v) == c->pending, "%s: pending", c->row);
}

/* Every case of the rules table: status and reasons (classify and tracker
 * agreeing, byte for byte), then the case's default, message, names, counts. */
START_TEST(rules_table)
{
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(rule_cases) / sizeof(rule_cases[0]); i++) {
        const rule_case *c = &rule_cases[i];
        velstatus_server_status_options o;
        velstatus_server_verdict *v;
        velstatus_server_status_options_init(&o, sizeof(o));
        o.three_state = c->opts.three_state;
        o.check_stale = c->opts.check_stale;
        o.now_ns = c->opts.now_ns;
        o.stale_after_ns = c->opts.stale_after_ns;
        o.default_location = c->opts.default_location;
        o.default_location_len = c->opts.default_location ? strlen(c->opts.default_location) : 0;
        v = expect_in(c->row, ctx, c->bsls, c->opts.use ? &o : NULL, c->status, c->reasons);
        rule_case_check(c, v);
        velstatus_server_verdict_free(v);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Row 17: a phase outside the enum is kept verbatim in the set. */
START_TEST(unknown_phase_kept_verbatim)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(add_all(set, BSLS({"default", "Available", 1}, {"odd", "Pending"}, {"lower", "available"})),
                     VELSTATUS_OK);
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 1), "Pending");
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 2), "available");
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- messages, names, getters ---- */

START_TEST(message_truncates_long_name_lists)
{
    velstatus_ctx *ctx = vs_test_ctx();
    tb b[] = {{"d", "Available", 1},
              {"u5", "Unavailable"},
              {"u1", "Unavailable"},
              {"u3", "Unavailable"},
              {"u2", "Unavailable"},
              {"u4", "Unavailable"},
              {NULL}};
    velstatus_server_verdict *v = expect(ctx, b, NULL, S_PARTIAL, RS(SOME_UNAVAILABLE));
    ck_assert_str_eq(velstatus_server_verdict_message(v),
                     "5 of 6 backup storage locations unavailable (u1, u2, u3, +2 more)");
    names_are(v, RS(SOME_UNAVAILABLE), NAMES("u1", "u2", "u3", "u4", "u5"));
    /* getters on flags that are not single, or not set */
    ck_assert_uint_eq(velstatus_server_verdict_name_count(v, (velstatus_server_reason)(RS(SOME_UNAVAILABLE) | 1)), 0);
    ck_assert_uint_eq(velstatus_server_verdict_name_count(v, RS(STALE)), 0);
    ck_assert_ptr_null(velstatus_server_verdict_name(v, (velstatus_server_reason)0, 0));
    velstatus_server_verdict_free(v);
    /* NULL verdict getters */
    ck_assert_int_eq(velstatus_server_verdict_status(NULL), VELSTATUS_SERVER_INVALID);
    ck_assert_uint_eq(velstatus_server_verdict_reasons(NULL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_total(NULL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_available(NULL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_unavailable(NULL), 0);
    ck_assert_uint_eq(velstatus_server_verdict_pending(NULL), 0);
    ck_assert_ptr_null(velstatus_server_verdict_default(NULL));
    ck_assert_str_eq(velstatus_server_verdict_message(NULL), "");
    velstatus_server_verdict_free(NULL);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(json_verdict_encoding)
{
    velstatus_ctx *ctx = vs_test_ctx();
    tb b[] = {{"default", "Unavailable", 1, 1}, {"x\"y", "Phase\n"}, {"ok", "Available"}, {NULL}};
    velstatus_server_verdict *v = expect(ctx, b, NULL, S_PARTIAL,
                                         RS(SOME_UNAVAILABLE) | RS(SOME_PENDING) | RS(UNKNOWN_PHASE) |
                                             RS(DEFAULT_NOT_AVAILABLE) | RS(DEFAULT_READONLY));
    char *j = NULL;
    size_t len = 0;
    ck_assert_int_eq(velstatus_server_verdict_to_json(&j, &len, v, NULL), VELSTATUS_OK);
    ck_assert_str_eq(j, "{\"status\":\"PartiallyReady\",\"reasons\":[\"default_not_available\",\"default_readonly\","
                        "\"some_pending\",\"some_unavailable\",\"unknown_phase\"],\"counts\":{\"available\":1,"
                        "\"unavailable\":1,\"pending\":1,\"total\":3},\"default\":\"default\",\"bsls\":{"
                        "\"default_not_available\":[\"default\"],\"default_readonly\":[\"default\"],\"some_pending\":"
                        "[\"x\\\"y\"],\"some_unavailable\":[\"default\"],\"unknown_phase\":[\"x\\\"y\"]},\"message\":"
                        "\"1 of 3 backup storage locations unavailable (default); 1 of 3 backup storage locations "
                        "pending validation (x\\\"y); unknown phase (x\\\"y); default not available (default); default "
                        "is read-only (default)\"}");
    ck_assert_uint_eq(len, strlen(j));
    velstatus_free(ctx, j);
    ck_assert_int_eq(velstatus_server_verdict_to_json(NULL, NULL, v, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_verdict_to_json(&j, NULL, NULL, NULL), VELSTATUS_E_INVALID);
    velstatus_server_verdict_free(v);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- sets and options: bad input ---- */

START_TEST(set_rejects_bad_input)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    ck_assert_int_eq(velstatus_bsl_set_new(NULL, ctx, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_new(&set, NULL, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "a", 1, "Available", 9, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "a", 1, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "duplicate BSL name \"a\"");
    ck_assert_int_eq(velstatus_bsl_set_add(set, "", 0, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "BSL name is empty");
    ck_assert_int_eq(velstatus_bsl_set_add(set, NULL, 3, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "b\0c", 3, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "NUL"));
    ck_assert_int_eq(velstatus_bsl_set_add(set, "b", 1, NULL, 2, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_add(set, "b", 1, "", 0, 0, (velstatus_bsl_access)7, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "access mode"));
    ck_assert_int_eq(velstatus_bsl_set_add(NULL, "b", 1, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_E_INVALID);
    /* nothing the failed calls passed was added */
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_str_eq(velstatus_bsl_set_name(set, 0), "a");
    ck_assert_str_eq(velstatus_bsl_set_message(set, 0), "");
    ck_assert_ptr_null(velstatus_bsl_set_name(set, 1));
    ck_assert_ptr_null(velstatus_bsl_set_phase(set, 1));
    ck_assert_ptr_null(velstatus_bsl_set_message(set, 1));
    ck_assert_uint_eq(velstatus_bsl_set_count(NULL), 0);
    velstatus_bsl_set_free(set);
    velstatus_bsl_set_free(NULL);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(options_rejected)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    velstatus_server_tracker *t = NULL;
    velstatus_error err;
    struct {
        velstatus_server_status_options o;
        char tail[8];
    } big;
    velstatus_server_status_options o;
    ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_status_classify(NULL, set, NULL, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_status_classify(&v, NULL, NULL, NULL), VELSTATUS_E_INVALID);

    velstatus_server_status_options_init(&o, sizeof(o));
    o.struct_size = 4;
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_E_ABI);
    memset(&big, 0, sizeof(big));
    velstatus_server_status_options_init(&big.o, sizeof(big));
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &big.o, NULL), VELSTATUS_OK); /* zero tail: OK */
    velstatus_server_verdict_free(v);
    v = NULL;
    big.tail[3] = 1;
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &big.o, &err), VELSTATUS_E_ABI);
    ck_assert_ptr_null(v);

    velstatus_server_status_options_init(&o, sizeof(o));
    o.flags = 1;
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, NULL), VELSTATUS_E_INVALID);
    velstatus_server_status_options_init(&o, sizeof(o));
    o.default_location_len = 3;
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "default_location"));
    o.default_location = "a\0b";
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, NULL), VELSTATUS_E_INVALID);
    velstatus_server_status_options_init(&o, sizeof(o));
    o.check_stale = 1;
    o.stale_after_ns = -1;
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "stale_after_ns"));
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(t);
    velstatus_server_status_options_init(NULL, sizeof(o));
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- tracker ---- */

START_TEST(tracker_events_and_changes)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_error err;
    int ch = -1;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_WAITING);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t), RS(NO_BSL));
    ck_assert_int_eq(vs_test_upsert(t, &ch, "default", 7, "", 0, 1, VELSTATUS_BSL_READ_WRITE, 1, T0, 0, 0, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(ch, 1); /* no_bsl -> pending, default_not_available */
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_WAITING);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t), RS(PENDING) | RS(DEFAULT_NOT_AVAILABLE));
    ck_assert_int_eq(
        vs_test_upsert(t, &ch, "default", 7, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 1, T0, 1, T0, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    /* the same again: nothing changed */
    ck_assert_int_eq(
        vs_test_upsert(t, &ch, "default", 7, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 1, T0, 1, T0 + SEC, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(ch, 0);
    ck_assert_int_eq(
        vs_test_upsert(t, &ch, "second", 6, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 1, T0 + SEC, 1, T0, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t), RS(MULTIPLE_DEFAULTS));
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 2);
    /* removing the newest default leaves "default" as the only one */
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &ch, "second", 6, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    ch = -1;
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &ch, "absent", 6, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 0);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &ch, "default", 7, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t), RS(NO_BSL));
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 0);
    /* bad input leaves the tracker alone */
    ck_assert_int_eq(vs_test_upsert(t, &ch, "", 0, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(vs_test_upsert(NULL, &ch, "a", 1, "", 0, 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_delete(NULL, &ch, "a", 1, NULL), VELSTATUS_E_INVALID);
    /* without check_stale the clock only dates transitions: no status change */
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0, &err), VELSTATUS_OK);
    ck_assert_int_eq(ch, 0);
    ck_assert_int_eq(velstatus_server_tracker_set_now(NULL, &ch, T0, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_verdict(NULL, t, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_new(NULL, ctx, NULL, NULL), VELSTATUS_E_INVALID);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 0);
    ck_assert_int_eq(velstatus_server_tracker_status(NULL), VELSTATUS_SERVER_INVALID);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(NULL), 0);
    ck_assert_uint_eq(velstatus_server_tracker_count(NULL), 0);
    velstatus_server_tracker_free(t);
    velstatus_server_tracker_free(NULL);
    velstatus_ctx_free(ctx);
}
END_TEST

#define UP(t, ch, name, phase) \
    vs_test_upsert(t, ch, name, strlen(name), phase, strlen(phase), 1, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL)

/* lastTransitionTime: the clock at the event that changed the condition
 * status, not moved by events that change the reasons alone or by a move
 * between Ready and PartiallyReady (both True). */
START_TEST(tracker_last_transition)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_server_status_options o;
    int64_t at = -7;
    int ch = -1;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 0); /* no clock yet */
    ck_assert_int_eq(at, -7);
    ck_assert_int_eq(UP(t, &ch, "a", "Available"), VELSTATUS_OK); /* Waiting -> Ready, clock unknown */
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 0);
    ck_assert_int_eq(at, -7);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 0);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1); /* dated by the first clock */
    ck_assert_int_eq(at, T0);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(UP(t, &ch, "b", "Unavailable"), VELSTATUS_OK); /* Ready -> PartiallyReady: True both */
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_PARTIAL);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0);
    ck_assert_int_eq(UP(t, &ch, "a", "Unavailable"), VELSTATUS_OK); /* -> NotReady at T0 + 1s */
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_NOTREADY);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + SEC);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 2 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(UP(t, &ch, "c", "Unavailable"), VELSTATUS_OK); /* same status: not moved */
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_NOTREADY);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + SEC);
    ck_assert_int_eq(UP(t, &ch, "a", "Available"), VELSTATUS_OK); /* -> PartiallyReady at T0 + 2s */
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_PARTIAL);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + 2 * SEC);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 3 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(UP(t, &ch, "c", ""), VELSTATUS_OK); /* the reasons alone change (some_pending) */
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_PARTIAL);
    ck_assert_uint_ne(velstatus_server_tracker_reasons(t) & RS(SOME_PENDING), 0);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + 2 * SEC);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 4 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, &ch, "a", 1, NULL), VELSTATUS_OK); /* b down, c pending */
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_WAITING);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, NULL), 1);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + 4 * SEC);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(NULL, &at), 0);
    velstatus_server_tracker_free(t);
    /* with check_stale the clock is known from creation, and staleness dates a transition */
    velstatus_server_status_options_init(&o, sizeof(o));
    o.check_stale = 1;
    o.now_ns = T0;
    o.stale_after_ns = 60 * SEC;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(vs_test_upsert(t, &ch, "d", 1, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 1, T0, 1, T0, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + SEC);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 61 * SEC, NULL), VELSTATUS_OK); /* stale */
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_WAITING);
    ck_assert_int_eq(velstatus_server_tracker_last_transition(t, &at), 1);
    ck_assert_int_eq(at, T0 + 61 * SEC);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(tracker_clock_moves_staleness)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_server_status_options o;
    int ch = -1;
    velstatus_server_status_options_init(&o, sizeof(o));
    o.check_stale = 1;
    o.now_ns = T0;
    o.stale_after_ns = 60 * SEC;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_OK);
    ck_assert_int_eq(
        vs_test_upsert(t, &ch, "d", 1, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 1, T0, 1, T0 - 30 * SEC, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 30 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 0); /* exactly 60 s: not stale */
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0 + 31 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_WAITING);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t), RS(PENDING) | RS(STALE) | RS(DEFAULT_NOT_AVAILABLE));
    ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, T0, NULL), VELSTATUS_OK); /* back in time */
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

/* xorshift64*: a deterministic stream for the property test. */
static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * UINT64_C(2685821657736338717);
}
static unsigned pick(unsigned n)
{
    return (unsigned)(rnd() % n);
}

typedef struct mirror_bsl {
    int present;
    const char *phase;
    int def, ro, has_created, has_val;
    int64_t created, val;
} mirror_bsl;

/* Tracker vs full classification: after every one of 12,000 random events
 * (upserts, deletes, clock moves) over a pool of names, the tracker's status,
 * reasons, count, change flag and full verdict (JSON, byte for byte) equal a
 * fresh classification of the same set. Four option sets, fixed seed. */
START_TEST(tracker_property_random_events)
{
    static const char *const names[] = {"a",         "ab",  "b",    "default", "primary",
                                        "secondary", "x-1", "x-10", "x-2",     "zeta"};
    static const char *const phases[] = {"Available", "Available", "Available", "Unavailable",
                                         "",          "Pending",   "available"};
    enum { NNAMES = 10, PER_CONFIG = 3000, CONFIGS = 4 };
    velstatus_ctx *ctx = vs_test_ctx();
    long events = 0, changes = 0;
    uint32_t seen_reasons = 0;
    unsigned seen_status = 0;
    rng = UINT64_C(0x9E3779B97F4A7C15);
    for (int cfg = 0; cfg < CONFIGS; cfg++) {
        velstatus_server_status_options o;
        velstatus_server_tracker *t = NULL;
        mirror_bsl m[NNAMES];
        /* small pools make small sets (all_unavailable, n = 0) frequent */
        const unsigned pool = cfg == 0 ? 3 : cfg == 2 ? 5 : NNAMES;
        memset(m, 0, sizeof(m));
        velstatus_server_status_options_init(&o, sizeof(o));
        if (cfg == 1 || cfg == 3) {
            o.default_location = cfg == 1 ? "default" : "primary";
            o.default_location_len = strlen(o.default_location);
        }
        if (cfg >= 2) {
            o.check_stale = 1;
            o.now_ns = T0;
            o.stale_after_ns = 300 * SEC;
        }
        o.three_state = cfg == 3;
        ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, &o, NULL), VELSTATUS_OK);
        for (int e = 0; e < PER_CONFIG; e++) {
            velstatus_server_status before_s = velstatus_server_tracker_status(t);
            uint32_t before_r = velstatus_server_tracker_reasons(t);
            unsigned k = pick(pool), what = pick(20);
            int ch = -1;
            velstatus_bsl_set *set = NULL;
            velstatus_server_verdict *v = NULL, *tv = NULL;
            size_t n = 0;
            char *j1, *j2;
            if (what < 5) {
                ck_assert_int_eq(velstatus_server_tracker_delete(t, &ch, names[k], strlen(names[k]), NULL),
                                 VELSTATUS_OK);
                m[k].present = 0;
            } else if (what < 7 && o.check_stale) {
                o.now_ns = T0 + ((int64_t)pick(800) - 100) * SEC;
                ck_assert_int_eq(velstatus_server_tracker_set_now(t, &ch, o.now_ns, NULL), VELSTATUS_OK);
            } else {
                mirror_bsl *b = &m[k];
                b->present = 1;
                b->phase = phases[pick(7)];
                b->def = pick(5) < 2;
                b->ro = pick(7) == 0;
                b->has_created = pick(8) != 0;
                b->created = T0 - (int64_t)pick(3) * SEC; /* few values: ties happen */
                b->has_val = pick(6) != 0;
                b->val = T0 - (int64_t)pick(900) * SEC;
                ck_assert_int_eq(vs_test_upsert(t, &ch, names[k], strlen(names[k]), b->phase, strlen(b->phase), b->def,
                                                b->ro ? VELSTATUS_BSL_READ_ONLY : VELSTATUS_BSL_READ_WRITE,
                                                b->has_created, b->created, b->has_val, b->val, NULL),
                                 VELSTATUS_OK);
            }
            events++;
            /* the full classification of the mirrored set, in a rotated order */
            ck_assert_int_eq(velstatus_bsl_set_new(&set, ctx, NULL), VELSTATUS_OK);
            for (unsigned i = 0, start = pick(NNAMES); i < NNAMES; i++) {
                unsigned j = (start + i) % NNAMES;
                if (!m[j].present)
                    continue;
                n++;
                ck_assert_int_eq(velstatus_bsl_set_add(set, names[j], strlen(names[j]), m[j].phase, strlen(m[j].phase),
                                                       m[j].def,
                                                       m[j].ro ? VELSTATUS_BSL_READ_ONLY : VELSTATUS_BSL_READ_WRITE,
                                                       m[j].has_created, m[j].created, m[j].has_val, m[j].val, NULL),
                                 VELSTATUS_OK);
            }
            ck_assert_int_eq(velstatus_server_status_classify(&v, set, &o, NULL), VELSTATUS_OK);
            ck_assert_uint_eq(velstatus_server_tracker_count(t), n);
            ck_assert_int_eq(velstatus_server_tracker_status(t), velstatus_server_verdict_status(v));
            ck_assert_uint_eq(velstatus_server_tracker_reasons(t), velstatus_server_verdict_reasons(v));
            ck_assert_int_eq(ch, before_s != velstatus_server_verdict_status(v) ||
                                     before_r != velstatus_server_verdict_reasons(v));
            changes += ch;
            seen_reasons |= velstatus_server_verdict_reasons(v);
            seen_status |= 1u << velstatus_server_verdict_status(v);
            ck_assert_int_eq(velstatus_server_tracker_verdict(&tv, t, NULL), VELSTATUS_OK);
            j1 = encode(v);
            j2 = encode(tv);
            ck_assert_msg(strcmp(j1, j2) == 0, "event %ld (config %d): tracker %s, full %s", events, cfg, j2, j1);
            velstatus_free(ctx, j1);
            velstatus_free(ctx, j2);
            velstatus_server_verdict_free(tv);
            velstatus_server_verdict_free(v);
            velstatus_bsl_set_free(set);
        }
        velstatus_server_tracker_free(t);
    }
    ck_assert_int_ge(events, 10000);
    /* the stream really exercised the rule: every flag and every status was seen */
    ck_assert_uint_eq(seen_reasons, 4095);
    ck_assert_uint_eq(seen_status, 15);
    ck_assert_int_gt(changes, 500);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- the controller step over a fake host ---- */

START_TEST(step_publishes_only_on_change)
{
    velstatus_ctx *ctx = vs_test_ctx();
    vs_fake_host fh;
    velstatus_server_status_host h;
    velstatus_server_verdict *v = NULL;
    int published = -1;
    char *j;
    vs_fake_host_init(&fh);
    fh.json = VS_FAKE_STEP_JSON;
    h = vs_fake_step_host(&fh);
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    ck_assert_int_eq(fh.publishes, 1);
    ck_assert_int_eq(fh.status, S_PARTIAL);
    ck_assert_uint_eq(fh.reasons, RS(SOME_UNAVAILABLE));
    j = encode(v);
    ck_assert_str_eq(fh.published_json, j);
    velstatus_free(ctx, j);
    velstatus_server_verdict_free(v);
    /* same status and reasons already published: no publish */
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 0);
    ck_assert_int_eq(fh.publishes, 1);
    ck_assert_int_eq(fh.reads, 2);
    /* same status, other reasons: publish */
    fh.reasons = RS(SOME_UNAVAILABLE) | RS(STALE);
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    ck_assert_int_eq(fh.publishes, 2);
    /* other status, same reasons: publish (three-state has no effect here, so force it) */
    fh.status = S_READY;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    /* no read_status, or PASSTHROUGH from it: always publish */
    h.read_status = NULL;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    h.read_status = vs_fake_read;
    fh.read_rc = VELSTATUS_PASSTHROUGH;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    ck_assert_int_eq(fh.publishes, 5);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Issue "Retry": the publish is a status write and goes through the retry
 * driver. Velero preset: CapBackoff(--resource-timeout), every error retried
 * (doc/velero-behaviour.md §4.2, §4.4); the host's sleep slot sees the CapBackoff sleeps. */
START_TEST(step_publish_is_retried)
{
    velstatus_ctx *ctx = vs_test_ctx();
    vs_fake_host rf;
    velstatus_server_status_host h;
    velstatus_server_status_options o;
    velstatus_policy vel = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_error err;
    int published = -1;
    vs_fake_host_init(&rf);
    rf.json = VS_FAKE_STEP_JSON;
    h = vs_fake_step_host(&rf);
    h.read_status = NULL;
    h.retry.sleep = vs_fake_retry_sleep;
    velstatus_server_status_options_init(&o, sizeof(o));

    /* fails twice, then goes through: 3 attempts, sleeps 10ms and 50ms */
    rf.fail_first = 2;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, &o, &vel, &err), VELSTATUS_OK);
    ck_assert_int_eq(published, 1);
    ck_assert_int_eq(rf.publishes, 3);
    ck_assert_int_eq(rf.retry.nsleeps, 2);
    ck_assert_int_eq(rf.retry.sleeps[0], 10000000);
    ck_assert_int_eq(rf.retry.sleeps[1], 50000000);

    /* never goes through: Velero gives up after 7 attempts with the default
     * 10m budget (doc/velero-behaviour.md §4.5), the 7th sleep wasted */
    vs_fake_host_init(&rf);
    rf.json = VS_FAKE_STEP_JSON;
    rf.fail_first = 1000;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, &o, &vel, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -11);
    ck_assert_int_eq(published, 0);
    ck_assert_int_eq(rf.publishes, 7);
    ck_assert_int_eq(rf.retry.nsleeps, 7);
    ck_assert_int_eq(rf.retry.sleeps[6], INT64_C(156250000000));

    /* a 30 s budget: 5 attempts (doc/velero-behaviour.md §4.5 table) */
    vs_fake_host_init(&rf);
    rf.json = VS_FAKE_STEP_JSON;
    rf.fail_first = 1000;
    o.retry_timeout_ns = INT64_C(30000000000);
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, &o, &vel, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(rf.publishes, 5);
    o.retry_timeout_ns = -1;
    ck_assert_int_eq(velstatus_server_status_step(NULL, &published, ctx, &h, &o, &vel, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "retry_timeout_ns"));
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(step_host_faults)
{
    velstatus_ctx *ctx = vs_test_ctx();
    vs_fake_host fh;
    velstatus_server_status_host h;
    velstatus_server_verdict *v = NULL;
    velstatus_error err;
    int published = -1;
    vs_fake_host_init(&fh);
    fh.json = VS_FAKE_STEP_JSON;
    h = vs_fake_step_host(&fh);

    fh.list_rc = -7;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -7);
    ck_assert_ptr_nonnull(strstr(err.message, "list_bsls"));
    ck_assert_int_eq(fh.publishes, 0);
    ck_assert_ptr_null(v);
    ck_assert_int_eq(published, 0);
    fh.list_rc = VELSTATUS_PASSTHROUGH;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    fh.list_rc = 0;

    fh.read_rc = -2;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -2);
    ck_assert_ptr_nonnull(strstr(err.message, "read_status"));
    ck_assert_int_eq(fh.publishes, 0);
    fh.read_rc = 0;

    /* A failing publish is retried (hardened preset: no sleep slot, so the
     * deadline counts the sleeps only; see step_publish_is_retried). */
    fh.publish_rc = -3;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_HOST);
    ck_assert_int_eq(err.host_code, -3);
    ck_assert_int_eq(published, 0);
    ck_assert_ptr_null(v);
    ck_assert_int_gt(fh.publishes, 1);
    ck_assert_ptr_nonnull(strstr(err.message, "attempt"));
    fh.publishes = 0;
    fh.publish_rc = VELSTATUS_PASSTHROUGH;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    fh.publish_rc = 0;

    /* bad JSON from the host names the path */
    fh.json = "{\"items\":[{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":3}}]}";
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "items[0].status.phase"));
    fh.json = "{";
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(fh.publishes, 1); /* only the PASSTHROUGH publish call */
    fh.json = VS_FAKE_STEP_JSON;

    /* the vtable itself */
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, NULL, &h, NULL, NULL, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, NULL, NULL, NULL, NULL), VELSTATUS_E_INVALID);
    h.publish = NULL;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_E_INVALID);
    h = vs_fake_step_host(&fh);
    h.flags = 1;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, NULL), VELSTATUS_E_INVALID);
    h = vs_fake_step_host(&fh);
    h.retry.flags = 1;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "retry"));
    h = vs_fake_step_host(&fh);
    h.retry.attempt = (int (*)(void *, uint64_t, velstatus_retry_reply *))1; /* never called */
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_INVALID);
    /* a NULL reply is refused, not a crash */
    ck_assert_int_eq(velstatus_bsls_reply_set_json(NULL, "[]", 2, &err), VELSTATUS_E_INVALID);
    h = vs_fake_step_host(&fh);
    h.struct_size = 8;
    ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, &err), VELSTATUS_E_ABI);
    {
        struct {
            velstatus_server_status_host h;
            char tail[8];
        } big;
        memset(&big, 0, sizeof(big));
        big.h = vs_fake_step_host(&fh);
        big.h.struct_size = sizeof(big);
        big.tail[0] = 9;
        ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &big.h, NULL, NULL, NULL), VELSTATUS_E_ABI);
    }
    {
        velstatus_server_status_options o;
        h = vs_fake_step_host(&fh);
        velstatus_server_status_options_init(&o, sizeof(o));
        o.flags = 2;
        fh.lists = 0;
        ck_assert_int_eq(velstatus_server_status_step(&v, &published, ctx, &h, &o, NULL, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(fh.lists, 0); /* options are checked before the host is called */
    }
    velstatus_server_status_host_init(NULL, 0);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- JSON input ---- */

static velstatus_status decode(velstatus_ctx *ctx, const char *json, velstatus_bsl_set **set, velstatus_error *err)
{
    *set = NULL;
    return velstatus_bsl_set_from_json(set, ctx, json, strlen(json), err);
}

/* Asserts E_SCHEMA/E_PARSE with a message starting with `prefix` and the
 * position of the first occurrence of `at` in the text. */
static void decode_fails(const char *json, velstatus_status code, const char *prefix, const char *at)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_error err;
    ck_assert_int_eq(decode(ctx, json, &set, &err), code);
    ck_assert_ptr_null(set);
    ck_assert_int_eq(err.code, code);
    ck_assert_msg(strncmp(err.message, prefix, strlen(prefix)) == 0, "message \"%s\" does not start with \"%s\"",
                  err.message, prefix);
    if (at)
        vs_test_assert_position(&err, json, strstr(json, at));
    velstatus_ctx_free(ctx);
}

START_TEST(json_decode_shapes)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *v = NULL;
    /* a bare array, nulls, unknown fields, empty accessMode */
    ck_assert_int_eq(
        decode(ctx,
               "[{\"metadata\":{\"name\":\"a\",\"creationTimestamp\":null,\"x\":[1,{\"y\":2}]},"
               "\"spec\":null,\"status\":null},"
               "{\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":\"b\"},\"spec\":{\"default\":null,"
               "\"accessMode\":\"\"},\"status\":{\"phase\":null,\"message\":null,\"lastValidationTime\":null}}]",
               &set, NULL),
        VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 2);
    ck_assert_str_eq(velstatus_bsl_set_phase(set, 0), "");
    velstatus_bsl_set_free(set);
    /* one object */
    ck_assert_int_eq(
        decode(ctx,
               "{\"apiVersion\":\"velero.io/v1\",\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":"
               "\"solo\",\"creationTimestamp\":\"2026-11-30T12:00:00Z\"},\"spec\":{\"default\":true,"
               "\"accessMode\":\"ReadOnly\"},\"status\":{\"phase\":\"Available\",\"lastValidationTime\":"
               "\"2026-11-30T12:59:00Z\",\"message\":\"m\\u00e9\"}}",
               &set, NULL),
        VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 1);
    ck_assert_str_eq(velstatus_bsl_set_message(set, 0), "m\xc3\xa9");
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_verdict_status(v), S_PARTIAL);
    ck_assert_uint_eq(velstatus_server_verdict_reasons(v), RS(DEFAULT_READONLY));
    velstatus_server_verdict_free(v);
    velstatus_bsl_set_free(set);
    /* a BackupStorageLocationList */
    ck_assert_int_eq(decode(ctx, "{\"kind\":\"BackupStorageLocationList\",\"items\":[]}", &set, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_bsl_set_count(set), 0);
    velstatus_bsl_set_free(set);
    ck_assert_int_eq(velstatus_bsl_set_from_json(NULL, ctx, "[]", 2, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, NULL, "[]", 2, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_from_json(&set, ctx, NULL, 2, NULL), VELSTATUS_E_INVALID);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(json_decode_errors_name_path_and_position)
{
    const char *four = "{\n  \"kind\": \"List\",\n  \"items\": [\n"
                       "    {\"metadata\": {\"name\": \"a\"}},\n"
                       "    {\"metadata\": {\"name\": \"b\"}, \"status\": {\"phase\": \"Available\"}},\n"
                       "    {\"metadata\": {\"name\": \"c\"}},\n"
                       "    {\"metadata\": {\"name\": \"d\"}, \"status\": {\"message\": \"x\", \"phase\": 12345}}\n"
                       "  ]\n}\n";
    decode_fails(four, VELSTATUS_E_SCHEMA, "items[3].status.phase: expected a string, got a number", "12345");
    decode_fails("{\"items\": [}", VELSTATUS_E_PARSE, "invalid JSON", NULL);
    decode_fails("", VELSTATUS_E_PARSE, "invalid JSON", NULL);
    decode_fails("{\"items\":[],\"items\":[}", VELSTATUS_E_PARSE, "invalid JSON", NULL);
    decode_fails("{\"kind\":\"PodList\",\"items\":[]}", VELSTATUS_E_SCHEMA, "kind: expected \"List\"", "\"PodList\"");
    decode_fails("{\"kind\":\"List\",\"items\":{}}", VELSTATUS_E_SCHEMA, "items: expected an array, got an object",
                 "{}");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"}}, \"b\"]}", VELSTATUS_E_SCHEMA,
                 "items[1]: expected a BackupStorageLocation object, got a string", "\"b\"");
    decode_fails("{\"items\":[{\"kind\":\"Backup\",\"metadata\":{\"name\":\"a\"}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].kind: expected \"BackupStorageLocation\"", "\"Backup\"");
    decode_fails("{\"items\":[{\"spec\":{}}]}", VELSTATUS_E_SCHEMA, "items[0].metadata: missing", "{\"spec");
    decode_fails("{\"items\":[{\"metadata\":{\"uid\":\"u\"}}]}", VELSTATUS_E_SCHEMA, "items[0].metadata.name: missing",
                 "{\"uid");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"\"}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].metadata.name: empty name", "\"\"}");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":7}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].metadata.name: expected a string, got a number", "7");
    decode_fails("{\"items\":[{\"metadata\":[]}]}", VELSTATUS_E_SCHEMA, "items[0].metadata: expected an object", "[]");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"a\"}}]}", VELSTATUS_E_SCHEMA,
                 "items[1].metadata.name: duplicate name \"a\"", "\"a\"}}]");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\",\"creationTimestamp\":\"yesterday\"}}]}",
                 VELSTATUS_E_SCHEMA, "items[0].metadata.creationTimestamp: not an RFC 3339 time", "yesterday\"");
    decode_fails(
        "{\"items\":[{\"metadata\":{\"name\":\"a\"},\"status\":{\"lastValidationTime\":\"2026-13-01T00:00:00Z\"}}]}",
        VELSTATUS_E_SCHEMA, "items[0].status.lastValidationTime: not an RFC 3339 time", "13-01T");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"default\":\"true\"}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].spec.default: expected a boolean, got a string", "\"true\"");
    decode_fails(
        "{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"accessMode\":\"WriteOnly\"}}]}", VELSTATUS_E_SCHEMA,
        "items[0].spec.accessMode: expected \"ReadOnly\" or \"ReadWrite\", got \"WriteOnly\"", "\"WriteOnly\"");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":5}]}", VELSTATUS_E_SCHEMA,
                 "items[0].spec: expected an object, got a number", "5}");
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"status\":{\"message\":false}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].status.message: expected a string, got a boolean", "false");
    decode_fails("[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"b\"},\"status\":{\"phase\":[]}}]",
                 VELSTATUS_E_SCHEMA, "[1].status.phase: expected a string, got an array", "[]}");
    decode_fails("{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":{}}}", VELSTATUS_E_SCHEMA,
                 "status.phase: expected a string, got an object", "{}}");
    decode_fails("  42", VELSTATUS_E_SCHEMA, "(top level): expected a List, an array or a BackupStorageLocation", "42");
    /* a key spelled with an escape is found, and so is its position */
    decode_fails("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"st\\u0061tus\":{\"phase\":1}}]}", VELSTATUS_E_SCHEMA,
                 "items[0].status.phase: expected a string", "1}}]}");
}
END_TEST

/* ---- one BSL: the record, the set's getter, the tracker's JSON entry point ---- */

static void assert_record(const velstatus_bsl_record *r, const char *name, const char *phase, int def,
                          velstatus_bsl_access access, int hc, int64_t c, int hv, int64_t v, const char *msg)
{
    ck_assert_uint_eq(r->name_len, strlen(name));
    ck_assert_mem_eq(r->name, name, r->name_len);
    ck_assert_uint_eq(r->phase_len, strlen(phase));
    ck_assert_mem_eq(r->phase, phase, r->phase_len);
    ck_assert_int_eq(r->is_default, def);
    ck_assert_int_eq(r->access, access);
    ck_assert_int_eq(r->has_created, hc);
    ck_assert_int_eq(r->created_ns, c);
    ck_assert_int_eq(r->has_validated, hv);
    ck_assert_int_eq(r->validated_ns, v);
    ck_assert_uint_eq(r->message_len, strlen(msg));
    ck_assert_mem_eq(r->message, msg, r->message_len);
}

static const char BSL_LIST[] =
    "{\"kind\":\"List\",\"items\":["
    "{\"metadata\":{\"name\":\"default\",\"creationTimestamp\":\"2026-11-30T12:00:00Z\"},"
    "\"spec\":{\"default\":true},\"status\":{\"phase\":\"Available\",\"lastValidationTime\":\"2026-11-30T12:59:00Z\"}},"
    "{\"metadata\":{\"name\":\"secondary\"},\"spec\":{\"accessMode\":\"ReadOnly\"},"
    "\"status\":{\"phase\":\"Unavailable\",\"message\":\"BackupStorageLocation \\\"secondary\\\" is unavailable\"}},"
    "{\"metadata\":{\"name\":\"new\"}}]}";

START_TEST(bsl_set_get_gives_every_field)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_bsl_record r, keep;
    velstatus_error err;
    ck_assert_int_eq(decode(ctx, BSL_LIST, &set, NULL), VELSTATUS_OK);
    velstatus_bsl_record_init(&r, sizeof(r));
    ck_assert_uint_eq(r.struct_size, sizeof(r));
    ck_assert_ptr_null(r.name);
    ck_assert_int_eq(velstatus_bsl_set_get(set, 0, &r, NULL), VELSTATUS_OK);
    assert_record(&r, "default", "Available", 1, VELSTATUS_BSL_READ_WRITE, 1, T0 - 3600 * SEC, 1, T0 - 60 * SEC, "");
    ck_assert_uint_eq(r.struct_size, sizeof(r));
    ck_assert_int_eq(r.name[r.name_len], '\0'); /* the set's texts are NUL-terminated */
    ck_assert_int_eq(velstatus_bsl_set_get(set, 1, &r, NULL), VELSTATUS_OK);
    assert_record(&r, "secondary", "Unavailable", 0, VELSTATUS_BSL_READ_ONLY, 0, 0, 0, 0,
                  "BackupStorageLocation \"secondary\" is unavailable");
    ck_assert_int_eq(velstatus_bsl_set_get(set, 2, &r, NULL), VELSTATUS_OK);
    assert_record(&r, "new", "", 0, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, "");
    /* bad calls leave the record alone */
    keep = r;
    ck_assert_int_eq(velstatus_bsl_set_get(set, 3, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "index 3 is out of range"));
    ck_assert_mem_eq(&r, &keep, sizeof(r));
    ck_assert_int_eq(velstatus_bsl_set_get(NULL, 0, &r, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_bsl_set_get(set, 0, NULL, NULL), VELSTATUS_E_INVALID);
    r.struct_size = 8;
    ck_assert_int_eq(velstatus_bsl_set_get(set, 0, &r, &err), VELSTATUS_E_ABI);
    r.struct_size = keep.struct_size;
    ck_assert_mem_eq(&r, &keep, sizeof(r));
    velstatus_bsl_record_init(NULL, sizeof(r)); /* ignored */
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The tracker fed from a decoded list (record by record) and fed from each
 * item's JSON gives the verdict classification gives for the list. */
START_TEST(tracker_bridges_from_decoded_set_and_json)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_server_tracker *a = NULL, *b = NULL;
    velstatus_server_verdict *v = NULL, *va = NULL, *vb = NULL;
    char *j = NULL, *ja, *jb;
    int ch = -1;
    ck_assert_int_eq(decode(ctx, BSL_LIST, &set, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_new(&a, ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_new(&b, ctx, NULL, NULL), VELSTATUS_OK);
    for (size_t i = 0; i < velstatus_bsl_set_count(set); i++) {
        velstatus_bsl_record r;
        velstatus_bsl_record_init(&r, sizeof(r));
        ck_assert_int_eq(velstatus_bsl_set_get(set, i, &r, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_tracker_upsert(a, &ch, &r, NULL), VELSTATUS_OK);
    }
    {
        /* the items of BSL_LIST, one object each, spaced out */
        static const char *const items[] = {
            " {\"metadata\":{\"name\":\"default\",\"creationTimestamp\":\"2026-11-30T12:00:00Z\"},\"spec\":{"
            "\"default\":"
            "true},\"status\":{\"phase\":\"Available\",\"lastValidationTime\":\"2026-11-30T12:59:00Z\"}}\n",
            "{\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":\"secondary\"},\"spec\":{\"accessMode\":"
            "\"ReadOnly\"},\"status\":{\"phase\":\"Unavailable\",\"message\":\"BackupStorageLocation \\\"secondary\\\""
            " is unavailable\"}}",
            "{\"metadata\":{\"name\":\"new\"}}"};
        for (size_t i = 0; i < 3; i++) {
            ch = -1;
            ck_assert_int_eq(velstatus_server_tracker_upsert_json(b, &ch, items[i], strlen(items[i]), NULL),
                             VELSTATUS_OK);
            ck_assert_int_eq(ch, 1);
        }
        /* replaying an event changes nothing */
        ck_assert_int_eq(velstatus_server_tracker_upsert_json(b, &ch, items[2], strlen(items[2]), NULL), VELSTATUS_OK);
        ck_assert_int_eq(ch, 0);
        ck_assert_uint_eq(velstatus_server_tracker_count(b), 3);
    }
    ck_assert_int_eq(velstatus_server_tracker_verdict(&va, a, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_verdict(&vb, b, NULL), VELSTATUS_OK);
    j = encode(v);
    ja = encode(va);
    jb = encode(vb);
    ck_assert_str_eq(ja, j);
    ck_assert_str_eq(jb, j);
    ck_assert_int_eq(velstatus_server_verdict_status(v), S_PARTIAL);
    /* an update through JSON moves the status */
    {
        static const char up[] = "{\"metadata\":{\"name\":\"secondary\"},\"status\":{\"phase\":\"Available\"}}";
        static const char up2[] = "{\"metadata\":{\"name\":\"new\"},\"status\":{\"phase\":\"Available\"}}";
        ck_assert_int_eq(velstatus_server_tracker_upsert_json(b, &ch, up, sizeof(up) - 1, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_tracker_upsert_json(b, &ch, up2, sizeof(up2) - 1, NULL), VELSTATUS_OK);
        ck_assert_int_eq(ch, 1);
        ck_assert_int_eq(velstatus_server_tracker_status(b), S_READY);
    }
    velstatus_free(ctx, j);
    velstatus_free(ctx, ja);
    velstatus_free(ctx, jb);
    velstatus_server_verdict_free(v);
    velstatus_server_verdict_free(va);
    velstatus_server_verdict_free(vb);
    velstatus_server_tracker_free(a);
    velstatus_server_tracker_free(b);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A name and a time both spelled with escapes: each keeps its own text. */
START_TEST(json_escaped_name_and_times)
{
    static const char one[] =
        "{\"metadata\":{\"name\":\"d\\u0065fault\",\"creationTimestamp\":\"2026-11-30T12:00:00\\u005a\"},"
        "\"status\":{\"phase\":\"Av\\u0061ilable\",\"lastValidationTime\":"
        "\"2026-11-30T12:59:00\\u005a\",\"message\":\"\\u00e9\"}}";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_bsl_set *set = NULL;
    velstatus_bsl_record r;
    velstatus_server_tracker *t = NULL;
    velstatus_server_verdict *v = NULL;
    ck_assert_int_eq(decode(ctx, one, &set, NULL), VELSTATUS_OK);
    velstatus_bsl_record_init(&r, sizeof(r));
    ck_assert_int_eq(velstatus_bsl_set_get(set, 0, &r, NULL), VELSTATUS_OK);
    assert_record(&r, "default", "Available", 0, VELSTATUS_BSL_READ_WRITE, 1, T0 - 3600 * SEC, 1, T0 - 60 * SEC,
                  "\xc3\xa9");
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_upsert_json(t, NULL, one, sizeof(one) - 1, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_verdict(&v, t, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_verdict_name_count(v, VELSTATUS_SERVER_REASON_NO_DEFAULT), 0);
    ck_assert_uint_eq(velstatus_server_verdict_available(v), 1);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, "default", 7, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 0); /* stored under its decoded name */
    velstatus_server_verdict_free(v);
    velstatus_server_tracker_free(t);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
}
END_TEST

/* velstatus_server_tracker_upsert_json fails with `code`, a message starting
 * with `prefix`, the position of the first `at` in the text, and the tracker
 * (one BSL "keep") unchanged. */
static void upsert_json_fails(const char *json, velstatus_status code, const char *prefix, const char *at)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_error err;
    int ch = -1;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    ck_assert_int_eq(vs_test_upsert(t, NULL, "keep", 4, "Available", 9, 1, VELSTATUS_BSL_READ_WRITE, 0, 0, 0, 0, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_server_tracker_upsert_json(t, &ch, json, strlen(json), &err), code);
    ck_assert_int_eq(ch, 0);
    ck_assert_int_eq(err.code, code);
    ck_assert_msg(strncmp(err.message, prefix, strlen(prefix)) == 0, "message \"%s\" does not start with \"%s\"",
                  err.message, prefix);
    ck_assert_ptr_null(strstr(err.message, "line ")); /* the position is in the fields, once */
    if (at)
        vs_test_assert_position(&err, json, strstr(json, at));
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_READY);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}

START_TEST(tracker_upsert_json_errors)
{
    upsert_json_fails("{\"metadata\": {\"name\": \"a\"},\n \"status\": {\"phase\": 7}}", VELSTATUS_E_SCHEMA,
                      "status.phase: expected a string, got a number", "7}}");
    upsert_json_fails("{\"metadata\":{\"name\":\"a\",\n\"creationTimestamp\":\"soon\"}}", VELSTATUS_E_SCHEMA,
                      "metadata.creationTimestamp: not an RFC 3339 time", "soon\"");
    upsert_json_fails("{\"metadata\":{\"name\":\"\"}}", VELSTATUS_E_SCHEMA, "metadata.name: empty name", "\"\"}}");
    upsert_json_fails("{\"spec\":{\"default\":true}}", VELSTATUS_E_SCHEMA, "metadata: missing", "{\"spec");
    upsert_json_fails("{\"kind\":\"Backup\",\"metadata\":{\"name\":\"a\"}}", VELSTATUS_E_SCHEMA,
                      "kind: expected \"BackupStorageLocation\"", "\"Backup\"");
    upsert_json_fails("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"accessMode\":\"WriteOnly\"}}", VELSTATUS_E_SCHEMA,
                      "spec.accessMode: expected \"ReadOnly\" or \"ReadWrite\"", "\"WriteOnly\"");
    /* one object: a list or an array is not one */
    upsert_json_fails("[{\"metadata\":{\"name\":\"a\"}}]", VELSTATUS_E_SCHEMA,
                      "(top level): expected a BackupStorageLocation object, got an array", "[{");
    upsert_json_fails("\n  \"a\"", VELSTATUS_E_SCHEMA,
                      "(top level): expected a BackupStorageLocation object, got a string", "\"a\"");
    upsert_json_fails("{\"metadata\":{\"name\":\"a\"}} {}", VELSTATUS_E_PARSE, "invalid JSON", "{}");
    upsert_json_fails("{\"metadata\":{\"name\":\"a\"},!}", VELSTATUS_E_PARSE, "invalid JSON", "!");
    upsert_json_fails("", VELSTATUS_E_PARSE, "invalid JSON", "");
}
END_TEST

START_TEST(tracker_upsert_record_checks)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_server_tracker *t = NULL;
    velstatus_bsl_record r;
    velstatus_error err;
    int ch = -1;
    union {
        velstatus_bsl_record r;
        unsigned char b[sizeof(velstatus_bsl_record) + 64];
    } big;
    ck_assert_int_eq(velstatus_server_tracker_new(&t, ctx, NULL, NULL), VELSTATUS_OK);
    velstatus_bsl_record_init(&r, sizeof(r));
    r.name = "a";
    r.name_len = 1;
    r.phase = "Available";
    r.phase_len = 9;
    r.message = "kept";
    r.message_len = 4;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, NULL), VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_int_eq(velstatus_server_tracker_status(t), S_PARTIAL); /* no default */
    /* the bad ones change nothing */
    r.flags = 1;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "flags"));
    r.flags = 0;
    r.access = (velstatus_bsl_access)7;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, &err), VELSTATUS_E_INVALID);
    r.access = VELSTATUS_BSL_READ_WRITE;
    r.message = NULL;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, &err), VELSTATUS_E_INVALID);
    r.message_len = 0;
    r.struct_size = 95; /* shorter than the 1.0 record (96 bytes) */
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_upsert(NULL, &ch, &r, &err), VELSTATUS_E_INVALID);
    /* NUL-terminated texts, in the record and as the JSON */
    velstatus_bsl_record_init(&r, sizeof(r));
    r.name = "nt";
    r.name_len = VELSTATUS_NUL_TERMINATED;
    r.phase = "Unavailable";
    r.phase_len = VELSTATUS_NUL_TERMINATED;
    r.message = NULL;
    r.message_len = VELSTATUS_NUL_TERMINATED; /* NULL with it: the empty text */
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &r, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 2);
    ck_assert_uint_eq(velstatus_server_tracker_reasons(t) & RS(SOME_UNAVAILABLE), RS(SOME_UNAVAILABLE));
    ck_assert_int_eq(velstatus_server_tracker_upsert_json(t, &ch,
                                                          "{\"metadata\":{\"name\":\"nt\"},"
                                                          "\"status\":{\"phase\":\"Available\"}}",
                                                          VELSTATUS_NUL_TERMINATED, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(ch, 1);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 2);
    ck_assert_int_eq(velstatus_server_tracker_delete(t, NULL, "nt", 2, NULL), VELSTATUS_OK);
    velstatus_bsl_record_init(&r, sizeof(r));
    r.name = "a";
    r.name_len = 1;
    ck_assert_int_eq(velstatus_server_tracker_upsert_json(NULL, &ch, "{}", 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_server_tracker_upsert_json(t, &ch, NULL, 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(ch, 0);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 1);
    /* a newer caller's record: its unknown tail zero passes, non-zero is refused */
    memset(&big, 0xAA, sizeof(big));
    velstatus_bsl_record_init(&big.r, sizeof(big.b));
    for (size_t i = sizeof(uint32_t); i < sizeof(big.b); i++)
        ck_assert_uint_eq(big.b[i], 0);
    big.r.name = "b";
    big.r.name_len = 1;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &big.r, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_server_tracker_count(t), 2);
    big.b[sizeof(big.b) - 1] = 1;
    ck_assert_int_eq(velstatus_server_tracker_upsert(t, &ch, &big.r, &err), VELSTATUS_E_ABI);
    velstatus_server_tracker_free(t);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(failalloc_tracker_upsert_json)
{
    static const char one[] =
        "{\"metadata\":{\"name\":\"d\\u0065fault\",\"creationTimestamp\":\"2026-11-30T12:00:00\\u005a\"},"
        "\"spec\":{\"accessMode\":\"Read\\u004fnly\"},\"status\":{\"phase\":\"Available\","
        "\"message\":\"\\u00e9\"}}";
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_server_tracker *t = NULL;
        int ch = -1;
        st = velstatus_server_tracker_new(&t, ctx, NULL, NULL);
        if (st != VELSTATUS_OK)
            break;
        st = velstatus_server_tracker_upsert_json(t, &ch, one, sizeof(one) - 1, NULL);
        if (st != VELSTATUS_OK) {
            ck_assert_int_eq(ch, 0);
            ck_assert_uint_eq(velstatus_server_tracker_count(t), 0);
        } else {
            ck_assert_int_eq(velstatus_server_tracker_status(t), S_PARTIAL);
        }
        velstatus_server_tracker_free(t);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* velstatus_bsl_watch_event_foreach() gives what the two decoders give in
 * turn (the event, then the BSLs of its object): the same types, spans,
 * BSLs, statuses and messages, including an error's position, which counts
 * from the object's first byte. Its BSLs are collected into a set as they
 * come (collect_bsl); a failed event makes no call. */
typedef struct collected {
    velstatus_bsl_set *set;
    const velstatus_watch_event *ev;
    size_t calls;
    int stop_at; /* the call that returns -7 (1-based), or 0 */
} collected;

static int collect_bsl(void *ud, const velstatus_watch_event *ev, const velstatus_bsl_record *bsl)
{
    collected *c = ud;
    velstatus_watch_type t = velstatus_watch_event_type(ev);
    c->ev = ev;
    ck_assert(t == VELSTATUS_WATCH_ADDED || t == VELSTATUS_WATCH_MODIFIED || t == VELSTATUS_WATCH_DELETED ||
              t == VELSTATUS_WATCH_OBJECT);
    if (++c->calls == (size_t)c->stop_at)
        return -7;
    ck_assert_int_eq(velstatus_bsl_set_add_record(c->set, bsl, NULL), VELSTATUS_OK);
    return 0;
}

/* Every field of two records, by their lengths. */
static void same_record(const velstatus_bsl_record *a, const velstatus_bsl_record *b)
{
    const char *const txa[] = {a->name, a->ns, a->phase, a->message, a->provider, a->bucket, a->prefix};
    const char *const txb[] = {b->name, b->ns, b->phase, b->message, b->provider, b->bucket, b->prefix};
    const size_t na[] = {a->name_len,     a->ns_len,     a->phase_len, a->message_len,
                         a->provider_len, a->bucket_len, a->prefix_len};
    const size_t nb[] = {b->name_len,     b->ns_len,     b->phase_len, b->message_len,
                         b->provider_len, b->bucket_len, b->prefix_len};
    for (size_t k = 0; k < 7; k++) {
        ck_assert_uint_eq(na[k], nb[k]);
        ck_assert(na[k] == 0 || memcmp(txa[k], txb[k], na[k]) == 0);
    }
    ck_assert_int_eq(a->is_default, b->is_default);
    ck_assert_int_eq(a->access, b->access);
    ck_assert_int_eq(a->has_created, b->has_created);
    ck_assert_int_eq(a->created_ns, b->created_ns);
    ck_assert_int_eq(a->has_validated, b->has_validated);
    ck_assert_int_eq(a->validated_ns, b->validated_ns);
}

/* One event through velstatus_bsl_watch_event_foreach() and through the
 * two decoders in turn (bsl_watch_event_is_the_two_decoders). */
static void same_as_two_decoders(velstatus_ctx *ctx, const char *js, size_t len, size_t k)
{
    velstatus_watch_event *ev = NULL, *ev2 = NULL;
    velstatus_bsl_set *set2 = NULL;
    collected c = {NULL, NULL, 0, 0};
    velstatus_error err, err2;
    velstatus_status st, st2;
    size_t off = 0, off2 = 0;
    ck_assert_int_eq(velstatus_bsl_set_new(&c.set, ctx, NULL), VELSTATUS_OK);
    st = velstatus_bsl_watch_event_foreach(&ev, ctx, js, len, collect_bsl, &c, &err);
    st2 = velstatus_watch_event_from_json(&ev2, ctx, js, len, &err2);
    ck_assert_msg((ev != NULL) == (st2 == VELSTATUS_OK), "event %zu", k);
    ck_assert(c.calls == 0 || c.ev == ev);
    if (st2 != VELSTATUS_OK) { /* the event itself fails: the same error */
        ck_assert_int_eq(st, st2);
        ck_assert_str_eq(err.message, err2.message);
        ck_assert_uint_eq(err.offset, err2.offset);
        ck_assert_uint_eq(c.calls, 0);
        velstatus_bsl_set_free(c.set);
        return;
    }
    ck_assert_int_eq(velstatus_watch_event_type(ev), velstatus_watch_event_type(ev2));
    ck_assert_uint_eq(velstatus_watch_event_object(ev, &off), velstatus_watch_event_object(ev2, &off2));
    ck_assert_uint_eq(off, off2);
    if (velstatus_watch_event_type(ev2) == VELSTATUS_WATCH_ERROR ||
        velstatus_watch_event_type(ev2) == VELSTATUS_WATCH_BOOKMARK) {
        ck_assert_int_eq(st, VELSTATUS_OK);
        ck_assert_uint_eq(c.calls, 0);
    } else {
        st2 = velstatus_bsl_set_from_json(&set2, ctx, js + off2, velstatus_watch_event_object(ev2, NULL), &err2);
        ck_assert_msg(st == st2, "event %zu: %d, %d", k, st, st2);
        if (st != VELSTATUS_OK) {
            ck_assert_str_eq(err.message, err2.message);
            ck_assert_uint_eq(err.offset, err2.offset);
            ck_assert_uint_eq(c.calls, 0); /* every BSL is checked before the first call */
        } else {
            ck_assert_uint_eq(c.calls, velstatus_bsl_set_count(set2));
            ck_assert_uint_eq(velstatus_bsl_set_count(c.set), velstatus_bsl_set_count(set2));
            for (size_t i = 0; i < velstatus_bsl_set_count(c.set); i++) {
                velstatus_bsl_record a, b;
                velstatus_bsl_record_init(&a, sizeof(a));
                velstatus_bsl_record_init(&b, sizeof(b));
                ck_assert_int_eq(velstatus_bsl_set_get(c.set, i, &a, NULL), VELSTATUS_OK);
                ck_assert_int_eq(velstatus_bsl_set_get(set2, i, &b, NULL), VELSTATUS_OK);
                same_record(&a, &b);
            }
        }
    }
    velstatus_bsl_set_free(c.set);
    velstatus_bsl_set_free(set2);
    velstatus_watch_event_free(ev);
    velstatus_watch_event_free(ev2);
}

/* head, then n copies of item separated by commas, each '#' of the k-th
 * copy the digit k % 10 and each '@' the digit k / 10 % 10, then tail: a
 * new text. */
static char *repeated(const char *head, const char *item, size_t n, const char *tail)
{
    size_t hl = strlen(head), il = strlen(item), tl = strlen(tail), at = hl;
    char *out = malloc(hl + n * (il + 1) + tl + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, head, hl);
    for (size_t i = 0; i < n; i++) {
        if (i)
            out[at++] = ',';
        for (size_t j = 0; j < il; j++)
            out[at++] = item[j] == '#' ? (char)('0' + i % 10) : item[j] == '@' ? (char)('0' + i / 10 % 10) : item[j];
    }
    memcpy(out + at, tail, tl + 1);
    return out;
}

START_TEST(bsl_watch_event_is_the_two_decoders)
{
    static const char *const events[] = {
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\",\"namespace\":\"velero\"},"
        "\"spec\":{\"default\":true},\"status\":{\"phase\":\"Available\"}}}",
        "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"a\"}},"
        "{\"metadata\":{\"name\":\"b\",\"namespace\":\"x\"},\"status\":{\"message\":\"m\\u0000n\"}}]}}",
        "{\"kind\":\"BackupStorageLocation\",\"metadata\":{\"name\":\"bare\"}}\n",
        "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"a\"}},\"type\":\"ADDED\"}",
        "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"7\"}}}",
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"reason\":\"Expired\",\"code\":410}}",
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"},\n\"status\":{\"phase\":7}}}",
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{}}}",
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"},\"metadata\":{\"name\":\"a\"}},\"x\":[1,2}",
        "{\"type\":\"SYNC\",\"object\":{}}",
        "{\"type\":\"ADDED\",\"object\":[]}",
        /* a member of the wrong type before a List's items: still a List (empty, or with a BSL) */
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":5,\"items\":[]}}",
        "{\"type\":\"ADDED\",\"object\":{\"spec\":{\"objectStorage\":1},\"it\\u0065ms\":[{\"metadata\":{\"name\":\"i\"}"
        "}]}}",
        "{\"type\":\"ADDED\",\"object\":{\"items\":null,\"status\":[]}}",
        /* else the first such member is the error, as it comes */
        "{\"type\":\"ADDED\",\"object\":{\"spec\":{\"objectStorage\":1},\"metadata\":2}}",
        "{\"type\":\"ADDED\",\"object\":{\"status\":\"x\",\"spec\":{\"objectStorage\":[]},\"kind\":\"Nope\"}}",
        "{\"type\":\"DELETED\",\"object\":{\"kind\":\"Nope\",\"metadata\":{\"name\":\"a\"}}}",
        /* every field, escaped keys and texts */
        "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"n\\u0061me\":\"e\\u00e9\",\"namespace\":\"n\","
        "\"creationTimestamp\":"
        "\"2026-11-30T12:00:00Z\"},\"spec\":{\"default\":true,\"accessMode\":\"ReadOnly\",\"provider\":\"aws\","
        "\"objectStorage\":{\"bucket\":\"b\",\"prefix\":\"p\\/q\"}},\"status\":{\"phase\":\"Unavailable\","
        "\"lastValidationTime\":\"2026-11-30T12:59:00.5Z\",\"message\":\"no \\\"bucket\\\"\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"d\"}},"
        "{\"metadata\":{\"name\":\"d\"}}]}}",
    };
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t k = 0; k < sizeof(events) / sizeof(events[0]); k++)
        same_as_two_decoders(ctx, events[k], strlen(events[k]), k);
    /* the event's scan notes where its values end and the object's decoder
     * reads them: from an event after whitespace, past the 256 values and
     * the 16 levels the scan notes, and to an error past them */
    {
        char *t[4];
        t[0] =
            repeated("  \n\t {\"type\":\"ADDED\",\"object\":{\"kind\":\"List\",\"items\":[",
                     "{\"metadata\":{\"name\":\"b\",\"n\\u0061mespace\":\"v\"},\"status\":{\"phase\":\"Available\"}}",
                     1, "]}} ");
        t[1] = repeated("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"List\",\"items\":[",
                        "{\"metadata\":{\"name\":\"b@#\"},\"spec\":{\"default\":false},\"status\":{\"message\":\"m\"}}",
                        90, ",{\"metadata\":{\"name\":\"last\"},\"status\":{\"phase\":7}}]}}");
        t[2] = repeated(
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"List\",\"items\":[",
            "{\"metadata\":{\"name\":\"b@#\",\"labels\":{\"x\":\"y\"}},\"status\":{\"phase\":\"Unavailable\"}}", 70,
            ",{\"metadata\":{\"name\":\"c\",\"namespace\":\"w\"},\"status\":{\"phase\":\"Available\"}}]}}");
        t[3] = repeated(
            "{\"type\":\"ADDED\",\"object\":{\"spec\":{\"x\":[[[[[[[[[[[[[[[[[[[[", "{\"a\":[1,{\"b\":\"}]\\\"\"}]}", 2,
            "]]]]]]]]]]]]]]]]]]]]},\"metadata\":{\"name\":\"deep\"},\"status\":{\"phase\":\"Available\"}}}");
        for (size_t k = 0; k < 4; k++) {
            same_as_two_decoders(ctx, t[k], strlen(t[k]), 100 + k);
            free(t[k]);
        }
    }
    {
        velstatus_watch_event *ev = (velstatus_watch_event *)1;
        ck_assert_int_eq(velstatus_bsl_watch_event_foreach(&ev, ctx, "{}", 2, NULL, NULL, NULL), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_watch_event_foreach(NULL, ctx, "{}", 2, collect_bsl, NULL, NULL),
                         VELSTATUS_E_INVALID);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* velstatus_server_tracker_upsert_json() reads what the set decoder reads
 * of the same text, past the 256 values and the 16 levels a scan notes
 * (where the set decoder's walk goes on without the notes), and to an error
 * past them. */
START_TEST(upsert_json_past_the_scan_notes)
{
    char *t[2];
    velstatus_ctx *ctx = vs_test_ctx();
    t[0] = repeated("{\"metadata\":{\"labels\":{", "\"k@#\":\"v\"", 300,
                    "},\"name\":\"big\"},\"spec\":{\"default\":true},\"status\":{\"phase\":\"Available\"}}");
    t[1] = repeated("{\"spec\":{\"x\":[[[[[[[[[[[[[[[[[[[[", "{\"a\":[1,{\"b\":\"}]\\\"\"}]}", 2,
                    "]]]]]]]]]]]]]]]]]]]]},\"metadata\":{\"name\":\"deep\"},\"status\":{\"phase\":7}}");
    for (int k = 0; k < 2; k++) {
        velstatus_server_tracker *a = NULL, *b = NULL;
        velstatus_bsl_set *set = NULL;
        velstatus_bsl_record r;
        velstatus_error err, err2;
        velstatus_status st;
        ck_assert_int_eq(velstatus_server_tracker_new(&a, ctx, NULL, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_tracker_new(&b, ctx, NULL, NULL), VELSTATUS_OK);
        st = velstatus_server_tracker_upsert_json(a, NULL, t[k], strlen(t[k]), &err);
        ck_assert_int_eq(st, velstatus_bsl_set_from_json(&set, ctx, t[k], strlen(t[k]), &err2));
        if (k == 0) {
            velstatus_server_verdict *va = NULL, *vb = NULL;
            char *ja, *jb;
            ck_assert_int_eq(st, VELSTATUS_OK);
            velstatus_bsl_record_init(&r, sizeof(r));
            ck_assert_int_eq(velstatus_bsl_set_get(set, 0, &r, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_server_tracker_upsert(b, NULL, &r, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_server_tracker_verdict(&va, a, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_server_tracker_verdict(&vb, b, NULL), VELSTATUS_OK);
            ck_assert_int_eq(velstatus_server_verdict_status(va), S_READY);
            ja = encode(va);
            jb = encode(vb);
            ck_assert_str_eq(ja, jb);
            velstatus_free(ctx, ja);
            velstatus_free(ctx, jb);
            velstatus_server_verdict_free(va);
            velstatus_server_verdict_free(vb);
        } else {
            ck_assert_int_eq(st, VELSTATUS_E_SCHEMA);
            ck_assert_str_eq(err.message, err2.message);
            ck_assert_uint_eq(err.offset, err2.offset);
            ck_assert_uint_eq(velstatus_server_tracker_count(a), 0);
        }
        velstatus_bsl_set_free(set);
        velstatus_server_tracker_free(a);
        velstatus_server_tracker_free(b);
        free(t[k]);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* velstatus_watch_event_from_json() on each kind of event and on malformed
 * ones: bare Status objects, wrong-typed kinds, long unknown types. */
static velstatus_status watch_one(velstatus_ctx *ctx, const char *js, velstatus_watch_event **ev, velstatus_error *err)
{
    *ev = NULL;
    return velstatus_watch_event_from_json(ev, ctx, js, strlen(js), err);
}

START_TEST(watch_event_kinds_and_errors)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_watch_event *ev;
    velstatus_error err;
    velstatus_watch_type t = VELSTATUS_WATCH_INVALID;
    size_t n;
    int64_t code = 0;
    ck_assert_str_eq(velstatus_watch_type_to_string(VELSTATUS_WATCH_BOOKMARK), "BOOKMARK");
    ck_assert_ptr_null(velstatus_watch_type_to_string(VELSTATUS_WATCH_INVALID));
    ck_assert_int_eq(velstatus_watch_type_from_string(&t, "DELETED", 7, NULL), VELSTATUS_OK);
    ck_assert_int_eq(t, VELSTATUS_WATCH_DELETED);
    ck_assert_int_ne(velstatus_watch_type_from_string(&t, "NOPE", 4, &err), VELSTATUS_OK);
    /* a bare Status object is an ERROR without an event around it */
    ck_assert_int_eq(
        watch_one(ctx, "{\"kind\":\"Status\",\"reason\":\"Expired\",\"message\":null,\"code\":410}", &ev, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_ERROR);
    ck_assert_str_eq(velstatus_watch_event_reason(ev, &n), "Expired");
    ck_assert_uint_eq(n, 7);
    ck_assert_ptr_null(velstatus_watch_event_message(ev, NULL));
    ck_assert_int_eq(velstatus_watch_event_code(ev, &code), 1);
    ck_assert_int_eq(code, 410);
    velstatus_watch_event_free(ev);
    /* a bare Status with a wrong-typed field names it without "object." */
    ck_assert_int_eq(watch_one(ctx, "{\"kind\":\"Status\",\"reason\":5}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_null(ev);
    ck_assert_ptr_nonnull(strstr(err.message, "reason"));
    ck_assert_ptr_null(strstr(err.message, "object.reason"));
    ck_assert_int_eq(watch_one(ctx, "{\"kind\":\"Status\",\"code\":\"x\"}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "code"));
    /* an event's Status fields are named under "object" */
    ck_assert_int_eq(watch_one(ctx, "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":[1]}}", &ev, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "object.message"));
    /* other event types, the last non-null member wins */
    ck_assert_int_eq(watch_one(ctx,
                               "{\"type\":\"ADDED\",\"type\":\"BOOKMARK\",\"type\":null,\"object\":{\"kind\":\"X\"}}",
                               &ev, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_BOOKMARK);
    ck_assert_int_eq(velstatus_watch_event_code(ev, &code), 0);
    velstatus_watch_event_free(ev);
    ck_assert_int_eq(watch_one(ctx, "{\"type\":\"DELETED\",\"object\":{}}", &ev, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_watch_event_type(ev), VELSTATUS_WATCH_DELETED);
    ck_assert_uint_eq(velstatus_watch_event_object(ev, &n), 2);
    ck_assert_uint_eq(n, 27);
    velstatus_watch_event_free(ev);
    /* malformed: wrong-typed kind and type, long unknown types, non-objects */
    ck_assert_int_eq(watch_one(ctx, "{\"kind\":5}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "kind"));
    ck_assert_int_eq(watch_one(ctx, "{\"type\":true,\"object\":{}}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "type"));
    ck_assert_int_eq(watch_one(ctx,
                               "{\"type\":\"ADDEDXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\","
                               "\"object\":{}}",
                               &ev, &err),
                     VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "got \"ADDEDXXX"));
    ck_assert_ptr_null(strstr(err.message, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"));
    ck_assert_int_eq(watch_one(ctx, "{\"type\":\"ADDED\",\"object\":[]}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "expected an object"));
    ck_assert_int_eq(watch_one(ctx, "{\"type\":\"ADDED\"}", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_ptr_nonnull(strstr(err.message, "missing"));
    ck_assert_int_eq(watch_one(ctx, "[1]", &ev, &err), VELSTATUS_E_SCHEMA);
    ck_assert_int_eq(watch_one(ctx, "{\"ty\\u0070e\":\"ADDED\",\"object\":{}}", &ev, &err), VELSTATUS_OK);
    velstatus_watch_event_free(ev);
    ck_assert_int_eq(watch_one(ctx, "{\"type\\uZZZZ\":1}", &ev, &err), VELSTATUS_E_PARSE);
    ck_assert_int_eq(velstatus_watch_event_from_json(NULL, ctx, "{}", 2, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_watch_event_type(NULL), VELSTATUS_WATCH_INVALID);
    ck_assert_uint_eq(velstatus_watch_event_object(NULL, &n), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(velstatus_watch_event_reason(NULL, &n));
    ck_assert_ptr_null(velstatus_watch_event_message(NULL, NULL));
    ck_assert_int_eq(velstatus_watch_event_code(NULL, &code), 0);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A callback that stops: the call returns E_HOST with its value, the
 * event, and the BSLs handed out before; each BSL of a List is checked
 * before the first call. */
START_TEST(bsl_watch_event_foreach_stops)
{
    static const char list[] = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"List\",\"items\":[{\"metadata\":{"
                               "\"name\":\"a\"}},{\"metadata\":{\"name\":\"b\"}},{\"metadata\":{\"name\":\"c\"}}]}}";
    static const char one[] = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}";
    velstatus_ctx *ctx = vs_test_ctx();
    for (int k = 0; k < 2; k++) {
        collected c = {NULL, NULL, 0, k ? 1 : 2};
        velstatus_watch_event *ev = NULL;
        velstatus_error err;
        ck_assert_int_eq(velstatus_bsl_set_new(&c.set, ctx, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_bsl_watch_event_foreach(&ev, ctx, k ? one : list, VELSTATUS_NUL_TERMINATED,
                                                           collect_bsl, &c, &err),
                         VELSTATUS_E_HOST);
        ck_assert_int_eq(err.host_code, -7);
        ck_assert_ptr_nonnull(strstr(err.message, "bsl"));
        ck_assert_ptr_nonnull(ev);
        ck_assert_int_eq(velstatus_watch_event_type(ev), k ? VELSTATUS_WATCH_ADDED : VELSTATUS_WATCH_MODIFIED);
        ck_assert_uint_eq(c.calls, (size_t)c.stop_at);
        ck_assert_uint_eq(velstatus_bsl_set_count(c.set), (size_t)c.stop_at - 1);
        velstatus_bsl_set_free(c.set);
        velstatus_watch_event_free(ev);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* Every allocation of velstatus_bsl_watch_event_foreach() may fail: then
 * nothing is left (the context's allocator counts), the error is E_NOMEM and
 * no BSL was handed out; a List and a single object with escaped texts. */
START_TEST(failalloc_bsl_watch_event)
{
    static const char *const js[2] = {"{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"List\",\"items\":[{\"metadata\":{"
                                      "\"name\":\"a\\u0062\"}},{\"metadata\":{\"name\":\"b\",\"namespace\":\"x\"}}]}}",
                                      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"n\\u0061me\":\"a\\u0062\"},"
                                      "\"status\":{\"message\":\"m\\n\"}}}"};
    velstatus_ctx *plain = vs_test_ctx(); /* the collected set's: its allocations never fail */
    velstatus_status st;
    for (int k = 0; k < 2; k++) {
        VS_FAILALLOC_LOOP(fa, ctx)
        {
            velstatus_watch_event *ev = NULL;
            collected c = {NULL, NULL, 0, 0};
            ck_assert_int_eq(velstatus_bsl_set_new(&c.set, plain, NULL), VELSTATUS_OK);
            st = velstatus_bsl_watch_event_foreach(&ev, ctx, js[k], VELSTATUS_NUL_TERMINATED, collect_bsl, &c, NULL);
            if (st == VELSTATUS_OK) {
                ck_assert_uint_eq(velstatus_bsl_set_count(c.set), k ? 1 : 2);
                ck_assert_str_eq(velstatus_bsl_set_name(c.set, 0), "ab");
            } else {
                ck_assert_int_eq(st, VELSTATUS_E_NOMEM);
                ck_assert_uint_eq(c.calls, 0);
            }
            velstatus_bsl_set_free(c.set);
            velstatus_watch_event_free(ev);
        }
        VS_FAILALLOC_END(fa, ctx, st);
    }
    velstatus_ctx_free(plain);
}
END_TEST

/* ---- the examples: library verdicts against the golden files the CLI test also uses ---- */

static char *read_example(const char *name, size_t *len)
{
    const char *src = getenv("VS_SRCDIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/examples/bsl/%s.json", src ? src : ".", name);
    return vs_test_read_file(path, len);
}

START_TEST(examples_match_golden_verdicts)
{
    static const char *const ex[] = {"all-available", "one-unavailable", "not-yet-validated",
                                     "no-default",    "two-defaults",    "empty"};
    static const velstatus_server_status want[] = {S_READY, S_PARTIAL, S_WAITING, S_PARTIAL, S_PARTIAL, S_WAITING};
    velstatus_ctx *ctx = vs_test_ctx();
    for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        size_t len, glen;
        char *text = read_example(ex[i], &len), rel[256], *golden, *j;
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        velstatus_error err;
        ck_assert_msg(velstatus_bsl_set_from_json(&set, ctx, text, len, &err) == VELSTATUS_OK, "%s: %s", ex[i],
                      err.message);
        ck_assert_int_eq(velstatus_server_status_classify(&v, set, NULL, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_server_verdict_status(v), want[i]);
        j = encode(v);
        snprintf(rel, sizeof(rel), "server-status/%s.json", ex[i]);
        golden = vs_test_read_data(rel, &glen);
        while (glen && golden[glen - 1] == '\n')
            golden[--glen] = '\0';
        ck_assert_msg(strcmp(j, golden) == 0, "%s:\n got  %s\n want %s", ex[i], j, golden);
        free(golden);
        velstatus_free(ctx, j);
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
        free(text);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* ---- failalloc: every allocating function ---- */

START_TEST(failalloc_set_new_add)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_bsl_set *set = NULL;
        st = velstatus_bsl_set_new(&set, ctx, NULL);
        if (st != VELSTATUS_OK) {
            ck_assert_ptr_null(set);
            break;
        }
        for (int i = 0; i < 20 && st == VELSTATUS_OK; i++) {
            char name[16];
            snprintf(name, sizeof(name), "bsl-%d", i);
            st = velstatus_bsl_set_add(set, name, strlen(name), "Available", 9, i == 3, VELSTATUS_BSL_READ_WRITE, 0, 0,
                                       0, 0, NULL);
            if (st != VELSTATUS_OK)
                ck_assert_uint_eq(velstatus_bsl_set_count(set), (size_t)i); /* unchanged by the failure */
        }
        velstatus_bsl_set_free(set);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

static const tb FA_TABLE[] = {
    {"default", "Available", 1, 0, 1, 0, 1, 0}, {"b", "Unavailable", 1}, {"c", "", 0}, {"d", "Odd", 0, 1}, {NULL}};

START_TEST(failalloc_classify)
{
    velstatus_status st;
    velstatus_server_status_options o;
    velstatus_server_status_options_init(&o, sizeof(o));
    o.check_stale = 1;
    o.stale_after_ns = SEC;
    o.now_ns = T0;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        st = velstatus_bsl_set_new(&set, ctx, NULL);
        if (st == VELSTATUS_OK)
            st = add_all(set, FA_TABLE);
        if (st == VELSTATUS_OK) {
            st = velstatus_server_status_classify(&v, set, &o, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_uint_eq(velstatus_server_verdict_total(v), 4);
            else
                ck_assert_ptr_null(v);
        }
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(failalloc_tracker)
{
    velstatus_status st;
    velstatus_server_status_options o;
    velstatus_server_status_options_init(&o, sizeof(o));
    o.default_location = "default";
    o.default_location_len = 7;
    o.check_stale = 1;
    o.stale_after_ns = SEC;
    o.now_ns = T0;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_server_tracker *t = NULL;
        velstatus_server_verdict *v = NULL;
        st = velstatus_server_tracker_new(&t, ctx, &o, NULL);
        if (st != VELSTATUS_OK) {
            ck_assert_ptr_null(t);
            break;
        }
        for (int i = 0; i < 24 && st == VELSTATUS_OK; i++) {
            char name[16];
            size_t count = velstatus_server_tracker_count(t);
            velstatus_server_status s = velstatus_server_tracker_status(t);
            uint32_t r = velstatus_server_tracker_reasons(t);
            int ch = -1;
            snprintf(name, sizeof(name), i % 6 == 5 ? "default" : "bsl-%d", i % 13); /* replacements too */
            st = vs_test_upsert(t, &ch, name, strlen(name), i % 4 ? "Available" : "Unavailable", i % 4 ? 9 : 11,
                                i % 3 == 0, VELSTATUS_BSL_READ_WRITE, 1, T0 + i * SEC, 1, T0, NULL);
            if (st != VELSTATUS_OK) { /* a failed upsert leaves the tracker as it was */
                ck_assert_int_eq(ch, 0);
                ck_assert_uint_eq(velstatus_server_tracker_count(t), count);
                ck_assert_int_eq(velstatus_server_tracker_status(t), s);
                ck_assert_uint_eq(velstatus_server_tracker_reasons(t), r);
            }
            if (st == VELSTATUS_OK && i % 5 == 4)
                st = velstatus_server_tracker_delete(t, NULL, "bsl-0", 5, NULL);
        }
        if (st == VELSTATUS_OK)
            st = velstatus_server_tracker_set_now(t, NULL, T0 + 2 * SEC, NULL);
        if (st == VELSTATUS_OK) {
            st = velstatus_server_tracker_verdict(&v, t, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_uint_eq(velstatus_server_verdict_total(v), velstatus_server_tracker_count(t));
            else
                ck_assert_ptr_null(v);
        }
        velstatus_server_verdict_free(v);
        velstatus_server_tracker_free(t);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(failalloc_json_decode_encode)
{
    velstatus_status st;
    size_t len;
    char *text = read_example("one-unavailable", &len);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_bsl_set *set = NULL;
        velstatus_server_verdict *v = NULL;
        char *out = NULL;
        st = velstatus_bsl_set_from_json(&set, ctx, text, len, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_server_status_classify(&v, set, NULL, NULL);
        if (st == VELSTATUS_OK) {
            st = velstatus_server_verdict_to_json(&out, NULL, v, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_ptr_nonnull(strstr(out, "\"secondary\""));
            else
                ck_assert_ptr_null(out);
        }
        velstatus_free(ctx, out);
        velstatus_server_verdict_free(v);
        velstatus_bsl_set_free(set);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    free(text);
}
END_TEST

START_TEST(failalloc_step)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        vs_fake_host fh;
        velstatus_server_status_host h;
        velstatus_server_verdict *v = NULL;
        int published = -1;
        vs_fake_host_init(&fh);
        fh.json = VS_FAKE_STEP_JSON;
        h = vs_fake_step_host(&fh);
        st = velstatus_server_status_step(&v, &published, ctx, &h, NULL, NULL, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_int_eq(published, 1);
            ck_assert_int_eq(fh.publishes, 1);
        } else {
            ck_assert_ptr_null(v);
            ck_assert_int_eq(published, 0);
            ck_assert_int_eq(fh.publishes, 0); /* nothing published on a failed step */
        }
        velstatus_server_verdict_free(v);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("server_status");
    TCase *tc = tcase_create("server_status");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, tokens_status);
    tcase_add_test(tc, tokens_reasons);
    tcase_add_test(tc, rules_table);
    tcase_add_test(tc, unknown_phase_kept_verbatim);
    tcase_add_test(tc, message_truncates_long_name_lists);
    tcase_add_test(tc, json_verdict_encoding);
    tcase_add_test(tc, set_rejects_bad_input);
    tcase_add_test(tc, options_rejected);
    tcase_add_test(tc, tracker_events_and_changes);
    tcase_add_test(tc, tracker_clock_moves_staleness);
    tcase_add_test(tc, tracker_last_transition);
    tcase_add_test(tc, tracker_property_random_events);
    tcase_add_test(tc, step_publishes_only_on_change);
    tcase_add_test(tc, step_host_faults);
    tcase_add_test(tc, step_publish_is_retried);
    tcase_add_test(tc, json_decode_shapes);
    tcase_add_test(tc, json_decode_errors_name_path_and_position);
    tcase_add_test(tc, bsl_set_get_gives_every_field);
    tcase_add_test(tc, tracker_bridges_from_decoded_set_and_json);
    tcase_add_test(tc, json_escaped_name_and_times);
    tcase_add_test(tc, tracker_upsert_json_errors);
    tcase_add_test(tc, tracker_upsert_record_checks);
    tcase_add_test(tc, examples_match_golden_verdicts);
    tcase_add_test(tc, failalloc_tracker_upsert_json);
    tcase_add_test(tc, bsl_watch_event_is_the_two_decoders);
    tcase_add_test(tc, failalloc_bsl_watch_event);
    tcase_add_test(tc, bsl_watch_event_foreach_stops);
    tcase_add_test(tc, upsert_json_past_the_scan_notes);
    tcase_add_test(tc, watch_event_kinds_and_errors);
    tcase_add_test(tc, failalloc_set_new_add);
    tcase_add_test(tc, failalloc_classify);
    tcase_add_test(tc, failalloc_tracker);
    tcase_add_test(tc, failalloc_json_decode_encode);
    tcase_add_test(tc, failalloc_step);
    suite_add_tcase(s, tc);
    return s;
}
