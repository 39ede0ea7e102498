/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: VolumeSnapshots and their plugin's answers (pipe_snapshot.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_snapshot, "snapshot", data, size);
}
