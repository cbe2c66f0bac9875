# 40-ssh-exec — a node reached through SSH, daemon run by the SSH server.
# A private sshd on 127.0.0.1 runs this tree's paravtd --stdio (the URL
# names it by absolute path); `node list` must show the node up with the
# daemon's own architecture.  Then trust on first use: with an empty
# known_hosts the connection works only with --accept-new-host-key, which
# records the key; a later connection without the flag works.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=tests/lib/sshd.sh
. "$(dirname "$0")/../lib/sshd.sh"

[ -x "$PARAVTD" ] || fail "no $PARAVTD (run make)"
start_sshd
URL=$(sshd_url)
KH=$HOME/.ssh/known_hosts

# (a) exec mode with the host key already known.
sshd_known_hosts "$KH"
sshd_console "$T/a" "node add s1 $URL" "node list"
[ "$CON_RC" -eq 0 ] || fail "node add over ssh failed (exit $CON_RC)"
expect_grep '^s1 +ssh://[^ ]+ +up +Linux +x86_64 +little +8 +8' "$T/a"
ok "exec mode: node up, arch x86_64"

# (c) unknown key accepted with --accept-new-host-key, then recorded.
rm -f "$KH"
sshd_console "$T/c1" "node add s1 $URL --accept-new-host-key" "node list"
[ "$CON_RC" -eq 0 ] || fail "--accept-new-host-key did not connect"
expect_grep '^s1 +ssh://[^ ]+ +up +Linux +x86_64' "$T/c1"
[ -f "$KH" ] || fail "known_hosts not created"
key=$(cut -d' ' -f1,2 "$SSHD_DIR/host_ed25519.pub")
grep -qxF "[127.0.0.1]:$SSHD_PORT $key" "$KH" ||
	{ cat "$KH"; fail "host key not recorded as [127.0.0.1]:$SSHD_PORT"; }
[ "$(stat -c %a "$HOME/.ssh")" = 700 ] || fail "\$HOME/.ssh is not 0700"
ok "new host key accepted and recorded"

sshd_console "$T/c2" "node add s1 $URL" "node list"
[ "$CON_RC" -eq 0 ] || fail "second connection (key now known) failed"
expect_grep '^s1 +ssh://[^ ]+ +up ' "$T/c2"
[ "$(grep -c . "$KH")" -eq 1 ] || fail "known_hosts grew on a known key"
ok "later connection without the flag works"

# A daemon path that does not exist on the remote side fails cleanly.
sshd_console "$T/x" "node add s1 ssh://root@127.0.0.1:$SSHD_PORT/nonexistent/paravtd"
[ "$CON_RC" -eq 1 ] || fail "missing remote daemon: exit $CON_RC, want 1"
ok "missing remote daemon reported"
