#!/bin/sh
# 10-daemon-handshake.sh — paravtd (native): HELLO both ways, AUTH with the
# default token (created by the daemon, mode 0600), PING answered with the
# daemon's clock readings, SESSION_OPEN granted, BYE closes.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"

start_daemon n1 linux-x86_64
tok=$HOME/.paravt/token
[ -f "$tok" ] || fail "default token file was not created"
[ "$(stat -c %a "$tok")" = 600 ] || fail "token mode is $(stat -c %a "$tok")"

"$WP" "127.0.0.1:$DPORT_n1" --send PING --send PING --send SESSION_OPEN:alice \
	--send BYE --linger-ms 2000 >"$T/out" 2>&1
cat "$T/out"
expect_grep "^HELLO version=${PROTO} role=daemon node=n1 os=Linux arch=x86_64 order=little long=8 ptr=8 port=linux-x86_64 caps=ping,session,ring1,ctl1,ringmem\$" "$T/out"
expect_grep '^AUTH_OK how=token$' "$T/out"
[ "$(grep -c '^PONG rtt_us=[0-9]* t_recv=[0-9]* t_send=[0-9]* clock=ok$' "$T/out")" = 2 ] ||
	fail "expected two PONG lines"
expect_grep '^SESSION_OK session=1$' "$T/out"
expect_grep '^CLOSED$' "$T/out"
expect_grep 'conn 1: HELLO from console' "$T/n1.log"
expect_grep 'conn 1: 127\.0\.0\.1:[0-9]+ authenticated by token' "$T/n1.log"
expect_grep 'console alice controls session 1' "$T/n1.log"
expect_grep 'console alice released control' "$T/n1.log"
kill -0 "$DPID_n1" || fail "daemon died"
ok "handshake, ping, session, bye"
