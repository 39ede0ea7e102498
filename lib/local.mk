# SPDX-License-Identifier: Apache-2.0
# The library: a static, PIC libtool archive (lib/.libs/libvelstatus.a).
lib_LTLIBRARIES = lib/libvelstatus.la
# Every library source, in one list, folder by folder: the common layer
# (lib/common/) first, then each decision area in the order the layers stack
# (doc/design.md draws the folders and the include graph).
lib_libvelstatus_la_SOURCES = \
	lib/common/private.h \
	lib/common/util_arith.h \
	lib/common/util_array.h \
	lib/common/util_array.c \
	lib/common/util_hash.h \
	lib/common/util_swar.h \
	lib/common/util_pool.h \
	lib/common/util_pool.c \
	util/vsx_utf8.h \
	lib/common/json_scan.h \
	lib/common/json_scan.c \
	lib/common/tabwriter.h \
	lib/common/tabwriter.c \
	lib/common/go_isprint_tables.h \
	lib/common/go_quote.c \
	lib/common/kube_json.h \
	lib/common/kube_json.c \
	lib/common/watch_event.c \
	lib/common/core.c \
	lib/common/version.c \
	lib/common/time.c \
	lib/phase/private.h \
	lib/phase/policy.c \
	lib/phase/phase.c \
	lib/phase/backup_object.c \
	lib/phase/argo_health.c \
	lib/retry/private.h \
	lib/retry/retry.c \
	lib/retry/transition.c \
	lib/server_status/private.h \
	lib/server_status/server_status.c \
	lib/server_status/bsl_json.c \
	lib/server_status/step.c \
	lib/server_status/condition.c \
	lib/operations/private.h \
	lib/operations/oplist.c \
	lib/operations/oplist_json.c \
	lib/operations/decoder_private.h \
	lib/operations/decoder.c \
	lib/operations/step_core.h \
	lib/operations/op_step.c \
	lib/operations/reconcile.c \
	lib/operations/reports.c \
	lib/progress/private.h \
	lib/progress/progress.c \
	lib/progress/describe.c \
	lib/snapshot/private.h \
	lib/snapshot/snapshot_list.c \
	lib/snapshot/go_time_error.c \
	lib/snapshot/progress.c \
	lib/snapshot/client.c \
	lib/datamover/private.h \
	lib/datamover/decoder.c \
	lib/datamover/plugin.c \
	lib/datamover/client.c \
	lib/datamover/node_agent.c \
	lib/forecast/private.h \
	lib/forecast/forecast.c \
	lib/forecast/forecast_dm.c
lib_libvelstatus_la_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib -I$(top_srcdir)/util
lib_libvelstatus_la_CFLAGS = $(VS_LIB_CFLAGS)
lib_libvelstatus_la_LDFLAGS = -no-undefined \
	-version-info $(VS_LT_CURRENT):$(VS_LT_REVISION):$(VS_LT_AGE) \
	-export-symbols-regex '^velstatus_[a-z]'

velstatusincdir = $(includedir)/velstatus
include_HEADERS = include/velstatus.h
velstatusinc_HEADERS = \
	include/velstatus/common.h \
	include/velstatus/status.h \
	include/velstatus/host.h \
	include/velstatus/time.h \
	include/velstatus/policy.h \
	include/velstatus/phase.h \
	include/velstatus/backup_object.h \
	include/velstatus/watch.h \
	include/velstatus/server_status.h \
	include/velstatus/oplist.h \
	include/velstatus/op_step.h \
	include/velstatus/reconcile.h \
	include/velstatus/operations.h \
	include/velstatus/forecast.h \
	include/velstatus/datamover.h \
	include/velstatus/progress.h \
	include/velstatus/retry.h \
	include/velstatus/json.h \
	include/velstatus/experimental.h \
	include/velstatus/decoder.h \
	include/velstatus/snapshot.h
nodist_velstatusinc_HEADERS = include/velstatus/version.h

# `make lint`: static analysis of the library (not part of make check).
.PHONY: lint
lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --std=c11 \
	  -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib -I$(top_srcdir)/util $(top_srcdir)/lib/*/*.c
