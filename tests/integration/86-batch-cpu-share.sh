#!/bin/sh
# 86-batch-cpu-share.sh — paravt's share of a process's wait for a CPU
# (issue 12; daemon/relay/dmn_share.h): where paravtd takes the CPU a
# traced process could have run on, the daemon adds that wait to the
# process's Δ, so compensation takes it out, and says how much in the
# PROG_EXIT record.
#   tests/programs/calls_loop.c, PARAVT_TRACE=full (two records a call,
#   200000 calls), traced with the daemon, and so the program, and the
#   console pinned to CPU 0: they take turns on one CPU.
#   (a) the default: `paravt trace`'s note says what part of the wait
#       paravtd caused; info efficiency's cpu line has "paravt's X ms",
#       X at most the wait; p1's last Δ (trace show --raw) is at least
#       X; its compensated time is at least X shorter than the measured
#       one, and less than half of it: on one CPU the time the daemon
#       and the console take is all paravt's, in Δ one way or the other.
#       Here most of it is in Δ already: the ring fills (400000 records,
#       16384 slots) and the process waits for room, its wait for the
#       CPU the daemon then holds included; the share leaves those
#       waits alone, so X is small (0.04 ms of a 10 ms wait with the
#       65536-slot ring of then; CI once found 0.000, before the test
#       allowed 0).  Compensated came to
#       3-13 ms of 20-38 measured in four runs, where the build before
#       the cap gave 1-5 ms by charging those waits twice (its Δ at exit
#       was larger than the run);
#       the console (on this machine) reported its processor time
#       for the events to the daemon, which counts it (its log);
#   (b) a daemon started with --no-cpu-share: no such part anywhere
#       (PROG_EXIT's tag is -1), the note's older wording.
. "$(dirname "$0")/../lib/common.sh"
[ -r /proc/self/schedstat ] || skip "no /proc/self/schedstat (not Linux, or no schedstats)"
command -v taskset >/dev/null || skip "no taskset"
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/calls_loop.c" .

# trace NAME DAEMON: calls_loop traced through daemon DAEMON (pinned to
# CPU 0 with the console) into NAME.pvt; paravt's output in NAME.out,
# info efficiency (compensated and raw) in NAME.eff and NAME.raw, the
# raw events in NAME.ev.
trace() {
	eval "_pid=\$DPID_$2 _port=\$DPORT_$2"
	# shellcheck disable=SC2154
	taskset -p -c 0 "$_pid" >/dev/null || fail "cannot pin daemon $2 to CPU 0"
	PARAVT_TRACE=full setsid -w timeout -k 5 120 taskset -c 0 "$PARAVT" \
		trace -o "$1.pvt" --node "$2=127.0.0.1:$_port" calls_loop.c \
		-- run -- 200000 </dev/null >"$1.out" 2>&1 ||
		{ cat "$1.out"; fail "$1: paravt trace exited $?"; }
	expect_grep '^\[p1\] sum ' "$1.out" "$1: the program's output"
	"$PARAVT" -n -e "open $1.pvt" -e "info efficiency" >"$1.eff" 2>&1 ||
		{ cat "$1.eff"; fail "$1: info efficiency"; }
	"$PARAVT" -n -e "open $1.pvt" -e "info efficiency --view raw" \
		>"$1.raw" 2>&1 || { cat "$1.raw"; fail "$1: info efficiency --view raw"; }
	"$PARAVT" -n -e "open $1.pvt" -e "trace filter kind=all" \
		-e "trace show 10 --raw" >"$1.ev" 2>&1 ||
		{ cat "$1.ev"; fail "$1: trace show --raw"; }
}

# t_ms FILE: p1's T_ms in an info efficiency table.
t_ms() {
	awk '$1 == "p1" { print $4 }' "$1"
}

# ---- (a) the default ----------------------------------------------------------
start_daemon nat linux-x86_64
trace on nat
cat on.out
expect_grep "^paravt trace: note: p1 waited for a CPU for [0-9]+% of its run while it could run: other processes had it; paravt caused [0-9]+% \(compensation takes that out\)" \
	on.out "(a): the note with paravt's part"
line=$(grep '^cpu ' on.eff) || { cat on.eff; fail "(a): no cpu line in info efficiency"; }
w=$(echo "$line" | sed -n 's/.*p1 \([0-9.]*\) ms (.*/\1/p')
x=$(echo "$line" | sed -n "s/.*p1 .*paravt's \([0-9.]*\) ms).*/\1/p")
[ -n "$w" ] && [ -n "$x" ] || fail "(a): no wait or no paravt's part in: $line"
awk -v w="$w" -v x="$x" 'BEGIN { exit !(x >= 0 && x <= w + 0.001) }' ||
	fail "(a): paravt's part $x ms is not in [0, the wait $w ms]"
d=$(sed -n 's/^\[p1 [^]]*\] seq [0-9]* t [0-9]* delta \([0-9]*\) exit .*/\1/p' on.ev | tail -1)
[ -n "$d" ] || { cat on.ev; fail "(a): no exit record in trace show --raw"; }
awk -v d="$d" -v x="$x" 'BEGIN { exit !(d / 1e6 >= x) }' ||
	fail "(a): p1's last delta $d ns is less than paravt's part $x ms"
tc=$(t_ms on.eff) tr=$(t_ms on.raw)
awk -v c="$tc" -v r="$tr" -v x="$x" 'BEGIN { exit !(c > 0 && c <= r - x && c < r / 2) }' ||
	fail "(a): compensated $tc ms is not at least $x ms shorter than measured $tr ms, and less than half of it"
ok "(a) p1 waited $w ms for a CPU, $x ms of it for paravt: in its delta ($d ns at exit); compensated $tc ms, measured $tr ms"
# the console runs on this machine: its HELLO says so, and it reported
# its processor time for the events (CONSOLE_CPU), which the share counts
kill "$DPID_nat"
wait_for 10 grep -q "events of session .* the console's processor time" \
	"$T/nat.log" || { cat "$T/nat.log"; fail "(a): no session summary in the daemon's log"; }
expect_grep 'HELLO from console .*, this machine\)' "$T/nat.log" \
	"(a): the daemon took the console for one on its machine"
c=$(sed -n "s/.*events of session .* the console's processor time for them \([0-9.]*\) ms/\1/p" \
	"$T/nat.log" | sort -n | tail -1)
awk -v c="$c" -v x="$x" 'BEGIN { exit !(c > 0) }' ||
	fail "(a): the console reported no processor time ($c ms)"
ok "(a) the console reported $c ms of its processor time for the events"

# ---- (b) --no-cpu-share -----------------------------------------------------------
start_daemon off linux-x86_64 --no-cpu-share
trace no off
expect_no_grep "caused [0-9]+% \(compensation" no.out "(b): a part in the note"
expect_no_grep "paravt's" no.eff "(b): a part in info efficiency"
expect_grep '^cpu .*p1 [0-9.]+ ms \([0-9.]+% of its run\)' no.eff "(b): the cpu line"
if grep -q '^paravt trace: note:' no.out; then
	expect_grep '\(paravtd and the console may be among them\); its times include that wait, which compensation cannot take out' \
		no.out "(b): the note's older wording"
fi
ok "(b) --no-cpu-share: the wait is shown without paravt's part (PROG_EXIT's tag is -1)"
