/* SPDX-License-Identifier: Apache-2.0 */
/* velstatus explain, in three parts that share this header: the model
 * (explain_model.c: the inputs read, the forecasts made by the library),
 * the words (explain_text.c) and -o json (explain_json.c); -o svg is
 * explain_svg.c; the command itself is cmd_explain.c. Every decision comes
 * from the library. */
#ifndef VS_EXPLAIN_H
#define VS_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

#define EX_CMD "explain"

typedef struct ex_obj {
    velstatus_kind kind;
    char *name, *ns, *phase, *bsl, *timeout, *backup;
    size_t name_len, ns_len, phase_len, bsl_len;
    long long errors, completed, failed;
} ex_obj;

typedef struct ex {
    int utc;
    cli_format fmt;
    velstatus_ctx *ctx;
    ex_obj o;
    velstatus_phase phase;
    int phase_known;
    velstatus_policy pol, other_pol;
    int64_t now, timeout, resource_timeout;
    int release_given, major, minor; /* --velero-version, and the release decided for */
    const char *timeout_src;
    velstatus_oplist *ops;
    velstatus_bsl_set *bsls;
    velstatus_server_verdict *verdict;
    int bsl_known; /* --bsls given and the BSL name known */
    velstatus_bsl_state bsl_state;
    velstatus_forecast *fc, *other, *if_available, *if_missing, *if_readonly;
    const char *persist_fails; /* --persist-fails upload|patch, or NULL */
} ex;

void ex_free(ex *x);
int ex_read_object(ex *x, const char *path);
int ex_parse_duration(const char *what, const char *s, int64_t *out);
int ex_pick_timeout(ex *x, const char *flag);
int ex_read_bsls(ex *x, const char *path);
int ex_is_waiting(velstatus_phase ph);
size_t ex_count_phase(const velstatus_oplist *l, velstatus_op_phase ph);
int ex_forecast(ex *x, velstatus_forecast **out, const velstatus_policy *pol, velstatus_bsl_state bsl);
int ex_forecasts(ex *x);
int ex_has_str(const velstatus_op *op, velstatus_op_field f);
velstatus_status ex_persist_failure(const ex *x, const velstatus_reconcile_result *r, velstatus_phase *kept,
                                    int64_t *pending, int64_t *lost);
int ex_same_timeline(const velstatus_forecast *a, const velstatus_forecast *b);
int ex_budget(const ex *x, uint64_t *attempts, int64_t *sleep);
void ex_print_text(const ex *x);
void ex_print_json(const ex *x);

#endif /* VS_EXPLAIN_H */
