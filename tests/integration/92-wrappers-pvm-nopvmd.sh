#!/bin/sh
# 92-wrappers-pvm-nopvmd.sh — a PVM program run where there is no pvmd
# says the same traced as plainly.  Almost every PVM call of a task that
# is not enrolled tries to enrol it and, failing, prints libpvm's
# complaint; the wrappers must not try more often than the program does
# (asking the tid or the message context for a record, or timing the
# wrappers' own work, would each be one more try: the calibration once
# made it 60000 lines).  tests/programs/pvm_selfping.c (pvm_mytid, then
# initsend, pack, send, recv, unpack twice) built plainly and with the
# wrappers (as 92-wrappers-pvm builds), both run with PVM_TMP an empty
# directory, the traced one into ev_sink (ring mode).  Checked: the same
# exit status, stdout and stderr (pids left out), and the traced run's
# records reached the sink (its PROG_START says the task has no tid).
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/pvm_wrapped.sh"
pvm_wrapped_setup
cd "$T" || fail "cd $T"
P=$TOP/tests/programs/pvm_selfping.c
CF="-std=c99 -D_DEFAULT_SOURCE -O1 -g"
# shellcheck disable=SC2086
cc $CF -o plain "$P" -lpvm3 >build.log 2>&1 || { cat build.log; fail "plain build"; }
# shellcheck disable=SC2086
pvm_cc_wrapped traced "$P" traced.log $CF
mkdir -p empty
export PVM_TMP=$T/empty PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
unset PVM_VMID PVM_EXPORT 2>/dev/null || true

pvm_sink_socket np
"$SINK" -r -s "$SOCK" -o sink.out &
track_pid $!
wait_for 5 test -S "$SOCK" || fail "ev_sink did not listen"

timeout 60 ./plain 2 >plain.out 2>plain.err
prc=$?
PARAVT_SOCK=$SOCK PARAVT_PROC=1 PARAVT_SESSION=$SID timeout 60 ./traced 2 \
	>traced.out 2>traced.err
trc=$?
[ "$prc" = "$trc" ] || fail "exit status $trc traced, $prc plainly"
diff -u plain.out traced.out || fail "stdout differs"
# (pids and the program's name left out)
sed 's/\[pid[0-9]*\]/[pid]/; s/^[a-z]*: //' plain.err >plain.e
sed 's/\[pid[0-9]*\]/[pid]/; s/^[a-z]*: //' traced.err >traced.e
[ -s plain.e ] || fail "libpvm said nothing without a pvmd"
diff -u plain.e traced.e || fail "stderr differs"
ok "without a pvmd: the same status, output and complaints ($(wc -l <plain.e) lines) traced as plainly"
wait_for 10 grep -q '^close ' sink.out || { cat sink.out; fail "the task never closed"; }
expect_grep 'kind=prog_start .*peer=-' sink.out "PROG_START with no tid"
expect_grep 'op=pvm_send ' sink.out "the sends recorded"
ok "the records reached the sink"
