# SPDX-License-Identifier: Apache-2.0
# The forecast (issue 14; lib/forecast/forecast.c, listed in lib/local.mk): its check
# suite with the property test against the real reconcile, and `velstatus
# explain`.
VS_CHECK_PROGS += tests/check_forecast
tests_check_forecast_SOURCES = tests/check_forecast.c $(VS_TEST_COMMON)
tools_velstatus_SOURCES += tools/cmd_explain.c tools/explain.h tools/explain_model.c tools/explain_text.c tools/explain_json.c tools/explain_dm.c tools/explain_dm_out.c tools/explain_svg.h tools/explain_svg.c tools/svg.h tools/svg.c
VS_SH_TESTS += tests/cli-explain.sh
# explain -o svg (tools/explain_svg.c, tools/svg.c): XML, self-contained,
# every ID and event time, rendered not blank (tests/svg-check.py).
VS_SH_TESTS += tests/cli-explain-svg.sh
EXTRA_DIST += tests/svg-check.py
# The forecast over a DataUpload list (issue 26): passes at the instants the
# library names, and velstatus_forecast_new_dm()'s events, equal stepping the
# reconcile and the node-agent every second.
VS_CHECK_PROGS += tests/check_dm_forecast
tests_check_dm_forecast_SOURCES = tests/check_dm_forecast.c $(VS_TEST_COMMON)
