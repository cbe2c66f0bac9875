#!/bin/sh
# 95-pvm-parent-first.sh — a PVM master whose first PVM call is
# pvm_parent() (the SPMD idiom; it never calls pvm_mytid) has its tid in
# the trace: trace-info shows it, and the 3 messages its spawned copy
# sends it are all matched (before, the master's tid was unknown and
# every message to it stayed unmatched).
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
start_daemon n1 linux-x86_64
cd "$T" || fail "cd $T"
# shellcheck disable=SC2154
"$PARAVT" trace -o pf.pvt --node "n1=127.0.0.1:$DPORT_n1" --pvm \
	"$TOP/tests/programs/pvm_parent_first.c" -- run pvm pvm_parent_first \
	>out.txt 2>&1 || { cat out.txt; fail "paravt trace"; }
expect_grep '^\[p1\] got 3$' out.txt
"$PARAVT" trace-info pf.pvt >info.txt 2>&1 || { cat info.txt; fail "trace-info"; }
cat info.txt
expect_grep '^  p1 +n1 +t[0-9a-f]+ +pvm_parent_first ' info.txt "the master's tid is not known"
expect_grep '^matched: +3 send/recv pairs.*unmatched 0 sends, 0 receives' info.txt
ok "a master that starts with pvm_parent: tid known, 3 of 3 messages matched"
