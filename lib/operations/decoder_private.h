/* SPDX-License-Identifier: Apache-2.0 */
/* The itemoperations decoder's state, shared by lib/operations/decoder.c (the
 * top-level array, fed whole or in chunks) and lib/operations/oplist_json.c (one record's
 * members). Internal, not installed. */
#ifndef VELSTATUS_OPLIST_DECODER_PRIVATE_H
#define VELSTATUS_OPLIST_DECODER_PRIVATE_H

#include "common/json_scan.h"
#include "operations/private.h"

/* A window of the input: p[0..len) is the text from absolute offset `base`,
 * whose first byte is at line `line`, column `col` (1-based, UTF-8
 * characters). The one-shot decoder's window is the whole input (base 0,
 * line 1, column 1); the streaming decoder's is what it holds of it. */
typedef struct vs__dec {
    velstatus_oplist *l;
    velstatus_error *err;
    const char *p; /* the window */
    size_t len;
    uint64_t base, line, col;
    size_t rec_off;            /* offset (in the window) of the current record */
    size_t idx;                /* its index */
    int detect;                /* the kind is still to be taken from the text (settled by ops_json.c) */
    velstatus__buf kbuf, vbuf; /* decoded keys and string values with escapes */
    vs__unknown *unk;          /* scratch unknown list of the current record */
    size_t nunk, capunk;
    velstatus__json_tape tape; /* where the current record's keys and values end (its scan) */
} vs__dec;

/* Line and column of window offset off (the absolute offset is d->base + off). */
void velstatus__dec_pos(const vs__dec *d, size_t off, uint32_t *line, uint32_t *col);

/* Decodes the record p[rs..re) (text the scanner accepted) into a new slot
 * of d->l (lib/operations/oplist_json.c). */
velstatus_status velstatus__dec_record(vs__dec *d, size_t rs, size_t re);

#endif /* VELSTATUS_OPLIST_DECODER_PRIVATE_H */
