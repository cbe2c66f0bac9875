# 92-wrappers-mpi-calls — every MPI call libparavt_mpi wraps, checked
# against what the program did.
#
# tests/programs/mpi_calls.c runs on 4 ranks and calls each wrapped
# function (every send mode, nonblocking and persistent requests with
# every Wait/Test form, probes and matched probes, MPI_PROC_NULL, every
# blocking, nonblocking and neighbourhood collective, every communicator
# creation: dup, idup, split, split_type, create, create_group,
# intercommunicators and their merge, Cartesian and graph topologies),
# printing after each call the event it must have recorded: kind, op,
# peer (world rank), tag, bytes and the communicator by name.  It runs
# plainly and relinked with libparavt_mpi.a, then through LD_PRELOAD; the
# ranks report to ev_sink.  tests/tools/evcheck.py then checks every
# expectation in order, that each communicator name is one id on every
# rank and different names are different ids, and that every request's
# END closes a START with its id.  Last, MPI_Abort on one rank: the job
# ends as plainly, and the rank's MPI_Abort record reached the sink.
# Skipped (77) without mpicc or python3.
. "$(dirname "$0")/../lib/common.sh"

command -v mpicc >/dev/null || skip "mpicc not installed (ports/deps.sh: libopenmpi-dev)"
command -v python3 >/dev/null || skip "python3 not installed"
B=$TOP/build/linux-x86_64
SINK=$B/tests/ev_sink
for f in "$SINK" "$B/lib/libparavt_mpi.a" "$B/lib/libparavt_mpi.so"; do
	[ -e "$f" ] || fail "$f not built (make node)"
done
export OMPI_MCA_plm_rsh_agent=false OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
mkdir -p "$T/sess"
export PARAVT_SESSION_DIR=$T/sess
SOCK=$T/sess/session-c$$.sock

P=$TOP/tests/programs/mpi_calls.c
mpicc -O1 -o "$T/plain" "$P" || fail "build mpi_calls"
mpicc -O1 -o "$T/traced" "$P" "$B/lib/libparavt_mpi.a" "$B/lib/libparavt.a" \
	-lmsgpackc || fail "relinked build of mpi_calls"

# sink_closed N: the sink has seen N connections close.
sink_closed() { [ "$(grep -c '^close ' "$T/sink.out")" -ge "$1" ]; }

# traced NAME PROG ARGS...: 4 ranks report to a fresh sink; events in
# $T/NAME.ev, output in $T/NAME.out, exit status in $T/NAME.rc.
traced() {
	_n=$1; shift
	"$SINK" -s "$SOCK" -o "$T/sink.out" &
	_sp=$!
	track_pid $_sp
	wait_for 5 test -S "$SOCK" || fail "ev_sink did not listen"
	PARAVT_SESSION=c$$ MPI_CALLS_X=$T/$_n.x timeout 120 $MPIRUN \
		-x PARAVT_SESSION -x PARAVT_SESSION_DIR -x LD_PRELOAD \
		-x MPI_CALLS_X -np 4 "$@" \
		>"$T/$_n.out" 2>"$T/$_n.err"
	echo $? >"$T/$_n.rc"
	wait_for 10 sink_closed 4 || { cat "$T/sink.out" | tail -5; fail "$_n: 4 ranks expected"; }
	kill "$_sp"; wait "$_sp" 2>/dev/null
	cp "$T/sink.out" "$T/$_n.ev"
	expect_no_grep '^gap ' "$T/$_n.ev" "$_n: no record lost"
}

timeout 120 $MPIRUN -np 4 "$T/plain" >"$T/plain.out" 2>"$T/plain.err" ||
	{ cat "$T/plain.err"; fail "plain mpi_calls"; }
expect_grep '^mpi_calls done$' "$T/plain.out"

traced rel "$T/traced"
[ "$(cat "$T/rel.rc")" = 0 ] || { cat "$T/rel.err"; fail "relinked mpi_calls exited $(cat "$T/rel.rc")"; }
expect_grep '^mpi_calls done$' "$T/rel.out"
python3 "$TOP/tests/tools/evcheck.py" "$T/rel.ev" "$T"/rel.x.* >"$T/rel.chk" ||
	{ cat "$T/rel.chk"; fail "relinked: events differ from the calls"; }
cat "$T/rel.chk"
n=$(sed -n 's/^\([0-9]*\) expectations.*/\1/p' "$T/rel.chk")
[ "${n:-0}" -gt 500 ] || fail "only ${n:-0} expectations checked"
ok "relinked: every call's events as the program did them"

LD_PRELOAD=$B/lib/libparavt_mpi.so traced pre "$T/plain"
[ "$(cat "$T/pre.rc")" = 0 ] || { cat "$T/pre.err"; fail "preloaded mpi_calls exited $(cat "$T/pre.rc")"; }
python3 "$TOP/tests/tools/evcheck.py" "$T/pre.ev" "$T"/pre.x.* >"$T/pre.chk" ||
	{ cat "$T/pre.chk"; fail "LD_PRELOAD: events differ from the calls"; }
ok "LD_PRELOAD: $(tail -1 "$T/pre.chk")"

timeout 60 $MPIRUN -np 4 "$T/plain" abort >"$T/ab0.out" 2>"$T/ab0.err"
rc0=$?
traced ab "$T/traced" abort
[ "$(cat "$T/ab.rc")" = "$rc0" ] || fail "MPI_Abort: exit $(cat "$T/ab.rc") traced, $rc0 plainly"
[ "$rc0" != 0 ] || fail "MPI_Abort: the plain job exited 0"
expect_grep 'kind=special_end op=MPI_Abort .*aux=3 ' "$T/ab.ev" "MPI_Abort recorded with its code"
ok "MPI_Abort: exit $rc0 as plainly, recorded before the job ended"
