# tests/bench/module.mk — benchmarks: framing throughput (memory and
# loopback TCP) and handshake time against a private paravtd.
#
#   make bench         build and run everything (tests/bench/run.sh)
BENCH_NAMES := bench_frame bench_handshake
BENCH_BINS += $(BENCH_NAMES:%=build/tests/bench/%)
BENCH_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -Iwire \
	$(shell pkg-config --cflags msgpack 2>/dev/null) -MMD -MP
TEST_BINS += $(BENCH_NAMES:%=build/tests/bench/%)

$(BENCH_NAMES:%=build/tests/bench/%): build/tests/bench/%: \
		tests/bench/%.c $(HOST_WIRE_LIB)
	@mkdir -p $(dir $@)
	$(TESTCC) $(BENCH_CFLAGS) -o $@ $< $(HOST_WIRE_LIB) -lmsgpackc \
		-lpthread

bench: $(BENCH_BINS) all
	@tests/bench/run.sh
