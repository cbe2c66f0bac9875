# tests/lib/pvm_wrapped.sh — for the tests that run PVM programs built
# with the wrappers against ev_sink (92-wrappers-pvm*.sh).  Source after
# common.sh.
#
# pvm_wrapped_setup [FILE...]: skips without PVM (pvmd, pvm3.h); sets B
# (this host's build) and SINK (ev_sink); fails unless ev_sink, the
# runtime's archives and FILEs are built.
pvm_wrapped_setup() {
	command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
	[ -f /usr/include/pvm3.h ] ||
		skip "pvm-dev not installed (run ports/deps.sh)"
	B=$TOP/build/linux-x86_64
	SINK=$B/tests/ev_sink
	for _f in "$SINK" "$B/lib/libparavt_pvm.a" "$B/lib/libparavt.a" "$@"; do
		[ -e "$_f" ] || fail "$_f not built (make node)"
	done
}

# pvm_sink_socket PREFIX: SID (PREFIX and this shell's pid) and SOCK, the
# session's socket at its well-known path (the directory a node's
# paravtd would create), removed at exit.
pvm_sink_socket() {
	SID=$1$$
	_sdir=/tmp/paravtd-$(id -u)
	mkdir -p "$_sdir" && chmod 700 "$_sdir"
	SOCK=$_sdir/session-$SID.sock
	on_exit "rm -f '$SOCK'"
}

# pvm_cc_wrapped OUT SRC LOG [CFLAGS...]: SRC built into OUT with the
# wrappers forced in (-include paravt_pvm.h, as the instrumenter injects
# it) and linked with libparavt_pvm.a and libparavt.a; the compiler's
# output in LOG, shown when it fails.
pvm_cc_wrapped() {
	_out=$1 _src=$2 _log=$3
	shift 3
	cc "$@" -include "$B/include/paravt_pvm.h" -I"$B/include" -o "$_out" \
		"$_src" "$B/lib/libparavt_pvm.a" "$B/lib/libparavt.a" \
		-lmsgpackc -lgpvm3 -lpvm3 >"$_log" 2>&1 ||
		{ cat "$_log"; fail "build of $_src with the wrappers"; }
}
