# SPDX-License-Identifier: Apache-2.0
# Benchmarks: `make bench` builds and runs them; they are never part of
# `make check` (doc/design.md §8: speed is measured by benchmarks, not unit tests).
# `make bench BENCH_RECORDS=100000 BENCH_RUNS=5` are the defaults.
EXTRA_PROGRAMS = bench/gen_itemops bench/bench_operations bench/bench_step_ir bench/bench_decode_ir
bench_gen_itemops_SOURCES = bench/gen_itemops.c
bench_gen_itemops_CFLAGS = $(VS_TEST_CFLAGS)
bench_gen_itemops_LDADD =
bench_bench_operations_SOURCES = bench/bench_operations.c
bench_bench_operations_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_operations_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS)
bench_bench_operations_LDADD = lib/libvelstatus.la $(JANSSON_LIBS)
bench_bench_step_ir_SOURCES = bench/bench_step_ir.c
bench_bench_step_ir_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_step_ir_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_step_ir_LDADD = lib/libvelstatus.la
bench_bench_decode_ir_SOURCES = bench/bench_decode_ir.c
bench_bench_decode_ir_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_decode_ir_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS)
bench_bench_decode_ir_LDADD = lib/libvelstatus.la $(JANSSON_LIBS)

BENCH_RECORDS = 100000
BENCH_RUNS = 5
.PHONY: bench
bench: bench/gen_itemops$(EXEEXT) bench/bench_operations$(EXEEXT)
	$(AM_V_GEN)bench/gen_itemops$(EXEEXT) $(BENCH_RECORDS) >bench/itemoperations-$(BENCH_RECORDS).json
	bench/bench_operations$(EXEEXT) bench/itemoperations-$(BENCH_RECORDS).json $(BENCH_RUNS)
EXTRA_DIST += bench/watch.sh
CLEANFILES += bench/itemoperations-*.json bench/callgrind.*.out $(EXTRA_PROGRAMS)

# `make bench-ir`: callgrind instruction counts per operation of the steady
# step and reconcile loops, and per record of decoding (ours and a jansson
# whole-file DOM); repeatable where times are not; needs valgrind.
BENCH_IR_RECORDS = 10000
.PHONY: bench-ir
bench-ir: bench/gen_itemops$(EXEEXT) bench/bench_step_ir$(EXEEXT) bench/bench_decode_ir$(EXEEXT)
	$(AM_V_GEN)bench/gen_itemops$(EXEEXT) $(BENCH_IR_RECORDS) >bench/itemoperations-$(BENCH_IR_RECORDS).json
	@for fn in steady_steps steady_reconcile; do \
	  valgrind --tool=callgrind --callgrind-out-file=bench/callgrind.$$fn.out --toggle-collect=$$fn \
	    bench/bench_step_ir$(EXEEXT) bench/itemoperations-$(BENCH_IR_RECORDS).json >/dev/null 2>&1 || exit 1; \
	  ir=`sed -n 's/^totals: *//p' bench/callgrind.$$fn.out`; \
	  echo "$$fn: $$ir instructions, `expr $$ir / $(BENCH_IR_RECORDS)` per operation ($(BENCH_IR_RECORDS) records)"; \
	done
	@for fn in decode_dom decode_ours; do \
	  valgrind --tool=callgrind --callgrind-out-file=bench/callgrind.$$fn.out --toggle-collect=$$fn \
	    bench/bench_decode_ir$(EXEEXT) bench/itemoperations-$(BENCH_IR_RECORDS).json `test $$fn = decode_dom && echo dom` >/dev/null 2>&1 || exit 1; \
	  ir=`sed -n 's/^totals: *//p' bench/callgrind.$$fn.out`; \
	  echo "$$fn: $$ir instructions, `expr $$ir / $(BENCH_IR_RECORDS)` per record ($(BENCH_IR_RECORDS) records)"; \
	done
EXTRA_DIST += bench/README.md
