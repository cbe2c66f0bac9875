#!/bin/sh
# 95-live-break.sh — live debugging (issue 14) without a rebuild, on a
# native node and on an s390x and an i386 node under qemu: the program
# (tests/programs/live_loop.c) is built once and run; then, while it
# runs, a breakpoint is set and the process stops there; step goes into
# step_once, finish comes back to main, next stays in main; disable lets
# the process run on, enable stops it again; ignore 1 3 passes three
# times (i moves by 4); a breakpoint on a line without code moves to the
# next statement and says so; delete leaves none; interrupt stops the
# running process.
# Bad input gets an error and leaves the process as it was: a file, a
# line, a function that are not in the build, step on a running process,
# ignore of an unknown breakpoint or with a bad count.  print evaluates C
# expressions with the same result on the three (k * 3 + 1, p/x, sizeof),
# and says why when it cannot (division by zero, an unknown variable).
# set var limit = i + 2 ends the loop two rounds later (the program says
# so); a value that does not fit, a bad line and an unknown variable are
# errors.  up/down/info frame/info args/whatis/display on the stop; up
# shows main's variables, recorded at its call of step_once.  A
# breakpoint with a condition stops only where it holds; a condition that
# cannot be evaluated stops with a note.  watch total stops where total
# changed, naming the line that changed it.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
cp "$TOP/tests/programs/live_loop.c" "$T/"
cd "$T" || fail "cd $T"
line() { grep -n "LIVE:$1" live_loop.c | cut -d: -f1; }
L_CALL=$(line call) L_BODY=$(line body) L_PLAIN=$(line plain)
[ -n "$L_CALL" ] && [ -n "$L_BODY" ] || fail "LIVE markers"

# session NODE PORT: the whole session on one node, its output in
# $T/NODE.out (the program runs SECS before the first stop: longer
# under qemu).
session() {
	_n=$1 _port=$2 _s=4
	[ "$_n" = nat ] && _s=1
	cat >"$T/$_n.cmd" <<EOF
node add $_n 127.0.0.1:$_port
load live_loop.c
build
run --timeout $_s -- 2000
step
break nosuch.c:5
break live_loop.c:9999
break no_such_function
break live_loop.c:$L_CALL
wait --timeout 60
print i
step
print k
watch total
info breakpoints
continue --timeout 60
delete 2
print k * 3 + 1
p/x k + 256
print sizeof(int) * (k > 0)
print k / (k - k)
print nosuch + 1
up
print k
print i + 1
info frame
down
info args
whatis k
display k + 1
finish
undisplay
next
disable 1
continue --timeout $_s
enable 1
wait --timeout 60
print i
ignore 1 3
ignore 99 1
ignore 1 many
continue --timeout 60
print i
delete 1
break live_loop.c:$L_BODY
continue --timeout 60
delete
info breakpoints
continue --timeout 1
interrupt --timeout 60
break live_loop.c:$L_CALL if i % 10 == 3
continue --timeout 60
print i % 10
condition 4 nosuch > 0
continue --timeout 60
condition 4
continue --timeout 60
print i
set var limit = i + 2
set var limit = 1e20
set var limit == 3
set var nosuch = 1
tbreak live_loop.c:$((L_PLAIN + 1))
continue --timeout 60
print doubled
delete
continue --timeout 120
EOF
	timeout -k 5 600 "$PARAVT" -x "$T/$_n.cmd" </dev/null >"$T/$_n.out" 2>&1
	echo "---- $_n:"; cat "$T/$_n.out"
}

# check NODE: what every node's session must show.
check() {
	o=$T/$1.out
	expect_grep "^build on $1: ok" "$o"
	expect_grep "^\[still running after .*p1" "$o"
	expect_grep "step: no process is stopped \(interrupt, or wait for a breakpoint\)" "$o" "step on a running process"
	expect_grep "no code at or after line 5 of nosuch.c in the build" "$o"
	expect_grep "no code at or after line 9999 of live_loop.c in the build" "$o"
	expect_grep "no function no_such_function\(\) with a statement in the build" "$o"
	expect_grep "^Breakpoint 1 at live_loop.c:$L_CALL\$" "$o"
	expect_grep "^\[p1 on $1 stopped at breakpoint 1, main \(\) at .*live_loop.c:$L_CALL\]" "$o"
	expect_grep "^\[p1 on $1 stopped, step_once \(\) at .*live_loop.c:$((L_BODY + 2))\]" "$o" "step into step_once"
	i1=$(sed -n 's/^i = //p' "$o" | sed -n 1p)
	[ "$(sed -n 's/^k = //p' "$o" | sed -n 1p)" = "$i1" ] || fail "$1: k is not i ($i1)"
	expect_grep "^Watchpoint 2: total = [0-9]+ \(p1\)\$" "$o" "watch"
	expect_grep "^2 +watchpoint +keep +y +total \(p1\) +0 +on p1, value" "$o" "info breakpoints: the watchpoint"
	expect_grep "^\[p1 on $1: watchpoint 2: total\$" "$o" "the watchpoint's stop"
	expect_grep "^\(changed by line $((L_BODY + 2))\)\]\$" "$o" "the line that changed it"
	expect_grep "^\[p1 on $1 stopped at watchpoint 2, step_once \(\) at .*live_loop.c:$((L_BODY + 3))\]" "$o"
	expect_grep "^k \* 3 \+ 1 = $((3 * i1 + 1))\$" "$o" "an expression"
	expect_grep "^k \+ 256 = $(printf '0x%x' $((i1 + 256)))\$" "$o" "p/x"
	expect_grep "^sizeof\(int\) \* \(k > 0\) = 4\$" "$o" "sizeof"
	expect_grep "error: division by zero" "$o"
	expect_grep "error: no variable 'nosuch' in scope at live_loop.c:$((L_BODY + 3))" "$o"
	expect_grep "^#1 main \(\) at .*live_loop.c:$L_CALL\$" "$o" "up"
	expect_grep "error: no variable 'k' in scope in frame #1, main \\(\\) at .*live_loop.c:$L_CALL\$" "$o" "frame #1 is main's"
	expect_grep "^i \\+ 1 = $((i1 + 1))\$" "$o" "a variable of frame #1 (recorded at its call)"
	expect_grep "^ variables recorded: yes\$" "$o"
	expect_grep "^Frame #1 of p1 on $1" "$o" "info frame"
	expect_grep "^#0 step_once \(\) at .*live_loop.c:$((L_BODY + 3))\$" "$o" "down"
	[ "$(grep -c "^k = $i1\$" "$o")" -ge 2 ] || fail "$1: info args"
	expect_grep "^type = int\$" "$o" "whatis"
	expect_grep "^1: k \+ 1 = $((i1 + 1))\$" "$o" "display"
	expect_grep "^1: k \+ 1: error: no variable 'k' in scope" "$o" "display out of scope"
	expect_grep "^\[p1 on $1 stopped, main \(\) at .*live_loop.c:$((L_CALL + 1))\]" "$o" "finish back in main"
	expect_grep "^\[p1 on $1 stopped, main \(\) at .*live_loop.c:$((L_CALL + 2))|^\[p1 on $1 stopped, main \(\) at .*live_loop.c:$((L_CALL + 3))" "$o" "next"
	i2=$(sed -n 's/^i = //p' "$o" | sed -n 2p)
	i3=$(sed -n 's/^i = //p' "$o" | sed -n 3p)
	[ -n "$i2" ] && [ "$i2" -gt "$((i1 + 1))" ] || fail "$1: disable did not let it run on ($i1 -> $i2)"
	[ "$i3" = "$((i2 + 4))" ] || fail "$1: ignore 1 3: i went from $i2 to $i3, not $((i2 + 4))"
	expect_grep "no breakpoint number 99" "$o"
	expect_grep "ignore: bad count 'many'" "$o"
	expect_grep "^breakpoint 3 moved to .*live_loop.c:$((L_BODY + 2)) \(no code on line $L_BODY\)" "$o"
	expect_grep "^\[p1 on $1 stopped at breakpoint 3, step_once \(\) at" "$o"
	expect_grep "^No breakpoints." "$o"
	expect_grep "^\[p1 on $1 stopped, (main|step_once) \(\) at" "$o" "interrupt"
	[ "$(grep -c "stopped, " "$o")" -ge 4 ] || fail "$1: too few statement stops"
	expect_grep "^Breakpoint 4 at live_loop.c:$L_CALL if i % 10 == 3\$" "$o"
	expect_grep "^i % 10 = 3\$" "$o" "a conditional breakpoint"
	expect_grep "breakpoint 4: the condition 'nosuch > 0' cannot be evaluated" "$o"
	expect_grep "^Breakpoint 4 now unconditional.\$" "$o"
	i4=$(sed -n 's/^i = //p' "$o" | sed -n 4p)
	expect_grep "^limit = $((i4 + 2))\$" "$o" "set var"
	expect_grep "error: 1e\+20 does not fit in limit int" "$o"
	expect_grep "error: usage: set var VARIABLE = EXPR" "$o"
	expect_grep "error: no variable 'nosuch' in scope" "$o"
	expect_grep "^\[p1 on $1 stopped at temporary breakpoint [0-9]+, step_once \(\) at .*live_loop.c:$((L_PLAIN + 1))\]" "$o" "a breakpoint in a loop that calls nothing"
	expect_grep "^doubled = 0\$" "$o"
	expect_grep "^\[p1\] done after $((i4 + 2)) rounds" "$o" "set var changes the program's run"
	expect_grep "^\[p1 exited with status 0\]" "$o"
	expect_no_grep "running without paravt" "$o"
	ok "$1: set while running, step/finish/next, disable/enable, ignore ($i2 -> $i3), moved line, interrupt, set var ($((i4 + 2)) rounds), errors"
}

on_three_ports session check
