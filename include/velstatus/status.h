/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/status.h
 * @brief Status codes, the caller-owned error struct and their names.
 *
 * Every fallible call returns a ::velstatus_status and takes a nullable
 * ::velstatus_error as its last argument. On failure the error struct is
 * overwritten whole; on success it is left untouched, so always test the
 * return value first.
 *
 * @defgroup status Status codes and errors
 * @{
 */
#ifndef VELSTATUS_STATUS_H
#define VELSTATUS_STATUS_H

#include "common.h"

VELSTATUS_BEGIN_DECLS

/**
 * @brief Result of every fallible call. Values are pinned and never change;
 * new codes are appended.
 */
typedef enum velstatus_status {
    VELSTATUS_OK = 0,            /**< Success. */
    VELSTATUS_E_NOMEM = -1,      /**< An allocation failed; nothing leaked, outputs untouched. */
    VELSTATUS_E_INVALID = -2,    /**< An argument is invalid (NULL, unknown enum, bad token). */
    VELSTATUS_E_PARSE = -3,      /**< Input text is not well-formed (JSON, time, duration). */
    VELSTATUS_E_SCHEMA = -4,     /**< Well-formed input has a field of the wrong type or value. */
    VELSTATUS_E_HOST = -5,       /**< A host callback failed; see velstatus_error::host_code. */
    VELSTATUS_E_ABI = -6,        /**< A struct_size does not match what the library accepts. */
    VELSTATUS_E_RANGE = -7,      /**< A number or time is outside the representable range. */
    VELSTATUS_E_STATE = -8,      /**< The call is not allowed in the object's current state. */
    VELSTATUS_PASSTHROUGH = -30, /**< Host callbacks only: behave as if the slot were NULL. */
    VELSTATUS_E_INTERNAL = -99   /**< A bug in libvelstatus. */
} velstatus_status;

/** @brief Size of velstatus_error::message, including the terminating NUL. */
enum {
    VELSTATUS_ERROR_MESSAGE_SIZE = 256 /**< sizeof(velstatus_error::message). */
};

/**
 * @brief Caller-owned error details, filled on failure.
 *
 * `message` names the offending field (a JSON path such as
 * `items[3].status.phase` for JSON input) and, for JSON input, `line`,
 * `column` and `offset` give the position of the offending value (line and
 * column 1-based, `line` 0 when not applicable). The message never spells
 * the position, so a printer adds it once (the CLI writes
 * `(line L, column C, offset O)`).
 */
typedef struct velstatus_error {
    velstatus_status code; /**< The status the call returned. */
    int32_t host_code;     /**< The callback's own return value when code is ::VELSTATUS_E_HOST. */
    uint32_t line;         /**< 1-based line in JSON input; 0 when not applicable. */
    uint32_t column;       /**< 1-based column in JSON input; 0 when not applicable. */
    uint64_t offset;       /**< Byte offset in the input; 0 when not applicable. */
    uint32_t reserved[4];  /**< Zero; room to grow. */
    char message[256];     /**< UTF-8, NUL-terminated (#VELSTATUS_ERROR_MESSAGE_SIZE bytes). */
} velstatus_error;

/**
 * @brief The identifier of a status, e.g. `"VELSTATUS_E_NOMEM"`.
 * @param[in] status Any value; unknown values give `"VELSTATUS_E_UNKNOWN"`.
 * @return A static string, never NULL.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_status_name(velstatus_status status);

/**
 * @brief A human-readable description of a status.
 * @param[in] status Any value; unknown values give a generic message.
 * @return A static string, never NULL.
 * @borrowed
 */
VELSTATUS_API const char *velstatus_status_str(velstatus_status status);

/**
 * @brief Resets an error struct to the OK state (all fields zero).
 * @param[out] err The struct to clear; NULL is ignored.
 */
VELSTATUS_API void velstatus_error_clear(velstatus_error *err);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_STATUS_H */
