/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: every allocating pipeline with the context's allocator and
 * jansson's failing on one countdown (common.c, vs_fuzz_run_oom). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vs_fuzz_run_oom(vs_pipe_bsl, "bsl", data, size);
    vs_fuzz_run_oom(vs_pipe_oplist, "oplist", data, size);
    vs_fuzz_run_oom(vs_pipe_reports, "reports", data, size);
    vs_fuzz_run_oom(vs_pipe_reconcile, "reconcile", data, size);
    vs_fuzz_run_oom(vs_pipe_progress, "progress", data, size);
    vs_fuzz_run_oom(vs_pipe_snapshot, "snapshot", data, size);
    return 0;
}
