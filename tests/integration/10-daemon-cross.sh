#!/bin/sh
# 10-daemon-cross.sh — the daemon built for the emulated ports (s390x:
# big-endian 64-bit; i386: 32-bit) under qemu-user, talking to the x86_64
# wirepoke: handshake, ping, bad token, and --stdio through pipes.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
ran=0

# check PORT ARCH ORDER LONG PTR
check() {
	_p=$1 _n=$(echo "$1" | tr -c 'a-z0-9\n' '_')
	if [ ! -x "$TOP/build/$_p/bin/paravtd" ]; then
		echo "no daemon for $_p (make node PORT=$_p); not tested"
		return 0
	fi
	command -v "$(port_prefix "$_p" | cut -d' ' -f1)" >/dev/null ||
		{ echo "no emulator for $_p"; return 0; }
	start_daemon "$_n" "$_p"
	eval "_port=\$DPORT_$_n"
	"$WP" "127.0.0.1:$_port" --wait-ms 5000 --send PING --send PING \
		>"$T/$_n.out" 2>&1
	cat "$T/$_n.out"
	expect_grep "^HELLO version=${PROTO} role=daemon node=$_n os=Linux arch=$2 order=$3 long=$4 ptr=$5 port=$_p caps=ping,session,ring1,ctl1,ringmem\$" "$T/$_n.out"
	expect_grep '^AUTH_OK how=token$' "$T/$_n.out"
	[ "$(grep -c '^PONG .*clock=ok$' "$T/$_n.out")" = 2 ] || fail "$_p: no PONGs"
	"$WP" "127.0.0.1:$_port" --wait-ms 5000 --token bad --linger-ms 5000 \
		>"$T/$_n.bad" 2>&1
	cat "$T/$_n.bad"
	expect_grep '^ERROR EAUTH ref=2 authentication failed: bad token$' "$T/$_n.bad"
	expect_grep '^CLOSED$' "$T/$_n.bad"
	expect_grep 'EAUTH authentication failed: bad token' "$T/$_n.log"
	"$WP" --exec "$(port_prefix "$_p") $TOP/build/$_p/bin/paravtd --stdio --name $_n" \
		--wait-ms 5000 --token any --send PING >"$T/$_n.stdio" 2>"$T/$_n.stdio.err"
	cat "$T/$_n.stdio"
	expect_grep "^HELLO version=${PROTO} role=daemon node=$_n .*arch=$2 order=$3 " "$T/$_n.stdio"
	expect_grep '^AUTH_OK how=transport$' "$T/$_n.stdio"
	expect_grep '^PONG .*clock=ok$' "$T/$_n.stdio"
	expect_grep '^EXIT 0$' "$T/$_n.stdio"
	ran=$((ran + 1))
}

check linux-s390x-qemu s390x big 8 8
check linux-i386-qemu 'i[3-6]86' little 4 4
[ $ran -gt 0 ] || skip "no emulated daemon built"
ok "$ran emulated daemon(s) served the x86_64 client"
