# SPDX-License-Identifier: Apache-2.0
# The velstatus command-line tool. Each area adds its cmd_*.c in mk/area-*.mk.
bin_PROGRAMS = tools/velstatus
tools_velstatus_SOURCES = \
	tools/velstatus.c \
	tools/cli.h \
	tools/cli.c \
	tools/cmd_phase.c \
	tools/cmd_server_status.c \
	tools/cmd_operations.c \
	tools/cmd_progress.c \
	tools/cmd_retry.c
tools_velstatus_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
tools_velstatus_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS)
tools_velstatus_LDADD = lib/libvelstatus.la $(JANSSON_LIBS)
