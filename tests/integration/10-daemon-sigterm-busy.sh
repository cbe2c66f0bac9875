#!/bin/sh
# 10-daemon-sigterm-busy.sh — SIGTERM with work in hand (issue 16): a
# daemon whose sessions still run programs (a plain one whose console is
# gone, and a PVM deadlock of two tasks with the session's own pvmd,
# still controlled) exits within 1 s, with status 0, and leaves no
# process behind: not the programs, not the pvmd, not a work directory.
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
TMPDIR=$T/tmp
export TMPDIR
mkdir -p "$TMPDIR"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
P=$TOP/tests/programs
cd "$T" || fail "cd $T"

# A console killed while its program runs (the program runs on).
"$PARAVT" -n -e "node add n1 $A" -e "load $P/batch_spin.c" -e build \
	-e "run" >"$T/c1" 2>&1 &
c1=$!
track_pid $c1
wait_for 20 grep -q 'started on n1' "$T/c1" || { cat "$T/c1"; fail "first run"; }
kill -9 $c1
wait_for 10 grep -q 'console gone; 1 process' "$T/n1.log" ||
	fail "the first session did not keep its program"

# A second console, still connected, with a PVM deadlock running.
(
	echo "node add n1 $A"
	echo "load --pvm $P/pvm_deadlock.c"
	echo build
	echo "run pvm pvm_deadlock"
	i=0 # until the test is done (bounded: 30 s)
	while [ ! -e "$T/done" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
) | "$PARAVT" -n >"$T/c2" 2>&1 &
c2=$!
track_pid $c2
on_exit "touch '$T/done'"
wait_for 20 sh -c "[ \$(grep -c 'started on n1' '$T/c2') -ge 1 ]" ||
	{ cat "$T/c2"; fail "the PVM run did not start"; }
wait_for 10 sh -c "[ \$(pgrep -f '$TMPDIR/paravtd-.*/pvm_deadlock' | wc -l) -ge 2 ]" ||
	fail "the two PVM tasks are not running"
pgrep -f "$TMPDIR/paravtd-" -a
n=$(pgrep -f "$TMPDIR/paravtd-" | wc -l)
echo "$n processes of the daemon's sessions before SIGTERM"
[ "$n" -ge 4 ] || fail "expected the program, two tasks and a pvmd ($n)"

t0=$(date +%s%N)
kill -TERM "$DPID_n1"
i=0
while kill -0 "$DPID_n1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.02; i=$((i + 1)); done
ms=$((($(date +%s%N) - t0) / 1000000))
kill -0 "$DPID_n1" 2>/dev/null && fail "the daemon still runs ${ms} ms after SIGTERM"
wait "$DPID_n1"
rc=$?
echo "daemon exited with status $rc after $ms ms"
[ $rc = 0 ] || fail "daemon exited $rc"
[ $ms -le 1000 ] || fail "the daemon took $ms ms to stop"
sleep 0.3
left=$(pgrep -f "$TMPDIR/paravtd-" -a)
[ -z "$left" ] || fail "left running: $left"
[ -z "$(ls "$TMPDIR" 2>/dev/null)" ] || { ls -R "$TMPDIR"; fail "work directories left"; }
ok "SIGTERM with two busy sessions: stopped in $ms ms, nothing left"
