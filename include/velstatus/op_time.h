/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/op_time.h
 * @brief The times of an item-operation record, exactly, over Go's range.
 *
 * velstatus_op_time_value() gives a record's time in int64 nanoseconds, the
 * unit of every decision input (`now`, timeouts, plugin reports), saturated
 * outside 1677-2262. A record read from a file holds any time Velero reads
 * (years 0000 to 9999 at any offset, Go's zero time `0001-01-01T00:00:00Z`
 * included); this getter gives it without loss. Both read the same field.
 *
 * @addtogroup operations
 * @{
 */
#ifndef VELSTATUS_OP_TIME_H
#define VELSTATUS_OP_TIME_H

#include "operations.h"

VELSTATUS_BEGIN_DECLS

/**
 * @brief One of the three timestamps, as whole seconds and nanoseconds.
 *
 * The same value as velstatus_op_time_value() (`*sec * 1e9 + *nsec` is
 * its `ns` wherever that does not saturate). A time read from JSON outside
 * the int64 nanosecond range keeps its whole second only, so `*nsec` is 0
 * there: that is all the file keeps, since `metav1.Time` writes whole
 * seconds (`0001-01-01T00:00:00.5Z` is written `0001-01-01T00:00:00Z`).
 * Go's zero time reads `*sec == -62135596800, *nsec == 0`, present.
 * @param[in] op The record.
 * @param[in] which Which timestamp.
 * @param[out] sec Whole seconds since 1970-01-01T00:00:00Z (floored) when
 *             present, else 0; may be NULL.
 * @param[out] nsec Nanoseconds past that second (0 to 999999999) when
 *             present, else 0; may be NULL.
 * @return 1 if present, 0 if absent/nil (or op NULL, which unknown).
 */
VELSTATUS_API int velstatus_op_time_sec(const velstatus_op *op, velstatus_op_time which, int64_t *sec,
                                        int32_t *nsec);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_OP_TIME_H */
