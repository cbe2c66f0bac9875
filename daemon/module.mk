# daemon/module.mk — paravtd, built for every port.
#
# The daemon builds user programs with its port's settings at run time:
# build/$(PORT)/include/pvt_portconf.h holds make's expanded values of the
# port file (CC, PORT_CFLAGS, PORT_LDFLAGS, MSGPACK_LIBS, RUN_PREFIX,
# PORT_NAME, PVM_ARCH, PVM_CFLAGS, PVM_LIBS, PORT_NATIVE, SYSROOT: the target
# libraries of an emulated port, whose pvmd and pvmgs REXEC runs) as C strings.  It is rewritten on every make but replaced only
# when its text changes, so nothing is rebuilt needlessly.
#
# One static library per room (daemon/README), linked top to bottom:
#   main.c → relay → work → conn
# (tests/tools/layers.sh checks the includes and the calls).
DMN_ROOMS := relay work conn
$(foreach r,$(DMN_ROOMS),$(eval DMN_$(r)_OBJS := \
	$(patsubst %.c,$$(B)/obj/%.o,$(wildcard daemon/$(r)/*.c))))
DMN_LIBS = $(foreach r,$(DMN_ROOMS),$(B)/lib/libdmn_$(r).a)
DAEMON_SRCS := daemon/main.c $(foreach r,$(DMN_ROOMS),$(wildcard daemon/$(r)/*.c))
DAEMON_OBJS = $(DAEMON_SRCS:%.c=$(B)/obj/%.o)
DAEMON_BIN := $(B)/bin/paravtd
PORTCONF_H := $(B)/include/pvt_portconf.h
NODE_TARGETS += $(DAEMON_BIN)

# $(call pvt_conf_line,NAME,VALUE): one '#define NAME "VALUE"' line, quoted
# for C (backslash, double quote) and then for sh (single quote).
pvt_hash := \#
pvt_cstr = $(subst ",\",$(subst \,\\,$(strip $(1))))
pvt_conf_line = '$(subst ','\'',$(pvt_hash)define $(1) "$(call pvt_cstr,$(2))")'

$(DAEMON_OBJS): NODE_CFLAGS += -I$(B)/include -Iwrappers \
	$(foreach r,$(DMN_ROOMS),-Idaemon/$(r))
$(B)/obj/daemon/work/dmn_port.o: $(PORTCONF_H)

$(PORTCONF_H): FORCE_PORTCONF
	$(Q)mkdir -p $(dir $@)
	$(Q)printf '%s\n' '/* Generated from ports/$(PORT).mk by daemon/module.mk. */' \
		$(call pvt_conf_line,PVT_PORT_NAME_CONF,$(PORT_NAME)) \
		$(call pvt_conf_line,PVT_PORT_CC,$(CC)) \
		$(call pvt_conf_line,PVT_PORT_CFLAGS,$(PORT_CFLAGS)) \
		$(call pvt_conf_line,PVT_PORT_LDFLAGS,$(PORT_LDFLAGS)) \
		$(call pvt_conf_line,PVT_PORT_MSGPACK_LIBS,$(MSGPACK_LIBS)) \
		$(call pvt_conf_line,PVT_PORT_RUN_PREFIX,$(RUN_PREFIX)) \
		$(call pvt_conf_line,PVT_PORT_PVM_ARCH,$(PVM_ARCH)) \
		$(call pvt_conf_line,PVT_PORT_PVM_CFLAGS,$(PVM_CFLAGS)) \
		$(call pvt_conf_line,PVT_PORT_PVM_LIBS,$(PVM_LIBS)) \
		$(call pvt_conf_line,PVT_PORT_NATIVE,$(PORT_NATIVE)) \
		$(call pvt_conf_line,PVT_PORT_SYSROOT,$(SYSROOT)) \
		>$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else \
		$(call step,GEN,$@)mv $@.tmp $@; fi

.PHONY: FORCE_PORTCONF
FORCE_PORTCONF:

define dmn_room_lib
$$(B)/lib/libdmn_$(1).a: $$(DMN_$(1)_OBJS)
	$$(Q)mkdir -p $$(dir $$@)
	$$(call say,AR,$$@)rm -f $$@ && $$(AR) rcs $$@ $$(DMN_$(1)_OBJS)
endef
$(foreach r,$(DMN_ROOMS),$(eval $(call dmn_room_lib,$(r))))

$(DAEMON_BIN): $(B)/obj/daemon/main.o $(DMN_LIBS) $(WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(NODE_LDFLAGS) -o $@ $(B)/obj/daemon/main.o \
		$(DMN_LIBS) $(WIRE_LIB) $(MSGPACK_LIBS)
