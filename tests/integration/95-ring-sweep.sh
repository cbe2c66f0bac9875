#!/bin/sh
# 95-ring-sweep.sh — ring files that tasks left in the directory for
# rings in memory (killed before their daemon mapped the file, which
# removes its name) are removed when a session starts: in memory a file
# holds its room until a reboot.  A real daemon, with
# PARAVT_RING_MEMFS pointing at a directory of the test's, opens a
# session (wirepoke); in the directory beforehand:
#   - ring-DEAD-1, two minutes old, of a process that ended: removed,
#     and the log says so with its size;
#   - ring-DEAD-2 of the same process, but just made (a task in another
#     pid namespace may be alive and about to name it): kept;
#   - ring-LIVE-1, two minutes old, of a process that runs: kept;
#   - a link named like the first, and a file named otherwise: kept.
# Then a traced program whose ring the daemon maps leaves nothing there.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
mkdir -p "$T/mem"
M=$T/mem/paravt-$(id -u)
mkdir -m 700 "$M" || fail "mkdir $M"
dead=$(sh -c 'echo $$')
sleep 60 &
live=$!
track_pid $live
head -c 4096 /dev/zero >"$M/ring-$dead-1"
head -c 512 /dev/zero >"$M/ring-$dead-2"
head -c 512 /dev/zero >"$M/ring-$live-1"
head -c 512 /dev/zero >"$M/other-$dead-1"
ln -s "$M/ring-$dead-2" "$M/ring-$dead-3"
touch -d '2 minutes ago' "$M/ring-$dead-1" "$M/ring-$live-1" "$M/other-$dead-1"

export PARAVT_RING_MEMFS="$T/mem"
start_daemon n1 linux-x86_64
unset PARAVT_RING_MEMFS
"$WP" "127.0.0.1:$DPORT_n1" --wait-ms 3000 --send SESSION_OPEN:t \
	>"$T/out" 2>&1
wait_for 10 grep -q "event rings: removed" "$T/n1.log" ||
	{ cat "$T/out" "$T/n1.log"; ls -la "$M"; fail "no sweep in the log"; }
expect_grep "event rings: removed 1 file\(s\) of 4096 bytes from $M" "$T/n1.log"
[ ! -e "$M/ring-$dead-1" ] || fail "the old ring of an ended process is still there"
ok "the old ring file of a process that ended was removed, and logged"
for f in "ring-$dead-2" "ring-$live-1" "other-$dead-1"; do
	[ -f "$M/$f" ] || fail "$f was removed"
done
[ -L "$M/ring-$dead-3" ] || fail "the link was removed"
ok "a new file, a live process's, a link and another name were kept"

rm -f "$M"/*
cd "$T" || fail "cd $T"
cat >one.c <<'PROG'
#include <stdio.h>
static int step(int x) { return x + 1; }
int main(void) { printf("got %d\n", step(1)); return 0; }
PROG
"$PARAVT" -n -e "node add n1 127.0.0.1:$DPORT_n1" -e "load one.c" \
	-e "build" -e "run" -e "wait --timeout 60" >run.out 2>&1
expect_grep '^\[p1\] got 2$' run.out
[ -z "$(ls -A "$M")" ] || { ls -la "$M"; fail "a traced run left a file in $M"; }
ok "a traced run leaves no ring file"
