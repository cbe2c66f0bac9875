#!/bin/sh
# 86-batch-cpu-stall.sh — a stall's charge lies where the stall was
# (issue 12; wrappers/rt_stall.h, daemon/relay/dmn_share.h): after a gap
# of more than 200 us between two records the process reads how long it
# waited for a CPU in it and puts paravtd's fraction of that wait into
# its Δ at the record after the gap.
#   tests/programs/stall_gaps.c, PARAVT_TRACE=full, 20 rounds: 20000
#   calls on CPU 0 then a 20 ms spin there (busy: paravtd and the
#   console, pinned to CPU 0, drain those calls' records meanwhile, and
#   the program waits for them), then a 20 ms spin on CPU 1 (free:
#   nothing else runs there).  The program says how long it waited for a
#   CPU in each kind of round (its own schedstat).
#   - the busy rounds waited (at least 2 ms in all: the test's premise);
#   - the busy spins' Δ growth (spin's entry to its exit in trace show
#     --raw) is at most their wait (+10%, +0.5 ms: the first samples'
#     charge can come twice before the credit evens it out);
#   - the spins' Δ growth, busy and free, holds at least half of the
#     process's whole CPU share (paravtd's log: what it and the process
#     charged): the charge lies where the stalls were.  Not "at least
#     half the wait": on a machine busy with other work the waits are
#     not all paravt's, and the share is smaller (with the MPI corpus
#     running beside it: busy 12.2 ms and free 8.1 ms of a 25.0 ms
#     share, for waits of 238 and 85 ms);
#   - the free spins' Δ growth is at most their own wait plus a tenth of
#     the busy spins' (+0.2 ms): no charge where the program did not
#     stall;
#   - paravtd's log says how much of the share the process charged
#     itself (more than 0).  The relay's plan alone placed 18.7 ms in the
#     busy spins and 0.1 ms in the free ones in a run of the build
#     before this; the log line is what only this mechanism gives.
. "$(dirname "$0")/../lib/common.sh"
[ -r /proc/thread-self/schedstat ] || skip "no /proc/thread-self/schedstat (not Linux, or no schedstats)"
command -v taskset >/dev/null || skip "no taskset"
[ "$(nproc)" -ge 2 ] || skip "fewer than 2 CPUs"
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/stall_gaps.c" .

start_daemon nat linux-x86_64
taskset -p -c 0 "$DPID_nat" >/dev/null || fail "cannot pin the daemon to CPU 0"
PARAVT_TRACE=full setsid -w timeout -k 5 120 taskset -c 0 "$PARAVT" \
	trace -o st.pvt --node "nat=127.0.0.1:$DPORT_nat" stall_gaps.c \
	-- run -- 20 20000 20 </dev/null >st.out 2>&1 ||
	{ cat st.out; fail "paravt trace exited $?"; }
line=$(grep '^\[p1\] busy_wait_us ' st.out) || { cat st.out; fail "no waits from the program"; }
bw=$(echo "$line" | awk '{ print $3 }') fw=$(echo "$line" | awk '{ print $5 }')
awk -v b="$bw" 'BEGIN { exit !(b >= 2000) }' ||
	{ cat st.out; fail "the busy rounds waited $bw us for a CPU in all, not at least 2000: no stall to place"; }

"$PARAVT" -n -e "open st.pvt" -e "trace filter kind=all" \
	-e "trace show 1000000 --raw" 2>&1 | grep -v 'function step ' >st.raw ||
	fail "trace show --raw"
# the Δ growth of every spin (its entry to its exit), summed by round kind, us
sums=$(awk '/ enter +function on_busy /{ k = "b" } / enter +function on_free /{ k = "f" }
	/ enter +function spin /{ d0 = $8 }
	/ leave +function spin /{ s[k] += ($8 - d0) / 1000; n[k]++ }
	END { printf "%.0f %.0f %d %d\n", s["b"], s["f"], n["b"], n["f"] }' st.raw)
set -- $sums
db=$1 df=$2
[ "$3" = 20 ] && [ "$4" = 20 ] || { head -20 st.raw; fail "spins found: $3 busy, $4 free (expected 20 each)"; }
awk -v d="$db" -v w="$bw" 'BEGIN { exit !(d <= w * 1.1 + 500) }' ||
	fail "the busy spins' delta grew $db us for a wait of $bw us: more than the wait"
awk -v d="$df" -v w="$fw" -v b="$db" 'BEGIN { exit !(d <= w + b / 10 + 200) }' ||
	fail "the free spins' delta grew $df us for a wait of $fw us (busy: $db us): charge where the program did not stall"
ok "free rounds: waited $fw us, $df us in the spins' delta"

kill "$DPID_nat"
wait_for 10 grep -q "events: proc 1: CPU share" "$T/nat.log" ||
	{ cat "$T/nat.log"; fail "no CPU share line in the daemon's log"; }
share=$(sed -n 's/.*events: proc 1: CPU share \([0-9]*\) us, [0-9]* us of it charged by the process where it found its stalls.*/\1/p' "$T/nat.log")
self=$(sed -n 's/.*events: proc 1: CPU share [0-9]* us, \([0-9]*\) us of it charged by the process where it found its stalls.*/\1/p' "$T/nat.log")
[ -n "$self" ] && [ "$self" -gt 0 ] ||
	{ grep "CPU share" "$T/nat.log"; fail "the process charged itself nothing of its stalls"; }
awk -v b="$db" -v f="$df" -v x="$share" 'BEGIN { exit !(b + f >= x / 2) }' ||
	fail "the spins' delta grew $db + $df us of a CPU share of $share us: the charge is not where the stalls were"
ok "busy rounds: waited $bw us for a CPU, $db us in the spins' delta; paravt's share $share us, $self us of it charged by the process itself"
