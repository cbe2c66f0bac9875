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
#     status 0, with every call's events (SIGCHLD tells the daemon);
#   - under a CPU quota (as root, a cgroup v1 cpu group of half a CPU
#     holding a second daemon, which traces a program that spins 2.5 s)
#     the daemon drains every 20 ms once the quota's periods count, and
#     wakes at least 35 times a second (about 50 here).
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
# wake_rate PID SECS WHAT: PID's voluntary context switches a second
# over SECS, printed with WHAT and into $rate.
wake_rate() {
	_a=$(vcsw "$1") _t0=$(date +%s%N)
	sleep "$2"
	_b=$(vcsw "$1") _t1=$(date +%s%N)
	rate=$(awk -v a="$_a" -v b="$_b" -v t0="$_t0" -v t1="$_t1" \
		'BEGIN { printf "%.1f", (b - a) / ((t1 - t0) / 1e9) }')
	echo "$3 paravtd woke $((_b - _a)) times in $(( (_t1 - _t0) / 1000000 )) ms: $rate a second"
}
# start_run NODE PORT SRC OUT: the console in the background (pid in
# $cpid) builds SRC on NODE and runs it, then prints stats, into OUT;
# returns once the program started.
start_run() {
	"$PARAVT" -n -e "node add $1 127.0.0.1:$2" -e "load $3" \
		-e "build" -e "run" -e "stats" >"$4" 2>&1 &
	cpid=$!
	track_pid $cpid
	wait_for 60 grep -q "started on $1" "$4" ||
		{ cat "$4"; fail "$3 did not start"; }
}
# shellcheck disable=SC2154
PARAVT_TRACE=full start_run nat "$DPORT_nat" naps.c "$T/out"
sleep 0.7
# shellcheck disable=SC2154
wake_rate "$DPID_nat" 1.5 "beside a sleeping program"
kill -0 $cpid 2>/dev/null || { cat "$T/out"; fail "the run ended before the count was taken"; }
awk -v r="$rate" 'BEGIN { exit !(r <= 40) }' ||
	fail "paravtd woke $rate times a second while the program slept (at most 40 expected)"
ok "paravtd wakes $rate times a second beside a sleeping program"
wait_for 30 sh -c "! kill -0 $cpid 2>/dev/null" || { cat "$T/out"; fail "the console did not end"; }
cat "$T/out"
expect_grep '^\[p1\] steps 300$' "$T/out"
expect_grep 'p1.*(exited|exit).*status 0' "$T/out" "no exit status 0"
expect_grep '^p1 +nat +- +0 +0 +0 +0 +0 +60[0-9] +0$' "$T/out" "stats row: 600 calls' events and more, none lost"
ok "the exit is reported, every event in"

# Under a CPU quota (cgroup v1 cpu, as make validate's): a daemon in a
# group of half a CPU traces a program that spins 2.5 s without
# recording; once the group's quota periods grow, drains come every
# 20 ms (the CPU share's samples), so the daemon wakes at least 35 times
# a second.
CG=/sys/fs/cgroup/cpu
if [ "$(id -u)" -ne 0 ] || [ ! -w "$CG" ] || ! mkdir "$CG/paravt-wake.$$" 2>/dev/null; then
	echo "skipped the quota part: cannot make a cgroup in $CG"
	exit 0
fi
CGD=$CG/paravt-wake.$$
# shellcheck disable=SC2317
cg_cleanup() {
	[ -d "$CGD" ] || return 0
	while read -r p; do echo "$p" >"$CG/cgroup.procs" 2>/dev/null; done <"$CGD/cgroup.procs"
	rmdir "$CGD" 2>/dev/null
}
on_exit cg_cleanup
echo 10000 >"$CGD/cpu.cfs_period_us" && echo 5000 >"$CGD/cpu.cfs_quota_us" ||
	fail "cannot set the quota of $CGD"
start_daemon q linux-x86_64
# shellcheck disable=SC2154
echo "$DPID_q" >"$CGD/cgroup.procs" || fail "cannot put the daemon into $CGD"
cat >spin.c <<'PROG'
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec a, b;
	double s;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
		s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
	} while (s < 2.5);
	printf("spun %.1f s\n", s);
	return 0;
}
PROG
# shellcheck disable=SC2154
start_run q "$DPORT_q" spin.c "$T/qout"
sleep 0.5
wake_rate "$DPID_q" 1.2 "under the quota"
grep -q '^nr_periods [1-9]' "$CGD/cpu.stat" || { cat "$CGD/cpu.stat"; fail "the quota was never enforced"; }
awk -v r="$rate" 'BEGIN { exit !(r >= 35) }' ||
	fail "paravtd woke $rate times a second under a CPU quota (drains every 20 ms expected: at least 35)"
wait_for 30 sh -c "! kill -0 $cpid 2>/dev/null" || { cat "$T/qout"; fail "the console did not end"; }
expect_grep '^\[p1\] spun 2\.[5-9] s$' "$T/qout"
ok "under a CPU quota paravtd drains every 20 ms ($rate wake-ups a second)"
