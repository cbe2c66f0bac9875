#!/bin/sh
# 17-daemon-pvm-mpi.sh — RUN kind "mpi" on the native daemon (the MPI
# sibling of the PVM runs): tests/programs/mpi_pingpong.c is built by the
# daemon with -DPARAVT_MPI=1 (mpicc, libparavt_mpi.a), run as
# "mpi -np 2"; mpirun is the run's process, both ranks connect through
# the session socket as proc-0 tasks.  Checked: the output, three
# processes announced, events from both ranks with contiguous seqs, every
# MPI send end matched by a receive end count.
. "$(dirname "$0")/../lib/common.sh"
command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
	skip "Open MPI not installed"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
[ -e "$TOP/build/linux-x86_64/lib/libparavt_mpi.a" ] || skip "no libparavt_mpi.a"
export TMPDIR="$T"
unset PARAVT_SESSION PARAVT_SOCK 2>/dev/null || true
start_daemon n1 linux-x86_64
"$WP" "127.0.0.1:$DPORT_n1" --wait-ms 30000 --send SESSION_OPEN:mpi \
	--put "1:mpi_pingpong.c=$TOP/tests/programs/mpi_pingpong.c" \
	--build "1:pp:mpi_pingpong.c:-DPARAVT_MPI=1" --until BUILD_RESULT \
	--run "1:1:mpi:pp::-np 2" --ack --until-n PROC_EXIT:3 \
	--linger-ms 1000 >"$T/out" 2>&1
grep -v '^EV ' "$T/out" >"$T/frames"
expect_grep '^BUILD_RESULT build=1 ok=true' "$T/frames"
expect_grep '^OUTPUT proc=1 stream=1 \[[0-9]+,0\]<stdout>:pingpong: .* OK' "$T/frames" "rank 0's line, tagged by mpirun --tag-output"
expect_grep '^PROC_EXIT proc=1 status=0 ' "$T/frames" "mpirun exited 0"
[ "$(grep -c '^PROC_START run=1 proc=' "$T/frames")" = 3 ] ||
	fail "not 3 processes (mpirun + 2 ranks)"
for p in 2 3; do
	grep -q "^EV proc=$p seq=0 kind=1 " "$T/out" || fail "no PROG_START from rank proc $p"
	awk -v p="$p" '$1 == "EV" && $2 == "proc=" p { split($3, kv, "=")
		if (kv[2] != n) { print "proc", p, "seq", kv[2], "expected", n; exit 1 } n++ }' \
		"$T/out" || fail "proc $p: seqs not contiguous"
done
ss=$(grep -Ec '^EV proc=[23] .* kind=6 op=(66|68) ' "$T/out")
rr=$(grep -Ec '^EV proc=[23] .* kind=8 op=(67|69|70|71) ' "$T/out")
[ "$ss" -gt 0 ] && [ "$ss" = "$rr" ] || fail "$ss MPI send ends, $rr receive ends"
ok "mpi -np 2 under the daemon: both ranks as processes, $ss sends and $rr receives"
