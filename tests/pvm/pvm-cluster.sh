# tests/pvm/pvm-cluster.sh — a private, real PVM 3.4.6 virtual machine for
# tests: one host (native), or two hosts in two network namespaces where the
# second is the s390x Debian pvmd running under qemu-s390x.
#
# Source it after tests/lib/common.sh (it uses $T, $TOP, track_pid,
# on_exit, wait_for, fail, skip):
#
#   . "$(dirname "$0")/../lib/common.sh"
#   . "$TOP/tests/pvm/pvm-cluster.sh"
#   pvm_build_host pvm_master pvm_worker     # -> $T/bin/LINUX64
#   pvm_build_s390x pvm_master pvm_worker    # -> $T/bin/LINUXS390 (+ qemu)
#   pvm_start_single          # or: pvm_start_hetero  (needs root + netns)
#   pvm_run mw 60 pvm_master 6 || fail ...   # $T/mw.out, $T/mw.err
#   pvm_halt
#
# Everything is private to the test: PVM_TMP=$T/pvmtmp (pvmd.<uid>,
# pvml.<uid>, sockets; remote hosts get $PVM_TMP/host-ADDR), HOME=$T/home
# from common.sh, namespace and veth names carry $$.  pvm_halt and the exit
# hook stop the virtual machine and then kill, by PID, every process whose
# environment carries this PVM_TMP or that lives in one of our namespaces,
# then delete the namespaces — on success, failure or interruption alike.
# Every wait is bounded.

PVM_HARNESS=$TOP/tests/pvm
PVM_SYSROOT_S390X=${PVM_SYSROOT_S390X:-$TOP/build/sysroot/s390x}
PVM_SYSROOT_I386=${PVM_SYSROOT_I386:-$TOP/build/sysroot/i386}
export PVM_ROOT=${PVM_ROOT:-/usr/lib/pvm3}
export PVM_TMP=$T/pvmtmp
# As root, the console, pvmd and every task refuse to run without this.
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
unset PVM_VMID PVM_EXPORT PVM_DPATH 2>/dev/null || true
mkdir -p "$PVM_TMP" "$T/bin/LINUX64" "$T/bin/LINUXS390" "$T/obj"
# pvm_spawn's default search path is $HOME/pvm3/bin/$PVM_ARCH: point it at
# the same build directories as ep= does, so hosts started without a
# hostfile line find the programs too.
mkdir -p "$HOME/pvm3"
ln -sfn "$T/bin" "$HOME/pvm3/bin"

PVM_MODE=none          # none | single | hetero
PVM_NS_A="" PVM_NS_B=""
PVM_ADDR_A="" PVM_ADDR_B=""
PVM_DPID=""
PVM_CFLAGS_HARNESS="-std=c99 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra"

# Runs a command in the master host's namespace (or here in single mode).
pvm_in_a() {
	if [ -n "$PVM_NS_A" ]; then ip netns exec "$PVM_NS_A" "$@"; else "$@"; fi
}

# pvm_build_host PROG...: builds tests/programs/PROG.c for this machine into
# $T/bin/LINUX64/PROG (the group library first: the ring uses groups).
pvm_build_host() {
	for _p in "$@"; do
		cc $PVM_CFLAGS_HARNESS -o "$T/bin/LINUX64/$_p" "$TOP/tests/programs/$_p.c" \
			-lgpvm3 -lpvm3 >"$T/obj/$_p.host.log" 2>&1 ||
			{ cat "$T/obj/$_p.host.log"; fail "host build of $_p"; }
	done
	# The group server, spawned by the first group call wherever pvmd
	# places it; ep= replaces the default path, so it must be here.
	ln -sf /usr/lib/pvm3/lib/pvmgs "$T/bin/LINUX64/pvmgs"
}

# _pvm_target ARCH: sets the cross compiler, qemu, sysroot, library
# directory, PVM architecture name and paravt port of a target (s390x or
# i386).
_pvm_target() {
	case $1 in
	s390x) _tcc=s390x-linux-gnu-gcc _tqemu=qemu-s390x _tlib=s390x-linux-gnu
		_tarch=LINUXS390 _tsr=$PVM_SYSROOT_S390X _tport=linux-s390x-qemu ;;
	i386) _tcc=i686-linux-gnu-gcc _tqemu=qemu-i386 _tlib=i386-linux-gnu
		_tarch=LINUX _tsr=$PVM_SYSROOT_I386 _tport=linux-i386-qemu ;;
	*) fail "unknown PVM target $1" ;;
	esac
}

# pvm_qemu_wrapper OUT QEMU SYSROOT TARGET: writes the "#!" script that runs
# a target binary under qemu-user with its sysroot (see qemu-exec.in).
pvm_qemu_wrapper() {
	sed -e "s|@QEMU@|$2|" -e "s|@SYSROOT@|$3|" -e "s|@TARGET@|$4|" \
		"$PVM_HARNESS/qemu-exec.in" >"$1"
	chmod +x "$1"
}

# pvm_need_target ARCH: skips the test unless the cross compiler, qemu and
# the PVM sysroot (ports/deps.sh, sysroot version 2) are there.
pvm_need_target() {
	_pvm_target "$1"
	command -v $_tcc >/dev/null || skip "no $_tcc (run ports/deps.sh)"
	command -v $_tqemu >/dev/null || skip "no $_tqemu (run ports/deps.sh)"
	for _f in usr/bin/pvmd usr/bin/pvmgs usr/lib/$_tlib/libpvm3.a \
		usr/lib/$_tlib/libgpvm3.a usr/lib/$_tlib/libtirpc.a usr/include/pvm3.h; do
		[ -e "$_tsr/$_f" ] ||
			skip "no $_tsr/$_f: run ports/deps.sh (sysroot version 2 adds PVM)"
	done
}
pvm_need_s390x() { pvm_need_target s390x; }

# pvm_hetero_paravt: what a two-host run under paravt needs (PVM, root,
# ip(8), the s390x target; skips saying which is missing), a clean PVM
# environment and TMPDIR in $T; then the namespace pair and the two
# daemons (PVM_NS_A/B, PVM_ADDR_A/B, PA, PB), and the test in $T.
pvm_hetero_paravt() {
	command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
	[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
	[ "$(id -u)" = 0 ] || skip "network namespaces need root"
	command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"
	pvm_need_s390x
	export TMPDIR="$T"
	unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true
	pvm_netns_pair
	pvm_daemon_pair
	cd "$T" || fail "cd $T"
}

# pvm_build_target ARCH PROG...: cross-compiles PROG statically against the
# target sysroot's libgpvm3.a/libpvm3.a/libtirpc.a (sysroot headers first:
# the cross gcc would otherwise take the host's pvm3.h) into
# $T/obj/ARCH/PROG, and puts a qemu wrapper for it in $T/bin/<PVM arch>/PROG
# (plus one for the target's group server, pvmgs).
pvm_build_target() {
	pvm_need_target "$1"
	_a=$1; shift
	mkdir -p "$T/obj/$_a" "$T/bin/$_tarch"
	for _p in "$@"; do
		$_tcc $PVM_CFLAGS_HARNESS -static -I"$_tsr/usr/include" \
			-o "$T/obj/$_a/$_p" "$TOP/tests/programs/$_p.c" \
			"$_tsr/usr/lib/$_tlib/libgpvm3.a" "$_tsr/usr/lib/$_tlib/libpvm3.a" \
			"$_tsr/usr/lib/$_tlib/libtirpc.a" >"$T/obj/$_p.$_a.log" 2>&1 ||
			{ cat "$T/obj/$_p.$_a.log"; fail "$_a build of $_p"; }
		pvm_qemu_wrapper "$T/bin/$_tarch/$_p" $_tqemu "$_tsr" "$T/obj/$_a/$_p"
	done
	pvm_qemu_wrapper "$T/bin/$_tarch/pvmgs" $_tqemu "$_tsr" "$_tsr/usr/bin/pvmgs"
}
# pvm_build_s390x PROG...: pvm_build_target s390x PROG...
pvm_build_s390x() { pvm_build_target s390x "$@"; }

# PIDs of every process of this virtual machine: those whose environment
# holds our PVM_TMP (pvmds, tasks, group servers, qemu — they all inherit
# it, remote hosts with a /host-ADDR suffix) and those in our namespaces.
_pvm_pids() {
	# One grep over every environ file (-z: NUL-separated entries).  The
	# pipeline runs without PVM_TMP, or it would find its own processes.
	(
		_tmp=$PVM_TMP
		unset PVM_TMP
		grep -lzs "^PVM_TMP=$_tmp\(/.*\)\{0,1\}\$" /proc/[0-9]*/environ 2>/dev/null |
			sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$"
	)
	for _n in $PVM_NS_A $PVM_NS_B; do
		ip netns pids "$_n" 2>/dev/null
	done
}

# Kills the leftovers by PID (TERM, up to 2 s, then KILL).
_pvm_kill_all() {
	_l=$(_pvm_pids | sort -u)
	[ -n "$_l" ] || return 0
	# shellcheck disable=SC2086
	kill $_l 2>/dev/null
	_i=0
	while [ $_i -lt 20 ]; do
		_alive=""
		for _p in $_l; do kill -0 "$_p" 2>/dev/null && _alive="$_alive $_p"; done
		[ -z "$_alive" ] && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	kill -9 $_alive 2>/dev/null
	return 0
}

# _pvm_gone PID: true once PID has exited (a zombie counts as gone).
_pvm_gone() {
	[ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

# Exit hook: halt quietly, kill leftovers, delete namespaces.
_pvm_cleanup() {
	[ "$PVM_MODE" != none ] && pvm_halt >/dev/null 2>&1
	_pvm_kill_all
	for _n in $PVM_NS_A $PVM_NS_B; do ip netns del "$_n" 2>/dev/null; done
	return 0
}
on_exit _pvm_cleanup

# pvm_console CMD...: runs the PVM console in the master's namespace with
# the commands as its input (bounded to 15 s).  Only while our pvmd lives:
# a console that finds no pvmd would start one of its own.
pvm_console() {
	[ -n "$PVM_DPID" ] && kill -0 "$PVM_DPID" 2>/dev/null || { echo "pvm_console: no pvmd" >&2; return 1; }
	printf '%s\n' "$@" quit | pvm_in_a timeout -k 2 15 pvm 2>&1
}

# pvm_conf: the console's "conf" table (host lines only).
pvm_conf() {
	pvm_console conf | sed -n '/^ *HOST  *DTID/,/^pvm>/p' | grep -v '^pvm>'
}

# pvm_nhosts: how many hosts the running virtual machine has.
pvm_nhosts() {
	pvm_console conf | sed -n 's/^\([0-9][0-9]*\) hosts*, .*/\1/p'
}

# _pvm_has_hosts N: true when the virtual machine has N hosts (a function,
# so that wait_for re-evaluates it each time).
_pvm_has_hosts() { [ "$(pvm_nhosts)" = "$1" ]; }

_pvm_start_pvmd() {
	# $1: -n address or empty; $2: hostfile or empty.  pvmd stays in the
	# foreground and prints its socket name; its log is PVM_TMP/pvml.<uid>.
	_uid=$(id -u)
	rm -f "$PVM_TMP/pvmd.$_uid"
	# Not through pvm_in_a: a backgrounded function is a subshell, and
	# $! must be the pvmd itself (ip netns exec execs its command).
	if [ -n "$PVM_NS_A" ]; then
		# shellcheck disable=SC2086
		ip netns exec "$PVM_NS_A" pvmd $1 $2 </dev/null >"$T/pvmd.out" 2>&1 &
	else
		# shellcheck disable=SC2086
		pvmd $1 $2 </dev/null >"$T/pvmd.out" 2>&1 &
	fi
	PVM_DPID=$!
	track_pid "$PVM_DPID"
	wait_for 15 test -s "$PVM_TMP/pvmd.$_uid" || {
		cat "$T/pvmd.out" "$PVM_TMP/pvml.$_uid" 2>/dev/null
		fail "pvmd did not start"
	}
}

# pvm_start_single: one native host, in this namespace.
pvm_start_single() {
	[ "$PVM_MODE" = none ] || fail "a virtual machine is already running"
	PVM_MODE=single
	_pvm_start_pvmd "" ""
	wait_for 10 _pvm_has_hosts 1 || { pvm_console conf; fail "single-host VM not up"; }
}

# pvm_netns_pair: two network namespaces PVM_NS_A and PVM_NS_B joined by a
# veth pair, addresses PVM_ADDR_A and PVM_ADDR_B (10.231.7.1 and .2),
# loopback up in both.  Namespaces are private, so the fixed subnet cannot
# clash with another run; only the names (from $$) must be unique.  The
# exit hook deletes them (and the veths with them).  Skips (77) where
# namespaces cannot be made.
# pvm_daemon_pair: after pvm_netns_pair, starts paravtd "a" (x86_64) in
# namespace A and "b" (s390x, under qemu as start_daemon would run it)
# in namespace B, each on its namespace's address; waits for both and
# sets DA and DB (the binaries), PA and PB (their ports).  Logs go to
# $T/a.log and $T/b.log.
pvm_daemon_pair() {
	DA=$TOP/build/linux-x86_64/bin/paravtd
	DB=$TOP/build/linux-s390x-qemu/bin/paravtd
	[ -x "$DA" ] && [ -x "$DB" ] || fail "no paravtd for both ports (make nodes)"
	ip netns exec "$PVM_NS_A" "$DA" --listen "$PVM_ADDR_A:0" --allow-remote \
		--port-file "$T/a.port" --name a --log "$T/a.log" &
	track_pid $!
	# shellcheck disable=SC2046
	ip netns exec "$PVM_NS_B" $(port_prefix linux-s390x-qemu) "$DB" \
		--listen "$PVM_ADDR_B:0" --allow-remote \
		--port-file "$T/b.port" --name b --log "$T/b.log" &
	track_pid $!
	wait_for 20 test -s "$T/a.port" || { cat "$T/a.log"; fail "daemon a did not start"; }
	wait_for 30 test -s "$T/b.port" || { cat "$T/b.log"; fail "daemon b did not start"; }
	PA=$(cat "$T/a.port") PB=$(cat "$T/b.port")
}

pvm_netns_pair() {
	PVM_NS_A=pvtA$$ PVM_NS_B=pvtB$$
	ip netns add "$PVM_NS_A" 2>"$T/netns.err" || {
		PVM_NS_A="" PVM_NS_B=""
		skip "network namespaces not available here: $(cat "$T/netns.err")"
	}
	ip netns add "$PVM_NS_B" || fail "ip netns add $PVM_NS_B"
	PVM_ADDR_A=10.231.7.1 PVM_ADDR_B=10.231.7.2
	pvm_veth "$PVM_NS_A" "pva$$" "$PVM_ADDR_A" "$PVM_NS_B" "pvb$$" "$PVM_ADDR_B" ||
		fail "veth setup"
}

# pvm_veth NS1 IF1 ADDR1 NS2 IF2 ADDR2: a veth pair IF1-IF2 between
# namespaces NS1 and NS2, addresses ADDR1/24 and ADDR2/24, both ends and
# both loopbacks up.  Status of the first ip(8) that failed.
pvm_veth() {
	ip link add "$2" type veth peer name "$5" &&
		ip link set "$2" netns "$1" &&
		ip link set "$5" netns "$4" &&
		ip -n "$1" addr add "$3/24" dev "$2" &&
		ip -n "$4" addr add "$6/24" dev "$5" &&
		ip -n "$1" link set "$2" up &&
		ip -n "$4" link set "$5" up &&
		ip -n "$1" link set lo up &&
		ip -n "$4" link set lo up
}

# pvm_start_hetero [ARCH]: two hosts.  Namespace A (10.231.7.1) runs the
# native master pvmd; namespace B (10.231.7.2) gets, through
# tests/pvm/pvm-rsh.sh, the pvmd of ARCH: s390x (default; Debian's s390x
# pvmd under qemu-s390x, arch LINUXS390), i386 (qemu-i386, arch LINUX) or
# native (a second LINUX64 host).  Each host's ep= is $T/bin/<its arch>.
# Exits 77 if network namespaces cannot be made.
pvm_start_hetero() {
	[ "$PVM_MODE" = none ] || fail "a virtual machine is already running"
	command -v ip >/dev/null || skip "no ip(8): network namespaces unavailable"
	_b=${1:-s390x}
	if [ "$_b" = native ]; then
		_dx=/usr/lib/pvm3/lib/pvmd _ep=$T/bin/LINUX64
	else
		pvm_need_target "$_b"
		_dx=$T/pvmd-$_b _ep=$T/bin/$_tarch
		# errno kept across pvmd's signal handlers, as paravtd runs an
		# emulated pvmd (wrappers/pvt_sigerrno.c)
		_se=$TOP/build/$_tport/lib/libparavt_sigerrno.so
		[ -f "$_se" ] || fail "no $_se (make nodes)"
		pvm_qemu_wrapper "$_dx" "$_tqemu -E LD_PRELOAD=$_se" "$_tsr" "$_tsr/usr/bin/pvmd"
	fi
	pvm_netns_pair
	PVM_MODE=hetero
	sed -e "s|@ADDR_A@|$PVM_ADDR_A|" -e "s|@EP_A@|$T/bin/LINUX64|" \
		-e "s|@ADDR_B@|$PVM_ADDR_B|" -e "s|@DX_B@|$_dx|" -e "s|@EP_B@|$_ep|" \
		"$PVM_HARNESS/hostfile.hetero.in" >"$T/hostfile"
	export PVM_RSH="$PVM_HARNESS/pvm-rsh.sh"
	export PVM_RSH_NETNS="$PVM_ADDR_B=$PVM_NS_B"
	export PVM_RSH_LOG="$T/rsh.log"
	_pvm_start_pvmd "-n$PVM_ADDR_A" "$T/hostfile"
	wait_for 20 _pvm_has_hosts 2 || {
		pvm_console conf
		cat "$T/rsh.log" "$PVM_TMP/pvml.$(id -u)" 2>/dev/null
		fail "second host did not join"
	}
}

# pvm_run NAME SECONDS PROG [ARGS...]: runs $T/bin/LINUX64/PROG on the
# master host with a time limit; stdout in $T/NAME.out, stderr in
# $T/NAME.err; returns PROG's exit status (124 on timeout).
pvm_run() {
	_n=$1 _s=$2 _p=$3; shift 3
	pvm_in_a timeout -k 5 "$_s" "$T/bin/LINUX64/$_p" "$@" </dev/null \
		>"$T/$_n.out" 2>"$T/$_n.err"
}

# pvm_now: a time stamp in seconds; pvm_secs T0 T1: T1-T0 to 0.1 s.
pvm_now() { date +%s.%N; }
pvm_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# pvm_show NAME: prints a run's output and errors (for failure messages).
pvm_show() {
	echo "--- $1 stdout:"; cat "$T/$1.out" 2>/dev/null
	echo "--- $1 stderr:"; cat "$T/$1.err" 2>/dev/null
}

# pvm_halt: halts the virtual machine (the console's "halt", which also
# kills the console: exit 143 is normal), waits up to 10 s for the pvmd to
# go, then kills whatever is left by PID and removes PVM_TMP's files.
pvm_halt() {
	[ "$PVM_MODE" = none ] && return 0
	if [ -n "$PVM_DPID" ] && kill -0 "$PVM_DPID" 2>/dev/null; then
		printf 'halt\n' | pvm_in_a timeout -k 2 10 pvm >/dev/null 2>&1
		wait_for 10 _pvm_gone "$PVM_DPID"
	fi
	wait "$PVM_DPID" 2>/dev/null
	_pvm_kill_all
	for _n in $PVM_NS_A $PVM_NS_B; do ip netns del "$_n" 2>/dev/null; done
	PVM_NS_A="" PVM_NS_B="" PVM_DPID="" PVM_MODE=none
	unset PVM_RSH PVM_RSH_NETNS
	rm -rf "$PVM_TMP"
	mkdir -p "$PVM_TMP"
	return 0
}
