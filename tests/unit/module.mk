# tests/unit/module.mk — cmocka unit tests of wire/, one binary per file
# (tests/unit/test_*.c -> build/tests/unit/test_*), linked with the host
# wire library.  tests/run.sh unit runs them.
UNIT_NAMES := test_wire_buf test_wire_frame test_wire_msg test_wire_peer \
	test_wire_token test_wire_fmt test_wire_flags test_wire_ev \
	test_wire_evpk test_wire_evsum
UNIT_BINS := $(UNIT_NAMES:%=build/tests/unit/%)
UNIT_LIBS = $(shell pkg-config --libs cmocka msgpack 2>/dev/null || \
	echo -lcmocka -lmsgpackc) -lpthread
TEST_BINS += $(UNIT_BINS)

$(UNIT_BINS): build/tests/unit/%: tests/unit/%.c $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Itests/unit -o $@ $< $(HOST_WIRE_LIB) \
		$(UNIT_LIBS)

# The instrumenter (console/inst/con_inst*.c): linked with the console objects
# it needs, libclang (rpath) and the host wire library (wire_buf).
TEST_BINS += build/tests/unit/test_con_inst

build/tests/unit/test_con_inst: tests/unit/test_con_inst.c $(CON_INST_LIB) \
		$(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Itests/unit -o $@ $< $(CON_INST_LIB) \
		$(HOST_WIRE_LIB) $(UNIT_LIBS) -L$(LLVM_DIR)/lib -lclang \
		-Wl,-rpath,$(LLVM_DIR)/lib

# inst_tool: command-line driver of the instrumenter for the shell tests.
build/tests/inst_tool: tests/instrument/inst_tool.c $(CON_INST_LIB) \
		$(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -o $@ $< $(CON_INST_LIB) $(HOST_WIRE_LIB) \
		-L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib
TEST_BINS += build/tests/inst_tool

# The figures of a trace and the HTML report (console/ana/ana_stats.c,
# ana_out_html.c): linked with the analysis library.
ANA_STATS_TESTS := build/tests/unit/test_ana_stats \
	build/tests/unit/test_ana_html
TEST_BINS += $(ANA_STATS_TESTS)

$(ANA_STATS_TESTS): build/tests/unit/%: tests/unit/%.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

# The wait-for graph, deadlock detection and the report
# (console/ana/ana_hang.c, ana_hang_text.c).
TEST_BINS += build/tests/unit/test_ana_hang

build/tests/unit/test_ana_hang: tests/unit/test_ana_hang.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

# The exports (console/ana/ana_out_chrome.c, ana_out_otf2.c) and the calls
# walker they share (ana_walk.c); otf2-print reads the archive back.
TEST_BINS += build/tests/unit/test_ana_out

build/tests/unit/test_ana_out: tests/unit/test_ana_out.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

# The analysis passes of issue 5 (console/ana/ana_clock.c, ana_match.c,
# ana_comp.c, ana_order.c, ana_sort.c).
TEST_BINS += build/tests/unit/test_ana

build/tests/unit/test_ana: tests/unit/test_ana.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

# Communicators, requests, send STARTs, multicast destinations and PVM
# group roots in the analysis (console/ana/ana_match.c, ana_pass.c).
TEST_BINS += build/tests/unit/test_ana_comm

build/tests/unit/test_ana_comm: tests/unit/test_ana_comm.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

# The console's clock registry (console/net/con_clk.c) with the real clock fit;
# the test stands in for the trace file hook.
TEST_BINS += build/tests/unit/test_con_clk

build/tests/unit/test_con_clk: tests/unit/test_con_clk.c \
		$(CON_NET_LIB) $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< \
		$(CON_NET_LIB) $(ANA_LIB) $(ANA_LIBS) \
		$(UNIT_LIBS)

# The console's breakpoint model (breakpoints/bp_model.c), alone.
TEST_BINS += build/tests/unit/test_bp_model

build/tests/unit/test_bp_model: tests/unit/test_bp_model.c \
		breakpoints/bp_model.c breakpoints/bp_model.h
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Ibreakpoints -o $@ $< breakpoints/bp_model.c \
		$(UNIT_LIBS)

# The trace file writer and reader (console/trace/con_tfile*.c): linked with
# every console object but main.
TEST_BINS += build/tests/unit/test_con_tfile

build/tests/unit/test_con_tfile: tests/unit/test_con_tfile.c \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB) $(CON_LIBS) $(ANA_LIBS) \
		$(UNIT_LIBS)

# Performance prediction: the machine file and the simulation
# (console/ana/ana_sim_mach.c, ana_sim.c).
TEST_BINS += build/tests/unit/test_ana_sim

build/tests/unit/test_ana_sim: tests/unit/test_ana_sim.c $(ANA_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< $(ANA_LIB) \
		$(ANA_LIBS) $(UNIT_LIBS)

CON_EXPR_SRCS := console/session/con_expr.c console/session/con_expr_fmt.c \
	console/session/con_expr_cast.c \
	console/session/con_expr_code.c breakpoints/bp_num.c
# Conditions run by the task (breakpoints/bp_cond.c) from code compiled
# by con_expr.c, against C's own answers.
TEST_BINS += build/tests/unit/test_bp_cond

build/tests/unit/test_bp_cond: tests/unit/test_bp_cond.c $(CON_EXPR_SRCS) \
		breakpoints/bp_cond.c breakpoints/bp_cond.h console/session/con_expr.h \
		$(TD_CON_LIB) $(HOST_TD_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Ibreakpoints -Itypedesc \
		-Iconsole/session -o $@ $< $(CON_EXPR_SRCS) breakpoints/bp_cond.c \
		$(TD_CON_LIB) $(HOST_TD_LIB) $(HOST_WIRE_LIB) $(UNIT_LIBS) \
		-lmsgpackc -lm

# print's C expressions (console/session/con_expr.c), alone.
TEST_BINS += build/tests/unit/test_con_expr

build/tests/unit/test_con_expr: tests/unit/test_con_expr.c $(CON_EXPR_SRCS) \
		console/session/con_expr.h breakpoints/bp_num.h breakpoints/bp_code.h
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Ibreakpoints -o $@ $< \
		$(CON_EXPR_SRCS) $(UNIT_LIBS) -lmsgpackc -lm

# The runtime's clock (wrappers/rt_clock.c): built from its source.
TEST_BINS += build/tests/unit/test_rt_clock

build/tests/unit/test_rt_clock: tests/unit/test_rt_clock.c wrappers/rt_clock.c \
		wrappers/rt_clock.h
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iwrappers -o $@ $< \
		wrappers/rt_clock.c $(UNIT_LIBS)

# The daemon's share of the CPU wait (daemon/relay/dmn_share.c) and the
# cgroups' throttled time (dmn_cgroup.c), alone.
# Removing what tasks and jobs left in memory (daemon/work/dmn_shm.c).
TEST_BINS += build/tests/unit/test_dmn_shm

build/tests/unit/test_dmn_shm: tests/unit/test_dmn_shm.c \
		daemon/work/dmn_shm.c daemon/work/dmn_work.h
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Idaemon/work -Idaemon/conn \
		-Iwire -Iwrappers -I$(B)/include -o $@ $< daemon/work/dmn_shm.c \
		$(UNIT_LIBS)

TEST_BINS += build/tests/unit/test_dmn_share

build/tests/unit/test_dmn_share: tests/unit/test_dmn_share.c \
		daemon/relay/dmn_share.c daemon/relay/dmn_share.h \
		daemon/relay/dmn_cgroup.c daemon/relay/dmn_cgroup.h \
		wrappers/pvt_ring.h
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Idaemon/relay -Iwrappers \
		-o $@ $< daemon/relay/dmn_share.c daemon/relay/dmn_cgroup.c \
		$(UNIT_LIBS)
