#!/bin/sh
# 16-daemon-wakeups.sh — how often paravtd wakes while it traces a
# program that mostly sleeps (paravtd(8), Event rings): every wake-up of
# the daemon wakes the machine, and a machine woken often runs a program
# that sleeps in its receives faster than it runs plainly.  Checked,
# with a real daemon and a traced program that records a call every
# 10 ms for 3 s (its ring never gets near a quarter full):
#   - the daemon's voluntary context switches over 1.5 s in the middle
#     of the run come to at most 40 a second (drains every 100 ms, each
#     with the console's acknowledgement of its events, and the
#     reaper's look every 500 ms: 20-23 here; the daemon of drains
#     every 20 ms and a reaper polling every 50 ms woke 100 times a
#     second in this test);
#   - the program's exit still reaches the console: the run ends,
#     status 0, with every call's events (SIGCHLD tells the daemon).
. "$(dirname "$0")/../lib/common.sh"
[ -r /proc/self/status ] || skip "no /proc/PID/status here"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cat >naps.c <<'PROG'
#include <stdio.h>
#include <time.h>
static int step(int x) { return x + 1; }
int main(void)
{
	struct timespec nap = {0, 10000000};
	int i, s = 0;
	for (i = 0; i < 300; i++) {
		s = step(s);
		nanosleep(&nap, NULL);
	}
	printf("steps %d\n", s);
	return 0;
}
PROG
# vcsw PID: the voluntary context switches of PID so far.
vcsw() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
# shellcheck disable=SC2154
PARAVT_TRACE=full "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" -e "load naps.c" \
	-e "build" -e "run" -e "stats" >"$T/out" 2>&1 &
cpid=$!
track_pid $cpid
wait_for 60 grep -q 'p1 started\|started on nat' "$T/out" ||
	{ cat "$T/out"; fail "the program did not start"; }
sleep 0.7
# shellcheck disable=SC2154
a=$(vcsw "$DPID_nat")
t0=$(date +%s%N)
sleep 1.5
b=$(vcsw "$DPID_nat")
t1=$(date +%s%N)
kill -0 $cpid 2>/dev/null || { cat "$T/out"; fail "the run ended before the count was taken"; }
rate=$(awk -v a="$a" -v b="$b" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.1f", (b - a) / ((t1 - t0) / 1e9) }')
echo "paravtd woke $((b - a)) times in $(( (t1 - t0) / 1000000 )) ms: $rate a second"
awk -v r="$rate" 'BEGIN { exit !(r <= 40) }' ||
	fail "paravtd woke $rate times a second while the program slept (at most 40 expected)"
ok "paravtd wakes $rate times a second beside a sleeping program"
wait_for 30 sh -c "! kill -0 $cpid 2>/dev/null" || { cat "$T/out"; fail "the console did not end"; }
cat "$T/out"
expect_grep '^\[p1\] steps 300$' "$T/out"
expect_grep 'p1.*(exited|exit).*status 0' "$T/out" "no exit status 0"
expect_grep '^p1 +nat +- +0 +0 +0 +0 +0 +60[0-9] +0$' "$T/out" "stats row: 600 calls' events and more, none lost"
ok "the exit is reported, every event in"
