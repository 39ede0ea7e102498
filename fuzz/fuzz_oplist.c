/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: itemoperations decode → encode → decode → encode (pipe_oplist.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_oplist, "oplist", data, size);
}
