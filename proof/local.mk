# SPDX-License-Identifier: Apache-2.0
# `make prove` (doc/proof.md): Frama-C's EVA proves the parsers of untrusted
# text free of run-time errors for every input up to a stated length. Not
# part of make check (it needs frama-c, Debian's frama-c-base, and takes
# minutes); CI runs it as its own stage (scripts/ci-prove.sh). The library
# paths it reads are listed once, at the top of proof/prove.sh.
VS_PROOF_FILES = proof/prove.sh proof/justified.txt proof/proof_input.h proof/compat.h \
	proof/arith.c proof/utf8.c proof/time.c proof/json.c proof/yaml.c \
	proof/table.c proof/describe.c proof/memstream.c proof/memcmp.c
EXTRA_DIST += $(VS_PROOF_FILES) proof/local.mk

.PHONY: prove
prove: include/velstatus/version.h
	VS_SRCDIR='$(abs_top_srcdir)' VS_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(top_srcdir)/proof/prove.sh $(PROOF_MODULES)

clean-local: clean-local-prove
.PHONY: clean-local-prove
clean-local-prove:
	rm -rf proof-out
