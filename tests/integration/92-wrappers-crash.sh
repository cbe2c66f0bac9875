# 92-wrappers-crash — a traced task that crashes: its buffered events
# (never flushed before: a handful of records inside the 100 ms timer)
# and TASK_CRASH reach the sink, then the task dies of SIGSEGV as it
# would have.  For every port built here: the emulated ports run both
# their own ev_sink and the task under qemu (records are native, so the
# sink must be of the task's port).
. "$(dirname "$0")/../lib/common.sh"

n=0
for port in linux-x86_64 linux-s390x-qemu linux-i386-qemu; do
	B=$TOP/build/$port/tests
	[ -x "$B/ev_crash" ] && [ -x "$B/ev_sink" ] || { echo "$port: not built, skipped"; continue; }
	pre=$(port_prefix "$port")
	s=$T/$port.sock
	$pre "$B/ev_sink" -s "$s" -o "$T/$port.ev" &
	sp=$!
	track_pid $sp
	wait_for 10 test -S "$s" || fail "$port: ev_sink did not listen"
	PARAVT_SOCK=$s PARAVT_PROC=3 PARAVT_TRACE=full $pre "$B/ev_crash" 5 \
		>"$T/$port.out" 2>"$T/$port.err"
	rc=$?
	[ $rc = 139 ] || { cat "$T/$port.err"; fail "$port: task exit $rc, not SIGSEGV (139)"; }
	wait_for 10 grep -q '^close ' "$T/$port.ev" || { cat "$T/$port.ev"; fail "$port: no close"; }
	kill $sp; wait $sp 2>/dev/null
	e=$T/$port.ev
	expect_grep '^hello c=1 proc=3 ' "$e" "$port: task announced"
	[ "$(grep -c 'kind=send_end op=pvm_send .*func=fake_send .*peer=7 ' "$e")" = 5 ] ||
		{ cat "$e"; fail "$port: 5 buffered sends expected"; }
	# Δ: each probe adds its calibrated cost, half at its start record
	# and half (the odd ns) at its end: the same two steps every time,
	# the end's equal to the start's or 1 ns more.
	grep -E 'kind=send_(start|end) op=pvm_send .*func=fake_send ' "$e" |
		sed 's/.*kind=send_\([a-z]*\) .* delta=\([0-9]*\) .*/\1 \2/' |
		awk 'NR > 1 { d = $2 - p; if ($1 == "end") { if (a == "") a = d; else if (d != a) bad = 1 }
		              else { if (b == "") b = d; else if (d != b) bad = 1 } }
		     { p = $2 }
		     END { if (bad || a == "" || b == "" || b - a < 0 || b - a > 1) exit 1 }' ||
		{ cat "$e"; fail "$port: delta does not grow by the same halves in every probe"; }
	# The receive's END has the real call's return as its time
	# (pvt__ev_ret), not the end of the 20 ms its wrapper works after.
	grep -E 'kind=recv_(start|end) op=pvm_recv .*func=fake_recv ' "$e" |
		sed 's/.* t=\([0-9]*\)$/\1/' |
		awk 'NR == 1 { s = $1 } NR == 2 { e = $1 } END { if (NR != 2 || e - s >= 10000000) exit 1 }' ||
		{ cat "$e"; fail "$port: the receive's END is not at its call's return"; }
	# The timed probes: in the first (tag 100) the wrapper's 20 us
	# before the call are in delta at its END and the 20 us after the
	# call's return at the next record, and its END's time is the
	# call's return; the second (tag 101) slept 20 ms before the call,
	# which must not be in delta (the START of the second is that next
	# record, then its END, then crash_here's entry).
	grep -E 'func=fake_timed_send |func=crash_here ' "$e" | grep -E 'kind=(send_start|send_end|fn_enter) ' |
		sed 's/.*kind=\([a-z_]*\) .* tag=\([-0-9]*\) .* delta=\([0-9]*\) t=\([0-9]*\)$/\1 \2 \3 \4/' |
		awk '{ k[NR] = $1 " " $2; d[NR] = $3; t[NR] = $4 }
		     END { if (NR != 5 || k[1] != "send_start 100" || k[2] != "send_end 100" ||
		               k[3] != "send_start 101" || k[4] != "send_end 101" || k[5] != "fn_enter -1") exit 1
		           if (d[2] - d[1] < 20000 || d[3] - d[2] < 20000) exit 1
		           if (t[2] - t[1] < 20000 || t[3] - t[2] < 20000) exit 1
		           if (t[4] - t[3] < 20000000 || d[5] - d[3] > 1000000) exit 1 }' ||
		{ grep -E 'fake_timed_send|crash_here' "$e"; fail "$port: a timed probe's delta is not its own work"; }
	expect_grep 'kind=fn_enter op=function file=.*ev_crash.c func=crash_here ' "$e" \
		"$port: full mode recorded the entry of crash_here"
	expect_grep 'kind=crash op=signal .* aux=11 ' "$e" "$port: crash record"
	expect_no_grep '^gap ' "$e" "$port: no gap"
	# The events come before TASK_CRASH, which names the last location.
	last=$(grep -n '^ev ' "$e" | tail -n 1 | cut -d: -f1)
	cr=$(grep -n '^crash c=1 sig=11 at=.*ev_crash.c:[0-9]* func=crash_here$' "$e" | cut -d: -f1)
	[ -n "$cr" ] && [ "$cr" -gt "$last" ] || { cat "$e"; fail "$port: TASK_CRASH after the events"; }
	ok "$port: buffered events, crash record and TASK_CRASH delivered"
	n=$((n + 1))
done
[ $n -gt 0 ] || skip "no port built"
