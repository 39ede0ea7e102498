# SPDX-License-Identifier: Apache-2.0
# Benchmarks: `make bench` builds and runs them; they are never part of
# `make check` (doc/design.md §8: speed is measured by benchmarks, not unit tests).
# `make bench BENCH_RECORDS=100000 BENCH_RUNS=9` are the defaults (nine runs: on a shared VM
# one process can take twice the CPU time of the next, and medians of five still moved a ratio by
# 0.1 from one `make bench` to the next).
EXTRA_PROGRAMS = bench/gen_itemops bench/bench_operations bench/bench_compare bench/bench_step_ir bench/bench_decode_ir
bench_gen_itemops_SOURCES = bench/gen_itemops.c
bench_gen_itemops_CFLAGS = $(VS_TEST_CFLAGS)
bench_gen_itemops_LDADD =
bench_bench_compare_SOURCES = bench/bench_compare.c
bench_bench_compare_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_compare_LDADD =
bench_bench_operations_SOURCES = bench/bench_operations.c bench/fake_plugin.h
bench_bench_operations_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_operations_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_operations_LDADD = lib/libvelstatus.la
bench_bench_step_ir_SOURCES = bench/bench_step_ir.c bench/fake_plugin.h
bench_bench_step_ir_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_step_ir_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_step_ir_LDADD = lib/libvelstatus.la
bench_bench_decode_ir_SOURCES = bench/bench_decode_ir.c
bench_bench_decode_ir_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include
bench_bench_decode_ir_CFLAGS = $(VS_TEST_CFLAGS) $(JANSSON_CFLAGS)
bench_bench_decode_ir_LDADD = lib/libvelstatus.la $(JANSSON_LIBS)

# The Go peer (bench/go-peer: Velero's types and loop, standard library
# only), built with the Debian toolchain, offline (GOPROXY=off), its caches
# under the build directory ($(GO) from configure). Without it the table
# leaves the peer's column out.
VS_GO_ENV = GOPATH=$(abs_builddir)/bench/go-peer/gopath GOCACHE=$(abs_builddir)/bench/go-peer/gocache \
	GOPROXY=off GOFLAGS= GO111MODULE=on CGO_ENABLED=0
bench/go-peer/go-peer: $(srcdir)/bench/go-peer/main.go $(srcdir)/bench/go-peer/go.mod
	$(AM_V_GEN)$(MKDIR_P) bench/go-peer && cd $(srcdir)/bench/go-peer && \
	  $(VS_GO_ENV) $(GO) build -o $(abs_builddir)/bench/go-peer/go-peer .

BENCH_RECORDS = 100000
BENCH_RUNS = 9
# linearity: the same job at these sizes (records per CPU second)
BENCH_LINEAR = 1000 10000 100000 1000000
BENCH_WATCH_EVENTS = 100000
BENCH_FILE = bench/itemoperations-$(BENCH_RECORDS).json
.PHONY: bench
bench: bench/gen_itemops$(EXEEXT) bench/bench_operations$(EXEEXT) bench/bench_compare$(EXEEXT) tools/velstatus$(EXEEXT)
	$(AM_V_GEN)for n in $(BENCH_RECORDS) $(BENCH_LINEAR); do \
	  test -s bench/itemoperations-$$n.json || bench/gen_itemops$(EXEEXT) $$n >bench/itemoperations-$$n.json || exit 1; \
	done
	@py='$(PYTHON)'; test -n "$$py" || py=python3; test -s bench/watch-$(BENCH_WATCH_EVENTS).json || \
	  $$py $(top_srcdir)/tests/watch-stream.py bulk $(BENCH_WATCH_EVENTS) >bench/watch-$(BENCH_WATCH_EVENTS).json
	@py='$(PYTHON)'; test -n "$$py" || py=python3; test -s bench/watch-$(BENCH_WATCH_EVENTS)-indented.json || \
	  $$py $(top_srcdir)/tests/watch-stream.py bulk $(BENCH_WATCH_EVENTS) --indent >bench/watch-$(BENCH_WATCH_EVENTS)-indented.json
	@peer=-; \
	if test -n "$(GO)" && command -v $(GO) >/dev/null 2>&1; then \
	  $(MAKE) $(AM_MAKEFLAGS) bench/go-peer/go-peer && peer=bench/go-peer/go-peer; \
	else echo "make bench: no Go toolchain (go not found): the Go peer is left out"; fi; \
	lin=; for n in $(BENCH_LINEAR); do lin=$$lin$${lin:+,}bench/itemoperations-$$n.json; done; \
	bench/bench_compare$(EXEEXT) bench/bench_operations$(EXEEXT) $$peer $(BENCH_FILE) $(BENCH_RUNS) \
	  lin=$$lin cli=tools/velstatus$(EXEEXT) stream=bench/watch-$(BENCH_WATCH_EVENTS).json,bench/watch-$(BENCH_WATCH_EVENTS)-indented.json \
	  $(VS_BENCH_CODEC_ARGS)
EXTRA_DIST += bench/watch.sh bench/watch-soak.sh

# The codec table of `make bench`: the library's decode and encode beside
# simdjson's DOM parse and minify (bench/bench_simdjson.cpp, built only when
# configure found simdjson: Debian's libsimdjson-dev, a bench-only optional
# dependency) and the floors of one pass over the bytes (bench/bench_floor).
EXTRA_PROGRAMS += bench/bench_floor
bench_bench_floor_SOURCES = bench/bench_floor.c
bench_bench_floor_CFLAGS = $(VS_TEST_CFLAGS)
bench_bench_floor_LDADD =
EXTRA_DIST += bench/bench_simdjson.cpp
if VS_SIMDJSON
EXTRA_PROGRAMS += bench/bench_simdjson
bench_bench_simdjson_SOURCES = bench/bench_simdjson.cpp
bench_bench_simdjson_CXXFLAGS = -O2 $(SIMDJSON_CFLAGS)
bench_bench_simdjson_LDADD = $(SIMDJSON_LIBS)
VS_BENCH_SIMDJSON_PROG = bench/bench_simdjson$(EXEEXT)
VS_BENCH_SIMDJSON = $(VS_BENCH_SIMDJSON_PROG)
else
VS_BENCH_SIMDJSON_PROG =
VS_BENCH_SIMDJSON = -
endif
VS_BENCH_CODEC_ARGS = floor=bench/bench_floor$(EXEEXT) simd=$(VS_BENCH_SIMDJSON)
bench: bench/bench_floor$(EXEEXT) $(VS_BENCH_SIMDJSON_PROG)
CLEANFILES += bench/itemoperations-*.json bench/watch-*.json bench/callgrind.*.out bench/cachegrind.*.out $(EXTRA_PROGRAMS)
clean-local: clean-bench
clean-bench:
	-rm -rf bench/go-peer
EXTRA_DIST += bench/go-peer/main.go bench/go-peer/go.mod

# `make bench-ir`: callgrind instruction counts per operation of the steady
# step and reconcile loops, and per record of decoding (ours and a jansson
# whole-file DOM); then the same loops' simulated data-cache misses per
# operation over 100,000 records (callgrind --cache-sim=yes: cachegrind's
# simulator, limited to the loop by --toggle-collect, which valgrind 3.19's
# cachegrind lacks; a fixed 32 KiB D1 and 8 MiB last level, so the figures
# do not depend on the machine); repeatable where times are not; needs valgrind.
BENCH_IR_RECORDS = 10000
BENCH_IR_CACHE_RECORDS = 100000
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
	@test -s bench/itemoperations-$(BENCH_IR_CACHE_RECORDS).json || \
	  bench/gen_itemops$(EXEEXT) $(BENCH_IR_CACHE_RECORDS) >bench/itemoperations-$(BENCH_IR_CACHE_RECORDS).json
	@for fn in steady_steps steady_reconcile; do \
	  valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --LL=8388608,16,64 --callgrind-out-file=bench/cachegrind.$$fn.out --toggle-collect=$$fn \
	    bench/bench_step_ir$(EXEEXT) bench/itemoperations-$(BENCH_IR_CACHE_RECORDS).json >/dev/null 2>&1 || exit 1; \
	  set -- `sed -n 's/^totals: *//p' bench/cachegrind.$$fn.out`; \
	  echo "$$fn, $(BENCH_IR_CACHE_RECORDS) records: per operation `expr $$1 / $(BENCH_IR_CACHE_RECORDS)` instructions," \
	    "D1 misses `awk -v r=$$5 -v w=$$6 -v n=$(BENCH_IR_CACHE_RECORDS) 'BEGIN { printf "%.2f", (r + w) / n }'`," \
	    "last-level misses `awk -v r=$$8 -v w=$$9 -v n=$(BENCH_IR_CACHE_RECORDS) 'BEGIN { printf "%.2f", (r + w) / n }'`"; \
	done
EXTRA_DIST += bench/README.md
