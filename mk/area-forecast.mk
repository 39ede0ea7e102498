# SPDX-License-Identifier: Apache-2.0
# The forecast (issue 14): what the next reconcile passes decide and when
# (lib/forecast.c), its check suite with the property test against the real
# reconcile, and `velstatus explain`.
lib_libvelstatus_la_SOURCES += lib/forecast.c
VS_CHECK_PROGS += tests/check_forecast
tests_check_forecast_SOURCES = tests/check_forecast.c $(VS_TEST_COMMON)
tools_velstatus_SOURCES += tools/cmd_explain.c
VS_SH_TESTS += tests/cli-explain.sh
