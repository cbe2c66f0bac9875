# 90-pvm-single — the PVM test programs on a private one-host virtual
# machine (native LINUX64 pvmd, no paravt): master/worker, the group ring
# and wildcard receives.  Their stdout must equal tests/pvm/expected/*.out
# exactly (it is deterministic whatever the arrival order).
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/pvm/pvm-cluster.sh"

command -v pvmd >/dev/null || skip "PVM not installed (run ports/deps.sh)"
[ -f /usr/include/pvm3.h ] || skip "pvm-dev not installed (run ports/deps.sh)"
t0=$(pvm_now)
pvm_build_host pvm_master pvm_worker pvm_ring pvm_wild
pvm_start_single
t1=$(pvm_now)
pvm_conf | tee "$T/conf"
expect_grep ' LINUX64 ' "$T/conf" "conf shows the LINUX64 host"

# check NAME: the run's stdout equals the expected file.
check() {
	diff -u "$TOP/tests/pvm/expected/$1.out" "$T/$2.out" >"$T/$2.diff" ||
		{ cat "$T/$2.diff"; pvm_show "$2"; fail "$2: output differs from expected/$1.out"; }
}

pvm_run mw 60 pvm_master 6 || { rc=$?; pvm_show mw; fail "pvm_master exited $rc"; }
check master mw
expect_grep '^placement: worker 5 .* arch LINUX64$' "$T/mw.err"
ok "master/worker: 6 workers, sums checked"

pvm_run ring 60 pvm_ring 4 3 || { rc=$?; pvm_show ring; fail "pvm_ring exited $rc"; }
check ring ring
ok "ring: 4 instances, 3 trips, bcast, reduce"

pvm_run wild 60 pvm_wild 4 || { rc=$?; pvm_show wild; fail "pvm_wild exited $rc"; }
check wild wild
ok "wildcard receives: per-source order kept"

pvm_halt
t2=$(pvm_now)
[ -z "$(_pvm_pids)" ] || fail "processes left after halt: $(_pvm_pids)"
ok "halted, nothing left"
echo "timing: build+start $(pvm_secs "$t0" "$t1") s, three runs+halt $(pvm_secs "$t1" "$t2") s"
