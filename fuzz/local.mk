# SPDX-License-Identifier: Apache-2.0
# Fuzzing (doc/fuzzing.md). A target is a pipeline of fuzz/pipe_*.c behind a
# four-line entry fuzz/fuzz_<name>.c; the same sources are built twice:
#  - fuzz/replay_<name>: with $(CC) against lib/libvelstatus.la and the main()
#    of fuzz/replay.c, which replays the target's seed corpus; part of
#    VS_CHECK_PROGS, so make check runs them in every build (also under ASan
#    and valgrind in CI);
#  - fuzz/fuzz_<name>: libFuzzer binaries, built by `make fuzz` when configure
#    found that $(CC) links -fsanitize=fuzzer (CC=clang), against
#    fuzz/libvelstatus-fuzz.la: the library's own sources compiled again with
#    coverage instrumentation, ASan and UBSan (the normal library is untouched).
FUZZ_TARGETS = bsl oplist reports time reconcile progress oom scan watch decoder describe_in table_in yaml snapshot datamover

VS_FUZZ_COMMON = fuzz/fuzz.h fuzz/common.c fuzz/pipe_bsl.c fuzz/pipe_tracker.c fuzz/pipe_oplist.c fuzz/pipe_reports.c \
	fuzz/pipe_time.c fuzz/pipe_reconcile.c fuzz/pipe_progress.c fuzz/pipe_scan.c fuzz/pipe_watch.c fuzz/pipe_decoder.c fuzz/pipe_snapshot.c fuzz/pipe_datamover.c \
	tools/watch_stream.c tools/watch_stream.h tests/failalloc.c tests/failalloc.h \
	fuzz/pipe_textin.c $(VS_TEXT_IN_SOURCES)
VS_FUZZ_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib -I$(top_srcdir)/util -I$(top_srcdir)/tests \
	-I$(top_srcdir)/tools
VS_FUZZ_CFLAGS_ALL = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS) $(CHECK_CFLAGS) $(ZLIB_CFLAGS) $(YAML_CFLAGS)

# ---- replay programs (make check) ----
check_LTLIBRARIES += fuzz/libvsreplay.la
fuzz_libvsreplay_la_SOURCES = $(VS_FUZZ_COMMON) fuzz/replay.c
fuzz_libvsreplay_la_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_libvsreplay_la_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
VS_FUZZ_REPLAY_LDADD = fuzz/libvsreplay.la lib/libvelstatus.la $(CHECK_LIBS) $(JANSSON_LIBS) $(ZLIB_LIBS) $(YAML_LIBS) -lm
VS_CHECK_PROGS += fuzz/replay_bsl fuzz/replay_oplist fuzz/replay_reports fuzz/replay_time fuzz/replay_reconcile fuzz/replay_progress fuzz/replay_oom fuzz/replay_scan fuzz/replay_watch fuzz/replay_decoder fuzz/replay_describe_in fuzz/replay_table_in fuzz/replay_yaml fuzz/replay_snapshot fuzz/replay_datamover

fuzz_replay_bsl_SOURCES = fuzz/fuzz_bsl.c
fuzz_replay_bsl_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_bsl_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_bsl_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_oplist_SOURCES = fuzz/fuzz_oplist.c
fuzz_replay_oplist_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_oplist_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_oplist_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_reports_SOURCES = fuzz/fuzz_reports.c
fuzz_replay_reports_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_reports_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_reports_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_time_SOURCES = fuzz/fuzz_time.c
fuzz_replay_time_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_time_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_time_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_reconcile_SOURCES = fuzz/fuzz_reconcile.c
fuzz_replay_reconcile_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_reconcile_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_reconcile_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_progress_SOURCES = fuzz/fuzz_progress.c
fuzz_replay_progress_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_progress_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_progress_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_oom_SOURCES = fuzz/fuzz_oom.c
fuzz_replay_oom_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_oom_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_oom_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_scan_SOURCES = fuzz/fuzz_scan.c
fuzz_replay_scan_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_scan_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_scan_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_watch_SOURCES = fuzz/fuzz_watch.c
fuzz_replay_watch_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_watch_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_watch_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_decoder_SOURCES = fuzz/fuzz_decoder.c
fuzz_replay_decoder_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_decoder_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_decoder_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_replay_snapshot_SOURCES = fuzz/fuzz_snapshot.c
fuzz_replay_snapshot_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_snapshot_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_snapshot_LDADD = $(VS_FUZZ_REPLAY_LDADD)

# The YAML target (the converter and libyaml are linked by every target:
# they are in VS_TEXT_IN_SOURCES, with the other input forms).
VS_FUZZ_YAML_SOURCES = fuzz/fuzz_yaml.c fuzz/pipe_yaml.c
fuzz_replay_yaml_SOURCES = $(VS_FUZZ_YAML_SOURCES)
fuzz_replay_yaml_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_yaml_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(YAML_CFLAGS)
fuzz_replay_yaml_LDADD = $(VS_FUZZ_REPLAY_LDADD)

# The seed corpora, rebuilt from tests/data and examples before every run
# (fuzz/seeds.sh); the replay programs read $(VS_BUILDDIR)/fuzz/seeds/<name>.
check_DATA = fuzz-seeds
.PHONY: fuzz-seeds
fuzz-seeds:
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/fuzz/seeds.sh $(abs_top_srcdir) fuzz/seeds

# ---- libFuzzer binaries (make fuzz) ----
EXTRA_LTLIBRARIES = fuzz/libvelstatus-fuzz.la fuzz/libvsfuzz.la
fuzz_libvelstatus_fuzz_la_SOURCES = $(lib_libvelstatus_la_SOURCES)
fuzz_libvelstatus_fuzz_la_CPPFLAGS = $(lib_libvelstatus_la_CPPFLAGS)
fuzz_libvelstatus_fuzz_la_CFLAGS = $(lib_libvelstatus_la_CFLAGS) $(VS_FUZZ_LIB_CFLAGS)
fuzz_libvsfuzz_la_SOURCES = $(VS_FUZZ_COMMON)
fuzz_libvsfuzz_la_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_libvsfuzz_la_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_LIB_CFLAGS)
VS_FUZZ_LDADD = fuzz/libvsfuzz.la fuzz/libvelstatus-fuzz.la $(CHECK_LIBS) $(JANSSON_LIBS) $(ZLIB_LIBS) $(YAML_LIBS) -lm
VS_FUZZ_BINS = fuzz/fuzz_bsl$(EXEEXT) fuzz/fuzz_oplist$(EXEEXT) fuzz/fuzz_reports$(EXEEXT) fuzz/fuzz_time$(EXEEXT) fuzz/fuzz_reconcile$(EXEEXT) fuzz/fuzz_progress$(EXEEXT) fuzz/fuzz_oom$(EXEEXT) fuzz/fuzz_scan$(EXEEXT) fuzz/fuzz_watch$(EXEEXT) fuzz/fuzz_decoder$(EXEEXT) fuzz/fuzz_describe_in$(EXEEXT) fuzz/fuzz_table_in$(EXEEXT) fuzz/fuzz_yaml$(EXEEXT) fuzz/fuzz_snapshot$(EXEEXT) fuzz/fuzz_datamover$(EXEEXT)
EXTRA_PROGRAMS += fuzz/fuzz_bsl fuzz/fuzz_oplist fuzz/fuzz_reports fuzz/fuzz_time fuzz/fuzz_reconcile fuzz/fuzz_progress fuzz/fuzz_oom fuzz/fuzz_scan fuzz/fuzz_watch fuzz/fuzz_decoder fuzz/fuzz_describe_in fuzz/fuzz_table_in fuzz/fuzz_yaml fuzz/fuzz_snapshot fuzz/fuzz_datamover

fuzz_fuzz_bsl_SOURCES = fuzz/fuzz_bsl.c
fuzz_fuzz_bsl_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_bsl_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_bsl_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_bsl_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_oplist_SOURCES = fuzz/fuzz_oplist.c
fuzz_fuzz_oplist_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_oplist_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_oplist_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_oplist_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_reports_SOURCES = fuzz/fuzz_reports.c
fuzz_fuzz_reports_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_reports_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_reports_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_reports_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_time_SOURCES = fuzz/fuzz_time.c
fuzz_fuzz_time_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_time_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_time_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_time_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_reconcile_SOURCES = fuzz/fuzz_reconcile.c
fuzz_fuzz_reconcile_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_reconcile_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_reconcile_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_reconcile_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_progress_SOURCES = fuzz/fuzz_progress.c
fuzz_fuzz_progress_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_progress_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_progress_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_progress_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_oom_SOURCES = fuzz/fuzz_oom.c
fuzz_fuzz_oom_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_oom_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_oom_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_oom_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_scan_SOURCES = fuzz/fuzz_scan.c
fuzz_fuzz_scan_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_scan_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_scan_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_scan_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_watch_SOURCES = fuzz/fuzz_watch.c
fuzz_fuzz_watch_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_watch_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_watch_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_watch_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_decoder_SOURCES = fuzz/fuzz_decoder.c
fuzz_fuzz_decoder_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_decoder_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_decoder_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_decoder_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_snapshot_SOURCES = fuzz/fuzz_snapshot.c
fuzz_fuzz_snapshot_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_snapshot_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_snapshot_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_snapshot_LDADD = $(VS_FUZZ_LDADD)

fuzz_fuzz_yaml_SOURCES = $(VS_FUZZ_YAML_SOURCES)
fuzz_fuzz_yaml_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_yaml_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS) $(YAML_CFLAGS)
fuzz_fuzz_yaml_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_yaml_LDADD = $(VS_FUZZ_LDADD)

# `make fuzz` builds the binaries; with FUZZ_SECONDS it also runs a campaign
# of that many seconds per target, FUZZ_JOBS at a time (FUZZ_FLAGS: more
# libFuzzer options, fuzz/run.sh). `make fuzz-smoke`
# replays every seed corpus and fuzzes each target FUZZ_SMOKE_SECONDS (CI).
FUZZ_SECONDS =
FUZZ_SMOKE_SECONDS = 20
FUZZ_JOBS = 2
FUZZ_FLAGS =
VS_FUZZ_RUN = FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_FLAGS='$(FUZZ_FLAGS)' $(SHELL) $(top_srcdir)/fuzz/run.sh $(abs_top_builddir) $(abs_top_srcdir)
.PHONY: fuzz fuzz-smoke clean-fuzz
if FUZZING
fuzz: $(VS_FUZZ_BINS) fuzz-seeds
	@if test -n "$(FUZZ_SECONDS)"; then $(VS_FUZZ_RUN) $(FUZZ_SECONDS) $(FUZZ_TARGETS); fi
fuzz-smoke: $(VS_FUZZ_BINS) fuzz-seeds
	$(VS_FUZZ_RUN) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)
else
fuzz fuzz-smoke:
	@echo "make $@: $(CC) cannot link -fsanitize=fuzzer: configure with CC=clang (see doc/fuzzing.md)" >&2; exit 1
endif
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz/seeds fuzz/corpus fuzz/logs fuzz/findings
CLEANFILES += $(VS_FUZZ_BINS)
EXTRA_DIST += fuzz/seeds.sh fuzz/run.sh fuzz/dict

# The CLI's text readers (tools/text_in.h).
fuzz_replay_describe_in_SOURCES = fuzz/fuzz_describe_in.c
fuzz_replay_describe_in_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_describe_in_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_describe_in_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_fuzz_describe_in_SOURCES = fuzz/fuzz_describe_in.c
fuzz_fuzz_describe_in_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_describe_in_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_describe_in_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_describe_in_LDADD = $(VS_FUZZ_LDADD)

fuzz_replay_table_in_SOURCES = fuzz/fuzz_table_in.c
fuzz_replay_table_in_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_table_in_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_table_in_LDADD = $(VS_FUZZ_REPLAY_LDADD)

fuzz_fuzz_table_in_SOURCES = fuzz/fuzz_table_in.c
fuzz_fuzz_table_in_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_table_in_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_table_in_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_table_in_LDADD = $(VS_FUZZ_LDADD)

# DataUploads and DataDownloads (lib/datamover).
fuzz_replay_datamover_SOURCES = fuzz/fuzz_datamover.c
fuzz_replay_datamover_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_replay_datamover_CFLAGS = $(VS_FUZZ_CFLAGS_ALL)
fuzz_replay_datamover_LDADD = $(VS_FUZZ_REPLAY_LDADD)
fuzz_fuzz_datamover_SOURCES = fuzz/fuzz_datamover.c
fuzz_fuzz_datamover_CPPFLAGS = $(VS_FUZZ_CPPFLAGS)
fuzz_fuzz_datamover_CFLAGS = $(VS_FUZZ_CFLAGS_ALL) $(VS_FUZZ_CFLAGS)
fuzz_fuzz_datamover_LDFLAGS = $(VS_FUZZ_CFLAGS)
fuzz_fuzz_datamover_LDADD = $(VS_FUZZ_LDADD)
