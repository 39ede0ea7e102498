/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the streaming decoder fed in chunks equals the one-shot decode (pipe_decoder.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_decoder, "decoder", data, size);
}
