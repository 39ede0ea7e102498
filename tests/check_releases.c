/* SPDX-License-Identifier: Apache-2.0 */
/* Velero releases 1.11 to 1.18 (doc/velero-releases.md): the per-release
 * presets, the operations controllers' own unit tests of each release tag run
 * as data (tests/data/releases/operations-controllers.txt) under that
 * release's preset, each difference between consecutive releases shown by a
 * case that passes under one preset and fails under the other, and the
 * itemoperations files of every release decoded. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "fake_host.h"
#include "harness.h"
#include "phase/private.h"

#define P(x) VELSTATUS_PHASE_##x
#define NOW_TEXT "2024-05-01T12:00:00Z"
#define NS_PER_MIN INT64_C(60000000000)

/* ---- the table ---- */

enum { C_NAME, C_RELEASES, C_KIND, C_PHASE, C_BSL, C_TIMEOUT, C_OPS, C_WANT_PHASE, C_WANT_ERRS, C_CONTRAST, NCOLS };

typedef struct row {
    char *col[NCOLS];
    int line;
} row;

/* Splits one table line at " | " into r; 0 when it is not a row. */
static int split_row(char *line, row *r)
{
    vs_test_split_row(line, r->col, NCOLS, r->line);
    return 1;
}

/* Reads the table; *n rows into a malloc'ed array (the text is kept in *buf). */
static row *read_table(char **buf, size_t *n)
{
    size_t len, cap = 64;
    row *rows = malloc(cap * sizeof(*rows));
    char *save = NULL, *line;
    int lineno = 0;
    *buf = vs_test_read_data("releases/operations-controllers.txt", &len);
    *n = 0;
    ck_assert_ptr_nonnull(rows);
    for (line = strtok_r(*buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (line[0] == '#' || vs_test_trim(line)[0] == '\0')
            continue;
        ck_assert(*n < cap);
        rows[*n].line = lineno;
        if (split_row(line, &rows[*n]))
            (*n)++;
    }
    return rows;
}

static velstatus_phase phase_of(const char *s)
{
    velstatus_phase ph;
    if (strcmp(s, "Waiting") == 0)
        return P(WAITING_FOR_PLUGIN_OPERATIONS);
    if (strcmp(s, "WaitingPF") == 0)
        return P(WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED);
    ck_assert_int_eq(velstatus_phase_from_string(&ph, s, VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    return ph;
}

/* ---- one case ---- */

typedef struct run_out {
    velstatus_phase phase;
    char errs[1024]; /* ";"-joined, "-" for none */
} run_out;

/* The operations list: one record per ACTION:REPORT[@AGE], its answer in f. */
static velstatus_oplist *build_ops(velstatus_ctx *ctx, velstatus_kind kind, char *ops, vs_fake_plugin *f, int64_t now)
{
    char json[4096], *save = NULL, *op;
    size_t n = 0, k = 0;
    velstatus_oplist *list = NULL;
    velstatus_error err;
    k += (size_t)snprintf(json + k, sizeof(json) - k, "[");
    for (op = strtok_r(ops, ",", &save); op; op = strtok_r(NULL, ",", &save), n++) {
        char *colon = strchr(op, ':'), *at = strchr(op, '@'), *eq, created[VELSTATUS_TIME_BUFSIZE];
        const char *rep;
        int64_t age = NS_PER_MIN;
        velstatus_op_progress *a = &f->ans[n];
        ck_assert_ptr_nonnull(colon);
        *colon = '\0';
        rep = colon + 1;
        if ((eq = strchr(op, '=')) != NULL) { /* ACTION=NAME: the plugin's mocked Name() */
            *eq = '\0';
            a->plugin_name = eq + 1;
            a->plugin_name_len = strlen(eq + 1);
        }
        if (at) {
            *at = '\0';
            ck_assert_int_eq(velstatus_duration_parse(&age, at + 1, VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
        }
        ck_assert_int_eq(velstatus_time_format(created, sizeof(created), now - age, 0, NULL), VELSTATUS_OK);
        k += (size_t)snprintf(json + k, sizeof(json) - k,
                              "%s{\"spec\":{\"%sName\":\"x\",\"%sItemAction\":\"%s\",\"operationID\":\"op-%zu\"},"
                              "\"status\":{\"phase\":\"New\",\"created\":\"%s\"}}",
                              n ? "," : "", kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore",
                              kind == VELSTATUS_KIND_BACKUP ? "backup" : "restore", op, n, created);
        if (strcmp(rep, "done") == 0) {
            a->completed = 1;
        } else if (strncmp(rep, "fail=", 5) == 0) {
            a->completed = 1;
            a->err = rep + 5;
            a->err_len = strlen(a->err);
        } else if (strncmp(rep, "error=", 6) == 0) {
            a->report = VELSTATUS_OP_REPORT_PROGRESS_ERROR;
            a->err = rep + 6;
            a->err_len = strlen(a->err);
        } else if (strcmp(rep, "lookup") == 0) {
            f->rc[n] = VELSTATUS_PASSTHROUGH;
        } else {
            ck_assert_msg(strcmp(rep, "run") == 0, "unknown report \"%s\"", rep);
        }
    }
    snprintf(json + k, sizeof(json) - k, "]");
    ck_assert_msg(velstatus_oplist_from_json(&list, ctx, kind, json, strlen(json), &err) == VELSTATUS_OK, "%s",
                  err.message);
    return list;
}

/* Runs row r under Velero 1.<minor>'s preset. The row's text is copied:
 * strtok writes into it. */
static void run_row(const row *r, int minor, run_out *out)
{
    char ops[512];
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_kind kind;
    velstatus_policy pol;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *res = NULL;
    velstatus_plugin_client client;
    vs_fake_plugin f;
    velstatus_oplist *list;
    velstatus_error err;
    int64_t now;
    size_t k = 0;
    ck_assert_int_eq(velstatus_policy_init_release(&pol, sizeof(pol), 1, minor, &err), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_kind_from_string(&kind, r->col[C_KIND], VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_time_parse(&now, NOW_TEXT, VELSTATUS_NUL_TERMINATED, NULL), VELSTATUS_OK);
    vs_fake_plugin_init(&f);
    snprintf(ops, sizeof(ops), "%s", r->col[C_OPS]);
    list = build_ops(ctx, kind, ops, &f, now);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.phase = phase_of(r->col[C_PHASE]);
    o.now_ns = now;
    o.bsl = strcmp(r->col[C_BSL], "missing") == 0    ? VELSTATUS_BSL_MISSING
            : strcmp(r->col[C_BSL], "readonly") == 0 ? VELSTATUS_BSL_READONLY
                                                     : VELSTATUS_BSL_AVAILABLE;
    if (strcmp(r->col[C_TIMEOUT], "default") == 0)
        o.timeout_ns = pol.default_item_operation_timeout_ns;
    else
        ck_assert_int_eq(velstatus_duration_parse(&o.timeout_ns, r->col[C_TIMEOUT], VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
    client = vs_fake_plugin_client(&f);
    ck_assert_msg(velstatus_oplist_reconcile(&res, list, &client, &o, &pol, &err) == VELSTATUS_OK, "line %d: %s",
                  r->line, err.message);
    out->phase = velstatus_reconcile_result_phase(res);
    out->errs[0] = '\0';
    for (size_t i = 0; i < velstatus_reconcile_result_error_count(res); i++) {
        size_t len;
        const char *e = velstatus_reconcile_result_error(res, i, &len);
        k += (size_t)snprintf(out->errs + k, sizeof(out->errs) - k, "%s%.*s", i ? ";" : "", (int)len, e);
    }
    if (k == 0)
        snprintf(out->errs, sizeof(out->errs), "-");
    velstatus_reconcile_result_free(res);
    velstatus_oplist_free(list);
    velstatus_ctx_free(ctx);
}

static int row_holds(const row *r, const run_out *o)
{
    return strcmp(velstatus_phase_to_string(o->phase), r->col[C_WANT_PHASE]) == 0 &&
           strcmp(o->errs, r->col[C_WANT_ERRS]) == 0;
}

/* Every row at every release it names; every contrast fails. */
START_TEST(controller_cases_per_release)
{
    char *buf;
    size_t n, runs = 0, contrasts = 0;
    row *rows = read_table(&buf, &n);
    ck_assert_uint_ge(n, 38);
    for (size_t i = 0; i < n; i++) {
        const row *r = &rows[i];
        int any = 0;
        for (int minor = 11; minor <= 18; minor++) {
            run_out o;
            if (!vs_test_in_releases(r->col[C_RELEASES], minor))
                continue;
            run_row(r, minor, &o);
            ck_assert_msg(row_holds(r, &o), "line %d (%s) under 1.%d: got %s / %s, want %s / %s", r->line,
                          r->col[C_NAME], minor, velstatus_phase_to_string(o.phase), o.errs, r->col[C_WANT_PHASE],
                          r->col[C_WANT_ERRS]);
            any = 1;
            runs++;
        }
        ck_assert_msg(any, "line %d names no supported release", r->line);
        if (strcmp(r->col[C_CONTRAST], "-") != 0) {
            run_out o;
            int minor = 0;
            ck_assert_int_eq(sscanf(r->col[C_CONTRAST], "1.%d", &minor), 1);
            run_row(r, minor, &o);
            ck_assert_msg(!row_holds(r, &o), "line %d (%s) also holds under the contrast release 1.%d", r->line,
                          r->col[C_NAME], minor);
            contrasts++;
        }
    }
    ck_assert_uint_ge(runs, 130);
    ck_assert_uint_ge(contrasts, 20);
    free(rows);
    free(buf);
}
END_TEST

/* ---- the presets ---- */

START_TEST(release_table_and_range)
{
    velstatus_policy p, head = vs_policy(VELSTATUS_PRESET_VELERO);
    velstatus_error err;
    int ma = 0, mi = 0;
    ck_assert_uint_eq(velstatus_velero_release_count(), 8);
    ck_assert_int_eq(velstatus_velero_release_at(&ma, &mi, 0, &err), VELSTATUS_OK);
    ck_assert(ma == 1 && mi == 11);
    ck_assert_int_eq(velstatus_velero_release_at(&ma, &mi, 7, &err), VELSTATUS_OK);
    ck_assert(ma == 1 && mi == 18);
    ck_assert_int_eq(velstatus_velero_release_at(&ma, &mi, 8, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_velero_release_at(NULL, &mi, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_velero_release_at(&ma, NULL, 0, &err), VELSTATUS_E_INVALID);
    /* The current release is the Velero preset, byte for byte. */
    ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, 18, &err), VELSTATUS_OK);
    ck_assert_mem_eq(&p, &head, sizeof(p));
    ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, 10, &err), VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message, "Velero 1.10 is not supported (supported: 1.11 to 1.18)");
    ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, 19, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 2, 11, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_policy_init_release(NULL, sizeof(velstatus_policy), 1, 11, &err), VELSTATUS_E_INVALID);
    /* Every release differs from HEAD only in the release knobs. */
    for (int minor = 11; minor <= 18; minor++) {
        velstatus_policy q = head;
        ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, minor, &err), VELSTATUS_OK);
        ck_assert_int_eq(p.struct_size, sizeof(p));
        ck_assert_int_eq(p.preset, VELSTATUS_PRESET_VELERO);
        memcpy((char *)&q + offsetof(velstatus_policy, partial_failure_when_done),
               (char *)&p + offsetof(velstatus_policy, partial_failure_when_done),
               sizeof(p) - offsetof(velstatus_policy, partial_failure_when_done));
        ck_assert_mem_eq(&p, &q, sizeof(p));
    }
    /* The hardened preset has the current release's phases and retries. */
    p = vs_policy(VELSTATUS_PRESET_HARDENED);
    ck_assert(p.backup_queue && p.restore_finalizing && p.status_patch_retries && p.backup_error_plugin_suffix);
    ck_assert(!p.partial_failure_when_done && !p.first_pass_errors_as_index);
}
END_TEST

START_TEST(version_text)
{
    static const struct {
        const char *s;
        int ok, minor;
    } cases[] = {
        {"1.11", 1, 11},
        {"v1.14", 1, 14},
        {"1.14.2", 1, 14},
        {"v1.18.1", 1, 18},
        {"1.10", 0, 0},
        {"9.9", 0, 0},
        {"1.19", 0, 0},
        {"1", 0, 0},
        {"1.", 0, 0},
        {"1.14.", 0, 0},
        {"1.14.2.1", 0, 0},
        {"x1.14", 0, 0},
        {"1.14x", 0, 0},
        {"", 0, 0},
        {"123456.1", 0, 0},
        {"1.-1", 0, 0},
        {" 1.14", 0, 0},
        {"1.x", 0, 0},
        {"v", 0, 0},
        {"1.14.2-rc.1-with-a-suffix-longer-than-sixty-four-bytes-so-it-is-cut-in-the-message", 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        velstatus_policy p;
        velstatus_error err;
        int ma = -1, mi = -1;
        memset(&p, 0xab, sizeof(p));
        velstatus_status st =
            velstatus_policy_init_version(&p, sizeof(p), &ma, &mi, cases[i].s, VELSTATUS_NUL_TERMINATED, &err);
        ck_assert_msg((st == VELSTATUS_OK) == cases[i].ok, "\"%s\": %d", cases[i].s, (int)st);
        if (cases[i].ok) {
            velstatus_policy q;
            ck_assert_int_eq(mi, cases[i].minor);
            ck_assert_int_eq(ma, 1);
            velstatus_policy_init_release(&q, sizeof(q), 1, cases[i].minor, NULL);
            ck_assert_mem_eq(&p, &q, sizeof(p));
        } else {
            ck_assert_int_eq(ma, -1); /* nothing written */
            ck_assert_int_eq(((unsigned char *)&p)[0], 0xab);
            ck_assert_msg(strstr(err.message, "1.11 to 1.18") || strstr(err.message, "MAJOR.MINOR"), "%s", err.message);
        }
    }
    {
        velstatus_policy p;
        velstatus_error err;
        ck_assert_int_eq(
            velstatus_policy_init_version(&p, sizeof(p), NULL, NULL, "9.9", VELSTATUS_NUL_TERMINATED, &err),
            VELSTATUS_E_INVALID);
        ck_assert_str_eq(err.message, "Velero 9.9 is not supported (supported: 1.11 to 1.18)");
        ck_assert_int_eq(velstatus_policy_init_version(&p, sizeof(p), NULL, NULL, "1.13xyz", 4, &err), VELSTATUS_OK);
        ck_assert_int_eq(p.backup_error_plugin_suffix, 1);
        ck_assert_int_eq(velstatus_policy_init_version(NULL, sizeof(velstatus_policy), NULL, NULL, "1.13", 4, &err),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_policy_init_version(&p, sizeof(p), NULL, NULL, NULL, 4, &err), VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_policy_init_version(&p, sizeof(p), NULL, NULL, NULL, 0, &err), VELSTATUS_E_INVALID);
    }
}
END_TEST

/* Each release knob's values, as doc/velero-releases.md lists them. */
START_TEST(knob_ranges)
{
    for (int minor = 11; minor <= 18; minor++) {
        velstatus_policy p;
        ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, minor, NULL), VELSTATUS_OK);
        ck_assert_int_eq(p.partial_failure_when_done, minor == 11);
        ck_assert_int_eq(p.restore_readonly_bsl_fails, minor == 11);
        ck_assert_int_eq(p.restore_finalizing, minor >= 14);
        ck_assert_int_eq(p.backup_error_plugin_suffix, minor >= 13);
        ck_assert_int_eq(p.first_pass_errors_as_index, minor <= 13);
        ck_assert_int_eq(p.first_pass_restore_errors_uncounted, minor == 11);
        ck_assert_int_eq(p.default_item_operation_timeout_ns, (minor == 11 ? 1 : 4) * 60 * NS_PER_MIN);
        ck_assert_int_eq(p.status_patch_retries, minor >= 15);
        ck_assert_int_eq(p.backup_queue, minor >= 18);
        ck_assert_int_eq(p.validation_texts_quoted, minor <= 14);
        ck_assert_int_eq(p.validation_bsl_available, minor >= 17);
    }
}
END_TEST

/* Consecutive releases differ exactly where doc/velero-releases.md says:
 * every pair but 1.15/1.16 has at least one knob changed. */
START_TEST(consecutive_releases_differ)
{
    for (int minor = 12; minor <= 18; minor++) {
        velstatus_policy a, b;
        velstatus_policy_init_release(&a, sizeof(a), 1, minor - 1, NULL);
        velstatus_policy_init_release(&b, sizeof(b), 1, minor, NULL);
        ck_assert_msg((memcmp(&a, &b, sizeof(a)) == 0) == (minor == 16), "1.%d vs 1.%d", minor - 1, minor);
    }
}
END_TEST

/* ---- the differences outside the reconcile ---- */

static velstatus_policy rel(int minor)
{
    velstatus_policy p;
    ck_assert_int_eq(velstatus_policy_init_release(&p, sizeof(p), 1, minor, NULL), VELSTATUS_OK);
    return p;
}

/* status_patch_retries: 1.14 sends every patch once, 1.15 retries the final ones. */
START_TEST(diff_status_patch_retries)
{
    velstatus_policy p14 = rel(14), p15 = rel(15);
    int r14 = -1, r15 = -1;
    ck_assert_int_eq(
        velstatus_retry_transition(&r14, VELSTATUS_KIND_BACKUP, P(FINALIZING), P(COMPLETED), 0, &p14, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(
        velstatus_retry_transition(&r15, VELSTATUS_KIND_BACKUP, P(FINALIZING), P(COMPLETED), 0, &p15, NULL),
        VELSTATUS_OK);
    ck_assert_int_eq(r14, 0);
    ck_assert_int_eq(r15, 1);
    ck_assert_int_eq(velstatus_retry_transition(&r14, VELSTATUS_KIND_RESTORE, P(IN_PROGRESS), P(FAILED), 0, &p14, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(velstatus_retry_transition(&r15, VELSTATUS_KIND_RESTORE, P(IN_PROGRESS), P(FAILED), 0, &p15, NULL),
                     VELSTATUS_OK);
    ck_assert_int_eq(r14, 0);
    ck_assert_int_eq(r15, 1);
}
END_TEST

/* backup_queue: Queued and ReadyToStart exist from 1.18; before, New goes to InProgress. */
START_TEST(diff_backup_queue)
{
    velstatus_policy p17 = rel(17), p18 = rel(18), h = vs_policy(VELSTATUS_PRESET_HARDENED);
    velstatus_error err;
    int e = -1, legal = -1;
    const char *ctl = NULL;
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_BACKUP, P(QUEUED), &p17, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 0);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_BACKUP, P(QUEUED), &p18, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 1);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_BACKUP, P(READY_TO_START), NULL, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 1);
    ck_assert_int_eq(velstatus_phase_transition(&legal, &ctl, VELSTATUS_KIND_BACKUP, P(NEW), P(QUEUED), &p17, &err),
                     VELSTATUS_E_INVALID);
    ck_assert_str_eq(err.message,
                     "to: a backup has no phase \"Queued\" in this Velero release (Queued and ReadyToStart exist "
                     "from Velero 1.18)");
    ck_assert_int_eq(velstatus_phase_transition(&legal, &ctl, VELSTATUS_KIND_BACKUP, P(NEW), P(QUEUED), &p18, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(legal, 1);
    ck_assert_int_eq(
        velstatus_phase_transition(&legal, &ctl, VELSTATUS_KIND_BACKUP, P(NEW), P(IN_PROGRESS), &p17, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(legal, 1);
    ck_assert_str_eq(ctl, "backup");
    ck_assert_int_eq(
        velstatus_phase_transition(&legal, &ctl, VELSTATUS_KIND_BACKUP, P(NEW), P(IN_PROGRESS), &p18, &err),
        VELSTATUS_OK);
    ck_assert_int_eq(legal, 0);
    /* Restart handling rejects the phase too; the hardened preset's forgotten
     * patch starts from New before the queue. */
    ck_assert_int_eq(velstatus_phase_on_restart(&(velstatus_restart_action){0}, NULL, VELSTATUS_KIND_BACKUP,
                                                P(READY_TO_START), &p17, &err),
                     VELSTATUS_E_INVALID);
    h.backup_queue = 0;
    ck_assert_int_eq(velstatus_retry_transition(&e, VELSTATUS_KIND_BACKUP, P(NEW), P(IN_PROGRESS), 0, &h, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(e, 1);
    ck_assert_int_eq(
        velstatus_retry_transition(&e, VELSTATUS_KIND_BACKUP, P(READY_TO_START), P(IN_PROGRESS), 0, &h, &err),
        VELSTATUS_E_INVALID);
}
END_TEST

/* restore_finalizing in the phase machine: 1.13's restore ends without the finalizer. */
START_TEST(diff_restore_finalizing_phases)
{
    velstatus_policy p13 = rel(13), p14 = rel(14);
    velstatus_error err;
    int e = -1, legal = -1;
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_RESTORE, P(FINALIZING), &p13, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 0);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_RESTORE, P(FINALIZING), &p14, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 1);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_BACKUP, P(FINALIZING), &p13, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 1);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_RESTORE, P(DELETING), &p14, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 0);
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_RESTORE, (velstatus_phase)99, &p14, &err), VELSTATUS_OK);
    ck_assert_int_eq(e, 0);
    ck_assert_int_eq(velstatus_phase_exists(NULL, VELSTATUS_KIND_RESTORE, P(NEW), &p14, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_phase_exists(&e, (velstatus_kind)7, P(NEW), &p14, &err), VELSTATUS_E_INVALID);
    p14.struct_size = 4;
    ck_assert_int_eq(velstatus_phase_exists(&e, VELSTATUS_KIND_RESTORE, P(NEW), &p14, &err), VELSTATUS_E_ABI);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, VELSTATUS_KIND_RESTORE, P(NEW), P(NEW), &p14, &err),
                     VELSTATUS_E_ABI);
    p14 = rel(14);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, VELSTATUS_KIND_RESTORE, P(WAITING_FOR_PLUGIN_OPERATIONS),
                                                P(COMPLETED), &p13, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(legal, 1);
    ck_assert_int_eq(velstatus_phase_transition(&legal, NULL, VELSTATUS_KIND_RESTORE, P(WAITING_FOR_PLUGIN_OPERATIONS),
                                                P(COMPLETED), &p14, &err),
                     VELSTATUS_OK);
    ck_assert_int_eq(legal, 0);
    ck_assert_int_eq(
        velstatus_phase_transition(&legal, NULL, VELSTATUS_KIND_RESTORE, P(FINALIZING), P(COMPLETED), &p13, &err),
        VELSTATUS_E_INVALID);
    ck_assert_msg(strstr(err.message, "from: a restore has no phase \"Finalizing\" in this Velero release"), "%s",
                  err.message);
}
END_TEST


/* validation_texts_quoted (1.14 vs 1.15) and validation_bsl_available (1.16 vs 1.17). */
static char *vtext(velstatus_kind kind, velstatus_bsl_validation what, int minor, velstatus_status want)
{
    static char buf[1024];
    velstatus_policy p = rel(minor);
    velstatus_ctx *ctx = vs_test_ctx();
    char *out = (char *)"x";
    size_t len = 99;
    velstatus_error err;
    ck_assert_int_eq(velstatus_bsl_validation_error(&out, &len, ctx, kind, what, "main", VELSTATUS_NUL_TERMINATED,
                                                    "not found", 9, &p, &err),
                     want);
    if (want != VELSTATUS_OK) {
        velstatus_ctx_free(ctx);
        return NULL;
    }
    if (!out) {
        ck_assert_uint_eq(len, 0);
        velstatus_ctx_free(ctx);
        return NULL;
    }
    ck_assert_uint_eq(len, strlen(out));
    snprintf(buf, sizeof(buf), "%s", out);
    velstatus_free(ctx, out);
    velstatus_ctx_free(ctx);
    return buf;
}

START_TEST(diff_validation_texts)
{
    const velstatus_kind B = VELSTATUS_KIND_BACKUP, R = VELSTATUS_KIND_RESTORE;
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_SERVER_DEFAULT_MISSING, 14, VELSTATUS_OK),
                     "an existing backup storage location wasn't specified at backup creation time and the server "
                     "default 'main' doesn't exist. Please address this issue (see `velero backup-location -h` for "
                     "options) and create a new backup. Error: not found");
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_SERVER_DEFAULT_MISSING, 15, VELSTATUS_OK),
                     "an existing backup storage location was not specified at backup creation time and the server "
                     "default main does not exist. Please address this issue (see `velero backup-location -h` for "
                     "options) and create a new backup. Error: not found");
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING, 11, VELSTATUS_OK),
                     "an existing backup storage location wasn't specified at backup creation time and the default "
                     "'main' wasn't found. Please address this issue (see `velero backup-location -h` for options) "
                     "and create a new backup. Error: not found");
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING, 18, VELSTATUS_OK),
                     "an existing backup storage location was not specified at backup creation time and the default "
                     "main was not found. Please address this issue (see `velero backup-location -h` for options) "
                     "and create a new backup. Error: not found");
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_READ_ONLY, 11, VELSTATUS_OK),
                     "backup can't be created because backup storage location main is currently in read-only mode");
    ck_assert_ptr_null(vtext(B, VELSTATUS_BSL_VALIDATION_UNAVAILABLE, 16, VELSTATUS_OK));
    ck_assert_str_eq(vtext(B, VELSTATUS_BSL_VALIDATION_UNAVAILABLE, 17, VELSTATUS_OK),
                     "backup can't be created because BackupStorageLocation main is in Unavailable status.");
    ck_assert_ptr_null(vtext(R, VELSTATUS_BSL_VALIDATION_UNAVAILABLE, 16, VELSTATUS_OK));
    ck_assert_str_eq(vtext(R, VELSTATUS_BSL_VALIDATION_UNAVAILABLE, 17, VELSTATUS_OK),
                     "The BSL main is unavailable, cannot retrieve the backup");
    vtext(R, VELSTATUS_BSL_VALIDATION_READ_ONLY, 17, VELSTATUS_E_INVALID);
    vtext(B, (velstatus_bsl_validation)9, 17, VELSTATUS_E_INVALID);
    vtext((velstatus_kind)5, VELSTATUS_BSL_VALIDATION_READ_ONLY, 17, VELSTATUS_E_INVALID);
    {
        velstatus_ctx *ctx = vs_test_ctx();
        velstatus_policy p = rel(17);
        velstatus_bsl_validation v;
        char *out;
        p.struct_size = 3;
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, "m", 1,
                                                        NULL, 0, &p, NULL),
                         VELSTATUS_E_ABI);
        ck_assert_int_eq(velstatus_bsl_validation_error(NULL, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, "m", 1,
                                                        NULL, 0, NULL, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, NULL, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, "m", 1,
                                                        NULL, 0, NULL, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, NULL, 1,
                                                        NULL, 0, NULL, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, "m", 1,
                                                        NULL, 2, NULL, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_READ_ONLY, "m", 1,
                                                        NULL, 0, NULL, NULL),
                         VELSTATUS_OK);
        ck_assert_str_eq(out,
                         "backup can't be created because backup storage location m is currently in read-only mode");
        velstatus_free(ctx, out);
        ck_assert_int_eq(velstatus_bsl_validation_error(&out, NULL, ctx, B, VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING,
                                                        "m", 1, NULL, 0, NULL, NULL),
                         VELSTATUS_OK);
        ck_assert_ptr_nonnull(strstr(out, "default m was not found. "));
        ck_assert_ptr_nonnull(strstr(out, "Error: "));
        velstatus_free(ctx, out);
        ck_assert_int_eq(velstatus_bsl_validation_from_string(&v, "Unavailable", VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_from_string(NULL, "unavailable", VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_E_INVALID);
        ck_assert_int_eq(velstatus_bsl_validation_from_string(&v, "unavailable", VELSTATUS_NUL_TERMINATED, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(v, VELSTATUS_BSL_VALIDATION_UNAVAILABLE);
        ck_assert_str_eq(velstatus_bsl_validation_to_string(VELSTATUS_BSL_VALIDATION_READ_ONLY), "read_only");
        velstatus_ctx_free(ctx);
    }
}
END_TEST

START_TEST(validation_text_oom)
{
    velstatus_status st;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        char *out = NULL;
        st = velstatus_bsl_validation_error(&out, NULL, ctx, VELSTATUS_KIND_BACKUP,
                                            VELSTATUS_BSL_VALIDATION_DEFAULT_MISSING, "main", 4, "gone", 4, NULL, NULL);
        if (st == VELSTATUS_OK)
            velstatus_free(ctx, out);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* An operation's first-pass index text and the reconcile of every release, failing each allocation. */
START_TEST(first_pass_index_oom)
{
    velstatus_status st;
    velstatus_policy p = rel(13);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_oplist *list = NULL;
        velstatus_reconcile_result *res = NULL;
        velstatus_reconcile_options o;
        vs_fake_plugin f;
        velstatus_plugin_client client;
        static const char json[] = "[{\"spec\":{\"backupName\":\"b\",\"backupItemAction\":\"a\",\"operationID\":\"x\"},"
                                   "\"status\":{\"phase\":\"New\",\"created\":\"2024-05-01T11:59:00Z\"}}]";
        VS_FAILALLOC_PAUSE(fa);
        ck_assert_int_eq(velstatus_oplist_from_json(&list, ctx, VELSTATUS_KIND_BACKUP, json, sizeof(json) - 1, NULL),
                         VELSTATUS_OK);
        VS_FAILALLOC_RESUME(fa);
        vs_fake_plugin_init(&f);
        f.ans[0].completed = 1;
        f.ans[0].err = "boom";
        f.ans[0].err_len = 4;
        client = vs_fake_plugin_client(&f);
        velstatus_reconcile_options_init(&o, sizeof(o));
        o.phase = P(IN_PROGRESS);
        velstatus_time_parse(&o.now_ns, NOW_TEXT, VELSTATUS_NUL_TERMINATED, NULL);
        st = velstatus_oplist_reconcile(&res, list, &client, &o, &p, NULL);
        if (st == VELSTATUS_OK) {
            size_t len;
            ck_assert_str_eq(velstatus_reconcile_result_error(res, 0, &len), "0");
        }
        velstatus_reconcile_result_free(res);
        velstatus_oplist_free(list);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* ---- every release's itemoperations files ---- */

START_TEST(decode_each_release)
{
    static const char *const kinds[] = {"backup", "restore"};
    for (int minor = 11; minor <= 18; minor++) {
        for (int k = 0; k < 2; k++) {
            char rel_path[96], *text, *out = NULL;
            size_t len, out_len;
            velstatus_ctx *ctx = vs_test_ctx();
            velstatus_oplist *list = NULL;
            velstatus_error err;
            const velstatus_op *op;
            size_t n;
            const char *s;
            snprintf(rel_path, sizeof(rel_path), "releases/v1.%d-%s-itemoperations.json", minor, kinds[k]);
            text = vs_test_read_data(rel_path, &len);
            ck_assert_msg(velstatus_oplist_from_json(&list, ctx, (velstatus_kind)k, text, len, &err) == VELSTATUS_OK,
                          "%s: %s", rel_path, err.message);
            ck_assert_uint_eq(velstatus_oplist_count(list), 2);
            op = velstatus_oplist_at(list, 0);
            s = velstatus_op_string(op, VELSTATUS_OP_FIELD_OPERATION_ID, &n);
            ck_assert_msg(n > 3 && memcmp(s, "du-", 3) == 0, "%s: operation ID \"%.*s\"", rel_path, (int)n, s);
            s = velstatus_op_string(op, VELSTATUS_OP_FIELD_RESOURCE_NAME, &n);
            ck_assert_msg(n == 6 && memcmp(s, "data-0", 6) == 0, "%s: resource name", rel_path);
            ck_assert_int_eq(velstatus_op_phase_value(op), VELSTATUS_OP_PHASE_IN_PROGRESS);
            ck_assert_int_eq(velstatus_op_phase_value(velstatus_oplist_at(list, 1)), VELSTATUS_OP_PHASE_COMPLETED);
            if (k == 0)
                ck_assert_uint_eq(velstatus_op_post_item_count(op), 1);
            /* From 1.12 the file is what the library writes, byte for byte;
             * 1.11's capitalised spec keys come back camelCase. */
            ck_assert_int_eq(velstatus_oplist_to_json(&out, &out_len, list, &err), VELSTATUS_OK);
            if (minor >= 12)
                ck_assert_msg(out_len == len && memcmp(out, text, len) == 0, "%s does not round-trip", rel_path);
            else
                ck_assert_ptr_nonnull(strstr(text, "\"OperationID\":"));
            velstatus_free(ctx, out);
            velstatus_oplist_free(list);
            velstatus_ctx_free(ctx);
            free(text);
        }
    }
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("releases");
    TCase *tc = tcase_create("releases");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, release_table_and_range);
    tcase_add_test(tc, version_text);
    tcase_add_test(tc, knob_ranges);
    tcase_add_test(tc, consecutive_releases_differ);
    tcase_add_test(tc, controller_cases_per_release);
    tcase_add_test(tc, diff_status_patch_retries);
    tcase_add_test(tc, diff_backup_queue);
    tcase_add_test(tc, diff_restore_finalizing_phases);
    tcase_add_test(tc, decode_each_release);
    tcase_add_test(tc, diff_validation_texts);
    tcase_add_test(tc, validation_text_oom);
    tcase_add_test(tc, first_pass_index_oom);
    suite_add_tcase(s, tc);
    return s;
}
