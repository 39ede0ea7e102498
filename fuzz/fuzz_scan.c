/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the JSON scanner against jansson (pipe_scan.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_scan, "scan", data, size);
}
