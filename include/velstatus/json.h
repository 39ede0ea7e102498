/**
 * @file velstatus/json.h
 * @brief The JSON codec: Velero's own JSON in and out, as UTF-8 text.
 *
 * jansson is used inside; `json_t` never crosses the API. Input is
 * `(const char *p, size_t len)`; output is a NUL-terminated buffer from the
 * context allocator, released with velstatus_free(). Errors name the JSON
 * path (`items[3].status.phase`) and the 1-based line/column/offset.
 *
 * @defgroup json JSON codec
 * @{
 */
#ifndef VELSTATUS_JSON_H
#define VELSTATUS_JSON_H

#include "common.h"
#include "status.h"
#include "host.h"

VELSTATUS_BEGIN_DECLS

/* ---- BackupStorageLocations and server-status verdicts (server_status.h) ---- */



/* ---- Item operations and plugin progress (operations.h) ---- */



/* ---- Progress reports (progress.h) ---- */



VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_JSON_H */
