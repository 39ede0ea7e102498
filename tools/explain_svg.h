/* SPDX-License-Identifier: Apache-2.0 */
/* explain -o svg: the forecast of `velstatus explain` drawn as one
 * self-contained SVG timeline (doc/explain.md). It reads the forecast the
 * text and JSON forms print (velstatus/forecast.h) and decides nothing. */
#ifndef VS_EXPLAIN_SVG_H
#define VS_EXPLAIN_SVG_H

#include <stdio.h>
#include <velstatus.h>

/* What the picture shows; every pointer is borrowed. */
typedef struct explain_svg_in {
    velstatus_kind kind;
    const char *ns, *name, *phase; /* from the object, NULL when absent */
    size_t ns_len, name_len, phase_len;
    int phase_known; /* phase is one of the kind's (then in phase_value) */
    velstatus_phase phase_value;
    const char *policy;      /* the preset's token */
    int major, minor;        /* the Velero release decided for; 0.0 for the hardened preset */
    int utc;                 /* times in UTC, else the local zone (TZ respected) */
    int64_t now, timeout_ns; /* the item-operation timeout */
    const char *timeout_src;
    const velstatus_oplist *ops;  /* NULL without --operations */
    const velstatus_forecast *fc; /* NULL when not forecast */
} explain_svg_in;

/* Writes the picture. CLI_OK, or CLI_BAD_INPUT after printing a message
 * (memory ran out). */
int explain_svg(FILE *f, const explain_svg_in *in);

#endif
