#!/bin/sh
# 85-trace-pvm-ring.sh — the other two PVM programs of the runtime issue,
# traced end to end through the console and a real daemon (which starts
# the session's own pvmd):
#   - pvm_ring: SPMD ring with groups — pvm_joingroup, pvm_barrier, a token
#     passed round the ring, pvm_bcast from instance 0, pvm_reduce,
#     pvm_lvgroup (the group server pvmgs must be found by the session's
#     pvmd);
#   - pvm_wild: wildcard receives (pvm_recv/pvm_nrecv/pvm_trecv from any
#     source and tag).
# Each program's output must equal tests/pvm/expected/*.out (as without
# paravt), every process exits 0, and the events account for every
# message: point-to-point sends plus broadcast deliveries equal receives,
# in count and in bytes.
. "$(dirname "$0")/../lib/common.sh"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs

# $1 program, $2 expected name, $3... run arguments; output in $T/$2.
trace_run() {
	_prog=$1 _exp=$2; shift 2
	# shellcheck disable=SC2154
	"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
		-e "load --pvm $P/$_prog.c" -e "build" \
		-e "run pvm --timeout 90 $_prog $*" -e "info procs" -e "stats" \
		-e "trace filter kind=mcast" -e "trace show 100 --raw" \
		>"$T/$_exp" 2>&1 || { cat "$T/$_exp"; cat "$T/nat.log"; fail "$_prog: console failed"; }
	# the program's stdout: output of p1 without PVM's notes, the
	# program's stderr diagnostics (placement, arrival order: not
	# deterministic), and the output PVM relays from children
	sed -n 's/^\[p1\] //p' "$T/$_exp" | grep -Ev '^(libpvm|placement:|arrival [0-9]|pvm_wild: |\[t[0-9a-f]+\])' \
		>"$T/$_exp.prog"
	diff -u "$TOP/tests/pvm/expected/$_exp.out" "$T/$_exp.prog" ||
		{ cat "$T/$_exp"; fail "$_prog: output differs from expected/$_exp.out"; }
	expect_no_grep '^\[p[0-9]+ (exited with status [1-9]|killed)' "$T/$_exp"
}

# Totals of stats: sends recvs bytes_out bytes_in.
totals() {
	awk '$1 == "total" { print $2, $3, $4, $5 }' "$T/$1"
}

trace_run pvm_ring ring 4 3
cat "$T/ring"
n=$(grep -cE '^[ *] p[0-9]+ +nat +[0-9]+ +t[0-9a-f]+ +exited +status 0' "$T/ring")
[ "$n" -eq 4 ] || fail "ring: $n of 4 instances listed as exited 0 with a tid"
# shellcheck disable=SC2046
set -- $(totals ring)
sends=$1 recvs=$2 bout=$3 bin=$4
# The one pvm_bcast (from instance 0 to the 3 others) records its 3
# destinations (issue 11: stats counted its bytes as received, never as
# sent): each is a send with the broadcast's bytes, so sends and bytes
# out equal receives and bytes in.
nb=$(grep -cE '^\[p[0-9]+ nat\] seq .* mcast +pvm_bcast' "$T/ring")
[ "$nb" -eq 4 ] || fail "ring: $nb broadcast records shown, expected 1 and 3 destinations"
bb=$(sed -n 's/^\[p[0-9]* nat\] seq .* mcast  *pvm_bcast.*  \([0-9][0-9]*\) B .*/\1/p' "$T/ring" | head -1)
[ -n "$bb" ] || fail "ring: no byte count on the broadcast"
[ "$sends" -eq "$recvs" ] || fail "ring: $sends sends (with the 3 broadcast destinations) != $recvs receives"
[ "$bout" -eq "$bin" ] || fail "ring: $bout bytes sent != $bin received (broadcast of $bb B to 3)"
ok "ring: output as without paravt; $sends sends (3 of them the bcast's) = $recvs receives; bytes $bout = $bin"

trace_run pvm_wild wild 4
cat "$T/wild"
n=$(grep -cE '^[ *] p[0-9]+ +nat +[0-9]+ +t[0-9a-f]+ +exited +status 0' "$T/wild")
[ "$n" -eq 5 ] || fail "wild: $n of 5 processes listed as exited 0 with a tid"
# shellcheck disable=SC2046
set -- $(totals wild)
[ "$1" -gt 0 ] && [ "$1" -eq "$2" ] || fail "wild: $1 sends != $2 receives"
[ "$3" -eq "$4" ] || fail "wild: $3 bytes sent != $4 received"
ok "wild: output as without paravt; $1 sends = $2 receives, $3 bytes each way"
