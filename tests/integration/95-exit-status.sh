#!/bin/sh
# 95-exit-status.sh — how processes end, as paravt reports it (issue 11):
#   (a) tests/programs/pvm_status.c under `paravt trace`: three tasks the
#       pvmd spawned (not the daemon's children) end by exit(3) called
#       from a function, by the master's pvm_kill (SIGTERM) and by
#       SIGKILL.  The console says "exited with status 3", "killed by
#       signal SIGTERM" and "exit status unknown" (never the impossible
#       -1), trace-info says "exited status 3", "killed SIGTERM", "ended
#       status unknown", and the SIGKILLed task's events before its
#       pvm_exit are in the trace (3 sends, 3 receives, all matched);
#   (b) tests/programs/pvm_orphan.c (as PVM's inherita example: receives
#       from any task after its only child exited) with --hang 3 and
#       --timeout 60: the watchdog finds "p1 waits for any task and none
#       is left" and ends the run with status 4 within a few seconds (not
#       at the time limit, status 3), and trace-info says "ended: hang,
#       status 4".
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs

# ---- (a) exit, pvm_kill, SIGKILL ------------------------------------------
rc=0
# shellcheck disable=SC2154
setsid -w timeout -k 5 60 "$PARAVT" trace -o st.pvt --timeout 30 \
	--node "nat=127.0.0.1:$DPORT_nat" "$P/pvm_status.c" -- \
	run pvm nat pvm_status </dev/null >st.out 2>&1 || rc=$?
cat st.out
expect_grep '^\[p1\] done$' st.out "the master did not finish"
expect_grep '^\[p1 exited with status 0\]$' st.out
expect_grep '^\[p2 exited with status 3\]$' st.out "exit(3) in a spawned task"
expect_grep '^\[p3 killed by signal SIGTERM\]$' st.out "pvm_kill of a spawned task"
expect_grep '^\[p4 ended, exit status unknown ' st.out "SIGKILL of a spawned task"
expect_no_grep 'status -1' st.out
[ "$rc" = 1 ] || fail "status $rc, not 1 (p2 exited with status 3)"
"$PARAVT" trace-info st.pvt >st.info 2>&1 || { cat st.info; fail "trace-info st.pvt"; }
cat st.info
expect_grep '^  p2 +nat +t4000[0-9a-f] +pvm_status .* exited status 3$' st.info
expect_grep '^  p3 +nat +t4000[0-9a-f] +pvm_status .* killed SIGTERM$' st.info
expect_grep '^  p4 +nat +t4000[0-9a-f] +pvm_status .* ended status unknown$' st.info
expect_grep '^events: .*\(4 sends, 4 receives' st.info "events before SIGKILL lost"
expect_grep '^matched: +4 send/recv pairs.*unmatched 0 sends, 0 receives' st.info
expect_no_grep 'status -1' st.info
ok "spawned tasks: exit(3), SIGTERM and SIGKILL reported as such, never -1; their program named"
# tids as tids everywhere (issue 11: "special pvm_mytid = 262145")
"$PARAVT" -n -e "open st.pvt" -e "trace filter kind=special,start" -e "trace show 100" \
	</dev/null >show.out 2>&1 || { cat show.out; fail "open st.pvt"; }
cat show.out
expect_grep '^\[p1 nat\] \+[0-9.]+ special pvm_mytid = t40001 ' show.out
expect_grep '^\[p[234] nat\] \+[0-9.]+ special pvm_parent = t40001 ' show.out
expect_grep '^\[p1 nat\] \+[0-9.]+ special pvm_kill = 0 -> t4000[0-9a-f] ' show.out
expect_grep '^\[p1 nat\] \+[0-9.]+ special pvm_spawn = 1 -> t4000[0-9a-f] ' show.out
expect_grep '^\[p2 nat\] [-+][0-9.]+ start +tid t4000[0-9a-f]$' show.out
expect_no_grep '= 26214[0-9]|\+-' show.out
ok "trace show: pvm_mytid, pvm_parent, pvm_spawn and pvm_kill name tids as t4000N"

# ---- (b) a hang no message can end -----------------------------------------
rc=0
t0=$(date +%s)
setsid -w timeout -k 5 90 "$PARAVT" trace -o orph.pvt --hang 3 --timeout 60 \
	--node "nat=127.0.0.1:$DPORT_nat" "$P/pvm_orphan.c" -- \
	run pvm nat pvm_orphan </dev/null >orph.out 2>&1 || rc=$?
t1=$(date +%s)
cat orph.out
expect_grep '^hang: p1 waits for any task and none is left$' orph.out
expect_grep '^\[stopped waiting: hang: p1 waits for any task and none is left\]$' orph.out
[ "$rc" = 4 ] || fail "a hang no message can end: status $rc, not 4"
[ $((t1 - t0)) -le 20 ] || fail "the hang was ended after $((t1 - t0)) s (--hang 3)"
"$PARAVT" trace-info orph.pvt >orph.info 2>&1 || { cat orph.info; fail "trace-info orph.pvt"; }
expect_grep '^ended: +hang, status 4$' orph.info
ok "a receive from any task after every task exited: status 4 after $((t1 - t0)) s, ended: hang, status 4"
