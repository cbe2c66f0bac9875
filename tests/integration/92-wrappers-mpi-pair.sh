#!/bin/sh
# 92-wrappers-mpi-pair.sh — what the MPI wrappers add to a message's way
# between two ranks of one host is timed at MPI_Init with a partner rank
# and added to Δ (pvt_mpi_cal.c).  tests/programs/mpi_pingpong.c traced
# through paravt (the daemon with --no-cpu-share, so that Δ holds
# paravt's own time alone), PARAVT_SHOW_COST=1 in the console's
# environment, so that every rank prints its figures:
#   - 2 ranks: each is timed with the other (or, on a host with fewer
#     processors than ranks, says why not); both print the same round
#     trip's extra; the part a call is that extra's half less the call's
#     probe and wrappers, or 0 with the reason; and every MPI_Send and
#     MPI_Recv START after another's END adds exactly the wrappers'
#     figure and the path's to Δ, beside half a probe;
#   - PARAVT_MPI_PAIR=0 (a setting of the run wins over paravtd's): not
#     timed, nothing added for it;
#   - 3 ranks: rank 2 has no partner; ranks 0 and 1 pair unless the host
#     has fewer than 3 processors (then they say so), and nobody waits;
#   - PARAVT_TRACE=off: the ranks print nothing and the run is right.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/mpi_delta.sh"
command -v mpicc >/dev/null || skip "no mpicc (libopenmpi-dev)"
export OMPI_MCA_btl_vader_single_copy_mechanism=none PARAVT_SHOW_COST=1
start_daemon n1 linux-x86_64 --no-cpu-share
cd "$T" || fail "cd $T"
cpus=$(getconf _NPROCESSORS_ONLN)

# trace NP NAME: mpi_pingpong on NP ranks traced into NAME.pvt, the
# console's output in NAME.out, the records in NAME.raw, the figures'
# lines in NAME.cost ("PROC RANK PROBE WRAP PATH HOW...").
trace() {
	# shellcheck disable=SC2154
	timeout 120 "$PARAVT" trace -o "$2.pvt" --node "n1=127.0.0.1:$DPORT_n1" \
		--mpi "$TOP/tests/programs/mpi_pingpong.c" -- run mpi -np "$1" \
		mpi_pingpong 3 >"$2.out" 2>&1 ||
		{ cat "$2.out"; tail -20 n1.log; fail "$2: paravt trace"; }
	expect_grep "pingpong: n=3 sum=[0-9]* OK" "$2.out"
	"$PARAVT" -n -e "open $2.pvt" -e "trace show 100000 --raw" >"$2.raw" 2>&1 ||
		{ cat "$2.raw"; fail "$2: trace show"; }
	_num='\([0-9]*\)'
	sed -n "s/^\[\(p[0-9]*\) r[0-9]*\] paravt: rank $_num: a probe $_num ns, the wrappers $_num ns a call, on a message.s way $_num ns a call more: /\1 \2 \3 \4 \5 /p" \
		"$2.out" >"$2.cost"
	[ "$(wc -l <"$2.cost")" -eq "$1" ] ||
		{ cat "$2.out"; fail "$2: not $1 ranks' figures"; }
}

# deltas NAME: every process's START and END steps are the figures it
# printed: from an END to the next START, the END's half of a probe and
# the next call's wrappers and path; from a START to its END, the START's
# half.
deltas() {
	_n=$1
	mpi_delta_steps "$_n.raw" >"$_n.steps"
	while read -r p rank probe wrap path how; do
		line=$(grep "^$p " "$_n.steps") || { cat "$_n.steps"; fail "$_n: no steps of $p"; }
		# shellcheck disable=SC2086
		set -- $line
		[ "$4" = 0 ] && [ "$7" = 0 ] && continue # (rank 2: a barrier only)
		[ "$2" = 1 ] && [ "$5" = 1 ] ||
			{ cat "$_n.steps"; fail "$_n: $p's Δ steps are not constant"; }
		# (the END's half of the call before, the START's own after it)
		half=$((probe / 2))
		[ "$3" -eq $((wrap + path + probe - half)) ] ||
			fail "$_n: rank $rank's call start adds $3 ns to Δ, not wrappers $wrap + path $path + the end's half probe $((probe - half))"
		[ "$6" -eq "$half" ] ||
			fail "$_n: rank $rank's call end adds $6 ns to Δ, not the start's half probe $half"
	done <"$_n.cost"
}

# --- 2 ranks ---
trace 2 two
cat two.cost
if [ "$cpus" -lt 2 ]; then
	[ "$(grep -c 'not timed (more ranks than processors' two.cost)" = 2 ] ||
		fail "2 ranks on $cpus processor(s): not said"
else
	expect_no_grep "not timed" two.cost
	# the round trip's extra: shared, the same in both lines
	[ "$(sed -n 's/.*: \(-*[0-9]*\) ns more a round trip.*/\1/p' two.cost | sort -u | wc -l)" = 1 ] ||
		fail "the ranks print different round trips"
	while read -r p rank probe wrap path how; do
		rt=$(echo "$how" | sed -n 's/.*: \(-*[0-9]*\) ns more a round trip.*/\1/p')
		[ -n "$rt" ] || fail "rank $rank: no round trip in: $how"
		partner=$(echo "$how" | sed -n 's/.*with rank \([0-9]*\):.*/\1/p')
		[ "$partner" = $((1 - rank)) ] || fail "rank $rank timed with rank $partner"
		case $how in
		timed*)	[ "$path" -eq $((rt / 2 - probe - wrap)) ] && [ "$path" -gt 0 ] &&
				[ "$path" -le $((probe + wrap)) ] ||
				fail "rank $rank: path $path ns, not half of $rt less $probe and $wrap" ;;
		none*|"not used"*) [ "$path" = 0 ] || fail "rank $rank: $how, yet $path ns" ;;
		*)	fail "rank $rank: $how" ;;
		esac
	done <two.cost
fi
deltas two
ok "2 ranks: timed with each other, and Δ holds the figures printed"

# --- the run's own setting ---
PARAVT_MPI_PAIR=0 trace 2 off
[ "$(grep -c '^p[0-9]* [01] [0-9]* [0-9]* 0 not timed (PARAVT_MPI_PAIR not 1' off.cost)" = 2 ] ||
	{ cat off.cost; fail "PARAVT_MPI_PAIR=0: timed all the same"; }
deltas off
ok "PARAVT_MPI_PAIR=0: not timed, nothing added"

# --- 3 ranks: the odd one out ---
trace 3 three
cat three.cost
expect_grep '^p[0-9]* 2 .*not timed \(no partner rank\)' three.cost
if [ "$cpus" -lt 3 ]; then
	[ "$(grep -c 'not timed (more ranks than processors' three.cost)" = 2 ] ||
		fail "3 ranks on $cpus processors: ranks 0 and 1 do not say so"
else
	[ "$(grep -c 'with rank [01]:' three.cost)" = 2 ] || fail "ranks 0 and 1 not timed together"
fi
deltas three
ok "3 ranks: rank 2 alone, none waits"

# --- tracing off ---
PARAVT_TRACE=off timeout 120 "$PARAVT" trace -o quiet.pvt --node "n1=127.0.0.1:$DPORT_n1" \
	--mpi "$TOP/tests/programs/mpi_pingpong.c" -- run mpi -np 2 mpi_pingpong 3 \
	>quiet.out 2>&1 || { cat quiet.out; fail "PARAVT_TRACE=off: paravt trace"; }
expect_grep "pingpong: n=3 sum=[0-9]* OK" quiet.out
expect_no_grep "paravt: rank" quiet.out
ok "PARAVT_TRACE=off: nothing printed, the run is right"
