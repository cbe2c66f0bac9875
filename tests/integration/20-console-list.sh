#!/bin/sh
# 20-console-list.sh — batch mode against real daemons: `node add` and
# `node list` show each daemon's own machine (x86_64/little/8/8 natively,
# s390x/big/8/8 under qemu when that port is built) and its clock model,
# node ping prints samples and the model they join, node remove forgets a
# node, and the exit status is 0.
. "$(dirname "$0")/../lib/common.sh"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
start_daemon n1 linux-x86_64
S390=$TOP/build/linux-s390x-qemu/bin/paravtd
adds="-e \"node add n1 127.0.0.1:$DPORT_n1\""
if [ -x "$S390" ]; then
	start_daemon s390 linux-s390x-qemu
	adds="$adds -e \"node add s390 127.0.0.1:$DPORT_s390\""
fi
eval "\"\$PARAVT\" -n $adds -e \"node list\" -e \"node ping n1 3\"" \
	>"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 0 ] || fail "exit status $rc, expected 0"
expect_grep '^NAME +ADDRESS +STATE +OS +ARCH +ORDER +LONG +PTR +PORT +RTT +OFFSET +DRIFT +SAMPLES$' "$T/out"
# The 8 samples of node add: smallest RTT, offset ± bound, drift, count.
expect_grep "^n1 +127\.0\.0\.1:$DPORT_n1 +up +Linux +x86_64 +little +8 +8 +linux-x86_64 +[0-9.]+ms +[-+][0-9.]+ms ±[0-9.]+ms +[-+][0-9.]+ppm +8$" "$T/out"
expect_grep '^n1: ping 3: rtt [0-9.]+ms offset [-+][0-9.]+ms$' "$T/out"
# node ping adds its 3 samples to the model.
expect_grep '^n1: clock model: offset [-+][0-9.]+ms ±[0-9.]+ms, drift [-+][0-9.]+ppm, 11 samples$' "$T/out"
if [ -x "$S390" ]; then
	expect_grep "^s390 +127\.0\.0\.1:$DPORT_s390 +up +Linux +s390x +big +8 +8 +linux-s390x-qemu +[0-9.]+ms" "$T/out"
else
	echo "note: no s390x daemon built; native node only"
fi
[ -s "$T/err" ] && fail "unexpected stderr"

# Removing a node, then listing the remaining ones.
"$PARAVT" -n -e "node add n1 127.0.0.1:$DPORT_n1" -e "node remove n1" \
	-e "node list" >"$T/out2" 2>&1 || fail "remove failed"
expect_grep '^node n1 removed$' "$T/out2"
expect_grep '^no nodes' "$T/out2"
ok "node add/list/ping/remove in batch mode"
