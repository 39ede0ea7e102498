/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/common.h
 * @brief Export and linkage macros shared by every libvelstatus header.
 *
 * @defgroup common Common macros
 * @{
 */
#ifndef VELSTATUS_COMMON_H
#define VELSTATUS_COMMON_H

#ifndef VELSTATUS_CDEF
#include <stddef.h>
#include <stdint.h>
#endif

/**
 * @def VELSTATUS_API
 * @brief Marks a public function: default visibility in the archive, nothing
 * in a cffi cdef (`VELSTATUS_CDEF`).
 */
#if defined(VELSTATUS_CDEF)
#define VELSTATUS_API
#elif defined(__GNUC__) && __GNUC__ >= 4
#define VELSTATUS_API __attribute__((visibility("default")))
#else
#define VELSTATUS_API
#endif

/**
 * @def VELSTATUS_DEPRECATED
 * @brief Marks a public function kept for compatibility that new code should
 * not call: the compiler warns at each use (`-Wdeprecated-declarations`),
 * naming its replacement. Define `VELSTATUS_NO_DEPRECATION_WARNINGS` before
 * including the headers to silence it. Nothing in a cffi cdef.
 */
#if defined(VELSTATUS_CDEF) || defined(VELSTATUS_NO_DEPRECATION_WARNINGS)
#define VELSTATUS_DEPRECATED(msg)
#elif defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 5))
#define VELSTATUS_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define VELSTATUS_DEPRECATED(msg)
#endif

/**
 * @def VELSTATUS_BEGIN_DECLS
 * @brief Opens a C-linkage block when compiled as C++.
 * @def VELSTATUS_END_DECLS
 * @brief Closes the block opened by #VELSTATUS_BEGIN_DECLS.
 */
#if defined(__cplusplus) && !defined(VELSTATUS_CDEF)
#define VELSTATUS_BEGIN_DECLS extern "C" {
#define VELSTATUS_END_DECLS }
#else
#define VELSTATUS_BEGIN_DECLS
#define VELSTATUS_END_DECLS
#endif

/**
 * @def VELSTATUS_NUL_TERMINATED
 * @brief Pass as the length of any `(s, len)` text argument of the public API
 * to mean "`s` is NUL-terminated; count it" (a NULL `s` then has length 0).
 * Every other value is the length in bytes. See doc/conventions.md.
 */
#define VELSTATUS_NUL_TERMINATED ((size_t)-1)

/** @} */
#endif /* VELSTATUS_COMMON_H */
