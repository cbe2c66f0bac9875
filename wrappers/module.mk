# wrappers/module.mk — the paravt runtime linked into user programs.
#   Issue 3: the runtime core (rt_*.c): channel to the local paravtd,
#   program start/exit, shadow stack, crash handler.  Its objects go into
#   libparavt.a together with the breakpoint runtime, the wire library and
#   the node half of typedesc (see breakpoints/module.mk, which builds the
#   archive).  Issue 4 adds the PVM/MPI wrappers and the event buffer here:
#   append their sources to PVT_RT_SRCS.
PVT_RT_SRCS := wrappers/rt_chan.c wrappers/rt_stack.c wrappers/rt_crash.c \
	wrappers/rt_sigsafe.c \
	wrappers/rt_start.c

$(B)/obj/wrappers/%.o: NODE_CFLAGS += -Ibreakpoints -Itypedesc -Iwrappers

# ---- issue 4: event buffer, PVM and MPI wrappers ---------------------------
#   libparavt.a       + rt_event.c (event buffer, Δ, flushes)
#   libparavt_pvm.a   para_vt_pvm.c, built with the port's PVM_CFLAGS; link
#                     it before libparavt.a and the port's PVM_LIBS
#   include/          paravt_pvm.h (the header the instrumenter injects)
#                     and pvt_event.h (the record, for decoders)
#   libparavt_mpi.a, libparavt_mpi.so   host port only, when mpicc exists
#                     (Open MPI): the PMPI wrappers; the .so carries the
#                     whole runtime (PIC objects) for LD_PRELOAD
#   tests             $(B)/tests/ev_sink (every port: decodes that port's
#                     native records), build/tests/wrappers/* helpers
PVT_RT_SRCS += wrappers/rt_event.c wrappers/rt_ring.c wrappers/rt_clock.c \
	wrappers/rt_stall.c
PVT_PVM_LIB := $(B)/lib/libparavt_pvm.a
PVT_EV_HEADERS := $(B)/include/paravt_pvm.h $(B)/include/pvt_event.h \
	$(B)/include/paravt_mpi.h
EV_SINK := $(B)/tests/ev_sink
NODE_TARGETS += $(PVT_PVM_LIB) $(PVT_EV_HEADERS) $(EV_SINK)

$(B)/obj/wrappers/para_vt_pvm.o: NODE_CFLAGS += $(PVM_CFLAGS) $(PVM_WRAP_CFLAGS)

$(PVT_PVM_LIB): $(B)/obj/wrappers/para_vt_pvm.o
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(B)/include/paravt_pvm.h: wrappers/paravt_pvm.h
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

$(B)/include/paravt_mpi.h: wrappers/paravt_mpi.h
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

$(B)/include/pvt_event.h: wrappers/pvt_event.h
	$(Q)mkdir -p $(dir $@)
	$(call say,CP,$@)cp $< $@

# The event sink: the daemon's side of the task socket for the tests,
# built for every port (records are native).  Uses the wire library
# inside libparavt.a, and the daemon's ring reader (dmn_ring.c, with the
# mapping of a shared file, dmn_shm.c) for -r.
$(B)/obj/tests/wrappers/%.o: NODE_CFLAGS += -Iwrappers -Idaemon/relay
EV_SINK_DMN = $(B)/obj/daemon/relay/dmn_ring.o $(B)/obj/daemon/work/dmn_shm.o
$(EV_SINK): $(B)/obj/tests/wrappers/ev_sink.o $(EV_SINK_DMN) \
		$(B)/lib/libparavt.a
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $< \
		$(EV_SINK_DMN) $(B)/lib/libparavt.a $(MSGPACK_LIBS)

# MPI (host port, Open MPI's mpicc).
MPICC ?= mpicc
ifeq ($(PORT),$(HOST_PORT))
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
PVT_MPI_A := $(B)/lib/libparavt_mpi.a
PVT_MPI_SO := $(B)/lib/libparavt_mpi.so
PVT_PIC_SRCS := $(PVT_RT_SRCS) breakpoints/bp_rt.c breakpoints/bp_live.c $(WIRE_SRCS) \
	$(TD_NODE_SRCS)
NODE_TARGETS += $(PVT_MPI_A) $(PVT_MPI_SO)

$(B)/pic/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call say,CC,[pic] $<)$(CC) $(NODE_CFLAGS) -Ibreakpoints -Itypedesc -Iwrappers -fPIC \
		-c -o $@ $<

# The wrapper files of the PMPI library (pvt_mpi.h).
PVT_MPI_SRCS := wrappers/pvt_mpi.c wrappers/pvt_mpi_cal.c \
	wrappers/pvt_mpi_p2p.c wrappers/pvt_mpi_wait.c wrappers/pvt_mpi_coll.c \
	wrappers/pvt_mpi_comm.c wrappers/pvt_mpi_map.c
PVT_MPI_OBJS := $(PVT_MPI_SRCS:%.c=$(B)/pic/%.o)

$(PVT_MPI_OBJS): $(B)/pic/wrappers/%.o: wrappers/%.c
	$(Q)mkdir -p $(dir $@)
	$(call say,MPICC,$<)$(MPICC) $(NODE_CFLAGS) -Iwrappers -fPIC -c -o $@ $<

$(PVT_MPI_A): $(PVT_MPI_OBJS)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(PVT_MPI_SO): $(PVT_MPI_OBJS) $(PVT_PIC_SRCS:%.c=$(B)/pic/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(MPICC) -shared -o $@ $^ $(MSGPACK_LIBS)
endif

# The PVM wrappers for LD_PRELOAD (host port: its libpvm3 is shared):
# para_vt_pvm.c again, with PVT_PVM_PRELOAD, the pvm_* names of
# pvt_pvm_preload.c and the whole runtime; not PVM_WRAP_CFLAGS (the
# library is preloaded into processes without libpvm3 too, where
# pvmmyctx is not defined).
PVT_PVM_SO := $(B)/lib/libparavt_pvm.so
NODE_TARGETS += $(PVT_PVM_SO)

$(B)/pic/wrappers/pre/%.o: wrappers/%.c
	$(Q)mkdir -p $(dir $@)
	$(call say,CC,[preload] $<)$(CC) $(NODE_CFLAGS) $(PVM_CFLAGS) -DPVT_PVM_PRELOAD -Iwrappers -fPIC \
		-c -o $@ $<

$(PVT_PVM_SO): $(B)/pic/wrappers/pre/para_vt_pvm.o \
		$(B)/pic/wrappers/pre/pvt_pvm_preload.o \
		$(PVT_PIC_SRCS:%.c=$(B)/pic/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) -shared -o $@ $^ $(MSGPACK_LIBS) -ldl
endif

# The crashing test task (every port).
EV_CRASH := $(B)/tests/ev_crash
NODE_TARGETS += $(EV_CRASH)
$(EV_CRASH): $(B)/obj/tests/wrappers/ev_crash.o $(B)/lib/libparavt.a
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $< $(B)/lib/libparavt.a $(MSGPACK_LIBS)
$(B)/obj/tests/wrappers/ev_crash.o: NODE_CFLAGS += -Ibreakpoints -Itypedesc

# Every Linux port: libparavt_sigerrno.so, which keeps errno across the
# signal handlers of a program that does not (pvt_sigerrno.c); paravtd
# preloads it into a pvmd it runs under an emulator.
ifeq ($(PORT_OS),Linux)
PVT_SIGERRNO := $(B)/lib/libparavt_sigerrno.so
NODE_TARGETS += $(PVT_SIGERRNO)
$(PVT_SIGERRNO): wrappers/pvt_sigerrno.c
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(PORT_CFLAGS) $(WARN) -std=c99 -fPIC -shared -o $@ $<
endif
