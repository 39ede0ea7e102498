/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: host edits and two reconcile passes with a fake plugin client, then encode → decode (pipe_reconcile.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return vs_fuzz_run_plain(vs_pipe_reconcile, "reconcile", data, size);
}
