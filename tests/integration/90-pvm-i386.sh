# 90-pvm-i386 — like 90-pvm-hetero, with host B a 32-bit little-endian
# host: Debian's i386 pvmd under qemu-i386 (PVM arch LINUX, 4-byte long),
# so XDR carries data between an LP64 and an ILP32 host.  Master/worker,
# the ring and the wildcard program must print exactly tests/pvm/expected.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
pvm_need_target i386
progs="pvm_master pvm_worker pvm_ring pvm_wild"
t0=$(pvm_now)
pvm_build_host $progs
pvm_build_target i386 $progs
t1=$(pvm_now)
pvm_start_hetero i386
pvm_conf | tee "$T/conf"
expect_grep '^ *10\.231\.7\.1 +[0-9a-f]+ +LINUX64 ' "$T/conf" "host A is LINUX64"
expect_grep '^ *10\.231\.7\.2 +[0-9a-f]+ +LINUX ' "$T/conf" "host B is LINUX (i386)"
ok "conf: LINUX64 and LINUX"

for run in "mw master pvm_master 6" "ring ring pvm_ring 4 3" "wild wild pvm_wild 4"; do
	# shellcheck disable=SC2086
	set -- $run
	n=$1 exp=$2
	shift 2
	pvm_run "$n" 60 "$@" || { rc=$?; pvm_show "$n"; fail "$1 exited $rc"; }
	diff -u "$TOP/tests/pvm/expected/$exp.out" "$T/$n.out" || { pvm_show "$n"; fail "$1: output differs"; }
done
expect_grep '^placement: worker [0-9]+ .* arch LINUX$' "$T/mw.err" "a worker on i386"
expect_grep '^placement: instance [0-9]+ .* arch LINUX$' "$T/ring.err" "a ring instance on i386"
ok "master/worker, ring and wildcard across LINUX64 and LINUX (i386)"
pvm_halt
t2=$(pvm_now)
[ -z "$(_pvm_pids)" ] || fail "processes left after halt: $(_pvm_pids)"
echo "timing: builds $(pvm_secs "$t0" "$t1") s, VM + three runs + halt $(pvm_secs "$t1" "$t2") s"
