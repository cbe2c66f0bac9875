#!/bin/sh
# 95-live-psets.sh — process sets and stop modes (issue 14) on three
# processes (tests/programs/live_loop.c on three native daemons):
#   - stop-mode all (the default): a breakpoint set while they run stops
#     one; the two others are stopped at their next statement, and the
#     first stays the current process;
#   - pset two = p2-3 and focus two: next steps p2 and p3 only, print -all
#     asks only them, info procs shows the set;
#   - [p1] next steps p1 alone;
#   - continue in stop-mode all resumes every stopped process;
#   - set stop-mode one: a stop leaves the others running;
#   - bad sets and modes are errors.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
cp "$TOP/tests/programs/live_loop.c" "$T/"
cd "$T" || fail "cd $T"
L_CALL=$(grep -n 'LIVE:call' live_loop.c | cut -d: -f1)
for n in a b c; do start_daemon "$n" linux-x86_64; done

# shellcheck disable=SC2154
cat >"$T/cmd" <<EOF
node add a 127.0.0.1:$DPORT_a
node add b 127.0.0.1:$DPORT_b
node add c 127.0.0.1:$DPORT_c
load live_loop.c
build
run --timeout 1 -- 3000
stop-mode
set stop-mode sometimes
break live_loop.c:$L_CALL
wait --timeout 30
info procs
pset two = p2-3
pset p9 = p1
pset x = p1
pset y = x
pset x = y
focus nobody
focus @c
focus two
next
print -all i
[p1] next
next [p2]
focus none
delete
set stop-mode one
break live_loop.c:$L_CALL
continue --timeout 30
info procs
set stop-mode all
delete
kill
EOF
timeout -k 5 300 "$PARAVT" -x "$T/cmd" </dev/null >"$T/out" 2>&1
cat "$T/out"
o=$T/out
expect_grep "unknown command 'stop-mode'" "$o"
expect_grep "error: usage: set stop-mode all\\|one" "$o"
[ "$(grep -c "stopped at breakpoint 1" "$o")" -ge 1 ] || fail "no stop at the breakpoint"
first=$(sed -n 's/^\[\(p[0-9]\) on .* stopped at breakpoint 1, .*/\1/p' "$o" | head -1)
[ "$(grep -c '^\[p[0-9] on [abc] stopped, ' "$o" | head -1)" -ge 2 ] ||
	fail "stop-mode all: the two others were not stopped"
expect_grep "^\\* $first .*stopped" "$o" "the first to stop stays current"
ok "stop-mode all: $first stopped at the breakpoint, the others at their next statement"
expect_grep "^set two = p2-3: p2 p3\$" "$o" "info procs shows the set"
expect_grep "pset: NAME must be a word that is not a process" "$o"
expect_grep "process sets name each other in a loop" "$o"
expect_grep "'nobody' is not a process" "$o"
on_c=$(sed -n 's/^\[\(p[0-9]\) started on c, .*/\1/p' "$o")
expect_grep "^focus: @c \\(now $on_c\\)\$" "$o" "a node's processes (the processes start in any order)"
expect_grep "^focus: two \\(now p2 p3\\)\$" "$o"
[ "$(grep -c "^\[p[23] on [abc] stopped, main () at .*live_loop.c:$((L_CALL + 1))\]" "$o")" = 2 ] ||
	fail "next with focus two did not step p2 and p3 to the next line"
expect_grep "^i = [0-9]+  \\[p2 p3\\]\$|^i = [0-9]+  \\[p[23]\\]\$" "$o" "print -all on the focus"
expect_no_grep "^i = .*\\[p1" "$o" "print -all asked p1, outside the focus"
ok "focus two: next and print -all on p2 and p3 only"
expect_grep "^\\[p1 on [abc] stopped, main \\(\\) at .*live_loop.c:$((L_CALL + 1))\\]" "$o" "[p1] next"
expect_grep "^\\[p2 on [abc] stopped, main \\(\\) at .*live_loop.c:($((L_CALL + 2))|$((L_CALL + 3)))\\]" "$o" "next [p2]: the set behind the command"
ok "[p1] next steps p1 alone"
# stop-mode one: the continue resumes the current one; a stop leaves the
# others as they were (stopped here), and nothing else is stopped.
[ "$(sed -n '/^set stop-mode one/,$p' "$o" | grep -c 'stopped, ')" = 0 ] ||
	fail "stop-mode one stopped others"
ok "stop-mode one: no other process is stopped"
