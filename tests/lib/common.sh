# tests/lib/common.sh — shared helpers for the shell integration tests.
#
# Source it first thing:  . "$(dirname "$0")/../lib/common.sh"
# It makes a private temp dir ($T) and a private HOME inside it (so token,
# history, rc file and ssh keys never touch the real ones), and installs a
# trap that kills every process registered with track_pid, runs every
# command registered with on_exit, and removes $T — on success, failure
# or interruption alike.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
# The protocol version this tree speaks (wire/wire.h).
PROTO=$(sed -n 's/^#define WIRE_PROTO_VERSION //p' "$TOP/wire/wire.h")
HOST_BIN=$TOP/build/linux-x86_64/bin
PARAVT=$HOST_BIN/paravt
PARAVTD=$HOST_BIN/paravtd
T=$(mktemp -d /tmp/paravt-test.XXXXXX)
export HOME=$T/home
mkdir -p "$HOME"
chmod 700 "$HOME"
_pids=""
_exits=""

# Registers a PID to kill (TERM, then KILL) at exit.
track_pid() { _pids="$_pids $1"; }
# Registers a shell command to run at exit (e.g. "ip netns del n1").
on_exit() { _exits="$_exits
$1"; }

_cleanup() {
	rc=$?
	set +e
	for p in $_pids; do kill "$p" 2>/dev/null; done
	for p in $_pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 30 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	printf '%s\n' "$_exits" | while IFS= read -r c; do
		[ -n "$c" ] && eval "$c" >/dev/null 2>&1
	done
	rm -rf "$T"
	exit $rc
}
trap _cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
ok() { echo "ok: $*"; }

# wait_for SECONDS CMD...: polls CMD every 0.1 s until it succeeds; fails
# after SECONDS (bounded in count and time).
wait_for() {
	_lim=$1; shift
	_i=0
	while [ $_i -lt $((_lim * 10)) ]; do
		"$@" 2>/dev/null && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	return 1
}

# expect_grep PATTERN FILE [WHAT]: fails the test unless FILE matches.
expect_grep() {
	grep -Eq -- "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "${3:-expected /$1/ in $2}"; }
}
# expect_no_grep PATTERN FILE [WHAT]
expect_no_grep() {
	! grep -Eq -- "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "${3:-unexpected /$1/ in $2}"; }
}

# port_run PORT CMD...: runs CMD with the port's run prefix (qemu for
# emulated ports), read from ports/PORT.mk.
port_prefix() {
	sed -n 's/^RUN_PREFIX *= *//p' "$TOP/ports/$1.mk"
}

# start_daemon NAME PORT [ARGS...]: starts paravtd built for PORT on
# 127.0.0.1 with an ephemeral TCP port; sets DPID_<NAME> and DPORT_<NAME>.
# Log in $T/NAME.log.
# on_three_ports SESSION CHECK: on a native node (nat), an s390x (big)
# and an i386 (i32) node under qemu, each a daemon started here, runs
# "SESSION NODE PORT" then "CHECK NODE"; a port whose daemon is not built
# is skipped with a message (the native one must be there).
on_three_ports() {
	for _tp in linux-x86_64:nat linux-s390x-qemu:big linux-i386-qemu:i32; do
		_tport=${_tp%%:*} _tn=${_tp#*:}
		if [ "$_tn" != nat ] && [ ! -x "$TOP/build/$_tport/bin/paravtd" ]; then
			echo "skip: build/$_tport/bin/paravtd not built (make nodes)"
			continue
		fi
		start_daemon "$_tn" "$_tport"
		eval "$1 $_tn \"\$DPORT_$_tn\""
		$2 "$_tn"
	done
}

start_daemon() {
	_n=$1 _p=$2; shift 2
	_bin=$TOP/build/$_p/bin/paravtd
	[ -x "$_bin" ] || fail "no $_bin (run make nodes)"
	rm -f "$T/$_n.port"
	# shellcheck disable=SC2046
	$(port_prefix "$_p") "$_bin" --listen 127.0.0.1:0 --port-file "$T/$_n.port" \
		--name "$_n" --log "$T/$_n.log" "$@" &
	_pid=$!
	track_pid $_pid
	wait_for 20 test -s "$T/$_n.port" || { cat "$T/$_n.log" 2>/dev/null; fail "daemon $_n did not start"; }
	eval "DPID_$_n=$_pid DPORT_$_n=$(cat "$T/$_n.port")"
}
