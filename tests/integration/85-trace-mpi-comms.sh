#!/bin/sh
# 85-trace-mpi-comms.sh — the analysis of a real MPI program that uses
# twenty communicators: tests/programs/mpi_calls.c (every wrapped call;
# duplicated, split, reversed, intercommunicators and their merge,
# Cartesian and graph topologies, nonblocking and persistent requests,
# MPI_PROC_NULL, a cancelled receive) captured on one node with
#   paravt trace -o FILE --mpi mpi_calls.c -- run mpi -np 4
# Checked with trace-info and `open` + `trace check`: every send matched
# by one receive of its own communicator (0 unmatched), the collectives
# grouped into instances per communicator, and, on one clock, no receive
# before its send's START, no event repaired, no inversion.
. "$(dirname "$0")/../lib/common.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/mpi_calls.c" .
# shellcheck disable=SC2154
timeout 170 "$PARAVT" trace -o "$T/mc.pvtrace" --node "nat=127.0.0.1:$DPORT_nat" \
	--timeout 120 --mpi mpi_calls.c -- run mpi -np 4 >"$T/run.out" 2>&1 ||
	{ cat "$T/run.out"; fail "paravt trace exited $?"; }
expect_grep 'every process exited with status 0' "$T/run.out"
"$PARAVT" trace-info "$T/mc.pvtrace" >"$T/info" 2>&1 || { cat "$T/info"; fail "trace-info"; }
cat "$T/info"
expect_grep '^matched: +[0-9]+ send/recv pairs, .* unmatched 0 sends, 0 receives$' "$T/info" \
	"every message matched on its communicator"
pairs=$(sed -n 's/^matched: *\([0-9]*\) send.*/\1/p' "$T/info")
groups=$(sed -n 's/.* \([0-9]*\) group instances.*/\1/p' "$T/info")
[ "${pairs:-0}" -ge 200 ] || fail "only ${pairs:-0} pairs"
[ "${groups:-0}" -ge 200 ] || fail "only ${groups:-0} group instances"
"$PARAVT" -n -e "open $T/mc.pvtrace" -e "trace check" >"$T/check" 2>&1 ||
	{ cat "$T/check"; fail "trace check"; }
cat "$T/check"
expect_grep '^unmatched: 0 sends, 0 receives$' "$T/check"
expect_grep '^measured order: 0 receives before their send; logical clock repaired 0 events' \
	"$T/check" "one clock: nothing to repair"
expect_grep '^inversions in the global order: 0$' "$T/check"
expect_grep '^inversions in the repaired measured order: 0$' "$T/check"
ok "$pairs pairs and $groups collective instances over 20 communicators; no repair on one clock"
