/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the UTF-8 decoder of util/vsx_utf8.h on every byte string
 * of 1 to PROOF_N bytes (its contract wants len >= 1). */
#include <stdint.h>

#include "proof_input.h"
#include "vsx_utf8.h"

int main(void)
{
    char *s;
    size_t len;
    uint32_t cp = 0;
    PROOF_INPUT(s, len, 1);
    (void)vsx_utf8_decode((const unsigned char *)s, len, &cp);
    free(s);
    return (int)(cp & 1);
}
