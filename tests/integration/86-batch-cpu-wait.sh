#!/bin/sh
# 86-batch-cpu-wait.sh — a process's wait for a CPU, told by its exit:
# the runtime puts how long the main thread waited for a CPU while it
# could run (Linux's /proc/self/schedstat) into its PROG_EXIT record, and
# paravt shows it, since no compensation can take that time out.
#   (a) tests/programs/cpu_burn.c (300 ms of CPU) traced with another
#       process spinning on the same CPU (the daemon, and so the program,
#       pinned to CPU 0 with the spinner): `paravt trace` ends with a note
#       naming p1 and its share, at least 20% (the two share the CPU:
#       about half), and `info efficiency` has the line "cpu ... p1 X ms
#       (Y% of its run)" with the same share;
#   (b) the same without the spinner: the line is there too (the number
#       is whatever else ran on the CPU meanwhile);
#   (c) a trace written before exits carried it (a format-2 seed) has no
#       such line.
. "$(dirname "$0")/../lib/common.sh"
[ -r /proc/self/schedstat ] || skip "no /proc/self/schedstat (not Linux, or no schedstats)"
command -v taskset >/dev/null || skip "no taskset"
start_daemon nat linux-x86_64
taskset -p -c 0 "$DPID_nat" >/dev/null || fail "cannot pin the daemon to CPU 0"
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/cpu_burn.c" .

# trace NAME: cpu_burn traced into NAME.pvt, paravt's output in NAME.out,
# info efficiency in NAME.eff.
trace() {
	setsid -w timeout -k 5 60 "$PARAVT" trace -o "$1.pvt" \
		--node "nat=127.0.0.1:$DPORT_nat" cpu_burn.c -- run \
		</dev/null >"$1.out" 2>&1 || { cat "$1.out"; fail "$1: paravt trace exited $?"; }
	expect_grep '^\[p1\] burnt' "$1.out" "$1: the program's output"
	"$PARAVT" -n -e "open $1.pvt" -e "info efficiency" >"$1.eff" 2>&1 ||
		{ cat "$1.eff"; fail "$1: info efficiency"; }
}

# share FILE: Y of the "cpu ... p1 X ms (Y% of its run[; paravt's Z ms])"
# line of FILE.
share() {
	sed -n 's/^cpu .*p1 [0-9.]* ms (\([0-9.]*\)% of its run[;)].*/\1/p' "$1"
}

# ---- (a) beside a spinner on the same CPU -----------------------------------
taskset -c 0 sh -c 'while :; do :; done' &
spin=$!
track_pid $spin
trace busy
kill $spin
cat busy.out
y=$(share busy.eff)
[ -n "$y" ] || { cat busy.eff; fail "(a): no cpu line in info efficiency"; }
awk -v y="$y" 'BEGIN { exit !(y >= 20) }' || { cat busy.eff; fail "(a): p1 waited $y% of its run, not 20% or more"; }
expect_grep "^paravt trace: note: p1 waited for a CPU for [0-9]+% of its run while it could run" busy.out "(a): the note"
n=$(sed -n 's/^paravt trace: note: p1 waited for a CPU for \([0-9]*\)%.*/\1/p' busy.out)
awk -v y="$y" -v n="$n" 'BEGIN { d = y - n; exit !(d > -1 && d < 1) }' ||
	fail "(a): the note says $n%, info efficiency $y%"
ok "(a) beside a spinner: p1 waited $y% of its run for a CPU; the note and info efficiency say so"

# ---- (b) alone ----------------------------------------------------------------
trace alone
y=$(share alone.eff)
[ -n "$y" ] || { cat alone.eff; fail "(b): no cpu line in info efficiency"; }
ok "(b) alone: p1 waited $y% of its run ($(sed -n 's/^cpu .*p1 \([0-9.]*\) ms.*/\1/p' alone.eff) ms)"

# ---- (c) an older trace -----------------------------------------------------------
"$PARAVT" -n -e "open $TOP/tests/fuzz/seeds-tfile/mpi.pvtrace" -e "info efficiency" >old.eff 2>&1 ||
	{ cat old.eff; fail "(c): info efficiency"; }
expect_grep '^job ' old.eff "(c): the table"
expect_no_grep '^cpu ' old.eff "(c): a cpu line"
ok "(c) a format-2 trace: no cpu line"
