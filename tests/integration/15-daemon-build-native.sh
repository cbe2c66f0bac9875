#!/bin/sh
# 15-daemon-build-native.sh — remote build and run on the x86_64 daemon:
# FILE_PUT + BUILD of a hello world, RUN with arguments (OUTPUT on both
# streams, PROC_EXIT with the exit status), a compile error (ok=false, the
# diagnostic names file:line), a refused compiler flag, two builds that do
# not collide, KILL, an unknown kind refused, and SIGTERM killing the programs
# and removing the work directory.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
WORK=$T/paravtd-$(id -u)/$DPID_n1-s1

cat >"$T/hello.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	printf("hello %s\n", argc > 1 ? argv[1] : "nobody");
	fprintf(stderr, "to stderr\n");
	return 3;
}
C
cat >"$T/other.c" <<'C'
#include <stdio.h>
int main(void) { puts("other build"); return 0; }
C
printf 'int main(void)\n{\n\treturn undeclared_x;\n}\n' >"$T/bad.c"
cat >"$T/sleeper.c" <<'C'
#include <unistd.h>
int main(void) { for (;;) pause(); }
C

"$WP" "$A" --wait-ms 60000 --send SESSION_OPEN:t \
	--put "1:hello.c=$T/hello.c" --build '1:hello:hello.c:-Wall -O2 -DX=1' \
	--put "2:src/hello.c=$T/other.c" --build '2:hello:src/hello.c' \
	--until BUILD_RESULT --until BUILD_RESULT \
	--run '1:1:plain:hello:world' --until PROC_EXIT \
	--run '2:2:plain:hello' --until PROC_EXIT \
	--put "3:bad.c=$T/bad.c" --build 3:bad:bad.c --until BUILD_RESULT \
	--build '3:bad:bad.c:-Wl,-rpath,/x' --build '3:bad:bad.c:-fplugin=x.so' \
	--build '3:bad:bad.c:-I../..' \
	--run 4:1:bogus:hello --run 5:3:plain:bad \
	--put "4:sleeper.c=$T/sleeper.c" --build 4:sleeper:sleeper.c \
	--until BUILD_RESULT --run 6:4:plain:sleeper --send KILL:3 \
	--until PROC_EXIT --send KILL:99 >"$T/out" 2>&1
cat "$T/out"
expect_grep '^BUILD_RESULT build=1 ok=true program=hello$' "$T/out"
expect_grep '^BUILD_RESULT build=2 ok=true program=hello$' "$T/out"
expect_grep '^PROC_START run=1 proc=1 pid=[0-9]+$' "$T/out"
expect_grep '^OUTPUT proc=1 stream=1 hello world\\n$' "$T/out"
expect_grep '^OUTPUT proc=1 stream=2 to stderr\\n$' "$T/out"
expect_grep '^PROC_EXIT proc=1 status=3 signal=0 last=$' "$T/out"
expect_grep '^OUTPUT proc=2 stream=1 other build\\n$' "$T/out"
expect_grep '^PROC_EXIT proc=2 status=0 signal=0 last=$' "$T/out"
ok "two builds, run with arguments, output and exit status"

expect_grep '^BUILD_RESULT build=3 ok=false program=bad$' "$T/out"
expect_grep '^DIAG bad\.c:3:[0-9]+: error: .undeclared_x. undeclared' "$T/out"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-Wl,-rpath,/x' refused: it is a linker flag" "$T/out"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-fplugin=x.so' refused: it loads code" "$T/out"
expect_grep "^ERROR EARG ref=[0-9]+ BUILD: flag '-I\.\./\.\.' refused: the directory or file must be attached \(-Idir\) and absolute, or relative inside the build without '\.\.'" "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ RUN: kind bogus is not supported \(plain, pvm, mpi\)$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ RUN: build 3 has no program bad$' "$T/out"
ok "compile error with file:line, refused flags, refused kind"

expect_grep '^PROC_START run=6 proc=3 pid=[0-9]+$' "$T/out"
expect_grep '^PROC_EXIT proc=3 status=-1 signal=9 last=$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ KILL: no process 99$' "$T/out"
ok "KILL"

# The session ended with its console: its directory is gone.
wait_for 5 test ! -e "$WORK" || fail "$WORK left after the console went"

# SIGTERM kills what runs and removes the work directory.
"$WP" "$A" --wait-ms 60000 --send SESSION_OPEN:t2 \
	--put "1:sleeper.c=$T/sleeper.c" --build 1:sleeper:sleeper.c \
	--until BUILD_RESULT --run 1:1:plain:sleeper --sleep-ms 8000 \
	>"$T/out2" 2>&1 &
track_pid $!
wait_for 30 grep -q '^PROC_START' "$T/out2" || { cat "$T/out2"; fail "no PROC_START"; }
pid=$(sed -n 's/^PROC_START .* pid=//p' "$T/out2")
WORK2=$T/paravtd-$(id -u)/$DPID_n1-s2
[ -S "$WORK2/task.sock" ] || fail "no task socket in $WORK2"
[ "$(stat -c %a "$WORK2")" = 700 ] || fail "work dir mode $(stat -c %a "$WORK2")"
[ "$(stat -c %a "$WORK2/b1/sleeper.c")" = 644 ] || fail "file mode"
tr '\0' '\n' <"/proc/$pid/environ" >"$T/env"
expect_grep "^PARAVT_SOCK=$WORK2/task.sock\$" "$T/env"
expect_grep '^PARAVT_PROC=4$' "$T/env"
kill -TERM "$DPID_n1"
wait "$DPID_n1" || fail "daemon exit status"
! kill -0 "$pid" 2>/dev/null || fail "program $pid survived SIGTERM"
[ ! -e "$WORK2" ] || fail "$WORK2 left after SIGTERM"
expect_grep 'removed .*-s2' "$T/n1.log"
ok "environment, modes; SIGTERM kills programs and removes the work directory"
