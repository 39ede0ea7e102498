# Benchmarks: `make bench` builds and runs them; they are never part of
# `make check` (DESIGN §8: speed is measured by benchmarks, not unit tests).
# `make bench BENCH_RECORDS=100000 BENCH_RUNS=5` are the defaults.
EXTRA_PROGRAMS = bench/gen_itemops bench/bench_operations
bench_gen_itemops_SOURCES = bench/gen_itemops.c
bench_gen_itemops_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_operations_SOURCES = bench/bench_operations.c
bench_bench_operations_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_operations_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS)
bench_bench_operations_LDADD = lib/libvelstatus.la $(JANSSON_LIBS)

BENCH_RECORDS = 100000
BENCH_RUNS = 5
.PHONY: bench
bench: bench/gen_itemops$(EXEEXT) bench/bench_operations$(EXEEXT)
	$(AM_V_GEN)bench/gen_itemops$(EXEEXT) $(BENCH_RECORDS) >bench/itemoperations-$(BENCH_RECORDS).json
	bench/bench_operations$(EXEEXT) bench/itemoperations-$(BENCH_RECORDS).json $(BENCH_RUNS)
CLEANFILES += bench/itemoperations-*.json $(EXTRA_PROGRAMS)
