#!/bin/sh
# 10-daemon-garbage.sh — bad bytes on the wire: garbage, a payload that is
# not MessagePack, a truncated frame followed by a close, an oversized
# frame header.  Each gets its ERROR and a closed connection (never a
# crash, a hang or a big allocation); the daemon still serves new clients.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
raw() { "$WP" "$A" --no-hello --no-auth --linger-ms 3000 "$@" >"$T/out" 2>&1; cat "$T/out"; }

raw --raw 6761726261676520627974657321
expect_grep '^ERROR ETOOBIG ref=0 frame of 1734439522 bytes exceeds the limit of 65536 bytes$' "$T/out"
expect_grep '^CLOSED$' "$T/out"

raw --raw 00000004c1c1c1c1
expect_grep '^ERROR EMALFORMED ref=0 payload is not valid MessagePack$' "$T/out"
expect_grep '^CLOSED$' "$T/out"

raw --raw 000000029101
expect_grep '^ERROR EMALFORMED ref=0 frame is not an array' "$T/out"

raw --frame-len 0x7fffffff
expect_grep '^ERROR ETOOBIG ref=0 frame of 2147483647 bytes exceeds the limit of 65536 bytes$' "$T/out"
expect_grep '^CLOSED$' "$T/out"

# A frame header promising 16 bytes, 3 of them, then the client leaves.
"$WP" "$A" --no-hello --no-auth --wait-ms 300 --raw 00000010930102 --close \
	>"$T/out" 2>&1
expect_no_grep '^ERROR' "$T/out"
wait_for 5 grep -q 'conn 5: .* closed (closed by peer)' "$T/n1.log" ||
	fail "truncated connection not closed"

# Oversized after authentication too (limit 16 MiB).
"$WP" "$A" --frame-len 0x7ffffff0 --linger-ms 3000 >"$T/out" 2>&1
expect_grep '^ERROR ETOOBIG ref=0 frame of 2147483632 bytes exceeds the limit of 16777216 bytes$' "$T/out"

kill -0 "$DPID_n1" || fail "daemon died"
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$DPID_n1/status")
[ -n "$rss" ] || fail "no VmRSS for pid $DPID_n1"
[ "$rss" -lt 65536 ] || fail "daemon RSS is ${rss} kB after oversized frames"
"$WP" "$A" --send PING >"$T/out" 2>&1
expect_grep '^PONG .*clock=ok$' "$T/out"
expect_grep 'ETOOBIG frame of 2147483647 bytes exceeds the limit of 65536 bytes \(closing\)' "$T/n1.log"
ok "garbage, truncated and oversized frames handled; daemon still serves (RSS ${rss} kB)"
