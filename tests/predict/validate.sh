#!/bin/sh
# tests/predict/validate.sh — paravt predict against real reruns (issue
# 15), `make validate` (not part of make check: about four minutes).
#
# Two native paravtd in two network namespaces, A and B, joined by a veth
# pair; an MPI program
# (tests/predict/val_mpi.c) with one rank on each, Open MPI over TCP
# (--mca btl tcp,self, --bind-to none: each orted would bind its rank to
# "its" core 0, the same CPU for both; mpi_yield_when_idle, as Open MPI
# does itself when a node has more processes than cores: on two cores
# the ranks share them with both daemons, mpirun and the console).  For
# each of the four patterns (master/worker, ring, pipeline, 1-D stencil
# with halo exchange):
#   1. trace it on the plain veth, VAL_REPS times (default 3; more when
#      they spread, VAL_SPREAD below): BASE.pvtrace
#      (mpi.PAT.base) is the run whose span is the median;
#   2. each condition below: VAL_SAMPLES (default 2; under the CPU
#      quota VAL_CPU_SAMPLES, default 4) short sample runs of
#      the same program (VAL_SAMPLE_ITERS, VAL_PVM_SAMPLE_ITERS for PVM,
#      default half of the steps) under the
#      condition give the nodes' speeds (paravt predict BASE --describe
#      --sample SAMPLE --sample SAMPLE2: the machine of BASE with the speeds of its
#      computation and of its calls as measured); with the network
#      parameters of the condition set, that is the machine predicted
#      for; then the program is run again, traced, under exactly that
#      condition, VAL_REPS times, and the measured run time is the
#      median of their compensated spans (as info efficiency shows
#      them; the table gives the range too: this machine's own noise);
#        again     nothing changed (the run-to-run noise the others
#                  are judged against)
#        bw        tc tbf rate VAL_RATE (default 200mbit) on both veth ends:
#                  net.bandwidth = the same rate
#        cpu       B's daemon and so its rank in a cgroup (v1 cpu) with
#                  cpu.cfs_quota_us 1000 of a 2000 us period: b's speed
#                  as the sample measured it
#   3. prints predicted, measured and the error per case, and the largest
#      and the mean error.  Goal (issue 15): at most 10% on every case
#      and 5% on average; the exit status is 1 when it is not met.  The
#      machine is shared: other work on a rank's CPU shows as error in
#      every case, "again" included.
# The same for PVM (tests/predict/val_pvm.c, the same four patterns
# between a master and the one worker it spawns): the master on node a,
# the worker on node b (its host named in the master's arguments), the
# trace with nodes a and b only; then once more with the worker on node
# c, the s390x paravtd under qemu-s390x in a third namespace C
# (10.231.8.2, a veth of its own to A, whose 10.231.8.1 is its default
# route: the virtual machine's master pvmd is on A's 10.231.7.1), traced
# with nodes a and c: pvm.PAT.s390x.pvtrace, predicted from the base
# trace with the worker mapped to c and c's speeds measured from a short
# sample with the worker there (the case "s390x").  Every trace's processes and events are checked
# (trace-info: two processes, on a and on the other node, both exited 0,
# no event lost, every message matched).  The traces' process names:
# MPI p2 and p3, the two ranks in the order they first reported (either
# may be on a; p1 is mpirun, not in the trace); PVM always p1 (the
# master, on a) and p2 (the worker, on b or c).
# Not validated here, and said so: added latency (this kernel has no
# netem: detected).
# VAL_PROGS ("mpi pvm" by default) chooses the programs; VAL_S390X=0
# leaves out the runs on node c; VAL_CASES ("again bw cpu") chooses
# the conditions of step 2 (" ": none).  VAL_PATTERNS, VAL_RATE, VAL_ITERS,
# VAL_BYTES, VAL_WORK and VAL_PIN change what is run (VAL_PVM_ITERS,
# VAL_PVM_BYTES and VAL_PVM_WORK for PVM, VAL_PVM_C_ITERS for the runs on
# c); VAL_KEEP=DIR keeps the traces, machines and predictions there
# (tests/predict/repredict.sh DIR... predicts their cases again with
# the paravt built now: a change of the model judged in seconds).
# Exit 77 if namespaces, cgroups v1 cpu or tc are not there, or Open MPI
# (PVM) for a VAL_PROGS with mpi (pvm); VAL_S390X=1 (the default when
# the s390x toolchain, sysroot and paravtd are there) needs them.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"
PROGS=${VAL_PROGS:-mpi pvm}
for prog in $PROGS; do
	case $prog in
	mpi) command -v mpicc >/dev/null && command -v mpirun >/dev/null &&
		command -v orted >/dev/null || skip "no Open MPI (mpicc, mpirun, orted)" ;;
	pvm) command -v pvmd >/dev/null && [ -f /usr/include/pvm3.h ] ||
		skip "no PVM (pvmd, pvm3.h: run ports/deps.sh)" ;;
	*) fail "VAL_PROGS: mpi and/or pvm, not $prog" ;;
	esac
done
[ "$(id -u)" = 0 ] || skip "network namespaces and cgroups need root"
# The s390x node: cross compiler, qemu, the PVM sysroot, its paravtd.
has_s390x() {
	_sr=$PVM_SYSROOT_S390X _l=usr/lib/s390x-linux-gnu
	command -v s390x-linux-gnu-gcc >/dev/null && command -v qemu-s390x >/dev/null &&
		[ -x "$TOP/build/linux-s390x-qemu/bin/paravtd" ] &&
		[ -e "$TOP/build/linux-s390x-qemu/lib/libparavt_pvm.a" ] &&
		[ -e "$_sr/$_l/libpvm3.a" ] && [ -e "$_sr/$_l/libtirpc.a" ] &&
		[ -e "$_sr/usr/include/pvm3.h" ]
}
S390X=0
case " $PROGS " in
*" pvm "*)
	if [ "${VAL_S390X:-}" = 0 ]; then :
	elif has_s390x; then S390X=1
	elif [ "${VAL_S390X:-}" = 1 ]; then fail "VAL_S390X=1, but no s390x toolchain, sysroot or paravtd (make deps nodes)"
	else echo "note: no s390x toolchain, sysroot or paravtd: no runs on node c"
	fi ;;
esac
command -v ip >/dev/null && command -v tc >/dev/null || skip "no ip(8) or tc(8)"
CG=/sys/fs/cgroup/cpu
[ -w "$CG/cgroup.procs" ] || skip "no cgroup v1 cpu controller at $CG"
export TMPDIR="$T"
unset PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR PARAVT_TRACE 2>/dev/null || true
PATTERNS=${VAL_PATTERNS:-mw ring pipe stencil}
RATE=${VAL_RATE:-200mbit}
ITERS=${VAL_ITERS:-30}
BYTES=${VAL_BYTES:-262144}
WORK=${VAL_WORK:-60}
PITERS=${VAL_PVM_ITERS:-30}
PBYTES=${VAL_PVM_BYTES:-262144}
PWORK=${VAL_PVM_WORK:-60}
CITERS=${VAL_PVM_C_ITERS:-$PITERS}
REPS=${VAL_REPS:-3}
# The samples are half the steps: a worker under the quota computes an
# item either at full speed or at half (the 2 ms period against 2.5-5 ms
# items), and six items of PVM's measured its speed 0.52 to 0.93 where
# the full runs gave 0.56 to 0.67; six of MPI's pipeline under tbf gave
# rank 0 0.83 where the full run computed at 0.75.
SAMPLE_ITERS=${VAL_SAMPLE_ITERS:-$(( ITERS / 2 > 3 ? ITERS / 2 : 3 ))}
PSAMPLE_ITERS=${VAL_PVM_SAMPLE_ITERS:-$(( PITERS / 2 > 3 ? PITERS / 2 : 3 ))}
# Two samples of each condition, taken together (--sample twice): one
# short run on a shared core can be slowed a third by what else runs
# there (two samples back to back on the s390x node measured it at 0.136
# and 0.151 of native speed).
SAMPLES=${VAL_SAMPLES:-2}
# Four under the CPU quota (VAL_CPU_SAMPLES): there a PVM worker's 4.3 ms
# items took 4.2, 5.6, 7.6 or 9.7 ms each, by where the quota's 2 ms
# periods fell, and a run tends to keep one phase: two half-length
# samples gave the worker's node 0.625 and 0.657 where the three runs
# measured then computed at 0.516-0.581 (vk12, 2026-11-29; over six kept
# validations two samples came within -10% to +19% of the runs' median
# speed).
CPU_SAMPLES=${VAL_CPU_SAMPLES:-4}
# The machine is shared: now and then something else takes a third of a
# core for a second or so (the s390x worker's steps, 30.0 ms apart when
# nothing else runs, went to 45-52 ms for 5 to 13 of them, in samples
# and in measured runs alike).  So when the runs of a case spread by more
# than VAL_SPREAD (default 0.10: the goal's 10%) of their median, more
# are taken, up to VAL_REPS_MAX runs (default 7), and the median is of
# all of them (the table's range shows every one); when the samples'
# speeds of the worker's node spread so, more samples are taken, up to
# VAL_SAMPLES_MAX (default 4), used together (paravt predict leaves out
# one whose speed is more than 10% off the samples' median).
SPREAD=${VAL_SPREAD:-0.10}
REPS_MAX=${VAL_REPS_MAX:-7}
SAMPLES_MAX=${VAL_SAMPLES_MAX:-4}

pvm_netns_pair
VA=pva$$ VB=pvb$$
CGD=$CG/paravt-validate.$$
mkdir "$CGD" || skip "cannot make a cgroup in $CG"
# shellcheck disable=SC2317
cg_cleanup() {
	[ -d "$CGD" ] || return 0
	while read -r p; do echo "$p" >"$CG/cgroup.procs" 2>/dev/null; done <"$CGD/cgroup.procs"
	rmdir "$CGD" 2>/dev/null
}
on_exit cg_cleanup

# netem: is added latency possible here?
if ip netns exec "$PVM_NS_A" tc qdisc add dev lo root netem delay 1ms 2>/dev/null; then
	ip netns exec "$PVM_NS_A" tc qdisc del dev lo root
	NETEM="netem is available, but added latency is not validated yet"
else
	NETEM="no netem in this kernel: added latency cannot be validated here"
fi

D=$TOP/build/linux-x86_64/bin/paravtd
# Each node's daemon, and so its processes, on a CPU of its own (VAL_PIN=0:
# not): PVM tasks block while they wait, and unpinned the scheduler put
# master and worker on one core in some batches of runs and not in
# others (spans of the same program 15-20% apart from one batch to the
# next); a rank that polls, as Open MPI's do, takes no CPU from the
# other either.  Node c (only the s390x worker runs there) shares b's.
PIN_A="" PIN_B=""
if [ "${VAL_PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	PIN_A="taskset -c 0" PIN_B="taskset -c 1"
fi
ip netns exec "$PVM_NS_A" $PIN_A "$D" --listen "$PVM_ADDR_A:0" --allow-remote \
	--port-file "$T/a.port" --name a --log "$T/a.log" 2>"$T/a.err" &
track_pid $!
wait_for 20 test -s "$T/a.port" || { cat "$T/a.err" "$T/a.log"; fail "daemon a did not start"; }
ip netns exec "$PVM_NS_B" $PIN_B "$D" --listen "$PVM_ADDR_B:0" --allow-remote \
	--port-file "$T/b.port" --name b --log "$T/b.log" 2>"$T/b.err" &
DB=$!
track_pid $DB
wait_for 20 test -s "$T/b.port" || { cat "$T/b.err" "$T/b.log"; fail "daemon b did not start"; }
echo "$DB" >"$CGD/cgroup.procs" || fail "cannot put daemon b into $CGD"
PA=$(cat "$T/a.port") PB=$(cat "$T/b.port")

# Node c (S390X=1): a third namespace C joined to A by a veth of its own
# (A 10.231.8.1, C 10.231.8.2, C's default route through A, so that the
# s390x pvmd reaches the master pvmd at A's 10.231.7.1), and in it the
# s390x paravtd under qemu-s390x.  A second address in B would not do:
# tc on B's veth and B's cgroup would change c too.  The exit hook kills
# what is left in C (the daemon itself is track_pid's) and deletes C.
ADDR_B=$PVM_ADDR_B ADDR_C=10.231.8.2 ADDR_AC=10.231.8.1
NS_C="" PC=""
# shellcheck disable=SC2317
c_cleanup() {
	[ -n "$NS_C" ] || return 0
	_l=$(ip netns pids "$NS_C" 2>/dev/null)
	# shellcheck disable=SC2086
	[ -z "$_l" ] || { kill $_l; sleep 0.5; kill -9 $_l; } 2>/dev/null
	ip netns del "$NS_C" 2>/dev/null
	return 0
}
on_exit c_cleanup
if [ "$S390X" = 1 ]; then
	NS_C=pvtC$$
	ip netns add "$NS_C" || fail "ip netns add $NS_C"
	pvm_veth "$PVM_NS_A" "pvac$$" "$ADDR_AC" "$NS_C" "pvc$$" "$ADDR_C" &&
		ip -n "$NS_C" route add default via "$ADDR_AC" || fail "veth to C"
	# shellcheck disable=SC2046
	ip netns exec "$NS_C" $PIN_B $(port_prefix linux-s390x-qemu) \
		"$TOP/build/linux-s390x-qemu/bin/paravtd" --listen "$ADDR_C:0" \
		--allow-remote --port-file "$T/c.port" --name c --log "$T/c.log" 2>"$T/c.err" &
	track_pid $!
	wait_for 30 test -s "$T/c.port" || { cat "$T/c.err" "$T/c.log"; fail "daemon c did not start"; }
	PC=$(cat "$T/c.port")
fi
cd "$T" || fail "cd $T"
cp "$TOP/tests/predict/val_mpi.c" "$TOP/tests/predict/val_pvm.c" .

# quota on|off: B's cgroup at half a CPU, or unlimited.  The period is
# short (2 ms), so that a burst of computation runs at half speed from its
# start: with the default 100 ms, a rank that polls while it waits (Open
# MPI does) has often used up its quota when its work arrives, and one
# that computes less than half the time is hardly slowed — a cap, not a
# speed.
quota() {
	if [ "$1" = on ]; then
		echo -1 >"$CGD/cpu.cfs_quota_us" &&
			echo 2000 >"$CGD/cpu.cfs_period_us" &&
			echo 1000 >"$CGD/cpu.cfs_quota_us"
	else
		echo -1 >"$CGD/cpu.cfs_quota_us"
	fi || fail "cannot set the quota of $CGD"
}

# shape on|off: tbf at RATE on both ends of the veth, or none.
shape() {
	if [ "$shape_on" = 1 ]; then
		ip netns exec "$PVM_NS_A" tc qdisc del dev "$VA" root 2>/dev/null
		ip netns exec "$PVM_NS_B" tc qdisc del dev "$VB" root 2>/dev/null
	fi
	shape_on=0
	[ "$1" = on ] || return 0
	ip netns exec "$PVM_NS_A" tc qdisc add dev "$VA" root tbf rate "$RATE" \
		burst 32kb latency 400ms || fail "tc tbf on $VA"
	ip netns exec "$PVM_NS_B" tc qdisc add dev "$VB" root tbf rate "$RATE" \
		burst 32kb latency 400ms || fail "tc tbf on $VB"
	shape_on=1
}
shape_on=0

# span NAME: NAME.pvtrace's span (ms, the compensated one of info
# efficiency) into NAME.span; its trace-info into NAME.info.
span() {
	"$PARAVT" -n -e "open $1.pvtrace" -e "info efficiency" >"$1.eff" 2>&1 ||
		{ cat "$1.eff"; fail "$1: info efficiency"; }
	sed -En 's/.*compensated times, span ([0-9.]+) ms.*/\1/p' "$1.eff" >"$1.span"
	[ -s "$1.span" ] || { cat "$1.eff"; fail "$1: no span"; }
	"$PARAVT" trace-info "$1.pvtrace" >"$1.info" 2>&1 ||
		{ cat "$1.info"; fail "$1: trace-info"; }
}

# run_mpi PATTERN NAME [ITERS]: traces val_mpi PATTERN (one rank on a,
# one on b) into NAME.pvtrace; its span (ms) into NAME.span.
run_mpi() {
	ip netns exec "$PVM_NS_A" timeout -k 5 200 "$PARAVT" trace -o "$2.pvtrace" \
		--node "a=$PVM_ADDR_A:$PA" --node "b=$PVM_ADDR_B:$PB" --timeout 150 \
		--no-progress --mpi val_mpi.c -- run mpi --mca btl tcp,self --mca mpi_yield_when_idle 1 --bind-to none -np 2 \
		val_mpi "$1" "${3:-$ITERS}" "$BYTES" "$WORK" >"$2.run" 2>&1 ||
		{ cat "$2.run"; fail "$2: paravt trace exited $?"; }
	expect_grep "val_mpi $1: OK" "$2.run"
	span "$2"
}

# run_pvm PATTERN NAME WORKERNODE [ITERS]: traces val_pvm PATTERN, the
# master on a and its worker on WORKERNODE (b or c; the trace has these
# two nodes only, so the virtual machine has their two hosts), into
# NAME.pvtrace; its span (ms) into NAME.span.  A run takes a second or
# two (up to 5 s with the worker under qemu): 60 s is a hang (test 18
# has seen an s390x child's end go unreported, the master in pvm_exit).
run_pvm() {
	case $3 in
	b) _wa=$ADDR_B _wp=$PB ;;
	c) _wa=$ADDR_C _wp=$PC ;;
	*) fail "run_pvm: the worker's node is b or c, not $3" ;;
	esac
	ip netns exec "$PVM_NS_A" timeout -k 5 90 "$PARAVT" trace -o "$2.pvtrace" \
		--node "a=$PVM_ADDR_A:$PA" --node "$3=$_wa:$_wp" --timeout 60 \
		--no-progress --pvm val_pvm.c -- run pvm a val_pvm \
		"$1" "${4:-$PITERS}" "$PBYTES" "$PWORK" "$_wa" >"$2.run" 2>&1 ||
		{ cat "$2.run"; fail "$2: paravt trace exited $?"; }
	expect_grep "val_pvm $1: OK" "$2.run"
	span "$2"
}

# predict NAME BASE PARAM=VALUE...: NAME.conf is the machine of BASE
# with the node speeds measured from the sample NAME.sample.pvtrace
# (paravt predict --describe --sample: nodes the sample ran on that BASE
# did not are added) and the parameters set (bandwidth: of the level
# net; PROC.node: where a process runs), NAME.pred the prediction from
# BASE.pvtrace for it, NAME.time its run time.
predict() {
	_n=$1 _b=$2; shift 2
	_ss=""
	for _f in "$_n".sample.pvtrace "$_n".sample[0-9]*.pvtrace; do
		[ -f "$_f" ] && _ss="$_ss --sample $_f"
	done
	"$PARAVT" predict "$_b.pvtrace" --describe $_ss \
		-o "$_n.speeds.conf" >"$_n.speeds" 2>&1 || { cat "$_n.speeds"; fail "$_n: --sample"; }
	awk -v kvs="$*" 'BEGIN { n = split(kvs, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); set[kv[1]] = kv[2] } }
	$1 == "level" && $2 == "net" && ("bandwidth" in set) { $6 = set["bandwidth"] }
	$1 == "map" && (($2 ".node") in set) { $3 = set[$2 ".node"] }
	{ print }' "$_n.speeds.conf" >"$_n.conf"
	"$PARAVT" predict "$_b.pvtrace" --machine "$_n.conf" >"$_n.pred" 2>&1 ||
		{ cat "$_n.pred"; fail "$_n: predict"; }
	sed -En 's/^predicted run time ([0-9.]+) ms.*/\1/p' "$_n.pred" >"$_n.time"
}

RATE_BPS=$(echo "$RATE" | awk '/mbit$/ { sub(/mbit/, ""); print $0 / 8 "MB/s"; exit }
	/gbit$/ { sub(/gbit/, ""); print $0 / 8 "GB/s"; exit } { print "?" }')
[ "$RATE_BPS" != "?" ] || fail "VAL_RATE: give it in mbit or gbit"
CASES=${VAL_CASES:-again bw cpu}

# runp PROG PATTERN NAME NODE [ITERS]: run_mpi or run_pvm (the worker on
# NODE).
runp() {
	if [ "$1" = mpi ]; then run_mpi "$2" "$3" ${5:+"$5"}; else run_pvm "$2" "$3" "$4" ${5:+"$5"}; fi
}

# sample_runs PROG PATTERN NAME NODE [N]: N short runs (default
# VAL_SAMPLES, $si steps) under the condition set: NAME.sample.pvtrace,
# then NAME.sample2.pvtrace ... (more while the speeds each gives NODE
# alone, NAME.sample.speeds, spread: SPREAD); predict takes them
# together.
sample_runs() {
	_k=1 _min=${5:-$SAMPLES}
	: >"$3.sample.speeds"
	while [ "$_k" -le "$_min" ] || { [ "$_k" -le "$SAMPLES_MAX" ] &&
		spread_over "$3.sample.speeds"; }; do
		_s=$3.sample
		[ "$_k" -gt 1 ] && _s=$3.sample$_k
		[ "$_k" -gt "$_min" ] && echo "$3: samples spread more than $SPREAD: one more"
		runp "$1" "$2" "$_s" "$4" "$si"
		check_trace "$_s" "$4"
		"$PARAVT" predict "$1.$2.base.pvtrace" --describe --sample "$_s.pvtrace" \
			-o "$_s.alone.conf" >"$_s.alone" 2>&1 || { cat "$_s.alone"; fail "$_s: --sample"; }
		sed -n "s/^node $4 speed \([0-9.e+-]*\).*/\1/p" "$_s.alone.conf" >>"$3.sample.speeds"
		_k=$((_k + 1))
	done
}

# spread_over FILE: true when the numbers in FILE (the first column)
# spread by more than SPREAD of their median.
spread_over() {
	sort -n "$1" | awk -v s="$SPREAD" '{ v[NR] = $1 }
		END { if (NR < 2) exit 1
		      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      exit !(m > 0 && (v[NR] - v[1]) / m > s) }'
}

# reps PROG PATTERN NAME NODE [ITERS]: REPS runs (runp) into NAME.1,
# NAME.2, ... (more while they spread: SPREAD); NAME.spans their spans;
# NAME.span the median, and
# NAME.pvtrace (.eff, .info, .run) the run that gave it.
reps() {
	_k=1
	: >"$3.spans"
	while [ $_k -le "$REPS" ] || { [ $_k -le "$REPS_MAX" ] &&
		spread_over "$3.spans"; }; do
		[ $_k -gt "$REPS" ] && echo "$3: runs spread more than $SPREAD: one more"
		runp "$1" "$2" "$3.$_k" "$4" ${5:+"$5"}
		echo "$(cat "$3.$_k.span") $_k" >>"$3.spans"
		_k=$((_k + 1))
	done
	_m=$(sort -n "$3.spans" | awk '{ r[NR] = $2 } END { print r[int((NR + 1) / 2)] }')
	for _x in pvtrace span eff info run; do cp "$3.$_m.$_x" "$3.$_x"; done
}

# range NAME: "min..max" of NAME.spans (ms, whole), or "-" for one run.
range() {
	sort -n "$1.spans" | awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { if (NR > 1) printf "%.0f..%.0f\n", lo, hi; else print "-" }'
}

# row PROG PATTERN CASE NAME: the table's line of NAME (predicted
# NAME.time, measured NAME.span, the range of the runs), also printed.
row() {
	awk -v p="$(cat "$4.time")" -v m="$(cat "$4.span")" -v r="$(range "$4")" \
		-v pg="$1" -v pr="$2" -v c="$3" 'BEGIN {
		printf "%-4s %-8s %-6s %12.3f %12.3f %+7.1f%%  %s\n", pg, pr, c, p, m,
			100 * (p - m) / m, r }' >>table
	tail -1 table
}

# describe NAME NODE: NAME.conf, the machine of NAME.pvtrace (predict
# --describe), with processes mapped to a and to NODE and a net level.
describe() {
	"$PARAVT" predict "$1.pvtrace" --describe -o "$1.conf" >"$1.desc" 2>&1 ||
		{ cat "$1.desc"; fail "$1: --describe"; }
	grep -q '^map p[0-9]* a$' "$1.conf" && grep -q "^map p[0-9]* $2\$" "$1.conf" ||
		{ cat "$1.conf"; fail "$1: the processes are not on a and $2"; }
	grep -q '^level net ' "$1.conf" || { cat "$1.conf"; fail "$1: no net level"; }
}

# check_trace NAME NODE: NAME.pvtrace (its trace-info, NAME.info) has two
# processes, one on a and one on NODE, each exited with status 0 and lost
# no event, and every send and receive was matched; prints "NAME:
# processes p1 on a, p2 on NODE" (as the trace names them).
check_trace() {
	awk -v n="$2" '$1 ~ /^p[0-9]+$/ && NF >= 9 { np++; procs = procs (np > 1 ? ", " : " ") $1 " on " $2
		if ($2 == "a") na++; else if ($2 == n) nn++
		if ($8 != 0 || $9 " " $10 " " $11 != "exited status 0") bad++ }
	/^matched:/ && / unmatched 0 sends, 0 receives$/ { matched = 1 }
	/^ended: +exited, status 0$/ { ended = 1 }
	END { printf "processes%s\n", procs
		exit !(np == 2 && na == 1 && nn == 1 && !bad && matched && ended) }' \
		"$1.info" >"$1.procs" ||
		{ cat "$1.info"; fail "$1: not two whole processes on a and $2, or messages unmatched"; }
	echo "$1: $(cat "$1.procs")"
}

printf '%-4s %-8s %-6s %12s %12s %8s  %s\n' prog pattern case predicted_ms measured_ms \
	error runs_ms >table
for prog in $PROGS; do
for pat in $PATTERNS; do
	quota off; shape off
	b=$prog.$pat
	reps "$prog" "$pat" "$b.base" b
	describe "$b.base" b
	check_trace "$b.base" b
	echo "$b.base: $(cat "$b.base.span") ms"
	if [ "$prog" = mpi ]; then si=$SAMPLE_ITERS; else si=$PSAMPLE_ITERS; fi
	if [ "$prog" = pvm ] && [ "$S390X" = 1 ]; then
		# the worker moved to c: c's speeds from a short sample there,
		# the base's worker (b's process) mapped to c
		sample_runs pvm "$pat" "$b.s390x" c
		w=$(sed -n 's/^map \(p[0-9]*\) b$/\1/p' "$b.base.conf")
		predict "$b.s390x" "$b.base" "$w.node=c"
		reps pvm "$pat" "$b.s390x" c "$CITERS"
		check_trace "$b.s390x" c
		row "$prog" "$pat" s390x "$b.s390x"
	fi
	for c in $CASES; do
		case $c in
		again) ;;
		bw) shape on ;;
		cpu) quota on ;;
		*) fail "VAL_CASES: again, bw, cpu, not $c" ;;
		esac
		# the node speeds under this condition, from short samples
		if [ "$c" = cpu ]; then n=$CPU_SAMPLES; else n=$SAMPLES; fi
		sample_runs "$prog" "$pat" "$b.$c" b "$n"
		case $c in
		bw) predict "$b.$c" "$b.base" "bandwidth=$RATE_BPS" ;;
		*) predict "$b.$c" "$b.base" ;;
		esac
		if [ "$c" = cpu ]; then # which cgroup the processes ran in: PROG.PAT.cg
			# (4 command lines: timeout, paravt trace, the two processes)
			if [ "$prog" = mpi ]; then m="$pat $ITERS $BYTES"
			else m="val_pvm $pat $PITERS $PBYTES"
			fi
			( k=0; while [ $k -lt 300 ] && [ "$(pgrep -fc "$m")" -lt 4 ]; do
				sleep 0.1; k=$((k + 1)); done
			  for q in $(pgrep -f "$m"); do
				echo "$q $(tr '\0' ' ' </proc/$q/cmdline | cut -c1-60) $(grep ':cpu:' /proc/$q/cgroup)"
			  done >"$b.cg" ) &
		fi
		reps "$prog" "$pat" "$b.$c" b
		[ "$c" != cpu ] || { echo "cgroup $CGD after the run:"; cat "$CGD/cpu.stat"; }
		quota off; shape off
		row "$prog" "$pat" "$c" "$b.$c"
	done
done
done
echo
cat table
awk 'NR > 1 { e = $6; sub(/%/, "", e); e = e + 0; if (e < 0) e = -e; s += e; n++; if (e > m) m = e }
END { if (n == 0) { print "no cases"; exit 0 }
	printf "cases %d: largest error %.1f%%, mean %.1f%% (goal: <= 10%% each, <= 5%% mean)\n", n, m, s / n
	exit !(m <= 10 && s / n <= 5) }' table >summary
rc=$?
cat summary
echo "$NETEM"
[ "$S390X" = 1 ] || echo "not validated here: the s390x node under qemu (no s390x toolchain, sysroot or paravtd)"
[ -n "${VAL_KEEP:-}" ] && mkdir -p "$VAL_KEEP" && cp table summary ./*.pred ./*.eff ./*.info ./*.conf ./*.span \
	./*.run ./*.pvtrace ./*.speeds ./*.spans "$VAL_KEEP"/ 2>/dev/null
[ -n "${VAL_KEEP:-}" ] && cp ./*.cg "$VAL_KEEP"/ 2>/dev/null
[ $rc -eq 0 ] || fail "the accuracy goal is not met"
ok "prediction within the goal on every case"
