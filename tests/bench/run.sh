#!/bin/sh
# tests/bench/run.sh — runs the benchmarks and prints their tables.
#
#   tests/bench/run.sh [SECONDS-PER-CASE] [HANDSHAKES]
#
# 1. bench_frame: encode/decode in memory and wire_peer over loopback TCP,
#    1 KB and 64 KB payloads (6 cases of SECONDS, default 1.5 each).
# 2. bench_inst: instrumentation speed (source lines per second) over a
#    generated 10k-line C file with many functions and breakpoints.
# 2a. td_bench: serialisation throughput of a 1 MB array of structs by the
#    typedesc walker, natively and on the s390x node under qemu.
# 2b. bench_events: ns per event record on the hot path beside the cost of
#    a clock read, with the shared ring and through the socket (attached
#    to a quiet ev_sink).
# 2d. bench_ana: analysis of a recorded run (matching, compensation,
#    logical clock, global sort) in events/s over 10 M synthetic events of
#    64 tasks, and the memory it takes.
# 2e. bench_sim: performance prediction (paravt predict) in events
#    simulated per second of CPU over 4 M synthetic events of 64 tasks on a
#    three-level machine, residual and pure models.
# 2c. bench_tfile: trace file write and read-back throughput (MB/s,
#    events/s) and bytes per event, 2 million events in batches of 256.
# 3. bench_handshake: starts a private paravtd (own HOME, so its own token)
#    on 127.0.0.1 with an ephemeral port, times HANDSHAKES (default 300)
#    session set-ups, then stops it.  Skipped with a message when
#    build/linux-x86_64/bin/paravtd has not been built.
# 4. overhead.sh: what a user pays: real programs (MPI and PVM ping-pong,
#    MPI master/worker) run plainly and traced, alternately,
#    PARAVT_BENCH_RUNS times each (default 9: a run's compensated round
#    trip carries the run's own cost of a traced call, which moves by
#    about 2.5% from run to run here, and the median of 5 moved by
#    several percent between two `make bench`); medians and ratios.
# 5. probes.sh: what the line probes of live debugging cost a program
#    that is not being debugged (a 2-D stencil: plain, instrumented
#    without probes, with them).
# 6. cond.sh: what a conditional breakpoint that is false costs a process
#    per pass, now that the process runs the condition (ns per pass).
# 7. live.sh: what a user waits for in live debugging, with the console
#    and a private paravtd: 64 copies of a program running on one node,
#    the time from `break` to the first stop and to all 64 stopped, and
#    the median round trip of `step`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
SECS=${1:-1.5}
N=${2:-300}
B=build/tests/bench
DAEMON=build/linux-x86_64/bin/paravtd
tmp=$(mktemp -d /tmp/pvt-bench-XXXXXX) || exit 2
dpid=""

cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# A bench that fails is named with its exit status and the others still
# run; the script then exits 1.
failed=""
bench_failed() {
	echo "$1: FAILED (exit $2)"
	failed="$failed $1"
}
finish() {
	[ -z "$failed" ] && exit 0
	echo "benchmarks failed:$failed"
	exit 1
}

echo "== paravt benchmarks ($(uname -m), $(nproc 2>/dev/null || echo ?) cpus)"
"$B/bench_frame" "$SECS" || bench_failed bench_frame $?
echo
"$B/bench_inst" 10000 5 || bench_failed bench_inst $?
echo
# 2a. td_bench: serialisation of a 1 MB array of structs on the node, by
# the generic typedesc walker; natively and on the s390x node (qemu: the
# figure is emulated speed, not s390x hardware).
if [ -x build/tests/td_bench ]; then
	build/tests/td_bench || bench_failed td_bench $?
	if [ -x build/linux-s390x-qemu/tests/td_bench ]; then
		echo "(s390x under qemu-s390x:)"
		qemu-s390x -L /usr/s390x-linux-gnu \
			build/linux-s390x-qemu/tests/td_bench ||
			bench_failed "td_bench (s390x)" $?
	fi
else
	echo "td_bench: skipped (build/tests/td_bench not built)"
fi
echo
# 2b. bench_events: the event runtime attached to a quiet ev_sink, with
# the shared ring (-r) and through the socket.
SINK=build/linux-x86_64/tests/ev_sink
if [ -x "$SINK" ] && [ -x "$B/bench_events" ]; then
	for how in -r ""; do
		rm -f "$tmp/ev.sock"
		# shellcheck disable=SC2086
		"$SINK" -q $how -s "$tmp/ev.sock" -o /dev/null & spid=$!
		i=0; while [ ! -S "$tmp/ev.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		PARAVT_SOCK=$tmp/ev.sock "$B/bench_events" || bench_failed bench_events $?
		kill $spid; wait $spid 2>/dev/null
	done
else
	echo "events: skipped ($SINK or bench_events not built)"
fi
echo
# 2d. bench_ana: the analysis passes (console/ana), one core.
"$B/bench_ana" || bench_failed bench_ana $?
echo
# 2e. bench_sim: the prediction's simulation (console/ana/ana_sim.c).
"$B/bench_sim" || bench_failed bench_sim $?
echo

# 2c. bench_tfile: the console's trace file writer and reader.
if [ -x "$B/bench_tfile" ]; then
	"$B/bench_tfile" 2 256 "$tmp" || bench_failed bench_tfile $?
else
	echo "trace file: skipped ($B/bench_tfile not built)"
fi
echo

if [ ! -x "$DAEMON" ]; then
	echo "handshake: skipped ($DAEMON not built yet)"
	finish
fi
mkdir -m 700 "$tmp/home"
HOME=$tmp/home "$DAEMON" --listen 127.0.0.1:0 --port-file "$tmp/port" \
	--log "$tmp/paravtd.log" &
dpid=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -s "$tmp/port" ]; then
	echo "handshake: FAILED, paravtd wrote no port file; its log:"
	cat "$tmp/paravtd.log" 2>/dev/null
	exit 1
fi
HOME=$tmp/home "$B/bench_handshake" "$(cat "$tmp/port")" "$N" || {
	echo "handshake: FAILED; paravtd log:"
	tail -n 20 "$tmp/paravtd.log"
	exit 1
}
kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
dpid=""
echo
tests/bench/overhead.sh "${PARAVT_BENCH_RUNS:-9}" || bench_failed overhead $?
echo
tests/bench/probes.sh "${PARAVT_BENCH_RUNS:-5}" || bench_failed probes $?
echo
tests/bench/cond.sh "${PARAVT_BENCH_RUNS:-5}" || bench_failed cond $?
echo
tests/bench/live.sh || bench_failed live $?
finish
