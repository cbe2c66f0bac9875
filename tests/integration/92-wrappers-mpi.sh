# 92-wrappers-mpi — the PMPI wrapper library under Open MPI.
#
# tests/programs/mpi_pingpong.c (Send/Recv with a wildcard, Isend/Irecv +
# Waitall and Wait, Sendrecv, Barrier) and mpi_coll.c (Barrier, Bcast,
# Reduce, Allreduce, Gather, Scatter, Alltoall) run three ways: plain,
# relinked with libparavt_mpi.a + libparavt.a, and plain binary with
# LD_PRELOAD=libparavt_mpi.so.  The traced ranks reach ev_sink through
# PARAVT_SESSION (PARAVT_SESSION_DIR points at our temp dir).  Checked:
# identical stdout; one connection per rank, PROG_START carrying the
# rank; every point-to-point send matched by exactly one receive with the
# actual source, tag and bytes; each collective recorded on every rank
# with the communicator size, root and bytes.  Skipped (77) without mpicc.
. "$(dirname "$0")/../lib/common.sh"

command -v mpicc >/dev/null || skip "mpicc not installed (ports/deps.sh: libopenmpi-dev)"
command -v mpirun >/dev/null || skip "mpirun not installed (openmpi-bin)"
B=$TOP/build/linux-x86_64
SINK=$B/tests/ev_sink
for f in "$SINK" "$B/lib/libparavt_mpi.a" "$B/lib/libparavt_mpi.so"; do
	[ -e "$f" ] || fail "$f not built (make node)"
done
export OMPI_MCA_plm_rsh_agent=false OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
mkdir -p "$T/sess"
export PARAVT_SESSION_DIR=$T/sess
SOCK=$T/sess/session-m$$.sock

for p in mpi_pingpong mpi_coll; do
	mpicc -O1 -o "$T/$p" "$TOP/tests/programs/$p.c" || fail "build $p"
	mpicc -O1 -o "$T/$p.traced" "$TOP/tests/programs/$p.c" \
		"$B/lib/libparavt_mpi.a" "$B/lib/libparavt.a" -lmsgpackc ||
		fail "traced build of $p"
done

# sink_closed N: N connections have closed.
sink_closed() { [ "$(grep -c '^close ' "$T/sink.out")" -ge "$1" ]; }

# traced NAME NP CMD...: runs CMD under mpirun -np NP with a fresh sink;
# stdout in $T/NAME.out, events in $T/NAME.ev.
traced() {
	_n=$1 _np=$2; shift 2
	"$SINK" -s "$SOCK" -o "$T/sink.out" &
	_sp=$!
	track_pid $_sp
	wait_for 5 test -S "$SOCK" || fail "ev_sink did not listen"
	PARAVT_SESSION=m$$ timeout 60 $MPIRUN -x PARAVT_SESSION \
		-x PARAVT_SESSION_DIR -x LD_PRELOAD -np "$_np" "$@" \
		>"$T/$_n.out" 2>"$T/$_n.err" ||
		{ cat "$T/$_n.err"; fail "$_n: mpirun failed"; }
	wait_for 10 sink_closed "$_np" || { cat "$T/sink.out"; fail "$_n: $_np ranks expected"; }
	kill "$_sp"; wait "$_sp" 2>/dev/null
	cp "$T/sink.out" "$T/$_n.ev"
	[ "$(grep -c '^hello ' "$T/$_n.ev")" = "$_np" ] || fail "$_n: not $_np connections"
	expect_no_grep '^gap ' "$T/$_n.ev" "$_n: no record lost"
}

# match NAME: point-to-point sends and receives match one to one.
match() {
	awk '
	/^ev / { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
	/kind=prog_start/ { rank[f["c"]] = f["peer"] }
	/kind=send_end op=MPI_(Send|Isend|Sendrecv) / { s[++ns] = f["c"] " " f["peer"] " " f["tag"] " " f["bytes"] }
	/kind=recv_end op=MPI_(Recv|Irecv|Sendrecv) / { r[++nr] = f["peer"] " " f["c"] " " f["tag"] " " f["bytes"] }
	END {
		for (i = 1; i <= ns; i++) { split(s[i], a, " "); k = rank[a[1]] " " a[2] " " a[3] " " a[4]; cnt[k]++ }
		for (i = 1; i <= nr; i++) { split(r[i], a, " "); k = a[1] " " rank[a[2]] " " a[3] " " a[4]
			if (cnt[k] > 0) cnt[k]--; else { print "receive without send:", k; bad++ } }
		for (k in cnt) if (cnt[k]) { print "send without receive:", k; bad++ }
		print ns, "sends", nr, "receives"
		exit bad > 0 }' "$T/$1.ev" >"$T/$1.match" ||
		{ cat "$T/$1.match"; fail "$1: sends and receives do not match"; }
	cat "$T/$1.match"
}

timeout 60 $MPIRUN -np 2 "$T/mpi_pingpong" 7 >"$T/pp0.out" 2>"$T/pp0.err" ||
	{ cat "$T/pp0.err"; fail "plain mpi_pingpong"; }
expect_grep 'OK$' "$T/pp0.out"
traced pp 2 "$T/mpi_pingpong.traced" 7
diff -u "$T/pp0.out" "$T/pp.out" || fail "pingpong: output differs (relinked)"
match pp
[ "$(grep -c 'kind=send_end op=MPI_Send .*bytes=[1-9]' "$T/pp.ev")" = 16 ] ||
	fail "pingpong: 16 MPI_Send with bytes expected"
expect_grep 'kind=recv_end op=MPI_Irecv .*peer=0 tag=301 bytes=4 .*ref=[1-9]' \
	"$T/pp.ev" "wildcard Irecv completed by MPI_Wait: actual source 0"
expect_grep 'kind=prog_start .*peer=1 ' "$T/pp.ev" "rank 1 announced"
ok "ping-pong relinked: events matched, same output"

LD_PRELOAD=$B/lib/libparavt_mpi.so traced ppl 2 "$T/mpi_pingpong" 7
diff -u "$T/pp0.out" "$T/ppl.out" || fail "pingpong: output differs (LD_PRELOAD)"
match ppl
ok "ping-pong through LD_PRELOAD: events matched, same output"

timeout 60 $MPIRUN -np 4 "$T/mpi_coll" >"$T/co0.out" 2>"$T/co0.err" ||
	{ cat "$T/co0.err"; fail "plain mpi_coll"; }
traced co 4 "$T/mpi_coll.traced"
diff -u "$T/co0.out" "$T/co.out" || fail "coll: output differs"
for op in Barrier Reduce Allreduce Gather Scatter Alltoall; do
	n=$(grep -c "kind=group_end op=MPI_$op .*aux=4 " "$T/co.ev")
	[ "$n" -ge 4 ] || fail "coll: MPI_$op on $n of 4 ranks"
done
[ "$(grep -c 'kind=group_end op=MPI_Bcast .*peer=0 tag=-1 bytes=8 ' "$T/co.ev")" = 4 ] ||
	fail "coll: MPI_Bcast (root 0, 8 bytes) not on every rank"
[ "$(grep -c 'kind=group_end op=MPI_Alltoall .*bytes=16 ' "$T/co.ev")" = 4 ] ||
	fail "coll: MPI_Alltoall bytes"
ok "collectives: every rank, size, root and bytes"
