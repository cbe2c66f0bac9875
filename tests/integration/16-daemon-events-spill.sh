#!/bin/sh
# 16-daemon-events-spill.sh — pending events beyond the memory cap go to
# the spill file and come back in order; beyond the spill cap they are
# dropped and reported (EVENTS_LOST), never silently.  A task (wirepoke
# playing one) sends 6000 native records while no console is connected:
#   1. --events-mem 4096: a console connecting afterwards gets all 6000
#      exactly once, in order, and the log shows the spill;
#   2. --events-mem 4096 --events-spill 8000: what arrives plus what is
#      reported lost is 6000, and the loss is in the log.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
N=6000

steps=""
i=0
while [ $i -lt 30 ]; do
	steps="$steps --events \$PARAVT_PROC:$((i * 200)):200 --sleep-ms 10"
	i=$((i + 1))
done
{
	echo '#!/bin/sh'
	printf 'exec "%s" --unix "$PARAVT_SOCK" --role task --no-auth --send "TASK_HELLO:$PARAVT_PROC:$$" %s\n' "$WP" "$steps"
} >"$T/gen.sh"
chmod 755 "$T/gen.sh"

# run_detached NODE: starts gen.sh and leaves at once; waits until it ended.
run_detached() {
	"$WP" "127.0.0.1:$(eval echo "\$DPORT_$1")" --send SESSION_OPEN:t1 \
		--put "1:gen.sh=$T/gen.sh" --run 1:1:plain:gen.sh \
		--linger-ms 10 >"$T/$1.c1" 2>&1
	expect_grep '^PROC_START run=1 proc=1 ' "$T/$1.c1"
	wait_for 20 grep -q 'proc 1 (pid [0-9]*): exit status 0' "$T/$1.log" ||
		{ cat "$T/$1.log"; fail "$1: the task did not end"; }
}

# 1. Spill and read back.
start_daemon s1 linux-x86_64 --events-mem 4096
run_detached s1
"$WP" "127.0.0.1:$DPORT_s1" --wait-ms 10000 --send SESSION_ATTACH:t2 --ack \
	--sleep-ms 3000 >"$T/s1.c2" 2>&1
awk '$1 == "EV" && $2 == "proc=1" { split($3, kv, "="); if (kv[2] != n) { print "seq", kv[2], "expected", n; exit 1 } n++ }
     END { if (n != '$N') { print n, "events"; exit 1 } }' "$T/s1.c2" ||
	fail "spilled events not all back, in order, once"
sp=$(sed -n 's/.*events of session [0-9]*: [0-9]* received in [0-9]* batches, [0-9]* acknowledged, \([0-9]*\) spilled.*/\1/p' "$T/s1.log" | tail -1)
[ "${sp:-0}" -gt 0 ] || { cat "$T/s1.log"; fail "nothing was spilled"; }
expect_no_grep 'EVENTS_LOST' "$T/s1.c2"
ok "memory cap 4 KiB: $sp batches spilled, all $N events back in order"

# 2. Spill file full: counted loss.
start_daemon s2 linux-x86_64 --events-mem 4096 --events-spill 8000
run_detached s2
"$WP" "127.0.0.1:$DPORT_s2" --wait-ms 10000 --send SESSION_ATTACH:t2 --ack \
	--sleep-ms 3000 >"$T/s2.c2" 2>&1
got=$(grep -c '^EV proc=1 ' "$T/s2.c2")
lost=$(awk '$1 == "EVENTS_LOST" && $2 == "proc=1" { split($3, kv, "="); n += kv[2] } END { print n + 0 }' "$T/s2.c2")
[ "$lost" -gt 0 ] || fail "no EVENTS_LOST although the spill file was full"
[ $((got + lost)) = $N ] || fail "$got received + $lost lost != $N"
expect_grep 'spill file full' "$T/s2.log"
expect_grep '^EVENTS_LOST proc=1 count=[0-9]+ reason=the daemon.s event spill file is full' "$T/s2.c2"
ok "spill cap 8 KB: $got events delivered, $lost reported lost, none silently"
