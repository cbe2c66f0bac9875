#!/bin/sh
# 80-debug-errors.sh — the debugger's bad cases, with real daemons and
# real builds:
#   - a source that does not compile: the diagnostic names the user's
#     file and line, and the command fails;
#   - an error only one node's compiler sees (i386): that node's build
#     fails with its diagnostic, the native one builds and runs;
#   - a breakpoint on a line without code moves to the next line with
#     code and says so (build notes and info breakpoints);
#   - print of an unknown name and of bad paths: clear errors;
#   - a breakpoint set after the build: live at once, landed on a probe;
#   - a program that crashes before its breakpoint: reported with the
#     signal and the last known location.
# (Path traversal in shipped file names is the daemon's test: the console
# only ships names the instrumenter made.)
. "$(dirname "$0")/../lib/common.sh"
PARAVT=${PARAVT_OVERRIDE:-$PARAVT}
[ -x "$TOP/build/linux-i386-qemu/bin/paravtd" ] || fail "build/linux-i386-qemu/bin/paravtd missing (make nodes)"
start_daemon nat linux-x86_64
start_daemon i32 linux-i386-qemu
cp "$TOP"/tests/programs/bp_*.c "$T/"
cd "$T" || fail "cd $T"
# shellcheck disable=SC2154
ADD_NAT="node add nat 127.0.0.1:$DPORT_nat"
# shellcheck disable=SC2154
ADD_I32="node add i32 127.0.0.1:$DPORT_i32"
line_of() { grep -n "$1" "$2" | head -n 1 | cut -d: -f1; }

# 1. A syntax error: the build fails and names bp_syntax.c and its line.
L_ERR=$(line_of '/\* ERROR \*/' bp_syntax.c)
if "$PARAVT" -n -e "$ADD_NAT" -e "load bp_syntax.c" -e "break main" \
	-e "build" >"$T/syn" 2>&1; then
	cat "$T/syn"; fail "build of a bad source succeeded"
fi
cat "$T/syn"
expect_grep "bp_syntax\.c:($((L_ERR - 1))|$L_ERR)(:[0-9]+)?: .*(error|expected)" "$T/syn" "diagnostic without the user's file:line"
ok "compile error names bp_syntax.c:$L_ERR"

# 2. An error only the i386 compiler sees: i32 fails, nat builds and runs.
L_ARCH=$(line_of '/\* ERROR \*/' bp_archerr.c)
if "$PARAVT" -n -e "$ADD_NAT" -e "$ADD_I32" -e "load bp_archerr.c" \
	-e "build" -e "run" -e "info procs" >"$T/arch" 2>&1; then
	cat "$T/arch"; fail "console exit status 0 although a build failed"
fi
cat "$T/arch"
expect_grep '^build on nat: ok$' "$T/arch"
expect_grep '^build on i32: failed' "$T/arch"
expect_grep "bp_archerr\.c:$L_ARCH(:[0-9]+)?: .*undeclared_on_i386" "$T/arch" "i386 diagnostic not on the user's line"
expect_grep 'error: build failed on i32' "$T/arch"
expect_grep '^\[p1\] n 2$' "$T/arch"
expect_grep '^\[p1 exited with status 0\]$' "$T/arch"
expect_no_grep 'on i32, pid' "$T/arch"
ok "one node's failed build does not stop the others"

# 3-5. Moved breakpoint, bad prints, breakpoint after build.
L_NOCODE=$(line_of '/\* BP:nocode \*/' bp_types.c)
L_MAIN=$(line_of '/\* BP:main \*/' bp_types.c)
"$PARAVT" -n -e "$ADD_NAT" -e "load bp_types.c" \
	-e "break bp_types.c:$L_NOCODE" -e "build" -e "info breakpoints" \
	-e "run" -e "print zz" -e "print list.v" -e "print cnt[3]" \
	-e "print list->nope" -e "print n1 +" -e "print cnt" \
	-e "break walk" -e "info breakpoints" -e "kill" -e "info procs" \
	>"$T/bad" 2>&1
cat "$T/bad"
expect_grep "breakpoint 1 .*moved.*bp_types\.c:$L_MAIN" "$T/bad" "no note that breakpoint 1 moved"
expect_grep "^1 +breakpoint +keep +y +bp_types\.c:$L_NOCODE +0 +bp_types\.c:$L_MAIN in main \(moved from line $L_NOCODE\)$" "$T/bad" "info breakpoints does not show the move"
expect_grep "^\[p1 on nat stopped at breakpoint 1, main \(\) at bp_types\.c:$L_MAIN\]$" "$T/bad"
ok "breakpoint on a line without code moved to $L_MAIN, and said so"
expect_grep "error: no variable 'zz' in scope at bp_types\.c:$L_MAIN$" "$T/bad"
expect_grep "error: .*'list'.*not a struct or union \(use '->'\)" "$T/bad"
expect_grep "error: cannot index 'cnt'" "$T/bad"
expect_grep "error: no member named 'nope' in struct node" "$T/bad"
expect_grep "error: an operand is missing at the end" "$T/bad"
expect_grep '^cnt = 42$' "$T/bad"
ok "unknown names and bad paths are clear errors; the session goes on"
expect_grep '^Breakpoint 2 at function walk$' "$T/bad"
expect_grep '^2 +breakpoint +keep +y +walk +0 +bp_types\.c:[0-9]+ in walk \(live\)$' "$T/bad"
expect_grep '^\[p1 killed by signal SIGKILL' "$T/bad"
expect_grep '^[ *] p1 +nat +[0-9]+ +killed +SIGKILL' "$T/bad"
ok "a breakpoint set after the build is live at once; kill"

# 6. A crash before the breakpoint: signal and last known location.
L_CRASH=$(line_of '/\* CRASH \*/' bp_crash.c)
L_AFTER=$(line_of '/\* BP:after \*/' bp_crash.c)
"$PARAVT" -n -e "$ADD_NAT" -e "load bp_crash.c" \
	-e "break bp_crash.c:$L_AFTER" -e "build" -e "run" -e "info procs" \
	-e "trace show --raw" \
	>"$T/crash" 2>&1 || { cat "$T/crash"; fail "console failed"; }
cat "$T/crash"
expect_grep '^\[p1\] about to crash$' "$T/crash"
# the faulting statement's line, not the function's first (issue 11)
expect_grep "^\[p1 killed by signal SIGSEGV at bp_crash\.c:$L_CRASH in crash_here \(\)\]$" "$T/crash"
expect_grep "^[ *] p1 +nat +[0-9]+ +crashed +SIGSEGV at bp_crash\.c:$L_CRASH in crash_here \(\)$" "$T/crash"
expect_no_grep 'stopped at breakpoint' "$T/crash"
ok "crash before the breakpoint reported at the faulting line $L_CRASH"
# The events the task had buffered, and the crash record the handler adds,
# reach the console before the process dies: start, then crash (signal 11).
expect_grep '^\[p1 nat\] seq 0 .* start ' "$T/crash" "program start event missing"
expect_grep '^\[p1 nat\] seq [0-9]+ .* crash +(signal )?signal 11' "$T/crash" "crash event missing"
ok "buffered events and the crash event reached the console"
