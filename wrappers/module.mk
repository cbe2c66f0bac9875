# wrappers/module.mk — the paravt runtime linked into user programs.
#   Issue 3: the runtime core (rt_*.c): channel to the local paravtd,
#   program start/exit, shadow stack, crash handler.  Its objects go into
#   libparavt.a together with the breakpoint runtime, the wire library and
#   the node half of typedesc (see breakpoints/module.mk, which builds the
#   archive).  Issue 4 adds the PVM/MPI wrappers and the event buffer here:
#   append their sources to PVT_RT_SRCS.
PVT_RT_SRCS := wrappers/rt_chan.c wrappers/rt_stack.c wrappers/rt_crash.c \
	wrappers/rt_start.c

$(B)/obj/wrappers/%.o: NODE_CFLAGS += -Ibreakpoints -Itypedesc -Iwrappers
