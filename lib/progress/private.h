/* SPDX-License-Identifier: Apache-2.0 */
/* Internals of the progress area (progress.c, describe.c), visible to its
 * tests. Not installed. */
#ifndef VELSTATUS_PROGRESS_PRIVATE_H
#define VELSTATUS_PROGRESS_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "operations/private.h"
#include "velstatus/progress.h"

/* What the aggregation needs of one record: the input struct of
 * velstatus__progress_build(), filled from an oplist by
 * velstatus_progress_new() or directly by tests. */
typedef struct velstatus__prog_op {
    velstatus_op_phase phase;
    int64_t n_completed, n_total;
    const char *units; /* borrowed for the duration of the build */
    size_t units_len;
    int has_started, has_updated;
    int64_t started, updated;
} velstatus__prog_op;

/* Builds a report from n records. Unit strings are copied into the report. */
velstatus_status velstatus__progress_build(velstatus_progress **out, velstatus_ctx *ctx, const velstatus__prog_op *ops,
                                           size_t n, int64_t now_ns, velstatus_error *err);

/* The ETA of one record, in seconds, as a one-record group of a report
 * computes it (the same accumulation and rounding): 1 when known, else 0
 * (*seconds is then 0). Used by the forecast (lib/forecast/forecast.c). */
int velstatus__progress_op_eta(const velstatus_op *op, int64_t now_ns, int64_t *seconds);

/* ---- number formatting ---- */

enum { VELSTATUS__I64_BUFSIZE = 24 };

/* Go's %d / %v of an int64 (and strconv.FormatInt(v, 10)): writes the
 * digits, with '-' for negatives, NUL-terminated; returns the length. */
size_t velstatus__fmt_i64(char *buf, int64_t v);
size_t velstatus__fmt_u64(char *buf, uint64_t v);

/* Appends scaled / 10^decimals as a decimal with at most `decimals`
 * fraction digits, trailing zeros (and a bare '.') dropped: 37500 with 3
 * decimals is "37.5", 4000 is "4". */
void velstatus__fmt_fixed(velstatus__buf *b, uint64_t scaled, unsigned decimals);

/* Appends a byte count in IEC units, one decimal, rounded down:
 * "512 B", "1.5 KiB", "4.0 GiB", "-2.0 MiB", up to EiB. */
void velstatus__fmt_iec(velstatus__buf *b, int64_t bytes);

/* floor(c * 10000 / t) clamped to [0, 10000], for 0 <= c, 0 < t: exact for
 * any 64-bit operands. */
uint32_t velstatus__pct_hundredths_u64(uint64_t c, uint64_t t);

#endif /* VELSTATUS_PROGRESS_PRIVATE_H */
