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

.PHONY: fuzz-seeds
fuzz-seeds: build/tests/fuzz/gen_seeds
	$(Q)mkdir -p tests/fuzz/seeds
	$(Q)build/tests/fuzz/gen_seeds tests/fuzz/seeds

fuzz: $(FUZZ_BINS)
	$(Q)[ -n "$(FUZZ_BINS)" ] || { echo "fuzz: $(FUZZ_CC) not found"; exit 1; }
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/run.sh fuzz
