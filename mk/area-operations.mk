# Decision area "operations": library sources, its check suite, its CLI command and data.
lib_libvelstatus_la_SOURCES += \
	lib/operations_private.h \
	lib/oplist.c \
	lib/ops_json.c \
	lib/operations.c \
	lib/operations_reports.c
