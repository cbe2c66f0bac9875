#!/bin/sh
# 15-daemon-build-task.sh — the task socket and the relays, with a "task"
# played by wirepoke: the program the daemon runs is a script that execs
# wirepoke on $PARAVT_SOCK (same pid), says TASK_HELLO, reports BP_HIT,
# answers INSPECT with VALUE, takes RESUME, reports TASK_CRASH and exits.
# The console sees the relayed frames and PROC_EXIT with the last
# location; INSPECT for an unknown process and a TASK_HELLO naming a pid
# the daemon did not start are refused.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
WORK=$T/paravtd-$(id -u)/$DPID_n1-s1

cat >"$T/task.sh" <<SH
#!/bin/sh
exec "$WP" --unix "\$PARAVT_SOCK" --role task --no-auth --wait-ms 8000 \\
	--send "TASK_HELLO:\$PARAVT_PROC:\$\$" \\
	--send "TYPE_TABLE:\$PARAVT_PROC" \\
	--send "BP_HIT:\$PARAVT_PROC:1:foo.c:17:main" \\
	--until INSPECT --send "VALUE:\$PARAVT_PROC:7" \\
	--until RESUME --send "TASK_CRASH:\$PARAVT_PROC:11:bar.c:42:crasher"
SH
chmod 755 "$T/task.sh"

"$WP" "$A" --wait-ms 10000 --send SESSION_OPEN:t --put "1:task.sh=$T/task.sh" \
	--run 1:1:plain:task.sh --until BP_HIT --send INSPECT:1:7 \
	--until VALUE --send INSPECT:9:1 --send RESUME:1 \
	--until PROC_EXIT >"$T/out" 2>&1 &
cpid=$!
track_pid $cpid
wait_for 10 grep -q '^BP_HIT' "$T/out" || { cat "$T/out"; fail "no BP_HIT"; }
"$WP" --unix "$WORK/task.sock" --role task --no-auth --send TASK_HELLO:1:1 \
	--linger-ms 2000 >"$T/intruder" 2>&1
wait $cpid
cat "$T/out" "$T/intruder"
expect_grep '^PROC_START run=1 proc=1 pid=[0-9]+$' "$T/out"
expect_grep '^TYPE_TABLE proc=1 table=0$' "$T/out"
expect_grep '^BP_HIT proc=1 bp=1 at foo\.c:17 main$' "$T/out"
expect_grep '^VALUE proc=1 req=7$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ INSPECT: no process 9$' "$T/out"
expect_grep '^TASK_CRASH proc=1 signal=11 at bar\.c:42 crasher$' "$T/out"
expect_grep '^OUTPUT proc=1 stream=1 .*INSPECT proc=1 req=7' "$T/out"
expect_grep '^OUTPUT proc=1 stream=1 .*RESUME proc=1' "$T/out"
expect_grep '^PROC_EXIT proc=1 status=0 signal=0 last=bar\.c:42 crasher$' "$T/out"
ok "task relays both ways; PROC_EXIT carries the last location"
expect_grep '^ERROR EARG ref=[0-9]+ TASK_HELLO: no process 1 with pid 1 was started here$' "$T/intruder"
expect_grep '^CLOSED$' "$T/intruder"
ok "TASK_HELLO for a process the daemon did not start refused"
