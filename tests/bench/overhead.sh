#!/bin/sh
# tests/bench/overhead.sh — what a traced program pays: real programs run
# plainly and under paravt side by side, several times alternately.
#
#   tests/bench/overhead.sh [RUNS]          (default 5 of each)
#
# PARAVT_BENCH_ONLY=mpi or pvm runs only those programs.
#
# Programs (tests/bench/progs/): an MPI ping-pong of 4-byte messages
# between two ranks (shared memory), as fast as it goes and paced at
# 10,000 exchanges per second; the same in PVM with direct routing, and
# once more with both PVM tasks on CPU 0 (no message waits for the
# machine to wake another processor); an MPI master/worker (a master
# and one worker, 20 µs tasks: three spinning ranks on two cores run
# either 118 or 200 ms, by where the scheduler puts them, plainly as
# traced).  Each traced run is
# `paravt trace -o FILE --mpi|--pvm SOURCE -- run ...` against a private
# paravtd on loopback: built through paravt, events into the shared
# ring, the daemon and the console doing their work meanwhile on the same
# machine (2 cores here: whatever they take, the program does not get).
# Printed per program: the medians of the plain and traced figures the
# program measures itself (round trip or total time), their ratio, the
# time added per traced call in the critical path (with its standard
# error: how finely the runs' spread tells it), and the program's time
# as paravt's compensated trace gives it (between the program's own
# markers: barriers, or pvm_mytid; the median over the traced runs)
# beside the plain median, and the median of each traced run's
# compensated figure against the plain run just before it (paired).
# The plain PVM ping-pong runs once more beside a process that only
# wakes every 20 ms: what the round trip owes to how fast the machine
# wakes a sleeping receiver.
# Each PVM task runs on a stack shifted by a random amount
# (progs/shift.h): where its stack starts moved the one-CPU ping-pong by
# up to 6%, steadily, so one fixed layout on each side would bias the
# ratio (the MPI ping-pong showed no such steady effect).
# Compensation takes out the time the probes measured themselves taking
# and the part of the ranks' wait for a CPU that paravtd charged to
# itself and the console (paravtd(8), CPU share: the unpaced and
# oversubscribed cases on a 2-core machine, where two spinning ranks
# already fill both cores); what the probes cost beyond their calibrated
# time stays in.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
RUNS=${1:-5}
ONLY=${PARAVT_BENCH_ONLY:-}
# wanted KIND: whether the programs of KIND (mpi, pvm) are to run.
wanted() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }
BIN=$TOP/build/linux-x86_64/bin
P=$TOP/tests/bench/progs
# Everything the runs write (the programs, the traces, paravtd's builds
# and sockets through TMPDIR, mpirun's session) goes to a file system in
# memory where there is one: files on a disk are written back by the
# kernel half a minute later, and that writeback takes processor time
# from whichever run comes then, plain or traced.  With /tmp on a disk,
# 2 of 6 plain MPI ping-pongs lost 3.5 ms more (15% of the loop) to
# stalls than the others; in memory, 29 of 31 had 0.52-0.78 ms of them,
# and the other two 1.5 and 2.5 ms.
mem=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && mem=/dev/shm
tmp=$(mktemp -d "$mem/pvt-overhead-XXXXXX") || exit 2
dpid="" pvmpid="" wpid=""
export TMPDIR=$tmp
export HOME=$tmp/home OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_plm_rsh_agent=false
mkdir -p "$HOME" && chmod 700 "$HOME"

cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	[ -n "$pvmpid" ] && { (echo halt | PVM_TMP=$tmp/pvm pvm) >/dev/null 2>&1; kill "$pvmpid" 2>/dev/null; }
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

for f in "$BIN/paravt" "$BIN/paravtd"; do
	[ -x "$f" ] || { echo "overhead: skipped ($f not built)"; exit 0; }
done
command -v mpicc >/dev/null || { echo "overhead: skipped (no mpicc)"; exit 0; }

# The daemon, on an ephemeral port.
"$BIN/paravtd" --listen 127.0.0.1:0 --port-file "$tmp/port" --log "$tmp/d.log" &
dpid=$!
i=0; while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/port" ] || { echo "overhead: paravtd did not start"; exit 1; }
NODE="n=127.0.0.1:$(cat "$tmp/port")"
cd "$tmp" || exit 2
cp "$P"/*.c "$P"/*.h .
mpicc -O2 -o pp_mpi pp_mpi.c && mpicc -O2 -o mw_mpi mw_mpi.c &&
	cc -O2 -o spin spin.c || exit 1

# median FILE: the median of the numbers in FILE, one a line.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# field NAME FILE: the number after NAME in the program's output line.
field() { sed -n "s/.*$1 \([0-9.]*\).*/\1/p" "$2" | tail -1; }

# dmn_cpu: the private daemon's processor time so far, ns (schedstat;
# else its user and system ticks).
dmn_cpu() {
	if [ -r "/proc/$dpid/schedstat" ]; then
		cut -d' ' -f1 "/proc/$dpid/schedstat"
	else
		awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) * 1e9 / hz }' "/proc/$dpid/stat"
	fi
}

# traced NAME MODE SRC ARGS...: one traced run, its trace in NAME.pvtrace;
# appends "daemon_ns events console_s" to NAME.cpu (what paravt itself
# took: the daemon's processor time over the run, the events, and the
# console's own figure from its summary line).
traced() {
	_n=$1 _m=$2 _s=$3; shift 3
	_d0=$(dmn_cpu)
	timeout 300 "$BIN/paravt" trace -o "$_n.pvtrace" --node "$NODE" \
		--timeout 250 "--$_m" "$_s" -- "$@" >"$_n.out" 2>&1
	_rc=$?
	_d1=$(dmn_cpu)
	sed -n "s/^paravt trace: .*: \([0-9]*\) events, .*(console CPU \([0-9.]*\) s).*/$((_d1 - _d0)) \1 \2/p" \
		"$_n.out" >>"$_n.cpu"
	return $_rc
}

# tool_cpu NAME EVENTS_PER_CALL: one line, paravt's own processor time an
# event (the daemon's and the console's from the start of the run,
# summed over NAME's traced runs) and per traced call; on a machine whose
# cores the program fills, that time is taken from the program.  With
# NAME.z.cpu (short runs of the same program) what a run costs whatever
# its length (start, end, the first batches) is taken out first: the
# figures are then per added event.
tool_cpu() {
	[ -s "$1.cpu" ] || return 0
	awk -v k="$2" -v z="$1.z.cpu" '
	BEGIN { while ((getline l < z) > 0) { split(l, f, " "); zd += f[1]; zn += f[2]; zc += f[3] * 1e9; zr++ }
		if (zr > 0) { zd /= zr; zn /= zr; zc /= zr } }
	{ d += $1 - zd; n += $2 - zn; c += $3 * 1e9 - zc; r++ }
	END { if (n > 0) printf "%-26s paravt own CPU: daemon %.0f ns + console %.0f ns an event, %.0f ns a call (%d events a run%s)\n",
		"", d / n, c / n, (d + c) / n * k, (n + zn * r) / r, (zr > 0 ? sprintf(", less a run of %d", zn) : ", start-up included") }' "$1.cpu"
}

# comp_span FILE PATTERN: compensated seconds between the last two
# events matching PATTERN (the program's markers around its timed part),
# for the process whose span is the shortest (it waited least there).
comp_span() {
	"$BIN/paravt" -n -e "open $1" -e "trace filter kind=group,special" \
		-e "trace show 100000000" 2>/dev/null | grep -E "$2" |
		awk '{ p = $1; t = substr($3, 2) + 0; if (p in last) prev[p] = last[p]; last[p] = t }
		END { m = -1; for (p in prev) { s = last[p] - prev[p]; if (m < 0 || s < m) m = s } if (m >= 0) print m }'
}

# spread ID: one line, the range of each run's figure plainly, traced
# and compensated (ID.plain, ID.traced, ID.comp): how far apart the runs
# behind the medians were.
spread() {
	for _f in "$1.plain" "$1.traced" "$1.comp"; do
		[ -s "$_f" ] && sort -n "$_f" | awk 'NR == 1 { lo = $1 } { hi = $1 }
			END { printf " %.1f..%.1f", lo, hi }' || printf ' -'
	done | awk '{ printf "%-26s runs: plain %s, traced %s, compensated %s\n", "", $1, $2, $3 }'
}

# med_se FILE: the standard error of the median of FILE's numbers, as of
# a normal sample's (1.2533 standard deviations over the root of their
# count); 0 with fewer than two.
med_se() {
	awk '{ s += $1; q += $1 * $1; n++ }
	END { if (n < 2) { print 0; exit } v = (q - s * s / n) / (n - 1)
		printf "%.3f\n", 1.2533 * sqrt(v > 0 ? v : 0) / sqrt(n) }' "$1"
}

# report NAME UNIT PLAINFILE TRACEDFILE CALLS [COMP]: one line.  The
# time added a call comes with its standard error (±, from the two
# medians' own, med_se): how finely the runs' spread lets it be told.
report() {
	_pm=$(median "$3") _tm=$(median "$4")
	awk -v n="$1" -v u="$2" -v p="$_pm" -v t="$_tm" -v c="$5" -v comp="${6:-}" \
		-v sp="$(med_se "$3")" -v st="$(med_se "$4")" 'BEGIN {
		printf "%-26s plain %10.1f %s  traced %10.1f %s  ratio %6.3f", n, p, u, t, u, t / p
		if (c > 0) printf "  added %7.1f ±%.1f ns/call", (t - p) / c, sqrt(sp * sp + st * st) / c
		if (comp != "") printf "  compensated %10.1f %s (%+.1f%%)", comp, u, (comp - p) / p * 100
		printf "\n" }'
}

echo "== overhead: real programs plainly and under paravt ($RUNS runs each, alternating, the unpaced MPI and one-CPU PVM ping-pongs $((RUNS * 2 + 1)); $(nproc) cpus)"

# comp_of FILE PATTERN DIV: the compensated span between the markers
# PATTERN of trace FILE (comp_span), in ns over DIV, or nothing.
comp_of() {
	_span=$(comp_span "$1" "$2")
	awk -v s="${_span:-0}" -v d="$3" 'BEGIN { if (s > 0) printf "%.1f\n", s * 1e9 / d }'
}

# side_by_side ID FIELD PATTERN DIV [N]: N (default RUNS) times,
# run_plain then run_traced (defined by the caller, output in ID.p.out
# and ID.out); the FIELD figures go into ID.plain and ID.traced, and each
# traced run's compensated time (comp_of its trace PATTERN DIV) into
# ID.comp.
side_by_side() {
	: >"$1.plain"; : >"$1.traced"; : >"$1.cpu"; : >"$1.comp"
	: >"$1.plain.q"; : >"$1.traced.q"; : >"$1.pair"
	k=0
	while [ $k -lt "${5:-$RUNS}" ]; do
		_pf=""
		if run_plain >"$1.p.out" 2>&1; then
			_pf=$(field "$2" "$1.p.out")
			echo "$_pf" >>"$1.plain"
			field runq_ns "$1.p.out" >>"$1.plain.q"
		fi
		if run_traced; then
			field "$2" "$1.out" >>"$1.traced"
			field runq_ns "$1.out" >>"$1.traced.q"
			_cf=$(comp_of "$1.pvtrace" "$3" "$4")
			[ -n "$_cf" ] && echo "$_cf" >>"$1.comp"
			[ -n "$_pf" ] && [ -n "$_cf" ] && echo "$_pf $_cf" >>"$1.pair"
		fi
		k=$((k + 1))
	done
}

# paired ID: one line, when ID.pair has pairs ("plain compensated", a
# traced run's compensated figure beside the plain run just before it):
# the median of their differences in percent.  This machine moves
# between a fast and a slow mode for minutes at a time, so the medians
# of all plain and all compensated runs can come from different modes;
# a run and the one just before it mostly share theirs.
paired() {
	[ -s "$1.pair" ] || return 0
	awk '{ print ($2 - $1) / $1 * 100 }' "$1.pair" >"$1.pair.pct"
	awk -v m="$(median "$1.pair.pct")" -v n="$(wc -l <"$1.pair.pct")" 'BEGIN {
		printf "%-26s compensated against the plain run before it: median %+.1f%% (%d pairs)\n", "", m, n }'
}

# runq ID CALLS: one line, when the program said how long its ranks
# waited for a CPU (runq_ns: per round trip, or in all with CALLS 0): the
# medians plainly and traced, and the difference per traced call (CALLS
# a round trip) or in percent of the plain run's median (ID.plain): the
# CPU time other processes, paravtd and the console among them, took
# from the ranks.
runq() {
	[ -s "$1.plain.q" ] && [ -s "$1.traced.q" ] || return 0
	awk -v p="$(median "$1.plain.q")" -v t="$(median "$1.traced.q")" -v c="$2" \
		-v run="$(median "$1.plain")" 'BEGIN {
		if (c > 0)
			printf "%-26s ranks waited for a CPU: plain %.1f ns/rt, traced %.1f ns/rt (%.1f ns a call more)\n",
				"", p, t, (t - p) / c
		else
			printf "%-26s ranks waited for a CPU: plain %.1f ms, traced %.1f ms (%.1f%% of the plain run more)\n",
				"", p / 1e6, t / 1e6, (t - p) / run * 100 }'
}

# comp_median ID: the median of ID.comp, or nothing when it is empty.
comp_median() {
	[ -s "$1.comp" ] && median "$1.comp"
}

# The unpaced ping-pongs take a second or two a run, and their
# compensated figure moves from run to run by several percent (the
# traced runs' drains fall where they fall): they run twice as often.
MANY=$((RUNS * 2 + 1))

# ---- MPI ping-pong ---------------------------------------------------------
mpi_pp() { # ID NAME ROUNDTRIPS PACE_US [N]
	id=$1 n=$3 pace=$4
	run_plain() { mpirun --allow-run-as-root -np 2 ./pp_mpi "$n" "$pace"; }
	run_traced() { traced "$id" mpi pp_mpi.c run mpi -np 2 pp_mpi "$n" "$pace"; }
	: >"$1.z.cpu"
	traced "$1.z" mpi pp_mpi.c run mpi -np 2 pp_mpi 1000 "$pace"
	side_by_side "$1" rtt_ns "MPI_Barrier" "$3" "${5:-$RUNS}"
	# 4 traced calls a round trip: each rank's send and receive
	report "$2" "ns/rt" "$1.plain" "$1.traced" 4 "$(comp_median "$1")"
	spread "$1"
	paired "$1"
	tool_cpu "$1" 2
	runq "$1" 4
}
if wanted mpi; then
	mpi_pp mpp "mpi ping-pong" 100000 0 "$MANY"
	mpi_pp mpq "mpi ping-pong 10k/s" 20000 100
fi

# ---- MPI master/worker -----------------------------------------------------
if wanted mpi; then
	run_plain() { mpirun --allow-run-as-root --oversubscribe -np 2 ./mw_mpi 10000 20; }
	run_traced() { traced mw mpi mw_mpi.c run mpi -np 2 mw_mpi 10000 20; }
	side_by_side mw total_ns "MPI_Barrier" 1
	report "mpi master/worker" "ns" mw.plain mw.traced 0 "$(comp_median mw)"
	spread mw
	paired mw
	tool_cpu mw 2
	runq mw 0
fi

# ---- PVM ping-pong ---------------------------------------------------------
if ! wanted pvm; then
	:
elif command -v pvmd >/dev/null 2>&1 && [ -f /usr/include/pvm3.h ]; then
	export PVM_TMP=$tmp/pvm PVM_ALLOW_ROOT=1
	mkdir -p "$PVM_TMP" "$HOME/pvm3/bin/LINUX64"
	cc -O2 -o "$HOME/pvm3/bin/LINUX64/pp_pvm" pp_pvm.c -lpvm3 || exit 1
	# In this shell's session, as the pvm console starts it, not with
	# setsid: the tasks pvmd spawns are then in the same scheduling
	# group (Linux's autogroup, one a session) as the master, as they
	# are under paravt.  With setsid the worker was in a group of its
	# own, and the plain ping-pong on one CPU took 6% longer (8 runs
	# each way, alternately: medians 14.5 and 13.7 us a round trip).
	pvmd </dev/null >"$tmp/pvmd.out" 2>&1 &
	pvmpid=$!
	sleep 1
	# pvm_woken: the plain PVM ping-pong alone and beside a process that
	# only wakes every 20 ms (spin.c: no work, 20 ms naps), RUNS times
	# alternately: its ranks sleep in their receives, and how fast a
	# machine wakes them depends on what else wakes its CPUs (on a
	# virtual machine above all), paravtd's drains among them.
	pvm_woken() {
		: >pw.plain; : >pw.woken
		k=0
		while [ $k -lt "$RUNS" ]; do
			"$HOME/pvm3/bin/LINUX64/pp_pvm" 20000 0 >pw.out 2>&1 &&
				field rtt_ns pw.out >>pw.plain
			./spin 600 0 20000 >/dev/null &
			wpid=$!
			"$HOME/pvm3/bin/LINUX64/pp_pvm" 20000 0 >pw.out 2>&1 &&
				field rtt_ns pw.out >>pw.woken
			kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null; wpid=""
			k=$((k + 1))
		done
		[ -s pw.plain ] && [ -s pw.woken ] || return 0
		awk -v p="$(median pw.plain)" -v w="$(median pw.woken)" 'BEGIN {
			printf "%-26s plain %10.1f ns/rt  beside a 20 ms waker %10.1f ns/rt  ratio %6.3f\n",
				"pvm ping-pong woken", p, w, w / p }'
	}
	pvm_pp() { # ID NAME ROUNDTRIPS PACE_US [M,W [N]]
		id=$1 n=$3 pace=$4 cpus=${5:-}
		run_plain() { "$HOME/pvm3/bin/LINUX64/pp_pvm" "$n" "$pace" $cpus; }
		run_traced() { (unset PVM_TMP; traced "$id" pvm pp_pvm.c run pvm pp_pvm "$n" "$pace" $cpus); }
		side_by_side "$1" rtt_ns "pvm_mytid" "$3" "${6:-$RUNS}"
		# 6 traced calls a round trip: initsend, send, recv on each side
		report "$2" "ns/rt" "$1.plain" "$1.traced" 6 "$(comp_median "$1")"
		spread "$1"
		paired "$1"
		tool_cpu "$1" 2
	}
	pvm_pp ppp "pvm ping-pong" 20000 0
	# Both tasks on one CPU (the first this process may use): no message
	# waits for the machine to wake another processor, so the plain runs
	# spread over 14-15 us here, shifted stacks included (unpinned, over
	# 55-74 us, by where the scheduler put the tasks).
	cpu=$(awk '/^Cpus_allowed_list:/ { split($2, a, "[-,]"); print a[1] }' /proc/self/status 2>/dev/null)
	pvm_pp ppo "pvm ping-pong, one CPU" 50000 0 "${cpu:-0},${cpu:-0}" "$MANY"
	pvm_pp ppq "pvm ping-pong 10k/s" 20000 100
	pvm_woken
else
	echo "pvm ping-pong: skipped (PVM not installed)"
fi
