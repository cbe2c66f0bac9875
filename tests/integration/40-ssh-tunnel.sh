# 40-ssh-tunnel — a node reached through an SSH direct-tcpip channel.
# The test starts paravtd listening on 127.0.0.1:P (as it would on a remote
# host's loopback) and the console reaches it through the private sshd
# with --tunnel P; the token is the private HOME's, shared by both.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=tests/lib/sshd.sh
. "$(dirname "$0")/../lib/sshd.sh"

start_sshd
sshd_known_hosts "$HOME/.ssh/known_hosts"
start_daemon t1 linux-x86_64

# shellcheck disable=SC2154
sshd_console "$T/e" "node add s1 ssh://root@127.0.0.1:$SSHD_PORT --tunnel $DPORT_t1" "node list"
[ "$CON_RC" -eq 0 ] || fail "tunnel mode failed (exit $CON_RC)"
expect_grep '^s1 +ssh://[^ ]+ +up +Linux +x86_64 +little +8 +8' "$T/e"
ok "tunnel mode: node up"

# Nothing listens on the tunnel's far end: the step is named.
sshd_console "$T/e2" "node add s2 ssh://root@127.0.0.1:$SSHD_PORT --tunnel 1"
[ "$CON_RC" -eq 1 ] || fail "dead tunnel end: exit $CON_RC, want 1"
expect_grep 'tunnel to 127\.0\.0\.1:1' "$T/e2"
ok "tunnel to a closed port reported"
