#!/bin/sh
# 95-pvm-hetero-linger.sh — the tasks of another host are not killed when
# the master's host has nothing left to run (issue 11: on x86_64 +
# s390x, one run in five ended two s390x workers with status -1 after
# `continue all`, their trace stopping at the breakpoint: the master's
# daemon halted the virtual machine as soon as its own processes had
# ended, and the s390x pvmd killed its workers that were still ending).
# tests/programs/pvm_linger.c on namespace A (x86_64 paravtd) and B
# (s390x paravtd under qemu), as 18-pvm-hetero-paravt.sh: 4 workers, the
# ones on B compute 2 s after their last message while the master exits
# at once.  Every worker exits with status 0, on both hosts; then the
# pvmds halt (within 20 s).
# Exit 77 only if namespaces (or the s390x toolchain) are unavailable.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

pvm_hetero_paravt
# shellcheck disable=SC2154
ip netns exec "$PVM_NS_A" timeout -k 5 120 "$PARAVT" -n \
	-e "node add a $PVM_ADDR_A:$PA" -e "node add b $PVM_ADDR_B:$PB" \
	-e "load --pvm $TOP/tests/programs/pvm_linger.c" -e "build" \
	-e "run pvm a --timeout 60 pvm_linger" -e "info procs" \
	>"$T/out" 2>&1 || { cat "$T/out" "$T/a.log" "$T/b.log"; fail "console failed"; }
cat "$T/out"
expect_grep '^\[p1\] 4 workers reported$' "$T/out"
nb=$(grep -cE '^[ *] p[2-5] +b ' "$T/out")
[ "$nb" -ge 1 ] || fail "no worker ran on b"
n=$(grep -cE '^\[p[2-5] exited with status 0\]$' "$T/out")
[ "$n" = 4 ] || { cat "$T/a.log" "$T/b.log"; fail "$n of 4 workers exited with status 0"; }
expect_no_grep 'killed|unknown|status -1' "$T/out"
ok "4 workers ($nb on s390x, computing 2 s after the master ended) exited with status 0"
wait_for 20 grep -q 'pvmd [0-9]* halted' "$T/a.log" || { cat "$T/a.log"; fail "a's pvmd not halted"; }
ok "the virtual machine halted afterwards"
