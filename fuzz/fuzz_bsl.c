/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: BSL list decode → classify → verdict JSON (pipe_bsl.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_bsl, "bsl", data, size);
}
