#!/bin/sh
# 86-batch-coarse-clock.sh — no two records of a process at one instant:
# the runtime stamps each record at least 1 ns after the one before it,
# whatever the clock gives (a clock may give one value twice: MPICH's
# ctxalloc had an END and the next START at one nanosecond, which the
# trace check counted as a repair).  PARAVT_CLOCK=coarse stamps from
# CLOCK_MONOTONIC_COARSE (a tick of a few ms), so that nearly every
# record shares its tick with the one before it: tests/programs/
# calls_loop.c traced with PARAVT_TRACE=full (5000 calls, two records
# each, in well under a tick) must give at least 10000 events, every
# process's strictly after the one before (trace check: the logical
# clock repaired 0 events), and its output.
. "$(dirname "$0")/../lib/common.sh"
PARAVT_TRACE=full PARAVT_CLOCK=coarse
export PARAVT_TRACE PARAVT_CLOCK
start_daemon nat linux-x86_64
unset PARAVT_TRACE PARAVT_CLOCK
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/calls_loop.c" .
setsid -w timeout -k 5 60 "$PARAVT" trace -o loop.pvt --node "nat=127.0.0.1:$DPORT_nat" \
	calls_loop.c -- run </dev/null >run.out 2>&1 || { cat run.out; fail "paravt trace exited $?"; }
expect_grep '^\[p1\] sum 37497500$' run.out "the program's output"
"$PARAVT" trace-info loop.pvt >info 2>&1 || { cat info; fail "trace-info"; }
n=$(sed -n 's/^events: *\([0-9]*\) .*/\1/p' info)
[ "${n:-0}" -ge 10000 ] || { cat info; fail "only ${n:-0} events"; }
"$PARAVT" -n -e "open loop.pvt" -e "trace check" >check 2>&1 || { cat check; fail "trace check"; }
cat check
expect_grep 'logical clock repaired 0 events' check "records at one instant"
ok "$n events from a coarse clock, each after the one before: nothing repaired"
