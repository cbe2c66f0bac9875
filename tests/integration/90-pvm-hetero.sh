# 90-pvm-hetero — a heterogeneous PVM virtual machine on one machine (no
# paravt): host A is the native LINUX64 pvmd in network namespace A, host B
# the s390x Debian pvmd (big-endian) under qemu-s390x in namespace B, added
# from a hostfile through PVM_RSH=tests/pvm/pvm-rsh.sh.  Each host's ep=
# holds the programs built for it.  Master/worker must place workers on both
# hosts and print exactly what the single-host run printed; the ring and
# the wildcard program run across both hosts too.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
pvm_need_s390x
progs="pvm_master pvm_worker pvm_ring pvm_wild"
t0=$(pvm_now)
pvm_build_host $progs
pvm_build_s390x $progs
t1=$(pvm_now)

# Reference: the same programs on a one-host virtual machine.
pvm_start_single
pvm_run ref 60 pvm_master 6 || { rc=$?; pvm_show ref; fail "single-host pvm_master exited $rc"; }
pvm_run refring 60 pvm_ring 4 3 || { rc=$?; pvm_show refring; fail "single-host pvm_ring exited $rc"; }
pvm_halt
t2=$(pvm_now)

pvm_start_hetero
t3=$(pvm_now)
pvm_conf | tee "$T/conf"
expect_grep '^ *10\.231\.7\.1 +[0-9a-f]+ +LINUX64 ' "$T/conf" "host A is LINUX64"
expect_grep '^ *10\.231\.7\.2 +[0-9a-f]+ +LINUXS390 ' "$T/conf" "host B is LINUXS390"
ok "conf: LINUX64 and LINUXS390"

pvm_run mw 60 pvm_master 6 || { rc=$?; pvm_show mw; fail "pvm_master exited $rc"; }
diff -u "$T/ref.out" "$T/mw.out" || { pvm_show mw; fail "hetero output differs from single-host"; }
diff -u "$TOP/tests/pvm/expected/master.out" "$T/mw.out" || fail "output differs from expected/master.out"
grep '^placement:' "$T/mw.err"
expect_grep '^placement: worker [0-9]+ .* arch LINUX64$' "$T/mw.err" "a worker on LINUX64"
expect_grep '^placement: worker [0-9]+ .* arch LINUXS390$' "$T/mw.err" "a worker on LINUXS390"
# PvmTaskArch placement: worker 4 asked for the last host's arch.
expect_grep '^placement: worker 4 .* arch LINUXS390$' "$T/mw.err" "PvmTaskArch worker on s390x"
ok "master/worker across LINUX64 and LINUXS390: same output as one host"

pvm_run ring 60 pvm_ring 4 3 || { rc=$?; pvm_show ring; fail "pvm_ring exited $rc"; }
diff -u "$T/refring.out" "$T/ring.out" || { pvm_show ring; fail "ring output differs from single-host"; }
expect_grep '^placement: instance [0-9]+ .* arch LINUXS390$' "$T/ring.err" "ring instance on s390x"
ok "ring with groups across both hosts"

pvm_run wild 60 pvm_wild 4 || { rc=$?; pvm_show wild; fail "pvm_wild exited $rc"; }
diff -u "$TOP/tests/pvm/expected/wild.out" "$T/wild.out" || { pvm_show wild; fail "wild output differs"; }
ok "wildcard receives from both hosts"
t4=$(pvm_now)

ns_b=$PVM_NS_B
pvm_halt
t5=$(pvm_now)
[ -z "$(_pvm_pids)" ] || fail "processes left after halt: $(_pvm_pids)"
! ip netns list | grep -q "^$ns_b\\b" || fail "namespace $ns_b left"
ok "halted, nothing left"
echo "timing: builds $(pvm_secs "$t0" "$t1") s, single-host reference $(pvm_secs "$t1" "$t2") s," \
	"hetero start $(pvm_secs "$t2" "$t3") s, three runs $(pvm_secs "$t3" "$t4") s," \
	"halt $(pvm_secs "$t4" "$t5") s, total $(pvm_secs "$t0" "$t5") s"
