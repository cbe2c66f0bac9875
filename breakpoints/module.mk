# breakpoints/module.mk — the breakpoint runtime and libparavt.a.
#   node side  build/$(PORT)/lib/libparavt.a: everything an instrumented
#              program links besides msgpack-c — the runtime core
#              (wrappers/rt_*.c, PVT_RT_SRCS), the breakpoint runtime
#              (bp_rt.c), the wire library and the node half of typedesc —
#              and build/$(PORT)/include/{paravt_rt.h,td.h}, the headers
#              generated code includes.  The daemon compiles user programs
#              with -I build/$(PORT)/include and links libparavt.a plus the
#              port's MSGPACK_LIBS.
#   tests      build/$(PORT)/tests/rt_prog (hand-instrumented program,
#              every port, built exactly as the daemon builds one);
#              build/tests/rt_fakedmn (host: the daemon's side, for
#              tests/integration/70-runtime-bp.sh).
BP_NODE_SRCS := breakpoints/bp_rt.c breakpoints/bp_live.c breakpoints/bp_cond.c \
	breakpoints/bp_num.c
PVT_LIB := $(B)/lib/libparavt.a
PVT_HEADERS := $(B)/include/paravt_rt.h $(B)/include/td.h
PVT_LIB_SRCS := $(PVT_RT_SRCS) $(BP_NODE_SRCS) $(WIRE_SRCS) $(TD_NODE_SRCS)
RT_PROG := $(B)/tests/rt_prog
RT_FAKEDMN := build/tests/rt_fakedmn
NODE_TARGETS += $(PVT_LIB) $(PVT_HEADERS) $(RT_PROG)

$(B)/obj/breakpoints/%.o: NODE_CFLAGS += -Ibreakpoints -Itypedesc -Iwrappers

$(PVT_LIB): $(PVT_LIB_SRCS:%.c=$(B)/obj/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(B)/include/paravt_rt.h: breakpoints/paravt_rt.h
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

$(B)/include/td.h: typedesc/td.h
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

# The test program sees only the installed headers, as a user program
# built by the daemon does.
$(B)/obj/tests/runtime/rt_prog.o: tests/runtime/rt_prog.c $(PVT_HEADERS)
	$(Q)mkdir -p $(dir $@)
	$(call say,CC,$(PTAG)$<)$(CC) -std=c99 $(PORT_CFLAGS) $(WARN) -I$(B)/include -MMD -MP \
		-c -o $@ $<

$(RT_PROG): $(B)/obj/tests/runtime/rt_prog.o $(PVT_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $< $(PVT_LIB) $(MSGPACK_LIBS)

$(RT_FAKEDMN): tests/runtime/rt_fakedmn.c $(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Itypedesc -o $@ $< $(TD_CON_LIB) \
		$(HOST_WIRE_LIB) -lmsgpackc

ifeq ($(PORT),$(HOST_PORT))
test-bins: $(RT_FAKEDMN)
endif

.PHONY: runtime
runtime: $(PVT_LIB) $(PVT_HEADERS) $(RT_PROG) $(RT_FAKEDMN)
