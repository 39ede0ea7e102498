/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/json.h
 * @brief The JSON codecs, all together: an umbrella over the area headers
 * that declare them.
 *
 * No jansson type crosses the API, and the decoders read the text with the
 * library's own scanner (the rules jansson applies; see
 * `doc/json-decoding.md`), so a failed allocation is always
 * ::VELSTATUS_E_NOMEM, never a parse error or a wrong value. The names are
 * `velstatus_<object>_from_json()` and `velstatus_<object>_to_json()`, as the
 * enums' `_from_string()` / `_to_string()`. Input is
 * `(const char *p, size_t len)` (len may be #VELSTATUS_NUL_TERMINATED); output is a NUL-terminated buffer from the
 * context allocator, released with velstatus_free(). Errors name the JSON
 * path (`items[3].status.phase`) and the 1-based line/column/offset.
 *
 * Each codec is declared in its area's header, beside the object it reads or
 * writes: velstatus_bsl_set_from_json() and the verdict encoders in
 * server_status.h, velstatus_oplist_from_json() and the oplist encoders in
 * oplist.h, velstatus_progress_to_json() in progress.h, the chunk sink
 * ::velstatus_write_fn in host.h. A host that only reads and writes
 * itemoperations files needs nothing but oplist.h.
 */
#ifndef VELSTATUS_JSON_H
#define VELSTATUS_JSON_H

#include "oplist.h"
#include "progress.h"
#include "server_status.h"

#endif /* VELSTATUS_JSON_H */
