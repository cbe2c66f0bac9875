#!/bin/sh
# 95-pvm-hetero-attach.sh — issue 16's attach on two hosts: a traced PVM
# run across namespace A (x86_64 paravtd) and B (s390x paravtd under
# qemu), as 18-pvm-hetero-paravt.sh sets them up.  pvm_ring with 4
# instances on both hosts passes its token 10 times round, each instance
# holding it 100 ms (about 4 s).  Run once whole for the reference; run
# again, kill -9 its `paravt trace` once an instance runs on B, and take
# the sessions of both nodes back with `paravt trace -o SAME --attach`.
# The continued trace must have exactly the reference's figures: per
# process (node, program, events, sends, receives, 0 lost, how it ended)
# and in total (events, matched pairs and group instances, no unmatched),
# and the master's output lines of the second half.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

pvm_hetero_paravt
cp "$TOP/tests/programs/pvm_ring.c" .
printf 'a %s:%s\nb %s:%s\n' "$PVM_ADDR_A" "$PA" "$PVM_ADDR_B" "$PB" >nodes.txt

# trace_in_a ARGS...: paravt trace in namespace A.
trace_in_a() { ip netns exec "$PVM_NS_A" timeout -k 5 150 "$PARAVT" trace "$@"; }
# figures FILE: the process rows without their pN and tid, sorted, and
# the totals, of trace-info.
figures() {
	"$PARAVT" trace-info "$1" >"$1.info" 2>&1 || { cat "$1.info"; fail "trace-info $1"; }
	awk '$1 ~ /^p[0-9]+$/ { $1 = ""; $3 = ""; print }' "$1.info" | sort
	grep -E '^events:|^matched:' "$1.info"
}

trace_in_a -o full.pvt --nodes nodes.txt --pvm pvm_ring.c -- \
	run pvm a pvm_ring 4 10 100 >full.out 2>&1 ||
	{ cat full.out a.log b.log; fail "reference run"; }
figures full.pvt >full.fig
cat full.fig
grep -q ' b .*pvm_ring' full.fig || fail "no instance ran on b"

trace_in_a -o cut.pvt --nodes nodes.txt --pvm pvm_ring.c -- \
	run pvm a pvm_ring 4 10 100 >cut1.out 2>&1 &
c=$!
track_pid $c
wait_for 90 grep -q 'started on b' cut1.out || { cat cut1.out; fail "run A: nothing started on b"; }
sleep 1.5
# the console itself (under ip netns exec and timeout), not its wrappers
pkill -9 -f "bin/paravt trace -o cut\.pvt --node[s]" || fail "no console to kill"
wait $c 2>/dev/null
grep -q '^\[p1\] OK' cut1.out && fail "the ring ended before its console was killed"
trace_in_a -o cut.pvt --attach --nodes nodes.txt >cut2.out 2>&1
rc=$?
cat cut2.out
[ "$rc" = 0 ] || { cat a.log b.log; fail "paravt trace --attach: status $rc"; }
expect_grep '^\[p1\] OK$' cut2.out "the master's last output did not reach the console that attached"
figures cut.pvt >cut.fig
cat cut.fig
diff -u full.fig cut.fig || fail "the continued trace differs from an uninterrupted run"
expect_grep 'unmatched 0 sends, 0 receives' cut.pvt.info
ok "killed with an instance running on s390x, taken back on both nodes: the same figures as an uninterrupted run"
