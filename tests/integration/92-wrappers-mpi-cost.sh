#!/bin/sh
# 92-wrappers-mpi-cost.sh — the MPI wrappers' own work is paravt's time.
# At MPI_Init the wrapper library times a send and a receive of no
# bytes from the rank to itself (the other side posted first and plain)
# through the wrappers and plainly, in pairs, and adds the difference,
# less an empty probe's calibrated cost, to Δ at every MPI call's start
# (pvt__ev_wrap_cost), with what they add to a message's way timed with
# the partner rank (92-wrappers-mpi-pair).  tests/programs/mpi_pingpong.c traced
# through paravt (2 ranks; the daemon with --no-cpu-share, so that Δ
# holds paravt's own time alone):
#   - every rank's MPI_Send START and MPI_Recv START grows Δ by one and
#     the same step, no less than the END's (a probe's other half), and
#     larger in some rank (the wrappers' work is timed against the
#     probe's calibrated cost: a rank whose calibration ran slow finds
#     none left over, so up to three runs);
#   - every send and receive names its source line: the calls timed at
#     MPI_Init take no call site, so no name is interned out of the
#     daemon's sight (they did: every later record read "?:LINE"); and
#     MPI_Sendrecv's receive START has its call's line (it had none).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/mpi_delta.sh"
command -v mpicc >/dev/null || skip "no mpicc (libopenmpi-dev)"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
start_daemon n1 linux-x86_64 --no-cpu-share
cd "$T" || fail "cd $T"
# trace: mpi_pingpong traced into pp.pvt, its records in raw.txt.
trace() {
	# shellcheck disable=SC2154
	"$PARAVT" trace -o pp.pvt --node "n1=127.0.0.1:$DPORT_n1" --mpi \
		"$TOP/tests/programs/mpi_pingpong.c" -- run mpi -np 2 mpi_pingpong 3 \
		>out.txt 2>&1 || { cat out.txt; tail -20 n1.log; fail "paravt trace"; }
	"$PARAVT" -n -e "open pp.pvt" -e "trace show 100000 --raw" >raw.txt 2>&1 ||
		{ cat raw.txt; fail "trace show"; }
}

# steps: Δ steps of raw.txt into steps.txt, per process (each calibrates
# itself): a START of MPI_Send/MPI_Recv right after the END of one, and
# an END right after its START.  One line a process: START steps seen,
# the step, how many; the same for ENDs.  Fails unless each is one
# constant step, the START's at least the END's less 1.  0 when some START's
# step is larger than its END's, 1 when none is.
steps() {
	mpi_delta_steps raw.txt >steps.txt
	[ "$(wc -l <steps.txt)" -eq 2 ] || { cat steps.txt; fail "not two ranks' steps"; }
	_more=1
	while read -r p ns sk sn ne ek en; do
		[ "$ns" = 1 ] && [ "$ne" = 1 ] ||
			{ cat steps.txt; fail "$p: Δ steps of MPI_Send/MPI_Recv not constant"; }
		[ "$sn" -ge 5 ] && [ "$en" -ge 5 ] || { cat steps.txt; fail "$p: too few sends and receives"; }
		# (a probe's halves: the end's has the odd ns)
		[ "$sk" -ge $((ek - 1)) ] || fail "$p: a call's start adds $sk ns to Δ, less than its end's $ek"
		[ "$sk" -gt "$ek" ] && _more=0
		echo "$p: every MPI_Send/MPI_Recv start after another's end adds $sk ns to Δ ($sn of them), every end $ek ($en)"
	done <steps.txt
	return $_more
}

# The wrappers' work is timed against an empty probe's calibrated cost;
# a rank whose probe calibration ran slow (a busy moment) finds none
# left over.  Up to three runs for one that does.
k=0
while :; do
	trace
	steps && break
	k=$((k + 1))
	[ $k -lt 3 ] || fail "in three runs no rank's call start added more to Δ than its end: the wrappers' own work is not in Δ"
done
ok "Δ: a call's start adds more than its end (the wrappers' own work), run $((k + 1))"

grep -E '^\[p[0-9]+ n1\] .*MPI_(Send|Recv|Sendrecv)( |$)' raw.txt >calls.txt
n=$(wc -l <calls.txt)
bad=$(grep -cv 'mpi_pingpong\.c:[0-9]' calls.txt)
[ "$n" -ge 20 ] || fail "only $n sends and receives"
[ "$bad" = 0 ] || { grep -v 'mpi_pingpong\.c:' calls.txt | head -5; fail "$bad of $n sends and receives name no source file"; }
ok "all $n sends and receives (MPI_Sendrecv's too) name mpi_pingpong.c and a line"
