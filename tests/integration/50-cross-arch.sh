# 50-cross-arch — one console, three architectures.
# A native daemon, an s390x daemon (big-endian LP64) and an i386 daemon
# (little-endian ILP32), the latter two cross-compiled and run under
# qemu-user.  The console's `node list` must show what each node measured
# about itself (nothing here is hard-coded in the console), then a killed
# node must show as down while the others stay up.
. "$(dirname "$0")/../lib/common.sh"

for p in linux-s390x-qemu linux-i386-qemu; do
	[ -x "$TOP/build/$p/bin/paravtd" ] || fail "build/$p/bin/paravtd missing (make nodes)"
done
start_daemon nat linux-x86_64
start_daemon big linux-s390x-qemu
start_daemon i32 linux-i386-qemu

# shellcheck disable=SC2154
"$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "node add big 127.0.0.1:$DPORT_big" \
	-e "node add i32 127.0.0.1:$DPORT_i32" -e "node list" >"$T/list" 2>&1 ||
	{ cat "$T/list"; fail "console exited $?"; }
cat "$T/list"
# Columns: NAME ADDRESS STATE OS ARCH ORDER LONG PTR PORT ...
expect_grep '^nat +127\.0\.0\.1:[0-9]+ +up +Linux +x86_64 +little +8 +8 +linux-x86_64' "$T/list"
expect_grep '^big +127\.0\.0\.1:[0-9]+ +up +Linux +s390x +big +8 +8 +linux-s390x-qemu' "$T/list"
expect_grep '^i32 +127\.0\.0\.1:[0-9]+ +up +Linux +i686 +little +4 +4 +linux-i386-qemu' "$T/list"
ok "three architectures listed with their own ABI"

# Kill the s390x node mid-session; the console must report it down and
# keep the others.  Commands arrive over a pipe with pauses between them.
fifo=$T/cmds
mkfifo "$fifo"
"$PARAVT" -n <"$fifo" >"$T/out2" 2>&1 &
cpid=$!
track_pid $cpid
exec 3>"$fifo"
echo "node add nat 127.0.0.1:$DPORT_nat" >&3
echo "node add big 127.0.0.1:$DPORT_big" >&3
echo "node list" >&3
wait_for 20 grep -q '^big .* up ' "$T/out2" || { cat "$T/out2"; fail "big not up"; }
kill -9 "$DPID_big"
sleep 0.5
echo "node list" >&3
wait_for 20 grep -Eq '^big .*down' "$T/out2" || { cat "$T/out2"; fail "big not reported down"; }
echo "quit" >&3
exec 3>&-
wait $cpid
cat "$T/out2"
expect_grep '^nat .* up ' "$T/out2"
ok "killed node reported down, others still up"
