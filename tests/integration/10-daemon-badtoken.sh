#!/bin/sh
# 10-daemon-badtoken.sh — a wrong token is refused: ERROR EAUTH, the
# connection is closed, a log line names the peer; the daemon keeps going.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"

mkdir -p "$T/tok" && printf 'right-token\n' >"$T/tok/t" && chmod 600 "$T/tok/t"
start_daemon n1 linux-x86_64 --token-file "$T/tok/t"

"$WP" "127.0.0.1:$DPORT_n1" --token wrong-token --send PING \
	--linger-ms 3000 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EAUTH ref=2 authentication failed: bad token$' "$T/out"
expect_grep '^CLOSED$' "$T/out"
expect_no_grep '^PONG' "$T/out"
expect_grep 'WARN: conn 1: 127\.0\.0\.1:[0-9]+: EAUTH authentication failed: bad token' "$T/n1.log"

"$WP" "127.0.0.1:$DPORT_n1" --token right-token --send PING >"$T/out2" 2>&1
expect_grep '^AUTH_OK how=token$' "$T/out2"
expect_grep '^PONG ' "$T/out2"
ok "bad token refused, good token accepted"
