#!/bin/sh
# 86-tracefile-long.sh — a trace file of more than 2^20 events is read,
# matched, exported and reported whole (issue 11: at 1,080,016 events
# trace-info said "matched: 0 send/recv pairs", export wrote "1048576
# events, 0 messages": the console's ring forgot the oldest events):
#   - tests/tools/gentrace writes an MPI ping-pong of 135,000 round trips
#     (1,080,012 events) through the console's trace file writer;
#   - `paravt trace-info`: every event, 270,000 matched pairs, none
#     unmatched; the same with a version 1 header (gentrace writes events
#     as arrays of integers, as version 1 did);
#   - `paravt export --chrome --otf2`: 1,080,012 events, 270,000 messages;
#     `paravt report`: 270,000 messages matched;
#   - `open` then `trace keep 10000`: the store forgets all but the last
#     10000 events and says so; the analysis of what is left says what it
#     covers and still matches (the processes' ranks are known although
#     their first events are gone).
. "$(dirname "$0")/../lib/common.sh"
GEN=$TOP/build/tests/tools/gentrace
[ -x "$GEN" ] || fail "no $GEN (make test-bins)"
cd "$T" || fail "cd $T"
"$GEN" long.pvt 135000 >gen.out 2>&1 || { cat gen.out; fail "gentrace"; }

"$PARAVT" trace-info long.pvt >info.out 2>&1 || { cat info.out; fail "trace-info"; }
cat info.out
expect_grep '^events: +1080012 \(270000 sends, 270000 receives' info.out
expect_grep '^matched: +270000 send/recv pairs.*unmatched 0 sends, 0 receives' info.out \
	"trace-info does not match every pair of a 1 M event trace"
ok "trace-info: 1,080,012 events, 270,000 pairs matched"

# gentrace writes events as arrays of integers, as format version 1 did:
# the same file with a version 1 header reads the same
{ head -c 14 long.pvt; printf '\001'; tail -c +16 long.pvt; } >v1.pvt
"$PARAVT" trace-info v1.pvt >v1.out 2>&1 || { cat v1.out; fail "trace-info v1"; }
expect_grep '^events: +1080012 \(270000 sends, 270000 receives' v1.out
ok "a version 1 file (events as arrays) reads the same"

"$PARAVT" export long.pvt --chrome long.json --otf2 otf >exp.out 2>&1 ||
	{ cat exp.out; fail "export"; }
cat exp.out
expect_grep 'long.json \(Chrome JSON\): 2 tasks, 1080012 events, 270000 messages' exp.out
expect_grep 'paravt.otf2 \(OTF2\): 2 tasks, 1080012 events, 270000 messages' exp.out
"$PARAVT" report long.pvt -o long.html >rep.out 2>&1 || { cat rep.out; fail "report"; }
expect_grep '270000 messages matched' rep.out
ok "export and report: every event and message"

"$PARAVT" -e "open long.pvt" -e "trace keep" -e "trace keep 10000" \
	-e "trace check" -e stats >keep.out 2>&1 || { cat keep.out; fail "open"; }
cat keep.out
expect_grep '^trace keep: every event \(a trace file read back\) \(1080012 stored, 0 forgotten\)' keep.out
expect_grep '^trace keep: 10000 events in memory \(10000 stored, 1070012 forgotten\)' keep.out
expect_grep 'note: the analysis covers the last 10000 events; the console forgot the 1070012' keep.out
expect_grep '^ *matched pairs: [1-9][0-9]*,' keep.out \
	"the analysis of a store that forgot the first events matches nothing"
expect_grep '1070012 dropped from the store' keep.out
ok "trace keep: forgets, says so, and what is left still matches"
