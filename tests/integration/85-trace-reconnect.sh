#!/bin/sh
# 85-trace-reconnect.sh — a console killed in the middle of a traced run;
# a new console that connects to the same daemon afterwards has a session
# of its own and sees nothing of the first one's (issue 16: the orphan
# leaked into the next console's session); a console that attaches
# (node add --attach) receives every event the first one had not
# acknowledged, each exactly once, and together they have every event of
# the run.
#
# The program (tests/programs/pvm_selfping.c) is a PVM task that sends to
# itself and receives, 300 times, 10 ms apart: about 1800 events over 3 s.
#   console A: load --pvm, build, trace filter kind=all, trace on --raw,
#              run pvm; killed with SIGKILL after 100 events are shown;
#   console C: node add, 3 s, info procs, trace dump: no process, no
#              event (meanwhile the program ends, its session detached);
#   console B: node add --attach, reads for a while, trace dump.
# Checks: B's sequence numbers have no duplicate; A's and B's together are
# 0..N-1 without a gap; B ends with the program's exit event (kind 2);
# what both saw is at most one batch (A stored it, was killed before its
# acknowledgement left).
# Needs the daemon's RUN kind "pvm" and its event relay: skipped, saying
# so, while daemon/ has neither.
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet (no NODE_EVENTS in daemon/)"
grep -rq '"pvm"' "$TOP"/daemon 2>/dev/null ||
	skip "paravtd has no RUN kind pvm yet"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
# shellcheck disable=SC2154
ADD="node add nat 127.0.0.1:$DPORT_nat"
"$PARAVT" -n -e "$ADD" -e "load --pvm $TOP/tests/programs/pvm_selfping.c" -e "build" \
	-e "trace filter kind=all" -e "trace on --raw" \
	-e "run pvm --timeout 60 pvm_selfping" >"$T/a.out" 2>&1 &
A=$!
track_pid $A
count_a() { [ "$(grep -c '^\[p1 nat\] seq ' "$T/a.out")" -ge 100 ]; }
wait_for 60 count_a || { cat "$T/a.out"; fail "console A saw no events"; }
kill -9 $A
wait $A 2>/dev/null
grep -q '^\[p1\] done' "$T/a.out" && fail "the program ended before console A was killed"
ok "console A killed after $(grep -c '^\[p1 nat\] seq ' "$T/a.out") events"
"$PARAVT" -n -e "$ADD" -e "sleep 3" -e "info procs" -e "trace dump" \
	>"$T/c.out" 2>&1 || { cat "$T/c.out"; fail "console C failed"; }
cat "$T/c.out"
expect_grep '^No processes' "$T/c.out" "console C sees the first session's process"
expect_no_grep '^event |^\[p1' "$T/c.out" "console C got the first session's events or output"
ok "a new console has a session of its own: no process, no event of the first"
set -- -e "$ADD --attach"
for _ in $(seq 1 24); do set -- "$@" -e "sleep 0.5"; done
"$PARAVT" -n "$@" -e "trace dump" -e "stats" -e "info procs" >"$T/b.out" 2>&1 ||
	{ cat "$T/b.out"; fail "console B failed"; }
sed -n 's/^\[p1 nat\] seq \([0-9]*\) .*/\1/p' "$T/a.out" | sort -n >"$T/a.seq"
awk '$1 == "event" {print $4}' "$T/b.out" | sort -n >"$T/b.seq"
sa=$(sed -n 's/^node nat is up: .*, session \([0-9]*\),.*/\1/p' "$T/a.out")
sb=$(sed -n 's/^node nat is up: .*, session \([0-9]*\),.*/\1/p' "$T/b.out")
if [ ! -s "$T/b.seq" ] && [ "$sa" != "$sb" ]; then
	skip "paravtd gave console B a new session ($sb) instead of handing over session $sa with its unacknowledged events (daemon part missing)"
fi
[ -s "$T/b.seq" ] || { cat "$T/b.out"; fail "console B received no events"; }
dups=$(uniq -d "$T/b.seq" | wc -l)
[ "$dups" -eq 0 ] || fail "console B has $dups duplicate sequence numbers"
sort -n -u "$T/a.seq" "$T/b.seq" >"$T/all.seq"
n=$(wc -l <"$T/all.seq")
seq 0 $((n - 1)) | diff - "$T/all.seq" >/dev/null || fail "a gap: A and B together are not 0..$((n - 1))"
both=$(sort "$T/a.seq" >"$T/a.lex"; sort "$T/b.seq" >"$T/b.lex"; comm -12 "$T/a.lex" "$T/b.lex" | wc -l)
[ "$both" -le 256 ] || fail "$both events went to both consoles"
awk '$1 == "event"' "$T/b.out" | tail -n 1 | grep -q ' 2$' || fail "console B did not get the exit event last"
ok "$n events: A $(wc -l <"$T/a.seq"), B $(wc -l <"$T/b.seq") without duplicates, $both in both, none lost"
grep -E '^\[p1|p1 .*(exited|ended)' "$T/b.out" | head -5
expect_grep '^\[p1\] done 299$' "$T/b.out" "console B did not get what the program printed while detached"
grep 'held while detached' "$T/nat.log"
expect_grep 'session 1: [1-9][0-9]* frame\(s\) held while detached sent' "$T/nat.log" \
	"the program did not end while its session was detached"
ok "console B got the program's output and exit of the time it had no console"
