#!/bin/sh
# 85-trace-pvm.sh — a real PVM master/worker program traced through the
# console, with a real daemon that starts the session's own pvmd:
#   load --pvm pvm_master.c pvm_worker.c   (two programs from one build)
#   build; run pvm pvm_master 6
# and checks:
#   - the master's output is tests/pvm/expected/master.out exactly;
#   - info procs lists the master and the 6 workers, each with a tid;
#   - stats: every send matched by one receive (total sends == total
#     receives, bytes out == bytes in), one row per process;
#   - trace show: the master's wildcard pvm_trecv shows the worker's tid
#     it actually received from (never "any").
# Needs the daemon's RUN kind "pvm" and its event relay: skipped, saying
# so, while daemon/ has neither.
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet (no NODE_EVENTS in daemon/)"
grep -rq '"pvm"' "$TOP"/daemon 2>/dev/null ||
	skip "paravtd has no RUN kind pvm yet"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
# shellcheck disable=SC2154
"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" -e "build" \
	-e "trace on" -e "run pvm pvm_master 6" -e "info procs" -e "stats" \
	-e "trace filter kind=recv proc=p1" -e "trace show 50" \
	>"$T/out" 2>&1 || { cat "$T/out"; cat "$T/nat.log"; fail "console failed"; }
cat "$T/out"
expect_grep '^build of pvm_master on nat: ok$' "$T/out"
expect_grep '^build of pvm_worker on nat: ok$' "$T/out"
ok "one build, two programs"
sed -n 's/^\[p1\] //p' "$T/out" | grep -E '^(worker [0-9]|total:|OK|FAILED)' >"$T/master.out"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/master.out" || fail "master output differs"
ok "master output as without paravt"
# info procs: p1..p7, each with a tid tNNNNN
for i in 1 2 3 4 5 6 7; do
	expect_grep "^[ *] p$i +nat +[0-9]+ +t[0-9a-f]+ +exited +" "$T/out" "p$i missing or without a tid"
done
expect_no_grep '^[ *] p8 ' "$T/out"
ok "info procs: master and 6 workers with tids"
tot=$(grep '^total ' "$T/out")
# shellcheck disable=SC2086
set -- $tot
{ [ "$2" -gt 0 ] && [ "$2" = "$3" ]; } || fail "sends ($2) != receives ($3)"
{ [ "$4" -gt 0 ] && [ "$4" = "$5" ]; } || fail "bytes out ($4) != bytes in ($5)"
[ "$2" -ge 12 ] || fail "only $2 sends for 6 workers"
[ "$(grep -cE '^p[0-9]+ +nat +t' "$T/out")" -eq 7 ] || fail "stats rows"
ok "stats: $2 sends, $3 receives, $4 bytes each way"
expect_grep '^\[p1 nat\] \+[0-9.]+ recv +<- t[0-9a-f]+ tag 12 +[0-9]+ B  .*pvm_master\.c:[0-9]+ main$' "$T/out" "wildcard trecv without its actual source"
expect_no_grep '^\[p1 nat\] .*recv +<- any' "$T/out"
ok "trace show: wildcard receives show their actual source"
# trace on: the live lines (before info procs) are in the global order —
# times never decrease, and every worker's receive of its task (tag 11)
# comes after the master's send to that worker.
sed -n '/^tracing is on$/,/^  Id /p' "$T/out" | grep '^\[p[0-9]* nat\] +' >"$T/live"
[ "$(wc -l <"$T/live")" -ge 40 ] || fail "too few live lines"
awk '{ t = substr($3, 2) + 0; if (NR > 1 && t < prev) { print "line " NR ": " $0; bad = 1 } prev = t }
	END { exit bad }' "$T/live" || fail "live display times go back"
for w in $(sed -n 's/^\[p1 nat\] .* send +-> \(t[0-9a-f]*\) tag 11 .*/\1/p' "$T/live"); do
	s=$(grep -n "^\[p1 nat\] .* send +-> $w tag 11 " "$T/live" | head -n 1 | cut -d: -f1)
	r=$(grep -n "recv +<- t[0-9a-f]* tag 11 " "$T/live" | while IFS=: read -r n l; do
		p=$(echo "$l" | sed 's/^\[\(p[0-9]*\) .*/\1/')
		grep -q "^ *$p .* $w " "$T/out" && { echo "$n"; break; }; done)
	[ -n "$s" ] && [ -n "$r" ] && [ "$r" -gt "$s" ] || fail "receive of $w's task (line $r) not after its send (line $s)"
done
ok "trace on: live lines in the global order (receives after their sends)"
