#!/bin/sh
# tests/run.sh — runs every test layer and prints one closing line
# "N passed, N failed[, N skipped]".
#
#   tests/run.sh [unit|integration|fuzz|all] [NAME-FILTER]
#
# Layers:
#   unit         every build/tests/unit/test_* (cmocka); each case counts
#   fuzz         every build/tests/fuzz/fuzz_* for FUZZ_SECONDS (default 4)
#   integration  every tests/integration/*.sh; exit 0 pass, 77 skip, else
#                fail; each is killed after TEST_TIMEOUT seconds (default 180);
#                one that leaves an MPI job's files behind (leftovers) fails
# Logs of failed tests are printed; all logs are kept in build/tests/logs.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 2
layer=${1:-all}
filter=${2:-}
LOGS=$TOP/build/tests/logs
mkdir -p "$LOGS"
pass=0 fail=0 skip=0
failed_names=""

note_fail() {
	fail=$((fail + ${2:-1}))
	failed_names="$failed_names $1"
	echo "---- log of $1 ----"
	tail -n 60 "$3"
	echo "---- end of $1 ----"
}

run_unit() {
	for t in build/tests/unit/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		case "$name" in *"$filter"*) ;; *) continue ;; esac
		log=$LOGS/$name.log
		timeout 120 "$t" >"$log" 2>&1
		rc=$?
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		p=${p:-0} f=${f:-0}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		pass=$((pass + p))
		echo "unit  $name: $p passed, $f failed"
		[ "$f" -gt 0 ] && note_fail "$name" "$f" "$log"
	done
}

run_fuzz() {
	secs=${FUZZ_SECONDS:-4}
	for t in build/tests/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		case "$name" in *"$filter"*) ;; *) continue ;; esac
		log=$LOGS/$name.log
		corpus=$TOP/build/tests/fuzz/corpus-$name
		mkdir -p "$corpus"
		seeds=$TOP/tests/fuzz/seeds maxlen=4096
		[ -d "$seeds-${name#fuzz_}" ] && seeds=$seeds-${name#fuzz_}
		[ "$name" = fuzz_tfile ] && maxlen=16384 # whole small traces
		if timeout $((secs + 60)) "$t" -max_total_time="$secs" \
			-max_len=$maxlen -rss_limit_mb=1024 "$corpus" \
			$( [ -d "$seeds" ] && echo "$seeds" ) >"$log" 2>&1; then
			pass=$((pass + 1))
			echo "fuzz  $name: ok ($(grep -o 'Done [0-9]* runs' "$log" | tail -1))"
		else
			note_fail "$name" 1 "$log"
		fi
	done
}

# leftovers: what an MPI job that was killed leaves behind, one a line:
# its ranks' shared-memory segments in /dev/shm and mpirun's session
# directory under TMPDIR (paravtd keeps a traced job's in a directory
# of its own and removes it: daemon/work/dmn_mpidir.c).  In memory they
# stay until a reboot.
leftovers() {
	ls -d /dev/shm/vader_segment.* "${TMPDIR:-/tmp}"/ompi.*/pid.* \
		2>/dev/null | sort
}

# left_behind NAME: what leftovers lists now and did not before the test
# (in $LOGS/NAME.before), one a line; nothing when it left nothing.
left_behind() {
	leftovers >"$LOGS/$1.after"
	comm -13 "$LOGS/$1.before" "$LOGS/$1.after"
	rm -f "$LOGS/$1.before" "$LOGS/$1.after"
}

run_integration() {
	for t in tests/integration/*.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		case "$name" in *"$filter"*) ;; *) continue ;; esac
		log=$LOGS/$name.log
		leftovers >"$LOGS/$name.before"
		start=$(date +%s)
		timeout -k 10 "${TEST_TIMEOUT:-180}" sh "$t" >"$log" 2>&1 </dev/null
		rc=$?
		secs=$(( $(date +%s) - start ))
		left=$(left_behind "$name")
		if [ -n "$left" ] && [ "$rc" -ne 77 ]; then
			printf 'FAIL: left behind (an MPI job killed without its files removed):\n%s\n' \
				"$left" >>"$log"
			[ "$rc" -eq 0 ] && rc=1
		fi
		case $rc in
		0) pass=$((pass + 1)); echo "integ $name: pass (${secs}s)" ;;
		77) skip=$((skip + 1)); echo "integ $name: skipped: $(tail -n 1 "$log")" ;;
		*) echo "integ $name: FAIL (exit $rc, ${secs}s)"; note_fail "$name" 1 "$log" ;;
		esac
	done
}

case $layer in
unit) run_unit ;;
fuzz) run_fuzz ;;
integration) run_integration ;;
all) run_unit; run_fuzz; run_integration ;;
*) echo "usage: tests/run.sh [unit|integration|fuzz|all] [FILTER]" >&2; exit 2 ;;
esac

[ -n "$failed_names" ] && echo "failed:$failed_names"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
