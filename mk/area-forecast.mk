# SPDX-License-Identifier: Apache-2.0
# The forecast (issue 14; lib/forecast/forecast.c, listed in lib/local.mk): its check
# suite with the property test against the real reconcile, and `velstatus
# explain`.
VS_CHECK_PROGS += tests/check_forecast
tests_check_forecast_SOURCES = tests/check_forecast.c $(VS_TEST_COMMON)
tools_velstatus_SOURCES += tools/cmd_explain.c
VS_SH_TESTS += tests/cli-explain.sh
