# daemon/module.mk — paravtd, built for every port.
DAEMON_SRCS := $(wildcard daemon/*.c)
DAEMON_BIN := $(B)/bin/paravtd
NODE_TARGETS += $(DAEMON_BIN)

$(DAEMON_BIN): $(DAEMON_SRCS:%.c=$(B)/obj/%.o) $(WIRE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(NODE_LDFLAGS) -o $@ $(DAEMON_SRCS:%.c=$(B)/obj/%.o) \
		$(WIRE_LIB) $(MSGPACK_LIBS)
