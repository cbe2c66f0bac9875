#!/bin/sh
# 10-daemon-sigterm.sh — SIGTERM: every connected console gets BYE "daemon
# shutting down", the daemon exits 0 and removes its port and pid files.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64 --pid-file "$T/n1.pid"
A=127.0.0.1:$DPORT_n1
[ "$(cat "$T/n1.pid")" = "$DPID_n1" ] || fail "pid file holds $(cat "$T/n1.pid")"

"$WP" "$A" --sleep-ms 10000 >"$T/c1" 2>&1 &
c1=$!
track_pid $c1
"$WP" "$A" --no-auth --sleep-ms 10000 >"$T/c2" 2>&1 &
c2=$!
track_pid $c2
wait_for 10 grep -q '^AUTH_OK' "$T/c1" || fail "client 1 not authenticated"
wait_for 10 grep -q '^HELLO' "$T/c2" || fail "client 2 got no HELLO"
sleep 0.3

kill -TERM "$DPID_n1"
wait "$DPID_n1"
rc=$?
[ $rc = 0 ] || fail "daemon exited $rc"
wait $c1 $c2
cat "$T/c1" "$T/c2"
for c in c1 c2; do
	expect_grep '^BYE daemon shutting down$' "$T/$c"
	expect_grep '^CLOSED$' "$T/$c"
done
[ ! -e "$T/n1.port" ] || fail "port file left behind"
[ ! -e "$T/n1.pid" ] || fail "pid file left behind"
expect_grep 'INFO: shutting down on signal 15' "$T/n1.log"
expect_grep 'INFO: stopped' "$T/n1.log"
ok "clean shutdown on SIGTERM"
