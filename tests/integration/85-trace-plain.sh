#!/bin/sh
# 85-trace-plain.sh — tracing a plain (non-PVM) instrumented program
# through the console, with a real daemon:
#   - `trace on` prints the program's events live (start, exit);
#   - `trace show` and `trace show --raw` print the stored events, the raw
#     form with sequence numbers 0, 1, ... without gaps;
#   - `stats` counts them (one process, no messages) and the total line;
#   - `trace filter` keeps only what it names, `trace filter clear`;
#   - `info procs` keeps its old columns (no Tid for a plain program).
# Needs the daemon's event relay (NODE_EVENTS): skipped, saying so, when
# daemon/ has none yet.
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet (no NODE_EVENTS in daemon/)"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cat >plain.c <<'PROG'
#include <stdio.h>
static int sq(int x) { return x * x; }
int main(void)
{
	int i, s = 0;
	for (i = 0; i < 5; i++)
		s += sq(i);
	printf("sum %d\n", s);
	return 0;
}
PROG
# shellcheck disable=SC2154
"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" -e "load plain.c" \
	-e "build" -e "trace on" -e "run" -e "trace off" -e "info procs" \
	-e "stats" -e "trace show" -e "trace show 100 --raw" \
	-e "trace filter kind=exit" -e "trace show" -e "trace filter clear" \
	-e "trace filter proc=p9" -e "trace show" -e "trace dump" \
	>"$T/out" 2>&1 || { cat "$T/out"; fail "console failed"; }
cat "$T/out"
expect_grep '^\[p1\] sum 30$' "$T/out"
expect_grep '^\[p1 nat\] \+[0-9.]+ start( |$)' "$T/out" "no live start event"
expect_grep '^\[p1 nat\] \+[0-9.]+ exit +status 0' "$T/out" "no live exit event"
ok "trace on: start and exit shown live"
expect_grep '^[ *] p1 +nat +[0-9]+ +exited +status 0$' "$T/out" "info procs changed for a plain program"
expect_grep '^p1 +nat +- +0 +0 +0 +0 +0 +[1-9][0-9]* +0$' "$T/out" "stats row"
expect_grep '^total +0 +0 +0 +0 +0 +[1-9][0-9]* +0$' "$T/out" "stats total"
ok "stats: one process, events, no messages, nothing lost"
# raw: sequence numbers of p1 are 0..N-1 exactly once
grep '^event nat ' "$T/out" | awk '{print $4}' >"$T/seqs"
n=$(wc -l <"$T/seqs")
[ "$n" -ge 2 ] || fail "trace dump printed $n events"
seq 0 $((n - 1)) | diff - "$T/seqs" || fail "sequence numbers are not 0..$((n - 1))"
expect_grep '^\[p1 nat\] seq 0 t [0-9]+ delta [0-9]+ start' "$T/out" "raw show"
ok "trace dump / --raw: seq 0..$((n - 1)), each once"
expect_grep '^trace filter: kind=exit$' "$T/out"
expect_grep '^trace filter: proc=p9$' "$T/out"
[ "$(grep -c '^\[p1 nat\] +[0-9.]* exit' "$T/out")" -ge 2 ] || fail "filtered show lost the exit"
ok "trace filter"
