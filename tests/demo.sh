#!/bin/sh
# tests/demo.sh — the main job as it stands (run by `make demo`).
#
# Starts three node daemons on this machine — a native x86_64 one, an s390x
# one (big-endian, 64-bit) and an i386 one (little-endian, 32-bit), both
# cross-compiled and run under qemu-user — then drives the console in batch
# mode: `node list` (each node reports its own OS, architecture, byte order
# and type sizes), then a C program (tests/programs/bp_types.c) is
# instrumented, built by every node with its own compiler, run, stopped at
# breakpoints, and its variables are printed from every node at once:
# `print -all` groups equal values, so one line per variable means the
# three architectures agree.
# Everything runs in a private temp dir and HOME; the daemons are stopped
# at the end.  It grows as features land (breakpoints, PVM tracing).
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib/common.sh"

say() { printf '\n== %s\n' "$*"; }

say "starting node daemons (native, s390x under qemu, i386 under qemu)"
start_daemon native linux-x86_64
start_daemon s390x linux-s390x-qemu
start_daemon i386 linux-i386-qemu
eval "echo \"  native  pid $DPID_native  127.0.0.1:$DPORT_native\""
eval "echo \"  s390x   pid $DPID_s390x  127.0.0.1:$DPORT_s390x   ($(port_prefix linux-s390x-qemu) paravtd)\""
eval "echo \"  i386    pid $DPID_i386  127.0.0.1:$DPORT_i386   ($(port_prefix linux-i386-qemu) paravtd)\""

cp "$TOP/tests/programs/bp_types.c" "$T/"
cd "$T" || exit 1
cat >"$T/demo.pvt" <<EOS
# paravt batch script: three nodes, one program, stopped everywhere
node add native 127.0.0.1:$DPORT_native
node add s390x 127.0.0.1:$DPORT_s390x
node add i386 127.0.0.1:$DPORT_i386
node list
load bp_types.c
set stop-mode one
break walk
tbreak bp_types.c:102
build
run
info procs
print -all list->next->v
print -all u
print -all fl
print -all grid[1][2]
print -all msg
print -all dangling
print -all szlong
continue all
where
print -all depth
continue all
info procs
EOS
say "console script ($T/demo.pvt):"
sed 's/^/  /' "$T/demo.pvt"
say "paravt -n -x demo.pvt"
"$PARAVT" -n -x "$T/demo.pvt"
rc=$?
say "console exit status: $rc"
say "stopping the daemons"
[ $rc -eq 0 ] || exit $rc
# Part two: a real PVM program on a native and an s390x host.
sh "$TOP/tests/demo_pvm.sh"
rc=$?
[ $rc -eq 77 ] && rc=0 # skipped (not root, no namespaces): said why
[ $rc -eq 0 ] || exit $rc
# Part three: a traced run predicted for another machine.
sh "$TOP/tests/demo_predict.sh"
rc=$?
[ $rc -eq 77 ] && rc=0
exit $rc
