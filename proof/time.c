/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the public RFC 3339 and Go duration parsers (lib/common/time.c)
 * on every byte string of 0 to PROOF_N bytes, with and without an error
 * struct (the error path quotes the input into the message). */
#include <stdint.h>

#include "proof_input.h"
#include "velstatus.h"

int main(void)
{
    char *s;
    size_t len;
    int64_t ns = 0, sec = 0;
    int32_t nsec = 0;
    velstatus_error e, *err = Frama_C_nondet(0, 1) ? &e : NULL;
    PROOF_INPUT(s, len, 0);
    (void)velstatus_time_parse(&ns, s, len, err);
    (void)velstatus_time_parse_sec(&sec, &nsec, s, len, err);
    (void)velstatus_duration_parse(&ns, s, len, err);
    free(s);
    return (int)(ns & 1) + (int)(sec & 1) + (int)(nsec & 1);
}
