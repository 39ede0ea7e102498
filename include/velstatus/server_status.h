/**
 * @file velstatus/server_status.h
 * @brief Server status from the BackupStorageLocations (DESIGN §3, SPEC §1).
 *
 * @defgroup server_status server_status
 * @{
 */
#ifndef VELSTATUS_SERVER_STATUS_H
#define VELSTATUS_SERVER_STATUS_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_SERVER_STATUS_H */
