#!/bin/sh
# 94-run-mpi-many.sh — more processes on one node than the daemon's
# tables start with (64): an MPI job of 70 ranks (oversubscribed) traced
# through one paravtd.  Every rank is a process of the trace (70 and
# mpirun), every rank's barrier is in the one group instance, nothing is
# lost (before, the 64th process on a node was refused with "too many
# processes (limit 64)").
. "$(dirname "$0")/../lib/common.sh"
command -v mpicc >/dev/null || skip "no mpicc (libopenmpi-dev)"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
start_daemon n1 linux-x86_64
cd "$T" || fail "cd $T"
# shellcheck disable=SC2154
"$PARAVT" trace -o many.pvt --node "n1=127.0.0.1:$DPORT_n1" --mpi \
	"$TOP/tests/programs/mpi_pingpong.c" -- run mpi -np 70 mpi_pingpong 1 \
	>out.txt 2>&1 || { cat out.txt; tail -20 n1.log; fail "paravt trace"; }
tail -1 out.txt
expect_grep 'many\.pvt: [0-9]+ events, 71 processes, .* every process exited with status 0' out.txt
"$PARAVT" trace-info many.pvt >info.txt 2>&1 || { cat info.txt; fail "trace-info"; }
expect_grep '^processes: +70$' info.txt
expect_grep '^events: .*70 collective; 0 lost' info.txt
expect_grep '^matched: .*1 group instances; unmatched 0 sends, 0 receives' info.txt
expect_no_grep 'too many processes' n1.log
ok "70 MPI ranks on one node: all traced, one barrier of 70, nothing lost"
