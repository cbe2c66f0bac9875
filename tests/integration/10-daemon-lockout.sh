#!/bin/sh
# 10-daemon-lockout.sh — connections that never authenticate cannot lock
# the owner out: with 500 of them held open and renewed as soon as the
# daemon drops them (half silent, half stuck inside their HELLO), an
# authenticated console gets in within 1 s, 20 times out of 20; the log
# says how many were dropped; afterwards the daemon serves as before.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
CF=$TOP/build/tests/tools/connflood
PV=$TOP/build/linux-x86_64/bin/paravt
[ -x "$WP" ] && [ -x "$CF" ] || fail "no $WP or $CF (make test-bins)"
[ "$(ulimit -n)" -ge 1200 ] 2>/dev/null || ulimit -n 4096 2>/dev/null ||
	skip "cannot open 1200 descriptors (ulimit -n $(ulimit -n))"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

"$CF" "$A" 250 15 >"$T/flood1" 2>&1 &
f1=$!
track_pid $f1
"$CF" "$A" 250 15 --hello >"$T/flood2" 2>&1 &
f2=$!
track_pid $f2
seen() { grep -c 'connection from' "$T/n1.log"; }
wait_for 10 sh -c "[ \$(grep -c 'connection from' '$T/n1.log') -gt 1500 ]" ||
	fail "the flood did not renew its connections ($(seen) seen)"
echo "the flood is on: $(seen) connections seen"

ms() { echo $(($(date +%s%N) / 1000000)); }
slow=0 worst=0 i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	t0=$(ms)
	timeout 10 "$PV" -n -e "node add n1 $A" >"$T/c$i" 2>&1
	dt=$(($(ms) - t0))
	[ $dt -gt $worst ] && worst=$dt
	grep -q 'is up' "$T/c$i" || { cat "$T/c$i"; fail "console $i did not get in"; }
	[ $dt -le 1000 ] || slow=$((slow + 1))
	sleep 0.2
done
echo "20 consoles in, slowest ${worst} ms, $slow over 1 s"
[ $slow -eq 0 ] || fail "$slow of 20 consoles took over 1 s"
ok "an authenticated console gets in through 500 unauthenticated connections"

kill -0 $f1 $f2 || fail "the flood ended before the consoles did"
wait $f1 $f2
cat "$T/flood1" "$T/flood2"
echo "connections the daemon saw: $(seen)"
grep 'dropped [0-9]* unauthenticated' "$T/n1.log" | head -2
expect_grep 'too many unauthenticated connections from 127\.0\.0\.1 \(limit 8\)' "$T/n1.log"
"$WP" "$A" --send PING >"$T/after" 2>&1
expect_grep '^PONG ' "$T/after"
ok "served as before once the flood ends"
