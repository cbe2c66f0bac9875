#!/bin/sh
# 16-daemon-orphan.sh — a session whose console is gone (issue 16):
#   - its program runs on, and another console's session cannot see or
#     kill it (KILL 0 kills only the console's own processes);
#   - paravt attach lists it (session 1, its console, 1 process), and
#     `paravt attach --session 1` takes it back and lists it as running,
#     and leaves it detached again;
#   - after --orphan-timeout seconds with no console attached the daemon
#     kills it, removes the session's directory and says so in its log;
#   - SESSION_ATTACH to it afterwards is refused (ESTATE).
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
TMPDIR=$T/tmp
export TMPDIR
mkdir -p "$TMPDIR"
start_daemon n1 linux-x86_64 --orphan-timeout 3
A=127.0.0.1:$DPORT_n1
P=$TOP/tests/programs
cd "$T" || fail "cd $T"

"$PARAVT" -n -e "node add n1 $A" -e "load $P/batch_spin.c" -e build \
	-e "run" >"$T/c1" 2>&1 &
c1=$!
track_pid $c1
wait_for 20 grep -q 'started on n1' "$T/c1" || { cat "$T/c1"; fail "first run"; }
kill -9 $c1
wait_for 10 grep -q 'console gone; 1 process(es) keep running .* for 3 s' "$T/n1.log" ||
	{ cat "$T/n1.log"; fail "the session was not kept"; }
pgrep -f "$TMPDIR/paravtd-.*/batch_spi[n]" >/dev/null || fail "the program did not run on"

"$PARAVT" -n -e "node add n1 $A" -e "info procs" >"$T/c2" 2>&1
"$WP" "$A" --send SESSION_OPEN:c3 --send KILL:0 --linger-ms 500 >"$T/c3" 2>&1
cat "$T/c2"
pgrep -f "$TMPDIR/paravtd-.*/batch_spi[n]" >/dev/null ||
	fail "another console's kill killed the first session's program"
expect_grep '^No processes' "$T/c2"
ok "the orphan runs on; another session neither sees nor kills it (KILL 0)"

"$PARAVT" attach "n1=$A" >"$T/list" 2>&1 || { cat "$T/list"; fail "paravt attach"; }
cat "$T/list"
expect_grep '^n1: session 1 of console [^ ]+, detached [0-9]+ s ago, 1 process\(es\), [0-9]+ batch\(es\) of events waiting$' "$T/list"
echo "info procs" | "$PARAVT" attach "n1=$A" --session 1 >"$T/c4" 2>&1
cat "$T/c4"
expect_grep '^[ *] p1 +n1 +[0-9]+ +(running|computing)' "$T/c4" "a console that attaches does not see the orphan running"
ok "paravt attach lists it and takes it back: running; leaving, it detaches it again"

wait_for 15 grep -q 'session 1: no console attached for 3 s (--orphan-timeout): 1 process(es) killed' "$T/n1.log" ||
	{ cat "$T/n1.log"; fail "the orphan was not ended"; }
wait_for 5 sh -c "! pgrep -f '$TMPDIR/paravtd-.*/batch_spi[n]' >/dev/null" ||
	fail "the orphan still runs"
wait_for 5 grep -q 'session 1: removed' "$T/n1.log" || fail "its directory was not removed"
"$WP" "$A" --send SESSION_ATTACH:late:1 --linger-ms 300 >"$T/late" 2>&1
expect_grep '^ERROR ESTATE .*no detached session 1 on this node' "$T/late"
ok "ended after --orphan-timeout: killed, removed, not attachable"
