# SPDX-License-Identifier: Apache-2.0
# The velstatus command-line tool. Each area adds its cmd_*.c in mk/area-*.mk.
bin_PROGRAMS = tools/velstatus
# The text input forms and what they share with the tool (the fuzz targets link them too).
VS_TEXT_IN_SOURCES = tools/cli.h tools/cli.c tools/input.c tools/text_in.h tools/text_in.c tools/describe_in.h \
	tools/describe_in.c tools/describe_hdr.c tools/table_in.c tools/yaml_json.h tools/yaml_json.c tools/yaml_scalar.c
tools_velstatus_SOURCES = \
	tools/velstatus.c \
	$(VS_TEXT_IN_SOURCES) \
	tools/cmd_download_request.c \
	tools/watch_stream.h \
	tools/watch_stream.c \
	tools/cmd_watch.c \
	tools/verdict_out.c \
	tools/bsl_table.c \
	tools/cmd_backup_status.c \
	tools/cmd_phase.c \
	tools/cmd_server_status.c \
	tools/cmd_operations.c \
	tools/plugin_objects.h \
	tools/plugin_objects.c \
	tools/cmd_progress.c \
	tools/cmd_describe_operations.c \
	tools/cmd_backoff.c
tools_velstatus_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include -I$(top_srcdir)/util
# The shipped tool: the library's warnings (VS_WARN_FLAGS), C11 with the POSIX
# interfaces it uses (open_memstream, getrandom), not the tests' -Wno-conversion.
tools_velstatus_CFLAGS = -std=gnu11 $(VS_WARN_FLAGS) $(VS_SAN_FLAGS) $(VS_COVERAGE_CFLAGS) $(ZLIB_CFLAGS) $(YAML_CFLAGS)
tools_velstatus_LDADD = lib/libvelstatus.la $(ZLIB_LIBS) $(YAML_LIBS) -lm

# The bash completion (configure --with-bash-completion-dir).
EXTRA_DIST += tools/completion/velstatus
if VS_BASH_COMPLETION
bashcompletiondir = $(BASH_COMPLETION_DIR)
bashcompletion_DATA = tools/completion/velstatus
endif
