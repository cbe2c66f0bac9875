#!/bin/sh
# 92-wrappers-pvm-cost.sh — what the PVM wrappers add to Δ.  A PVM probe
# reads the clock twice and adds an empty probe's calibrated cost and the
# wrappers' own work around the call (the message context, the buffer's
# size and source), timed once at the task's first traced call
# (para_vt_pvm.c: pvm_calibrate); a probe that names a group or mailbox
# times itself.  tests/programs/pvm_master.c with 3 workers traced
# through paravt, PARAVT_SHOW_COST=1 in the console's environment (the
# master's pvm_spawn passes it on), the daemon with --no-cpu-share (Δ
# holds paravt's own time alone).  Checked, for every task:
#   - it prints its figures once: "a probe P ns, the wrappers W ns a call";
#   - every pvm_initsend, pvm_send, pvm_recv or pvm_trecv START right
#     after the END of one adds exactly the END's half probe and W to Δ,
#     and every such END right after its START the START's half: the
#     same steps all run long (probes that timed their own spans, as
#     they did before, give a different step nearly every call).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/mpi_delta.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
start_daemon n1 linux-x86_64 --no-cpu-share
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
CALLS='pvm_initsend|pvm_send|pvm_recv|pvm_trecv'
# shellcheck disable=SC2154
PARAVT_SHOW_COST=1 timeout 120 "$PARAVT" trace -o t.pvt \
	--node "n1=127.0.0.1:$DPORT_n1" --pvm "$P/pvm_master.c" \
	"$P/pvm_worker.c" -- run pvm pvm_master 3 >out 2>&1 ||
	{ cat out; cat n1.log; fail "paravt trace"; }
expect_grep '^\[p1\] OK$' out "the master did not finish"
"$PARAVT" -n -e "open t.pvt" -e "trace show 100000 --raw" >raw 2>&1 ||
	{ cat raw; fail "trace show"; }
# "PROC PROBE WRAP" a task (the workers' lines come through the master's
# pvm_catchout, the tid says whose they are)
_num='\([0-9]*\)'
sed -n "s/.*paravt: task \(t[0-9a-f]*\): a probe $_num ns, the wrappers $_num ns a call$/\1 \2 \3/p" \
	out | while read -r tid probe wrap; do
	p=$(sed -n "s/^\[\(p[0-9]*\) .* pvm_mytid = $tid .*/\1/p" raw | head -n 1)
	echo "${p:-?$tid} $probe $wrap"
done >cost
cat cost
[ "$(wc -l <cost)" -eq 4 ] || { cat out; fail "not 4 tasks' figures"; }
[ "$(cut -d' ' -f1 cost | grep '^p' | sort -u | wc -l)" -eq 4 ] ||
	fail "a task printed its figures more than once, or is not in the trace"
ok "every task times its wrappers once and says so"

mpi_delta_steps raw "$CALLS" >steps
cat steps
while read -r p probe wrap; do
	line=$(grep "^$p " steps) || fail "no steps of $p"
	# shellcheck disable=SC2086
	set -- $line
	[ "$4" -ge 2 ] && [ "$7" -ge 2 ] || fail "$p: too few calls ($line)"
	[ "$2" = 1 ] && [ "$5" = 1 ] || fail "$p's Δ steps are not constant ($line)"
	half=$((probe / 2))
	[ "$3" -eq $((wrap + probe - half)) ] ||
		fail "$p: a call's start adds $3 ns to Δ, not the wrappers $wrap + the end's half probe $((probe - half))"
	[ "$6" -eq "$half" ] ||
		fail "$p: a call's end adds $6 ns to Δ, not the start's half probe $half"
done <cost
ok "each call adds the calibrated probe and wrappers to Δ, no more"
