#!/bin/sh
# 95-output-streams.sh — the console makes the lines of a process's
# stdout and of its stderr apart: a piece of a line on one stream is never
# joined to the other stream's text (issue 11: pvm-examples' mbox printed
# "libpvm [t40001]: " on stderr, then a line on stdout, and the console
# showed "libpvm [t40001]: No Message at Index=0").
# tests/programs/out_streams.c writes crossing pieces (each one write,
# 150 ms apart) through `paravt trace`, and as a PVM master.
# Checks: exactly the 5 lines written, each once and whole; stdout's in
# order; the last stderr piece without a newline shown at the end as its
# own line.
. "$(dirname "$0")/../lib/common.sh"
export TMPDIR="$T"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"

check() { # check FILE P: the lines of process P in FILE
	sed -n "s/^\[$2\] //p" "$1" >"$1.lines"
	cat "$1.lines"
	printf '%s\n' "err A: half and the rest" "err B: no newline at the end" \
		"out 1" "out 2: half and the rest" "out 3" | sort >"$1.want"
	sort "$1.lines" | diff -u "$1.want" - || fail "$1: the lines differ"
	[ "$(grep -n '^out' "$1.lines" | cut -d: -f2- | tr '\n' '|')" = \
		"out 1|out 2: half and the rest|out 3|" ] || fail "$1: stdout's lines out of order"
}

rc=0
timeout -k 5 120 "$PARAVT" trace -o "$T/s.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
	"$TOP/tests/programs/out_streams.c" -- run </dev/null >"$T/plain" 2>&1 || rc=$?
cat "$T/plain"
[ "$rc" = 0 ] || fail "paravt trace: status $rc"
check "$T/plain" p1
ok "plain program: 5 lines, each whole, none joined across streams"

if [ -e /usr/lib/pvm3 ]; then
	export PVM_ALLOW_ROOT=1
	rc=0
	timeout -k 5 120 "$PARAVT" trace -o "$T/p.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
		--pvm "$TOP/tests/programs/out_streams.c" -- run pvm out_streams </dev/null >"$T/pvm" 2>&1 || rc=$?
	cat "$T/pvm"
	[ "$rc" = 0 ] || fail "paravt trace (pvm): status $rc"
	check "$T/pvm" p1
	ok "PVM master: the same"
fi
