# console/module.mk — paravt, the console; built for the host only.
#
# One static library per room (console/README), linked top to bottom:
#   main.c → cli → session → inst → trace → net → ana (libpvtana)
# so a call from a room to one above it fails to link; the include order
# itself is checked by tests/tools/layers.sh.  The console also links the
# console side of breakpoints/ (the breakpoint model) and typedesc/.
include console/ana/module.mk
CON_ROOMS := cli session inst trace net
$(foreach r,$(CON_ROOMS),$(eval CON_$(r)_SRCS := $(wildcard console/$(r)/*.c)))
$(foreach r,$(CON_ROOMS),$(eval CON_$(r)_OBJS := \
	$(CON_$(r)_SRCS:%.c=build/console/obj/%.o)))
$(foreach r,$(CON_ROOMS),$(eval CON_$(r)_LIB := build/console/lib/libcon_$(r).a))
# The console side of breakpoints/: the model, and the arithmetic of
# expressions it shares with the task.
CON_BP_SRCS := breakpoints/bp_model.c breakpoints/bp_num.c
CON_session_OBJS += $(CON_BP_SRCS:%.c=build/console/obj/%.o)
CONSOLE_SRCS := console/main.c $(foreach r,$(CON_ROOMS),$(CON_$(r)_SRCS))
# Every room but main, in link order (tests and tools link these).
CONSOLE_LIBS := $(foreach r,$(CON_ROOMS),$(CON_$(r)_LIB)) $(ANA_LIB)
CON_INST_LIB := $(CON_inst_LIB)
CON_NET_LIB := $(CON_net_LIB)
CON_INCLUDES := $(foreach r,$(CON_ROOMS),-Iconsole/$(r)) -Iconsole/ana
CONSOLE_BIN := $(HB)/bin/paravt

.PHONY: console
console: $(CONSOLE_BIN)

define con_room_lib
$(CON_$(1)_LIB): $(CON_$(1)_OBJS)
	$$(Q)mkdir -p $$(dir $$@)
	$$(call say,AR,$$@)rm -f $$@ && $$(AR) rcs $$@ $(CON_$(1)_OBJS)
endef
$(foreach r,$(CON_ROOMS),$(eval $(call con_room_lib,$(r))))

$(CONSOLE_BIN): build/console/obj/console/main.o $(CONSOLE_LIBS) $(TD_CON_LIB) \
		$(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(HOSTCC) -o $@ build/console/obj/console/main.o \
		$(CONSOLE_LIBS) $(TD_CON_LIB) $(HOST_WIRE_LIB) $(CON_LIBS) $(ANA_LIBS)
	$(call say,CHECK,layers)sh tests/tools/layers.sh --quiet --symbols || \
		{ rm -f $@; exit 1; }

ifneq ($(PORT),$(HOST_PORT))
$(HOST_WIRE_LIB):
	$(Q)$(MAKE) node PORT=$(HOST_PORT)
endif
