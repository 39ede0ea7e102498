/**
 * @file velstatus/progress.h
 * @brief Progress aggregation and Velero's describe text (DESIGN §5, SPEC §3).
 *
 * @defgroup progress progress
 * @{
 */
#ifndef VELSTATUS_PROGRESS_H
#define VELSTATUS_PROGRESS_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_PROGRESS_H */
