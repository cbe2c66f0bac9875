#!/bin/sh
# 87-clock-skew.sh — real clock skew, not simulated: two native paravtd,
# each in its own network namespace (pvm_netns_pair) AND its own time
# namespace, whose CLOCK_MONOTONIC runs OFF_A and OFF_B seconds ahead of
# the console's (unshare --time --monotonic; the kernel adds the offset to
# every monotonic reading in the namespace, so the true offset of each
# node against the console is exactly OFF_x seconds).  A PVM master/worker
# run spans both hosts (a's pvmd, and b's pvmd started by b's daemon, so
# every task lives in its daemon's time namespace); the console re-samples
# the clocks every 0.05 s while the run goes on (PARAVT_CLOCK_INTERVAL),
# so that events keep arriving while the console waits for PONGs.
# Checked:
#   - each daemon's /proc/PID/timens_offsets shows its offset;
#   - the tasks' own event times (trace show --raw: the node's clock) are
#     the host's monotonic time plus their node's offset;
#   - node list: each node's OFFSET equals OFF_x within its stated error
#     bound plus 0.1 ms, and re-sampling added samples during the run
#     (more than the 8 of node add);
#   - trace check: the same for the clock models the analysis used, every
#     send matched, and 0 inversions (receive before send) in the global
#     order and in the repaired measured order;
#   - every event arrived although pings were interleaved with them (the
#     frames a ping's wait reads go to the event store: seqs contiguous
#     per process, nothing lost).
# The 0.1 ms tolerance: the true offset is exact here (same host clock),
# so only the estimate's error counts; Cristian's bound (half the round
# trip, the "±" printed) covers one sample, and the fitted line through
# the best samples of several windows may leave it by its residual, far
# below 0.1 ms on a local veth (round trips are some 50 µs).  0.1 ms is
# also below the printed resolution's effect (1 µs) a hundred times over.
# Exit 77 only if PVM, network or time namespaces are unavailable.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
[ "$(id -u)" = 0 ] || skip "network and time namespaces need root"
command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"
command -v python3 >/dev/null || skip "no python3 to read the monotonic clock"
unshare --time --monotonic 1 true 2>/dev/null ||
	skip "time namespaces unavailable (unshare --time)"
DA=$TOP/build/linux-x86_64/bin/paravtd
[ -x "$DA" ] || fail "no $DA (make)"
export TMPDIR="$T"
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true

OFF_A=1000 OFF_B=4600  # seconds ahead of the console's monotonic clock
mono_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }

# The probe: a process in such a namespace reads the shifted clock.
out=$(mono_ns) in=$(unshare --time --monotonic $OFF_B python3 -c \
	'import time; print(time.monotonic_ns())')
d=$(( (in - out) / 1000000000 ))
# (in - out: the offset plus python's start-up, a second or more under load)
[ "$d" -ge $OFF_B ] && [ "$d" -le $((OFF_B + 10)) ] ||
	fail "unshare --time --monotonic $OFF_B: clock moved by $d s"
ok "a time namespace's monotonic clock runs $d s ahead (probe)"

pvm_netns_pair
ip netns exec "$PVM_NS_A" unshare --time --monotonic $OFF_A "$DA" \
	--listen "$PVM_ADDR_A:0" --allow-remote \
	--port-file "$T/a.port" --name a --log "$T/a.log" &
PIDA=$!
track_pid $PIDA
ip netns exec "$PVM_NS_B" unshare --time --monotonic $OFF_B "$DA" \
	--listen "$PVM_ADDR_B:0" --allow-remote \
	--port-file "$T/b.port" --name b --log "$T/b.log" &
PIDB=$!
track_pid $PIDB
wait_for 20 test -s "$T/a.port" || { cat "$T/a.log"; fail "daemon a did not start"; }
wait_for 20 test -s "$T/b.port" || { cat "$T/b.log"; fail "daemon b did not start"; }
PA=$(cat "$T/a.port") PB=$(cat "$T/b.port")
grep -Eq "^monotonic +$OFF_A " /proc/$PIDA/timens_offsets || fail "daemon a not in its time namespace"
grep -Eq "^monotonic +$OFF_B " /proc/$PIDB/timens_offsets || fail "daemon b not in its time namespace"
ok "daemons a (+$OFF_A s) and b (+$OFF_B s) run in their time namespaces"

P=$TOP/tests/programs
cd "$T" || fail "cd $T"
PARAVT_CLOCK_INTERVAL=0.05 ip netns exec "$PVM_NS_A" timeout -k 5 90 "$PARAVT" -n \
	-e "node add a $PVM_ADDR_A:$PA" -e "node add b $PVM_ADDR_B:$PB" \
	-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" -e "build" \
	-e "run pvm a --timeout 60 pvm_master 6" -e "info procs" \
	-e "node list" -e "trace check" -e "trace show 400 --raw" \
	-e "trace dump" >"$T/out" 2>&1 ||
	{ cat "$T/out" "$T/a.log" "$T/b.log"; fail "console failed"; }
NOW=$(mono_ns)
grep -v '^event ' "$T/out"
sed -n 's/^\[p1\] //p' "$T/out" | grep -E '^(worker [0-9]|total:|OK|FAILED)' >"$T/master.out"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/master.out" ||
	{ cat "$T/a.log" "$T/b.log"; fail "master output differs"; }
nb=$(grep -cE '^[ *] p[2-7] +b ' "$T/out")
[ "$nb" -ge 1 ] || fail "no worker on b"
ok "pvm_master and 6 workers ran on a and b ($nb on b)"

# The tasks' raw times (node clock) minus the host's monotonic time now:
# between OFF - 90 s (the console's time limit) and OFF.
for n in a b; do
	eval "off=\$OFF_$(echo $n | tr ab AB)"
	awk -v n="$n" -v now="$NOW" -v off="$off" '
		$2 == n "]" && $3 == "seq" && $5 == "t" {
			d = ($6 - now) / 1e9; c++
			if (d < off - 90 || d > off) { print "event at", d, "s"; bad++ }
		}
		END { print n ": " c " raw events"; exit bad > 0 || c == 0 }' \
		"$T/out" || fail "events of $n not on its namespace's clock"
done
ok "every task's events carry its daemon's namespace clock"

# within NAME OFFSET_MS ERR_MS TRUE_S WHAT: |offset - true| <= err + 0.1 ms
within() {
	awk -v o="$2" -v e="$3" -v t="$4" 'BEGIN {
		d = o - t * 1000; if (d < 0) d = -d
		printf "%s: offset %.3f ms, true %.3f ms, |diff| %.3f ms, bound %.3f ms\n",
			ARGV[1], o, t * 1000, d, e + 0.1
		exit d > e + 0.1 }' "$1" || fail "$5: offset of $1 outside its bound"
}
for n in a b; do
	eval "off=\$OFF_$(echo $n | tr ab AB)"
	# node list: ... RTT OFFSET ±ERR DRIFT SAMPLES
	row=$(grep -E "^$n +10\.231\.7\.[12]:[0-9]+ +up " "$T/out") || fail "no node list row of $n"
	# shellcheck disable=SC2086
	set -- $row
	shift $(($# - 4))
	o=${1%ms} e=${2#±}; e=${e%ms} s=$4
	within "$n" "$o" "$e" "$off" "node list"
	[ "$s" -ge 16 ] || fail "node list: $n has $s samples, fewer than 2 bursts during the run"
	line=$(grep "^clock of node $n: " "$T/out") || fail "trace check: no clock of $n"
	o=$(echo "$line" | sed -n 's/.*offset \([-+][0-9.]*\)ms ±\([0-9.]*\)ms, drift .*/\1/p')
	e=$(echo "$line" | sed -n 's/.*offset \([-+][0-9.]*\)ms ±\([0-9.]*\)ms, drift .*/\2/p')
	within "$n" "$o" "$e" "$off" "trace check"
done
ok "estimated offsets equal the namespaces' offsets within their bounds; re-sampled during the run"

expect_grep '^matched pairs: [0-9]+, ' "$T/out"
pairs=$(sed -n 's/^matched pairs: \([0-9]*\),.*/\1/p' "$T/out")
[ "$pairs" -ge 12 ] || fail "only $pairs matched pairs"
expect_grep '^unmatched: 0 sends, 0 receives$' "$T/out"
expect_grep '^measured order: [0-9]+ receives before their send; logical clock repaired [0-9]+ events' "$T/out"
expect_grep '^inversions in the global order: 0$' "$T/out"
expect_grep '^inversions in the repaired measured order: 0$' "$T/out"
ok "trace check: $pairs pairs, all matched, no receive before its send"

awk '$1 == "event" { k = $2 " " $3; if ($4 != n[k]) { print "node", $2,
		"proc", $3, "seq", $4, "expected", n[k] + 0; bad++ } n[k] = $4 + 1 }
     END { for (k in n) c++; print c, "processes"; exit bad > 0 || c != 7 }' \
	"$T/out" >"$T/seqs" || { cat "$T/seqs"; fail "events missing or not 7 processes"; }
expect_no_grep 'lost' "$T/out" "events lost"
ok "every event of the 7 processes arrived between the pings"
