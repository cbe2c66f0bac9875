#!/bin/sh
# 10-daemon-version.sh — protocol version mismatch both ways: a client
# HELLO of version 99 gets ERROR EVERSION and a closed connection; a daemon
# started with --proto-version 7 announces 7.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"

start_daemon n1 linux-x86_64
"$WP" "127.0.0.1:$DPORT_n1" --version 99 --send PING --linger-ms 3000 \
	>"$T/out" 2>&1
cat "$T/out"
expect_grep "^ERROR EVERSION ref=1 protocol version mismatch: peer speaks version 99, this is paravt 0\.1\.0 speaking version ${PROTO}\$" "$T/out"
expect_grep '^CLOSED$' "$T/out"
expect_no_grep '^AUTH_OK' "$T/out"
expect_grep 'EVERSION protocol version mismatch: peer speaks version 99' "$T/n1.log"

start_daemon n2 linux-x86_64 --proto-version 7
"$WP" "127.0.0.1:$DPORT_n2" --no-hello --no-auth --linger-ms 200 >"$T/out2" 2>&1
cat "$T/out2"
expect_grep '^HELLO version=7 role=daemon node=n2 ' "$T/out2"
ok "version mismatch refused; --proto-version announces 7"
