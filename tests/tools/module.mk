# tests/tools/module.mk — host-side helper programs for the shell tests.
# wirepoke: a raw protocol client (tests/tools/wirepoke.c), linked with the
# host build of the wire library.
WIREPOKE := build/tests/tools/wirepoke
TEST_BINS += $(WIREPOKE)

$(WIREPOKE): tests/tools/wirepoke.c $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iwrappers -o $@ tests/tools/wirepoke.c \
		$(HOST_WIRE_LIB) -lmsgpackc

# gentrace: writes a synthetic MPI ping-pong trace file of N round trips
# through the console's trace file writer (tests/tools/gentrace.c), linked
# with every console object but main.
GENTRACE := build/tests/tools/gentrace
TEST_BINS += $(GENTRACE)

$(GENTRACE): tests/tools/gentrace.c \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iconsole/ana -o $@ $< \
		$(CONSOLE_LIBS) \
		$(TD_CON_LIB) $(HOST_WIRE_LIB) $(CON_LIBS) $(ANA_LIBS) \
		$(UNIT_LIBS)

# connflood: holds N connections that never authenticate, renewing each
# as soon as the daemon closes it (tests/tools/connflood.c).
CONNFLOOD := build/tests/tools/connflood
TEST_BINS += $(CONNFLOOD)

$(CONNFLOOD): tests/tools/connflood.c
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -o $@ $<
