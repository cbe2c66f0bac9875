#!/bin/sh
# 92-wrappers-fn-cost.sh — the entry and exit templates of instrumented
# functions are paravt's time: the runtime times an entry and its exit at
# start-up (in batches: one is too short to time alone) and adds that
# much to Δ for every entry since the record before (rt_event.c,
# ev_fn_fold).  tests/programs/mpi_fncalls.c traced through paravt (2
# ranks; the daemon with --no-cpu-share, so that Δ holds paravt's own
# time alone): rank 0 calls a function N times between two barriers,
# rank 1 nothing.  Between the first barrier's END and the second's
# START:
#   - rank 0's Δ grows by 1 to 100 ns a call, and by less than the time
#     that passed (it was 0: the templates cost 5 to 10 ns a call here,
#     most of this loop, and the compensated trace kept them);
#   - rank 1's grows by less than a tenth of a nanosecond a call.
. "$(dirname "$0")/../lib/common.sh"
command -v mpicc >/dev/null || skip "no mpicc (libopenmpi-dev)"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
start_daemon n1 linux-x86_64 --no-cpu-share
cd "$T" || fail "cd $T"
N=2000000
# shellcheck disable=SC2154
"$PARAVT" trace -o fc.pvt --node "n1=127.0.0.1:$DPORT_n1" --mpi \
	"$TOP/tests/programs/mpi_fncalls.c" -- run mpi -np 2 mpi_fncalls $N \
	>out.txt 2>&1 || { cat out.txt; tail -20 n1.log; fail "paravt trace"; }
expect_grep "fncalls: n=$N acc=" out.txt "the program's output"
"$PARAVT" -n -e "open fc.pvt" -e "trace show 100000 --raw" >raw.txt 2>&1 ||
	{ cat raw.txt; fail "trace show"; }

# One line a process: Δ growth and time from the END of its first
# MPI_Barrier to the START of its second.
awk '$1 ~ /^\[p/ && $7 == "delta" && ($10 == "MPI_Barrier" || $11 == "MPI_Barrier") {
	p = substr($1, 2); st = $10 == "start"; nb[p] += st
	if (!st && nb[p] == 1) { d0[p] = $8; t0[p] = $6 }
	if (st && nb[p] == 2) { print p, $8 - d0[p], $6 - t0[p] }
}' raw.txt >grow.txt
cat grow.txt
[ "$(wc -l <grow.txt)" -eq 2 ] || fail "not two ranks' barriers"
callers=0
while read -r p g span; do
	if [ "$g" -ge "$N" ]; then
		callers=$((callers + 1))
		[ "$g" -le $((N * 100)) ] || fail "$p: Δ grew $g ns for $N calls: more than 100 ns a call"
		[ "$g" -lt "$span" ] || fail "$p: Δ grew $g ns in $span ns"
		ok "$p: Δ grew $g ns for $N calls ($(awk -v g="$g" -v n=$N 'BEGIN { printf "%.1f", g / n }') ns a call) in $span ns"
	else
		[ "$g" -lt $((N / 10)) ] || fail "$p: Δ grew $g ns without calls"
		ok "$p (no calls): Δ grew $g ns"
	fi
done <grow.txt
[ "$callers" = 1 ] || fail "$callers ranks' Δ grew by the calls, not 1: the templates' cost is not in Δ"
