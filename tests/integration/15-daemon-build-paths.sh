#!/bin/sh
# 15-daemon-build-paths.sh — FILE_PUT names that would leave the build
# directory are refused and nothing is written outside it: "../evil.c",
# "/etc/x", "a/../../b", "./x", "a//b", "-o", bad characters, a symbolic
# link planted in the build directory (as a file and as a directory), an
# existing file; a console without control gets EBUSY or EPROTO.
. "$(dirname "$0")/../lib/common.sh"
WP=$TOP/build/tests/tools/wirepoke
[ -x "$WP" ] || fail "no $WP (make test-bins)"
export TMPDIR="$T"
start_daemon n1 linux-x86_64
A=127.0.0.1:$DPORT_n1
WORK=$T/paravtd-$(id -u)/$DPID_n1-s1
echo 'int evil;' >"$T/evil.c"
mkdir -p "$T/outside"

# Holds the session while the links are planted.
"$WP" "$A" --wait-ms 5000 --send SESSION_OPEN:t --put "1:ok.c=$T/evil.c" \
	--sleep-ms 1500 \
	--put "1:link/x.c=$T/evil.c" --put "1:flink.c=$T/evil.c" \
	--put "1:ok.c=$T/evil.c" --put "1:sub/dir/deep.c=$T/evil.c" \
	>"$T/out1" 2>&1 &
c1=$!
track_pid $c1
wait_for 10 test -e "$WORK/b1/ok.c" || { cat "$T/out1"; fail "first file not written"; }
ln -s "$T/outside" "$WORK/b1/link"
ln -s "$T/outside/f.c" "$WORK/b1/flink.c"

"$WP" "$A" --wait-ms 5000 --send SESSION_OPEN:other --put "1:x.c=$T/evil.c" \
	>"$T/busy" 2>&1
wait $c1
cat "$T/out1" "$T/busy"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: cannot create link/x\.c in build 1: ' "$T/out1"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: cannot create flink\.c in build 1: something is already there$' "$T/out1"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: cannot create ok\.c in build 1: something is already there$' "$T/out1"
expect_grep '^ERROR EBUSY ref=[0-9]+ FILE_PUT: node n1 is controlled by console t since ' "$T/busy"
[ -z "$(ls -A "$T/outside")" ] || fail "something was written through a link: $(ls "$T/outside")"
expect_no_grep "deep" "$T/out1"
ok "planted links refused, nothing written through them; EBUSY for others"

"$WP" "$A" --wait-ms 5000 --put "1:x.c=$T/evil.c" >"$T/nosess" 2>&1
expect_grep '^ERROR EPROTO ref=[0-9]+ FILE_PUT needs a session: send SESSION_OPEN first$' "$T/nosess"

"$WP" "$A" --wait-ms 5000 --send SESSION_OPEN:t \
	--put "1:../evil.c=$T/evil.c" --put "1:/etc/x=$T/evil.c" \
	--put "1:a/../../b=$T/evil.c" --put "1:./x.c=$T/evil.c" \
	--put "1:a//b.c=$T/evil.c" --put "1:-o=$T/evil.c" \
	--put "1:a b.c=$T/evil.c" --put "1:x;rm.c=$T/evil.c" \
	--put "1:..=$T/evil.c" --put "1:sub/=$T/evil.c" \
	--build '1:../prog:ok.c' --build '1:p:../../x.c' \
	>"$T/out" 2>&1
cat "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path \.\./evil\.c escapes the build directory$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path /etc/x escapes the build directory$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path a/\.\./\.\./b escapes the build directory$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path \.\. escapes the build directory$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path \./x\.c has an empty, "\." or option-like component$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path a//b\.c has an empty' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path sub/ has an empty' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path -o has an empty, "\." or option-like component$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path a b\.c has a character outside' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ FILE_PUT: path x;rm\.c has a character outside' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ BUILD: program \.\./prog escapes the build directory$' "$T/out"
expect_grep '^ERROR EARG ref=[0-9]+ BUILD: source \.\./\.\./x\.c escapes the build directory$' "$T/out"
[ "$(grep -c '^ERROR EARG' "$T/out")" = 12 ] || fail "expected 12 refusals"
for f in "$T/paravtd-$(id -u)/evil.c" "$T/evil.c.o" /etc/x "$T/b" "$T/paravtd-$(id -u)/b"; do
	[ "$f" = "$T/evil.c" ] && continue
	[ ! -e "$f" ] || fail "$f was written"
done
[ -z "$(ls -A "$T/outside")" ] || fail "something was written outside"
ok "traversal names refused"
