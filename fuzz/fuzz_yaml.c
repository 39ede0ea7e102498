/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the tool's YAML converter, whole against cut (pipe_yaml.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_yaml, "yaml", data, size);
}
