#!/bin/sh
# 95-hang-computing.sh — the hang watchdog does not call a computing MPI
# rank blocked (issue 11: rank 0 sleeping 7 s before its send made the
# watchdog say "every running process is blocked ... MPI_Recv from t0
# (not traced)").  tests/programs/mpi_slow.c with 2 ranks under
# `paravt trace --hang 3`: status 0, rank 1 prints "got 1", and no
# "no progress" report (rank 0 has sent no event yet: it computes).
. "$(dirname "$0")/../lib/common.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
rc=0
# shellcheck disable=SC2154
setsid -w timeout -k 5 60 "$PARAVT" trace -o slow.pvt --hang 3 --timeout 40 \
	--node "nat=127.0.0.1:$DPORT_nat" "$TOP/tests/programs/mpi_slow.c" -- \
	run mpi -np 2 mpi_slow </dev/null >out 2>&1 || rc=$?
cat out
[ "$rc" = 0 ] || fail "status $rc, not 0"
expect_grep '^\[p[0-9]+ r1\] got 1$' out
expect_no_grep 'no progress|blocked|not traced|from t0' out
ok "a rank computing for 7 s is not reported blocked by --hang 3"
# the ranks as the trace shows them (issue 11: Program "-", "t0", times
# printed "+-0.000428")
"$PARAVT" trace-info slow.pvt >info 2>&1 || { cat info; fail "trace-info"; }
cat info
expect_grep '^  p[0-9]+ +nat +0 +mpi_slow ' info
expect_grep '^  p[0-9]+ +nat +1 +mpi_slow ' info
"$PARAVT" -n -e "open slow.pvt" -e "trace filter kind=all" -e "trace show 100" \
	-e "trace show 100 --measured" -e stats </dev/null >show 2>&1 || { cat show; fail "open"; }
cat show
expect_grep '^\[p[0-9]+ nat\] [-+][0-9.]+ start +rank 0$' show
expect_grep '^p[0-9]+ +nat +0 ' show
expect_no_grep '\+-|tid t0|t0 ' show
ok "trace-info names the ranks' program; ranks are ranks, times signed once"
