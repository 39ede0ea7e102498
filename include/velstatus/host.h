/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/host.h
 * @brief The context, the per-context allocator, and the contract every
 * host callback follows.
 *
 * ## The callback contract
 *
 * Every host vtable of libvelstatus (the plugin client in operations.h, the
 * status publisher in server_status.h, the retry host in retry.h) follows the
 * same rules:
 *
 * - The struct starts with `uint32_t struct_size` (set it to `sizeof` the
 *   struct as your code was compiled, or use the `_init()` function), then
 *   `uint32_t flags` (must be 0) and `void *userdata`, the first argument of
 *   every callback.
 * - A size smaller than the first published version gives ::VELSTATUS_E_ABI;
 *   a larger one is accepted only when the unknown tail is all zero bytes.
 *   The library copies the vtable, so the host may free its own copy.
 * - Every `_init(p, struct_size)` zeroes all `struct_size` bytes, then writes
 *   the defaults of the fields this library knows: a caller compiled against
 *   an older header (a smaller struct) or a newer one (a larger struct whose
 *   tail this library does not know) both work. Appending a field never
 *   raises the minimum size; the same rules hold for every size-tagged
 *   struct (policies, options, progress reports, backoffs, schedules).
 * - A callback returns 0 on success. A negative value is a failure, reported
 *   as ::VELSTATUS_E_HOST with the value in velstatus_error::host_code.
 *   ::VELSTATUS_PASSTHROUGH means "treat this slot as NULL", so bindings may
 *   always install trampolines.
 * - Callbacks run synchronously on the calling thread, only inside a
 *   `velstatus_*` call. They must not re-enter the same context and must not
 *   unwind (longjmp, C++ exceptions, Go panics) through library frames.
 * - Data flows from host to library by value: the library copies what it
 *   needs before the callback's arguments go out of scope and never frees
 *   host memory.
 *
 * @defgroup host Context, allocator and callbacks
 * @{
 */
#ifndef VELSTATUS_HOST_H
#define VELSTATUS_HOST_H

#include "common.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/**
 * @brief Allocator hooks, one set per context.
 *
 * Every allocation the library makes, kept or returned, comes from these
 * hooks: it links no other library that allocates (it reads JSON with its
 * own scanner).
 */
typedef struct velstatus_allocator {
    uint32_t struct_size; /**< sizeof(velstatus_allocator) as compiled by the host. */
    uint32_t flags;       /**< Reserved, must be 0. */
    void *userdata;       /**< First argument of each hook. */
    /** Allocates `size` bytes (size is never 0); NULL on failure. */
    void *(*alloc_fn)(void *userdata, size_t size);
    /** Resizes `ptr` (never NULL) to `size` bytes (never 0); NULL on failure, `ptr` intact. */
    void *(*realloc_fn)(void *userdata, void *ptr, size_t size);
    /** Releases `ptr` (never NULL). */
    void (*free_fn)(void *userdata, void *ptr);
} velstatus_allocator;

/**
 * @brief Fills an allocator struct with zeros and its struct_size.
 *
 * The twin of a `{ sizeof(velstatus_allocator) }` initialiser, for cffi and cgo.
 * @param[out] alloc The struct to initialise.
 * @param[in] struct_size sizeof(velstatus_allocator) as the caller sees it.
 */
VELSTATUS_API void velstatus_allocator_init(velstatus_allocator *alloc, size_t struct_size);

/** @brief An opaque context: the allocator and nothing else global. */
typedef struct velstatus_ctx velstatus_ctx;

/**
 * @brief Creates a context.
 * @param[out] out Receives the new context.
 * @param[in] alloc Allocator hooks (copied), or NULL for the C library's malloc.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (out is NULL, or a hook
 *         missing), ::VELSTATUS_E_ABI (struct_size) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_ctx_free().
 */
VELSTATUS_API velstatus_status velstatus_ctx_new(velstatus_ctx **out, const velstatus_allocator *alloc,
                                                 velstatus_error *err);

/**
 * @brief Releases a context. Every object created from it must be released first.
 * @param[in] ctx The context, or NULL.
 */
VELSTATUS_API void velstatus_ctx_free(velstatus_ctx *ctx);

/**
 * @brief Releases memory the library returned to the caller (strings, buffers).
 * @param[in] ctx The context the memory came from.
 * @param[in] p The memory, or NULL.
 */
VELSTATUS_API void velstatus_free(velstatus_ctx *ctx, void *p);

/**
 * @brief The host's sink for text the library hands over in chunks.
 * @param[in] userdata The pointer the host passed with the callback.
 * @param[in] data The next bytes of the text (not NUL-terminated; valid only
 *            during the call).
 * @param[in] len Their count, at least 1.
 * @return 0 (or any non-negative value) to go on; a negative value stops
 *         the call, which then returns ::VELSTATUS_E_HOST with the value in
 *         velstatus_error::host_code (::VELSTATUS_PASSTHROUGH too: there is no
 *         default sink to fall back to).
 */
typedef int (*velstatus_write_fn)(void *userdata, const char *data, size_t len);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_HOST_H */
