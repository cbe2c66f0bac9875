#!/bin/sh
# 35-tmux-debug.sh — an interactive debugging session on a real terminal
# (readline in a private tmux server) against a real daemon: completion of
# the new commands and of variable names, load, break, build, run (the
# stop is shown), print, info locals, where, continue to the second
# breakpoint, continue to the end, and the program's output and exit.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
command -v tmux >/dev/null 2>&1 || skip "tmux not installed"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
S=paravt-dbg-$$
on_exit "tmux -L $S kill-server"
start_daemon n1 linux-x86_64
cp "$TOP/tests/programs/bp_types.c" "$T/"
L_MAIN=$(grep -n '/\* BP:main \*/' "$T/bp_types.c" | cut -d: -f1)

tm() { tmux -L "$S" "$@"; }
# pane_has PATTERN: the screen or its scrollback has a line matching it.
pane_has() { tm capture-pane -p -S -500 | grep -Eq -- "$1"; }
# expect_pane PATTERN WHAT [SECS]: waits for PATTERN on the screen.
expect_pane() {
	wait_for "${3:-10}" pane_has "$1" || { tm capture-pane -p -S -500; fail "$2"; }
}

tm -f /dev/null new-session -d -x 150 -y 40 -c "$T" "$PARAVT -n" ||
	fail "tmux new-session"
expect_pane '^\(paravt\) ?$' "no prompt"
# shellcheck disable=SC2154
tm send-keys "node add n1 127.0.0.1:$DPORT_n1" Enter
expect_pane '^node n1 is up' "node add failed"

tm send-keys "lo" Tab
expect_pane '^\(paravt\) load ?$' "lo<TAB> did not complete to load"
tm send-keys "bp_ty" Tab
expect_pane '^\(paravt\) load bp_types\.c ?$' "load did not complete a file name"
tm send-keys Enter
expect_pane '^loaded 1 source file: bp_types\.c$' "load"
tm send-keys "brea" Tab
expect_pane '^\(paravt\) break ?$' "brea<TAB> did not complete to break"
tm send-keys "bp_types.c:$L_MAIN" Enter
expect_pane "^Breakpoint 1 at bp_types\.c:$L_MAIN$" "break"
tm send-keys "break walk" Enter
expect_pane '^Breakpoint 2 at function walk$' "break walk"
tm send-keys "build" Enter
expect_pane '^build on n1: ok$' "build" 60
tm send-keys "run" Enter
expect_pane "^\[p1 on n1 stopped at breakpoint 1, main \(\) at bp_types\.c:$L_MAIN\]$" "run did not stop" 60

tm send-keys "print li" Tab
expect_pane '^\(paravt\) print list ?$' "variable name not completed"
tm send-keys -- "->next->next->v" Enter
expect_pane '^list->next->next->v = 30$' "print through the list"
tm send-keys "print fl" Enter
expect_pane '^fl = \{a = 5, b = -3, c = 1\}$' "print bit-fields"
tm send-keys "info locals" Enter
expect_pane '^msg = 0x[0-9a-f]+ "hello, world"$' "info locals"
tm send-keys "continue" Enter
expect_pane '^\[p1 on n1 stopped at breakpoint 2, walk \(\) at bp_types\.c:[0-9]+\]$' "continue to walk" 30
tm send-keys "where" Enter
expect_pane '^#1 main \(\) at bp_types\.c:[0-9]+$' "where"
tm send-keys "print depth" Enter
expect_pane '^depth = 10$' "print a parameter"
tm send-keys "continue" Enter
expect_pane '^\[p1\] total 73$' "program output" 30
expect_pane '^\[p1 exited with status 0\]$' "exit" 30
tm send-keys "info procs" Enter
expect_pane '^\* p1 +n1 +[0-9]+ +exited +status 0$' "info procs"
tm send-keys "quit" Enter
wait_for 10 sh -c "! tmux -L $S has-session 2>/dev/null" || fail "quit did not leave"
ok "interactive break, build, run, print, continue"
