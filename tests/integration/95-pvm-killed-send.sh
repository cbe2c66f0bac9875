#!/bin/sh
# 95-pvm-killed-send.sh — a task killed inside a send whose message was
# received: its events survive, it is reported killed by SIGTERM, and the
# receive is matched (issue 11: pvm-examples' timing left 1 unmatched
# receive when pvm_kill came while timing_slave was still in pvm_send).
# tests/programs/pvm_killed_send.c (the child pauses inside its pvm_send
# after libpvm3 sent the message; the master receives it, then kills it)
# through paravt trace; and the plain build through --exec, where the
# dynamic linker binds the program's own pvm_send and the preloaded
# wrapper so that the wrapper's send completes before the pause (the
# receive is matched by a completed send; the same checks hold).
# Checks: the master's lines and status 0 (paravt trace's: 1, a process
# was killed); the child "killed by signal SIGTERM" (not -1), in
# trace-info "killed SIGTERM"; trace-info and trace check: 1 pair,
# unmatched 0 sends 0 receives.
. "$(dirname "$0")/../lib/common.sh"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"
export PVM_ALLOW_ROOT=1
unset PVM_EXPORT PVM_VMID 2>/dev/null || true
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"

check() { # check NAME: the run's output NAME, its trace NAME.pvt
	cat "$1"
	expect_grep '^\[p1\] got 42$' "$1"
	expect_grep '^\[p1\] killed$' "$1"
	expect_grep '^\[p1 exited with status 0\]$' "$1"
	expect_grep '^\[p2 killed by signal SIGTERM' "$1"
	"$PARAVT" trace-info "$1.pvt" >"$1.info" 2>&1 || { cat "$1.info"; fail "trace-info"; }
	cat "$1.info"
	expect_grep '^ +p2 +nat +t[0-9a-f]+ +pvm_killed_send .* killed SIGTERM$' "$1.info"
	expect_grep 'matched: +1 send/recv pairs, .*unmatched 0 sends, 0 receives' "$1.info"
	"$PARAVT" -n -e "open $1.pvt" -e "trace check" -e "stats" >"$1.chk" 2>&1 ||
		{ cat "$1.chk"; fail "trace check"; }
	cat "$1.chk"
	expect_grep '^unmatched: 0 sends, 0 receives$' "$1.chk"
	expect_grep '^matched pairs: 1,' "$1.chk"
}

rc=0
timeout -k 5 150 "$PARAVT" trace -o built.pvt --timeout 60 \
	--node "nat=127.0.0.1:$DPORT_nat" "$TOP/tests/programs/pvm_killed_send.c" -- \
	run pvm pvm_killed_send </dev/null >built 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat built; fail "paravt trace: status $rc, not 1 (a process was killed)"; }
check built
ok "built through paravt: killed in its send, the receive matched, SIGTERM"

mkdir bin
gcc -o bin/pvm_killed_send "$TOP/tests/programs/pvm_killed_send.c" -lpvm3 || fail "plain build"
rc=0
timeout -k 5 150 "$PARAVT" trace -o exec.pvt --timeout 60 \
	--node "nat=127.0.0.1:$DPORT_nat" --exec "$T/bin/pvm_killed_send" -- \
	run pvm </dev/null >exec 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat exec; fail "paravt trace --exec: status $rc, not 1"; }
check exec
ok "--exec of the plain build: the same"
