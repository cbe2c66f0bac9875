# 60-typedesc-cross — type descriptions across architectures.
# The typedesc test program (tests/typedesc/td_probe.c, with its
# hand-written table in td_probe_types.c) is built for x86_64, s390x
# (big-endian LP64) and i386 (ILP32); the s390x and i386 builds run under
# qemu-user.  Each writes its evaluated table and every variable's value
# to a file (td_probe -o), and serves the value paths of
# tests/typedesc/paths.txt (td_probe --serve) to the host tool td_show,
# which decodes and prints them.  The printed text must be identical on
# all three, except pointer addresses (masked as 0xADDR) and the values
# that really differ by ABI, spelled out below.  Skips (77) only when a
# cross compiler or qemu is missing.
. "$(dirname "$0")/../lib/common.sh"

PORTS="linux-x86_64 linux-s390x-qemu linux-i386-qemu"
for tool in s390x-linux-gnu-gcc i686-linux-gnu-gcc qemu-s390x qemu-i386; do
	command -v $tool >/dev/null 2>&1 || skip "$tool not installed"
done

cd "$TOP" || fail "no $TOP"
make -s build/tests/td_show >"$T/make.log" 2>&1 ||
	{ cat "$T/make.log"; fail "building td_show"; }
for p in $PORTS; do
	make -s PORT=$p build/$p/tests/td_probe >"$T/make.log" 2>&1 ||
		{ cat "$T/make.log"; fail "building td_probe for $p"; }
done
ok "td_probe built for $PORTS"

# run_prefix PORT: how to run a binary of PORT on this machine.
run_prefix() {
	sed -n 's/^RUN_PREFIX *= *//p' "ports/$1.mk"
}

# mask FILE: pointer addresses become 0xADDR.
mask() {
	sed -E 's/0x[0-9a-f]+/0xADDR/g' "$1"
}

SHOW=$TOP/build/tests/td_show
for p in $PORTS; do
	pre=$(run_prefix $p)
	# shellcheck disable=SC2086
	$pre build/$p/tests/td_probe -o "$T/$p.mpk" || fail "$p: td_probe -o"
	"$SHOW" -f "$T/$p.mpk" >"$T/$p.file" || fail "$p: td_show -f"
	# shellcheck disable=SC2086
	"$SHOW" -s -p tests/typedesc/paths.txt -- $pre build/$p/tests/td_probe \
		--serve >"$T/$p.live" || fail "$p: td_show live"
	grep -v '^sizeof(' "$T/$p.live" >"$T/$p.values"
	grep '^sizeof(' "$T/$p.live" >"$T/$p.sizes"
	mask "$T/$p.file" >"$T/$p.file.m"
	mask "$T/$p.values" >"$T/$p.values.m"
	echo "==== $p"
	cat "$T/$p.file" "$T/$p.values"
done

# What must appear on the reference (x86_64) output: every kind.
R=$T/linux-x86_64.values
expect() {
	grep -qxF -- "$1" "$R" || fail "x86_64: missing line: $1"
}
expect 'g_num = {i = 1078530011, f = 3.14159274}'
expect 'g_flags = {a = 5, b = -3, c = true, d = 300}'
expect 'g_grid[1][2] = {x = 12, y = -102}'
expect 'g_grid[0][1]@2 = {{x = 1, y = -1}, {x = 2, y = -2}}'
expect 'g_list->next->next->v = 3'
expect 'g_list->next->next->next->v = <unreadable at 0x0>'
expect 'g_wild = (struct cell *) 0xdead0 <unreadable>'
expect 'g_wild->v = <unreadable at 0xdead0>'
expect 'g_color = BLUE'
expect 'g_ld = 0.10000000000000001 <long double, 16 bytes>'
expect 'g_arr[2]@5 = {4, 9, 16, 25, 36}'
expect "g_all.nope: error: no member named 'nope' in struct all"
expect "g_all.i[2]: error: cannot index 'g_all.i': it is int, not an array or pointer"
expect "*g_color: error: cannot dereference 'g_color': it is enum color, not a pointer"
grep -Eq '^g_dangling = \(int \*\) 0x[0-9a-f]+ <unreadable>$' "$R" ||
	fail "dangling pointer not reported unreadable"
grep -Eq '^g_str = 0x[0-9a-f]+ "hello, world"$' "$R" || fail "char * string"
grep -Eq '^g_ring = .*-> \{v = 10, next = 0x[0-9a-f]+\}{5}$' "$R" ||
	fail "ring followed 5 levels"
ok "x86_64 prints every kind"

# The ABI differences, spelled out: s390x is LP64 with a 16-byte (IEEE
# quad) long double, so nothing differs but addresses; i386 has a 4-byte
# long and a 12-byte long double.
abi_i386() {
	sed -e 's/<long double, 16 bytes>/<long double, 12 bytes>/g' \
	    -e 's/^g_long = 9223372036854775807$/g_long = 2147483647/'
}
for p in linux-s390x-qemu linux-i386-qemu; do
	for k in file values; do
		if [ $p = linux-i386-qemu ]; then
			abi_i386 <"$T/linux-x86_64.$k.m" >"$T/want"
		else
			cp "$T/linux-x86_64.$k.m" "$T/want"
		fi
		diff -u "$T/want" "$T/$p.$k.m" ||
			fail "$p prints differently from x86_64 ($k)"
	done
	ok "$p prints the same as x86_64 (addresses masked, ABI spelled out)"
done

# Sizes are the target compiler's: a few that differ by ABI.
size_is() { # PORT TYPE SIZE
	grep -qxF "sizeof($2) = $3" "$T/$1.sizes" ||
		fail "$1: sizeof($2) is not $3: $(grep -F "sizeof($2) =" "$T/$1.sizes")"
}
for t in "long 8" "long double 16" "void * 8" "struct cell 16" "struct pt 16"; do
	size_is linux-x86_64 "${t% *}" "${t##* }"
	size_is linux-s390x-qemu "${t% *}" "${t##* }"
done
for t in "long 4" "long double 12" "void * 4" "struct cell 8" "struct pt 8"; do
	size_is linux-i386-qemu "${t% *}" "${t##* }"
done
ok "sizes come from each target's compiler"

# The file form (td_pack_value) and the served form (td_serve) agree.
for v in g_all g_num g_flags g_grid g_ld g_color g_arr; do
	a=$(grep "^$v = " "$T/linux-s390x-qemu.file")
	b=$(grep "^$v = " "$T/linux-s390x-qemu.values")
	[ "$a" = "$b" ] || fail "s390x: $v differs: '$a' vs '$b'"
done
ok "walker and request server agree"
