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
#include "plugin_objects.h"

#define EX_CMD "explain"

typedef struct ex_obj {
    velstatus_kind kind;
    char *name, *ns, *phase, *bsl, *timeout, *backup;
    size_t name_len, ns_len, phase_len, bsl_len;
    long long errors, completed, failed;
} ex_obj;

/* The chain behind one running operation of the CSI data mover (explain_dm.c). */
typedef struct ex_dm {
    size_t op, obj;                /* the record's index, its object's in the list */
    velstatus_dm_decision dec;     /* what the node-agent does next */
    velstatus_op_progress now_ans; /* what the CSI plugin answers now */
    char *now_text;
    int has_then;                   /* the decision is timed: the rest is set */
    velstatus_op_progress then_ans; /* what it answers after the decision */
    char *then_text;
    velstatus_dm_list *stepped; /* the objects after the decision */
    int has_pass;               /* its phase is a Waiting one: the pass below is set */
    int64_t pass_at;            /* the operations controller's pass then */
    int left;                   /* the backup has left its Waiting phase before it */
    velstatus_phase left_phase;
    velstatus_oplist *pass_list; /* the records after that pass */
    velstatus_reconcile_result *pass;
} ex_dm;

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
    cli_objects objs;          /* --datauploads ... (plugin_objects.h) */
    ex_dm *dm;                 /* the chains, one per running operation with its object */
    size_t ndm;
} ex;

void ex_free(ex *x);
int ex_read_object(ex *x, const char *path);
int ex_parse_duration(const char *what, const char *s, int64_t *out);
int ex_pick_timeout(ex *x, const char *flag);
int ex_read_bsls(ex *x, const char *path);
int ex_is_waiting(velstatus_phase ph);
size_t ex_count_phase(const velstatus_oplist *l, velstatus_op_phase ph);
void ex_options(const ex *x, velstatus_reconcile_options *o, velstatus_bsl_state bsl);
int ex_dm_chains(ex *x);
void ex_dm_free(ex *x);
void ex_dm_text(const ex *x);
void ex_dm_checks(const ex *x, int *n);
void ex_dm_json(const ex *x);
int ex_forecast(ex *x, velstatus_forecast **out, const velstatus_policy *pol, velstatus_bsl_state bsl);
int ex_forecasts(ex *x);
int ex_has_str(const velstatus_op *op, velstatus_op_field f);
velstatus_status ex_persist_failure(const ex *x, const velstatus_reconcile_result *r, velstatus_phase *kept,
                                    int64_t *pending, int64_t *lost);
int ex_same_timeline(const velstatus_forecast *a, const velstatus_forecast *b);
int ex_budget(const ex *x, uint64_t *attempts, int64_t *sleep);
void ex_print_text(const ex *x);
void ex_prose(const char *indent, const char *text);
void ex_prose_at(const char *indent, size_t col, const char *text);
void ex_put_str(const velstatus_op *op, velstatus_op_field f);
void ex_put_duration(int64_t ns);
void ex_print_json(const ex *x);
void ex_json_field(const velstatus_op *op, velstatus_op_field f);

#endif /* VS_EXPLAIN_H */
