#!/bin/sh
# 17-daemon-pvm-single.sh — RUN kind "pvm" on the native daemon, with
# wirepoke as the console: pvm_master and pvm_worker are shipped and built
# by the daemon with the PVM wrappers (cflag -DPARAVT_PVM=1), the master
# runs under a pvmd the daemon starts for the session (own PVM_TMP,
# ep= the build directory), the workers pvm_spawn'ed by it connect through
# the session socket as proc-0 tasks.  Checked:
#   * the master's stdout equals tests/pvm/expected/master.out;
#   * every worker appears as a process (PROC_START of run 1) and ends
#     (PROC_EXIT); events come from the master and every worker, seqs
#     contiguous from 0 per process, names resolvable;
#   * every pvm_send is matched by exactly one receive with the same
#     source, destination (tids from PROG_START), tag and bytes;
#   * afterwards the pvmd is halted, nothing of the session's virtual
#     machine is left, and the session socket is gone.
. "$(dirname "$0")/../lib/common.sh"
command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
[ -e "$TOP/build/linux-x86_64/lib/libparavt_pvm.a" ] || fail "no libparavt_pvm.a (make node)"
export TMPDIR="$T"
unset PVM_TMP PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK 2>/dev/null || true
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
P=$TOP/tests/programs

"$WP" "$A" --wait-ms 30000 --send SESSION_OPEN:pvm \
	--put "1:pvm_master.c=$P/pvm_master.c" --put "1:pvm_worker.c=$P/pvm_worker.c" \
	--build "1:pvm_master:pvm_master.c:-DPARAVT_PVM=1" --until BUILD_RESULT \
	--build "1:pvm_worker:pvm_worker.c:-DPARAVT_PVM=1" --until BUILD_RESULT \
	--run 1:1:pvm:pvm_master:6 --ack --until-n PROC_EXIT:7 \
	--linger-ms 1000 >"$T/out" 2>&1
grep -v '^EV ' "$T/out" >"$T/frames"
[ "$(grep -c '^BUILD_RESULT build=1 ok=true' "$T/frames")" = 2 ] ||
	{ cat "$T/frames"; fail "PVM builds failed"; }
expect_grep '^PROC_EXIT proc=1 status=0 ' "$T/frames" "the master exited 0"

# The master's stdout, from its OUTPUT frames.
sed -n 's/^OUTPUT proc=1 stream=1 //p' "$T/out" | tr -d '\n' | sed 's/\\n/\n/g' >"$T/master.out"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/master.out" ||
	{ cat "$T/frames"; fail "master output differs from expected/master.out"; }
ok "pvm_master 6 under the daemon's pvmd: output as expected"

[ "$(grep -c '^PROC_START run=1 proc=' "$T/frames")" = 7 ] ||
	fail "not 7 processes (master + 6 workers) announced"
[ "$(grep -c '^PROC_EXIT proc=[0-9]* status=0 ' "$T/frames")" = 7 ] ||
	fail "not 7 processes ended with status 0"
for p in 1 2 3 4 5 6 7; do
	grep -q "^EV proc=$p seq=0 kind=1 " "$T/out" || fail "no PROG_START from proc $p"
	awk -v p="$p" '$1 == "EV" && $2 == "proc=" p { split($3, kv, "=")
		if (kv[2] != n) { print "proc", p, "seq", kv[2], "expected", n; exit 1 } n++ }' \
		"$T/out" || fail "proc $p: seqs not contiguous"
done
awk '$1 == "STR" { split($2, a, "="); split($3, b, "="); name[a[2] " " b[2]] = 1 }
     $1 == "EV" { split($2, a, "="); for (i = 3; i <= NF; i++) { split($i, kv, "=")
		if ((kv[1] == "file" || kv[1] == "func") && kv[2] != 0 && !((a[2] " " kv[2]) in name)) {
			print "unresolved", $2, $i; bad++ } } }
     END { exit bad > 0 }' "$T/out" || fail "string ids without names"
expect_grep '^STR proc=[2-7] id=[0-9]+ pvm_worker\.c$' "$T/out" "worker events name their file"
ok "7 processes (6 through the session socket), events from all, seqs contiguous"

# Sends and receives: kind 6 = SEND_END (op 1 pvm_send), kind 8 =
# RECV_END of pvm_recv/nrecv/trecv/precv (ops 3-6); tids from PROG_START.
awk '$1 != "EV" { next }
     { delete f; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
     f["kind"] == 1 { tid[f["proc"]] = f["peer"] }
     f["kind"] == 6 && f["op"] == 1 { s[++ns] = f["proc"] " " f["peer"] " " f["tag"] " " f["bytes"] }
     f["kind"] == 8 && f["op"] >= 3 && f["op"] <= 6 && f["result"] > 0 && f["peer"] > 0 {
	r[++nr] = f["peer"] " " f["proc"] " " f["tag"] " " f["bytes"] }
     END {
	for (i = 1; i <= ns; i++) { split(s[i], a, " "); want[tid[a[1]] " " a[2] " " a[3] " " a[4]]++ }
	for (i = 1; i <= nr; i++) { split(r[i], a, " "); k = a[1] " " tid[a[2]] " " a[3] " " a[4]
		if (want[k] > 0) want[k]--; else { print "receive without a send:", k; bad++ } }
	for (k in want) if (want[k]) { print "send without a receive:", k; bad++ }
	print ns, "sends", nr, "receives"
	exit bad > 0 || ns == 0 }' "$T/out" >"$T/match" ||
	{ cat "$T/match"; fail "sends and receives do not match one to one"; }
ok "$(tail -1 "$T/match"): each send matched by one receive (source, tag, bytes)"

# The pvmd the daemon started is halted; nothing of its VM is left.
wait_for 10 grep -q 'session 1: pvmd [0-9]* halted' "$T/n1.log" ||
	{ cat "$T/n1.log"; fail "pvmd not halted"; }
dpid=$(sed -n 's/.*session 1: pvmd pid \([0-9]*\) up.*/\1/p' "$T/n1.log")
[ -n "$dpid" ] && ! kill -0 "$dpid" 2>/dev/null || fail "pvmd $dpid still there"
left=$(grep -lzs "^PVM_TMP=$T/" /proc/[0-9]*/environ 2>/dev/null | grep -v "/proc/$$/" || true)
[ -z "$left" ] || fail "processes of the session's VM left: $left"
tok=$(sed -n 's/.*PARAVT_SESSION=\([0-9-]*\).*/\1/p' "$T/n1.log" | head -1)
wait_for 5 test ! -e "/tmp/paravtd-$(id -u)/session-$tok.sock" ||
	fail "session socket session-$tok.sock not removed"
ok "pvmd halted, no process of the session left, session socket removed"
