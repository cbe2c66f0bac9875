#!/bin/sh
# 16-daemon-events-relay.sh — the daemon's event relay, with wirepoke as the
# console (it prints each relayed event as an "EV" line and acknowledges
# batches with --ack):
#   1. rt_prog (the runtime's test program, built by the daemon) traces
#      from its start: PROG_START (layout version in aux), breakpoint
#      start/end, PROG_EXIT; seqs contiguous from 0; every file and
#      function id has its EVENT_STRINGS name before use.
#   2. a task (wirepoke playing one, sending native records) runs while
#      its console disconnects: a new console gets every event exactly once
#      (seq 0..N-1, no duplicate); after its acks a third console gets none.
#   3. a malformed EVENTS frame (wrong length) is refused with ERROR, the
#      task goes on, its records are reported as EVENTS_LOST.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1

# check_seqs FILE PROC N: FILE has EV lines of PROC with seq 0..N-1, each
# exactly once.
check_seqs() {
	awk -v p="$2" -v n="$3" '
	$1 == "EV" && $2 == "proc=" p { split($3, kv, "="); s = kv[2]
		if (seen[s]++) { print "duplicate seq", s; bad++ }
		cnt++ }
	END { for (i = 0; i < n; i++) if (!(i in seen)) { print "missing seq", i; bad++; if (bad > 5) break }
	      if (cnt != n) { print cnt + 0, "events, expected", n; bad++ }
	      exit bad > 0 }' "$1"
}

# task_script NAME ARGS...: a program for the daemon to run that execs
# wirepoke as a task with these steps (same pid, so TASK_HELLO matches).
task_script() {
	_f=$T/$1; shift
	{
		echo '#!/bin/sh'
		printf 'exec "%s" --unix "$PARAVT_SOCK" --role task --no-auth --wait-ms 3000 --send "TASK_HELLO:$PARAVT_PROC:$$"' "$WP"
		for _a in "$@"; do printf ' %s' "$_a"; done
		echo
	} >"$_f"
	chmod 755 "$_f"
}

# 1. rt_prog, traced from para_vt_start.
"$WP" "$A" --wait-ms 20000 --send SESSION_OPEN:t1 \
	--put "1:rt_prog.c=$TOP/tests/runtime/rt_prog.c" \
	--build 1:rt_prog:rt_prog.c --until BUILD_RESULT \
	--run 1:1:plain:rt_prog --until BP_HIT --send RESUME:1 \
	--until BP_HIT --send RESUME:1 --until PROC_EXIT --ack \
	--linger-ms 500 >"$T/rt.out" 2>&1
expect_grep '^BUILD_RESULT build=1 ok=true' "$T/rt.out"
expect_grep '^PROC_EXIT proc=1 status=3 ' "$T/rt.out"
expect_grep '^EV proc=1 seq=0 kind=1 op=0 .* aux=2 comm=0 ref=0$' "$T/rt.out" "PROG_START with layout version 2 first"
expect_grep '^EV proc=1 seq=[0-9]+ kind=15 .* aux=1 comm=0 ref=0$' "$T/rt.out" "BREAK_START of breakpoint 1"
expect_grep '^EV proc=1 seq=[0-9]+ kind=16 ' "$T/rt.out" "BREAK_END"
expect_grep '^EV proc=1 seq=[0-9]+ kind=2 .* aux=3 comm=0 ref=0$' "$T/rt.out" "PROG_EXIT with status 3"
n=$(grep -c '^EV proc=1 ' "$T/rt.out")
check_seqs "$T/rt.out" 1 "$n" || fail "rt_prog: seqs not contiguous from 0"
# Every id used has a name, announced before the batch using it.
awk '$1 == "STR" { split($3, kv, "="); name[kv[2]] = $4 }
     $1 == "EV" { for (i = 3; i <= NF; i++) { split($i, kv, "=")
		if ((kv[1] == "file" || kv[1] == "func") && kv[2] != 0 && !(kv[2] in name)) {
			print "unresolved", $i; bad++ } } }
     END { exit bad > 0 }' "$T/rt.out" || fail "rt_prog: string ids without EVENT_STRINGS"
expect_grep '^STR proc=1 id=[0-9]+ rt_prog\.c$' "$T/rt.out"
ok "rt_prog traced from its start: $n events, contiguous, names resolved"

# 2. Console gone mid-run, one that attaches gets everything once; acked =
# gone, and the session with them.
N=6000
steps=""
i=0
while [ $i -lt 30 ]; do
	steps="$steps --events \$PARAVT_PROC:$((i * 200)):200 --sleep-ms 40"
	i=$((i + 1))
done
# shellcheck disable=SC2086
task_script slow.sh $steps
"$WP" "$A" --wait-ms 5000 --send SESSION_OPEN:t2 --put "2:slow.sh=$T/slow.sh" \
	--run 2:2:plain:slow.sh --sleep-ms 400 >"$T/c1.out" 2>&1
expect_grep '^PROC_START run=2 proc=2 ' "$T/c1.out"
c1=$(grep -c '^EV proc=2 ' "$T/c1.out")
"$WP" "$A" --wait-ms 10000 --send SESSION_ATTACH:t3 --until PROC_EXIT --ack \
	--linger-ms 1500 >"$T/c2.out" 2>&1
expect_grep '^PROC_EXIT proc=2 status=0 ' "$T/c2.out"
check_seqs "$T/c2.out" 2 $N || fail "second console: not every event exactly once"
expect_grep '^STR proc=2 id=1 ev_file\.c$' "$T/c2.out" "strings re-sent to the new console"
[ "$(grep -n '^STR proc=2 id=1 ' "$T/c2.out" | cut -d: -f1)" -lt \
  "$(grep -n '^NODE_EVENTS .* proc=2 ' "$T/c2.out" | head -1 | cut -d: -f1)" ] ||
	fail "EVENT_STRINGS not before the first NODE_EVENTS"
"$WP" "$A" --send SESSION_ATTACH:t4 --linger-ms 800 >"$T/c3.out" 2>&1
expect_no_grep '^NODE_EVENTS .* proc=2 ' "$T/c3.out" "acknowledged batches are not sent again"
expect_grep '^ERROR ESTATE .*no detached session on this node' "$T/c3.out" \
	"a session whose process ended and whose events were all acknowledged is not kept"
ok "console replaced mid-run: first saw $c1, the second all $N exactly once; acked batches gone"

# 3. A malformed EVENTS frame: ERROR to the task, records counted lost.
task_script bad.sh "--events \$PARAVT_PROC:0:100" "--events \$PARAVT_PROC:100:50:100" \
	"--events \$PARAVT_PROC:150:50" --sleep-ms 200
"$WP" "$A" --wait-ms 5000 --send SESSION_OPEN:t5 --put "3:bad.sh=$T/bad.sh" \
	--run 3:3:plain:bad.sh --until PROC_EXIT --ack --linger-ms 300 >"$T/bad.out" 2>&1
expect_grep '^OUTPUT proc=3 stream=1 ERROR EMALFORMED ref=[0-9]+ EVENTS: 50 records need 3200 bytes, got 100' "$T/bad.out"
expect_grep '^EVENTS_LOST proc=3 count=50 ' "$T/bad.out"
expect_grep '^EV proc=3 seq=199 ' "$T/bad.out" "the task went on sending"
expect_grep '^PROC_EXIT proc=3 status=0 ' "$T/bad.out"
[ "$(grep -c '^EV proc=3 ' "$T/bad.out")" = 150 ] || fail "not 150 events of proc 3"
ok "malformed EVENTS refused with ERROR; the task went on; 50 reported lost"
