#!/bin/sh
# 20-console-refused.sh — connections the console must refuse, each with
# a clear message and exit status 1: a wrong token, a daemon speaking
# another protocol version, a daemon already controlled by another console
# (busy), a port where nothing listens, a bad node name, a duplicate name.
. "$(dirname "$0")/../lib/common.sh"
[ -x "$PARAVT" ] || fail "no $PARAVT (make)"
start_daemon n1 linux-x86_64
start_daemon old linux-x86_64 --proto-version 99

# check NAME PATTERN paravt-args...: exit 1 and PATTERN on stderr.
check() {
	_what=$1 _pat=$2; shift 2
	"$PARAVT" -n "$@" >"$T/out" 2>"$T/err"
	_rc=$?
	cat "$T/out" "$T/err"
	[ $_rc -eq 1 ] || fail "$_what: exit status $_rc, expected 1"
	expect_grep "$_pat" "$T/err" "$_what: message"
}

printf '%064d\n' 7 >"$T/bad.token"
chmod 600 "$T/bad.token"
check "wrong token" \
	"^paravt: error: node n1: authentication failed: bad token \(token file $T/bad.token\)" \
	-e "node add n1 127.0.0.1:$DPORT_n1 --token-file $T/bad.token"
check "wrong token (global option)" "authentication failed: bad token" \
	--token-file "$T/bad.token" -e "node add n1 127.0.0.1:$DPORT_n1"

check "version" \
	"^paravt: error: node v: protocol version mismatch: peer speaks version 99, this is paravt [0-9.]+ speaking version ${PROTO}\$" \
	-e "node add v 127.0.0.1:$DPORT_old"

check "nothing listening" '^paravt: error: node z: connect: Connection refused$' \
	-e "node add z 127.0.0.1:1"
check "bad name" "^paravt: error: bad node name 'a/b'" -e "node add a/b 127.0.0.1:1"
check "bad address" "^paravt: error: node a: bad address 'localhost'" \
	-e "node add a localhost"

# The second add of the same name fails, the first stays up.
check "duplicate" '^paravt: error: node n1 already exists' \
	-e "node add n1 127.0.0.1:$DPORT_n1" -e "node add n1 127.0.0.1:$DPORT_n1" \
	-e "node list"
expect_grep '^n1 .* up ' "$T/out"

# A console holds the session; a second one is told the node is busy.
mkfifo "$T/in"
"$PARAVT" -n <"$T/in" >"$T/first" 2>&1 &
cpid=$!
track_pid $cpid
exec 3>"$T/in"
echo "node add n1 127.0.0.1:$DPORT_n1" >&3
wait_for 10 grep -q '^node n1 is up' "$T/first" || { cat "$T/first"; fail "first console"; }
check "busy" '^paravt: error: node n1: .*busy' -e "node add n1 127.0.0.1:$DPORT_n1"
echo quit >&3
exec 3>&-
wait $cpid || fail "first console failed"
ok "wrong token, version mismatch, busy and bad input refused clearly"
