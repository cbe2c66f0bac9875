#!/bin/sh
# 94-load-flags.sh — load takes a Makefile's flags, detects PVM and MPI
# programs, and run gives the first process a file as standard input
# (issue 11), on one native daemon:
#   (a) stdin_norm.c calls sqrt: built without -lm it fails to link
#       (undefined sqrt, the compiler's own words); with
#       "load -lm -DNORM_SCALE=2 --cflags '-O1 -Wall' stdin_norm.c" it
#       builds, and "run < numbers" prints the norm of the file's numbers
#       (3 4 12 -> 13, scaled: 26.000) after as many prompts, then EOF
#       ends its loop; "run" without a file: EOF at once (status 3);
#       "--cflags@linux-x86_64 '-DNORM_SCALE=3'" reaches this node,
#       "--cflags@linux-s390x-qemu '-DNORM_SCALE=5'" does not;
#   (b) refused flags, each with its reason and nothing loaded: -o,
#       -fplugin, -Wl,-Map,..., a relative -L, a source-like word in
#       --cflags, an unterminated quote, --cflags@ without a port, a
#       linker flag in --cflags; and the daemon refuses a BUILD whose
#       flags the console would not send (wirepoke);
#   (c) detection: pvm_prompt.c "PVM program (includes pvm3.h)" without
#       --pvm, builds and "run pvm pvm_prompt < values" reads the values
#       then EOF (a master that loops on its prompt); mpi_stdin.c "MPI
#       program (includes mpi.h)"; a header that includes mpi.h ("through
#       common.h"); includes inside comments do not count; both headers
#       without --pvm/--mpi is an error; --plain overrides;
#   (d) "run <numbers" in a -x script; paravt trace --stdin FILE, and its
#       load flags (-lm): status 0, the norm printed; a missing --stdin
#       file is a usage error (status 2).
. "$(dirname "$0")/../lib/common.sh"
command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
command -v mpicc >/dev/null || skip "no mpicc (Open MPI)"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
unset PVM_EXPORT PVM_VMID PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR 2>/dev/null || true
start_daemon nat linux-x86_64
P=$TOP/tests/programs
cd "$T" || fail "cd $T"
printf '3 4\n12\n' >numbers
printf '1\n2\n3\n' >values
con() { # con OUT COMMAND...: the console with node nat and the commands
	_o=$1; shift
	_a="-n -e 'node add nat 127.0.0.1:$DPORT_nat'"
	for _c in "$@"; do _a="$_a -e '$_c'"; done
	eval "timeout -k 5 120 \"\$PARAVT\" $_a" >"$T/$_o" 2>&1
}

# ---- (a) flags reach the compile and the link; stdin -------------------
con nolm "load $P/stdin_norm.c" "build" && fail "built without -lm"
cat "$T/nolm"
expect_grep "undefined reference to .sqrt" "$T/nolm" "the linker's own diagnostic"
expect_grep '^stdin_norm\.c: plain program \(includes neither pvm3\.h nor mpi\.h\)$' "$T/nolm"
ok "without -lm the link fails on sqrt"

con lm "load -lm -DNORM_SCALE=2 --cflags \"-O1 -Wall\" $P/stdin_norm.c" \
	"build" "run < numbers" "run" || { cat "$T/lm"; fail "console failed"; }
cat "$T/lm"
expect_grep '^build on nat: ok$' "$T/lm"
expect_grep '^\[p1\] number 1\? number 2\? number 3\? number 4\? $' "$T/lm" "one prompt per number, then EOF"
expect_grep '^\[p1\] read 3 numbers, norm 26\.000$' "$T/lm" "-DNORM_SCALE=2 and the file as stdin"
expect_grep '^\[p1 exited with status 0\]$' "$T/lm"
expect_grep '^\[p2\] read 0 numbers, norm 0\.000$' "$T/lm" "without < FILE stdin is at EOF"
expect_grep '^\[p2 exited with status 3\]$' "$T/lm"
ok "-lm links, -D and --cflags compile, run < FILE feeds the loop then EOF"

con port "load -lm --cflags@linux-x86_64 -DNORM_SCALE=3 --cflags@linux-s390x-qemu=-DNORM_SCALE=5 $P/stdin_norm.c" \
	"build" "run <numbers" || { cat "$T/port"; fail "console failed"; }
expect_grep '^\[p1\] read 3 numbers, norm 39\.000$' "$T/port" "--cflags@linux-x86_64 not applied (or the s390x one was)"
ok "--cflags@PORT reaches the nodes of that port only"

# ---- (b) refusals ------------------------------------------------------
refused() { # refused WHAT PATTERN LOAD-WORDS
	_w=$1 _p=$2; shift 2
	con ref "load $* $P/stdin_norm.c" "info breakpoints" && fail "$_w: accepted"
	expect_grep "$_p" "$T/ref" "$_w: reason"
	expect_no_grep '^loaded' "$T/ref" "$_w: something was loaded"
	ok "$_w: $(grep -m1 'error' "$T/ref")"
}
refused "-o" "flag '-o' refused: it names the output file" "-o prog"
refused "-fplugin" "flag '-fplugin=x.so' refused: it loads code" "--cflags -fplugin=x.so"
refused "-Wl,-Map" "the linker option '-Map' is not one paravt passes" "--ldflags -Wl,-Map,/tmp/m"
refused "relative -L" "a library directory is read on the node; give its absolute path" "-L libs"
refused "source in --cflags" "flag 'x.c' refused: it is not an option" "--cflags \"-O2 x.c\""
refused "unterminated quote" "load: --cflags: unterminated" "--cflags \"-DX=\\\"a\""
refused "no port" "PORT must be a port name" "--cflags@ -O2"
refused "linker flag in --cflags" "'-lm' refused: it is a linker flag" "--cflags -lm"
refused "unknown --option" "unknown option '--frobnicate'" "--frobnicate"

"$WP" "127.0.0.1:$DPORT_nat" --wait-ms 5000 --send SESSION_OPEN:t \
	--put "1:x.c=$P/stdin_norm.c" --build "1:x:x.c:-o /tmp/evil" \
	--build "1:x:x.c:-O2:-Wl,-Map,/tmp/evil.map" --build "1:x:x.c::-DX" \
	>"$T/wp" 2>&1
cat "$T/wp"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-o' refused: it names the output file" "$T/wp"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-Wl,-Map,/tmp/evil.map' refused" "$T/wp"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-DX' refused: it is a compiler flag" "$T/wp"
[ ! -e /tmp/evil ] && [ ! -e /tmp/evil.map ] || fail "something was written outside"
ok "the daemon refuses such flags in BUILD itself"

# ---- (c) detection -----------------------------------------------------
con pvm "load $P/pvm_prompt.c" "build" "run pvm --timeout 60 pvm_prompt < values" ||
	{ cat "$T/pvm" "$T/nat.log"; fail "console failed"; }
cat "$T/pvm"
expect_grep '^pvm_prompt\.c: PVM program \(includes pvm3\.h\)$' "$T/pvm"
expect_grep '^\[p1\] value\? value\? value\? value\? $' "$T/pvm" "the master's prompt loop"
expect_grep '^\[p1\] values 3 sum of squares 14$' "$T/pvm"
expect_grep '^\[p1 exited with status 0\]$' "$T/pvm"
ok "a PVM program without --pvm is detected, links, and its master reads the file then EOF"

mkdir -p det/inc
printf '#include "common.h"\nint main(void) { return work(); }\n' >det/main.c
printf '#ifndef COMMON_H\n#define COMMON_H\n#  include   <mpi.h>\nstatic int work(void) { return 0; }\n#endif\n' >det/inc/common.h
printf '/* #include <pvm3.h> */\n// #include <mpi.h>\n#include <stdio.h>\nint main(void) { puts("x /* #include <mpi.h> */"); return 0; }\n' >det/commented.c
printf '#include <pvm3.h>\n#include <mpi.h>\nint main(void) { return 0; }\n' >det/both.c
con detect "load -Idet/inc det/main.c" "load det/commented.c" \
	"load --plain $P/pvm_prompt.c" "load $P/mpi_stdin.c" \
	|| { cat "$T/detect"; fail "console failed"; }
cat "$T/detect"
expect_grep '^main\.c: MPI program \(includes mpi\.h through common\.h\)$' "$T/detect"
expect_grep '^commented\.c: plain program \(includes neither pvm3\.h nor mpi\.h\)$' "$T/detect" "an include in a comment counted"
expect_grep '^pvm_prompt\.c: plain program \(--plain given; it includes pvm3\.h\)$' "$T/detect"
expect_grep '^mpi_stdin\.c: MPI program \(includes mpi\.h\)$' "$T/detect"
con both "load det/both.c" && fail "both headers accepted"
expect_grep "both\.c includes pvm3\.h and both\.c includes mpi\.h: say which with --pvm or --mpi" "$T/both"
con both2 "load --mpi det/both.c" || fail "--mpi did not settle it"
expect_grep 'both\.c: MPI program' "$T/both2"
ok "detection through headers, not in comments; both is an error; --plain/--mpi override"

# ---- (d) scripts and paravt trace --stdin ----------------------------
printf '%s\n' "node add nat 127.0.0.1:$DPORT_nat" "load -lm $P/stdin_norm.c" build \
	"run <numbers" >script.pvt
timeout -k 5 120 "$PARAVT" -n -x script.pvt >"$T/script" 2>&1 || { cat "$T/script"; fail "paravt -x"; }
expect_grep '^\[p1\] read 3 numbers, norm 13\.000$' "$T/script" "run < FILE in a -x script"
ok "run <FILE in a -x script"

rc=0
timeout -k 5 120 "$PARAVT" trace -o "$T/norm.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
	--stdin numbers -lm "$P/stdin_norm.c" -- run </dev/null >"$T/tr" 2>&1 || rc=$?
cat "$T/tr"
[ "$rc" = 0 ] || fail "paravt trace --stdin: status $rc"
expect_grep '^\[p1\] read 3 numbers, norm 13\.000$' "$T/tr"
ok "paravt trace --stdin FILE -lm: status 0, the program read the file"
rc=0
timeout 30 "$PARAVT" trace -o "$T/x.pvt" --node "nat=127.0.0.1:$DPORT_nat" \
	--stdin nonexistent "$P/stdin_norm.c" -- run </dev/null >"$T/tr2" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$T/tr2"; fail "missing --stdin file: status $rc, not 2"; }
expect_grep "paravt trace: --stdin: cannot read 'nonexistent'" "$T/tr2"
ok "a missing --stdin file is a usage error"
