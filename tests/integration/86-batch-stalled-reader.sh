#!/bin/sh
# 86-batch-stalled-reader.sh — `paravt trace --timeout` holds when
# whatever reads paravt's output stops reading (a pager left open, a
# stuck pipe): a program that prints without end, traced with
# --timeout 3, piped into a reader that sleeps 15 s first.  The run ends
# at its limit (the summary says about 3 s, not 15), with status 3; the
# lines stdout did not take are counted and said; the trace file is
# whole.
. "$(dirname "$0")/../lib/common.sh"
start_daemon n1 linux-x86_64
cd "$T" || fail "cd $T"
cat >loud.c <<'PROG'
#include <stdio.h>
int main(void)
{
	long i;

	for (i = 0;; i++)
		printf("line %ld of a program that never stops talking\n", i);
}
PROG
# shellcheck disable=SC2154
{ "$PARAVT" trace -o loud.pvt --timeout 3 --node "n1=127.0.0.1:$DPORT_n1" \
	loud.c -- run 2>err.txt; echo $? >rc; } | { sleep 15; cat >out.txt; }
cat err.txt
tail -2 out.txt
rc=$(cat rc)
[ "$rc" = 3 ] || fail "status $rc, not 3 (time limit)"
secs=$(sed -n 's/.*loud\.pvt: .*process, \([0-9.]*\) s (console CPU.*/\1/p' err.txt)
echo "the run took $secs s by paravt's summary"
awk -v s="${secs:-99}" 'BEGIN { exit !(s < 6) }' ||
	fail "the run took $secs s with --timeout 3: the stalled reader held it"
expect_grep 'lines of output not shown: the console.s output did not take them by the time limit' out.txt
"$PARAVT" trace-info loud.pvt >info.txt 2>&1 || { cat info.txt; fail "trace-info"; }
expect_grep '^ended: ' info.txt
ok "--timeout 3 holds against a reader stalled for 15 s: $secs s, status 3"
