# SPDX-License-Identifier: Apache-2.0
# `make coverage` (configure --enable-coverage): run the C tests, then print
# gcovr's line and branch coverage per lib/ file and fail under the gates.
# `make coverage-report` only reports and gates on the .gcda files already
# written (scripts/test.sh runs it after build (c)'s valgrind pass).
# Exclusion markers are refused: every line and branch of lib/ counts.
# The filter is a pattern, not $(abs_top_srcdir)/lib/: gcovr 5.2 matches it
# against paths as the objects record them (BUILD/./../lib/x.c when the build
# directory is inside the source tree), which an absolute prefix misses.
VS_COVERAGE_MIN_LINES = 98
VS_COVERAGE_MIN_BRANCHES = 95
VS_COVERAGE_JSON = coverage-lib.json
# The gate's own report goes to a file, never to /dev/null: gcovr replaces its
# output file, and as root that turns /dev/null into a regular file.
VS_COVERAGE_SUMMARY = coverage-lib.txt
CLEANFILES += $(VS_COVERAGE_JSON) $(VS_COVERAGE_SUMMARY)

.PHONY: coverage coverage-report coverage-clean
if COVERAGE
coverage: coverage-clean
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(VS_CHECK_PROGS)'
	$(MAKE) $(AM_MAKEFLAGS) coverage-report

coverage-clean:
	-find $(top_builddir) -name '*.gcda' -exec rm -f {} +

coverage-report:
	@if grep -nE '(GCOVR|LCOV)_EXCL' $(top_srcdir)/lib/*/*.c $(top_srcdir)/lib/*/*.h; then \
	  echo "coverage: exclusion markers are not allowed in lib/" >&2; exit 1; fi
	@test -n '$(GCOVR)' || { echo "coverage: gcovr not found (scripts/deps.sh installs it)" >&2; exit 1; }
	$(AM_V_GEN)$(GCOVR) --root '$(abs_top_srcdir)' --object-directory '$(abs_top_builddir)' \
	  --filter '.*/(lib/[^/]*|util)/[^/]*\.[ch]$$' --exclude-unreachable-branches \
	  --json '$(VS_COVERAGE_JSON)' '$(abs_top_builddir)'
	@echo "== lib/ line coverage"
	@$(GCOVR) --root '$(abs_top_srcdir)' --add-tracefile '$(VS_COVERAGE_JSON)' --txt
	@echo "== lib/ branch coverage"
	@$(GCOVR) --root '$(abs_top_srcdir)' --add-tracefile '$(VS_COVERAGE_JSON)' --txt --branches
	@$(GCOVR) --root '$(abs_top_srcdir)' --add-tracefile '$(VS_COVERAGE_JSON)' --print-summary \
	  --fail-under-line $(VS_COVERAGE_MIN_LINES) --fail-under-branch $(VS_COVERAGE_MIN_BRANCHES) \
	  --output '$(VS_COVERAGE_SUMMARY)' || { st=$$?; \
	  echo "coverage: FAILED, lib/ is under the gate (lines >= $(VS_COVERAGE_MIN_LINES)%, branches >= $(VS_COVERAGE_MIN_BRANCHES)%)" >&2; \
	  exit $$st; }
	@echo "coverage: lib/ meets the gate (lines >= $(VS_COVERAGE_MIN_LINES)%, branches >= $(VS_COVERAGE_MIN_BRANCHES)%)"
else
coverage coverage-report coverage-clean:
	@echo "coverage: configure with --enable-coverage first" >&2; exit 1
endif

clean-local: clean-coverage
clean-coverage:
	-find $(top_builddir) \( -name '*.gcda' -o -name '*.gcno' \) -exec rm -f {} +
.PHONY: clean-coverage
