#!/bin/sh
# 30-tmux-console.sh — drives the interactive console (real readline on a
# real terminal) in a private tmux server: tab completion of commands,
# subcommands and node names, `help node`, `node add`/`node list` against a
# real daemon, the asynchronous "node is down" announcement, and history
# kept across sessions in ~/.paravt_history.
. "$(dirname "$0")/../lib/common.sh"
command -v tmux >/dev/null 2>&1 || skip "tmux not installed"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
S=paravt-test-$$
on_exit "tmux -L $S kill-server"
start_daemon n1 linux-x86_64

tm() { tmux -L "$S" "$@"; }
# pane_has PATTERN: the screen or its scrollback has a line matching it.
pane_has() { tm capture-pane -p -S -300 | grep -Eq -- "$1"; }
# expect_pane PATTERN WHAT: waits up to 10 s for PATTERN on the screen.
expect_pane() {
	wait_for 10 pane_has "$1" || { tm capture-pane -p; fail "$2"; }
}
start_console() {
	tm -f /dev/null new-session -d -x 120 -y 30 "$PARAVT -n" ||
		fail "tmux new-session"
	expect_pane '^\(paravt\) ?$' "no prompt"
}

start_console
tm send-keys "no" Tab
expect_pane '^\(paravt\) node ?$' "no<TAB> did not complete to node"
tm send-keys "a" Tab
expect_pane '^\(paravt\) node add ?$' "node a<TAB> did not complete to node add"
tm send-keys C-u "help node" Enter
expect_pane '^usage: node SUBCOMMAND' "help node: no usage"
expect_pane '^  node reconnect NAME$' "help node: no subcommand list"

tm send-keys "node add n1 127.0.0.1:$DPORT_n1" Enter
expect_pane '^node n1 is up: Linux x86_64' "node add failed"
tm send-keys "node list" Enter
expect_pane "^n1 +127\.0\.0\.1:$DPORT_n1 +up +Linux +x86_64 +little +8 +8 +linux-x86_64 " "node list"
tm send-keys "node ping n" Tab
expect_pane '^\(paravt\) node ping n1 ?$' "node name not completed"
tm send-keys C-u

# The daemon dies while the prompt waits: announced without a keystroke.
kill -9 "$DPID_n1"
expect_pane '^\[node n1 is down: connection closed by peer\]$' "no down announcement"
tm send-keys "node list" Enter
expect_pane '^n1 .* down \(connection closed by peer\)' "node list after death"
tm send-keys "quit" Enter
wait_for 10 sh -c "! tmux -L $S has-session 2>/dev/null" || fail "quit did not leave"

grep -qx 'help node' "$HOME/.paravt_history" || { cat "$HOME/.paravt_history"; fail "history file"; }
grep -qx 'node list' "$HOME/.paravt_history" || fail "history file: node list"

# A new console remembers: Up shows the last command, Up again the one before.
start_console
tm send-keys Up
expect_pane '^\(paravt\) quit$' "Up did not recall quit"
tm send-keys Up
expect_pane '^\(paravt\) node list$' "second Up did not recall node list"
tm send-keys C-u C-d
wait_for 10 sh -c "! tmux -L $S has-session 2>/dev/null" || fail "Ctrl-D did not leave"
[ "$(wc -l <"$HOME/.paravt_history")" -le 1000 ] || fail "history unbounded"
ok "completion, help, node list, down announcement, history"
