# 92-wrappers-pvm-calls — the PVM calls paravt traces, checked against
# what the program did.
#
# tests/programs/pvm_calls.c (a master and two copies of itself it
# spawns) calls every traced PVM function: sends (send, psend), every
# receive (recv, nrecv, trecv with a wildcard, precv, probe), pvm_mcast
# with its destinations and pvm_bcast, the group calls (joingroup,
# lvgroup, barrier, reduce, gather, scatter) and queries (gettid,
# getinst, gsize), a message context of its own (newcontext,
# setcontext), the mailbox (putinfo, recvinfo, getmboxinfo, delinfo),
# sendsig, notify, kill, spawn, parent, mytid, the virtual machine's
# queries (config, tasks, pstat, mstat, hostsync, siblings) and message
# handlers (recvf, addmhf, delmhf).  After each it writes the event it
# must have recorded (peer tid, tag, bytes, context by name).  It runs
# plainly, then built with the wrappers (paravt_pvm.h forced in) and
# then plainly built through LD_PRELOAD=libparavt_pvm.so, on a private
# one-host virtual machine; the tasks report to ev_sink;
# tests/tools/evcheck.py checks every expectation in order, that a
# context name is one value on every task and different names differ.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

. "$TOP/tests/lib/pvm_wrapped.sh"
command -v python3 >/dev/null || skip "python3 not installed"
pvm_wrapped_setup "$TOP/build/linux-x86_64/lib/libparavt_pvm.so"
pvm_sink_socket c

# sink_closed N: the sink has seen N connections close.
sink_closed() { [ "$(grep -c '^close ' "$T/sink.out")" -ge "$1" ]; }

# run NAME [ENV...]: runs pvm_calls under a fresh sink with PVM_CALLS_X
# pointing at $T/NAME.x; events in $T/NAME.ev.
run() {
	_n=$1; shift
	"$SINK" -s "$SOCK" -o "$T/sink.out" &
	_sp=$!
	track_pid $_sp
	wait_for 5 test -S "$SOCK" || fail "ev_sink did not listen"
	(export PARAVT_SOCK=$SOCK PARAVT_PROC=1 PARAVT_SESSION=$SID \
		PVM_CALLS_X=$T/$_n.x PVM_EXPORT=PVM_CALLS_X "$@"
	 pvm_run "$_n" 60 pvm_calls) || { rc=$?; pvm_show "$_n"; fail "$_n: exited $rc"; }
	wait_for 10 sink_closed 3 || { tail -5 "$T/sink.out"; fail "$_n: 3 tasks expected"; }
	kill "$_sp"; wait "$_sp" 2>/dev/null
	cp "$T/sink.out" "$T/$_n.ev"
	expect_no_grep '^gap ' "$T/$_n.ev" "$_n: no record lost"
	expect_grep '^pvm_calls done$' "$T/$_n.out"
	python3 "$TOP/tests/tools/evcheck.py" "$T/$_n.ev" "$T/$_n.x".* \
		>"$T/$_n.chk" || { cat "$T/$_n.chk"; fail "$_n: events differ from the calls"; }
	cat "$T/$_n.chk"
}

pvm_build_host pvm_calls
cp "$T/bin/LINUX64/pvm_calls" "$T/plain"
pvm_start_single
PVM_CALLS_X=$T/p0.x PVM_EXPORT=PVM_CALLS_X pvm_run p0 60 pvm_calls ||
	{ pvm_show p0; fail "plain pvm_calls"; }
expect_grep '^pvm_calls done$' "$T/p0.out"

# shellcheck disable=SC2086
pvm_cc_wrapped "$T/bin/LINUX64/pvm_calls" "$TOP/tests/programs/pvm_calls.c" \
	"$T/obj/traced.log" $PVM_CFLAGS_HARNESS
run built
n=$(sed -n 's/^\([0-9]*\) expectations.*/\1/p' "$T/built.chk")
[ "${n:-0}" -gt 60 ] || fail "only ${n:-0} expectations checked"
ok "built with the wrappers: every call's events as the program did them"

cp "$T/plain" "$T/bin/LINUX64/pvm_calls"
run preloaded LD_PRELOAD=$B/lib/libparavt_pvm.so
ok "plain binary through LD_PRELOAD=libparavt_pvm.so: $(tail -1 "$T/preloaded.chk")"
