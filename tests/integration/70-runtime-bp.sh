# 70-runtime-bp — the node runtime (libparavt.a) at breakpoints, without
# paravtd.  The hand-instrumented test program tests/runtime/rt_prog.c is
# built for x86_64, s390x and i386 (the last two run under qemu-user) and
# run under tests/runtime/rt_fakedmn, which plays the daemon's side of the
# task socket: HELLO, TASK_HELLO, TYPE_TABLE, BP_HIT with file, line,
# function and stack, one INSPECT per variable printed with the console's
# printer, RESUME.  Checked on every port: the same text (addresses
# masked), the exit status 3, the crash report (TASK_CRASH with the last
# location and the signal, then death by SIGSEGV), hostile requests
# answered without harm, BYE and a refused HELLO leave the program
# running; and without PARAVT_SOCK the program runs as usual.
# Skips (77) only when a cross compiler or qemu is missing.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

PORTS="linux-x86_64 linux-s390x-qemu linux-i386-qemu"
for tool in s390x-linux-gnu-gcc i686-linux-gnu-gcc qemu-s390x qemu-i386; do
	command -v $tool >/dev/null 2>&1 || skip "$tool not installed"
done

cd "$TOP" || fail "no $TOP"
make -s build/tests/rt_fakedmn >"$T/make.log" 2>&1 ||
	{ cat "$T/make.log"; fail "building rt_fakedmn"; }
for p in $PORTS; do
	make -s PORT="$p" "build/$p/tests/rt_prog" >"$T/make.log" 2>&1 ||
		{ cat "$T/make.log"; fail "building rt_prog for $p"; }
done
ok "rt_prog built and linked with libparavt.a for $PORTS"

FAKE=$TOP/build/tests/rt_fakedmn

# run PORT NAME MODE [ARGS...]: rt_prog of PORT under the fake daemon;
# its output in $T/PORT.NAME (harness) and $T/PORT.NAME.out (program).
run() {
	_p=$1 _n=$2 _m=$3
	shift 3
	# shellcheck disable=SC2046
	timeout 120 "$FAKE" -m "$_m" -o "$T/$_p.$_n.out" -- \
		$(port_prefix "$_p") "build/$_p/tests/rt_prog" "$@" \
		>"$T/$_p.$_n" 2>"$T/$_p.$_n.err" ||
		{ cat "$T/$_p.$_n" "$T/$_p.$_n.err"; fail "$_p $_n: rt_fakedmn failed"; }
}

# mask FILE: the lines every port must print alike (addresses masked).
mask() {
	grep -v '^dmn: # ' "$1" | sed -E 's/0x[0-9a-f]+/0xADDR/g'
}

for p in $PORTS; do
	run $p normal normal
	run $p crash normal --crash
	run $p deep normal --deep
	run $p bad bad
	run $p bye bye
	run $p refuse refuse
	echo "==== $p"
	cat "$T/$p.normal"
done

# The reference run (x86_64): everything the runtime must report.
R=$T/linux-x86_64.normal
expect() {
	grep -qxF -- "$2" "$1" || { cat "$1"; fail "missing line in $1: $2"; }
}
expect "$R" "dmn: HELLO role=task version=${PROTO}"
expect "$R" 'dmn: TASK_HELLO proc=1 pid=ok'
expect "$R" 'dmn: TYPE_TABLE proc=1 table=0 build=rt_prog types=13'
expect "$R" 'dmn: BP_HIT proc=1 bp=1 at rt_prog.c:78 in work table=0'
expect "$R" 'dmn:   #0 work at rt_prog.c:78'
expect "$R" 'dmn:   #1 main at rt_prog.c:89'
expect "$R" 'dmn:   var r type=10 scope=param'
expect "$R" 'dmn:   var s_msg type=4 scope=static'
expect "$R" 'dmn:   n = 2'
expect "$R" 'dmn:   total = 100'
expect "$R" 'dmn:   g_count = 7'
expect "$R" 'dmn: BP_HIT proc=1 bp=2 at rt_prog.c:108 in main table=0'
expect "$R" 'dmn:   #0 main at rt_prog.c:108'
expect "$R" 'dmn:   arr = {1, 4, 9, 16, 25}'
expect "$R" 'dmn:   total = 200'
expect "$R" 'dmn:   g_count = 107'
expect "$R" 'dmn: EXIT 3'
expect_grep '^dmn:   r = \(struct rec \*\) 0x[0-9a-f]+$' "$R" "pointer r"
expect_grep '^dmn:   s_msg = 0x[0-9a-f]+ "hello, paravt"$' "$R" "string s_msg"
expect_grep '^dmn:   ip = \(int \*\) 0x[0-9a-f]+$' "$R" "pointer ip"
expect_grep '^dmn:   a = \{name = "alpha", pos = \{x = 1, y = -2\}, scores = \{10, 20, 30, 40\}, label = 0x[0-9a-f]+ "first", next = 0x0, weight = 1.5\}$' "$R" "struct a"
expect_grep '^dmn:   b = \{name = "beta", .*next = 0x[0-9a-f]+, weight = 2.25\}$' "$R" "struct b"
[ "$(grep -c '^dmn: TYPE_TABLE' "$R")" = 1 ] || fail "type table sent more than once"
expect "$T/linux-x86_64.normal.out" 'rt_prog: total=200 g_count=107 next=alpha'
ok "x86_64: breakpoints, stack, variables, resume, exit status 3"

# Every port prints the same (addresses masked; nothing here differs by
# ABI: the table's sizes are the target's, the values are not).
mask "$R" >"$T/want"
for p in linux-s390x-qemu linux-i386-qemu; do
	mask "$T/$p.normal" >"$T/got"
	diff -u "$T/want" "$T/got" || fail "$p prints differently from x86_64"
	cmp -s "$T/linux-x86_64.normal.out" "$T/$p.normal.out" ||
		fail "$p: program output differs"
done
expect "$T/linux-s390x-qemu.normal" 'dmn: # port=linux-s390x-qemu arch=s390x byte_order=big'
expect "$T/linux-i386-qemu.normal" 'dmn: # port=linux-i386-qemu arch=i686 byte_order=little'
ok "s390x (big-endian) and i386 (32-bit) print the same as x86_64"

for p in $PORTS; do
	C=$T/$p.crash
	expect "$C" 'dmn: BP_HIT proc=1 bp=1 at rt_prog.c:78 in work table=0'
	expect "$C" 'dmn: TASK_CRASH proc=1 signal=11 at rt_prog.c:78 in work'
	expect "$C" 'dmn: SIGNAL 11'
	expect_no_grep 'bp=2' "$C" "$p: crash mode went on to breakpoint 2"
	[ "$(sed -n '/TASK_CRASH/{n;p;}' "$C")" = 'dmn:   #0 work at rt_prog.c:78' ] ||
		fail "$p: crash stack"
	[ "$(sed -n '/TASK_CRASH/{n;n;p;}' "$C")" = 'dmn:   #1 main at rt_prog.c:89' ] ||
		fail "$p: crash stack (outer frame)"
done
ok "crash: TASK_CRASH with the last location and stack, then death by SIGSEGV"

# A stack deeper than the 256 stored frames: the frames not stored are
# counted (one "..." entry), and it unwinds right: breakpoint 2 in main
# afterwards has main alone on the stack.
for p in $PORTS; do
	D=$T/$p.deep
	expect "$D" 'dmn: BP_HIT proc=1 bp=3 at rt_prog.c:62 in dive table=0'
	[ "$(sed -n '/bp=3/{n;p;}' "$D")" = 'dmn:   #0 ... at :46' ] ||
		fail "$p: deep stack: no count of the frames not stored"
	[ "$(sed -n '/bp=3/{n;n;p;}' "$D")" = 'dmn:   #1 dive at rt_prog.c:50' ] ||
		fail "$p: deep stack: innermost stored frame"
	expect "$D" 'dmn:   #256 main at rt_prog.c:89'
	expect_no_grep '#257' "$D" "$p: deep stack longer than 256 frames + 1"
	expect "$D" 'dmn:   k = 0'
	[ "$(sed -n '/bp=2/{n;n;p;}' "$D")" = 'dmn:   var argc type=0 scope=param' ] ||
		fail "$p: stack not unwound after the deep recursion"
	expect "$D" 'dmn: EXIT 3'
done
ok "deep recursion: frames beyond 256 counted, stack unwound afterwards"

for p in $PORTS; do
	B=$T/$p.bad
	expect "$B" 'dmn:   bad request object: error: malformed value request'
	expect "$B" 'dmn:   unknown table 9: error: no type table 9 in this process'
	expect_grep '^dmn:   unknown type 9999: error: ' "$B"
	expect "$B" 'dmn:   int at 0x10 = <unreadable at 0x10>'
	expect "$B" 'dmn:   other process: error: INSPECT for process 2 reached process 1'
	expect_grep '^dmn:   member 99: error: ' "$B"
	expect_grep '^dmn:   deref of an int: error: ' "$B"
	expect_grep '^dmn:   INSPECT with bad field types: ERROR EMALFORMED: ' "$B"
	expect_grep '^dmn:   RESUME for process 77: ERROR EMALFORMED: ' "$B"
	expect_grep '^dmn:   PING: ERROR EPROTO: ' "$B"
	expect_grep '^dmn:   message type 200: ERROR EUNKNOWN: ' "$B"
	# ...and the task goes on serving and running normally.
	expect "$B" 'dmn:   total = 100'
	expect "$B" 'dmn:   g_count = 107'
	expect "$B" 'dmn: EXIT 3'
done
ok "hostile requests get VALUE ok=0 or ERROR; the task keeps working"

for p in $PORTS; do
	expect "$T/$p.bye" 'dmn: sending BYE'
	expect "$T/$p.bye" 'dmn: EXIT 3'
	expect_no_grep 'bp=2' "$T/$p.bye" "$p: stopped again after BYE"
	expect "$T/$p.bye.err" 'paravt: the daemon said goodbye (test over); running without paravt'
	expect "$T/$p.bye.out" 'rt_prog: total=200 g_count=107 next=alpha'
	expect "$T/$p.refuse" 'dmn: EXIT 3'
	expect_no_grep 'BP_HIT' "$T/$p.refuse" "$p: stopped after a refused HELLO"
	expect "$T/$p.refuse.err" 'paravt: daemon refused the task: this daemon refuses tasks; running without paravt'
	expect "$T/$p.refuse.out" 'rt_prog: total=200 g_count=107 next=alpha'
done
ok "BYE or a refused HELLO: one warning, the program runs on unattached"

# Without PARAVT_SOCK: no connection, no output from paravt, status 3.
# A socket path nobody listens on: one warning, status 3.
for p in $PORTS; do
	# shellcheck disable=SC2046
	env -u PARAVT_SOCK $(port_prefix "$p") "build/$p/tests/rt_prog" \
		>"$T/plain.out" 2>"$T/plain.err"
	rc=$?
	[ $rc = 3 ] || fail "$p: without PARAVT_SOCK exit status $rc, not 3"
	expect "$T/plain.out" 'rt_prog: total=200 g_count=107 next=alpha'
	[ -s "$T/plain.err" ] && { cat "$T/plain.err"; fail "$p: stderr without PARAVT_SOCK"; }
	# shellcheck disable=SC2046
	PARAVT_SOCK=$T/nobody.sock PARAVT_PROC=1 $(port_prefix "$p") \
		"build/$p/tests/rt_prog" >"$T/plain.out" 2>"$T/plain.err"
	rc=$?
	[ $rc = 3 ] || fail "$p: unreachable daemon: exit status $rc, not 3"
	expect_grep '^paravt: cannot connect to .*nobody.sock: .*; running without paravt$' "$T/plain.err"
	[ "$(wc -l <"$T/plain.err")" = 1 ] || fail "$p: more than one warning"
	# shellcheck disable=SC2046
	env -u PARAVT_SOCK $(port_prefix "$p") "build/$p/tests/rt_prog" --crash \
		>/dev/null 2>&1
	rc=$?
	[ $rc = 139 ] || fail "$p: unattached crash: status $rc, not 139 (SIGSEGV)"
done
ok "without paravtd the program runs (and crashes) as usual"
