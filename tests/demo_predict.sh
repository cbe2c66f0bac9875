#!/bin/sh
# tests/demo_predict.sh — part three of `make demo` (tests/demo.sh):
# performance prediction (issue 15).  A PVM pipeline (master + 2 stages,
# tests/programs/cmp_pipeline.c) is traced on a native node, the traced
# machine is written out (paravt predict --describe), then the run is
# predicted for a cluster of two nodes (the master on a node twice as
# fast, the stages on another behind a 1 ms, 100 Mbit/s network) and a
# sweep of that network's latency is printed.
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib/common.sh"
[ -e /usr/lib/pvm3 ] || skip "PVM is not installed"

say() { printf '\n== %s\n' "$*"; }

start_daemon native linux-x86_64
cd "$T" || exit 1
say "paravt trace -o pipe.pvtrace --pvm cmp_pipeline.c -- run pvm cmp_pipeline 60"
# shellcheck disable=SC2154
"$PARAVT" trace -o pipe.pvtrace --node "native=127.0.0.1:$DPORT_native" \
	--no-progress --pvm "$TOP/tests/programs/cmp_pipeline.c" \
	-- run pvm cmp_pipeline 60 || exit 1
say "paravt predict pipe.pvtrace --describe   (the traced machine)"
"$PARAVT" predict pipe.pvtrace --describe -o here.conf || exit 1
cat here.conf
cat >there.conf <<'EOS'
# two nodes: the master on a fast one, the stages on another
level core latency 20us bandwidth 2GB/s
level net latency 1ms bandwidth 100Mbit/s links 1
node fast speed 2 cores 1
node slow speed 1 cores 2
map p1 fast
map p2 slow
map p3 slow
EOS
say "paravt predict pipe.pvtrace --machine there.conf"
cat there.conf
"$PARAVT" predict pipe.pvtrace --machine there.conf || exit 1
say "paravt predict pipe.pvtrace --machine there.conf --sweep net.latency=10us,5ms,20ms,50ms"
"$PARAVT" predict pipe.pvtrace --machine there.conf \
	--sweep net.latency=10us,5ms,20ms,50ms || exit 1
