# 97-sigerrno — libparavt_sigerrno.so keeps errno across signal handlers
# that change it (wrappers/pvt_sigerrno.c), on every Linux port: natively
# with LD_PRELOAD, on the emulated ports through qemu's -E LD_PRELOAD=, as
# paravtd runs an emulated pvmd.  tests/programs/sigerrno_probe.c sets
# errno to EINTR, then lets a handler installed with signal() change it
# (raise(SIGUSR1); a child's SIGCHLD reaped until waitpid fails, as
# pvmd's handler does) and prints what errno became.  Without the library
# errno must change (the probe can see the fault), with it errno must be
# kept, and a program the probe starts must not inherit LD_PRELOAD (an
# emulated pvmd's children are host programs for which the library is
# the wrong kind of file: ld.so would complain on their stderr).
. "$(dirname "$0")/../lib/common.sh"

probe() { # PORT OUT [LIB]: runs the probe of PORT, stdout/stderr in OUT{,.err}
	_pre=""
	case $1 in
	linux-x86_64)
		if [ -n "${3-}" ]; then
			LD_PRELOAD=$3 "$T/probe-$1" >"$2" 2>"$2.err"
		else
			"$T/probe-$1" >"$2" 2>"$2.err"
		fi ;;
	*)
		[ -n "${3-}" ] && _pre="-E LD_PRELOAD=$3"
		# shellcheck disable=SC2086
		$_qemu -L "$_sr" $_pre "$T/probe-$1" >"$2" 2>"$2.err" ;;
	esac
}

n=0
for port in linux-x86_64 linux-s390x-qemu linux-i386-qemu; do
	lib=$TOP/build/$port/lib/libparavt_sigerrno.so
	case $port in
	linux-x86_64) cc=cc _qemu="" _sr="" ;;
	linux-s390x-qemu) cc=s390x-linux-gnu-gcc _qemu=qemu-s390x _sr=$TOP/build/sysroot/s390x ;;
	linux-i386-qemu) cc=i686-linux-gnu-gcc _qemu=qemu-i386 _sr=$TOP/build/sysroot/i386 ;;
	esac
	if ! command -v "$cc" >/dev/null || { [ -n "$_qemu" ] && ! command -v "$_qemu" >/dev/null; }; then
		echo "$port: no $cc or $_qemu here, not checked"
		continue
	fi
	[ -f "$lib" ] || fail "no $lib (make nodes)"
	"$cc" -std=c99 -Wall -Wextra -o "$T/probe-$port" "$TOP/tests/programs/sigerrno_probe.c" \
		>"$T/cc-$port.log" 2>&1 || { cat "$T/cc-$port.log"; fail "$port: build of the probe"; }

	rc=0; probe "$port" "$T/plain-$port" || rc=$?
	cat "$T/plain-$port"
	[ "$rc" = 1 ] || { cat "$T/plain-$port.err"; fail "$port: probe without the library exited $rc, not 1"; }
	expect_grep '^raise: changed to [0-9]+$' "$T/plain-$port" "$port: raise changed errno without the library"
	expect_grep '^sigchld: changed to [0-9]+$' "$T/plain-$port" "$port: SIGCHLD changed errno without the library"

	rc=0; probe "$port" "$T/kept-$port" "$lib" || rc=$?
	cat "$T/kept-$port" "$T/kept-$port.err"
	[ "$rc" = 0 ] || fail "$port: probe with the library exited $rc"
	expect_grep '^raise: kept$' "$T/kept-$port" "$port: errno kept across raise's handler"
	expect_grep '^sigchld: kept$' "$T/kept-$port" "$port: errno kept across the SIGCHLD handler"
	expect_grep '^child: LD_PRELOAD=unset$' "$T/kept-$port" "$port: LD_PRELOAD not inherited"
	[ ! -s "$T/kept-$port.err" ] || fail "$port: stderr with the library: $(cat "$T/kept-$port.err")"
	ok "$port: errno changed by the handlers without the library, kept with it; children without LD_PRELOAD"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no port checked"
[ "$n" = 3 ] || echo "only $n of 3 ports checked"
