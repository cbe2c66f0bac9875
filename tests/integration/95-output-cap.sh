#!/bin/sh
# 95-output-cap.sh — what the console shows of a process's output is
# bounded, the rest is kept in a file, and a flood cannot keep a run from
# its time limit (issue 11: a program looping on EOF printing a prompt
# wrote GBs in a minute and --timeout 40 did not stop it).
#   (a) prompt.c prints "value? " and reads at EOF for ever: `paravt trace
#       --timeout 5` ends with status 3 within a few seconds of 5 s, the
#       console's output stays under 2 MB (cap 1048576), says "output
#       beyond 1048576 bytes is not shown ... all of it goes to FILE" and
#       at the end "... N bytes dropped ... the full output is in FILE";
#       FILE holds more than the console showed, all of it prompts;
#   (b) lines.c prints 20000 numbered lines and exits 0: with
#       --output-cap 50000 the console shows the first lines (at most
#       50000 bytes), says "... N bytes dropped" with N = the rest, and
#       the file is exactly the whole output (seq 1 20000); without the
#       option all 20000 lines are shown and there is no note;
#   (c) --output-cap x is a usage error (status 2);
#   (d) crash.c prints a line without fflush, then writes through NULL
#       at line 9: the line reaches the console (stdout is line-buffered
#       under paravt, as on a terminal) and the crash is reported at
#       crash.c:9, the faulting statement, not main's first line.
. "$(dirname "$0")/../lib/common.sh"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
export TMPDIR=$T
cat >prompt.c <<'PROG'
#include <stdio.h>
int main(void)
{
	int v;

	for (;;) {
		printf("value? ");
		if (scanf("%d", &v) == 1)
			printf("got %d\n", v);
	}
}
PROG
cat >lines.c <<'PROG'
#include <stdio.h>
int main(void)
{
	int i;

	for (i = 1; i <= 20000; i++)
		printf("%d\n", i);
	return 0;
}
PROG

# ---- (a) a flood under a time limit ----------------------------------------
rc=0
t0=$(date +%s)
# shellcheck disable=SC2154
setsid -w timeout -k 5 60 "$PARAVT" trace -o prompt.pvt --timeout 5 \
	--node "nat=127.0.0.1:$DPORT_nat" prompt.c -- run </dev/null >prompt.out 2>&1 || rc=$?
t1=$(date +%s)
size=$(wc -c <prompt.out)
grep -av '^value? value' prompt.out | cut -c1-300
[ "$rc" = 3 ] || fail "status $rc, not 3 (time limit)"
[ $((t1 - t0)) -le 15 ] || fail "--timeout 5 took $((t1 - t0)) s"
[ "$size" -lt 2000000 ] || fail "the console printed $size bytes (cap 1048576)"
grep -aq '^\[p1 on nat: output beyond 1048576 bytes is not shown (PARAVT_OUTPUT_CAP); all of it goes to ' prompt.out ||
	fail "no note when the cap was reached"
note=$(grep -a '^\[p1 on nat: \.\.\. [0-9]* bytes dropped' prompt.out) ||
	fail "no '... N bytes dropped' line"
file=$(printf '%s\n' "$note" | sed -n 's/.*the full output is in \(.*\)\]$/\1/p')
[ -f "$file" ] || fail "no file '$file'"
fsize=$(wc -c <"$file")
[ "$fsize" -gt "$size" ] || fail "the file ($fsize bytes) holds no more than the console showed"
[ -z "$(head -c 700000 "$file" | tr -d '\n' | sed 's/value? //g')" ] ||
	fail "the file holds something else than the prompts"
ok "flood: status 3 after $((t1 - t0)) s, console $size bytes, file $fsize bytes"

# ---- (b) the cap on a program that ends --------------------------------------
seq 1 20000 >want
rc=0
setsid -w timeout -k 5 60 "$PARAVT" trace -o lines.pvt --output-cap 50000 \
	--node "nat=127.0.0.1:$DPORT_nat" lines.c -- run </dev/null >lines.out 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat lines.out; fail "lines: status $rc"; }
sed -n 's/^\[p1\] //p' lines.out >shown
shown=$(wc -c <shown)
total=$(wc -c <want)
[ "$shown" -le 50000 ] || fail "shown $shown bytes with --output-cap 50000"
head -n "$(wc -l <shown)" want | cmp -s - shown || fail "the lines shown are not the first ones"
note=$(grep '^\[p1 on nat: \.\.\. [0-9]* bytes dropped' lines.out) || { cat lines.out; fail "no dropped line"; }
echo "$note"
n=$(printf '%s\n' "$note" | sed 's/^\[p1 on nat: \.\.\. \([0-9]*\) bytes.*/\1/')
[ "$n" = $((total - shown)) ] || fail "dropped $n, not $((total - shown))"
file=$(printf '%s\n' "$note" | sed -n 's/.*the full output is in \(.*\)\]$/\1/p')
cmp -s want "$file" || fail "the file is not the whole output"
grep -n 'p1 exited' lines.out | head -1 >/dev/null || fail "no exit line"
ok "--output-cap 50000: $shown bytes shown, $n dropped and said, the file is the whole output"
rc=0
setsid -w timeout -k 5 60 "$PARAVT" trace -o lines2.pvt \
	--node "nat=127.0.0.1:$DPORT_nat" lines.c -- run </dev/null >lines2.out 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "lines without a cap: status $rc"
sed -n 's/^\[p1\] //p' lines2.out | cmp -s want - || fail "not every line shown under the default cap"
expect_no_grep 'bytes dropped|not shown' lines2.out
ok "default cap: all 20000 lines shown, no note"

# ---- (c) a bad value -----------------------------------------------------------
rc=0
"$PARAVT" trace -o x.pvt --output-cap x lines.c -- run </dev/null >bad.out 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--output-cap x: status $rc"
expect_grep "--output-cap needs a number of bytes" bad.out
ok "--output-cap x: usage error"

# ---- (d) a crash: the output before it, and its line ---------------------------
cat >crash.c <<'PROG'
#include <stdio.h>

int main(void)
{
	int *p = NULL;

	printf("before the crash\n");
	p = p + 0;
	*p = 1;
	return 0;
}
PROG
rc=0
setsid -w timeout -k 5 60 "$PARAVT" trace -o crash.pvt \
	--node "nat=127.0.0.1:$DPORT_nat" crash.c -- run </dev/null >crash.out 2>&1 || rc=$?
cat crash.out
[ "$rc" = 1 ] || fail "crash: status $rc, not 1"
expect_grep '^\[p1\] before the crash$' crash.out "the line printed before the crash was lost"
expect_grep '^\[p1 killed by signal SIGSEGV at crash\.c:9 in main \(\)\]$' crash.out \
	"the crash is not reported at its line"
ok "a crash: the line before it shown, reported at crash.c:9"
