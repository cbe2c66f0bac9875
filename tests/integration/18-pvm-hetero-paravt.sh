#!/bin/sh
# 18-pvm-hetero-paravt.sh — a traced PVM program on two hosts under paravt:
# namespace A (10.231.7.1) runs the native paravtd, namespace B
# (10.231.7.2) the s390x paravtd under qemu-s390x, both --allow-remote on
# their veth address; the console runs in A and adds both nodes:
#   load --pvm pvm_master.c pvm_worker.c; build; run pvm a pvm_master 6
# The console sends A one PVM_HOST for node b; A's daemon starts its pvmd
# with -n10.231.7.1 and a hostfile naming 10.231.7.2, and its PVM_RSH
# helper (paravtd --pvm-rsh) asks b's daemon (REXEC) to start the s390x
# pvmd.  Checked:
#   - the master's output is tests/pvm/expected/master.out exactly;
#   - info procs: the master and 6 workers, workers on both nodes;
#   - stats: total sends == receives and bytes out == bytes in;
#   - every process's events arrived: seqs contiguous from 0 (trace dump
#     of the console's store, per node and process);
#   - afterwards no pvmd and no qemu of the run is left (both daemons
#     still up), then the namespaces are removed;
#   - the helper cannot make b's daemon run anything but a pvmd.
# Exit 77 only if namespaces (or the s390x toolchain) are unavailable.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"
pvm_need_s390x
[ -e "$TOP/build/linux-s390x-qemu/lib/libparavt_pvm.a" ] || fail "no s390x libparavt_pvm.a (make nodes)"
export TMPDIR="$T"
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true

# The namespaces (pvm-cluster.sh's exit hook kills what runs in them and
# deletes them).
pvm_netns_pair

# The two daemons (pvm-cluster.sh).
pvm_daemon_pair

P=$TOP/tests/programs
cd "$T" || fail "cd $T"
console_run() {
	ip netns exec "$PVM_NS_A" timeout -k 5 170 "$PARAVT" -n \
		-e "node add a $PVM_ADDR_A:$PA" -e "node add b $PVM_ADDR_B:$PB" \
		-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" -e "build" \
		-e "trace on" -e "run pvm a --timeout 60 pvm_master 6" \
		-e "info procs" -e "stats" -e "trace dump" \
		>"$T/out" 2>&1 || { cat "$T/out" "$T/a.log" "$T/b.log"; fail "console failed"; }
}
console_run
# The s390x pvmd runs with errno kept across its signal handlers: without
# it, a SIGCHLD at the wrong moment under qemu stopped host b now and then
# (pvml: "work() select: No child processes"), and the master then waited
# in pvm_exit for a child whose end nobody reported.
expect_grep 'REXEC [0-9]+: host pvmd pid [0-9]+ .*: qemu-s390x .* -E LD_PRELOAD=[^ ]*/linux-s390x-qemu/lib/libparavt_sigerrno\.so [^ ]*/usr/bin/pvmd ' \
	"$T/b.log" "b's pvmd started with libparavt_sigerrno.so"
ok "b's emulated pvmd keeps errno across its signal handlers"
grep -v '^event ' "$T/out"
for n in a b; do
	expect_grep "^build of pvm_master on $n: ok$" "$T/out"
	expect_grep "^build of pvm_worker on $n: ok$" "$T/out"
done
ok "pvm_master and pvm_worker built on a (x86_64) and b (s390x)"

sed -n 's/^\[p1\] //p' "$T/out" | grep -E '^(worker [0-9]|total:|OK|FAILED)' >"$T/master.out"
diff -u "$TOP/tests/pvm/expected/master.out" "$T/master.out" ||
	{ cat "$T/a.log" "$T/b.log"; fail "master output differs"; }
ok "master output as without paravt"

# info procs: p1 (master) .. p7, each with a tid; workers on both nodes.
for i in 1 2 3 4 5 6 7; do
	expect_grep "^[ *] p$i +[ab] +[0-9]+ +t[0-9a-f]+ +exited +" "$T/out" "p$i missing or without a tid"
done
expect_no_grep '^[ *] p8 ' "$T/out"
expect_grep '^[ *] p1 +a ' "$T/out" "the master on a"
na=$(grep -cE '^[ *] p[2-7] +a ' "$T/out")
nb=$(grep -cE '^[ *] p[2-7] +b ' "$T/out")
{ [ "$na" -ge 1 ] && [ "$nb" -ge 1 ]; } || { cat "$T/a.log" "$T/b.log"; fail "workers: $na on a, $nb on b"; }
ok "info procs: master on a, workers on a ($na) and on b ($nb, s390x), all with tids"

tot=$(grep '^total ' "$T/out")
# shellcheck disable=SC2086
set -- $tot
{ [ "$2" -gt 0 ] && [ "$2" = "$3" ]; } || fail "sends ($2) != receives ($3)"
{ [ "$4" -gt 0 ] && [ "$4" = "$5" ]; } || fail "bytes out ($4) != bytes in ($5)"
[ "$2" -ge 12 ] || fail "only $2 sends for 6 workers"
[ "$(grep -cE '^p[0-9]+ +[ab] +t' "$T/out")" -eq 7 ] || fail "stats rows"
ok "stats: $2 sends, $3 receives, $4 bytes each way"

# Every process's events arrived: seqs contiguous from 0 per process
# (trace dump: "event NODE PROC SEQ KIND"), PROG_START (kind 1) first.
awk '$1 == "event" { k = $2 " " $3; if ($4 != n[k]) { print "node", $2,
		"proc", $3, "seq", $4, "expected", n[k] + 0; bad++ } n[k] = $4 + 1 }
     END { for (k in n) c++; print c, "processes"; exit bad > 0 || c != 7 }' \
	"$T/out" >"$T/seqs" || { cat "$T/seqs"; fail "events missing or not 7 processes"; }
grep -q '^event b ' "$T/out" || fail "no events from node b"
expect_no_grep 'lost' "$T/out" "events lost"
ok "events of all 7 processes (of both nodes) arrived, seqs contiguous, none lost"

# Nothing of the virtual machine is left: no pvmd, no qemu but daemon b.
wait_for 15 grep -q 'pvmd [0-9]* halted' "$T/a.log" || { cat "$T/a.log"; fail "a's pvmd not halted"; }
wait_for 15 grep -q 'host pvmd [0-9]* ended' "$T/b.log" || { cat "$T/b.log"; fail "b's pvmd did not end"; }
left() {
	for n in $PVM_NS_A $PVM_NS_B; do
		for p in $(ip netns pids "$n" 2>/dev/null); do
			c=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)
			case $c in *paravtd\ --listen*|*paravtd\ --pvm-rsh*|"") ;; *) echo "$p: $c" ;; esac
		done
	done
}
wait_for 15 test -z "$(left)" || fail "processes left: $(left)"
ok "pvmds halted on both hosts, nothing left but the daemons"

# REXEC runs nothing but a pvmd: the helper asking b for a shell is refused.
printf 'token-file %s\nsession 1-1\nrun 9\nhost %s %s:%s 1\n' "$HOME/.paravt/token" \
	"$PVM_ADDR_B" "$PVM_ADDR_B" "$PB" >"$T/rsh.conf"
rc=0
PARAVT_RSH_CONF=$T/rsh.conf ip netns exec "$PVM_NS_A" timeout 20 "$DA" --pvm-rsh \
	"$PVM_ADDR_B" -n /bin/sh -c "touch $T/pwned" >"$T/rsh.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "the helper's REXEC of /bin/sh succeeded"
expect_grep 'only a pvmd or Open MPI.s orted is started this way, not /bin/sh' "$T/rsh.out" "REXEC of a shell refused"
[ ! -e "$T/pwned" ] || fail "b ran the shell"
ok "REXEC of anything but a pvmd or orted refused ($(cat "$T/rsh.out"))"
# b is an emulated (s390x) node: MPI runs on native ports only.
rc=0
PARAVT_RSH_CONF=$T/rsh.conf ip netns exec "$PVM_NS_A" timeout 20 "$DA" --pvm-rsh \
	"$PVM_ADDR_B" orted -mca ess '"env"' >"$T/rsh2.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "an orted started on the s390x node"
expect_grep 'REXEC: MPI runs on native ports only \(this daemon is linux-s390x-qemu\)' "$T/rsh2.out"
ok "REXEC of orted on an emulated node refused ($(cat "$T/rsh2.out"))"
