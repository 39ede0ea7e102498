# SPDX-License-Identifier: Apache-2.0
# Documentation: the Doxygen reference (headers plus the doc/*.md pages), the
# main page's tutorials (built and run by make check), and the man pages.
VS_SH_TESTS += doc/doxygen-check.sh doc/tutorials/run.sh doc/man/check-man.sh
EXTRA_DIST += doc

# ---- tutorials: each doc/tutorials/NAME.c is shown on the main page and run ----
VS_TUTORIALS = doc/tutorials/server_status doc/tutorials/operations doc/tutorials/progress \
	doc/tutorials/retry doc/tutorials/phases
check_PROGRAMS += $(VS_TUTORIALS)
VS_TUTORIAL_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
VS_TUTORIAL_CFLAGS = -std=c11 -pedantic $(VS_WARN_FLAGS) $(VS_SAN_FLAGS)
VS_TUTORIAL_LDADD = lib/libvelstatus.la
doc_tutorials_server_status_SOURCES = doc/tutorials/server_status.c
doc_tutorials_server_status_CPPFLAGS = $(VS_TUTORIAL_CPPFLAGS)
doc_tutorials_server_status_CFLAGS = $(VS_TUTORIAL_CFLAGS)
doc_tutorials_server_status_LDADD = $(VS_TUTORIAL_LDADD)
doc_tutorials_operations_SOURCES = doc/tutorials/operations.c
doc_tutorials_operations_CPPFLAGS = $(VS_TUTORIAL_CPPFLAGS)
doc_tutorials_operations_CFLAGS = $(VS_TUTORIAL_CFLAGS)
doc_tutorials_operations_LDADD = $(VS_TUTORIAL_LDADD)
doc_tutorials_progress_SOURCES = doc/tutorials/progress.c
doc_tutorials_progress_CPPFLAGS = $(VS_TUTORIAL_CPPFLAGS)
doc_tutorials_progress_CFLAGS = $(VS_TUTORIAL_CFLAGS)
doc_tutorials_progress_LDADD = $(VS_TUTORIAL_LDADD)
doc_tutorials_retry_SOURCES = doc/tutorials/retry.c
doc_tutorials_retry_CPPFLAGS = $(VS_TUTORIAL_CPPFLAGS)
doc_tutorials_retry_CFLAGS = $(VS_TUTORIAL_CFLAGS)
doc_tutorials_retry_LDADD = $(VS_TUTORIAL_LDADD)
doc_tutorials_phases_SOURCES = doc/tutorials/phases.c
doc_tutorials_phases_CPPFLAGS = $(VS_TUTORIAL_CPPFLAGS)
doc_tutorials_phases_CFLAGS = $(VS_TUTORIAL_CFLAGS)
doc_tutorials_phases_LDADD = $(VS_TUTORIAL_LDADD)

# ---- man pages: hand-written roff, installed into man1 and man3 ----
dist_man_MANS = doc/man/velstatus.1 doc/man/libvelstatus.3

# ---- HTML: `make doc` builds it; `make install` installs it under $(docdir)/html ----
VS_DOC_PAGES = doc/mainpage.md doc/server-status.md doc/operations.md doc/progress.md doc/retry.md doc/explain.md \
	doc/velero-behaviour.md doc/design.md doc/conventions.md doc/building.md doc/packaging.md \
	doc/json-decoding.md doc/hostile-inputs.md doc/threadsafety.md doc/go.md doc/internals.md doc/coverage.md doc/fuzzing.md doc/proof.md \
	doc/api-changes-1.0.md doc/binding-changes.md doc/cli.md doc/velero-releases.md doc/yaml.md doc/data-mover.md
VS_DOC_INPUTS = $(include_HEADERS) $(velstatusinc_HEADERS) $(nodist_velstatusinc_HEADERS) \
	$(VS_DOC_PAGES) $(doc_tutorials_server_status_SOURCES) $(doc_tutorials_operations_SOURCES) \
	$(doc_tutorials_progress_SOURCES) $(doc_tutorials_retry_SOURCES) $(doc_tutorials_phases_SOURCES)
.PHONY: doc install-html-docs uninstall-html-docs
doc: doc/html/index.html
doc/html/index.html: doc/Doxyfile $(VS_DOC_INPUTS)
	$(AM_V_GEN)rm -rf doc/html && $(DOXYGEN) doc/Doxyfile
if VS_HTML_DOCS
install-data-local: install-html-docs
uninstall-local: uninstall-html-docs
endif
install-html-docs: doc/html/index.html
	$(MKDIR_P) '$(DESTDIR)$(docdir)/html'
	cp -R doc/html/. '$(DESTDIR)$(docdir)/html/'
	chmod -R u+w,go+rX '$(DESTDIR)$(docdir)/html'
uninstall-html-docs:
	-rm -rf '$(DESTDIR)$(docdir)/html'

clean-local: clean-doc
clean-doc:
	-rm -rf doc/html
# `EXTRA_DIST += doc` copies the build tree's doc/ too when it exists (automake
# prefers ./doc to $(srcdir)/doc); drop what the build wrote there, or a
# distcheck after `make check` finds a stale doxygen-check.log in its srcdir.
dist-hook: dist-hook-doc
dist-hook-doc:
	chmod -R u+w $(distdir)/doc
	rm -rf $(distdir)/doc/html $(distdir)/doc/Doxyfile $(distdir)/doc/*.log $(distdir)/doc/*.trs \
	  $(distdir)/doc/tutorials/*.log $(distdir)/doc/tutorials/*.trs $(distdir)/doc/tutorials/*.o \
	  $(distdir)/doc/man/*.log $(distdir)/doc/man/*.trs $(distdir)/doc/tutorials/.deps \
	  $(distdir)/doc/tutorials/.dirstamp
	for t in $(VS_TUTORIALS); do rm -f $(distdir)/$$t $(distdir)/$$t$(EXEEXT); done
