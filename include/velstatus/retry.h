/**
 * @file velstatus/retry.h
 * @brief The status-patch retry policy (DESIGN §6, SPEC §4).
 *
 * @defgroup retry retry
 * @{
 */
#ifndef VELSTATUS_RETRY_H
#define VELSTATUS_RETRY_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_RETRY_H */
