#!/bin/sh
# 16-daemon-sched.sh — paravtd's scheduling policy (paravtd(8),
# Scheduling): on Linux it runs as SCHED_BATCH, so that its wake-ups do
# not preempt the traced program's processes, and what it starts runs
# with the normal policy, as it would plainly.  Checked with real
# daemons (the native one, and the s390x one under qemu-user):
#   - the daemon's policy (/proc/PID/stat, field 41) is 3, SCHED_BATCH,
#     and its log says so;
#   - a program it runs finds itself SCHED_OTHER (0), with the
#     reset-on-fork flag cleared (sched_getscheduler);
#   - with --no-sched-batch the daemon keeps SCHED_OTHER.
. "$(dirname "$0")/../lib/common.sh"
[ -r /proc/self/stat ] || skip "no /proc/PID/stat here"
# policy PID: the scheduling policy of PID (field 41 of its stat; the
# command name in parentheses may hold spaces).
policy() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $39 }'; }
cd "$T" || fail "cd $T"
cat >pol.c <<'PROG'
#include <sched.h>
#include <stdio.h>
int main(void)
{
	printf("policy %d\n", sched_getscheduler(0));
	return 0;
}
PROG
for n in nat s390x; do
	case $n in
	nat) p=linux-x86_64 ;;
	*) p=linux-s390x-qemu
	   [ -x "$TOP/build/$p/bin/paravtd" ] || { echo "(no $p node built)"; continue; } ;;
	esac
	start_daemon "$n" "$p"
	eval "pid=\$DPID_$n port=\$DPORT_$n"
	# shellcheck disable=SC2154
	pol=$(policy "$pid")
	[ "$pol" = 3 ] || fail "$n: paravtd's policy is $pol, not SCHED_BATCH (3)"
	expect_grep 'scheduling: SCHED_BATCH' "$T/$n.log"
	"$PARAVT" -n -e "node add $n 127.0.0.1:$port" -e "load pol.c" \
		-e "build" -e "run" -e "wait --timeout 60" >"$n.out" 2>&1
	expect_grep '^\[p1\] policy 0$' "$n.out" \
		"$n: the program did not run with the normal policy"
	ok "$n: paravtd runs as SCHED_BATCH, the program it starts as SCHED_OTHER"
done
start_daemon plain linux-x86_64 --no-sched-batch
# shellcheck disable=SC2154
pol=$(policy "$DPID_plain")
[ "$pol" = 0 ] || fail "with --no-sched-batch paravtd's policy is $pol, not 0"
expect_no_grep 'SCHED_BATCH' "$T/plain.log"
ok "--no-sched-batch keeps the normal policy"
