VS_SH_TESTS += doc/doxygen-check.sh
EXTRA_DIST += doc

.PHONY: doc
doc: doc/Doxyfile
	$(AM_V_GEN)$(DOXYGEN) doc/Doxyfile
clean-local: clean-doc
clean-doc:
	-rm -rf doc/html
