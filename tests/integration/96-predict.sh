#!/bin/sh
# 96-predict.sh — paravt predict (issue 15) on real runs: a PVM pipeline
# (tests/programs/cmp_pipeline.c, 60 items, master + 2 stages) and, when
# mpirun is there, the MPI collectives of mpi_coll.c on 4 ranks, each
# captured with paravt trace on one node with a private paravtd, then:
#   - paravt predict TRACE --describe -o m.conf writes the traced machine:
#     a level, the node, one map line per process; it reads back;
#   - predicting for that machine gives what `info efficiency` shows for
#     the trace: every process's T, C, W and computing time and the job's
#     E and span within 2% (the residual model; the pure model's run time
#     is printed with its error beside it);
#   - --sweep latency=0us,1ms,10ms: three rows whose times grow, the
#     first within 2% of the recorded span, and with -o an HTML page
#     whose time curve rises over the three values; --sweep speed=2
#     halves the pipeline's master (it computes and never waits) within
#     2%;
#   - -o writes the HTML report of the predicted run, the measured run's
#     timeline under it on the same scale;
#   - --best 2 on a machine with a node twice as fast puts the master
#     there, well below the recorded time, and says what it simulated;
#   - --describe --sample with the trace itself (once, and twice: the
#     samples count together): every node at speed 1,
#     with a comment saying how it was measured; a sample of another
#     program (the MPI trace) names the node and exits 1;
#   - a machine file with an error gives FILE:LINE:COL and exit 1, an
#     unmapped process exit 1, a usage error 2, --help 0.
. "$(dirname "$0")/../lib/common.sh"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs

# within A B PCT: |A - B| <= PCT% of B (and 0.02 ms for figures near 0).
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
		exit !(d <= m * p / 100 || d <= 0.02) }'
}

# check TRACE NAME: --describe, then the prediction for it against info
# efficiency.
check() {
	_tr=$1 _n=$2
	"$PARAVT" predict "$_tr" --describe -o "$_n.conf" >"$_n.desc" 2>&1 ||
		{ cat "$_n.desc"; fail "$_n: --describe failed"; }
	cat "$_n.conf"
	expect_grep '^level core latency [0-9.e+-]+(ns|us|ms|s) bandwidth ' "$_n.conf"
	expect_grep '^node nat speed 1 cores [0-9]+$' "$_n.conf"
	np=$(grep -c '^map p[0-9]* nat$' "$_n.conf")
	"$PARAVT" -n -e "open $_tr" -e "info efficiency" >"$_n.eff" 2>&1 ||
		{ cat "$_n.eff"; fail "$_n: info efficiency"; }
	[ "$(grep -cE '^p[0-9]+ +nat ' "$_n.eff")" -eq "$np" ] ||
		fail "$_n: $np map lines, not one per process of info efficiency"
	"$PARAVT" predict "$_tr" --machine "$_n.conf" >"$_n.pred" 2>&1 ||
		{ cat "$_n.pred"; fail "$_n: predict failed"; }
	cat "$_n.eff" "$_n.pred"
	# Proc Node T C W comp E ... in both (info efficiency has a Tid)
	grep -E '^p[0-9]+ +nat ' "$_n.eff" | awk '{ print $1, $4, $5, $6, $7 }' |
		sort >"$_n.e"
	grep -E '^p[0-9]+ +nat ' "$_n.pred" | awk '{ print $1, $3, $4, $5, $6 }' |
		sort >"$_n.p"
	[ "$(wc -l <"$_n.p")" -eq "$np" ] || fail "$_n: not $np predicted lines"
	join "$_n.e" "$_n.p" | while read -r p t c w k t2 c2 w2 k2; do
		within "$t2" "$t" 2 && within "$c2" "$c" 2 && within "$w2" "$w" 2 &&
			within "$k2" "$k" 2 ||
			{ echo "$p: info efficiency T C W comp $t $c $w $k," \
				"predicted $t2 $c2 $w2 $k2"; exit 1; }
	done || fail "$_n: a process's predicted figures are not within 2%"
	span=$(sed -En 's/.*compensated times, span ([0-9.]+) ms.*/\1/p' "$_n.eff")
	e=$(sed -En 's/^job +E ([0-9.]+) .*compensated times.*/\1/p' "$_n.eff")
	pt=$(sed -En 's/^predicted run time ([0-9.]+) ms.*/\1/p' "$_n.pred")
	pe=$(sed -En 's/^job +E ([0-9.]+) .*recorded E.*/\1/p' "$_n.pred")
	[ -n "$span" ] && [ -n "$pt" ] && [ -n "$e" ] && [ -n "$pe" ] ||
		fail "$_n: no span or job line"
	within "$pt" "$span" 2 || fail "$_n: predicted $pt ms, measured span $span ms"
	within "$pe" "$e" 2 || fail "$_n: predicted E $pe, measured $e"
	expect_grep '^job +idle [0-9.]+ ms  imbalance [0-9.]+ ms  lost [0-9.]+ ms  parallel efficiency [01]\.[0-9]{3} ' "$_n.pred"
	"$PARAVT" predict "$_tr" --machine "$_n.conf" --pure >"$_n.pure" 2>&1 ||
		{ cat "$_n.pure"; fail "$_n: --pure failed"; }
	pp=$(sed -En 's/^predicted run time ([0-9.]+) ms.*/\1/p' "$_n.pure")
	ok "$_n: traced machine predicts T, C, W, comp of $np processes, E $pe ($e) and run time $pt ms (measured span $span ms) within 2%; pure model $pp ms"
}

# ---- PVM pipeline ---------------------------------------------------------
# shellcheck disable=SC2154
timeout 120 "$PARAVT" trace -o "$T/pipe.pvtrace" --node "nat=127.0.0.1:$DPORT_nat" \
	--timeout 90 --no-progress --pvm "$P/cmp_pipeline.c" -- run pvm cmp_pipeline 60 \
	>"$T/pipe.run" 2>&1 || { cat "$T/pipe.run"; fail "paravt trace (pipeline) exited $?"; }
expect_grep 'every process exited with status 0' "$T/pipe.run"
check "$T/pipe.pvtrace" pipe

"$PARAVT" predict pipe.pvtrace --machine pipe.conf --sweep latency=0us,1ms,10ms \
	-o "$T/sweep.html" >sweep.out 2>&1 || { cat sweep.out; fail "--sweep latency failed"; }
expect_grep "^Report of the sweep written to $T/sweep.html\\.\$" sweep.out
grep -q '<svg id="sweep"' sweep.html || fail "sweep.html: no curve"
# the time curve: 3 points whose y falls (the time grows) from left to right
pts=$(sed -n 's/.*<polyline class="time" points="\([^"]*\)".*/\1/p' sweep.html)
[ "$(echo "$pts" | wc -w)" = 3 ] || fail "sweep.html: not 3 points on the time curve: '$pts'"
echo "$pts" | tr ' ' '\n' | awk -F, '{ if (NR > 1 && !($1 > x && $2 < y)) exit 1; x = $1; y = $2 }' ||
	fail "sweep.html: the time curve does not rise over the values: $pts"
[ "$(grep -c '<td class="l">\(0us\|1ms\|10ms\)</td>' sweep.html)" = 3 ] || fail "sweep.html: not 3 rows"
cat sweep.out
[ "$(grep -cE '^(0us|1ms|10ms) +[0-9.]+ +[-+][0-9.]+% ' sweep.out)" -eq 3 ] ||
	fail "--sweep: not 3 rows"
awk '$1 ~ /^(0us|1ms|10ms)$/ { if (n++ && $2 <= last) exit 1; last = $2 }' sweep.out ||
	fail "--sweep latency: the run time does not grow with the latency"
t0=$(awk '$1 == "0us" { print $2 }' sweep.out)
within "$t0" "$span" 2 || fail "latency 0: $t0 ms, recorded $span ms"
"$PARAVT" predict pipe.pvtrace --machine pipe.conf --sweep speed=2 >speed.out 2>&1 ||
	{ cat speed.out; fail "--sweep speed failed"; }
"$PARAVT" predict pipe.pvtrace --machine pipe.conf --sweep p1.node=nat >/dev/null 2>&1 ||
	fail "--sweep PROC.node failed"
sed 's/ speed 1 / speed 2 /' pipe.conf >fast.conf
"$PARAVT" predict pipe.pvtrace --machine fast.conf >fast.out 2>&1 ||
	{ cat fast.out; fail "speed 2 failed"; }
t1=$(awk '$1 == "p1" { print $3 }' pipe.pred)
t2=$(awk '$1 == "p1" { print $3 }' fast.out)
within "$t2" "$(awk -v t="$t1" 'BEGIN { print t / 2 }')" 2 ||
	fail "speed 2: the master takes $t2 ms, not half of $t1"
ok "--sweep latency: 3 growing rows; speed 2 halves the master ($t1 -> $t2 ms)"

"$PARAVT" predict pipe.pvtrace --machine pipe.conf -o "$T/pred.html" >html.out 2>&1 ||
	{ cat html.out; fail "-o failed"; }
expect_grep "^Report of the predicted run written to $T/pred.html\.$" html.out
grep -q '<svg id="timeline"' pred.html || fail "pred.html: no timeline"
grep -q '<svg id="timeline2"' pred.html || fail "pred.html: no measured timeline beside the predicted one"
grep -q '<h2>Timeline: measured (compensated), same scale</h2>' pred.html || fail "pred.html: heading of the measured run"
grep -q '<title>paravt predict: pipe.pvtrace on pipe.conf' pred.html || fail "pred.html: title"
ok "-o: the HTML report of the predicted run beside the measured one; --sweep -o draws the curve"

# ---- --best: the master (it computes and never waits) goes to the fast node
cat >best.conf <<'EOF2'
level core latency 40us bandwidth 1GB/s
level net latency 2ms bandwidth 10MB/s
node nat speed 1 cores 3
node b speed 1 cores 1
node c speed 1 cores 1
node slow speed 0.5 cores 2
node fast speed 2 cores 1
EOF2
"$PARAVT" predict pipe.pvtrace --machine best.conf --best 2 --min-eff 0.1 >best.out 2>&1 ||
	{ cat best.out; fail "--best failed"; }
cat best.out
expect_grep '^best mappings with E >= 0.100: [0-9]+ of 125 mappings simulated, [1-9][0-9]* moves skipped as equivalent, [1-9][0-9]* improving moves$' best.out
expect_grep '^1 +[0-9.]+ +[01]\.[0-9]{3} +[01]\.[0-9]{3}  p1=fast ' best.out
b1=$(awk '$1 == "1" { print $2 }' best.out)
awk -v b="$b1" -v s="$span" 'BEGIN { exit !(b < s * 0.7) }' ||
	fail "--best: $b1 ms is not well below the recorded $span ms"
ok "--best: p1 on the fast node, $b1 ms (recorded $span ms)"

# ---- node speeds from a sample ----------------------------------------------
# The trace as its own sample: every computation segment is its own
# base, so the node's speed is 1 and the comment says how many matched.
"$PARAVT" predict pipe.pvtrace --describe --sample pipe.pvtrace -o self.conf \
	>self.out 2>&1 || { cat self.out; fail "--describe --sample failed"; }
expect_grep 'speeds measured from the sample' self.out
expect_grep '^# node nat: speed 1 measured from pipe.pvtrace \([1-9][0-9]* computation segments, ' self.conf
expect_grep '^node nat speed 1( calls 1)? cores 3$' self.conf
"$PARAVT" predict pipe.pvtrace --machine self.conf >self.pred 2>&1 ||
	{ cat self.pred; fail "the machine with measured speeds does not read back"; }
"$PARAVT" predict pipe.pvtrace --machine pipe.conf --sample pipe.pvtrace >bad.out 2>&1; rc=$?
[ $rc -eq 2 ] || { cat bad.out; fail "--sample without --describe: exit $rc, not 2"; }
expect_grep '^paravt: --sample goes with --describe' bad.out
"$PARAVT" predict pipe.pvtrace --describe --sample no-such.pvtrace >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "--sample of a missing file: exit $rc, not 1"; }
# The trace twice as its samples: still 1, both named; three times: none
# left out (tests/unit/test_ana_sim.c: samples that disagree); a missing
# second one fails as the first does; 17 are too many.
"$PARAVT" predict pipe.pvtrace --describe --sample pipe.pvtrace --sample pipe.pvtrace \
	-o two.conf >two.out 2>&1 || { cat two.out; fail "two --sample failed"; }
expect_grep '^# node nat: speed 1 measured from pipe.pvtrace, pipe.pvtrace \([1-9]' two.conf
# Three that agree (the same run): none left out, all three named.
"$PARAVT" predict pipe.pvtrace --describe --sample pipe.pvtrace --sample pipe.pvtrace \
	--sample pipe.pvtrace -o three.conf >three.out 2>&1 ||
	{ cat three.out; fail "three --sample failed"; }
expect_grep '^# node nat: speed 1 measured from pipe.pvtrace, pipe.pvtrace, pipe.pvtrace \([1-9]' three.conf
if grep -q 'left out:' three.conf three.out; then
	cat three.out; fail "three samples that agree: one left out"
fi
"$PARAVT" predict pipe.pvtrace --describe --sample pipe.pvtrace --sample no-such.pvtrace \
	>bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "a missing second --sample: exit $rc, not 1"; }
expect_grep 'no-such.pvtrace' bad.out
set --; k=0; while [ $k -lt 17 ]; do set -- "$@" --sample pipe.pvtrace; k=$((k + 1)); done
"$PARAVT" predict pipe.pvtrace --describe "$@" >bad.out 2>&1; rc=$?
[ $rc -eq 2 ] || { cat bad.out; fail "17 --sample: exit $rc, not 2"; }
expect_grep '^paravt: --sample at most 16 times' bad.out
ok "--sample: the trace as its own sample gives speed 1, twice and three times too; errors 2 and 1"

# ---- errors -----------------------------------------------------------------
printf 'level core latency 10us bandwidth 1GB/s\nnode nat speed fast\n' >bad.conf
"$PARAVT" predict pipe.pvtrace --machine bad.conf >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "bad machine file: exit $rc, not 1"; }
expect_grep "^paravt: bad.conf:2:16: 'fast' is not a speed" bad.out
printf 'level core latency 10us bandwidth 1GB/s\nnode x\nmap p1 x\n' >unmapped.conf
"$PARAVT" predict pipe.pvtrace --machine unmapped.conf >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "unmapped: exit $rc, not 1"; }
expect_grep '^paravt: process p[23] is not mapped to a node of the target machine' bad.out
"$PARAVT" predict pipe.pvtrace --machine pipe.conf --sweep speed=0 >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "--sweep speed=0: exit $rc, not 1"; }
expect_grep "^paravt: speed=0: speed '0' must be above 0" bad.out
"$PARAVT" predict pipe.pvtrace >bad.out 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no --machine: exit $rc, not 2"
"$PARAVT" predict pipe.pvtrace --machine >bad.out 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--machine without a file: exit $rc, not 2"
"$PARAVT" predict pipe.pvtrace --machine no-such.conf >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || fail "missing machine file: exit $rc, not 1"
expect_grep '^paravt: no-such.conf: No such file or directory$' bad.out
"$PARAVT" predict --help >help.out 2>&1 || fail "--help failed"
expect_grep '^usage: paravt predict ' help.out
ok "errors: FILE:LINE:COL and 1, unmapped 1, bad sweep 1, usage 2, --help 0"

# ---- MPI collectives --------------------------------------------------------
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (the PVM part passed)"
cp "$P/mpi_coll.c" .
timeout 170 "$PARAVT" trace -o "$T/coll.pvtrace" --node "nat=127.0.0.1:$DPORT_nat" \
	--timeout 120 --no-progress --mpi mpi_coll.c -- run mpi -np 4 >"$T/coll.run" 2>&1 ||
	{ cat "$T/coll.run"; fail "paravt trace (mpi_coll) exited $?"; }
expect_grep 'every process exited with status 0' "$T/coll.run"
check "$T/coll.pvtrace" coll
"$PARAVT" predict coll.pvtrace --describe --sample pipe.pvtrace >bad.out 2>&1; rc=$?
[ $rc -eq 1 ] || { cat bad.out; fail "--sample of another program: exit $rc, not 1"; }
expect_grep '^paravt: pipe.pvtrace: no computation of the sample on node nat is also in the traced run' bad.out
ok "--sample of another program: the node named, exit 1"
