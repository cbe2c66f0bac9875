#!/bin/sh
# 25-instrument-compile — the instrumenter's output compiles everywhere and
# changes nothing the program does.
#
# tests/instrument/types.c (with its user header types.h) uses every kind
# of type the type tables describe: a linked list, a union, bit-fields
# (signed, unsigned, _Bool, an unnamed one), a 2-D array of structs
# through a typedef chain, long double, char * and char arrays, an enum
# with negative values, const/volatile, function pointers, an unnamed
# struct named by a typedef with an unnamed member struct and union,
# size_t and FILE * from system headers, and variables that cannot be
# recorded (register, VLA, function-local unnamed struct).  It is
# instrumented with file:line, function and pragma breakpoints, then:
#   1. compiled for the host with -Wall -Wextra -Werror (the original is
#      clean, so the generated code must be too);
#   2. compiled (-c) with s390x-linux-gnu-gcc and i686-linux-gnu-gcc;
#   3. linked with tests/instrument/rt_stub.c (checks the evaluated table
#      at every breakpoint) and run natively and, when qemu is here, for
#      s390x and i386: same stdout and exit code as the original program;
#   4. if build/linux-x86_64/lib/libparavt.a exists, linked with the real
#      runtime and run without PARAVT_SOCK: same stdout and exit code.
. "$(dirname "$0")/../lib/common.sh"

cd "$TOP" || fail "no $TOP"
make -s build/tests/inst_tool >"$T/make.log" 2>&1 ||
	{ cat "$T/make.log"; fail "building inst_tool"; }
TOOL=$TOP/build/tests/inst_tool
SRC=tests/instrument
INC="-Ibreakpoints -Itypedesc"

mkdir -p "$T/out"
"$TOOL" -o "$T/out" -b types.c:33 -t types.c:49 -f main -f origin \
	"$SRC/types.c" >"$T/bps" 2>"$T/err" ||
	{ cat "$T/err"; fail "instrumenting types.c"; }
cat "$T/bps"
for f in types.c types.h; do
	[ -f "$T/out/$f" ] || fail "$f not shipped"
done
grep -q '^bp 1 tests/instrument/types.c:33 (asked 33) in walk: c:const struct cell \* op:binop_t s:long$' "$T/bps" ||
	fail "breakpoint 1 variables"
grep -q '^bp 2 tests/instrument/types.c:50 (asked 49) in fill temp:' "$T/bps" ||
	fail "breakpoint 2 moved and temp"
grep -q ' pragma: ' "$T/bps" || fail "pragma breakpoint"
grep -q "variable 'reg' not recorded: it is a register variable" "$T/bps" ||
	fail "register note"
grep -q "variable 'vla' not recorded: variable length array" "$T/bps" ||
	fail "VLA note"
ok "instrumented: $(grep -c '^bp ' "$T/bps") breakpoints"

# 1. host, warnings as errors (the original is warning-free).
cc -std=c99 -Wall -Wextra -Werror -Wno-unknown-pragmas -c -o "$T/orig.o" "$SRC/types.c" ||
	fail "original does not compile cleanly"
cc -std=c99 -Wall -Wextra -Werror $INC -c -o "$T/inst.o" "$T/out/types.c" ||
	fail "host compile of the instrumented file"
ok "host compile (-Wall -Wextra -Werror)"

# 2. cross compilers.
for cc in s390x-linux-gnu-gcc i686-linux-gnu-gcc; do
	if ! command -v $cc >/dev/null 2>&1; then
		echo "skip: $cc not installed"
		continue
	fi
	$cc -std=c99 -Wall -Werror $INC -c -o "$T/$cc.o" "$T/out/types.c" ||
		fail "$cc compile of the instrumented file"
	ok "$cc -c"
done

# run_cmp NAME CC RUNPREFIX: original vs instrumented+stub, same output.
run_cmp() {
	name=$1 cc=$2 pre=$3
	$cc -std=c99 -static -o "$T/$name.orig" "$SRC/types.c" 2>"$T/cc.err" ||
		{ cat "$T/cc.err"; fail "$name: link original"; }
	$cc -std=c99 -static $INC -o "$T/$name.inst" "$T/out/types.c" \
		"$SRC/rt_stub.c" 2>"$T/cc.err" ||
		{ cat "$T/cc.err"; fail "$name: link instrumented"; }
	# shellcheck disable=SC2086
	$pre "$T/$name.orig" >"$T/$name.orig.out"
	rc1=$?
	# shellcheck disable=SC2086
	$pre "$T/$name.inst" >"$T/$name.inst.out" 2>"$T/$name.vars"
	rc2=$?
	echo $rc1 >"$T/$name.rc"
	[ $rc1 = $rc2 ] || { cat "$T/$name.vars"; fail "$name: exit $rc1 vs $rc2"; }
	cmp -s "$T/$name.orig.out" "$T/$name.inst.out" ||
		{ diff "$T/$name.orig.out" "$T/$name.inst.out"; fail "$name: stdout differs"; }
	grep -q '^bp 1 walk c const struct cell \* 20 ' "$T/$name.vars" ||
		{ cat "$T/$name.vars"; fail "$name: table not checked at bp 1"; }
	ok "$name: same stdout and exit code ($rc1); $(wc -l <"$T/$name.vars") variables checked"
	# every statement's line probe armed: each stops, same run
	# shellcheck disable=SC2086
	RT_STUB_PROBES=1 $pre "$T/$name.inst" >"$T/$name.armed.out" 2>"$T/$name.armed"
	[ $? = "$rc1" ] || fail "$name: armed probes change the exit code"
	cmp -s "$T/$name.orig.out" "$T/$name.armed.out" ||
		fail "$name: armed probes change stdout"
	n=$(grep -c '^bp 4294967295 ' "$T/$name.armed")
	[ "$n" -gt 20 ] || { head "$T/$name.armed"; fail "$name: armed probes did not stop ($n)"; }
	ok "$name: armed line probes: $n variables checked at statements"
}
run_cmp host cc ""
if command -v qemu-s390x >/dev/null 2>&1 && command -v s390x-linux-gnu-gcc >/dev/null 2>&1; then
	run_cmp s390x s390x-linux-gnu-gcc "qemu-s390x -L /usr/s390x-linux-gnu"
	grep -q ' g_ld long double 15 16$' "$T/s390x.vars" ||
		fail "s390x: long double is 16 bytes there"
fi
if command -v qemu-i386 >/dev/null 2>&1 && command -v i686-linux-gnu-gcc >/dev/null 2>&1; then
	run_cmp i386 i686-linux-gnu-gcc "qemu-i386 -L /usr/i686-linux-gnu"
	grep -q ' g_size size_t 10 4$' "$T/i386.vars" ||
		fail "i386: size_t is 4 bytes there"
	grep -q ' g_ld long double 15 12$' "$T/i386.vars" ||
		fail "i386: long double is 12 bytes there"
fi

# 4. the real runtime, when it has been built.
RT=build/linux-x86_64/lib/libparavt.a
if [ -f "$RT" ]; then
	libs="$RT"
	for l in build/linux-x86_64/lib/libpvttd.a build/linux-x86_64/lib/libpvtwire.a; do
		[ -f "$l" ] && libs="$libs $l"
	done
	# shellcheck disable=SC2086
	cc -std=c99 $INC -o "$T/real" "$T/out/types.c" $libs -lmsgpackc \
		-lpthread 2>"$T/cc.err" || { cat "$T/cc.err"; fail "link with $RT"; }
	env -u PARAVT_SOCK "$T/real" >"$T/real.out"
	rc=$?
	[ $rc = "$(cat "$T/host.rc")" ] || fail "libparavt: exit code differs"
	cmp -s "$T/host.orig.out" "$T/real.out" || fail "libparavt: stdout differs"
	ok "linked with libparavt.a, runs as the original"
else
	echo "skip: $RT not built yet"
fi
ok "25-instrument-compile"
