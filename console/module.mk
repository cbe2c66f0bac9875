# console/module.mk — paravt, the console; built for the host only.
# It also links the console side of breakpoints/ (the breakpoint model)
# and the analysis library (console/ana/).
include console/ana/module.mk
CONSOLE_SRCS := $(wildcard console/*.c)
CONSOLE_OBJS := $(CONSOLE_SRCS:%.c=build/console/obj/%.o) \
	build/console/obj/breakpoints/bp_model.o
CONSOLE_BIN := $(HB)/bin/paravt

.PHONY: console
console: $(CONSOLE_BIN)

$(CONSOLE_BIN): $(CONSOLE_OBJS) $(ANA_LIB) $(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(HOSTCC) -o $@ $(CONSOLE_OBJS) $(ANA_LIB) $(TD_CON_LIB) \
		$(HOST_WIRE_LIB) $(CON_LIBS) $(ANA_LIBS)

ifneq ($(PORT),$(HOST_PORT))
$(HOST_WIRE_LIB):
	$(Q)$(MAKE) node PORT=$(HOST_PORT)
endif
