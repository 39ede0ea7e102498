/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: progress report, summary, JSON and describe text (pipe_progress.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_progress, "progress", data, size);
}
