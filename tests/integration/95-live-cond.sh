#!/bin/sh
# 95-live-cond.sh — conditions run by the processes (issue 14), on a
# native node and on an s390x and an i386 node under qemu.  The program
# (tests/programs/live_cond.c) passes a line 200,000 times before its
# condition COND holds, and evaluates COND itself with the C compiler:
# `break LINE if COND` must stop at the pass C names (members, an index
# computed from variables, a pointer, a double, a cast, && || and unary
# minus, with the port's own sizes and byte order), the console must
# have decided only the first pass (then the processes run the code it
# compiled), and `info breakpoints` says where the condition is
# decided.  A condition the process cannot evaluate (an index out of
# bounds, a division by zero) stops with the console's reason, and one
# that cannot be compiled (sizeof) is decided by the console at every
# pass, and says so.  At the last stop, bad input is an error and the
# process stays as it was: set var of a const or of a value that does
# not fit, an index out of bounds, pointer arithmetic, a cast to a
# struct type, an expression cut short, a cast to a type the program
# does not have or of a value that is not an object; casts to the
# program's types work: a void pointer read as a struct pointer, a
# typedef.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
cp "$TOP/tests/programs/live_cond.c" "$T/"
cd "$T" || fail "cd $T"
L=$(grep -n "/\* LIVE:cond" live_cond.c | cut -d: -f1)
COND=$(sed -n 's/^#define COND (\(.*\))$/\1/p' live_cond.c)
[ -n "$L" ] && [ -n "$COND" ] || fail "LIVE:cond or COND not found"
FIRST=$(cc -O0 -o first live_cond.c && ./first | sed -n 's/^first \([0-9]*\) .*/\1/p')
[ -n "$FIRST" ] && [ "$FIRST" -gt 200000 ] || fail "the program's own answer: '$FIRST'"

# session NODE PORT: the whole session on one node, its output in
# $T/NODE.out.
session() {
	cat >"$T/$1.cmd" <<EOF
node add $1 127.0.0.1:$2
load live_cond.c
build
break live_cond.c:$L if $COND
run --timeout 120
print i
print cp->id
info breakpoints
delete 1
break live_cond.c:$L if cells[k + 8].id == 1
continue --timeout 60
print i
delete 2
break live_cond.c:$L if i / (k - k) == 1
continue --timeout 60
print i
delete 3
break live_cond.c:$L if sizeof(cells) > 8 && i == $((FIRST + 8))
continue --timeout 60
print i
info breakpoints
set var width = 3
set var k = 1e20
set var cells[k].w = 3.5
print cells[k].w * 2 + width
print cells[99].id
print *(cp + 1)
print (struct cell)cells[0]
print cp->id +
print ((struct cell *)vp)[3].id + ((struct cell *) vp)->w
print (count_t)(few - 4)
print (struct nosuch *)vp
print (struct cell *)(k + 1)
delete
continue --timeout 120
EOF
	timeout -k 5 600 "$PARAVT" -x "$T/$1.cmd" </dev/null >"$T/$1.out" 2>&1
	echo "---- $1:"; cat "$T/$1.out"
}

# check NODE: what every node's session must show.
check() {
	o=$T/$1.out
	expect_grep "^build on $1: ok" "$o"
	expect_grep "^\[p1 on $1 stopped at breakpoint 1, main \(\) at .*live_cond.c:$L\]" "$o"
	i1=$(sed -n 's/^i = //p' "$o" | sed -n 1p)
	[ "$i1" = "$FIRST" ] || fail "$1: stopped at pass '$i1', C says $FIRST"
	expect_grep "^cp->id = 12\$" "$o"
	expect_grep "^     condition run by the processes\$" "$o" "compiled"
	expect_grep "^     the console found it false 1 time\$" "$o" "the processes decided every pass but the first"
	expect_grep "breakpoint 2: the condition 'cells\[k \+ 8\].id == 1' cannot be evaluated: " "$o" "an index out of bounds"
	[ "$(sed -n 's/^i = //p' "$o" | sed -n 2p)" = "$((FIRST + 1))" ] || fail "$1: bad index: not the next pass"
	expect_grep "breakpoint 3: the condition 'i / \(k - k\) == 1' cannot be evaluated: division by zero" "$o"
	[ "$(sed -n 's/^i = //p' "$o" | sed -n 3p)" = "$((FIRST + 2))" ] || fail "$1: division: not the next pass"
	[ "$(sed -n 's/^i = //p' "$o" | sed -n 4p)" = "$((FIRST + 8))" ] || fail "$1: the console's condition"
	expect_grep "^     condition decided by the console at each pass \(sizeof is not run in the task\)\$" "$o"
	expect_grep "^     the console found it false 5 times\$" "$o"
	expect_grep "error: width is const" "$o" "set var of a const"
	expect_grep "error: 1e\\+20 does not fit in k int" "$o" "set var of a value that does not fit"
	expect_grep "^cells\\[k\\].w \\* 2 \\+ width = 15\$" "$o" "set var of a member of an element with a variable index"
	expect_grep "error: .*index 99 is out of bounds" "$o" "an index out of bounds"
	expect_grep "cmd:27: error: arithmetic on addresses is not supported" "$o"
	expect_grep "cmd:28: error: \\(struct cell\\): a cast to a struct is not supported" "$o"
	expect_grep "cmd:29: error: an operand is missing at the end" "$o"
	expect_grep "^\\(\\(struct cell \\*\\)vp\\)\\[3\\].id \\+ \\(\\(struct cell \\*\\) vp\\)->w = 9\$" "$o" "a void pointer read as a struct pointer"
	expect_grep "^\\(count_t\\)\\(few - 4\\) = 65535\$" "$o" "a cast to a typedef"
	expect_grep "cmd:32: error: \\(struct nosuch \\*\\): the program uses no such type" "$o"
	expect_grep "cmd:33: error: \\(struct cell \\*\\): only a variable, a member or an element" "$o"
	expect_grep "^\[p1\] first $FIRST passes 300000 " "$o" "the program ran to its end"
	expect_grep "^\[p1 exited with status 0\]" "$o"
	ok "$1: stopped at pass $i1 as C says, the console decided 1 pass; errors and sizeof"
}

on_three_ports session check
