#!/bin/sh
# 95-live-tmux.sh — live debugging typed at the readline prompt (a
# private tmux server), on a native, an s390x and an i386 node under
# qemu: completion of the new commands (condition, finish, watch), a
# breakpoint set while the program runs stops it, next, an expression,
# step into a function, up to main and a variable of main there, down,
# watch naming the line that changed the value, and set var changing
# how many rounds the program makes.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
command -v tmux >/dev/null 2>&1 || skip "tmux not installed"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
cp "$TOP/tests/programs/live_loop.c" "$T/"
line() { grep -n "/\* LIVE:$1" "$T/live_loop.c" | cut -d: -f1; }
L_CALL=$(line call) L_BODY=$(line body)
[ -n "$L_CALL" ] && [ -n "$L_BODY" ] || fail "LIVE markers"

# session NODE PORT: the whole session typed on NODE's own tmux server.
session() {
	S=paravt-live-$$-$1
	on_exit "tmux -L $S kill-server"
	_w=20
	[ "$1" = nat ] || _w=90
	tm -f /dev/null new-session -d -x 160 -y 50 -c "$T" "$PARAVT -n" ||
		fail "tmux new-session"
	expect_pane '^\(paravt\) ?$' "$1: no prompt"
	typ "node add $1 127.0.0.1:$2"
	expect_pane "^node $1 is up" "$1: node add"
	typ "load live_loop.c"
	typ "build"
	expect_pane "^build on $1: ok" "$1: build" 120
	typ "run --timeout 1 -- 3000"
	expect_pane '^\[still running after ' "$1: run"
	tm send-keys "cond" Tab
	expect_pane '^\(paravt\) condition ?$' "$1: cond<TAB> did not complete"
	tm send-keys C-u "fini" Tab
	expect_pane '^\(paravt\) finish ?$' "$1: fini<TAB> did not complete"
	tm send-keys C-u "watc" Tab
	expect_pane '^\(paravt\) watch ?$' "$1: watc<TAB> did not complete"
	tm send-keys C-u "break live_loop.c:$L_CALL" Enter
	typ "wait --timeout $_w"
	expect_pane "^\[p1 on $1 stopped at breakpoint 1, main \(\) at .*live_loop.c:$L_CALL\]" "$1: a breakpoint set while it runs" "$_w"
	typ "next"
	expect_pane "^\[p1 on $1 stopped, main \(\) at .*live_loop.c:$((L_CALL + 1))\]" "$1: next" "$_w"
	typ "print i * 2 + 1 - (i + i)"
	expect_pane '^i \* 2 \+ 1 - \(i \+ i\) = 1$' "$1: an expression"
	typ "delete 1"
	typ "break live_loop.c:$L_BODY"
	typ "continue --timeout $_w"
	expect_pane "^\[p1 on $1 stopped at breakpoint 2, step_once \(\) at .*live_loop.c:$((L_BODY + 2))\]" "$1: into step_once" "$_w"
	typ "up"
	expect_pane "^#1 main \(\) at .*live_loop.c:$L_CALL\$" "$1: up"
	typ "print i - k"
	expect_pane 'error: no variable .k. in scope in frame #1, main' "$1: k is not main's"
	typ "print i + 0"
	expect_pane '^i \+ 0 = [0-9]+$' "$1: main's i from frame #1"
	typ "down"
	typ "watch total"
	expect_pane '^Watchpoint 3: total = [0-9]+ \(p1\)$' "$1: watch"
	typ "delete 2"
	typ "continue --timeout $_w"
	expect_pane '^\(changed by line [0-9]+\)\]$' "$1: the watchpoint names the line" "$_w"
	typ "delete"
	typ "up"
	typ "set var limit = i + 2"
	typ "print limit - i"
	expect_pane '^limit - i = 2$' "$1: set var"
	typ "continue --timeout $_w"
	expect_pane "^\[p1\] done after [0-9]+ rounds" "$1: the program's end" "$_w"
	tm capture-pane -p -S -2000 >"$T/$1.out"
	typ "quit"
	wait_for 10 sh -c "! tmux -L $S has-session 2>/dev/null" || fail "$1: quit"
}

tm() { tmux -L "$S" "$@"; }
# typ TEXT: types TEXT and Enter (literally: "up" is not the Up key).
typ() { tm send-keys -l "$1" && tm send-keys Enter; }
# pane_has PATTERN: the screen or its scrollback has a line matching it.
pane_has() { tm capture-pane -p -S -2000 | grep -Eq -- "$1"; }
# expect_pane PATTERN WHAT [SECS]: waits for PATTERN on the screen.
expect_pane() {
	wait_for "${3:-10}" pane_has "$1" || { tm capture-pane -p -S -2000; fail "$2"; }
}

# check NODE: the rounds the program made are the ones set var asked.
check() {
	o=$T/$1.out
	iv=$(sed -n 's/^i + 0 = //p' "$o" | tail -1)
	expect_grep "^\[p1\] done after $((iv + 2)) rounds" "$o" "set var limit = i + 2 in frame #1"
	ok "$1: typed at the prompt: completion, break while running, next, print, step into, up, watch, set var ($((iv + 2)) rounds)"
}

on_three_ports session check
