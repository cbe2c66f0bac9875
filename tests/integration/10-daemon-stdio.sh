#!/bin/sh
# 10-daemon-stdio.sh — paravtd --stdio through a pair of pipes (as over
# ssh): protocol on stdin/stdout, log elsewhere, AUTH_OK "transport"
# without a token file, the token checked when --token-file is given, exit
# 0 when stdin closes.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"

"$WP" --exec "$PARAVTD --stdio --name s1 2>$T/s1.err" --token anything \
	--send PING --send SESSION_OPEN:alice >"$T/out" 2>&1
cat "$T/out"
expect_grep "^HELLO version=${PROTO} role=daemon node=s1 .*port=linux-x86_64 " "$T/out"
expect_grep '^AUTH_OK how=transport$' "$T/out"
expect_grep '^PONG .*clock=ok$' "$T/out"
expect_grep '^SESSION_OK session=1$' "$T/out"
expect_grep '^EXIT 0$' "$T/out"
expect_grep 'INFO: conn 1: stdio authenticated by transport' "$T/s1.err"
[ ! -e "$HOME/.paravt/token" ] || fail "--stdio created a token file"

printf 'tok-1\n' >"$T/tok" && chmod 600 "$T/tok"
"$WP" --exec "$PARAVTD --stdio --token-file $T/tok --log $T/s2.log" \
	--token wrong --linger-ms 2000 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EAUTH ref=2 authentication failed: bad token$' "$T/out"
expect_grep '^EXIT 0$' "$T/out"
expect_grep 'EAUTH authentication failed' "$T/s2.log"
"$WP" --exec "$PARAVTD --stdio --token-file $T/tok --log $T/s2.log" \
	--token tok-1 --send PING >"$T/out" 2>&1
expect_grep '^AUTH_OK how=token$' "$T/out"
expect_grep '^PONG ' "$T/out"
ok "--stdio over pipes"
