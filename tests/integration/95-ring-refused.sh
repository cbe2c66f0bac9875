#!/bin/sh
# 95-ring-refused.sh — event rings the daemon refuses, with a "task"
# played by wirepoke (the program the daemon runs is a script that makes
# two ring files and execs wirepoke on $PARAVT_SOCK, same pid): a file
# of the wrong size in the directory for rings in memory is refused with
# a sentence and removed (in memory it would hold its room until a
# reboot); one outside the session's directories is refused and left
# alone.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
mkdir -p "$T/mem" "$T/other"
export PARAVT_RING_MEMFS="$T/mem"
start_daemon n1 linux-x86_64
unset PARAVT_RING_MEMFS
M=$T/mem/paravt-$(id -u)

cat >"$T/task.sh" <<SH
#!/bin/sh
mkdir -m 700 "$M" 2>/dev/null
head -c 100 /dev/zero >"$M/ring-\$\$-1"
head -c 100 /dev/zero >"$T/other/ring-\$\$-1"
exec "$WP" --unix "\$PARAVT_SOCK" --role task --no-auth --wait-ms 3000 \\
	--send "TASK_HELLO:\$PARAVT_PROC:\$\$" \\
	--send "EVENT_RING:\$PARAVT_PROC:$M/ring-\$\$-1:64:65536" \\
	--send "EVENT_RING:\$PARAVT_PROC:$T/other/ring-\$\$-1:64:65536" \\
	--linger-ms 1000
SH
chmod 755 "$T/task.sh"
"$WP" "127.0.0.1:$DPORT_n1" --wait-ms 10000 --send SESSION_OPEN:t \
	--put "1:task.sh=$T/task.sh" --run 1:1:plain:task.sh \
	--until PROC_EXIT >"$T/out" 2>&1
cat "$T/out"
expect_grep "ERROR EARG ref=[0-9]+ event ring $M/ring-[0-9]+-1 refused: not a regular file of ours of [0-9]+ bytes" \
	"$T/out" "the wrong-sized ring in memory refused"
expect_grep "ERROR EARG ref=[0-9]+ event ring $T/other/ring-[0-9]+-1 refused: not in this session's directory" \
	"$T/out" "the ring elsewhere refused"
[ -z "$(ls -A "$M")" ] || { ls -la "$M"; fail "the refused ring is still in memory"; }
ok "a refused ring in memory was removed"
ls "$T/other"/ring-*-1 >/dev/null 2>&1 || fail "the file outside was removed"
ok "a ring file outside the session's directories was left alone"
