#!/bin/sh
# 10-daemon-startup.sh — start-up checks: token file mode 0644 refused with
# a clear message; missing explicit token file refused; a non-loopback
# listen address refused without --allow-remote; bad options are usage
# errors; --help shows the man page SYNOPSIS; --version.
. "$(dirname "$0")/../lib/common.sh"
[ -x "$PARAVTD" ] || fail "no $PARAVTD"

printf 'secret\n' >"$T/tok" && chmod 644 "$T/tok"
"$PARAVTD" --listen 127.0.0.1:0 --token-file "$T/tok" >"$T/out" 2>&1
rc=$?
cat "$T/out"
[ $rc = 1 ] || fail "exit $rc with a 0644 token file"
expect_grep "token file $T/tok: mode 0644 is too open; it must be 0600" "$T/out"

"$PARAVTD" --listen 127.0.0.1:0 --token-file "$T/none" >"$T/out" 2>&1
[ $? = 1 ] || fail "missing token file accepted"
expect_grep "token file $T/none: No such file or directory" "$T/out"

"$PARAVTD" --listen 192.0.2.1:0 >"$T/out" 2>&1
[ $? = 1 ] || fail "non-loopback listen accepted"
expect_grep 'refusing to listen on 192\.0\.2\.1: not a loopback address \(use --allow-remote' "$T/out"
expect_no_grep 'WARNING' "$T/out"

# With --allow-remote the warning is loud (the bind itself may fail here).
"$PARAVTD" --listen 192.0.2.1:0 --allow-remote >"$T/out" 2>&1
expect_grep 'WARNING: listening on 192\.0\.2\.1:0, not on loopback' "$T/out"

"$PARAVTD" --bogus >"$T/out" 2>&1
[ $? = 2 ] || fail "bad option not a usage error"
expect_grep '^paravtd: unknown option --bogus$' "$T/out"

"$PARAVTD" --no-cpu-share=1 >"$T/out" 2>&1
[ $? = 2 ] || fail "a value for a flag not a usage error"
expect_grep '^paravtd: --no-cpu-share takes no value$' "$T/out"

"$PARAVTD" --version >"$T/out" 2>&1
expect_grep "^paravtd 0\.1\.0 \(protocol ${PROTO}, port linux-x86_64\)\$" "$T/out"

"$PARAVTD" --help >"$T/help" 2>&1
syn=$(MANWIDTH=500 man -l "$TOP/man/paravtd.8" 2>/dev/null | sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
[ -n "$syn" ] || skip "man cannot render the page here"
usage=$(sed -n 's/^usage: //p' "$T/help")
[ "$syn" = "$usage" ] || fail "usage line '$usage' differs from SYNOPSIS '$syn'"
ok "start-up checks"
