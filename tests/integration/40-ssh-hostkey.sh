# 40-ssh-hostkey — host keys that must be refused.
# (b) A host key not in known_hosts is refused with its SHA256 fingerprint
# and a hint at --accept-new-host-key; nothing is written.  (d) A
# known_hosts that holds a different key for [127.0.0.1]:PORT is refused
# loudly and left untouched; --accept-changed-host-key connects anyway.
# Hashed known_hosts entries and --known-hosts FILE are checked too.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=tests/lib/sshd.sh
. "$(dirname "$0")/../lib/sshd.sh"

[ -x "$PARAVTD" ] || fail "no $PARAVTD (run make)"
start_sshd
URL=$(sshd_url)
KH=$HOME/.ssh/known_hosts

# (b) unknown host key.
sshd_console "$T/b" "node add s1 $URL"
[ "$CON_RC" -eq 1 ] || fail "unknown host key: exit $CON_RC, want 1"
expect_grep "ssh 127\.0\.0\.1:$SSHD_PORT: host key not known" "$T/b"
grep -qF "$(sshd_fingerprint)" "$T/b" || fail "fingerprint $(sshd_fingerprint) not shown"
grep -qF -- "--accept-new-host-key" "$T/b" || fail "no hint how to accept"
[ ! -s "$KH" ] || fail "known_hosts written without consent"
ok "unknown host key refused with fingerprint"

# (d) changed host key.
ssh-keygen -q -t ed25519 -N '' -f "$T/other" </dev/null
mkdir -p "$HOME/.ssh"
printf '[127.0.0.1]:%s %s\n' "$SSHD_PORT" "$(cut -d' ' -f1,2 "$T/other.pub")" >"$KH"
cp "$KH" "$T/kh.before"
sshd_console "$T/d" "node add s1 $URL"
[ "$CON_RC" -eq 1 ] || fail "changed host key: exit $CON_RC, want 1"
expect_grep "HOST KEY FOR \[127\.0\.0\.1\]:$SSHD_PORT HAS CHANGED" "$T/d"
cmp -s "$KH" "$T/kh.before" || fail "known_hosts modified on a changed key"
ok "changed host key refused"

sshd_console "$T/d2" "node add s1 $URL --accept-changed-host-key" "node list"
[ "$CON_RC" -eq 0 ] || fail "--accept-changed-host-key did not connect"
expect_grep '^s1 +ssh://[^ ]+ +up ' "$T/d2"
ok "--accept-changed-host-key connects"

# Hashed entry in a file given with --known-hosts.
sshd_known_hosts "$T/hashed"
ssh-keygen -H -f "$T/hashed" >/dev/null 2>&1
expect_grep '^\|1\|' "$T/hashed" "ssh-keygen -H did not hash"
sshd_console "$T/h" "node add s1 $URL --known-hosts $T/hashed" "node list"
[ "$CON_RC" -eq 0 ] || fail "hashed known_hosts entry not matched"
expect_grep '^s1 +ssh://[^ ]+ +up ' "$T/h"
ok "hashed known_hosts entry matched"
