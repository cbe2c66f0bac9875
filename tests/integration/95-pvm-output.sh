#!/bin/sh
# 95-pvm-output.sh — every line a PVM task writes reaches the console
# once, attributed to the task (issue 11: the output of tasks spawned by
# a spawned task went to the pvmd's log and never reached the console).
# tests/programs/pvm_output.c under `paravt trace`: the master spawns a
# child, the child a grandchild, each writing 5 lines to stdout (one of
# them in two pieces) and one to stderr; then the master catches the
# output of a third task with pvm_catchout, which stays PVM's business.
# Checks: each of the child's and grandchild's 6 lines appears once, all
# under one process number each (not the master's), the half line whole,
# in the order written (one pipe for both streams, as the pvmd gives its
# tasks; stdout line-buffered under paravt, as on a terminal: "out 1"
# before "err 1"); the caught task's lines appear once, printed
# by the master with the task's tid as PVM does; no line is printed twice.
. "$(dirname "$0")/../lib/common.sh"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
rc=0
# shellcheck disable=SC2154
setsid -w timeout -k 5 60 "$PARAVT" trace -o out.pvt --timeout 30 \
	--node "nat=127.0.0.1:$DPORT_nat" "$TOP/tests/programs/pvm_output.c" -- \
	run pvm nat pvm_output </dev/null >out 2>&1 || rc=$?
cat out
[ "$rc" = 0 ] || fail "status $rc"
for who in child grandchild; do
	p=$(sed -n "s/^\[\(p[0-9]*\)\] $who out 1\$/\1/p" out)
	[ -n "$p" ] || fail "no '$who out 1' line"
	[ "$p" != p1 ] || fail "$who's output attributed to the master"
	for l in "err 1" "out 1" "out 2 (half and the rest)" "out 3" "out 4" "out 5"; do
		n=$(grep -cxF "[$p] $who $l" out)
		[ "$n" = 1 ] || fail "'[$p] $who $l' printed $n times"
	done
	e=$(grep -nxF "[$p] $who err 1" out | cut -d: -f1)
	o=$(grep -nxF "[$p] $who out 1" out | cut -d: -f1)
	[ "$o" -lt "$e" ] || fail "$who: 'out 1' (line-buffered) came after 'err 1'"
	ok "$who ($p): 6 lines, once each, in the order written"
done
for l in "err 1" "out 1" "out 2 (half and the rest)" "out 5"; do
	n=$(grep -cE "^\[p1\] \[t[0-9a-f]+\] caught $(printf '%s' "$l" | sed 's/[()]/\\&/g')\$" out)
	[ "$n" = 1 ] || fail "caught task's '$l' printed $n times by the master"
done
expect_no_grep '^\[p[2-9]\] caught ' out
ok "pvm_catchout: the caught task's lines printed once, by the master, with its tid"
dups=$(grep -E '^\[p[0-9]+\] ' out | sort | uniq -d)
[ -z "$dups" ] || fail "lines printed twice: $dups"
ok "no line printed twice"
