/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the watch-stream splitter, whole against cut (pipe_watch.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_watch, "watch", data, size);
}
