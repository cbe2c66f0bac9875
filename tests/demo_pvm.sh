#!/bin/sh
# tests/demo_pvm.sh — part two of `make demo`: a real PVM program on a
# native x86_64 node and an s390x node (qemu-user), each in its own
# network namespace with its own paravtd.  The master runs on the native
# node; the virtual machine's other host is the s390x node, whose pvmd its
# own daemon starts.  Six workers stop at a breakpoint (in
# tests/programs/pvm_worker.c, before each sends its result), their
# variables are printed from both architectures at once, the workers on
# the s390x node step one statement (`[@b] next`, no rebuild) and print
# again, then they continue and the traced messages are shown in the global order (clock
# models, compensation), with the figures, a trace file, an HTML report
# and a Perfetto export.  `run` returns once the workers are stopped and
# the master has been blocked in its receive for 2 s (--timeout is only
# the upper bound).
# Needs root (network namespaces); everything is removed at the end.
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

say() { printf '\n== %s\n' "$*"; }
[ "$(id -u)" = 0 ] || skip "the PVM part of the demo needs root (network namespaces)"
pvm_need_s390x
export TMPDIR="$T"
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true

pvm_netns_pair
A=$PVM_ADDR_A B=$PVM_ADDR_B

say "two hosts: $A (x86_64, namespace $PVM_NS_A) and $B (s390x under qemu, namespace $PVM_NS_B)"
ip netns exec "$PVM_NS_A" "$TOP/build/linux-x86_64/bin/paravtd" \
	--listen "$A:0" --allow-remote --port-file "$T/a.port" --name a \
	--log "$T/a.log" 2>/dev/null &
track_pid $!
# shellcheck disable=SC2046
ip netns exec "$PVM_NS_B" $(port_prefix linux-s390x-qemu) \
	"$TOP/build/linux-s390x-qemu/bin/paravtd" --listen "$B:0" --allow-remote \
	--port-file "$T/b.port" --name b --log "$T/b.log" 2>/dev/null &
track_pid $!
wait_for 20 test -s "$T/a.port" || fail "daemon a did not start"
wait_for 30 test -s "$T/b.port" || fail "daemon b did not start"

BP=$(grep -n 'pvm_initsend(PvmDataDefault);' "$TOP/tests/programs/pvm_worker.c" | head -n 1 | cut -d: -f1)
cp "$TOP/tests/programs/pvm_master.c" "$TOP/tests/programs/pvm_worker.c" "$T/"
cd "$T" || exit 1
cat >"$T/pvm.pvt" <<EOS
# paravt batch script: a PVM master/worker program on two architectures
node add a $A:$(cat "$T/a.port")
node add b $B:$(cat "$T/b.port")
node list
set stop-mode one
load --pvm pvm_master.c pvm_worker.c
break pvm_worker.c:$BP
build
trace file demo.pvtrace
run pvm a --timeout 15 pvm_master 6
info procs
print -all n
print -all sum
print -all dsum
print -all out
print -all arch
[@b] next
[@b] print -all dsum / n
continue all --timeout 90
stats
trace check
info efficiency
info matrix
trace filter kind=send,recv
trace show 12
report -o report.html
trace export chrome demo.json
trace file off
EOS
say "console script (pvm.pvt):"
sed 's/^/  /' "$T/pvm.pvt"
say "paravt -n -x pvm.pvt"
ip netns exec "$PVM_NS_A" "$PARAVT" -n -x "$T/pvm.pvt"
rc=$?
say "console exit status: $rc"
if [ "$rc" = 0 ]; then
	say "paravt trace-info demo.pvtrace"
	"$PARAVT" trace-info "$T/demo.pvtrace" || rc=1
	say "report.html: $(wc -c <"$T/report.html") bytes, $(grep -o 'class="msg"' "$T/report.html" | wc -l) message arrows; demo.json: $(wc -c <"$T/demo.json") bytes"
fi
say "stopping the daemons and removing the namespaces"
exit $rc
