#!/bin/sh
# 15-daemon-build-cross.sh — remote build and run on the x86_64 daemon and
# on the s390x (big-endian 64-bit) and i386 (32-bit) daemons under
# qemu-user: the daemon runs the host's cross compiler, the binary it
# makes is of the port's machine (ELF header), runs behind RUN_PREFIX and
# reports the target's ABI.  When the paravt runtime of the port is built
# (build/PORT/lib/libparavt.a), a program calling para_vt_start() is built
# against it too and its task connects to the daemon.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
ran=0

cat >"$T/abi.c" <<'C'
#include <stdio.h>
int main(void)
{
	unsigned int one = 1;
	printf("long=%u ptr=%u order=%s\n", (unsigned)sizeof(long),
	       (unsigned)sizeof(void *),
	       *(unsigned char *)&one ? "little" : "big");
	return 7;
}
C
cat >"$T/rt.c" <<'C'
#include <stdio.h>
#include "paravt_rt.h"
int main(void)
{
	para_vt_start();
	printf("runtime linked\n");
	para_vt_exit(0);
	return 0;
}
C

# ELF e_machine of FILE as a decimal number (bytes 18-19, in the file's
# own byte order, byte 5 of the header).
elf_machine() {
	_d=$(od -An -tu1 -j5 -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2046
	set -- $(od -An -tu1 -j18 -N2 "$1")
	if [ "$_d" = 2 ]; then echo $(($1 * 256 + $2)); else echo $(($2 * 256 + $1)); fi
}

# check PORT LONG PTR ORDER MACHINE
check() {
	_p=$1 _n=$(echo "$1" | tr -c 'a-z0-9\n' '_')
	if [ ! -x "$TOP/build/$_p/bin/paravtd" ]; then
		echo "no daemon for $_p (make node PORT=$_p); not tested"
		return 0
	fi
	_pre=$(port_prefix "$_p")
	if [ -n "$_pre" ] && ! command -v "${_pre%% *}" >/dev/null; then
		echo "no emulator for $_p"; return 0
	fi
	start_daemon "$_n" "$_p"
	_port='' _dpid=''
	eval "_port=\$DPORT_$_n _dpid=\$DPID_$_n"
	_rt=0
	[ -f "$TOP/build/$_p/lib/libparavt.a" ] && _rt=1
	set -- "$@" --put "1:abi.c=$T/abi.c" --build 1:abi:abi.c \
		--until BUILD_RESULT --run 1:1:plain:abi --until PROC_EXIT
	[ $_rt = 1 ] && set -- "$@" --put "2:rt.c=$T/rt.c" \
		--build 2:rt:rt.c --until BUILD_RESULT --run 2:2:plain:rt \
		--until PROC_EXIT
	shift 5
	"$WP" "127.0.0.1:$_port" --wait-ms 120000 --send SESSION_OPEN:t "$@" \
		--sleep-ms 3000 >"$T/$_n.out" 2>&1 &
	_c=$!
	track_pid $_c
	wait_for 150 grep -q '^PROC_EXIT proc=1' "$T/$_n.out" ||
		{ cat "$T/$_n.out" "$T/$_n.log"; fail "$_p: no PROC_EXIT"; }
	_bin=$T/paravtd-$(id -u)/$_dpid-s1/b1/abi
	_m=$(elf_machine "$_bin")
	echo "$_p: $_bin: $(file -b "$_bin" 2>/dev/null | cut -d, -f1-2) (e_machine $_m)"
	[ "$_m" = "$CHK_MACHINE" ] || fail "$_p: binary machine $_m, expected $CHK_MACHINE"
	[ $_rt = 1 ] && { wait_for 150 grep -Eq '^(PROC_EXIT proc=2|BUILD_RESULT build=2 ok=false)' "$T/$_n.out" ||
		{ cat "$T/$_n.out"; fail "$_p: runtime program did not end"; }; }
	if grep -q '^BUILD_RESULT build=2 ok=false' "$T/$_n.out"; then
		grep '^DIAG' "$T/$_n.out" | head -5
		fail "$_p: the program using build/$_p/lib/libparavt.a did not build (diagnostics above)"
	fi
	wait $_c
	cat "$T/$_n.out"
	expect_grep '^BUILD_RESULT build=1 ok=true program=abi$' "$T/$_n.out"
	expect_grep "^OUTPUT proc=1 stream=1 long=$CHK_LONG ptr=$CHK_PTR order=$CHK_ORDER\\\\n\$" "$T/$_n.out"
	expect_grep '^PROC_EXIT proc=1 status=7 signal=0 last=$' "$T/$_n.out"
	if [ $_rt = 1 ]; then
		expect_grep '^BUILD_RESULT build=2 ok=true program=rt$' "$T/$_n.out"
		expect_grep '^OUTPUT proc=2 stream=1 runtime linked' "$T/$_n.out"
		expect_grep '^PROC_EXIT proc=2 status=0 signal=0' "$T/$_n.out"
		expect_grep 'task of proc 2 ' "$T/$_n.log"
		echo "$_p: runtime program built, ran and connected"
	else
		echo "$_p: no build/$_p/lib/libparavt.a yet: runtime part skipped"
	fi
	ran=$((ran + 1))
}

CHK_LONG=8 CHK_PTR=8 CHK_ORDER=little CHK_MACHINE=62 check linux-x86_64 x x x x
CHK_LONG=8 CHK_PTR=8 CHK_ORDER=big CHK_MACHINE=22 check linux-s390x-qemu x x x x
CHK_LONG=4 CHK_PTR=4 CHK_ORDER=little CHK_MACHINE=3 check linux-i386-qemu x x x x
[ $ran -gt 0 ] || skip "no daemon built"
ok "$ran daemon(s) built and ran programs for their own machine"
