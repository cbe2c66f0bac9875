#!/bin/sh
# 85-trace-mpi.sh — an Open MPI ping-pong traced through the console:
#   load --mpi mpi_pingpong.c; build; run mpi -np 2
# and checks the program's output, that both ranks appear (Tid 0 and 1),
# and that stats match every send with one receive, bytes included.
# Needs the daemon's RUN kind "mpi" and its event relay: skipped, saying
# so, while daemon/ has neither.
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet (no NODE_EVENTS in daemon/)"
grep -rq '"mpi"' "$TOP"/daemon 2>/dev/null ||
	skip "paravtd has no RUN kind mpi yet"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
# shellcheck disable=SC2154
"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "load --mpi $TOP/tests/programs/mpi_pingpong.c" -e "build" \
	-e "run mpi -np 2" -e "info procs" -e "stats" \
	-e "trace filter kind=send,recv" -e "trace show 40" \
	>"$T/out" 2>&1 || { cat "$T/out"; fail "console failed"; }
cat "$T/out"
expect_grep '^\[p[0-9]+ r0\] pingpong: n=5 sum=10060 OK$' "$T/out" "rank 0's output not attributed to rank 0"
expect_grep '^[ *] p[0-9]+ +nat +[0-9]+ +0 +exited +status 0$' "$T/out" "rank 0 missing"
expect_grep '^[ *] p[0-9]+ +nat +[0-9]+ +1 +exited +status 0$' "$T/out" "rank 1 missing"
ok "mpirun and both ranks listed with their ranks"
tot=$(grep '^total ' "$T/out")
# shellcheck disable=SC2086
set -- $tot
{ [ "$2" -gt 0 ] && [ "$2" = "$3" ]; } || fail "sends ($2) != receives ($3)"
{ [ "$4" -gt 0 ] && [ "$4" = "$5" ]; } || fail "bytes out ($4) != bytes in ($5)"
ok "stats: $2 sends, $3 receives, $4 bytes each way"
# Built through paravt, MPI calls' events carry their call site
# (paravt_mpi.h), which a relinked program cannot have.  (A receive
# completed inside MPI_Wait has none yet: it is recorded by the request
# bookkeeping, not by the call.)
expect_grep '^\[p[0-9]+ nat\] \+[0-9.]+ send +-> rank [01] tag [0-9]+ +[0-9]+ B  .*mpi_pingpong\.c:[0-9]+ [a-z_]+$' "$T/out" "send without its source location"
expect_grep '^\[p[0-9]+ nat\] \+[0-9.]+ recv +<- rank [01] tag [0-9]+ +[0-9]+ B  .*mpi_pingpong\.c:[0-9]+ [a-z_]+$' "$T/out" "recv without its source location"
ok "MPI events carry their source file, line and function"
