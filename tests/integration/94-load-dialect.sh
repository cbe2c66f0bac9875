#!/bin/sh
# 94-load-dialect.sh — the flags that change how C is read reach the
# instrumenter (libclang) as they reach gcc, and what gcc only warns about
# paravt does not refuse (issue 11: pvm-examples' starter.c, built with
# -fno-builtin-exit, was refused: "too few arguments to function call").
# tests/programs/old_style.c (K&R, `return;` in an int function, a bare
# exit()) on one native daemon:
#   (a) without -fno-builtin-exit: refused, as plain gcc refuses it;
#   (b) --cflags '-fno-builtin-exit': builds (the `return;` that libclang
#       makes an error by default is gcc's warning) and runs: the line and
#       status 0; with an argument it leaves by the bare exit();
#   (c) -DCHAR_IS_UNSIGNED compiles only where char is unsigned: with
#       --cflags '-funsigned-char' it builds (libclang and gcc both read
#       it), without it the build is refused;
#   (d) paravt trace --cflags '-fno-builtin-exit -std=gnu89 -w': status 0.
. "$(dirname "$0")/../lib/common.sh"
export TMPDIR="$T"
start_daemon nat linux-x86_64
P=$TOP/tests/programs
cd "$T" || fail "cd $T"
con() { # con OUT COMMAND...: the console with node nat and the commands
	_o=$1; shift
	_a="-n -e 'node add nat 127.0.0.1:$DPORT_nat'"
	for _c in "$@"; do _a="$_a -e '$_c'"; done
	eval "timeout -k 5 120 \"\$PARAVT\" $_a" >"$T/$_o" 2>&1
}

# ---- (a) as gcc: the bare exit() is refused without -fno-builtin-exit ----
gcc -o plain "$P/old_style.c" >gcc.out 2>&1 && fail "plain gcc built it"
expect_grep "too few arguments to function .exit" gcc.out "gcc's refusal"
con bare "load $P/old_style.c" "build" && { cat "$T/bare"; fail "built without -fno-builtin-exit"; }
cat "$T/bare"
expect_grep "old_style\.c:37:[0-9]+: error: too few arguments to function call" "$T/bare"
ok "without -fno-builtin-exit refused, as by gcc"

# ---- (b) -fno-builtin-exit reaches libclang; gcc's warnings are not refusals
gcc -w -fno-builtin-exit -o plain "$P/old_style.c" || fail "plain gcc -fno-builtin-exit"
con ok "load --cflags -fno-builtin-exit $P/old_style.c" "build" "run" "run -- leave" ||
	{ cat "$T/ok"; fail "console failed"; }
cat "$T/ok"
expect_grep '^build on nat: ok$' "$T/ok"
expect_no_grep 'error' "$T/ok"
expect_grep '^\[p1\] next of 41 is 42$' "$T/ok"
expect_grep '^\[p1 exited with status 0\]$' "$T/ok"
expect_grep '^\[p2\] next of 41 is 42$' "$T/ok" "the run that leaves by exit()"
expect_grep '^\[p2 exited with status [0-9]+\]$' "$T/ok"
ok "--cflags -fno-builtin-exit: built (return; only warned about), ran"

# ---- (c) -funsigned-char is read by both ---------------------------------
con uc "load -DCHAR_IS_UNSIGNED --cflags \"-fno-builtin-exit -funsigned-char\" $P/old_style.c" \
	"build" "run" || { cat "$T/uc"; fail "console failed"; }
expect_grep '^build on nat: ok$' "$T/uc"
expect_grep '^\[p1\] next of 41 is 42$' "$T/uc"
con sc "load -DCHAR_IS_UNSIGNED --cflags -fno-builtin-exit $P/old_style.c" "build" &&
	{ cat "$T/sc"; fail "built with a signed char"; }
expect_grep "old_style\.c:19:[0-9]+: error: .*negative size" "$T/sc"
ok "-funsigned-char reaches the instrumenter (built with it, refused without)"

# ---- (d) paravt trace --cflags, as the corpus builds starter.c ---------
rc=0
timeout -k 5 120 "$PARAVT" trace -o "$T/os.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
	--cflags "-fno-builtin-exit -std=gnu89 -w" "$P/old_style.c" -- run </dev/null >"$T/tr" 2>&1 || rc=$?
cat "$T/tr"
[ "$rc" = 0 ] || fail "paravt trace: status $rc"
expect_grep '^\[p1\] next of 41 is 42$' "$T/tr"
ok "paravt trace --cflags '-fno-builtin-exit -std=gnu89 -w': status 0"
