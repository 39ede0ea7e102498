/* SPDX-License-Identifier: Apache-2.0 */
/* Forced into every file the proofs parse (-include, proof/prove.sh): the
 * C11 the library uses that Frama-C 25's front end does not take.
 * _Static_assert at file scope is a compile-time check only (the real
 * build still makes it), so the analysis may drop it. */
#ifndef VS_PROOF_COMPAT_H
#define VS_PROOF_COMPAT_H
#define _Static_assert(cond, msg) struct vs_proof_static_assert_unused
/* The text readers' memory streams (modules table and describe): the
 * declaration POSIX gives, its model in proof/memstream.c. */
#ifdef PROOF_MEMSTREAM
#include <stdio.h>
FILE *open_memstream(char **ptr, size_t *sizeloc);
#endif
#endif /* VS_PROOF_COMPAT_H */
