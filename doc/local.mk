# SPDX-License-Identifier: Apache-2.0
VS_SH_TESTS += doc/doxygen-check.sh
EXTRA_DIST += doc

.PHONY: doc
doc: doc/Doxyfile
	$(AM_V_GEN)$(DOXYGEN) doc/Doxyfile
clean-local: clean-doc
clean-doc:
	-rm -rf doc/html
# `EXTRA_DIST += doc` copies the build tree's doc/ too when it exists (automake
# prefers ./doc to $(srcdir)/doc); drop what the build wrote there, or a
# distcheck after `make check` finds a stale doxygen-check.log in its srcdir.
dist-hook: dist-hook-doc
dist-hook-doc:
	chmod -R u+w $(distdir)/doc
	rm -rf $(distdir)/doc/html $(distdir)/doc/Doxyfile $(distdir)/doc/*.log $(distdir)/doc/*.trs
