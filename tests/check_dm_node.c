/* SPDX-License-Identifier: Apache-2.0 */
/* The node-agent's decisions on a DataUpload / DataDownload
 * (velstatus_dm_decide): the per-release rows of
 * tests/data/releases/dm-node-agent.txt, the argument checks, and the
 * property that a decision is stable between the instants it names. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NS_PER_SEC INT64_C(1000000000)

/* One row, parsed: the texts point into `buf`. */
typedef struct dm_row {
    int line, minors[8], nminors;
    velstatus_dm_object o;
    velstatus_dm_config c;
    int64_t now;
    velstatus_dm_action action;
    velstatus_dm_when when;
    int has_at, cancel_after;
    int64_t at;
    velstatus_dm_phase after;
    int message_set;
    const char *message;
    char resume[128];
} dm_row;

static const char *const phase_tokens[] = {"New",      "Accepted",  "Prepared", "InProgress", "Canceling",
                                           "Canceled", "Completed", "Failed",   "Unknown"};

/* "08:05:21[.fff]" (2024-05-01, UTC) or a whole RFC 3339 text. */
static int64_t row_time(const char *s, int line)
{
    char full[80];
    int64_t ns = 0;
    velstatus_error e;
    if (strlen(s) < 20)
        snprintf(full, sizeof full, "2024-05-01T%sZ", s);
    else
        snprintf(full, sizeof full, "%s", s);
    ck_assert_msg(velstatus_time_parse(&ns, full, VELSTATUS_NUL_TERMINATED, &e) == VELSTATUS_OK, "line %d: time %s: %s",
                  line, s, e.message);
    return ns;
}

static int64_t row_duration(const char *s, int line)
{
    char *end;
    long v = strtol(s, &end, 10);
    int64_t unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : *end == 's' ? 1 : 0;
    ck_assert_msg(unit && v > 0, "line %d: duration %s", line, s);
    return (int64_t)v * unit * NS_PER_SEC;
}

static velstatus_dm_phase row_phase(const char *s, int line)
{
    size_t i;
    if (!*s)
        return VELSTATUS_DM_PHASE_NEW;
    for (i = 0; i < sizeof(phase_tokens) / sizeof(phase_tokens[0]); i++)
        if (strcmp(s, phase_tokens[i]) == 0)
            return (velstatus_dm_phase)i;
    (void)line;
    return VELSTATUS_DM_PHASE_UNKNOWN;
}

static void row_releases(dm_row *r, char *s)
{
    char *tok, *save = NULL;
    for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int a = 0, b = 0, lo, hi;
        if (sscanf(tok, "1.%d-1.%d", &a, &b) == 2) {
            lo = a;
            hi = b;
        } else {
            ck_assert_msg(sscanf(tok, "1.%d", &a) == 1, "line %d: releases %s", r->line, tok);
            lo = hi = a;
        }
        for (; lo <= hi; lo++)
            r->minors[r->nminors++] = lo;
    }
}

/* key=value words of the object column. */
static void row_object(dm_row *r, char *s)
{
    char *tok, *save = NULL;
    velstatus_dm_object_init(&r->o, sizeof r->o, NULL);
    for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *v = strchr(tok, '=');
        if (v)
            *v++ = '\0';
        if (!strcmp(tok, "du") || !strcmp(tok, "dd"))
            r->o.kind = tok[1] == 'u' ? VELSTATUS_DM_UPLOAD : VELSTATUS_DM_DOWNLOAD;
        else if (!strcmp(tok, "phase")) {
            r->o.phase = row_phase(v, r->line);
            r->o.phase_text = v;
            r->o.phase_text_len = strlen(v);
        } else if (!strcmp(tok, "cancel"))
            r->o.cancel = 1;
        else if (!strcmp(tok, "deleting"))
            r->o.deleting = 1;
        else if (!strcmp(tok, "ns"))
            r->o.ns = v, r->o.ns_len = VELSTATUS_NUL_TERMINATED;
        else if (!strcmp(tok, "name"))
            r->o.name = v, r->o.name_len = VELSTATUS_NUL_TERMINATED;
        else if (!strcmp(tok, "node"))
            r->o.node = v, r->o.node_len = VELSTATUS_NUL_TERMINATED;
        else if (!strcmp(tok, "label"))
            r->o.accepted_by_label = v, r->o.accepted_by_label_len = VELSTATUS_NUL_TERMINATED;
        else if (!strcmp(tok, "anno"))
            r->o.accepted_at_annotation = v, r->o.accepted_at_annotation_len = VELSTATUS_NUL_TERMINATED;
        else if (!strcmp(tok, "start"))
            r->o.has_start = 1, r->o.start_ns = row_time(v, r->line);
        else if (!strcmp(tok, "accepted"))
            r->o.has_accepted = 1, r->o.accepted_ns = row_time(v, r->line);
        else
            ck_abort_msg("line %d: object key %s", r->line, tok);
    }
}

static void row_config(dm_row *r, char *s)
{
    char *tok, *save = NULL;
    velstatus_dm_config_init(&r->c, sizeof r->c, NULL);
    for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *v = strchr(tok, '='), *at;
        if (!strcmp(tok, "-"))
            continue;
        ck_assert_msg(v != NULL, "line %d: config word %s", r->line, tok);
        *v++ = '\0';
        if (!strcmp(tok, "timeout"))
            r->c.prepare_timeout_ns = row_duration(v, r->line);
        else if (!strcmp(tok, "restart")) {
            at = strchr(v, '@');
            ck_assert_msg(at != NULL, "line %d: restart=TIME@NODE", r->line);
            *at++ = '\0';
            r->c.has_node_restart = 1;
            r->c.node_restart_ns = row_time(v, r->line);
            r->c.restart_node = at;
            r->c.restart_node_len = VELSTATUS_NUL_TERMINATED;
        } else if (!strcmp(tok, "server"))
            r->c.has_server_restart = 1, r->c.server_restart_ns = row_time(v, r->line);
        else if (!strcmp(tok, "seen"))
            r->c.has_cancel_seen = 1, r->c.cancel_seen_ns = row_time(v, r->line);
        else if (!strcmp(tok, "resume")) {
            size_t i;
            snprintf(r->resume, sizeof r->resume, "%s", v);
            for (i = 0; r->resume[i]; i++)
                if (r->resume[i] == '_')
                    r->resume[i] = ' ';
            r->c.resume_error = r->resume;
            r->c.resume_error_len = VELSTATUS_NUL_TERMINATED;
        } else
            ck_abort_msg("line %d: config key %s", r->line, tok);
    }
}

static void row_decision(dm_row *r, char *s)
{
    char *tok, *save = NULL;
    int i = 0;
    velstatus_error e;
    for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++) {
        if (i == 0)
            ck_assert_msg(velstatus_dm_action_from_string(&r->action, tok, VELSTATUS_NUL_TERMINATED, &e) == 0,
                          "line %d: %s", r->line, e.message);
        else if (i == 1)
            ck_assert_msg(velstatus_dm_when_from_string(&r->when, tok, VELSTATUS_NUL_TERMINATED, &e) == 0,
                          "line %d: %s", r->line, e.message);
        else if (!strncmp(tok, "at=", 3))
            r->has_at = 1, r->at = row_time(tok + 3, r->line);
        else if (!strncmp(tok, "after=", 6))
            r->after = row_phase(tok + 6, r->line);
        else if (!strncmp(tok, "cancel=", 7))
            r->cancel_after = tok[7] == '1';
        else
            ck_abort_msg("line %d: decision word %s", r->line, tok);
    }
}

/* Splits "a | b | ..." in place; returns the number of columns. */
static int columns(char *line, char **col, int max)
{
    int n = 0;
    char *p = line, *bar;
    while (n < max) {
        col[n++] = p;
        bar = strstr(p, " | ");
        if (!bar)
            break;
        *bar = '\0';
        p = bar + 3;
    }
    return n;
}

static int parse_row(dm_row *r, char *line, int lineno)
{
    char *col[7];
    memset(r, 0, sizeof *r);
    r->line = lineno;
    if (line[0] == '#' || line[0] == '\0')
        return 0;
    ck_assert_msg(columns(line, col, 7) == 7, "line %d: 7 columns wanted", lineno);
    row_releases(r, col[0]);
    row_object(r, col[1]);
    row_config(r, col[2]);
    r->now = row_time(col[3], lineno);
    row_decision(r, col[4]);
    r->message_set = col[5][0] == '=';
    r->message = r->message_set ? col[5] + 1 : NULL;
    return 1;
}

static void check_row(const dm_row *r, int minor)
{
    velstatus_dm_decision d;
    velstatus_error e;
    velstatus_status st;
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    st = velstatus_dm_decide(&r->o, r->now, 1, minor, &r->c, &d, &e);
    ck_assert_msg(st == VELSTATUS_OK, "line %d (1.%d): %s", r->line, minor, e.message);
    ck_assert_msg(d.action == r->action, "line %d (1.%d): action %s, want %s", r->line, minor,
                  velstatus_dm_action_to_string(d.action), velstatus_dm_action_to_string(r->action));
    ck_assert_msg(d.when == r->when, "line %d (1.%d): when %s, want %s", r->line, minor,
                  velstatus_dm_when_to_string(d.when), velstatus_dm_when_to_string(r->when));
    ck_assert_msg(d.has_at == r->has_at && (!r->has_at || d.at_ns == r->at),
                  "line %d (1.%d): at %d/%" PRId64 ", want %d/%" PRId64, r->line, minor, d.has_at, d.at_ns, r->has_at,
                  r->at);
    ck_assert_msg(d.phase_after == r->after, "line %d (1.%d): phase after %d, want %d", r->line, minor,
                  (int)d.phase_after, (int)r->after);
    ck_assert_msg(d.cancel_after == r->cancel_after, "line %d (1.%d): cancel after %d", r->line, minor, d.cancel_after);
    ck_assert_msg(d.message_set == r->message_set, "line %d (1.%d): message_set %d (\"%s\")", r->line, minor,
                  d.message_set, d.message);
    if (r->message_set)
        ck_assert_msg(strcmp(d.message, r->message) == 0 && d.message_len == strlen(r->message),
                      "line %d (1.%d): message\n  \"%s\"\nwant\n  \"%s\"", r->line, minor, d.message, r->message);
}

START_TEST(test_release_rows)
{
    size_t len;
    char *text = vs_test_read_data("releases/dm-node-agent.txt", &len), *line = text, *nl;
    int lineno = 0, rows = 0, per_release[8] = {0}, i;
    dm_row r;
    for (; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (!parse_row(&r, line, ++lineno))
            continue;
        for (i = 0; i < r.nminors; i++) {
            ck_assert_msg(r.minors[i] >= 12 && r.minors[i] <= 18, "line %d: release 1.%d", lineno, r.minors[i]);
            check_row(&r, r.minors[i]);
            per_release[r.minors[i] - 11]++;
        }
        rows++;
    }
    ck_assert_int_ge(rows, 60);
    for (i = 1; i < 8; i++)
        ck_assert_msg(per_release[i] >= 35, "release 1.%d has only %d cases", 11 + i, per_release[i]);
    free(text);
}
END_TEST

static velstatus_dm_decision decide_at(const velstatus_dm_object *o, const velstatus_dm_config *c, int minor,
                                       int64_t t);

/* A DataUpload Accepted at 08:05:21 by 1.18's fields. */
static velstatus_dm_object accepted_upload(void)
{
    velstatus_dm_object o;
    velstatus_dm_object_init(&o, sizeof o, NULL);
    o.kind = VELSTATUS_DM_UPLOAD;
    o.phase = VELSTATUS_DM_PHASE_ACCEPTED;
    o.has_accepted = 1;
    o.accepted_ns = row_time("08:05:21", 0);
    return o;
}

/* One refused call: its status, a message naming `needle`, and `out` untouched. */
static void refused(const velstatus_dm_object *o, int minor, const velstatus_dm_config *c, velstatus_status want,
                    const char *needle)
{
    velstatus_dm_decision d;
    velstatus_error e;
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    d.action = VELSTATUS_DM_ACTION_RESUME; /* a marker the call must not overwrite */
    ck_assert_int_eq(velstatus_dm_decide(o, 0, 1, minor, c, &d, &e), want);
    ck_assert_int_eq(e.code, want);
    ck_assert_msg(strstr(e.message, needle) != NULL, "message \"%s\" lacks \"%s\"", e.message, needle);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_RESUME);
}

START_TEST(test_refused)
{
    velstatus_dm_object o = accepted_upload(), bad;
    velstatus_dm_config c;
    velstatus_dm_decision d;
    velstatus_error e;
    char long_error[1100];
    velstatus_dm_config_init(&c, sizeof c, NULL);
    refused(&o, 11, NULL, VELSTATUS_E_INVALID, "1.11 has no data mover");
    refused(&o, 19, NULL, VELSTATUS_E_INVALID, "Velero 1.19 is not supported (supported: 1.11 to 1.18)");
    bad = o, bad.kind = (velstatus_dm_kind)2;
    refused(&bad, 18, NULL, VELSTATUS_E_INVALID, "kind is 2");
    bad = o, bad.phase = VELSTATUS_DM_PHASE_INVALID;
    refused(&bad, 18, NULL, VELSTATUS_E_INVALID, "phase is -1");
    bad = o, bad.node = NULL, bad.node_len = 3;
    refused(&bad, 18, NULL, VELSTATUS_E_INVALID, "object node is NULL with length 3");
    bad = o, bad.struct_size = 8;
    refused(&bad, 18, NULL, VELSTATUS_E_ABI, "dm_object");
    c.prepare_timeout_ns = -1;
    refused(&o, 18, &c, VELSTATUS_E_INVALID, "prepare_timeout_ns is negative");
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.has_node_restart = 1;
    refused(&o, 18, &c, VELSTATUS_E_INVALID, "without a restart_node");
    /* a resume error too long for the message */
    memset(long_error, 'x', sizeof long_error - 1);
    long_error[sizeof long_error - 1] = '\0';
    c.restart_node = "n1", c.restart_node_len = 2, c.node_restart_ns = 0, c.resume_error = long_error,
    c.resume_error_len = VELSTATUS_NUL_TERMINATED;
    bad = o, bad.phase = VELSTATUS_DM_PHASE_IN_PROGRESS, bad.node = "n1", bad.node_len = 2;
    refused(&bad, 18, &c, VELSTATUS_E_RANGE, "more than 1023");
    ck_assert_int_eq(velstatus_dm_decide(NULL, 0, 1, 18, NULL, &d, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "obj is NULL"));
    ck_assert_int_eq(velstatus_dm_decide(&o, 0, 1, 18, NULL, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "out is NULL"));
    d.struct_size = 4;
    ck_assert_int_eq(velstatus_dm_decide(&o, 0, 1, 18, NULL, &d, &e), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_dm_object_init(&o, 4, &e), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_dm_config_init(NULL, sizeof c, &e), VELSTATUS_E_INVALID);
}
END_TEST

/* Each text argument NULL with a length is refused by name, and a config
 * or a timeline event from a caller whose struct is too small (E_ABI). */
START_TEST(test_refused_fields)
{
    static const char *const obj_fields[] = {"phase_text", "ns", "name", "accepted_by_label", "accepted_at_annotation"};
    velstatus_dm_object o = accepted_upload(), bad;
    velstatus_dm_config c;
    velstatus_dm_decision ev[2];
    velstatus_error e;
    char want[80];
    size_t i, n = 7;
    for (i = 0; i < sizeof obj_fields / sizeof obj_fields[0]; i++) {
        bad = o;
        if (i == 0)
            bad.phase_text = NULL, bad.phase_text_len = 2;
        else if (i == 1)
            bad.ns = NULL, bad.ns_len = 2;
        else if (i == 2)
            bad.name = NULL, bad.name_len = 2;
        else if (i == 3)
            bad.accepted_by_label = NULL, bad.accepted_by_label_len = 2;
        else
            bad.accepted_at_annotation = NULL, bad.accepted_at_annotation_len = 2;
        snprintf(want, sizeof want, "object %s is NULL with length 2", obj_fields[i]);
        refused(&bad, 18, NULL, VELSTATUS_E_INVALID, want);
    }
    bad = o, bad.phase = (velstatus_dm_phase)(VELSTATUS_DM_PHASE_UNKNOWN + 1);
    snprintf(want, sizeof want, "phase is %d", (int)VELSTATUS_DM_PHASE_UNKNOWN + 1);
    refused(&bad, 18, NULL, VELSTATUS_E_INVALID, want);
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.restart_node = NULL, c.restart_node_len = 1;
    refused(&o, 18, &c, VELSTATUS_E_INVALID, "config restart_node is NULL with length 1");
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.resume_error = NULL, c.resume_error_len = 1;
    refused(&o, 18, &c, VELSTATUS_E_INVALID, "config resume_error is NULL with length 1");
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.struct_size = 4;
    refused(&o, 18, &c, VELSTATUS_E_ABI, "dm_config");
    /* the timeline's own checks */
    ck_assert_int_eq(velstatus_dm_timeline(NULL, 0, 1, 18, NULL, NULL, 0, &n, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "velstatus_dm_timeline: obj is NULL"));
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, NULL, 0, NULL, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "velstatus_dm_timeline: n is NULL"));
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, NULL, 1, &n, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "velstatus_dm_timeline: events is NULL"));
    velstatus_dm_decision_init(&ev[0], sizeof ev[0], NULL);
    velstatus_dm_decision_init(&ev[1], sizeof ev[1], NULL);
    ev[1].struct_size = 4;
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, ev, 2, &n, &e), VELSTATUS_E_ABI);
    ck_assert_ptr_nonnull(strstr(e.message, "dm_decision"));
    ck_assert_uint_eq(n, 7);
    bad = o, bad.name = NULL, bad.name_len = 3;
    ck_assert_int_eq(velstatus_dm_timeline(&bad, 0, 1, 18, NULL, NULL, 0, &n, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "object name is NULL with length 3"));
    /* the action and when tokens: unknown ones and a NULL out */
    ck_assert_int_eq(velstatus_dm_when_from_string(NULL, "at", 2, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_action_from_string(NULL, "accept", 6, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_null(velstatus_dm_when_to_string((velstatus_dm_when)99));
}
END_TEST

/* phase_text, when set, gives the phase (the `phase` field is ignored). */
START_TEST(test_phase_from_text)
{
    static const struct {
        const char *text;
        velstatus_dm_action action;
    } cases[] = {{"Prepared", VELSTATUS_DM_ACTION_START}, {"", VELSTATUS_DM_ACTION_ACCEPT},
                 {"New", VELSTATUS_DM_ACTION_ACCEPT},     {"InProgress", VELSTATUS_DM_ACTION_WAIT_DATA_PATH},
                 {"Paused", VELSTATUS_DM_ACTION_NONE},    {"prepared", VELSTATUS_DM_ACTION_NONE}};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        velstatus_dm_object o = accepted_upload();
        velstatus_dm_decision d;
        o.phase = VELSTATUS_DM_PHASE_INVALID;
        o.phase_text = cases[i].text;
        o.phase_text_len = VELSTATUS_NUL_TERMINATED;
        d = decide_at(&o, NULL, 18, 0);
        ck_assert_msg(d.action == cases[i].action, "\"%s\": %s", cases[i].text,
                      velstatus_dm_action_to_string(d.action));
    }
}
END_TEST

START_TEST(test_tokens_and_defaults)
{
    velstatus_dm_action a;
    velstatus_dm_when w;
    velstatus_error e;
    int64_t t = 0;
    int minor;
    ck_assert_str_eq(velstatus_dm_action_to_string(VELSTATUS_DM_ACTION_WAIT_DATA_PATH), "wait_data_path");
    ck_assert_ptr_null(velstatus_dm_action_to_string((velstatus_dm_action)10));
    ck_assert_ptr_null(velstatus_dm_action_to_string(VELSTATUS_DM_ACTION_INVALID));
    ck_assert_int_eq(velstatus_dm_action_from_string(&a, "set_cancel", VELSTATUS_NUL_TERMINATED, &e), 0);
    ck_assert_int_eq(a, VELSTATUS_DM_ACTION_SET_CANCEL);
    ck_assert_int_eq(velstatus_dm_action_from_string(&a, "Cancel", 6, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_when_from_string(&w, "at", 2, &e), 0);
    ck_assert_int_eq(w, VELSTATUS_DM_WHEN_AT);
    ck_assert_str_eq(velstatus_dm_when_to_string(VELSTATUS_DM_WHEN_NEVER), "never");
    for (minor = 12; minor <= 18; minor++) {
        ck_assert_int_eq(velstatus_dm_prepare_timeout_default(1, minor, &t, &e), 0);
        ck_assert_int_eq(t, 30 * 60 * NS_PER_SEC);
    }
    ck_assert_int_eq(velstatus_dm_prepare_timeout_default(1, 11, &t, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_prepare_timeout_default(1, 12, NULL, &e), VELSTATUS_E_INVALID);
}
END_TEST

/* A decision's fields, compared whole. */
static int same_decision(const velstatus_dm_decision *a, const velstatus_dm_decision *b, int same_when)
{
    int same_at = a->has_at == b->has_at && (!a->has_at || a->at_ns == b->at_ns);
    /* a change due now may be due by two rules (1.17's forced cancel and
     * the phase's own cancel): the instant is then not part of it */
    if (a->when == VELSTATUS_DM_WHEN_NOW && b->when == VELSTATUS_DM_WHEN_NOW)
        same_at = 1;
    return a->action == b->action && (!same_when || a->when == b->when) && same_at &&
           a->phase_after == b->phase_after && a->cancel_after == b->cancel_after && a->message_set == b->message_set &&
           a->message_len == b->message_len && memcmp(a->message, b->message, a->message_len) == 0;
}

/* Deterministic random numbers (xorshift64*). */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static int64_t rnd_instant(uint64_t *s, int64_t base)
{
    /* within two hours of base, on whole seconds or on any nanosecond */
    int64_t off = (int64_t)(rnd(s) % 7200) * NS_PER_SEC;
    if (rnd(s) % 2)
        off += (int64_t)(rnd(s) % NS_PER_SEC);
    return base + off - 3600 * NS_PER_SEC;
}

static void rnd_case(uint64_t *s, int64_t base, velstatus_dm_object *o, velstatus_dm_config *c, int *minor)
{
    static const char *const nodes[] = {"node-1", "node-2"};
    velstatus_dm_object_init(o, sizeof *o, NULL);
    velstatus_dm_config_init(c, sizeof *c, NULL);
    *minor = 12 + (int)(rnd(s) % 7);
    o->kind = (velstatus_dm_kind)(rnd(s) % 2);
    /* Accepted half the time: its timeout is the rule with the most instants */
    o->phase = rnd(s) % 2 ? VELSTATUS_DM_PHASE_ACCEPTED : (velstatus_dm_phase)(rnd(s) % 9);
    o->cancel = rnd(s) % 3 == 0;
    o->deleting = rnd(s) % 8 == 0;
    o->node = nodes[rnd(s) % 2], o->node_len = 6;
    o->accepted_by_label = nodes[rnd(s) % 2], o->accepted_by_label_len = 6;
    o->accepted_at_annotation = rnd(s) % 2 ? "2024-05-01T08:05:21Z" : NULL;
    o->accepted_at_annotation_len = o->accepted_at_annotation ? VELSTATUS_NUL_TERMINATED : 0;
    o->has_start = rnd(s) % 4 != 0, o->start_ns = rnd_instant(s, base);
    o->has_accepted = rnd(s) % 4 != 0, o->accepted_ns = rnd_instant(s, base);
    c->prepare_timeout_ns = rnd(s) % 2 ? 0 : (int64_t)(1 + rnd(s) % 3600) * NS_PER_SEC;
    c->has_node_restart = rnd(s) % 3 == 0, c->node_restart_ns = rnd_instant(s, base);
    c->restart_node = nodes[rnd(s) % 2], c->restart_node_len = 6;
    c->has_server_restart = rnd(s) % 4 == 0, c->server_restart_ns = rnd_instant(s, base);
    c->has_cancel_seen = rnd(s) % 2, c->cancel_seen_ns = rnd_instant(s, base);
    c->resume_error = rnd(s) % 2 ? "boom" : NULL, c->resume_error_len = c->resume_error ? 4 : 0;
}

static velstatus_dm_decision decide_at(const velstatus_dm_object *o, const velstatus_dm_config *c, int minor, int64_t t)
{
    velstatus_dm_decision d;
    velstatus_error e;
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    ck_assert_msg(velstatus_dm_decide(o, t, 1, minor, c, &d, &e) == VELSTATUS_OK, "%s", e.message);
    return d;
}

/* Restart rules: a message too long for a restart still to come (decide
 * and timeline), a canceled InProgress object resumed whatever the resume
 * error (1.15+). */
START_TEST(test_restart_edges)
{
    velstatus_dm_object o = accepted_upload();
    velstatus_dm_config c;
    velstatus_dm_decision d, ev[4];
    velstatus_error e;
    char long_error[1100];
    size_t n = 9;
    int64_t now = row_time("08:10:00", 0);
    memset(long_error, 'x', sizeof long_error - 1);
    long_error[sizeof long_error - 1] = '\0';
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.has_node_restart = 1, c.restart_node = "n1", c.restart_node_len = 2;
    c.node_restart_ns = row_time("08:20:00", 0);
    c.resume_error = long_error, c.resume_error_len = VELSTATUS_NUL_TERMINATED;
    o.phase = VELSTATUS_DM_PHASE_IN_PROGRESS, o.node = "n1", o.node_len = 2;
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    ck_assert_int_eq(velstatus_dm_decide(&o, now, 1, 18, &c, &d, &e), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(e.message, "more than 1023"));
    velstatus_dm_decision_init(&ev[0], sizeof ev[0], NULL);
    ck_assert_int_eq(velstatus_dm_timeline(&o, now, 1, 18, &c, ev, 1, &n, &e), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(e.message, "more than 1023"));
    ck_assert_uint_eq(n, 9);
    /* canceled and InProgress on the restarting node: resumed, still canceled */
    c.resume_error = "boom", c.resume_error_len = 4, c.node_restart_ns = now;
    o.cancel = 1;
    d = decide_at(&o, &c, 15, now);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_RESUME);
    ck_assert_int_eq(d.when, VELSTATUS_DM_WHEN_NOW);
    ck_assert_int_eq(d.cancel_after, 1);
    ck_assert_int_eq(d.message_set, 0);
    o.cancel = 0;
    d = decide_at(&o, &c, 15, now);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_SET_CANCEL);
    ck_assert_str_eq(d.message, "Resume InProgress dataupload failed with error boom, mark it as cancel");
}
END_TEST

/* For random objects, configs, releases and instants: a decision "at T"
 * is the same decision at every instant in [now, T) and falls due at T
 * with the same action, phase, cancel and message; a "never" decision is
 * the same at every later instant. (A decision due now happens at the next
 * pass: what would follow if it did not is not a decision.) */
START_TEST(test_stable_between_instants)
{
    uint64_t s = UINT64_C(0x9E3779B97F4A7C15);
    int64_t base = row_time("08:30:00", 0);
    long n = vs_test_iterations(20000), i, timed = 0, never = 0;
    for (i = 0; i < n; i++) {
        velstatus_dm_object o;
        velstatus_dm_config c;
        velstatus_dm_decision d0, d1;
        int minor;
        int64_t now, t;
        rnd_case(&s, base, &o, &c, &minor);
        now = rnd_instant(&s, base);
        d0 = decide_at(&o, &c, minor, now);
        if (d0.when == VELSTATUS_DM_WHEN_AT) {
            timed++;
            ck_assert_msg(d0.has_at && d0.at_ns > now, "case %ld: AT without a later instant", i);
            t = now + (int64_t)(rnd(&s) % (uint64_t)(d0.at_ns - now));
            d1 = decide_at(&o, &c, minor, t);
            ck_assert_msg(same_decision(&d0, &d1, 1), "case %ld (1.%d): %s at %" PRId64 " became %s/%s before it", i,
                          minor, velstatus_dm_action_to_string(d0.action), d0.at_ns,
                          velstatus_dm_action_to_string(d1.action), velstatus_dm_when_to_string(d1.when));
            d1 = decide_at(&o, &c, minor, d0.at_ns);
            ck_assert_msg(same_decision(&d0, &d1, 0) && d1.when == VELSTATUS_DM_WHEN_NOW,
                          "case %ld (1.%d): %s did not fall due at its instant (%s/%s)", i, minor,
                          velstatus_dm_action_to_string(d0.action), velstatus_dm_action_to_string(d1.action),
                          velstatus_dm_when_to_string(d1.when));
            continue;
        }
        if (d0.when != VELSTATUS_DM_WHEN_NEVER)
            continue; /* due now: it happens at the next pass */
        never++;
        t = now + (int64_t)(rnd(&s) % (uint64_t)(4 * 3600 * NS_PER_SEC));
        d1 = decide_at(&o, &c, minor, t);
        ck_assert_msg(same_decision(&d0, &d1, 1), "case %ld (1.%d): %s/%s changed to %s/%s with no instant between", i,
                      minor, velstatus_dm_action_to_string(d0.action), velstatus_dm_when_to_string(d0.when),
                      velstatus_dm_action_to_string(d1.action), velstatus_dm_when_to_string(d1.when));
    }
    ck_assert_msg(timed * 10 > n && never * 10 > n,
                  "%ld timed and %ld waiting cases of %ld: the generator misses rules", timed, never, n);
}
END_TEST

/* A caller of the first version and a newer one with a zero tail are both
 * accepted; a newer one with a non-zero tail is refused (E_ABI). */
START_TEST(test_older_and_newer_callers)
{
    struct {
        velstatus_dm_object o;
        unsigned char tail[64];
    } big;
    struct {
        velstatus_dm_decision d;
        unsigned char tail[64];
    } out;
    velstatus_error e;
    memset(&big, 0, sizeof big);
    big.o = accepted_upload();
    big.o.struct_size = sizeof big;
    ck_assert_int_eq(velstatus_dm_decision_init(&out.d, sizeof out, &e), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_decide(&big.o, 0, 1, 18, NULL, &out.d, &e), VELSTATUS_OK);
    ck_assert_int_eq(out.d.action, VELSTATUS_DM_ACTION_FAIL);
    ck_assert_uint_eq(out.d.struct_size, sizeof out);
    big.tail[5] = 1;
    ck_assert_int_eq(velstatus_dm_decide(&big.o, 0, 1, 18, NULL, &out.d, &e), VELSTATUS_E_ABI);
    big.o.struct_size = (uint32_t)offsetof(velstatus_dm_object, accepted_ns) + 8; /* v1 */
    ck_assert_int_eq(velstatus_dm_decide(&big.o, 0, 1, 18, NULL, &out.d, &e), VELSTATUS_OK);
}
END_TEST

/* Objects written as `kubectl get datauploads,datadownloads -o json` writes
 * them (our own, in the fields each release writes): a DataUpload accepted
 * by 1.15 (label and annotation), a canceled DataDownload accepted by 1.16
 * (status fields), an InProgress DataUpload being deleted. */
static const char next_json[] =
    "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
    "{\"apiVersion\":\"velero.io/v2alpha1\",\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"nightly-x7k2p\","
    "\"namespace\":\"velero\",\"labels\":{\"velero.io/accepted-by\":\"node-1\"},"
    "\"annotations\":{\"velero.io/accepted-at\":\"2024-05-01T08:05:21Z\"}},"
    "\"spec\":{\"snapshotType\":\"CSI\"},\"status\":{\"phase\":\"Accepted\",\"startTimestamp\":\"2024-05-01T07:00:"
    "00Z\"}},"
    "{\"apiVersion\":\"velero.io/v2alpha1\",\"kind\":\"DataDownload\",\"metadata\":{\"name\":\"r1-abcde\","
    "\"namespace\":\"velero\"},\"spec\":{\"cancel\":true},\"status\":{\"phase\":\"Accepted\","
    "\"acceptedByNode\":\"node-2\",\"acceptedTimestamp\":\"2024-05-01T08:05:21Z\"}},"
    "{\"apiVersion\":\"velero.io/v2alpha1\",\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"nightly-q9w8e\","
    "\"namespace\":\"velero\",\"deletionTimestamp\":\"2024-05-01T08:09:00Z\"},\"spec\":{},"
    "\"status\":{\"phase\":\"InProgress\",\"node\":\"node-1\"}}]}";

START_TEST(test_next_from_decoded_objects)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_dm_list *l = NULL;
    velstatus_dm_decision d;
    velstatus_dm_config c;
    velstatus_error e;
    int64_t now = row_time("08:10:00", 0);
    ck_assert_int_eq(velstatus_dm_list_from_json(&l, ctx, next_json, sizeof next_json - 1, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_dm_list_count(l), 3);
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    /* 1.15 counts from the annotation (not startTimestamp) */
    ck_assert_int_eq(velstatus_dm_next(l, 0, now, 1, 15, NULL, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_FAIL);
    ck_assert_int_eq(d.when, VELSTATUS_DM_WHEN_AT);
    ck_assert_int_eq(d.at_ns, row_time("08:35:21", 0));
    /* 1.14 from startTimestamp: long past */
    ck_assert_int_eq(velstatus_dm_next(l, 0, now, 1, 14, NULL, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.when, VELSTATUS_DM_WHEN_NOW);
    ck_assert_int_eq(d.at_ns, row_time("07:30:00", 0));
    /* 1.13 restart on node-1: the label names it */
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.has_node_restart = 1, c.node_restart_ns = now, c.restart_node = "node-1", c.restart_node_len = 6;
    ck_assert_int_eq(velstatus_dm_next(l, 0, now, 1, 13, &c, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_SET_CANCEL);
    ck_assert_str_eq(d.message,
                     "found a dataupload with status \"Accepted\" during the node-agent starting, mark it as cancel");
    /* the canceled DataDownload: at once in 1.16, by the forced cancel in 1.17 */
    ck_assert_int_eq(velstatus_dm_next(l, 1, now, 1, 16, NULL, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_CANCELED);
    ck_assert_int_eq(d.when, VELSTATUS_DM_WHEN_NOW);
    c.has_node_restart = 0, c.has_cancel_seen = 1, c.cancel_seen_ns = now;
    ck_assert_int_eq(velstatus_dm_next(l, 1, now, 1, 17, &c, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_CANCELED);
    ck_assert_int_eq(d.when, VELSTATUS_DM_WHEN_AT);
    ck_assert_int_eq(d.at_ns, now + 5 * 60 * NS_PER_SEC + 1);
    /* being deleted: spec.cancel with the release's message */
    ck_assert_int_eq(velstatus_dm_next(l, 2, now, 1, 12, NULL, &d, &e), VELSTATUS_OK);
    ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_SET_CANCEL);
    ck_assert_str_eq(d.message, "found a dataupload velero/nightly-q9w8e is being deleted, mark it as cancel");
    ck_assert_int_eq(velstatus_dm_next(l, 3, now, 1, 18, NULL, &d, &e), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(e.message, "index 3 is out of range (3 objects)"));
    ck_assert_int_eq(velstatus_dm_next(NULL, 0, now, 1, 18, NULL, &d, &e), VELSTATUS_E_INVALID);
    velstatus_dm_list_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

/* The Completed objects pasted in openshift/oadp-operator #1482: nothing
 * more happens to them in any release. */
START_TEST(test_next_oadp_1482)
{
    size_t len, i;
    char *text = vs_test_read_data("datamover/oadp-1482-list.json", &len);
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_dm_list *l = NULL;
    velstatus_dm_decision d;
    velstatus_error e;
    int minor;
    ck_assert_int_eq(velstatus_dm_list_from_json(&l, ctx, text, len, &e), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_dm_list_count(l), 2);
    velstatus_dm_decision_init(&d, sizeof d, NULL);
    for (minor = 12; minor <= 18; minor++)
        for (i = 0; i < 2; i++) {
            ck_assert_int_eq(velstatus_dm_next(l, i, row_time("2024-08-13T18:00:00Z", 0), 1, minor, NULL, &d, &e),
                             VELSTATUS_OK);
            ck_assert_int_eq(d.action, VELSTATUS_DM_ACTION_NONE);
            ck_assert_int_eq(d.phase_after, VELSTATUS_DM_PHASE_COMPLETED);
        }
    velstatus_dm_list_free(l);
    velstatus_ctx_free(ctx);
    free(text);
}
END_TEST

/* One expected event of a timeline. */
typedef struct tl_event {
    velstatus_dm_action action;
    const char *at;
    const char *message; /* NULL: left as it is */
} tl_event;

static void expect_timeline(const char *name, const velstatus_dm_object *o, const velstatus_dm_config *c, int minor,
                            const char *now, const tl_event *want, size_t nwant)
{
    velstatus_dm_decision ev[8];
    velstatus_error e;
    size_t n = 99, i;
    for (i = 0; i < 8; i++)
        velstatus_dm_decision_init(&ev[i], sizeof ev[i], NULL);
    ck_assert_msg(velstatus_dm_timeline(o, row_time(now, 0), 1, minor, c, ev, 8, &n, &e) == VELSTATUS_OK, "%s: %s",
                  name, e.message);
    ck_assert_msg(n == nwant, "%s: %zu events, want %zu", name, n, nwant);
    for (i = 0; i < n; i++) {
        ck_assert_msg(ev[i].action == want[i].action, "%s: event %zu is %s", name, i,
                      velstatus_dm_action_to_string(ev[i].action));
        ck_assert_msg(ev[i].has_at && ev[i].at_ns == row_time(want[i].at, 0), "%s: event %zu at %" PRId64, name, i,
                      ev[i].at_ns);
        if (want[i].message)
            ck_assert_msg(ev[i].message_set && strcmp(ev[i].message, want[i].message) == 0, "%s: event %zu \"%s\"",
                          name, i, ev[i].message);
        else
            ck_assert_msg(!ev[i].message_set, "%s: event %zu writes \"%s\"", name, i, ev[i].message);
    }
}

START_TEST(test_timeline)
{
    velstatus_dm_object o;
    velstatus_dm_config c;
    velstatus_dm_decision ev[1];
    velstatus_error e;
    size_t n = 0;
    static const tl_event new_18[] = {{VELSTATUS_DM_ACTION_ACCEPT, "08:00:00", NULL},
                                      {VELSTATUS_DM_ACTION_FAIL, "08:30:00", "timeout on preparing data upload"}};
    /* 1.15 writes the accept instant in whole seconds: the timeout comes half a second early */
    static const tl_event new_15[] = {{VELSTATUS_DM_ACTION_ACCEPT, "08:00:00.5", NULL},
                                      {VELSTATUS_DM_ACTION_FAIL, "08:30:00", "timeout on preparing data download"}};
    static const tl_event cancel_17[] = {{VELSTATUS_DM_ACTION_CANCELING, "08:10:00", NULL},
                                         {VELSTATUS_DM_ACTION_CANCELED, "08:15:00.000000001", NULL}};
    static const tl_event restart_16[] = {
        {VELSTATUS_DM_ACTION_SET_CANCEL, "08:20:00",
         "Dataupload is in Accepted status during the node-agent starting, mark it as cancel"},
        {VELSTATUS_DM_ACTION_CANCELED, "08:20:00", NULL}};
    static const tl_event server_12[] = {
        {VELSTATUS_DM_ACTION_SET_CANCEL, "08:20:00",
         "found a dataupload with status \"InProgress\" during the velero server starting, mark it as cancel"},
        {VELSTATUS_DM_ACTION_CANCELING, "08:20:00", NULL}};
    static const tl_event resume_15[] = {{VELSTATUS_DM_ACTION_RESUME, "08:20:00", NULL}};

    velstatus_dm_object_init(&o, sizeof o, NULL);
    expect_timeline("new 1.18", &o, NULL, 18, "08:00:00", new_18, 2);
    o.kind = VELSTATUS_DM_DOWNLOAD;
    expect_timeline("new 1.15", &o, NULL, 15, "08:00:00.5", new_15, 2);

    velstatus_dm_object_init(&o, sizeof o, NULL);
    velstatus_dm_config_init(&c, sizeof c, NULL);
    o.phase = VELSTATUS_DM_PHASE_IN_PROGRESS, o.cancel = 1, o.node = "node-1", o.node_len = 6;
    c.has_cancel_seen = 1, c.cancel_seen_ns = row_time("08:10:00", 0);
    expect_timeline("cancel 1.17", &o, &c, 17, "08:10:00", cancel_17, 2);

    velstatus_dm_object_init(&o, sizeof o, NULL);
    velstatus_dm_config_init(&c, sizeof c, NULL);
    o.phase = VELSTATUS_DM_PHASE_ACCEPTED, o.has_accepted = 1, o.accepted_ns = row_time("08:05:21", 0);
    c.has_node_restart = 1, c.node_restart_ns = row_time("08:20:00", 0), c.restart_node = "node-9",
    c.restart_node_len = 6;
    expect_timeline("restart 1.16", &o, &c, 16, "08:10:00", restart_16, 2);

    velstatus_dm_object_init(&o, sizeof o, NULL);
    velstatus_dm_config_init(&c, sizeof c, NULL);
    o.phase = VELSTATUS_DM_PHASE_IN_PROGRESS, o.node = "node-1", o.node_len = 6;
    c.has_server_restart = 1, c.server_restart_ns = row_time("08:20:00", 0);
    c.has_node_restart = 1, c.node_restart_ns = row_time("08:25:00", 0), c.restart_node = "node-1",
    c.restart_node_len = 6;
    expect_timeline("server 1.12", &o, &c, 12, "08:10:00", server_12, 2);
    c.has_server_restart = 0, c.node_restart_ns = row_time("08:20:00", 0);
    expect_timeline("resume 1.15", &o, &c, 15, "08:10:00", resume_15, 1);

    /* more events than room: the count, and the first ones */
    velstatus_dm_object_init(&o, sizeof o, NULL);
    velstatus_dm_decision_init(&ev[0], sizeof ev[0], NULL);
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, ev, 1, &n, &e), VELSTATUS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ev[0].action, VELSTATUS_DM_ACTION_ACCEPT);
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, NULL, 0, &n, &e), VELSTATUS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 18, NULL, NULL, 1, &n, &e), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_dm_timeline(&o, 0, 1, 11, NULL, NULL, 0, &n, &e), VELSTATUS_E_INVALID);
}
END_TEST

/* For random cases: a timeline's first event is decide()'s decision, its
 * instants never go back, and it is empty exactly when nothing is timed or
 * due. */
START_TEST(test_timeline_agrees_with_decide)
{
    uint64_t s = UINT64_C(0x2545F4914F6CDD1D);
    int64_t base = row_time("08:30:00", 0);
    long n = vs_test_iterations(5000), i;
    for (i = 0; i < n; i++) {
        velstatus_dm_object o;
        velstatus_dm_config c;
        velstatus_dm_decision d, ev[16];
        velstatus_error e;
        size_t k, m = 0;
        int minor;
        int64_t now;
        rnd_case(&s, base, &o, &c, &minor);
        now = rnd_instant(&s, base);
        d = decide_at(&o, &c, minor, now);
        for (k = 0; k < 16; k++)
            velstatus_dm_decision_init(&ev[k], sizeof ev[k], NULL);
        ck_assert_msg(velstatus_dm_timeline(&o, now, 1, minor, &c, ev, 16, &m, &e) == VELSTATUS_OK, "%s", e.message);
        ck_assert_msg((m == 0) == (d.when == VELSTATUS_DM_WHEN_NEVER), "case %ld: %zu events for %s", i, m,
                      velstatus_dm_when_to_string(d.when));
        if (m == 0)
            continue;
        ck_assert_msg(ev[0].action == d.action && ev[0].when == d.when && ev[0].phase_after == d.phase_after &&
                          ev[0].at_ns == (d.when == VELSTATUS_DM_WHEN_AT ? d.at_ns : now),
                      "case %ld: first event %s, decision %s", i, velstatus_dm_action_to_string(ev[0].action),
                      velstatus_dm_action_to_string(d.action));
        for (k = 1; k < m && k < 16; k++)
            ck_assert_msg(ev[k].at_ns >= ev[k - 1].at_ns, "case %ld: event %zu goes back", i, k);
    }
}
END_TEST

/* Two running operations of a backup whose DataUploads (found by the
 * async-operation-id label) are Accepted (at 08:05:21) and Canceling, and a
 * Completed operation: the instants its objects change at. */
static const char ops_json[] =
    "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-a\"},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T08:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-b\"},"
    "\"status\":{\"phase\":\"InProgress\",\"created\":\"2024-05-01T08:00:00Z\"}},"
    "{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"operationID\":\"du-c\"},"
    "\"status\":{\"phase\":\"Completed\",\"created\":\"2024-05-01T08:00:00Z\"}}]";
static const char dus_json[] =
    "{\"kind\":\"DataUploadList\",\"items\":["
    "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"a\",\"namespace\":\"velero\","
    "\"labels\":{\"velero.io/async-operation-id\":\"du-a\"}},"
    "\"status\":{\"phase\":\"Accepted\",\"acceptedTimestamp\":\"2024-05-01T08:05:21Z\"}},"
    "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"b\",\"namespace\":\"velero\","
    "\"labels\":{\"velero.io/async-operation-id\":\"du-b\"}},\"spec\":{\"cancel\":true},"
    "\"status\":{\"phase\":\"Canceling\",\"node\":\"node-1\"}},"
    "{\"kind\":\"DataUpload\",\"metadata\":{\"name\":\"c\",\"namespace\":\"velero\","
    "\"labels\":{\"velero.io/async-operation-id\":\"du-c\"}},\"status\":{\"phase\":\"Accepted\","
    "\"acceptedTimestamp\":\"2024-05-01T08:05:21Z\"}}]}";

START_TEST(test_forecast_dm_instants)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *ops = NULL;
    velstatus_dm_list *dms = NULL;
    velstatus_dm_config c;
    velstatus_error e;
    int64_t at[8], now = row_time("08:10:00", 0);
    size_t n = 0;
    ck_assert_int_eq(velstatus_oplist_from_json(&ops, ctx, VELSTATUS_KIND_BACKUP, ops_json, sizeof ops_json - 1, &e),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_dm_list_from_json(&dms, ctx, dus_json, sizeof dus_json - 1, &e), VELSTATUS_OK);
    /* 1.18: du-a's prepare timeout; du-b waits on its data path; du-c's operation is done */
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 18, NULL, at, 8, &n, &e), VELSTATUS_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(at[0], row_time("08:35:21", 0));
    /* with the cancel seen at 08:10, du-b is forced to Canceled 5 minutes later */
    velstatus_dm_config_init(&c, sizeof c, NULL);
    c.has_cancel_seen = 1, c.cancel_seen_ns = now;
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, "velero", 6, now, 1, 18, &c, at, 8, &n, &e),
                     VELSTATUS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(at[0], now + 5 * 60 * NS_PER_SEC + 1);
    ck_assert_int_eq(at[1], row_time("08:35:21", 0));
    /* a node-agent restart at 08:20 (1.16): du-a is canceled then, at once */
    c.has_cancel_seen = 0, c.has_node_restart = 1, c.node_restart_ns = row_time("08:20:00", 0);
    c.restart_node = "node-1", c.restart_node_len = 6;
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 16, &c, at, 8, &n, &e), VELSTATUS_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(at[0], row_time("08:20:00", 0));
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 16, &c, at, 0, &n, &e),
                     VELSTATUS_E_RANGE);
    ck_assert_int_eq(velstatus_forecast_dm_instants(ops, dms, NULL, 0, now, 1, 11, &c, at, 8, &n, &e),
                     VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_forecast_dm_instants(NULL, dms, NULL, 0, now, 1, 18, &c, at, 8, &n, &e),
                     VELSTATUS_E_INVALID);
    velstatus_dm_list_free(dms);
    velstatus_oplist_free(ops);
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("dm_node");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_release_rows);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_refused_fields);
    tcase_add_test(tc, test_restart_edges);
    tcase_add_test(tc, test_tokens_and_defaults);
    tcase_add_test(tc, test_phase_from_text);
    tcase_add_test(tc, test_stable_between_instants);
    tcase_add_test(tc, test_older_and_newer_callers);
    tcase_add_test(tc, test_next_from_decoded_objects);
    tcase_add_test(tc, test_next_oadp_1482);
    tcase_add_test(tc, test_timeline);
    tcase_add_test(tc, test_timeline_agrees_with_decide);
    tcase_add_test(tc, test_forecast_dm_instants);
    suite_add_tcase(s, tc);
    return s;
}
