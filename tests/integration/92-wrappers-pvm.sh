# 92-wrappers-pvm — the PVM wrappers on a private one-host virtual machine.
#
# pvm_master/pvm_worker, pvm_wild and pvm_ring are built twice: plain, and
# with wrappers/paravt_pvm.h forced in (-include, as the instrumenter
# injects it) linked with libparavt_pvm.a + libparavt.a.  The traced runs
# report to ev_sink (tests/wrappers/ev_sink.c): the first task through
# PARAVT_SOCK, the spawned ones through PARAVT_SESSION, which the
# pvm_spawn wrapper exports (PVM_EXPORT), and the session's well-known
# socket /tmp/paravtd-<uid>/session-<id>.sock.  Checked:
#   * stdout of each traced run equals the plain run and expected/*.out;
#   * every task connected (1 + workers) and no record was lost (no gap);
#   * every send_start has its send_end, with a destination, tag and bytes;
#   * every pvm_send is matched by exactly one receive whose recorded
#     source (the ACTUAL source, also for wildcards), tag and byte count
#     are the send's: the two multisets are equal; a pvm_bcast is
#     received once by every other task of the group.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"
. "$TOP/tests/lib/pvm_wrapped.sh"
pvm_wrapped_setup

pvm_sink_socket t

# build_traced PROG...: like pvm_build_host, with the wrappers.
build_traced() {
	for _p in "$@"; do
		# shellcheck disable=SC2086
		pvm_cc_wrapped "$T/bin/LINUX64/$_p" "$TOP/tests/programs/$_p.c" \
			"$T/obj/$_p.traced.log" $PVM_CFLAGS_HARNESS
	done
}

# sink_closed N: the sink has seen N connections close.
sink_closed() { [ "$(grep -c '^close ' "$T/sink.out")" -ge "$1" ]; }

# traced_run NAME SECS NTASKS PROG ARGS: runs PROG under a fresh sink;
# the events are in $T/NAME.ev.
traced_run() {
	_n=$1 _s=$2 _k=$3; shift 3
	"$SINK" -s "$SOCK" -o "$T/sink.out" &
	_sp=$!
	track_pid $_sp
	wait_for 5 test -S "$SOCK" || fail "ev_sink did not listen"
	(export PARAVT_SOCK=$SOCK PARAVT_PROC=1 PARAVT_SESSION=$SID
	 pvm_run "$_n" "$_s" "$@") || { rc=$?; pvm_show "$_n"; fail "traced $1 exited $rc"; }
	wait_for 10 sink_closed "$_k" || { cat "$T/sink.out"; fail "$_n: $_k tasks expected"; }
	kill "$_sp"; wait "$_sp" 2>/dev/null
	cp "$T/sink.out" "$T/$_n.ev"
}

# check_events NAME NTASKS: the event checks above.
check_events() {
	_e=$T/$1.ev
	[ "$(grep -c '^hello ' "$_e")" = "$2" ] || { cat "$_e"; fail "$1: not $2 tasks"; }
	[ "$(grep -c '^hello .* proc=0 ' "$_e")" = $(($2 - 1)) ] ||
		fail "$1: spawned tasks did not come through the session"
	expect_no_grep '^gap ' "$_e" "$1: no record lost"
	ss=$(grep -c 'kind=send_start op=pvm_send ' "$_e")
	se=$(grep -c 'kind=send_end op=pvm_send ' "$_e")
	[ "$ss" = "$se" ] && [ "$ss" -gt 0 ] || fail "$1: $ss send starts, $se ends"
	# tid of every connection (PROG_START's peer), then the sends as
	# "from to tag bytes" and the receives as "from to tag bytes".
	awk '
	/^ev / { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
	/kind=prog_start/ { tid[f["c"]] = f["peer"] }
	/kind=send_end op=pvm_send / { print "S", f["c"], f["peer"], f["tag"], f["bytes"], f["result"] }
	/kind=recv_end op=pvm_(recv|trecv|nrecv|precv) / && f["result"] > 0 && f["peer"] > 0 {
		print "R", f["peer"], f["c"], f["tag"], f["bytes"] }
	END { for (c in tid) print "T", c, tid[c] }' "$_e" >"$T/$1.msgs"
	awk '/kind=mcast_end op=pvm_bcast / { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	     print "M", f["c"], f["tag"], f["bytes"] }' "$_e" >>"$T/$1.msgs"
	# Each receive takes one send of the same (from, to, tag, bytes);
	# receives left over must come from a pvm_bcast of that source, tag
	# and size, NTASKS-1 for each bcast (the group minus the sender).
	awk -v ntasks="$2" '
	$1 == "T" { t[$2] = $3; next }
	{ line[++n] = $0 }
	END {
		for (i = 1; i <= n; i++) { split(line[i], a, " ")
			if (a[1] == "S") { if (a[5] < 0 || a[6] < 0) { print "bad send:", line[i]; bad++ }
			                   s[t[a[2]] " " a[3] " " a[4] " " a[5]]++; ns++ }
			if (a[1] == "M") { m[t[a[2]] " " a[3] " " a[4]]++ } }
		for (i = 1; i <= n; i++) { split(line[i], a, " ")
			if (a[1] != "R") continue
			k = a[2] " " t[a[3]] " " a[4] " " a[5]
			if (s[k] > 0) { s[k]--; continue }
			mk = a[2] " " a[4] " " a[5]
			if (mk in m) { got[mk]++; continue }
			print "receive without a send:", k; bad++ }
		for (k in s) if (s[k] != 0) { print "send without a receive:", k, s[k]; bad++ }
		for (k in m) if (got[k] != m[k] * (ntasks - 1)) { print "bcast", k, "received", got[k] + 0, "times"; bad++ }
		exit bad > 0 }' "$T/$1.msgs" >"$T/$1.match" ||
		{ cat "$T/$1.match"; fail "$1: sends and receives do not match one to one"; }
	echo "$1: $ss sends, each matched by one receive (source, tag, bytes)"
}

pvm_build_host pvm_master pvm_worker pvm_ring pvm_wild
pvm_start_single
pvm_run mw0 60 pvm_master 6 || { pvm_show mw0; fail "plain pvm_master"; }
pvm_run wild0 60 pvm_wild 4 || { pvm_show wild0; fail "plain pvm_wild"; }
pvm_run ring0 60 pvm_ring 4 3 || { pvm_show ring0; fail "plain pvm_ring"; }

build_traced pvm_master pvm_worker pvm_ring pvm_wild
traced_run mw 60 7 pvm_master 6
diff -u "$T/mw0.out" "$T/mw.out" || fail "master/worker: output differs under paravt"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/mw.out" || fail "master/worker: expected"
check_events mw 7
expect_grep 'kind=special_end op=pvm_spawn .* result=1 ' "$T/mw.ev" "spawns recorded"
expect_grep 'kind=recv_end op=pvm_trecv .*file=.*pvm_master.c func=main ' "$T/mw.ev" \
	"master's wildcard trecv recorded with its location"
ok "master/worker traced: same output, events checked"

traced_run wild 60 5 pvm_wild 4
diff -u "$T/wild0.out" "$T/wild.out" || fail "wild: output differs under paravt"
check_events wild 5
expect_grep 'kind=recv_end op=pvm_probe ' "$T/wild.ev" "probes recorded"
expect_grep 'kind=recv_end op=pvm_nrecv ' "$T/wild.ev" "nrecvs recorded"
ok "wildcard receives traced: actual sources recorded"

traced_run ring 60 4 pvm_ring 4 3
diff -u "$T/ring0.out" "$T/ring.out" || fail "ring: output differs under paravt"
check_events ring 4
expect_grep 'kind=group_end op=pvm_barrier ' "$T/ring.ev" "barriers recorded"
expect_grep 'kind=group_end op=pvm_reduce ' "$T/ring.ev" "reduces recorded"
expect_grep 'kind=group_end op=pvm_joingroup ' "$T/ring.ev" "joingroups recorded"
ok "ring traced: groups, barrier, reduce"

pvm_halt
