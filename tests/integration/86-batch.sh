#!/bin/sh
# 86-batch.sh — unattended capture with `paravt trace` (issue 6):
#   (d) usage errors: no -o, no "-- COMMAND", an unknown option, an
#       unreadable nodes file, a bad --break: status 2 and a clear
#       message, nothing run;
#   (b0) `break FILE:LINE record VARS` and `info breakpoints` in the
#       console: the record list is shown;
#   (c) --timeout on batch_spin.c (never ends; a record breakpoint in its
#       loop): status 3 within T + a few seconds, the process killed, the
#       trace kept (trace-info reads it: ended by the time limit, events
#       and recorded values in it);
#   (h) a program that exits 3: status 1, the trace written;
#   (f) on a terminal (script(1)): the progress line "[paravt] N events
#       1 procs T s" is drawn, and erased before any other output;
#   (g) SIGTERM during a capture: status 5, trace kept ("interrupted");
#   (e) --hang 3 on pvm_deadlock.c (two tasks each receiving first): the
#       hang watchdog ends the run, status 4 within a few seconds, the
#       trace kept and ended "hang";
#   (a)+(b) a real multi-host PVM run — namespace A (10.231.7.1) with the
#       native paravtd, namespace B (10.231.7.2) with the s390x paravtd
#       under qemu, as in 18-pvm-hetero-paravt.sh — captured with
#         paravt trace -o OUT --nodes FILE --break 'pvm_worker.c:L record
#         i, n, sum' --pvm pvm_master.c pvm_worker.c -- run pvm a ...
#       from stdin /dev/null, without a terminal (setsid): status 0, the
#       trace file exists and trace-info reads it (7 processes, 18
#       recorded values, ended "exited"), no progress line, and one record
#       line per worker with the values the master prints for it (the run
#       never stopped: the master's output is complete); the file's
#       exports (paravt export --otf2 --chrome) agree with trace-info on
#       the number of send/recv pairs (otf2-print, python3's json).
# Exit 77 only when namespaces, PVM or the s390x toolchain are missing
# (the other parts have run by then).
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

P=$TOP/tests/programs
cd "$T" || fail "cd $T"

# ---- (d) usage errors ----------------------------------------------------
usage_case() { # usage_case WHAT PATTERN ARGS...
	_what=$1 _pat=$2; shift 2
	rc=0
	timeout 20 "$PARAVT" trace "$@" </dev/null >"$T/u.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$T/u.out"; fail "$_what: status $rc, not 2"; }
	expect_grep "$_pat" "$T/u.out" "$_what: message"
	expect_no_grep '^loaded|^build' "$T/u.out" "$_what: something ran"
	ok "$_what: status 2, $(grep -m1 'paravt trace' "$T/u.out")"
}
usage_case "no -o" "paravt trace: -o FILE is required" "$P/batch_spin.c" -- run
usage_case "no --" "paravt trace: missing '-- COMMAND'" -o x.pvt "$P/batch_spin.c" run
usage_case "unknown option" "paravt trace: unknown option '--frobnicate'" \
	-o x.pvt --frobnicate "$P/batch_spin.c" -- run
echo "a 127.0.0.1:1" >"$T/nodes.unreadable"
chmod 000 "$T/nodes.unreadable"
if [ -r "$T/nodes.unreadable" ]; then # root reads anything: a directory then
	rm -f "$T/nodes.unreadable"
	mkdir "$T/nodes.unreadable"
fi
usage_case "unreadable nodes file" "paravt trace: cannot read the nodes file $T/nodes.unreadable" \
	-o x.pvt --nodes "$T/nodes.unreadable" "$P/batch_spin.c" -- run
usage_case "bad --break" "expected LOCATION or 'LOCATION record VAR,...'" \
	-o x.pvt --break "x.c:3,recrod,i" "$P/batch_spin.c" -- run
[ ! -e x.pvt ] || fail "a usage error wrote the trace file"
"$PARAVT" trace --help >"$T/help" 2>&1 || fail "paravt trace --help: status $?"
for w in -o --nodes --node --break --timeout --no-progress '-- COMMAND'; do
	grep -qF -- "$w" "$T/help" || fail "paravt trace --help lacks $w"
done
ok "paravt trace --help lists its options and the exit statuses"

# ---- (b0) record breakpoints in the console ---------------------------------
"$PARAVT" -n -e "load $P/batch_spin.c" -e "break batch_spin.c:18 record round, pause" \
	-e "tbreak main record" -e "info breakpoints" -e "break main recrod x" \
	>"$T/bp.out" 2>&1 && fail "break main recrod x was accepted"
cat "$T/bp.out"
expect_grep '^Breakpoint 1 at batch_spin.c:18, recording round, pause$' "$T/bp.out"
expect_grep '^Temporary breakpoint 2 at function main, recording every local$' "$T/bp.out"
expect_grep '^1 +record +keep +y +batch_spin.c:18 ' "$T/bp.out" "info breakpoints: type record"
expect_grep '^ +records round, pause, then goes on$' "$T/bp.out" "info breakpoints: the list"
expect_grep '^2 +record +once ' "$T/bp.out"
expect_grep "break: expected 'record' after the location, not 'recrod'" "$T/bp.out"
ok "break ... record and info breakpoints show the record lists"

# ---- (c) time limit ----------------------------------------------------------
start_daemon nat linux-x86_64
L=$(grep -n 'batch-spin-record' "$P/batch_spin.c" | cut -d: -f1)
[ -n "$L" ] || fail "no marked line in batch_spin.c"
t0=$(date +%s)
rc=0
# shellcheck disable=SC2154
setsid -w timeout -k 5 60 "$PARAVT" trace -o spin.pvt --timeout 3 \
	--node "nat=127.0.0.1:$DPORT_nat" --break "batch_spin.c:$L,record,round" \
	"$P/batch_spin.c" -- run </dev/null >"$T/spin.out" 2>&1 || rc=$?
t1=$(date +%s)
cat "$T/spin.out"
[ "$rc" = 3 ] || fail "time limit: status $rc, not 3"
[ $((t1 - t0)) -le 13 ] || fail "time limit 3 s: paravt trace took $((t1 - t0)) s"
expect_grep '^\[stopped waiting: time limit of 3 s reached\]$' "$T/spin.out"
expect_grep '^\[p1 killed by signal SIGKILL' "$T/spin.out" "the process was not killed"
expect_grep '^\[p1 rec 1\] batch_spin.c:[0-9]+ round = [0-9]+$' "$T/spin.out" "no record line"
expect_grep 'paravt trace: spin.pvt: [1-9][0-9]* events, 1 process, .*time limit reached' "$T/spin.out"
[ -s spin.pvt ] || fail "the trace was not kept"
rc=0; "$PARAVT" trace-info spin.pvt >"$T/spin.info" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/spin.info"; fail "trace-info spin.pvt: status $rc"; }
cat "$T/spin.info"
expect_grep '^ended: +time limit' "$T/spin.info"
expect_grep '^events: +[1-9]' "$T/spin.info" "no events in the kept trace"
expect_grep '^variables: +[1-9][0-9]* recorded' "$T/spin.info" "no recorded values in the trace"
pgrep -f "$T/.*batch_spin" >/dev/null && fail "batch_spin still runs"
ok "--timeout 3: status 3 after $((t1 - t0)) s, process killed, trace kept ($(grep '^events:' "$T/spin.info"))"

# ---- (h) a program that fails: status 1 ------------------------------------------
cat >fails.c <<'PROG'
int main(void) { return 3; }
PROG
rc=0
setsid -w timeout -k 5 60 "$PARAVT" trace -o fails.pvt --node "nat=127.0.0.1:$DPORT_nat" \
	fails.c -- run </dev/null >"$T/fails.out" 2>&1 || rc=$?
cat "$T/fails.out"
[ "$rc" = 1 ] || fail "a program exiting 3: status $rc, not 1"
expect_grep '^paravt trace: fails.pvt: .*the program failed \(p1 exited with status 3\)$' "$T/fails.out"
[ -s fails.pvt ] || fail "no trace of the failed run"
ok "a program exiting 3: status 1, trace written"

# ---- (f) progress line on a terminal; (g) SIGTERM ------------------------------
# script(1) gives paravt a terminal (stdin, stdout and stderr on a pty).
if command -v script >/dev/null; then
	rc=0
	timeout -k 5 40 script -qec "$PARAVT trace -o tty.pvt --timeout 2 \
		--node nat=127.0.0.1:$DPORT_nat --break batch_spin.c:$L,record,round \
		$P/batch_spin.c -- run" /dev/null </dev/null >"$T/tty.out" 2>&1 || rc=$?
	[ "$rc" = 3 ] || { cat -v "$T/tty.out"; fail "on a terminal: status $rc, not 3"; }
	grep -aqE "$(printf '\r')\[paravt\] [0-9]+ events  1 procs  [0-9]+\.[0-9] s" "$T/tty.out" ||
		{ cat -v "$T/tty.out"; fail "no progress line on a terminal"; }
	# Erased before other output: never "... s<ESC>[K" followed by text.
	if grep -aqE "[0-9] s$(printf '\033')\[K[^$(printf '\r')]" "$T/tty.out"; then
		cat -v "$T/tty.out"; fail "output runs into the progress line"
	fi
	ok "on a terminal: progress line drawn and erased before other output"
else
	echo "note: no script(1): progress line on a terminal not checked"
fi
setsid "$PARAVT" trace -o term.pvt --node "nat=127.0.0.1:$DPORT_nat" \
	--break "batch_spin.c:$L,record,round" "$P/batch_spin.c" -- run \
	</dev/null >"$T/term.out" 2>&1 &
tp=$!
track_pid $tp
wait_for 20 grep -q '^\[p1 rec 1\]' "$T/term.out" || { cat "$T/term.out"; fail "no record line before SIGTERM"; }
kill -TERM "$tp"
rc=0
wait "$tp" || rc=$?
cat "$T/term.out"
[ "$rc" = 5 ] || fail "SIGTERM: status $rc, not 5"
expect_grep 'paravt trace: term.pvt: .*; interrupted, processes killed$' "$T/term.out"
rc=0; "$PARAVT" trace-info term.pvt >"$T/term.info" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/term.info"; fail "trace-info term.pvt: status $rc"; }
expect_grep '^ended: +interrupted' "$T/term.info"
ok "SIGTERM: status 5, process killed, trace kept (ended: interrupted)"

# ---- (a) + (b) a multi-host PVM run, no terminal -----------------------------
command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"

# ---- (e) a deadlock ends the capture: status 4 ----------------------------------
t0=$(date +%s)
rc=0
setsid -w timeout -k 5 60 "$PARAVT" trace -o dl.pvt --hang 3 --timeout 40 \
	--node "nat=127.0.0.1:$DPORT_nat" --pvm "$P/pvm_deadlock.c" \
	-- run pvm pvm_deadlock </dev/null >"$T/dl.out" 2>&1 || rc=$?
t1=$(date +%s)
cat "$T/dl.out"
[ "$rc" = 4 ] || fail "deadlock: status $rc, not 4"
[ $((t1 - t0)) -le 20 ] || fail "deadlock (--hang 3): paravt trace took $((t1 - t0)) s"
expect_grep '^\[stopped waiting: deadlock: p[12] and p[12] wait for each other\]$' "$T/dl.out"
expect_grep '^paravt trace: dl.pvt: .*ended as hung \(deadlock: p[12] and p[12] wait for each other\), processes killed$' "$T/dl.out"
rc=0; "$PARAVT" trace-info dl.pvt >"$T/dl.info" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/dl.info"; fail "trace-info dl.pvt: status $rc"; }
expect_grep '^ended: +hang' "$T/dl.info"
ok "--hang 3 on a deadlock: status 4 after $((t1 - t0)) s, trace kept (ended: hang)"

pvm_need_s390x
export TMPDIR="$T"
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true
pvm_netns_pair
pvm_daemon_pair
cat >"$T/nodes" <<EOF
# the two hosts of the virtual machine
a $PVM_ADDR_A:$(cat "$T/a.port")

b $PVM_ADDR_B:$(cat "$T/b.port")
EOF
W=$(grep -n 'long lval = base + sum;' "$P/pvm_worker.c" | cut -d: -f1)
[ -n "$W" ] || fail "no 'long lval' line in pvm_worker.c"
capture() {
	rc=0
	ip netns exec "$PVM_NS_A" setsid -w timeout -k 5 90 "$PARAVT" trace \
		-o pvm.pvt --nodes "$T/nodes" --timeout 40 \
		--break "pvm_worker.c:$W record i, n, sum" \
		--pvm "$P/pvm_master.c" "$P/pvm_worker.c" -- run pvm a pvm_master 6 \
		</dev/null >"$T/pvm.out" 2>"$T/pvm.err" || rc=$?
}
capture
cat "$T/pvm.out" "$T/pvm.err"
[ "$rc" = 0 ] || { cat "$T/a.log" "$T/b.log"; fail "paravt trace of the PVM run: status $rc"; }
ok "paravt trace of a PVM run on x86_64 + s390x, no terminal: status 0"
expect_grep '^build of pvm_worker on b: ok$' "$T/pvm.out"
sed -n 's/^\[p1\] //p' "$T/pvm.out" | grep -E '^(worker [0-9]|total:|OK|FAILED)' >"$T/master.out"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/master.out" || fail "master output differs"
ok "the run went through: master output as without paravt"

# No progress line: nothing drawn with a carriage return, no "[paravt] N events".
if grep -q "$(printf '\r')" "$T/pvm.out" "$T/pvm.err" ||
    grep -qE '\[paravt\] [0-9]+ events' "$T/pvm.out" "$T/pvm.err"; then
	fail "a progress line without a terminal"
fi
expect_grep '^paravt trace: pvm.pvt: [1-9][0-9]* events, 7 processes, .*every process exited with status 0$' "$T/pvm.err"
ok "no progress line; one summary line on stderr"

# (b) one record line per worker, with the values the master prints.
grep -E '^\[p[0-9]+ rec 1\] ' "$T/pvm.out" >"$T/rec" || true
[ "$(wc -l <"$T/rec")" = 6 ] || fail "$(wc -l <"$T/rec") record lines, not 6"
while read -r _w idx n sum _rest; do
	idx=${idx%:} n=${n#n=} sum=${sum#sum=}
	grep -qE "^\[p[0-9]+ rec 1\] pvm_worker.c:$W i = $idx, n = $n, sum = $sum\$" "$T/rec" ||
		{ cat "$T/rec"; fail "no record line i = $idx, n = $n, sum = $sum"; }
done <<EOF
$(grep '^worker ' "$TOP/tests/pvm/expected/master.out")
EOF
expect_no_grep 'stopped at breakpoint' "$T/pvm.out" "a record breakpoint stopped the run"
nb=0
for p in $(sed -n 's/^\[p\([0-9]*\) rec 1\].*/\1/p' "$T/rec"); do
	grep -qE "^\[p$p started on b," "$T/pvm.out" && nb=$((nb + 1))
done
[ "$nb" -ge 1 ] || fail "no record line came from a worker on b (s390x)"
ok "record breakpoint: 6 lines (i, n, sum as the master prints them; $nb from s390x), run not stopped"

# The trace file.
[ -s pvm.pvt ] || fail "no trace file"
rc=0; "$PARAVT" trace-info pvm.pvt >"$T/pvm.info" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/pvm.info"; fail "trace-info pvm.pvt: status $rc"; }
cat "$T/pvm.info"
expect_grep '^processes: +7$' "$T/pvm.info"
expect_grep '^variables: +18 recorded' "$T/pvm.info" "3 values x 6 workers in the trace"
expect_grep '^ended: +exited' "$T/pvm.info"
ok "trace file $(wc -c <pvm.pvt) bytes: 7 processes, 18 recorded values, ended exited"
# The count the capture gave (taken from the daemons' batch summaries,
# the batches written undecoded) is the count of the file read back.
n_run=$(sed -n 's/^paravt trace: pvm.pvt: \([0-9]*\) events,.*/\1/p' "$T/pvm.err")
n_file=$(sed -n 's/^events: *\([0-9]*\) .*/\1/p' "$T/pvm.info")
[ -n "$n_run" ] && [ "$n_run" = "$n_file" ] ||
	fail "the capture counted ${n_run:-no} events, the file holds ${n_file:-none}"
ok "the capture's count ($n_run events) is the file's"

# The exports of the captured file agree with it: as many send/receive
# pairs for trace-info, otf2-print (MPI_SEND and MPI_RECV records) and
# the Chrome JSON's flow arrows (starts and ends, same ids).
if ! command -v otf2-print >/dev/null || ! command -v python3 >/dev/null; then
	echo "note: no otf2-print or python3: the exports of the capture not checked"
	exit 0
fi
pairs=$(sed -n 's/^matched: *\([0-9]*\) send\/recv pairs, \([0-9]*\) multicast receives.*/\1 \2/p' "$T/pvm.info")
[ -n "$pairs" ] || fail "trace-info gave no matched pairs"
# shellcheck disable=SC2086
set -- $pairs
n=$(($1 + $2))
[ "$n" -ge 12 ] || fail "only $n matched pairs for 6 workers"
rc=0; "$PARAVT" export pvm.pvt --otf2 "$T/otf" --chrome "$T/pvm.json" >"$T/exp.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/exp.out"; fail "paravt export pvm.pvt: status $rc"; }
otf2-print "$T/otf/paravt.otf2" >"$T/otf2.txt" 2>&1 || { cat "$T/otf2.txt"; fail "otf2-print failed"; }
os=$(grep -c '^MPI_SEND ' "$T/otf2.txt") or=$(grep -c '^MPI_RECV ' "$T/otf2.txt")
flows=$(python3 - "$T/pvm.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
s = sorted(e["id"] for e in ev if e.get("ph") == "s")
f = sorted(e["id"] for e in ev if e.get("ph") == "f")
print(len(s) if s == f else -1)
PY
) || fail "python3 could not read the Chrome JSON"
[ "$os" = "$n" ] && [ "$or" = "$n" ] && [ "$flows" = "$n" ] ||
	fail "pairs: trace-info $n, otf2-print $os sends / $or receives, JSON $flows arrows"
ok "exports of the capture: $n send/recv pairs for trace-info, otf2-print and the Chrome JSON"
