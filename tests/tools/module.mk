# tests/tools/module.mk — host-side helper programs for the shell tests.
# wirepoke: a raw protocol client (tests/tools/wirepoke.c), linked with the
# host build of the wire library.
WIREPOKE := build/tests/tools/wirepoke
TEST_BINS += $(WIREPOKE)

$(WIREPOKE): tests/tools/wirepoke.c $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -Iwrappers -o $@ tests/tools/wirepoke.c \
		$(HOST_WIRE_LIB) -lmsgpackc
