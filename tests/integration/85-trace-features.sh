#!/bin/sh
# 85-trace-features.sh — programs that define a feature-test macro
# before their first header (#define _GNU_SOURCE, then CPU_ZERO and
# sched_getaffinity, which glibc declares only with it) build and run
# under paravt as they do plainly: no header paravt puts in front of the
# source (the runtime's, the PVM or MPI wrappers' through -include) may
# fix the library's features before the program's macro does.
#   tests/programs/pvm_gnu.c: traced with paravt trace --pvm;
#   tests/programs/mpi_gnu.c: traced with paravt trace --mpi, 2 ranks.
# Checked: each builds, prints what it prints plainly, and its PVM / MPI
# calls are in the trace with their source lines.
. "$(dirname "$0")/../lib/common.sh"
command -v pvmd >/dev/null || [ -x /usr/lib/pvm3/lib/pvmd ] || skip "PVM is not installed"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
NODE="nat=127.0.0.1:$DPORT_nat"

# The plain runs' output, for comparison (the PVM task's CPUs are this
# shell's: nproc; mpirun binds each rank to its own).
cc -Wall -Werror -o "$T/pvm_gnu" "$P/pvm_gnu.c" -lpvm3 || fail "plain build of pvm_gnu"
mpicc -Wall -Werror -o "$T/mpi_gnu" "$P/mpi_gnu.c" || fail "plain build of mpi_gnu"
mpirun --allow-run-as-root -np 2 "$T/mpi_gnu" >"$T/mpi.plain" 2>&1 ||
	{ cat "$T/mpi.plain"; fail "plain mpi_gnu"; }
grep -q '^rank 1: [1-9][0-9]* cpus$' "$T/mpi.plain" || fail "plain mpi_gnu printed no CPU count"

# shellcheck disable=SC2154
"$PARAVT" trace -o "$T/pvm.pvtrace" --node "$NODE" --timeout 60 \
	--pvm "$P/pvm_gnu.c" -- run pvm pvm_gnu >"$T/pvm.out" 2>&1 ||
	{ cat "$T/pvm.out"; cat "$T/nat.log"; fail "paravt trace of pvm_gnu"; }
cat "$T/pvm.out"
expect_no_grep 'implicit declaration|warning' "$T/pvm.out"
expect_grep "^\[p1\] tid ok, $(nproc) cpus$" "$T/pvm.out" "pvm_gnu's output differs from the plain run's"
"$PARAVT" -n -e "open $T/pvm.pvtrace" -e "trace show 100" >"$T/pvm.show" 2>&1 ||
	{ cat "$T/pvm.show"; fail "trace show of pvm_gnu"; }
expect_grep 'mytid .*pvm_gnu\.c:[0-9]+ main$' "$T/pvm.show" "no pvm_mytid event with its line"
ok "PVM program with _GNU_SOURCE first: built, ran as plainly, traced"

"$PARAVT" trace -o "$T/mpi.pvtrace" --node "$NODE" --timeout 60 \
	--mpi "$P/mpi_gnu.c" -- run mpi -np 2 mpi_gnu >"$T/mpi.out" 2>&1 ||
	{ cat "$T/mpi.out"; cat "$T/nat.log"; fail "paravt trace of mpi_gnu"; }
cat "$T/mpi.out"
expect_no_grep 'implicit declaration|warning' "$T/mpi.out"
sed -n 's/^\[p[0-9]* r0\] //p' "$T/mpi.out" >"$T/mpi.traced"
diff -u "$T/mpi.plain" "$T/mpi.traced" || fail "mpi_gnu's output differs from the plain run's"
"$PARAVT" -n -e "open $T/mpi.pvtrace" -e "trace filter kind=send,recv" \
	-e "trace show 100" >"$T/mpi.show" 2>&1 || { cat "$T/mpi.show"; fail "trace show of mpi_gnu"; }
expect_grep 'send +-> rank 0 tag 5 .*mpi_gnu\.c:[0-9]+ main$' "$T/mpi.show" "no send with its line"
expect_grep 'recv +<- rank 1 tag 5 .*mpi_gnu\.c:[0-9]+ main$' "$T/mpi.show" "no receive with its line"
ok "MPI program with _GNU_SOURCE first: built, ran as plainly, traced"
