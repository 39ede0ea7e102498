/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: plugin answers (the --progress file) decode, reconcile with them (pipe_reports.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_reports, "reports", data, size);
}
