# tests/fuzz/module.mk — libFuzzer targets for the frame decoder, every
# message decoder and the msgpack bounds pass.  Each fuzzer compiles the
# wire sources itself with clang and the sanitizers (the gcc-built library
# has no coverage instrumentation).  Without clang no fuzzer is built.
#
#   make fuzz [FUZZ_SECONDS=60]   run each fuzzer that long; fails on a crash
#   make fuzz-seeds               regenerate tests/fuzz/seeds
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -g -O1 $(WARN) -Iwire \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(shell pkg-config --cflags msgpack 2>/dev/null)
FUZZ_LIBS = $(shell pkg-config --libs msgpack 2>/dev/null || echo -lmsgpackc)
FUZZ_WIRE_SRCS := wire/wire.c wire/wire_buf.c wire/wire_frame.c \
	wire/wire_abi.c wire/wire_msg.c
FUZZ_NAMES := fuzz_frame fuzz_check
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
FUZZ_BINS += $(FUZZ_NAMES:%=build/tests/fuzz/%)
endif

$(FUZZ_NAMES:%=build/tests/fuzz/%): build/tests/fuzz/%: tests/fuzz/%.c \
		$(FUZZ_WIRE_SRCS) $(wildcard wire/*.h)
	$(Q)mkdir -p $(dir $@)
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_WIRE_SRCS) $(FUZZ_LIBS)

build/tests/fuzz/gen_seeds: tests/fuzz/gen_seeds.c $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TEST_CFLAGS) -o $@ $< $(HOST_WIRE_LIB) -lmsgpackc

# Seeds of fuzz_typedesc and fuzz_request: the typedesc test program's
# table, values and requests (tests/fuzz/seeds-typedesc, seeds-request).
build/tests/fuzz/gen_td_seeds: tests/fuzz/gen_td_seeds.c $(TD_FIXTURE_OBJS) \
		$(HOST_TD_LIB) $(HOST_WIRE_LIB)
	$(Q)mkdir -p $(dir $@)
	$(call say,LD,$@)$(TESTCC) $(TD_TEST_CFLAGS) -o $@ $< $(TD_FIXTURE_OBJS) \
		$(HOST_TD_LIB) $(HOST_WIRE_LIB) -lmsgpackc

.PHONY: fuzz-seeds
fuzz-seeds: build/tests/fuzz/gen_seeds build/tests/fuzz/gen_td_seeds
	$(Q)mkdir -p tests/fuzz/seeds tests/fuzz/gen-td
	$(Q)build/tests/fuzz/gen_seeds tests/fuzz/seeds
	$(Q)build/tests/fuzz/gen_td_seeds tests/fuzz/gen-td && \
		rm -rf tests/fuzz/seeds-typedesc tests/fuzz/seeds-request && \
		mv tests/fuzz/gen-td/typedesc tests/fuzz/seeds-typedesc && \
		mv tests/fuzz/gen-td/request tests/fuzz/seeds-request && \
		rmdir tests/fuzz/gen-td

fuzz: $(FUZZ_BINS)
	$(Q)[ -n "$(FUZZ_BINS)" ] || { echo "fuzz: $(FUZZ_CC) not found"; exit 1; }
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/run.sh fuzz

# What a console decodes from a node (type tables, values, value paths)
# and what a node decodes from a console (value requests): the typedesc
# sources compiled with the fuzzer.
FUZZ_TD_NAMES := fuzz_typedesc fuzz_request
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
FUZZ_BINS += $(FUZZ_TD_NAMES:%=build/tests/fuzz/%)
endif

build/tests/fuzz/fuzz_typedesc: tests/fuzz/fuzz_typedesc.c $(TD_CON_SRCS) \
		$(FUZZ_WIRE_SRCS) $(wildcard typedesc/*.h wire/*.h)
	$(Q)mkdir -p $(dir $@)
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -Itypedesc -o $@ $< \
		$(TD_CON_SRCS) $(FUZZ_WIRE_SRCS) $(FUZZ_LIBS)

build/tests/fuzz/fuzz_request: tests/fuzz/fuzz_request.c $(TD_SHARED_SRCS) \
		$(FUZZ_WIRE_SRCS) $(wildcard typedesc/*.h wire/*.h)
	$(Q)mkdir -p $(dir $@)
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -Itypedesc -o $@ $< \
		$(TD_SHARED_SRCS) $(FUZZ_WIRE_SRCS) $(FUZZ_LIBS)

# The trace-file reader and the command-line splitter: the whole console
# but main, compiled with the fuzzer into build/tests/fuzz/con/.
FUZZ_CON_SRCS := $(filter-out console/main.c,$(CONSOLE_SRCS)) \
	$(ANA_SRCS) $(TD_CON_SRCS) $(CON_BP_SRCS) $(WIRE_SRCS)
FUZZ_CON_OBJS := $(FUZZ_CON_SRCS:%.c=build/tests/fuzz/con/%.o)
# (-MMD -MP: an object is rebuilt when a header it includes changes)
FUZZ_CON_CFLAGS = $(filter-out -O2,$(CON_CFLAGS)) -O1 \
	-fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
FUZZ_BINS += build/tests/fuzz/fuzz_tfile
endif

$(FUZZ_CON_OBJS): build/tests/fuzz/con/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CON_CFLAGS) -c -o $@ $<

build/tests/fuzz/fuzz_tfile: tests/fuzz/fuzz_tfile.c $(FUZZ_CON_OBJS)
	$(Q)mkdir -p $(dir $@)
	$(call say,CLANG,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) $(filter-out -O2 -MMD -MP,$(CON_CFLAGS)) \
		-fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_CON_OBJS) \
		$(CON_LIBS) $(ANA_LIBS)
