#!/bin/sh
# 87-link-probe.sh — the link probe (LINK_PROBE / LINK_ECHO) with real
# daemons:
#   - wirepoke, on a native, an s390x and an i386 daemon: 1000 bytes up
#     and 5000 asked back give a LINK_ECHO of 5000 bytes; asking more than
#     half the frame limit is refused with ERROR EARG, and a LINK_PROBE
#     without its fields with ERROR EMALFORMED; PING still answers after
#     both;
#   - across a veth between two network namespaces, shaped with tc tbf to
#     8 Mbit/s (1 MB/s) on the console's side only: the trace of a run has
#     the node's link (trace-info): 0.6 to 1.1 MB/s to the node, more
#     than 5 MB/s from it; the same figures the shaping does not touch on
#     a loopback node are above 5 MB/s both ways;
#   - PARAVT_LINK_PROBE=0: no link in the trace.
# The veth part is skipped (77 is not returned: the rest ran) when
# network namespaces or tc are unavailable.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
DA=$TOP/build/linux-x86_64/bin/paravtd

probe_raw() { # NODE PORT
	"$WP" "127.0.0.1:$2" --send LINK_PROBE:1000:5000 \
		--send LINK_PROBE:0:99999999 --send 18:x --send PING \
		--send BYE --linger-ms 2000 >"$T/wp.$1" 2>&1
}
probe_check() { # NODE
	cat "$T/wp.$1"
	expect_grep '^LINK_ECHO pad=5000 clock=ok$' "$T/wp.$1"
	expect_grep '^ERROR EARG ref=[0-9]+ LINK_PROBE: want 99999999 bytes: over half the frame limit' "$T/wp.$1"
	expect_grep '^ERROR EMALFORMED ref=[0-9]+ ' "$T/wp.$1"
	expect_grep '^PONG rtt_us=[0-9]+ t_recv=[0-9]+ t_send=[0-9]+ clock=ok$' "$T/wp.$1"
	ok "node $1: LINK_PROBE echoed, too large and malformed refused"
}
on_three_ports probe_raw probe_check

# rate FILE WORD: the MB/s before WORD ("to" or "from") in the link line.
rate() { sed -n "s/.*link: .* \([0-9.]*\) MB\/s $2 it.*/\1/p" "$1" | head -1; }
# within LO HI X: LO <= X <= HI (decimals).
within() { awk -v l="$1" -v h="$2" -v x="$3" 'BEGIN { exit !(x != "" && x >= l && x <= h) }'; }

cd "$T" || fail "cd $T"
"$PARAVT" trace -o lo.pvt --node "nat=127.0.0.1:$DPORT_nat" --exec /bin/true \
	-- run >lo.out 2>&1 || { cat lo.out; fail "paravt trace on loopback"; }
"$PARAVT" trace-info lo.pvt >lo.info 2>&1 || { cat lo.info; fail "trace-info"; }
cat lo.info
up=$(rate lo.info to) down=$(rate lo.info from)
within 5 1000000 "$up" && within 5 1000000 "$down" ||
	fail "loopback link: $up MB/s to, $down MB/s from (over 5 expected)"
ok "loopback: the trace has the link, $up MB/s to the node, $down MB/s from it"

PARAVT_LINK_PROBE=0 "$PARAVT" trace -o off.pvt --node "nat=127.0.0.1:$DPORT_nat" \
	--exec /bin/true -- run >off.out 2>&1 || { cat off.out; fail "paravt trace, probe off"; }
"$PARAVT" trace-info off.pvt >off.info 2>&1 || fail "trace-info off.pvt"
expect_no_grep 'link:' off.info
ok "PARAVT_LINK_PROBE=0: no link in the trace"

[ "$(id -u)" = 0 ] || { echo "skip: the shaped veth needs root"; exit 0; }
command -v ip >/dev/null && command -v tc >/dev/null ||
	{ echo "skip: no ip(8) or tc(8)"; exit 0; }
ip netns add "pvtprobe$$" 2>/dev/null || { echo "skip: no network namespaces"; exit 0; }
ip netns del "pvtprobe$$"
pvm_netns_pair
ip netns exec "$PVM_NS_A" tc qdisc add dev "pva$$" root tbf rate 8mbit \
	burst 32kb latency 400ms || fail "tc tbf on pva$$"
ip netns exec "$PVM_NS_B" "$DA" --listen "$PVM_ADDR_B:0" --allow-remote \
	--port-file "$T/b.port" --name b --log "$T/b.log" &
track_pid $!
wait_for 20 test -s "$T/b.port" || { cat "$T/b.log"; fail "daemon b did not start"; }
ip netns exec "$PVM_NS_A" timeout -k 5 60 "$PARAVT" trace -o veth.pvt \
	--node "b=$PVM_ADDR_B:$(cat "$T/b.port")" --exec /bin/true -- run \
	>veth.out 2>&1 || { cat veth.out; fail "paravt trace across the veth"; }
"$PARAVT" trace-info veth.pvt >veth.info 2>&1 || fail "trace-info veth.pvt"
cat veth.info
up=$(rate veth.info to) down=$(rate veth.info from)
within 0.6 1.1 "$up" || fail "shaped link: $up MB/s to the node (tbf 1 MB/s)"
within 5 1000000 "$down" || fail "unshaped way back: $down MB/s"
ok "veth shaped to 1 MB/s: $up MB/s to the node, $down MB/s from it"
