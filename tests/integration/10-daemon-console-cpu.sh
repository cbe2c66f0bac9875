#!/bin/sh
# 10-daemon-console-cpu.sh — CONSOLE_CPU (paravt-protocol(5); paravtd(8),
# CPU share): a console on the daemon's machine reports the processor
# time it took for the daemon's events.
#   (a) the daemon notes in its log whether a console's HELLO names its
#       machine (the host id), and takes a report from the controlling
#       console of its machine without a word;
#   (b) a report from a console whose HELLO names another machine is
#       refused with EARG and a sentence;
#   (c) a report with a field of the wrong type, or none, is refused
#       with EARG; from a console without the session, with the refusal
#       of every session message;
#   and the daemon still serves.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

# (a) this machine
"$WP" "$A" --send SESSION_OPEN --until SESSION_OK --send CONSOLE_CPU:1000 \
	--send CONSOLE_CPU:2500 --send PING --until PONG >"$T/a" 2>&1
expect_grep '^SESSION_OK' "$T/a" "(a): the session"
expect_grep '^PONG ' "$T/a" "(a): served after the reports"
expect_no_grep '^ERROR' "$T/a" "(a): a report refused"
wait_for 5 grep -q 'HELLO from console .*, this machine)' "$T/n1.log" ||
	{ cat "$T/n1.log"; fail "(a): the daemon did not take the console for one on its machine"; }
ok "(a) a console of this machine: noted in the log, its reports taken"

# (b) another machine
"$WP" "$A" --host another-machine --send SESSION_OPEN --until SESSION_OK \
	--send CONSOLE_CPU:1000 --until ERROR >"$T/b" 2>&1
expect_grep '^ERROR EARG ref=[0-9]+ CONSOLE_CPU: the console is not on this machine' \
	"$T/b" "(b): the refusal"
expect_grep 'HELLO from console [^ ]* \(Linux [^,]*, wirepoke\)$' "$T/n1.log" \
	"(b): the log line without 'this machine'"
ok "(b) a report from another machine: refused with EARG"

# (c) malformed, and without the session
"$WP" "$A" --send SESSION_OPEN --until SESSION_OK --send 132:lots \
	--until ERROR >"$T/c1" 2>&1
expect_grep '^ERROR EARG ref=[0-9]+ .*ns' "$T/c1" "(c): a string for ns"
"$WP" "$A" --send SESSION_OPEN --until SESSION_OK --send 132 \
	--until ERROR >"$T/c2" 2>&1
expect_grep '^ERROR EARG ref=[0-9]+ ' "$T/c2" "(c): no field"
"$WP" "$A" --send CONSOLE_CPU:5 --until ERROR >"$T/c3" 2>&1
expect_grep '^ERROR E[A-Z]+ ref=[0-9]+ ' "$T/c3" "(c): without the session"
kill -0 "$DPID_n1" || fail "daemon died"
"$WP" "$A" --send PING >"$T/out" 2>&1
expect_grep '^PONG .*clock=ok$' "$T/out" "the daemon still serves"
ok "(c) malformed reports and one without the session refused; the daemon serves"
