#!/bin/sh
# 85-trace-attach.sh — `paravt trace --attach` (issue 16): a traced PVM
# run whose console is killed is taken back by another `paravt trace -o
# SAME --attach`, which goes on writing the same trace file until the
# program ends.  The program (written here) sends to itself 400 times,
# 10 ms apart.  Checks: run once uninterrupted for the reference; run
# again, kill -9 its console after 2 s, attach: status 0, the program's
# last output line arrives, and trace-info of the continued file gives
# exactly the reference's figures (events, sends, receives, 0 lost, 400
# pairs matched, the end record); --attach to a complete file is refused.
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cat >ticker.c <<'PROG'
#include <stdio.h>
#include <unistd.h>
#include <pvm3.h>
int main(void)
{
	int me = pvm_mytid(), i, v = 0;

	for (i = 0; i < 400; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(me, 1);
		pvm_recv(me, 1);
		pvm_upkint(&v, 1, 1);
		usleep(10000);
	}
	printf("done %d\n", v);
	pvm_exit();
	return 0;
}
PROG
# shellcheck disable=SC2154
N="nat=127.0.0.1:$DPORT_nat"
figures() { "$PARAVT" trace-info "$1" | grep -E '^  p1 |^events:|^matched:|^ended:'; }

"$PARAVT" trace -o full.pvt --node "$N" --pvm ticker.c -- run pvm ticker \
	>full.out 2>&1 || { cat full.out; fail "reference run"; }
figures full.pvt >full.fig
cat full.fig

"$PARAVT" trace -o cut.pvt --node "$N" --pvm ticker.c -- run pvm ticker \
	>a.out 2>&1 &
a=$!
track_pid $a
wait_for 20 grep -q 'started on nat' a.out || { cat a.out; fail "run A did not start"; }
sleep 2
kill -9 $a
wait $a 2>/dev/null
grep -q 'done 399' a.out && fail "the program ended before its console was killed"
before=$(wc -c <cut.pvt)
"$PARAVT" trace -o cut.pvt --attach --node "$N" >b.out 2>&1
rc=$?
cat b.out
[ "$rc" = 0 ] || fail "paravt trace --attach: status $rc"
expect_grep '^continuing cut\.pvt after byte [0-9]+ \(1 process' b.out
expect_grep '^\[p1\] done 399$' b.out
after=$(wc -c <cut.pvt)
[ "$after" -gt "$before" ] || fail "the trace file did not grow ($before -> $after)"
figures cut.pvt >cut.fig
cat cut.fig
diff -u full.fig cut.fig || fail "the continued trace differs from an uninterrupted run"
ok "killed at 2 s and taken back: the trace equals an uninterrupted run's"

"$PARAVT" trace -o cut.pvt --attach --node "$N" >c.out 2>&1
rc=$?
[ "$rc" = 2 ] || { cat c.out; fail "--attach to a complete file: status $rc"; }
expect_grep 'cut\.pvt is complete \(its run ended' c.out
ok "--attach to a complete trace is refused"
