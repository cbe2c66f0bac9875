#!/bin/sh
# 95-exec-pvmgs.sh — paravt trace --exec of a PVM program that uses groups
# traces the user's tasks only (issue 11: PVM_EXPORT carried LD_PRELOAD of
# libparavt_pvm.so to PVM's group server pvmgs, which was traced and never
# ends, so the run waited for its time limit and exited 3).
# tests/programs/pvm_group_late.c built plainly (gcc -lgpvm3 -lpvm3):
# the master spawns 3 copies, whose first pvm_joingroup makes the pvmd
# start /usr/bin/pvmgs with their PVM_EXPORT (LD_PRELOAD and the session).
# Checks: status 0 well before the time limit (not 3, nor 4 for a hang of
# pvmgs), "OK" printed, trace-info names 4 processes, all
# pvm_group_late, none pvmgs; each has events (the spawned copies are
# traced: LD_PRELOAD still reaches them).
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/bin/pvmgs ] || [ -e /usr/lib/pvm3/lib/pvmgs ] || skip "PVM (pvmgs) is not installed"
command -v gcc >/dev/null || skip "no gcc"
[ -e "$TOP/build/linux-x86_64/lib/libparavt_pvm.so" ] || fail "no libparavt_pvm.so (make)"
export PVM_ALLOW_ROOT=1
unset PVM_EXPORT PVM_VMID 2>/dev/null || true
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
mkdir bin
gcc -o bin/pvm_group_late "$TOP/tests/programs/pvm_group_late.c" -lgpvm3 -lpvm3 || fail "plain build"

t0=$(date +%s)
rc=0
# shellcheck disable=SC2154
timeout -k 5 150 "$PARAVT" trace -o late.pvt --timeout 60 \
	--node "nat=127.0.0.1:$DPORT_nat" --exec "$T/bin/pvm_group_late" -- \
	run pvm 4 </dev/null >out 2>&1 || rc=$?
t1=$(date +%s)
cat out
[ "$rc" = 0 ] || fail "paravt trace --exec: status $rc (3: the time limit)"
[ $((t1 - t0)) -lt 45 ] || fail "took $((t1 - t0)) s"
expect_grep '^\[p1\] OK$' out
ok "--exec with groups: status 0 in $((t1 - t0)) s"

"$PARAVT" trace-info late.pvt >info 2>&1 || { cat info; fail "trace-info"; }
cat info

expect_grep '^processes: +4$' info "pvmgs traced as a process, or a task missing"
[ "$(grep -cE '^ +p[0-9]+ +nat +t[0-9a-f]+ +pvm_group_late ' info)" = 4 ] ||
	fail "not 4 pvm_group_late processes"
expect_no_grep 'pvmgs' info
for p in p1 p2 p3 p4; do
	n=$(sed -n "s/^ *$p  *nat  *t[0-9a-f]*  *pvm_group_late  *\([0-9]*\) .*/\1/p" info)
	[ "${n:-0}" -ge 6 ] || fail "$p: ${n:-no} events"
done
ok "4 pvm_group_late tasks traced (events from each), pvmgs not"
