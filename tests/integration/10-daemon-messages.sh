#!/bin/sh
# 10-daemon-messages.sh — message-level errors: an unknown type is answered
# with EUNKNOWN and skipped (a PING on the same connection is answered);
# a known type with bad fields gets EMALFORMED and is skipped; anything but
# HELLO first, or anything but AUTH second, is EPROTO and closes.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

"$WP" "$A" --send 999 --send PING --send 16:x --send 16 --send 32 \
	--send PING >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EUNKNOWN ref=3 unknown message type 999$' "$T/out"
expect_grep '^ERROR EMALFORMED ref=5 PING: field t_console is not an unsigned integer$' "$T/out"
expect_grep '^ERROR EMALFORMED ref=6 PING: has 0 fields, needs 1$' "$T/out"
expect_grep '^ERROR EMALFORMED ref=7 SESSION_OPEN: has 0 fields, needs 1$' "$T/out"
[ "$(grep -c '^PONG .*clock=ok$' "$T/out")" = 2 ] || fail "expected two PONGs"
expect_no_grep '^CLOSED$' "$T/out"

"$WP" "$A" --no-hello --no-auth --send PING --linger-ms 3000 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EPROTO ref=1 expected HELLO first, got message type 16$' "$T/out"
expect_grep '^CLOSED$' "$T/out"

"$WP" "$A" --no-auth --send PING --linger-ms 3000 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EPROTO ref=2 expected AUTH, got PING$' "$T/out"
expect_grep '^CLOSED$' "$T/out"

"$WP" "$A" --role daemon --linger-ms 3000 >"$T/out" 2>&1
expect_grep '^ERROR EPROTO ref=1 peer says it is a daemon, expected a console$' "$T/out"
kill -0 "$DPID_n1" || fail "daemon died"
ok "unknown, malformed and out-of-order messages"
