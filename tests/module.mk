# tests/module.mk — test, fuzz, bench and demo targets.  Each test layer
# adds its binaries in its own fragment; `check` builds everything, builds
# the node side for every port, then runs tests/run.sh.
TEST_BINS :=
FUZZ_BINS :=
BENCH_BINS :=
TESTCC ?= cc
TEST_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Iwire -Iconsole \
	$(shell pkg-config --cflags msgpack cmocka 2>/dev/null) -MMD -MP

include tests/unit/module.mk
include tests/fuzz/module.mk
include tests/bench/module.mk
include tests/tools/module.mk

.PHONY: test-bins check-only
test-bins: $(TEST_BINS) $(FUZZ_BINS)

check: deps
	@$(MAKE) --no-print-directory all test-bins
	@$(MAKE) --no-print-directory nodes
	@tests/run.sh all

# Run the tests without re-checking packages or rebuilding node ports.
check-only: all test-bins
	@tests/run.sh all

demo: deps
	@$(MAKE) --no-print-directory all nodes
	@tests/demo.sh
