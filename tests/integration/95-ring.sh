#!/bin/sh
# 95-ring.sh — the shared-memory event ring between a task and its daemon.
#
#   1. A task killed with SIGKILL in the middle of a burst loses nothing
#      it wrote: tests/programs/mpi_burst.c (one rank, MPI_Iprobe as fast
#      as it can, two records a call) counts its completed calls in a
#      file; after kill -9 the console has at least 2 records per call
#      counted, and no event was reported lost.
#   2. A ring that fills (PARAVT_RING_EVENTS=64, far smaller than a burst
#      of 200000 calls between two drains of the daemon) makes the task
#      wait: every record arrives (no loss), and stats and trace check
#      say how often the task waited.
#   3. With PARAVT_RING_FULL=drop a full ring drops records instead: the
#      count reaches the console, in stats ("Lost") and trace check.
#      Settings that make no sense (a size that is no number or is below
#      64, a policy neither wait nor drop, PARAVT_RING neither on nor
#      off) are said on the task's stderr, the defaults are used, and
#      every record arrives.
#   4. A daemon whose queue for an attached console is full (--events-mem
#      64 KiB, --events-spill 200 KB) stops draining the ring: the task
#      waits, all 400000 records arrive, nothing is dropped.
#   5. The rings are made in memory (/dev/shm/paravt-<uid>: section 1's
#      rank mapped its ring from there).  With PARAVT_RING_MEMFS naming a
#      512 KiB tmpfs, too small for a 1 MiB ring, the rank makes its ring
#      in the session's directory instead, says so, and leaves nothing
#      in the tmpfs; killed mid-burst, it lost nothing; the daemon keeps
#      the MPI job's own files out of it too, and says why.  A directory
#      there that other users may write (0777) is not used at all, and
#      the rank says so.
. "$(dirname "$0")/../lib/common.sh"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
cp "$TOP/tests/programs/mpi_burst.c" .
NODE="node add nat 127.0.0.1:$DPORT_nat"

# ---- 1. SIGKILL mid-burst -------------------------------------------------
"$PARAVT" -n -e "$NODE" -e "load --mpi mpi_burst.c" -e build \
	-e "run mpi --timeout 60 -np 1 mpi_burst $T/count" -e stats \
	>"$T/kill.out" 2>&1 &
cpid=$!
track_pid $cpid
count() { od -An -tu8 "$T/count" 2>/dev/null | tr -d ' '; }
big() { c=$(count); [ "${c:-0}" -gt 200000 ]; }
wait_for 60 big || { cat "$T/kill.out"; fail "the burst did not get going"; }
pid=$(pgrep -n -f "/mpi_burst $T/count") # the rank: newer than mpirun
[ -n "$pid" ] || fail "no mpi_burst process"
if [ -d /dev/shm ]; then
	grep -q " /dev/shm/paravt-$(id -u)/ring-$pid-" "/proc/$pid/maps" ||
		{ grep ring "/proc/$pid/maps"; fail "the ring is not in /dev/shm"; }
	ok "the rank's ring is in memory (/dev/shm/paravt-$(id -u))"
fi
kill -9 "$pid"
sleep 0.2
n=$(count)
wait_for 60 sh -c "! kill -0 $cpid" || fail "the console did not end"
cat "$T/kill.out"
row=$(grep -E '^p[0-9]+ +nat +0 ' "$T/kill.out") || fail "no stats row of rank 0"
# shellcheck disable=SC2086
set -- $row
events=$9 lost=${10}
[ "$lost" = 0 ] || fail "$lost events lost"
[ "$events" -ge $((2 * n)) ] || fail "$events events for $n calls (2 each): records lost at the kill"
ok "killed after $n calls: $events events arrived, none lost"

# ---- 2. a full ring makes the task wait -----------------------------------
PARAVT_RING_EVENTS=64 timeout 120 "$PARAVT" trace -o "$T/w.pvtrace" \
	--node "nat=127.0.0.1:$DPORT_nat" --timeout 100 --mpi mpi_burst.c \
	-- run mpi -np 1 mpi_burst "$T/count2" 200000 >"$T/wait.out" 2>&1 ||
	{ cat "$T/wait.out"; fail "traced burst with a 64-record ring"; }
"$PARAVT" -n -e "open $T/w.pvtrace" -e stats -e "trace check" >"$T/w.chk" 2>&1
cat "$T/w.chk"
expect_grep '^\(event rings full: the tasks waited [1-9][0-9]* time' "$T/w.chk" \
	"stats says the task waited for room"
expect_grep '^event rings: 0 events lost; tasks waited [1-9][0-9]* times' "$T/w.chk" \
	"trace check says so too"
row=$(grep -E '^p[0-9]+ +nat +t?0 ' "$T/w.chk" | head -1)
# shellcheck disable=SC2086
set -- $row
[ "$9" -ge 400000 ] || fail "only $9 events for 200000 calls"
[ "${10}" = 0 ] || fail "${10} events lost"
ok "a 64-record ring: the task waited, $9 events, none lost"

# ---- 3. drop instead of waiting -------------------------------------------
PARAVT_RING_EVENTS=64 PARAVT_RING_FULL=drop timeout 120 "$PARAVT" trace \
	-o "$T/d.pvtrace" --node "nat=127.0.0.1:$DPORT_nat" --timeout 100 \
	--mpi mpi_burst.c -- run mpi -np 1 mpi_burst "$T/count3" 200000 \
	>"$T/drop.out" 2>&1 || { cat "$T/drop.out"; fail "traced burst, drop"; }
"$PARAVT" -n -e "open $T/d.pvtrace" -e stats -e "trace check" >"$T/d.chk" 2>&1
cat "$T/d.chk"
row=$(grep -E '^p[0-9]+ +nat +t?0 ' "$T/d.chk" | head -1)
# shellcheck disable=SC2086
set -- $row
[ "${10}" -gt 0 ] || fail "nothing counted as lost with a dropping 64-record ring"
[ $(($9 + ${10})) -ge 400000 ] || fail "$9 kept + ${10} lost < 400000 records"
expect_grep "^event rings: ${10} events lost" "$T/d.chk" "trace check counts the loss"
ok "a dropping ring: $9 events kept, ${10} counted as lost"

# ---- 3b. settings that make no sense are said, and defaults used -------
# bad_run NAME ENV...: a short burst traced with ENV; every record arrives
bad_run() {
	_n=$1; shift
	env "$@" timeout 120 "$PARAVT" trace -o "$T/$_n.pvtrace" \
		--node "nat=127.0.0.1:$DPORT_nat" --timeout 100 --mpi mpi_burst.c \
		-- run mpi -np 1 mpi_burst "$T/count$_n" 20000 >"$T/$_n.out" 2>&1 ||
		{ cat "$T/$_n.out"; fail "$_n: traced burst"; }
	"$PARAVT" -n -e "open $T/$_n.pvtrace" -e stats >"$T/$_n.chk" 2>&1
	row=$(grep -E '^p[0-9]+ +nat +t?0 ' "$T/$_n.chk" | head -1)
	# shellcheck disable=SC2086
	set -- $row
	[ "${9:-0}" -ge 40000 ] && [ "${10}" = 0 ] ||
		{ cat "$T/$_n.chk"; fail "$_n: ${9:-no} events, ${10:-?} lost"; }
}
bad_run bad1 PARAVT_RING_EVENTS=lots PARAVT_RING_FULL=sometimes PARAVT_RING=yes
expect_grep 'paravt: PARAVT_RING_EVENTS=lots is not a number of records; the ring has 16384' \
	"$T/bad1.out" "a size that is not a number is said"
expect_grep 'paravt: PARAVT_RING_FULL=sometimes is neither drop nor wait; wait it is' \
	"$T/bad1.out" "an unknown full policy is said"
expect_grep 'paravt: PARAVT_RING=yes is neither on nor off; on it is' \
	"$T/bad1.out" "an unknown PARAVT_RING is said"
bad_run bad2 PARAVT_RING_EVENTS=5
expect_grep 'paravt: PARAVT_RING_EVENTS=5 is out of 64-16777216; the ring has 64' \
	"$T/bad2.out" "a size below the least is said"
ok "bad ring settings: said, defaults used, every record arrived"

# ---- 4. a daemon whose queue is full waits for its console ----------------
# Caps far below the burst's 400000 records (packed, a few bytes each):
# 64 KiB in memory, 200 KB of spill file.  With the console attached the
# daemon leaves the ring to fill instead of spilling and then dropping:
# the task waits, everything arrives, the daemon's log has no loss.
start_daemon small linux-x86_64 --events-mem 65536 --events-spill 200000
timeout 120 "$PARAVT" trace -o "$T/q.pvtrace" \
	--node "small=127.0.0.1:$DPORT_small" --timeout 100 --mpi mpi_burst.c \
	-- run mpi -np 1 mpi_burst "$T/count4" 200000 >"$T/q.out" 2>&1 ||
	{ cat "$T/q.out"; fail "traced burst, small daemon queue"; }
"$PARAVT" -n -e "open $T/q.pvtrace" -e stats -e "trace check" >"$T/q.chk" 2>&1
cat "$T/q.chk"
row=$(grep -E '^p[0-9]+ +small +t?0 ' "$T/q.chk" | head -1)
# shellcheck disable=SC2086
set -- $row
[ "$9" -ge 400000 ] || fail "only $9 events for 200000 calls"
[ "${10}" = 0 ] || fail "${10} events lost"
expect_no_grep 'lost|dropping' "$T/small.log"
ok "a 64 KiB daemon queue: $9 events, none lost, none spilled away"

# ---- 5. a memory file system too small for the ring ----------------------
# ring_in PID: the directory of the ring PID maps, or nothing.
ring_in() {
	sed -n 's|.* \(/.*\)/ring-[0-9]*-[0-9]* (deleted)$|\1|p' "/proc/$1/maps" 2>/dev/null | head -1
}
# burst_in NAME NODE: runs mpi_burst (one rank, COUNTFILE $T/NAME) on
# NODE until its ring is seen mapped, then kills it with SIGKILL: the
# ring's directory in d, the console's output in $T/NAME.out; fails
# unless all of its records arrived.
burst_in() {
	"$PARAVT" -n -e "node add $2 127.0.0.1:$(eval echo \$DPORT_$2)" \
		-e "load --mpi mpi_burst.c" -e build \
		-e "run mpi --timeout 60 -np 1 mpi_burst $T/$1" -e stats \
		>"$T/$1.out" 2>&1 &
	cpid=$!
	track_pid $cpid
	bn=$1
	mapped() { p1=$(pgrep -n -f "/mpi_burst $T/$bn") && d=$(ring_in "$p1") && [ -n "$d" ]; }
	wait_for 60 mapped || { cat "$T/$1.out"; fail "$1: the rank's ring was not seen"; }
	sleep 0.3 # a burst into it
	kill -9 "$p1"
	n=$(od -An -tu8 "$T/$1" | tr -d ' ')
	wait_for 60 sh -c "! kill -0 $cpid" || fail "$1: the console did not end"
	row=$(grep -E "^p[0-9]+ +$2 +0 " "$T/$1.out") || { cat "$T/$1.out"; fail "$1: no stats row"; }
	# shellcheck disable=SC2086
	set -- $row
	[ "${10}" = 0 ] || fail "${10} events lost"
	[ "$9" -ge $((2 * n)) ] || fail "$9 events for $n calls (2 each)"
}
mkdir -p "$T/mfs"
if mount -t tmpfs -o size=512k tmpfs "$T/mfs" 2>/dev/null; then
	on_exit "umount '$T/mfs'"
	export PARAVT_RING_MEMFS="$T/mfs"
	start_daemon mfs linux-x86_64
	unset PARAVT_RING_MEMFS
	burst_in count5 mfs
	[ "$d" = "$T/mfs/paravt-$(id -u)" ] && fail "a 1 MiB ring in a 512 KiB file system"
	case $d in
	/tmp/paravtd-*) ;;
	*) fail "the ring went to $d, not the session's directory" ;;
	esac
	[ -z "$(ls -A "$T/mfs/paravt-$(id -u)")" ] || fail "files left in the full file system"
	expect_grep "paravt: event ring $T/mfs/paravt-$(id -u)/ring-[0-9]*-1: No space left on device; the ring goes to the session's directory" \
		"$T/count5.out" "the rank says why its ring is not in memory"
	# nor does the MPI job's own files (dmn_mpidir.c): it would not start
	expect_grep "proc [0-9]+: $T/mfs/paravt-$(id -u) has [0-9]+ MiB free, less than 256: Open MPI's files go to its own places" \
		"$T/mfs.log" "the daemon says why the job's files are not in memory"
	ok "a full memory file system: the ring went to $d, nothing lost, nothing left behind"
	umount "$T/mfs"

	# a directory others may write is not used
	mkdir -p "$T/open/paravt-$(id -u)"
	chmod 777 "$T/open/paravt-$(id -u)"
	export PARAVT_RING_MEMFS="$T/open"
	start_daemon open linux-x86_64
	unset PARAVT_RING_MEMFS
	burst_in count6 open
	case $d in
	"$T/open"*) fail "the ring was made in $d, which others may write" ;;
	esac
	[ -z "$(ls -A "$T/open/paravt-$(id -u)")" ] || fail "files left in the open directory"
	expect_grep "paravt: $T/open/paravt-$(id -u) is not a directory of this user's alone \\(mode 0700\\); the event ring goes to the session's directory" \
		"$T/count6.out" "the rank says why its ring is not in memory"
	ok "a directory others may write is not used: the ring went to $d"
else
	echo "skip: cannot mount a tmpfs here (section 5)"
fi
