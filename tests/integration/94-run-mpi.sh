#!/bin/sh
# 94-run-mpi.sh — run mpi with mpirun's options, rank 0's standard input,
# each rank's output as its own, a program name that is not the build's,
# --exec of programs built elsewhere (issue 11), on one native daemon:
#   (a) "run mpi -np 2 OTHERPROG" and "run pvm other" are errors naming
#       the programs built; nothing starts;
#   (b) "run mpi --map-by slot --bind-to none -x MPI_STDIN_TAG=hello
#       --mca btl self,vader,tcp -np 3 mpi_stdin < numbers": every rank
#       prints the file's count and sum (rank 0 read it, then EOF) and
#       the -x value; each line is attributed to the process whose Tid is
#       its rank ("[pN rR] rank R of 3 ..."); mpirun's refused options
#       (--host, --mca plm_rsh_agent, --output-filename, an unknown one,
#       no -np, -np 0) fail with their reason and start nothing;
#   (c) PARAVT_TRACE=off in the console's environment reaches every rank:
#       no rank connects (no events, only mpirun listed) and the ranks'
#       lines still carry their rank ("[p1 r2] ...");
#   (d) a breakpoint every rank reaches: run returns as soon as all three
#       are stopped (mpirun, still running, is not waited for), well
#       within its --timeout; continue all ends them with status 0;
#   (e) --exec: mpi_stdin built with mpicc alone runs through LD_PRELOAD
#       of libparavt_mpi.so, traced (sends = receives = 3, events without
#       source files); a plain program by --exec reads its < FILE; a path
#       that is not there is refused; run pvm --exec runs a PVM program
#       through libparavt_pvm.so when the node has it, else says it is
#       missing; paravt trace --exec PATH --stdin FILE -- run mpi -np 2:
#       status 0, the trace holds both ranks' events;
#   (f) Open MPI's own files go to the run's directory in memory
#       (dmn_mpidir.c), in a private memory directory
#       (PARAVT_RING_MEMFS): the run of (b) removes the directory a
#       daemon that no longer runs left there (its pid namespace, its
#       dead pid, changed 5 minutes ago), keeps those of a running
#       process and of another namespace, logs what it removed, and its
#       own directory is gone once mpirun has ended.
. "$(dirname "$0")/../lib/common.sh"
command -v mpicc >/dev/null && command -v mpirun >/dev/null || skip "no Open MPI"
command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -e "$TOP/build/linux-x86_64/lib/libparavt_mpi.so" ] || skip "no libparavt_mpi.so"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export TMPDIR="$T"
MEM=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then # (f)
	MEMFS=$(mktemp -d /dev/shm/paravt-test.XXXXXX) || fail "mktemp in /dev/shm"
	on_exit "rm -rf '$MEMFS'"
	MEM=$MEMFS/paravt-$(id -u)
	mkdir -m 700 "$MEM" || fail "mkdir $MEM"
	NS=$(readlink /proc/self/ns/pid | sed 's/[^0-9]//g')
	sh -c 'exit 0' &
	dead=$!
	wait $dead
	for d in "mpi-$NS-$dead-7" "mpi-$NS-$$-7" "mpi-1$NS-$dead-7"; do
		mkdir -p "$MEM/$d/ompi.x/pid.1" &&
			echo x >"$MEM/$d/ompi.x/pid.1/contact.txt" &&
			touch -d '5 minutes ago' "$MEM/$d" || fail "making $MEM/$d"
	done
fi
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR PARAVT_TRACE 2>/dev/null || true
# the daemon's alone: a console that has it sends it with RUN, refused
[ -n "$MEM" ] && export PARAVT_RING_MEMFS="$MEMFS"
start_daemon nat linux-x86_64
unset PARAVT_RING_MEMFS
P=$TOP/tests/programs
cd "$T" || fail "cd $T"
printf '3 4\n12\n' >numbers
printf '1\n2\n3\n' >values
con() { # con OUT COMMAND...: the console with node nat and the commands
	_o=$1; shift
	_a="-n -e 'node add nat 127.0.0.1:$DPORT_nat' -e 'load $P/mpi_stdin.c' -e build"
	for _c in "$@"; do _a="$_a -e '$_c'"; done
	eval "timeout -k 5 120 \"\$PARAVT\" $_a" >"$T/$_o" 2>&1
}

# ---- (a) not the program built -----------------------------------------
con other "run mpi -np 2 OTHERPROG" "run pvm other" "info procs" &&
	fail "a program that was not built ran"
cat "$T/other"
expect_grep "run mpi: 'OTHERPROG' is not the program built \(build 1 made: mpi_stdin\); load and build it first, or run an existing program with --exec PATH" "$T/other"
expect_grep "run pvm: 'other' is not the program built \(build 1 made: mpi_stdin\)" "$T/other"
expect_grep '^No processes\.$' "$T/other" "something started"
ok "a program name that is not the build's is an error, nothing starts"

# ---- (b) options, stdin, attribution -----------------------------------
con opts "run mpi --map-by slot --bind-to none -x MPI_STDIN_TAG=hello --mca btl self,vader,tcp -np 3 mpi_stdin < numbers" \
	"info procs" || { cat "$T/opts" "$T/nat.log"; fail "console failed"; }
cat "$T/opts"
for r in 0 1 2; do
	ring=$((r == 0 ? 6 : 3 + r * (r + 1) / 2))
	line=$(grep -E "^\[p[0-9]+ r$r\] rank $r of 3: count 3 sum 19 ring $ring tag hello$" "$T/opts") ||
		fail "rank $r: no line with the file's numbers and the -x value"
	p=$(echo "$line" | sed 's/^\[\(p[0-9]*\) .*/\1/')
	grep -Eq "^[ *] $p +nat +[0-9]+ +$r +exited +status 0$" "$T/opts" ||
		fail "rank $r's line is attributed to $p, whose Tid is not $r"
done
[ "$(grep -c '^\[p[0-9]* exited with status 0\]$' "$T/opts")" = 4 ] ||
	fail "not mpirun and 3 ranks exiting 0"
ok "mpirun options passed (-x reached every rank), rank 0 read the file, each line is its rank's"

# ---- (f) the run's directory in memory -----------------------------------
if [ -n "$MEM" ]; then
	[ ! -e "$MEM/mpi-$NS-$dead-7" ] || fail "a dead daemon's MPI directory was not removed"
	[ -e "$MEM/mpi-$NS-$$-7" ] || fail "the MPI directory of a running process was removed"
	[ -e "$MEM/mpi-1$NS-$dead-7" ] || fail "another pid namespace's MPI directory was removed"
	expect_grep "MPI runs: removed 1 directory of 2 bytes from $MEM: their daemons ended" "$T/nat.log"
	wait_for 10 sh -c "! ls -d '$MEM'/mpi-$NS-$DPID_nat-* >/dev/null 2>&1" ||
		fail "the run's directory is left: $(ls "$MEM")"
	ok "an MPI run removes a dead daemon's directory in memory (only), and its own when mpirun ends"
fi

for bad in "--host a,b|paravt makes the hostfile" \
	"--mca plm_rsh_agent /bin/sh|paravt sets it" \
	"--output-filename /tmp/o|each rank.s output as its own" \
	"--frobnicate|is not on paravt.s list" "-n 0|-np needs a number from 1 to 9999" \
	"-x 1BAD|takes VAR or VAR=VALUE"; do
	opt=${bad%%|*} why=${bad#*|}
	con bad "run mpi $opt -np 2 mpi_stdin" "info procs" && fail "run mpi $opt accepted"
	expect_grep "run mpi: .*$why" "$T/bad" "run mpi $opt: reason"
	expect_grep '^No processes\.$' "$T/bad" "run mpi $opt: something started"
done
con nonp "run mpi mpi_stdin" && fail "run mpi without -np accepted"
expect_grep 'usage: run mpi .*-np N' "$T/nonp"
ok "refused mpirun options say why and start nothing"

# ---- (c) PARAVT_TRACE reaches every rank ---------------------------------
PARAVT_TRACE=off con off "run mpi -np 3 mpi_stdin < numbers" "stats" "info procs" ||
	{ cat "$T/off"; fail "console failed"; }
cat "$T/off"
expect_grep '^No events\.$' "$T/off" "a rank traced although PARAVT_TRACE=off"
[ "$(grep -c '^[ *] p[0-9]' "$T/off")" = 1 ] || fail "ranks connected although PARAVT_TRACE=off"
for r in 0 1 2; do
	expect_grep "^\[p1 r$r\] rank $r of 3: count 3 sum 19" "$T/off" "rank $r's line without its process"
done
ok "PARAVT_TRACE=off of the console reached all 3 ranks (none traced); lines still carry their rank"

# ---- (d) mpirun is not waited for while every rank is stopped ------------
L=$(grep -n 'printf("rank %d of %d' "$P/mpi_stdin.c" | cut -d: -f1)
t0=$(date +%s)
timeout -k 5 120 "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "load $P/mpi_stdin.c" -e "set stop-mode one" \
	-e "break mpi_stdin.c:$L" -e build \
	-e "run mpi --timeout 40 -np 3 mpi_stdin < numbers" -e "info procs" \
	-e "continue all --timeout 40" >"$T/stop" 2>&1 || { cat "$T/stop"; fail "console failed"; }
t1=$(date +%s)
cat "$T/stop"
[ "$(grep -c 'stopped at breakpoint 1' "$T/stop")" -ge 3 ] || fail "not all 3 ranks stopped"
expect_no_grep 'still running after' "$T/stop" "run waited out its timeout (mpirun counted as running)"
[ "$(grep -c '^[ *] p[0-9]* .* stopped ' "$T/stop")" = 3 ] || fail "info procs: not 3 stopped ranks"
[ $((t1 - t0)) -lt 35 ] || fail "took $((t1 - t0)) s: run or continue waited for mpirun"
[ "$(grep -c '^\[p[0-9]* exited with status 0\]$' "$T/stop")" = 4 ] || fail "continue all did not end the run"
ok "run returned with every rank stopped (mpirun running), continue ended all, $((t1 - t0)) s in all"

# ---- (e) --exec -----------------------------------------------------------
mpicc -o "$T/mpi_stdin_bin" "$P/mpi_stdin.c" || fail "mpicc"
cc -o "$T/norm_bin" "$P/stdin_norm.c" -lm || fail "cc"
cc -o "$T/prompt_bin" "$P/pvm_prompt.c" -lpvm3 || fail "cc pvm"
timeout -k 5 120 "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "run mpi -np 3 --exec $T/mpi_stdin_bin < numbers" -e "stats" \
	-e "trace filter kind=send,recv" -e "trace show 20" \
	-e "run --exec $T/norm_bin < numbers" >"$T/exec" 2>&1 || { cat "$T/exec"; fail "console failed"; }
cat "$T/exec"
for r in 0 1 2; do
	expect_grep "^\[p[0-9]+ r$r\] rank $r of 3: count 3 sum 19" "$T/exec"
done
expect_grep '^total +3 +3 +12 +12 ' "$T/exec" "an --exec MPI program is not traced (sends, receives, bytes)"
expect_grep '^\[p[0-9]+ n[a-z]*\] \+[0-9.]+ send ' "$T/exec" "no send events"
expect_no_grep 'mpi_stdin\.c:[0-9]' "$T/exec" "events of a program built elsewhere name a source line"
expect_grep '^\[p[0-9]+\] read 3 numbers, norm 13\.000$' "$T/exec" "plain --exec with < FILE"
ok "run mpi --exec traced through LD_PRELOAD (3 sends, 3 receives); plain --exec read its file"

timeout 60 "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "run --exec $T/not-there" >"$T/nothere" 2>&1
expect_grep "--exec $T/not-there: no such executable file on node nat" "$T/nothere"
ok "--exec of a missing file is refused"

timeout -k 5 120 "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "run pvm --timeout 60 --exec $T/prompt_bin < values" -e "stats" >"$T/pvmexec" 2>&1
cat "$T/pvmexec"
if [ -e "$TOP/build/linux-x86_64/lib/libparavt_pvm.so" ]; then
	expect_grep '^\[p1\] values 3 sum of squares 14$' "$T/pvmexec"
	expect_grep '^total +[1-9]' "$T/pvmexec" "the PVM program was not traced"
	ok "run pvm --exec traced through libparavt_pvm.so"
else
	expect_grep 'libparavt_pvm\.so is missing on node nat' "$T/pvmexec"
	echo "note: no libparavt_pvm.so yet: run pvm --exec only says so"
fi

rc=0
timeout -k 5 120 "$PARAVT" trace -o "$T/exec.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
	--exec "$T/mpi_stdin_bin" --stdin numbers -- run mpi -np 2 </dev/null >"$T/tr" 2>&1 || rc=$?
cat "$T/tr"
[ "$rc" = 0 ] || fail "paravt trace --exec: status $rc"
"$PARAVT" trace-info "$T/exec.pvt" >"$T/info" 2>&1 || { cat "$T/info"; fail "trace-info"; }
cat "$T/info"
expect_grep '^processes: +2$' "$T/info"
expect_grep 'matched: +2 send/recv pairs' "$T/info"
ok "paravt trace --exec --stdin: status 0, both ranks' events in the trace"
