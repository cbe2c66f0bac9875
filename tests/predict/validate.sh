#!/bin/sh
# tests/predict/validate.sh — paravt predict against real reruns (issue
# 15), `make validate` (not part of make check: about two minutes).
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
#   1. trace it on the plain veth: BASE.pvtrace;
#   2. each condition below: a short sample run of the same program
#      (VAL_SAMPLE_ITERS, default a fifth of the steps) under the
#      condition gives the nodes' speeds (paravt predict BASE --describe
#      --sample SAMPLE: the machine of BASE with those speeds); with the
#      network parameters of the condition set, that is the machine
#      predicted for; then the program is run again, traced, under
#      exactly that condition, and the measured run time taken (the
#      trace's compensated span, as info efficiency shows it);
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
# Not validated here, and said so: added latency (this kernel has no
# netem: detected), PVM (the programs are MPI), the s390x node under qemu.
# VAL_PATTERNS, VAL_RATE, VAL_ITERS, VAL_BYTES, VAL_WORK and VAL_PIN
# change what is run; VAL_KEEP=DIR keeps the traces, machines and
# predictions there.  Exit 77 if namespaces, cgroups v1 cpu, tc or Open MPI are not
# there.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"
command -v mpicc >/dev/null && command -v mpirun >/dev/null &&
	command -v orted >/dev/null || skip "no Open MPI (mpicc, mpirun, orted)"
[ "$(id -u)" = 0 ] || skip "network namespaces and cgroups need root"
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
SAMPLE_ITERS=${VAL_SAMPLE_ITERS:-$(( ITERS / 5 > 3 ? ITERS / 5 : 3 ))}

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
# VAL_PIN=1: each node's daemon, and so its rank, on a CPU of its own (a
# rank that polls while it waits, as Open MPI does, then takes no CPU from
# the other).  Not the default: on a machine shared with other work, a
# pinned rank cannot move away from it (the "again" case was 33% off,
# against 7% unpinned).
PIN_A="" PIN_B=""
if [ "${VAL_PIN:-0}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
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
cd "$T" || fail "cd $T"
cp "$TOP/tests/predict/val_mpi.c" .

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

# run PATTERN NAME [ITERS]: traces val_mpi PATTERN into NAME.pvtrace; its
# span (ms) into NAME.span.
run() {
	ip netns exec "$PVM_NS_A" timeout -k 5 200 "$PARAVT" trace -o "$2.pvtrace" \
		--node "a=$PVM_ADDR_A:$PA" --node "b=$PVM_ADDR_B:$PB" --timeout 150 \
		--no-progress --mpi val_mpi.c -- run mpi --mca btl tcp,self --mca mpi_yield_when_idle 1 --bind-to none -np 2 \
		val_mpi "$1" "${3:-$ITERS}" "$BYTES" "$WORK" >"$2.run" 2>&1 ||
		{ cat "$2.run"; fail "$2: paravt trace exited $?"; }
	expect_grep "val_mpi $1: OK" "$2.run"
	"$PARAVT" -n -e "open $2.pvtrace" -e "info efficiency" >"$2.eff" 2>&1 ||
		{ cat "$2.eff"; fail "$2: info efficiency"; }
	sed -En 's/.*compensated times, span ([0-9.]+) ms.*/\1/p' "$2.eff" >"$2.span"
	[ -s "$2.span" ] || { cat "$2.eff"; fail "$2: no span"; }
}

# predict NAME BASE PARAM=VALUE...: NAME.conf is the machine of BASE
# with the node speeds measured from the sample NAME.sample.pvtrace
# (paravt predict --describe --sample) and the parameters set (bandwidth:
# of the level net), NAME.pred the prediction from BASE.pvtrace for it,
# NAME.time its run time.
predict() {
	_n=$1 _b=$2; shift 2
	"$PARAVT" predict "$_b.pvtrace" --describe --sample "$_n.sample.pvtrace" \
		-o "$_n.speeds.conf" >"$_n.speeds" 2>&1 || { cat "$_n.speeds"; fail "$_n: --sample"; }
	awk -v kvs="$*" 'BEGIN { n = split(kvs, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); set[kv[1]] = kv[2] } }
	$1 == "level" && $2 == "net" && ("bandwidth" in set) { $6 = set["bandwidth"] }
	{ print }' "$_n.speeds.conf" >"$_n.conf"
	"$PARAVT" predict "$_b.pvtrace" --machine "$_n.conf" >"$_n.pred" 2>&1 ||
		{ cat "$_n.pred"; fail "$_n: predict"; }
	sed -En 's/^predicted run time ([0-9.]+) ms.*/\1/p' "$_n.pred" >"$_n.time"
}

RATE_BPS=$(echo "$RATE" | awk '/mbit$/ { sub(/mbit/, ""); print $0 / 8 "MB/s"; exit }
	/gbit$/ { sub(/gbit/, ""); print $0 / 8 "GB/s"; exit } { print "?" }')
[ "$RATE_BPS" != "?" ] || fail "VAL_RATE: give it in mbit or gbit"
printf '%-8s %-6s %12s %12s %8s\n' program case predicted_ms measured_ms error >table
for pat in $PATTERNS; do
	quota off; shape off
	run "$pat" "$pat.base"
	"$PARAVT" predict "$pat.base.pvtrace" --describe -o "$pat.base.conf" \
		>/dev/null 2>&1 || fail "$pat: --describe"
	grep -q '^map p[0-9]* a$' "$pat.base.conf" && grep -q '^map p[0-9]* b$' "$pat.base.conf" ||
		{ cat "$pat.base.conf"; fail "$pat: the ranks are not on both nodes"; }
	grep -q '^level net ' "$pat.base.conf" || fail "$pat: no net level"
	for c in again bw cpu; do
		case $c in
		again) ;;
		bw) shape on ;;
		cpu) quota on ;;
		esac
		# the node speeds under this condition, from a short sample
		run "$pat" "$pat.$c.sample" "$SAMPLE_ITERS"
		case $c in
		again) predict "$pat.$c" "$pat.base" ;;
		bw) predict "$pat.$c" "$pat.base" "bandwidth=$RATE_BPS" ;;
		cpu) predict "$pat.$c" "$pat.base" ;;
		esac
		if [ "$c" = cpu ]; then # which cgroup the ranks ran in: PAT.cg
			( k=0; while [ $k -lt 300 ] && [ "$(pgrep -fc "$pat $ITERS $BYTES")" -lt 4 ]; do
				sleep 0.1; k=$((k + 1)); done
			  for q in $(pgrep -f "$pat $ITERS $BYTES"); do
				echo "$q $(tr '\0' ' ' </proc/$q/cmdline | cut -c1-60) $(grep ':cpu:' /proc/$q/cgroup)"
			  done >"$pat.cg" ) &
		fi
		run "$pat" "$pat.$c"
		[ "$c" != cpu ] || { echo "cgroup $CGD after the run:"; cat "$CGD/cpu.stat"; }
		quota off; shape off
		awk -v p="$(cat "$pat.$c.time")" -v m="$(cat "$pat.$c.span")" \
			-v pr="$pat" -v c="$c" 'BEGIN {
			printf "%-8s %-6s %12.3f %12.3f %+7.1f%%\n", pr, c, p, m, 100 * (p - m) / m }' >>table
		tail -1 table
	done
done
echo
cat table
awk 'NR > 1 { e = $5; sub(/%/, "", e); e = e + 0; if (e < 0) e = -e; s += e; n++; if (e > m) m = e }
END { printf "cases %d: largest error %.1f%%, mean %.1f%% (goal: <= 10%% each, <= 5%% mean)\n", n, m, s / n
	exit !(m <= 10 && s / n <= 5) }' table >summary
rc=$?
cat summary
echo "$NETEM"
echo "not validated here: PVM programs, the s390x node under qemu (its speed factor)"
[ -n "${VAL_KEEP:-}" ] && cp table summary ./*.pred ./*.eff ./*.conf ./*.cg ./*.pvtrace "$VAL_KEEP"/
[ $rc -eq 0 ] || fail "the accuracy goal is not met"
ok "prediction within the goal on every case"
