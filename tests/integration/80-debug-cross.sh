#!/bin/sh
# 80-debug-cross.sh — the debugger end to end on three architectures at
# once: a native x86_64 daemon, an s390x one (big-endian LP64) and an i386
# one (little-endian ILP32), the latter two under qemu-user.  The console
# loads tests/programs/bp_types.c, sets breakpoints, builds on every node
# (each with its own compiler), runs, and prints every variable on every
# process.  The printed text must be the same on the three nodes except
# pointer addresses (masked) and the values that really differ by ABI,
# which are spelled out below.  Then print -all groups, continue reaches
# the second breakpoint, and every process exits 0.
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
for p in linux-s390x-qemu linux-i386-qemu; do
	[ -x "$TOP/build/$p/bin/paravtd" ] || fail "build/$p/bin/paravtd missing (make nodes)"
done
start_daemon nat linux-x86_64
start_daemon big linux-s390x-qemu
start_daemon i32 linux-i386-qemu

cp "$TOP/tests/programs/bp_types.c" "$T/"
cd "$T" || fail "cd $T"
L_MAIN=$(grep -n '/\* BP:main \*/' bp_types.c | cut -d: -f1)
[ -n "$L_MAIN" ] || fail "no BP:main marker"

# Every variable recorded at BP:main, and a few paths into them.
VARS="n3 n2 n1 list *list list->next->next->v u fl ld msg dangling *dangling
col cnt fp ul szlong total g_count cv grid[1][2] grid[0] grid[1][1].name
grid[0][1]@2"

# shellcheck disable=SC2154
{
	echo "node add nat 127.0.0.1:$DPORT_nat"
	echo "node add big 127.0.0.1:$DPORT_big"
	echo "node add i32 127.0.0.1:$DPORT_i32"
	echo "load bp_types.c"
	# Each process stops at its own breakpoints (in stop-mode all the
	# first stop would stop the others wherever they are).
	echo "set stop-mode one"
	# A tbreak: every process must stop there once, not only the first.
	echo "tbreak bp_types.c:$L_MAIN"
	echo "break walk"
	echo "build"
	echo "run --timeout 120"
	echo "info procs"
	for p in p1 p2 p3; do
		echo "proc $p"
		for v in $VARS; do echo "print $v"; done
	done
	echo "print -all szlong"
	echo "print -all cnt"
	echo "continue all --timeout 120"
	echo "info procs"
	echo "print -all depth"
	echo "where"
	echo "continue all --timeout 120"
	echo "info procs"
} >"$T/script"

"$PARAVT" -n -x "$T/script" >"$T/out" 2>&1 || { cat "$T/out"; fail "console exited $?"; }
cat "$T/out"

expect_grep '^build on nat: ok$' "$T/out"
expect_grep '^build on big: ok$' "$T/out"
expect_grep '^build on i32: ok$' "$T/out"
for n in nat big i32; do
	expect_grep "^\[p[123] on $n stopped at temporary breakpoint 1, main \(\) at bp_types.c:$L_MAIN\]$" "$T/out" "$n did not stop at tbreak 1"
	expect_grep "^\[p[123] on $n stopped at breakpoint 2, walk \(\) at bp_types.c:[0-9]+\]$" "$T/out" "$n did not reach breakpoint 2"
done
ok "three nodes built, ran and stopped"

# Split the prints by process: "[current process pN on NODE, ...]" starts
# a section; keep the "name = value" lines, addresses masked.
awk -v dir="$T" '
/^\[current process p[0-9]+ on / { node = $5; sub(",", "", node); next }
/^\[|  \[p[0-9]+( p[0-9]+)*\]$/ { node = "" }
node != "" && / = / { print > (dir "/vals." node) }
' "$T/out"
for n in nat big i32; do
	[ -s "$T/vals.$n" ] || fail "no values printed for $n"
	sed -E 's/0x[0-9a-f]+/0xADDR/g' "$T/vals.$n" >"$T/masked.$n"
done

# What really differs by ABI, spelled out: i386 has a 4-byte long and a
# 12-byte long double; x86_64 and s390x have 8 and 16.
for n in nat big; do
	expect_grep '^ul = 18446744073709551615$' "$T/masked.$n"
	expect_grep '^szlong = 8$' "$T/masked.$n"
	expect_grep '^ld = 2.5 <long double, 16 bytes>$' "$T/masked.$n"
done
expect_grep '^ul = 4294967295$' "$T/masked.i32"
expect_grep '^szlong = 4$' "$T/masked.i32"
expect_grep '^ld = 2.5 <long double, 12 bytes>$' "$T/masked.i32"
sed -e 's/^ul = 4294967295$/ul = 18446744073709551615/' \
	-e 's/^szlong = 4$/szlong = 8/' \
	-e 's/<long double, 12 bytes>/<long double, 16 bytes>/' \
	"$T/masked.i32" >"$T/masked.i32.abi"
diff -u "$T/masked.nat" "$T/masked.big" || fail "s390x prints differ from x86_64"
diff -u "$T/masked.nat" "$T/masked.i32.abi" || fail "i386 prints differ from x86_64 beyond the ABI"
ok "prints identical on x86_64, s390x and i386 (but for addresses and ABI)"

# Spot checks of the values themselves (on the native node).
m=$T/masked.nat
expect_grep '^list->next->next->v = 30$' "$m"
expect_grep '^\*list = \{v = 10, next = 0xADDR\}$' "$m"
expect_grep '^u = \{i = 1078530011, f = 3.14159274\}$' "$m"
expect_grep '^fl = \{a = 5, b = -3, c = 1\}$' "$m"
expect_grep '^msg = 0xADDR "hello, world"$' "$m"
expect_grep '^dangling = \(int \*\) 0xADDR <unreadable>$' "$m"
expect_grep '^\*dangling = <unreadable at 0xADDR>$' "$m"
expect_grep '^col = BLUE$' "$m"
expect_grep '^cnt = 42$' "$m"
expect_grep '^fp = \(int \(\*\)\(int\)\) 0xADDR$' "$m"
expect_grep '^g_count = 3$' "$m"
expect_grep '^cv = 7$' "$m"
expect_grep '^grid\[1\]\[2\] = \{s = 12, d = 1.5, name = "c12"' "$m"
ok "values as the program set them"

# print -all groups equal answers and splits different ones.
expect_grep '^cnt = 42  \[p1 p2 p3\]$' "$T/out"
expect_grep '^szlong = 8  \[p[12] p[23]\]$' "$T/out"
expect_grep '^szlong = 4  \[p[123]\]$' "$T/out"
expect_grep '^depth = 10  \[p1 p2 p3\]$' "$T/out"
ok "print -all groups"

expect_grep '^#0 walk \(\) at bp_types.c:[0-9]+$' "$T/out"
expect_grep "^#1 main \(\) at bp_types.c:[0-9]+$" "$T/out"
for p in p1 p2 p3; do
	expect_grep "^\[$p\] total 73$" "$T/out"
	expect_grep "^\[$p exited with status 0\]$" "$T/out"
done
ok "continue to the second breakpoint; every process exits 0"
