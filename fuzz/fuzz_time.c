/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: RFC 3339 and Go durations: parse → format → parse (pipe_time.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_time, "time", data, size);
}
