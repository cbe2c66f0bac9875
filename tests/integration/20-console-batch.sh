#!/bin/sh
# 20-console-batch.sh — batch mode rules: -x SCRIPT with comments and
# blank lines, errors as "paravt: SCRIPT:LINE: error: ...", execution goes
# on after an error, exit status 1 if any command failed and 2 for usage
# errors; unknown commands get "did you mean"; a missing script is a clear
# error; ~/.paravtrc runs unless -n; stdin is read when not a terminal;
# usage line equals the man page's SYNOPSIS.
. "$(dirname "$0")/../lib/common.sh"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
start_daemon n1 linux-x86_64

cat >"$T/script" <<EOS
# a comment

node add n1 127.0.0.1:$DPORT_n1
nod list
   # indented comment
node list
EOS
"$PARAVT" -n -x "$T/script" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 1 ] || fail "exit status $rc, expected 1"
expect_grep "^paravt: $T/script:4: error: unknown command 'nod'; did you mean 'node'\?$" "$T/err"
expect_grep '^n1 +127.0.0.1:[0-9]+ +up ' "$T/out"

"$PARAVT" -n -e "frobnicate" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "unknown command: exit status"
expect_grep "^paravt: error: unknown command 'frobnicate'; try 'help'$" "$T/err"
"$PARAVT" -n -e "node lst" 2>"$T/err"
expect_grep "^paravt: error: unknown node subcommand 'lst'; did you mean 'list'\?$" "$T/err"

"$PARAVT" -n -x "$T/missing" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "missing script: exit status"
expect_grep "^paravt: error: cannot open script '$T/missing': No such file or directory$" "$T/err"

"$PARAVT" -n -q >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "bad option: exit status"
usage=$(grep '^usage:' "$T/err")
[ "$usage" = "usage: paravt [-hVn] [-x SCRIPT] [-e COMMAND]... [--token-file FILE]" ] ||
	fail "usage line: $usage"
syn=$(groff -mandoc -Tutf8 -P-cbou "$TOP/man/paravt.1" 2>/dev/null |
	sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
[ "usage: $syn" = "$usage" ] || fail "SYNOPSIS '$syn' differs from usage"
"$PARAVT" -V | grep -Eq "^paravt [0-9.]+ \(protocol ${PROTO}\)\$" || fail "-V"
"$PARAVT" -h | grep -q -- '--token-file' || fail "-h"

# -e in order, stopping at quit; exit 0 when all succeed.
"$PARAVT" -n -e "help" -e "quit" -e "frobnicate" >"$T/out" 2>"$T/err" ||
	fail "quit did not stop the commands"
expect_grep '^  node add ' "$T/out"

# ~/.paravtrc runs unless -n; its errors name the file and line.
printf 'node add rc 127.0.0.1:%s\nbogus\n' "$DPORT_n1" >"$HOME/.paravtrc"
"$PARAVT" -e "node list" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "rc error: exit status"
expect_grep '^rc +127.0.0.1' "$T/out"
expect_grep "^paravt: $HOME/.paravtrc:2: error: unknown command 'bogus'" "$T/err"
"$PARAVT" -n -e "node list" >"$T/out" 2>&1 || fail "-n"
expect_grep '^no nodes' "$T/out"
rm "$HOME/.paravtrc"

# Commands from stdin.
printf 'help node\nsleep 0.1\nnode list\n' | "$PARAVT" -n >"$T/out" 2>"$T/err" ||
	fail "stdin batch"
expect_grep '^usage: node SUBCOMMAND' "$T/out"
printf 'node ping\n' | "$PARAVT" -n 2>"$T/err"
[ $? -eq 1 ] || fail "stdin error status"
expect_grep '^paravt: stdin:1: error: usage: node ping NAME' "$T/err"
ok "batch mode: scripts, errors, exit status, rc file, stdin"
