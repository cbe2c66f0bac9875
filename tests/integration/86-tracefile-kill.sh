#!/bin/sh
# 86-tracefile-kill.sh — a console killed with SIGKILL in the middle of a
# run leaves a readable trace file.  A real PVM run (pvm_master 6, real
# daemon and pvmd) is written with `trace file OUT`; the six workers stop
# at a breakpoint before they send their results, so the master is still
# waiting in its receive when the console, fed from a FIFO, has printed
# `stats` and is killed -9.  Then:
#   - `paravt trace-info OUT` exits 0, without a truncation note, says
#     there is no end record, and counts the events `stats` counted;
#   - `open OUT` + `info procs`: the master is waiting in pvm_master.c,
#     each worker's last location is in pvm_worker.c.
. "$(dirname "$0")/../lib/common.sh"
grep -rq '"pvm"' "$TOP"/daemon 2>/dev/null ||
	skip "paravtd has no RUN kind pvm yet"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/pvm_master.c" "$TOP/tests/programs/pvm_worker.c" "$T/"
BP=$(grep -n 'pvm_initsend(PvmDataDefault);' pvm_worker.c | head -n 1 | cut -d: -f1)
[ -n "$BP" ] || fail "no pvm_initsend line in pvm_worker.c"
OUT=$T/killed.pvt

mkfifo "$T/cmds" || fail "mkfifo"
"$PARAVT" -n <"$T/cmds" >"$T/out" 2>&1 &
cpid=$!
track_pid $cpid
exec 3>"$T/cmds"
# shellcheck disable=SC2154
cat >&3 <<EOS
node add nat 127.0.0.1:$DPORT_nat
load --pvm pvm_master.c pvm_worker.c
set stop-mode one
break pvm_worker.c:$BP
build
trace file $OUT
run pvm --timeout 6 pvm_master 6
stats
EOS
wait_for 45 grep -q '^total ' "$T/out" || { exec 3>&-; cat "$T/out"; fail "the console did not get to stats"; }
grep -c 'stopped at breakpoint' "$T/out" | grep -q '^6$' || { cat "$T/out"; fail "not 6 workers stopped"; }
kill -9 $cpid
wait $cpid 2>/dev/null
exec 3>&-
cat "$T/out"
ok "console killed -9 with 6 workers stopped and the master waiting"

# shellcheck disable=SC2046
set -- $(grep '^total ' "$T/out")
events=$7
"$PARAVT" trace-info "$OUT" >"$T/info" 2>&1 || { cat "$T/info"; fail "trace-info failed on the killed console's file"; }
cat "$T/info"
expect_grep "^events: +$events \(" "$T/info" "events differ from the stats before the kill ($events)"
expect_grep '^processes: +7$' "$T/info"
expect_grep '^ended: +no end record \(the console was killed' "$T/info"
expect_no_grep '^note:' "$T/info"
ok "trace-info: $events events, no end record, no truncation"

"$PARAVT" -n -e "open $OUT" -e "info procs" >"$T/open" 2>&1 || { cat "$T/open"; fail "open failed"; }
cat "$T/open"
expect_grep '^  p1 +nat +- +t[0-9a-f]+ +waiting +pvm_master\.c:[0-9]+ main$' "$T/open" "master not waiting"
[ "$(grep -cE '^  p[2-7] +nat +- +t[0-9a-f]+ +[a-z]+ +pvm_worker\.c:[0-9]+ ' "$T/open")" = 6 ] ||
	fail "info procs: not 6 workers located in pvm_worker.c"
ok "open: the master waits in its receive, the workers are in pvm_worker.c"
