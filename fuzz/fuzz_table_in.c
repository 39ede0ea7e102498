/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: a BSL get table → the CLI's reader → JSON → decode (pipe_textin.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_table_in, "table_in", data, size);
}
