#!/bin/sh
# 85-trace-mpi-collwait.sh — collectives whose members need not wait for
# each other, and a freed active receive: tests/programs/mpi_collwait.c
# on 4 ranks, one of which calls every collective 150 ms late, captured
# on one node with
#   paravt trace -o FILE --mpi mpi_collwait.c -- run mpi -np 4
# An intercommunicator MPI_Iallgather (a member waits for the other
# group only), MPI_Ibarrier on an intercommunicator, MPI_Gather and
# MPI_Allgather of nothing, an MPI_Alltoallv in which a member receives
# nothing: members that, by the standard, wait for nobody who is late
# return before the late rank calls.  On one clock `trace check` must
# repair no event (a repair means the model of who waits for whom is
# wrong), and the receive rank 1 freed with MPI_Request_free while
# active is recorded (inside MPI_Finalize, aux 2) and matched: 0
# unmatched.
. "$(dirname "$0")/../lib/common.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/mpi_collwait.c" .
# shellcheck disable=SC2154
timeout 170 "$PARAVT" trace -o "$T/cw.pvtrace" --node "nat=127.0.0.1:$DPORT_nat" \
	--timeout 120 --mpi mpi_collwait.c -- run mpi -np 4 >"$T/run.out" 2>&1 ||
	{ cat "$T/run.out"; fail "paravt trace exited $?"; }
expect_grep 'every process exited with status 0' "$T/run.out"
expect_grep 'collwait: OK' "$T/run.out" "the program's own checks"
"$PARAVT" -n -e "open $T/cw.pvtrace" -e "trace check" >"$T/check" 2>&1 ||
	{ cat "$T/check"; fail "trace check"; }
cat "$T/check"
expect_grep '^unmatched: 0 sends, 0 receives$' "$T/check" \
	"the freed receive is matched"
expect_grep '^measured order: 0 receives before their send; logical clock repaired 0 events' \
	"$T/check" "one clock: nobody waited for a member the model says it waits for"
expect_grep '^inversions in the repaired measured order: 0$' "$T/check"
"$PARAVT" -n -e "open $T/cw.pvtrace" -e "trace show 2000 --raw" >"$T/raw" 2>&1 ||
	{ cat "$T/raw"; fail "trace show --raw"; }
expect_grep 'recv +MPI_Irecv .* aux 2 ' "$T/raw" \
	"the freed receive's END (aux 2: completed by MPI_Finalize)"
# the late rank really was late: rank 2's MPI_Iallgather ended before
# rank 3's started (else the test shows nothing)
n=$(grep -c 'group .*MPI_Iallgather.*tag [01]' "$T/raw")
[ "$n" -eq 8 ] || fail "expected 8 MPI_Iallgather records with a group tag, got $n"
ok "no repair on one clock; freed receive matched"
