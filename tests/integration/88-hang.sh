#!/bin/sh
# 88-hang.sh — hang and deadlock diagnosis with a real daemon, pvmd and a
# PVM program that hangs on purpose (tests/programs/pvm_deadlock.c), the
# console in batch mode with stdin from /dev/null:
#   1. deadlock: two tasks each receiving first.  With
#      PARAVT_HANG_TIMEOUT=3 and `run --timeout 60` the watchdog reports
#      the deadlock by itself and ends the wait long before the timeout
#      (elapsed < 20 s); the report names both tasks and both source
#      lines (those of the two pvm_recv calls, found with grep), `info
#      hang` says the same and shows how long each has been blocked, and
#      `kill all` ends the tasks (info procs; info hang then notes they
#      ended since their last event);
#      the same program under `paravt trace --hang 3` (no terminal) ends
#      with status 4 (hung) and its trace file, opened again, shows the
#      deadlock in `info hang`;
#   2. a hang that is no deadlock: the second task exits without
#      sending, the first waits for it for ever.  The watchdog reports
#      it ("p1 waits for p2 which has exited") but never says deadlock;
#      no message can end it, so it ends the wait (issue 11: it used to
#      wait on to run's own --timeout);
#   3. MPI (when mpirun is there): tests/programs/hang_mpi.c with 3 ranks,
#      ranks 0 and 1 each receiving first, rank 2 in a barrier they never
#      reach: the deadlock of ranks 0 and 1 at the MPI_Recv line, rank 2
#      held by it at the MPI_Barrier line (mpirun itself has no events and
#      does not keep the watchdog quiet); the job is killed, and what
#      Open MPI keeps while it runs (its session directory, the ranks'
#      shared-memory segments) was in the run's directory in memory,
#      which the daemon removes with them (dmn_mpidir.c): none left.
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
LM=$(grep -n 'hang: master receives first' "$P/pvm_deadlock.c" | cut -d: -f1)
LW=$(grep -n 'hang: worker receives first' "$P/pvm_deadlock.c" | cut -d: -f1)
if [ -z "$LM" ] || [ -z "$LW" ]; then
	fail "marker lines not found in pvm_deadlock.c"
fi

# $1 name, $2 load option and file, $3 run command; output in
# $T/$1.out, seconds in $T/$1.secs.
hang_run() {
	_t0=$(date +%s)
	# shellcheck disable=SC2154
	PARAVT_HANG_TIMEOUT=3 timeout 120 "$PARAVT" -n \
		-e "node add nat 127.0.0.1:$DPORT_nat" \
		-e "load $2" -e "build" -e "$3" -e "info hang" \
		-e "info procs" -e "kill all" -e "info procs" -e "info hang" \
		</dev/null >"$T/$1.out" 2>&1
	echo "$(( $(date +%s) - _t0 ))" >"$T/$1.secs"
	cat "$T/$1.out"
}

# 1. the deadlock
hang_run deadlock "--pvm $P/pvm_deadlock.c" "run pvm --timeout 60 pvm_deadlock"
O=$T/deadlock.out
expect_grep '^\[no progress for 3 s: every running process is blocked\]$' "$O"
expect_grep '^\[stopped waiting: deadlock: p[12] and p[12] wait for each other\]$' "$O"
n=$(grep -c '^deadlock: p[12] and p[12] wait for each other$' "$O")
[ "$n" -eq 3 ] || fail "deadlock headline printed $n times (watchdog + info hang twice expected)"
expect_grep "^  p1 \(t[0-9a-f]+\) pvm_recv from p2 tag 1 at .*pvm_deadlock\.c:$LM in master$" "$O"
expect_grep "^  p2 \(t[0-9a-f]+\) pvm_recv from p1 tag 2 at .*pvm_deadlock\.c:$LW in worker$" "$O"
expect_grep '^blocked for: p[12] [0-9]+\.[0-9] s, p[12] [0-9]+\.[0-9] s$' "$O"
expect_no_grep 'still running after' "$O"
secs=$(cat "$T/deadlock.secs")
[ "$secs" -lt 20 ] || fail "deadlock reported after $secs s (PARAVT_HANG_TIMEOUT=3, run --timeout 60)"
ok "deadlock of p1 and p2 at pvm_deadlock.c:$LM and :$LW, reported by itself; console done in $secs s"
# after kill all, info procs shows both tasks ended
n=$(grep -cE '^[ *] p[12] +nat +[0-9]+ +t[0-9a-f]+ +(crashed|killed|exited) ' "$O")
[ "$n" -eq 2 ] || fail "$n of 2 tasks ended after kill all"
expect_grep '^\[ended since their last event: p[12], p[12]\]$' "$O"
ok "kill all ends both tasks; info hang then says they ended"

# 1b. the same through the batch capture: `paravt trace --hang 3` ends
# with status 4 (ended as hung), and the trace file, opened again, shows
# the deadlock in info hang
_t0=$(date +%s)
rc=0
timeout 120 "$PARAVT" trace -o "$T/dl.pvt" --hang 3 \
	--node "nat=127.0.0.1:$DPORT_nat" --pvm "$P/pvm_deadlock.c" \
	-- run pvm pvm_deadlock </dev/null >"$T/trace.out" 2>&1 || rc=$?
secs=$(( $(date +%s) - _t0 ))
cat "$T/trace.out"
[ "$rc" -eq 4 ] || fail "paravt trace of a deadlock: status $rc, not 4 (hung)"
[ "$secs" -lt 20 ] || fail "paravt trace took $secs s"
expect_grep 'ended as hung \(deadlock: p[12] and p[12] wait for each other\)' "$T/trace.out"
"$PARAVT" -n -e "open $T/dl.pvt" -e "info hang" </dev/null >"$T/open.out" 2>&1 ||
	{ cat "$T/open.out"; fail "open + info hang of the trace file failed"; }
cat "$T/open.out"
expect_grep '^deadlock: p[12] and p[12] wait for each other$' "$T/open.out"
expect_grep "^  p1 \(t[0-9a-f]+\) pvm_recv from p2 tag 1 at .*pvm_deadlock\.c:$LM in master$" "$T/open.out"
expect_grep "^  p2 \(t[0-9a-f]+\) pvm_recv from p1 tag 2 at .*pvm_deadlock\.c:$LW in worker$" "$T/open.out"
ok "paravt trace: status 4 after $secs s; the trace file shows the deadlock"

# 2. a hang that is not a deadlock
hang_run exited "--pvm $P/pvm_deadlock.c" "run pvm --timeout 8 pvm_deadlock exited"
O=$T/exited.out
expect_grep '^\[no progress for 3 s: every running process is blocked\]$' "$O"
expect_grep '^hang: p1 waits for p2 which has exited$' "$O"
expect_grep "^  p1 \(t[0-9a-f]+\) pvm_recv from p2 \(exited\) tag 1 at .*pvm_deadlock\.c:$LM in master$" "$O"
expect_no_grep '(^|: )deadlock:' "$O"
# no message can end it: the watchdog ends the wait (paravt trace: 4)
expect_grep '^\[stopped waiting: hang: p1 waits for p2 which has exited\]$' "$O"
expect_no_grep 'still running after' "$O"
ok "a task waiting for one that exited is a hang, not a deadlock, and ends the wait"

# 3. an MPI deadlock with a rank held by it
command -v mpirun >/dev/null 2>&1 || { ok "no mpirun: MPI part skipped"; exit 0; }
LR=$(grep -n 'hang: recv' "$P/hang_mpi.c" | cut -d: -f1)
LB=$(grep -n 'hang: barrier' "$P/hang_mpi.c" | cut -d: -f1)
hang_run mpi "--mpi $P/hang_mpi.c" "run mpi --timeout 60 -np 3"
O=$T/mpi.out
expect_grep '^\[stopped waiting: deadlock: p[0-9]+ and p[0-9]+ wait for each other\]$' "$O"
expect_grep "^  p[0-9]+ \(rank 0\) MPI_Recv from p[0-9]+ tag 5 at .*hang_mpi\.c:$LR in main$" "$O"
expect_grep "^  p[0-9]+ \(rank 1\) MPI_Recv from p[0-9]+ tag 5 at .*hang_mpi\.c:$LR in main$" "$O"
expect_grep '^  held by the deadlock:$' "$O"
expect_grep "^  p[0-9]+ \(rank 2\) MPI_Barrier waiting for p[0-9]+, p[0-9]+ at .*hang_mpi\.c:$LB in main$" "$O"
secs=$(cat "$T/mpi.secs")
[ "$secs" -lt 25 ] || fail "MPI deadlock reported after $secs s"
ok "MPI: ranks 0 and 1 deadlocked at hang_mpi.c:$LR, rank 2 held at :$LB; console done in $secs s"
MEM=${PARAVT_RING_MEMFS:-/dev/shm}/paravt-$(id -u)
if [ -d "$MEM" ]; then
	wait_for 20 grep -Eq "removed [1-9][0-9]* file\(s\) of [0-9]+ bytes that the MPI job left in $MEM/mpi-[0-9]+-$DPID_nat-" "$T/nat.log" ||
		{ cat "$T/nat.log"; fail "the killed job's files were not removed (or not in the run's directory)"; }
	wait_for 10 sh -c "! ls -d '$MEM'/mpi-*-$DPID_nat-* >/dev/null 2>&1" ||
		fail "the killed job's directory is left: $(ls "$MEM")"
	ok "the killed MPI job's own files were in the run's directory in memory, removed with it"
fi
