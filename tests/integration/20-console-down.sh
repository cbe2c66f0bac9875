#!/bin/sh
# 20-console-down.sh — a daemon that dies is shown as down with the reason
# while the other node stays up, in the same console session (commands are
# fed over a pipe); `node reconnect` brings it back once it runs again; a
# daemon stopped with SIGTERM says why (BYE) and that reason is shown.
. "$(dirname "$0")/../lib/common.sh"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
start_daemon a linux-x86_64
start_daemon b linux-x86_64

mkfifo "$T/in"
"$PARAVT" -n <"$T/in" >"$T/out" 2>"$T/err" &
cpid=$!
track_pid $cpid
exec 3>"$T/in"
send() { printf '%s\n' "$*" >&3; }
# lines PATTERN N: at least N lines of $T/out match PATTERN.
lines() { [ "$(grep -Ec -- "$1" "$T/out")" -ge "$2" ]; }

send "node add a 127.0.0.1:$DPORT_a"
send "node add b 127.0.0.1:$DPORT_b"
send "node list"
wait_for 15 lines '^b +127.0.0.1:[0-9]+ +up ' 1 || { cat "$T/out" "$T/err"; fail "nodes not up"; }

kill -9 "$DPID_b"
wait "$DPID_b" 2>/dev/null
send "node list"
wait_for 10 lines '^b +.* down \(connection closed by peer\)' 1 ||
	{ cat "$T/out" "$T/err"; fail "b not shown down"; }
expect_grep '^a +127.0.0.1:[0-9]+ +up ' "$T/out"
expect_grep '^\[node b is down: connection closed by peer\]$' "$T/err"

# Same address again, then reconnect.
"$PARAVTD" --listen "127.0.0.1:$DPORT_b" --name b --log "$T/b2.log" &
track_pid $!
wait_for 10 grep -q listening "$T/b2.log" || fail "b did not restart"
send "node reconnect b"
send "node list"
wait_for 15 lines '^b +127.0.0.1:[0-9]+ +up ' 2 || { cat "$T/out" "$T/err"; fail "b not back up"; }

# SIGTERM: the daemon says BYE with its reason.
kill -TERM "$DPID_a"
wait "$DPID_a" 2>/dev/null
send "node list"
wait_for 10 lines '^a +.* down \(' 1 || { cat "$T/out" "$T/err"; fail "a not down"; }
grep '^a ' "$T/out" | tail -1
expect_no_grep '^a +.* down \(connection closed by peer\)' "$T/out" "BYE reason not shown"
send "quit"
exec 3>&-
wait $cpid
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 0 ] || fail "exit status $rc, expected 0"
ok "down nodes reported with reasons; reconnect works"
