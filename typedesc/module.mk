# typedesc/module.mk — type descriptions.
#   node side  libpvttd.a (per port): model helpers, table/value serialiser,
#              request server, readability probe (C99 + POSIX).
#   console    build/console/lib/libpvttdcon.a: table and value decoder,
#              printer, value paths (C11).
#   tests      build/tests/unit/test_td_* (cmocka), build/$(PORT)/tests/
#              td_probe (test program with a hand-written table, every
#              port), build/tests/td_show (host tool that drives a probe and
#              prints), build/tests/td_bench (serialisation throughput).
TD_SHARED_SRCS := typedesc/td_common.c typedesc/td_req.c
TD_NODE_SRCS := $(TD_SHARED_SRCS) typedesc/td_node.c typedesc/td_serve.c \
	typedesc/td_probe.c
TD_CON_SRCS := $(TD_SHARED_SRCS) typedesc/td_dec.c typedesc/td_print.c \
	typedesc/td_path.c
TD_LIB := $(B)/lib/libpvttd.a
HOST_TD_LIB := $(HB)/lib/libpvttd.a
TD_CON_LIB := build/console/lib/libpvttdcon.a
TD_PROBE := $(B)/tests/td_probe
NODE_TARGETS += $(TD_LIB) $(TD_PROBE)

$(TD_LIB): $(TD_NODE_SRCS:%.c=$(B)/obj/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(TD_CON_LIB): $(TD_CON_SRCS:%.c=build/console/obj/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

# The test program and its hand-written table (what the instrumenter will
# generate), built like a user program for the port.
TD_PROBE_SRCS := tests/typedesc/td_probe.c tests/typedesc/td_probe_types.c \
	tests/typedesc/td_fixture.c
$(B)/obj/tests/typedesc/%.o: NODE_CFLAGS += -Itypedesc
$(B)/obj/typedesc/%.o: NODE_CFLAGS += -Itypedesc
$(TD_PROBE): $(TD_PROBE_SRCS:%.c=$(B)/obj/%.o) $(TD_LIB) $(WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $(TD_PROBE_SRCS:%.c=$(B)/obj/%.o) \
		$(TD_LIB) $(WIRE_LIB) $(MSGPACK_LIBS)

build/console/obj/typedesc/%.o: CON_CFLAGS += -Itypedesc

# Host-only test binaries (built with the default PORT).
TD_TEST_CFLAGS = $(TEST_CFLAGS) -Itypedesc -Itests/typedesc
TD_UNIT_BINS := build/tests/unit/test_td_roundtrip build/tests/unit/test_td_bad \
	build/tests/unit/test_td_path

TD_TOOLS := build/tests/td_show build/tests/td_bench

ifeq ($(PORT),$(HOST_PORT))
test-bins: $(TD_UNIT_BINS) $(TD_TOOLS)
endif

.PHONY: typedesc td-bench
typedesc: $(TD_LIB) $(TD_CON_LIB) $(TD_PROBE) $(TD_UNIT_BINS) $(TD_TOOLS)

# The unit tests use the test program's table and variables (compiled for
# the host into the test binary) plus both halves of typedesc.
TD_FIXTURE_OBJS := $(HB)/obj/tests/typedesc/td_probe_types.o \
	$(HB)/obj/tests/typedesc/td_fixture.o

build/tests/unit/test_td_%: tests/typedesc/test_td_%.c $(TD_FIXTURE_OBJS) \
		$(HOST_TD_LIB) $(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TD_TEST_CFLAGS) -o $@ $< $(TD_FIXTURE_OBJS) $(TD_CON_LIB) \
		$(HOST_TD_LIB) $(HOST_WIRE_LIB) -lcmocka -lmsgpackc

build/tests/td_show: tests/typedesc/td_show.c $(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TD_TEST_CFLAGS) -o $@ $< $(TD_CON_LIB) $(HOST_WIRE_LIB) \
		-lmsgpackc

# The bench: host binary at build/tests/td_bench (make td-bench runs it);
# any port's at build/$(PORT)/tests/td_bench (run it with RUN_PREFIX).
build/tests/td_bench: $(HB)/tests/td_bench
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

$(B)/tests/td_bench: $(B)/obj/tests/typedesc/td_bench.o $(TD_LIB) $(WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $< $(TD_LIB) $(WIRE_LIB) $(MSGPACK_LIBS)

td-bench: build/tests/td_bench
	$(Q)build/tests/td_bench
