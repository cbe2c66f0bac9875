# tests/module.mk — test, fuzz, bench and demo targets.  Each test layer
# adds its binaries in its own fragment; `check` builds everything, builds
# the node side for every port, then runs tests/run.sh.
TEST_BINS :=
FUZZ_BINS :=
BENCH_BINS :=
TESTCC ?= cc
TEST_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Iwire -Iconsole $(CON_INCLUDES) \
	$(shell pkg-config --cflags msgpack cmocka 2>/dev/null) -MMD -MP

include tests/unit/module.mk
include tests/fuzz/module.mk
include tests/bench/module.mk
include tests/tools/module.mk

# Here, not in tests/bench/module.mk: BENCH_BINS is complete only now.
# tests/bench/run.sh also runs the s390x td_bench (under qemu) and the
# host port's ev_sink and paravtd (part of all); probes.sh instruments
# with inst_tool.
S390X_TD_BENCH := build/linux-s390x-qemu/tests/td_bench
# Like check and demo, bench and validate first install what is missing
# (deps), so that they work from a clean clone.
bench: deps
	$(Q)$(MAKE) $(BENCH_BINS) all build/tests/td_bench build/tests/inst_tool
	$(Q)$(MAKE) PORT=linux-s390x-qemu $(S390X_TD_BENCH)
	$(Q)tests/bench/run.sh

.PHONY: test-bins check-only
test-bins: $(TEST_BINS) $(FUZZ_BINS)

check: deps
	$(Q)$(MAKE) all test-bins
	$(Q)$(MAKE) nodes
	$(Q)tests/run.sh all

# Run the tests without installing packages or rebuilding node ports.
check-only: all test-bins
	$(Q)tests/run.sh all

demo: deps
	$(Q)$(MAKE) all nodes
	$(Q)tests/demo.sh

# The prediction's validation against real reruns (issue 15): about three
# minutes, root, network namespaces, cgroup v1 cpu, tc, Open MPI and PVM
# (VAL_PROGS="mpi pvm"); the runs on the s390x node need make nodes; not
# part of check.
.PHONY: validate
validate: deps
	$(Q)$(MAKE) all nodes
	$(Q)tests/predict/validate.sh
