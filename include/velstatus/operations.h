/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/operations.h
 * @brief The async item-operation state machine: the area header, which includes its three layers (doc/design.md §4, doc/velero-behaviour.md §2).
 *
 * The area has three layers, each in a header of its own:
 *
 * | header | layer |
 * |---|---|
 * | oplist.h | the records: an itemoperations file as a list, its getters and setters |
 * | op_step.h | one plugin answer applied to one record (velstatus_oplist_step()) |
 * | reconcile.h | the whole-list driver with its plugin-client vtable (velstatus_oplist_reconcile()) |
 *
 * Their codecs are in json.h. A map of recorded plugin answers, for replaying
 * a pass without a plugin, is in the experimental tier (experimental.h).
 *
 * @defgroup operations Item operations
 */
#ifndef VELSTATUS_OPERATIONS_H
#define VELSTATUS_OPERATIONS_H

#include "oplist.h"
#include "op_step.h"
#include "reconcile.h"

#endif /* VELSTATUS_OPERATIONS_H */
