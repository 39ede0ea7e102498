/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: DataUploads and DataDownloads (pipe_datamover.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_datamover, "datamover", data, size);
}
