# tests/bench/module.mk — benchmarks: framing throughput (memory and
# loopback TCP) and handshake time against a private paravtd.
#
#   make bench         build and run everything (tests/bench/run.sh)
# Every bench appends itself to BENCH_BINS; the bench rule itself is in
# tests/module.mk, after this file, because a rule's prerequisites are
# expanded when make reads it.
BENCH_NAMES := bench_frame bench_handshake
BENCH_BINS += $(BENCH_NAMES:%=build/tests/bench/%)
BENCH_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -Iwire \
	$(shell pkg-config --cflags msgpack 2>/dev/null) -MMD -MP
TEST_BINS += $(BENCH_NAMES:%=build/tests/bench/%)

$(BENCH_NAMES:%=build/tests/bench/%): build/tests/bench/%: \
		tests/bench/%.c $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(BENCH_CFLAGS) -o $@ $< $(HOST_WIRE_LIB) -lmsgpackc \
		-lpthread

# Instrumentation speed (console/inst/con_inst*.c, libclang).
BENCH_BINS += build/tests/bench/bench_inst
TEST_BINS += build/tests/bench/bench_inst
build/tests/bench/bench_inst: tests/bench/bench_inst.c $(CON_INST_LIB) \
		$(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(BENCH_CFLAGS) $(CON_INCLUDES) -o $@ $< $(CON_INST_LIB) \
		$(HOST_WIRE_LIB) -L$(LLVM_DIR)/lib -lclang \
		-Wl,-rpath,$(LLVM_DIR)/lib

# Event runtime overhead (wrappers/rt_event.c): links the host port's
# libparavt.a; run attached to ev_sink -q by run.sh.
BENCH_BINS += build/tests/bench/bench_events
TEST_BINS += build/tests/bench/bench_events
build/tests/bench/bench_events: tests/bench/bench_events.c \
		build/linux-x86_64/lib/libparavt.a
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(BENCH_CFLAGS) -Iwrappers -Ibreakpoints -Itypedesc -o $@ $< \
		build/linux-x86_64/lib/libparavt.a -lmsgpackc

# Analysis throughput (console/ana: match + compensate + order + sort) on a
# synthetic 64-task, 10 M-event trace.
BENCH_BINS += build/tests/bench/bench_ana
TEST_BINS += build/tests/bench/bench_ana
build/tests/bench/bench_ana: tests/bench/bench_ana.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(BENCH_CFLAGS) -Iconsole/ana -Iwrappers -o $@ $< \
		$(ANA_LIB) $(ANA_LIBS)

# Trace file write and read throughput (console/trace/con_tfile*.c): linked with
# every console object but main.
BENCH_BINS += build/tests/bench/bench_tfile
TEST_BINS += build/tests/bench/bench_tfile
build/tests/bench/bench_tfile: tests/bench/bench_tfile.c \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(CON_CFLAGS) -o $@ $< \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB) $(CON_LIBS) $(ANA_LIBS)

# Prediction speed (console/ana/ana_sim.c): a synthetic 64-task trace
# simulated on a three-level machine, events/s on one core.
BENCH_BINS += build/tests/bench/bench_sim
TEST_BINS += build/tests/bench/bench_sim
build/tests/bench/bench_sim: tests/bench/bench_sim.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(BENCH_CFLAGS) -Iconsole/ana -Iwrappers -o $@ $< \
		$(ANA_LIB) $(ANA_LIBS)
