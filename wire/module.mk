# wire/module.mk — the protocol library, built for every port.
WIRE_SRCS := wire/wire.c wire/wire_buf.c wire/wire_frame.c wire/wire_abi.c \
	wire/wire_msg.c wire/wire_peer.c wire/wire_token.c \
	wire/wire_fmt.c wire/wire_flags.c wire/wire_ev.c wire/wire_evpk.c \
	wire/wire_evsum.c
WIRE_LIB := $(B)/lib/libpvtwire.a
HOST_WIRE_LIB := $(HB)/lib/libpvtwire.a
NODE_TARGETS += $(WIRE_LIB)

$(WIRE_LIB): $(WIRE_SRCS:%.c=$(B)/obj/%.o)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^
