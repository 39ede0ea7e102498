# SPDX-License-Identifier: Apache-2.0
# The velstatus command-line tool. Each area adds its cmd_*.c in mk/area-*.mk.
bin_PROGRAMS = tools/velstatus
tools_velstatus_SOURCES = \
	tools/velstatus.c \
	tools/cli.h \
	tools/cli.c \
	tools/input.c \
	tools/yaml_json.h \
	tools/yaml_json.c \
	tools/yaml_scalar.c \
	tools/cmd_download_request.c \
	tools/watch_stream.h \
	tools/watch_stream.c \
	tools/cmd_watch.c \
	tools/verdict_out.c \
	tools/cmd_backup_status.c \
	tools/cmd_phase.c \
	tools/cmd_server_status.c \
	tools/cmd_operations.c \
	tools/cmd_progress.c \
	tools/cmd_retry.c
tools_velstatus_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/lib
tools_velstatus_CFLAGS = $(VS_TEST_CFLAGS) $(ZLIB_CFLAGS) $(YAML_CFLAGS)
tools_velstatus_LDADD = lib/libvelstatus.la $(ZLIB_LIBS) $(YAML_LIBS) -lm

# The bash completion (configure --with-bash-completion-dir).
EXTRA_DIST += tools/completion/velstatus
if VS_BASH_COMPLETION
bashcompletiondir = $(BASH_COMPLETION_DIR)
bashcompletion_DATA = tools/completion/velstatus
endif
