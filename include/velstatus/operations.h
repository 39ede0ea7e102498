/**
 * @file velstatus/operations.h
 * @brief The async item-operation state machine (DESIGN §4, SPEC §2).
 *
 * @defgroup operations operations
 * @{
 */
#ifndef VELSTATUS_OPERATIONS_H
#define VELSTATUS_OPERATIONS_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_OPERATIONS_H */
