#!/bin/sh
# 10-daemon-busy.sh — one controller at a time: a second console gets
# EBUSY naming the first (and may still ping); control is released when
# the controller disconnects, and then granted to the next console.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

"$WP" "$A" --send SESSION_OPEN:alice --sleep-ms 4000 >"$T/alice" 2>&1 &
apid=$!
track_pid $apid
wait_for 10 grep -q '^SESSION_OK session=1$' "$T/alice" || fail "alice got no session"

"$WP" "$A" --send SESSION_OPEN:bob --send PING >"$T/bob" 2>&1
cat "$T/bob"
expect_grep '^ERROR EBUSY ref=3 node n1 is controlled by console alice since [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$' "$T/bob"
expect_grep '^PONG .*clock=ok$' "$T/bob"
expect_no_grep '^CLOSED$' "$T/bob"

wait $apid
wait_for 5 grep -q 'console alice released control' "$T/n1.log" || fail "not released"
"$WP" "$A" --send SESSION_OPEN:carol >"$T/carol" 2>&1
expect_grep '^SESSION_OK session=2$' "$T/carol"
ok "second controller busy; released on disconnect"

# Connection limit: 64 authenticated consoles served, the 65th gets EBUSY
# at AUTH and is closed.
# (eight at a time: wirepoke authenticates only after the daemon's HELLO,
# and at most 8 unauthenticated connections of one address are kept)
pids="" want=3
for b in 1 2 3 4 5 6 7 8; do
	for i in 1 2 3 4 5 6 7 8; do
		"$WP" "$A" --sleep-ms 6000 >/dev/null 2>&1 &
		pids="$pids $!"
		track_pid $!
	done
	want=$((want + 8))
	wait_for 10 sh -c "[ \$(grep -c 'authenticated by token' '$T/n1.log') -ge $want ]" ||
		fail "64 clients not all authenticated (batch $b)"
done
"$WP" "$A" --linger-ms 2000 >"$T/extra" 2>&1
cat "$T/extra"
expect_grep '^ERROR EBUSY ref=[0-9]+ too many connections \(limit 64\)$' "$T/extra"
expect_grep '^CLOSED$' "$T/extra"
wait $pids
"$WP" "$A" --send PING >"$T/after" 2>&1
expect_grep '^PONG ' "$T/after"
ok "connection limit"
