#!/bin/sh
# 94-mpi-two-nodes.sh — one MPI job across two nodes (issue 11): two
# native paravtd in two network namespaces, A (10.231.7.1) and B
# (10.231.7.2), the console in A:
#   load mpi_stdin.c (detected as MPI); build (on both);
#   run mpi --mca btl tcp,self -np 4 mpi_stdin < numbers
# A's daemon writes mpirun's hostfile of both nodes and points Open MPI's
# rsh agent at paravtd --pvm-rsh, which has B's daemon start orted
# (REXEC): no ssh between the nodes.  Checked: ranks run on both nodes;
# rank 0 read the file; every rank's line is attributed to the process
# whose Tid is its rank; stats match 4 sends with 4 receives; B ran its
# own build (its log: orted with PATH at B's build directory); then the
# same with --exec of one mpicc-built binary; afterwards nothing of the
# jobs is left in B but its daemon.
# (--mca btl tcp,self: namespaces of one machine share /dev/shm and the
# host name, so Open MPI's shared-memory transport would mix the two
# "hosts"; separate machines do not need it.  It also shows an mpirun
# option passing through.)
# Exit 77 only if namespaces or Open MPI are unavailable.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"
command -v mpicc >/dev/null && command -v mpirun >/dev/null &&
	command -v orted >/dev/null || skip "no Open MPI (mpicc, mpirun, orted)"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"
export TMPDIR="$T"
unset PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR PARAVT_TRACE 2>/dev/null || true
pvm_netns_pair

# Two native daemons, one per namespace (one after the other: the first
# makes the token file).
D=$TOP/build/linux-x86_64/bin/paravtd
ip netns exec "$PVM_NS_A" "$D" --listen "$PVM_ADDR_A:0" --allow-remote \
	--port-file "$T/a.port" --name a --log "$T/a.log" 2>"$T/a.err" &
track_pid $!
wait_for 20 test -s "$T/a.port" || { cat "$T/a.err" "$T/a.log"; fail "daemon a did not start"; }
ip netns exec "$PVM_NS_B" "$D" --listen "$PVM_ADDR_B:0" --allow-remote \
	--port-file "$T/b.port" --name b --log "$T/b.log" 2>"$T/b.err" &
track_pid $!
wait_for 20 test -s "$T/b.port" || { cat "$T/b.err" "$T/b.log"; fail "daemon b did not start"; }
PA=$(cat "$T/a.port") PB=$(cat "$T/b.port")

P=$TOP/tests/programs
cd "$T" || fail "cd $T"
printf '3 4\n12\n' >numbers
mpicc -o "$T/mpi_stdin_bin" "$P/mpi_stdin.c" || fail "mpicc"
ip netns exec "$PVM_NS_A" timeout -k 5 150 "$PARAVT" -n \
	-e "node add a $PVM_ADDR_A:$PA" -e "node add b $PVM_ADDR_B:$PB" \
	-e "load $P/mpi_stdin.c" -e "build" \
	-e "run mpi --timeout 60 --mca btl tcp,self -np 4 mpi_stdin < numbers" \
	-e "info procs" -e "stats" \
	-e "run mpi --timeout 60 --mca btl tcp,self -np 2 --exec $T/mpi_stdin_bin < numbers" \
	-e "info procs" -e "stats" \
	>"$T/out" 2>&1 || { cat "$T/out" "$T/a.log" "$T/b.log"; fail "console failed"; }
cat "$T/out"
expect_grep '^mpi_stdin\.c: MPI program \(includes mpi\.h\)$' "$T/out"
expect_grep '^build on a: ok$' "$T/out"
expect_grep '^build on b: ok$' "$T/out"

# The first run: the part of the output before the second run's start.
sed -n '1,/^total /p' "$T/out" >"$T/run1"
for r in 0 1 2 3; do
	ring=$((r == 0 ? 9 : 3 + r * (r + 1) / 2))
	line=$(grep -E "^\[p[0-9]+ r$r\] rank $r of 4: count 3 sum 19 ring $ring$" "$T/run1") ||
		fail "rank $r: no line with the file's count and sum"
	p=$(echo "$line" | sed 's/^\[\(p[0-9]*\) .*/\1/')
	grep -Eq "^[ *] $p +[ab] +[0-9]+ +$r +exited +status 0$" "$T/run1" ||
		fail "rank $r's line is attributed to $p, whose Tid is not $r"
done
na=$(grep -Ec '^[ *] p[0-9]+ +a +[0-9]+ +[0-3] +exited' "$T/run1")
nb=$(grep -Ec '^[ *] p[0-9]+ +b +[0-9]+ +[0-3] +exited' "$T/run1")
[ "$na" -ge 1 ] && [ "$nb" -ge 1 ] && [ $((na + nb)) = 4 ] ||
	fail "ranks on a: $na, on b: $nb (want 4, on both)"
expect_grep '^total +4 +4 +16 +16 ' "$T/run1" "sends and receives of the ring do not match"
ok "one MPI job on two nodes: $na ranks on a, $nb on b; rank 0 read the file; 4 sends = 4 receives"

expect_grep 'REXEC [0-9]+: host orted pid [0-9]+ for session [0-9-]+ run [0-9]+ \(PATH /.*/b1\)' "$T/b.log" \
	"b's orted was not started through its daemon with b's own build"
expect_no_grep 'REXEC refused' "$T/b.log"
ok "b's daemon started orted (REXEC), which found b's own build: $(grep -m1 'host orted' "$T/b.log" | sed 's/.*(PATH/(PATH/')"

# The second run: after the first stats.
sed -n '/^total /,$p' "$T/out" | sed '1d' >"$T/run2"
for r in 0 1; do
	line=$(grep -E "^\[p[0-9]+ r$r\] rank $r of 2: count 3 sum 19 ring 4$" "$T/run2") ||
		fail "--exec: rank $r's line"
	p=$(echo "$line" | sed 's/^\[\(p[0-9]*\) .*/\1/')
	# stats counts both runs; this rank's own row: 1 send, 1 receive
	grep -Eq "^$p +[ab] +$r +1 +1 +4 +4 " "$T/run2" ||
		fail "--exec: rank $r ($p) not traced (stats)"
done
expect_grep '^[ *] p[0-9]+ +b +[0-9]+ +[01] +exited +status 0$' "$T/run2" "--exec: no rank on b"
ok "run mpi --exec spans both nodes too, traced through LD_PRELOAD"

# Nothing of the jobs is left in B but its daemon (orted and ranks gone).
left() { ip netns pids "$PVM_NS_B" | while read -r p; do
	tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null; echo; done | grep -v paravtd | grep -c .; }
wait_for 15 test "$(left)" = 0 || { ip netns pids "$PVM_NS_B" | xargs -r ps -o pid,args -p; fail "processes left in B"; }
ok "no orted or rank left in B"
