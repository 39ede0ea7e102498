# SPDX-License-Identifier: Apache-2.0
# The library: a static, PIC libtool archive (lib/.libs/libvelstatus.a).
lib_LTLIBRARIES = lib/libvelstatus.la
# Every library source, in one list: the shared internal layer first, then
# each decision area (doc/internals.md).
lib_libvelstatus_la_SOURCES = \
	lib/velstatus_private.h \
	lib/util_arith.h \
	lib/util_array.h \
	lib/util_array.c \
	lib/util_hash.h \
	lib/util_pool.h \
	lib/util_pool.c \
	lib/util_utf8.h \
	lib/json_scan.h \
	lib/json_scan.c \
	lib/kube_json.h \
	lib/kube_json.c \
	lib/watch_event.c \
	lib/core.c \
	lib/version.c \
	lib/policy.c \
	lib/phase.c \
	lib/argo_health.c \
	lib/backup_object.c \
	lib/time.c \
	lib/server_status_private.h \
	lib/server_status.c \
	lib/bsl_json.c \
	lib/server_status_step.c \
	lib/condition.c \
	lib/operations_private.h \
	lib/oplist.c \
	lib/ops_json.c \
	lib/oplist_decoder.h \
	lib/oplist_decoder.c \
	lib/operations.c \
	lib/operations_reports.c \
	lib/forecast.c \
	lib/progress_private.h \
	lib/progress.c \
	lib/describe.c \
	lib/tabwriter.h \
	lib/tabwriter.c \
	lib/retry_private.h \
	lib/retry.c \
	lib/retry_transition.c
lib_libvelstatus_la_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib
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
	include/velstatus/progress.h \
	include/velstatus/retry.h \
	include/velstatus/json.h \
	include/velstatus/experimental.h \
	include/velstatus/decoder.h
nodist_velstatusinc_HEADERS = include/velstatus/version.h

# `make lint`: static analysis of the library (not part of make check).
.PHONY: lint
lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --std=c11 \
	  -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib $(top_srcdir)/lib/*.c
