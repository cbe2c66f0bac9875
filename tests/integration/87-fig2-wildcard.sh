#!/bin/sh
# 87-fig2-wildcard.sh — ParJava's figure 2 (issue 5), with a real PVM run
# on one native node: p1 takes the messages of p2 and p3 with wildcard
# receives; p2 makes 2000 cheap PVM calls (each a probe) before it sends,
# p3 only sleeps 30 ms (tests/programs/cmp_fig2.c).
#   heavy probes (PARAVT_PROBE_BUSY_NS=20000, 80 ms for p2's calls):
#     - the program itself says p3's message came first (the path the
#       instrumented run took);
#     - trace check: 1 wildcard receive took another path;
#     - trace show (compensated): p2's send before p3's send, and the
#       first receive marked "[other path: without paravt <p2>'s message
#       came first]";
#     - trace show --measured: p3's send first, as measured;
#   light probes (no busy cost):
#     - p2's message came first, nothing is flagged.
# Roles are told apart by the tids the program prints ("p2 is t40002").
. "$(dirname "$0")/../lib/common.sh"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"
PARAVT_PROBE_BUSY_NS=20000
export PARAVT_PROBE_BUSY_NS
start_daemon heavy linux-x86_64
unset PARAVT_PROBE_BUSY_NS
start_daemon light linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs

# run NODE: cmp_fig2 on NODE; the console's output in $T/NODE.
run() {
	eval "_port=\$DPORT_$1"
	# shellcheck disable=SC2154
	"$PARAVT" -n -e "node add $1 127.0.0.1:$_port" \
		-e "load --pvm $P/cmp_fig2.c" -e "build" \
		-e "run pvm --timeout 60 cmp_fig2" -e "info procs" \
		-e "trace check" -e "trace filter kind=send,recv,mcast" \
		-e "trace show 50" -e "trace filter kind=send,recv,mcast" \
		-e "trace show 50 --measured" \
		-e "trace filter kind=send,recv,mcast" -e "trace show 50 --raw" \
		>"$T/$1" 2>&1 || { cat "$T/$1"; cat "$T/$1.log"; fail "$1: console failed"; }
	cat "$T/$1"
	n=$(grep -cE "^[ *] p[0-9]+ +$1 +[0-9]+ +t[0-9a-f]+ +exited +status 0$" "$T/$1")
	[ "$n" -eq 3 ] || fail "$1: $n of 3 tasks exited 0"
	# the roles' tids, and the console's names of their processes
	tid2=$(sed -n 's/^\[p1\] p2 is \(t[0-9a-f]*\)$/\1/p' "$T/$1")
	tid3=$(sed -n 's/^\[p1\] p3 is \(t[0-9a-f]*\)$/\1/p' "$T/$1")
	[ -n "$tid2" ] && [ -n "$tid3" ] || fail "$1: the program did not print the tids"
	pn2=$(awk -v t="$tid2" '$4 == t && $1 ~ /^p/ { print $1 } $5 == t && $2 ~ /^p/ { print $2 }' "$T/$1" | head -1)
	pn3=$(awk -v t="$tid3" '$4 == t && $1 ~ /^p/ { print $1 } $5 == t && $2 ~ /^p/ { print $2 }' "$T/$1" | head -1)
	[ -n "$pn2" ] && [ -n "$pn3" ] || fail "$1: info procs does not list $tid2 and $tid3"
}

# first_send NODE LINES-FILTER: the console process (pN) whose send to the
# master (tag 2) comes first among the lines of one trace show.
first_send() {
	grep -E "^\[p[0-9]+ $1\] \+[0-9.]+ send +-> t[0-9a-f]+ tag 2 " | head -1 |
		sed 's/^\[\(p[0-9]*\) .*/\1/'
}

# shows NODE: splits the three trace show outputs of $T/NODE into
# $T/NODE.comp, .measured, .raw (each follows a "trace filter:" line).
shows() {
	awk -v d="$T/$1" '/^trace filter:/ { n++; next }
		n >= 1 && n <= 3 && /^\[p[0-9]+ / {
			print > (d (n == 1 ? ".comp" : n == 2 ? ".measured" : ".raw")) }' "$T/$1"
}

run heavy
expect_grep "^\[p1\] first: p3 $tid3$" "$T/heavy" "with heavy probes p3's message did not come first"
expect_grep "^\[p1\] second: p2 $tid2$" "$T/heavy"
ok "heavy probes: the instrumented run took the other path (p3's message first)"
expect_grep '^compensated: [0-9]+ receives moved, 1 wildcard receives? took another path$' "$T/heavy" \
	"trace check does not flag one wildcard receive"
shows heavy
[ "$(first_send heavy <"$T/heavy.comp")" = "$pn2" ] ||
	{ cat "$T/heavy.comp"; fail "compensated view: p2's send ($pn2) is not before p3's ($pn3)"; }
[ "$(first_send heavy <"$T/heavy.measured")" = "$pn3" ] ||
	{ cat "$T/heavy.measured"; fail "measured view: p3's send ($pn3) is not first"; }
expect_grep "^\[p1 heavy\] \+[0-9.]+ recv +<- $tid3 tag 2 .*  \[other path: without paravt $tid2's message came first\]$" \
	"$T/heavy.comp" "trace show does not mark the receive that took another path"
[ "$(grep -c '\[other path' "$T/heavy.comp")" -eq 1 ] || fail "more than one receive marked"
expect_grep "^\[p1 heavy\] seq [0-9]+ .* recv +pvm_recv <- $tid3 tag 2 .*\[other path: without paravt $tid2's message came first\]$" \
	"$T/heavy.raw" "trace show --raw does not mark it"
ok "compensated view: p2 ($pn2) sends before p3 ($pn3); the first wildcard receive is flagged (1 in trace check)"

run light
expect_grep "^\[p1\] first: p2 $tid2$" "$T/light" "with light probes p2's message did not come first"
expect_grep '^compensated: [0-9]+ receives moved, 0 wildcard receives took another path$' "$T/light" \
	"light probes: a wildcard receive was flagged"
expect_no_grep '\[other path' "$T/light"
shows light
[ "$(first_send light <"$T/light.comp")" = "$pn2" ] ||
	{ cat "$T/light.comp"; fail "light, compensated view: p2's send ($pn2) is not first"; }
ok "light probes: p2's message first, nothing flagged"
