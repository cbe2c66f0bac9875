#!/bin/sh
# 86-tracefile.sh — paravt's trace file (paravt-trace(5)) written during a
# real PVM run and read back:
#   - `trace file OUT` before `run pvm pvm_master 6` (real daemon, the
#     session's own pvmd, tests/programs/pvm_master.c + pvm_worker.c);
#   - `paravt trace-info OUT`: version, the node with its arch and clock
#     model, 7 processes, and events/sends/receives equal to the live
#     `stats` totals, matched pairs = sends, the end record;
#   - `paravt -e "open OUT" -e "info procs" -e stats -e "trace show 20"`:
#     the same stats table, trace show lines and trace check (clock
#     models, matched pairs, repairs) as the live run,
#     and info procs lists p1..p7 as exited with their tids;
#   - print n in the opened trace: the values a `record` breakpoint
#     captured in each worker (n = 50 + 13 i);
#   - `trace file` started after the run (late.pvt) writes what the
#     console holds: the same stats, trace show and trace check;
#   - the file cut at 24 byte offsets (inside the header, at record
#     boundaries and at random places): each is read up to its last
#     whole record, with the note "truncated at byte N after R whole
#     records", N <= the cut, the events never more than a longer cut's,
#     the first N bytes alone read as a complete file, and no crash;
#   - a record of an unknown type is skipped and counted;
#   - files with events as arrays, fixed records (format 2) and packed
#     (format 3) read, the same run's events the same in 2 and 3;
#   - garbage, an empty file, a msgpack file that is not a trace and a
#     header of version 4 give exit status 1 and a clear sentence; no
#     argument gives the usage and 2; --help works;
#   - a write error mid-run (file size limit) is reported once, the run
#     goes on, and the part written is read.
. "$(dirname "$0")/../lib/common.sh"
grep -rq '"pvm"' "$TOP"/daemon 2>/dev/null ||
	skip "paravtd has no RUN kind pvm yet"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
OUT=$T/run.pvt
BP=$(grep -n 'pvm_initsend(PvmDataDefault);' "$P/pvm_worker.c" | head -n 1 | cut -d: -f1)
[ -n "$BP" ] || fail "no pvm_initsend line in pvm_worker.c"

# ---- the live run, written to a trace file ---------------------------------
# shellcheck disable=SC2154
"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" \
	-e "break pvm_worker.c:$BP record n,sum" -e "build" \
	-e "trace file $OUT" -e "trace file" -e "run pvm pvm_master 6" \
	-e "stats" -e "trace show 20" -e "trace check" -e "trace file off" \
	-e "trace file $T/late.pvt" \
	>"$T/live" 2>&1 || { cat "$T/live"; cat "$T/nat.log"; fail "console failed"; }
cat "$T/live"
expect_grep "^Writing the trace file $OUT\.$" "$T/live"
expect_grep "^Trace file $OUT closed\.$" "$T/live"
[ -s "$OUT" ] || fail "no trace file written"
ok "trace file written: $(wc -c <"$OUT") bytes"
# shellcheck disable=SC2046
set -- $(grep '^total ' "$T/live")
sends=$2 recvs=$3 events=$7
[ "$sends" -ge 12 ] && [ "$sends" = "$recvs" ] || fail "live stats: $sends sends, $recvs receives"

# ---- paravt trace-info -----------------------------------------------------
"$PARAVT" trace-info "$OUT" >"$T/info" 2>&1 || { cat "$T/info"; fail "trace-info failed on the complete file"; }
cat "$T/info"
expect_grep '^format: +paravt-trace version 4, [0-9]+ bytes, [0-9]+ records$' "$T/info"
expect_grep '^command: +console: pvm_master pvm_worker$' "$T/info"
expect_grep "^  nat +$(uname -m), little-endian, long 8, pointer 8 \[linux-x86_64\]$" "$T/info" "node arch"
expect_grep '^  +clock: offset [-+][0-9.]+ ms, drift ([-+][0-9.]+ ppm|0 \(not fitted: the samples span [0-9.]+ s, 5 s needed\)), error [0-9.]+ ms \([0-9]+ samples\)$' "$T/info" "clock model"
# matched pairs as the live run's analysis found them (trace check)
pairs=$(sed -n 's/^matched pairs: \([0-9]*\), .*/\1/p' "$T/live")
[ -n "$pairs" ] || fail "live trace check printed no matched pairs"
expect_grep "^matched: +$pairs send/recv pairs, " "$T/info" "matched pairs differ from the live trace check ($pairs)"
expect_grep '^time span: +0\.[0-9]{6} s|^time span: +[1-9][0-9]*\.[0-9]{6} s' "$T/info"
expect_grep '^ended: +off, status 0$' "$T/info"
expect_grep '^variables: +12 recorded values of n, sum$' "$T/info"
# the worker units' breakpoint type tables, as the nodes sent them
expect_grep '^types: +[1-9][0-9]* breakpoint type tables$' "$T/info" "no type tables in the file"
expect_no_grep '^note:' "$T/info"
ok "trace-info: $events events, $sends pairs, as the live stats"

# ---- open: browse it as a live run -------------------------------------------
"$PARAVT" -n -e "open $OUT" -e "info procs" -e stats -e "trace show 20" -e "trace check" \
	>"$T/open" 2>&1 || { cat "$T/open"; fail "open failed"; }
cat "$T/open"
expect_grep "^Opened $OUT: $events events of 7 processes on 1 nodes " "$T/open"
for i in 1 2 3 4 5 6 7; do
	expect_grep "^  p$i +nat +- +t[0-9a-f]+ +exited +" "$T/open" "info procs: p$i"
done
# stats and trace show: from the header line of stats on, as live
sed -n '/^Proc /,$p' "$T/live" | grep -Ev '^(Trace file .* closed|Writing the trace file .*)\.$' >"$T/live.tail"
sed -n '/^Proc /,$p' "$T/open" >"$T/open.tail"
diff -u "$T/live.tail" "$T/open.tail" || fail "stats, trace show or trace check of the opened file differ from the live run"
[ "$(grep -c '^\[p' "$T/open.tail")" -ge 10 ] || fail "trace show printed too little"
ok "open: info procs, stats, trace show and trace check as in the live run"
# recorded variables: n of worker i is 50 + 13 i
"$PARAVT" -n -e "open $OUT" -e "print n" >"$T/print" 2>&1 || { cat "$T/print"; fail "print n"; }
cat "$T/print"
expect_grep '^12 recorded variable values \(print NAME shows them\)\.$' "$T/print"
sed -n 's/^p[2-7] pvm_worker\.c:'"$BP"' (breakpoint 1, hit [1-6]): n = \([0-9]*\)$/\1/p' "$T/print" | sort -n | tr '\n' ' ' >"$T/ns"
[ "$(cat "$T/ns")" = "50 63 76 89 102 115 " ] || fail "recorded n: $(cat "$T/ns")"
"$PARAVT" -n -e "open $OUT" -e "print nosuch" >"$T/print2" 2>&1 && fail "print nosuch succeeded"
expect_grep 'the trace recorded no value of nosuch \(recorded: n, sum\)' "$T/print2"
ok "print of recorded variables in the opened trace"

# a trace file started after the run holds the same: late.pvt
"$PARAVT" -n -e "open $T/late.pvt" -e stats -e "trace show 20" -e "trace check" \
	>"$T/late" 2>&1 || { cat "$T/late"; fail "open late.pvt"; }
sed -n '/^Proc /,$p' "$T/late" >"$T/late.tail"
diff -u "$T/live.tail" "$T/late.tail" || fail "a trace file started after the run differs"
"$PARAVT" trace-info "$T/late.pvt" >"$T/late.info" 2>&1 || fail "trace-info late.pvt"
expect_grep '^ended: +console exit, status 0$' "$T/late.info"
expect_grep '^  p1 +nat +t[0-9a-f]+ +pvm_master +[0-9]+ +[0-9]+ +[0-9]+ +0  exited status 0$' "$T/late.info" "late.pvt: the master's end"
ok "trace file started after the run: the same stats, events and analysis"

# ---- truncation ------------------------------------------------------------
size=$(wc -c <"$OUT")
# offsets: inside the header, just after it, and 18 spread at random
awk -v n="$size" -v seed="$$" 'BEGIN {
	srand(seed); print 1; print 7; print 14; print 20; print 40; print 60
	for (i = 0; i < 18; i++) print 61 + int(rand() * (n - 62))
}' | sort -n -u >"$T/offsets"
prev_ev=-1
while read -r off; do
	head -c "$off" "$OUT" >"$T/cut"
	timeout 20 "$PARAVT" trace-info "$T/cut" >"$T/cut.out" 2>&1
	rc=$?
	case $rc in
	0)
		n=$(sed -n 's/^note: *truncated at byte \([0-9]*\) after [0-9]* whole records$/\1/p' "$T/cut.out")
		if [ -z "$n" ]; then
			# no note: the cut fell between two records
			expect_no_grep '^note:' "$T/cut.out" "cut at $off: a note other than truncation"
			n=$off
		fi
		[ "$n" -le "$off" ] || fail "cut at $off: read up to byte $n"
		ev=$(sed -n 's/^events: *\([0-9]*\) .*/\1/p' "$T/cut.out")
		[ "$ev" -ge "$prev_ev" ] || fail "cut at $off: $ev events, fewer than a shorter cut ($prev_ev)"
		prev_ev=$ev
		head -c "$n" "$OUT" >"$T/whole"
		"$PARAVT" trace-info "$T/whole" >"$T/whole.out" 2>&1 ||
			fail "the first $n bytes (whole records) are not readable"
		expect_no_grep '^note:' "$T/whole.out" "the first $n bytes are not whole records"
		echo "  cut at $off: read up to byte $n, $ev events" ;;
	1)
		expect_grep "truncated at byte 0 after 0 whole records: not even the header is whole" "$T/cut.out"
		echo "  cut at $off: inside the header" ;;
	*)
		cat "$T/cut.out"; fail "cut at $off: trace-info exit status $rc" ;;
	esac
done <"$T/offsets"
[ "$prev_ev" -gt 0 ] || fail "no cut file had events"
ok "$(wc -l <"$T/offsets") cut files read up to their last whole record"

# ---- a record of a later writer ------------------------------------------------
# ["future", 1] appended: skipped and counted, everything else read
{ cat "$OUT"; printf '\222\246future\001'; } >"$T/future.pvt"
"$PARAVT" trace-info "$T/future.pvt" >"$T/future" 2>&1 || { cat "$T/future"; fail "trace-info with an unknown record"; }
expect_grep "^events: +$events \(" "$T/future"
expect_grep '^skipped: +1 records \(unknown or malformed\)$' "$T/future"
expect_no_grep '^note:' "$T/future"
ok "an unknown record type is skipped"

# ---- older formats ----------------------------------------------------------
# The same MPI ping-pong (tests/programs/mpi_pingpong.c, -np 2, N=1)
# written by the paravt of format 2 (fixed 72-byte records), of format 3
# (packed events, each against the one before) and of format 4 (packed,
# by kind): the same events, sends and receives; events as arrays of
# integers (format 1's form, tests/tools/gentrace) read too.
S=$TOP/tests/fuzz/seeds-tfile
for f in mpi.pvtrace mpi-packed.pvtrace mpi-kinds.pvtrace; do
	"$PARAVT" trace-info "$S/$f" >"$T/$f.info" 2>&1 || { cat "$T/$f.info"; fail "trace-info $f"; }
	sed -n 's/^events: *\([0-9]* ([0-9]* sends, [0-9]* receives\).*/\1/p' "$T/$f.info" >"$T/$f.ev"
done
expect_grep 'paravt-trace version 2,' "$T/mpi.pvtrace.info" "the format 2 seed"
expect_grep 'paravt-trace version 3,' "$T/mpi-packed.pvtrace.info" "the format 3 seed"
expect_grep 'paravt-trace version 4,' "$T/mpi-kinds.pvtrace.info" "the format 4 seed"
[ "$(cat "$T/mpi.pvtrace.ev")" = "56 (8 sends, 8 receives" ] &&
	cmp -s "$T/mpi.pvtrace.ev" "$T/mpi-packed.pvtrace.ev" &&
	cmp -s "$T/mpi.pvtrace.ev" "$T/mpi-kinds.pvtrace.ev" ||
	fail "formats 2, 3 and 4 of one run differ: $(cat "$T/mpi.pvtrace.ev") / $(cat "$T/mpi-packed.pvtrace.ev") / $(cat "$T/mpi-kinds.pvtrace.ev")"
"$PARAVT" trace-info "$S/v1-arrays.pvtrace" >"$T/v1.info" 2>&1 || { cat "$T/v1.info"; fail "trace-info of format 1"; }
expect_grep '^events: +[1-9]' "$T/v1.info" "events as arrays"
ok "arrays, fixed records and packed events read: $(cat "$T/mpi.pvtrace.ev")) in formats 2, 3 and 4"

# ---- unreadable files --------------------------------------------------------
bad() { # bad FILE PATTERN WHAT
	"$PARAVT" trace-info "$1" >"$T/bad.out" 2>&1
	rc=$?
	[ $rc = 1 ] || { cat "$T/bad.out"; fail "$3: exit status $rc, not 1"; }
	expect_grep "$2" "$T/bad.out" "$3"
	"$PARAVT" -n -e "open $1" >"$T/bad.open" 2>&1 && fail "open of $3 succeeded"
	expect_grep "$2" "$T/bad.open" "open of $3"
	ok "$3: $(head -n 1 "$T/bad.out")"
}
head -c 4096 /dev/urandom >"$T/garbage"
bad "$T/garbage" "is not a paravt trace file" "random bytes"
: >"$T/empty"
bad "$T/empty" "is empty, not a paravt trace file" "an empty file"
printf '\223\001\002\003' >"$T/other"
bad "$T/other" "is not a paravt trace file" "msgpack that is not a trace"
# the version is the byte after the fixarray and the 13-byte magic string
{ head -c 14 "$OUT"; printf '\005'; tail -c +16 "$OUT"; } >"$T/v5"
bad "$T/v5" "is a paravt trace of format version 5; this paravt reads versions 1 to 4" "version 5"
bad "$T/nonexistent" "No such file or directory" "a missing file"
"$PARAVT" trace-info >"$T/usage" 2>&1
[ $? = 2 ] || fail "trace-info without a file: not exit status 2"
expect_grep '^usage: paravt trace-info' "$T/usage"
"$PARAVT" trace-info --help >"$T/help" 2>&1 || fail "trace-info --help"
expect_grep 'paravt-trace\(5\)' "$T/help"
ok "usage and --help"

# ---- a write error mid-run (file size limit: EFBIG, like a full disk) -------
# The console's file size limit is 3072 bytes (ulimit -f counts 512-byte
# blocks in sh), about half of the run's trace: the error is reported
# once, the run goes on to the same stats, and the part written is read.
# (The console's output goes through a pipe: the limit is on files.)
(
	ulimit -f 6
	"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
		-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" -e "build" \
		-e "trace file $T/full.pvt" -e "run pvm pvm_master 6" -e "stats" \
		-e "trace file"
	echo $? >"$T/full.rc"
) 2>&1 | cat >"$T/full"
[ "$(cat "$T/full.rc")" = 0 ] || { cat "$T/full"; fail "console failed with a write error"; }
cat "$T/full"
[ "$(grep -c "^\[trace file $T/full.pvt: write failed (File too large); it ends here, the run goes on\]$" "$T/full")" = 1 ] ||
	fail "the write error is not reported exactly once"
expect_grep '^No trace file is being written\.$' "$T/full"
# shellcheck disable=SC2046
set -- $(grep '^total ' "$T/full")
[ "$2" = "$sends" ] && [ "$3" = "$recvs" ] || fail "the run after the write error: $2 sends, $3 receives"
[ "$(wc -c <"$T/full.pvt")" -eq 3072 ] || fail "full.pvt is not 3072 bytes"
"$PARAVT" trace-info "$T/full.pvt" >"$T/full.info" 2>&1 || { cat "$T/full.info"; fail "trace-info of the cut file"; }
# the limit falls inside a record, or (by the records' sizes, which vary
# from run to run: times, a process's wait for a CPU) between two
if ! grep -Eq '^note: +truncated at byte [0-9]+ after [0-9]+ whole records$' "$T/full.info"; then
	expect_grep '^format: +paravt-trace version [0-9]+, 3072 bytes, [0-9]+ records$' "$T/full.info"
	expect_no_grep '^note:' "$T/full.info" "a note other than truncation"
fi
expect_grep '^events: +[1-9][0-9]* ' "$T/full.info" "no event read from the part written"
ok "write error: reported once, the run went on, the part written is readable"
