#!/bin/sh
# tests/integration/05-layers.sh — the rooms of console/ and daemon/ keep
# their order (tests/tools/layers.sh):
#   - on this tree, with the build, no cycle, no wrong include, no wrong
#     call between rooms;
#   - in a copy, each planted fault is found and named with its file and
#     line: net including a session header, a cycle of two trace modules,
#     daemon/conn including the work's header, and (objects compiled from
#     two planted files) a net object calling a session function;
#   - a room's README exists for each room the rules name.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

L=tests/tools/layers.sh
[ -f "$TOP/build/console/lib/libcon_net.a" ] || skip "console not built (run make)"

cd "$TOP" || fail "no $TOP"
sh "$L" --symbols >"$T/here" 2>&1 || { cat "$T/here"; fail "layers.sh fails on this tree"; }
expect_grep "0 problems" "$T/here"
expect_grep "calls between rooms, 0 of them wrong" "$T/here"
ok "this tree: $(tr '\n' ' ' <"$T/here")"

for r in $(sed -n '/^RULES=/,/^'"'"'$/p' "$L" | awk 'NF > 1 { print $1 }'); do
	case $r in */main) continue ;; esac
	[ -s "$r/README" ] || fail "no $r/README"
done
[ -s console/README ] && [ -s daemon/README ] || fail "no console/README or daemon/README"
ok "every room has its README"

# A copy of the sources and the script, faults planted one at a time.
C=$T/copy
mkdir -p "$C/tests/tools" || fail "mkdir"
cp -R console daemon "$C"/ && cp "$L" "$C/tests/tools/" || fail "copy"
run_copy() { (cd "$C" && sh tests/tools/layers.sh "$@") >"$T/out" 2>&1; echo $?; }

[ "$(run_copy)" = 0 ] || { cat "$T/out"; fail "the clean copy fails"; }

cp "$C/console/net/con_tcp.c" "$T/keep"
sed -i '0,/^#include "con_tcp.h"/s//#include "con_tcp.h"\n#include "con_dbg.h"/' "$C/console/net/con_tcp.c"
[ "$(run_copy)" = 1 ] || { cat "$T/out"; fail "net including session passes"; }
expect_grep 'console/net/con_tcp.c:[0-9]*: console/net includes console/session' "$T/out"
cp "$T/keep" "$C/console/net/con_tcp.c"
ok "a wrong include is named: $(head -1 "$T/out")"

cp "$C/console/trace/con_ev.h" "$T/keep"
sed -i '0,/^#include "con_node.h"/s//#include "con_node.h"\n#include "con_tfile.h"/' "$C/console/trace/con_ev.h"
[ "$(run_copy)" = 1 ] || { cat "$T/out"; fail "a cycle passes"; }
expect_grep 'cycle: .*con_ev -> .*con_tfile' "$T/out"
expect_grep 'console/trace/con_ev.h:[0-9]*' "$T/out"
cp "$T/keep" "$C/console/trace/con_ev.h"
ok "a cycle is named: $(grep cycle "$T/out" | head -1)"

cp "$C/daemon/conn/dmn_log.c" "$T/keep"
sed -i '0,/^#include "dmn_log.h"/s//#include "dmn_log.h"\n#include "dmn_work.h"/' "$C/daemon/conn/dmn_log.c"
[ "$(run_copy)" = 1 ] || { cat "$T/out"; fail "conn including work passes"; }
expect_grep 'daemon/conn/dmn_log.c:[0-9]*: daemon/conn includes daemon/work' "$T/out"
cp "$T/keep" "$C/daemon/conn/dmn_log.c"
ok "a wrong daemon include is named"

# A call the includes do not show (a declaration written by hand).
mkdir -p "$C/build/console/obj/console/net" "$C/build/console/obj/console/session"
printf 'int con_dbg_planted(void) { return 1; }\n' >"$C/console/session/con_planted.c"
printf 'int con_dbg_planted(void);\nint con_net_planted(void) { return con_dbg_planted(); }\n' \
	>"$C/console/net/con_nplanted.c"
cc -c -o "$C/build/console/obj/console/session/con_planted.o" "$C/console/session/con_planted.c" &&
	cc -c -o "$C/build/console/obj/console/net/con_nplanted.o" "$C/console/net/con_nplanted.c" ||
	fail "cc"
[ "$(run_copy --symbols)" = 1 ] || { cat "$T/out"; fail "a call upward passes"; }
expect_grep 'console/net/con_nplanted.c \(console/net\) uses con_dbg_planted of console/session/con_planted.c' "$T/out"
ok "a wrong call is named: $(grep uses "$T/out")"
