#!/bin/sh
# 10-daemon-timeout.sh — a peer that connects and says nothing is sent
# ERROR ETIMEOUT and closed after the 10 s handshake limit; a peer that
# completed the handshake is not.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

"$WP" "$A" --sleep-ms 12000 >"$T/good" 2>&1 &
g=$!
track_pid $g
"$WP" "$A" --no-hello --no-auth --sleep-ms 15000 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR ETIMEOUT ref=0 handshake not completed within 10 s$' "$T/out"
expect_grep '^CLOSED$' "$T/out"
wait $g
expect_no_grep '^(CLOSED|ERROR)' "$T/good"
expect_grep 'ETIMEOUT handshake not completed within 10 s \(closing\)' "$T/n1.log"
ok "handshake timeout"
