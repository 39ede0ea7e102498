/* SPDX-License-Identifier: Apache-2.0 */
/* The model of POSIX open_memstream() for the proofs of the CLI's text
 * readers (modules table and describe, doc/proof.md): Frama-C's libc has no
 * contract for it. Like glibc's, it may fail (NULL: the reader's "out of
 * memory" path), and on success it sets *ptr to a malloc'ed, NUL-terminated
 * buffer and *sizeloc to its length, which the caller frees. The stream is
 * a FILE of the model's own; Frama-C's contracts of fputc(), fputs(),
 * fprintf() and fclose() (which may return EOF, the write failures of a
 * real memory stream) only require it valid. What is written is not
 * modelled: the buffer stays the empty string, so the proof covers the
 * readers, not the JSON text they write. */
#include <stdio.h>
#include <stdlib.h>

#include "__fc_builtin.h"

FILE *open_memstream(char **ptr, size_t *sizeloc)
{
    static FILE stream;
    char *b = malloc(1);
    if (!b || Frama_C_nondet(0, 1))
        return free(b), (FILE *)NULL;
    b[0] = '\0';
    *ptr = b;
    *sizeloc = 0;
    return &stream;
}
