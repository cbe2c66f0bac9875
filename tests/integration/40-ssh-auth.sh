# 40-ssh-auth — authentication failures and the connect step.
# (f) With no authorized key, and with a --key the server does not know,
# the console reports "authentication failed for user root (tried ...)";
# a closed SSH port reports the connect step.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=tests/lib/sshd.sh
. "$(dirname "$0")/../lib/sshd.sh"

[ -x "$PARAVTD" ] || fail "no $PARAVTD (run make)"
start_sshd
sshd_known_hosts "$HOME/.ssh/known_hosts"
URL=$(sshd_url)

# --key FILE with a key the server does not know; the default key is moved
# away so that nothing else can succeed.
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" </dev/null
mv "$HOME/.ssh/id_ed25519" "$T/id_ed25519.saved"
sshd_console "$T/f1" "node add s1 $URL --key $T/stranger"
[ "$CON_RC" -eq 1 ] || fail "unknown client key: exit $CON_RC, want 1"
expect_grep "authentication failed for user root \(tried $T/stranger\)" "$T/f1"
ok "unknown --key refused"
mv "$T/id_ed25519.saved" "$HOME/.ssh/id_ed25519"

# No authorized key at all: the default key is tried and refused.
: >"$SSHD_DIR/authorized_keys"
sshd_console "$T/f2" "node add s1 $URL"
[ "$CON_RC" -eq 1 ] || fail "no authorized key: exit $CON_RC, want 1"
expect_grep 'authentication failed for user root \(tried ~/\.ssh/id_ed25519\)' "$T/f2"
ok "no authorized key: authentication failure"

# Nothing listens: the connect step is named.
sshd_console "$T/f3" "node add s1 ssh://root@127.0.0.1:1"
[ "$CON_RC" -eq 1 ] || fail "closed port: exit $CON_RC, want 1"
expect_grep 'ssh 127\.0\.0\.1:1: connect: Connection refused' "$T/f3"
ok "closed SSH port: connect refused"
