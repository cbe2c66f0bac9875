# tests/lib/sshd.sh — a private sshd on 127.0.0.1 for the SSH tests.
#
# Source it after common.sh:
#     . "$(dirname "$0")/../lib/common.sh"
#     . "$(dirname "$0")/../lib/sshd.sh"
#     start_sshd                # sets SSHD_PORT, SSHD_PID, SSHD_DIR
#     sshd_known_hosts "$HOME/.ssh/known_hosts"
#
# Everything lives in $T/ssh: the config, the host key, the authorized
# keys and the log.  The client key is $HOME/.ssh/id_ed25519 (HOME is the
# private one from common.sh).  sshd daemonizes; its PID comes from its
# PidFile and it is killed by that PID when the test exits.  Without
# /usr/sbin/sshd or ssh-keygen the test is skipped (exit 77).

# shellcheck shell=sh
SSHD_BIN=${SSHD_BIN:-/usr/sbin/sshd}
SSHD_DIR=$T/ssh
SSHD_PORT=
SSHD_PID=

# sshd_listening PORT: true if something accepts connections on
# 127.0.0.1:PORT (bash's /dev/tcp; the tests themselves run under sh).
sshd_listening() {
	bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# sshd_pick_port FROM: sets SSHD_PORT to the first free port at or after
# FROM (tries 200).
sshd_pick_port() {
	_i=0
	while [ $_i -lt 200 ]; do
		if ! sshd_listening $(($1 + _i)); then
			SSHD_PORT=$(($1 + _i))
			return 0
		fi
		_i=$((_i + 1))
	done
	fail "no free TCP port found for sshd from $1"
}

# sshd_keys: host key in $SSHD_DIR, client key in $HOME/.ssh, and the
# client's public key authorized.
sshd_keys() {
	mkdir -p "$SSHD_DIR" "$HOME/.ssh"
	chmod 700 "$HOME/.ssh"
	ssh-keygen -q -t ed25519 -N '' -C paravt-test-host \
		-f "$SSHD_DIR/host_ed25519" </dev/null || fail "ssh-keygen (host)"
	[ -f "$HOME/.ssh/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' \
		-C paravt-test-client -f "$HOME/.ssh/id_ed25519" </dev/null ||
		fail "ssh-keygen (client)"
	cp "$HOME/.ssh/id_ed25519.pub" "$SSHD_DIR/authorized_keys"
}

# sshd_config: writes $SSHD_DIR/sshd_config for the chosen port.
sshd_config() {
	cat >"$SSHD_DIR/sshd_config" <<EOF
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host_ed25519
PidFile $SSHD_DIR/sshd.pid
AuthorizedKeysFile $SSHD_DIR/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AllowTcpForwarding yes
PrintMotd no
LogLevel VERBOSE
EOF
}

# start_sshd: generates keys and config, starts sshd and waits for its
# PidFile and its port.  Sets SSHD_PORT and SSHD_PID.
start_sshd() {
	[ -x "$SSHD_BIN" ] || skip "no $SSHD_BIN (apt-get install openssh-server)"
	command -v ssh-keygen >/dev/null || skip "no ssh-keygen"
	command -v bash >/dev/null || skip "no bash (used to probe ports)"
	mkdir -p /run/sshd
	sshd_keys
	_from=$((22000 + $$ % 1000))
	_try=0
	while :; do # a port taken between the probe and the bind: next one
		sshd_pick_port $_from
		sshd_config
		"$SSHD_BIN" -f "$SSHD_DIR/sshd_config" -E "$SSHD_DIR/sshd.log" &&
			break
		_try=$((_try + 1))
		[ $_try -lt 3 ] || { cat "$SSHD_DIR/sshd.log"; fail "sshd did not start"; }
		_from=$((SSHD_PORT + 1))
	done
	wait_for 10 test -s "$SSHD_DIR/sshd.pid" ||
		{ cat "$SSHD_DIR/sshd.log"; fail "sshd wrote no PidFile"; }
	SSHD_PID=$(cat "$SSHD_DIR/sshd.pid")
	on_exit "kill $SSHD_PID"
	wait_for 10 sshd_listening "$SSHD_PORT" ||
		{ cat "$SSHD_DIR/sshd.log"; fail "sshd does not listen on $SSHD_PORT"; }
}

# sshd_known_hosts FILE: appends the "[127.0.0.1]:PORT ssh-ed25519 ..."
# line of this sshd's host key to FILE.
sshd_known_hosts() {
	mkdir -p "$(dirname "$1")"
	printf '[127.0.0.1]:%s %s\n' "$SSHD_PORT" \
		"$(cut -d' ' -f1,2 "$SSHD_DIR/host_ed25519.pub")" >>"$1"
}

# sshd_fingerprint: the host key's "SHA256:..." fingerprint.
sshd_fingerprint() {
	ssh-keygen -l -E sha256 -f "$SSHD_DIR/host_ed25519.pub" | cut -d' ' -f2
}

# sshd_url: ssh:// URL that runs this tree's paravtd through the sshd.
sshd_url() {
	echo "ssh://root@127.0.0.1:$SSHD_PORT$PARAVTD"
}

# sshd_console OUT CMD...: runs the console in batch mode with one -e per
# CMD, output (stdout and stderr) in OUT; sets CON_RC to its exit status.
# SSH_AUTH_SOCK is cleared so that a developer's agent cannot take part.
sshd_console() {
	_out=$1; shift
	[ -x "$PARAVT" ] || fail "no $PARAVT (run make)"
	_k=$#
	while [ "$_k" -gt 0 ]; do # turn each CMD into "-e CMD"
		set -- "$@" -e "$1"
		shift
		_k=$((_k - 1))
	done
	env -u SSH_AUTH_SOCK "$PARAVT" -n "$@" >"$_out" 2>&1 </dev/null
	CON_RC=$?
	echo "--- paravt -n $* (exit $CON_RC):"
	cat "$_out"
}
